"""This module writes a file safely: all or nothing, with its mode, never through a planted
link.

The text goes to a file in the target's folder that has no name while it is written (Linux
``O_TMPFILE``; elsewhere a fresh ``O_EXCL`` name), renamed over the target when complete.  A
copy a writer killed before its rename left holds its process id in its name and is removed by
the next write of the file.  A device or a named pipe is written as it is, as ``>`` would."""

from __future__ import annotations

import errno
import io
import os
import secrets
import stat
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

TEMPORARY_SUFFIX = ".referee-tmp"
NEW_FILE_MODE = 0o666  # narrowed by the umask, as open(..., "w") does
_BUFFER = 1 << 16  # parts are gathered into writes of this size
_NAME_THE_FILE = "name the file it points to"


class RefusedWrite(Exception):
    """A RefusedWrite says that the target is not a plain file that can be replaced; the
    message says why."""


def write_parts(target: str | Path, parts: Iterable[str], *, follow_symlinks: bool = False,
                link_advice: str = _NAME_THE_FILE, replace_read_only: bool = False) -> None:
    """Make ``target`` hold exactly the concatenation of ``parts`` (UTF-8, consumed once),
    atomically: if ``parts`` raises, ``target`` is unchanged and no copy is left.  A symbolic
    link is refused (``link_advice`` says what to do) unless ``follow_symlinks`` writes the
    file it points to; a file with other hard links always is; a file its user may not write
    raises ``PermissionError`` as ``open`` would, unless ``replace_read_only``."""
    path = Path(target)
    if path.is_symlink():
        if not follow_symlinks:
            raise RefusedWrite(f"{target} is a symbolic link; not written through it "
                               f"({link_advice})")
        path = path.resolve(strict=True)
    try:
        info: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:  # a new file (a missing folder fails when it is created)
        info = None
    if info is not None:
        if stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode):
            _stream_into(path, str(target), parts)
            return
        _check_replaceable(path, str(target), info, replace_read_only)
    name = _written_beside(path, parts, info)
    try:
        if name is not None:
            os.replace(name, path)
            name = None
        _sync_directory(path.parent)
    finally:
        if name is not None:
            _remove(name)
    remove_stale_copies(path)


def _check_replaceable(path: Path, target: str, info: os.stat_result,
                       replace_read_only: bool) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise RefusedWrite(f"{target} is not a regular file")
    if info.st_nlink > 1:
        raise RefusedWrite(f"{target} has {info.st_nlink} hard links; replacing it would "
                           "split it from the others")
    if not replace_read_only and not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), target)


def _stream_into(path: Path, target: str, parts: Iterable[str]) -> None:
    """Write ``parts`` into a character device or a named pipe, as it is."""
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)  # non-blocking: a pipe without a reader fails, never waits
    except OSError as err:
        if err.errno == errno.ENXIO:
            raise RefusedWrite(f"{target} is a named pipe that nothing reads") from None
        raise
    kind = os.fstat(fd).st_mode
    if not (stat.S_ISCHR(kind) or stat.S_ISFIFO(kind)):  # replaced since it was looked at
        os.close(fd)
        raise RefusedWrite(f"{target} changed while it was opened; not written")
    os.set_blocking(fd, True)
    with _text_onto(fd, close=True) as out:
        out.writelines(parts)


def _text_onto(fd: int, *, close: bool = False) -> io.TextIOWrapper:
    """Open ``fd`` as a text file that writes exactly the strings given (no newline
    translation)."""
    return open(fd, "w", encoding="utf-8", newline="", buffering=_BUFFER, closefd=close)


def _temporary_name(folder: Path, stem: str) -> str:
    return str(folder / f".{stem}.{os.getpid()}.{secrets.token_hex(6)}{TEMPORARY_SUFFIX}")


def remove_stale_copies(target: str | Path) -> list[str]:
    """Remove the temporary copies of ``target`` that writers killed before their rename left
    (regular files of this user whose writer process is gone); return the names removed."""
    path = Path(target)
    prefix = f".{path.name}."
    removed = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(TEMPORARY_SUFFIX)):
            continue
        writer = name[len(prefix):-len(TEMPORARY_SUFFIX)].partition(".")[0]
        if not writer.isascii() or not writer.isdigit() or _alive(int(writer)):
            continue
        with suppress(OSError):
            if entry.is_file(follow_symlinks=False) and entry.stat(
                    follow_symlinks=False).st_uid == os.getuid():
                os.unlink(entry.path)
                removed.append(entry.path)
    return removed


