"""Check statements: the bodies of actions, phases, triggers and the battle, with the locals
they declare and the names they give new values."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rules_run import slotted

from rules_run.diagnostics import did_you_mean
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.check_context import Scope, param_types, reassigned
from rules_run.lang.check_expressions import operand_hint

if TYPE_CHECKING:
    from rules_run.lang.check_context import Context

__all__ = ["StatementChecker"]


class StatementChecker:
    """Checks parameter lists, bodies and statements."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def param_scope(self, params: tuple[ast.Param, ...]) -> Scope:
        seen: set[str] = set()
        for p in params:
            if p.name in seen:
                self.ctx.error(f"parameter {p.name!r} is declared twice", p.span, "duplicate-param")
            seen.add(p.name)
            self.ctx.exprs.expect(p.default, self.ctx.globals, p.type, f"the default of {p.name!r}")
        return self.ctx.globals.child(param_types(params))

    def body(self, body: tuple[ast.Stmt, ...], scope: Scope) -> None:
        """A whole body (an action's, a trigger's, a part of the battle): a name it gives a
        new value is of no known type, parameters included."""
        outer = self.ctx.reassigned
        self.ctx.reassigned = reassigned(body)
        scope = scope.child({n: ty.ANY for n in self.ctx.reassigned if scope.has(n)})
        self.block(body, scope)
        self.ctx.reassigned = outer

    def block(self, body: tuple[ast.Stmt, ...], scope: Scope) -> None:
        scope = scope.child()
        for stmt in body:
            self.stmt(stmt, scope)

    def stmt(self, s: ast.Stmt, scope: Scope) -> None:
        if isinstance(s, ast.Let):
            t = self.ctx.exprs.expr(s.value, scope)
            shadowed = self.ctx.decls.get(s.name)
            if shadowed is not None and not isinstance(shadowed, ast.CharacteristicDecl):
                where = f"{Path(shadowed.span.path).name}:{shadowed.span.line}"
                self.ctx.error(f"'let {s.name}' hides the {shadowed.kind} {s.name!r} "
                               f"(declared at {where})", s.span, "shadowed-name",
                               hint="give the local another name")
            scope.names[s.name] = self.local(s.name, t)
        elif isinstance(s, ast.Assign):
            t = self.ctx.exprs.expr(s.value, scope)
            if isinstance(s.target, ast.Name):
                if not scope.has(s.target.name):
                    self.ctx.error(f"assignment to {s.target.name!r}, which is not defined; use "
                                   f"'let {s.target.name} = ...' first", s.target.span,
                                   "undefined-name",
                                   hint=did_you_mean(s.target.name, scope.all()))
                    return
                if s.op == "=":
                    return
            old = self.ctx.exprs.expr(s.target, scope)
            if s.op != "=":
                _, problem = ty.binop(s.op[0], old, t)
                if problem is not None:
                    self.ctx.error(problem, s.span, "bad-operands", hint=operand_hint(old, t))
        elif isinstance(s, ast.CallStmt):
            self.ctx.exprs.call(s.call, scope)
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.ctx.exprs.expr(s.value, scope)
        elif isinstance(s, ast.Log):
            for a in s.args:
                self.ctx.exprs.expr(a, scope)
        elif isinstance(s, ast.If):
            for cond, body in s.branches:
                self.ctx.exprs.expr(cond, scope)
                self.block(body, scope)
            self.block(s.otherwise, scope)
        elif isinstance(s, ast.ForEach):
            inner = scope.child({s.var: self.local(s.var, self.items(s.iterable, scope,
                                                                       "'for each'"))})
            for e in (s.where, s.order):
                if e is not None:
                    self.ctx.exprs.expr(e, inner)
            self.keep_going(s, inner)
            self.block(s.body, inner)
        elif isinstance(s, ast.While):
            self.ctx.exprs.expr(s.condition, scope)
            self.block(s.body, scope)
        elif isinstance(s, ast.Activate):
            self.items(s.units, scope, "'activate'")
            self.ctx.exprs.expect(s.start, scope, "side", "'starting with'")
            if s.picker is not None:
                if self.ctx.kind_of(s.picker) != "decision":
                    self.ctx.error(f"'picking by {s.picker}': {s.picker!r} is not a decision",
                                   s.span, "unknown-decision",
                                   hint=did_you_mean(s.picker, self.ctx.names_of("decision")))
                self.ctx.use(s.picker)
            inner = scope.child({s.var: self.local(s.var, "unit")})
            if s.where is not None:
                self.ctx.exprs.expr(s.where, inner)
            self.block(s.body, inner)
        elif isinstance(s, ast.During):
            for item in s.items:
                self.during_item(item, scope)
            for stmt in s.body:   # not a scope of its own: the body always runs, once
                self.stmt(stmt, scope)

    def during_item(self, item: ast.DuringItem, scope: Scope) -> None:
        """``STATUS on THING [if COND]`` of a ``during`` block: a declared status (with the
        arguments it needs), a thing that can have it, a condition that is true or false."""
        status = item.status
        name = status.name
        if isinstance(self.ctx.decls.get(name), ast.StatusDecl):
            self.ctx.exprs.expr(status, scope)
            self.ctx.effects.applied_status(status, "during {} on x")
            self.ctx.effects.held_status(status, "'during'")
        else:
            for a in status.args if isinstance(status, ast.Call) else ():
                self.ctx.exprs.expr(a, scope)
            self.ctx.error(f"unknown status {name!r}", status.span, "unknown-status",
                           hint=did_you_mean(name, self.ctx.names_of("status")))
        self.ctx.exprs.expect(item.thing, scope, "unit|weapon|part|group",
                              f"'during {name} on X': X")
        self.ctx.exprs.expect(item.condition, scope, "bool", f"'during {name} on X if C': C")

    def keep_going(self, s: ast.ForEach, scope: Scope) -> None:
        """A loop's ``while C``, read again before each item: a truth, and one the loop can
        change (it reads the loop's name, a local the body changes, or the battle);
        otherwise it would be read once, as ``if C`` around the loop is."""
        if s.keep_going is None:
            return
        self.ctx.exprs.expect(s.keep_going, scope, "bool", "'while' of a 'for each'")
        if _fixed(s.keep_going, _changed_names(s.body) | {s.var}):
            self.ctx.error("'while' of a 'for each' reads nothing the loop changes, so it would "
                           "end the loop before its first item or never", s.keep_going.span,
                           "fixed-while",
                           hint=f"test it once with 'if' before the loop, or read the loop's "
                                f"{s.var!r} or a local its body changes")

    def local(self, name: str, t: str) -> str:
        """The type of a local that starts as a ``t``: no known type if it is given another
        value later (:func:`_reassigned`)."""
        return ty.ANY if name in self.ctx.reassigned else t

    def items(self, e: ast.Expr, scope: Scope, what: str) -> str:
        """Check ``e``, which a loop goes over; the type of its items."""
        t = self.ctx.exprs.expr(e, scope)
        if not ty.iterable(t):
            self.ctx.error(f"{what} goes over a list, got {ty.show(t)}", e.span, "wrong-type")
        return ty.item_of(t)


