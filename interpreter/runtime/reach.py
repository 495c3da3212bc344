"""What one battle can reach (issue #18): a whole-ruleset analysis of the code a battle can
run, and the actions written again without what it never reaches.

:func:`fold` takes a runtime and the facts of one battle
(:class:`rules_run.runtime.specialise.Facts`) and gives the bodies of the actions and
phases rewritten: a branch whose condition is decided left out, a loop over a list known to
be empty left out, a call that does nothing dropped, a call whose value is known written as
that value. :func:`rules_run.runtime.specialise.specialised` compiles the rewritten ruleset;
the code generator never sees the difference (the rewriting is on the syntax tree).

**The abstract values.** Each expression is given what it may be: *any* value, *one of* a
finite set of plain values (none, a bool, a whole number, a text: a status or counter
named is its name as a text), or *a list* whose items are each such a value (or a list
known to be empty). An action's value is the join of what its ``return`` statements give
(and none when it may run off its end), computed once with its parameters as *any*
(context-insensitive, so a result holds for every call).

**What is fixed for the battle** (the soundness rule; each is an induction over the
statements the battle runs):

- *a value no unit has*: ``value_of(x, "k")`` is none and ``item_values(x, "k")`` is empty
  when no unit of the battle has ``k`` among its values or its items' values. A unit's
  values and items come from its data and the battle file and never change; no unit is
  made during a battle.
- *a counter never written*: ``counter(c, ...)`` is ``c``'s initial value (a literal, or
  0) when no ``set_counter``/``add_counter`` of ``c`` is in code the battle can reach.
- *a status never applied*: ``x is s`` is false and ``clear(s, x)`` does nothing when no
  ``apply`` of ``s`` is in code the battle can reach (``apply`` is the only way a status is
  gained). A status held while a condition holds (``status s while C``) is never applied
  and never folded: reading it computes ``C``, whose calls count where it is read.
- *a rule nothing can carry*: ``x has "R"`` is false (the facts' ``carried``, see
  :mod:`rules_run.runtime.specialise`), narrowed (:attr:`Reach.narrowed`) to what the
  battle's bearers carry as they are set up, the global rules, the statuses not assumed
  never applied, and what the grants of these give, transitively: a status is carried only
  while a thing has it, and a rule comes only from a bearer, a grant or a status.

*Reachable* is a fixpoint over the call graph: the roots are every phase and every piece of
code that is not an action's body (the battle's blocks, rolls, tests, sequences, rule
effects and triggers, decisions, counters' initial values, the attack modes), all of it
read as reached whatever its conditions; an action is reached when a call of it stands in
reached code; in an action's body only the statements the facts leave alive are reached.
The facts start with every counter unwritten and every status unapplied (so carried by
nothing); each round drops those some reached code writes or applies (an ``apply`` of a status not known by name drops
them all) and reads the code again, until nothing changes. When it stops, no reached code
can write what is still assumed unwritten, so as long as the assumptions hold the battle
runs only reached code, and so they hold for the whole battle.

**What a statement does** ("effects"): a call is dropped or replaced by its value only when
computing it does nothing but read: no dice (a dice literal, a roll, a test, a sequence, a
local or characteristic of type dice), no decision, no builtin that changes the battle (only
the builtins of :data:`READS` and the pure ones are reads), no ``log``, ``stop``,
``while``, ``activate``, characteristic set, counter write or status applied or cleared (a
``clear`` of a status never applied does nothing), no action limited ``once per``, and no
action that a trigger (``when NAME``) watches. A characteristic read is a read only when
the ruleset's characteristic effects compute their amounts and conditions by reads only.
Folding removes only code whose running would read and do nothing else; a battle the plain
code would stop with an error in such code is the one difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any


from rules_run import slotted
from rules_run.lang import ast
from rules_run.runtime.builtins import PURE_BUILTINS

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime
    from rules_run.runtime.specialise import Facts

__all__ = ["READS", "Reach", "fold", "reach"]

READS = frozenset({
    "all_units", "arc", "behind", "counter", "distance", "enemies", "engaged_with",
    "facing", "friends", "home_edge", "in_arc", "in_contact", "in_range", "line_through",
    "models", "models_under", "opponent", "side_edge", "sides", "spacing", "terrain",
    "terrain_at", "terrain_touching", "toward_edge", "unit_named", "units", "used", "within",
    "on_table",
    # the runtime's own that read their arguments only
    "value_of", "item_values", "command_value", "unaffected", "unmodified", "alternatives",
    "wielded", "counter_values",
})
"""The builtins that only read the battle (no dice, no event, nothing changed), besides the
pure ones (``param`` and ``params`` roll a rule's dice: they are not reads). The one list of
them: the combat kernel's shared calls take it too (:data:`rules_run.engine.kernel.READING`)."""

_QUIET_BUILTINS = READS | frozenset(PURE_BUILTINS)
_WRITES = frozenset({"set_counter", "add_counter"})
_CAP = 64
"""The most plain values a *one of* holds before it is *any*."""


# ---------------------------------------------------------------- abstract values
class _Any:
    """Any value at all (the abstract value that knows nothing)."""

    def __repr__(self) -> str:
        return "ANY"


ANY: Any = _Any()


@slotted.frozen
class _Vals:
    """One of these plain values, each as (its type's name, the value): ``1`` and ``True``
    stay apart."""

    items: frozenset


@slotted.frozen
class _List:
    """A list whose items are each ``item`` (None: a list known to be empty)."""

    item: Any = None


EMPTY = _List(None)


def _one(value: Any) -> _Vals:
    return _Vals(frozenset({(type(value).__name__, value)}))


def _values(a: Any) -> list[Any] | None:
    """The plain values ``a`` may be, or None when it is not a finite set of them."""
    return [v for _, v in a.items] if isinstance(a, _Vals) else None


def _single(a: Any) -> tuple[bool, Any]:
    """(True, the value) when ``a`` is one plain value."""
    vals = _values(a)
    return (True, vals[0]) if vals is not None and len(vals) == 1 else (False, None)


def join(a: Any, b: Any) -> Any:
    """What is either ``a`` or ``b``."""
    if a is None:
        return b
    if b is None or a == b:
        return a
    if isinstance(a, _Vals) and isinstance(b, _Vals):
        items = a.items | b.items
        return _Vals(items) if len(items) <= _CAP else ANY
    if isinstance(a, _List) and isinstance(b, _List):
        return _List(join(a.item, b.item))
    return ANY


def _truth(a: Any) -> bool | None:
    """Whether ``a`` is true as a condition (None: not known)."""
    if a == EMPTY:
        return False
    vals = _values(a)
    if not vals:
        return None
    truths = {bool(v) for v in vals}
    return truths.pop() if len(truths) == 1 else None


def _map(a: Any, b: Any, op: Any) -> Any:
    """``op`` over every pair of the plain values of ``a`` and ``b`` (any on an error)."""
    xs, ys = _values(a), _values(b)
    if xs is None or ys is None or len(xs) * len(ys) > _CAP:
        return ANY
    out = None
    try:
        for x in xs:
            for y in ys:
                out = join(out, _one(op(x, y)))
    except Exception:   # what the code would report when it runs: not folded
        return ANY
    return ANY if out is None else out


def _ordered(op: str) -> Any:
    import operator

    fn = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}[op]

    def compare(x: Any, y: Any) -> bool:
        if x is None or y is None:
            return False   # none compares false
        if isinstance(x, bool) or isinstance(y, bool) or type(x) is not type(y):
            raise TypeError("not compared here")
        return bool(fn(x, y))
    return compare