def _alive(pid: int) -> bool:
    """Tell whether ``pid`` may still be writing (kept when in doubt: another user's process,
    or a number that is no process id; 0 and below would name process groups)."""
    if pid <= 0 or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True


def _written_beside(path: Path, parts: Iterable[str], info: os.stat_result | None) -> str | None:
    """Write a complete copy of ``parts`` in ``path``'s directory; return the name to rename
    over ``path``, or None when there was no ``path`` (``info`` None) and the copy took its
    name."""
    mode = NEW_FILE_MODE if info is None else stat.S_IMODE(info.st_mode)
    fd = _anonymous_in(path.parent, mode, info is not None)
    if fd is None:
        return _named_copy(path, mode, info, parts)
    try:
        _keep_owner(fd, info)
        _fill(fd, parts)  # whatever fails here leaves nothing: the file has no name
        try:
            if info is None and _link_anonymous(fd, str(path)):
                return None
            while True:  # a fresh temporary name
                name = _temporary_name(path.parent, path.name)
                if _link_anonymous(fd, name):
                    return name
        except OSError:  # anonymous files that cannot be linked (some sandboxes): a name
            return _named_copy(path, mode, info, fd)
    finally:
        os.close(fd)


def _named_copy(path: Path, mode: int, info: os.stat_result | None,
                source: Iterable[str] | int) -> str:
    """Write a copy under a fresh name of ``parts``, or of the whole anonymous file
    ``source``."""
    fd, name = _named_in(path.parent, path.name, mode, info is not None)
    try:
        _keep_owner(fd, info)
        if not isinstance(source, int):
            _fill(fd, source)
            return name
        os.lseek(source, 0, os.SEEK_SET)
        while block := os.read(source, _BUFFER):
            view = memoryview(block)
            while view:
                view = view[os.write(fd, view):]
        os.fsync(fd)
        return name
    except BaseException:
        _remove(name)
        raise
    finally:
        os.close(fd)


def _fill(fd: int, parts: Iterable[str]) -> None:
    with _text_onto(fd) as out:
        out.writelines(parts)
    os.fsync(fd)


def _remove(name: str) -> None:
    with suppress(OSError):
        os.unlink(name)


def _anonymous_in(folder: Path, mode: int, exact: bool) -> int | None:
    """Open a file without a name in ``folder`` (Linux), or return None where there is none;
    ``exact``: with ``mode`` as it is, else as the umask narrows it."""
    if not hasattr(os, "O_TMPFILE"):
        return None
    try:
        fd = os.open(folder, os.O_RDWR | os.O_CLOEXEC | os.O_TMPFILE, mode)
    except OSError:
        return None
    if exact:
        os.fchmod(fd, mode)  # the umask narrowed the mode given to open
    return fd


def _named_in(folder: Path, stem: str, mode: int, exact: bool) -> tuple[int, str]:
    """Make a new file in ``folder`` under a fresh name (``O_EXCL``: never an existing one)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0)
    while True:
        name = _temporary_name(folder, stem)
        try:
            fd = os.open(name, flags, mode)
        except FileExistsError:
            continue
        if exact:
            os.fchmod(fd, mode)
        return fd, name


_AT_FDCWD = -100
_AT_EMPTY_PATH = 0x1000


def _link_anonymous(fd: int, name: str) -> bool:
    """Give the anonymous file ``name`` (False when it exists: it is never replaced) by
    linkat(AT_EMPTY_PATH), else through /proc/self/fd, which some kernels refuse."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.linkat(fd, b"", _AT_FDCWD, os.fsencode(name), _AT_EMPTY_PATH) == 0:
        return True
    if ctypes.get_errno() == errno.EEXIST:
        return False
    try:
        os.link(f"/proc/self/fd/{fd}", name, follow_symlinks=True)
    except FileExistsError:
        return False
    return True


def _keep_owner(fd: int, info: os.stat_result | None) -> None:
    if info is None:  # a new file is its writer's
        return
    with suppress(OSError, AttributeError):  # not ours to give away: the writer keeps it
        os.fchown(fd, info.st_uid, info.st_gid)


def _sync_directory(folder: Path) -> None:
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def same_file(one: str | Path, other: str | Path) -> bool:
    """Tell whether the two names are one file (through links too); False when either is not
    there."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
