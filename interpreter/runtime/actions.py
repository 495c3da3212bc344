"""Actions and phases compiled (:class:`CompiledAction`): a block of statements as one
generated function, and the ``return`` that an activation's body carries out of it. An
action declared ``once per ...`` asks the battle whether it has run for its keys in this
period (outside a battle it always runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_run.lang import ast
from rules_run.runtime.env import Env

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["CompiledAction", "Return"]


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
        self.body, self.positional = runtime.codegen.action(decl, types,
                                                            runtime.ruleset.cite(decl.name))
        """The body's function by a dict of arguments, ``f(env, vars)``, and by position,
        ``p(env, a, b, ...)`` (:meth:`~rules_run.runtime.codegen.CodeGen.action`)."""
        self.returns_directly = decl.name not in runtime.codegen.activating
        """Whether every ``return`` is a Python return (none is inside an activation)."""
        limit = decl.limit if isinstance(decl, ast.ActionDecl) else None
        self.limit = limit
        """``once per ...``, if it has one."""
        self.keys = [runtime.compile_expr(k, types) for k in limit.keys] if limit else []
        """What the limit is counted for, read from the arguments."""

    def limit_key(self, env: Env, vars: dict) -> tuple[Any, ...]:
        """The action and the values of its limit's keys for these arguments."""
        return (self.decl.name, *(key(env, vars) for key in self.keys))

    def run(self, env: Env, vars: dict) -> Any:
        """Run the statements; the value of ``return`` (None without one)."""
        return self.call(env, dict(vars))

    def call(self, env: Env, vars: dict) -> Any:
        """As :meth:`run`, with a dict of arguments the action may keep as its locals; an
        action that has used its ``once per`` limit for these keys does nothing (none)."""
        if self.limit is not None and env.state is not None and not env.state.use_once(
                self.limit.period, self.limit_key(env, vars)):
            return None
        try:
            return self.body(env, vars)
        except Return as r:  # a return inside an activation's body
            return r.value

