"""A whole diff of two rulesets: structure, behaviour, battle outcomes and attribution."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from rules_run import slotted
from rules_run.diagnostics import Diagnostic, InterpreterError, Severity, UsageError
from rules_run.diff.battles import (
    BASE,
    OTHER,
    Attribution,
    BattleDiff,
    RunSpec,
    attribution,
    battle_diff,
    borrowed_data,
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
from rules_run.lang.walk import walk
from rules_run.paths import shown

__all__ = ["DiffReport", "diff_rulesets", "ruleset_info", "ATTRIBUTION_RUNS", "ALONE_MAX"]

ATTRIBUTION_RUNS = 100
"""Battles fought under each ruleset between A and B for attribution (the first of the
``runs`` seeds, and A's and B's own results over those seeds): a patch of many operations
fights one batch per operation."""
ALONE_MAX = 24
"""Each operation is also fought alone on A only when the patch has at most this many."""




def ruleset_info(rs: Ruleset) -> dict[str, Any]:
    """What a report says about one side."""
    return {"id": rs.id, "title": rs.title, "folder": shown(rs.folder), "chain": list(rs.chain)}


@slotted.frozen
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
    attribution_runs: int = ATTRIBUTION_RUNS,
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
        attribution_runs: battles per ruleset between A and B (at most ``runs``); the
            attribution compares them with A's and B's first ones.

    Raises:
        InterpreterError: a ruleset or the battle file does not load, or the battle cannot
            be fought under one of the rulesets.
    """
    from rules_run.editions.loader import load_edition
    from rules_run.engine.setup import read_battle

    if runs < 1 or workers < 1 or attribution_runs < 1:
        raise UsageError("--runs, --attribution-runs and --workers must be at least 1")
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
        dropped = borrowed_data(a, b)[1]
        if dropped:
            notes.append(f"the profiles and equipment only {b.id} has fight under {a.id}, and "
                         "under each step before the operation that declares the rule, "
                         f"without the rule references {a.id} cannot read: {', '.join(dropped)}")
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
        between = [k for k in keys if k not in (BASE, OTHER)]
        few = min(runs, attribution_runs)
        total = 2 * runs + few * len(between)
        results = run_states(spec, [BASE, OTHER], runs, workers,
                             (lambda d, t: progress("battles", d, total)) if progress else None,
                             executor)
        if between:
            results.update(run_states(
                spec, between, few, workers,
                (lambda d, t: progress("battles", 2 * runs + d, total)) if progress else None,
                executor))
            if few < runs:
                notes.append(f"attribution: each ruleset between {a.id} and {b.id} fights the "
                             f"first {few} of the {runs} runs, compared with {a.id}'s and "
                             f"{b.id}'s results over the same seeds")
        outcome = battle_diff(shown(battle), used_seed, sides, results[BASE],
                              results[OTHER])
        if attribute and structure.relation == "patch" and structure.patch:
            att = attribution(chain, alone, {k: v[:few] for k, v in results.items()}, sides,
                              notes)
    return DiffReport(ruleset_info(a), ruleset_info(b), structure, beh, outcome, att,
                      tuple(notes))


def _label(ops: list, indices: list[int]) -> str:
    numbers = f"{indices[0] + 1}" if len(indices) == 1 else f"{indices[0] + 1}-{indices[-1] + 1}"
    return f"{numbers}. " + " + ".join(ops[i].step.label() for i in indices)


_ATTACHED_KINDS = ("battle", "phase", "policy", "characteristics", "keyword", "case")
"""Declarations that act without being named by another (the turn structure, a policy a
battle file picks, profile definitions, a case of an action: it runs when the action does)."""


