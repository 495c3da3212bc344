"""Objectives and the control of ground: generic builtins for scoring by position.

A mixin of :class:`rules_run.engine.state.BattleState`: each ``_b_<name>`` method is the
builtin ``<name>`` of the rules language (signatures in :mod:`rules_run.lang.builtins`).

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

from rules_run.diagnostics import BattleError, DiagnosticBag, Span
from rules_run.runtime.entities import placed
from rules_run.space import Footprint, Pose, advance, axes, edge_distance, far_apart, heading_to
from rules_run.space import point_distance

if TYPE_CHECKING:
    from rules_run.engine.setup import Battle
    from rules_run.runtime.compiled import Runtime
    from rules_run.runtime.entities import Unit

__all__ = ["ObjectivesMixin", "Place"]

_EPSILON = 1e-9
_PATH_STEP = 0.1
"""How finely a move toward a place is checked against its keep-away distance (inches)."""


class Place:
    """An objective marker (a point) or a terrain feature (an upright rectangle)."""

    __slots__ = ("id", "kind", "x", "y", "w", "h", "effects")

    def __init__(self, id: str, kind: str, x: float, y: float, w: float = 0.0,
                 h: float = 0.0, effects: tuple[str, ...] = ()) -> None:
        self.id = id
        self.kind = kind
        """``objective`` or ``feature``."""
        self.x, self.y, self.w, self.h = x, y, w, h
        self.effects = effects
        """The names of the rules a feature's ``effects`` give (``Cover (1)`` is ``Cover``)."""

    @property
    def is_point(self) -> bool:
        return self.w <= 0 or self.h <= 0

    def point_distance(self, px: float, py: float) -> float:
        """From a point to this place (0 inside a feature)."""
        dx = max(abs(px - self.x) - self.w / 2, 0.0)
        dy = max(abs(py - self.y) - self.h / 2, 0.0)
        return math.hypot(dx, dy)

    def holds(self, px: float, py: float) -> bool:
        """The point lies on this place (a feature's rectangle, edges included)."""
        if self.is_point:
            return False
        return (abs(px - self.x) <= self.w / 2 + _EPSILON
                and abs(py - self.y) <= self.h / 2 + _EPSILON)


def _error(message: str, span: Span | None, code: str = "battle") -> BattleError:
    return BattleError([DiagnosticBag().add(message, span, code=code)])


def _rule_name(reference: str) -> str:
    return str(reference).split("(")[0].strip()


