"""An attack's chain of steps compiled (:class:`CompiledSequence`): run sampled, or its
exact outcome distribution enumerated chain by chain; and whether a declaration is pure
(safe to enumerate inside a battle)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rules_run.lang import ast
from rules_run.lang.walk import walk
from rules_run.runtime.builtins import PURE_NAMES
from rules_run.runtime.effects import rule_scope
from rules_run.runtime.env import Closure, Env, SequenceOutcome, StepResult

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["CompiledSequence"]

Chain = tuple[int, frozenset[int], tuple[Any, ...]]
"""A chain to run: its first step, the steps it skips, and the results of earlier steps
that later steps read (:attr:`CompiledSequence.read_steps`)."""

ChainOutcome = tuple[tuple[int, ...], int, tuple[Chain, ...], tuple[int, ...]]
"""What one chain did: how many got past each step, its damage, the chains its hooks added,
and its tallies."""


class CompiledSequence:
    """An attack's chain of steps, ready to run."""

    def __init__(self, runtime: Runtime, decl: ast.SequenceDecl) -> None:
        self.runtime = runtime
        self.decl = decl
        self.name = decl.name
        params = {p.name: p.type for p in decl.params}
        self.step_names = [s.name for s in decl.steps]
        named = {n.name for n in walk(decl) if isinstance(n, ast.Name)}
        self.read_steps = [name for name in self.step_names if name in named]
        """The steps whose results later steps, hooks or ``damage`` read (``wound.six``)."""
        self.read_set = frozenset(self.read_steps)
        self.step_reads: list[tuple[str, ...]] = []
        """For each step, the earlier steps its call reads: its chances depend on those."""
        self.steps = []
        for i, step in enumerate(decl.steps):
            types = dict(params, **{n: "step" for n in self.read_steps
                                    if n in self.step_names[:i]})
            call = runtime.compile_expr(step.call, types)
            self.step_reads.append(tuple(n.name for n in walk(step.call)
                                         if isinstance(n, ast.Name) and types.get(n.name) == "step"))
            hooks = [(h.mark, runtime.compile_expr(h.condition, types) if h.condition else None,
                      h.effect, runtime.compile_expr(h.effect.arg, types)
                      if isinstance(h.effect.arg, ast.Expr) else None, None)
                     for h in step.hooks]
            self.steps.append((step.name, call, step.stop_on == "pass", hooks))
        types = dict(params, **{n: "step" for n in self.read_steps})
        self.damage = runtime.compile_expr(decl.damage, types) if decl.damage else None
        self.tallies = decl.tallies
        """The tallies the sequence counts (``tally glancing, penetrating``), in order."""
        self.tally_index = {name: i for i, name in enumerate(decl.tallies)}
        types = params
        self.per_point = (runtime.compile_expr(decl.per_point.call, types),
                          decl.per_point.removes_on == "pass") if decl.per_point else None
        self.cite = runtime.ruleset.cite(decl.name)
        self.defaults = {p.name: runtime.compile_expr(p.default, {})
                         for p in decl.params if p.default is not None}
        """The parameters that have a default: name -> its expression, compiled (``fight``
        fills the parameters it is not given with them)."""

    def finish(self) -> None:
        """Pick up hooks that rules add to this sequence's steps; decide whether it is pure."""
        self.pure, self.reads, self.statuses = purity(self.runtime, self.decl)
        """Safe to enumerate inside a battle (no battle state read or changed), and the
        properties and statuses it reads (a cached distribution depends on those only)."""
        self.rule_hooks = {
            name: self.runtime.rule_hooks.get((self.name, name), []) for name in self.step_names
        }

    def _hooks(self, env, vars, index, result):
        """The hook effects that fire on this step's result, in order."""
        name, _, _, hooks = self.steps[index]
        out = []
        for mark, cond, effect, amount, _ in hooks:
            if mark in result.marks and (cond is None or cond(env, vars)):
                out.append((effect, amount, vars))
        rule_hooks = self.rule_hooks.get(name)
        if rule_hooks and result.marks:
            for bearer, inst in self.runtime.carried(vars, env):
                for rname, eff, cond, amount in rule_hooks:
                    if rname != inst.rule.name or eff.mark not in result.marks:
                        continue
                    evars = rule_scope(vars, inst, bearer)
                    if cond is None or cond(env, evars):
                        out.append((eff.effect, amount, evars))
        return out

    def run(self, env: Env, vars: dict) -> SequenceOutcome:
        """Resolve one attack: its first chain, then every chain a hook added."""
        past = [0] * len(self.steps)
        damage = 0
        tallies = [0] * len(self.tallies)
        todo: list[Chain] = [(0, frozenset(), ())]
        while todo:
            chain_past, chain_damage, spawned, chain_tallies = self._chain(env, vars, *todo.pop())
            for i, n in enumerate(chain_past):
                past[i] += n
            for i, n in enumerate(chain_tallies):
                tallies[i] += n
            damage += chain_damage
            todo.extend(spawned)
        return SequenceOutcome(tuple(past), damage, tuple(tallies))

    def exact(self, make_env: Callable[[Any], Env], vars: dict) -> Any:
        """One attack's exact outcome distribution (a ``Dist`` of :class:`SequenceOutcome`).

        The same chain code as :meth:`run`, enumerated one chain at a time: chains a hook
        adds (``chains 2``) are independent, so their distributions are enumerated once and
        convolved, instead of enumerating every die of every chain together. Within a chain,
        each step's roll is enumerated once, on its own: a chain tells a step's results
        apart only by whether it passed and its marks, and a step's chances do not depend on
        the steps before it (the sequence changes nothing), so the chain branches on those
        few results instead of on every die of every step.
        """
        from rules_run.chance import Dist, binomial, enumerate_exact

        memo: dict[Chain, Any] = {}
        keep = None
        if self.per_point is not None:
            # each damage point is tested alone, the same way whatever the chain did: so the
            # points kept are a binomial thinning of the points made
            test, removes_on_pass = self.per_point
            passes = enumerate_exact(lambda ch: bool(self._inside(make_env(ch), vars,
                                                                  test).passed))
            keep = passes.probability(not removes_on_pass)

        steps: dict[tuple[int, tuple[Any, ...]], Any] = {}

        def step_result(i: int, local: dict) -> Any:
            # what a chain sees of step i's result, with its probability (made when a chain
            # first reaches the step with these results of the earlier steps it reads)
            key = (i, tuple(local[name] for name in self.step_reads[i]))
            found = steps.get(key)
            if found is None:
                call = self.steps[i][1]
                found = steps[key] = enumerate_exact(
                    lambda ch: StepResult.of(self._inside(make_env(ch), local, call)))
            return found

        def drawn(i: int) -> Callable[[Env, dict], Any]:
            name = self.step_names[i]
            return lambda env, local: env.chance.draw(step_result(i, local), name)

        calls = [drawn(i) for i in range(len(self.steps))]

        def add(a: SequenceOutcome, b: SequenceOutcome) -> SequenceOutcome:
            return SequenceOutcome(tuple(x + y for x, y in zip(a.past, b.past)),
                                   a.damage + b.damage,
                                   tuple(x + y for x, y in zip(a.tallies, b.tallies)))

        def from_chain(start: int, skip: frozenset[int], seen: tuple[Any, ...]) -> Any:
            key = (start, skip, seen)
            if key not in memo:
                chain = enumerate_exact(lambda ch: self._chain(make_env(ch), vars, start, skip,
                                                               seen, per_point=False,
                                                               calls=calls))

                def with_spawned(out: tuple) -> Any:
                    if keep is None or out[1] == 0:
                        total = Dist.certain(SequenceOutcome(out[0], out[1], out[3]))
                    else:
                        total = binomial(out[1], keep).map(
                            lambda kept: SequenceOutcome(out[0], kept, out[3]))
                    for s in out[2]:
                        total = total.combine(from_chain(*s), add)
                    return total

                memo[key] = chain.bind(with_spawned)
            return memo[key]

        return from_chain(0, frozenset(), ())

    def _inside(self, env: Env, vars: dict, roll: Closure) -> Any:
        """A step's roll or a per-point test, run inside this sequence as a chain runs it."""
        env.running.append((self.name, vars))
        try:
            return roll(env, vars)
        finally:
            env.running.pop()

    def _chain(self, env: Env, vars: dict, start: int, skip: frozenset[int],
               seen: tuple[Any, ...] = (), per_point: bool = True,
               calls: Sequence[Closure] | None = None) -> ChainOutcome:
        """One chain from step ``start``: how many got past each step, its damage, the
        chains its hooks added (each as its first step, the steps it skips and the results
        it has seen) and its tallies. ``seen`` holds the results of the steps before
        ``start`` that later steps read (:attr:`read_steps`, in order). Without
        ``per_point`` the damage is before the ``each point`` tests. ``calls`` stand in for
        the steps' rolls (one each, in order)."""
        env.running.append((self.name, vars))
        try:
            return self._chain_steps(env, vars, start, skip, seen, per_point, calls)
        finally:
            env.running.pop()

    def _chain_steps(self, env: Env, vars: dict, start: int, skip: frozenset[int],
                     seen: tuple[Any, ...], per_point: bool, calls: Sequence[Closure] | None
                     ) -> ChainOutcome:
        n_steps = len(self.steps)
        past = [0] * n_steps
        tallies = [0] * len(self.tallies)
        spawned: list[Chain] = []
        if self.read_steps:
            # the steps read later, by name: a step not reached (skipped) reads as none
            vars = dict(vars)
            vars.update(zip(self.read_steps, seen or (None,) * len(self.read_steps)))
        i = start
        ended_with = None
        while i < n_steps:
            if i in skip:
                past[i] += 1
                i += 1
                continue
            name, call, stops_on_pass, hooks = self.steps[i]
            result = (call if calls is None else calls[i])(env, vars)
            passed = result.passed
            extra_chains = 0
            if result.marks:
                for effect, amount, evars in self._hooks(env, vars, i, result):
                    kind = effect.kind
                    if kind == "chains":
                        extra_chains += amount(env, evars) - 1
                    elif kind == "skip":
                        skip = skip | {self.step_names.index(effect.arg)}
                    elif kind == "end_damage":
                        ended_with = amount(env, evars)
                    elif kind == "pass":
                        passed = True
                    elif kind == "fail":
                        passed = False
                    elif kind == "count":
                        tallies[self.tally_index[effect.arg]] += 1
            if name in self.read_set:
                vars[name] = result
            if ended_with is not None:
                break
            if passed == stops_on_pass:
                return tuple(past), 0, tuple(spawned), tuple(tallies)
            past[i] += 1 + max(0, extra_chains)
            if extra_chains > 0:
                carried = tuple(vars[n] for n in self.read_steps) if self.read_steps else ()
                spawned.extend([(i + 1, skip, carried)] * extra_chains)
            i += 1
        points = ended_with if ended_with is not None else (
            self.damage(env, vars) if self.damage is not None else 1)
        if points and per_point and self.per_point is not None:
            test, removes_on_pass = self.per_point
            kept = 0
            for _ in range(points):
                if bool(test(env, vars).passed) != removes_on_pass:
                    kept += 1
            points = kept
        return tuple(past), points or 0, tuple(spawned), tuple(tallies)


