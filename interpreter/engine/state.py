"""Battle state, and the generic builtins that read and change it.

The ruleset's statements change the battle only through these builtins (move, engage,
inflict, apply a status, score, decide, ...), so every change can be logged as an event.
Nothing here knows a game: which characteristic holds a model's wounds comes from the
ruleset (``as wounds``), which decision is made when from its actions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from rules_run.diagnostics import BattleError, DiagnosticBag, Span
from rules_run.engine.entities import (DEFAULT_BASE_MM, Unit, Weapon, placed, use_items,
                                         wounds_per_model)
from rules_run.engine.markers import MarkersMixin
from rules_run.engine.objectives import ObjectivesMixin
from rules_run.engine.sight import SightMixin
from rules_run.lang import ast
from rules_run.lang.builtins import UNIT_PROPERTIES
from rules_run.lang.compiler import rule_scope
from rules_run.limits import limit, too_many
from rules_run.space import MM_PER_INCH, Footprint, Pose, advance, arc_of, axes, corners
from rules_run.space import edge_distance, far_apart, heading_to
from rules_run.space import TOLERANCE, Convex, hull, overlap, until_clear

__all__ = ["BattleState", "DEFAULT_TABLE"]

DEFAULT_TABLE = (72.0, 48.0)
"""The battlefield's width and depth in inches when the battle file gives none."""

_ARRIVE_STEP = 0.5
"""Inches between the places along a table edge a unit arriving with keep_away tries."""


def _error(message: str, span: Span | None, code: str = "battle") -> BattleError:
    return BattleError([DiagnosticBag().add(message, span, code=code)])