def _texts(value: Any) -> Iterator[str]:
    """Every text inside an AST node or a data value (names, rule references)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)
    elif slotted.has(type(value)):
        for node in walk(value):
            for f in slotted.fields(cast(Any, type(node))):
                if isinstance(getattr(node, f.name), str):
                    yield getattr(node, f.name)


_DECL_TEXTS: dict[int, tuple[Any, frozenset[str]]] = {}
"""id of a declaration -> (it, :func:`_texts` of it): every step of an attribution asks
about the same declarations."""


def _decl_texts(decl: Any) -> frozenset[str]:
    """The texts of one declaration (:func:`_texts`), once per declaration object."""
    found = _DECL_TEXTS.get(id(decl))
    if found is None or found[0] is not decl:
        if len(_DECL_TEXTS) >= 20_000:
            _DECL_TEXTS.clear()
        found = _DECL_TEXTS[id(decl)] = (decl, frozenset(_texts(decl)))
    return found[1]


def unreferenced(rs: Ruleset, before: Ruleset, key: str, data: Any) -> bool:
    """Whether the declaration under ``key``, new in ``rs`` (``before`` has none), cannot
    act in a battle: no other declaration, rule, unit profile, equipment item or ``data``
    (the battle file) names it, and it is no global rule nor one of the kinds that act
    unnamed. The battle is then the same under ``rs`` as under ``before``."""
    from rules_run.lang.rule_refs import RuleRefError, resolve_rule

    rule = None
    if key.startswith("rule:"):
        rule = rs.rules.get(key[5:])
        if rule is None or rule.is_global or key[5:] in before.rules:
            return False
    else:
        decl = rs.decls.get(key)
        if decl is None or decl.kind in _ATTACHED_KINDS or key in before.decls:
            return False
    others = [d for k, d in rs.decls.items() if k != key] + \
        [r for name, r in rs.rules.items() if rule is None or name != rule.name]
    texts = set().union(*map(_decl_texts, others)) | set(
        _texts([dict(rs.units), dict(rs.equipment), data]))
    if rule is None:
        return key not in texts
    for text in texts:
        try:
            if resolve_rule(text, {rule.name: rule})[0] is rule:
                return False
        except (KeyError, ValueError, RuleRefError):
            continue
    return True


def _plan(spec: RunSpec, a: Ruleset, b: Ruleset):
    """The states from A to B for attribution, each operation alone, and notes."""
    from rules_run.engine.setup import read_battle

    ops = resolved_ops(a, b)
    n = len(ops)
    notes: list[str] = []
    chain: list[tuple[tuple, tuple[int, ...], str]] = [(BASE, (), a.id)]
    data_same = same_data(a, b)
    pending: list[int] = []
    battle_data = read_battle(spec.local()[2]).value
    inert: list[int] = []
    for k in range(1, n + 1):
        pending.append(k - 1)
        if k == n and data_same:
            break
        key = ("ops", tuple(range(k)))
        if pending == [k - 1] and _inert(a, b, key, ops[k - 1], chain[-1][0], battle_data):
            chain.append((chain[-1][0], (k,), _label(ops, pending)))
            inert.append(k)
            pending = []
            continue
        try:
            state_context(spec, key)
        except InterpreterError as err:
            notes.append(f"with operation {k} but not {k + 1} the ruleset does not work "
                         f"({_first(err)}): they are measured together")
            continue
        chain.append((key, tuple(i + 1 for i in pending), _label(ops, pending)))
        pending = []
    if inert:
        notes.append(f"operation{'s' if len(inert) > 1 else ''} "
                     f"{', '.join(str(k) for k in inert)} not fought: nothing in the ruleset "
                     "names what each declares yet, so the battle is the same (exactly no "
                     "change)")
    if data_same:
        chain.append((OTHER, tuple(i + 1 for i in pending), _label(ops, pending)))
    else:
        label = "unit data and attack modes (not patch operations)"
        if pending:
            label = _label(ops, pending) + " + " + label
        chain.append((OTHER, tuple(i + 1 for i in pending), label))
    alone: list[tuple[tuple | None, tuple[int, ...], str, str | None]] = []
    if n > ALONE_MAX:
        notes.append(f"the patch has {n} operations: each is not also fought alone on "
                     f"{a.id} (only up to {ALONE_MAX}), so there is no interaction term")
    elif n >= 2:
        for k in range(n):
            key = ("ops", (k,))
            label = _label(ops, [k])
            try:
                state_context(spec, key)
                alone.append((key, (k + 1,), label, None))
            except InterpreterError as err:
                alone.append((None, (k + 1,), label, f"cannot be applied alone: {_first(err)}"))
    return chain, alone, notes


def _inert(a: Ruleset, b: Ruleset, key: tuple, op: Any, previous: tuple, battle_data: Any
           ) -> bool:
    """Whether operation ``key[1][-1]`` only adds a declaration nothing names yet."""
    from rules_run.diff.battles import _state_ruleset

    name = f"rule:{op.op.name}" if op.op.kind == "rule" else op.op.name
    try:
        now, before = _state_ruleset(a, b, key), _state_ruleset(a, b, previous)
    except InterpreterError:
        return False
    return unreferenced(now, before, name, battle_data)


def _first(err: InterpreterError) -> str:
    return err.diagnostics[0].message if err.diagnostics else str(err)
