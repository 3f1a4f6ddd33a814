"""The translation machinery: choosing a language, messages that remember their template,
catalogs compiled from .po sources, and what happens when a catalog is wrong."""

from __future__ import annotations

import gettext
import io
import pickle

import pytest

from referee.util.i18n import (
    LANGUAGES,
    UnknownLanguage,
    choose_language,
    compile_po,
    translate,
    translated,
)
from referee.util.message import msg, msgn

PO = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

msgid "{player} played {card} to a {suit} lead"
msgstr "{player} зіграв {card} на хід у {suit}"

msgid "spade"
msgstr "піки"

msgid "{n} point"
msgid_plural "{n} points"
msgstr[0] "{n} очко"
msgstr[1] "{n} очки"
msgstr[2] "{n} очок"

msgid "{player} holds {card}"
msgstr "{gracz} тримає {card}"

#, fuzzy
msgid "hold"
msgstr "тримати"
"""


@pytest.fixture(scope="module")
def ukrainian() -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(compile_po(PO.encode("utf-8"))))


def test_a_message_is_its_english_text():
    said = msg("{player} played {card}", player="Beth", card="9H")
    assert said == "Beth played 9H" and isinstance(said, str)
    assert said.template == "{player} played {card}"
    assert f"{said}!" == "Beth played 9H!"


def test_plural_messages_choose_the_english_form():
    assert msgn("{n} point", "{n} points", 1, n=1) == "1 point"
    assert msgn("{n} point", "{n} points", 0, n=0) == "0 points"
    assert msgn("{n} point", "{n} points", 26, n=26) == "26 points"


def test_a_message_survives_pickling_with_its_template():
    # --jobs sends every report between processes
    said = msg("{player} played {card}", player="Beth", card="9H")
    again = pickle.loads(pickle.dumps(said))
    assert again == said and again.template == said.template and again.args == said.args


def test_a_message_is_translated_with_its_word_arguments(ukrainian):
    said = msg("{player} played {card} to a {suit} lead", player="Beth", card="9H",
               suit=msg("spade"))
    assert translated(said, ukrainian) == "Beth зіграв 9H на хід у піки"


def test_names_are_never_translated_even_when_they_are_words(ukrainian):
    # a player called "spade" is a name, not the suit
    said = msg("{player} played {card} to a {suit} lead", player="spade", card="9H",
               suit=msg("spade"))
    assert translated(said, ukrainian) == "spade зіграв 9H на хід у піки"


@pytest.mark.parametrize(("count", "text"), [(1, "1 очко"), (3, "3 очки"), (5, "5 очок"),
                                             (11, "11 очок"), (21, "21 очко"), (22, "22 очки")])
def test_plural_forms_follow_the_language(ukrainian, count, text):
    assert translated(msgn("{n} point", "{n} points", count, n=count), ukrainian) == text


def test_an_entry_with_wrong_placeholders_falls_back_to_english(ukrainian):
    said = msg("{player} holds {card}", player="Al", card="QS")
    assert translated(said, ukrainian) == "Al holds QS"


def test_fuzzy_and_missing_entries_stay_english(ukrainian):
    assert translated(msg("hold"), ukrainian) == "hold"
    assert translated(msg("not in any catalog {x}", x=1), ukrainian) == "not in any catalog 1"
    assert translated("a plain heading", ukrainian) == "a plain heading"


def test_english_is_the_text_itself():
    said = msg("{player} played {card}", player="Beth", card="9H")
    assert translate(said, "en") is said


@pytest.mark.parametrize(("asked", "environ", "chosen"), [
    ("it", {"LANG": "de_DE.UTF-8"}, "it"),
    ("de_AT", {}, "de"),
    (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
    (None, {"LC_MESSAGES": "uk_UA.UTF-8", "LANG": "de_DE.UTF-8"}, "uk"),
    (None, {"LC_ALL": "it_IT", "LC_MESSAGES": "uk_UA.UTF-8"}, "it"),
    (None, {"LANGUAGE": "pt:de", "LANG": "it_IT.UTF-8"}, "de"),
    (None, {"LANGUAGE": "pt", "LANG": "it_IT.UTF-8"}, "it"),
    (None, {"LANG": "pt_BR.UTF-8"}, "en"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {"LC_ALL": "POSIX", "LANG": "de_DE.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_the_language_comes_from_the_option_then_the_environment(asked, environ, chosen):
    assert choose_language(asked, environ) == chosen


def test_an_unknown_language_asked_for_is_an_error_naming_the_choices():
    with pytest.raises(UnknownLanguage) as raised:
        choose_language("pt", {})
    assert all(code in str(raised.value) for code in LANGUAGES)
