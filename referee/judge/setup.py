"""This module sets up and groups a log: it reads the tags that seat the table and splits the
statements into hands; the check and the z3 hand facts both read a log's setup here."""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from pathlib import Path

from referee.judge import codes
from referee.judge.hand_record import HandRecord, Unread
from referee.judge.table import Findings, CheckTable, folded
from referee.log.events import (
    Comment,
    Deal,
    Event,
    GameOver,
    HandStart,
    Kitty,
    Moon,
    Pass,
    Score,
    Span,
    Tag,
    Total,
    Trick,
)
from referee.log.words import split_players
from referee.rules.options import OPTION_RANGES
from referee.rules.ruleset import (
    DEFAULT_RULESET,
    Ruleset,
    direction_offset,
    load_ruleset,
    with_options,
)
from referee.rules.ruleset_files import RulesetError, RulesetOutside, reason
from referee.util.counting import whole_number
from referee.util.message import msg, msgn
from referee.util.suggest import did_you_mean

_STAGE = {HandStart: 0, Deal: 1, Kitty: 1, Pass: 2, Trick: 3, Moon: 4, Score: 5, Total: 6}
# TRANSLATORS: a kind of log line, named by the word the line starts with, as in "a deal line
# after a trick line of hand 2"
_STAGE_WORDS = {1: msg("a deal line"), 2: msg("a pass line"), 3: msg("a trick line"),
                4: msg("a moon line"), 5: msg("a score line"), 6: msg("a total line")}
# TRANSLATORS: a kind of log line, as above ("a kitty line after a total line of hand 2")
_KITTY_WORDS = msg("a kitty line")  # (of stage 1, as a deal line)
_UNREAD_STAGE = {"hand": 0, "deal": 1, "kitty": 1, "pass": 2, "trick": 3, "moon": 4, "score": 5,
                 "total": 6}


_SETUP_TAGS = ("players", "ruleset", "target", "claims")
FORFEIT_TAG = "forfeit"  # [Forfeit "NAME: reason"]: a match stopped the game (R9.5)
# tricks of one hand kept with their plays: far more than any hand has (two decks among four
# players: 26); past it a trick is one too many, which its number and place are enough to say,
# so a hostile hand of endless tricks costs what its lines do, not their plays' events
MAX_HAND_TRICKS = 128
NEAR_TAG_CUTOFF = 0.8  # "Plyers", "Player", "Rulset", "Rules" are slips; "Place", "Date" are not
MAX_TARGET = OPTION_RANGES["target"][1]  # the largest target a [Target] tag may set


# -- setup ----------------------------------------------------------------------------------
def setup_table(events: tuple[Event, ...], findings: Findings, base_dir: Path | None, *,
                ruleset: Ruleset | None = None,
                allowed_dirs: tuple[str | Path, ...] = ()) -> CheckTable | None:
    """Seat the table the log's tags name, under ``ruleset`` if given, else under the log's
    [Ruleset]."""
    repeats: dict[int, int] = {}  # the setup tags written again after play began
    tags, play_started = _read_tags(events, findings, repeats)
    _read_near_misses(tags, findings)
    if ruleset is not None:
        rules = ruleset
    else:
        rules = ruleset_named(tags.get("ruleset"), findings, base_dir, allowed_dirs)
    if "target" in tags:
        value = tags["target"].value.strip()
        target = whole_number(value, len(str(MAX_TARGET)))
        if target and target <= MAX_TARGET:
            rules = with_options(rules, target=target)
        else:
            written, used = repr(value), rules.target
            if value.isascii() and value.isdigit() and value.strip("0"):
                # TRANSLATORS: {written} is the tag's value, quoted; {most} the largest target
                # allowed; {target} the one used instead
                fault = msg("the target {written} is more than {most}; {target} is used",
                            written=written, most=f"{MAX_TARGET:,}", target=used)
            else:
                # TRANSLATORS: {written} is the tag's value, quoted; {target} the one used instead
                fault = msg("the target {written} is not a positive whole number; {target} is used",
                            written=written, target=used)
            findings.add(codes.BAD_SETUP, tags["target"].span, fault, rule="R9.2")
    players = tags.get("players")
    if players is None:
        before_play = play_started.line if play_started is not None else None
        unread = [d.line for d in findings.items if d.kind == codes.SYNTAX
                  and (before_play is None or d.line < before_play)]
        if unread:  # the seating may be on that line: its syntax error is the one fault
            findings.note(msg("no seating could be read (line {line}, which cannot be read, may "
                              "hold it): plays, scores and totals were not checked",
                              line=unread[0]))
            return _no_table(events, findings, repeats)
        findings.add(codes.BAD_SETUP, Span.point(1, 1), msg(
            "the log has no [Players \"...\"] tag, so nothing can be checked against seats"),
            rule="R10.2")
        findings.note(msg("no Players tag: plays, scores and totals were not checked"))
        return _no_table(events, findings, repeats)
    seated: dict[str, str] = {}  # casefolded -> as first written
    for name in split_players(players.value):
        if name.casefold() in seated:
            findings.add(codes.BAD_SETUP, players.span, msg("{player} is seated twice",
                                                            player=repr(name)), rule="R10.2")
        else:
            seated[name.casefold()] = name
    unique = list(seated.values())
    if not rules.allows_players(len(unique)):
        findings.add(codes.BAD_SETUP, players.span, msg(
            "{ruleset} is for {fewest}-{most} players, not {players}", ruleset=rules.name,
            fewest=rules.min_players, most=rules.max_players, players=len(unique)), rule="R1.1")
        try:
            rules = with_options(rules, min_players=min(len(unique), rules.min_players),
                                 max_players=max(len(unique), rules.max_players))
        except RulesetError:
            findings.note(msgn("{n} players cannot play {ruleset}: nothing else checked",
                               "{n} players cannot play {ruleset}: nothing else checked",
                               len(unique), n=len(unique), ruleset=rules.name))
            return _no_table(events, findings, repeats)
    claims = tags.get("claims")  # every claim must be written (R10.9)
    required = None if claims is None else claims.value.strip().casefold()
    if required is not None and required not in ("required", "optional"):
        # TRANSLATORS: {written} is the tag's value, quoted; "required" and "optional" are
        # the words of the log format, not translated
        findings.add(codes.BAD_SETUP, claims.span, msg(
            "the [Claims] tag says {written}, not \"required\" or \"optional\"; claims are "
            "optional", written=repr(claims.value)), rule="R10.9")
    table = CheckTable(rules, unique, findings, claims_required=required == "required",
                       repeats=repeats or None)
    if play_started is not None:  # (a setup of tags alone names nobody)
        _read_misspelt_seats(table, players, events)
    return table


