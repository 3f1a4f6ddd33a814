"""The Hypothesis profiles of tests/profiles.py: derandomized under CI, random elsewhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from profiles import MAX_EXAMPLES, profile_name

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().relative_to(ROOT).as_posix()


def test_the_loaded_profile_follows_the_environment():
    expected = profile_name()
    current = settings()
    assert current.derandomize is (expected == "ci")
    if expected == "ci":
        assert current.deadline is None and current.print_blob is True
    assert current.max_examples == MAX_EXAMPLES


def test_the_profile_is_the_one_the_parent_run_expects():
    """Run by the subprocess test below, which says what it expects in PROFILE_PROBE_EXPECT."""
    expect = os.environ.get("PROFILE_PROBE_EXPECT")
    if expect is None:
        pytest.skip("a probe for the subprocess test below: PROFILE_PROBE_EXPECT is not set, "
                    "so there is no expected profile to compare with")
    current = settings()
    assert current.derandomize is (expect == "derandomized"), repr(current)
    assert current.print_blob is (expect == "derandomized"), repr(current)


def test_profile_name_reads_ci_and_hypothesis_profile():
    assert profile_name({"CI": "true"}) == "ci"
    assert profile_name({"CI": "1"}) == "ci"
    assert profile_name({}) == "dev"
    assert profile_name({"CI": ""}) == "dev"
    assert profile_name({"CI": "false"}) == "dev"
    assert profile_name({"CI": "true", "HYPOTHESIS_PROFILE": "dev"}) == "dev"


@settings(max_examples=7)
@given(st.integers())
def test_an_explicit_settings_keeps_its_max_examples_and_inherits_the_profile(n):
    current = settings()
    assert current.max_examples == 7
    assert current.derandomize is (profile_name() == "ci")


def _run(env_changes: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "HYPOTHESIS_PROFILE")}
    env.update(env_changes)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
         f"{HERE}::test_the_profile_is_the_one_the_parent_run_expects",
         f"{HERE}::test_an_explicit_settings_keeps_its_max_examples_and_inherits_the_profile"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_a_pytest_run_with_ci_true_is_derandomized_and_one_without_is_not():
    for env, expect in (({"CI": "true"}, "derandomized"), ({}, "random")):
        result = _run(dict(env, PROFILE_PROBE_EXPECT=expect))
        assert result.returncode == 0, result.stdout + result.stderr
        assert "2 passed" in result.stdout, result.stdout
    wrong = _run({"CI": "true", "PROFILE_PROBE_EXPECT": "random"})  # the probe does probe
    assert wrong.returncode == 1 and "1 failed" in wrong.stdout, wrong.stdout