def _arith(op: str) -> Any:
    def compute(x: Any, y: Any) -> Any:
        if x is None or y is None:
            return None   # none propagates
        if type(x) is not int or type(y) is not int or op not in "+-*":
            raise TypeError("not computed here")
        return x + y if op == "+" else x - y if op == "-" else x * y
    return compute


# ---------------------------------------------------------------- the analysis
class Reach:
    """What one battle can reach (see the module's rule): the assumptions left standing,
    the actions reached, and each action's value and whether it does anything."""

    def __init__(self, runtime: Runtime, facts: Facts) -> None:
        from rules_run.runtime.specialise import carries, grants_given

        self.rt = runtime
        self.facts = facts
        self._carries = carries
        self._gives = grants_given(runtime)
        self._own = None if facts.own is None else facts.own | {
            inst.rule.name for inst in runtime.global_rules}
        decls = runtime.decls
        self.counters = {n: d for n, d in decls.items() if isinstance(d, ast.CounterDecl)}
        self.statuses = frozenset(n for n, d in decls.items() if isinstance(d, ast.StatusDecl))
        self.bodies: dict[str, ast.ActionDecl | ast.PhaseDecl] = {
            n: d for n, d in decls.items() if isinstance(d, (ast.ActionDecl, ast.PhaseDecl))}
        self.decisions = {n: d for n, d in decls.items() if isinstance(d, ast.DecisionDecl)}
        self.policies = [d for d in decls.values() if isinstance(d, ast.PolicyDecl)]
        self.watched = frozenset(_trigger_events(runtime))
        """Names some trigger watches (``when NAME``): a call of one is never dropped."""
        self.unwritten: frozenset[str] = frozenset(self.counters)
        """Counters no reached code writes."""
        self.held = {n: d.condition for n, d in decls.items()
                     if isinstance(d, ast.StatusDecl) and d.condition is not None}
        """Statuses held while a condition holds, with it: never applied, read through it."""
        self._holding: set[str] = set()
        self.unapplied: frozenset[str] = self.statuses - frozenset(self.held)
        """Statuses no reached code applies."""
        self.narrowed = self._narrowed()
        """The facts with what the battle can carry narrowed (when the facts know what its
        bearers carry as they are set up): that, the rules their grants give, transitively,
        and the statuses reached code applies (and what theirs give)."""
        self.unread: frozenset[str] = frozenset(self.counters)
        """Counters no reached code reads: writing one does nothing the battle sees."""
        self.quiet_characteristics = _quiet_characteristics(runtime)
        """Whether reading a (non-dice) characteristic does nothing but read."""
        self.reached: set[str] = set()
        self._summaries: dict[str, tuple[Any, bool]] = {}
        self._does: dict[str, tuple[set[str], set[str], set[str]]] = {}
        """What each summarised action's body calls, writes and applies (its walk for
        :meth:`summary` is the walk :meth:`_live_calls` needs: one walk serves both)."""
        self._cells: dict[tuple, Any] = {}
        """What a lookup of a table gives, by the table and what its keys may be (a table's
        cells never change: the same whatever the round)."""
        self._busy: set[str] = set()
        self._written: set[str] = set()
        self._applied: set[str] = set()
        self._read: set[str] = set()
        self._calls: set[str] = set()
        self._solve()

    # ------------------------------------------------------------ the fixpoint
    def _solve(self) -> None:
        roots = self._root_calls()
        while True:
            self._summaries, self._does = {}, {}
            self._written, self._applied = set(self._root_written), set(self._root_applied)
            self._read = set(self._root_read)
            self.reached = set()
            todo = sorted(roots | {n for n, d in self.bodies.items()
                                   if isinstance(d, ast.PhaseDecl)})
            decided: set[str] = set()
            while todo:
                name = todo.pop()
                if name in self.reached or name in decided:
                    continue
                if name in self.decisions:
                    # a decision is reached where it is decided: its code and the policies'
                    decided.add(name)
                    self._calls = set()
                    policies = [] if len(decided) > 1 else self.policies
                    self._note_code([self.decisions[name], *policies], self._calls,
                                    self._written, self._applied, self._read)
                    todo.extend(sorted(self._calls - self.reached - decided))
                    continue
                if name not in self.bodies:
                    continue
                self.reached.add(name)
                self._calls = set()
                self.summary(name)
                self._live_calls(name)
                todo.extend(sorted(self._calls - self.reached - decided))
            unwritten = self.unwritten - self._written
            unapplied = self.unapplied - self._applied
            unread = self.unread - self._read
            if (unwritten, unapplied, unread) == (self.unwritten, self.unapplied, self.unread):
                return
            self.unwritten, self.unapplied, self.unread = unwritten, unapplied, unread
            self.narrowed = self._narrowed()

    def _narrowed(self) -> Facts:
        """The facts, with what the battle can carry narrowed by the statuses assumed never
        applied (see :attr:`narrowed`)."""
        if self._own is None:
            return self.facts
        carried = set(self._own) | (self.statuses - self.unapplied)
        todo = list(carried)
        while todo:
            for name in self._gives.get(todo.pop(), ()):
                if name not in carried:
                    carried.add(name)
                    todo.append(name)
        return slotted.evolve(self.facts, carried=frozenset(carried & self.facts.carried))

    def _root_calls(self) -> set[str]:
        """The calls, writes and applies of every piece of code that is not an action's
        body (read as reached whatever its conditions)."""
        calls: set[str] = set()
        self._root_written: set[str] = set()
        self._root_applied: set[str] = set()
        self._root_read: set[str] = set()
        rt = self.rt
        nodes: list[Any] = [d for d in rt.decls.values() if not isinstance(
            d, (ast.ActionDecl, ast.PhaseDecl, ast.DecisionDecl, ast.PolicyDecl))]
        nodes += list(rt.ruleset.rules.values())
        self._note_code(nodes, calls, self._root_written, self._root_applied,
                        self._root_read)
        for mode in (rt.ruleset.attack_modes or {}).values():
            calls.update(s for s in _strings(mode) if s in self.bodies)
        return calls

    def _note_code(self, nodes: list[Any], calls: set[str], written: set[str],
                   applied: set[str], read: set[str]) -> None:
        """The calls, writes, applies and reads anywhere in ``nodes`` (whatever their
        conditions)."""
        for node in _walk(nodes):
            if isinstance(node, ast.Call):
                calls.add(node.name)
                self._note_write(node, None, written, applied)
                self._note_read(node, None, read)
                self._note_decision(node, calls)
            elif isinstance(node, ast.Activate) and node.picker:
                calls.add(node.picker)

    def _note_decision(self, call: ast.Call, calls: set[str]) -> None:
        """The decision ``decide(NAME, ...)`` reaches (every one, for a name not known)."""
        if call.name == "decide":
            first = call.args[0] if call.args else None
            if isinstance(first, ast.Name) and first.name in self.decisions:
                calls.add(first.name)
            else:
                calls.update(self.decisions)

    def _live_calls(self, name: str) -> None:
        """Note the calls, writes and applies of the action's body as the battle may run it
        (found when its :meth:`summary` walked it)."""
        calls, written, applied = self._does[name]
        self._calls |= calls
        self._written |= written
        self._applied |= applied

    def _note_write(self, call: ast.Call, env: Mapping[str, Any] | None,
                    written: set[str], applied: set[str]) -> None:
        """A counter written or a status applied by this call."""
        if call.name in _WRITES:
            written.update(self._counters_named(call, env))
        elif call.name == "apply":
            status = self._status_names(call.args[0] if call.args else None, env)
            applied.update(self.statuses if status is None else status)

    def _note_read(self, call: ast.Call, env: Mapping[str, Any] | None, read: set[str]) -> None:
        """A counter this call reads (``counter``, ``counter_values``; ``add_counter`` reads
        what it adds to)."""
        if call.name in ("counter", "add_counter", "counter_values"):
            read.update(self._counters_named(call, env))

    def _counters_named(self, call: ast.Call, env: Mapping[str, Any] | None) -> Iterable[str]:
        """The counters a counter builtin's call may name by its first argument: the one it
        names, or every counter when that is not a counter's name (a local, an expression)."""
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Name) and first.name in self.counters and (
                env is None or first.name not in env):
            return (first.name,)
        return self.counters

    def _status_names(self, e: ast.Expr | None, env: Mapping[str, Any] | None
                      ) -> set[str] | None:
        """The statuses ``e`` may name (None: any)."""
        if e is None:
            return None
        if isinstance(e, ast.Call) and e.name in self.statuses and not e.kwargs:
            return {e.name}   # a status with its arguments: enfeebled(2)
        if env is None:
            if isinstance(e, ast.Name) and e.name in self.statuses:
                return {e.name}
            return None
        vals = _values(self.value(e, env, {})[0])
        if vals is None:
            return None
        return {str(v) for v in vals}

    # ------------------------------------------------------------ actions
    def summary(self, name: str) -> tuple[Any, bool]:
        """(the action's value, whether running it may do anything but read)."""
        found = self._summaries.get(name)
        if found is not None:
            return found
        decl = self.bodies[name]
        if name in self._busy:
            return ANY, True   # called within itself: not known
        self._busy.add(name)
        saved = self._calls, self._written, self._applied
        self._calls, self._written, self._applied = set(), set(), set()
        flow: list[Any] = [None, False]
        try:
            env = {p.name: ANY for p in decl.params}
            falls = self._sub(decl.body, env, _types(decl), flow)
            self._does[name] = self._calls, self._written, self._applied
        finally:
            self._busy.discard(name)
            self._calls, self._written, self._applied = saved
        returns, effects = flow
        if falls:
            returns = join(returns, _one(None))
        if isinstance(decl, ast.PhaseDecl) or (isinstance(decl, ast.ActionDecl)
                                                and decl.limit is not None):
            effects = True
        if name in self.watched:
            effects = True
        found = self._summaries[name] = (ANY if returns is None else returns, effects)
        return found

    def _effect(self, flow: list | None) -> None:
        if flow is not None:
            flow[1] = True

    def _stmt(self, s: ast.Stmt, env: dict[str, Any], types: Mapping[str, str],
              flow: list | None) -> bool:
        """Walk one statement; whether running may go on after it."""
        if isinstance(s, ast.Let):
            env[s.name] = self._expr(s.value, env, types, flow)
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            value = self._expr(s.value, env, types, flow)
            name = s.target.name
            if s.op == "=":
                env[name] = value
            elif s.op == "+=" and isinstance(env.get(name), _List) and isinstance(value, _List):
                env[name] = join(env[name], value)
            else:
                env[name] = _map(env.get(name, ANY), value, _arith(s.op[0]))
        elif isinstance(s, ast.Assign):
            if isinstance(s.target, ast.Attribute):
                self._expr(s.target.target, env, types, flow)
            self._expr(s.value, env, types, flow)
            self._effect(flow)
        elif isinstance(s, ast.CallStmt):
            self._expr(s.call, env, types, flow)
        elif isinstance(s, ast.Return):
            value = self._expr(s.value, env, types, flow) if s.value is not None else _one(None)
            if flow is not None:
                flow[0] = join(flow[0], value)
            return False
        elif isinstance(s, ast.Log):
            for a in s.args:
                self._expr(a, env, types, flow)
            self._effect(flow)
        elif isinstance(s, ast.Stop):
            self._effect(flow)
            return False
        elif isinstance(s, ast.If):
            return self._if(s, env, types, flow)
        elif isinstance(s, (ast.ForEach, ast.While, ast.Activate)):
            self._loop(s, env, types, flow)
        elif isinstance(s, ast.During):
            return self._during(s, env, types, flow)
        elif not isinstance(s, ast.Pass):
            raise TypeError(f"reach knows no statement {type(s).__name__}: teach it one")
        return True

    def _during(self, s: ast.During, env: dict[str, Any], types, flow: list | None) -> bool:
        """``during``: its statuses are applied (and cleared), then its body runs once."""
        self._effect(flow)
        for item in s.items:
            name = item.status.name
            self._applied.update({name} if name in self.statuses else self.statuses)
            if isinstance(item.status, ast.Call):
                for a in item.status.args:
                    self._expr(a, env, types, flow)
            self._expr(item.thing, env, types, flow)
            if item.condition is not None:
                self._expr(item.condition, env, types, flow)
        return self._sub(s.body, env, types, flow)

    def _if(self, s: ast.If, env: dict[str, Any], types, flow: list | None) -> bool:
        outs: list[dict[str, Any]] = []
        falls = False
        for cond, body in s.branches:
            known = _truth(self._expr(cond, env, types, flow))
            if known is False:
                continue
            inner = dict(env)
            falls |= self._sub(body, inner, types, flow)
            outs.append(inner)
            if known is True:
                break
        else:
            inner = dict(env)
            falls |= self._sub(s.otherwise, inner, types, flow)
            outs.append(inner)
        env.clear()
        env.update(_join_envs(outs))
        return falls

    def _sub(self, body, env, types, flow: list | None) -> bool:
        """Walk a nested block; whether it may run off its end."""
        falls = True
        for s in body:
            if not falls:
                break
            falls = self._stmt(s, env, types, flow)
        return falls

    def _loop(self, s: Any, env: dict[str, Any], types, flow: list | None) -> None:
        """``for each``, ``while`` and ``activate``: the body walked until what its locals
        may be stops growing."""
        if isinstance(s, ast.While):
            self._effect(flow)
            item = None
            if _truth(self._expr(s.condition, env, types, flow)) is False:
                return
        elif isinstance(s, ast.Activate):
            self._effect(flow)
            if s.picker:
                self._calls.add(s.picker)
            self._expr(s.units, env, types, flow)
            self._expr(s.start, env, types, flow)
            item = ANY
        else:
            items = self._expr(s.iterable, env, types, flow)
            if items == EMPTY:
                return
            item = items.item if isinstance(items, _List) else ANY
            if s.order is not None:
                self._expr(s.order, {**env, s.var: item}, types, flow)
        for _ in range(8):
            inner = dict(env)
            if item is not None:
                inner[s.var] = item
            where = getattr(s, "where", None)
            if where is not None and _truth(self._expr(where, inner, types, flow)) is False:
                return
            keep_going = getattr(s, "keep_going", None)
            if keep_going is not None:
                self._expr(keep_going, inner, types, flow)
            self._sub(s.body, inner, types, flow)
            if isinstance(s, ast.While):
                self._expr(s.condition, inner, types, flow)
            merged = _join_envs([env, inner])
            if merged == env:
                return
            env.clear()
            env.update(merged)
        for k in env:
            env[k] = ANY   # it did not settle: nothing known

    # ------------------------------------------------------------ expressions
    def value(self, e: ast.Expr, env: Mapping[str, Any], types: Mapping[str, str]
              ) -> tuple[Any, bool]:
        """(what ``e`` may be, whether computing it may do anything but read)."""
        flow: list[Any] = [None, False]
        saved = self._calls, self._written, self._applied
        self._calls, self._written, self._applied = set(), set(), set()
        try:
            v = self._expr(e, dict(env), types, flow)
        finally:
            self._calls, self._written, self._applied = saved
        return v, bool(flow[1])

    def _expr(self, e: ast.Expr, env: Mapping[str, Any], types: Mapping[str, str],
              flow: list | None) -> Any:
        x = self._expr
        if isinstance(e, ast.Literal):
            if e.value is None or type(e.value) in (bool, int, str) and e.kind != "need":
                return _one(e.value)
            return ANY
        if isinstance(e, ast.Name):
            if e.name in env:
                if types.get(e.name) == "dice":
                    self._effect(flow)
                return env[e.name]
            decl = self.rt.decls.get(e.name)
            if decl is not None and not isinstance(decl, (ast.OptionDecl, ast.TableDecl)):
                return _one(e.name)   # a declaration is named by its name
            return ANY
        if isinstance(e, (ast.DiceLit, ast.CountedDice)):
            if isinstance(e, ast.CountedDice) and e.number is not None:
                x(e.number, env, types, flow)
            self._effect(flow)
            return ANY
        if isinstance(e, ast.Attribute):
            x(e.target, env, types, flow)
            decl = self.rt.characteristics.get(e.name)
            if decl is not None and (decl.type == "dice" or not self.quiet_characteristics):
                self._effect(flow)
            return ANY
        if isinstance(e, ast.Lookup):
            return self._lookup(e, env, types, flow)
        if isinstance(e, ast.Call):
            return self._call(e, env, types, flow)
        if isinstance(e, ast.BinOp):
            a, b = x(e.left, env, types, flow), x(e.right, env, types, flow)
            if e.op == "+" and isinstance(a, _List) and isinstance(b, _List):
                return join(a, b)
            return _map(a, b, _arith(e.op))
        if isinstance(e, ast.Compare):
            a, b = x(e.left, env, types, flow), x(e.right, env, types, flow)
            if e.op in ("==", "!="):
                same = e.op == "=="
                return _map(a, b, lambda p, q: (p == q) is same)
            return _map(a, b, _ordered(e.op))
        if isinstance(e, ast.BoolOp):
            stop = e.op == "or"
            knowns = []
            for o in e.operands:
                known = _truth(x(o, env, types, flow))
                if known is stop:
                    return _one(stop)
                knowns.append(known)
            return ANY if None in knowns else _one(not stop)
        if isinstance(e, ast.Not):
            known = _truth(x(e.operand, env, types, flow))
            return ANY if known is None else _one(not known)
        if isinstance(e, ast.Neg):
            return _map(x(e.operand, env, types, flow), _one(0),
                        lambda p, q: None if p is None else -p if type(p) is int else 1 / 0)
        if isinstance(e, ast.CondExpr):
            known = _truth(x(e.condition, env, types, flow))
            if known is None:
                return join(x(e.then, env, types, flow), x(e.otherwise, env, types, flow))
            return x(e.then if known else e.otherwise, env, types, flow)
        if isinstance(e, ast.Has):
            x(e.subject, env, types, flow)
            return _one(False) if not self._carries(self.narrowed, e.rule) else ANY
        if isinstance(e, ast.IsStatus):
            x(e.subject, env, types, flow)
            held = self.held.get(e.status)
            if held is not None:   # reading it computes its condition
                if e.status not in self._holding:
                    self._holding.add(e.status)
                    x(held, {"bearer": ANY}, {"bearer": "unit"}, flow)
                    self._holding.discard(e.status)
                return ANY
            return _one(e.negated) if e.status in self.unapplied else ANY
        if isinstance(e, ast.Member):
            x(e.item, env, types, flow)
            return _one(False) if x(e.collection, env, types, flow) == EMPTY else ANY
        if isinstance(e, ast.ListLit):
            out = EMPTY
            for i in e.items:
                out = join(out, _List(x(i, env, types, flow)))
            return out
        if isinstance(e, ast.Comprehension):
            items = x(e.iterable, env, types, flow)
            if items == EMPTY:
                return EMPTY
            inner = {**env, e.var: items.item if isinstance(items, _List) else ANY}
            if e.where is not None and _truth(x(e.where, inner, types, flow)) is False:
                return EMPTY
            if e.order is not None:
                x(e.order, inner, types, flow)
            return _List(x(e.item, inner, types, flow))
        self._effect(flow)   # pragma: no cover - every expression is above
        return ANY

    def _lookup(self, e: ast.Lookup, env, types, flow: list | None) -> Any:
        keys = [self._expr(k, env, types, flow) for k in e.keys]
        target = e.target
        if isinstance(target, ast.Name) and target.name not in env and isinstance(
                self.rt.decls.get(target.name), ast.TableDecl):
            key = (target.name, *keys)
            found = self._cells.get(key)
            if found is None:
                found = self._cells[key] = self._cell(target.name, keys)
            return found
        self._expr(target, env, types, flow)
        return ANY

    def _cell(self, name: str, keys: list[Any]) -> Any:
        """What a lookup of table ``name`` gives with keys that may be ``keys``."""
        table = self.rt.tables.get(name)
        choices = [_values(k) for k in keys]
        if table is None:
            return ANY
        if any(c is None for c in choices):
            # a key not known: any cell whose known keys match, or none (a none key)
            out: Any = _one(None)
            for cells_key, cell in table.cells.items():
                if len(cells_key) != len(choices) or not all(
                        c is None or k in c for k, c in zip(cells_key, choices)):
                    continue
                if cell is not None and type(cell) not in (bool, int, str):
                    return ANY
                out = join(out, _one(cell))
            return out
        out = None
        combos: list[tuple] = [()]
        for c in choices:
            combos = [(*k, v) for k in combos for v in c or ()]
            if len(combos) > _CAP:
                return ANY
        for key in combos:
            if None in key:
                out = join(out, _one(None))
                continue
            try:
                cell = table.lookup(*key)
            except Exception:   # reported when the code runs: not known here
                return ANY
            if cell is not None and type(cell) not in (bool, int, str):
                return ANY
            out = join(out, _one(cell))
        return ANY if out is None else out

    def _call(self, e: ast.Call, env, types, flow: list | None) -> Any:
        args = [self._expr(a, env, types, flow) for a in e.args]
        for _, a in e.kwargs:
            self._expr(a, env, types, flow)
        name = e.name
        self._calls.add(name)
        self._note_write(e, env, self._written, self._applied)
        self._note_read(e, env, self._read)
        self._note_decision(e, self._calls)
        if name in self.bodies and not e.kwargs:
            value, effects = self.summary(name)
            if effects:
                self._effect(flow)
            return value
        if name in self.rt.decls:   # a roll, test, sequence, decision, record or status
            if isinstance(self.rt.decls[name], (ast.RecordDecl, ast.StatusDecl)):
                return ANY   # made, not run
            self._effect(flow)
            return ANY
        if name == "clear":
            names = _values(args[0]) if args else None
            # none there is an error the code reports when it runs (see the module)
            if names is not None and all(n is None or str(n) in self.unapplied
                                         for n in names):
                return _one(True)
            self._effect(flow)
            return ANY
        if name == "set_counter" and args:
            names = _values(args[0])
            if names is not None and all(
                    str(n) in self.unread and isinstance(
                        self.counters[str(n)].initial, (ast.Literal, type(None)))
                    for n in names):
                return args[-1]   # a counter nothing reads
        if name not in _QUIET_BUILTINS:
            self._effect(flow)
            return ANY
        return self._builtin(name, args)

    def _builtin(self, name: str, args: list[Any]) -> Any:
        """What a builtin that only reads gives, where the facts know it."""
        first = args[0] if args else ANY
        if name == "count" and first == EMPTY:
            return _one(0)
        if name == "sum" and isinstance(first, _List) and (first.item is None or set(
                _values(first.item) or [1]) <= {0, None}):
            return _one(0)   # nothing, or only noughts and nones
        if name in ("any", "all") and first == EMPTY:
            return _one(name == "all")
        if name in ("value_of", "item_values") and len(args) == 2:
            ok, key = _single(args[1])
            if ok and isinstance(key, str) and key not in self.facts.values:
                return _one(None) if name == "value_of" else EMPTY
        if name == "counter" and args:
            ok, counter = _single(first)
            if ok and counter in self.unwritten:
                initial = self.counters[counter].initial
                if initial is None:
                    return _one(0)
                if isinstance(initial, ast.Literal):
                    return self._expr(initial, {}, {}, None)
        if name == "counter_values" and args:
            ok, counter = _single(first)
            if ok and counter in self.unwritten:
                return EMPTY   # nothing set
        if name == "friends" and self.facts.shared_sides is not None and not (
                self.facts.shared_sides):
            return EMPTY   # no side has two units
        if name in ("all_units", "units", "numbers", "parts", "groups", "weapons"):
            return _List(ANY)
        return ANY