# a name as the lines write it: after `deal`, `pass` or `dealer`, or before a card or a number
_WRITTEN_NAME = re.compile(
    r"(?:^[ \t]*(?:deal|pass)[ \t]+|dealer[ \t]+)([^\W\d_][\w'’.-]*)"
    r"|([^\W\d_][\w'’.-]*)[ \t]+(?:-?\d|(?:10|[2-9JQKA])[SHDCshdc]\b)", re.MULTILINE)
_NOT_NAMES = frozenset(("hand", "trick", "deal", "pass", "dealer", "kitty", "score", "total"))


def _no_table(events: tuple[Event, ...], findings: Findings, repeats: dict[int, int]) -> None:
    """Report the setup tags written again after play began, when no hands are grouped."""
    for event in events:
        if isinstance(event, Tag) and event.span.line in repeats:
            _second_tag(findings, event, repeats[event.span.line])


def _read_misspelt_seats(table: CheckTable, players: Tag, events: Iterable[Event]) -> None:
    """Read a seat whose name no line writes as the one name the lines write throughout that is
    not seated and resembles it alone (``Charly`` in the tag, ``Charlie`` on every line): the
    tag's spelling is the slip, reported once at the tag (R10.5)."""
    text = table.findings.text
    if text is not None:
        # (every seated name written as seated after the tag, as nearly always: no census; the
        # text is searched where it is, as a copy of its rest would cost a megabyte per megabyte)
        after = text.find(players.value)
        after = 0 if after < 0 else after + len(players.value)
        if all(text.find(name, after) >= 0 for name in table.names):
            return
        written = Counter(a or b for a, b in _WRITTEN_NAME.findall(text))
    else:
        written = Counter(_names_in(events))
    seated = {folded(name) for name in table.names}
    used = {folded(word) for word in written}
    unused = [seat for seat, name in enumerate(table.names) if folded(name) not in used]
    if not unused:
        return
    # (the names written most, as a table's are: a hostile file's many words cost no more)
    strangers = [word for word, count in written.most_common(MAX_LOOKED_AT) if count > 1 and
                 word.casefold() not in _NOT_NAMES and folded(word) not in seated]
    for seat in unused:
        name = table.names[seat]
        close = [word for word in strangers if _resembles_alone(word, name, table.names)]
        if len({folded(word) for word in close}) != 1:
            continue
        word = close[0]
        table.findings.add(codes.BAD_SETUP, players.span, msg(
            "the [Players] tag seats {seated}, but the lines name {written} instead; {written} "
            "is read as that seat", seated=repr(name), written=repr(word)), rule="R10.5",
            # TRANSLATORS: {name} is a seated player's name, in quotes
            hint=msg("did you mean {name}?", name=repr(word)))
        table.names[seat] = word
        table.seats.update({folded(word): seat, word.casefold(): seat, word: seat})


def _resembles_alone(word: str, name: str, names: list[str]) -> bool:
    """Tell whether ``word`` resembles the seated ``name`` and no other of ``names``."""
    return did_you_mean(word, names) == name and did_you_mean(name, [word]) is not None and \
        did_you_mean(word, [other for other in names if other != name]) is None


