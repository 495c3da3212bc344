"""Objectives and the control of ground: generic builtins for scoring by position.

A *place* is a piece of ground a battle file names: an objective marker
(``battlefield: objectives: [{id, at}]``, a point) or a terrain feature
(``battlefield: terrain: [{id, at, size, effects}]``, a rectangle). Rules name places by
their ids. The builtins here measure how many of a unit's models stand within some distance
of a place, add up control scores, remember which side controls a place, move a unit toward
a place, and read a side's victory points. Which characteristic counts, how far a model
reaches and what control is worth are the ruleset's: they come in as arguments.

A unit's models stand in its footprint as a block: ``files`` models wide, rank behind rank,
the last rank centred. That is where each model's base is when models are counted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import Span
from rules_run.engine.builtins.movement import carry, moved_from
from rules_run.engine.builtins.registry import builtin, fail
from rules_run.engine.builtins.shapes import model_bases
from rules_run.runtime.entities import placed
from rules_run.space import (TOLERANCE, Convex, Footprint, Pose, advance, corners,
                             edge_distance, far_apart, heading_to, point_distance)
from rules_run.runtime.events import StraightMove

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__ = ["Place", "place", "places"]

_PATH_STEP = 0.1
"""How finely a move toward a place is checked against its keep-away distance (inches)."""


class Place:
    """An objective marker (a point) or a terrain feature (an upright rectangle)."""

    __slots__ = ("id", "kind", "x", "y", "w", "h", "effects", "shape")

    def __init__(self, id: str, kind: str, x: float, y: float, w: float = 0.0,
                 h: float = 0.0, effects: tuple[str, ...] = ()) -> None:
        self.id = id
        self.kind = kind
        """``objective`` or ``feature``."""
        self.x, self.y, self.w, self.h = x, y, w, h
        self.effects = effects
        """The names of the rules a feature's ``effects`` give (``Cover (1)`` is ``Cover``)."""
        self.shape = None if self.is_point else Convex.rect(Pose(x, y), Footprint(w, h))
        """A feature's rectangle as a shape (None for a point)."""

    @property
    def is_point(self) -> bool:
        return self.w <= 0 or self.h <= 0

    def holds(self, px: float, py: float) -> bool:
        """The point lies on this place (a feature's rectangle, its outline within
        :data:`~rules_run.space.TOLERANCE` included)."""
        return self.shape is not None and self.shape.holds((px, py))



def _rule_name(reference: str) -> str:
    return str(reference).split("(")[0].strip()


# ---------------------------------------------------------------- places


def places(state: BattleState) -> dict[str, Place]:
    """Every place of the battlefield by id: objectives first, then terrain features
    (built on first use)."""
    if state._places is not None:
        return state._places
    battle = state.battle
    field = battle.doc.value.get("battlefield") or {}
    found: dict[str, Place] = {}
    for spec in field.get("objectives") or []:
        found[spec["id"]] = Place(spec["id"], "objective", float(spec["at"]["x"]),
                                  float(spec["at"]["y"]))
    # the terrain as it stands now (pieces added, moved or removed during the battle too)
    for i, spec in enumerate(state.terrain):
        if spec["id"] in found:
            raise fail(f"the terrain feature {spec['id']!r} has the id of an objective; "
                       "places need ids of their own",
                       battle.doc.span(("battlefield", "terrain", i, "id")), "duplicate-place")
        size = spec.get("size") or {}
        found[spec["id"]] = Place(
            spec["id"], "feature", float(spec["at"]["x"]), float(spec["at"]["y"]),
            float(size.get("w", 0.0)), float(size.get("h", 0.0)),
            tuple(_rule_name(e) for e in spec.get("effects") or ()))
    state._places = found
    return found


def place(state: BattleState, place_id: Any, span: Span | None) -> Place:
    """The place with that id (an objective or a terrain feature)."""
    found = places(state).get(place_id)
    if found is None:
        known = ", ".join(places(state)) or "none in this battle"
        raise fail(f"no objective or terrain feature {place_id!r} (places: {known})",
                   span, "unknown-place")
    return found


