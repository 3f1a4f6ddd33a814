"""This module makes immutable value records: slotted dataclasses (``fields``, ``replace``,
``asdict`` work) whose methods are written once, in :class:`Record`, not generated per class by
``@dataclass(frozen=True)``, which adds 9 ms to the import of the modules that make records
(``bench/cost.py`` counts the same calls either way)."""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from operator import attrgetter


class Record:
    """A Record compares and hashes by the fields with ``compare``, shows those with ``repr``
    in its repr, and refuses assignment."""

    __slots__ = ()
    _key = _shown = None  # set by record()

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return self._key(self) == self._key(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self):
        return [getattr(self, f.name) for f in fields(self)]

    def __setstate__(self, state) -> None:
        for f, value in zip(fields(self), state):
            object.__setattr__(self, f.name, value)


def record(cls: type) -> type:
    """Make a :class:`Record` subclass a slotted dataclass, with an ``__init__`` of its init
    fields."""
    cls = dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    every = fields(cls)
    cls._key = attrgetter(*[f.name for f in every if f.compare])
    cls._shown = tuple(f.name for f in every if f.repr)
    params = ", ".join(f.name if f.default is MISSING else f"{f.name}=_default_{f.name}"
                       for f in every if f.init)
    values = {f.name: f.name if f.init else f"_default_{f.name}" for f in every}
    cls.__init__ = _function(cls, f"__init__(self, {params})", values)
    return cls


def lazy(cls: type, *names: str):
    """Make a constructor of ``cls`` that sets only the fields ``names``, given in order (the
    span slots it leaves empty are made on their first read:
    :func:`referee.log.events.found_span`)."""
    return _function(cls, f"make({', '.join(names)})", {name: name for name in names},
                     "    self = _new(_cls)\n", "    return self\n")


def _function(cls: type, signature: str, values: dict[str, str], first: str = "", last: str = ""):
    """Make the function ``signature`` that writes each slot of ``values`` (its name: the
    value's expression) directly: half the cost of a loop over setters, and the parser makes
    several records a line."""
    body = "".join(f"    _set_{name}(self, {value})\n" for name, value in values.items())
    namespace = {"_new": object.__new__, "_cls": cls,
                 **{f"_set_{name}": cls.__dict__[name].__set__ for name in values},
                 **{f"_default_{f.name}": f.default for f in fields(cls)}}
    exec(f"def {signature}:\n{first}{body}{last}", namespace)  # noqa: S102
    return namespace[signature.partition("(")[0]]