class ObjectivesMixin:
    """Objective markers and terrain features from the battle file, and who controls them."""

    # What this mixin uses of the BattleState it is part of:
    runtime: Runtime
    battle: Battle
    units: list[Unit]
    vp: dict[str, int]
    _places: dict[str, Place] | None
    _controllers: dict[str, str | None]
    _bases: dict[Unit, tuple[Pose, Footprint, list[tuple[Pose, Footprint]]]]

    if TYPE_CHECKING:
        def footprint(self, unit: Unit) -> Footprint: ...
        def alive(self, unit: Unit) -> bool: ...
        def emit(self, env: Any, kind: str, **fields: Any) -> None: ...
        def positions(self, env: Any, *units: Unit) -> dict[str, dict[str, Any]]: ...
        def _carry(self, unit: Unit) -> None: ...
        def _moved(self, unit: Unit, start: Pose) -> None: ...

    # ------------------------------------------------------------ places
    def places(self) -> dict[str, Place]:
        """Every place of the battlefield by id: objectives first, then terrain features."""
        if self._places is not None:
            return self._places
        field = self.battle.doc.value.get("battlefield") or {}
        places: dict[str, Place] = {}
        for spec in field.get("objectives") or []:
            places[spec["id"]] = Place(spec["id"], "objective", float(spec["at"]["x"]),
                                       float(spec["at"]["y"]))
        for i, spec in enumerate(field.get("terrain") or []):
            if spec["id"] in places:
                raise _error(f"the terrain feature {spec['id']!r} has the id of an objective; "
                             "places need ids of their own",
                             self.battle.doc.span(("battlefield", "terrain", i, "id")),
                             "duplicate-place")
            size = spec.get("size") or {}
            places[spec["id"]] = Place(
                spec["id"], "feature", float(spec["at"]["x"]), float(spec["at"]["y"]),
                float(size.get("w", 0.0)), float(size.get("h", 0.0)),
                tuple(_rule_name(e) for e in spec.get("effects") or ()))
        self._places = places
        return places

    def place(self, place_id: Any, span: Span | None) -> Place:
        """The place with that id (an objective or a terrain feature)."""
        found = self.places().get(place_id)
        if found is None:
            known = ", ".join(self.places()) or "none in this battle"
            raise _error(f"no objective or terrain feature {place_id!r} (places: {known})",
                         span, "unknown-place")
        return found

    def model_bases(self, unit: Any) -> list[tuple[Pose, Footprint]]:
        """Where each living model's base is: the unit's block, rank by rank.

        Kept per unit until it moves or changes size (its footprint stands for its models,
        files and bases: the same footprint comes back only while they are the same).
        """
        models = max(0, int(unit.models))
        if models == 0 or unit.pose is None:
            return []
        size = self.footprint(unit)
        kept = self._bases.get(unit)
        if kept is not None and kept[0] is unit.pose and kept[1] is size:
            return list(kept[2])
        files = max(1, min(int(unit.files), models))
        ranks = math.ceil(models / files)
        base = Footprint(unit.base_w, unit.base_d)
        width, depth = files * unit.base_w, ranks * unit.base_d
        (fx, fy), (rx, ry) = axes(unit.pose.facing)
        bases = []
        for k in range(models):
            rank, col = divmod(k, files)
            in_rank = files if rank < ranks - 1 else models - rank * files
            shift = (files - in_rank) * unit.base_w / 2
            across = -width / 2 + shift + (col + 0.5) * unit.base_w
            along = depth / 2 - (rank + 0.5) * unit.base_d
            x = unit.pose.x + across * rx + along * fx
            y = unit.pose.y + across * ry + along * fy
            bases.append((Pose(x, y, unit.pose.facing), base))
        self._bases[unit] = (unit.pose, size, bases)
        return list(bases)

    def _base_distance(self, pose: Pose, size: Footprint, where: Place) -> float:
        if where.is_point:
            return point_distance(pose, size, where.x, where.y)
        return edge_distance(pose, size, Pose(where.x, where.y, 0.0), Footprint(where.w, where.h))

    def _within(self, unit: Any, where: Place, inches: float) -> int:
        return sum(1 for pose, size in self.model_bases(unit)
                   if self._base_distance(pose, size, where) <= float(inches) + _EPSILON)

    # ------------------------------------------------------------ builtins
    def _b_objectives(self, env, span):
        return [p.id for p in self.places().values() if p.kind == "objective"]

    def _b_features(self, env, span, effect=None):
        return [p.id for p in self.places().values() if p.kind == "feature"
                and (effect is None or _rule_name(effect) in p.effects)]

    def _b_place_distance(self, env, span, unit, place_id):
        where = self.place(place_id, span)
        if unit.pose is None:
            return None
        size = self.footprint(unit)
        return round(self._base_distance(unit.pose, size, where), 9)

    def _b_models_within(self, env, span, unit, place_id, inches):
        return self._within(unit, self.place(place_id, span), inches)

    def _b_models_wholly_on(self, env, span, unit, place_id):
        where = self.place(place_id, span)
        count = 0
        for pose, size in self.model_bases(unit):
            (fx, fy), (rx, ry) = axes(pose.facing)
            corners = [(pose.x + sx * size.width / 2 * rx + sy * size.depth / 2 * fx,
                        pose.y + sx * size.width / 2 * ry + sy * size.depth / 2 * fy)
                       for sx in (-1, 1) for sy in (-1, 1)]
            if all(where.holds(cx, cy) for cx, cy in corners):
                count += 1
        return count

    def _b_control_score(self, env, span, place_id, side, characteristic, inches):
        where = self.place(place_id, span)
        if characteristic not in self.runtime.characteristics:
            raise _error(f"control_score(): {characteristic!r} is not a characteristic", span,
                         "unknown-characteristic")
        total = 0
        for unit in self.units:
            if unit.side != side or not self.alive(unit):
                continue
            near = self._within(unit, where, inches)
            if near:
                value = self.runtime.characteristic(env, unit, characteristic)
                total += near * (value or 0)
        return total

    def _b_controller(self, env, span, place_id):
        self.place(place_id, span)
        return self._controllers.get(place_id)

    def _b_set_controller(self, env, span, place_id, side):
        self.place(place_id, span)
        before = self._controllers.get(place_id)
        self._controllers[place_id] = side
        return before != side

    def _b_move_to(self, env, span, unit, place_id, inches, keep_away=None):
        """Move straight at a place's centre, up to ``inches`` and never past it; with
        ``keep_away``, stop before coming nearer than that to any enemy unit."""
        where = self.place(place_id, span)
        reach = max(0.0, min(float(inches), math.hypot(where.x - unit.pose.x,
                                                       where.y - unit.pose.y)))
        heading = heading_to(unit.pose, where.x, where.y)
        start = unit.pose
        enemies = [u for u in self.units if self.alive(u) and u.side != unit.side]

        def allowed(pose: Pose) -> bool:
            if keep_away is None:
                return True
            unit.pose = pose
            size = self.footprint(unit)
            need = float(keep_away) - _EPSILON
            return all(far_apart(pose, size, placed(e), self.footprint(e), need)
                       or edge_distance(pose, size, placed(e), self.footprint(e)) >= need
                       for e in enemies)

        moved = 0.0
        steps = int(math.ceil(reach / _PATH_STEP)) if reach > 0 else 0
        for i in range(1, steps + 1):
            step = min(reach, i * _PATH_STEP)
            if not allowed(advance(start, heading, step)):
                break
            moved = step
        unit.pose = advance(start, heading, moved) if moved > 0 else start
        self._moved(unit, start)
        self._carry(unit)
        moved = round(moved, 3)
        self.emit(env, "move", unit=unit.id, toward=where.id, inches=moved,
                  placed=self.positions(env, unit))
        return moved

    def _b_victory_points(self, env, span, side):
        return self.vp.get(side, 0)
