"""Exact combat kernels: a two-unit combat fought to its end, as a dynamic programme.

``rules-odds --combat A B`` fights the battle as the ruleset's ``battle`` declaration says
(set-up, rounds, player turns) with an enumerating chance instead of dice, from its start
until the combat of A and B is over:

- a unit of the two is out of play (destroyed, off the table), or has the status
  ``until`` names (``--until fleeing``);
- the two have fought each other (been engaged) and no longer are;
- the battle is over (its rounds, or an ``end if``): the combat did not end.

The battle's state at the start of each player turn is a node, and so is its state as a
phase of the ``turn`` block begins, where the step has branched or that phase has branched
before (when the block is phase calls, :func:`_phases_split`; a phase node's step replays
the turn's flow up to its phase, firing nothing, then puts the node's state back). From a
node one step is enumerated exactly (:func:`rules_run.chance.enumerate_exact` with
``draws``) to the next node or the combat's end: a volley's total damage enters as one
branch point weighted by its exact distribution, and so does a roll or test that changes
nothing (as the rules can read it, its faces left out). The rules are asked for no more
than they read: a test enters as two branches, passed and failed (:class:`_Steered`), a
roll's value is drawn only when something reads it (:class:`_Unread`); reading more (a
test's value, any use of an unread value) enumerates that test or roll in full and starts
again (:class:`_Refine`), so the result is the same as enumerating every total. The exact
distribution of the end is then the nodes' distributions mixed, each node worked out once,
memoised by its reduced state key (:meth:`BattleState.state_key`).

The reduced key leaves out a counter's values when the counter is written before it is read
in every step enumerated (a fact left out is never read before it is written: the
kernel watches every read and write of the counters, and when a left-out counter is read
first it keeps that counter in the key and starts again, so the result never depends on a
value left out). Each branch runs the ruleset's generic code for the rest of its phase or
player turn, but for the calls of pure actions it shares with the branches before it
(:class:`_Trail`) and the distributions of tests worked out before for the same state of
what they read (:class:`_Known`), so the cost is the states times their branches
(docs/cli.md). A statistics run
(``--runs``) draws no player turn from a kernel: working one out costs many turns' worth
of generic code, repaid only by a state many runs reach.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from rules_run import slotted
from rules_run.chance import Dist, RandomChance, enumerate_exact
from rules_run.diagnostics import ChanceError, Diagnostic, UsageError, did_you_mean
from rules_run.engine.builtins.fight import chance_key
from rules_run.engine.driver import battle_state, begin_battle, end_round, start_round
from rules_run.engine.odds import battle_unit
from rules_run.engine.state import BattleState, Snapshot
from rules_run.lang import ast
from rules_run.limits import limit, too_many
from rules_run.runtime.builtins import PURE_NAMES
from rules_run.runtime.entities import Unit
from rules_run.runtime.reach import READS
from rules_run.runtime.env import RollResult

__all__ = ["CombatEnd", "UnitEnd", "CombatOdds", "combat_odds", "sample_combat"]


@slotted.frozen(order=True)
class UnitEnd:
    """How one unit of the combat ends it."""

    unit: str
    state: str
    """``in play``, ``destroyed`` or ``off the table``."""
    statuses: tuple[str, ...]
    """The statuses it has then that last until removed (sorted): not those that wear off
    at the end of a phase, turn or round."""
    models: int


@slotted.frozen(order=True)
class CombatEnd:
    """How a combat ended: why, and each unit's end (in the order they were named)."""

    how: str
    """``out of play`` (a unit destroyed or off the table), ``STATUS`` (a unit gained the
    status ``until`` names), ``apart`` (no longer engaged after fighting), ``battle over``
    (the rounds ran out or an ``end if`` held, the combat still on or never begun)."""
    units: tuple[UnitEnd, ...]


