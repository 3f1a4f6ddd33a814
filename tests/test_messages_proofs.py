"""The z3 layer's texts are messages: `audit`'s answer, `check --invariants` findings and
details, partial-record conflicts and the notes of what a budget left undecided.  Each is a
`Message` whose template (and every template inside it) the catalog extraction finds, and
whose English is the text written here by hand.  The audit states the law of the ruleset it
audits against, not Cancellation Hearts' 52 under every ruleset."""

from __future__ import annotations

import gettext
import importlib.util
from pathlib import Path

import pytest

from referee.judge import codes
from referee.log.parser import parse_log
from referee.proofs.audit import audit_scoresheet
from referee.proofs.invariants import attach_invariants
from referee.proofs.wording import sheet_law_words
from referee.run.single import check_parsed, check_path
from referee.rules.ruleset import load_ruleset, with_options
from referee.util.i18n import translated
from referee.util.message import Message

ROOT = Path(__file__).resolve().parent.parent
OREGONIAN = load_ruleset(str(ROOT / "examples" / "rulesets" / "cancellation-oregonian-hearts.toml"))
CANCELLATION = load_ruleset("cancellation")
SIX = ["Al", "Beth", "Charlie", "Dave", "Eve", "Fay"]
FOUR = ["Al", "Beth", "Cy", "Di"]


@pytest.fixture(scope="module")
def extracted_ids() -> set:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return {entry.id for entry in script.extracted() if entry.id}


def templates(text) -> list:
    """The template ids of a message and of every message among its arguments; a plain str
    (not a message) fails."""
    assert isinstance(text, Message), f"not a message: {text!r}"
    found = [text.template if text.plural is None else (text.template, text.plural)]
    for value in text.args.values():
        if isinstance(value, Message):
            found += templates(value)
    return found


def assert_messages(ids: set, *texts) -> None:
    for text in texts:
        missing = [t for t in templates(text) if t not in ids]
        assert not missing, (str(text), missing)


def sheet(players: list[str], rows) -> str:
    out = [f'[Players "{" ".join(players)}"]']
    for kind, values in rows:
        out.append(f"{kind}: " + ", ".join(f"{p} {v}" for p, v in zip(players, values)))
    return "\n".join(out) + "\n"


def audit(players, rows, rules=CANCELLATION, **options):
    return audit_scoresheet(parse_log(sheet(players, rows)), rules, players, **options)


# -- audit ------------------------------------------------------------------------------------
def test_the_audits_answers_are_messages_with_their_english(extracted_ids):
    # hand 1 a moon (-26 and five 0s), hand 2 sums to 51: a point lost in the last trick
    moon_and_lost = audit(SIX, [("score", [-26, 0, 0, 0, 0, 0]), ("total", [-26, 0, 0, 0, 0, 0]),
                                ("score", [10, 14, 0, 5, 13, 9]),
                                ("total", [-16, 14, 0, 5, 13, 9])])
    assert moon_and_lost.text() == (
        "the scoresheet is consistent: every hand sums to 52 (hand 1 read as a moon; hand 2 "
        "less 1 point(s) lost in a set-aside last trick) and every total adds up")
    one_fix = audit(SIX, [("score", [10, 14, 0, 5, 13, 10]), ("total", [10, 14, 0, 5, 13, 10]),
                          ("score", [0, 16, 20, 2, 13, 2]), ("total", [10, 29, 20, 7, 26, 12])])
    assert one_fix.text() == ("hand 2 adds up to 53, one more than the decks hold; change Beth's "
                              "hand 2 score from 16 to 15; then every hand sums to 52 and every "
                              "total adds up")
    # Al and Beth's hand 1 scores a point apart from what their totals say
    two_changes = audit(SIX, [("score", [11, 13, 0, 5, 13, 10]), ("total", [10, 14, 0, 5, 13, 10]),
                              ("score", [0, 15, 20, 2, 13, 2]),
                              ("total", [10, 29, 20, 7, 26, 12])])
    assert two_changes.text() == (
        "change Al's hand 1 score from 11 to 10 and change Beth's hand 1 score from 13 to 14; "
        "then every hand sums to 52 and every total adds up")
    # 53 with no total to say whose score is wrong: one fact, several corrections
    several = audit(SIX, [("score", [10, 14, 0, 6, 13, 10])], max_solutions=2)
    assert str(several.text()).startswith(
        "hand 1 adds up to 53, one more than the decks hold; 2+ corrections of 1 entry each "
        "make the sheet consistent: (1) change ")
    assert str(several.text()).endswith("; more exist; then every hand sums to 52 and every "
                                        "total adds up")
    nothing = audit_scoresheet(parse_log('[Players "Al Beth"]\n'), CANCELLATION, ["Al", "Beth"])
    assert nothing.text() == "the log holds no score or total lines to audit"
    assert_messages(extracted_ids, moon_and_lost.text(), one_fix.text(), two_changes.text(),
                    several.text(), nothing.text())


