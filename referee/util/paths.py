"""This module resolves a path a file names without looking anywhere it may not lead:
``os.path.realpath`` would look at ``/etc/x.toml`` to refuse a log's
``[Ruleset "/etc/x.toml"]``, which tells whether it exists (and on a network or automounted
path can block)."""

from __future__ import annotations

import os
import stat

MAX_LINKS = 40  # symbolic links followed in one resolution, as the kernel's own limit


def resolved_within(path: str, roots: tuple[str, ...]) -> str | None:
    """Resolve ``path`` (relative to the working folder) as ``os.path.realpath`` resolves it,
    or return None when it lies outside every folder of ``roots``.  One component is resolved at a
    time, and the first that is not an allowed folder, in one or above one is refused unlooked
    at: a link may lead out (refused) or back in through the allowed folders."""
    allowed = _allowed(roots)
    # the components still to resolve, last first: they are taken from the end
    pending = (path if os.path.isabs(path) else os.path.join(os.getcwd(), path)).split(os.sep)
    pending.reverse()
    current, links = os.sep, 0
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)  # ``current`` holds no link: its parent is real
            continue
        candidate = os.path.join(current, part)
        if not any(_within(candidate, root) or _within(root, candidate) for root in allowed):
            return None  # neither an allowed folder, in one, nor a folder above one
        try:
            mode = os.lstat(candidate).st_mode
        except OSError:
            mode = 0  # missing or unsearchable: the rest is taken as written, as realpath does
        if stat.S_ISLNK(mode):
            links += 1
            if links > MAX_LINKS:
                return None
            target = os.readlink(candidate)
            if os.path.isabs(target):
                current = os.sep
            pending.extend(target.split(os.sep)[::-1])
        else:
            current = candidate
    return current if any(_within(current, root) for root in allowed) else None


def _allowed(roots: tuple[str, ...]) -> tuple[str, ...]:
    """List each root as written (made absolute without a look) and as resolved: a path may
    reach a root through the links above it, or spell the root's real place."""
    found = set()
    for root in roots:
        found.add(os.path.abspath(root))
        found.add(os.path.realpath(root))
    return tuple(sorted(found))


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
