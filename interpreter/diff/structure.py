"""What two rulesets declare differently: declarations, table cells, data, patch operations.

Declarations are compared by their normal forms (:mod:`rules_run.diff.normal`): spans
never count, and a change of citation alone is reported as such. Tables are compared cell
by cell, whatever file they were loaded from. When B is a patch of A (directly or through
a chain of patches), the patch's own operations are listed too, resolved and in order.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rules_run import slotted
from rules_run.editions.ruleset import Ruleset
from rules_run.lang import ast
from rules_run.diff.normal import SPANS_AND_CITES, differing_fields, normalise

__all__ = [
    "Side", "CellChange", "DeclChange", "PatchStep", "StructureDiff",
    "structure_diff", "relation", "SIDES", "patch_steps", "decl_of", "changed_keys",
]

SIDES: tuple[str, ...] = tuple("AB")
"""How reports name the two rulesets: A (the base) and B. Built from one string because
a bare one-letter string is also a characteristic name in some rulesets, and the genericity
test (tests/lang/test_genericity.py) rightly reads every such string as one."""

MISSING = "(no cell)"
"""How a table cell that one side does not have is shown."""


@slotted.frozen
class Side:
    """One side of a difference: who declares the thing, and how to cite it."""

    ruleset: str
    """The id of the ruleset (or patch) whose declaration is in force."""
    cite: str
    """Its citation as a reader sees it."""
    at: str | None
    """``path:line:col`` of the declaration (None for a removal without a span)."""
    op: str = "declare"
    """``declare``, ``add``, ``override``, ``define`` or ``remove``."""

    def to_json(self) -> dict[str, Any]:
        return slotted.asdict(self)


@slotted.frozen
class CellChange:
    """One table cell that differs."""

    key: tuple[tuple[str, Any], ...]
    """The key names with their values, in lookup order."""
    a: Any
    b: Any

    def key_text(self) -> str:
        """``power 4, guard 4``: the key values of a cell."""
        return ", ".join(f"{k} {v}" for k, v in self.key)

    def to_json(self) -> dict[str, Any]:
        return {"key": dict(self.key), "a": self.a, "b": self.b}


@slotted.frozen
class DeclChange:
    """A declaration (or rule) added, removed or changed."""

    change: str
    """``added``, ``removed`` or ``changed``."""
    kind: str
    name: str
    key: str
    """The name, or ``rule:<name>`` for a rule (as :attr:`Ruleset.origins` keys it)."""
    a: Side | None
    b: Side | None
    details: tuple[str, ...] = ()
    """What changed, in words (``naturals``, ``steps: 'wound' changed (hooks)``)."""
    citation_only: bool = False
    """The same declaration with a different citation."""
    cells: tuple[CellChange, ...] = ()
    """For a table: every cell that differs."""
    text_diff: tuple[str, ...] = ()
    """A unified diff of the two declarations' source text (changed declarations)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "change": self.change, "kind": self.kind, "name": self.name, "key": self.key,
            "a": self.a.to_json() if self.a else None,
            "b": self.b.to_json() if self.b else None,
            "details": list(self.details), "citation_only": self.citation_only,
            "cells": [c.to_json() for c in self.cells],
            "text_diff": list(self.text_diff),
        }


@slotted.frozen
class PatchStep:
    """One operation of a patch, resolved."""

    index: int
    """1-based, over the whole chain of patches from A to B."""
    patch: str
    """The id of the patch that holds it."""
    op: str
    kind: str
    name: str
    cite: str
    at: str

    def label(self) -> str:
        """``override action holds_firm``."""
        name = f'"{self.name}"' if self.kind == "rule" else self.name
        return f"{self.op} {self.kind} {name}"

    def to_json(self) -> dict[str, Any]:
        return slotted.asdict(self)


