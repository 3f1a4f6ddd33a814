"""This module declares the ruleset options: :class:`Ruleset`, the one frozen record of them,
documents each once with its range or later default (``referee rules`` prints
:data:`OPTION_DOCS`), and gives the values of an option with a fixed set of them a
:class:`~enum.StrEnum` each, whose members a loaded ruleset holds and the code compares with."""

from __future__ import annotations

from dataclasses import MISSING, field, fields
from enum import StrEnum

from referee.rules.cards import DECK_SIZE, NUM_RANKS, card_text
from referee.util.record import Record, record

HEART_POINTS = 1
BLACK_MARIA_POINTS = 13


class OptionValue(StrEnum):
    """An OptionValue is a value of an option with a fixed set of them.  A member equals,
    prints and shows in a repr as the word a ruleset file writes."""

    __repr__ = str.__repr__


# Each value is its member's name in lower case, as StrEnum's functional API makes it.
FirstLeader = OptionValue("FirstLeader", "LEFT_OF_DEALER TWO_OF_CLUBS AFTER_LAST_WINNER")
KittyTo = OptionValue("KittyTo", "FIRST_TRICK LAST_TRICK")
SetAsideLast = OptionValue("SetAsideLast", "NOBODY LEADER")
SetAsideWhen = OptionValue("SetAsideWhen", "ALL_CANCELLED TWO_PAIRS")
MoonChoice = OptionValue("MoonChoice", "SUBTRACT ADD")
DealerMoves = OptionValue("DealerMoves", "LEFT RIGHT")
NothingSurvives = OptionValue("NothingSurvives", "SET_ASIDE LEADER_WINS")
WinningTotal = OptionValue("WinningTotal", "LOWEST HIGHEST")
GameLength = OptionValue("GameLength", "TARGET ONE_HAND_PER_PLAYER")
# named directions; ``pass_cycle`` may also write "N left" and "N right"
PassDirection = OptionValue("PassDirection", "HOLD LEFT RIGHT ACROSS")
# OnFault says what ``referee match`` does when a program's answer is faulty (a match option):
# the program forfeits the game, or the referee plays a legal card for it
OnFault = OptionValue("OnFault", "FORFEIT PLAY")


_NAMED_DIRECTIONS = {d.value: d for d in PassDirection}


def canonical_direction(direction: str) -> str:
    """Write ``direction`` as the ruleset keeps it: a :class:`PassDirection` member ("none" is
    "hold", "1 left" is "left"), or "N left" or "N right" with single spaces."""
    words = direction.casefold().split()
    if words == ["none"]:
        return PassDirection.HOLD
    if len(words) == 2 and words[0] == "1":
        words = words[1:]
    text = " ".join(words)
    return _NAMED_DIRECTIONS.get(text, text)


def option(doc: str, values: tuple[int, int] | None = None, *, later: object = MISSING):
    """Declare a field of :class:`Ruleset`: what it means, the ``(low, high)`` an integer
    option may take (both included), and for an option added later the value that a file
    without a base that omits it gets (the behaviour it was written for)."""
    # the ranges lie far beyond any game's (a table of 104 players is dealt one card each from
    # two decks) and are small enough that sums, and the messages that quote them, stay short
    return field(metadata={"doc": doc, "values": values, "later": later})