def test_a_cut_short_audit_says_which_budget_in_a_message(extracted_ids, monkeypatch):
    monkeypatch.setattr("referee.proofs.audit.AUDIT_MAX_ENTRIES", 3)
    result = audit(FOUR, [("score", [0, 13, 9, 4]), ("total", [0, 13, 9, 4])],
                   rules=load_ruleset("standard"))
    assert result.text() == ("no correction was found within the budgets\nthe search was cut "
                             "short (not asked: 8 written entries exceed the size budget of 3)")
    assert_messages(extracted_ids, result.text())


def test_under_the_oregonian_ruleset_the_audit_states_its_law_not_52(extracted_ids):
    # start 100, penalties count down, 52 + carried shared by the clean players: Al took 20
    # points, Beth 32, Cy and Di none and share the 52
    rows = [("score", [-20, -32, 26, 26]), ("total", [80, 68, 126, 126])]
    result = audit(FOUR, rows, rules=OREGONIAN)
    assert result.consistent and result.facts == []  # no "adds up to 0, 52 less than ..."
    assert result.text() == (
        "the scoresheet is consistent: every total adds up from the start total of 100; no "
        "hand's scores are judged on their own: cancellation-oregonian-hearts's clean-hand "
        "pool shares what earlier hands carried, which no line shows")
    wrong = audit(FOUR, [rows[0], ("total", [81, 68, 126, 126])], rules=OREGONIAN)
    assert not wrong.consistent and wrong.facts == []
    assert "change Al's hand 1 total from 81 to 80" in wrong.text()
    assert str(wrong.text()).endswith(
        "; then every total adds up from the start total of 100; no hand's scores are judged "
        "on their own: cancellation-oregonian-hearts's clean-hand pool shares what earlier "
        "hands carried, which no line shows")
    assert_messages(extracted_ids, result.text(), wrong.text())


def test_the_stated_law_follows_penalties_bonuses_and_moons():
    # the Oregonian scoring without its pool: every hand sums to -52, a lost point raises it
    counting_down = with_options(OREGONIAN, clean_hand_pool=0)
    assert sheet_law_words(counting_down, [], {}) == (
        "every hand sums to -52 and every total adds up from the start total of 100")
    assert sheet_law_words(counting_down, [], {2: 3}) == (
        "every hand sums to -52 (hand 2 sums to -49, 3 point(s) being lost in a set-aside last "
        "trick) and every total adds up from the start total of 100")
    jack = with_options(load_ruleset("standard"), jack_of_diamonds_bonus=-10)
    assert sheet_law_words(jack, [1, 3], {}) == (
        "every hand sums to 26 plus its bonuses (-10 for each jack of diamonds taken; hands 1, "
        "3 read as a moon) and every total adds up")
    assert sheet_law_words(CANCELLATION, [2], {}) == (
        "every hand sums to 52 (hand 2 read as a moon) and every total adds up")


def test_a_translation_reaches_every_piece_of_the_audits_answer():
    class Bracketed(gettext.NullTranslations):  # a catalog that marks what it translated
        def gettext(self, message):
            return f"[{message}]"

        def ngettext(self, singular, plural, n):
            return f"[{singular if n == 1 else plural}]"

    result = audit(FOUR, [("score", [-20, -32, 26, 26]), ("total", [80, 68, 126, 126])],
                   rules=OREGONIAN)
    assert translated(result.text(), Bracketed()) == (
        "[the scoresheet is consistent: [[every total adds up from the start total of 100]; no "
        "hand's scores are judged on their own: [cancellation-oregonian-hearts's clean-hand "
        "pool shares what earlier hands carried, which no line shows]]]")


# -- check --invariants -----------------------------------------------------------------------
# Passing left with no pass line recorded: East, dealt four clubs, passes three and keeps one
# (receiving perhaps more from North), yet shows out of clubs in trick 1.
SHOW_OUT = """[Ruleset "standard"]
[Players "North East South West"]
hand 1 dealer West pass left
deal North: 2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D
deal East: JC QC KC AC 6D 7D 8D 9D 10D JD QD KD AD
deal South: 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS
deal West: 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH
trick 1: North 2C, East 6D, South 2S, West 3S
"""


def proved(text: str, path: str = "<test>"):
    parsed = parse_log(text)
    report = check_parsed(parsed, path)
    attach_invariants(report, parsed)
    return report