@slotted.frozen
class StructureDiff:
    """Everything A and B declare differently."""

    relation: str
    """``same``, ``patch`` (B extends A), ``reverse patch`` (A extends B) or ``unrelated``."""
    declarations: tuple[DeclChange, ...]
    data: tuple[str, ...]
    """Differences in unit profiles, equipment and attack modes, in words."""
    patch: tuple[PatchStep, ...] | None
    """The operations from A to B when B is a patch of A (else None)."""

    @property
    def empty(self) -> bool:
        """No difference at all."""
        return not self.declarations and not self.data

    def counts(self) -> dict[str, int]:
        out = {"added": 0, "removed": 0, "changed": 0}
        for d in self.declarations:
            out[d.change] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "relation": self.relation,
            "counts": self.counts(),
            "declarations": [d.to_json() for d in self.declarations],
            "data": list(self.data),
            "patch": [p.to_json() for p in self.patch] if self.patch is not None else None,
        }


# ---------------------------------------------------------------- relations


def relation(a: Ruleset, b: Ruleset) -> str:
    """How B stands to A: ``same``, ``patch``, ``reverse patch`` or ``unrelated``."""
    if a.folder == b.folder:
        return "same"
    if any(r.folder == a.folder for r in b.lineage()[1:]):
        return "patch"
    if any(r.folder == b.folder for r in a.lineage()[1:]):
        return "reverse patch"
    return "unrelated"


def patch_rulesets(a: Ruleset, b: Ruleset) -> list[Ruleset]:
    """The patches from A (excluded) to B (included), root first; [] unless B extends A."""
    chain = b.lineage()
    for i, r in enumerate(chain):
        if r.folder == a.folder:
            return list(reversed(chain[:i]))
    return []


def patch_steps(a: Ruleset, b: Ruleset) -> tuple[PatchStep, ...] | None:
    """The operations of every patch from A to B, in order; None unless B extends A."""
    if relation(a, b) != "patch":
        return None
    out: list[PatchStep] = []
    for patch in patch_rulesets(a, b):
        _, ops = patch.patches[-1]
        for op in ops:
            out.append(PatchStep(len(out) + 1, patch.id, op.op, op.kind, op.name,
                                 op_cite(op, patch), op.span.text()))
    return tuple(out)


def op_cite(op: ast.PatchOp, patch: Ruleset) -> str:
    """A patch operation's citation, as the patch's sources resolve it."""
    cite = op.decl.cite if op.decl is not None else op.cite
    return cite.text(patch.sources) if cite is not None else ""


# ---------------------------------------------------------------- declarations


def decl_of(rs: Ruleset, key: str) -> ast.Decl | None:
    """The declaration (or rule) under a key, or None."""
    if key.startswith("rule:"):
        return rs.rules.get(key[5:])
    return rs.decls.get(key)


def _keys(rs: Ruleset) -> Iterator[str]:
    yield from rs.decls
    for name in rs.rules:
        yield f"rule:{name}"


def _side(rs: Ruleset, key: str, decl: ast.Decl | None) -> Side | None:
    origin = rs.origins.get(key)
    if decl is None and (origin is None or origin.op != "remove"):
        return None
    at = decl.span.text() if decl is not None else None
    if origin is None:
        return Side(rs.id, "", at)
    return Side(origin.ruleset, origin.cite, at, origin.op)


def table_cells(a: Any, b: Any) -> tuple[CellChange, ...]:
    """The cells of two tables that differ (a cell one table lacks shows as ``(no cell)``)."""
    if a is None or b is None:
        return ()
    names = tuple(a.keys) if tuple(a.keys) == tuple(b.keys) else tuple(
        f"{x}/{y}" if x != y else x for x, y in zip(a.keys, b.keys))
    out = []
    for key in dict.fromkeys([*a.cells, *b.cells]):
        va = a.cells.get(key, MISSING)
        vb = b.cells.get(key, MISSING)
        if va != vb or type(va) is not type(vb):
            out.append(CellChange(tuple(zip(names, key)), va, vb))
    return tuple(out)


