"""Replacing a file's text safely: all or nothing, with its mode, never through a planted link.

The new text is written to an anonymous file in the target's directory (Linux ``O_TMPFILE``:
it has no name, so a kill while it is written leaves nothing behind), given a name only to be
renamed over the target at once.  Elsewhere a fresh name is created with ``O_EXCL``, so a
symbolic link planted at a predictable name cannot redirect the write.  The target's
permission bits (and, where allowed, its owner) carry over.

No system call puts an anonymous file over an existing name (``linkat`` refuses one), so a
kill between naming the copy and the rename leaves that complete copy behind.  The name holds
its writer's process id, and every write removes the copies of the same target whose writers
are gone (never a live writer's, never another user's), so such a copy lasts until the next
write of that file.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path

TEMPORARY_SUFFIX = ".referee-tmp"


class RefusedWrite(Exception):
    """The target is not a plain file that can be replaced; the message says why."""


def replace_text(target: str | Path, text: str, *, follow_symlinks: bool = False) -> None:
    """Make ``target`` hold exactly ``text`` (UTF-8), atomically.

    A symbolic link is refused unless ``follow_symlinks`` (then the file it points to is
    replaced and the link stays); a file with other hard links is always refused, since
    replacing it would silently split it from them."""
    path = Path(target)
    if path.is_symlink():
        if not follow_symlinks:
            raise RefusedWrite(f"{target} is a symbolic link; not written through it "
                               "(--follow-symlinks rewrites the file it points to)")
        path = path.resolve(strict=True)
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise RefusedWrite(f"{target} is not a regular file")
    if info.st_nlink > 1:
        raise RefusedWrite(f"{target} has {info.st_nlink} hard links; replacing it would "
                           "split it from the others")
    data = text.encode("utf-8")
    mode = stat.S_IMODE(info.st_mode)
    name = _written_beside(path, data, mode, info)
    try:
        os.replace(name, path)
        name = None
        _sync_directory(path.parent)
    finally:
        if name is not None:
            _remove(name)
    remove_stale_copies(path)


def _temporary_name(folder: Path, stem: str) -> str:
    return str(folder / f".{stem}.{os.getpid()}.{secrets.token_hex(6)}{TEMPORARY_SUFFIX}")


def remove_stale_copies(target: str | Path) -> list[str]:
    """Remove the temporary copies of ``target`` that writers killed before their rename left
    (regular files of this user whose writer process is gone); the names removed."""
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
        try:
            if entry.is_file(follow_symlinks=False) and entry.stat(
                    follow_symlinks=False).st_uid == os.getuid():
                os.unlink(entry.path)
                removed.append(entry.path)
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    """Whether ``pid`` may still be writing (kept when in doubt: another user's process, or a
    number that is no process id; 0 and below would name process groups)."""
    if pid <= 0 or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True
    return True


def _written_beside(path: Path, data: bytes, mode: int, info: os.stat_result) -> str:
    """The name of a complete copy of ``data`` in ``path``'s directory, ready to rename."""
    fd = _anonymous_in(path.parent, mode)
    if fd is not None:
        try:
            _fill(fd, data, info)
            return _link_anonymous(fd, path.parent, path.name)
        except OSError:  # anonymous files that cannot be linked (some sandboxes): a name
            pass
        finally:
            os.close(fd)
    fd, name = _named_in(path.parent, path.name, mode)
    try:
        _fill(fd, data, info)
    except BaseException:
        os.close(fd)
        _remove(name)
        raise
    os.close(fd)
    return name


def _fill(fd: int, data: bytes, info: os.stat_result) -> None:
    _keep_owner(fd, info)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.fsync(fd)


def _remove(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def _anonymous_in(folder: Path, mode: int) -> int | None:
    """An open file without a name in ``folder`` (Linux), or None where there is none."""
    if not hasattr(os, "O_TMPFILE"):
        return None
    try:
        fd = os.open(folder, os.O_WRONLY | os.O_CLOEXEC | os.O_TMPFILE, mode)
    except OSError:
        return None
    os.fchmod(fd, mode)  # the umask narrowed the mode given to open
    return fd


def _named_in(folder: Path, stem: str, mode: int) -> tuple[int, str]:
    """A new file in ``folder`` under a fresh name (``O_EXCL``: never an existing one)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NOFOLLOW", 0)
    while True:
        name = _temporary_name(folder, stem)
        try:
            fd = os.open(name, flags, mode)
        except FileExistsError:
            continue
        os.fchmod(fd, mode)
        return fd, name


_AT_FDCWD = -100
_AT_EMPTY_PATH = 0x1000


def _link_anonymous(fd: int, folder: Path, stem: str) -> str:
    """Give the anonymous file a fresh name in ``folder``: linkat(fd, "", AT_EMPTY_PATH),
    else through /proc/self/fd (which some kernels refuse across their /proc mount)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    while True:
        name = _temporary_name(folder, stem)
        if libc.linkat(fd, b"", _AT_FDCWD, os.fsencode(name), _AT_EMPTY_PATH) == 0:
            return name
        error = ctypes.get_errno()
        if error == errno.EEXIST:
            continue
        try:
            os.link(f"/proc/self/fd/{fd}", name, follow_symlinks=True)
            return name
        except FileExistsError:
            continue


def _keep_owner(fd: int, info: os.stat_result) -> None:
    try:
        os.fchown(fd, info.st_uid, info.st_gid)
    except (OSError, AttributeError):  # not ours to give away: the writer keeps it
        pass


def _sync_directory(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