def _names_in(events: Iterable[Event]) -> Iterator[str]:
    """Yield the players' names the statements write."""
    for event in events:
        if isinstance(event, (Deal, Pass, Moon)):
            yield event.player
        elif isinstance(event, Trick):
            yield from (play.player for play in event.plays if play.player)
        elif isinstance(event, (Score, Total)):
            yield from (entry.player for entry in event.entries)
        elif isinstance(event, HandStart) and event.dealer:
            yield event.dealer


def _read_tags(events: tuple[Event, ...], findings: Findings, repeats: dict[int, int]
               ) -> tuple[dict[str, Tag], Span | None]:
    """Read the log's tags by key (the first of each counts) and where play begins; report a setup
    tag given twice before play or after play has begun, and a forfeit; note in ``repeats`` the
    line of each tag given again after play has begun, with the line of the first."""
    tags: dict[str, Tag] = {}
    play_started: Span | None = None
    for event in events:
        if isinstance(event, Tag):
            if event.key == FORFEIT_TAG:  # a match stopped the game here (R9.5)
                player, _, why = event.value.partition(":")
                # TRANSLATORS: {reason} is the match's own words, as the log's tag gives them
                findings.add(codes.GAME_FORFEITED, event.span, msg(
                    "{player} forfeited the game: {reason}", player=player.strip(),
                    reason=why.strip()), rule="R9.5", player=player.strip())
            elif event.key in _SETUP_TAGS:
                if event.key in tags:
                    if play_started is not None:  # (reported as the hands are grouped)
                        repeats[event.span.line] = tags[event.key].span.line
                    else:
                        _second_tag(findings, event, tags[event.key].span.line)
                    continue
                if play_started is not None:
                    findings.add(codes.BAD_SETUP, event.span, msg(
                        "the [{tag}] tag comes after play has begun (line {line})",
                        tag=event.name, line=play_started.line), rule="R10.4")
            tags.setdefault(event.key, event)
        elif not isinstance(event, Comment) and play_started is None:
            play_started = event.span
    return tags, play_started


def _second_tag(findings: Findings, tag: Tag, first: int) -> None:
    # TRANSLATORS: {tag} is the tag's name as written (Players, Ruleset, Target)
    findings.add(codes.BAD_SETUP, tag.span, msg(
        "a second [{tag}] tag (the first is on line {line}); the first counts", tag=tag.name,
        line=first))


def _read_near_misses(tags: dict[str, Tag], findings: Findings) -> None:
    """Report once a missing setup tag written as a tag of a name close to it (``[Plyers "..."]``),
    and read it as the tag it misspells."""
    for key in _SETUP_TAGS:
        if key in tags:
            continue
        near = next((tag for other, tag in tags.items() if other not in _SETUP_TAGS
                     and did_you_mean(other, (key,), cutoff=NEAR_TAG_CUTOFF)), None)
        if near is not None:
            # TRANSLATORS: {tag} is the tag's name as written (Plyers); {meant} the name (Players)
            findings.add(codes.BAD_SETUP, near.span, msg(
                "no [{meant}] tag, but a [{tag}] tag: did you mean [{meant}]? It is read as the "
                "{meant} tag", tag=near.name, meant=key.capitalize()), rule="R10.2")
            tags[key] = near


def is_setup_tag(tag: Tag) -> bool:
    """Tell whether :func:`setup_table` reads ``tag`` (a setup tag or a forfeit), wherever it is."""
    return tag.key in _SETUP_TAGS or tag.key == FORFEIT_TAG


def ruleset_named(tag: Tag | None, findings: Findings, base_dir: Path | None,
                  allowed_dirs: tuple[str | Path, ...] = ()) -> Ruleset:
    """Load the ruleset a [Ruleset] tag names: a bundled one, or a .toml file in the log's folder
    (``base_dir``) or below it, or in ``allowed_dirs``.  Symlinks and ``..`` are resolved first, and
    any other file is not opened: a log must not make the referee read any file on the machine."""
    if tag is None:
        return load_ruleset(DEFAULT_RULESET)
    name = tag.value.strip()
    roots = tuple(str(d) for d in allowed_dirs or ())
    if base_dir is not None:
        roots = (str(base_dir), *roots)
        if name.endswith(".toml") and "\0" not in name and not Path(name).is_absolute():
            name = str(base_dir / name)
    try:
        return load_ruleset(name, roots)
    except RulesetOutside as err:
        findings.add(codes.BAD_SETUP, tag.span, _outside(err), rule="R10.3")
    except RulesetError as err:
        # TRANSLATORS: {error} says what is wrong with the ruleset the log names
        findings.add(codes.BAD_SETUP, tag.span, msg("{error}; checking with {ruleset}",
                                                    error=reason(err), ruleset=DEFAULT_RULESET),
                     rule="R10.3")
    return load_ruleset(DEFAULT_RULESET)


