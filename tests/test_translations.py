"""The catalogs: every marked message translated in every language with the same
placeholders, and the translated texts reach the people who read them."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.util.i18n import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
i18n_script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(i18n_script)


@pytest.fixture(scope="module")
def template():
    return i18n_script.extracted()


@pytest.mark.parametrize("language", i18n_script.TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(template, language):
    assert i18n_script.problems(language, template) == []


def test_the_code_table_and_the_marked_calls_are_all_in_the_template(template):
    ids = {m.id for m in template if m.id}
    from referee.judge.codes import all_codes

    assert {c.summary for c in all_codes()} <= ids and {c.why for c in all_codes()} <= ids
    assert ("{n} file: {counts}", "{n} files: {counts}") in ids
    assert "What: {summary}." in ids


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_each_catalog_compiles_and_is_found(language):
    assert catalog(language).gettext("with violations") != "with violations"


def test_explain_speaks_the_language_asked_for(capsys):
    assert main(["explain", "revoke", "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert "Che cosa: un giocatore non ha risposto al seme di uscita pur potendo." in out
    assert "Perché: Rispondere al seme" in out
    assert "CH201 revoke" in out  # codes and kinds never change


def test_the_tally_follows_the_environment_and_the_option_wins():
    logs = [str(ROOT / "examples" / "logs" / name) for name in ("clean-6-players.log",
                                                                 "revoke.log")]
    run = [sys.executable, "-m", "referee", "check", *logs]
    env = {"PATH": "/usr/bin:/bin", "LANG": "de_DE.UTF-8", "PYTHONPATH": str(ROOT)}
    german = subprocess.run(run, capture_output=True, text=True, env=env, cwd=ROOT)
    assert german.stdout.splitlines()[-1] == "2 Dateien: 1 fehlerfrei, 1 mit Verstößen, 0 unlesbar"
    ukrainian = subprocess.run(run + ["--lang", "uk"], capture_output=True, text=True, env=env,
                               cwd=ROOT)
    assert ukrainian.stdout.splitlines()[-1] == (
        "2 файли: 1 без порушень, 1 з порушеннями, 0 нечитабельний")
    assert german.returncode == ukrainian.returncode == 1


def test_an_unknown_language_is_a_usage_error(capsys):
    assert main(["explain", "revoke", "--lang", "pt"]) == 2
    assert "choose one of en, it, de, fr, uk" in capsys.readouterr().err
