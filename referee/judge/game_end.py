"""The end of the game (R9): how it ended, for a hand played after it, and the claims that the
game is over (``winner: ...``) judged against the totals the referee stands by."""

from __future__ import annotations

from referee.judge import codes
from referee.judge.table import Table
from referee.log.events import GameOver
from referee.rules.options import GameLength
from referee.rules.state import Phase
from referee.util.message import Message, msg, msgn

__all__ = ["end_text", "judge_game_over"]


# TRANSLATORS: which total wins the game, as in "the highest total is Dave (183)"
_WINNING_TOTALS = {"lowest": msg("lowest"), "highest": msg("highest")}


def end_text(table: Table, totals) -> Message:
    if table.rules.game_length == GameLength.ONE_HAND_PER_PLAYER:
        return msgn("the game is {n} hand long and ended", "the game is {n} hands long and ended",
                    table.size, n=table.size)
    # TRANSLATORS: {leader} is a player and their total: "Dave (103)"
    return msg("{leader} reached the target {target}", leader=_leader_text(table, totals),
               target=table.rules.target)


def _leader_text(table: Table, totals) -> str:
    """The highest total and whose it is, ``Dave (103)`` (a name and a number: no words)."""
    seat = max(range(table.size), key=lambda s: totals[s])
    return f"{table.name(seat)} ({totals[seat]})"


def judge_game_over(table: Table, claim: GameOver, state, totals,
                    doubts: tuple[int, ...] = ()) -> None:
    """Judge a ``winner:`` line against the game's end (``state``, ``totals``); not when the
    totals carry a score line judged impossible (the hands in ``doubts``)."""
    add = table.findings.add
    if totals is None:
        table.findings.note(msg("the winner line is not checked: the totals are not known"))
        return
    if doubts:
        # TRANSLATORS: {hands} are hand numbers: "4" or "4, 7"
        table.findings.note(msgn(
            "the winner line is not checked: the totals carry hand {hands}'s score line, which "
            "no play could give", "the winner line is not checked: the totals carry the score "
            "lines of hands {hands}, which no play could give", len(doubts),
            hands=", ".join(map(str, doubts))))
        return
    if state.phase is not Phase.OVER:
        played = state.hand_number - 1
        why = (msgn("only {n} hand of {hands} have been played",
                    "only {n} hands of {hands} have been played", played, n=played,
                    hands=table.size)
               if table.rules.game_length == GameLength.ONE_HAND_PER_PLAYER else
               # TRANSLATORS: {leader} is a player and their total: "Dave (93)"
               msg("no total has reached the target {target} (highest: {leader})",
                   target=table.rules.target, leader=_leader_text(table, totals)))
        add(codes.GAME_END, claim.span, msg("the game is claimed over, but {why}", why=why),
            rule="R9.1")
        return
    claimed = {table.seat(name, claim.span) for name in claim.players}
    if None in claimed:
        return
    actual = set(state.winners)
    if claimed != actual:
        best = ", ".join(f"{table.name(s)} ({totals[s]})" for s in sorted(actual))
        # TRANSLATORS: {which} is "highest" or "lowest"; {best} players and their totals
        add(codes.GAME_END, claim.span, msg(
            "the winner is claimed as {claimed}, but the {which} total is {best}",
            claimed=", ".join(table.name(s) for s in sorted(claimed)),
            which=_WINNING_TOTALS[table.rules.winning_total], best=best), rule="R9.3")
