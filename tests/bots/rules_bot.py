"""A player that also answers the trick and score queries of `referee match --conformance`.

    rules_bot.py [MODE [TRANSCRIPT]]

It plays as examples/bots/random_bot.py does and works out each trick's winner and pile and each
hand's scores from what it was told, with the referee's own trick resolution. MODE plants one
error: wrong-winner (names the next seat as the winner of trick 2 of each hand), wrong-score
(adds 1 to the first seat's score in hand 1); "" plants none. With TRANSCRIPT, every line it
reads and writes is appended to that file. Points follow the cancellation ruleset: hearts 1,
a Black Maria 13, the kitty's to the seat that collected it.
"""
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path[:0] = [ROOT, os.path.join(ROOT, "examples", "bots")]
from random_bot import Player  # noqa: E402

from referee.rules.cards import Card  # noqa: E402
from referee.rules.tricks import resolve_trick  # noqa: E402

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
TRANSCRIPT = open(sys.argv[2], "a", encoding="utf-8") if len(sys.argv) > 2 else None


def points(cards):
    return sum(1 if c.endswith("H") else 13 if c == "QS" else 0 for c in cards)


class RulesPlayer(Player):
    def handle(self, msg):
        kind = msg["type"]
        if kind == "start":
            self.players = len(msg["players"])
            reply = super().handle(msg)
            reply["queries"] = ["legal", "trick", "score"]
            return reply
        if kind == "deal":
            self.cards, self.pile, self.taken, self.kitty_to = [], [], [0] * self.players, None
        elif kind == "played":
            self.cards.append(msg["card"])
        elif kind == "trick_query":
            return self.trick_answer(msg["trick"])
        elif kind == "trick":
            if msg["winner"] is not None:
                self.taken[msg["winner"]] += points(msg["collected"])
                if msg["kitty"]:
                    self.kitty_to = msg["winner"]
            self.cards, self.pile = [], msg["pile"]
        elif kind == "score_query":
            scores = list(self.taken)
            if self.kitty_to is not None:
                scores[self.kitty_to] += points(msg["kitty"])
            if "shooter" in msg:
                moon = self.rules["moon_points"]
                scores = ([-moon if s == msg["shooter"] else 0 for s in range(self.players)]
                          if msg["choice"] == "subtract" else
                          [0 if s == msg["shooter"] else moon for s in range(self.players)])
            scores[0] += MODE == "wrong-score" and msg["hand"] == 1
            return {"type": "score_answer", "scores": scores}
        return super().handle(msg)

    def trick_answer(self, number):
        leader = self.leader
        outcome = resolve_trick([Card.parse(c) for c in self.cards])
        winner = None if outcome.winner is None else (leader + outcome.winner) % self.players
        pile = [] if winner is not None else self.pile + self.cards
        if MODE == "wrong-winner" and number == 2 and winner is not None:
            winner = (winner + 1) % self.players
        return {"type": "trick_answer", "winner": winner, "pile": pile}


player = RulesPlayer(1)
for line in sys.stdin:
    if TRANSCRIPT is not None:
        TRANSCRIPT.write(line)
    message = json.loads(line)
    if message["type"] == "play_request" and not message["cards"]:
        player.leader = message["leader"]
    elif message["type"] == "played" and len(player.cards) == 0:
        player.leader = message["seat"]
    answer = player.handle(message)
    if answer is not None:
        if TRANSCRIPT is not None:
            TRANSCRIPT.write(json.dumps(answer) + "\n")
        print(json.dumps(answer), flush=True)
