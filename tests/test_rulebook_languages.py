"""The rulebook in the players' languages (spec/rules.LANG.md): every clause of spec/rules.md
in each, quoted rendered (never as raw markdown) by `referee explain` and for the report, and
found by topic in any of them."""

from __future__ import annotations

import io
import json
import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from referee.cli import main
from referee.rules import rulebook
from referee.run.commands import styled
from referee.util.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
DEFINED = re.compile(r"^(?:- \*\*(R\d+\.\d+)\*\* |## (R\d+) )", re.MULTILINE)


def defined(lang: str) -> list[str]:
    """The clause and section ids a rulebook file defines, in its order, read from the file."""
    text = (ROOT / "spec" / rulebook.book_file(lang)).read_text("utf-8")
    return [clause or section for clause, section in DEFINED.findall(text)]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_language_has_every_clause_and_section_of_the_rulebook_and_no_other(lang):
    english = defined("en")
    assert len(english) == 10 + 56  # the sections and clauses of spec/rules.md
    assert defined(lang) == english
    assert rulebook.clause_ids(lang) == rulebook.clause_ids("en")


def code_words(markdown: str) -> set[str]:
    """The lower-case words inside a clause's code spans: option names and values, keywords."""
    return {word for span in re.findall(r"`([^`]+)`", markdown)
            for word in re.findall(r"[a-z_]{2,}", span)}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_each_clause_s_references_and_option_names(lang):
    for ident in rulebook.clause_ids():
        english, translated = rulebook.clause(ident), rulebook.clause(ident, lang)
        assert translated != english, (lang, ident)
        assert [block.depth for block in rulebook.clause_blocks(ident, lang)] == [
            block.depth for block in rulebook.clause_blocks(ident)], (lang, ident)  # same notes
        assert sorted(re.findall(r"R\d+\.\d+", translated)) == sorted(
            re.findall(r"R\d+\.\d+", english)), (lang, ident)
        assert code_words(english) <= code_words(translated), (lang, ident)


def test_the_translations_ship_with_the_package():
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert setup["package-dir"]["referee.spec"] == "spec"
    shipped = setup["package-data"]["referee.spec"]
    for lang in LANGUAGES:
        assert any(fnmatch(rulebook.book_file(lang), pattern) for pattern in shipped)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_clause_is_left_with_a_markdown_mark_when_rendered(lang):
    for ident in rulebook.clause_ids(lang):
        text = rulebook.clause_plain(ident, lang)
        assert "*" not in text and "`" not in text, (lang, ident)
        assert text.startswith(f"{ident} {rulebook.clause_title(ident, lang)}.")


