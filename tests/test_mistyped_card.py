"""One mistyped card in a trick is one fault: the card its seat does not hold.

The play stands for an unknown card of that seat: it is no copy played against another seat, it
sets no lead suit, and the trick's winner, its points and the scores that follow are not judged
by it (noted as not checked) unless they are the same whichever card the seat may have played,
or the claim and the hand's scores are those of the play as written (the card counted as
played: the reading with the fewest faults)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.conformance.generate import generate_game
from referee.log.writer import write
from referee.rules.cards import card_text, parse_card
from referee.rules.ruleset import load_ruleset
from referee.run.single import check_text

C6 = Path(__file__).resolve().parent.parent / "examples" / "logs" / "clean-6-players.log"


def edited(edits: dict[int, tuple[str, str]], *, drop: int | None = None) -> str:
    """C6 with ``old`` replaced by ``new`` on line N (then line ``drop`` left out)."""
    rows = C6.read_text("utf-8").split("\n")
    for line, (old, new) in edits.items():
        assert old in rows[line - 1], (line, rows[line - 1])
        rows[line - 1] = rows[line - 1].replace(old, new, 1)
    if drop is not None:
        del rows[drop - 1]
    return "\n".join(rows)


def verdict(text: str):
    report = check_text(text, "t.log")
    return [(d.kind, d.line, d.player) for d in report.diagnostics], report


CASES = {
    # Dave's 8S lead typed 7S: Fay's 7S (dealt to her) is no third copy, and Dave is not
    # accused of a revoke for still holding the 8S he most likely played
    "lead typed as another rank": ({27: ("Dave 8S", "Dave 7S")}, None,
                                   [("card-not-held", 27, "Dave")]),
    # Al's AD typed 3S: Eve's 3S is no third copy, Al keeps AD without a revoke accused
    "follow typed as another card": ({60: ("Al AD", "Al 3S")}, None,
                                     [("card-not-held", 60, "Al")]),
    # Al's deal left out (his holding inferred), his AD typed AH: Eve and Fay hold and play
    # both AH, so Al's is the card not held, not Fay's
    "inferred holding": ({60: ("Al AD", "Al AH")}, 41, [("card-not-held", 59, "Al")]),
    # Beth's 5S lead typed 5D: no revoke to a diamond lead, no winner said from 5D
    "lead suit typed": ({263: ("Beth 5S", "Beth 5D")}, None,
                        [("card-not-held", 263, "Beth")]),
    # Beth's KS typed AS: it cancels nobody's AS, so the claim, the hand's scores and the
    # game's winner stay as written
    "cancelling copy typed": ({28: ("Beth KS", "Beth AS")}, None,
                              [("card-not-held", 28, "Beth")]),
}


@pytest.mark.parametrize("case", CASES)
def test_a_mistyped_card_is_one_card_not_held(case):
    edits, drop, expected = CASES[case]
    found, report = verdict(edited(edits, drop=drop))
    assert found == expected, [d.message for d in report.diagnostics]
    assert report.winners == ["Dave"]


def test_the_trick_of_a_card_not_held_is_noted_not_judged():
    _, report = verdict(edited({263: ("Beth 5S", "Beth 5D")}))
    assert any("hand 8: trick 6" in note for note in report.unchecked), report.unchecked
    assert not report.hands[7].complete


def test_a_trick_whose_winner_no_card_of_the_seat_changes_is_still_judged():
    # Al (holding AD and spades) typed 3S for AD into Eve's spade trick 7 of hand 2: whichever
    # spade Al played, Beth's QS wins it, so the hand is still scored from its play
    _, report = verdict(edited({60: ("Al AD", "Al 3S")}))
    assert report.hands[1].complete and not report.unchecked


CANCELLATION = load_ruleset("cancellation")


def _a_play(rows: list[str], data):
    """Draw a play of a generated game's trick lines: its line's index, its player and card, and
    a function that writes the line with another card in its place."""
    at = data.draw(st.sampled_from([i for i, row in enumerate(rows) if row.startswith("trick ")]),
                   "trick line")
    head, _, tail = rows[at].partition(": ")
    plays, arrow, claim = tail.partition(" -> ")
    cards = plays.split(", ")
    position = data.draw(st.integers(0, len(cards) - 1), "position")
    name, card = cards[position].split()

    def retyped(typed: str) -> str:
        written = cards[:position] + [f"{name} {typed}"] + cards[position + 1:]
        return f"{head}: {', '.join(written)}{arrow}{claim}"
    return at, name, card, retyped


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(6, 8), seed=st.integers(0, 10**6), data=st.data())
def test_a_card_the_seat_never_held_is_its_one_fault(players, seed, data):
    rows = write(generate_game(CANCELLATION, players, seed=seed, hands=1)).split("\n")
    at, name, card, retyped = _a_play(rows, data)
    # a card neither dealt to the seat nor passed by anyone: the seat never held it
    seen = {parse_card(c) for row in rows
            if row.startswith((f"deal {name}:", "pass ")) for c in row.split(": ")[1].split()}
    unheld = [c for c in range(52) if c not in seen]
    assume(unheld)
    typed = card_text(data.draw(st.sampled_from(unheld), "typed card"))
    rows[at] = retyped(typed)
    found, report = verdict("\n".join(rows))
    assert found == [("card-not-held", at + 1, name)], [d.message for d in report.diagnostics]


def test_a_card_not_held_the_claim_and_scores_count_as_played_leaves_the_hand_judged():
    # Dave's 8S lead typed 7S: as written Eve's AS still wins trick 8 as claimed and the scores
    # are those of the play as written, so the hand stays judged
    _, report = verdict(edited({27: ("Dave 8S", "Dave 7S")}))
    assert report.hands[0].complete and not report.unchecked


def test_a_card_not_held_that_changes_the_winner_as_written_leaves_the_scores_unjudged():
    # Beth's AS would cancel Eve's: the claim (Eve) is not the winner as written (Dave)
    _, report = verdict(edited({28: ("Beth KS", "Beth AS")}))
    assert not report.hands[0].complete
    assert any("hand 1: trick 9" in note for note in report.unchecked), report.unchecked


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(players=st.integers(6, 8), seed=st.integers(0, 10**6), data=st.data())
def test_a_card_the_seat_already_played_is_its_one_fault(players, seed, data):
    rows = write(generate_game(CANCELLATION, players, seed=seed, hands=2)).split("\n")
    at, name, card, retyped = _a_play(rows, data)
    start = max(i for i in range(at) if rows[i].startswith("hand "))
    hand = rows[start:at]
    dealt = next(r for r in hand if r.startswith(f"deal {name}:")).split(": ")[1].split()
    passed = {c for r in hand if r.startswith("pass ") for c in r.split(": ")[1].split()}
    earlier = [p.split()[1] for r in hand if r.startswith("trick ")
               for p in r.partition(": ")[2].partition(" -> ")[0].split(", ")
               if p.split()[0] == name]
    # a card dealt to the seat once, never passed, that it played before this trick
    gone = [c for c in earlier if dealt.count(c) == 1 and c not in passed and c != card]
    assume(gone)
    rows[at] = retyped(data.draw(st.sampled_from(gone), "typed card"))
    found, report = verdict("\n".join(rows))
    assert found == [("card-not-held", at + 1, name)], [d.message for d in report.diagnostics]