def _outside(err: RulesetOutside) -> str:
    """Say what a log is told of a ruleset file (or that file's base) it may not name."""
    if err.is_base:
        # TRANSLATORS: {file} is the base's path as the ruleset file writes it, quoted
        return msg("the ruleset file this tag names takes as its base {file}, which lies outside "
                   "the log's folder, so it is not read (`--allow-ruleset-dir DIR` allows the "
                   "files under DIR, `--ruleset FILE` checks with FILE whatever the log names); "
                   "checking with {ruleset}", file=err.file, ruleset=DEFAULT_RULESET)
    return msg("the ruleset file this tag names lies outside the log's folder, so it is not read "
               "(`--allow-ruleset-dir DIR` allows the files under DIR, `--ruleset FILE` checks "
               "with FILE whatever the log names); checking with {ruleset}",
               ruleset=DEFAULT_RULESET)


# -- hands ----------------------------------------------------------------------------------
def group_hands(table: CheckTable, events: Iterable[Event]
                ) -> tuple[list[HandRecord], dict[int, list[GameOver]]]:
    """Split the statements into hands, and file the claims that the game is over by the index of
    the hand they follow (-1: before any)."""
    records: list[HandRecord] = []
    claims: dict[int, list[GameOver]] = {}
    for record, after in hands_of(table, events):
        if record is not None:
            records.append(record)
        if after:
            claims[len(records) - 1 if record is not None else -1] = after
    return records, claims


def hands_of(table: CheckTable, events: Iterable[Event], done: int = 0
             ) -> Iterator[tuple[HandRecord | None, list[GameOver]]]:
    """Yield :func:`group_hands` one hand at a time, each with the claims that the game is over that
    follow it; last, yield (None, the claims before any hand).  ``done`` hands came before."""
    source = _Lookahead(events)
    grouping = _Grouping(table, done, source)
    repeats = table.repeats  # the setup tags written again after play began, by line
    for event in source.events:
        kind = _STAGE.get(type(event))
        current = grouping.current
        # a statement inside a hand, in its order, as nearly every one is, is filed at once (the
        # attributes are asked first, the properties only once a hand has a score, total or gap)
        if kind and current is not None and kind >= grouping.stage and not (
                current.unread or grouping.late) and (
                not (current.score or current.total) and
                (kind != 3 or event.number != 1 or not current.tricks)
                or kind == 6 and current.total is None):  # (a total line after the score)
            grouping.stage = kind
            if kind == 3:
                current.tricks.append(event if len(current.tricks) < MAX_HAND_TRICKS else
                                      Trick(event.number, (), span=event.span))
            else:
                _file(table, current, event)
            continue
        if kind == 0 and not grouping.late:  # a `hand` line
            if current is not None:
                yield _complete(table, current), grouping.claims
                grouping.claims = []
            grouping.begin(event, kind)
            continue
        if kind is None and not isinstance(event, (Unread, GameOver)) and not (
                repeats and event.span.line in repeats):
            continue  # a tag or a comment
        yield from grouping.take_all(event, kind)
    if grouping.current is not None:
        yield _complete(table, grouping.current), grouping.claims
    yield None, grouping.early