def _join_envs(envs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    names = [n for env in envs for n in env]
    for name in dict.fromkeys(names):
        value = None
        for env in envs:
            value = join(value, env.get(name, ANY))
        out[name] = value
    return out


def _types(decl: ast.ActionDecl | ast.PhaseDecl) -> dict[str, str]:
    return {p.name: p.type for p in decl.params}


def _walk(nodes: Iterable[Any]) -> Iterator[Any]:
    """Every syntax-tree node in and under ``nodes``."""
    todo = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, (tuple, list)):
            todo.extend(node)
            continue
        if isinstance(node, dict):
            todo.extend(node.values())
            continue
        cls = type(node)
        if "__slotted__" in cls.__dict__:
            names = [f.name for f in slotted.fields(cls)]
        else:
            continue   # a plain value
        yield node
        todo.extend(getattr(node, name, None) for name in names)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def _trigger_events(runtime: Runtime) -> Iterator[str]:
    rules = [*runtime.ruleset.rules.values(), *(
        ast.status_rule(d) for d in runtime.decls.values() if isinstance(d, ast.StatusDecl))]
    for rule in rules:
        for effect in rule.effects:
            if isinstance(effect, ast.Trigger):
                yield effect.event
    yield from runtime.triggers


def _quiet_characteristics(runtime: Runtime) -> bool:
    """Whether every characteristic effect computes its amount and condition by reads."""
    rules = [*runtime.ruleset.rules.values(), *(
        ast.status_rule(d) for d in runtime.decls.values() if isinstance(d, ast.StatusDecl))]
    effects = [e for rule in rules for e in rule.effects
               if isinstance(e, ast.CharacteristicEffect)]
    for node in _walk(effects):
        if isinstance(node, (ast.DiceLit, ast.CountedDice)):
            return False
        if isinstance(node, ast.Call) and node.name not in _QUIET_BUILTINS:
            return False
    return True