class BattleState(ObjectivesMixin, SightMixin, MarkersMixin):
    """Everything that changes during one battle.

    ``battle.units`` are this battle's own units (new, or :meth:`Unit.fresh` copies): the
    state places them and changes them in place.
    """

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
        self.phase: str | None = None
        self.attacking = False
        """True while attacks are resolved (their rolls are summarised in narration)."""
        self.vp: dict[str, int] = dict.fromkeys(self.sides, 0)
        self.counters: dict[tuple[str, Any], Any] = {}
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
        self._footprints: dict[Unit, tuple] = {}
        """Unit -> (models, files, base width, base depth, its footprint) (:meth:`footprint`)."""
        self._gaps: dict[tuple[Unit, Unit], tuple] = {}
        """(a, b) -> (a's pose, b's pose, a's footprint, b's footprint, the gap) (:meth:`_gap`);
        each gap is kept for (b, a) too."""
        self._outlines = {}
        """Unit or piece -> (pose, footprint, (its outline as half-planes, its bounding box))
        (sight.py)."""
        self._terrain_under = {}
        """Unit -> (pose, footprint, the terrain pieces it stands in) (sight.py)."""
        self._in_range = {}
        """(a, b, inches) -> (a's pose, a's footprint, b's pose, b's size, whether b is within
        that range in a's front arc) (sight.py)."""
        self._between = {}
        """(a, b) -> (a's pose, a's footprint, b's pose, b's size, the outlines of all that
        might stand between them, what does) (sight.py)."""
        self._behind = {}
        """(builtin, a, b, pieces, ...) -> (a's pose, a's footprint, b's pose, b's footprint,
        the answer of behind or models_behind) (sight.py)."""
        self._bases = {}
        """Unit -> (pose, footprint, where each of its models' bases is) (objectives.py)."""
        self._moves: dict[Unit, tuple[Pose, Pose, Footprint]] = {}
        """Unit -> its last straight move: (where it started, turned to the way it went, where
        it ended, its footprint then) (:meth:`passed_through`)."""
        # built on first use: the terrain as pieces (sight.py), the places and who controls
        # them (objectives.py)
        self._terrain_pieces = None
        self._places = None
        self._controllers = {}
        self._markers = {}
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
        missing = [u.id for u in self.units if u.pose is None]
        if missing:
            raise _error("units without a position (give 'position' or use 'duel'): "
                         + ", ".join(missing), battle.doc.span(("units",)), "no-position")

    def footprint(self, unit: Unit) -> Footprint:
        """The unit's rectangle now: files wide, as many ranks as its models fill.

        Kept per unit until its models, files or bases change: the same object comes back.
        """
        kept = self._footprints.get(unit)
        if (kept is not None and kept[0] == unit.models and kept[1] == unit.files
                and kept[2] == unit.base_w and kept[3] == unit.base_d):
            return kept[4]
        files, ranks = _files_ranks(unit)
        size = Footprint(files * unit.base_w, ranks * unit.base_d)
        self._footprints[unit] = (unit.models, unit.files, unit.base_w, unit.base_d, size)
        return size

    # ------------------------------------------------------------ events
    def emit(self, env: Any, kind: str, **fields: Any) -> None:
        """Record a battle event (only when the run keeps events)."""
        if env.events is not None:
            event = {"kind": kind}
            event.update(fields)
            env.emit(event)

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
                files, ranks = _files_ranks(u)
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
        if env.events is not None:
            self.emit(env, "phase", phase=name, within=outer, cite=self.runtime.ruleset.cite(name))
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
            for inst in list(unit.rules):
                for effect, cond, body in by_rule.get(inst.rule.name, ()):
                    evars = rule_scope(args or {}, inst, unit)
                    if cond is None or cond(env, evars):
                        self._trigger(env, event, inst, unit, effect, body, evars)

    def _trigger(self, env: Any, event: str, inst: Any, unit: Unit | None, effect: Any,
                 body: Callable[[Any, dict], Any], evars: dict) -> None:
        """Run one ``when`` effect whose condition holds: announce it, run its statements."""
        self.emit(env, "trigger", rule=inst.text, event=event,
                  unit=None if unit is None else unit.id,
                  cite=self.runtime.ruleset.cite(f"rule:{inst.rule.name}"))
        try:
            body(env, evars)
        except RecursionError:
            raise _error(f"the 'when {event}' of rule {inst.text!r} sets itself off without "
                         "end", effect.span, "too-deep") from None

    def expire(self, env: Any, period: str) -> None:
        """Remove the statuses that last until the end of this period (an ``expire`` event
        names them)."""
        expired = {}
        for u in self.units:
            gone = [s for s, until in u.statuses.items() if until == period]
            for s in gone:
                del u.statuses[s]
            if gone:
                expired[u.id] = sorted(gone)
        if expired:
            self.emit(env, "expire", period=period, statuses=expired)

    def alive(self, unit: Unit) -> bool:
        """Still in the battle: on the table and not destroyed."""
        return unit.on_table and not unit.destroyed and unit.models > 0

    # ------------------------------------------------------------ builtins
    def builtin(self, env: Any, name: str, args: list[Any], span: Span,
                named: dict[str, Any] | None = None) -> Any:
        """Run the builtin ``name`` (see :mod:`rules_run.lang.builtins`)."""
        method = BUILTINS.get(name)
        if method is None:
            raise _error(f"{name}() is not available in battles", span)
        if named:
            return method(self, env, span, *args, **named)
        return method(self, env, span, *args)

    def _b_sides(self, env, span):
        return list(self.sides)

    def _b_opponent(self, env, span, side):
        others = [s for s in self.sides if s != side]
        return others[0] if others else None

    def _b_units(self, env, span, side=None):
        return [u for u in self.units if self.alive(u) and (side is None or u.side == side)]

    def _b_all_units(self, env, span):
        return list(self.units)

    def _b_enemies(self, env, span, unit):
        return [u for u in self.units if self.alive(u) and u.side != unit.side]

    def _b_friends(self, env, span, unit):
        return [u for u in self.units if self.alive(u) and u.side == unit.side and u is not unit]

    def _b_models(self, env, span, unit):
        return unit.models

    def _b_best(self, env, span, unit, characteristic):
        return self.runtime.characteristic(env, unit, characteristic)

    def _b_distance(self, env, span, a, b):
        if b in a.engaged:
            return 0.0
        return self._gap(a, b)

    def _gap(self, a: Unit, b: Unit) -> float:
        """The edge-to-edge distance between two units' footprints where they stand.

        Kept for the pair, both ways round (the distance is the same from either: see
        :func:`rules_run.space.edge_distance`), until either moves or changes size (a new
        pose or footprint).
        """
        pa, pb, fa, fb = a.pose, b.pose, self.footprint(a), self.footprint(b)
        kept = self._gaps.get((a, b))
        if (kept is not None and kept[0] is pa and kept[1] is pb and kept[2] is fa
                and kept[3] is fb):
            return kept[4]
        gap = edge_distance(placed(a), fa, placed(b), fb)
        self._gaps[(a, b)] = (pa, pb, fa, fb, gap)
        self._gaps[(b, a)] = (pb, pa, fb, fa, gap)
        return gap

    def _b_within(self, env, span, a, b, inches):
        return self._b_distance(env, span, a, b) <= inches

    def _b_in_contact(self, env, span, a, b):
        return b in a.engaged

    def _b_engaged_with(self, env, span, unit):
        return [u for u in unit.engaged if self.alive(u)]

    def _b_arc(self, env, span, a, b):
        return arc_of(b.pose, self.footprint(b), a.pose.x, a.pose.y)

    def _b_move_toward(self, env, span, unit, other, inches):
        gap = self._b_distance(env, span, unit, other)
        step = max(0.0, min(float(inches), gap))
        heading = heading_to(unit.pose, other.pose.x, other.pose.y)
        start = unit.pose
        unit.pose = advance(start, heading, step)
        self._moved(unit, start)
        self._carry(unit)
        self.emit(env, "move", unit=unit.id, toward=other.id, inches=round(step, 3),
                  placed=self.positions(env, unit))
        return step

    def _b_move_away(self, env, span, unit, other, inches, clear_of=None):
        """Straight away from ``other``, turned to face the way it goes; with ``clear_of``,
        on along the same line until it is that far or more from every other unit (those
        attached to it aside). Returns the inches moved."""
        heading = (heading_to(unit.pose, other.pose.x, other.pose.y) + 180) % 360
        start = unit.pose
        unit.pose = advance(start, heading, float(inches))
        on = self._on_until_clear(unit, heading, float(clear_of)) if clear_of else 0.0
        self._moved(unit, start)
        self._disengage(unit)
        self._carry(unit)
        if on:
            moved = round(float(inches) + on, 3)
            self.emit(env, "move", unit=unit.id, away_from=other.id, inches=moved,
                      on_until_clear=round(on, 3), placed=self.positions(env, unit))
        else:
            moved = float(inches)
            self.emit(env, "move", unit=unit.id, away_from=other.id, inches=moved,
                      placed=self.positions(env, unit))
        if not self._on_table(unit):
            unit.on_table = False
            self._carry(unit)
            self.emit(env, "left_table", unit=unit.id,
                      followers=[f.id for f in unit.followers])
        return moved

    def _moved(self, unit: Unit, start: Pose) -> None:
        """Remember a straight move from ``start`` to where the unit stands now."""
        end = placed(unit)
        self._moves[unit] = (Pose(start.x, start.y, end.facing), end, self.footprint(unit))

    def _others(self, unit: Unit) -> list[Unit]:
        """The units in the battle but this one and those attached to it (or it to)."""
        return [o for o in self.units if o is not unit and self.alive(o)
                and o not in unit.followers and o is not unit.leader]

    def _on_until_clear(self, unit: Unit, heading: float, reach: float) -> float:
        """Move the unit on along ``heading`` until it is ``reach`` inches or more from every
        other unit; returns how far.

        Each step goes to where the unit is clear for good of every unit it is now nearer
        than ``reach`` to (:func:`rules_run.space.lines.until_clear`): past that point it
        never comes near that unit again, so there are at most as many steps as units.
        Leaving the table ends the move.
        """
        size = self.footprint(unit)
        v = axes(heading)[0]
        others = self._others(unit)
        on = 0.0
        for _ in range(len(others) + 1):
            pose = placed(unit)
            near = [o for o in others
                    if not far_apart(pose, size, placed(o), self.footprint(o), reach)
                    and self._gap(unit, o) < reach - 1e-9]
            if not near or not self._on_table(unit):
                break
            shape = Convex(corners(pose, size))
            step = max(TOLERANCE, max(until_clear(shape, self._unit_shape(o), v, reach)
                                    for o in near))
            unit.pose = advance(pose, heading, step)
            on += step
        return on

    def _b_passed_through(self, env, span, unit):
        """The units (but those attached to it, or it to) whose footprints overlap the area
        the unit's last straight move swept: the hull of its footprint where it started,
        turned the way it went, and where it ended."""
        move = self._moves.get(unit)
        if move is None:
            return []
        start, end, size = move
        swept = hull(corners(start, size) + corners(end, size))
        x0, y0, x1, y1 = swept.box
        out = []
        for o in self._others(unit):
            # the circle around its footprint misses the swept area's box: it is not touched
            pose, there = placed(o), self.footprint(o)
            r = math.hypot(there.width, there.depth) / 2
            if (pose.x + r <= x0 or pose.x - r >= x1 or pose.y + r <= y0
                    or pose.y - r >= y1):
                continue
            if overlap(swept, self._unit_shape(o)):
                out.append(o)
        return out

    def _on_table(self, unit: Unit) -> bool:
        size = self.footprint(unit)
        r = max(size.width, size.depth) / 2
        pose = placed(unit)
        return (r <= pose.x <= self.width - r) and (r <= pose.y <= self.depth - r)

    def _b_engage(self, env, span, unit, other, arc=None):
        if other not in unit.engaged:
            unit.engaged.append(other)
        if unit not in other.engaged:
            other.engaged.append(unit)
        gap = self._gap(unit, other)
        heading = heading_to(unit.pose, other.pose.x, other.pose.y)
        unit.pose = advance(unit.pose, heading, gap)
        self._carry(unit)
        # units that move with another (attach) are in its fights too
        for a, b in [(f, other) for f in unit.followers] + [(unit, g) for g in other.followers]:
            if b not in a.engaged:
                a.engaged.append(b)
            if a not in b.engaged:
                b.engaged.append(a)
        if env.events is not None:
            self.emit(env, "engage", unit=unit.id, target=other.id,
                      arc=arc or arc_of(other.pose, self.footprint(other), unit.pose.x,
                                        unit.pose.y), placed=self.positions(env, unit))
        return True

    def _b_wheel(self, env, span, unit, degrees, most=None):
        """Turn the unit about a front corner: clockwise (``degrees`` > 0, a wheel to the
        right) about its right one, counter-clockwise about its left one; with ``most``, by
        less when its outer front corner would travel farther than that; the inches that
        corner travelled."""
        if isinstance(degrees, bool) or not isinstance(degrees, (int, float)):
            raise _error(f"a wheel turns by a number of degrees, got {degrees!r}", span,
                         "bad-argument")
        start = placed(unit)
        size = self.footprint(unit)
        if most is not None and size.width > 0:
            limit = math.degrees(max(0.0, float(most)) / size.width)
            degrees = max(-limit, min(limit, float(degrees)))
        front_left, front_right = corners(start, size)[:2]
        px, py = front_right if degrees > 0 else front_left
        turn = math.radians(degrees)
        # turning by +degrees (clockwise on the table, as facings go) about the pivot
        dx, dy = start.x - px, start.y - py
        cos, sin = math.cos(turn), math.sin(turn)
        unit.pose = Pose(px + dx * cos + dy * sin, py - dx * sin + dy * cos,
                         (start.facing + degrees) % 360)
        self._moved(unit, start)
        self._carry(unit)
        inches = round(abs(turn) * size.width, 3)
        self.emit(env, "wheel", unit=unit.id, degrees=round(float(degrees), 3), inches=inches,
                  placed=self.positions(env, unit))
        return inches

    def _b_align(self, env, span, unit, other, side="front"):
        """Turn and move the unit so that its side (``front``, ``flank``: the one nearer,
        ``rear``) lies flush against the edge of ``other`` it stands before (the edge of the
        arc of ``other`` it is in), as much of the two edges touching as their lengths allow,
        with the least shift along the edge; ``other`` does not move."""
        if side not in ("front", "flank", "rear"):
            raise _error(f"align() puts a unit's front, flank or rear against another, got "
                         f"{side!r}", span, "bad-argument")
        start, fixed = placed(unit), placed(other)
        mine, theirs = self.footprint(unit), self.footprint(other)
        (fx, fy), (rx, ry) = axes(fixed.facing)
        dx, dy = start.x - fixed.x, start.y - fixed.y
        arc = arc_of(fixed, theirs, start.x, start.y)
        if arc == "flank":
            normal = fixed.facing + (90.0 if dx * rx + dy * ry >= 0 else -90.0)
            edge_half, edge_length = theirs.width / 2, theirs.depth
        else:
            normal = fixed.facing + (0.0 if arc == "front" else 180.0)
            edge_half, edge_length = theirs.depth / 2, theirs.width
        (nx, ny), (ex, ey) = axes(normal)
        if side == "flank":
            # the flank nearer the other unit: its right flank when its centre is to the right
            (_, _), (urx, ury) = axes(start.facing)
            right = (fixed.x - start.x) * urx + (fixed.y - start.y) * ury >= 0
            facing = normal + (90.0 if right else -90.0)
            depth_half, length = mine.width / 2, mine.depth
        else:
            facing = normal + (180.0 if side == "front" else 0.0)
            depth_half, length = mine.depth / 2, mine.width
        slack = abs(edge_length - length) / 2
        offset = max(-slack, min(slack, dx * ex + dy * ey))
        out = edge_half + depth_half
        unit.pose = Pose(fixed.x + nx * out + ex * offset, fixed.y + ny * out + ey * offset,
                         facing % 360)
        self._moved(unit, start)
        self._carry(unit)
        self.emit(env, "align", unit=unit.id, to=other.id, flush=side, arc=arc,
                  placed=self.positions(env, unit))
        return True

    def _carry(self, unit: Unit) -> None:
        """Units attached to this one go where it goes."""
        for follower in unit.followers:
            follower.pose = unit.pose
            follower.on_table = unit.on_table

    def _b_attach(self, env, span, follower, leader):
        """``attach(a, b)``: ``a`` moves with ``b`` (a character joined to a unit): it stands in
        ``b``'s place, goes where ``b`` goes and is in ``b``'s fights."""
        self._b_detach(env, span, follower)
        follower.leader = leader
        leader.followers.append(follower)
        follower.pose = leader.pose
        self.emit(env, "attach", unit=follower.id, to=leader.id,
                  placed=self.positions(env, follower))
        return True

    def _b_detach(self, env, span, follower):
        """``detach(a)``: ``a`` moves on its own again."""
        leader = follower.leader
        if leader is not None:
            leader.followers.remove(follower)
            follower.leader = None
            self.emit(env, "detach", unit=follower.id, to=leader.id)
        return True

    def _b_unit_named(self, env, span, unit_id):
        return next((u for u in self.units if u.id == unit_id), None)

    def _disengage(self, unit: Unit) -> None:
        for other in unit.engaged:
            if unit in other.engaged:
                other.engaged.remove(unit)
        unit.engaged = []
        for follower in unit.followers:
            self._disengage(follower)

    def _b_disengage(self, env, span, unit):
        self._disengage(unit)
        return True

    def _status_decl(self, status: str, span: Span) -> ast.StatusDecl:
        decl = self.runtime.decls.get(status)
        if not isinstance(decl, ast.StatusDecl):
            raise _error(f"{status!r} is not a status", span)
        return decl

    def _b_apply(self, env, span, status, thing, until=None):
        decl = self._status_decl(status, span)
        fresh = status not in thing.statuses
        thing.statuses[status] = until or decl.until
        if fresh:
            self.emit(env, "status", unit=getattr(thing, "id", None), status=status,
                      change="gains", quiet=decl.quiet)
            self.fire(env, status)
        return True

    def _b_clear(self, env, span, status, thing):
        decl = self._status_decl(status, span)
        if thing.statuses.pop(status, "absent") != "absent":
            self.emit(env, "status", unit=getattr(thing, "id", None), status=status,
                      change="loses", quiet=decl.quiet)
        return True

    def _counter_key(self, env, name, owner, span):
        key = (name, getattr(owner, "id", owner))
        if key in self.counters:   # checked when it was first set
            return key
        decl = self.runtime.decls.get(name)
        if not isinstance(decl, ast.CounterDecl):
            raise _error(f"{name!r} is not a counter", span)
        initial = 0
        if decl.initial is not None:
            initial = self.runtime.compile_expr(decl.initial, {})(env, {})
        self.counters[key] = initial
        return key

    def _b_counter(self, env, span, name, owner):
        return self.counters[self._counter_key(env, name, owner, span)]

    def _b_add_counter(self, env, span, name, owner, amount):
        key = self._counter_key(env, name, owner, span)
        self.counters[key] += amount
        return self.counters[key]

    def _b_inflict(self, env, span, unit, damage, saves=None):
        """Damage points, allocated one model at a time; returns the models slain."""
        if damage is None or damage <= 0 or not self.alive(unit):
            return 0
        unit.damage += int(damage)
        slain = 0
        while unit.damage >= unit.wounds_each and unit.models > 0:
            unit.damage -= unit.wounds_each
            unit.models -= 1
            slain += 1
        if env.events is not None:
            self.emit(env, "casualties", unit=unit.id, damage=int(damage), slain=slain,
                      models_left=unit.models, wounds=unit.wounds,
                      wounds_each=unit.wounds_each,
                      wounds_lost=unit.damage if unit.models > 0 else 0,
                      placed=self.positions(env, unit) if unit.models > 0 else {})
        if slain:
            self.fire(env, "slain")
        if unit.models <= 0:
            unit.damage = 0
            self._destroy(env, unit)
        return slain

    def _destroy(self, env, unit: Unit) -> None:
        unit.destroyed = True
        unit.models = 0
        # the units attached to it go on where they stand, in their fights
        for follower in list(unit.followers):
            self._b_detach(env, None, follower)
        self._disengage(unit)
        if unit.leader is not None:
            self._b_detach(env, None, unit)
        self.emit(env, "destroyed", unit=unit.id)
        self.fire(env, "destroyed")

    def _b_set_aside(self, env, span, unit):
        """Take a unit off the table without destroying it (reserves, reinforcements)."""
        self._disengage(unit)
        unit.on_table = False
        unit.set_aside = True
        self.emit(env, "set_aside", unit=unit.id)
        return True

    def _b_arrive(self, env, span, unit, edge=None, along=None, keep_away=None):
        """Put a unit set aside back on the table: where the battle file places it, or at a
        table edge (see :meth:`_edge_pose`); false when it cannot come on."""
        if not unit.set_aside or unit.destroyed:
            return False
        pose = unit.home if edge is None else self._edge_pose(unit, edge, along, keep_away,
                                                                span)
        if pose is None:
            return False
        unit.set_aside = False
        unit.on_table = True
        unit.pose = pose
        self.emit(env, "arrive", unit=unit.id, at=[round(pose.x, 3), round(pose.y, 3)],
                  facing=pose.facing, placed=self.positions(env, unit))
        return True

    def _edge_pose(self, unit: Unit, edge: Any, along: Any, keep_away: Any,
                   span: Span | None) -> Pose | None:
        """Where a unit coming on at a table edge stands: facing ``edge`` (0 comes on at the
        edge y = 0 facing up the table, 90 at x = 0, 180 at the far edge, 270 at x = width),
        its rear touching the edge, its centre ``along`` inches along it (else level with its
        battle-file position), kept on the table; with ``keep_away``, the nearest such place
        along the edge (the lower first of two as near) no nearer than that to any other unit
        on the table, or None when there is none."""
        if isinstance(edge, bool) or not isinstance(edge, (int, float)) or edge % 90 != 0:
            raise _error(f"a table edge is the heading a unit faces coming on: 0, 90, 180 or "
                         f"270, got {edge!r}", span, "bad-argument")
        facing = float(edge) % 360
        size = self.footprint(unit)
        across_x = facing in (0.0, 180.0)
        length = self.width if across_x else self.depth
        home = unit.home
        wanted = float(along) if along is not None else (
            (home.x if across_x else home.y) if home is not None else length / 2)
        half = size.width / 2
        inward = size.depth / 2

        def at(offset: float) -> Pose:
            if facing == 0.0:
                return Pose(offset, inward, facing)
            if facing == 180.0:
                return Pose(offset, self.depth - inward, facing)
            if facing == 90.0:
                return Pose(inward, offset, facing)
            return Pose(self.width - inward, offset, facing)

        wanted = min(max(wanted, half), length - half)
        if keep_away is None:
            return at(wanted)
        others = [o for o in self._others(unit) if o.on_table and o.pose is not None]
        need = float(keep_away) - 1e-9
        steps = int(math.ceil(length / _ARRIVE_STEP))
        for k in sorted(range(-steps, steps + 1), key=lambda k: (abs(k), k)):
            offset = wanted + k * _ARRIVE_STEP
            if not half - 1e-9 <= offset <= length - half + 1e-9:
                continue
            pose = at(offset)
            if all(far_apart(pose, size, placed(o), self.footprint(o), need)
                   or edge_distance(pose, size, placed(o), self.footprint(o)) >= need
                   for o in others):
                return pose
        return None

    def _b_home_edge(self, env, span, unit):
        """The long table edge nearest the unit's battle-file position, as the heading a unit
        coming on there faces (0 or 180 on a table wider than deep; 90 or 270 otherwise)."""
        home = unit.home or unit.pose
        if home is None:
            return None
        if self.width >= self.depth:
            return 0.0 if home.y <= self.depth / 2 else 180.0
        return 90.0 if home.x <= self.width / 2 else 270.0

    def _b_destroy(self, env, span, unit):
        if not unit.destroyed:
            self._destroy(env, unit)
        return True

    def _b_score_points(self, env, span, side, points):
        self.vp[side] = self.vp.get(side, 0) + int(points)
        self.emit(env, "score", side=side, points=int(points), total=self.vp[side])
        return self.vp[side]

    def _b_win(self, env, span, side, reason):
        if side is not None and side not in self.sides:
            raise _error(f"win(): {side!r} is not a side of this battle", span)
        if self.won is not None:
            return False
        self.won = (side, str(reason))
        self.ended = str(reason)
        self.emit(env, "win", winner=side, reason=str(reason))
        return True

    def _b_wield(self, env, span, unit, item_id):
        """The unit uses that item of its alternative group, and none of the group's others."""
        ids = getattr(unit, "item_ids", [])
        if item_id not in ids:
            raise _error(f"wield(): {unit.id!r} carries no item {item_id!r}", span)
        group = unit.all_equipment[ids.index(item_id)].get("alternative")
        if group is None:
            raise _error(f"wield(): the item {item_id!r} is of no alternative group", span)
        in_group = frozenset(i for i, item in enumerate(unit.all_equipment)
                             if item.get("alternative") == group)
        idle = (unit.idle - in_group) | frozenset(i for i in in_group if ids[i] != item_id)
        if idle == unit.idle:
            return False
        use_items(self.runtime, unit, idle)
        return True

    def _b_heal(self, env, span, unit, points):
        healed = min(unit.damage, max(0, int(points or 0)))
        unit.damage -= healed
        self.emit(env, "heal", unit=unit.id, points=healed, wounds=unit.wounds)
        return healed

    def _b_return_models(self, env, span, unit, n):
        back = max(0, min(int(n or 0), unit.starting_models - unit.models))
        if back and not unit.destroyed:
            unit.models += back
            self.emit(env, "returned", unit=unit.id, models=back, models_left=unit.models,
                      wounds=unit.wounds, placed=self.positions(env, unit))
        return back

    def _b_wounds_lost(self, env, span, unit):
        return (unit.starting_models - unit.models) * unit.wounds_each + unit.damage

    def _b_roll_off(self, env, span, a, b, bonus_a=0, bonus_b=0):
        from rules_run.chance import D6

        while True:
            ra = env.chance.roll((D6,), "roll_off")[0] + bonus_a
            rb = env.chance.roll((D6,), "roll_off")[0] + bonus_b
            self.emit(env, "roll_off", sides=[_name(a), _name(b)], rolls=[ra, rb])
            if ra != rb:
                return a if ra > rb else b

    def _b_random_pick(self, env, span, options):
        if not options:
            raise _error("random_pick() of an empty list", span)
        return options[env.chance.choose(len(options), "random_pick")]

    def _b_fight(self, env, span, sequence, attacker, target, attacks=1, **named):
        """Resolve ``attacks`` attacks of a sequence; return the total damage.

        The attacker and the target fill the sequence's first two parameters; named
        arguments fill the parameters of those names; the rest take their defaults.
        """
        seq = self.runtime.sequences.get(sequence)
        if seq is None:
            raise _error(f"fight(): {sequence!r} is not a sequence", span)
        if isinstance(attacks, int) and attacks > limit("attacks"):
            raise _error(f"fight({sequence}, ...): " + too_many(
                "attacks", "attacks in one volley", attacks), span, "too-many-attacks")
        params = seq.decl.params
        args = dict(zip((p.name for p in params), (attacker, target)))
        args.update(named)
        for p in params:
            if p.name not in args:
                if p.default is None:
                    raise _error(f"fight(): sequence {sequence!r} needs {p.name!r}", span)
                args[p.name] = self.runtime.compile_expr(p.default, {})(env, {})
        if env.events is None and seq.pure and hasattr(env.chance, "rng"):
            return self._fight_sampled(env, seq, args, attacker, target, int(attacks or 0))
        total = 0
        past = [0] * len(seq.step_names)
        self.attacking = True
        try:
            for _ in range(int(attacks or 0)):
                outcome = seq.run(env, args)
                total += outcome.damage
                for i, n in enumerate(outcome.past):
                    past[i] += n
        finally:
            self.attacking = False
        weapon = next((v.name for v in args.values() if isinstance(v, Weapon)), None)
        self.emit(env, "attacks", attacker=attacker.id, target=target.id, sequence=sequence,
                  attacks=int(attacks or 0), damage=total, in_contact=target in attacker.engaged,
                  weapon=weapon,
                  steps=[[name, n, stops] for (name, _, stops, _), n in zip(seq.steps, past)],
                  cite=self.runtime.ruleset.cite(sequence))
        return total

    def _fight_sampled(self, env, seq, args, attacker, target, attacks: int) -> int:
        """Statistics runs: draw each attack's damage from its exact distribution.

        The distribution is enumerated from the same sequence (so it is the one the dice
        would give), cached per ruleset for the attacker's and target's current state, and
        sampled with the battle's own seeded generator: one draw per attack instead of a
        roll per step. A narrated run never comes here: its
        log keeps every die.
        """
        if attacks <= 0:
            return 0
        extra = tuple(sorted((k, _key_of(v)) for k, v in args.items()
                             if v is not attacker and v is not target))
        key = (seq.name, _snapshot(attacker, seq), _snapshot(target, seq), extra,
               tuple(sorted(env.options.items())))
        cache = self.runtime.fight_cache
        dist = cache.get(key)
        if dist is None:
            dist = seq.exact(lambda chance: self.runtime.env(chance, env.options),
                             dict(args)).map(lambda outcome: outcome.damage)
            cache[key] = dist
        rng = env.chance.rng
        return sum(dist.sample(rng) for _ in range(attacks))

    def _b_decide(self, env, span, decision, *args):
        return self.decide(env, span, decision, list(args))

    def _b_play_turn(self, env, span, side):
        return self.play_turn(env, side)

    # ------------------------------------------------------------ decisions
    def decide(self, env, span, name: str, args: list[Any]) -> Any:
        """Resolve a declared decision: a scripted order, else the deciding side's policy.

        The deciding side is the argument of a parameter typed ``side``, else the side of
        the first unit argument, else the side whose turn it is.
        """
        decl = self.runtime.decls.get(name)
        if not isinstance(decl, ast.DecisionDecl):
            raise _error(f"decide(): {name!r} is not a decision", span)
        vars = {p.name: a for p, a in zip(decl.params, args)}
        options = self.runtime.compile_expr(decl.options, {})(env, vars)
        options = list(options)
        subject = next((a for a in args if isinstance(a, Unit)), None)
        # who decides: a parameter typed `side`, else the side of the first unit argument,
        # else the side whose turn it is
        chooser = next((vars[p.name] for p in decl.params if p.type == "side"
                        and vars.get(p.name) is not None), None)
        side = chooser or (subject.side if subject is not None else self.active_side)
        if not options:
            raise _error(f"decision {name!r} has no legal option", decl.span, "no-option")
        choice, why = self._scripted(name, subject, side, options)
        if why is None:
            choice, why = self._policy(env, decl, side, vars, options)
        if env.events is not None:
            self.emit(env, "decision", decision=name, side=side,
                      unit=subject.id if subject is not None else None,
                      options=[_name(o) for o in options], choice=_name(choice), why=why,
                      cite=self.runtime.ruleset.cite(name))
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
                if _name(o) == wanted:
                    order["used"] = True
                    return o, "scripted order"
        return None, None

    def _policy(self, env, decl, side, vars, options):
        policy_name = self.policies.get(side) or self.runtime.default_policy
        policy = self.runtime.decls.get(policy_name) if policy_name else None
        if isinstance(policy, ast.PolicyDecl):
            for expr in policy.choices_for(decl.name, self.runtime.decls):
                chosen = self.runtime.compile_expr(expr, {})(env, dict(vars, options=options))
                if chosen in options:
                    return chosen, f"policy {policy_name}"
                if chosen is not None:
                    for o in options:
                        if _name(o) == _name(chosen):
                            return o, f"policy {policy_name}"
        if decl.default is not None:
            for o in options:
                if _name(o) == decl.default:
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
        self.emit(env, "turn")
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
                body(env, vars)
            if order == "alternately":
                turn += 1


