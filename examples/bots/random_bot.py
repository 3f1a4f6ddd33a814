#!/usr/bin/env python3
"""A random player for `referee match` (spec/protocol.md): standard library only.

It plays a random legal card, passes random cards and takes the first moon choice. Its legality
covers the bundled rulesets' options; under a house rule it does not know it may play an illegal
card, which the referee reports. An argument seeds its choices.
"""
import json
import random
import sys


def suit(card):
    return card[-1]


def points(card):  # hearts and the Black Maria
    return suit(card) == "H" or card == "QS"


class Player:
    def __init__(self, seed=None):
        self.rng = random.Random(seed)
        self.rules, self.hand, self.broken, self.trick, self.played = {}, [], False, 1, 0

    def legal(self, led):
        """The cards of the hand the rules allow, layer by layer: a layer whose exception holds
        nothing else (its witnesses) in the hand removes the cards it restricts."""
        rules, first, layers = self.rules, self.trick == 1, []  # (restricted, witness)
        if led is None:
            if first and rules["first_leader"] == "two_of_clubs" and "2C" in self.hand:
                layers.append((lambda c: c != "2C", lambda c: True))
            if first and not rules["first_lead_points"]:
                fallback = rules["first_lead_fallback"]
                layers.append((points, (lambda c: not points(c)) if fallback else (lambda c: 1)))
            if rules["must_break_hearts"] and not self.broken:
                queen = rules["lead_hearts_instead_of_queen"]
                layers.append((lambda c: suit(c) == "H",
                               lambda c: suit(c) != "H" and not (queen and c == "QS")))
        else:
            s = suit(led)
            layers.append((lambda c: suit(c) != s, lambda c: suit(c) == s))
            if first and not rules["first_trick_points"]:
                if rules["first_trick_points_whole_hand"]:
                    layers.append((points, lambda c: not points(c)))
                else:
                    if not rules["first_trick_follow_points"]:
                        layers.append((lambda c: points(c) and suit(c) == s,
                                       lambda c: suit(c) == s and not points(c)))
                    layers.append((lambda c: points(c) and suit(c) != s, lambda c: not points(c)))
        options = sorted(set(self.hand))
        for restricted, witness in layers:
            options = [c for c in options if not (restricted(c) and any(map(witness, self.hand)))]
        return options

    def handle(self, msg):
        """The answer to ``msg``, or None when it asks for none."""
        kind = msg["type"]
        if kind == "start":
            self.rules = msg["ruleset"]
            return {"type": "ready", "name": "random_bot.py", "queries": ["legal"]}
        if kind == "deal":
            self.hand, self.broken, self.trick, self.played = list(msg["cards"]), False, 1, 0
        elif kind == "pass_request":
            passable = [c for c in self.hand if c not in self.rules["unpassable_cards"]]
            given = self.rng.sample(passable, msg["count"])
            for card in given:
                self.hand.remove(card)
            return {"type": "pass", "cards": given}
        elif kind == "received":
            self.hand += msg["cards"]
        elif kind == "play_request":
            options = self.legal(msg["cards"][0] if msg["cards"] else None)
            card = self.rng.choice(options)
            self.hand.remove(card)
            return {"type": "play", "card": card, "legal": options}
        elif kind == "played":
            self.played += 1
            led = self.played == 1 and not self.rules["led_heart_breaks_hearts"]
            if (suit(msg["card"]) == "H" and not led) or (
                    msg["card"] == "QS" and self.rules["queen_breaks_hearts"]):
                self.broken = True
        elif kind == "trick":
            self.trick, self.played = self.trick + 1, 0
        elif kind == "moon_request":
            return {"type": "moon", "choice": msg["choices"][0]}
        return None  # game_end too: the referee then closes our input


def main():
    player = Player(sys.argv[1] if len(sys.argv) > 1 else None)
    for msg in map(json.loads, sys.stdin):
        reply = player.handle(msg)
        if reply is not None:
            print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