_FIXED_EXPRS = (ast.Literal, ast.Name, ast.BinOp, ast.Compare, ast.BoolOp, ast.Not, ast.Neg,
                ast.CondExpr, ast.ListLit, ast.Member, ast.Lookup)
"""Expressions whose value only their names decide (no call, no unit's value, no status)."""


def _fixed(e: object, moving: set[str]) -> bool:
    """Whether ``e`` keeps its value while the names in ``moving`` keep theirs and the battle
    changes: it reads none of them and nothing of the battle."""
    if isinstance(e, tuple):
        return all(_fixed(x, moving) for x in e)
    if not isinstance(e, ast.Expr):
        return True
    if not isinstance(e, _FIXED_EXPRS) or (isinstance(e, ast.Name) and e.name in moving):
        return False
    return all(_fixed(getattr(e, f.name), moving)
               for f in slotted.fields(type(e)) if f.name != "span")


def _changed_names(body: tuple[ast.Stmt, ...]) -> set[str]:
    """Names the statements give a new value (``=``, ``+=``, ``-=``), in nested blocks too."""
    out: set[str] = set()
    for s in body:
        if isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            out.add(s.target.name)
        elif isinstance(s, ast.If):
            for _, branch in s.branches:
                out |= _changed_names(branch)
            out |= _changed_names(s.otherwise)
        elif isinstance(s, (ast.ForEach, ast.While, ast.Activate)):
            out |= _changed_names(s.body)
    return out
