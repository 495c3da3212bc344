"""Actions and phases compiled (:class:`CompiledAction`), and the statements the code
generator leaves as closures: ``log``, setting a characteristic, ``stop`` and
``activate``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_run.lang import ast
from rules_run.lang.walk import walk
from rules_run.runtime.env import Closure, Env, fail, show

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["CompiledAction", "Return", "log_statement", "statement_closure"]


class Return(Exception):
    """A ``return`` inside an activation's body, carrying its value to the action."""

    def __init__(self, value: Any) -> None:
        self.value = value


class CompiledAction:
    """An action or phase: a compiled block of statements."""

    def __init__(self, runtime: Runtime, decl: ast.ActionDecl | ast.PhaseDecl) -> None:
        self.runtime = runtime
        self.decl = decl
        types = {p.name: p.type for p in decl.params}
        self.body = runtime.codegen.block(decl.body, types, runtime.ruleset.cite(decl.name),
                                          top=decl)
        self.returns_directly = not any(isinstance(node, ast.Activate)
                                        for node in walk(decl.body))
        """Whether every ``return`` is a Python return (none is inside an activation)."""

    def run(self, env: Env, vars: dict) -> Any:
        """Run the statements; the value of ``return`` (None without one)."""
        return self.call(env, dict(vars))

    def call(self, env: Env, vars: dict) -> Any:
        """As :meth:`run`, with a dict of arguments the action may keep as its locals."""
        try:
            return self.body(env, vars)
        except Return as r:  # a return inside an activation's body
            return r.value


def log_statement(runtime: Runtime, s: ast.Log, types, cite: str) -> Closure:
    """``log "message" with values`` (run only when events are kept)."""
    args = [runtime.compile_expr(a, types) for a in s.args]
    message, span = s.message, s.span

    def log(env, vars):
        env.emit({"kind": "log", "message": message,
                  "values": [show(a(env, vars)) for a in args],
                  "at": span.text(), "cite": cite})
    return log


def statement_closure(runtime: Runtime, s: ast.Stmt, types, cite: str) -> Closure:
    """The statements the code generator leaves as closures: setting a characteristic,
    ``stop`` and ``activate``."""
    x = runtime.compile_expr
    if isinstance(s, ast.Assign) and isinstance(s.target, ast.Attribute):
        value = x(s.value, types)
        target, attr, op = x(s.target.target, types), s.target.name, s.op

        def assign_attr(env, vars):
            thing = target(env, vars)
            v = value(env, vars)
            if op != "=":
                old = env.runtime.characteristic(env, thing, attr)
                v = old + v if op == "+=" else old - v
            thing.profile[attr] = v
        return assign_attr
    if isinstance(s, ast.Stop):
        message, span = s.message, s.span

        def stop(env, vars):
            raise fail(message, span, "stopped")
        return stop
    if isinstance(s, ast.Activate):
        units, start = x(s.units, types), x(s.start, types)
        body = runtime.codegen.block(s.body, types, cite)
        var, picker, order, span = s.var, s.picker, s.order, s.span
        where = x(s.where, dict(types, **{var: "unit"})) if s.where is not None else None

        def activate(env, vars):
            if env.state is None:
                raise fail("'activate' needs a battle", span)
            may = None
            if where is not None:
                def may(unit):
                    return bool(where(env, dict(vars, **{var: unit})))
            env.state.activate(env, vars, var, units(env, vars), order, start(env, vars),
                               picker, body, may)
        return activate
    raise AssertionError(f"no compiler for {type(s).__name__}")  # pragma: no cover