@slotted.frozen
class CombatOdds:
    """The exact distribution of a combat's end, and what working it out took."""

    units: tuple[Any, Any]
    ends: Dist[CombatEnd]
    nodes: int
    """Player-turn and phase starts worked out (distinct reduced keys)."""
    leaves: int
    """Branches enumerated over all of them."""
    left_out: tuple[str, ...]
    """The counters the reduced key left out (each written before it is read)."""
    in_full: tuple[str, ...] = ()
    """The tests and rolls drawn with every total (read for more than whether they passed,
    or for their value): the others entered passed or failed, or undrawn."""
    sampled: Dist[CombatEnd] | None = None
    shared: int = 0
    """Calls of pure actions a replay of a step took from an earlier play (:class:`_Trail`)
    instead of running them."""


class _Reached(BaseException):
    """A player turn begins: the enumerated step ends at this node."""


class _Over(BaseException):
    """The combat is over (:attr:`_Kernel.over` says how)."""


class _Restart(BaseException):
    """A counter the key leaves out was read before it was written: start again."""


class _Refine(BaseException):
    """A test drawn as passed or failed only (:class:`_Steered`) was read for more: enumerate
    that test in full, and start again."""

    def __init__(self, test: str) -> None:
        super().__init__(test)
        self.test = test


class _Steered:
    """A test's result as drawn when the rules may read only whether it passed: its name
    and ``passed`` (and its truth). Reading anything else of it (its value, natural score,
    marks, need) raises :class:`_Refine`, so a value left out never changes a result."""

    __slots__ = ("name", "passed")

    def __init__(self, name: str, passed: bool) -> None:
        self.name, self.passed = name, passed

    def __bool__(self) -> bool:
        return self.passed

    def __eq__(self, other: object) -> bool:
        return (type(other) is _Steered and self.name == other.name
                and self.passed == other.passed)

    def __hash__(self) -> int:
        return hash((self.name, self.passed))

    def __getattr__(self, name: str) -> Any:
        raise _Refine(self.name)


class _Unread:
    """A roll's value not drawn yet: the step goes on as if it had every value at once, which
    is exact while nothing reads it (a broken unit's flight roll when the combat ends as it
    flees). Any use of it (arithmetic, a comparison, its truth, hashing it into a state key,
    reading an attribute) raises :class:`_Refine`, and that roll is drawn from then on."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", name)

    def _read(self, *args: Any) -> Any:
        raise _Refine(object.__getattribute__(self, "name"))

    def __getattr__(self, name: str) -> Any:
        raise _Refine(object.__getattribute__(self, "name"))

    __setattr__ = __bool__ = __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _read
    __hash__ = __int__ = __float__ = __index__ = __str__ = __repr__ = __format__ = _read
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __neg__ = __abs__ = _read
    __floordiv__ = __rfloordiv__ = __truediv__ = __rtruediv__ = __mod__ = __rmod__ = _read
    __pow__ = __rpow__ = __round__ = __trunc__ = __floor__ = __ceil__ = __iter__ = _read
    __len__ = __contains__ = __getitem__ = __call__ = __reduce__ = __reduce_ex__ = _read


class _UnreadRoll:
    """A roll's result not drawn yet (:class:`_Unread`): its ``value`` is one; anything
    else read of it raises :class:`_Refine`."""

    __slots__ = ("name", "value")

    def __init__(self, name: str) -> None:
        self.name, self.value = name, _Unread(name)

    def __getattr__(self, name: str) -> Any:
        raise _Refine(self.name)

    def __bool__(self) -> bool:
        raise _Refine(self.name)


class _Steering:
    """The chance of the kernel's steps, drawing less where the rules read less: a test
    drawn as one branch point (``draw_lazily``, :meth:`CompiledRoll.run`) enters as two
    branches, passed and failed, each weighing all its totals (:class:`_Steered`); a roll's
    value is not drawn until something reads it (:class:`_UnreadRoll`); each unless it is one
    of ``full`` (read for more before)."""

    __slots__ = ("chance", "full", "rolls", "kernel", "asked")

    def __init__(self, chance: Any, full: frozenset[str], kernel: "_Kernel") -> None:
        self.chance, self.full, self.kernel = chance, full, kernel
        self.rolls = kernel.runtime.rolls
        self.asked = 0
        """The chance's answers asked for so far (0: the step has not branched yet)."""

    def _ask(self) -> None:
        self.asked += 1
        self.kernel.branched.add(self.kernel.top)

    def _answered(self, answer: Any) -> Any:
        """Give ``answer`` back, kept on the step's trail (:class:`_Trail`)."""
        self.kernel.trail.answered(answer)
        return answer

    def __getattr__(self, name: str) -> Any:
        return getattr(self.chance, name)

    def roll(self, dice: Any, tag: str) -> Any:
        """The chance's roll."""
        self._ask()
        return self._answered(self.chance.roll(dice, tag))

    def choose(self, n: int, tag: str) -> int:
        """The chance's choice."""
        self._ask()
        return self._answered(self.chance.choose(n, tag))

    def draw(self, dist: Any, tag: str) -> Any:
        """The chance's draw."""
        self._ask()
        return self._answered(self.chance.draw(dist, tag))

    def draw_lazily(self, dist_of: Any, tag: str) -> Any:
        """The chance's lazy draw; a test's as passed or failed only, unless in ``full``."""
        if tag in self.full:
            self._ask()
            return self._answered(self.chance.draw_lazily(dist_of, tag))
        roll = self.rolls.get(tag)
        if roll is not None and not roll.decl.is_test:
            return _UnreadRoll(tag)
        self._ask()
        return self._answered(self.chance.draw_lazily(lambda: _steered(dist_of()), tag))