def purity(runtime: Runtime, decl: object, dice: bool = True, names: frozenset[str] = PURE_NAMES
           ) -> tuple[bool, frozenset[str], frozenset[str]]:
    """Whether a declaration (or a call) can run without a battle and change nothing in it, which
    properties of things (``x.models``, ...) it reads, and which statuses it asks about
    (``x is charging``). ``names``: the builtins it may call (the pure ones; the combat
    kernel adds those that read the battle without changing it).

    It may call rolls and tests (with ``dice``; without, it rolls nothing: no roll, no dice
    written in it, no ``dice`` parameter read, no rule argument read that may be dice, see
    :func:`_rolls_argument`), actions whose
    statements are pure, and the pure builtins, none of them with a ``when`` trigger or a
    ``once per`` limit (running it would change what is used); with ``dice``, the rule
    effects that can reach it (modifiers, re-rolls, automatic results, hooks, characteristic
    changes) must be pure too (without, for the score a report reads again, its own calls
    are what is read again: one impure effect anywhere in a ruleset would hide every need).
    """

    seen: set[str] = set()
    reads: set[str] = set()
    statuses: set[str] = set()
    todo: list[object] = [decl]
    if dice:   # a score read again for a report (no dice) is its own calls: effects apply
        for rule in runtime.ruleset.rules.values():   # to it as they did to the roll
            todo.extend(e for e in rule.effects if not isinstance(e, (ast.Trigger, ast.Grant)))
    pure = True
    while todo and pure:
        current = todo.pop()
        if not dice and isinstance(current, ast.ActionDecl) and any(
                p.type == "dice" for p in current.params):
            pure = False   # a dice parameter is rolled each time it is read
            break
        for node in walk(current):
            if not dice and isinstance(node, _DICE):
                pure = False
            elif isinstance(node, ast.Attribute):
                reads.add(node.name)
            elif isinstance(node, ast.IsStatus):
                held = runtime.decls.get(node.status)
                if isinstance(held, ast.StatusDecl) and held.condition is not None:
                    if node.status not in seen:   # read through its condition
                        seen.add(node.status)
                        todo.append(held.condition)
                else:
                    statuses.add(node.status)
            elif (isinstance(node, ast.Assign) and not isinstance(node.target, ast.Name)
                  or isinstance(node, ast.During)):   # a during block applies statuses
                pure = False
            elif isinstance(node, ast.Call):
                target = runtime.decls.get(node.name)
                if (isinstance(target, ast.ActionDecl) and not isinstance(target, ast.PhaseDecl)
                        or dice and isinstance(target, ast.RollDecl)):
                    if node.name in runtime.triggers or getattr(target, "limit", None):
                        pure = False
                    elif node.name not in seen:
                        seen.add(node.name)
                        todo.append(target)
                elif (target is not None or node.name not in names
                      or not dice and _rolls_argument(runtime, node)):
                    pure = False
            if not pure:
                break
    return pure, frozenset(reads), frozenset(statuses)