class _Grouping:
    """A _Grouping puts statements into hands, one by one (:func:`hands_of`)."""

    __slots__ = ("table", "source", "current", "number", "stage", "ahead", "slip", "late",
                 "before", "claims", "early", "astray")

    def __init__(self, table: CheckTable, done: int, source: _Lookahead) -> None:
        self.table, self.source = table, source
        self.current: HandRecord | None = None
        self.number, self.stage = done, 0
        self.ahead = 0  # how far the written hand numbers run ahead of the hands' places
        self.slip: int | None = None  # after a `hand` line not numbered as due, the ahead before
        self.astray: tuple[int, int] | None = None  # the last statement out of order: kind, line
        self.late = 0  # statements still to come that a hand keeps (see _kept_late)
        # the total line the current hand builds on (None: not known; ``True``: the start)
        self.before: Total | bool | None = None if done else True
        self.claims: list[GameOver] = []  # after the current hand
        self.early: list[GameOver] = []  # before any hand

    def take_all(self, event: Event, kind: int | None
                 ) -> list[tuple[HandRecord, list[GameOver]]]:
        """Group ``event`` (see :meth:`take`), then the statements looked at ahead; return the
        hands they end.  A setup tag written again that starts the game again ends the grouping:
        what follows is read, not grouped."""
        if kind is None and isinstance(event, Tag) and self.again(event):
            for _ in self.source.events:  # (read, not judged)
                pass
            self.source.waiting.clear()
            return []
        hand = self.take(event, kind)
        ended = [] if hand is None else [hand]
        waiting = self.source.waiting
        while waiting:  # the statements looked at ahead, in their turn
            hand = self.take(waiting.popleft(), None)
            if hand is not None:
                ended.append(hand)
        return ended

    def again(self, tag: Tag) -> bool:
        """Tell whether ``tag``, a setup tag written again after play began, and the tags after it
        start the game again (a second [Players] tag, then hand 1, or on a sheet without `hand`
        lines a score line whose total starts again): then report it, the one fault."""
        table, current = self.table, self.current
        repeats = table.repeats
        players = tag if tag.key == "players" else None
        score: Score | None = None
        for event in self.source.near():
            if isinstance(event, Tag) and event.span.line in repeats:
                players = players or (event if event.key == "players" else None)
            elif score is not None:
                if not isinstance(event, Total):
                    return False
                start = table.rules.start_total
                if not _adds_up({}, start, score, event) or current.total is not None and \
                        _adds_up(_values(current.total), start, score, event):
                    return False
                break
            elif players is None or current is None:
                return False
            elif isinstance(event, Score) and current.start is None:
                score = event
            elif isinstance(event, HandStart) and event.number == 1:
                break
            elif _stage_of(event) is not None or isinstance(event, GameOver):
                return False
        else:
            return False
        table.findings.add(codes.BAD_SETUP, players.span, msg(
            "the game is recorded again from here: a second [Players] tag (the first is on line "
            "{line}), then its first hand again; what follows is not judged",
            line=repeats[players.span.line]), rule="R10.2")
        return True

    def take(self, event: Event, kind: int | None
             ) -> tuple[HandRecord, list[GameOver]] | None:
        """Group ``event`` (of stage ``kind``, or None: not known yet); return the hand it ends
        with the claims after it, if it starts a new one."""
        if kind is None:
            kind = _STAGE.get(type(event))
        unread = False
        if kind is None:
            unread = isinstance(event, Unread)
            if unread:  # its syntax diagnostic is all it costs: it is not judged again
                kind = _UNREAD_STAGE[event.kind]
            else:  # a tag, a comment or a claim that the game is over
                repeats = self.table.repeats
                if repeats and isinstance(event, Tag) and event.span.line in repeats:
                    _second_tag(self.table.findings, event, repeats[event.span.line])
                if isinstance(event, GameOver):
                    (self.claims if self.current is not None else self.early).append(event)
                return None
        current, ended = self.current, None
        if self.starts(event, kind):
            if current is not None:
                ended = _complete(self.table, current), self.claims
                self.claims = []
            self.begin(event, kind)
        else:
            self.place(event, kind, unread)
        return ended

    def starts(self, event: Event, kind: int) -> bool:
        """Tell whether ``event`` (of stage ``kind``) starts a new hand."""
        current = self.current
        if self.late:
            self.late -= 1
            return False
        if current is None or kind == 0:
            return True
        # (the attributes are asked first, the properties only once a hand has a score, total
        # or gap)
        if (current.score or current.total or current.unread) and _ended_by(current, kind):
            if current.start is not None or current.lost("hand"):
                due: int | None = self.number + 1 + self.ahead
            elif _written_again(current, event, kind, self.source):
                return False  # (one fault, said where the line is filed)
            elif kind < 4 or not current.has_play:
                return True
            else:  # (a played hand with no `hand` line keeps a lone score, total or moon line)
                due = None
            self.late = _kept_late(self.source, current, due, kind)
            if not self.late:
                return True
            self.late -= 1
            return False
        if kind == 5 and current.total is not None and current.score is None:
            if not _score_left_out(self.before, self.table.rules.start_total, current, event,
                                   self.source):
                return False
            self.table.findings.note(msg(
                "hand {hand}: no score line is recorded, so its total line is not checked",
                hand=current.number))
            return True
        if kind != 3 or not current.tricks or not _new_hand_by_trick(self.table, current, event):
            return False
        if current.start is not None or current.lost("hand"):
            number = self.number + 1
            if _next_hand_line(self.source) == number + self.ahead:
                return False  # (that hand is this one: the trick is one too many)
            # TRANSLATORS: "hand" is the word of the log format, not translated
            self.table.findings.add(codes.BAD_SETUP, event.span, msg(
                "no `hand` line starts hand {hand}: trick 1 follows the last trick of hand "
                "{previous}", hand=number, previous=number - 1), hand=number, rule="R10.4")
        return True

    def begin(self, event: Event, kind: int) -> None:
        """Begin a new hand with ``event``."""
        self.number += 1
        number = self.number
        if self.current is not None:
            self.before = self.current.total
        current = self.current = HandRecord(number, span=event.span)
        self.stage = 0
        if isinstance(event, HandStart):
            current.start = _with_due_direction(self.table, event, number)
            if current.start.direction != event.direction:
                current.wrong_direction = event.direction
            if event.number == number + self.ahead:
                self.slip = None
            elif self.slip is not None and event.number == number + self.slip:
                self.ahead, self.slip = self.slip, None  # (the number before was the slip)
            else:
                self.table.findings.add(codes.BAD_SETUP, event.span, msg(
                    "hand {written} is recorded where hand {due} is due",
                    written=event.number, due=number + self.ahead), hand=number, rule="R10.4")
                # numbers that skip go on from the written one: one slip, said once; unless the
                # next `hand` line goes on from the count before (a number mistyped)
                self.slip = self.ahead
                self.ahead = max(self.ahead, event.number - number)
        elif kind == 0:  # an unreadable hand line: a hand starts, its dealer unknown
            current.unread.append(event)
        else:
            self.place(event, kind, isinstance(event, Unread))

    def _astray(self, kind: int, line: int) -> bool:
        """Tell whether a statement of stage ``kind`` on ``line``, out of order, starts a block
        out of order (the lines of one kind together are one slip: one diagnostic)."""
        block = self.astray
        self.astray = kind, line
        return block is None or block[0] != kind or block[1] != line - 1

    def place(self, event: Event, kind: int, unread: bool) -> None:
        """File ``event`` (of stage ``kind``) in the current hand."""
        current = self.current
        assert current is not None
        if kind < self.stage and not unread and not _second_end(current, event) and \
                self._astray(kind, event.span.line):
            # TRANSLATORS: {line} and {previous} are kinds of line ("a deal line", "a trick line")
            self.table.findings.add(codes.BAD_SETUP, event.span, msg(
                "{line} after {previous} of hand {hand}",
                line=_KITTY_WORDS if isinstance(event, Kitty) else _STAGE_WORDS[kind],
                previous=_STAGE_WORDS[self.stage], hand=current.number), hand=current.number,
                rule="R10.4")
        if kind > self.stage:
            self.stage = kind
        if unread:
            current.unread.append(event)
            if kind == 3:  # a trick whose cards are unknown, after the tricks read so far
                current.gaps.append(len(current.tricks))
        elif kind == 3:
            current.tricks.append(event if len(current.tricks) < MAX_HAND_TRICKS else
                                  Trick(event.number, (), span=event.span))
        else:
            _file(self.table, current, event)


