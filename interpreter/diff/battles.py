"""Battle outcomes under A and B with common random numbers, and their attribution.

Run ``i`` of every ruleset uses the same seed, ``derive_seed(seed, "run", i)`` (as
``rules-run --runs`` does), so the two batches are paired: a difference between run ``i``
under A and under B comes from the rules, not from other dice. Differences are tested on
those pairs: the mean of the per-run differences B - A with a 95% normal interval (a paired
z-test); a difference is significant when the interval leaves out 0.

Attribution applies a patch's operations one at a time, in patch order
(:mod:`rules_run.diff.steps`), runs the battle after each, and gives each operation the
change from the state before it. The steps add up to the total exactly (the sum
telescopes), but an operation's share depends on those before it: the same operations in
another order can share the total differently. Each operation is also run alone on A; the
total minus the sum of those is the interaction.

A battle of B's may field units whose profiles (or equipment) only B's data has, as a patch
that brings its own army does. A and every ruleset between A and B fight them with those
profiles, each without the rule references that ruleset does not declare
(:func:`borrowed_data`): a unit gets a rule of the patch from the operation that declares it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules_run import slotted
from rules_run.chance import derive_seed
from rules_run.engine.stats import SPECIALISE_FROM, Z95, open_executor, summarise

__all__ = [
    "RunSpec", "Paired", "paired", "run_states", "metrics_of", "BattleDiff", "battle_diff",
    "AttributionStep", "Attribution", "attribution", "PAIRED_TEST", "state_ruleset",
    "state_context", "BASE", "OTHER", "borrowed_data",
]

PAIRED_TEST = ("paired test on common-random-number pairs: the mean of the per-run "
               "differences B - A over the same seeds, 95% normal interval (z-test)")
"""How differences are tested, as the report says it."""

StateKey = tuple
"""``BASE`` (A), ``OTHER`` (B) or ``("ops", (0, 1, ...))`` (A with those operations of
the patch applied): which ruleset a batch runs under."""
BASE: StateKey = ("base",)
OTHER: StateKey = ("other",)


class RunSpec:
    """What a worker needs to rebuild every ruleset and the battle: plain values only.

    With a ``bundle`` (:mod:`rules_run.editions.bundle`: the files of A, B and the
    battle, with both fingerprints) it is self-contained: the worker fights from those
    files, checked, not from the folders and path named."""

    def __init__(self, a: str, b: str, battle: str, options: dict[str, Any], seed: int,
                 bundle: Any = None) -> None:
        self.a, self.b, self.battle, self.options, self.seed = a, b, battle, options, seed
        self.bundle = bundle

    def key(self) -> tuple:
        return (self.a, self.b, self.battle, tuple(sorted(self.options.items())), self.bundle)

    def local(self) -> tuple[str, str, str]:
        """A's and B's folders and the battle file on this machine (the bundle's, unpacked,
        when there is one)."""
        from rules_run.editions.bundle import unpack

        if self.bundle is None:
            return self.a, self.b, self.battle
        (a, b), battle = unpack(self.bundle)
        return str(a), str(b), str(battle)


_CONTEXT: dict[tuple, Any] = {}


def state_label(a_id: str, b_id: str, key: StateKey) -> str:
    """The id an intermediate ruleset gets: ``B[1-2]`` (operations 1 and 2 applied)."""
    if key == BASE:
        return a_id
    if key == OTHER:
        return b_id
    return f"{b_id}[{','.join(str(i + 1) for i in key[1])}]"


def state_ruleset(spec: RunSpec, key: StateKey):
    """The ruleset a state runs under (intermediates are built from A and B's patch)."""
    from rules_run.editions.loader import load_edition

    a, b, _ = spec.local()
    return _state_ruleset(load_edition(a), load_edition(b), key)


_STATES: dict[tuple[int, int], tuple[Any, Any, list, dict[StateKey, Any]]] = {}
"""(id of A, id of B) -> (A, B, the patch's operations, the rulesets between them by
state, or the error a state's check raised): each is built and checked once per process,
whoever asks (the attribution's plan, the inert test, the battles)."""
_STATES_KEPT = 4


def _state_ruleset(a, b, key: StateKey):
    from rules_run.diagnostics import InterpreterError
    from rules_run.diff.steps import apply_ops, resolved_ops

    if key == OTHER:
        return b
    pair = _STATES.get((id(a), id(b)))
    if pair is None or pair[0] is not a or pair[1] is not b:
        if len(_STATES) >= _STATES_KEPT:
            _STATES.clear()
        pair = _STATES[(id(a), id(b))] = (a, b, resolved_ops(a, b), {})
    built = pair[3]
    if key == BASE and key not in built:
        built[key] = borrowed_data(a, b)[0]
    if key not in built:
        ops = pair[2]
        try:
            built[key] = borrowed_data(
                apply_ops(a, [ops[i] for i in key[1]], state_label(a.id, b.id, key)), b)[0]
        except InterpreterError as err:
            built[key] = err
    found = built[key]
    if isinstance(found, InterpreterError):
        raise found
    return found


def borrowed_data(rs, other) -> tuple[Any, tuple[str, ...]]:
    """``rs`` with the unit profiles and equipment items only ``other`` has, each without
    the rule references ``rs`` does not declare; and those references (sorted). ``rs``
    itself when ``other`` has no profile or item it lacks."""
    from rules_run.lang.rule_refs import rule_reference_problem

    dropped: set[str] = set()

    def keep(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: [t for t in v if not _unknown(t)] if k == "rules" and isinstance(v, list)
                    else keep(v) for k, v in value.items()}
        if isinstance(value, list):
            return [keep(v) for v in value]
        return value

    def _unknown(text: Any) -> bool:
        if isinstance(text, str) and rule_reference_problem(text, rs.rules) is not None:
            dropped.add(text)
            return True
        return False

    units = {k: keep(v) for k, v in other.units.items() if k not in rs.units}
    items = {k: keep(v) for k, v in other.equipment.items() if k not in rs.equipment}
    if not units and not items:
        return rs, ()
    return (slotted.evolve(rs, units={**rs.units, **units}, equipment={**rs.equipment, **items}),
            tuple(sorted(dropped)))


def state_context(spec: RunSpec, key: StateKey):
    """The ruleset, runtime and battle of a state (built once per process, and again
    when a ruleset's files change)."""
    from rules_run.editions.loader import load_edition
    from rules_run.engine.builtins import BUILTINS
    from rules_run.engine.setup import load_battle, read_battle
    from rules_run.runtime.compiled import compile_ruleset

    a_folder, b_folder, battle_path = spec.local()
    a, b = load_edition(a_folder), load_edition(b_folder)
    ck = spec.key() + (key, id(a), id(b))
    found = _CONTEXT.get(ck)
    if found is None or found[0] is not a or found[1] is not b:
        rs = _state_ruleset(a, b, key)
        if key in (BASE, OTHER):
            runtime = compile_ruleset(rs, builtins=BUILTINS)
        else:
            runtime = _between_runtime(a, b, rs)
        battle = load_battle(read_battle(battle_path), rs, runtime, spec.options)
        found = _CONTEXT[ck] = (a, b, rs, runtime, battle)
    return found[2:]


_CODES: dict[tuple[int, int], tuple[Any, Any, dict[str, Any]]] = {}
"""(id of A, id of B) -> (A, B, the code compiled for the rulesets between them so far,
by label and source): a step changes a few declarations, the others' code is the same."""


def _between_runtime(a, b, rs):
    """The runtime of a ruleset between A and B, reusing the code an earlier one
    compiled from the same source (:attr:`rules_run.runtime.codegen.CodeGen.codes`)."""
    from rules_run.engine.builtins import BUILTINS
    from rules_run.runtime.compiled import Runtime

    pair = _CODES.get((id(a), id(b)))
    if pair is None or pair[0] is not a or pair[1] is not b:
        if len(_CODES) >= _STATES_KEPT:
            _CODES.clear()
        pair = _CODES[(id(a), id(b))] = (a, b, {})
    runtime = Runtime(rs, BUILTINS, pair[2])
    pair[2].update(runtime.codegen.codes)
    return runtime


def _run_chunk(spec: RunSpec, key: StateKey, indices: list[int],
               specialise: bool = False) -> list[tuple[int, dict]]:
    from rules_run.engine.driver import run_battle
    from rules_run.engine.setup import specialised

    _, runtime, battle = state_context(spec, key)
    if specialise:
        runtime = specialised(runtime, battle)   # made once per process and state
    return [(i, run_battle(runtime, battle, seed=derive_seed(spec.seed, "run", i),
                           keep_events=False).to_json()) for i in indices]


def run_states(spec: RunSpec, keys: Sequence[StateKey], runs: int, workers: int = 1,
               progress: Callable[[int, int], None] | None = None,
               executor: str | None = None) -> dict[StateKey, list[dict]]:
    """Run the battle ``runs`` times under each state, same seeds; results in run order
    (the same with any number of workers, and any ``executor``:
    :func:`rules_run.engine.stats.open_executor`)."""
    chunk = max(1, min(100, runs // (workers * 8) or 1))
    tasks = [(key, list(range(s, min(runs, s + chunk)))) for key in keys
             for s in range(0, runs, chunk)]
    results: dict[StateKey, dict[int, dict]] = {key: {} for key in keys}
    total = runs * len(keys)
    done = 0
    fast = runs >= SPECIALISE_FROM
    if workers <= 1 and executor is None:
        for key, indices in tasks:
            for i, r in _run_chunk(spec, key, indices, fast):
                results[key][i] = r
            done += len(indices)
            if progress:
                progress(done, total)
    else:
        with open_executor(executor, workers) as pool:
            futures = [(key, pool.submit(_run_chunk, spec, key, indices, fast))
                       for key, indices in tasks]
            for key, future in futures:
                for i, r in future.result():
                    results[key][i] = r
                    done += 1
                if progress:
                    progress(done, total)
    return {key: [by_run[i] for i in range(runs)] for key, by_run in results.items()}


# ---------------------------------------------------------------- statistics


@slotted.frozen
class Paired:
    """The mean per-run difference B - A over common seeds, with its 95% interval."""

    mean: float
    low: float
    high: float
    z: float | None
    """None when every run's difference is the same (no spread)."""
    significant: bool

    def to_json(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 6), "low": round(self.low, 6),
                "high": round(self.high, 6),
                "z": None if self.z is None else round(self.z, 3),
                "significant": self.significant}


def paired(xs: Sequence[float], ys: Sequence[float]) -> Paired:
    """Paired comparison of ``ys`` against ``xs`` (the same runs under two rulesets).

    Examples:
        >>> paired([0, 1, 0, 1], [0, 1, 0, 1])
        Paired(mean=0.0, low=0.0, high=0.0, z=None, significant=False)
        >>> paired([0] * 100, [1] * 60 + [0] * 40).significant
        True
    """
    n = len(xs)
    d = [y - x for x, y in zip(xs, ys)]
    mean = sum(d) / n if n else 0.0
    var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n) if n else 0.0
    if se == 0:
        return Paired(mean, mean, mean, None, mean != 0)
    z = mean / se
    return Paired(mean, mean - Z95 * se, mean + Z95 * se, z, abs(z) > Z95)


def metrics_of(result: dict, sides: Sequence[str]) -> dict[str, float]:
    """One run's numbers: ``win:<side>``, ``draw``, ``survivors:<unit>``, ``vp:<side>``."""
    out: dict[str, float] = {f"win:{s}": float(result["winner"] == s) for s in sides}
    out["draw"] = float(result["winner"] is None)
    for u in result["units"]:
        out[f"survivors:{u['id']}"] = float(u["models"])
    for s in sides:
        out[f"vp:{s}"] = float(result["victory_points"].get(s, 0))
    return out


def metric_label(key: str) -> str:
    """``won by empire``, ``draws``, ``survivors of orcs``, ``VP empire``."""
    kind, _, what = key.partition(":")
    return {"win": f"won by {what}", "draw": "draws", "survivors": f"survivors of {what}",
            "vp": f"VP {what}"}[kind]


def _columns(results: list[dict], sides: Sequence[str]) -> dict[str, list[float]]:
    cols: dict[str, list[float]] = {}
    for r in results:
        for k, v in metrics_of(r, sides).items():
            cols.setdefault(k, []).append(v)
    return cols


@slotted.frozen
class BattleDiff:
    """Outcomes of one battle under A and under B, and their paired differences."""

    battle: str
    runs: int
    seed: int
    sides: tuple[str, ...]
    a: dict[str, Any]
    """:func:`rules_run.engine.stats.summarise` of A's runs."""
    b: dict[str, Any]
    differences: tuple[tuple[str, float, float, Paired], ...]
    """(metric key, mean under A, mean under B, paired difference)."""
    winner_changed: int
    """Runs whose winner differs between A and B."""
    margins: tuple[tuple[float, int, int], ...] = ()
    """The first side's victory points minus the second's: (margin, runs under A, runs
    under B), by margin (empty with fewer than two sides)."""
    examples: tuple[tuple[int, int, str | None, str | None], ...] = ()
    """The first few runs whose winner differs: (run index, its seed, winner under A,
    winner under B). Don't confuse the seed with one for ``rules-run --seed``: a statistics
    run draws each volley's damage from its exact distribution, a narrated run rolls every
    die, so the same seed gives another battle there (the same odds)."""
    test: str = PAIRED_TEST

    def to_json(self) -> dict[str, Any]:
        return {
            "battle": self.battle, "runs": self.runs, "seed": self.seed,
            "sides": list(self.sides), "test": self.test, "a": self.a, "b": self.b,
            "winner_changed": self.winner_changed,
            "winner_changed_examples": [{"run": i, "seed": s, "a": x, "b": y}
                                        for i, s, x, y in self.examples],
            "vp_margin": [{"margin": m, "a": x, "b": y} for m, x, y in self.margins],
            "differences": {k: {"a": round(x, 6), "b": round(y, 6), **p.to_json()}
                            for k, x, y, p in self.differences},
        }


def battle_diff(battle: str, seed: int, sides: Sequence[str], runs_a: list[dict],
                runs_b: list[dict]) -> BattleDiff:
    """Summaries and paired differences of two batches run on the same seeds."""
    ca, cb = _columns(runs_a, sides), _columns(runs_b, sides)
    diffs = tuple((k, sum(ca[k]) / len(ca[k]), sum(cb[k]) / len(cb[k]), paired(ca[k], cb[k]))
                  for k in ca if k in cb)
    changed_runs = [i for i, (x, y) in enumerate(zip(runs_a, runs_b))
                    if x["winner"] != y["winner"]]
    examples = tuple((i, derive_seed(seed, "run", i), runs_a[i]["winner"], runs_b[i]["winner"])
                     for i in changed_runs[:3])
    margins: tuple[tuple[float, int, int], ...] = ()
    if len(sides) >= 2:
        ma = [x - y for x, y in zip(ca[f"vp:{sides[0]}"], ca[f"vp:{sides[1]}"])]
        mb = [x - y for x, y in zip(cb[f"vp:{sides[0]}"], cb[f"vp:{sides[1]}"])]
        margins = tuple((m, ma.count(m), mb.count(m)) for m in sorted(set(ma) | set(mb)))
    return BattleDiff(battle, len(runs_a), seed, tuple(sides), summarise(runs_a),
                      summarise(runs_b), diffs, len(changed_runs), margins, examples)


# ---------------------------------------------------------------- attribution


@slotted.frozen
class AttributionStep:
    """One step from one ruleset to the next: the operations applied, and what moved."""

    ops: tuple[int, ...]
    """1-based indices of the patch operations applied in this step (empty: data)."""
    label: str
    deltas: tuple[tuple[str, Paired], ...]
    note: str | None = None

    def delta(self, key: str) -> Paired:
        """The paired difference in the metric ``key`` (KeyError: the step was not measured,
        so has no deltas)."""
        for k, p in self.deltas:
            if k == key:
                return p
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        return {"ops": list(self.ops), "label": self.label, "note": self.note,
                "deltas": {k: p.to_json() for k, p in self.deltas}}


@slotted.frozen
class Attribution:
    """How much each patch operation moves the battle's outcome."""

    metrics: tuple[str, ...]
    steps: tuple[AttributionStep, ...]
    """In patch order; their deltas add up to :attr:`total`."""
    total: AttributionStep
    alone: tuple[AttributionStep, ...]
    """Each operation applied alone to A (when there are two or more)."""
    interaction: tuple[tuple[str, float], ...]
    """Total minus the sum of the alone effects, per metric (empty without ``alone``)."""
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "metrics": list(self.metrics),
            "order_matters": ("each step is measured with the operations before it already "
                              "applied; another order can share the total differently"),
            "steps": [s.to_json() for s in self.steps],
            "total": self.total.to_json(),
            "sum_of_steps": {m: round(sum(s.delta(m).mean for s in self.steps), 6)
                             for m in self.metrics},
            "alone": [s.to_json() for s in self.alone],
            "interaction": {k: round(v, 6) for k, v in self.interaction},
            "notes": list(self.notes),
        }


