"""Battle state: what changes in a battle, and the operations every builtin shares.

The ruleset's statements change the battle only through the builtins of
:mod:`rules_run.engine.builtins` (move, engage, inflict, apply a status, score, decide,
...), so every change can be logged as an event. The state holds what they change (units,
sides, the round, phase and turn, victory points, counters, the caches of geometry) and
what they share: events (:meth:`BattleState.emit`, :meth:`BattleState.positions`), triggers
(:meth:`BattleState.fire`), expiry, decisions, turns and activations. Nothing here knows a
game: which characteristic holds a model's wounds comes from the ruleset (``as wounds``),
which decision is made when from its actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_run import slotted
from rules_run.diagnostics import Span
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.builtins.registry import fail, files_ranks, name_of
from rules_run.engine.kept import MISSING, Kept, KeptByValue
from rules_run.runtime.effects import rule_scope
from rules_run.runtime.entities import (
    DEFAULT_BASE_MM, Bearer, RuleInstance, TurnKey, Unit, Weapon, event_id, placed,
    wounds_per_model,
)
from rules_run.runtime.events import Decision, Expire, Phase, Trigger, Turn
from rules_run.space import MM_PER_INCH, Footprint, Pose

if TYPE_CHECKING:
    from rules_run.engine.builtins.objectives import Place
    from rules_run.engine.builtins.sight import TerrainPiece
    from rules_run.runtime.decisions import CompiledDecision
    from rules_run.space import Sweep

__all__ = ["BattleState", "DEFAULT_TABLE", "Snapshot"]

DEFAULT_TABLE = (72.0, 48.0)
"""The battlefield's width and depth in inches when the battle file gives none."""

_SHARED = frozenset({
    "runtime", "battle", "units", "policies", "end_checks", "width", "depth", "_footprints",
    "_gaps", "_terrain_under", "_in_range", "_between", "_behind", "_bases"})
"""What a :class:`Snapshot` leaves out: what never changes in a battle (the runtime, the
battle, its units' list, the policies, the ``end if`` checks, the table's size), and the
caches of geometry, whose answers are given back only on the same grounds (``kept.py``)."""


def _copied(value: Any) -> Any:
    """A value with its own container (one level), so changing one copy leaves the other."""
    kind = type(value)
    if kind is dict or kind is list or kind is set:
        return kind(value)
    return value


_PLAIN = frozenset({str, int, float, bool, type(None)})
"""The types a state key keeps as they are."""


def _sorted(items: list[Any]) -> tuple:
    """A dict's items or a set's members in one order whatever their insertion order: their
    own when they compare (no two are equal, being a dict's keys or a set's members), else
    by their text."""
    try:
        return tuple(sorted(items))
    except TypeError:
        return tuple(sorted(items, key=repr))


def _frozen(value: Any) -> Any:
    """A value as part of a state key: a unit, part, group or weapon by what events call it;
    containers as tuples (a dict's and a set's items sorted); rule instances by their text."""
    kind = type(value)
    if kind in _PLAIN or kind is tuple and all(type(v) in _PLAIN for v in value):
        return value   # itself (most keys and values: a counter's, a profile's)
    if isinstance(value, Bearer):
        return ("bearer", event_id(value)) if not isinstance(value, Weapon) else (
            "weapon", value.name, event_id(value.owner) if value.owner is not None else None)
    if kind is dict or isinstance(value, dict):
        return _sorted([(_frozen(k), _frozen(v)) for k, v in value.items()])
    if kind is list or kind is tuple:
        return tuple(_frozen(v) for v in value)
    if kind is set or kind is frozenset:
        return _sorted([_frozen(v) for v in value])
    if isinstance(value, RuleInstance):
        return ("rule", value.text)
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


@slotted.frozen
class Snapshot:
    """What changes in a battle, copied out of a :class:`BattleState` (its
    :meth:`~BattleState.snapshot`) to be put back later (:meth:`~BattleState.restore`).

    It holds the state's own attributes but those of :data:`_SHARED`, and every attribute of
    each unit, part, group and weapon of the battle, each container copied (the scripted
    orders with their ``used`` marks, two levels).
    """

    fields: dict[str, Any] = slotted.slot(eq=False)
    bearers: tuple[tuple[Any, dict[str, Any]], ...] = slotted.slot(eq=False)


