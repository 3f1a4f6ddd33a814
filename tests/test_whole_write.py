"""Every file the referee writes is written whole or not at all: `write_parts` (the one writer
of `report -o`, `convert -o` and `fmt --write`) on real files, an error half-way, modes, links,
devices, and `report -o` killed with SIGKILL at random moments while it writes its page."""

from __future__ import annotations

import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.cli import main
from referee.util import files
from referee.util.files import TEMPORARY_SUFFIX, RefusedWrite, write_parts

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "examples" / "logs"
OLD = b"the old contents\r\nwith a CR LF and \xc3\xa9\n"
PARTS = ["<p>caf\u00e9</p>\r\n", "", "x" * 70_000, "\n\u2028end\n"]  # past one 64 KiB write
WANT = "".join(PARTS).encode("utf-8")


class Broken(Exception):
    """What the parts raise half-way."""


def failing_parts(after: int = 2):
    """Parts that raise after ``after`` of them (a bug, a failure to render half-way)."""
    yield from PARTS[:after]
    raise Broken


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def temporaries(folder: Path) -> list[str]:
    return [name for name in entries(folder) if name.endswith(TEMPORARY_SUFFIX)]


@pytest.fixture(params=["anonymous", "named", "unlinkable"])
def way(request, monkeypatch):
    """Each way a copy is made: an anonymous file linked in (Linux), a fresh ``O_EXCL`` name
    (no ``O_TMPFILE``), an anonymous file that cannot be linked (copied to a fresh name)."""
    if request.param == "named":
        monkeypatch.setattr(files, "_anonymous_in", lambda *args: None)
    elif request.param == "unlinkable":
        def refused(*args):
            raise PermissionError(1, "linkat refused")

        monkeypatch.setattr(files, "_link_anonymous", refused)
    return request.param


# ---- write_parts ----------------------------------------------------------------------------
def test_parts_that_raise_half_way_leave_an_existing_file_as_it_was(tmp_path, way):
    target = tmp_path / "page.html"
    target.write_bytes(OLD)
    target.chmod(0o640)
    before = os.stat(target)
    with pytest.raises(Broken):
        write_parts(target, failing_parts())
    assert target.read_bytes() == OLD
    after = os.stat(target)
    assert (after.st_ino, after.st_mode, after.st_mtime_ns) == (
        before.st_ino, before.st_mode, before.st_mtime_ns)
    assert entries(tmp_path) == ["page.html"]  # no temporary copy, named or not


def test_parts_that_raise_half_way_leave_no_new_file(tmp_path, way):
    with pytest.raises(Broken):
        write_parts(tmp_path / "page.html", failing_parts())
    assert entries(tmp_path) == []
    with pytest.raises(Broken):  # raising before the first part, too
        write_parts(tmp_path / "page.html", failing_parts(0))
    assert entries(tmp_path) == []


def test_an_existing_file_gets_exactly_the_parts_and_keeps_its_mode(tmp_path, way):
    target = tmp_path / "page.html"
    target.write_bytes(OLD)
    target.chmod(0o600)
    write_parts(target, iter(PARTS))  # an iterator: it can be consumed only once
    assert target.read_bytes() == WANT  # no newline translated, nothing re-encoded
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert entries(tmp_path) == ["page.html"]


def _copy_size(folder: Path) -> int:
    """How much this process has written so far to its copy in ``folder``."""
    for fd in os.listdir("/proc/self/fd"):
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
            if where.startswith(f"{folder}/") and ("(deleted)" in where
                                                    or TEMPORARY_SUFFIX in where):
                return os.fstat(int(fd)).st_size
        except OSError:
            continue
    return -1


def test_the_parts_are_written_as_they_come_never_held_whole(tmp_path, way):
    part, count = "y" * 50_000, 40
    written = []

    def parts():
        for _ in range(count):
            yield part
            written.append(_copy_size(tmp_path))  # asked for the next: what is in the copy

    write_parts(tmp_path / "big.html", parts())
    assert (tmp_path / "big.html").read_bytes() == part.encode() * count
    # at most one 64 KiB buffer behind the parts given, all along
    assert all(size >= len(part) * (index + 1) - files._BUFFER
               for index, size in enumerate(written)), written