def _step(results_before: list[dict], results_after: list[dict], sides: Sequence[str],
          metrics: Sequence[str], ops: tuple[int, ...], label: str,
          note: str | None = None) -> AttributionStep:
    ca, cb = _columns(results_before, sides), _columns(results_after, sides)
    return AttributionStep(ops, label, tuple((m, paired(ca[m], cb[m])) for m in metrics), note)


def attribution(chain: Sequence[tuple[StateKey, tuple[int, ...], str]],
                alone: Sequence[tuple[StateKey | None, tuple[int, ...], str, str | None]],
                results: dict[StateKey, list[dict]], sides: Sequence[str],
                notes: Sequence[str] = ()) -> Attribution:
    """Attribute B - A to the steps of ``chain``.

    Args:
        chain: the states from A to B, in order: (state, operations it adds, label); the
            first is A itself (its operations and label are ignored).
        alone: (state or None when it cannot be built, operation, label, why not).
        results: every state's runs.
        sides: the battle's sides (the first side's win rate is the headline).
    """
    metrics = (f"win:{sides[0]}", "draw", *(f"vp:{s}" for s in sides))
    steps = []
    for (before, _, _), (after, ops, label) in zip(chain, chain[1:]):
        steps.append(_step(results[before], results[after], sides, metrics, ops, label))
    a_key, b_key = chain[0][0], chain[-1][0]
    total = _step(results[a_key], results[b_key], sides, metrics, (), "total (B - A)")
    alone_steps = []
    for key, ops, label, why in alone:
        if key is None:
            alone_steps.append(AttributionStep(ops, label, (), why))
        else:
            alone_steps.append(_step(results[a_key], results[key], sides, metrics, ops, label))
    interaction: tuple[tuple[str, float], ...] = ()
    if alone_steps and all(s.deltas for s in alone_steps):
        interaction = tuple((m, total.delta(m).mean - sum(s.delta(m).mean for s in alone_steps))
                            for m in metrics)
    return Attribution(metrics, tuple(steps), total, tuple(alone_steps), interaction,
                       tuple(notes))
