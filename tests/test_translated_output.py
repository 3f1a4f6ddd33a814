"""The shipped catalogs reach the user: `check --lang` prints each language's own sentence for
a known fault, with the names, cards, codes and clause unchanged; English stays the default.
The expected sentences are the catalogs' translations as read and approved by a person."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOGS = ROOT / "examples" / "logs"

CASES = [
    ("en", "revoke.log", "CH201 revoke  Charlie played AD to a club lead while holding AC "
     "(dealt on line 10) [R5.2]"),
    ("it", "revoke.log", "CH201 revoke  Charlie ha giocato AD su un'uscita a fiori avendo in "
     "mano AC (distribuita alla riga 10) [R5.2]"),
    ("de", "score-mismatch.log", "CH401 score-mismatch  die Punkte von Al in Runde 1 sind als 1 "
     "eingetragen, aber Al hat 0 Punkte genommen: die Punkte betragen 0 [R7.3]"),
    ("fr", "bad-pass.log", "CH103 bad-pass  dans la main 1, Charlie passe à Beth, mais la passe "
     "(à gauche) va à Dave [R3.3]"),
    ("uk", "illegal-lead.log", "CH202 illegal-lead  гравець Dave пішов з 6H у взятці 2: черви ще "
     "не «зламані»; гравець Dave мав 2S (здано в рядку 11) [R4.3]"),
]


def _check(*args: str, env: dict | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "referee", "check", *args], capture_output=True,
                          text=True, encoding="utf-8", cwd=ROOT, env=env)
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.mark.parametrize(("language", "log", "line"), CASES)
def test_check_speaks_the_chosen_language(language, log, line):
    first = _check("--lang", language, f"examples/logs/{log}").splitlines()[0]
    assert first.split(": ", 1)[1] == line


def test_the_summary_and_tally_are_translated_too():
    out = _check("--lang", "it", "examples/logs/revoke.log")
    assert "1 violazione; regolamento cancellation, 6 giocatori, 1 mano, partita non finita" in out
    assert "giocatore  totale    violazioni per tipo" in out
    assert out.rstrip().endswith("1 file, con violazioni")


def test_json_kinds_and_codes_never_change():
    import json

    data = json.loads(_check("--lang", "de", "--format", "json", "examples/logs/revoke.log"))
    (diagnostic,) = data["files"][0]["diagnostics"]
    assert (diagnostic["kind"], diagnostic["code"], diagnostic["rule"]) == ("revoke", "CH201",
                                                                            "R5.2")
    assert "Charlie" in diagnostic["message"] and "AD" in diagnostic["message"]
    assert "played" not in diagnostic["message"]


def test_audit_speaks_the_chosen_language():
    done = subprocess.run([sys.executable, "-m", "referee", "audit", "--lang", "it",
                           "examples/logs/score-mismatch.log"], capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("la mano 1 somma 53")
    assert done.stdout.rstrip().endswith("allora ogni mano somma 52 e ogni totale torna")

