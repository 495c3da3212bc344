"""Behaviour of rolls, tests, sequences and actions: exact odds over a grid of inputs.

For each declaration A and B both have, with the same parameters, whose behaviour could
differ (something it calls, reads or is modified by changed), the declaration is run exactly
(:func:`rules_run.chance.enumerate_exact`) under A and under B for every cell of a grid of
synthetic inputs (:mod:`rules_run.diff.grid`), and the cells where the distributions
differ are reported, largest difference first. A declaration whose every dependency is the
same in A and B behaves the same and is not run.

The exact enumeration of one cell costs one run of the declaration per leaf of its chance
tree, and some declarations grow exponentially with an input (a loop rolling one die per
shot over a grid of up to dozens of shots). Each cell may take at most :data:`CELL_LEAVES`
leaves (a cell that needs more is reported as not enumerable on both sides), and each
declaration at most :data:`DECL_LEAVES` over its cells: cells are evaluated in waves of
:data:`WAVE` in grid order, and once a wave ends with the budget spent the rest are left
out (the declaration's note says how many). The waves do not depend on the number of
workers, so neither do the results.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

from rules_run import slotted
from rules_run.chance import DiceExpr, Dist, enumerate_exact
from rules_run.diagnostics import InterpreterError, Span
from rules_run.diff.grid import (
    BEARER_TYPES,
    Closure,
    Dim,
    GridBuilder,
    Reads,
    characteristic_values,
    select_cells,
    value_text,
)
from rules_run.diff.structure import SIDES, changed_keys
from rules_run.editions.ruleset import Ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.lang import ast
from rules_run.runtime.compiled import compile_ruleset
from rules_run.runtime.dice import dice_of
from rules_run.runtime.entities import RuleInstance, Unit, Weapon

__all__ = ["CellDiff", "DeclBehaviour", "BehaviourDiff", "behaviour_diff",
           "DEFAULT_CELLS", "DEFAULT_SEQUENCE_CELLS", "COMPARED_KINDS", "CELL_LEAVES",
           "DECL_LEAVES", "WAVE"]

DEFAULT_CELLS = 2000
"""At most this many grid cells per roll, test or action."""
DEFAULT_SEQUENCE_CELLS = 100
"""At most this many per sequence (one attack's sequence costs 30 to 300 times a single
test: every branch of every roll in it is enumerated)."""

CELL_LEAVES = 2_000
"""The most leaves of its chance tree one cell's exact enumeration may take, on one side
(a cell of the bundled duels' diffs takes at most about a thousand)."""
DECL_LEAVES = 250_000
"""The most leaves one declaration's cells may take, both sides together, before the
cells after the current wave are left out (the bundled duels' diffs take at most about
195,000: a 2D6 test with a re-roll of its own, over a grid of 520 cells)."""
WAVE = 20
"""Cells evaluated between two looks at the budget."""

COMPARED_KINDS = ("test", "roll", "sequence", "action")
_BEARERS = BEARER_TYPES
_EVAL_ERRORS = (InterpreterError, TypeError, ValueError, KeyError, AttributeError, IndexError,
                ZeroDivisionError, RecursionError)
"""What a declaration may raise on synthetic inputs (a battle builtin, a missing value)."""


# ---------------------------------------------------------------- evaluating a cell


class _Evaluator:
    """Builds synthetic inputs for one ruleset and runs a declaration exactly."""

    def __init__(self, rs: Ruleset, options: Mapping[str, Any]) -> None:
        self.rs = rs
        self.runtime = compile_ruleset(rs, builtins=BUILTINS)
        self.options = dict(options)
        self.rules: dict[str, RuleInstance | None] = {}
        self.dice: dict[str, DiceExpr] = {}
        self.profile_defaults = {
            entity: {c.name: self._default(c) for c in rs.characteristics(entity)}
            for entity in ("model", "weapon")
        }

    def _default(self, c: ast.CharacteristicDecl) -> Any:
        values, default, _ = characteristic_values(c)
        return self._plain(values[default], c.type)

    def _plain(self, value: Any, kind: str | None) -> Any:
        if kind == "dice" and isinstance(value, str):
            if value not in self.dice:
                from rules_run.lang.parser import parse_dice

                self.dice[value] = dice_of(parse_dice(value, Span("<rules-diff>", 1)),
                                           self.runtime.dice_decls)
            return self.dice[value]
        return value

    def _rule(self, text: str) -> RuleInstance | None:
        if text not in self.rules:
            try:
                self.rules[text] = self.runtime.bind_rule(text)
            except (KeyError, ValueError, InterpreterError):
                self.rules[text] = None  # the rule does not exist on this side
        return self.rules[text]

    def args(self, decl: ast.Decl, dims: Sequence[Dim], cell: Sequence[int]) -> dict[str, Any]:
        """The arguments of one cell: a fresh synthetic unit (10 models in 5 files) or
        weapon per bearer parameter, carrying only what the cell gives it; a weapon belongs
        to the first unit parameter."""
        by_param: dict[str, list[tuple[Dim, Any]]] = {}
        for dim, i in zip(dims, cell):
            by_param.setdefault(dim.param, []).append((dim, dim.values[i]))
        args: dict[str, Any] = {}
        owner: Unit | None = None
        weapons: list[Weapon] = []
        for n, p in enumerate(decl.params):
            given = by_param.get(p.name, [])
            if p.type in _BEARERS:
                thing = self._bearer(p, n, given)
                if isinstance(thing, Unit) and owner is None:
                    owner = thing
                if isinstance(thing, Weapon):
                    weapons.append(thing)
                args[p.name] = thing
            elif given:
                dim, value = given[0]
                args[p.name] = self._plain(value, dim.type)
            elif p.default is not None:
                args[p.name] = self.runtime.constant(p.default)
        for w in weapons:
            if owner is not None:
                w.owner = owner
                owner.weapons.append(w)
        return args

    def _bearer(self, p: ast.Param, n: int, given: list[tuple[Dim, Any]]) -> Unit | Weapon:
        entity = "weapon" if p.type == "weapon" else "model"
        profile = dict(self.profile_defaults[entity])
        rules: list[RuleInstance] = []
        keywords: set[str] = set()
        statuses: list[str] = []
        command: dict[str, Any] = {}
        equipment: list[Mapping[str, Any]] = []
        for dim, value in given:
            if dim.kind == "characteristic":
                profile[str(dim.name)] = self._plain(value, dim.type)
            elif not value:
                continue
            elif dim.kind == "rule":
                inst = self._rule(str(dim.name))
                if inst is not None:
                    rules.append(inst)
            elif dim.kind == "keyword":
                keywords.add(str(dim.name))
            elif dim.kind == "status":
                statuses.append(str(dim.name))
            elif dim.kind == "command":
                command[str(dim.name)] = {}
            elif dim.kind == "equipment":
                item = self.rs.equipment.get(value)
                if item is not None:
                    equipment.append(item)
        if entity == "weapon":
            thing: Unit | Weapon = Weapon(p.name, profile, rules)
            thing.keywords = keywords
        else:
            thing = Unit(p.name, p.name, f"side {n + 1}", profile, 10,
                         files=min(10, self.rs.default_files or 10), rules=rules,
                         keywords=keywords, equipment=equipment, command=command)
        for s in statuses:
            thing.statuses[s] = None
        return thing

    def run(self, decl: ast.Decl, dims: Sequence[Dim], cell: Sequence[int]) -> tuple[Dist | str, int]:
        """The exact distribution of the declaration's result in one cell, or an error, and
        the leaves its enumeration took (at most :data:`CELL_LEAVES`).

        A test's outcome is whether it passed, a roll's its value; with the marks the result
        got (``critical``), as a pair, so that a rule widening a mark is seen."""
        runtime, options, name, kind = self.runtime, self.options, decl.name, decl.kind
        fixed = None if kind == "action" else self.args(decl, dims, cell)
        leaves = 0

        def procedure(chance):
            nonlocal leaves
            leaves += 1
            args = fixed if fixed is not None else self.args(decl, dims, cell)
            env = runtime.env(chance, options)
            if kind in ("test", "roll"):
                rolled = runtime.rolls[name].run(env, dict(args))
                main = bool(rolled.passed) if kind == "test" else _hashable(rolled.value)
                return main, tuple(sorted(rolled.marks))
            result = runtime.invoke(name, env, dict(args))
            if kind == "sequence":
                return result.damage
            return _hashable(result)

        try:
            return enumerate_exact(procedure, limit=CELL_LEAVES), leaves
        except _EVAL_ERRORS as err:
            if leaves >= CELL_LEAVES:
                return (f"more than {CELL_LEAVES} outcomes to enumerate exactly (rules-diff "
                        "enumerates at most that many for one cell)"), leaves
            return _error_text(err), leaves


def _error_text(err: BaseException) -> str:
    """What a report says of a cell the declaration cannot be run on: the interpreter's
    message, else words (never an exception's text: a grid cell may give an argument no
    battle would, such as none where the rules read a unit's state)."""
    if isinstance(err, InterpreterError) and err.diagnostics:
        return err.diagnostics[0].message
    return "cannot be run with these inputs"


def _hashable(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, (Unit, Weapon)):
        return value.name
    if isinstance(value, dict):
        return tuple(sorted((str(k), _hashable(v)) for k, v in value.items()))
    if isinstance(value, DiceExpr):
        return value.text()
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


# ---------------------------------------------------------------- comparing


def _number(x: Any) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def metric_name(kind: str, a: Dist | str, b: Dist | str) -> str:
    """What a cell's numbers mean: ``P(pass)``, ``mean damage``, ``mean``, ``P(true)``."""
    if kind == "test":
        return "P(pass)"
    if kind == "sequence":
        return "mean damage"
    outcomes = [o for d in (a, b) if isinstance(d, Dist) for o in d.support()]
    if outcomes and all(isinstance(o, bool) for o in outcomes):
        return "P(true)"
    if outcomes and all(_number(o) for o in outcomes):
        return "mean"
    return "distribution"


def _value(metric: str, d: Dist | str) -> Fraction | None:
    if not isinstance(d, Dist):
        return None
    if metric in ("P(pass)", "P(true)"):
        return d.probability(True)
    if metric in ("mean damage", "mean"):
        return d.mean()
    return None


def _tv(a: Dist, b: Dist) -> Fraction:
    outcomes = set(a.support()) | set(b.support())
    return sum((abs(a.probability(o) - b.probability(o)) for o in outcomes), Fraction(0)) / 2


@slotted.frozen
class CellDiff:
    """One grid cell where A and B differ."""

    inputs: tuple[tuple[str, Any], ...]
    """Dimension label -> the value taken."""
    shown: str
    """The inputs as a reader sees them (``attacker.S=4 target.T=4``)."""
    a: Dist | str
    """A's exact distribution, or the error it raised."""
    b: Dist | str
    a_value: Fraction | None
    b_value: Fraction | None
    delta: Fraction | None
    """B minus A on the declaration's metric (None when one side failed)."""
    distance: Fraction
    """Total variation distance between the two distributions (1 when one side failed)."""
    extra: tuple[tuple[str, str, Fraction | None, Fraction | None], ...] = ()
    """Further numbers, as (key, label, A, B): for a sequence, P(damage >= 1); for a roll or
    test, the probability of each mark that differs (``P(critical)``)."""
    index: tuple[int, ...] = ()
    """The cell's position in the grid (ties are shown in grid order)."""

    def sort_key(self) -> tuple:
        failed = self.delta is None
        return (0 if failed else 1, -abs(self.delta or 0), -self.distance, self.index)

    def to_json(self) -> dict[str, Any]:
        def side(d: Dist | str, v: Fraction | None) -> dict[str, Any]:
            if isinstance(d, str):
                return {"error": d}
            out: dict[str, Any] = {"distribution": {str(k): str(p) for k, p in d.items()}}
            if v is not None:
                out["value"] = round(float(v), 6)
                out["exact"] = str(v)
            return out

        return {
            "inputs": {k: v for k, v in self.inputs},
            "a": side(self.a, self.a_value), "b": side(self.b, self.b_value),
            "delta": None if self.delta is None else round(float(self.delta), 6),
            "delta_exact": None if self.delta is None else str(self.delta),
            "distance": round(float(self.distance), 6),
            **{key: {"a": None if x is None else round(float(x), 6),
                     "b": None if y is None else round(float(y), 6)}
               for key, _, x, y in self.extra},
        }


@slotted.frozen
class DeclBehaviour:
    """One declaration compared over its grid."""

    kind: str
    name: str
    signature: str
    """``to_wound(attacker: unit, target: unit)``."""
    metric: str
    dims: tuple[Dim, ...]
    total: int
    """Cells in the full grid."""
    evaluated: int
    """Cells evaluated (fewer than ``total`` when the grid was cut down)."""
    cells: tuple[CellDiff, ...]
    """Every evaluated cell that differs, largest difference first."""
    failed_both: int = 0
    """Cells where A and B both failed to evaluate (see :attr:`note`)."""
    note: str | None = None
    """Why nothing could be compared (a declaration that needs a battle), if so."""
    one_sided: tuple[tuple[str, int, str], ...] = ()
    """Cells only one side could evaluate: (the side that failed, how many cells, its
    first error). Not counted as differences: the grid cannot say what the failing side
    does there (usually it needs a battle)."""

    def largest(self) -> Fraction:
        return max((abs(c.delta) if c.delta is not None else Fraction(1)
                    for c in self.cells), default=Fraction(0))

    def grid_text(self) -> str:
        """``attacker.S 1..10 × target.T 1..10``."""
        parts = []
        for d in self.dims:
            if d.kind in ("characteristic", "value") and all(_number(v) for v in d.values) \
                    and list(d.values) == list(range(d.values[0], d.values[-1] + 1)):
                parts.append(f"{d.label} {d.values[0]}..{d.values[-1]}")
            elif d.kind in ("characteristic", "value"):
                parts.append(f"{d.label} " + "/".join(value_text(v, d.type) for v in d.values))
            elif d.kind == "equipment":
                parts.append(f"{d.label} none/" + "/".join(str(v) for v in d.values[1:]))
            else:
                parts.append(f"{d.label} or not")
        return " × ".join(parts) or "nothing it reads can be varied"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "name": self.name, "signature": self.signature,
            "metric": self.metric, "grid": [d.to_json() for d in self.dims],
            "cells_total": self.total, "cells_evaluated": self.evaluated,
            "cells_differing": len(self.cells), "failed_both": self.failed_both,
            "note": self.note, "cells": [c.to_json() for c in self.cells],
            "one_sided": [{"failed": side, "cells": n, "error": error}
                          for side, n, error in self.one_sided],
        }


