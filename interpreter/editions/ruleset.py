"""A checked ruleset: every declaration after ``extends`` and patches, plus its data."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules_run import slotted
from rules_run.data.tables import Table
from rules_run.diagnostics import Diagnostic, Span
from rules_run.lang import ast
from rules_run.lang.checker import Usage

__all__ = ["Ruleset", "Origin"]


@slotted.frozen
class Origin:
    """Which ruleset last declared a thing, and how to cite it."""

    ruleset: str
    """The id of the ruleset (or patch) whose declaration is in force."""
    cite: str
    """The citation as a reader sees it: ``000_c43...txt L450`` or a "not in seed" note."""
    op: str = "declare"
    """``declare`` (a base ruleset), ``add``, ``override`` or ``define`` (a patch)."""


@slotted.frozen
class Ruleset:
    """An immutable, checked ruleset.

    Applying a patch builds a new Ruleset; the base is never changed. ``chain`` lists the
    ids from the root edition to this one (a base, its first patch, a patch of that).
    """

    id: str
    title: str
    folder: Path
    chain: tuple[str, ...]
    """Ids from the root edition down to this ruleset."""
    decls: Mapping[str, ast.Decl]
    """Every declaration but rules, by name."""
    rules: Mapping[str, ast.RuleDecl]
    """Special rules (abilities, commands, items, spells) by their quoted name."""
    origins: Mapping[str, Origin]
    """Where each declaration in force comes from; keys are names, rules as ``rule:<name>``."""
    patches: tuple[tuple[str, tuple[ast.PatchOp, ...]], ...]
    """For each patch in the chain (root first), its id and its operations in file order."""
    sources: tuple[str, ...]
    """The seed files this ruleset cites; the first is the default."""
    tables: Mapping[str, Table]
    """Loaded tables (:class:`rules_run.data.tables.Table`) by name."""
    units: Mapping[str, Mapping[str, Any]]
    """Unit profiles by ``file/profile`` (``empire/halberdier``)."""
    equipment: Mapping[str, Mapping[str, Any]]
    """Equipment items by id."""
    battles: tuple[Path, ...]
    """Bundled battle files."""
    default_battle: Path | None
    """The battle ``rules-run --edition <id>`` runs when no file is given."""
    attack_modes: Mapping[str, Mapping[str, Any]] = slotted.slot(factory=dict)
    """How attack tools use the ruleset (``attacks:`` in index.yaml): each mode, by the
    ruleset's own name, -> its ``sequence``, the ``count`` action giving the number of
    attacks, the parameters taking the ``attacker``, the ``target`` (tuples of names) and
    each ``weapon``, and those a user may ``set`` (a tuple)."""
    default_files: int | None = None
    """How many models wide a unit stands when its battle file gives no ``files`` (fewer
    when it has fewer models): ``default_files:`` in index.yaml, else its base's; None: one
    rank."""
    library: frozenset[str] = frozenset()
    """Declarations kept for tools, worked examples or patches (``library:`` in index.yaml,
    with its base's): never reported as unused."""
    report: Mapping[str, Mapping[str, str]] = slotted.slot(factory=dict)
    """The battle report's words (``report:`` in index.yaml, over its base's): section
    (``names``, ``rolls``, ``decisions``, ``messages``) -> key -> phrase."""
    base: Ruleset | None = slotted.slot(default=None, repr=False)
    """The ruleset this one extends, if any."""
    usage: Usage | None = slotted.slot(default=None, repr=False)
    """What uses what, as checking found it (a patch's report of what it leaves unused
    needs its base's)."""
    warnings: tuple[Diagnostic, ...] = ()
    """What checking found that runs but is probably not what the author meant (a
    declaration nothing uses). A patch has its own only."""
    fingerprint: str = ""
    """A digest of the files of this ruleset and of its bases: two rulesets with the same
    fingerprint were loaded from the same files (the disk cache and the run specs of
    ``--executor`` check it)."""

    def lineage(self) -> list[Ruleset]:
        """This ruleset, its base, its base's base, ... (nearest first)."""
        out = []
        current: Ruleset | None = self
        while current is not None:
            out.append(current)
            current = current.base
        return out

    def decl(self, name: str) -> ast.Decl | None:
        """The declaration called ``name``, or None."""
        return self.decls.get(name)

    def of_kind(self, kind: str) -> dict[str, ast.Decl]:
        """Declarations of one kind (``test``, ``table``, ...), by name."""
        return {n: d for n, d in self.decls.items() if d.kind == kind}

    def characteristics(self, entity: str | None = None) -> list[ast.CharacteristicDecl]:
        """Declared characteristics (of one profile kind), in declaration order."""
        return [
            d
            for d in self.decls.values()
            if isinstance(d, ast.CharacteristicDecl) and (entity is None or d.entity == entity)
        ]

    def cite(self, name: str) -> str:
        """How to cite a declaration (a rule as ``rule:<name>``)."""
        origin = self.origins.get(name)
        return origin.cite if origin else ""

    def data_cite(self, text: str) -> str:
        """A data file's citation (``L1223``, ``004 L9``, a "not in seed" note) as a
        declaration's reads (``000_c43....txt L1223``)."""
        if text.startswith("not in seed"):
            return text
        source, _, lines = text.partition(" ") if text[:1].isdigit() else (None, "", text)
        return ast.Cite(span=Span("<data>", 1), source=source,
                        ranges=tuple(r.strip() for r in lines.split(","))).text(self.sources)
