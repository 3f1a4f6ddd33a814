"""Immutable value records, lighter than ``@dataclass(frozen=True)``.

The records are dataclasses (``fields``, ``replace``, ``asdict`` work on them) whose
methods are written here once, in :class:`Record`, instead of generated for each class by
``@dataclass``: that took 8 ms, a twentieth of the cold start of ``referee check``.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, fields
from operator import attrgetter


class Record:
    """What ``@dataclass(frozen=True)`` would generate: equality and hash over the fields
    with ``compare``, a repr of the fields with ``repr``, no assignment.  Each subclass is
    made with :func:`record` and writes its ``__init__`` as ``self._fill(every init field)``."""

    __slots__ = ()
    _key = _shown = _setters = _defaults = None  # set by record()

    def _fill(self, *values) -> None:
        for set_value, value in zip(self._setters, values + self._defaults):
            set_value(self, value)

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
    """A :class:`Record` subclass as a slotted dataclass (fields, defaults, ``replace``)."""
    cls = dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    every = fields(cls)
    cls._key = attrgetter(*[f.name for f in every if f.compare])
    cls._shown = tuple(f.name for f in every if f.repr)
    cls._setters = tuple(cls.__dict__[f.name].__set__ for f in every if f.init) + tuple(
        cls.__dict__[f.name].__set__ for f in every if not f.init)
    cls._defaults = tuple(f.default for f in every if not f.init)
    return cls
