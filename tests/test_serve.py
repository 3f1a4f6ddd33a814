"""`referee serve`'s requests through Starlette's TestClient: what a check, a report and an
audit answer, and what the server refuses (too large, malformed, a path where a name is
expected), with names from the log shown as text.  The expected verdicts are those of the
bundled examples' facts (examples/logs/facts.toml) and of the sheet below, worked by hand.

The page in a real browser and the server under load: tests/test_serve_browser.py."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

with warnings.catch_warnings():  # newer Starlette prefers httpx2 to httpx; either serves here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from referee.cli import main  # noqa: E402
from referee.serve.app import MAX_BODY_BYTES, Limits, create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REVOKE = (ROOT / "examples" / "logs" / "revoke.log").read_text("utf-8")
SHEET = (ROOT / "examples" / "logs" / "scoresheet-only.log").read_text("utf-8")
HOSTILE = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(checkers=1))) as client:
        yield client


def test_the_page_speaks_the_browsers_language_and_is_locked_down(client):
    page = client.get("/", headers={"accept-language": "de-CH,de;q=0.9,en;q=0.5"})
    assert page.status_code == 200 and '<html lang="de">' in page.text
    assert "<title>Ein Cancellation-Hearts-Protokoll prüfen</title>" in page.text
    assert '<option value="de" selected>' in page.text
    assert '<html lang="uk">' in client.get("/?lang=uk").text
    assert '<html lang="en">' in client.get("/?lang=xx").text  # an unknown one: the default
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    script = client.get("/page.js")
    assert script.headers["content-type"].startswith("text/javascript")
    assert "innerHTML" not in script.text and "textContent" in script.text


def test_a_check_lists_the_revoke_with_its_place_in_the_language_asked(client):
    answer = client.post("/api/check", json={"log": REVOKE, "lang": "it"})
    assert answer.status_code == 200
    found = answer.json()
    assert (found["verdict"], found["summary"]) == ("violations", "1 violazione")
    (diag,) = found["diagnostics"]
    assert (diag["kind"], diag["line"], diag["column"], diag["end_column"], diag["rule"]) == (
        "revoke", 21, 35, 37, "R5.2")
    assert diag["message"].startswith("Charlie ha giocato AD su un'uscita a fiori")
    clean = client.post("/api/check", json={"log": REVOKE.replace("Charlie AD", "Charlie AC")})
    assert clean.json()["verdict"] != "unreadable"


def test_a_report_is_the_page_referee_report_writes(client):
    page = client.post("/report", data={"log": REVOKE, "lang": "fr", "name": "table 3.log"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<html lang="fr">' in page.text and "table 3.log" in page.text
    assert 'data-kind="revoke"' in page.text and "<script" not in page.text
    uploaded = client.post("/report", files={"file": ("../../etc/revoke.log", REVOKE.encode())})
    assert uploaded.status_code == 200 and "<code>revoke.log</code>" in uploaded.text
    binary = client.post("/report", data={"log": "\x00\x01"})
    assert binary.status_code == 422 and "NUL" in binary.text


def test_an_audit_finds_the_smallest_correction_of_a_sheet(client):
    # hand 2's scores add up to 53 when Al's 3 is written 4: the decks hold 52 points
    wrong = SHEET.replace("score: Al 3,", "score: Al 4,")
    answer = client.post("/api/audit", json={"log": wrong}).json()
    assert answer["consistent"] is False
    assert "change Al's hand 2 score from 4 to 3" in answer["text"]
    assert client.post("/api/audit", json={"log": SHEET}).json()["consistent"] is True
    empty = client.post("/api/audit", json={"log": ""}).json()
    assert empty["readable"] is False and "empty" in empty["text"]


def test_a_log_that_is_not_text_is_checked_as_unreadable(client):
    for body in (b'{"log": ""}', b'{"log": "\\ud800 a lone surrogate"}',
                 b'{"log": "\\u0000\\u0001"}'):
        found = client.post("/api/check", content=body)
        assert found.status_code == 200 and found.json()["verdict"] == "unreadable"
        assert found.json()["error"]


@pytest.mark.parametrize("body", [b"{not json", b"[1, 2]", b'{"log": 3}', b'"log"',
                                  b"\xff\xfe\x00", b'{"lug": "x"}'])
def test_malformed_requests_are_refused_with_a_reason(client, body):
    answer = client.post("/api/check", content=body,
                         headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json() == {"error": 'the request is not a JSON object with a "log" text'}


def test_a_request_names_a_language_and_a_bundled_ruleset_never_a_path(client, tmp_path):
    rules = tmp_path / "mine.toml"
    rules.write_text('base = "standard"\n', "utf-8")
    for ruleset in (str(rules), "../standard.toml", "/etc/passwd", "standard\x00", "\u202eevil"):
        answer = client.post("/api/check", json={"log": REVOKE, "ruleset": ruleset})
        assert answer.status_code == 400 and "choose one of cancellation, standard" in \
            answer.json()["error"]
        assert not set(answer.json()["error"]) & {"\x00", "\u202e"}  # shown as escapes
    assert client.post("/api/check", json={"log": REVOKE, "lang": "pt"}).status_code == 400
    assert client.post("/report", data={"log": REVOKE, "ruleset": str(rules)}).status_code == 400
    # a log's own tag naming a file: refused unread, as for standard input
    tagged = REVOKE.replace('[Ruleset "cancellation"]', f'[Ruleset "{rules}"]')
    found = client.post("/api/check", json={"log": tagged}).json()
    setup = [d for d in found["diagnostics"] if d["kind"] == "bad-setup"]
    assert len(setup) == 1 and "it is not read" in setup[0]["message"]
    standard = client.post("/api/check", json={"log": REVOKE, "ruleset": "standard"})
    assert standard.status_code == 200


def test_a_request_past_the_size_limit_is_refused_before_it_is_read(client):
    big = b'{"log": "' + b"x" * MAX_BODY_BYTES + b'"}'
    answer = client.post("/api/check", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "larger than 2 MB" in answer.json()["error"]

    def chunks():  # no declared length: refused as it grows past the limit
        for _ in range(3):
            yield b"x" * (MAX_BODY_BYTES // 2)
    answer = client.post("/api/check", content=chunks())
    assert answer.status_code == 413
    assert client.post("/report", files={"file": ("a.log", b"x" * (MAX_BODY_BYTES + 1))}
                       ).status_code == 413
    assert client.post("/api/check", json={"log": REVOKE}).status_code == 200  # still serving


def test_names_are_text_in_every_answer(client):
    hostile = REVOKE.replace("Fay", f'"{HOSTILE}"').replace(
        f'Eve "{HOSTILE}"]', f"Eve '{HOSTILE}']")
    found = client.post("/api/check", json={"log": hostile}).json()
    assert found["verdict"] == "violations"
    page = client.post("/report", data={"log": hostile, "name": HOSTILE}).text
    assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    problem = client.post("/report", data={"log": "\x00", "name": HOSTILE}).text
    assert "<img" not in problem


def test_a_check_past_its_time_is_stopped_and_the_server_goes_on(tmp_path):
    game = (ROOT / "examples" / "logs" / "clean-11-players.log").read_text("utf-8")
    head, _, hands = game.partition("\nhand ")
    long_log = head + ("\nhand " + hands) * (1_000_000 // len(hands))  # about 0.5 s to check
    with TestClient(create_app(Limits(checkers=1, check_seconds=0.05))) as client:
        slow = client.post("/api/check", json={"log": long_log})
        assert slow.status_code == 504
        assert slow.json()["error"] == ("the log took longer than 0.05 seconds to check and was "
                                        "left")
        # a fresh checker took the killed one's place (an audit's limit is its own, 15 s)
        assert client.post("/api/audit", json={"log": SHEET}).json()["consistent"] is True


@pytest.mark.parametrize("limits", [Limits(checkers=0, wait_seconds=0.1),
                                    Limits(checkers=0, waiting=0)], ids=["wait", "queue"])
def test_a_request_that_finds_no_free_checker_is_told_to_come_back(limits):
    with TestClient(create_app(limits)) as client:
        busy = client.post("/api/check", json={"log": REVOKE},
                           headers={"accept-language": "it"})
        assert busy.status_code == 503
        assert busy.json() == {"error": "l'arbitro è occupato: riprova tra un momento"}


def test_serve_without_its_extra_says_how_to_install_it(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == ("referee serve needs uvicorn, which is not installed: "
                                       "pip install 'referee[serve]'\n")


def test_serve_refuses_a_port_out_of_range(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port must be between 0 and 65535" in capsys.readouterr().err