def _steered(dist: Dist[Any]) -> Dist[Any]:
    """A test's distribution as passed or failed (:class:`_Steered`); any other the same."""
    outcomes = list(dist.support())
    if not outcomes or not all(isinstance(r, RollResult) and r.passed is not None
                               for r in outcomes):
        return dist
    return dist.map(lambda r: _Steered(r.name, bool(r.passed)))


class _Trail:
    """What the replays of one node's step share: the value of each call of a pure action
    (one that writes nothing and draws nothing, :func:`~rules_run.runtime.sequences.purity`
    without dice), by where it stands on the step's path.

    :func:`~rules_run.chance.enumerate_exact` plays the step once per branch from the node,
    replaying the answers the branch shares with the others before its own. The step is
    deterministic given its answers, so the ``i``-th pure call after the same answers (the
    *trail*) is the same call on the same battle, and gives the same value: a replay takes
    it from here instead of running the rules again. Only the outermost pure calls count
    (the ones inside run, or are skipped, with their caller), so a replay counts them as
    the first play did. An answer that cannot be a key (unhashable) stops the sharing for
    the rest of that play. Outside an enumerated step (:attr:`on` False) calls run as
    always. A value taken is the very object the first play got (the rules never change a
    list in place); the statements it skips are not counted towards the runaway-loop cap."""

    __slots__ = ("on", "trail", "count", "depth", "values", "shared")

    def __init__(self) -> None:
        self.on = False
        self.trail: Any = ()
        """The answers so far in this play, as nested pairs (None: not shared)."""
        self.count = 0
        """Outermost pure calls since the last answer."""
        self.depth = 0
        """Pure calls running now (inside one: not counted, not shared)."""
        self.values: dict[tuple, tuple[str, Any]] = {}
        """(trail, count) -> (the action, its value), for the node being worked out."""
        self.shared = 0
        """Calls a replay took from here instead of running (over the whole combat)."""

    def begin(self) -> None:
        """A play of the step begins: no answers yet."""
        self.trail, self.count, self.depth = (), 0, 0

    def answered(self, answer: Any) -> None:
        """The chance gave ``answer``: the trail grows by it (by its type and value, so
        that two answers equal as numbers but of different kinds stay apart)."""
        if self.trail is None:
            return
        try:
            hash(answer)
        except TypeError:
            self.trail = None
            return
        self.trail, self.count = (self.trail, type(answer), answer), 0

    def wrap(self, name: str, call: Any) -> Any:
        """The pure action ``name``'s call ``call(env, ...)``, shared along the trail."""
        def shared(env: Any, *args: Any) -> Any:
            if self.depth or not self.on or self.trail is None:
                return call(env, *args)   # inside a pure call, or not shared
            key = (self.trail, self.count)
            self.count += 1
            known = self.values.get(key)
            if known is not None:
                assert known[0] == name, "a replay calls as the first play did"
                self.shared += 1
                return known[1]
            self.depth += 1
            try:
                value = call(env, *args)
            finally:
                self.depth -= 1
            self.values[key] = (name, value)
            return value
        return shared


