"""The diagnostics of the setup, the deal and passes, the scores and the rulesets are messages
(`msg()`/`msgn()` templates the catalog extractor finds), and their English is what it was:
example logs and small edits of them, with every expected text written out by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from referee.judge import codes
from referee.run.single import check_bytes, check_text
from referee.rules.ruleset_files import RulesetError
from referee.rules.ruleset import load_ruleset
from referee.rules.ruleset_files import reason
from referee.util.message import Message

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "examples" / "logs"
CORPUS = ROOT / "examples" / "corpus"
# the modules whose texts this file covers; others' diagnostics are other tests' business
OURS = {"referee/judge/scoring.py", "referee/judge/setup.py", "referee/judge/holdings.py",
        "referee/rules/ruleset.py", "referee/rules/ruleset_files.py",
        "referee/rules/cards.py"}
KINDS = {codes.BAD_DEAL, codes.BAD_PASS, codes.BAD_MOON, codes.SCORE_MISMATCH,
         codes.TOTAL_MISMATCH}
HEAD = '[Players "Al Beth Charlie Dave Eve Fay"]\n'
HAND_1 = ("score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 10\n"
          "total: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 10\n")


@pytest.fixture(scope="module")
def catalog() -> dict:
    """Each extracted message id (a template, or (singular, plural)) -> the files marking it."""
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return {m.id: {path for path, _ in m.locations} for m in script.extracted() if m.id}


def assert_marked(text: str, catalog: dict) -> None:
    """``text`` is a message made in one of our modules from a literal template the extractor
    found, and so is every argument of it that is a message."""
    assert isinstance(text, Message), f"plain text, not a message: {text!r}"
    key = text.template if text.plural is None else (text.template, text.plural)
    assert key in catalog, f"not extracted: {key!r}"
    assert catalog[key] & OURS, f"{key!r} is marked only in {catalog[key]}"
    for value in text.args.values():
        if isinstance(value, Message):
            assert_marked(value, catalog)


def edited(path: Path, *changes: tuple[str, str]) -> str:
    """The text of ``path`` with each (old, new) replaced once; each old text must be there."""
    text = path.read_text("utf-8")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


# hand 1 of bad-pass.log with its one fault (a pass to the wrong seat) put right: a clean hand
CLEAN_PASS = ("pass Charlie -> Beth:", "pass Charlie:")


def clean_hand(*changes: tuple[str, str]) -> str:
    return edited(LOGS / "bad-pass.log", CLEAN_PASS, *changes)


# (the log's text, the messages expected, the notes expected): each text written by hand
CASES = {
    "short deal": (edited(LOGS / "bad-deal.log"),
                   ["Eve was dealt 16 cards; with 6 players each gets 17"],
                   [("hand 1: the holdings of Eve are not fully recorded; revokes and illegal "
                     "leads are proven only from later plays")]),
    "second deal line": (clean_hand(("kitty: JD QC\n", "kitty: JD QC\ndeal Al: 3H\n")),
                         ["a second deal line for Al in hand 1 (the first is on line 8)"], []),
    "kitty of one card": (clean_hand(("kitty: JD QC", "kitty: JD")),
                          ["the kitty has 1 card; with 6 players it has 2"], []),
    "a third copy in the kitty": (clean_hand(("kitty: JD QC", "kitty: JD 8C")),
                                  ["8C in the kitty is one copy more than the decks hold"], []),
    "second kitty line": (clean_hand(("kitty: JD QC\n", "kitty: JD QC\nkitty: JD QC\n")),
                          ["a second kitty line in hand 1 (the first is on line 14)"], []),
    "pass of two cards": (clean_hand(("pass Al: 3H 3C 5C", "pass Al: 3H 3C")),
                          ["Al passed 2 cards, not 3"], []),
    "second pass line": (clean_hand(("pass Fay: KS 2D 3C\n",
                                     "pass Fay: KS 2D 3C\npass Fay: KS 2D 3C\n")),
                         ["a second pass line for Fay in hand 1"], []),
    "pass to the wrong seat": (edited(LOGS / "bad-pass.log"),
                               ["in hand 1 Charlie passes to Beth, but passing left goes to Dave"],
                               []),
    "wrong pass header": (clean_hand(("dealer Fay pass left", "dealer Fay pass right")),
                          [("hand 1 passes left under cancellation, not right; the cards are taken "
                            "to move left")], []),
    "a moon nobody shot": (edited(LOGS / "bad-moon.log"),
                           ["Dave is declared to have shot the moon but took 6 of the 52 points"],
                           []),
    "second moon line": (edited(LOGS / "bad-moon.log", ("moon Dave subtract\n",
                                                         "moon Dave subtract\nmoon Al add\n")),
                         ["Dave is declared to have shot the moon but took 6 of the 52 points",
                          "a second moon line in hand 1"], []),
    "a moon shot by another": (edited(CORPUS / "014-cancellation-6p-moon-add.log",
                                      ("moon Al add", "moon Beth add")),
                               ["Al shot the moon, not Beth"], []),
    "a moon choice the ruleset does not allow": (
        edited(CORPUS / "007-standard-4p-clean-game.log", ("moon Beth add", "moon Beth subtract")),
        ["standard allows only add for the moon, not subtract"], []),
    "moon scores as taken": (
        edited(CORPUS / "014-cancellation-6p-moon-add.log",
               ("moon Al add\nscore: Al 0,", "moon Al add\nscore: Al 52,"),
               ("total: Al 0,", "total: Al 52,")),
        ["Al shot the moon, so Al's hand score is 0, not the 52 points taken"], []),
    "wrong score": (edited(LOGS / "score-mismatch.log"),
                    ["Al's hand 1 score is written as 1, but Al took 0 points: the score is 0"],
                    []),
    "wrong total": (edited(LOGS / "total-mismatch.log"),
                    ["Beth's total is written as 33, but 0 + 32 = 32"], []),
    "a score line naming a player twice and missing one": (
        clean_hand(("score: Al 0, Beth 32, Charlie 14, Dave 6, Eve 0, Fay 0",
                    # (out of seating order: no entry stands in Fay's place)
                    "score: Al 0, Charlie 14, Beth 32, Dave 6, Eve 0, Eve 0")),
        ["no entry for Fay", "Eve appears twice on this line"], []),
    # the sheet check: hands not played out
    "a sheet 53 points": (HEAD + HAND_1 + "score: Al 0, Beth 15, Charlie 20, Dave 3, Eve 13, "
                          "Fay 2\ntotal: Al 10, Beth 29, Charlie 20, Dave 8, Eve 26, Fay 12\n",
                          ["hand 2 adds up to 53, one more than the decks hold"], []),
    "a sheet score its total corrects": (
        HEAD + HAND_1 + "score: Al 0, Beth 15, Charlie 20, Dave 3, Eve 13, Fay 2\n"
        "total: Al 10, Beth 29, Charlie 20, Dave 7, Eve 26, Fay 12\n",
        [("hand 2 adds up to 53, one more than the decks hold: Dave's score is written as 3, but "
          "Dave's total 7 = 5 + 2 makes it 2")], []),
    "a sheet one point short": (
        HEAD + "score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 9\n", [],
        [("hand 1 adds up to 51: consistent only if 1 point was lost in a set-aside last trick "
          "(R6.6), which the record does not show")]),
    "a sheet of an impossible score": (
        HEAD + "score: Al 60, Beth -8, Charlie 0, Dave 0, Eve 0, Fay 0\n",
        [("hand 1 adds up to 52, but its scores include 60: outside a moon hand a score is 0 to "
          "52, and these scores are no moon pattern")], []),
    "a one-deck sheet two points over": (
        ('[Ruleset "standard"]\n[Players "Al Beth Charlie Dave"]\n'
         "score: Al 10, Beth 10, Charlie 8, Dave 0\n"),
        ["hand 1 adds up to 28, two more than the deck holds"], []),
    "a sheet 27 points short": (
        HEAD + "score: Al 10, Beth 10, Charlie 5, Dave 0, Eve 0, Fay 0\n", [],
        [("hand 1 adds up to 25: consistent only if 27 points were lost in a set-aside last trick "
          "(R6.6), which the record does not show")]),
    # the setup
    "second ruleset tag": (edited(LOGS / "bad-setup.log"),
                           ["a second [Ruleset] tag (the first is on line 3); the first counts"],
                           []),
    "a tag after play began": (clean_hand(('[Target "150"]\n', ""),
                                          ("kitty: JD QC\n", 'kitty: JD QC\n[Target "150"]\n')),
                               ["the [Target] tag comes after play has begun (line 6)"], []),
    "a target that is no number": (clean_hand(('[Target "150"]', '[Target "lots"]')),
                                   [("the target 'lots' is not a positive whole number; 150 is "
                                     "used")], []),
    "a target too long to be a game": (
        clean_hand(('[Target "150"]', '[Target "' + "9" * 19 + '"]')),
        [f"the target '{'9' * 19}' is more than 1,000,000,000,000,000,000; 150 is used"], []),
    "a target past the option's range": (  # once a RulesetError, an internal error
        clean_hand(('[Target "150"]', '[Target "1000000000000000001"]')),
        ["the target '1000000000000000001' is more than 1,000,000,000,000,000,000; 150 is used"],
        []),
    "a player seated twice": (HEAD.replace('Fay"', 'Fay Al"') + HAND_1,
                              ["'Al' is seated twice"], []),
    "too few players": ('[Players "Al Beth Charlie Dave Eve"]\n',
                        ["cancellation is for 6-11 players, not 5"], []),
    "one player": ('[Players "Al"]\n', ["cancellation is for 6-11 players, not 1"],
                   ["1 players cannot play cancellation: nothing else checked"]),
    "no players tag": ("score: Al 1\n",
                       [('the log has no [Players "..."] tag, so nothing can be checked against '
                         'seats')], ["no Players tag: plays, scores and totals were not checked"]),
    "an unknown ruleset": ('[Ruleset "nope"]\n' + HEAD,
                           [("unknown ruleset 'nope': bundled rulesets are cancellation, standard, "
                             "or give a .toml path; checking with cancellation")], []),
    "a hand numbered wrong": (clean_hand(("hand 1 dealer", "hand 2 dealer")),
                              ["hand 2 is recorded where hand 1 is due"], []),
    "a deal line after the tricks": (
        clean_hand(("deal Fay: 3S 4S 7S KS AS 3H 9H 2D 3D 4D 8D 10D 2C 3C 7C JC AC\n", ""),
                   ("score:", ("deal Fay: 3S 4S 7S KS AS 3H 9H 2D 3D 4D 8D 10D 2C 3C 7C JC AC\n"
                               "score:"))),
        ["a deal line after a trick line of hand 1"], []),
}


@pytest.mark.parametrize("case", CASES)
def test_each_text_is_a_marked_message_with_its_english_unchanged(case, catalog):
    text, messages, notes = CASES[case]
    report = check_text(text)
    ours = [d for d in report.diagnostics if d.kind in KINDS or d.kind == codes.BAD_SETUP]
    assert [d.message for d in ours] == messages
    for diag in ours:
        assert_marked(diag.message, catalog)
        assert diag.hint is None and diag.related == ()  # none of ours has either
    found = [note for note in report.unchecked if note in notes]
    assert found == notes
    for note in found:
        assert_marked(note, catalog)


def test_the_clean_hand_these_cases_edit_is_clean():
    assert check_text(clean_hand()).verdict == "clean"


def test_every_example_logs_setup_deal_pass_and_score_diagnostic_is_a_marked_message(catalog):
    seen = set()
    for path in sorted(LOGS.glob("*.log")) + sorted(CORPUS.glob("*.log")):
        report = check_bytes(path.read_bytes(), str(path), base_dir=path.parent)
        for diag in report.diagnostics:
            if diag.kind in KINDS:
                assert_marked(diag.message, catalog)
                seen.add(diag.kind)
    assert seen == KINDS  # the examples show each kind, so the sweep is not empty


def test_a_wrong_score_names_the_wrong_winner_claim(catalog):
    # trick 4 (QS and 5H: 14 points) is claimed for Al, but Beth wins it; the sheet follows
    # the claim, so both scores are wrong, each naming the claim's line
    text = clean_hand(("AS, Al 5H, Beth QS, Charlie JS -> Beth",
                       "AS, Al 5H, Beth QS, Charlie JS -> Al"),
                      ("score: Al 0, Beth 32,", "score: Al 14, Beth 18,"),
                      ("total: Al 0, Beth 32,", "total: Al 14, Beth 18,"))
    scores = [d for d in check_text(text).diagnostics if d.kind == codes.SCORE_MISMATCH]
    assert [d.message for d in scores] == [
        ("Al's hand 1 score is written as 14, but Al took 0 points: the score is 0; the winner "
         "claimed on line 24 was wrong"),
        ("Beth's hand 1 score is written as 18, but Beth took 32 points: the score is 32; the "
         "winner claimed on line 24 was wrong")]
    for diag in scores:
        assert_marked(diag.message, catalog)
        assert diag.message.args["cause"].args == {"line": 24}


def test_a_wrong_score_of_the_kittys_taker_says_what_the_kitty_held(catalog):
    # hand 2's kitty (5S 10H: a point) goes with trick 1 to Charlie, who took 38 points; the
    # total follows the true score, so the score alone is wrong
    text = edited(CORPUS / "001-cancellation-6p-clean-game.log",
                  ("score: Al 0, Beth 5, Charlie 38,", "score: Al 0, Beth 5, Charlie 37,"))
    (diag,) = check_text(text).diagnostics
    assert diag.message == ("Charlie's hand 2 score is written as 37, but Charlie took 38 "
                            "points (1 of them in the kitty, collected with trick 1): the score "
                            "is 38")
    assert_marked(diag.message, catalog)
    assert isinstance(diag.message.args["kitty"], Message)


def test_moon_scores_of_neither_choice_say_so_first(catalog):
    text = edited(CORPUS / "014-cancellation-6p-moon-add.log",
                  ("moon Al add\nscore: Al 0, Beth 26,", "score: Al 0, Beth 25,"),
                  ("total: Al 0, Beth 26,", "total: Al 0, Beth 25,"))
    first, *rest = check_text(text).diagnostics
    assert first.message == ("Al took every point, but the scores follow neither moon choice "
                             "(subtract nor add) and no moon line says which was chosen")
    assert str(first.message.args["choices"].args["earlier"]) == "subtract"
    for diag in (first, *rest):
        assert_marked(diag.message, catalog)


@pytest.mark.parametrize(("options", "expected"), [
    ('base = "cancellation"\ncolour = "red"\n', "unknown option(s) colour"),
    ('base = "cancellation"\ndecks = 3\n', "decks must be 1 or 2"),
    ('base = "cancellation"\ndecks = "two"\n', "decks must be an integer"),
    ('base = "cancellation"\ncancellation = 1\n', "cancellation must be a bool"),
    ('base = "cancellation"\nkitty_to = "dealer"\n',
     "kitty_to must be one of first_trick, last_trick"),
    ('base = "cancellation"\nmoon_choices = []\n', "moon_choices must name at least one choice"),
    ('base = "cancellation"\npass_cycle = ["sideways"]\n', None),  # the direction's own text
    ('base = "cancellation"\nunpassable_cards = ["ZZ"]\n', None),  # the card's own text
    ("decks = [\n", None),  # TOML's own text
])
def test_a_ruleset_files_faults_are_messages(tmp_path, catalog, options, expected):
    path = tmp_path / "house.toml"
    path.write_text(options, "utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    text = reason(caught.value)
    assert_marked(text, catalog)
    assert str(caught.value) == text
    if expected is not None:
        assert text == f"{str(path)!r}: {expected}"
    # and a log that names the file says so, and what it checks with instead
    report = check_bytes(f'[Ruleset "house.toml"]\n{HEAD}'.encode(), str(tmp_path / "g.log"),
                         base_dir=tmp_path)
    (diag,) = [d for d in report.diagnostics if d.kind == codes.BAD_SETUP]
    assert diag.message.endswith("; checking with cancellation")
    assert_marked(diag.message, catalog)


def test_a_short_sheet_under_a_ruleset_that_loses_no_points_says_why(tmp_path, catalog):
    (tmp_path / "house.toml").write_text('base = "cancellation"\nname = "house"\n'
                                         'set_aside_last = "leader"\n', "utf-8")
    text = ('[Ruleset "house.toml"]\n' + HEAD
            + "score: Al 10, Beth 14, Charlie 0, Dave 5, Eve 13, Fay 9\n")
    report = check_bytes(text.encode(), str(tmp_path / "g.log"), base_dir=tmp_path)
    (diag,) = report.diagnostics
    assert diag.message == ("hand 1 adds up to 51, one less than the decks hold, and no points "
                            "can have been lost: under house a set-aside last trick goes to its "
                            "leader (R6.6)")
    assert_marked(diag.message, catalog)


def test_a_pass_direction_the_ruleset_cannot_read_is_named(tmp_path, catalog):
    path = tmp_path / "house.toml"
    path.write_text('base = "cancellation"\npass_cycle = ["left", "sideways"]\n', "utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(str(path))
    assert reason(caught.value) == "unknown pass direction 'sideways'"
    assert_marked(reason(caught.value), catalog)


def test_a_ruleset_outside_the_log_folder_is_a_marked_message(tmp_path, catalog):
    outside = tmp_path / "rules.toml"
    outside.write_text('base = "cancellation"\n', "utf-8")
    folder = tmp_path / "logs"
    folder.mkdir()
    report = check_bytes(f'[Ruleset "{outside}"]\n{HEAD}'.encode(), str(folder / "g.log"),
                         base_dir=folder)
    (diag,) = [d for d in report.diagnostics if d.kind == codes.BAD_SETUP]
    assert diag.message == (
        "the ruleset file this tag names lies outside the log's folder, so it is not read "
        "(`--allow-ruleset-dir DIR` allows the files under DIR, `--ruleset FILE` checks with "
        "FILE whatever the log names); checking with cancellation")
    assert_marked(diag.message, catalog)


def test_words_that_vary_are_messages_of_their_own(catalog):
    # the pass direction and the number in words are translated with the sentence
    (diag,) = check_text(CASES["wrong pass header"][0]).diagnostics
    assert {name: str(value) for name, value in diag.message.args.items()
            if isinstance(value, Message)} == {"due": "left", "written": "right"}
    (diag,) = check_text(CASES["a sheet 53 points"][0]).diagnostics
    assert isinstance(diag.message.args["difference"], Message)
    assert diag.message.args["difference"] == "one"