@slotted.frozen
class BehaviourDiff:
    """The behaviour part of a diff."""

    compared: tuple[DeclBehaviour, ...]
    """Declarations whose behaviour could differ, compared (largest difference first)."""
    not_comparable: tuple[tuple[str, str, str], ...]
    """(kind, name, reason) for declarations both have but whose inputs differ."""
    unaffected: int
    """Declarations both have whose every dependency is unchanged (same behaviour)."""
    cells_cap: int
    sequence_cells_cap: int

    @property
    def differing(self) -> tuple[DeclBehaviour, ...]:
        return tuple(d for d in self.compared if d.cells)

    def to_json(self) -> dict[str, Any]:
        return {
            "cells_cap": self.cells_cap, "sequence_cells_cap": self.sequence_cells_cap,
            "compared": [d.to_json() for d in self.compared],
            "not_comparable": [{"kind": k, "name": n, "reason": r}
                               for k, n, r in self.not_comparable],
            "unaffected": self.unaffected,
        }


def _signature(decl: ast.Decl) -> str:
    return f"{decl.name}(" + ", ".join(f"{p.name}: {p.type}" for p in decl.params) + ")"


def _inputs_problem(da: ast.Decl, db: ast.Decl) -> str | None:
    if da.kind != db.kind:
        return f"a {da.kind} in A, a {db.kind} in B"
    pa = [(p.name, p.type) for p in da.params]
    pb = [(p.name, p.type) for p in db.params]
    if pa != pb:
        return (f"parameters differ: ({', '.join(f'{n}: {t}' for n, t in pa)}) in A, "
                f"({', '.join(f'{n}: {t}' for n, t in pb)}) in B")
    return None