def _stage_of(event: Event) -> int | None:
    """Return the stage of a statement, read or not (None: a tag, a comment, a claim)."""
    return _UNREAD_STAGE[event.kind] if isinstance(event, Unread) else _STAGE.get(type(event))


def _ended_by(record: HandRecord, kind: int) -> bool:
    """Tell whether a statement of stage ``kind`` after the score or total line of ``record`` starts
    a new hand: anything before a score, a second score, a second total."""
    scored, totalled = record.scored, record.totalled
    return (scored or totalled) and (kind < 5 or (kind == 5 and scored)
                                     or (kind == 6 and totalled))


# a hand begun by a `hand` line keeps the statements written after its score or total line when
# the next `hand` line is the one due after it: a line written twice, a moon or kitty line
# written late (so many statements at most; more are a hand of their own)
MAX_LATE = 8
MAX_LOOKED_AT = 64  # the statements, comments and tags looked at for them


class _Lookahead:
    """A _Lookahead holds the statements to group and those already looked at ahead (``waiting``,
    grouped before the rest of ``events``)."""

    __slots__ = ("events", "waiting")

    def __init__(self, events: Iterable[Event]) -> None:
        self.events = iter(events)
        self.waiting: deque[Event] = deque()

    def upcoming(self) -> Iterator[Event]:
        """Yield the statements still to come, reading them (they are still grouped after)."""
        yield from tuple(self.waiting)
        for event in self.events:
            self.waiting.append(event)
            yield event

    def near(self) -> Iterator[Event]:
        """Yield the next :data:`MAX_LOOKED_AT` + 1 of :meth:`upcoming` (comments and tags
        between: a hostile file's cost is bounded)."""
        for seen, event in enumerate(self.upcoming()):
            if seen > MAX_LOOKED_AT:
                return
            yield event


def _kept_late(source: _Lookahead, record: HandRecord, due: int | None, first: int) -> int:
    """Count the statements from the one just read (of stage ``first``) that the hand before keeps
    (0: they start a new hand): those up to the next `hand` line when it is hand ``due``'s, or up
    to the end of the log (``due`` None: up to the next hand's first statement) when they are
    moon, score or total lines (a score and a total line: see below); at most :data:`MAX_LATE`."""
    count, kinds = 1, {first}
    for seen, event in enumerate(source.upcoming()):
        if seen > MAX_LOOKED_AT:  # (comments and tags between: a hostile file's cost is bounded)
            return 0
        kind = _stage_of(event)
        if kind is None:
            continue
        if kind == 0:
            if due is None:
                break
            return count if event.number is None or event.number == due else 0
        if kind < 4 and due is None:  # the next hand's first statement
            break
        count += 1
        kinds.add(kind)
        if count > MAX_LATE:
            return 0
    # at the end of the log (or, with no `hand` lines, before the next hand's play), a score and
    # a total line are a hand's (one past the game's end, or one whose play is not recorded),
    # unless the hand before has no total line yet or they repeat its own
    return 0 if min(kinds) < 4 or {5, 6} <= kinds and record.total is not None and \
        not all(_repeats(record, event) for event in source.waiting
                if isinstance(event, (Score, Total))) else count


