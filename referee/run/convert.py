"""This module runs ``referee convert``: it turns a written log into a JSON game record and
back, exactly.

Nothing is guessed: a log with an unreadable line, or with something a record cannot hold, is
not converted (exit 1); input that is neither a log nor a valid record is refused (exit 2).
Each conversion gives the same events again: a record made into a log is read back before it
is written; a log's record is written a block at a time, and read back whole only when a
statement may not survive it (:func:`referee.log.jsonwrite.plain_piece`, ``plain_event``)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, pairwise
from pathlib import Path
from typing import TextIO

from referee.judge.stream import unreadable
from referee.log.decode import UnreadableLog, decode_log, normalise
from referee.log.events import Comment
from referee.log.jsonrecord import InvalidRecord, read_record, validate_record
from referee.log.recognise import looks_like_record
from referee.log.jsonwrite import NotRecordable, RecordWriter, log_text, record_text
from referee.log.parser import BLOCK_CHARS, Block, parse_blocks, parse_log
from referee.output.render import diagnostic_line
from referee.util.collector import collector_paused
from referee.util.files import same_file
from referee.util.reading import UnreadableFile, read_input
from referee.util.terminal import escaped, shown_to

__all__ = ["TARGETS", "ConversionRefused", "SameFormat", "convert", "convert_file",
           "convert_main", "convert_pieces"]

TARGETS = ("json", "log")
EXIT_DONE, EXIT_REFUSED, EXIT_UNREADABLE = 0, 1, 2
_UNREAD = ": a record holds only statements, so an unreadable line is not converted"


class SameFormat(ValueError):
    """A SameFormat says that a conversion asks for the format the input already has."""


class ConversionRefused(Exception):
    """A ConversionRefused says that the input is readable but cannot be converted exactly;
    ``reasons``: (line, column, message) each."""

    def __init__(self, reasons: list[tuple[int, int, str]]) -> None:
        super().__init__(reasons[0][2])
        self.reasons = reasons


def convert(text: str, to: str | None = None) -> tuple[str, str]:
    """Convert a decoded log or record; return (the converted text, its format: "json" or
    "log"); ``to`` defaults to the other format.  Raises InvalidRecord, UnreadableLog (no
    statement at all), ConversionRefused or SameFormat."""
    pieces, kind = convert_pieces(text, to)
    return "".join(pieces), kind


def convert_pieces(text: str, to: str | None = None) -> tuple[list[str], str]:
    """Do as :func:`convert` does, giving the converted text in pieces (a log's record is made
    a hand object at a time, and need not be held twice to be written)."""
    source = "json" if looks_like_record(text) else "log"
    to = to or ("log" if source == "json" else "json")
    if to == source:
        raise SameFormat("the input is already a JSON record; `--to log` writes it as a log"
                         if to == "json" else "the input is already a log; `--to json` writes "
                         "it as a JSON record (`referee fmt` prints its canonical form)")
    if source == "json":
        reading = read_record(text)
        out = log_text(reading)
        _same(parse_log(out).events, reading.events, "log")
        return [out], "log"
    with collector_paused():  # (between the blocks as well as in them)
        pieces, plain = _written(normalise(text))
    if plain:
        return pieces, "json"
    # a value the record may not give back as it is: the streamed writing is refused when it
    # is not a valid record (the long way's own reason, without holding the log's events),
    # else the long way answers
    record = "".join(pieces)
    del pieces  # (the record is read back: not to be held twice meanwhile)
    try:
        validate_record(record)
    except InvalidRecord as err:  # a name or value a record cannot hold
        raise ConversionRefused([(1, 1, _cannot_hold(err))]) from None
    del record
    return [_record_read_back(text)], "json"


def _cannot_hold(err: InvalidRecord) -> str:
    return f"this log cannot be held exactly in a record: {err.problems[0].message}"


def _written(text: str, size: int = BLOCK_CHARS) -> tuple[list[str], bool]:
    """Return (the record of a log, ``text`` normalised, in pieces, written as the hand objects
    are made; whether every value is one the record gives back as it is).  Raises
    ConversionRefused or UnreadableLog, as the long way does, before it reads anything back."""
    writer = RecordWriter()
    issues: list = []
    refused: NotRecordable | None = None
    statement = False
    for block, rows in _blocks(text, size):
        issues.extend(block.issues)
        if issues or refused is not None:
            continue  # only the unreadable lines are still wanted
        for event in block.events:
            statement = statement or not isinstance(event, Comment)
            number = event.span.line - block.line
            try:
                writer.event(event, rows[number] if 0 <= number < len(rows) else None)
            except NotRecordable as err:
                refused = err
                break
    if issues:
        raise ConversionRefused([(i.line, i.column, i.message + _UNREAD) for i in issues])
    if not statement:
        raise UnreadableLog("nothing in this file reads as a log statement", 1, 1)
    if refused is not None:
        raise ConversionRefused([(refused.line, refused.column, refused.message)])
    return writer.pieces(), writer.plain


def _blocks(text: str, size: int) -> Iterator[tuple[Block, list[str]]]:
    """Split a log (normalised) into blocks with the lines they are read from."""
    for block, after in pairwise(chain(parse_blocks(text, size=size), [None])):
        yield block, text[block.start:None if after is None else after.start].split("\n")


def _record_read_back(text: str) -> str:
    """Make the record of a log from all its events, and read it back before it is given."""
    parsed = parse_log(text)
    if parsed.issues:
        raise ConversionRefused([(i.line, i.column, i.message + _UNREAD) for i in parsed.issues])
    if all(isinstance(event, Comment) for event in parsed.events):
        raise UnreadableLog("nothing in this file reads as a log statement", 1, 1)
    try:
        out = record_text(parsed.events, parsed.text)
    except NotRecordable as err:
        raise ConversionRefused([(err.line, err.column, err.message)]) from None
    try:
        back = read_record(out)
    except InvalidRecord as err:  # a name or value a record cannot hold
        raise ConversionRefused([(1, 1, _cannot_hold(err))]) from None
    _same(back.events, parsed.events, "record")
    return out


def _same(read_back: tuple, events: tuple, what: str) -> None:
    """Check that the written form read back gives the same events (spans aside)."""
    for index, (got, want) in enumerate(zip(read_back, events)):
        if got != want:
            span = want.span
            why = f"this statement does not survive the conversion to a {what} exactly"
            raise ConversionRefused([(span.line, span.column, why)])
    if len(read_back) != len(events):
        raise ConversionRefused([(1, 1, f"the {what} does not hold every statement")])


def convert_main(paths: str | list[str], output: str | None, to: str | None, out: TextIO,
                 err: TextIO) -> int:
    """Run the command: convert one file to ``output`` (a file) or ``out``; several (or one
    into an existing folder) each into the folder ``output`` as NAME.json or NAME.log.  Return
    the worst of the files' exit codes (2 unreadable or not written, 1 refused, 0 converted)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    if len(paths) == 1 and not (output not in (None, "-") and Path(output).is_dir()):
        return convert_file(paths[0], output, to, out, err)
    if output is None or output == "-":
        return _refused(err, "several files are converted into a folder: name it with -o DIR")
    if "-" in paths:
        return _refused(err, "standard input (-) is converted alone, not with other files")
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        return _refused(err, f"{output}: is not a folder (several files are converted into one)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as failure:
        return _refused(err, f"{output}: cannot make the folder: {failure.strerror or failure}")
    written: dict[str, str] = {}  # the name written in the folder -> the file it came from
    return max((convert_file(path, folder, to, out, err, written) for path in paths), default=0)


def _refused(err: TextIO, text: str) -> int:
    print(escaped(f"referee: {text}"), file=err)
    return EXIT_UNREADABLE


def convert_file(path: str, output: str | Path | None, to: str | None, out: TextIO,
                 err: TextIO, written: dict[str, str] | None = None, text: str | None = None
                 ) -> int:
    """Convert one file (its ``text`` if already read) to the file ``output`` or ``out``, or,
    with ``written`` (the names written so far), into the folder ``output``; return its exit
    code."""
    try:
        pieces, kind = convert_pieces(decode_log(read_input(path)) if text is None else text, to)
    except UnreadableFile as failure:
        print(escaped(f"{path}:1:1: {failure}"), file=err)
        return EXIT_UNREADABLE
    except UnreadableLog as failure:  # InvalidRecord too: one line per problem
        for diag in unreadable(path, failure).diagnostics:
            print(diagnostic_line(path, diag), file=err)
        return EXIT_UNREADABLE
    except ConversionRefused as refused:
        for line, column, message in refused.reasons:
            print(escaped(f"{path}:{line}:{column}: not converted: {message}"), file=err)
        return EXIT_REFUSED
    except SameFormat as failure:
        return _refused(err, f"{path}: {failure}")
    if written is not None:
        name = Path(path).stem + (".json" if kind == "json" else ".log")
        output = output / name
        if name in written:
            return _refused(err, f"{path}: not converted: {output} is written from "
                                 f"{written[name]}")
    elif output is None or output == "-":
        out.writelines(map(shown_to(out), pieces))
        return EXIT_DONE
    if path != "-" and same_file(path, output):  # (only fmt --write replaces what it reads)
        return _refused(err, f"{output}: is the input itself; not overwritten")
    if written is not None:
        written[name] = path
    from referee.util.files import RefusedWrite, write_parts

    try:  # all or nothing, whether it exists or not (a symbolic link refused)
        write_parts(str(output), pieces)
    except RefusedWrite as failure:
        return _refused(err, str(failure))
    except OSError as failure:
        return _refused(err, f"{output}: cannot write: {failure.strerror or failure}")
    return EXIT_DONE
