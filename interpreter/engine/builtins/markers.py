"""Markers and templates laid on the table during a battle, and headings between things.

A *marker* is a shape the rules put on the table while a battle runs (a
:class:`~rules_run.space.shapes.Sweep`): a point, a round template, a line or a teardrop.
It has an id (``"marker 1"``, ``"marker 2"``, ... in the order the battle places them), is
moved along a heading, stretched into a line or a teardrop, and removed. The builtins here
say which models lie under it, by one of three readings:

- ``touched``: some part of the model's base is under the shape (a partial hit counts);
- ``centre``: the centre of its base is;
- ``whole``: all of its base is.

A heading is a number of degrees on the table (0 up the table, +y; 90 along +x), the same
as a unit's facing. What a marker stands for, how far it scatters and which die says so are
the ruleset's: they come in as arguments.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import Span
from rules_run.engine.builtins.objectives import places
from rules_run.engine.builtins.registry import builtin, fail
from rules_run.engine.builtins.shapes import model_bases
from rules_run.lang.builtins import READINGS
from rules_run.runtime.entities import Unit, placed
from rules_run.space import TOLERANCE, Sweep, axes
from rules_run.runtime.events import Marker

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__ = ["marker", "point_of"]


def _number(value: Any, what: str, span: Span | None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise fail(f"{what} must be a number of inches or degrees, got {value!r}", span,
                   "bad-argument")
    return float(value)


# ---------------------------------------------------------------- reading arguments


def marker(state: BattleState, marker_id: Any, span: Span | None) -> Sweep:
    """The marker with that id, or a located error naming those on the table."""
    found = state._markers.get(marker_id) if isinstance(marker_id, str) else None
    if found is None:
        known = ", ".join(state._markers) or "none on the table"
        raise fail(f"no marker {marker_id!r} (markers: {known})", span, "unknown-marker")
    return found


def point_of(state: BattleState, at: Any, span: Span | None) -> tuple[float, float]:
    """Where a unit's centre, a marker's centre or a place's centre is."""
    if isinstance(at, Unit):
        if at.pose is None or not at.on_table:
            raise fail(f"{at.id!r} is not on the table", span, "not-on-table")
        return at.pose.x, at.pose.y
    if isinstance(at, str):
        if at in state._markers:
            return state._markers[at].centre
        place = places(state).get(at)
        if place is not None:
            return place.x, place.y
    raise fail(f"expected a unit, a marker or a place (an objective or a terrain "
               f"feature), got {at!r}", span, "bad-argument")


def _reading(reading: Any, span: Span | None) -> str:
    if reading not in READINGS:
        raise fail(f"{reading!r} is not a reading of what lies under a shape; expected "
                   + ", ".join(repr(r) for r in READINGS), span, "bad-argument")
    return str(reading)


def _put(state: BattleState, env: Any, marker_id: str, shape: Sweep, change: str) -> None:
    state._markers[marker_id] = shape
    env.emit(Marker, marker=marker_id, change=change,
             at=[round(shape.x1, 3), round(shape.y1, 3)],
             to=[round(shape.x2, 3), round(shape.y2, 3)],
             diameters=[round(2 * shape.r1, 3), round(2 * shape.r2, 3)])


# ---------------------------------------------------------------- placing and moving


@builtin("place_marker")
def place_marker(state, env, span, at, diameter=0):
    """A new marker (a point, or a round template of that diameter) centred on ``at``;
    its id."""
    x, y = point_of(state, at, span)
    size = _number(diameter, "a marker's diameter", span)
    state._markers_placed += 1
    marker_id = f"marker {state._markers_placed}"
    _put(state, env, marker_id, Sweep.disc(x, y, max(0.0, size)), "placed")
    return marker_id


@builtin("move_marker")
def move_marker(state, env, span, marker_id, heading, inches):
    """Move the whole marker ``inches`` along ``heading``."""
    shape = marker(state, marker_id, span)
    moved = shape.moved(_number(heading, "a heading", span), _number(inches, "inches", span))
    _put(state, env, marker_id, moved, "moved")
    return True


