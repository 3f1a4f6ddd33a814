"""Every renderer speaks the language it is given: the diagnostics' messages, hints and
evidence notes, and the renderer's own words (the summary, the table's headings, the
report's labels); kinds, codes, names and cards never change, and English is the text as it
always was.  The catalogs do not hold the diagnostics yet: these tests give the renderers a
small Italian catalog of their own."""

from __future__ import annotations

import gettext
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from referee.judge.codes import BY_KIND, REVOKE, SCORE_MISMATCH
from referee.judge.diagnostics import Diagnostic, HandSummary, Related, Report
from referee.cli import main
from referee.output import render
from referee.output.github import report_lines
from referee.output.render import localized, localized_diagnostic
from referee.util import i18n
from referee.util.message import msg, msgn

ROOT = Path(__file__).resolve().parent.parent
REVOKE_LOG = ROOT / "examples" / "logs" / "revoke.log"

PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "{player} played {card} to a {suit} lead"
msgstr "{player} ha giocato {card} su un'apertura a {suit}"

msgid "spade"
msgstr "picche"

msgid "{player} still held {card}"
msgstr "{player} aveva ancora {card}"

msgid "{player} was dealt {card}"
msgstr "{player} ha ricevuto {card}"

msgid "the sheet says {written}"
msgstr "il foglio dice {written}"

msgid "{note} (line {line})"
msgstr "{note} (riga {line})"

msgid "player"
msgstr "giocatore"

msgid "total"
msgstr "totale"

msgid "violations by kind"
msgstr "violazioni per tipo"

msgid "(the log)"
msgstr "(il registro)"

msgid "(not listed)"
msgstr "(non elencate)"

msgid "winner"
msgstr "vincitore"

msgid "{n} violation"
msgid_plural "{n} violations"
msgstr[0] "{n} violazione"
msgstr[1] "{n} violazioni"

msgid "{n} player"
msgid_plural "{n} players"
msgstr[0] "{n} giocatore"
msgstr[1] "{n} giocatori"

msgid "{n} hand"
msgid_plural "{n} hands"
msgstr[0] "{n} mano"
msgstr[1] "{n} mani"

msgid "ruleset {ruleset}, {players}, {hands}, {end}"
msgstr "regolamento {ruleset}, {players}, {hands}, {end}"

msgid "game over, won by {winners}"
msgstr "partita finita, vinta da {winners}"

msgid "{first} and {second}"
msgstr "{first} e {second}"

msgid "and {n} more {kind} diagnostic (--max-diagnostics N shows more)"
msgid_plural "and {n} more {kind} diagnostics (--max-diagnostics N shows more)"
msgstr[0] "e ancora {n} diagnosi {kind} (--max-diagnostics N ne mostra di più)"
msgstr[1] "e ancora {n} diagnosi {kind} (--max-diagnostics N ne mostra di più)"

msgid "not checked: {note}"
msgstr "non verificato: {note}"

msgid "the moon is not checked"
msgstr "la luna non è verificata"

msgid "1 file, {verdict}"
msgstr "1 file, {verdict}"

msgid "with violations"
msgstr "con violazioni"

msgid "Referee report"
msgstr "Rapporto dell'arbitro"

msgid "Referee report: {path}"
msgstr "Rapporto dell'arbitro: {path}"

msgid "Score sheet"
msgstr "Foglio dei punti"

msgid "Hand {number}"
msgstr "Mano {number}"

msgid "Evidence: {note} (line {line})"
msgstr "Prova: {note} (riga {line})"

msgid "a player did not follow the led suit while able"
msgstr "un giocatore non ha risposto al seme pur potendo"

msgid "{player} played {card} to a {suit} lead while holding {held}"
msgstr "{player} ha giocato {card} su un'apertura a {suit} pur avendo {held}"

msgid "club"
msgstr "fiori"

msgid "checking this file took longer than {seconds:g} s"
msgstr "la verifica di questo file ha richiesto più di {seconds:g} s"

msgid "unreadable"
msgstr "illeggibile"
"""

PLAYERS = ["Ann", "Beth", "Carl", "Dina", "Ed", "Fay"]


@pytest.fixture
def italian(monkeypatch) -> gettext.GNUTranslations:
    """The Italian catalog, this test's own, wherever the renderers look one up."""
    found = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(PO.encode("utf-8"))))
    monkeypatch.setattr(i18n, "catalog", lambda language: found if language == "it"
                        else gettext.NullTranslations())
    return found


