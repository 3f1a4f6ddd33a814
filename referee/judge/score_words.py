"""The words of the score diagnostics (R6.7, R7, R8): the clauses that :mod:`scoring`
puts together, each a message (:mod:`referee.util.message`), so another language can show it."""

from __future__ import annotations

from collections.abc import Sequence

from referee.judge.table import Table
from referee.rules.options import KittyTo
from referee.rules.ruleset import Ruleset, card_points
from referee.rules.state import State
from referee.util.message import msg, msgn

# TRANSLATORS: a number in words, as in "hand 3 adds up to 20, six less than the deck holds"
NUMBER_WORDS = (msg("no"), msg("one"), msg("two"), msg("three"), msg("four"), msg("five"),
                msg("six"), msg("seven"), msg("eight"), msg("nine"))


def in_words(number: int) -> str:
    """``six``; past nine, the digits."""
    return NUMBER_WORDS[number] if 0 <= number < len(NUMBER_WORDS) else str(number)


def points(number: int) -> str:
    """``1 point``, ``26 points``: a message."""
    return msgn("{n} point", "{n} points", number, n=number)


def either(words: Sequence[str]) -> str:
    """``subtract or add``: the ruleset's words (never translated) joined by a translated "or"."""
    if len(words) == 1:
        return words[0]
    return msg("{earlier} or {last}", earlier=either(words[:-1]), last=words[-1])


def neither(words: Sequence[str]) -> str:
    """``subtract nor add``, as :func:`either`."""
    if len(words) == 1:
        return words[0]
    # TRANSLATORS: the words a ruleset allows, after "neither moon choice"
    return msg("{earlier} nor {last}", earlier=neither(words[:-1]), last=words[-1])


def not_a_moon(table: Table, state: State, seat: int) -> str:
    """A moon declared for a seat that did not take every point (R8.1)."""
    who, took, whole = table.name(seat), state.taken[seat], points(table.rules.points_per_hand)
    if not state.lost:
        return msg("{player} is declared to have shot the moon but took {took} of the {whole}",
                   player=who, took=took, whole=whole)
    # TRANSLATORS: {lost} is a number of points (English says "were" even for 1)
    return msgn("{player} is declared to have shot the moon but took {took} of the {whole} "
                "({lost} were lost in a set-aside last trick)", "{player} is declared to have "
                "shot the moon but took {took} of the {whole} ({lost} were lost in a set-aside "
                "last trick)", state.lost, player=who, took=took, whole=whole, lost=state.lost)


def cause(lines: list[int]) -> str:
    """The wrong winner claims that explain a wrong score, by their lines; "" for none."""
    if not lines:
        return ""
    if len(lines) == 1:
        return msg("; the winner claimed on line {line} was wrong", line=lines[0])
    return msg("; the winners claimed on lines {lines} and {last} were wrong",
               lines=", ".join(map(str, lines[:-1])), last=lines[-1])


def kitty_part(state: State, seat: int) -> str:
    """' (2 of them in the kitty, collected with trick 2, with the pile of the set-aside trick
    1)' when the seat collected a kitty with points (R6.7); "" otherwise."""
    if state.kitty_taken is None or state.kitty_taken[0] != seat:
        return ""
    kitty_points = sum(map(card_points, state.kitty))
    if not kitty_points:
        return ""
    trick, why = state.kitty_taken[1], ""
    if state.rules.kitty_to == KittyTo.FIRST_TRICK and trick == 2:
        why = msg(", with the pile of the set-aside trick 1")
    elif state.rules.kitty_to == KittyTo.FIRST_TRICK and trick > 2:
        why = msg(", with the pile of the set-aside trick 1 to {last}", last=trick - 1)
    # TRANSLATORS: {points} of the hand score's points; {why} is empty or the clause above
    return msg(" ({points} of them in the kitty, collected with trick {trick}{why})",
               points=kitty_points, trick=trick, why=why)


def short_fact(rules: Ruleset, hand: int, values: Sequence[int]) -> str:
    """What a hand's scores add up to, against the points the decks hold."""
    whole, written = rules.points_per_hand, sum(values)
    held = written * rules.penalty_sign  # with penalties (R7.3) -52 is the decks' 52 points
    if held == whole:
        return msg("hand {hand} adds up to {total}", hand=hand, total=written)
    difference, args = in_words(abs(held - whole)), {"hand": hand, "total": written}
    if held > whole and rules.decks > 1:
        # TRANSLATORS: {difference} is a number in words ("six"), in digits past nine
        return msg("hand {hand} adds up to {total}, {difference} more than the decks hold",
                   difference=difference, **args)
    if held > whole:
        return msg("hand {hand} adds up to {total}, {difference} more than the deck holds",
                   difference=difference, **args)
    if rules.decks > 1:
        return msg("hand {hand} adds up to {total}, {difference} less than the decks hold",
                   difference=difference, **args)
    return msg("hand {hand} adds up to {total}, {difference} less than the deck holds",
               difference=difference, **args)


def joined(first: str, second: str) -> str:
    """Two clauses of a message one after the other, each translated on its own."""
    if not second:
        return first
    if not first:
        return second
    return msg("{first}{second}", first=first, second=second)
