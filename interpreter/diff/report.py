"""A whole diff of two rulesets: structure, behaviour, battle outcomes and attribution."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from rules_run.diagnostics import Diagnostic, InterpreterError, Severity, UsageError
from rules_run.diff.battles import (
    BASE,
    OTHER,
    Attribution,
    BattleDiff,
    RunSpec,
    attribution,
    battle_diff,
    run_states,
    state_context,
)
from rules_run.diff.behaviour import (
    DEFAULT_CELLS,
    DEFAULT_SEQUENCE_CELLS,
    BehaviourDiff,
    behaviour_diff,
)
from rules_run.diff.steps import resolved_ops, same_data
from rules_run.diff.structure import SIDES, StructureDiff, structure_diff
from rules_run.editions.ruleset import Ruleset
from rules_run.paths import shown

__all__ = ["DiffReport", "diff_rulesets", "ruleset_info"]




def ruleset_info(rs: Ruleset) -> dict[str, Any]:
    """What a report says about one side."""
    return {"id": rs.id, "title": rs.title, "folder": shown(rs.folder), "chain": list(rs.chain)}


@attrs.frozen
class DiffReport:
    """Everything ``rules-diff`` reports."""

    a: dict[str, Any]
    b: dict[str, Any]
    structure: StructureDiff
    behaviour: BehaviourDiff | None
    battle: BattleDiff | None
    attribution: Attribution | None
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.a, "b": self.b,
            "structure": self.structure.to_json(),
            "behaviour": self.behaviour.to_json() if self.behaviour else None,
            "battle": self.battle.to_json() if self.battle else None,
            "attribution": self.attribution.to_json() if self.attribution else None,
            "notes": list(self.notes),
        }


def diff_rulesets(
    a_ref: str, b_ref: str, battle: str | None = None, *, runs: int = 1000,
    seed: int | None = None, workers: int = 1, options: Mapping[str, Any] | None = None,
    cells: int = DEFAULT_CELLS, sequence_cells: int = DEFAULT_SEQUENCE_CELLS,
    behaviour: bool = True, attribute: bool = True,
    progress: Callable[[str, int, int], None] | None = None, executor: str | None = None,
) -> DiffReport:
    """Compare two rulesets (ids, aliases or folders).

    Args:
        a_ref, b_ref: the two rulesets.
        battle: a battle file to fight ``runs`` times under each (and under each step of
            the patch, for attribution).
        seed: the master seed (default: the battle file's).
        options: option values for both rulesets.
        cells, sequence_cells: grid caps for the behaviour comparison.
        progress: called with (what, done, total).
        executor: where the battles run (:func:`rules_run.engine.stats.open_executor`);
            on Dask, each task carries the files of both rulesets and of the battle.

    Raises:
        InterpreterError: a ruleset or the battle file does not load, or the battle cannot
            be fought under one of the rulesets.
    """
    from rules_run.editions.loader import load_edition
    from rules_run.engine.setup import read_battle

    if runs < 1 or workers < 1:
        raise UsageError("--runs and --workers must be at least 1")
    if cells < 1 or sequence_cells < 1:
        raise UsageError("--cells and --sequence-cells must be at least 1")
    options = dict(options or {})
    a, b = load_edition(a_ref), load_edition(b_ref)
    structure = structure_diff(a, b)
    notes: list[str] = []
    spec = used_seed = None
    if battle is not None:
        # the battle is checked under both rulesets first: a mistake is reported at once
        doc = read_battle(battle)
        used_seed = int(doc.value.get("seed", 0)) if seed is None else seed
        bundle = None
        if executor is not None and executor.startswith("dask"):
            from rules_run.editions.bundle import pack

            bundle = pack([a, b], battle)
        spec = RunSpec(str(a.folder), str(b.folder), battle, options, used_seed, bundle)
        for key, rs, which in ((BASE, a, SIDES[0]), (OTHER, b, SIDES[1])):
            try:
                _, runtime, _ = state_context(spec, key)
            except InterpreterError as err:
                note = Diagnostic(f"while fighting {battle!r} under {which} ({rs.id})",
                                  code="battle-under", severity=Severity.NOTE)
                raise type(err)([*err.diagnostics, note]) from None
            if runtime.battle_decl is None:
                raise UsageError(
                    f"the ruleset {rs.id!r} declares no 'battle' (its turn structure), so "
                    f"{battle!r} cannot be fought under it; drop the battle file to compare "
                    "structure and behaviour only")
    beh = None
    if behaviour:
        beh = behaviour_diff(a, b, options, cells=cells, sequence_cells=sequence_cells,
                             workers=workers, progress=(lambda d, t: progress("declarations", d, t))
                             if progress else None)
    outcome = att = None
    if spec is not None and used_seed is not None and battle is not None:
        sides = tuple(state_context(spec, BASE)[2].sides)
        chain, alone = [(BASE, (), a.id)], []
        if attribute and structure.relation == "patch" and structure.patch:
            chain, alone, more = _plan(spec, a, b)
            notes.extend(more)
        else:
            chain.append((OTHER, (), b.id))
            if attribute and structure.relation == "reverse patch":
                notes.append(f"A ({a.id}) is a patch of B ({b.id}): give them the other way "
                             "round to attribute the difference to the patch's operations")
        keys = list(dict.fromkeys([k for k, _, _ in chain] +
                                  [k for k, _, _, _ in alone if k is not None]))
        results = run_states(spec, keys, runs, workers,
                             (lambda d, t: progress("battles", d, t)) if progress else None,
                             executor)
        outcome = battle_diff(shown(battle), used_seed, sides, results[BASE],
                              results[OTHER])
        if attribute and structure.relation == "patch" and structure.patch:
            att = attribution(chain, alone, results, sides, notes)
    return DiffReport(ruleset_info(a), ruleset_info(b), structure, beh, outcome, att,
                      tuple(notes))


def _label(ops: list, indices: list[int]) -> str:
    numbers = f"{indices[0] + 1}" if len(indices) == 1 else f"{indices[0] + 1}-{indices[-1] + 1}"
    return f"{numbers}. " + " + ".join(ops[i].step.label() for i in indices)


def _plan(spec: RunSpec, a: Ruleset, b: Ruleset):
    """The states from A to B for attribution, each operation alone, and notes."""
    ops = resolved_ops(a, b)
    n = len(ops)
    notes: list[str] = []
    chain: list[tuple[tuple, tuple[int, ...], str]] = [(BASE, (), a.id)]
    data_same = same_data(a, b)
    pending: list[int] = []
    for k in range(1, n + 1):
        pending.append(k - 1)
        if k == n and data_same:
            break
        key = ("ops", tuple(range(k)))
        try:
            state_context(spec, key)
        except InterpreterError as err:
            notes.append(f"with operation {k} but not {k + 1} the ruleset does not work "
                         f"({_first(err)}): they are measured together")
            continue
        chain.append((key, tuple(i + 1 for i in pending), _label(ops, pending)))
        pending = []
    if data_same:
        chain.append((OTHER, tuple(i + 1 for i in pending), _label(ops, pending)))
    else:
        label = "unit data and attack modes (not patch operations)"
        if pending:
            label = _label(ops, pending) + " + " + label
        chain.append((OTHER, tuple(i + 1 for i in pending), label))
    alone: list[tuple[tuple | None, tuple[int, ...], str, str | None]] = []
    if n >= 2:
        for k in range(n):
            key = ("ops", (k,))
            label = _label(ops, [k])
            try:
                state_context(spec, key)
                alone.append((key, (k + 1,), label, None))
            except InterpreterError as err:
                alone.append((None, (k + 1,), label, f"cannot be applied alone: {_first(err)}"))
    return chain, alone, notes


def _first(err: InterpreterError) -> str:
    return err.diagnostics[0].message if err.diagnostics else str(err)
