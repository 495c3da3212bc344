"""Decisions compiled once (:class:`CompiledDecision`): the expression of their legal options
and, for each policy, the choices it tries in order (its own, else the nearest base's up its
``extends`` chain)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rules_run import slotted
from rules_run.lang import ast
from rules_run.runtime.env import Closure

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["CompiledDecision", "compile_decisions"]


@slotted.frozen
class CompiledDecision:
    """A decision ready to resolve: what a battle's ``decide`` runs."""

    decl: ast.DecisionDecl
    options: Closure
    """The legal options, ``f(env, vars)`` with the decision's arguments as ``vars``."""
    choices: Mapping[str, tuple[Closure, ...]]
    """Policy name -> the choices it tries for this decision, in order (its own, else its
    nearest base's); a policy with none for it is left out."""


def compile_decisions(runtime: Runtime) -> dict[str, CompiledDecision]:
    """Every decision of the runtime's ruleset, compiled with each policy's choices."""
    decls = runtime.decls
    policies = [d for d in decls.values() if isinstance(d, ast.PolicyDecl)]
    out: dict[str, CompiledDecision] = {}
    for name, decl in decls.items():
        if not isinstance(decl, ast.DecisionDecl):
            continue
        choices = {}
        for policy in policies:
            found = policy.choices_for(name, decls)
            if found:
                choices[policy.name] = tuple(runtime.compile_expr(e, {}) for e in found)
        out[name] = CompiledDecision(decl, runtime.compile_expr(decl.options, {}), choices)
    return out