@builtin("stretch_marker")
def stretch_marker(state, env, span, marker_id, heading, length, end_diameter=None):
    """Make the marker a line or a teardrop: its start disc stays, its end disc goes
    ``length`` along ``heading`` (with ``end_diameter``, else the start's)."""
    shape = marker(state, marker_id, span)
    end = None if end_diameter is None else _number(end_diameter, "a diameter", span)
    stretched = shape.stretched(_number(heading, "a heading", span),
                                max(0.0, _number(length, "a length", span)), end)
    _put(state, env, marker_id, stretched, "stretched")
    return True


@builtin("remove_marker")
def remove_marker(state, env, span, marker_id):
    """Take the marker off the table."""
    marker(state, marker_id, span)
    del state._markers[marker_id]
    env.emit(Marker, marker=marker_id, change="removed")
    return True


@builtin("on_table")
def on_table(state, env, span, at):
    """Whether the centre of a unit, a marker or a place is on the table (within its width
    and depth, an edge included); a unit off the table (in reserve, fled) is not."""
    if isinstance(at, Unit) and (at.pose is None or not at.on_table):
        return False
    x, y = point_of(state, at, span)
    return bool(-TOLERANCE <= x <= state.width + TOLERANCE
                and -TOLERANCE <= y <= state.depth + TOLERANCE)


# ---------------------------------------------------------------- headings


@builtin("heading")
def heading(state, env, span, a, b):
    """The heading from ``a``'s centre to ``b``'s (units, markers, places)."""
    ax, ay = point_of(state, a, span)
    bx, by = point_of(state, b, span)
    return round(math.degrees(math.atan2(bx - ax, by - ay)) % 360, 9)


@builtin("facing")
def facing(state, env, span, unit):
    return round(unit.pose.facing % 360, 9) if unit.pose is not None else None


# ---------------------------------------------------------------- what lies under a marker


def _under(state: BattleState, unit: Unit, shape: Sweep, reading: str) -> list[int]:
    """The positions (in the unit's block, rank by rank) of its models under the shape."""
    out = []
    for k, (pose, size) in enumerate(model_bases(state, unit)):
        if reading == "touched":
            hit = shape.meets(pose, size)
        elif reading == "centre":
            hit = shape.holds(pose.x, pose.y)
        else:
            hit = shape.holds_all(pose, size)
        if hit:
            out.append(k)
    return out


@builtin("models_under")
def models_under(state, env, span, unit, marker_id, reading="touched"):
    """How many of the unit's models lie under the marker, by the reading."""
    if not state.alive(unit) or not unit.on_table:
        return 0
    return len(_under(state, unit, marker(state, marker_id, span), _reading(reading, span)))


@builtin("units_under")
def units_under(state, env, span, marker_id, reading="touched"):
    """The units on the table with a model under the marker, in the order a line from
    its start meets them (the nearest model's centre along it; ties in battle order)."""
    shape = marker(state, marker_id, span)
    how = _reading(reading, span)
    found = []
    for i, unit in enumerate(state.units):
        if not state.alive(unit) or not unit.on_table or unit.pose is None:
            continue
        under = _under(state, unit, shape, how)
        if under:
            bases = model_bases(state, unit)
            first = min(shape.along(bases[k][0].x, bases[k][0].y) for k in under)
            found.append((round(first, 9), i, unit))
    return [unit for _, _, unit in sorted(found, key=lambda f: (f[0], f[1]))]


def _lines_under(state: BattleState, unit: Unit, marker_id: Any, span: Span | None,
                 across: bool) -> int:
    if not state.alive(unit) or not unit.on_table:
        return 0
    under = _under(state, unit, marker(state, marker_id, span), "touched")
    files = max(1, min(int(unit.files), int(unit.models)))
    if not across:
        return len({k // files for k in under})
    pose = placed(unit)
    (_, _), (rx, ry) = axes(pose.facing)
    width = state.footprint(unit).width
    bases = model_bases(state, unit)
    # the file a model stands in: the one its base's centre lies across from
    return len({math.floor(((bases[k][0].x - pose.x) * rx
                            + (bases[k][0].y - pose.y) * ry + width / 2 + TOLERANCE)
                           / (unit.base_w + unit.spacing)) for k in under})


@builtin("ranks_under")
def ranks_under(state, env, span, unit, marker_id):
    """How many of the unit's ranks have a model under the marker."""
    return _lines_under(state, unit, marker_id, span, across=False)


@builtin("files_under")
def files_under(state, env, span, unit, marker_id):
    """How many of the unit's files have a model under the marker."""
    return _lines_under(state, unit, marker_id, span, across=True)
