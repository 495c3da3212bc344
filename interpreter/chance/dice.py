"""Dice expressions (:class:`DiceExpr`): what to roll and how to read it.

``2D6`` (:class:`Pool`), ``highest of 2D6`` (:class:`KeepHighest`), ``D6x5`` (:class:`Times`),
``D3+1`` (:class:`Plus`), ``D3`` (:class:`Halved`), a die read as its face, number or symbol
(:class:`Face`). Every expression names the physical dice it rolls (:meth:`DiceExpr.dice`,
:class:`~rules_run.chance.die.Die`) and reads its value from the faces rolled
(:meth:`DiceExpr.value`), so the same expression can be rolled by any chance source: seeded,
scripted, or exactly enumerated (which branches on the unordered outcomes of
:func:`~rules_run.chance.die.outcomes`: rules must not depend on the order of dice within one
roll).

Instances are immutable and hashable.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar, Final, cast

from rules_run import slotted
from rules_run.chance.die import D6, Die, FaceValue, outcome_counts
from rules_run.chance.dist import Dist, binomial
from rules_run.diagnostics import ChanceError

if TYPE_CHECKING:
    from rules_run.chance.source import Chance

__all__ = [
    "DiceExpr",
    "Pool",
    "KeepHighest",
    "KeepLowest",
    "Times",
    "Plus",
    "Halved",
    "CountFaces",
    "Adding",
    "Constant",
    "Face",
    "D3",
]

_STANDARD_NAME = re.compile(r"D[1-9][0-9]*")


class DiceExpr:
    """A dice expression: which physical dice to roll, and how to read them.

    Subclasses are frozen record classes (:mod:`rules_run.slotted`). Int-valued
    expressions (everything but a :class:`Face` of a symbol die) also have :meth:`bounds`.
    """

    __slots__ = ()

    def dice(self) -> tuple[Die, ...]:
        """The physical dice rolled, in the order :meth:`value` reads their faces."""
        raise NotImplementedError

    def value(self, faces: Sequence[FaceValue]) -> FaceValue:
        """The expression's value given the faces rolled (one per die of :meth:`dice`, then
        one per die :meth:`more` added)."""
        raise NotImplementedError

    def more(self, faces: Sequence[FaceValue]) -> tuple[Die, ...]:
        """The dice the faces of :meth:`dice` add to the roll, rolled after them (none but
        for :class:`Adding`)."""
        return ()

    def text(self) -> str:
        """Canonical notation: ``"2D6"``, ``"highest of 2D6"``, ``"D3+1"``, ..."""
        raise NotImplementedError

    def is_numeric(self) -> bool:
        """True when the value is always an int."""
        return True

    def _int(self, faces: Sequence[FaceValue]) -> int:
        """:meth:`value` of an int-valued expression (checked when it was built)."""
        return cast(int, self.value(faces))

    def bounds(self) -> tuple[int, int]:
        """The smallest and largest value, for int-valued expressions."""
        raise NotImplementedError

    def exact(self) -> Dist[FaceValue]:
        """The exact distribution of the value (computed afresh each call; cache it if hot)."""
        weights: dict[FaceValue, int] = {}
        rolls, _ = outcome_counts(self.dice())
        for faces, count in rolls:
            v = self.value(faces)
            weights[v] = weights.get(v, 0) + count
        return Dist._from_int_weights(weights)

    def roll(self, chance: Chance, tag: str) -> FaceValue:
        """Roll the expression's dice with ``chance`` (one roll named ``tag``) and read it.

        Examples:
            >>> from rules_run.chance.source import ScriptedChance
            >>> D3.roll(ScriptedChance([5]), "damage")
            3
        """
        faces = chance.roll(self.dice(), tag)
        added = self.more(faces)
        return self.value(faces + chance.roll(added, tag) if added else faces)

    def __str__(self) -> str:
        return self.text()

    def _operand_text(self) -> str:
        """The text, parenthesised when it is an operand of ``+`` or ``x``."""
        return self.text()


def _check_numeric(expr: DiceExpr, what: str) -> None:
    if not isinstance(expr, DiceExpr):
        raise ChanceError(f"{what} needs a dice expression, got {expr!r}")
    if not expr.is_numeric():
        raise ChanceError(
            f"{what} needs a number, but {expr.text()!r} can roll a symbol; "
            "read a symbol die with Face(...) and test its face instead"
        )


def _check_int(value: object, what: str, minimum: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ChanceError(f"{what} must be a whole number, got {value!r}")
    if minimum is not None and value < minimum:
        raise ChanceError(f"{what} must be at least {minimum}, got {value!r}")


@slotted.frozen(repr=False)
class Pool(DiceExpr):
    """Roll ``count`` dice and add them up: ``2D6``.

    Examples:
        >>> Pool(2, D6).text()
        '2D6'
        >>> Pool(2, D6).exact().probability(7)
        Fraction(1, 6)
        >>> Pool(1, Die((1, 2, "blank"), "blank die"))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rules_run.diagnostics.ChanceError: error: a pool adds up its dice, ... 'blank die'))
    """

    count: int
    """How many dice (0 rolls nothing and is worth 0)."""
    die: Die
    """Which die; its faces must all be numbers."""
    _dice: tuple[Die, ...] = slotted.slot(init=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        _check_int(self.count, "the number of dice", 0)
        if not isinstance(self.die, Die):
            raise ChanceError(f"a pool needs a Die, got {self.die!r}")
        if not self.die.numeric:
            symbol = next(f for f in self.die.distinct if isinstance(f, str))
            raise ChanceError(
                f"a pool adds up its dice, but {self.die.name!r} has the symbol face {symbol!r}; "
                f"roll it as Face({self.die!r})"
            )
        object.__setattr__(self, "_dice", (self.die,) * self.count)

    def dice(self) -> tuple[Die, ...]:
        return self._dice

    def value(self, faces: Sequence[FaceValue]) -> int:
        if len(faces) != self.count:
            raise ValueError(f"{self.text()} reads {self.count} faces, got {len(faces)}")
        return sum(cast(Sequence[int], faces))

    def text(self) -> str:
        name = self.die.name
        if _STANDARD_NAME.fullmatch(name):
            return name if self.count == 1 else f"{self.count}{name}"
        return name if self.count == 1 else f"{self.count} {name}"

    def bounds(self) -> tuple[int, int]:
        faces: list[int] = list(self.die.distinct)  # type: ignore[arg-type]
        return self.count * min(faces), self.count * max(faces)

    def exact(self) -> Dist[FaceValue]:
        return self.die.dist().repeat_sum(self.count)

    def __repr__(self) -> str:
        return f"Pool({self.count!r}, {self.die!r})"


_ONE_D6: Final = Pool(1, D6)


def _check_keep(keep: int, pool: Pool, what: str) -> None:
    if not isinstance(pool, Pool):
        raise ChanceError(f"{what} needs a pool of dice such as Pool(2, D6), got {pool!r}")
    _check_int(keep, f"the number of dice to keep in {what}", 1)
    if keep > pool.count:
        raise ChanceError(f"cannot keep {keep} dice of {pool.text()!r}")


@slotted.frozen(repr=False)
class _Keeping(DiceExpr):
    """Roll a pool and add up ``keep`` of its dice: the highest or the lowest (a subclass
    says which, by its :attr:`WORD` and the dice it keeps of the sorted faces)."""

    keep: int
    """How many dice count (1 or more, at most the pool's size)."""
    pool: Pool
    """The dice rolled."""

    WORD: ClassVar[str]
    """``highest`` or ``lowest``, as the expression is written."""

    def __attrs_post_init__(self) -> None:
        _check_keep(self.keep, self.pool, f"keep {self.WORD}")

    def _kept(self, ordered: list[int]) -> list[int]:
        raise NotImplementedError

    def dice(self) -> tuple[Die, ...]:
        return self.pool._dice

    def value(self, faces: Sequence[FaceValue]) -> int:
        if len(faces) != self.pool.count:
            raise ValueError(f"{self.text()} reads {self.pool.count} faces, got {len(faces)}")
        return sum(self._kept(cast(list[int], sorted(faces))))

    def text(self) -> str:
        which = self.WORD if self.keep == 1 else f"{self.WORD} {self.keep}"
        return f"{which} of {self.pool.text()}"

    def _operand_text(self) -> str:
        return f"({self.text()})"

    def bounds(self) -> tuple[int, int]:
        lo, hi = self.pool.bounds()
        n = self.pool.count
        return lo // n * self.keep, hi // n * self.keep

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.keep!r}, {self.pool!r})"


