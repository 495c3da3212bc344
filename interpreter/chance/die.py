"""Physical dice: :class:`Die` (its faces are data), :data:`D6`, and a roll's outcomes.

A :class:`Die` is a physical die whose faces are data: numbers (``D6``) or symbols (a
ruleset's ``die`` declaration gives them: a die with a ``'blank'`` face, say). A face printed
on several sides is that much more likely. The kernel names only the numbered dice; every
special die is a ruleset's data.

**Rules must not depend on the order of dice within one roll.** Exact enumeration branches on
the distinct *multisets* of faces (:func:`outcomes`: 21 outcomes for 2D6, not 36) and hands them
over sorted, while sampled rolls keep the order the dice fell in. Roll dice separately (two
``roll`` calls) when their order matters, e.g. a "first die" and a "second die".

Instances are immutable and hashable.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Final

from rules_run import slotted
from rules_run.chance.dist import Dist
from rules_run.diagnostics import ChanceError

__all__ = ["FaceValue", "Die", "D6", "outcomes", "ordered_outcomes", "outcome_counts"]

FaceValue = int | str
"""What one face of a die shows: a number or a symbol."""


def _is_face(value: object) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _to_faces(faces: Iterable[FaceValue]) -> tuple[FaceValue, ...]:
    return tuple(faces)


@slotted.frozen(repr=False)
class Die:
    """A physical die: its faces, in order, and its name.

    Examples:
        >>> D6.dist().probability(6)
        Fraction(1, 6)
        >>> Die(("up", "up", "down"), "lopsided coin").dist().probability("up")
        Fraction(2, 3)
        >>> Die((1, 2), "")
        Traceback (most recent call last):
        ...
        rules_run.diagnostics.ChanceError: error: a die needs a name, got ''
    """

    faces: tuple[FaceValue, ...] = slotted.slot(converter=_to_faces)
    """Every face, one per side; a face printed twice is twice as likely."""
    name: str
    """How rules and logs call it: ``"D6"``, or a ruleset's die's name."""

    distinct: tuple[FaceValue, ...] = slotted.slot(init=False, eq=False, hash=False)
    """The distinct faces, in order of first appearance (the canonical order of a roll)."""
    counts: tuple[int, ...] = slotted.slot(init=False, eq=False, hash=False)
    """How many sides show each face of :attr:`distinct`."""
    face_set: frozenset[FaceValue] = slotted.slot(init=False, eq=False, hash=False)
    """The faces as a set, for quick validation."""
    numeric: bool = slotted.slot(init=False, eq=False, hash=False)
    """True when every face is a number (the die can be summed)."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ChanceError(f"a die needs a name, got {self.name!r}")
        if not self.faces:
            raise ChanceError(f"die {self.name!r} has no faces")
        for face in self.faces:
            if not _is_face(face):
                raise ChanceError(
                    f"die {self.name!r} has face {face!r}; a face is a whole number or a symbol"
                )
        tally: dict[FaceValue, int] = {}
        for face in self.faces:
            tally[face] = tally.get(face, 0) + 1
        object.__setattr__(self, "distinct", tuple(tally))
        object.__setattr__(self, "counts", tuple(tally.values()))
        object.__setattr__(self, "face_set", frozenset(tally))
        object.__setattr__(self, "numeric", all(isinstance(f, int) for f in tally))

    @classmethod
    def standard(cls, sides: int) -> Die:
        """The die numbered 1 to ``sides``, named ``"D<sides>"``.

        Examples:
            >>> Die.standard(6) == D6
            True
        """
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
            raise ChanceError(f"a die needs at least one side, got {sides!r}")
        return cls(tuple(range(1, sides + 1)), f"D{sides}")

    def dist(self) -> Dist[FaceValue]:
        """The distribution of the face rolled."""
        return Dist.uniform(self.faces)

    def text(self) -> str:
        """The die's name."""
        return self.name

    def __repr__(self) -> str:
        for constant, const_name in _NAMED_DICE:
            if self == constant:
                return const_name
        sides = len(self.faces)
        if self.name == f"D{sides}" and self.faces == tuple(range(1, sides + 1)):
            return f"Die.standard({sides})"
        return f"Die({self.faces!r}, {self.name!r})"