def revoke(message=None, hint=None, note=None) -> Diagnostic:
    entry = BY_KIND[REVOKE]
    return Diagnostic(
        REVOKE, entry.code, entry.severity, 3, 5, 3, 7,
        message or msg("{player} played {card} to a {suit} lead", player="Beth", card="9H",
                       suit=msg("spade")),
        entry.clause, hand=1, trick=2, player="Beth",
        hint=hint or msg("{player} still held {card}", player="Beth", card="7S"),
        related=(Related(2, 1, note or msg("{player} was dealt {card}", player="Beth",
                                           card="7S")),))


def sheet_entry() -> Diagnostic:
    """A fault no player committed: listed under "(the log)"."""
    entry = BY_KIND[SCORE_MISMATCH]
    return Diagnostic(SCORE_MISMATCH, entry.code, entry.severity, 4, 1, 4, 5,
                      msg("the sheet says {written}", written="Ann 3"), entry.clause, hand=1,
                      player="Ann")


def a_report() -> Report:
    source = "\n".join(f"line {n}" for n in range(1, 6))
    return Report(path="game.log", ruleset="cancellation", players=list(PLAYERS),
                  diagnostics=[revoke(), sheet_entry()],
                  hands=[HandSummary.seated(1, tuple(PLAYERS), (0,) * len(PLAYERS),
                                            (0,) * len(PLAYERS), True)],
                  winners=["Ann", "Beth"], unchecked=[msg("the moon is not checked")],
                  source=source, suppressed={REVOKE: 2})


def text_of(report: Report, language: str = "en") -> str:
    out = io.StringIO()
    render.render_text([report], stream=out, language=language)
    return out.getvalue()


# the text of a_report() in English, written by hand: what it always was
ENGLISH = """\
game.log:3:5: CH201 revoke  Beth played 9H to a spade lead [R5.2] (Beth still held 7S)
    3 | line 3
      |     ^^
      = Beth was dealt 7S (line 2)
    2 | line 2
game.log:4:1: CH401 score-mismatch  the sheet says Ann 3 [R7.3]
    4 | line 4
      | ^^^^
game.log: and 2 more revoke diagnostics (--max-diagnostics N shows more)
game.log: 4 violations; ruleset cancellation, 6 players, 1 hand, game over, won by Ann and Beth
"""


def test_english_text_is_what_it_always_was(italian):
    text = text_of(a_report())
    assert text.startswith(ENGLISH)
    header = next(line for line in text.splitlines() if line.startswith("player"))
    assert "total" in header and "violations by kind" in header
    assert "  not checked: the moon is not checked" in text
    assert text_of(a_report(), "en") == text


def test_the_text_speaks_italian(italian):
    text = text_of(a_report(), "it")
    assert ("game.log:3:5: CH201 revoke  Beth ha giocato 9H su un'apertura a picche [R5.2] "
            "(Beth aveva ancora 7S)") in text
    assert "      = Beth ha ricevuto 7S (riga 2)" in text
    assert "il foglio dice Ann 3" in text
    assert ("game.log: e ancora 2 diagnosi revoke (--max-diagnostics N ne mostra di più)"
            in text)
    assert ("game.log: 4 violazioni; regolamento cancellation, 6 giocatori, 1 mano, "
            "partita finita, vinta da Ann e Beth") in text
    header = next(line for line in text.splitlines() if line.startswith("giocatore"))
    assert "totale" in header and "violazioni per tipo" in header
    rows = text.splitlines()
    assert any(row.startswith("(il registro)") and "CH401 score-mismatch: 1" in row
               for row in rows)
    assert any(row.startswith("(non elencate)") and "CH201 revoke: 2" in row for row in rows)
    assert any(row.startswith("Ann") and "vincitore" in row for row in rows)
    assert "  non verificato: la luna non è verificata" in text
    assert "English" not in text and "players" not in text and "violations" not in text


def test_rich_writes_the_same_italian(italian):
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, no_color=False, force_terminal=None, highlight=False,
                      soft_wrap=False)
    report = localized(a_report(), "it")
    render._render_rich(console, report, "it")
    assert out.getvalue() == text_of(a_report(), "it")