@slotted.frozen(repr=False)
class KeepHighest(_Keeping):
    """Roll a pool and add up its ``keep`` highest dice: ``highest of 2D6``.

    Examples:
        >>> KeepHighest(1, Pool(2, D6)).text()
        'highest of 2D6'
        >>> KeepHighest(1, Pool(2, D6)).exact().probability(6)
        Fraction(11, 36)
    """

    WORD = "highest"

    def _kept(self, ordered: list[int]) -> list[int]:
        return ordered[-self.keep:]


@slotted.frozen(repr=False)
class KeepLowest(_Keeping):
    """Roll a pool and add up its ``keep`` lowest dice: ``lowest 2 of 3D6``.

    Examples:
        >>> KeepLowest(2, Pool(3, D6)).text()
        'lowest 2 of 3D6'
        >>> KeepLowest(1, Pool(2, D6)).exact().probability(1)
        Fraction(11, 36)
    """

    WORD = "lowest"

    def _kept(self, ordered: list[int]) -> list[int]:
        return ordered[:self.keep]


@slotted.frozen(repr=False)
class Times(DiceExpr):
    """An expression multiplied by a whole number: ``D6x5``.

    Examples:
        >>> Times(Pool(1, D6), 5).text()
        'D6x5'
        >>> Times(Pool(1, D6), 5).exact().support()
        (5, 10, 15, 20, 25, 30)
    """

    expr: DiceExpr
    """The int-valued expression multiplied."""
    factor: int
    """The multiplier."""

    def __attrs_post_init__(self) -> None:
        _check_numeric(self.expr, "multiplying")
        _check_int(self.factor, "a multiplier")

    def dice(self) -> tuple[Die, ...]:
        return self.expr.dice()

    def value(self, faces: Sequence[FaceValue]) -> int:
        return self.expr._int(faces) * self.factor

    def text(self) -> str:
        return f"{self.expr._operand_text()}x{self.factor}"

    def bounds(self) -> tuple[int, int]:
        lo, hi = self.expr.bounds()
        a, b = lo * self.factor, hi * self.factor
        return min(a, b), max(a, b)

    def exact(self) -> Dist[FaceValue]:
        factor = self.factor
        return self.expr.exact().map(lambda v: cast(int, v) * factor)

    def __repr__(self) -> str:
        return f"Times({self.expr!r}, {self.factor!r})"