def behaviour_diff(a: Ruleset, b: Ruleset, options: Mapping[str, Any] | None = None, *,
                   cells: int = DEFAULT_CELLS, sequence_cells: int = DEFAULT_SEQUENCE_CELLS,
                   workers: int = 1, only: Collection[str] | None = None,
                   progress=None) -> BehaviourDiff:
    """Compare every roll, test, sequence and action A and B share, exactly, over a grid.

    Args:
        a, b: the two rulesets.
        options: option values for both (each side's defaults otherwise).
        cells, sequence_cells: the most grid cells per declaration.
        workers: spread the cells over this many processes; each reloads A and B from
            their folders (the results are the same as with one).
        only: compare these declarations only (by name), if given.
        progress: called with (declarations done, declarations to do), if given.
    """
    options = dict(options or {})
    changed = changed_keys(a, b)
    ca, cb = Closure(a), Closure(b)
    builder = GridBuilder(a, b, Reads(a), Reads(b), changed, ca, cb)
    todo: list[tuple[ast.Decl, ast.Decl]] = []
    not_comparable: list[tuple[str, str, str]] = []
    unaffected = 0
    for name, da in a.decls.items():
        db = b.decls.get(name)
        if db is None or da.kind not in COMPARED_KINDS and db.kind not in COMPARED_KINDS:
            continue
        if only is not None and name not in only:
            continue
        if not ((ca.of(name) | cb.of(name)) & changed):
            unaffected += 1
            continue
        problem = _inputs_problem(da, db)
        if problem is not None:
            not_comparable.append((db.kind, name, problem))
            continue
        todo.append((da, db))
    ea, eb = _Evaluator(a, options), _Evaluator(b, options)
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 and todo else None
    refs = (str(a.folder), str(b.folder), tuple(sorted(options.items())))
    compared = []
    try:
        for done, (da, db) in enumerate(todo):
            result = _compare(builder, ea, eb, da, db,
                              sequence_cells if da.kind == "sequence" else cells,
                              pool, workers, refs)
            if isinstance(result, str):
                not_comparable.append((db.kind, db.name, result))
            else:
                compared.append(result)
            if progress is not None:
                progress(done + 1, len(todo))
    finally:
        if pool is not None:
            pool.shutdown()
    order = {kind: i for i, kind in enumerate(COMPARED_KINDS)}
    compared.sort(key=lambda d: (-d.largest(), d.note is not None, not d.cells,
                                 order[d.kind], d.name))
    return BehaviourDiff(tuple(compared), tuple(not_comparable), unaffected, cells,
                         sequence_cells)