def _base_distance(pose: Pose, size: Footprint, where: Place) -> float:
    if where.is_point:
        return point_distance(pose, size, where.x, where.y)
    return edge_distance(pose, size, Pose(where.x, where.y, 0.0), Footprint(where.w, where.h))


def _within(state: BattleState, unit: Any, where: Place, inches: float) -> int:
    return sum(1 for pose, size in model_bases(state, unit)
               if _base_distance(pose, size, where) <= float(inches) + TOLERANCE)


# ---------------------------------------------------------------- builtins


@builtin("objectives")
def objectives(state, env, span):
    return [p.id for p in places(state).values() if p.kind == "objective"]


@builtin("features")
def features(state, env, span, effect=None):
    return [p.id for p in places(state).values() if p.kind == "feature"
            and (effect is None or _rule_name(effect) in p.effects)]


@builtin("place_distance")
def place_distance(state, env, span, unit, place_id):
    where = place(state, place_id, span)
    if unit.pose is None:
        return None
    size = state.footprint(unit)
    return round(_base_distance(unit.pose, size, where), 9)


@builtin("models_within")
def models_within(state, env, span, unit, place_id, inches):
    return _within(state, unit, place(state, place_id, span), inches)


@builtin("models_wholly_on")
def models_wholly_on(state, env, span, unit, place_id):
    where = place(state, place_id, span)
    count = 0
    for pose, size in model_bases(state, unit):
        if all(where.holds(cx, cy) for cx, cy in corners(pose, size)):
            count += 1
    return count


@builtin("control_score")
def control_score(state, env, span, place_id, side, characteristic, inches):
    where = place(state, place_id, span)
    if characteristic not in state.runtime.characteristics:
        raise fail(f"control_score(): {characteristic!r} is not a characteristic", span,
                   "unknown-characteristic")
    total = 0
    for unit in state.units:
        if unit.side != side or not state.alive(unit):
            continue
        near = _within(state, unit, where, inches)
        if near:
            value = state.runtime.characteristic(env, unit, characteristic)
            total += near * (value or 0)
    return total


@builtin("controller")
def controller(state, env, span, place_id):
    place(state, place_id, span)
    return state._controllers.get(place_id)


@builtin("set_controller")
def set_controller(state, env, span, place_id, side):
    place(state, place_id, span)
    before = state._controllers.get(place_id)
    state._controllers[place_id] = side
    return before != side


@builtin("move_to")
def move_to(state, env, span, unit, place_id, inches, keep_away=None):
    """Move straight at a place's centre, up to ``inches`` and never past it; with
    ``keep_away``, stop before coming nearer than that to any enemy unit."""
    where = place(state, place_id, span)
    reach = max(0.0, min(float(inches), math.hypot(where.x - unit.pose.x,
                                                   where.y - unit.pose.y)))
    heading = heading_to(unit.pose, where.x, where.y)
    start = unit.pose
    enemies = [u for u in state.units if state.alive(u) and u.side != unit.side]

    def allowed(pose: Pose) -> bool:
        if keep_away is None:
            return True
        unit.pose = pose
        size = state.footprint(unit)
        need = float(keep_away) - TOLERANCE
        return all(far_apart(pose, size, placed(e), state.footprint(e), need)
                   or edge_distance(pose, size, placed(e), state.footprint(e)) >= need
                   for e in enemies)

    moved = 0.0
    steps = int(math.ceil(reach / _PATH_STEP)) if reach > 0 else 0
    for i in range(1, steps + 1):
        step = min(reach, i * _PATH_STEP)
        if not allowed(advance(start, heading, step)):
            break
        moved = step
    unit.pose = advance(start, heading, moved) if moved > 0 else start
    moved_from(state, unit, start)
    carry(unit)
    moved = round(moved, 3)
    env.emit(StraightMove, unit=unit.id, toward=where.id, inches=moved,
             placed=state.positions(env, unit))
    return moved


@builtin("victory_points")
def victory_points(state, env, span, side):
    return state.vp.get(side, 0)