# ---------------------------------------------------------------- the rewriting
def reach(runtime: Runtime, facts: Facts) -> Reach:
    """What a battle with these facts can reach (see the module's rule)."""
    return Reach(runtime, facts)


def fold(runtime: Runtime, facts: Facts, found: Reach | None = None) -> dict[str, ast.Decl]:
    """The actions and phases a battle with these facts reaches whose bodies the facts
    change, written again (by name); the others are as they were. ``found``: the
    battle's :class:`Reach`, when it was worked out already."""
    found = found if found is not None else reach(runtime, facts)
    out: dict[str, ast.Decl] = {}
    for name in sorted(found.reached):
        decl = found.bodies[name]
        body = _Rewrite(found).block(decl.body, {p.name: ANY for p in decl.params},
                                     _types(decl))
        if body != list(decl.body):
            out[name] = _evolve(decl, body=tuple(body))
    return out


def _evolve(node: Any, **changes: Any) -> Any:
    """``node`` with some fields changed."""
    return slotted.evolve(node, **changes)


def _literal(e: ast.Expr, value: Any) -> ast.Expr | None:
    """The literal giving ``value`` in ``e``'s place (None: no literal writes it)."""
    if value == EMPTY:
        return ast.ListLit(e.span, ())
    ok, v = _single(value)
    if not ok:
        return None
    kind = {"NoneType": "none", "bool": "bool", "int": "int", "str": "text"}.get(
        type(v).__name__)
    return None if kind is None else ast.Literal(e.span, v, kind)


