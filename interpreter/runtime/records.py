"""The values of ``record`` declarations: small named tuples the rules build and read.

``record Cast(total: int, ones: int)`` declares one; ``Cast(total = 7, ones = 1)`` builds a
:class:`Record` and ``c.total`` reads its field (:func:`field_of`). Instances are
immutable and compare by value, so the same inputs give the same records.
"""

from __future__ import annotations

from typing import Any

from rules_run import slotted

__all__ = ["Record", "field_of", "fields", "as_data"]


@slotted.frozen
class Record:
    """A value of a declared record.

    Examples:
        >>> c = Record("Cast", ("total", "ones"), (7, 1))
        >>> field_of(c, "ones"), c
        (1, Cast(total=7, ones=1))
    """

    kind: str
    """The record's declared name."""
    names: tuple[str, ...]
    """Its fields' names, in the declared order."""
    values: tuple[Any, ...]
    """Each field's value, in the same order."""

    def __repr__(self) -> str:
        return f"{self.kind}(" + ", ".join(f"{n}={v!r}" for n, v in zip(self.names,
                                                                      self.values)) + ")"


def field_of(value: Any, name: str) -> Any:
    """The field ``name`` of a record (none when ``value`` is none or has no such field)."""
    if isinstance(value, Record) and name in value.names:
        return value.values[value.names.index(name)]
    return None


def fields(value: Record, *names: str) -> tuple[Any, ...]:
    """The values of the fields ``names`` of a record, in that order (for Python callers).

    Examples:
        >>> fields(Record("Cast", ("total", "ones"), (7, 1)), "ones", "total")
        (1, 7)
    """
    return tuple(field_of(value, n) for n in names)


def as_data(value: Any) -> Any:
    """A record as the event log keeps it: a mapping of its fields, in the declared order;
    any other value as it is.

    Examples:
        >>> as_data(Record("Winds", ("power", "dispel"), (8, 6))), as_data(3)
        ({'power': 8, 'dispel': 6}, 3)
    """
    if isinstance(value, Record):
        return {n: as_data(v) for n, v in zip(value.names, value.values)}
    return value
