"""Rulesets between A and B: A with some of the patch's operations applied, in patch order.

Attribution runs the battle under A, then under A with the first operation applied, the
first two, ... up to B. Each intermediate ruleset is a new :class:`Ruleset` whose
declarations are A's with the operations applied in order by the loader's own
:func:`~rules_run.editions.patching.apply_patch_op`, never a change to A. An intermediate
that does not check (an operation that only makes sense with a later one) is reported, and
the caller merges that operation with the next.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_run import slotted
from rules_run.data.tables import load_table
from rules_run.diagnostics import DiagnosticBag, PatchError
from rules_run.diff.structure import PatchStep, patch_rulesets, patch_steps
from rules_run.editions.patching import apply_patch_op
from rules_run.editions.ruleset import Ruleset
from rules_run.lang import ast
from rules_run.lang.checker import check_declarations
from rules_run.paths import shown

__all__ = ["ResolvedOp", "resolved_ops", "apply_ops", "applied", "Applied", "same_data"]


@slotted.frozen
class ResolvedOp:
    """One patch operation with the patch that holds it."""

    step: PatchStep
    op: ast.PatchOp
    patch: Ruleset = slotted.slot(repr=False)


def resolved_ops(a: Ruleset, b: Ruleset) -> list[ResolvedOp]:
    """Every operation from A to B in patch order ([] unless B is a patch of A)."""
    held = [(op, patch) for patch in patch_rulesets(a, b) for op in patch.patches[-1][1]]
    return [ResolvedOp(step, op, patch)
            for step, (op, patch) in zip(patch_steps(a, b) or (), held, strict=True)]


def same_data(a: Ruleset, b: Ruleset) -> bool:
    """Whether two rulesets have the same unit profiles, equipment and attack modes."""
    return ({k: dict(v) for k, v in a.units.items()} == {k: dict(v) for k, v in b.units.items()}
            and {k: dict(v) for k, v in a.equipment.items()}
            == {k: dict(v) for k, v in b.equipment.items()}
            and dict(a.attack_modes) == dict(b.attack_modes))


@slotted.frozen
class Applied:
    """A's declarations with some operations applied, not yet checked."""

    decls: dict[str, ast.Decl]
    rules: dict[str, ast.RuleDecl]
    origins: dict
    tables: dict
    sources: tuple[str, ...]
    inherited: frozenset[str]
    """The keys whose declaration is still A's (their citations are not checked again)."""

    def check(self, bag: DiagnosticBag):
        """Check the declarations into ``bag``; what uses what
        (:func:`~rules_run.lang.checker.check_declarations`)."""
        return check_declarations(self.decls, self.rules, self.sources, bag,
                                  inherited=self.inherited)


def applied(a: Ruleset, ops: Sequence[ResolvedOp]) -> Applied:
    """A's declarations, rules, origins and tables with ``ops`` applied in order.

    Raises:
        DataError: a table an operation declares does not load.
    """
    decls = dict(a.decls)
    rules = dict(a.rules)
    origins = dict(a.origins)
    tables = dict(a.tables)
    sources = tuple(dict.fromkeys(
        [s for r in ops for s in r.patch.sources] + list(a.sources)))
    for r in ops:
        op = r.op
        apply_patch_op(op, decls, rules, origins, r.patch.id, r.patch.sources)
        if isinstance(op.decl, ast.TableDecl):
            tables[op.name] = load_table(shown(r.patch.folder / op.decl.file), op.name)
        elif op.op == "remove" and op.kind == "table":
            tables.pop(op.name, None)
    inherited = frozenset(k for k, o in origins.items() if a.origins.get(k) is o)
    return Applied(decls, rules, origins, tables, sources, inherited)


def apply_ops(a: Ruleset, ops: Sequence[ResolvedOp], label: str) -> Ruleset:
    """A new ruleset: A with ``ops`` applied in order (A's unit data, tables and options).

    Raises:
        PatchError: the declarations do not check after these operations alone.
        DataError: a table an operation declares does not load.
    """
    done = applied(a, ops)
    bag = DiagnosticBag()
    done.check(bag)
    if bag.errors:
        raise PatchError(bag.items)
    return Ruleset(
        id=label,
        title=f"{a.title}, with {label}",
        folder=a.folder,
        chain=a.chain + (label,),
        decls=done.decls,
        rules=done.rules,
        origins=done.origins,
        patches=a.patches + ((label, tuple(r.op for r in ops)),),
        sources=done.sources,
        tables=done.tables,
        units=a.units,
        equipment=a.equipment,
        battles=a.battles,
        default_battle=a.default_battle,
        attack_modes=a.attack_modes,
        base=a,
    )
