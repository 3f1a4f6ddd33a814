"""This module reads a file the user named within a byte limit, whatever size it reports
(``/dev/zero`` reports 0 and never ends): a path is opened without blocking (a FIFO would block
the open) and refused unless it is a regular file; standard input (``-``) is read within the
same limit."""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from referee.util.message import msg

MAX_LOG_BYTES = 256 * 1024 * 1024
_CHUNK = 1 << 20


class UnreadableFile(Exception):
    """An UnreadableFile says that the file cannot be read as a log file; the message says
    why, in plain words."""

    def __str__(self) -> str:
        # return the message itself: a Message keeps its template (str(err) would copy the text)
        return self.args[0] if self.args and isinstance(self.args[0], str) else super().__str__()


class TooLong(UnreadableFile):
    """A TooLong says that the file is longer than the limit it is read within."""


def read_limited(path: str | os.PathLike, limit: int = MAX_LOG_BYTES) -> bytes:
    """Read the bytes of the regular file ``path``, refusing devices, FIFOs, sockets and
    directories, and anything longer than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise UnreadableFile(_cannot_read(err)) from None
    kind = stat.S_IFMT(os.fstat(fd).st_mode)
    if kind != stat.S_IFREG:
        os.close(fd)
        # TRANSLATORS: {kind} is what the path is instead ("a directory", "a named pipe")
        raise UnreadableFile(msg("not a regular file ({kind}); only files are read (use - for "
                                 "standard input)", kind=_KINDS.get(kind, _SPECIAL)))
    with os.fdopen(fd, "rb", buffering=0) as handle:
        return read_stream(handle, limit)


def read_input(path: str, limit: int = MAX_LOG_BYTES) -> bytes:
    """Read the bytes of ``path``, or of standard input when it is ``-``."""
    if path == "-":
        import sys

        return read_stream(sys.stdin.buffer, limit)
    return read_limited(path, limit)


def read_stream(stream: BinaryIO, limit: int = MAX_LOG_BYTES) -> bytes:
    """Read at most ``limit`` bytes of ``stream``; longer input is refused, not read to its
    end."""
    parts, size = [], 0
    while True:
        try:
            chunk = stream.read(min(_CHUNK, limit + 1 - size))
        except OSError as err:
            raise UnreadableFile(_cannot_read(err)) from None
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            raise TooLong(msg("more than {size} MiB; logs over that are not read",
                              size=limit // 2**20))


def _cannot_read(err: OSError) -> str:
    # TRANSLATORS: {reason} is the operating system's own words ("Permission denied")
    return msg("cannot read the file: {reason}", reason=err.strerror or str(err))


_KINDS = {stat.S_IFDIR: msg("a directory"), stat.S_IFCHR: msg("a character device"),
          stat.S_IFBLK: msg("a block device"), stat.S_IFIFO: msg("a named pipe"),
          stat.S_IFSOCK: msg("a socket")}
_SPECIAL = msg("a special file")
