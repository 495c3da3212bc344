"""The operators of the rules' expressions that the generated code calls as functions:
arithmetic on anything but two whole numbers, table lookups and ``ordered by``, each
raising located errors."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from rules_run.lang import ast
from rules_run.runtime.env import fail, show

__all__ = ["binop_function", "lookup_function", "ordered_function", "table_lookup_function"]


def _divide(a: Any, b: Any) -> Any:
    # "/" in the rules divides and rounds up (000 L9: any division rounds up)
    return -((-a) // b)


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "/": _divide,
}


def binop_function(e: ast.BinOp) -> Callable[[Any, Any], Any]:
    """``a <op> b`` for the operator of ``e``: none if either side is none, errors located."""
    op = _BINOPS[e.op]
    numbers_only = e.op != "+"   # "+" also joins texts and lists; the rest take numbers

    def binop(a, b):
        if a is None or b is None:
            return None
        if numbers_only and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            raise fail(f"cannot compute {show(a)!r} {e.op} {show(b)!r}", e.span,
                        "bad-operands")
        try:
            return op(a, b)
        except ZeroDivisionError:
            raise fail(f"division by zero in {e.op!r}", e.span, "division-by-zero") from None
        except TypeError:
            raise fail(f"cannot compute {show(a)!r} {e.op} {show(b)!r}", e.span,
                        "bad-operands") from None
    return binop


def lookup_function(e: ast.Lookup) -> Callable[[Any, tuple], Any]:
    """``table[key...]`` (or ``list[index]``): none for a none key or an index out of range."""

    def lookup(table, key):
        if isinstance(table, list):
            index = key[0]
            return table[index] if -len(table) <= index < len(table) else None
        if None in key:
            return None
        try:
            return table.lookup(*key)
        except KeyError as err:
            raise fail(getattr(err, "message", None) or
                        f"table {table.name!r} has no cell {list(key)}", e.span,
                        "table-key") from None
    return lookup


def table_lookup_function(e: ast.Lookup, table: Any) -> Callable[[tuple], Any]:
    """``table[key...]`` for a table known when the code is written: a cell found at once,
    anything else (a none key, a key the table does not list, a bool) as
    :func:`lookup_function` has it."""
    cells = table.cells
    generic = lookup_function(e)
    absent = object()

    def lookup(key):
        cell = cells.get(key, absent)
        if cell is absent:
            return generic(table, key)
        for k in key:   # a bool finds the cell of 0 or 1: the generic lookup refuses it
            if type(k) is bool:
                return generic(table, key)
        return cell
    return lookup


def ordered_function(order: ast.Expr) -> Callable[[list[tuple[Any, int, Any]]], list[Any]]:
    """The items of ``for each ... ordered by`` as ``(key, index, item)`` sorted by key, then
    by their place; keys that cannot be compared (none, a text and a number) are a located
    error."""

    def ordered(keyed: list[tuple[Any, int, Any]]) -> list[Any]:
        try:
            return [k[2] for k in sorted(keyed, key=lambda k: (k[0], k[1]))]
        except TypeError:
            keys = sorted({"none" if k[0] is None else repr(k[0]) for k in keyed})
            raise fail(f"'ordered by' gave values that cannot be put in order: "
                       f"{', '.join(keys)}", order.span, "bad-operands") from None
    return ordered