def _repeats(record: HandRecord, line: Score | Total) -> bool:
    """Tell whether ``line`` repeats the hand's own score or total line, value for value."""
    own = record.score if isinstance(line, Score) else record.total
    return own is not None and _values(own) == _values(line)


def _values(line: Score | Total) -> dict[str, int]:
    return {entry.player.casefold(): entry.value for entry in line.entries}


def _adds_up(before: dict[str, int], start: int, score: Score, total: Total) -> bool:
    """Tell whether every total of ``total`` is the one before (else ``start``) plus the score."""
    scores = _values(score)
    return all(entry.player.casefold() in scores and
               before.get(entry.player.casefold(), start) + scores[entry.player.casefold()]
               == entry.value for entry in total.entries)


def _score_left_out(before: Total | bool | None, start: int, record: HandRecord, score: Score,
                    source: _Lookahead) -> bool:
    """Tell whether a score line after the total line of a hand with neither play nor score line
    starts the next hand: its total, not the one before, adds up with it (the hand's score line
    is left out), not written after the hand's total."""
    if before is None or record.has_play or record.unread or not isinstance(score, Score):
        return False
    if _adds_up({} if before is True else _values(before), start, score, record.total):
        return False
    for event in source.upcoming():
        if isinstance(event, Total):
            return _adds_up(_values(record.total), start, score, event)
        if _stage_of(event) is not None:
            return False
    return False


def _written_again(record: HandRecord, event: Event, kind: int, source: _Lookahead) -> bool:
    """Tell whether ``event`` (of stage ``kind``) writes the hand's own total line again, or its
    score line with the hand's total line still to come, value for value: a line written twice
    (two hands with one score line each may score alike; no hand leaves every total as it was)."""
    if not isinstance(event, (Score, Total)) or not _repeats(record, event):
        return False
    if kind == 6:
        return True
    for upcoming in source.near():
        if _stage_of(upcoming) is not None:
            return record.total is None and isinstance(upcoming, Total)
    return False


def _next_hand_line(source: _Lookahead) -> int | None:
    """Return the number of the next `hand` line, if one is near and has a number."""
    return next((event.number for event in source.near() if _stage_of(event) == 0), None)


def _second_end(record: HandRecord, event: Event) -> bool:
    """Tell whether ``event`` is a second score or total line of ``record`` (reported when filed,
    not also as out of order)."""
    return (isinstance(event, Score) and record.score is not None) or \
        (isinstance(event, Total) and record.total is not None)


def _new_hand_by_trick(table: CheckTable, record: HandRecord, event: Event) -> bool:
    """Tell whether a trick line numbered 1 after a hand's every trick, no score or total line
    between, starts a new hand."""
    if event.number != 1 or record.score is not None or record.total is not None:
        return False
    return len(record.tricks) + len(record.gaps) >= table.rules.cards_per_player(table.size)


def _complete(table: CheckTable, record: HandRecord) -> HandRecord:
    """Judge the hand's second deal and pass lines of one seat; drop from the hand the unreadable
    trick lines that bear the number of a trick recorded readably (the table's own correction)."""
    if record.doubles:
        for seat, event in record.doubles:
            _read_double(table, record, seat, event)
        record.doubles = None
    if not record.gaps:
        return record
    written = {trick.number for trick in record.tricks}
    lines = [unread for unread in record.unread if unread.kind == "trick"]
    record.gaps = [gap for gap, line in zip(record.gaps, lines)
                   if line.number is None or line.number not in written]
    return record


def _read_double(table: CheckTable, record: HandRecord, seat: int, event: Deal | Pass) -> None:
    """Judge ``event``, a second deal or pass line of ``seat``: when one of the two stands where
    the line of a seat that has none is due (the lines in seating order around it), that line is
    the slip, one fault and no player's, and it is read as that seat's when its cards fit;
    otherwise the second line is reported, that player's."""
    hand, is_deal = record.number, isinstance(event, Deal)
    filed = record.deals if is_deal else record.passes
    first = filed[seat]
    slip, due = _misnamed(table, filed, first, event)
    if slip is None:
        if is_deal:
            table.findings.add(codes.BAD_DEAL, event.span, msg(
                "a second deal line for {player} in hand {hand} (the first is on line {line})",
                player=table.name(seat), hand=hand, line=first.span.line),
                hand=hand, player=table.name(seat), rule="R2.4")
        else:
            table.findings.add(codes.BAD_PASS, event.span, msg(
                "a second pass line for {player} in hand {hand}", player=table.name(seat),
                hand=hand), hand=hand, player=table.name(seat), rule="R3.1")
        return
    other = event if slip is first else first
    filed[seat] = other
    fields = dict(written=table.name(seat), due=table.name(due), word="deal" if is_deal else
                  "pass", hand=hand, other=other.span.line)
    if _fits(table, record, due, slip):
        filed[due] = slip
        # TRANSLATORS: {word} is the word of the log format the line starts with ("deal",
        # "pass"), not translated; {written} and {due} are players' names
        text = msg("{written} is written where {due} is due: {due} has no `{word}` line in hand "
                   "{hand}, and {written} has one on line {other}; this line is read as {due}'s",
                   **fields)
    else:
        # TRANSLATORS: as above
        text = msg("{written} is written where {due} is due: {due} has no `{word}` line in hand "
                   "{hand}, and {written} has one on line {other}; this line is not used",
                   **fields)
    table.findings.add(codes.BAD_DEAL if is_deal else codes.BAD_PASS, slip.player_span, text,
                       hand=hand, rule="R2.4" if is_deal else "R3.1")