def test_json_messages_follow_the_language_kinds_and_codes_never(italian):
    english, italian = io.StringIO(), io.StringIO()
    render.write_json([a_report()], english)
    render.write_json([a_report()], italian, "it")
    english, italian_doc = json.loads(english.getvalue()), json.loads(italian.getvalue())
    first, translated = english["files"][0]["diagnostics"][0], \
        italian_doc["files"][0]["diagnostics"][0]
    assert first["message"] == "Beth played 9H to a spade lead"
    assert translated["message"] == "Beth ha giocato 9H su un'apertura a picche"
    assert translated["hint"] == "Beth aveva ancora 7S"
    assert translated["related"] == [{"line": 2, "column": 1, "note": "Beth ha ricevuto 7S"}]
    for field in ("kind", "code", "severity", "line", "column", "rule", "player"):
        assert translated[field] == first[field]
    assert italian_doc["files"][0]["unchecked"] == ["la luna non è verificata"]
    line = json.loads(render.to_jsonl_line(a_report(), "it"))
    assert line["diagnostics"][0]["message"] == translated["message"]


def test_github_annotations_follow_the_language_titles_keep_the_code(italian):
    lines = report_lines(a_report(), "it")
    assert lines[0].startswith("::error file=game.log,line=3,col=5,endColumn=7,"
                               "title=CH201 revoke::Beth ha giocato 9H")
    assert "%0ABeth ha ricevuto 7S (riga 2)" in lines[0]
    assert report_lines(a_report())[0].endswith("%0ABeth was dealt 7S (line 2)")


def test_sarif_messages_follow_the_language(italian):
    from referee.output.sarif import write_sarif

    out = io.StringIO()
    write_sarif([a_report()], out, "it")
    run = json.loads(out.getvalue())["runs"][0]
    assert run["language"] == "it"
    first = run["results"][0]
    assert first["ruleId"] == "CH201"
    assert first["message"]["text"].startswith("Beth ha giocato 9H su un'apertura a picche")
    english = io.StringIO()
    write_sarif([a_report()], english)
    assert "language" not in json.loads(english.getvalue())["runs"][0]


def test_a_plural_word_of_the_summary_follows_the_count(italian):
    one = Report(path="x.log", ruleset="cancellation", players=list(PLAYERS),
                 diagnostics=[revoke()], source="a\nb\nc")
    title = "".join(text for text, _ in render.summary_title(localized(one, "it"), "it"))
    assert title == "x.log: 1 violazione; regolamento cancellation, 6 giocatori, 0 mani, game not finished"


def test_check_lang_translates_the_text_run(italian, capsys, monkeypatch):
    for variable in i18n.LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert main(["check", "--lang", "it", str(REVOKE_LOG)]) == 1
    out = capsys.readouterr().out
    assert "CH201 revoke" in out and "giocatore" in out
    assert out.rstrip().endswith("1 file, con violazioni")


def test_the_environment_language_changes_text_not_json(italian, capsys, monkeypatch):
    for variable in i18n.LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert main(["check", "--format", "json", str(REVOKE_LOG)]) == 1
    plain = capsys.readouterr().out
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    for fmt in ("json", "jsonl", "sarif", "github"):
        assert main(["check", "--format", fmt, str(REVOKE_LOG)]) == 1
        shown = capsys.readouterr().out
        if fmt == "json":
            assert shown == plain
        assert "giocatore" not in shown and "con violazioni" not in shown
    assert main(["check", str(REVOKE_LOG)]) == 1  # the text follows the environment
    assert "giocatore" in capsys.readouterr().out