BUILTINS: dict[str, Callable[..., Any]] = {
    name[len("_b_"):]: getattr(BattleState, name) for name in dir(BattleState)
    if name.startswith("_b_")}
"""Builtin name -> the method that runs it (``_b_<name>``, here or in a mixin), called as
``method(state, env, span, *args, **named)``; generated rule code calls these directly."""


def _picker_args(self_, picker: str, mine: list, side: str) -> list:
    """The arguments of an activation's picking decision: the units to pick from, and the
    picking side where the decision has a ``side`` parameter (so that side decides)."""
    decl = self_.runtime.decls.get(picker)
    args: list[Any] = []
    for p in getattr(decl, "params", ()):
        args.append(side if p.type == "side" else mine)
    return args or [mine]


def _files_ranks(unit: Unit) -> tuple[int, int]:
    """How many models wide and how many ranks deep the unit stands: ``files`` across (no
    more than its models), as many ranks as its models fill."""
    files = max(1, min(unit.files, unit.models or 1))
    return files, max(1, math.ceil((unit.models or 1) / files))


def _snapshot(unit: Unit, seq: Any) -> tuple:
    """Everything about a unit an attack's chances can depend on, as a hashable key.

    Its characteristics, rules and values always count; a generic property (``models``,
    ``files``, ...) or a status counts only when the attack reads it.
    """
    return (unit.id, tuple(sorted(unit.profile.items(), key=lambda kv: kv[0])),
            tuple(sorted(s for s in unit.statuses if s in seq.statuses)),
            tuple(r.text for r in unit.rules), tuple(sorted(unit.values.items())),
            tuple(sorted(unit.idle)),
            tuple(_frozen(getattr(unit, name, None)) for name in sorted(seq.reads & _PROPERTIES)))


def _frozen(value: Any) -> Any:
    """A property's value as a key: a set (``keywords``) as a frozenset."""
    return frozenset(value) if isinstance(value, set) else value


def _key_of(value: Any) -> Any:
    """A hashable stand-in for an argument of an attack (a unit or weapon by name)."""
    if isinstance(value, Unit):
        return ("unit", value.id)
    if isinstance(value, Weapon):
        return ("weapon", value.name, getattr(value.owner, "id", None),
                tuple(r.text for r in value.rules), tuple(sorted(value.profile.items(), key=str)))
    return value


_PROPERTIES = frozenset(UNIT_PROPERTIES)


def _name(value: Any) -> Any:
    if isinstance(value, Unit):
        return value.id
    return getattr(value, "name", value) if not isinstance(value, (str, int, float, bool,
                                                                   type(None))) else value
