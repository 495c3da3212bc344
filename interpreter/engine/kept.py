"""Answers kept while what they were computed from stays the same: the battle's caches.

A battle asks the same questions of the geometry over and over (a unit's footprint, the gap
between two units, what stands between them) while most units stand still. Each cache is a
:class:`Kept`: an answer is stored per key with the things it was computed from (the
*grounds*: poses, footprints, shapes), and given back only while those are the same
objects. A unit's pose or footprint is a new object whenever it moves or changes size, so
the same objects mean the same places and sizes.

Examples:
    >>> kept = Kept()
    >>> where = object()
    >>> kept.get("a", (where,)) is MISSING
    True
    >>> kept.put("a", (where,), 42)
    42
    >>> kept.get("a", (where,))
    42
    >>> kept.get("a", (object(),)) is MISSING
    True
"""

from __future__ import annotations

from operator import is_
from typing import Any

__all__ = ["Kept", "KeptByValue", "MISSING"]

MISSING: Any = object()
"""What :meth:`Kept.get` gives when no answer is kept for those grounds."""


class Kept:
    """Answers by key, each kept with its grounds and given back while they are the same
    objects (compared with ``is``, in order)."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: dict[Any, tuple[tuple[Any, ...], Any]] = {}
        """Key -> (the grounds, the answer)."""

    def get(self, key: Any, grounds: tuple[Any, ...]) -> Any:
        """The answer kept for ``key`` on these grounds, or :data:`MISSING`."""
        kept = self.entries.get(key)
        if kept is not None:
            old = kept[0]
            if len(old) == len(grounds) and all(map(is_, old, grounds)):
                return kept[1]
        return MISSING

    def put(self, key: Any, grounds: tuple[Any, ...], answer: Any) -> Any:
        """Keep ``answer`` for ``key`` on these grounds (replacing what was kept); returns
        it."""
        self.entries[key] = (grounds, answer)
        return answer


class KeptByValue(Kept):
    """A :class:`Kept` whose grounds are plain values (numbers), compared with ``==``.

    Examples:
        >>> kept = KeptByValue()
        >>> kept.put("unit", (1000, 5), "size")
        'size'
        >>> kept.get("unit", (999 + 1, 5))
        'size'
    """

    __slots__ = ()

    def get(self, key: Any, grounds: tuple[Any, ...]) -> Any:
        """The answer kept for ``key`` on equal grounds, or :data:`MISSING`."""
        kept = self.entries.get(key)
        if kept is not None and kept[0] == grounds:
            return kept[1]
        return MISSING
