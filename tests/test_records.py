"""Every Record class writes its __init__ by hand: it must take exactly the init fields, in
order, with the fields' defaults (dataclasses.replace and pickling rely on that)."""

from __future__ import annotations

import inspect
from dataclasses import MISSING, fields

import pytest

import referee.judge.codes
import referee.judge.diagnostics
import referee.log.events
import referee.log.parser
import referee.rules.ruleset
from referee.util.record import Record


def _records():
    modules = (referee.log.events, referee.judge.diagnostics, referee.judge.codes, referee.log.parser,
               referee.rules.ruleset)
    found = {cls for module in modules for cls in vars(module).values()
             if isinstance(cls, type) and issubclass(cls, Record) and cls is not Record}
    return sorted(found, key=lambda cls: cls.__qualname__)


def test_there_are_records_to_check():
    assert len(_records()) >= 10


@pytest.mark.parametrize("cls", _records(), ids=lambda cls: cls.__qualname__)
def test_init_takes_the_init_fields_with_their_defaults(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    if [p.kind for p in params] == [inspect.Parameter.VAR_KEYWORD]:
        return  # takes every option by name and validates them itself (Ruleset)
    wanted = [f for f in fields(cls) if f.init]
    assert [p.name for p in params] == [f.name for f in wanted]
    for param, field in zip(params, wanted):
        default = inspect.Parameter.empty if field.default is MISSING else field.default
        assert param.default == default, field.name
