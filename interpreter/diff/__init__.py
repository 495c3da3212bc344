"""Diff two rulesets: what they declare differently, and what that changes.

A diff has four parts, each usable on its own:

- :func:`structure_diff`: declarations added, removed and changed (spans never count), each
  with both citations; tables cell by cell; the operations of the patch from A to B.
- :func:`behaviour_diff`: every roll, test, sequence and action whose behaviour could
  differ, run exactly under both over a grid of synthetic inputs.
- :func:`battle_diff` (through :func:`diff_rulesets` with a battle file): the battle's
  outcomes under both with common random numbers, and paired tests of the differences.
- attribution: the patch's operations applied one at a time, and what each one moves.

Conventions:
    - A is the base, B the other ruleset; a difference is B - A.
    - Nothing here changes a ruleset: intermediate rulesets are new objects.
    - The same inputs and seed give the same report, whatever the number of workers.
"""

from rules_run.diff.battles import (
    PAIRED_TEST,
    Attribution,
    AttributionStep,
    BattleDiff,
    Paired,
    battle_diff,
    paired,
)
from rules_run.diff.behaviour import (
    DEFAULT_CELLS,
    DEFAULT_SEQUENCE_CELLS,
    BehaviourDiff,
    CellDiff,
    DeclBehaviour,
    behaviour_diff,
)
from rules_run.diff.grid import Dim
from rules_run.diff.normal import differing_fields, normalise, same
from rules_run.diff.report import ALONE_MAX, ATTRIBUTION_RUNS, DiffReport, diff_rulesets
from rules_run.diff.steps import ResolvedOp, apply_ops, resolved_ops
from rules_run.diff.structure import (
    CellChange,
    DeclChange,
    PatchStep,
    Side,
    StructureDiff,
    structure_diff,
)
from rules_run.diff.text import render

__all__ = [
    "normalise",
    "same",
    "differing_fields",
    "structure_diff",
    "StructureDiff",
    "DeclChange",
    "CellChange",
    "PatchStep",
    "Side",
    "behaviour_diff",
    "BehaviourDiff",
    "DeclBehaviour",
    "CellDiff",
    "Dim",
    "DEFAULT_CELLS",
    "DEFAULT_SEQUENCE_CELLS",
    "battle_diff",
    "BattleDiff",
    "Paired",
    "paired",
    "PAIRED_TEST",
    "Attribution",
    "AttributionStep",
    "resolved_ops",
    "apply_ops",
    "ResolvedOp",
    "diff_rulesets",
    "DiffReport",
    "ATTRIBUTION_RUNS",
    "ALONE_MAX",
    "render",
]