@slotted.frozen(repr=False)
class Plus(DiceExpr):
    """An expression plus a whole number (which may be negative): ``D3+1``, ``D6-1``.

    Examples:
        >>> Plus(D3, 1).text()
        'D3+1'
        >>> Plus(Pool(1, D6), -1).bounds()
        (0, 5)
    """

    expr: DiceExpr
    """The int-valued expression."""
    constant: int
    """Added to its value."""

    def __attrs_post_init__(self) -> None:
        _check_numeric(self.expr, "adding")
        _check_int(self.constant, "a modifier")

    def dice(self) -> tuple[Die, ...]:
        return self.expr.dice()

    def value(self, faces: Sequence[FaceValue]) -> int:
        return self.expr._int(faces) + self.constant

    def text(self) -> str:
        sign = "-" if self.constant < 0 else "+"
        return f"{self.expr._operand_text()}{sign}{abs(self.constant)}"

    def _operand_text(self) -> str:
        return f"({self.text()})"

    def bounds(self) -> tuple[int, int]:
        lo, hi = self.expr.bounds()
        return lo + self.constant, hi + self.constant

    def exact(self) -> Dist[FaceValue]:
        constant = self.constant
        return self.expr.exact().map(lambda v: cast(int, v) + constant)

    def __repr__(self) -> str:
        return f"Plus({self.expr!r}, {self.constant!r})"


