"""The names of the ruleset options, their allowed values and their one documentation.

An option with a fixed set of values has a :class:`~enum.StrEnum` of them, whose members a
loaded ruleset holds and the code compares with; :data:`OPTION_DOCS` documents every option
once (``referee rules`` prints it)."""

from __future__ import annotations

from enum import StrEnum


class OptionValue(StrEnum):
    """A value of an option with a fixed set of them.  A member equals, prints and shows in a
    repr as the word a ruleset file writes."""

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
# what ``referee match`` does when a program's answer is faulty (a match option): the program
# forfeits the game, or the referee plays a legal card for it
OnFault = OptionValue("OnFault", "FORFEIT PLAY")


OPTION_DOCS: dict[str, str] = {
    "name": "the ruleset's name, as logs write it in [Ruleset \"...\"]",
    "min_players": "fewest players allowed at the table",
    "max_players": "most players allowed at the table",
    "decks": "number of 52-card decks shuffled together (2: every card has a twin)",
    "target": "the game ends after a hand in which a total reaches or passes this score",
    "pass_count": "cards each player passes before play (0: no passing)",
    "pass_cycle": "pass direction of hand 1, 2, ... repeating: left, right, across, hold, 'N left', 'N right'",
    "dealer_moves": "the deal passes one seat to the left or right each hand",
    "first_leader": "who leads the first trick: left_of_dealer, or two_of_clubs (its holder leads it)",
    "first_lead_any_club": "with two_of_clubs: the first leader may lead any club, not only the lowest (OpenSpiel's can_lead_any_club)",
    "second_two_of_clubs_follows": "with two_of_clubs: when the lowest club (the 2C, or the 3C when both 2C lie in the kitty) is led, the holder of its twin must play it to the first trick",
    "first_lead_points": "the first lead may be a heart or the Black Maria (true) or not unless nothing else is held (false)",
    "first_trick_points": "followers may play points to the first trick (true) or only when holding nothing else (false)",
    "first_trick_follow_points": "with first_trick_points = false: a player following suit may play a point card of the led suit to the first trick (true, as OpenSpiel) or only when holding no other card of that suit (false)",
    "queen_breaks_hearts": "playing the Black Maria breaks hearts as a heart does",
    "must_break_hearts": "hearts may not be led until broken, unless the leader holds only hearts",
    "lead_hearts_instead_of_queen": "a leader holding only hearts and the Black Maria may lead a heart before hearts are broken",
    "cancellation": "identical cards played to one trick cancel each other",
    "set_aside_when": "all_cancelled: set aside when no uncancelled led-suit card is left; two_pairs: also when two or more pairs cancel",
    "set_aside_last": "who takes a set-aside last trick (and the pile): nobody (its points are lost) or its leader",
    "kitty_to": "who takes the kitty: the winner of the first (won) trick, or of the last trick",
    "moon_points": "what shooting the moon is worth",
    "moon_choices": "what a shooter may choose: subtract (own score -moon_points) and/or add (+moon_points to every other player)",
    "jack_of_diamonds_bonus": "points (usually negative) for taking the jack of diamonds; 0 turns it off",
    "no_tricks_bonus": "points (usually negative) for a player who won no trick in the hand; 0 turns it off",
    "no_tricks_bonus_in_moon_hand": "the no-tricks bonus is also given in a hand where the moon was shot (false: not then, as OpenSpiel)",
    "unpassable_cards": "cards that may not be passed (e.g. [\"2C\"]); [] lets any card be passed",
    "two_of_clubs_apart": "no player is dealt both 2C (a deal that gives one player both breaks R2.4)",
    "led_heart_breaks_hearts": "a heart that is led breaks hearts (false: only a heart played to a trick another player led)",
    "first_lead_fallback": "with first_lead_points = false: a leader holding only points may lead one (false: never, which can leave no legal card)",
    "first_trick_points_whole_hand": "with first_trick_points = false: a point card may go to the first trick only when every card held is one, even when it follows suit (can leave no legal card)",
    "pair_moon_points": "two players who took every point between them (nobody else scoring) score 0 and everyone else this; 0 turns it off",
    "shooting_the_moon": "taking every point is a moon (false: there is no moon, the points count as taken)",
    "lead_suit_switch": "a player who cannot follow makes the suit of the card played the lead suit for the rest of the trick; the final lead suit wins",
    "nothing_survives": "when no uncancelled card of the lead suit is left: set_aside (the pile waits) or leader_wins (the trick's leader takes it)",
    "start_total": "every total at the start of the game",
    "penalty_sign": "1: a point taken adds to the score; -1: it subtracts (penalty)",
    "clean_hand_pool": "a pool of this many points, plus what earlier hands carried, shared equally (rounded down) by the players who took no point; the remainder, or all of it when nobody is clean, carries over; 0 turns it off",
    "winning_total": "who wins the game: the lowest or the highest total",
    "game_length": "target: until a total reaches the target; one_hand_per_player: exactly as many hands as players",
    "pass_by_hand_number": "hand k passes k-1 seats to the left (hand 1 holds); pass_cycle is then unused",
}