class _Known:
    """The exact distributions of the pure rolls and tests the kernel draws as one branch
    point, kept by what their chances depend on
    (:func:`~rules_run.engine.builtins.fight.chance_key`, as the volleys' are): the same
    test of the same unit in the same state is worked out once for the whole combat, not
    once per branch point where it is taken."""

    def __init__(self, runtime: Any) -> None:
        self.runtime = runtime
        self.dists: dict[tuple, Dist[Any]] = {}

    def wrap(self, roll: Any) -> Any:
        """``roll.exact``, kept by its key."""
        from rules_run.runtime.sequences import purity
        exact = roll.exact
        reads: list[_Reads] = []   # what the roll reads, found when it is first drawn

        def known(env: Any, vars: dict) -> Dist[Any]:
            if not reads:
                reads.append(_Reads(*purity(self.runtime, roll.decl)[1:]))
            units = tuple(v for v in vars.values() if isinstance(v, Unit))
            key, _ = chance_key(self.runtime, env, roll.name, reads[0], units, vars)
            dist = self.dists.get(key)
            if dist is None:
                dist = self.dists[key] = exact(env, vars)
            return dist
        return known


@slotted.frozen
class _Reads:
    """What a roll reads of its units (as a sequence's ``reads`` and ``statuses``)."""

    reads: frozenset[str]
    statuses: frozenset[str]


READING = PURE_NAMES | (READS - {"counter", "counter_values"})
"""The builtins an action shared along a step's trail (:class:`_Trail`) may call: the pure
ones, and the builtins specialisation counts as reads (:data:`rules_run.runtime.reach.READS`:
they change nothing in the battle, a cache of geometry aside), but not ``counter``: reading
a counter first sets its initial value, which a shared call would skip; nor
``counter_values``, whose reads the watch of the counters notes (:class:`_ReadFirst`)."""


def _pure_actions(runtime: Any) -> list[str]:
    """The actions whose calls the replays of a step may share (:class:`_Trail`): they
    change nothing and draw nothing (they call no roll, and builtins of :data:`READING`
    only)."""
    from rules_run.runtime.sequences import purity
    return [n for n, d in runtime.decls.items()
            if type(d) is ast.ActionDecl and n not in runtime.triggers
            and purity(runtime, d, dice=False, names=READING)[0]]


class _ReadFirst(dict):
    """The battle's counters, watched: which left-out counter is read before it is
    written since the last :meth:`clean`."""

    __slots__ = ("left_out", "written", "read_first")

    def __init__(self, values: dict, left_out: frozenset[str]) -> None:
        super().__init__(values)
        self.left_out = left_out
        self.written: set[tuple] = set()
        self.read_first: set[str] = set()

    def __getitem__(self, key: Any) -> Any:
        if key[0] in self.left_out and key not in self.written:
            self.read_first.add(key[0])
        return super().__getitem__(key)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.written.add(key)
        super().__setitem__(key, value)

    def note_read(self, name: str) -> None:
        """Every value of the counter ``name`` is read (``counter_values``): left out, it
        counts as read first."""
        if name in self.left_out:
            self.read_first.add(name)