def test_a_partial_record_conflict_is_a_message_with_its_english(extracted_ids):
    report = proved(SHOW_OUT)
    (diag,) = report.diagnostics
    assert (diag.kind, diag.line) == (codes.INVARIANT, 8)
    assert diag.message == (
        "no three cards East could have passed on or received from North let East show out of "
        "clubs in trick 1 (line 8) given the deal to East (line 5)")
    (related,) = diag.related
    assert (related.line, related.note) == (5, "the deal to East (line 5)")
    details = {i["name"]: i["detail"] for i in report.invariants}
    assert details["cards-dealt"] == "every card identity 1 time(s) in the deals and the kitty"
    assert details["cards-played"] == (
        "no player plays a card more often than held (the hand is unfinished); holdings of "
        "North, East, South, West not recorded")
    assert details["points-conserved"] == "the hand is not fully recorded"
    assert details["score-sum"] == "no score line"
    assert details["totals"] == "no total line"
    assert_messages(extracted_ids, diag.message, related.note, *details.values())


def test_a_violated_law_is_a_message_with_its_english(extracted_ids):
    parsed = parse_log(sheet(SIX, [("score", [10, 14, 0, 5, 13, 11])]))  # 53
    report = check_parsed(parsed, "<test>")
    assert [d.kind for d in report.diagnostics] == [codes.SCORE_MISMATCH]
    report.diagnostics.clear()  # as if the check had missed it: the law's own diagnostic
    attach_invariants(report, parsed)
    (diag,) = report.diagnostics
    assert diag.message == ("score-sum is violated in hand 1: the scores sum to 53; they must "
                            "sum to 52 less any lost points, or follow a moon pattern")
    short = proved(sheet(SIX, [("score", [10, 14, 0, 5, 13, 9])]))  # 51: a point lost?
    detail = next(i["detail"] for i in short.invariants if i["name"] == "score-sum")
    assert detail == ("the scores sum to 51: consistent only if 1 point(s) were lost in a "
                      "set-aside last trick (R6.6), which the record does not show")
    assert_messages(extracted_ids, diag.message, detail)


def test_a_total_that_does_not_add_up_points_at_the_previous_line(extracted_ids):
    rows = [("score", [10, 14, 0, 5, 13, 10]), ("total", [10, 14, 0, 5, 13, 10]),
            ("score", [0, 15, 20, 2, 13, 2]), ("total", [10, 29, 20, 7, 26, 13])]
    parsed = parse_log(sheet(SIX, rows))
    report = check_parsed(parsed, "<test>")
    report.diagnostics.clear()
    attach_invariants(report, parsed)
    (diag,) = report.diagnostics
    assert diag.message == "totals is violated in hand 2: Fay's total is 13, but 10 + 2 = 12"
    (related,) = diag.related
    assert (related.line, related.note) == (3, "the previous total line")
    assert_messages(extracted_ids, diag.message, related.note)


def test_score_sum_under_penalties_and_a_pool_says_their_law(tmp_path, extracted_ids):
    (tmp_path / "down.toml").write_text(
        'base = "cancellation"\nname = "down"\npenalty_sign = -1\nshooting_the_moon = false\n'
        'set_aside_last = "leader"\n', "utf-8")
    (tmp_path / "down.log").write_text(
        '[Ruleset "down.toml"]\n' + sheet(SIX, [("score", [-10, -14, 0, -5, -13, -9])]), "utf-8")
    report = check_path(str(tmp_path / "down.log"), invariants=True)
    law = next(i for i in report.invariants if i["name"] == "score-sum")
    # no moon pattern under this ruleset, and no point can be lost: exactly -52
    assert (law["status"], law["detail"]) == ("violated", "the scores sum to -51; they must "
                                                          "sum to -52")
    oregonian = "cancellation-oregonian-hearts.toml"
    (tmp_path / oregonian).write_bytes((ROOT / "examples" / "rulesets" / oregonian).read_bytes())
    (tmp_path / "pool.log").write_text(f'[Ruleset "{oregonian}"]\n'
                                       + sheet(FOUR, [("score", [-20, -32, 26, 26])]), "utf-8")
    pool = check_path(str(tmp_path / "pool.log"), invariants=True)
    skipped = next(i for i in pool.invariants if i["name"] == "score-sum")
    assert (skipped["status"], skipped["detail"]) == (
        "skipped", "cancellation-oregonian-hearts's clean-hand pool shares what earlier hands "
                   "carried, which no line shows")
    assert_messages(extracted_ids, law["detail"], skipped["detail"])


def test_an_undecided_law_is_a_note_in_a_message(extracted_ids, monkeypatch):
    from referee.proofs import invariants

    monkeypatch.setattr(invariants._Prover, "_check", lambda self, formulas: self.z3.unknown)
    report = proved(sheet(SIX, [("score", [10, 14, 0, 5, 13, 10])]))
    (note,) = report.diagnostics
    assert (note.kind, note.severity) == (codes.UNDECIDED, codes.NOTE)
    assert note.message == ("score-sum is undecided in hand 1: z3 gave no answer within the "
                            "time budget of 2000 ms")
    assert_messages(extracted_ids, note.message)
