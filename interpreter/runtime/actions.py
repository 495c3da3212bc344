"""Actions and phases compiled (:class:`CompiledAction`): a block of statements as one
generated function, and the ``return`` that an activation's body carries out of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_run.lang import ast
from rules_run.lang.walk import walk
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

