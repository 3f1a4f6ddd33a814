"""Every scripted mutation (scripts/mutations.py) still applies: its ``find`` occurs exactly
once in its file, its ``replace`` changes the text, and the tests it names exist.  A rule's code
that moves on without its mutation fails here, not only in a mutation run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("mutations", ROOT / "scripts" / "mutations.py")
mutations = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("mutations", mutations)  # the dataclass looks its module up there
_SPEC.loader.exec_module(mutations)

def _cases():
    for number, mutation in enumerate(mutations.MUTATIONS, 1):
        yield pytest.param(mutation, id=f"{number}-{mutation.path}")


@pytest.mark.parametrize("mutation", _cases())
def test_the_mutation_applies_to_its_file(mutation):
    text = (ROOT / mutation.path).read_text("utf-8")
    assert text.count(mutation.find) == 1, mutation.why
    assert mutation.replace != mutation.find, mutation.why
    assert all((ROOT / test).is_file() for test in mutation.tests), mutation.tests