@slotted.frozen(repr=False)
class CountFaces(DiceExpr):
    """How many dice of a pool show one of some faces: ``count 6 in 3D6``, ``count 5+ in 4D6``.

    Its exact distribution is binomial: it depends on how many dice show a counted face, not on
    their order nor on which of the other faces they show.

    Examples:
        >>> CountFaces(Pool(3, D6), (5, 6)).text()
        'count 5+ in 3D6'
        >>> CountFaces(Pool(2, D6), (6,)).exact().probability(1)
        Fraction(5, 18)
        >>> CountFaces(Pool(2, D6), (7,))
        Traceback (most recent call last):
        ...
        rules_run.diagnostics.ChanceError: error: a D6 has no face 7 to count
    """

    pool: Pool
    """The dice rolled."""
    faces: tuple[int, ...]
    """The faces that count, in increasing order."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.pool, Pool):
            raise ChanceError(f"counting faces needs a pool of dice, got {self.pool!r}")
        _check_faces(self.pool.die, self.faces, "counting faces", "to count")

    def dice(self) -> tuple[Die, ...]:
        return self.pool.dice()

    def value(self, faces: Sequence[FaceValue]) -> int:
        counted = self.faces
        return sum(1 for f in faces if f in counted)

    def text(self) -> str:
        return f"count {_faces_text(self.pool.die, self.faces)} in {self.pool.text()}"

    def _operand_text(self) -> str:
        return f"({self.text()})"

    def bounds(self) -> tuple[int, int]:
        return 0, self.pool.count

    def exact(self) -> Dist[FaceValue]:
        die = self.pool.die
        hits = sum(c for f, c in zip(die.distinct, die.counts) if f in self.faces)
        return binomial(self.pool.count, Fraction(hits, len(die.faces)))

    def __repr__(self) -> str:
        return f"CountFaces({self.pool!r}, {self.faces!r})"


def _faces_text(die: Die, faces: tuple[int, ...]) -> str:
    """Faces as written: ``6``, ``5, 6``, or ``5+`` for a face and every higher one."""
    top = max(cast(Sequence[int], die.distinct))
    lowest = faces[0]
    if len(faces) > 1 and faces == tuple(range(lowest, top + 1)):
        return f"{lowest}+"
    return ", ".join(str(f) for f in faces)


def _check_faces(die: Die, faces: tuple[int, ...], doing: str, to: str) -> None:
    """Refuse no faces, or a face ``die`` lacks (``to``: what the faces are for)."""
    if not faces:
        raise ChanceError(f"{doing} needs at least one face {to}")
    for face in faces:
        if face not in die.face_set:
            raise ChanceError(f"a {die.name} has no face {face!r} {to}")


@slotted.frozen(repr=False)
class Adding(DiceExpr):
    """A pool that grows: each of its dice showing one of some faces adds a die (of another
    kind, or the same), rolled after the pool; the added dice add none. The value is every
    die added up: ``2D6 each 6 adds D6``.

    Its exact distribution mixes, over the pool's outcomes, the pool's total plus the sum of
    as many added dice as it shows those faces.

    Examples:
        >>> grows = Adding(Pool(2, D6), (6,), D6)
        >>> grows.text(), grows.bounds()
        ('2D6 each 6 adds D6', (2, 24))
        >>> grows.more((6, 3)), grows.value((6, 3, 4))
        ((D6,), 13)
        >>> grows.exact().probability(24)
        Fraction(1, 1296)
    """

    pool: Pool
    """The dice rolled first."""
    faces: tuple[int, ...]
    """The faces of the pool's dice that each add a die, in increasing order."""
    added: Die
    """The die each of them adds; its faces must be numbers."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.pool, Pool):
            raise ChanceError(f"a growing pool needs a pool of dice, got {self.pool!r}")
        _check_faces(self.pool.die, self.faces, "a growing pool", "to add dice on")
        if not isinstance(self.added, Die) or not self.added.numeric:
            raise ChanceError(f"the dice a pool adds are added up: {self.added!r} has a "
                              "symbol face")

    def dice(self) -> tuple[Die, ...]:
        return self.pool.dice()

    def more(self, faces: Sequence[FaceValue]) -> tuple[Die, ...]:
        adding = self.faces
        return (self.added,) * sum(1 for f in faces[:self.pool.count] if f in adding)

    def value(self, faces: Sequence[FaceValue]) -> int:
        return sum(cast(Sequence[int], faces))

    def text(self) -> str:
        name = self.added.name
        return f"{self.pool.text()} each {_faces_text(self.pool.die, self.faces)} adds {name}"

    def _operand_text(self) -> str:
        return f"({self.text()})"

    def bounds(self) -> tuple[int, int]:
        lo, hi = self.pool.bounds()
        top = max(cast(Sequence[int], self.added.distinct))
        return lo, hi + self.pool.count * top

    def exact(self) -> Dist[FaceValue]:
        weights: dict[FaceValue, int] = {}
        rolls, total = outcome_counts(self.pool.dice())
        sides = len(self.added.faces)
        most = self.pool.count
        scale = sides ** most   # every outcome weighed over the most dice it can add
        sums = [self.added.dist().repeat_sum(k) for k in range(most + 1)]
        for faces, count in rolls:
            k = len(self.more(faces))
            base = sum(cast(Sequence[int], faces))
            for extra, p in sums[k].items():
                w = count * scale * p
                assert w.denominator == 1
                key = base + cast(int, extra)
                weights[key] = weights.get(key, 0) + int(w)
        return Dist._from_int_weights(weights)

    def __repr__(self) -> str:
        return f"Adding({self.pool!r}, {self.faces!r}, {self.added!r})"


def _half_up(v: int) -> int:
    return -(-v // 2)


@slotted.frozen(repr=False)
class Halved(DiceExpr):
    """An expression halved, rounding up: ``D3`` is a D6 halved (1-2 → 1, 3-4 → 2, 5-6 → 3).

    Examples:
        >>> D3.text(), Halved(Pool(2, D6)).text()
        ('D3', 'half of 2D6')
        >>> D3.exact()
        Dist.from_weights({1: 1, 2: 1, 3: 1})
    """

    expr: DiceExpr
    """The int-valued expression halved."""

    def __attrs_post_init__(self) -> None:
        _check_numeric(self.expr, "halving")

    def dice(self) -> tuple[Die, ...]:
        return self.expr.dice()

    def value(self, faces: Sequence[FaceValue]) -> int:
        return -(-self.expr._int(faces) // 2)

    def text(self) -> str:
        if self.expr == _ONE_D6:
            return "D3"
        return f"half of {self.expr._operand_text()}"

    def _operand_text(self) -> str:
        text = self.text()
        return text if text == "D3" else f"({text})"

    def bounds(self) -> tuple[int, int]:
        lo, hi = self.expr.bounds()
        return _half_up(lo), _half_up(hi)

    def exact(self) -> Dist[FaceValue]:
        return self.expr.exact().map(lambda v: _half_up(cast(int, v)))

    def __repr__(self) -> str:
        return f"Halved({self.expr!r})"


@slotted.frozen(repr=False)
class Constant(DiceExpr):
    """A fixed number, rolling no dice (a profile's "Damage 2" written as an expression).

    Examples:
        >>> Constant(2).exact()
        Dist.from_weights({2: 1})
    """

    number: int
    """The value."""

    def __attrs_post_init__(self) -> None:
        _check_int(self.number, "a constant")

    def dice(self) -> tuple[Die, ...]:
        return ()

    def value(self, faces: Sequence[FaceValue]) -> int:
        return self.number

    def text(self) -> str:
        return str(self.number)

    def bounds(self) -> tuple[int, int]:
        return self.number, self.number

    def exact(self) -> Dist[FaceValue]:
        return Dist.certain(self.number)

    def __repr__(self) -> str:
        return f"Constant({self.number!r})"


@slotted.frozen(repr=False)
class Face(DiceExpr):
    """One die read as the face it shows, number or symbol: a ruleset's special die.

    Examples:
        >>> blank = Die((2, 4, 6, 8, 10, "blank"), "blank die")
        >>> Face(blank).text()
        'blank die'
        >>> Face(blank).exact().probability("blank")
        Fraction(1, 6)
    """

    die: Die
    """The die rolled."""
    _dice: tuple[Die, ...] = slotted.slot(init=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.die, Die):
            raise ChanceError(f"Face needs a Die, got {self.die!r}")
        object.__setattr__(self, "_dice", (self.die,))

    def dice(self) -> tuple[Die, ...]:
        return self._dice

    def value(self, faces: Sequence[FaceValue]) -> FaceValue:
        if len(faces) != 1:
            raise ValueError(f"{self.text()} reads 1 face, got {len(faces)}")
        return faces[0]

    def is_numeric(self) -> bool:
        return self.die.numeric

    def text(self) -> str:
        return self.die.name

    def bounds(self) -> tuple[int, int]:
        if not self.die.numeric:
            raise ChanceError(f"{self.die.name!r} has symbol faces, so it has no numeric bounds")
        faces: list[int] = list(self.die.distinct)  # type: ignore[arg-type]
        return min(faces), max(faces)

    def exact(self) -> Dist[FaceValue]:
        return self.die.dist()

    def __repr__(self) -> str:
        return f"Face({self.die!r})"


D3: Final = Halved(Pool(1, D6))
"""A D6 halved, rounding up: 1-2 → 1, 3-4 → 2, 5-6 → 3."""