@slotted.define
class _Node:
    """A player turn, or a phase of one, about to begin: the battle then, which
    ``play_turn`` call of its round it is, for which side, which of the turn's phases (-1:
    the turn itself), and whether the two units have met yet."""

    snapshot: Snapshot | None
    """None: the battle's start (its set-up is the first step)."""
    call: int
    side: Any
    met: bool
    steps: int = 0
    """The env's statement count then (the runaway-loop cap counts over the battle)."""
    phase: int = -1
    """-1: the player turn's start; else the number of the ``turn`` block's phase call
    about to run (from 1: the first phase is part of the turn's own step)."""
    outer: Any = None
    """The side active before the turn began (a phase node's turn puts it back at its
    end)."""


class _Kernel:
    """One combat's enumeration: the battle's state it plays in and the step procedure."""

    def __init__(self, runtime: Any, battle: Any, a: Any, b: Any, until: str | None,
                 left_out: frozenset[str], trail: _Trail | None = None) -> None:
        self.runtime, self.until, self.left_out = runtime, until, left_out
        self.trail = trail if trail is not None else _Trail()
        """The pure calls the replays of a node's step share."""
        self.state = state = battle_state(runtime, battle, _KernelState)
        assert isinstance(state, _KernelState)
        state.kernel = self
        self.pair = (self.state.units[battle.units.index(a)],
                     self.state.units[battle.units.index(b)])
        self.origin = self.state.snapshot()
        """The state before its set-up (the start node's step begins there)."""
        self.env: Any = None
        self.rounds = 0
        self.read_first: set[str] = set()
        """Left-out counters some step read before writing them."""
        self.reached: dict[tuple, _Node] = {}
        """Each node reached, by its key."""
        self.leaves = 0
        """Steps played (one per branch enumerated)."""
        # the step being played: the node, whether its own turn is still to come (the
        # ``play_turn`` calls before it are skipped), the calls so far in this round
        self.node = _Node(None, 0, None, False)
        self.waiting = False
        self.calls = 0
        self.met = False
        self.phase_nodes = _phases_split(runtime)
        """Whether the turn's phases are nodes too (:func:`_phases_split`)."""
        self.skipping = False
        """True while a phase node's turn is replayed up to the node's phase (nothing
        fires; the phases before it are skipped)."""
        self.phase_calls = 0
        """The ``turn`` block's phase calls so far in the turn being played."""
        self.top: str | None = None
        """The ``turn`` block's phase being played (None: none yet)."""
        self.branched: set[str | None] = set()
        """The ``turn`` block's phases some step has branched in (asked the chance)."""
        self.nodes_at: frozenset[str | None] = frozenset()
        """:attr:`branched` as a node's enumeration began: the phases its steps make nodes
        at (unchanged while it lasts, so each replay of the step stops where the others
        did)."""
        self.outer: Any = None
        """The side active before the turn being played began."""
        self.over: CombatEnd | None = None
        self.next: tuple | None = None

    # ------------------------------------------------------------ the combat's end
    def check(self) -> None:
        """Raise :class:`_Over` when the combat is over now (and note when the two
        fight)."""
        a, b = self.pair
        state = self.state
        how = None
        if not (state.alive(a) and state.alive(b)):
            how = "out of play"
        elif self.until is not None and (self.until in a.statuses
                                         or self.until in b.statuses):
            how = self.until
        elif b in a.engaged:
            self.met = True
        elif self.met:
            how = "apart"
        if how is not None:
            self.finish(how)

    def finish(self, how: str) -> None:
        """The combat ends now: keep how, raise :class:`_Over`."""
        def unit_end(u: Any) -> UnitEnd:
            where = ("destroyed" if u.destroyed or u.models <= 0 else
                     "off the table" if not u.on_table else "in play")
            kept_on = tuple(sorted(n for n, until in u.statuses.items() if until is None))
            return UnitEnd(u.id, where, kept_on, u.models)
        self.over = CombatEnd(how, tuple(unit_end(u) for u in self.pair))
        raise _Over

    # ------------------------------------------------------------ one step
    def step(self, node: _Node, chance: Any) -> tuple:
        """Play from ``node`` to the next player turn's start or the combat's end:
        ``("node", key)`` (the node kept in :attr:`reached`) or ``("end", CombatEnd)``."""
        self.node, self.over, self.next, self.met = node, None, None, node.met
        self.skipping = False
        self.leaves += 1
        self.trail.begin()
        state = self.state
        try:
            if node.snapshot is None:
                state.restore(self.origin)
                self._watch()
                self.waiting = False
                self.env, self.rounds = begin_battle(state, chance, None)
                self._rounds_from(1)
            else:
                state.restore(node.snapshot)
                self._watch()
                self.env.chance = chance
                self.env.steps = node.steps
                self.waiting, self.calls = True, 0
                self._round(state.round)
                self._rounds_from(state.round + 1)
            self.finish("battle over")
        except _Reached:
            return ("node", self.next)
        except _Over:
            return ("end", self.over)
        finally:
            self._unwatch()
        raise AssertionError("a step ends at a node or at the combat's end")

    def _watch(self) -> None:
        self.state.counters = _ReadFirst(self.state.counters, self.left_out)

    def _unwatch(self) -> None:
        counters = self.state.counters
        if isinstance(counters, _ReadFirst):
            self.read_first |= counters.read_first
            self.state.counters = dict(counters)

    def _round(self, number: int) -> None:
        """The ``round`` block of round ``number`` (begun), then its end."""
        state, env = self.state, self.env
        self.runtime.battle_blocks["round"](env, {})
        end_round(state, env)
        self.check()
        if state.ended:
            self.finish("battle over")

    def _rounds_from(self, number: int) -> None:
        for n in range(number, self.rounds + 1):
            self.calls = 0
            start_round(self.state, self.env, n)
            self._round(n)

    def turn(self, side: Any) -> None:
        """A ``play_turn(side)`` call of the round block: skipped up to the node's own,
        which is played from the node's state; the one after it is a new node."""
        state = self.state
        call = self.calls
        self.calls = call + 1
        node = self.node
        if self.waiting:
            if call < node.call:
                return
            self.waiting = False
            assert node.snapshot is not None, "only the start node has no snapshot"
            self.phase_calls = 0
            if node.phase >= 0:
                # the turn's flow up to the node's phase, which restores the node (phase)
                self.skipping = True
                self.outer = state.active_side = node.outer
                self._unwatch()
                BattleState.play_turn(state, self.env, node.side)
                self.check()
                return
            state.restore(node.snapshot)   # as it was, whatever the skipped calls did
            self._watch()
            self.met = node.met
            self.outer = state.active_side
            BattleState.play_turn(state, self.env, node.side)
            self.check()
            return
        self.check()
        self._unwatch()
        key = (state.state_key(self.left_out), call, side, self.met)
        if key not in self.reached:
            self.reached[key] = _Node(state.snapshot(), call, side, self.met,
                                      self.env.steps)
        self.next = key
        raise _Reached

    def phase(self, name: str) -> bool:
        """A phase of the ``turn`` block begins: True to skip it (a phase node's turn
        replayed up to the node's own phase, which is played from the node's state); from
        the second on, in a turn being played, a new node once the step has branched (a node
        merges its paths) or where the phase branched before (a node spares its branches
        the phases before it); else the step's one path goes on."""
        state = self.state
        index = self.phase_calls
        self.phase_calls = index + 1
        node = self.node
        if self.skipping:
            if index < node.phase:
                return True
            self.skipping = False
            assert node.snapshot is not None, "a phase node has a snapshot"
            state.restore(node.snapshot)
            self._watch()
            self.met = node.met
            self.env.steps = node.steps
            self.top = name
            return False
        if index == 0 or not (getattr(self.env.chance, "asked", 1) or name in self.nodes_at):
            self.top = name   # the turn's first phase, or a phase that never branched after
            return False      # a step that has not either: its one path goes on
        self.check()
        self._unwatch()
        key = (state.state_key(self.left_out), self.calls - 1, state.active_side, self.met,
               index)
        if key not in self.reached:
            self.reached[key] = _Node(state.snapshot(), self.calls - 1, state.active_side,
                                      self.met, self.env.steps, index, self.outer)
        self.next = key
        raise _Reached


