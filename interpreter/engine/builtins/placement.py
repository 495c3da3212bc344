"""Moves along a heading and toward a table edge, placing units that are off the table, and
bringing a destroyed unit back (generic builtins).

A *heading* is a number of degrees across the table, as a unit's facing (0 up the table, +y;
90 along +x): ``facing(u)``, ``heading(a, b)`` (:mod:`~rules_run.engine.builtins.markers`)
and ``toward_edge(edge)`` give one. A table *edge* is named as elsewhere in the language
(``arrive``, ``home_edge``): by the heading a unit coming on there faces, 0 at the edge
y = 0, 90 at x = 0, 180 at the far edge, 270 at x = width.

- ``move_along`` moves a unit along a heading; a unit whose footprint meets a table edge
  on the way leaves the table there (a ``LeftTable`` event with its reason);
- ``place`` puts a unit that is off the table (set aside) at a point, facing a heading:
  exactly there, or at the nearest spot within a distance of it, wholly on the table, on no
  other unit and clear of the units (or terrain pieces) it is told to keep away from;
- ``home_marker`` marks where the battle file puts a unit (the point a unit set aside is
  meant to arrive at), so a rule can scatter it as it scatters any marker;
- ``restore`` makes a destroyed unit a unit again, off the table until it is placed.

Which edge is a side's, where a unit is meant to arrive, how far it scatters and what keeps
it from landing are the ruleset's: they come in as arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import Span
from rules_run.engine.builtins.markers import _put, point_of
from rules_run.engine.builtins.movement import (_on_until_clear, carry, leave_fights,
                                                moved_from, other_units)
from rules_run.engine.builtins.registry import builtin, fail
from rules_run.engine.builtins.shapes import unit_shape
from rules_run.engine.builtins.sight import TerrainPiece, piece_shape
from rules_run.runtime.entities import Unit, placed
from rules_run.runtime.events import Arrive, LeftTable, Returned, StraightMove
from rules_run.space import (TOLERANCE, Convex, Pose, Sweep, advance, distance, edge_reach,
                             on_table, overlap, points_near)

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__ = ["PLACE_STEP"]

PLACE_STEP = 0.5
"""Inches between the spots ``place`` tries within a distance of its point."""

_EDGES = (0.0, 90.0, 180.0, 270.0)


def _number(value: Any, what: str, span: Span | None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(f"{what} must be a number, got {value!r}", span, "bad-argument")
    return float(value)


def _unit(value: Any, what: str, span: Span | None) -> Unit:
    if not isinstance(value, Unit):
        raise fail(f"{what} needs a unit, got {value!r}", span, "bad-argument")
    return value


# ---------------------------------------------------------------- headings and moves


@builtin("toward_edge")
def toward_edge(state, env, span, edge):
    """The heading that points at the table edge ``edge`` (straight at it, the shortest
    way): the opposite of the heading a unit coming on there faces."""
    value = _number(edge, "toward_edge(): a table edge", span)
    if value % 360 not in _EDGES:
        raise fail(f"toward_edge(): a table edge is the heading a unit coming on there "
                   f"faces: 0, 90, 180 or 270, got {edge!r}", span, "bad-argument")
    return (value + 180.0) % 360


@builtin("side_edge")
def side_edge(state, env, span, side):
    """A side's own table edge, as the heading a unit coming on there faces: the battle
    file's ``battlefield: edges:`` entry for it, else the long table edge nearest the
    centre of its units' battle-file positions (0 or 180 on a table wider than deep, 90 or
    270 otherwise)."""
    edges = (state.battle.doc.value.get("battlefield") or {}).get("edges") or {}
    if side in edges:
        return float(edges[side])
    homes = [u.home for u in state.units if u.side == side and u.home is not None]
    if not homes:
        raise fail(f"side_edge(): no unit of the side {side!r} has a position in the battle "
                   f"file", span, "no-position")
    x = sum(h.x for h in homes) / len(homes)
    y = sum(h.y for h in homes) / len(homes)
    if state.width >= state.depth:
        return 0.0 if y <= state.depth / 2 else 180.0
    return 90.0 if x <= state.width / 2 else 270.0


@builtin("move_along")
def move_along(state, env, span, unit, heading, inches, clear_of=None):
    """Turn the unit to face ``heading`` and move it ``inches`` along it, out of its fights;
    with ``clear_of``, on along the same line until it is that far or more from every other
    unit. A unit whose footprint meets a table edge on the way stops there and leaves the
    table (``LeftTable``, the reason: it reached the table edge). Returns the inches moved."""
    unit = _unit(unit, "move_along()", span)
    if not state.alive(unit):
        raise fail(f"move_along(): {unit.id!r} is not on the table", span, "not-on-table")
    way = _number(heading, "move_along(): a heading", span) % 360
    length = _number(inches, "move_along(): a distance", span)
    if length < 0:
        raise fail(f"move_along(): a distance of inches cannot be negative, got {inches!r}",
                   span, "bad-argument")
    start = placed(unit)
    size = state.footprint(unit)
    reach = edge_reach(start, size, way, state.width, state.depth)
    unit.pose = advance(start, way, min(length, reach))
    on = 0.0
    if clear_of is not None and length < reach - TOLERANCE:
        on = _on_until_clear(state, unit, way, _number(clear_of, "clear_of", span), [])
    moved = min(length + on, reach)
    leaving = length + on >= reach - TOLERANCE
    unit.pose = advance(start, way, moved)
    moved_from(state, unit, start)
    leave_fights(unit)
    carry(unit)
    on_until_clear = round(moved - length, 3) if moved > length else None
    env.emit(StraightMove, unit=unit.id, heading=round(way, 3), inches=round(moved, 3),
             on_until_clear=on_until_clear, placed=state.positions(env, unit))
    if leaving:
        unit.on_table = False
        carry(unit)
        env.emit(LeftTable, unit=unit.id, followers=[f.id for f in unit.followers],
                 reason="reached the table edge")
    return round(moved, 9)


# ---------------------------------------------------------------- placing


def _clear(state: BattleState, shape: Convex, pose: Pose, unit: Unit, keep: float,
           away: list[Any]) -> bool:
    """Whether the unit standing as ``shape`` at ``pose`` lies wholly on the table, overlaps
    no other unit on it and is ``keep`` inches or more from each of ``away``."""
    if not on_table(pose, state.footprint(unit), state.width, state.depth, TOLERANCE):
        return False
    for other in other_units(state, unit):
        if other.pose is not None and overlap(shape, unit_shape(state, other)):
            return False
    if keep <= 0:
        return True
    for thing in away:
        there = piece_shape(thing) if isinstance(thing, TerrainPiece) else unit_shape(
            state, thing)
        if distance(shape, there) < keep - TOLERANCE:
            return False
    return True


def _away(state: BattleState, unit: Unit, of: Any, span: Span | None) -> list[Any]:
    """What a placed unit keeps clear of: the units and terrain pieces of ``of`` on the
    table (without it: every other unit on the table)."""
    if of is None:
        return [o for o in other_units(state, unit) if o.pose is not None]
    if not isinstance(of, list):
        raise fail(f"place(): what to keep clear of is a list of units and terrain pieces, "
                   f"got {of!r}", span, "bad-argument")
    out: list[Any] = []
    for thing in of:
        if isinstance(thing, TerrainPiece):
            out.append(thing)
        elif isinstance(thing, Unit):
            if thing is not unit and state.alive(thing):
                out.append(thing)
        else:
            raise fail(f"place(): what to keep clear of is a list of units and terrain "
                       f"pieces, got {thing!r} in it", span, "bad-argument")
    return out


@builtin("place")
def place(state, env, span, unit, at, heading=None, within=None, clear_of=None, of=None):
    """Put a unit that is off the table (set aside, or restored) on it, its centre at the
    point ``at`` (a unit's, a marker's or a place's centre), facing ``heading`` (without
    one: the facing the battle file gives it); with ``within``, at the nearest spot no
    farther than that from the point (on a grid :data:`PLACE_STEP` apart, nearest first).
    It must lie wholly on the table, on no other unit, and with ``clear_of`` that far or
    more from every other unit on the table (or from each unit and terrain piece of the
    list ``of``). True when placed; false, and still off the table, when it cannot be."""
    unit = _unit(unit, "place()", span)
    if unit.destroyed:
        raise fail(f"place(): {unit.id!r} is destroyed; restore() brings a destroyed unit "
                   f"back before it is placed", span, "bad-argument")
    if unit.on_table:
        raise fail(f"place(): {unit.id!r} is on the table already; place() puts a unit "
                   f"that is off it (set aside) on the table", span, "bad-argument")
    x, y = point_of(state, at, span)
    home = unit.home or unit.pose
    facing = (_number(heading, "place(): a heading", span) if heading is not None
              else home.facing if home is not None else 0.0) % 360
    near = 0.0 if within is None else _number(within, "place(): within", span)
    keep = 0.0 if clear_of is None else _number(clear_of, "place(): clear_of", span)
    if near < 0 or keep < 0:
        raise fail(f"place(): a distance of inches cannot be negative, got "
                   f"{min(near, keep):g}", span, "bad-argument")
    away = _away(state, unit, of, span)
    size = state.footprint(unit)
    for px, py in points_near(x, y, near, PLACE_STEP):
        pose = Pose(px, py, facing)
        if _clear(state, Convex.rect(pose, size), pose, unit, keep, away):
            unit.pose = pose
            unit.set_aside = False
            unit.on_table = True
            carry(unit)
            env.emit(Arrive, unit=unit.id, at=[round(px, 3), round(py, 3)],
                     facing=round(facing, 3), placed=state.positions(env, unit))
            return True
    return False


@builtin("home_marker")
def home_marker(state, env, span, unit):
    """A new marker (a point) where the battle file puts the unit: the point a unit set
    aside is meant to arrive at; its id."""
    unit = _unit(unit, "home_marker()", span)
    home = unit.home or unit.pose
    if home is None:
        raise fail(f"home_marker(): {unit.id!r} has no position in the battle file", span,
                   "no-position")
    state._markers_placed += 1
    marker_id = f"marker {state._markers_placed}"
    _put(state, env, marker_id, Sweep.disc(home.x, home.y, 0.0), "placed")
    return marker_id


# ---------------------------------------------------------------- coming back


@builtin("restore")
def restore(state, env, span, unit, models=None, wounds=None):
    """Make a destroyed unit a unit again, off the table (set aside) where it fell until a
    rule places it: ``models`` of its models (without it: all it started with), the
    wounded one with ``wounds`` wounds left (without it: none lost). Its statuses, counters
    and rules are those it had. Returns the models it has."""
    unit = _unit(unit, "restore()", span)
    if not unit.destroyed:
        raise fail(f"restore(): {unit.id!r} is not destroyed; return_models() gives a unit "
                   f"in the battle its slain models back", span, "bad-argument")
    count = unit.starting_models if models is None else int(_number(models, "models", span))
    if not 1 <= count <= unit.starting_models:
        raise fail(f"restore(): {unit.id!r} comes back with 1 to {unit.starting_models} "
                   f"models, got {models!r}", span, "bad-argument")
    left = unit.wounds_each if wounds is None else int(_number(wounds, "wounds", span))
    if not 1 <= left <= unit.wounds_each:
        raise fail(f"restore(): a model of {unit.id!r} has 1 to {unit.wounds_each} wounds, "
                   f"got {wounds!r}", span, "bad-argument")
    unit.destroyed = False
    unit.models = count
    rest = count
    for group in unit.groups:   # back into its groups, in data order
        group.models = min(rest, group.starting_models)
        rest -= group.models
    unit.damage = unit.wounds_each - left
    unit.on_table = False
    unit.set_aside = True
    env.emit(Returned, unit=unit.id, models=count, models_left=count, wounds=unit.wounds,
             placed={})
    return count
