"""Rolls and tests that reuse another: ``test courage_test is nerve_test @ L12``; sequences
that reuse another's steps: ``sequence volley is strike @ L692`` with the steps that change.

A reusing declaration has its own name, citation and parameters, and the clauses of the roll
it names, with that roll's parameters replaced by the arguments it is given
(``test rout_test(unit: unit, lost_by: int) is nerve_test(unit, 0 - lost_by)``). Without
parameters it takes the base's and passes them on. Rules aim at it by its own name, and its
dice are its own. The clauses are filled in after patches, so a patch that overrides the base
changes every roll that reuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_run import slotted
from rules_run.diagnostics import DiagnosticBag, did_you_mean
from rules_run.lang import ast

__all__ = ["resolve_reuses", "reusing"]

_OWN = frozenset({"span", "name", "cite", "is_test", "params", "reuses", "changes"})
"""The fields a reusing declaration keeps; every other one comes from its base."""


def resolve_reuses(decls: dict[str, ast.Decl], bag: DiagnosticBag) -> None:
    """Fill in the clauses of every roll, test or sequence that reuses another, in place."""
    done: dict[str, bool] = {}
    for name, decl in list(decls.items()):
        if isinstance(decl, (ast.RollDecl, ast.SequenceDecl)) and decl.reuses is not None:
            _resolve(name, decls, bag, done, ())


def _resolve(name: str, decls: dict[str, ast.Decl], bag: DiagnosticBag, done: dict[str, bool],
             chain: tuple[str, ...]) -> bool:
    """Resolve the roll, test or sequence ``name`` (and what it reuses first); False when it
    cannot be."""
    decl = decls[name]
    assert isinstance(decl, (ast.RollDecl, ast.SequenceDecl)) and decl.reuses is not None
    if name in done:
        return done[name]
    call = decl.reuses
    what = f"{decl.kind} {name!r}"
    if name in chain:
        cycle = chain[chain.index(name):]
        bag.add(f"{what} reuses itself: {' -> '.join(cycle + (name,))}", call.span,
                code="reuse-cycle")
        done.update(dict.fromkeys(cycle, False))
        return False
    same: type[ast.RollDecl] | type[ast.SequenceDecl] = (
        ast.SequenceDecl if isinstance(decl, ast.SequenceDecl) else ast.RollDecl)
    base = decls.get(call.name)
    if not isinstance(base, same):
        found = "" if base is None else f" (it is declared with '{base.kind}')"
        noun = "sequence" if same is ast.SequenceDecl else "roll or test"
        bag.add(f"{what} reuses {call.name!r}, which is no {noun}{found}", call.span,
                code="unknown-reuse", hint=did_you_mean(call.name, [
                    n for n, d in decls.items() if isinstance(d, same) and n != name]))
        done[name] = False
        return False
    if base.kind != decl.kind:
        bag.add(f"{what} reuses {base.kind} {call.name!r}: a {decl.kind} reuses a {decl.kind}",
                call.span, code="reuse-kind", hint=f"write: {base.kind} {name} is {call.name}")
        done[name] = False
        return False
    if base.reuses is not None and not _resolve(call.name, decls, bag, done, chain + (name,)):
        done[name] = False
        return False
    base = decls[call.name]
    assert isinstance(base, same)
    bound = _bind(decl, base)
    done[name] = bound is not None
    if bound is None:
        return False
    params, values = bound
    if isinstance(decl, ast.SequenceDecl):
        assert isinstance(base, ast.SequenceDecl)
        decls[name] = _reused_sequence(decl, base, params, values, bag, what)
    else:
        assert isinstance(base, ast.RollDecl)
        decls[name] = _reused_roll(decl, base, params, values, bag, what)
    return True


def _reused_sequence(decl: ast.SequenceDecl, base: ast.SequenceDecl,
                     params: tuple[ast.Param, ...], values: dict[str, ast.Expr],
                     bag: DiagnosticBag, what: str) -> ast.SequenceDecl:
    """The sequence: its base's steps, damage, each point and tallies, with its own changes
    in place."""
    call = decl.reuses
    assert call is not None
    changes = decl.changes or ast.SequencePatch(span=decl.span, name=decl.name, cite=decl.cite)
    steps = [s.name for s in base.steps]
    for step in changes.missing(base):
        bag.add(f"{what} reuses {call.name!r}, which has no step {step.name!r} to change",
                step.span, code="unknown-step",
                hint=did_you_mean(step.name, steps) or "its steps: " + ", ".join(steps))
    taken = changes.applied_to(slotted.evolve(
        base, steps=_substitute(base.steps, values), damage=_substitute(base.damage, values),
        per_point=_substitute(base.per_point, values)))
    return slotted.evolve(decl, params=params, steps=taken.steps, damage=taken.damage,
                        per_point=taken.per_point, tallies=base.tallies)


def _reused_roll(decl: ast.RollDecl, base: ast.RollDecl, params: tuple[ast.Param, ...],
                 values: dict[str, ast.Expr], bag: DiagnosticBag, what: str) -> ast.RollDecl:
    """The roll or test: its base's clauses, with its own in their place (naturals and marks
    added)."""
    call = decl.reuses
    assert call is not None
    taken = {f.name: _substitute(getattr(base, f.name), values)
             for f in slotted.fields(ast.RollDecl) if f.name not in _OWN}
    resolved = slotted.evolve(decl, params=params, **taken)
    if decl.changes is not None:
        told = {d.span for d in bag.found}   # a patch's removal is reported where it is
        for n in decl.changes.missing(resolved):
            if n.span in told:
                continue
            bag.add(f"{what} reuses {call.name!r}, which has no clause '{n.text()}' to remove",
                    n.span, code="patch-clause-missing", hint="its natural clauses: " + (
                        "; ".join(m.text() for m in resolved.naturals) or "none"))
        resolved = slotted.evolve(decl.changes.applied_to(slotted.evolve(resolved, reuses=None)),
                                span=decl.span, cite=decl.cite, reuses=decl.reuses)
    return resolved


def _bind(decl: ast.RollDecl | ast.SequenceDecl, base: ast.RollDecl | ast.SequenceDecl
          ) -> tuple[tuple[ast.Param, ...], dict[str, ast.Expr]] | None:
    """The reusing declaration's parameters and an expression for each of the base's; None
    when the arguments do not fit (the checker says how, as for any call)."""
    call = decl.reuses
    assert call is not None
    # inherited from a base ruleset, resolved there
    resolved = (decl.dice is not None if isinstance(decl, ast.RollDecl)
                else bool(decl.steps))
    if not call.args and not call.kwargs and (not decl.params or resolved):
        # `test panic_test is leadership`: the base's parameters, passed on as they are
        return base.params, {}
    names = [p.name for p in base.params]
    values: dict[str, ast.Expr] = dict(zip(names, call.args))
    for key, value in call.kwargs:
        if key not in names or key in values:
            return None
        values[key] = value
    for p in base.params:
        if p.name not in values:
            if p.default is None:
                return None
            values[p.name] = p.default
    return None if len(call.args) > len(names) else (decl.params, values)


def _substitute(node: Any, values: Mapping[str, ast.Expr]) -> Any:
    """``node`` with each name of ``values`` replaced by its expression (not where a
    comprehension binds the same name)."""
    if not values:
        return node
    if isinstance(node, tuple):
        return tuple(_substitute(n, values) for n in node)
    if isinstance(node, ast.Name):
        return values.get(node.name, node)
    if isinstance(node, ast.Comprehension) and node.var in values:
        inner = {k: v for k, v in values.items() if k != node.var}
        return slotted.evolve(node, item=_substitute(node.item, inner),
                            iterable=_substitute(node.iterable, values),
                            where=_substitute(node.where, inner),
                            order=_substitute(node.order, inner))
    if not slotted.has(type(node)):
        return node
    changes = {f.name: _substitute(getattr(node, f.name), values)
               for f in slotted.fields(type(node)) if f.name != "span"}
    return slotted.evolve(node, **changes)


def reusing(decls: Mapping[str, ast.Decl], name: str) -> tuple[str, ...]:
    """``name`` and every roll or test that reuses it, directly or through another, in
    declaration order (the tests ``pass every NAME`` reaches)."""
    def reaches(decl: ast.Decl, seen: tuple[str, ...]) -> bool:
        if not isinstance(decl, ast.RollDecl) or decl.reuses is None:
            return False
        base = decl.reuses.name
        if base == name:
            return True
        return base not in seen and base in decls and reaches(decls[base], seen + (base,))
    return (name,) + tuple(n for n, d in decls.items() if n != name and reaches(d, (n,)))
