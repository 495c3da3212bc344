"""Actions split by the value of a parameter: ``action resolve_spell(s: text, ...) by s``
with its cases, ``case resolve_spell "fireball" @ L1253``, each a declaration of its own
(cited, patched and checked on its own).

What runs is one action: :func:`joined` gives the declarations as the runtime runs them,
each split action with its cases in its body (``if s == "fireball": ... elif ...: ...
else: its own body``) and no case declaration of its own, so everything that reads an
action's body (the code it compiles to, what a battle can reach, exact odds) reads the
cases too.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_run import slotted
from rules_run.lang import ast

__all__ = ["cases_of", "joined"]


def cases_of(decls: Mapping[str, ast.Decl]) -> dict[str, list[ast.CaseDecl]]:
    """The case declarations of each action, in the order declared."""
    out: dict[str, list[ast.CaseDecl]] = {}
    for d in decls.values():
        if isinstance(d, ast.CaseDecl):
            out.setdefault(d.action, []).append(d)
    return out


def joined(decls: Mapping[str, ast.Decl]) -> Mapping[str, ast.Decl]:
    """``decls`` as they run: each split action's body choosing among its cases, by the
    value of its parameter, and its own body for other values; without the cases (``decls``
    itself when it has no split action)."""
    if not any(isinstance(d, ast.ActionDecl) and d.by is not None for d in decls.values()):
        return decls
    cases = cases_of(decls)
    out: dict[str, ast.Decl] = {}
    for name, d in decls.items():
        if isinstance(d, ast.CaseDecl):
            continue
        if isinstance(d, ast.ActionDecl) and d.by is not None:
            d = slotted.evolve(d, by=None, by_span=None, body=_dispatch(d, cases.get(name, [])))
        out[name] = d
    return out


def _dispatch(action: ast.ActionDecl, cases: list[ast.CaseDecl]) -> tuple[ast.Stmt, ...]:
    """``if by == v1 or by == v2: case ... elif ...: ... else: the action's own body``."""
    assert action.by is not None
    if not cases:
        return action.body
    branches = []
    for case in cases:
        tests = tuple(ast.Compare(v.span, "==", ast.Name(v.span, action.by), v)
                      for v in case.values)
        branches.append((tests[0] if len(tests) == 1 else
                         ast.BoolOp(case.span, "or", tests), case.body))
    return (ast.If(action.span, tuple(branches), action.body),)