def _phases_split(runtime: Any) -> bool:
    """Whether a player turn's phases may be nodes of their own: the battle's ``turn``
    block is phase calls without arguments (then calls of actions without arguments, which
    run after every phase), so replaying it up to a phase runs nothing but the turn's own
    start, which a phase node's state replaces."""
    decl = runtime.battle_decl
    phases = True
    for stmt in decl.turn:
        call = getattr(stmt, "call", None)
        if not isinstance(stmt, ast.CallStmt) or not isinstance(call, ast.Call) or call.args \
                or call.kwargs:
            return False
        is_phase = isinstance(runtime.decls.get(call.name), ast.PhaseDecl)
        if is_phase and not phases:
            return False
        phases = is_phase
    return True


class _KernelState(BattleState):
    """The battle state of a kernel: its player turns and triggers go through the kernel."""

    kernel: _Kernel
    unchanging = BattleState.unchanging | {"kernel"}

    def play_turn(self, env, side) -> None:
        self.kernel.turn(side)

    def enter_phase(self, env, name, body) -> Any:
        kernel = self.kernel
        if (kernel.phase_nodes and self.phase is None and self.active_side is not None
                and kernel.phase(name)):
            return None
        return super().enter_phase(env, name, body)

    def fire(self, env, event, args=None) -> None:
        kernel = self.kernel
        if kernel.over is not None or kernel.skipping or sys.exc_info()[0] is not None:
            return   # over, replaying, or a step ending (a ``finally`` of the rules' flow)
        super().fire(env, event, args)
        if not kernel.waiting:
            kernel.check()