def _misnamed(table: CheckTable, filed: dict, first: Deal | Pass, second: Deal | Pass
              ) -> tuple[Deal | Pass | None, int]:
    """Return which of ``first`` and ``second`` (two lines of one seat) stands where the line of a
    seat with none is due, every other line of their kind being in seating order, and that seat."""
    n = table.size
    lines = sorted([(line.span.line, seat) for seat, line in filed.items() if line is not first]
                   + [(first.span.line, None), (second.span.line, None)])
    if len(lines) > n or len(lines) < 3:
        return None, 0
    starts = {(seat - index) % n for index, (_, seat) in enumerate(lines) if seat is not None}
    if len(starts) != 1:
        return None, 0
    start = starts.pop()
    found = None
    for index, (line, seat) in enumerate(lines):
        due = (start + index) % n
        if seat is None and due not in filed:
            if found is not None:
                return None, 0
            found = (first if line == first.span.line else second), due
    return found if found is not None else (None, 0)


def _fits(table: CheckTable, record: HandRecord, seat: int, line: Deal | Pass) -> bool:
    """Tell whether the cards of ``line`` fit ``seat``'s: a pass out of its deal, a deal holding
    its pass (or, in a hand without passing, its plays)."""
    if isinstance(line, Pass):
        deal = record.deals.get(seat)
        return deal is not None and not Counter(line.run.cards) - Counter(deal.run.cards)
    passed = record.passes.get(seat)
    if passed is not None:
        return not Counter(passed.run.cards) - Counter(line.run.cards)
    if record.passes:
        return False
    played = Counter(play.card for trick in record.tricks for play in trick.plays
                     if play.player is not None and table.seats.get(play.player) == seat)
    return bool(played) and not played - Counter(line.run.cards)


def _with_due_direction(table: CheckTable, start: HandStart, number: int) -> HandStart:
    """Correct a ``pass DIRECTION`` that is not the one due to the one due
    (:func:`referee.judge.holdings.report_direction` reports it)."""
    if start.direction is None:
        return start
    due = table.rules.pass_direction(number)
    try:
        if direction_offset(start.direction, table.size) == direction_offset(due, table.size):
            return start
    except ValueError:
        pass
    return HandStart(start.number, start.dealer, due, start.span, start.dealer_span,
                     start.direction_span)


def _file(table: CheckTable, record: HandRecord, event: Event) -> None:
    add, hand = table.findings.add, record.number
    if isinstance(event, (Deal, Pass)):
        seat = table.seats.get(event.player)  # (the span only for a name not seated)
        if seat is None:
            seat = table.seat(event.player, event.player_span, hand=hand)
        filed = record.deals if isinstance(event, Deal) else record.passes
        if seat in filed:  # (judged once the hand is grouped: see _read_double)
            if record.doubles is None:
                record.doubles = []
            record.doubles.append((seat, event))
        elif seat is not None:
            filed[seat] = event
    elif isinstance(event, Kitty):
        if record.kitty is not None:
            add(codes.BAD_DEAL, event.span, msg(
                "a second kitty line in hand {hand} (the first is on line {line})", hand=hand,
                line=record.kitty.span.line), hand=hand, rule="R2.2")
        else:
            record.kitty = event
    elif isinstance(event, Moon):
        if record.moon is not None:
            add(codes.BAD_MOON, event.span, msg("a second moon line in hand {hand}", hand=hand),
                hand=hand, rule="R8.5")
        else:
            record.moon = event
    elif isinstance(event, Score):
        if record.score is not None:  # (only a hand begun by a `hand` line keeps a second)
            add(codes.BAD_SETUP, event.span, msg(
                "a second score line in hand {hand} (the first is on line {line}); the later "
                "counts", hand=hand, line=record.score.span.line), hand=hand, rule="R10.4")
        record.score = event
    elif isinstance(event, Total):
        if record.total is not None:
            add(codes.BAD_SETUP, event.span, msg(
                "a second total line in hand {hand} (the first is on line {line}); the later "
                "counts", hand=hand, line=record.total.span.line), hand=hand, rule="R10.4")
        record.total = event