def test_a_new_file_gets_the_mode_open_would_give_it(tmp_path, way):
    mask = os.umask(0o027)
    try:
        write_parts(tmp_path / "page.html", iter(PARTS))
        with open(tmp_path / "by-open.html", "w"):
            pass
    finally:
        os.umask(mask)
    assert (tmp_path / "page.html").read_bytes() == WANT
    assert stat.S_IMODE((tmp_path / "page.html").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "by-open.html").stat().st_mode) == 0o640
    assert entries(tmp_path) == ["by-open.html", "page.html"]


def test_a_symbolic_link_is_refused_unless_asked(tmp_path):
    real = tmp_path / "real.html"
    real.write_bytes(OLD)
    link = tmp_path / "link.html"
    link.symlink_to(real.name)
    with pytest.raises(RefusedWrite, match="is a symbolic link; not written through it "
                                           r"\(name the file it points to\)"):
        write_parts(link, iter(PARTS))
    assert real.read_bytes() == OLD and link.is_symlink()
    dangling = tmp_path / "dangling.html"
    dangling.symlink_to("nowhere.html")
    with pytest.raises(RefusedWrite, match="symbolic link"):
        write_parts(dangling, iter(PARTS))
    assert not (tmp_path / "nowhere.html").exists()
    write_parts(link, iter(PARTS), follow_symlinks=True)
    assert real.read_bytes() == WANT and link.is_symlink()
    assert sorted(entries(tmp_path)) == ["dangling.html", "link.html", "real.html"]


def test_a_hard_linked_file_and_a_directory_are_refused(tmp_path):
    target = tmp_path / "page.html"
    target.write_bytes(OLD)
    os.link(target, tmp_path / "other.html")
    with pytest.raises(RefusedWrite, match="has 2 hard links"):
        write_parts(target, iter(PARTS))
    assert target.read_bytes() == OLD
    (tmp_path / "folder").mkdir()
    with pytest.raises(RefusedWrite, match="is not a regular file"):
        write_parts(tmp_path / "folder", iter(PARTS))
    assert entries(tmp_path / "folder") == []


def test_a_read_only_file_is_refused_as_open_refuses_it(tmp_path, monkeypatch, capsys):
    target = tmp_path / "page.html"
    target.write_bytes(OLD)
    target.chmod(0o444)
    if os.geteuid() == 0:  # root may write any file: access answers as for any other user
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: (
            False if Path(path) == target and mode == os.W_OK else real_access(path, mode, **kw)))
    with pytest.raises(PermissionError):
        write_parts(target, iter(PARTS))
    assert target.read_bytes() == OLD
    assert main(["report", str(LOGS / "revoke.log"), "-o", str(target)]) == 2
    assert f"referee: cannot write {target}: Permission denied" in capsys.readouterr().err
    assert target.read_bytes() == OLD and entries(tmp_path) == ["page.html"]
    write_parts(target, ["fmt replaces it, as before"], replace_read_only=True)  # as fmt does
    assert target.read_text("utf-8") == "fmt replaces it, as before"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444


def test_a_missing_folder_is_the_error_open_gives(tmp_path):
    with pytest.raises(FileNotFoundError):
        write_parts(tmp_path / "none" / "page.html", iter(PARTS))
    assert entries(tmp_path) == []


