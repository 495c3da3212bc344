"""The hand-written callbacks of statements and expressions.

Each does more than copy its children: an ``if`` gathers its branches, a bare name assigned
to becomes a name node, a negated number literal becomes a negative literal.
"""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.tree import Meta

from rules_run.lang import ast
from rules_run.lang.builder.core import AstBuilder, Callback, Part

__all__ = ["CALLBACKS"]


# ---------------------------------------------------------------- statements
def _target(b: AstBuilder, target: Any) -> ast.Name | ast.Attribute:
    """An assignment's target: a bare NAME token as a name node."""
    return ast.Name(b.tspan(target), str(target)) if isinstance(target, Token) else target


def attr_target(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Attribute:
    return ast.Attribute(b.span(meta), _target(b, c[0]), str(c[1]))


def assign_stmt(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Assign:
    return ast.Assign(b.span(meta), _target(b, c[0]), str(c[1]), c[2])


def if_stmt(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.If:
    branches = [(c[0], b.body(c[1:2]))]
    otherwise: tuple[ast.Stmt, ...] = ()
    for x in c[2:]:
        if isinstance(x, Part) and x.tag == "branch":
            branches.append(x.value)
        elif isinstance(x, Part) and x.tag == "else":
            otherwise = x.value
    return ast.If(b.span(meta), tuple(branches), otherwise)


def for_stmt(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.ForEach:
    return ast.ForEach(b.span(meta), str(c[0]), c[1], b.part(c, "where"),
                       b.part(c, "order_by"), b.body(c[2:]), b.part(c, "while"))


def activate_stmt(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Activate:
    exprs = [x for x in c[2:] if isinstance(x, ast.Expr)]
    picker = next((str(x) for x in c[2:] if isinstance(x, Token) and x.type == "NAME"), None)
    return ast.Activate(b.span(meta), str(c[0]), c[1], b.part(c, "order"), exprs[0], picker,
                        b.body(c[2:]), b.part(c, "where"))


def during_item(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DuringItem:
    status = ast.Name(b.tspan(c[0]), str(c[0])) if isinstance(c[0], Token) else c[0]
    return ast.DuringItem(b.span(meta), status, c[1], c[2] if len(c) > 2 else None)


def during_stmt(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.During:
    return ast.During(b.span(meta), tuple(b.pick(c, ast.DuringItem)), b.body(c))


# ---------------------------------------------------------------- expressions
def call(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Call:
    args = tuple(x for x in c[1:] if isinstance(x, ast.Expr))
    return ast.Call(b.span(meta), str(c[0]), args, tuple(b.parts(c[1:], "keyword")))


def neg(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Expr:
    operand = c[0]
    if (isinstance(operand, ast.Literal) and operand.kind in ("int", "number")
            and isinstance(operand.value, (int, float))):
        return ast.Literal(b.span(meta), -operand.value, operand.kind)
    return ast.Neg(b.span(meta), operand)


CALLBACKS: dict[str, Callback] = {
    "attr_target": attr_target,
    "assign_stmt": assign_stmt,
    "if_stmt": if_stmt,
    "for_stmt": for_stmt,
    "activate_stmt": activate_stmt,
    "during_item": during_item,
    "during_stmt": during_stmt,
    "call": call,
    "neg": neg,
}
"""The hand-written rule, statement and expression callbacks, by grammar rule."""
