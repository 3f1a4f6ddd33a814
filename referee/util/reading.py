"""Reading a file the user named, within a byte limit that does not trust the reported size.

``/dev/zero`` and ``/dev/urandom`` report a size of 0 and never end; a FIFO blocks an open
until someone writes to it.  So a path is opened without blocking and refused unless it is a
regular file, and at most ``limit`` bytes are read whatever the size says.  Standard input
(``-``) may be a pipe, and is read within the same limit.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

MAX_LOG_BYTES = 256 * 1024 * 1024
_CHUNK = 1 << 20


class UnreadableFile(Exception):
    """The file cannot be read as a log file; the message says why, in plain words."""


def read_limited(path: str | os.PathLike, limit: int = MAX_LOG_BYTES) -> bytes:
    """The bytes of the regular file ``path``, refusing devices, FIFOs, sockets and
    directories, and anything longer than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise UnreadableFile(f"cannot read the file: {err.strerror or err}") from None
    kind = stat.S_IFMT(os.fstat(fd).st_mode)
    if kind != stat.S_IFREG:
        os.close(fd)
        raise UnreadableFile(f"not a regular file ({_KINDS.get(kind, 'a special file')}); "
                             "only files are read (use - for standard input)")
    with os.fdopen(fd, "rb", buffering=0) as handle:
        return read_stream(handle, limit)


def read_input(path: str, limit: int = MAX_LOG_BYTES) -> bytes:
    """The bytes of ``path``, or of standard input when it is ``-``."""
    if path == "-":
        import sys

        return read_stream(sys.stdin.buffer, limit)
    return read_limited(path, limit)


def read_stream(stream: BinaryIO, limit: int = MAX_LOG_BYTES) -> bytes:
    """At most ``limit`` bytes of ``stream``; longer input is refused, not read to its end."""
    parts, size = [], 0
    while True:
        try:
            chunk = stream.read(min(_CHUNK, limit + 1 - size))
        except OSError as err:
            raise UnreadableFile(f"cannot read the file: {err.strerror or err}") from None
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        size += len(chunk)
        if size > limit:
            raise UnreadableFile(f"more than {limit // 2**20} MiB; logs over that are not read")


_KINDS = {stat.S_IFDIR: "a directory", stat.S_IFCHR: "a character device",
          stat.S_IFBLK: "a block device", stat.S_IFIFO: "a named pipe",
          stat.S_IFSOCK: "a socket"}
