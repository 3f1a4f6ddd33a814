"""This module holds the one table of diagnostic kinds: each has a code, a kebab-case name, a
severity, a rule clause and docs; ``referee explain CODE-or-KIND`` prints an entry."""

from __future__ import annotations

from referee.util.record import Record, record

ERROR = "error"
WARNING = "warning"
NOTE = "note"  # what the referee could not decide: never a violation on its own

# The kinds, by name: code that reports or tests a kind names it with one of these.
SYNTAX = "syntax"
NOT_CHECKED = "not-checked"
BAD_SETUP = "bad-setup"
BAD_DEAL = "bad-deal"
BAD_PASS = "bad-pass"
WRONG_DEALER = "wrong-dealer"
REVOKE = "revoke"
ILLEGAL_LEAD = "illegal-lead"
CARD_NOT_HELD = "card-not-held"
OUT_OF_TURN = "out-of-turn"
WRONG_LEADER = "wrong-leader"
ILLEGAL_PLAY = "illegal-play"
NO_LEGAL_CARD = "no-legal-card"
MISCOUNTED_CANCELLATION = "miscounted-cancellation"
WRONG_WINNER = "wrong-winner"
SCORE_MISMATCH = "score-mismatch"
BAD_MOON = "bad-moon"
TOTAL_MISMATCH = "total-mismatch"
GAME_END = "game-end"
GAME_FORFEITED = "game-forfeited"
MISSING_CLAIM = "missing-claim"
INVARIANT = "invariant"
UNDECIDED = "undecided"


@record
class Code(Record):
    """A Code describes one kind of diagnostic.  ``also`` lists the other clauses a diagnostic of
    this kind may cite.  With ``player_at_fault`` the player named committed the fault; otherwise it
    is the player a claim or an entry concerns, and the summary does not list it under that
    player."""

    code: str
    kind: str
    severity: str
    clause: str
    summary: str
    why: str
    example: str
    also: tuple[str, ...] = ()
    player_at_fault: bool = False

    @property
    def clauses(self) -> tuple[str, ...]:
        """Return every clause a diagnostic of this kind may cite, the default first."""
        return (self.clause, *self.also)