def combat_odds(runtime: Any, battle: Any, a_id: str, b_id: str, *,
                until: str | None = None, samples: int = 0, seed: int = 1,
                progress: Any = None) -> CombatOdds:
    """The exact distribution of how the combat of units ``a_id`` and ``b_id`` ends.

    Raises:
        UsageError: a unit that is not in the battle, the same unit twice, ``until`` not a
            status, a battle the ruleset cannot run, or a combat that needs more player-turn
            and phase states (``combat_states``) or branches from one (``combat_branches``)
            than the limits allow.
    """
    a, b = battle_unit(battle, a_id, "--combat:"), battle_unit(battle, b_id, "--combat:")
    if a is b:
        raise UsageError(f"--combat {a_id} {b_id}: a combat needs two different units")
    if until is not None and not isinstance(runtime.decls.get(until), ast.StatusDecl):
        statuses = [n for n, d in runtime.decls.items() if isinstance(d, ast.StatusDecl)]
        hint = did_you_mean(until, statuses) or "its statuses: " + ", ".join(statuses)
        raise UsageError(f"--until {until}: the ruleset {runtime.ruleset.id!r} declares no "
                         f"status {until!r}; {hint}")
    if runtime.battle_decl is None:
        raise UsageError(f"the ruleset {runtime.ruleset.id!r} declares no 'battle', so "
                         "its combats cannot be fought")
    left_out = frozenset(n for n, d in runtime.decls.items() if isinstance(d, ast.CounterDecl))
    full: frozenset[str] = frozenset()
    trail = _Trail()
    namespace = runtime.codegen.namespace
    calls = {f"_call_{n}": namespace[f"_call_{n}"] for n in _pure_actions(runtime)
             if f"_call_{n}" in namespace}
    namespace.update({k: trail.wrap(k, call) for k, call in calls.items()})
    known = _Known(runtime)
    drawn = [roll for roll in runtime.rolls.values() if roll.drawable()]
    for roll in drawn:
        roll.exact = known.wrap(roll)
    try:
        while True:
            kernel = _Kernel(runtime, battle, a, b, until, left_out, trail)
            try:
                ends = _solve(kernel, battle, full)
                break
            except _Restart:   # keep in the key what was read first, and start again
                left_out = left_out - kernel.read_first
            except _Refine as e:   # enumerate the test in full, and start again
                full = full | {e.test}
    finally:
        namespace.update(calls)
        trail.on = False
        for roll in drawn:
            del roll.exact
    sampled = sample_combat(runtime, battle, a_id, b_id, samples, seed, until=until,
                            progress=progress) if samples else None
    return CombatOdds((a, b), ends, len(kernel.reached), kernel.leaves,
                      tuple(sorted(left_out)), tuple(sorted(full)), sampled, trail.shared)