def changed_keys(a: Ruleset, b: Ruleset) -> set[str]:
    """Keys whose declaration differs in what it does (added, removed, body or table cells)."""
    out = set()
    for key in dict.fromkeys([*_keys(a), *_keys(b)]):
        da, db = decl_of(a, key), decl_of(b, key)
        if da is None or db is None:
            out.add(key)
        elif normalise(da, SPANS_AND_CITES) != normalise(db, SPANS_AND_CITES):
            out.add(key)
        elif isinstance(da, ast.TableDecl) and table_cells(a.tables.get(key), b.tables.get(key)):
            out.add(key)
    return out


def structure_diff(a: Ruleset, b: Ruleset) -> StructureDiff:
    """Every declaration, rule and table cell A and B declare differently."""
    changes = []
    for key in dict.fromkeys([*_keys(a), *_keys(b)]):
        da, db = decl_of(a, key), decl_of(b, key)
        either = da or db
        if either is None:
            continue
        kind, name = either.kind, either.name
        side_a, side_b = _side(a, key, da), _side(b, key, db)
        if da is None:
            changes.append(DeclChange("added", kind, name, key, side_a, side_b))
            continue
        if db is None:
            changes.append(DeclChange("removed", kind, name, key, side_a, side_b))
            continue
        cells: tuple[CellChange, ...] = ()
        if isinstance(da, ast.TableDecl) and isinstance(db, ast.TableDecl):
            cells = table_cells(a.tables.get(key), b.tables.get(key))
        body_same = normalise(da, SPANS_AND_CITES) == normalise(db, SPANS_AND_CITES)
        if body_same and not cells:
            if a.cite(key) != b.cite(key):
                changes.append(DeclChange("changed", kind, name, key, side_a, side_b,
                                          ("citation",), citation_only=True))
            continue
        details = [] if body_same else differing_fields(da, db)
        if cells:
            details.append(f"{len(cells)} cell{'' if len(cells) == 1 else 's'}")
        if da.kind != db.kind:
            kind = f"{da.kind} -> {db.kind}"
        changes.append(DeclChange("changed", kind, name, key, side_a, side_b, tuple(details),
                                  cells=cells, text_diff=() if body_same else
                                  tuple(_text_diff(da, db))))
    return StructureDiff(relation(a, b), tuple(changes), tuple(_data_diff(a, b)),
                         patch_steps(a, b))


def _data_diff(a: Ruleset, b: Ruleset) -> list[str]:
    out = []
    for what, ma, mb in (("unit profile", a.units, b.units),
                         ("equipment", a.equipment, b.equipment),
                         ("attack mode", a.attack_modes, b.attack_modes)):
        for k in dict.fromkeys([*ma, *mb]):
            if k not in mb:
                out.append(f"{what} {k} removed")
            elif k not in ma:
                out.append(f"{what} {k} added")
            elif dict(ma[k]) != dict(mb[k]):
                fields = [f for f in dict.fromkeys([*ma[k], *mb[k]])
                          if ma[k].get(f) != mb[k].get(f)]
                out.append(f"{what} {k} changed ({', '.join(fields)})")
    return out


# ---------------------------------------------------------------- source text

_OP_WORD = re.compile(r"^(override|add|define|remove)\s+")
_SPACES = re.compile(r"(?<=\S)[ \t]{2,}")


def source_text(decl: ast.Decl) -> list[str] | None:
    """The declaration's lines as written (without a patch's op word), or None if unreadable."""
    span = decl.span
    try:
        lines = Path(span.path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    end = span.end_line or span.line
    chunk = lines[span.line - 1:end]
    if not chunk:
        return None
    chunk[0] = _OP_WORD.sub("", chunk[0][span.column - 1:] if span.column > 1 else chunk[0])
    return [_SPACES.sub(" ", line.rstrip()) for line in chunk]


def _text_diff(da: ast.Decl, db: ast.Decl) -> list[str]:
    ta, tb = source_text(da), source_text(db)
    if ta is None or tb is None:
        return []
    lines = list(difflib.unified_diff(ta, tb, lineterm="", n=1))[2:]
    # hunk headers are line numbers within the declaration: show only where a gap is
    hunks = [i for i, line in enumerate(lines) if line.startswith("@@")]
    return [" ..." if i in hunks else line for i, line in enumerate(lines) if i != hunks[0]]