_DICE = (ast.DiceLit, ast.CountedDice, ast.CellDice)
"""Dice written in code: rolled where they are worked out."""
_ARGUMENT_READS = ("param", "params")
"""The builtins that read a rule's argument: one that is dice is rolled as it is read."""


def _rolls_argument(runtime: Runtime, call: ast.Call) -> bool:
    """Whether a call reads a rule's argument that may be dice: a parameter declared
    ``dice`` or ``any`` of the rule named by a text written in the call (of any rule when
    the name is worked out), the one a whole number written in the call gives (the first
    without one; any of them when it is worked out)."""
    if call.name not in _ARGUMENT_READS:
        return False
    name = call.args[1] if len(call.args) > 1 else dict(call.kwargs).get("rule_name")
    index = call.args[2] if len(call.args) > 2 else dict(call.kwargs).get("index")
    rules = list(runtime.ruleset.rules.values())
    if isinstance(name, ast.Literal) and isinstance(name.value, str) and name.kind == "text":
        if name.value not in runtime.ruleset.rules:
            return True
        rules = [runtime.ruleset.rules[name.value]]
    at = 0 if index is None else (index.value if isinstance(index, ast.Literal)
                                  and isinstance(index.value, int) else None)
    for rule in rules:
        params = rule.params if at is None else rule.params[at:at + 1]
        if any(p.type in ("dice", "any") for p in params):
            return True
    return False