class _Rewrite:
    """Statements written again with what the battle's facts decide (:func:`fold`)."""

    def __init__(self, found: Reach) -> None:
        self.r = found

    def block(self, body: Iterable[ast.Stmt], env: dict[str, Any], types) -> list[ast.Stmt]:
        out: list[ast.Stmt] = []
        for s in body:
            out += self.stmt(s, env, types)
            if isinstance(s, (ast.Return, ast.Stop)):
                break   # nothing after a return or a stop runs
        return out

    def quiet(self, e: ast.Expr, env, types) -> bool:
        return not self.r.value(e, env, types)[1]

    def stmt(self, s: ast.Stmt, env: dict[str, Any], types) -> list[ast.Stmt]:
        r = self.r
        if isinstance(s, ast.CallStmt):
            value, effects = r.value(s.call, env, types)
            if not effects:
                return []   # it only reads
            call = self.expr(s.call, env, types)
            r._stmt(s, env, types, None)
            return [_evolve(s, call=call) if isinstance(call, ast.Call) else s]
        if isinstance(s, (ast.Let, ast.Return)) or (
                isinstance(s, ast.Assign) and isinstance(s.target, ast.Name)):
            value = s.value
            new = self.expr(value, env, types) if value is not None else None
            r._stmt(s, env, types, None)
            return [s if new is value else _evolve(s, value=new)]
        if isinstance(s, ast.If):
            return self._if(s, env, types)
        if isinstance(s, ast.ForEach):
            return self._for_each(s, env, types)
        if isinstance(s, (ast.While, ast.Activate)):
            after = dict(env)
            r._loop(s, after, types, None)
            inner = {**after, getattr(s, "var", ""): ANY}
            body = self.block(s.body, inner, types)
            env.clear()
            env.update(after)
            return [_evolve(s, body=tuple(body or [ast.Pass(s.span)]))]
        r._stmt(s, env, types, None)
        return [s]

    def _if(self, s: ast.If, env: dict[str, Any], types) -> list[ast.Stmt]:
        r = self.r
        branches: list[tuple[ast.Expr, tuple[ast.Stmt, ...]]] = []
        outs: list[dict[str, Any]] = []
        otherwise: list[ast.Stmt] | None = None
        for cond, body in s.branches:
            value, effects = r.value(cond, env, types)
            known = _truth(value)
            r._expr(cond, env, types, None)
            if known is False and not effects:
                continue
            inner = dict(env)
            written = self.block(body, inner, types)
            outs.append(inner)
            if known is True and not effects:
                otherwise = written
                break
            branches.append((self.expr(cond, env, types), tuple(written or [ast.Pass(cond.span)])))
            if known is True:
                break
        else:
            inner = dict(env)
            otherwise = self.block(s.otherwise, inner, types)
            outs.append(inner)
        env.clear()
        env.update(_join_envs(outs))
        if not branches:
            return otherwise or []
        return [ast.If(s.span, tuple(branches), tuple(otherwise or ()))]

    def _for_each(self, s: ast.ForEach, env: dict[str, Any], types) -> list[ast.Stmt]:
        r = self.r
        items, effects = r.value(s.iterable, env, types)
        after = dict(env)
        r._loop(s, after, types, None)
        if items == EMPTY and not effects:
            return []   # a loop over nothing
        inner = {**after, s.var: items.item if isinstance(items, _List) else ANY}
        quiet = not effects and all(
            self.quiet(x, inner, types) for x in (s.where, s.order) if x is not None)
        where = r.value(s.where, inner, types)[0] if s.where is not None else None
        if quiet and where is not None and _truth(where) is False:
            env.clear()
            env.update(after)
            return []   # no item is kept
        body = self.block(s.body, dict(inner), types)
        env.clear()
        env.update(after)
        if not body and quiet:
            return []   # a loop that only reads
        iterable = self.expr(s.iterable, env, types)
        return [_evolve(s, iterable=iterable, body=tuple(body or [ast.Pass(s.span)]))]

    def expr(self, e: ast.Expr, env: Mapping[str, Any], types) -> ast.Expr:
        """``e``, or the literal of its value when the facts fix it and computing it only
        reads; else ``e`` with its parts so written (the operands of an operator, a call's
        arguments, a lookup's keys, what an attribute, ``has`` or ``is`` reads; a decided
        ``if ... then ... else`` its side). A local is a literal where every way to it gives
        it one value; a declaration's name stays a name. What a fixed fact decides is the same
        wherever it is computed, so a part written as its value computes as it did."""
        if not isinstance(e, (ast.Literal, ast.Name)) or (
                isinstance(e, ast.Name) and e.name in env):
            value, effects = self.r.value(e, env, types)
            if not effects:
                lit = _literal(e, value)
                if lit is not None:
                    return lit
        if isinstance(e, ast.CondExpr):
            known = _truth(self.r.value(e.condition, env, types)[0])
            if known is not None and self.quiet(e.condition, env, types):
                return self.expr(e.then if known else e.otherwise, env, types)
        parts = _PARTS.get(type(e))
        if parts is None:
            return e
        changes: dict[str, Any] = {}
        for name in parts:
            old = getattr(e, name)
            if name == "kwargs":
                new: Any = tuple((k, self.expr(a, env, types)) for k, a in old)
            elif isinstance(old, tuple):
                new = tuple(self.expr(a, env, types) for a in old)
            else:
                new = self.expr(old, env, types)
            if new != old:
                changes[name] = new
        if isinstance(e, ast.BoolOp) and "operands" in changes:
            # an operand written as the value that does not decide (true in an "and", false
            # in an "or") is left out; at least one is kept, for "and"/"or" to give a bool
            idle = e.op == "and"
            kept = [o for o in changes["operands"]
                    if not (isinstance(o, ast.Literal) and o.value is idle)]
            changes["operands"] = tuple(kept) or changes["operands"][:1]
        return _evolve(e, **changes) if changes else e


_PARTS: dict[type, tuple[str, ...]] = {
    ast.Call: ("args", "kwargs"), ast.BinOp: ("left", "right"),
    ast.Compare: ("left", "right"), ast.BoolOp: ("operands",), ast.Not: ("operand",),
    ast.Neg: ("operand",), ast.CondExpr: ("condition", "then", "otherwise"),
    ast.Lookup: ("keys",), ast.Attribute: ("target",), ast.Has: ("subject",),
    ast.IsStatus: ("subject",), ast.Member: ("item", "collection"), ast.ListLit: ("items",),
}
"""The parts of an expression :meth:`_Rewrite.expr` writes again, each an expression or a
tuple of them (a call's keyword arguments: pairs of a name and one). A comprehension is
written as its value or as it is: its name is bound within it."""