def test_a_clause_is_quoted_in_the_reader_s_language_as_plain_text_to_a_pipe(capsys):
    assert main(["explain", "R6.6", "--lang", "it"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "Regola R6.6 (spec/rules.md):\nR6.6 Ultima presa messa da parte. Se l'ultima presa della "
        "mano è messa da parte, nessuno raccoglie né lei né il mucchio: i punti di quelle carte "
        "sono persi per la mano.\n  - Perché: le fonti: \"se l'ultima presa viene annullata")
    assert "\n  - Opzioni: set_aside_last = \"leader\": chi ha condotto" in out
    assert "*" not in out
    assert main(["explain", "revoke", "--lang", "de"]) == 0
    assert "\nR5.2 Farbe bedienen. Ein Spieler muss" in capsys.readouterr().out


def test_on_a_terminal_a_clause_is_in_bold_and_italics():
    stream = io.StringIO()
    styled(rulebook.clause_blocks("R6.3", "fr"), stream, terminal=True)
    out = stream.getvalue()
    assert "\x1b[1mR6.3\x1b[0m" in out
    assert "\x1b[3mLa plus haute non annulée.\x1b[0m" in out
    assert "\x1b[3mnon" in out  # *non annulée*, wrapped to the terminal's width
    assert "*" not in out
    stream = io.StringIO()
    styled(rulebook.clause_blocks("R6.3", "fr"), stream, terminal=False)
    assert "\x1b" not in stream.getvalue()


def test_a_clause_as_html_is_escaped_and_keeps_only_its_marks():
    assert rulebook.render_html(rulebook.clause_blocks("R6.3", "it", notes=False)) == (
        "<strong>R6.3</strong> <em>La più alta non annullata.</em> La presa va a chi ha giocato "
        "la carta <em>non annullata</em> più alta del seme condotto. Una coppia annullata sotto "
        "quella carta non cambia nulla; una coppia annullata sopra di essa fa vincere una carta "
        "più bassa.")
    notes = rulebook.render_html(rulebook.clause_blocks("R6.6", "de"))
    assert notes.count("<li>") == 2 and notes.endswith("</li></ul>")
    assert "<code>set_aside_last = &quot;leader&quot;</code>" in notes
    hostile = rulebook.blocks('- **R1.1** *<b>T</b>.* a <script>alert("x")</script> & '
                              '`<img src=x onerror=y>`\n  - *Why:* <i>')
    assert rulebook.render_html(hostile) == (
        "<strong>R1.1</strong> <em>&lt;b&gt;T&lt;/b&gt;.</em> a &lt;script&gt;alert(&quot;x&quot;)"
        "&lt;/script&gt; &amp; <code>&lt;img src=x onerror=y&gt;</code>"
        '<ul class="notes"><li><em>Why:</em> &lt;i&gt;</li></ul>')
    assert rulebook.clause_blocks("R99.1") is None


@pytest.mark.parametrize(("topic", "lang", "first", "also"), [
    ("kitty", "en", ["R2.2", "R6.7"], {"R6.5", "R7.1"}),
    ("moon", "en", ["R8.1"], {"R8.2", "R8.4", "R7.3"}),
    ("luna", "it", ["R8.1"], {"R8.6"}),
    ("Mond", "de", ["R8.1"], {"R8.4"}),
    ("lune", "fr", ["R8.1"], {"R8.2"}),
    ("місяць", "uk", ["R8.1"], {"R8.4"}),
    ("set aside", "en", ["R4.6", "R6.4", "R6.6"], {"R6.7"}),
    ("set-aside", "en", ["R4.6", "R6.4", "R6.6"], {"R6.7"}),
    ("messa da parte", "it", ["R4.6", "R6.4", "R6.6"], {"R6.7"}),
    ("beiseite", "de", ["R4.6", "R6.4", "R6.6"], {"R6.7"}),
    ("mis de cote", "fr", ["R4.6", "R6.4", "R6.6"], {"R6.7"}),
    ("cancellation", "en", ["R6.2"], set()),
    ("annullamento", "it", ["R6.2"], set()),
    ("Monte", "it", ["R2.2", "R6.7"], {"R6.5"}),
    ("прикуп", "uk", ["R2.2", "R6.7"], {"R6.5"}),
])
def test_explain_finds_the_clauses_on_a_topic(topic, lang, first, also, capsys):
    found = rulebook.find_clauses(topic)
    assert found[:len(first)] == first and also <= set(found)
    assert main(["explain", topic, "--lang", lang]) == 0
    out = capsys.readouterr().out.splitlines()
    title = rulebook.clause_title(first[0], lang)
    if len(found) == 1:  # quoted whole
        assert out[1].startswith(f"{first[0]} {title}. ")
        return
    listed = [line.split()[0] for line in out if line.startswith("  R")]
    assert listed == found
    assert f"  {first[0]:<6} {title}" in out


def test_explain_names_the_one_clause_and_the_kinds_on_a_topic(capsys):
    assert rulebook.find_clauses("revoke") == rulebook.find_clauses("renonce") == ["R5.2"]
    assert main(["explain", "renonce", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Règle R5.2 (spec/rules.md) :\nR5.2 Fournir à la couleur.")
    assert main(["explain", "kitty"]) == 0
    assert capsys.readouterr().out.endswith("Diagnostic kinds on kitty: CH102 bad-deal\n")


@pytest.mark.parametrize("word", ["zzzz", "ki", "-", "**"])
def test_a_word_on_no_topic_is_a_usage_error(word, capsys):
    assert main(["explain", word]) == 2
    assert "unknown code, kind, clause or topic" in capsys.readouterr().err


def test_a_page_quotes_a_clause_s_title_and_text_in_the_reader_s_language():
    assert rulebook.clause_quote("R6.3", "it") == {
        "id": "R6.3", "title": "La più alta non annullata.",
        "text": "La presa va a chi ha giocato la carta non annullata più alta del seme condotto. "
                "Una coppia annullata sotto quella carta non cambia nulla; una coppia annullata "
                "sopra di essa fa vincere una carta più bassa.",
        "html": "La presa va a chi ha giocato la carta <em>non annullata</em> più alta del seme "
                "condotto. Una coppia annullata sotto quella carta non cambia nulla; una coppia "
                "annullata sopra di essa fa vincere una carta più bassa."}
    assert rulebook.clause_quote("R99.1", "de") == {"id": "R99.1", "title": "", "text": "",
                                                    "html": ""}


def test_sarif_quotes_each_kind_s_clause_in_the_language_asked_for(capsys):
    assert main(["check", str(ROOT / "examples" / "logs" / "revoke.log"), "--format", "sarif",
                 "--lang", "it"]) == 1
    driver = json.loads(capsys.readouterr().out)["runs"][0]["tool"]["driver"]
    revoke = next(rule for rule in driver["rules"] if rule["id"] == "CH201")
    assert revoke["help"]["text"].endswith("\n" + rulebook.clause_plain("R5.2", "it"))
    assert "\nR5.2 Rispondere al seme. Un giocatore deve" in revoke["help"]["text"]
    assert "**" not in revoke["help"]["text"]
    assert revoke["help"]["markdown"].endswith(rulebook.clause("R5.2", "it"))


def test_the_whole_rulebook_is_printed_in_the_language_asked_for(capsys):
    assert main(["rules", "--book", "--lang", "fr"]) == 0
    assert capsys.readouterr().out == rulebook.rulebook_text("fr")
    assert main(["rules", "--book", "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("# Cancellation Hearts — the rulebook\n")