def test_an_explicit_lang_reaches_json(italian, capsys, monkeypatch):
    assert main(["check", "--format", "json", "--lang", "it", str(REVOKE_LOG)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["files"][0]["diagnostics"][0]["kind"] == REVOKE
    assert doc["files"][0]["diagnostics"][0]["code"] == "CH201"


def test_a_message_made_with_msgn_is_translated_by_count(italian):
    diag = revoke(message=msgn("{n} violation", "{n} violations", 3, n=3))
    assert localized_diagnostic(diag, "it").message == "3 violazioni"


@pytest.fixture
def example_messages(monkeypatch):
    """The example's revoke with a message of the test's own (the check layer's texts are
    not all messages yet), its player's name made of markup to be escaped."""
    from referee.output import game_view

    original = game_view.referee_game

    def referee_game(*args, **kwargs):
        report, trace, records = original(*args, **kwargs)
        first = report.diagnostics[0]
        report.diagnostics[0] = replace(first, message=msg(
            "{player} played {card} to a {suit} lead while holding {held}",
            player="<b>Charlie</b>", card="AD", suit=msg("club"), held="AC"),
            related=(Related(10, 1, msg("{player} was dealt {card}", player="Charlie",
                                        card="AC")),))
        return report, trace, records

    monkeypatch.setattr(game_view, "referee_game", referee_game)


def test_the_report_page_speaks_italian(italian, example_messages):
    from whole_view import report_html

    page, verdict = report_html(REVOKE_LOG.read_bytes(), str(REVOKE_LOG), language="it")
    assert verdict == "violations"
    assert '<html lang="it">' in page
    assert "<h1>Rapporto dell&#39;arbitro</h1>" in page
    assert "<h2>Mano 1</h2>" in page and "<h2>Foglio dei punti</h2>" in page
    assert ("&lt;b&gt;Charlie&lt;/b&gt; ha giocato AD su un&#39;apertura a fiori pur avendo AC"
            in page)
    assert "Prova: Charlie ha ricevuto AC (riga 10)" in page
    assert "Un giocatore non ha risposto al seme pur potendo." in page  # the code table's
    assert 'data-kind="revoke"' in page and "CH201 revoke" in page  # kinds and codes as ever
    assert "Referee report" not in page and "Score sheet" not in page
    assert "<b>Charlie</b>" not in page


def test_the_report_page_is_english_by_default(italian, example_messages):
    from whole_view import report_html

    page, _ = report_html(REVOKE_LOG.read_bytes(), str(REVOKE_LOG))
    assert '<html lang="en">' in page and "<h1>Referee report</h1>" in page
    assert "<h2>Hand 1</h2>" in page and "<h2>Score sheet</h2>" in page
    assert "&lt;b&gt;Charlie&lt;/b&gt; played AD to a club lead while holding AC" in page
    assert "Evidence: Charlie was dealt AC (line 10)" in page
    assert "Mano" not in page and "Rapporto" not in page
    assert ('Ruleset <strong>cancellation</strong>, 6 players (<span class="name">Al</span>, '
            in page)


def test_report_lang_writes_the_page_in_that_language(italian, tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", str(REVOKE_LOG), "--lang", "it", "-o", str(out)]) == 1
    page = out.read_text(encoding="utf-8")
    assert '<html lang="it">' in page and "<h2>Mano 1</h2>" in page


def test_the_template_texts_are_extracted():
    import sys

    sys.path.insert(0, str(ROOT))
    from scripts.i18n import extracted

    found = {m.id: m for m in extracted() if m.id}
    assert "Referee report" in found and "Hand {number}" in found
    assert ("{name} takes {n} point", "{name} takes {n} points") in found
    assert any(path.endswith("report.html.j2") for path, _ in found["Score sheet"].locations)
    assert "(the log)" in found and ("{n} violation", "{n} violations") in found


def test_an_unreadable_file_is_said_in_the_language(italian):
    from referee.judge.diagnostics import not_checked_report
    from referee.run.bulk import _timed_out

    report = not_checked_report("slow.log", _timed_out(2.5))
    assert text_of(report) == (
        "slow.log:1:1: CH002 not-checked  checking this file took longer than 2.5 s [R10.7]\n"
        "slow.log: unreadable: checking this file took longer than 2.5 s\n")
    assert text_of(report, "it") == (
        "slow.log:1:1: CH002 not-checked  la verifica di questo file ha richiesto più di 2.5 s"
        " [R10.7]\n"
        "slow.log: illeggibile: la verifica di questo file ha richiesto più di 2.5 s\n")
    doc = json.loads(render.to_jsonl_line(report, "it"))
    assert doc["error"] == "la verifica di questo file ha richiesto più di 2.5 s"
    assert doc["verdict"] == "unreadable" and doc["diagnostics"][0]["kind"] == "not-checked"


def test_the_page_words_escape_their_arguments_and_keep_the_templates_markup(monkeypatch):
    from markupsafe import Markup

    from referee.output.html import speakers

    po = PO + '''
msgid "Dealer {name}"
msgstr "Mazziere {nome}"

msgid "Made by {command} (referee {version})."
msgstr "Fatto da {command} (referee {version})."
'''
    found = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(po.encode("utf-8"))))
    monkeypatch.setattr(i18n, "catalog", lambda language: found)
    say, say_n = speakers("it")
    shown = say("Made by {command} (referee {version}).",
                command=Markup("<code>referee report</code>"), version="<1.0>")
    assert shown == "Fatto da <code>referee report</code> (referee &lt;1.0&gt;)."
    assert isinstance(shown, Markup)
    # a translation whose placeholders differ from its source's: the English, not a crash
    assert say("Dealer {name}", name="Al\x1b") == "Dealer Al\\x1b"
    assert say_n("{n} hand", "{n} hands", 2, n=2) == "2 mani"
    assert speakers("en")[1]("{n} hand", "{n} hands", 1, n=1) == "1 hand"
