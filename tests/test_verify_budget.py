"""`verify-rules` under its budgets: a property z3 cannot settle in time, or one asked about more
players than the size budget allows, is reported undecided (neither holds nor fails), and the
command does not exit 0 for it."""

from __future__ import annotations

import io

import pytest

from referee.cli import main
from referee.proofs import budgets
from referee.proofs.rulemodel import load_rule_model
from referee.proofs.verify_rules import main_verify, verify_rules

pytestmark = pytest.mark.slow  # z3 proofs run to their time budgets

Z3_PROPERTIES = {"trick-outcome", "engine-resolver-agrees", "no-deadlock-lead",
                 "no-deadlock-follow", "points-conserved", "moon-only-all-points"}


def test_a_property_past_its_time_budget_is_undecided_not_passed_nor_failed():
    found = {r.name: r for r in verify_rules(load_rule_model("cancellation"), seconds=1e-6)}
    for name in Z3_PROPERTIES:
        result = found[name]
        assert result.status == "undecided", name
        assert not result.holds and result.counterexample is None and result.applicable
        assert result.detail.startswith("undecided within 1e-06 s ("), result.detail
    # the two properties without a z3 question are still decided
    assert found["points-per-hand"].status == found["legal-list-agrees"].status == "holds"


def test_the_undecided_detail_says_where_the_time_ran_out():
    (result,) = verify_rules(load_rule_model("cancellation"), seconds=1e-9,
                             properties={"trick-outcome"})
    # cancellation is for 6-11 players: the first trick size asked is 6, and the time is gone
    # before its question is built
    assert result.detail == "undecided within 1e-09 s (before tricks of 6 cards)"


def test_player_counts_past_the_size_budget_are_not_asked():
    found = {r.name: r for r in verify_rules(
        load_rule_model("cancellation"), max_players=7,
        properties={"trick-outcome", "points-conserved", "moon-only-all-points"})}
    for result in found.values():
        assert result.status == "undecided"
        assert result.detail == ("undecided: 8-11 players not asked, past the size budget of 7; "
                                 "holds for 6-7"), result.detail
    # a bound within the ruleset's counts changes nothing
    (whole,) = verify_rules(load_rule_model("cancellation"), max_players=11,
                            properties={"trick-outcome"})
    assert whole.status == "holds"


def test_the_size_budget_covers_the_bundled_rulesets():
    assert load_rule_model("cancellation").player_counts.stop - 1 <= budgets.VERIFY_MAX_PLAYERS
    assert load_rule_model("standard").player_counts.stop - 1 <= budgets.VERIFY_MAX_PLAYERS


def test_the_command_reports_undecided_and_exits_1():
    out = io.StringIO()
    assert main_verify("standard", out, seconds=1e-6) == 1
    text = out.getvalue()
    assert "│ undecided │" in text and "FAILS" not in text
    assert text.rstrip().endswith(
        "2 of 8 properties hold; 6 undecided within 1e-06 s each (not proved; --timeout "
        "SECONDS gives each property longer)")


def test_the_timeout_option(capsys):
    assert main(["verify-rules", "standard", "--timeout", "0.000001"]) == 1
    assert "undecided within 1e-06 s" in capsys.readouterr().out
    for bad in ("0", "-3", "nan"):
        assert main(["verify-rules", "standard", "--timeout", bad]) == 2
        assert "--timeout must be a positive number of seconds" in capsys.readouterr().err
    # no limit at all is a budget too (z3's own timeout is at most 2**32 - 1 ms)
    assert main(["verify-rules", "standard", "--timeout", "inf"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("8 of 8 properties hold")