_TABLE = (
    Code("CH001", SYNTAX, ERROR, "R10.1", "a line that is not a statement of the log format",
         "The referee cannot know what a line it cannot read says; it reads the rest of the file.",
         "trik 3: Beth 2C ...   # did you mean 'trick'?"),
    Code("CH002", NOT_CHECKED, ERROR, "R10.7",
         "a file the referee could not finish checking (past --timeout, a crashed worker, "
         "a fault of the referee itself)",
         "Such a file has no verdict: it is neither clean nor at fault, and is counted with the "
         "files that could not be read, so that a run never passes it as checked.",
         "game.log:1:1: checking this file took longer than 120 s"),
    Code("CH101", BAD_SETUP, ERROR, "R10.2",
         "unknown ruleset, player count outside the ruleset, duplicate or unknown player names, "
         "a statement in the wrong place",
         "Seating and ruleset decide every later judgement, so they must be unambiguous.",
         '[Players "Al Beth Al"]   # Al twice',
         also=("R1.1", "R9.2", "R10.3", "R10.4", "R10.5", "R10.9")),
    Code("CH102", BAD_DEAL, ERROR, "R2.4",
         "wrong number of cards dealt or in the kitty, a card more often than the decks hold, "
         "dealt cards missing",
         "A faulty deal makes every later count doubtful.",
         "deal Al: AS KS   # 2 cards, but 6 players get 17 each",
         also=("R2.1", "R2.2")),
    Code("CH103", BAD_PASS, ERROR, "R3.1",
         "wrong number of cards passed, a card passed that was not dealt, wrong direction or "
         "recipient",
         "Passing decides what each player holds during play.",
         "hand 2 pass right ... pass Al -> Beth: ...   # right of Al is the previous seat",
         also=("R3.2", "R3.3", "R1.4"), player_at_fault=True),
    Code("CH104", WRONG_DEALER, ERROR, "R2.3", "the dealer does not follow the rotation",
         "The dealer decides who leads the first trick.",
         "hand 1 dealer Al ... hand 2 dealer Charlie   # Beth deals hand 2", also=("R2.5",)),
    Code("CH201", REVOKE, ERROR, "R5.2", "a player did not follow the led suit while able",
         "Following suit is the central duty of a trick-taking game.",
         "trick 4: Al 5S, Beth 9H ...   # Beth still held 7S (played in trick 9)",
         also=("R5.5",), player_at_fault=True),
    Code("CH202", ILLEGAL_LEAD, ERROR, "R4.3",
         "a heart led before hearts are broken, a heart or Black Maria as the first lead, any "
         "other lead the ruleset forbids",
         "Leading rules protect players from being forced to take points.",
         "trick 2: Dave 5H, ...   # no heart or Black Maria has been played yet",
         also=("R4.1", "R4.2", "R4.4"), player_at_fault=True),
    Code("CH203", CARD_NOT_HELD, ERROR, "R5.4",
         "a card the player cannot hold: not in the known hand, already played, a third copy",
         "A card that is not in the hand means the record or the play is wrong.",
         "trick 5: Eve QS ...   # both queens of spades were already played",
         also=("R2.4", "R1.2"), player_at_fault=True),
    Code("CH204", OUT_OF_TURN, ERROR, "R5.1",
         "plays not in seating order, a player playing twice, or missing from a complete trick",
         "Play goes to the left, one card per player per trick.",
         "trick 3: Beth 2C, Dave 5C, Charlie KC ...   # Charlie plays before Dave",
         also=("R1.4", "R10.8"), player_at_fault=True),
    Code("CH205", WRONG_LEADER, ERROR, "R4.5",
         "a trick led by the wrong player (first lead, after a won trick, after a set-aside trick)",
         "The winner of a trick leads the next; after a set-aside trick its leader leads again.",
         "trick 2: Eve 3D ...   # Dave won trick 1",
         also=("R4.1", "R4.6"), player_at_fault=True),
    Code("CH206", ILLEGAL_PLAY, ERROR, "R5.3",
         "a follow the ruleset forbids other than a revoke (points on the first trick, the twin "
         "lowest club not played)",
         "Some rulesets restrict discards on the first trick.",
         "trick 1: ... Beth QS   # standard: no points on the first trick",
         also=("R4.1",), player_at_fault=True),
    Code("CH207", NO_LEGAL_CARD, ERROR, "R5.6",
         "the record stops where the ruleset leaves the player to play no legal card",
         "A ruleset whose rules can leave a hand with no legal card cannot be played to the end; "
         "the game stops there, and the referee says where and why.",
         "trick 1: Al 5S, Beth   # Beth holds QS as her only spade and non-points elsewhere"),
    Code("CH301", MISCOUNTED_CANCELLATION, ERROR, "R6.3",
         "a winner claim that is wrong because of cancellation",
         "Twins cancel: the claimed card was cancelled, a set-aside claim hides a surviving "
         "card, or a winner is claimed for a trick whose led-suit cards all cancelled.",
         "trick 2: Dave 10S, Eve 9H, Fay 9H, Al 10S -> Al   # the 10S pair cancels: set aside",
         also=("R6.2", "R6.4", "R5.5")),
    Code("CH302", WRONG_WINNER, ERROR, "R6.1", "any other wrong winner claim",
         "The highest uncancelled card of the led suit wins.",
         "trick 1: Beth 2C, Charlie 5C, Dave KC -> Charlie   # KC is higher",
         also=("R1.3", "R5.5")),
    Code("CH401", SCORE_MISMATCH, ERROR, "R7.3",
         "a hand score that differs from the points the player took, or (R7.2) a score line no "
         "play could give",
         "Scores must count every heart and Black Maria taken, including set-aside piles and "
         "the kitty collected with a trick.",
         "score: Al 0, Beth 13   # Beth also took 2H with the kitty: 14",
         also=("R7.2", "R7.1", "R6.5", "R6.6", "R6.7", "R7.5", "R8.6")),
    Code("CH402", BAD_MOON, ERROR, "R8.1",
         "a moon declared without taking every point, or a missing or wrong moon adjustment",
         "Only a player who took every point shoots the moon, and the sheet must show the choice.",
         "moon Fay subtract   # Fay took 50 of 52 points",
         also=("R8.2", "R8.5", "R8.3", "R8.4")),
    Code("CH403", TOTAL_MISMATCH, ERROR, "R7.4", "running totals that do not add up",
         "Each total is the previous total plus the hand score.",
         "total: Al 13   # previous 10, hand score 2: 12"),
    Code("CH303", MISSING_CLAIM, ERROR, "R10.9",
         "under [Claims \"required\"], a trick without its winner, a hand without its score or "
         "total line",
         "A program's record that says who won and what each hand scored lets every claim be "
         "checked; one that leaves them out is checked on its plays alone.",
         "trick 3: Beth 2C, Charlie 5C, Dave KC   # no '-> Dave'"),
    Code("CH501", GAME_END, ERROR, "R9.1",
         "play after the target was reached, a game claimed over before it, a wrong winner claim",
         "The game ends after the hand in which a total reaches the target; lowest total wins.",
         "winner: Beth   # Al has the lowest total",
         also=("R9.3", "R9.4")),
    Code("CH502", GAME_FORFEITED, ERROR, "R9.5",
         "a game a program forfeited in a match: an illegal card or pass, no answer in time, "
         "a message the protocol does not allow, or a program that stopped",
         "A match records why a game ended early, so that the record of a forfeited game is never "
         "taken for a complete one.",
         '[Forfeit "Beth: played 2D, the player must follow the led suit (R5.2)"]',
         player_at_fault=True),
    Code("CH601", INVARIANT, ERROR, "R7.2",
         "a proved invariant is violated (cards or points not conserved, sheet arithmetic)",
         "Invariants hold for every legal hand; a violation means the record cannot be right.",
         "score: ...   # the hand's scores sum to 51, not 52",
         also=("R2.4", "R5.4", "R7.4", "R5")),
    Code("CH602", UNDECIDED, NOTE, "R7.2",
         "a proof the referee could not finish within its time or size budget",
         "z3 is given a bounded time and a bounded question, so that a hostile file cannot make "
         "the referee hang; what the budget cut off is neither proved nor violated.",
         "holdings-exist is undecided in hand 1: z3 gave no answer within the time budget"),
)

BY_KIND = {code.kind: code for code in _TABLE}
BY_CODE = {code.code: code for code in _TABLE}
KINDS = tuple(code.kind for code in _TABLE)


def lookup(name: str) -> Code | None:
    """Find a code by its code (``CH201``) or kind (``revoke``), case-insensitive."""
    key = name.strip()
    return BY_CODE.get(key.upper()) or BY_KIND.get(key.lower())


def all_codes() -> tuple[Code, ...]:
    return _TABLE