_EVALUATORS: dict[tuple, tuple[_Evaluator, _Evaluator]] = {}


def _evaluate_chunk(refs: tuple, name: str, dims: Sequence[Dim],
                    cells: Sequence[tuple[int, ...]]) -> list[tuple[Dist | str, Dist | str, int]]:
    """In a worker process: A's and B's results for some cells of one declaration."""
    from rules_run.editions.loader import load_edition

    if refs not in _EVALUATORS:
        options = dict(refs[2])
        _EVALUATORS[refs] = (_Evaluator(load_edition(refs[0]), options),
                             _Evaluator(load_edition(refs[1]), options))
    ea, eb = _EVALUATORS[refs]
    da, db = ea.rs.decls[name], eb.rs.decls[name]
    return [_pair(ea, eb, da, db, dims, c) for c in cells]


def _pair(ea: _Evaluator, eb: _Evaluator, da: ast.Decl, db: ast.Decl, dims: Sequence[Dim],
          cell: tuple[int, ...]) -> tuple[Dist | str, Dist | str, int]:
    """A's and B's result in one cell, and the leaves both took."""
    (ra, na), (rb, nb) = ea.run(da, dims, cell), eb.run(db, dims, cell)
    return ra, rb, na + nb


def _results(ea: _Evaluator, eb: _Evaluator, da: ast.Decl, db: ast.Decl,
             dims: Sequence[Dim], cells: Sequence[tuple[int, ...]], pool, workers: int,
             refs: tuple) -> list[tuple[Dist | str, Dist | str, int]]:
    if pool is None or len(cells) < 2 * workers:
        return [_pair(ea, eb, da, db, dims, c) for c in cells]
    size = max(1, len(cells) // (workers * 4))
    futures = [pool.submit(_evaluate_chunk, refs, db.name, dims, cells[i:i + size])
               for i in range(0, len(cells), size)]
    return [pair for f in futures for pair in f.result()]


def _budgeted(ea: _Evaluator, eb: _Evaluator, da: ast.Decl, db: ast.Decl,
              dims: Sequence[Dim], cells: Sequence[tuple[int, ...]], pool, workers: int,
              refs: tuple, spent: int) -> list[tuple[Dist | str, Dist | str]]:
    """The results of the cells, wave by wave, until :data:`DECL_LEAVES` is spent."""
    out: list[tuple[Dist | str, Dist | str]] = []
    for start in range(0, len(cells), WAVE):
        if spent >= DECL_LEAVES:
            break
        for ra, rb, n in _results(ea, eb, da, db, dims, cells[start:start + WAVE], pool,
                                  workers, refs):
            out.append((ra, rb))
            spent += n
    return out


def _compare(builder: GridBuilder, ea: _Evaluator, eb: _Evaluator, da: ast.Decl,
             db: ast.Decl, cap: int, pool=None, workers: int = 1,
             refs: tuple = ()) -> DeclBehaviour | str:
    dims = builder.dims(db, eb.runtime)
    if isinstance(dims, str):
        return dims
    chosen, total = select_cells(dims, cap, db.name)
    metric = "P(pass)" if db.kind == "test" else (
        "mean damage" if db.kind == "sequence" else None)
    if not chosen:
        return DeclBehaviour(db.kind, db.name, _signature(db), metric or "value", tuple(dims),
                             total, 0, ())
    ra, rb, spent = _pair(ea, eb, da, db, dims, chosen[0])
    if isinstance(ra, str) and ra == rb:
        # fails the same way on the first cell: most likely it needs a battle
        return DeclBehaviour(db.kind, db.name, _signature(db), metric or "value",
                             tuple(dims), total, 1, (), 1,
                             f"not evaluated on synthetic inputs: {rb}")
    results = [(ra, rb)] + _budgeted(ea, eb, da, db, dims, chosen[1:], pool, workers, refs,
                                     spent)
    diffs: list[CellDiff] = []
    failed_both = 0
    first_error: str | None = None
    one_sided: dict[str, list] = {}
    evaluated = chosen[:len(results)]
    for cell, (ra, rb) in zip(evaluated, results):
        if isinstance(ra, str) and isinstance(rb, str):
            failed_both += 1
            first_error = first_error or rb
            continue
        if isinstance(ra, str) or isinstance(rb, str):
            side, error = (SIDES[0], ra) if isinstance(ra, str) else (SIDES[1], rb)
            entry = one_sided.setdefault(side, [0, error])
            entry[0] += 1
            continue
        if isinstance(ra, Dist) and isinstance(rb, Dist) and ra == rb:
            continue
        diffs.append(_cell_diff(db.kind, metric, dims, cell, ra, rb))
    diffs.sort(key=CellDiff.sort_key)
    if metric is None:
        kinds = {metric_name(db.kind, c.a, c.b) for c in diffs} - {"distribution"}
        metric = kinds.pop() if len(kinds) == 1 else "distribution"
    note = None
    if failed_both == len(evaluated):
        note = f"not evaluated on synthetic inputs: {first_error}"
    elif len(evaluated) < len(chosen):
        note = (f"{len(evaluated)} of {len(chosen)} cells evaluated: their exact enumeration "
                f"took the {DECL_LEAVES} outcomes rules-diff spends on one declaration")
    return DeclBehaviour(db.kind, db.name, _signature(db), metric, tuple(dims), total,
                         len(evaluated), tuple(diffs), failed_both, note,
                         tuple((side, n, error) for side, (n, error) in one_sided.items()))


def _marked(kind: str, d: Dist | str) -> tuple[Dist | str, dict[str, Fraction]]:
    """A roll's or test's outcome without its marks, and the probability of each mark."""
    if kind not in ("test", "roll") or not isinstance(d, Dist):
        return d, {}
    marks: dict[str, Fraction] = {}
    for (_, names), p in d.items():
        for mark in names:
            marks[mark] = marks.get(mark, Fraction(0)) + p
    return d.map(lambda outcome: outcome[0]), marks


def _cell_diff(kind: str, metric: str | None, dims: Sequence[Dim], cell: tuple[int, ...],
               whole_a: Dist | str, whole_b: Dist | str) -> CellDiff:
    distance = (_tv(whole_a, whole_b) if isinstance(whole_a, Dist) and isinstance(whole_b, Dist)
                else Fraction(1))
    (ra, marks_a), (rb, marks_b) = _marked(kind, whole_a), _marked(kind, whole_b)
    m = metric or metric_name(kind, ra, rb)
    va, vb = _value(m, ra), _value(m, rb)
    delta = vb - va if va is not None and vb is not None else (
        None if isinstance(ra, str) or isinstance(rb, str) else Fraction(0))
    extra: tuple = ()
    if kind == "sequence":
        pa = ra.p_at_least(1) if isinstance(ra, Dist) else None
        pb = rb.p_at_least(1) if isinstance(rb, Dist) else None
        extra = (("p_at_least_1", "P(damage>=1)", pa, pb),)
    for mark in sorted(set(marks_a) | set(marks_b)):
        pa, pb = marks_a.get(mark, Fraction(0)), marks_b.get(mark, Fraction(0))
        if pa != pb:
            extra += ((f"p_{mark}", f"P({mark})", pa, pb),)
    inputs = tuple((d.label, d.values[i]) for d, i in zip(dims, cell))
    shown = ", ".join(t for t in (d.show(i) for d, i in zip(dims, cell)) if t) or "-"
    return CellDiff(inputs, shown, ra, rb, va, vb, delta, distance, extra, tuple(cell))
