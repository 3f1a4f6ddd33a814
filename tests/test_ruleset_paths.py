"""The ruleset files a log may name, and ruleset faults that are diagnostics, not crashes.

A log may name a bundled ruleset or a .toml file in its own folder or below it; any other
file is not opened unless the user allows it (``--ruleset``, ``--allow-ruleset-dir``).
"""

from __future__ import annotations

import os

import pytest

from referee.cli import main
from referee.log.parser import parse_log
from referee.proofs.handfacts import table_for
from referee.run.single import check_path
from referee.rules.ruleset_files import RulesetError
from referee.rules.ruleset import direction_offset, load_ruleset

PLAYERS = '[Players "Ann Bob Cat Dan Eve Fay"]\n'
SECRET = "zebra_quartz_7731"  # a key no message may repeat unless the file was allowed
RULES = f'base = "cancellation"\nname = "outside"\n{SECRET} = 1\n'


def _log(folder, tag: str, name: str = "game.log"):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f'[Ruleset "{tag}"]\n' + PLAYERS, "utf-8")
    return path


def _user_ruleset(tmp_path) -> str:
    """A ruleset file the user names on the command line (anywhere: the user may)."""
    path = tmp_path / "user" / "mine.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text('base = "cancellation"\nname = "mine"\n', "utf-8")
    return str(path)


def _setup(report):
    return [d for d in report.diagnostics if d.kind == "bad-setup"]


@pytest.fixture
def outside(tmp_path):
    """A ruleset file beside, not inside, the log's folder; its contents are unique."""
    path = tmp_path / "elsewhere" / "x.toml"
    path.parent.mkdir()
    path.write_text(RULES, "utf-8")
    return path


@pytest.mark.parametrize("how", ["relative", "absolute", "symlink"])
def test_a_ruleset_file_outside_the_logs_folder_is_not_read(tmp_path, outside, capsys, how):
    logs = tmp_path / "logs"
    logs.mkdir()
    tag = {"relative": "../elsewhere/x.toml", "absolute": str(outside), "symlink": "link.toml"}[how]
    if how == "symlink":
        (logs / "link.toml").symlink_to(outside)
    log = _log(logs, tag)
    outside.chmod(0)  # opening it would fail with an error text of its own
    try:
        report = check_path(log)
        assert main(["check", str(log)]) == 1
    finally:
        outside.chmod(0o644)
    (fault,) = _setup(report)
    assert (fault.line, fault.column) == (1, 1)
    assert "--allow-ruleset-dir" in fault.message and "--ruleset" in fault.message
    assert "Permission denied" not in fault.message
    assert report.ruleset == "cancellation"
    assert SECRET not in capsys.readouterr().out