class BattleState:
    """Everything that changes during one battle.

    ``battle.units`` are this battle's own units (new, or :meth:`Unit.fresh` copies): the
    state places them and changes them in place.
    """

    unchanging: frozenset[str] = _SHARED
    """The attributes a :class:`Snapshot` and :meth:`state_key` leave out."""

    def __init__(self, runtime: Any, battle: Any, orders: list[dict],
                 policies: dict[str, str]) -> None:
        self.runtime = runtime
        self.battle = battle
        self.units: list[Unit] = battle.units
        first = (battle.doc.value.get("game") or {}).get("first")
        self.sides: list[str] = ([first] if first else []) + [s for s in battle.sides
                                                               if s != first]
        """Sides in the order they take their turns."""
        self.orders = orders
        self.policies = policies
        self.active_side: str | None = None
        self.round = 0
        self.turns = 0
        """Player turns begun so far (the one being played is number ``turns``)."""
        self.phases = 0
        """Phases begun so far (``once per phase`` counts from one to the next)."""
        self.once: dict[tuple[Any, ...], tuple[str, int]] = {}
        """(action, keys...) -> the period it last ran in (``once per``), as (period,
        number)."""
        self.phase: str | None = None
        self.last_pick: tuple[tuple[str, int], str] | None = None
        """The phase (as :meth:`period` gives it) and the side of the unit that acted last in
        an ``activate`` (``picked_last()``)."""
        self.attacking = False
        """True while attacks are resolved (their rolls are summarised in narration)."""
        self.vp: dict[str, int] = dict.fromkeys(self.sides, 0)
        self.counters: dict[tuple[Any, ...], Any] = {}
        """Each counter's values: keyed by its name and then its keys' values (ids)."""
        self.end_checks: list[Callable[[], bool]] = []
        """The battle's ``end if`` conditions, checked after each player turn."""
        self.ended: str | None = None
        """Why the battle ended early (an ``end if`` condition held, a side won), or None."""
        self.won: tuple[str | None, str] | None = None
        """The side ``win()`` named (None: a draw) and why; it decides the battle."""
        field = battle.doc.value.get("battlefield") or {}
        self.width = float(field.get("width", DEFAULT_TABLE[0]))
        self.depth = float(field.get("depth", DEFAULT_TABLE[1]))
        self.terrain = list(field.get("terrain") or [])
        # the caches of geometry, each kept until what it was computed from changes
        # (rules_run.engine.kept)
        self._footprints = KeptByValue()
        """Unit -> its footprint, on its models, files, base width and depth (:meth:`footprint`)."""
        self._gaps = Kept()
        """(a, b) -> the gap between them, on their poses and footprints (each gap is kept for
        (b, a) too) (:func:`rules_run.engine.builtins.shapes.gap`)."""
        self._terrain_under = Kept()
        """Unit -> the terrain pieces it stands in, on its pose and footprint (sight)."""
        self._in_range = Kept()
        """(a, b, inches) -> whether b is within that range in a's front arc, on a's and b's
        poses and sizes (sight)."""
        self._between = Kept()
        """(a, b) -> what stands between them, on a's and b's poses and sizes and the shapes
        of all that might (sight)."""
        self._behind = Kept()
        """(what, a, b, ...) -> a unit's shape, its bases' shapes, or the answer of behind,
        models_behind or visible, on a's and b's poses and footprints (and for visible the
        shapes of the units near them) (builtins/shapes.py, sight)."""
        self._bases = Kept()
        """Unit -> where each of its models' bases is, on its pose and footprint
        (:func:`rules_run.engine.builtins.shapes.model_bases`)."""
        self._moves: dict[Unit, tuple[Pose, Pose, Footprint]] = {}
        """Unit -> its last straight move: (where it started, turned to the way it went, where
        it ended, its footprint then) (:meth:`passed_through`)."""
        # built on first use: the terrain as pieces (sight.py), the places and who controls
        # them (objectives.py)
        self._terrain_pieces: list[TerrainPiece] | None = None
        self._places: dict[str, Place] | None = None
        self._controllers: dict[str, str | None] = {}
        self._markers: dict[str, Sweep] = {}
        """Marker id -> its shape on the table now (markers.py)."""
        self._markers_placed = 0
        for u in self.units:
            u.wounds_each = wounds_per_model(runtime, u)
        self._place(battle)

    # ------------------------------------------------------------ set-up
    def _place(self, battle: Any) -> None:
        data = battle.doc.value
        for spec, unit in zip(data["units"], self.units):
            base = spec.get("base") or (self.runtime.ruleset.units.get(spec.get("profile"), {})
                                        .get("base")) or {}
            unit.base_w = float(base.get("w", DEFAULT_BASE_MM[0])) / MM_PER_INCH
            unit.base_d = float(base.get("d", DEFAULT_BASE_MM[1])) / MM_PER_INCH
            pos = spec.get("position")
            unit.pose = Pose(pos["x"], pos["y"], pos.get("facing", 0.0)) if pos else None
            unit.home = unit.pose
        if "duel" in data:
            a, b = self.units[0], self.units[1]
            gap = float(data["duel"]["distance"])
            cx, cy = self.width / 2, self.depth / 2
            a_d, b_d = self.footprint(a).depth, self.footprint(b).depth
            a.pose = Pose(cx, cy - gap / 2 - a_d / 2, 0.0)
            b.pose = Pose(cx, cy + gap / 2 + b_d / 2, 180.0)
            a.home, b.home = a.pose, b.pose
        missing = [u.id for u in self.units if u.pose is None]
        if missing:
            raise fail("units without a position (give 'position' or use 'duel'): "
                       + ", ".join(missing), battle.doc.span(("units",)), "no-position")

    def footprint(self, unit: Unit) -> Footprint:
        """The unit's rectangle now: files wide, as many ranks as its models fill.

        Its models stand ``spacing`` inches apart (``space_models``), across a rank and
        between ranks. Kept per unit until its models, files, bases or spacing change: the
        same object comes back.
        """
        grounds = (unit.models, unit.files, unit.base_w, unit.base_d, unit.spacing)
        kept = self._footprints.get(unit, grounds)
        if kept is not MISSING:
            return kept
        files, ranks = files_ranks(unit)
        gap = unit.spacing
        return self._footprints.put(unit, grounds, Footprint(
            files * unit.base_w + (files - 1) * gap, ranks * unit.base_d + (ranks - 1) * gap))

    # ------------------------------------------------------------ events
    def positions(self, env: Any, *units: Unit) -> dict[str, dict[str, Any]]:
        """Where the units (and those attached to them) stand now and how big they are, as
        an event's ``placed`` field (docs/event-log.md): unit id -> its centre, facing,
        files, ranks and base size in inches. Empty when the run keeps no events."""
        out: dict[str, dict[str, Any]] = {}
        if env.events is None:
            return out
        for unit in units:
            for u in (unit, *unit.followers):
                pose = placed(u)
                files, ranks = files_ranks(u)
                out[u.id] = {"x": round(pose.x, 4), "y": round(pose.y, 4),
                             "facing": round(pose.facing % 360, 4), "files": files,
                             "ranks": ranks, "base_width": round(u.base_w, 4),
                             "base_depth": round(u.base_d, 4)}
        return out

    def table(self, env: Any) -> dict[str, Any]:
        """The battlefield and every unit as the battle begins: the ``battle`` event's
        ``table``, ``terrain``, ``objectives`` and ``units`` fields."""
        field = self.battle.doc.value.get("battlefield") or {}
        terrain = [{"id": t["id"], "name": t.get("name") or t["id"], "type": t["kind"],
                    "x": float(t["at"]["x"]), "y": float(t["at"]["y"]),
                    "width": float(t["size"]["w"]), "depth": float(t["size"]["h"]),
                    "effects": list(t.get("effects") or [])} for t in self.terrain]
        objectives = [{"id": o["id"], "name": o.get("name") or o["id"],
                       "x": float(o["at"]["x"]), "y": float(o["at"]["y"])}
                      for o in field.get("objectives") or []]
        units = [{"id": u.id, "name": u.name, "side": u.side, "models": u.models,
                  "wounds": u.wounds, "wounds_each": u.wounds_each,
                  "statuses": sorted(u.statuses)} for u in self.units]
        return {"table": {"width": self.width, "depth": self.depth}, "terrain": terrain,
                "objectives": objectives, "units": units,
                "placed": self.positions(env, *self.units)}

    # ------------------------------------------------------------ flow
    def enter_phase(self, env: Any, name: str, body: Callable[[], Any]) -> Any:
        """Run a phase: announce it, run it, let statuses lasting to its end expire."""
        outer = self.phase
        self.phase = name
        self.phases += 1
        if env.events is not None:
            env.emit(Phase, phase=name, within=outer, cite=self.runtime.ruleset.cite(name))
        self.fire(env, "start_of_phase")
        try:
            return body()
        finally:
            self.fire(env, "end_of_phase")
            self.expire(env, "phase")
            self.phase = outer

    def fire(self, env: Any, event: str, args: dict[str, Any] | None = None) -> None:
        """Run the ``when <event>`` effects of the rules carried by units in the battle."""
        by_rule = self.runtime.triggers.get(event)
        if not by_rule:
            return
        for inst in self.runtime.global_rules:
            for effect, cond, body in by_rule.get(inst.rule.name, ()):
                evars = rule_scope(args or {}, inst, None)
                if cond is None or cond(env, evars):
                    self._trigger(env, event, inst, None, effect, body, evars)
        for unit in list(self.units):
            if not self.alive(unit) and event not in ("destroyed", "slain"):
                continue
            for inst in list(self.runtime.rules_in_play(env, unit)):
                for effect, cond, body in by_rule.get(inst.rule.name, ()):
                    evars = rule_scope(args or {}, inst, unit)
                    if cond is None or cond(env, evars):
                        self._trigger(env, event, inst, unit, effect, body, evars)

    def _trigger(self, env: Any, event: str, inst: Any, unit: Unit | None, effect: Any,
                 body: Callable[[Any, dict], Any], evars: dict) -> None:
        """Run one ``when`` effect whose condition holds: announce it, run its statements."""
        env.emit(Trigger, rule=inst.text, event=event,
                 unit=None if unit is None else unit.id,
                 cite=self.runtime.ruleset.cite(f"rule:{inst.rule.name}"))
        try:
            body(env, evars)
        except RecursionError:
            raise fail(f"the 'when {event}' of rule {inst.text!r} sets itself off without "
                       "end", effect.span, "too-deep") from None

    def until(self, until: str | None, thing: Any) -> str | TurnKey | None:
        """When a status applied now to ``thing`` wears off: ``its next turn`` and ``next
        turn`` become a :class:`TurnKey` on the player turn being played (the side of
        ``thing``, or of its owner for a weapon; any side); the others stay as written."""
        if until == "its next turn":
            return TurnKey(getattr(getattr(thing, "owner", None) or thing, "side", None),
                           self.turns)
        if until == "next turn":
            return TurnKey(None, self.turns)
        return until

    def expire(self, env: Any, period: str) -> None:
        """Remove the statuses that last until the end of this period (an ``expire`` event
        names them); at the end of a player turn, also those waiting for it
        (:class:`TurnKey`)."""
        expired = {}
        for u in self.units:
            # a unit's, then its parts' (unit.part) and its groups' (unit.group)
            for bearer in [u, *u.parts.values(), *u.groups] if u.parts or u.groups else (u,):
                if not bearer.statuses:
                    continue
                gone = [s for s, until in bearer.statuses.items() if until == period or (
                    period == "turn" and isinstance(until, TurnKey)
                    and until.ends(self.active_side, self.turns))]
                for s in gone:
                    bearer.lose_status(s)
                if gone:
                    expired[event_id(bearer)] = sorted(gone)
        if expired:
            env.emit(Expire, period=period, statuses=expired)

    def period(self, period: str) -> tuple[str, int]:
        """The period being played, as (its kind, its number): a phase from its start to the
        next phase's, a player turn, a battle round, the battle."""
        if period == "phase":
            return period, self.phases
        if period == "turn":
            return period, self.turns
        return period, self.round if period == "round" else 0

    def use_once(self, period: str, key: tuple[Any, ...]) -> bool:
        """Mark an action ``once per period`` as run for ``key``; False if it had already run
        for it in this period."""
        now = self.period(period)
        if self.once.get(key) == now:
            return False
        self.once[key] = now
        return True

    def alive(self, unit: Unit) -> bool:
        """Still in the battle: on the table and not destroyed."""
        return unit.on_table and not unit.destroyed and unit.models > 0

    # ------------------------------------------------------------ snapshots
    def _bearers(self) -> list[Any]:
        """Every unit of the battle, then its parts, groups and the weapons of each."""
        out: list[Any] = []
        for u in self.units:
            things = [u, *u.parts.values(), *u.groups]
            out.extend(things)
            out.extend(w for t in things for w in getattr(t, "weapons", ()) or ())
        return out

    def snapshot(self) -> Snapshot:
        """What changes in the battle now, to :meth:`restore` later (the combat kernel,
        ``engine/kernel.py``, goes back to a state once per branch it explores)."""
        fields = {k: _copied(v) for k, v in vars(self).items() if k not in self.unchanging}
        fields["orders"] = [dict(o) for o in self.orders]
        return Snapshot(fields, tuple((b, {k: _copied(v) for k, v in vars(b).items()})
                                      for b in self._bearers()))

    def restore(self, snapshot: Snapshot) -> None:
        """Put the battle back as it was when ``snapshot`` was taken: the same objects
        (units, parts, groups, weapons) with the values they had then."""
        for k, v in snapshot.fields.items():
            setattr(self, k, _copied(v))
        self.orders = [dict(o) for o in snapshot.fields["orders"]]
        for bearer, values in snapshot.bearers:
            own = vars(bearer)
            own.clear()
            own.update({k: _copied(v) for k, v in values.items()})

    def state_key(self, left_out: frozenset[str] = frozenset()) -> tuple:
        """The battle's state now as a hashable key, reduced by a rule: two states with the
        same key play on alike.

        Left out are what cannot change what happens next: the caches and what never
        changes (:data:`_SHARED`); the values of the counters named in ``left_out`` (the
        combat kernel leaves out a counter whose every value is written before it is read
        in every player turn, and checks that it is, ``engine/kernel.py``); and ``once
        per`` marks of a period that is over (they are read only while it lasts). A unit,
        part, group or weapon is keyed by every attribute it has, but the answers it keeps
        worked out from its rules (:attr:`Bearer.KEPT`).
        """
        fields = vars(self)
        parts: list[Any] = []
        for k in sorted(fields):
            if k in self.unchanging:
                continue
            v = fields[k]
            if k == "counters":
                v = {c: n for c, n in v.items() if c[0] not in left_out}
            elif k == "once":
                v = {a: when for a, when in v.items() if when == self.period(when[0])}
            parts.append((k, _frozen(v)))
        for bearer in self._bearers():
            parts.append(tuple((k, _frozen(v)) for k, v in sorted(vars(bearer).items())
                               if k not in Bearer.KEPT))
        return tuple(parts)

    # ------------------------------------------------------------ builtins
    def builtin(self, env: Any, name: str, args: list[Any], span: Span,
                named: dict[str, Any] | None = None) -> Any:
        """Run the builtin ``name`` (see :mod:`rules_run.lang.builtins`)."""
        run = BUILTINS.get(name)
        if run is None:
            raise fail(f"{name}() is not available in battles", span)
        if named:
            return run(self, env, span, *args, **named)
        return run(self, env, span, *args)

    # ------------------------------------------------------------ decisions
    def decide(self, env, span, name: str, args: list[Any]) -> Any:
        """Resolve a declared decision: a scripted order, else the deciding side's policy.

        The deciding side is the argument of a parameter typed ``side``, else the side of
        the first unit argument, else the side whose turn it is.
        """
        decision = self.runtime.decisions.get(name)
        if decision is None:
            raise fail(f"decide(): {name!r} is not a decision", span)
        decl = decision.decl
        vars = {p.name: a for p, a in zip(decl.params, args)}
        options = list(decision.options(env, vars))
        subject = next((a for a in args if isinstance(a, Unit)), None)
        # who decides: a parameter typed `side`, else the side of the first unit argument,
        # else the side whose turn it is
        chooser = next((vars[p.name] for p in decl.params if p.type == "side"
                        and vars.get(p.name) is not None), None)
        side = chooser or (subject.side if subject is not None else self.active_side)
        if not options:
            raise fail(f"decision {name!r} has no legal option", decl.span, "no-option")
        choice, why = self._scripted(name, subject, side, options)
        if why is None:
            choice, why = self._policy(env, decision, side, vars, options)
        if env.events is not None:
            env.emit(Decision, decision=name, side=side,
                     unit=subject.id if subject is not None else None,
                     options=[name_of(o) for o in options], choice=name_of(choice), why=why,
                     cite=self.runtime.ruleset.cite(name))
        if name in self.runtime.triggers:   # `when NAME`: after the choice, which is `result`
            self.fire(env, name, dict(vars, result=choice))
        return choice

    def _scripted(self, name, subject, side, options):
        for order in self.orders:
            if order.get("decision") != name or order.get("used"):
                continue
            if "round" in order and order["round"] != self.round:
                continue
            if "side" in order and order["side"] != side:
                continue
            if "unit" in order and (subject is None or order["unit"] != subject.id):
                continue
            wanted = order.get("choose")
            for o in options:
                if name_of(o) == wanted:
                    order["used"] = True
                    return o, "scripted order"
        return None, None

    def _policy(self, env, decision: CompiledDecision, side, vars, options):
        policy_name = self.policies.get(side) or self.runtime.default_policy
        for choose in decision.choices.get(policy_name, ()) if policy_name else ():
            chosen = choose(env, dict(vars, options=options))
            if chosen in options:
                return chosen, f"policy {policy_name}"
            if chosen is not None:
                for o in options:
                    if name_of(o) == name_of(chosen):
                        return o, f"policy {policy_name}"
        decl = decision.decl
        if decl.default is not None:
            for o in options:
                if name_of(o) == decl.default:
                    return o, "default"
        return options[0], "first option"

    # ------------------------------------------------------------ turns
    def play_turn(self, env, side) -> None:
        """One player turn of ``side``: the battle's ``turn`` block, then end-of-turn expiry.

        Once an ``end if`` condition holds, further turns are not played.
        """
        if self.ended:
            return None
        outer = self.active_side
        self.active_side = side
        self.turns += 1
        env.emit(Turn)
        self.fire(env, "start_of_turn")
        try:
            self.runtime.battle_turn(env)
        finally:
            self.fire(env, "end_of_turn")
            self.expire(env, "turn")
            self.active_side = outer
        if not self.ended and any(check() for check in self.end_checks):
            self.ended = "an end condition held"
        return None

    def activate(self, env, vars, var, units, order, start, picker, body, may=None) -> None:
        """Units act one at a time; sides alternate picking (or one side after the other).

        With ``may`` (``where``), a side is handed only units for which it holds now; a side
        with none passes, and the activation ends when no side has one.
        """
        remaining = list(units)
        sides = [start] + [s for s in self.sides if s != start]
        turn = passed = 0
        while remaining:
            side = sides[turn % len(sides)]
            mine = [u for u in remaining if u.side == side and (may is None or may(u))]
            if not mine:
                passed += 1
                if passed >= len(sides) and may is not None:
                    return
                turn += 1
                continue
            passed = 0
            unit = mine[0]
            if picker is not None and len(mine) > 1:
                unit = self.decide(env, None, picker, _picker_args(self, picker, mine, side))
            remaining.remove(unit)
            if self.alive(unit):
                vars[var] = unit
                self.last_pick = (self.period("phase"), side)
                body(env, vars)
            if order == "alternately":
                turn += 1


def _picker_args(self_, picker: str, mine: list, side: str) -> list:
    """The arguments of an activation's picking decision: the units to pick from, and the
    picking side where the decision has a ``side`` parameter (so that side decides)."""
    decl = self_.runtime.decls.get(picker)
    args: list[Any] = []
    for p in getattr(decl, "params", ()):
        args.append(side if p.type == "side" else mine)
    return args or [mine]