def test_a_device_is_written_as_it_is(tmp_path):
    write_parts("/dev/null", iter(PARTS))  # not replaced: written, as `> /dev/null` would
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_named_pipe_is_written_when_read_and_refused_at_once_when_not(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    start = time.perf_counter()
    with pytest.raises(RefusedWrite, match="is a named pipe that nothing reads"):
        write_parts(pipe, iter(PARTS))
    assert time.perf_counter() - start < 5  # never waits for a reader
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    for _ in range(500):  # until the reader has the pipe open
        try:
            write_parts(pipe, iter(PARTS))
            break
        except RefusedWrite:
            time.sleep(0.01)
    reader.join(10)
    assert got == [WANT]
    assert stat.S_ISFIFO(pipe.lstat().st_mode) and entries(tmp_path) == ["pipe"]


def _dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


def test_a_write_removes_the_copies_dead_writers_left_of_its_target(tmp_path):
    dead = tmp_path / f".page.html.{_dead_pid()}.0123456789ab{TEMPORARY_SUFFIX}"
    dead.write_bytes(WANT)
    live = tmp_path / f".page.html.{os.getpid()}.0123456789ab{TEMPORARY_SUFFIX}"
    live.write_bytes(WANT)
    write_parts(tmp_path / "page.html", iter(PARTS))  # a new file: its copies go too
    assert not dead.exists() and live.exists()
    assert (tmp_path / "page.html").read_bytes() == WANT


# ---- report -o and convert -o -----------------------------------------------------------------
def _written_as_printed(command: str, code: int, tmp_path, capsys) -> tuple[bytes, Path]:
    """What ``command`` of revoke.log prints, once it is shown to be the bytes it writes to a
    new file and over an old 0600 one (whose mode stays); and the new file."""
    log = LOGS / "revoke.log"
    assert main([command, str(log)]) == code
    printed = capsys.readouterr().out.encode("utf-8")
    new, old = tmp_path / f"new.{command}", tmp_path / f"old.{command}"
    assert main([command, str(log), "-o", str(new)]) == code
    old.write_bytes(OLD)
    old.chmod(0o600)
    assert main([command, str(log), "-o", str(old)]) == code
    assert new.read_bytes() == old.read_bytes() == printed
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
    return printed, new


def test_report_writes_to_a_file_the_bytes_it_prints(tmp_path, capsys):
    printed, _ = _written_as_printed("report", 1, tmp_path, capsys)
    assert printed.startswith(b"<!DOCTYPE html>") and printed.rstrip().endswith(b"</html>")
    assert entries(tmp_path) == ["new.report", "old.report"]


def test_the_next_report_and_convert_remove_the_copies_dead_writers_left(tmp_path):
    dead = _dead_pid()
    for name, command in (("page.html", "report"), ("game.json", "convert")):
        left = tmp_path / f".{name}.{dead}.0123456789ab{TEMPORARY_SUFFIX}"
        left.write_bytes(WANT)  # as a writer killed between naming its copy and the rename
        assert main([command, str(LOGS / "revoke.log"), "-o", str(tmp_path / name)]) in (0, 1)
        assert not left.exists()
    assert entries(tmp_path) == ["game.json", "page.html"]


def test_report_that_fails_half_way_leaves_the_old_page(tmp_path, monkeypatch):
    from referee.output import html

    whole_page = html.page_parts

    def half_a_page(view, language):
        yield next(whole_page(view, language))
        raise Broken

    monkeypatch.setattr(html, "page_parts", half_a_page)
    page = tmp_path / "page.html"
    page.write_bytes(OLD)
    with pytest.raises(Broken):
        html.report_main(str(LOGS / "revoke.log"), str(page))
    assert page.read_bytes() == OLD and entries(tmp_path) == ["page.html"]
    with pytest.raises(Broken):
        html.report_main(str(LOGS / "revoke.log"), str(tmp_path / "new.html"))
    assert entries(tmp_path) == ["page.html"]


def _refuses_a_link(command: str, tmp_path, capsys) -> None:
    """``command`` of revoke.log with ``-o`` a link to an old file: refused, both kept."""
    real, link = tmp_path / f"real.{command}", tmp_path / f"link.{command}"
    real.write_bytes(OLD)
    link.symlink_to(real)
    assert main([command, str(LOGS / "revoke.log"), "-o", str(link)]) == 2
    assert f"referee: {link} is a symbolic link; not written through it" in (
        capsys.readouterr().err)
    assert real.read_bytes() == OLD and link.is_symlink()


def test_report_refuses_a_link_and_names_what_it_cannot_write(tmp_path, capsys):
    log = LOGS / "revoke.log"
    _refuses_a_link("report", tmp_path, capsys)
    missing = tmp_path / "none" / "page.html"
    assert main(["report", str(log), "-o", str(missing)]) == 2
    assert f"referee: cannot write {missing}: No such file or directory" in (
        capsys.readouterr().err)
    assert main(["report", str(log), "-o", "/dev/null"]) == 1
    logged = tmp_path / "copy.log"
    logged.write_bytes(log.read_bytes())
    alias = tmp_path / "alias.log"
    alias.symlink_to(logged)
    assert main(["report", str(logged), "-o", str(alias)]) == 2  # the log, through a link
    assert "is the log itself; not overwritten" in capsys.readouterr().err
    assert logged.read_bytes() == log.read_bytes()


def test_convert_writes_to_a_file_the_bytes_it_prints(tmp_path, capsys):
    record, new = _written_as_printed("convert", 0, tmp_path, capsys)
    assert record.startswith(b"{") and b'"format": "referee-game-record"' in record
    assert main(["convert", str(new)]) == 0  # and back: the log's canonical text
    printed = capsys.readouterr().out.encode("utf-8")
    back = tmp_path / "back.log"
    assert main(["convert", str(new), "-o", str(back)]) == 0
    assert back.read_bytes() == printed == (LOGS / "revoke.log").read_bytes()
    assert entries(tmp_path) == ["back.log", "new.convert", "old.convert"]


def test_convert_refuses_a_link_and_names_what_it_cannot_write(tmp_path, capsys):
    log = LOGS / "revoke.log"
    _refuses_a_link("convert", tmp_path, capsys)
    missing = tmp_path / "none" / "game.json"
    assert main(["convert", str(log), "-o", str(missing)]) == 2
    assert f"referee: {missing}: cannot write: No such file or directory" in (
        capsys.readouterr().err)
    assert entries(tmp_path) == ["link.convert", "real.convert"]


def test_convert_writes_its_pieces_without_joining_them(tmp_path, monkeypatch):
    from referee.run import convert

    seen = []

    def recording(target, parts, **options):
        seen.append(parts)
        return write_parts(target, parts, **options)

    monkeypatch.setattr(files, "write_parts", recording)
    assert convert.convert_main(str(LOGS / "revoke.log"), str(tmp_path / "g.json"), None,
                                sys.stdout, sys.stderr) == 0
    [pieces] = seen  # the record's pieces as they were made, not one joined string
    assert isinstance(pieces, list) and len(pieces) > 1
    assert "".join(pieces).encode() == (tmp_path / "g.json").read_bytes()


# ---- kill -9 while report -o writes -------------------------------------------------------------
KILLS = 50
PARALLEL = 2
HANDS = 12  # a page of about 0.55 MB, rendered and written 64 KiB at a time over half a second
# Each trial runs `referee report game.log -o page.html` (the command line's own main) in a
# process forked from one that has imported the package and made a page once, so that a trial
# costs the report and not Python's start: about 50 kills fit in half a minute.  A child is
# reaped only when asked, after its kill, so its pid is never another process's.
SERVER = """
import os, sys
from referee.cli import main
main(["report", sys.argv[1], "-o", os.devnull])
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:
        quiet = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(quiet, fd)
        os.chdir(line.rstrip("\\n"))
        os._exit(main(["report", "game.log", "-o", "page.html"]))
    print(pid, flush=True)
    sys.stdin.readline()
    print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), flush=True)
"""


class Reporter:
    """A process that runs `report -o` in a fresh child on demand."""

    def __init__(self, log: Path) -> None:
        self.server = subprocess.Popen([sys.executable, "-c", SERVER, str(log)], cwd=ROOT,
                                       env={**os.environ, "PYTHONPATH": str(ROOT)},
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True)

    def start(self, folder: Path) -> int:
        """The pid of a child writing ``folder``'s page of its ``game.log``."""
        self.server.stdin.write(f"{folder}\n")
        self.server.stdin.flush()
        return int(self.server.stdout.readline())

    def reap(self) -> int:
        """The exit code of the child (negative: the signal that ended it)."""
        self.server.stdin.write("\n")
        self.server.stdin.flush()
        return int(self.server.stdout.readline())

    def close(self) -> None:
        self.server.stdin.close()
        self.server.wait(60)


def _writing(pid: int, folder: Path) -> bool:
    """Whether process ``pid`` has a file open in ``folder`` for its page (an anonymous copy,
    a named one, or the page itself, as a writer that is not all or nothing has)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return False
    for fd in fds:
        try:
            where = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if where.startswith(f"{folder}/") and ("(deleted)" in where or TEMPORARY_SUFFIX in where
                                                or where == f"{folder}/page.html"):
            return True
    return False


def _until_writing(pid: int, folder: Path) -> float | None:
    """The moment child ``pid`` starts writing its page (None: it ended first)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if _writing(pid, folder):
            return time.monotonic()
        try:
            with open(f"/proc/{pid}/stat") as status:
                if status.read().rpartition(")")[2].split()[0] == "Z":
                    return None  # it has ended (and waits to be reaped)
        except OSError:
            return None
        time.sleep(0.005)
    return None


def _kill_trials(reporter: Reporter, folder: Path, trials: int, seed: int
                 ) -> tuple[bytes, dict[str, int]]:
    """(the page a run that is not killed writes, what ``trials`` killed runs left)."""
    rng = random.Random(seed)
    page = folder / "page.html"
    pid = reporter.start(folder)  # timed as the trials run: side by side with the others
    started = _until_writing(pid, folder)
    assert reporter.reap() == 0 and started is not None
    writing = time.monotonic() - started
    want = page.read_bytes()
    outcomes = {"unchanged": 0, "complete": 0, "copies": 0, "half-written": 0}
    for trial in range(trials):
        existed = trial % 2 == 0  # an old page to keep, or none
        if existed:
            page.write_bytes(OLD)
        else:
            page.unlink(missing_ok=True)
        pid = reporter.start(folder)
        started = _until_writing(pid, folder)
        # from the first write to a little past the last one: before, during, after the rename
        time.sleep(rng.uniform(0, 1.2) * writing)
        os.kill(pid, signal.SIGKILL)  # our child's child, not yet reaped: its pid is its own
        assert reporter.reap() in (0, -signal.SIGKILL)
        if page.exists():
            got = page.read_bytes()
            assert (got in (OLD, want)) if existed else (got == want), "a partial page"
            outcomes["complete" if got == want else "unchanged"] += 1
        else:
            assert not existed, "the old page was lost"
            outcomes["unchanged"] += 1
        if started is not None and (not page.exists() or page.read_bytes() == OLD):
            outcomes["half-written"] += 1  # killed after its first write, before its rename
        left = [name for name in entries(folder) if name not in ("page.html", "game.log")]
        if left:  # killed between naming the finished copy and the rename: whole, pid-named
            assert all(name.endswith(TEMPORARY_SUFFIX) for name in left), left
            assert [(folder / name).read_bytes() for name in left] == [want], "a partial copy"
            outcomes["copies"] += 1
            reporter.start(folder)
            assert reporter.reap() == 0  # the next run removes it
            assert entries(folder) == ["game.log", "page.html"]
            assert page.read_bytes() == want
    return want, outcomes


@pytest.mark.slow
def test_report_killed_at_any_moment_leaves_the_old_page_or_the_whole_new_one(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from referee.conformance.generate import generate_game
    from referee.log.writer import write
    from referee.rules.ruleset import load_ruleset, with_options

    rules = with_options(load_ruleset("cancellation"), target=10**9)
    text = write(generate_game(rules, 6, seed=11, hands=HANDS))
    folders = []
    for index in range(PARALLEL):  # each in its own folder, so what is left there is its own
        folders.append(tmp_path / str(index))
        folders[-1].mkdir()
        (folders[-1] / "game.log").write_text(text, "utf-8")
    reporters = [Reporter(folder / "game.log") for folder in folders]
    try:
        with ThreadPoolExecutor(PARALLEL) as pool:
            done = list(pool.map(lambda i: _kill_trials(reporters[i], folders[i],
                                                        KILLS // PARALLEL, i), range(PARALLEL)))
    finally:
        for reporter in reporters:
            reporter.close()
    pages = {want for want, _ in done}
    assert len(pages) == 1  # (the page names the log as it was named: game.log)
    [want] = pages
    assert len(want) > 500_000 and want.endswith(b"</html>")
    results = [outcomes for _, outcomes in done]
    assert sum(r["unchanged"] + r["complete"] for r in results) == KILLS
    # the kills landed on both sides of the rename, many of them while the page was written
    assert sum(r["complete"] for r in results)
    assert sum(r["half-written"] for r in results) >= KILLS // 4, results
