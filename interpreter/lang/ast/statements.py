"""Statements of the rules language: the bodies of actions, phases and the battle."""

from __future__ import annotations

from rules_run import slotted

from rules_run.diagnostics import Span
from rules_run.lang.ast.expressions import Attribute, Call, Expr, Name

__all__ = [
    "Stmt", "Let", "Assign", "CallStmt", "Return", "Log", "Pass", "Stop", "If", "ForEach",
    "While", "Activate", "DuringItem", "During"
]


# ---------------------------------------------------------------- statements


@slotted.frozen
class Stmt:
    span: Span


@slotted.frozen
class Let(Stmt):
    name: str
    value: Expr


@slotted.frozen
class Assign(Stmt):
    """``x = e``, ``x += e``, ``unit.flag = e``."""

    target: Name | Attribute
    op: str
    value: Expr


@slotted.frozen
class CallStmt(Stmt):
    call: Call


@slotted.frozen
class Return(Stmt):
    value: Expr | None


@slotted.frozen
class Log(Stmt):
    message: str
    args: tuple[Expr, ...]


@slotted.frozen
class Pass(Stmt):
    pass


@slotted.frozen
class Stop(Stmt):
    """Stop the battle with a message (a situation the rules do not cover)."""

    message: str


@slotted.frozen
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...] = ()


@slotted.frozen
class ForEach(Stmt):
    var: str
    iterable: Expr
    where: Expr | None
    order: Expr | None
    body: tuple[Stmt, ...]
    keep_going: Expr | None = None
    """``while C``: read again before each item (after ``where`` and ``ordered by`` picked
    the items); the loop ends at the first item for which it does not hold."""


@slotted.frozen
class While(Stmt):
    condition: Expr
    body: tuple[Stmt, ...]


@slotted.frozen
class Activate(Stmt):
    """Units act one at a time: ``activate u in units alternately starting with s: ...``."""

    var: str
    units: Expr
    order: str
    """``alternately`` (sides take turns picking) or ``by side`` (one side, then the other)."""
    start: Expr
    picker: str | None
    """The decision that picks the next unit; None picks in listed order."""
    body: tuple[Stmt, ...]
    where: Expr | None = None
    """``where C``: a unit is handed out only while ``C`` holds for it (checked at each pick)."""


@slotted.frozen
class DuringItem:
    """One status a ``during`` block gives: ``STATUS on THING [if COND]``."""

    span: Span
    status: Name | Call
    """The status, by name or with the arguments it is given (``hexed(2)``)."""
    thing: Expr
    """Who has it: a unit, a weapon, a part or a group."""
    condition: Expr | None = None
    """``if COND``: given only when this holds as the block starts."""


@slotted.frozen
class During(Stmt):
    """``during STATUS on THING [if COND], ...: BODY``: each status is given (as ``apply``
    gives it) when the block starts, in order, and cleared, in the reverse order, however the
    block ends; a thing that already has the status keeps it as it was. The body is not a
    scope of its own (it always runs once): a ``let`` in it is a name after it."""

    items: tuple[DuringItem, ...]
    body: tuple[Stmt, ...]
