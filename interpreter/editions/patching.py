"""Declarations into a ruleset: a base ruleset's declared once each, a patch's operations
(``add``, ``override``, ``define``, ``remove``) checked against what they change, then
applied.

:func:`apply_patch_op` applies one operation without checking it (rules-diff applies a
patch's operations a few at a time: :mod:`rules_run.diff.steps`); :class:`Declarations`
checks each before it applies it, as loading a ruleset does.
"""

from __future__ import annotations

from typing import Any

from rules_run.diagnostics import DiagnosticBag, did_you_mean
from rules_run.editions.ruleset import Origin
from rules_run.lang import ast

__all__ = ["apply_patch_op", "origin_key", "Declarations"]


def _a(word: str) -> str:
    """``a test``, ``an action``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


def origin_key(kind: str, name: str) -> str:
    """The key :attr:`Ruleset.origins` uses: the name, or ``rule:<name>`` for a rule."""
    return f"rule:{name}" if kind == "rule" else name


def apply_patch_op(op: ast.PatchOp, decls: dict[str, ast.Decl], rules: dict[str, ast.RuleDecl],
                   origins: dict[str, Origin], ruleset_id: str, sources: tuple[str, ...]) -> None:
    """Apply one patch operation in place: ``add``, ``override`` or ``define`` put the
    operation's declaration under its name, ``remove`` takes the name away; ``origins``
    records that the patch ``ruleset_id`` did it, with the operation's citation as
    ``sources`` (the patch's) resolve it.

    It does not check that the operation fits what it applies to (``add`` something new,
    ``override`` or ``remove`` something there, of the same kind): :class:`Declarations`
    checks that before it applies each operation of a patch; rules-diff applies operations
    to the patch's base a few at a time (:mod:`rules_run.diff.steps`).
    """
    if op.decl is None:
        (rules if op.kind == "rule" else decls).pop(op.name, None)
    elif isinstance(op.decl, ast.RuleDecl):
        rules[op.name] = op.decl
    elif isinstance(op.decl, ast.ClausePatch):
        base = decls[op.name]
        assert isinstance(base, ast.RollDecl), "the loader checks the kind first"
        decls[op.name] = op.decl.applied_to(base)
    elif isinstance(op.decl, ast.SequencePatch):
        seq = decls[op.name]
        assert isinstance(seq, ast.SequenceDecl), "the loader checks the kind first"
        decls[op.name] = op.decl.applied_to(seq)
    elif isinstance(op.decl, ast.ActionPatch):
        action = decls[op.name]
        assert isinstance(action, ast.ActionDecl), "the loader checks the kind first"
        decls[op.name] = op.decl.applied_to(action)
    else:
        decls[op.name] = op.decl
    origins[origin_key(op.kind, op.name)] = Origin(
        ruleset_id, op.cite.text(sources) if op.cite else "", op.op
    )


class Declarations:
    """The declarations, rules and origins of the ruleset being loaded, declared or
    patched one at a time, with every problem put in ``bag``."""

    def __init__(self, decls: dict[str, ast.Decl], rules: dict[str, ast.RuleDecl],
                 origins: dict[str, Origin], ruleset_id: str, sources: tuple[str, ...],
                 bag: DiagnosticBag) -> None:
        self.decls, self.rules, self.origins = decls, rules, origins
        self.ruleset_id, self.sources, self.bag = ruleset_id, sources, bag
        self.removed: dict[str, ast.PatchOp] = {}
        """This patch's ``remove`` operations, by key (``rule:<name>`` for rules)."""

    def declare(self, d: ast.Decl) -> None:
        """Declare ``d`` (a base ruleset's), unless its name is taken already."""
        space = self._space(d.kind)
        existing = space.get(d.name)
        if existing is not None:
            first = (f"line {existing.span.line}" if existing.span.path == d.span.path
                     else existing.span.text())
            self.bag.add(
                f"{d.kind} {d.name!r} is declared twice (first at {first})",
                d.span, code="duplicate-declaration",
                hint="remove one, or give them different names",
            )
            return
        space[d.name] = d
        self.origins[origin_key(d.kind, d.name)] = Origin(
            self.ruleset_id, d.cite.text(self.sources) if d.cite else "", "declare"
        )

    def apply(self, op: ast.PatchOp) -> None:
        """Apply ``op`` (a patch's operation), unless it does not fit what it changes."""
        space = self._space(op.kind)
        existing = space.get(op.name)
        what = f"{op.kind} {op.name!r}"
        if existing is not None and existing.kind != op.kind:
            self.bag.add(
                f"{op.op}: {op.name!r} is {_a(existing.kind)}, not {_a(op.kind)}",
                op.span, code="patch-wrong-kind",
                hint=f"{op.name!r} is declared at {existing.span.text()}",
            )
            return
        if op.op == "add" and existing is not None:
            self.bag.add(
                f"add: {what} already exists (declared at {existing.span.text()})",
                op.span, code="patch-add-existing",
                hint="use 'override' to replace it, or 'define' to add or replace",
            )
            return
        if op.op in ("override", "remove") and existing is None:
            same_kind = [n for n, d in space.items() if d.kind == op.kind]
            self.bag.add(
                f"{op.op}: there is no {what} to {op.op}",
                op.span, code=f"patch-{op.op}-missing",
                hint=self.case_holding(op.decl) or did_you_mean(op.name, same_kind) or
                ("use 'add' for something new" if op.op == "override" else None),
            )
            return
        if op.op == "remove":
            self.removed[origin_key(op.kind, op.name)] = op
        if isinstance(op.decl, ast.ClausePatch) and isinstance(existing, ast.RollDecl):
            for n in op.decl.missing(existing):
                self.bag.add(f"override: {what} has no clause '{n.text()}' to remove", n.span,
                             code="patch-clause-missing",
                             hint="its natural clauses: " + (
                                 "; ".join(m.text() for m in existing.naturals) or "none"))
        if isinstance(op.decl, ast.SequencePatch) and isinstance(existing, ast.SequenceDecl):
            steps = [s.name for s in existing.steps]
            for step in op.decl.missing(existing):
                self.bag.add(f"override: {what} has no step {step.name!r} to change", step.span,
                             code="patch-clause-missing",
                             hint=did_you_mean(step.name, steps)
                             or "its steps: " + (", ".join(steps) or "none"))
        if isinstance(op.decl, ast.ActionPatch) and isinstance(existing, ast.ActionDecl):
            if not self.lets_fit(op.decl, existing, what):
                return
        apply_patch_op(op, self.decls, self.rules, self.origins, self.ruleset_id,
                       self.sources)

    def case_holding(self, case: ast.Decl | None) -> str | None:
        """For an override of a case that is not declared with those values: the case that
        has one of them, to override with all its values."""
        if not isinstance(case, ast.CaseDecl):
            return None
        given = {(v.kind, v.value) for v in case.values}
        found = next((d for d in self.decls.values() if isinstance(d, ast.CaseDecl)
                      and d.action == case.action
                      and given & {(v.kind, v.value) for v in d.values}), None)
        return (None if found is None else f"the case is 'case {found.name}' (at "
                f"{found.span.text()}): override it with all its values")

    def lets_fit(self, patch: ast.ActionPatch, action: ast.ActionDecl, what: str) -> bool:
        """Whether each ``let`` of ``patch`` names one ``let`` line of ``action`` (each
        that does not is reported)."""
        bound = patch.bound(action)
        fits = True
        for let in patch.lets:
            lines = bound.get(let.name, [])
            if len(lines) == 1:
                continue
            fits = False
            if not lines:
                self.bag.add(f"override: {what} has no 'let {let.name}' to change", let.span,
                             code="patch-clause-missing",
                             hint=did_you_mean(let.name, bound) or "its let lines: " + (
                                 ", ".join(bound) or f"none (override {action.name}(...) "
                                 "whole)"))
            else:
                at = ", ".join(f"line {x.span.line}" for x in lines)
                self.bag.add(f"override: {what} has {len(lines)} lines 'let {let.name}' "
                             f"({lines[0].span.path}: {at}): which one changes cannot be told",
                             let.span, code="patch-clause-ambiguous",
                             hint=f"give them different names in {action.name!r}, or "
                             f"override {action.name}(...) whole")
        return fits

    def _space(self, kind: str) -> dict[str, Any]:
        """Where a declaration of ``kind`` goes: the rules, or every other declaration."""
        return self.rules if kind == "rule" else self.decls