def _solve(kernel: _Kernel, battle: Any, full: frozenset[str]) -> Dist[CombatEnd]:
    """The combat's end from its start: each node's step enumerated once, mixed; the
    tests in ``full`` in full, the others as passed or failed (:class:`_Steering`)."""
    memo: dict[Any, Dist[Any]] = {}
    most = limit("combat_states")
    branches = limit("combat_branches")

    def enumerate_step(node: _Node) -> Dist:
        kernel.nodes_at = frozenset(kernel.branched)
        trail = kernel.trail
        trail.values, trail.on = {}, True
        try:
            found = enumerate_exact(
                lambda chance: kernel.step(node, _Steering(chance, full, kernel)),
                limit=branches, draws=True)
        except ChanceError as e:
            if "more than" not in str(e):
                raise
            raise UsageError([Diagnostic(
                "a player turn of the combat has "
                + too_many("combat_branches", "branches to work out exactly"),
                battle.doc.span(("units",)), code="too-many-branches")]) from None
        return found

    def value(key: Any, node: _Node) -> Dist[Any]:
        known = memo.get(key)
        if known is not None:
            return known
        if len(memo) >= most:
            raise UsageError([Diagnostic(
                "the combat reaches " + too_many(
                    "combat_states", "player-turn and phase states to work out exactly"),
                battle.doc.span(("units",)), code="too-many-states")])
        memo[key] = Dist.certain(None)   # a turn cannot lead back to itself (turns count)
        step = enumerate_step(node)
        if kernel.read_first & kernel.left_out:
            raise _Restart
        out = step.bind(lambda r: Dist.certain(r[1]) if r[0] == "end"
                        else value(r[1], kernel.reached[r[1]]))
        memo[key] = out
        return out

    return value(("start",), _Node(None, 0, None, False))


def sample_combat(runtime: Any, battle: Any, a_id: str, b_id: str, samples: int, seed: int,
                  *, until: str | None = None, progress: Any = None) -> Dist[CombatEnd]:
    """A Monte Carlo estimate of the combat's end: the battle fought ``samples`` times with
    one seeded stream of dice, each to the combat's end (counts / samples)."""
    a, b = battle_unit(battle, a_id, "--combat:"), battle_unit(battle, b_id, "--combat:")
    chance = RandomChance(seed)
    counts: dict[CombatEnd, int] = {}
    for i in range(samples):
        if progress is not None and (i % 100 == 0 or i == samples - 1):
            progress(i + 1, samples)
        kernel = _Kernel(runtime, battle, a, b, until, frozenset())
        node = _Node(None, 0, None, False)
        while True:
            kind, found = kernel.step(node, chance)
            if kind == "end":
                break
            node = kernel.reached.pop(found)
        counts[found] = counts.get(found, 0) + 1
    return Dist.from_weights({k: Fraction(v, samples) for k, v in counts.items()})

