"""Expressions of the rules language, and the citation and parameter nodes they sit in."""

from __future__ import annotations

from rules_run import slotted

from rules_run.diagnostics import Span

__all__ = [
    "Cite", "find_source", "Param", "Expr", "Literal", "Name", "DiceLit", "CountedDice", "CellDice",
    "Attribute", "Lookup", "Call", "BinOp", "Compare", "BoolOp", "Not", "Neg", "CondExpr",
    "Has", "IsStatus", "Member", "ListLit", "Comprehension"
]


# ---------------------------------------------------------------- common


@slotted.frozen
class Cite:
    """Where a declaration comes from: seed lines, or a "not in seed: ..." note."""

    span: Span
    source: str | None = None
    """The seed's number (``004``); None for the ruleset's default source."""
    ranges: tuple[str, ...] = ()
    """Line ranges as written: ``L450``, ``L418-L422``."""
    note: str | None = None
    """The text of a quoted citation (``not in seed: standard published value``)."""

    def text(self, sources: tuple[str, ...] = ()) -> str:
        """The citation as a reader sees it: ``000_c43....txt L450`` or the note.

        ``sources`` are the seed files the ruleset declares; the first is the default.
        """
        if self.note is not None:
            return self.note
        file = find_source(self.source, sources)
        prefix = f"{file} " if file else (f"{self.source} " if self.source else "")
        return prefix + ", ".join(self.ranges)


def find_source(number: str | None, sources: tuple[str, ...]) -> str | None:
    """The seed file a citation means: the one named by its number, else the default."""
    if number is None:
        return sources[0] if sources else None
    return next((s for s in sources if s.startswith(number + "_") or s == number), None)


@slotted.frozen
class Param:
    """A declared parameter: ``attacker: unit``, ``n: int = 1``."""

    span: Span
    name: str
    type: str = "any"
    default: Expr | None = None


# ---------------------------------------------------------------- expressions


@slotted.frozen
class Expr:
    """Base of every expression node."""

    span: Span


@slotted.frozen
class Literal(Expr):
    """An int, decimal, string, need (``4+``), bool or none."""

    value: int | float | str | None
    kind: str = "int"
    """One of int, number, text, need, bool, none."""


@slotted.frozen
class Name(Expr):
    """A name: a parameter, a local, an option, a table, a builtin constant."""

    name: str


@slotted.frozen
class DiceLit(Expr):
    """Dice rolled when the expression is evaluated: ``2D6``, ``highest of 2D6``, ``D6x5``."""

    count: int
    sides: int
    times: int = 1
    keep: str | None = None
    """None (sum), ``highest`` or ``lowest``."""
    keep_count: int = 1
    plus: int = 0
    die_name: str | None = None
    """A special die declared with ``die`` (its faces are data), instead of count/sides."""

    def text(self) -> str:
        """Canonical notation."""
        if self.die_name:
            core = self.die_name
        else:
            core = f"{self.count if self.count != 1 else ''}D{self.sides}"
            if self.times != 1:
                core += f"x{self.times}"
            if self.keep:
                k = f"{self.keep_count} " if self.keep_count != 1 else ""
                core = f"{self.keep} {k}of {core}"
        if self.plus:
            core += f"{self.plus:+d}"
        return core


@slotted.frozen
class CountedDice(Expr):
    """A roll's dice counted: a number worked out before rolling (``levels D6``), the faces
    counted (``count 5+ in 3D6``), or both."""

    pool: DiceLit
    """The dice: a plain pool (its count is unused when ``number`` is given)."""
    number: Expr | None = None
    """How many dice, worked out before they are rolled."""
    counting: tuple[int, ...] = ()
    """The faces counted: the value is how many dice show one of them (none: the sum)."""
    plus: int = 0
    adding: tuple[int, ...] = ()
    """The faces that each add a die of :attr:`added` (``each 6 adds D6``; none: no growth)."""
    added: DiceLit | None = None
    """The die each of them adds: one die, a standard or a named one."""


@slotted.frozen
class CellDice(Expr):
    """A roll's dice read from a table's cell typed ``dice`` (``spell_data[s, "hits"]``): the
    cell is looked up before the dice are rolled, from the roll's parameters."""

    lookup: Lookup
    """The cell: a lookup of a declared table."""


@slotted.frozen
class Attribute(Expr):
    """``unit.WS``, ``weapon.Damage``, ``result.critical``."""

    target: Expr
    name: str


@slotted.frozen
class Lookup(Expr):
    """A table lookup: ``to_hit_melee[attacker.WS, target.WS]``."""

    target: Expr
    keys: tuple[Expr, ...]


@slotted.frozen
class Call(Expr):
    """A call of a builtin, a roll, a test, an action or a decision."""

    name: str
    args: tuple[Expr, ...] = ()
    kwargs: tuple[tuple[str, Expr], ...] = ()


@slotted.frozen
class BinOp(Expr):
    """``a + b``, ``a * b``, ``a // b``."""

    op: str
    left: Expr
    right: Expr


@slotted.frozen
class Compare(Expr):
    """``a <= b`` and friends."""

    op: str
    left: Expr
    right: Expr


@slotted.frozen
class BoolOp(Expr):
    """``a and b and c`` / ``a or b``."""

    op: str
    operands: tuple[Expr, ...]


@slotted.frozen
class Not(Expr):
    operand: Expr


@slotted.frozen
class Neg(Expr):
    operand: Expr


@slotted.frozen
class CondExpr(Expr):
    """``if c then a else b``."""

    condition: Expr
    then: Expr
    otherwise: Expr


@slotted.frozen
class Has(Expr):
    """``unit has "Brave"``: the subject carries that rule (or keyword)."""

    subject: Expr
    rule: str


@slotted.frozen
class IsStatus(Expr):
    """``unit is fleeing`` / ``unit is not fleeing``."""

    subject: Expr
    status: str
    negated: bool = False


@slotted.frozen
class Member(Expr):
    """``x in collection``."""

    item: Expr
    collection: Expr


@slotted.frozen
class ListLit(Expr):
    items: tuple[Expr, ...]


@slotted.frozen
class Comprehension(Expr):
    """``[e for each x in items where c ordered by k]``: a list built from another, the
    items kept in the order of ``k`` (then of their place) when it is given."""

    item: Expr
    var: str
    iterable: Expr
    where: Expr | None = None
    order: Expr | None = None