# The values each integer option may take, both ends included: far beyond any game's (a
# table of 104 players is dealt one card each from two decks), and small enough that sums and
# the messages that quote them stay a few digits long.
OPTION_RANGES: dict[str, tuple[int, int]] = {
    "min_players": (2, 104),
    "max_players": (2, 104),
    "decks": (1, 2),
    "target": (1, 10**18),  # a Target tag may write 18 digits
    "pass_count": (0, 52),
    "moon_points": (-1000, 1000),
    "jack_of_diamonds_bonus": (-1000, 1000),
    "no_tricks_bonus": (-1000, 1000),
    "pair_moon_points": (-1000, 1000),
    "start_total": (-1_000_000_000, 1_000_000_000),
    "penalty_sign": (-1, 1),  # and not 0
    "clean_hand_pool": (0, 1000),
}


def bound_text(value: int) -> str:
    """An end of a range as TOML may write it: a long one with ``_`` between thousands."""
    return f"{value:_}" if abs(value) >= 10_000 else str(value)


def range_ends(option: str) -> tuple[str, str, bool]:
    """(smallest, largest, whether they are the only values) of an integer option, as the
    option table and the messages state them (penalty_sign: 1 or -1)."""
    if option == "penalty_sign":
        return "1", "-1", True
    low, high = OPTION_RANGES[option]
    return bound_text(low), bound_text(high), high - low == 1


def range_text(option: str) -> str:
    """The values an integer option may take, as the option table states them."""
    low, high, pair = range_ends(option)
    return f"{low} {'or' if pair else 'to'} {high}"


OPTION_DOCS.update({name: f"{text} (allowed: {range_text(name)})"
                    for name, text in OPTION_DOCS.items() if name in OPTION_RANGES})

# Options added after rulesets were first written: a file without a base that omits them
# keeps the behaviour it was written for.
LATER_OPTIONS: dict[str, object] = {
    "first_lead_any_club": False,
    "no_tricks_bonus_in_moon_hand": True,
    "unpassable_cards": [],
    "two_of_clubs_apart": False,
    "led_heart_breaks_hearts": True,
    "first_lead_fallback": True,
    "first_trick_points_whole_hand": False,
    "pair_moon_points": 0,
    "shooting_the_moon": True,
    "lead_suit_switch": False,
    "nothing_survives": NothingSurvives.SET_ASIDE,
    "start_total": 0,
    "penalty_sign": 1,
    "clean_hand_pool": 0,
    "winning_total": WinningTotal.LOWEST,
    "game_length": GameLength.TARGET,
    "pass_by_hand_number": False,
}

# The options with a fixed set of values (moon_choices: a list of them), and their values.
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
