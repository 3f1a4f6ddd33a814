"""A ruleset file a log may not name is refused without a look at it (not even an lstat, which
says whether it exists and can block on a network path), and the refusal names the file that
lies outside: the one the tag names, or that one's base."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.run.single import check_path
from referee.util.paths import resolved_within

PLAYERS = '[Players "Ann Bob Cat Dan Eve Fay"]\n'


def _log(folder, tag: str):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "game.log"
    path.write_text(f'[Ruleset "{tag}"]\n' + PLAYERS, "utf-8")
    return path


@pytest.fixture
def tree(tmp_path):
    """logs/ (allowed) with rules in it, a sub-folder and links in and out; elsewhere/ beside it."""
    logs, elsewhere = tmp_path / "logs", tmp_path / "elsewhere"
    (logs / "sub").mkdir(parents=True)
    elsewhere.mkdir()
    (logs / "r.toml").write_text('base = "cancellation"\nname = "inside"\n', "utf-8")
    (elsewhere / "x.toml").write_text('base = "cancellation"\nname = "outside"\n', "utf-8")
    (logs / "out.toml").symlink_to(elsewhere / "x.toml")
    (logs / "outdir").symlink_to(elsewhere)
    (logs / "in.toml").symlink_to("sub/../r.toml")
    (logs / "sub" / "up").symlink_to("..")
    (logs / "loop").symlink_to("loop")
    return tmp_path


class _Looks:
    """Every path the process looks at, opens or reads a link of, while it is installed."""

    def __init__(self, monkeypatch):
        self.paths: list[str] = []
        for name in ("lstat", "stat", "open", "readlink", "listdir", "scandir", "access"):
            real = getattr(os, name)
            monkeypatch.setattr(os, name, self._recorded(real))

    def _recorded(self, real):
        def look(path, *args, **kwargs):
            if isinstance(path, (str, bytes, os.PathLike)):
                self.paths.append(os.path.abspath(os.fsdecode(path)))
            return real(path, *args, **kwargs)
        return look

    def under(self, folder) -> list[str]:
        return [p for p in self.paths if p == str(folder) or p.startswith(f"{folder}{os.sep}")]


@pytest.mark.parametrize("tag", [
    "../elsewhere/x.toml", "{elsewhere}/x.toml", "out.toml", "outdir/x.toml",
    "sub/../../elsewhere/x.toml", "sub/up/../elsewhere/x.toml", "../elsewhere/missing.toml",
])
def test_a_file_outside_is_refused_without_a_look_at_it(tree, monkeypatch, tag):
    elsewhere = tree / "elsewhere"
    log = _log(tree / "logs", tag.format(elsewhere=elsewhere))
    looks = _Looks(monkeypatch)
    report = check_path(log)
    monkeypatch.undo()
    assert looks.under(elsewhere) == []  # what realpath did: an lstat of each part
    [fault] = [d for d in report.diagnostics if d.kind == "bad-setup"]
    assert fault.message.startswith("the ruleset file this tag names lies outside the log's folder")
    assert report.ruleset == "cancellation"


@pytest.mark.parametrize("tag", ["r.toml", "in.toml", "sub/../r.toml", "sub/up/r.toml",
                                 "./sub/up/sub/up/r.toml", "{logs}/r.toml"])
def test_a_file_inside_is_read_however_it_is_reached(tree, tag):
    report = check_path(_log(tree / "logs", tag.format(logs=tree / "logs")))
    assert report.ruleset == "inside" and report.verdict == "clean", report.diagnostics


def test_a_base_outside_is_said_to_be_the_base(tree, monkeypatch):
    logs = tree / "logs"
    (logs / "inner.toml").write_text('base = "../elsewhere/x.toml"\nname = "inner"\n', "utf-8")
    looks = _Looks(monkeypatch)
    report = check_path(_log(logs, "inner.toml"))
    monkeypatch.undo()
    assert looks.under(tree / "elsewhere") == []
    [fault] = [d for d in report.diagnostics if d.kind == "bad-setup"]
    assert (fault.line, fault.column) == (1, 1)
    assert fault.message == (
        "the ruleset file this tag names takes as its base '../elsewhere/x.toml', which lies "
        "outside the log's folder, so it is not read (`--allow-ruleset-dir DIR` allows the files "
        "under DIR, `--ruleset FILE` checks with FILE whatever the log names); checking with "
        "cancellation")


def test_a_ruleset_file_too_long_is_said_to_be_a_ruleset(tmp_path):
    (tmp_path / "big.toml").write_bytes(b"#" * (1 << 20) + b"\n")
    [fault] = [d for d in check_path(_log(tmp_path, "big.toml")).diagnostics]
    assert fault.message == (f"ruleset file '{tmp_path / 'big.toml'}' is more than 1 MiB; no "
                             "ruleset is that long, so it is not read; checking with cancellation")


def test_a_link_loop_is_refused_not_followed_for_ever(tree):
    assert resolved_within(str(tree / "logs" / "loop"), (str(tree / "logs"),)) is None
    [fault] = [d for d in check_path(_log(tree / "logs", "loop/x.toml")).diagnostics]
    assert fault.kind == "bad-setup"


# Paths over the tree: parts drawn from names in it, "..", "." and names that are not there.
_PART = st.sampled_from(["logs", "elsewhere", "sub", "up", "out.toml", "outdir", "in.toml",
                         "r.toml", "x.toml", "..", ".", "none"])


# (the tree is only read: one per test is enough)
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(_PART, min_size=1, max_size=6), absolute=st.booleans())
def test_resolution_agrees_with_realpath_wherever_it_answers(tree, parts, absolute):
    # a refused path is one whose resolution leaves the allowed folder on the way; one it
    # accepts is exactly where realpath resolves it
    root = tree / "logs"
    path = os.path.join(str(tree) if absolute else str(root), *parts)
    found = resolved_within(path, (str(root),))
    real = os.path.realpath(path)
    inside = real == str(root) or real.startswith(f"{root}{os.sep}")
    if found is not None:
        assert found == real and inside
    if not inside:
        assert found is None