D6: Final = Die((1, 2, 3, 4, 5, 6), "D6")
"""The ordinary six-sided die."""

_NAMED_DICE: tuple[tuple[Die, str], ...] = ((D6, "D6"),)


# -- enumerating rolls ---------------------------------------------------------------------------

RollCounts = tuple[list[tuple[tuple[FaceValue, ...], int]], int]
"""Distinct rolls with int counts, and the total count they share."""


def _die_multisets(die: Die, m: int) -> list[tuple[tuple[FaceValue, ...], int]]:
    """The distinct multisets of ``m`` rolls of ``die``, faces in canonical order, with counts."""
    distinct, counts = die.distinct, die.counts
    if m == 1:
        return [((f,), c) for f, c in zip(distinct, counts)]
    m_fact = math.factorial(m)
    out: list[tuple[tuple[FaceValue, ...], int]] = []
    for picks in itertools.combinations_with_replacement(range(len(distinct)), m):
        ways = m_fact
        for j, run in itertools.groupby(picks):
            k = len(list(run))
            ways = ways // math.factorial(k) * counts[j] ** k
        out.append((tuple(distinct[j] for j in picks), ways))
    return out


def outcome_counts(dice: tuple[Die, ...]) -> RollCounts:
    """The distinct unordered rolls of ``dice`` with int counts over a shared total.

    Identical dice are grouped; the faces of each group come back sorted in the die's canonical
    face order, at the positions the group's dice hold in ``dice``.
    """
    total = 1
    for d in dice:
        total *= len(d.faces)
    if len(dice) <= 1:
        if not dice:
            return [((), 1)], 1
        die = dice[0]
        return [((f,), c) for f, c in zip(die.distinct, die.counts)], total
    positions: dict[Die, list[int]] = {}
    for i, d in enumerate(dice):
        positions.setdefault(d, []).append(i)
    if len(positions) == 1:
        ((die, where),) = positions.items()
        return _die_multisets(die, len(where)), total
    groups = [(where, _die_multisets(die, len(where))) for die, where in positions.items()]
    out: list[tuple[tuple[FaceValue, ...], int]] = []
    slots: list[FaceValue] = [0] * len(dice)
    for combo in itertools.product(*(g for _, g in groups)):
        weight = 1
        for (where, _), (faces, count) in zip(groups, combo):
            weight *= count
            for i, f in zip(where, faces):
                slots[i] = f
        out.append((tuple(slots), weight))
    return out, total


def outcomes(dice: Sequence[Die]) -> list[tuple[tuple[FaceValue, ...], Fraction]]:
    """The distinct results of rolling ``dice`` together when the order of the dice is ignored.

    Identical dice are interchangeable: their faces come back sorted (in the die's face order)
    and weighted by the multinomial count, so 2D6 has 21 outcomes rather than 36. Different
    dice keep their positions. Exact enumeration branches on these; see the module docstring
    for why rules must not depend on the order of dice within one roll.

    Examples:
        >>> rolls = outcomes((D6, D6))
        >>> len(rolls), rolls[0], rolls[1]
        (21, ((1, 1), Fraction(1, 36)), ((1, 2), Fraction(1, 18)))
        >>> outcomes((Die(("up", "up", "down"), "lopsided coin"),))
        [(('up',), Fraction(2, 3)), (('down',), Fraction(1, 3))]
    """
    rolls, total = outcome_counts(tuple(dice))
    return [(faces, Fraction(count, total)) for faces, count in rolls]


def ordered_outcomes(dice: Sequence[Die]) -> list[tuple[tuple[FaceValue, ...], Fraction]]:
    """Every result of rolling ``dice`` in order (die by die), with its probability.

    Use it only when the order of the dice matters; :func:`outcomes` is smaller.

    Examples:
        >>> len(ordered_outcomes((D6, D6)))
        36
    """
    total = 1
    for d in dice:
        total *= len(d.faces)
    per_die = [list(zip(d.distinct, d.counts)) for d in dice]
    out: list[tuple[tuple[FaceValue, ...], Fraction]] = []
    for combo in itertools.product(*per_die):
        weight = 1
        for _, c in combo:
            weight *= c
        out.append((tuple(f for f, _ in combo), Fraction(weight, total)))
    return out