def test_a_fifo_outside_is_not_opened(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    report = check_path(_log(tmp_path / "logs", str(fifo)))  # would block if opened for reading
    (fault,) = _setup(report)
    assert "outside the log's folder" in fault.message


def test_a_file_in_the_logs_folder_or_below_is_read(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "r.toml").write_text('base = "cancellation"\nname = "mine"\n', "utf-8")
    for tag in ("sub/r.toml", "./sub/../sub/r.toml", str(tmp_path / "sub" / "r.toml")):
        report = check_path(_log(tmp_path, tag))
        assert report.ruleset == "mine" and not _setup(report), tag


def test_allow_ruleset_dir_and_ruleset_open_the_door(tmp_path, outside, capsys):
    log = _log(tmp_path / "logs", "../elsewhere/x.toml")
    # allowed, the file is read (and its fault, an unknown option, is reported)
    report = check_path(log, allowed_dirs=(str(outside.parent),))
    (fault,) = _setup(report)
    assert SECRET in fault.message
    assert main(["check", "--allow-ruleset-dir", str(outside.parent), str(log)]) == 1
    assert SECRET in capsys.readouterr().out
    # --ruleset: that ruleset for every log, whatever the tag says
    assert main(["check", "--ruleset", _user_ruleset(tmp_path), str(log)]) == 0
    report = check_path(log, ruleset=load_ruleset(_user_ruleset(tmp_path)))
    assert report.ruleset == "mine" and report.verdict == "clean"


def test_the_cli_options_are_checked(tmp_path, capsys):
    log = _log(tmp_path, "cancellation")
    assert main(["check", "--ruleset", str(tmp_path / "none.toml"), str(log)]) == 2
    assert main(["check", "--allow-ruleset-dir", str(tmp_path / "none"), str(log)]) == 2
    err = capsys.readouterr().err
    assert "--ruleset" in err and "--allow-ruleset-dir" in err and "Traceback" not in err


def test_jobs_carry_the_options_to_the_workers(tmp_path, outside, capsys):
    logs = [_log(tmp_path / "logs", "../elsewhere/x.toml", f"g{i}.log") for i in range(3)]
    args = ["check", "--jobs", "2", "--ruleset", _user_ruleset(tmp_path), *map(str, logs)]
    assert main(args) == 0
    assert main(["check", "--jobs", "2", *map(str, logs)]) == 1
    assert "--allow-ruleset-dir" in capsys.readouterr().out


def test_replay_and_the_z3_table_apply_the_same_rule(tmp_path, outside, capsys):
    log = _log(tmp_path / "logs", "../elsewhere/x.toml")
    assert main(["replay", str(log)]) == 1
    out = capsys.readouterr().out
    assert f"{log}:1:1:" in out and "--allow-ruleset-dir" in out and SECRET not in out
    parsed = parse_log(log.read_text("utf-8"))
    assert table_for(parsed, str(log)).rules.name == "cancellation"
    chosen = load_ruleset(_user_ruleset(tmp_path))
    assert table_for(parsed, str(log), ruleset=chosen).rules.name == "mine"


@pytest.mark.parametrize("tag, where", [
    ('[Target "²"]', 2), ('[Target "9' + "9" * 300 + '"]', 2), ('[Target "٣٠"]', 2),
])
def test_a_target_in_unusual_digits_is_a_setup_fault(tmp_path, tag, where):
    log = tmp_path / "game.log"
    log.write_text('[Ruleset "cancellation"]\n' + tag + "\n" + PLAYERS, "utf-8")
    report = check_path(log)
    (fault,) = _setup(report)
    assert fault.line == where and report.ruleset == "cancellation"


def test_a_pass_step_in_unusual_digits_is_a_ruleset_error(tmp_path):
    with pytest.raises(RulesetError):
        direction_offset("² left", 6)
    path = tmp_path / "r.toml"
    path.write_text('base = "cancellation"\npass_cycle = ["² left"]\n', "utf-8")
    with pytest.raises(RulesetError, match="pass direction"):
        load_ruleset(str(path))
    (fault,) = _setup(check_path(_log(tmp_path, "r.toml")))
    assert "pass direction" in fault.message


def test_a_base_cycle_is_a_ruleset_error(tmp_path):
    (tmp_path / "a.toml").write_text('base = "b.toml"\n', "utf-8")
    (tmp_path / "b.toml").write_text('base = "a.toml"\n', "utf-8")
    with pytest.raises(RulesetError, match="lead back"):
        load_ruleset(str(tmp_path / "a.toml"))
    (fault,) = _setup(check_path(_log(tmp_path, "a.toml")))
    assert "lead back" in fault.message


def test_a_long_or_unreachable_ruleset_path_is_a_ruleset_error(tmp_path):
    long = "x" * 300 + ".toml"
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "r.toml").write_text('base = "cancellation"\n', "utf-8")
    locked.chmod(0)
    tags = [long] if os.geteuid() == 0 else [long, "locked/r.toml"]  # root reads it anyway
    try:
        for tag in tags:
            with pytest.raises(RulesetError):
                load_ruleset(str(tmp_path / tag))
            (fault,) = _setup(check_path(_log(tmp_path, tag)))
            assert (fault.line, fault.column) == (1, 1)
            assert main(["rules", str(tmp_path / tag)]) == 2
    finally:
        locked.chmod(0o755)


def test_a_log_without_a_folder_names_files_only_as_its_caller_allows(outside):
    data = (f'[Ruleset "{outside}"]\n' + PLAYERS).encode()
    from referee.run.single import check_bytes, check_text

    # standard input (the command line passes allowed_dirs): no folder, so no file
    (fault,) = _setup(check_bytes(data, "<stdin>", allowed_dirs=()))
    assert "--allow-ruleset-dir" in fault.message
    assert "unknown option" in _setup(check_bytes(data, "<stdin>",
                                                 allowed_dirs=(str(outside.parent),)))[0].message
    # text a library caller hands over, with no folder and no say: the same rule, the same
    # refusal as the command line's, and the file is not read
    for report in (check_bytes(data, "<string>"), check_text(data.decode())):
        (fault,) = _setup(report)
        assert (fault.line, fault.column) == (1, 1)
        assert fault.message == (
            "the ruleset file this tag names lies outside the log's folder, so it is not read "
            "(`--allow-ruleset-dir DIR` allows the files under DIR, `--ruleset FILE` checks with "
            "FILE whatever the log names); checking with cancellation")
    # unless the caller allows the folder, or hands over the ruleset itself
    assert "unknown option" in _setup(check_text(data.decode(),
                                                 allowed_dirs=(outside.parent,)))[0].message
    report = check_text(data.decode(), ruleset=load_ruleset("cancellation"))
    assert _setup(report) == [] and report.ruleset == "cancellation"
    # the z3 side's table of a log with no path: the same rule
    from referee.judge.table import Findings

    findings = Findings()
    assert table_for(parse_log(data.decode()), findings=findings).rules.name == "cancellation"
    assert [d.kind for d in findings.items] == ["bad-setup"]
    assert SECRET not in findings.items[0].message