@record
class Ruleset(Record):
    """A Ruleset holds every option of a ruleset, validated
    (:func:`referee.rules.ruleset.load_ruleset`)."""

    name: str = option("the ruleset's name, as logs write it in [Ruleset \"...\"]")
    min_players: int = option("fewest players allowed at the table", (2, 104))
    max_players: int = option("most players allowed at the table", (2, 104))
    decks: int = option(
        "number of 52-card decks shuffled together (2: every card has a twin)", (1, 2))
    target: int = option(  # a Target tag may write 18 digits
        "the game ends after a hand in which a total reaches or passes this score", (1, 10**18))
    pass_count: int = option("cards each player passes before play (0: no passing)", (0, 52))
    pass_cycle: tuple[str, ...] = option(
        "pass direction of hand 1, 2, ... repeating: left, right, across, hold, "
        "'N left', 'N right'")
    dealer_moves: DealerMoves = option("the deal passes one seat to the left or right each hand")
    first_leader: FirstLeader = option(
        "who leads the first trick: left_of_dealer, or two_of_clubs (its holder leads it)")
    first_lead_any_club: bool = option(
        "with two_of_clubs: the first leader may lead any club, not only the lowest "
        "(OpenSpiel's can_lead_any_club)", later=False)
    second_two_of_clubs_follows: bool = option(
        "with two_of_clubs: when the lowest club (the 2C, or the 3C when both 2C lie in the "
        "kitty) is led, the holder of its twin must play it to the first trick")
    first_lead_points: bool = option(
        "the first lead may be a heart or the Black Maria (true) or not unless nothing else is "
        "held (false)")
    first_trick_points: bool = option(
        "followers may play points to the first trick (true) or only when holding nothing else "
        "(false)")
    first_trick_follow_points: bool = option(
        "with first_trick_points = false: a player following suit may play a point card of the "
        "led suit to the first trick (true, as OpenSpiel) or only when holding no other card of "
        "that suit (false)")
    queen_breaks_hearts: bool = option("playing the Black Maria breaks hearts as a heart does")
    must_break_hearts: bool = option(
        "hearts may not be led until broken, unless the leader holds only hearts")
    lead_hearts_instead_of_queen: bool = option(
        "a leader holding only hearts and the Black Maria may lead a heart before hearts are "
        "broken")
    cancellation: bool = option("identical cards played to one trick cancel each other")
    set_aside_when: SetAsideWhen = option(
        "all_cancelled: set aside when no uncancelled led-suit card is left; two_pairs: also "
        "when two or more pairs cancel")
    set_aside_last: SetAsideLast = option(
        "who takes a set-aside last trick (and the pile): nobody (its points are lost) or its "
        "leader")
    kitty_to: KittyTo = option(
        "who takes the kitty: the winner of the first (won) trick, or of the last trick")
    moon_points: int = option("what shooting the moon is worth", (-1000, 1000))
    moon_choices: tuple[MoonChoice, ...] = option(
        "what a shooter may choose: subtract (own score -moon_points) and/or add (+moon_points "
        "to every other player)")
    jack_of_diamonds_bonus: int = option(
        "points (usually negative) for taking the jack of diamonds; 0 turns it off", (-1000, 1000))
    no_tricks_bonus: int = option(
        "points (usually negative) for a player who won no trick in the hand; 0 turns it off",
        (-1000, 1000))
    no_tricks_bonus_in_moon_hand: bool = option(
        "the no-tricks bonus is also given in a hand where the moon was shot (false: not then, "
        "as OpenSpiel)", later=True)
    unpassable_cards: tuple[str, ...] = option(
        "cards that may not be passed (e.g. [\"2C\"]); [] lets any card be passed", later=[])
    two_of_clubs_apart: bool = option(
        "no player is dealt both 2C (a deal that gives one player both breaks R2.4)", later=False)
    led_heart_breaks_hearts: bool = option(
        "a heart that is led breaks hearts (false: only a heart played to a trick another "
        "player led)", later=True)
    first_lead_fallback: bool = option(
        "with first_lead_points = false: a leader holding only points may lead one (false: "
        "never, which can leave no legal card)", later=True)
    first_trick_points_whole_hand: bool = option(
        "with first_trick_points = false: a point card may go to the first trick only when "
        "every card held is one, even when it follows suit (can leave no legal card)", later=False)
    pair_moon_points: int = option(
        "two players who took every point between them (nobody else scoring) score 0 and "
        "everyone else this; 0 turns it off", (-1000, 1000), later=0)
    shooting_the_moon: bool = option(
        "taking every point is a moon (false: there is no moon, the points count as taken)",
        later=True)
    lead_suit_switch: bool = option(
        "a player who cannot follow makes the suit of the card played the lead suit for the "
        "rest of the trick; the final lead suit wins", later=False)
    nothing_survives: NothingSurvives = option(
        "when no uncancelled card of the lead suit is left: set_aside (the pile waits) or "
        "leader_wins (the trick's leader takes it)", later=NothingSurvives.SET_ASIDE)
    start_total: int = option(
        "every total at the start of the game", (-1_000_000_000, 1_000_000_000), later=0)
    penalty_sign: int = option(  # and not 0
        "1: a point taken adds to the score; -1: it subtracts (penalty)", (-1, 1), later=1)
    clean_hand_pool: int = option(
        "a pool of this many points, plus what earlier hands carried, shared equally (rounded "
        "down) by the players who took no point; the remainder, or all of it when nobody is "
        "clean, carries over; 0 turns it off", (0, 1000), later=0)
    winning_total: WinningTotal = option(
        "who wins the game: the lowest or the highest total", later=WinningTotal.LOWEST)
    game_length: GameLength = option(
        "target: until a total reaches the target; one_hand_per_player: exactly as many hands "
        "as players", later=GameLength.TARGET)
    pass_by_hand_number: bool = option(
        "hand k passes k-1 seats to the left (hand 1 holds); pass_cycle is then unused",
        later=False)

    @property
    def deck_size(self) -> int:
        return DECK_SIZE * self.decks

    def cards_per_player(self, players: int) -> int:
        return self.deck_size // players

    def kitty_size(self, players: int) -> int:
        return self.deck_size % players

    @property
    def points_per_hand(self) -> int:
        """Count the points in the decks: derived from the cards, never written as a
        constant."""
        return self.decks * (NUM_RANKS * HEART_POINTS + BLACK_MARIA_POINTS)

    def pass_direction(self, hand_number: int) -> str:
        if self.pass_by_hand_number and self.pass_count:
            return PassDirection.HOLD if hand_number <= 1 else \
                canonical_direction(f"{hand_number - 1} {PassDirection.LEFT}")
        if self.pass_count == 0 or not self.pass_cycle:
            return PassDirection.HOLD
        return self.pass_cycle[(hand_number - 1) % len(self.pass_cycle)]

    def may_pass(self, card: int) -> bool:
        """Tell whether ``card`` may be passed (R3.1, ``unpassable_cards``)."""
        return not self.unpassable_cards or card_text(card) not in self.unpassable_cards

    def allows_players(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players


def bound_text(value: int) -> str:
    """Write an end of a range as TOML may write it: a long one with ``_`` between
    thousands."""
    return f"{value:_}" if abs(value) >= 10_000 else str(value)


def range_ends(option: str) -> tuple[str, str, bool]:
    """Return (smallest, largest, whether they are the only values) of an integer option, as
    the option table and the messages state them (penalty_sign: 1 or -1)."""
    if option == "penalty_sign":
        return "1", "-1", True
    low, high = OPTION_RANGES[option]
    return bound_text(low), bound_text(high), high - low == 1


def range_text(option: str) -> str:
    """Say which values an integer option may take, as the option table states them."""
    low, high, pair = range_ends(option)
    return f"{low} {'or' if pair else 'to'} {high}"


OPTION_RANGES: dict[str, tuple[int, int]] = {
    f.name: f.metadata["values"] for f in fields(Ruleset) if f.metadata["values"]}
OPTION_DOCS: dict[str, str] = {f.name: f.metadata["doc"] for f in fields(Ruleset)}
OPTION_DOCS.update({name: f"{text} (allowed: {range_text(name)})"
                    for name, text in OPTION_DOCS.items() if name in OPTION_RANGES})
LATER_OPTIONS: dict[str, object] = {
    f.name: f.metadata["later"] for f in fields(Ruleset) if f.metadata["later"] is not MISSING}
# CHOICES maps each option with a fixed set of values (moon_choices holds a list of them) to
# its values
CHOICES: dict[str, type[OptionValue]] = {
    "first_leader": FirstLeader,
    "kitty_to": KittyTo,
    "set_aside_last": SetAsideLast,
    "set_aside_when": SetAsideWhen,
    "dealer_moves": DealerMoves,
    "nothing_survives": NothingSurvives,
    "winning_total": WinningTotal,
    "game_length": GameLength,
}
