"""Moving units and bringing them into and out of fights: generic builtins of distance,
contact, moves, wheels, alignment and attachment.

Every move says where the unit ends as an event (its ``placed`` field); units attached to
another (``attach``) go where it goes and are in its fights.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rules_run.engine.builtins.registry import builtin, fail
from rules_run.engine.builtins.shapes import gap, unit_shape
from rules_run.engine.builtins.sight import TerrainPiece, piece_shape
from rules_run.runtime.entities import Unit, placed
from rules_run.runtime.events import Align, Attach, Detach, Engage, LeftTable, StraightMove, Wheel
from rules_run.space import distance as shape_distance
from rules_run.space import (TOLERANCE, Convex, Pose, advance, arc_of, axes, corners, far_apart,
                             heading_to, hull, overlap, until_clear)

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__ = ["carry", "leave_fights", "moved_from", "on_table", "other_units"]


@builtin("distance")
def distance(state, env, span, a, b):
    if b in a.engaged:
        return 0.0
    return gap(state, a, b)


@builtin("within")
def within(state, env, span, a, b, inches):
    return distance(state, env, span, a, b) <= inches


@builtin("in_contact")
def in_contact(state, env, span, a, b):
    return b in a.engaged


@builtin("engaged_with")
def engaged_with(state, env, span, unit):
    return [u for u in unit.engaged if state.alive(u)]


@builtin("engaged_group")
def engaged_group(state, env, span, unit):
    """``unit``, then the units in base contact with it, then those in contact with them,
    and so on: each once, in the order :func:`engaged_with` meets them, breadth first."""
    group = [unit]
    for member in group:
        group += [u for u in engaged_with(state, env, span, member) if u not in group]
    return group


@builtin("arc")
def arc(state, env, span, a, b):
    return arc_of(b.pose, state.footprint(b), a.pose.x, a.pose.y)


@builtin("move_toward")
def move_toward(state, env, span, unit, other, inches, avoid=None):
    """Straight at ``other``, ``inches`` at most and never past contact; with ``avoid`` (a
    list of units and terrain pieces), never into one of them either: the move stops where
    the unit's footprint would first overlap one (:func:`in_the_way`). The inches moved."""
    gap = distance(state, env, span, unit, other)
    step = max(0.0, min(float(inches), gap))
    heading = heading_to(unit.pose, other.pose.x, other.pose.y)
    if avoid and step > 0:
        first = _entries(state, unit, heading, step, _things(avoid, span, "move_toward"))
        if first:
            step = max(0.0, min(step, first[0][0]))
    start = unit.pose
    unit.pose = advance(start, heading, step)
    moved_from(state, unit, start)
    carry(unit)
    env.emit(StraightMove, unit=unit.id, toward=other.id, inches=round(step, 3),
             placed=state.positions(env, unit))
    return step


@builtin("move_away")
def move_away(state, env, span, unit, other, inches, clear_of=None, past=None):
    """Straight away from ``other``, turned to face the way it goes; with ``clear_of``,
    on along the same line until it is that far or more from every other unit (those
    attached to it aside) and from each of ``past`` (terrain pieces). Returns the inches
    moved."""
    past = _things(past or [], span, "move_away", pieces_only=True)
    heading = (heading_to(unit.pose, other.pose.x, other.pose.y) + 180) % 360
    start = unit.pose
    unit.pose = advance(start, heading, float(inches))
    on = _on_until_clear(state, unit, heading, float(clear_of), past) if clear_of else 0.0
    moved_from(state, unit, start)
    leave_fights(unit)
    carry(unit)
    if on:
        moved = round(float(inches) + on, 3)
        env.emit(StraightMove, unit=unit.id, away_from=other.id, inches=moved,
                 on_until_clear=round(on, 3), placed=state.positions(env, unit))
    else:
        moved = float(inches)
        env.emit(StraightMove, unit=unit.id, away_from=other.id, inches=moved,
                 placed=state.positions(env, unit))
    if not on_table(state, unit):
        unit.on_table = False
        carry(unit)
        env.emit(LeftTable, unit=unit.id,
                 followers=[f.id for f in unit.followers])
    return moved


def _things(given: Any, span: Any, name: str, pieces_only: bool = False) -> list:
    """The list of units and terrain pieces a builtin was given (of pieces only with
    ``pieces_only``); anything else stops the battle with a located error."""
    items = given if isinstance(given, (list, tuple)) else [given]
    for item in items:
        if not isinstance(item, TerrainPiece) and (pieces_only or not isinstance(item, Unit)):
            what = "terrain pieces" if pieces_only else "units and terrain pieces"
            raise fail(f"{name}() keeps clear of {what}, got {item!r}", span, "bad-argument")
    return list(items)


def _obstacle_shape(state: BattleState, thing: Any) -> Convex:
    """A unit's footprint or a terrain piece's rectangle, as a shape."""
    if isinstance(thing, TerrainPiece):
        return piece_shape(thing)
    return unit_shape(state, thing)


def _kin(unit: Unit) -> set[int]:
    """The ids of the unit, the units attached to it and the one it is attached to (and
    that one's others): they stand where it stands."""
    head = unit.leader or unit
    return {id(x) for x in (unit, head, *unit.followers, *head.followers)}


def _entry(mover: Convex, fixed: Convex, v: tuple[float, float]) -> tuple[float, float] | None:
    """The stretch ``(t_in, t_out)`` of t over which ``mover`` moved by t·v overlaps
    ``fixed`` (touching is not overlapping), or None when it never does.

    Two convex polygons overlap exactly when they overlap along every edge normal of both
    (the separating axis theorem); along one normal the overlap is an open interval of t,
    so the stretch is the common part of those intervals.
    """
    lo, hi = -math.inf, math.inf
    for nx, ny, _ in mover.planes + fixed.planes:
        a = [nx * x + ny * y for x, y in mover.corners]
        b = [nx * x + ny * y for x, y in fixed.corners]
        d = nx * v[0] + ny * v[1]
        # overlap along n: max(a) + t·d > min(b) and min(a) + t·d < max(b)
        low, high = min(b) - max(a) + TOLERANCE, max(b) - min(a) - TOLERANCE
        if abs(d) <= 1e-12:
            if not low < 0 < high:
                return None
            continue
        t1, t2 = low / d, high / d
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
        if lo >= hi:
            return None
    return (lo, hi)


def _entries(state: BattleState, unit: Unit, heading: float, reach: float,
             things: list) -> list[tuple[float, Any]]:
    """The things (units, terrain pieces) the unit would move into going ``reach`` inches
    along ``heading``, each with the inches it goes before its footprint first overlaps it,
    nearest first (in the order given when as near). One it overlaps where it stands (it
    may move out of it) or stands attached to (or is attached to) does not count."""
    mine = unit_shape(state, unit)
    v = axes(heading)[0]
    kin = _kin(unit)
    out = []
    for i, thing in enumerate(things):
        if id(thing) in kin or not (isinstance(thing, TerrainPiece) or (
                state.alive(thing) and thing.on_table)):
            continue
        stretch = _entry(mine, _obstacle_shape(state, thing), v)
        if stretch is None or stretch[0] < 0 or stretch[0] >= reach - TOLERANCE:
            continue
        out.append((stretch[0], i, thing))
    out.sort(key=lambda e: (e[0], e[1]))
    return [(t, thing) for t, _, thing in out]


@builtin("in_the_way")
def in_the_way(state, env, span, unit, other, obstacles):
    """The ones of ``obstacles`` (units and terrain pieces) that the unit's straight move
    at ``other`` until contact would enter, nearest first."""
    gap = distance(state, env, span, unit, other)
    heading = heading_to(unit.pose, other.pose.x, other.pose.y)
    return [thing for _, thing in _entries(state, unit, heading, gap,
                                           _things(obstacles, span, "in_the_way"))
            if thing is not other]


@builtin("ground_reach")
def ground_reach(state, env, span, unit, other, inches, most, slow, rate, obstacles, cost,
                 step=None):
    """How far the unit's straight move at ``other`` goes for ``inches`` of move, never past
    ``most``: each inch it goes while its footprint overlaps one of ``slow`` (terrain
    pieces) costs ``1 / rate`` inches; on reaching one of ``obstacles`` (terrain pieces) it
    pays ``cost`` inches and is placed just past it (the stretch over which it overlaps
    the obstacle is not paid for), or, with less left (or the far side past ``most``), halts
    before it and loses the rest. With ``step``, a stretch the move ends in on slow ground is
    rounded up to a multiple of ``step`` (no farther than that ground reaches). An obstacle
    it already overlaps where it stands does not stop it."""
    for value in (inches, most, rate, cost) + ((step,) if step is not None else ()):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail(f"ground_reach(): the inches, the most, the rate, the cost and the step "
                       f"are numbers, got {value!r}", span, "bad-argument")
    if not 0 < rate <= 1:
        raise fail(f"ground_reach(): the rate on slow ground is above 0 and at most 1, got "
                   f"{rate!r}", span, "bad-argument")
    heading = heading_to(unit.pose, other.pose.x, other.pose.y)
    mine, v = unit_shape(state, unit), axes(heading)[0]

    def stretches(pieces: list) -> list[tuple[float, float]]:
        out = []
        for piece in pieces:
            s = _entry(mine, piece_shape(piece), v)
            if s is not None and s[1] > TOLERANCE:
                # to a millionth: the overlap test's tolerance is no part of the distance
                out.append((max(0.0, round(s[0], 6)), round(s[1], 6)))
        return out

    for given in (slow, obstacles):
        for item in given if isinstance(given, (list, tuple)) else [given]:
            if not isinstance(item, TerrainPiece):
                raise fail(f"ground_reach(): slow ground and obstacles are terrain pieces, got "
                           f"{item!r}", span, "bad-argument")
    slows = stretches(list(slow) if isinstance(slow, (list, tuple)) else [slow])
    overs = sorted(s for s in stretches(list(obstacles) if isinstance(obstacles, (list, tuple))
                                        else [obstacles]) if s[0] > 0)
    # the stretches' ends carry the overlap test's tolerance: budgets compare more loosely
    eps = 1e-6
    at, left, most = 0.0, float(inches), max(0.0, float(most))
    while left > eps and at < most - eps:
        on_slow = any(lo <= at + eps and at < hi - eps for lo, hi in slows)
        ahead = [x for lo, hi in slows for x in (lo, hi) if x > at + eps]
        hedge = next(((lo, hi) for lo, hi in overs if lo >= at - eps), None)
        end = min([most] + ahead + ([hedge[0]] if hedge else []))
        pace = float(rate) if on_slow else 1.0
        if (end - at) / pace >= left - eps:
            go = left * pace
            if on_slow and step:
                go = math.ceil(go / float(step) - eps) * float(step)
            return end if go >= end - at else at + go
        left -= (end - at) / pace
        at = end
        if hedge is not None and abs(hedge[0] - at) <= eps:
            if left < float(cost) - eps or hedge[1] > most + eps:
                break
            left -= float(cost)
            at = hedge[1]
    return at


def moved_from(state: BattleState, unit: Unit, start: Pose) -> None:
    """Remember a straight move from ``start`` to where the unit stands now."""
    end = placed(unit)
    state._moves[unit] = (Pose(start.x, start.y, end.facing), end, state.footprint(unit))


def other_units(state: BattleState, unit: Unit) -> list[Unit]:
    """The units in the battle but this one and those attached to it (or it to)."""
    return [o for o in state.units if o is not unit and state.alive(o)
            and o not in unit.followers and o is not unit.leader]


def _on_until_clear(state: BattleState, unit: Unit, heading: float, reach: float,
                    past: list) -> float:
    """Move the unit on along ``heading`` until it is ``reach`` inches or more from every
    other unit and from each of ``past`` (terrain pieces); returns how far.

    Each step goes to where the unit is clear for good of every unit it is now nearer
    than ``reach`` to (:func:`rules_run.space.lines.until_clear`): past that point it
    never comes near that unit again, so there are at most as many steps as units.
    Leaving the table ends the move.
    """
    size = state.footprint(unit)
    v = axes(heading)[0]
    rest = other_units(state, unit)
    on = 0.0
    for _ in range(len(rest) + len(past) + 1):
        pose = placed(unit)
        shape = unit_shape(state, unit)
        near = [o for o in rest
                if not far_apart(pose, size, placed(o), state.footprint(o), reach)
                and gap(state, unit, o) < reach - TOLERANCE]
        near += [p for p in past if shape_distance(shape, piece_shape(p)) < reach - TOLERANCE]
        if not near or not on_table(state, unit):
            break
        step = max(TOLERANCE, max(until_clear(shape, _obstacle_shape(state, o), v, reach)
                                for o in near))
        unit.pose = advance(pose, heading, step)
        on += step
    return on


@builtin("passed_through")
def passed_through(state, env, span, unit, among=None):
    """The units (but those attached to it, or it to) whose footprints overlap the area
    the unit's last straight move swept: the hull of its footprint where it started,
    turned the way it went, and where it ended; with ``among`` (units, terrain pieces),
    those of them that area overlaps instead."""
    move = state._moves.get(unit)
    if move is None:
        return []
    start, end, size = move
    swept = hull(corners(start, size) + corners(end, size))
    x0, y0, x1, y1 = swept.box
    if among is not None:
        kin = _kin(unit)
        return [o for o in _things(among, span, "passed_through") if id(o) not in kin
                and overlap(swept, _obstacle_shape(state, o))]
    out = []
    for o in other_units(state, unit):
        # the circle around its footprint misses the swept area's box: it is not touched
        pose, there = placed(o), state.footprint(o)
        r = math.hypot(there.width, there.depth) / 2
        if (pose.x + r <= x0 or pose.x - r >= x1 or pose.y + r <= y0
                or pose.y - r >= y1):
            continue
        if overlap(swept, unit_shape(state, o)):
            out.append(o)
    return out


def on_table(state: BattleState, unit: Unit) -> bool:
    size = state.footprint(unit)
    r = max(size.width, size.depth) / 2
    pose = placed(unit)
    return (r <= pose.x <= state.width - r) and (r <= pose.y <= state.depth - r)


@builtin("engage")
def engage(state, env, span, unit, other, arc=None):
    if other not in unit.engaged:
        unit.engaged.append(other)
    if unit not in other.engaged:
        other.engaged.append(unit)
    closing = gap(state, unit, other)
    heading = heading_to(unit.pose, other.pose.x, other.pose.y)
    unit.pose = advance(unit.pose, heading, closing)
    carry(unit)
    # units that move with another (attach) are in its fights too
    for a, b in [(f, other) for f in unit.followers] + [(unit, g) for g in other.followers]:
        if b not in a.engaged:
            a.engaged.append(b)
        if a not in b.engaged:
            b.engaged.append(a)
    if env.events is not None:
        env.emit(Engage, unit=unit.id, target=other.id,
                 arc=arc or arc_of(other.pose, state.footprint(other), unit.pose.x,
                                   unit.pose.y), placed=state.positions(env, unit))
    return True


@builtin("wheel")
def wheel(state, env, span, unit, degrees, most=None):
    """Turn the unit about a front corner: clockwise (``degrees`` > 0, a wheel to the
    right) about its right one, counter-clockwise about its left one; with ``most``, by
    less when its outer front corner would travel farther than that; the inches that
    corner travelled."""
    if isinstance(degrees, bool) or not isinstance(degrees, (int, float)):
        raise fail(f"a wheel turns by a number of degrees, got {degrees!r}", span,
                   "bad-argument")
    start = placed(unit)
    size = state.footprint(unit)
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
    moved_from(state, unit, start)
    carry(unit)
    inches = round(abs(turn) * size.width, 3)
    env.emit(Wheel, unit=unit.id, degrees=round(float(degrees), 3), inches=inches,
             placed=state.positions(env, unit))
    return inches


@builtin("align")
def align(state, env, span, unit, other, side="front", avoid=None):
    """Turn and move the unit so that its side (``front``, ``flank``: the one nearer,
    ``rear``) lies flush against the edge of ``other`` it stands before (the edge of the
    arc of ``other`` it is in), as much of the two edges touching as their lengths allow,
    with the least shift along the edge; ``other`` does not move. With ``avoid`` (units
    and terrain pieces), it does not move and gives false when the area between where it
    stands and where it would stand (the hull of the two footprints) overlaps one of them
    (``other``, and the units attached to either, aside)."""
    if side not in ("front", "flank", "rear"):
        raise fail(f"align() puts a unit's front, flank or rear against another, got "
                   f"{side!r}", span, "bad-argument")
    start, fixed = placed(unit), placed(other)
    mine, theirs = state.footprint(unit), state.footprint(other)
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
    end = Pose(fixed.x + nx * out + ex * offset, fixed.y + ny * out + ey * offset,
               facing % 360)
    if avoid and _obstructed(state, unit, other, hull(corners(start, mine) + corners(end, mine)),
                             _things(avoid, span, "align")):
        return False
    unit.pose = end
    moved_from(state, unit, start)
    carry(unit)
    env.emit(Align, unit=unit.id, to=other.id, flush=side, arc=arc,
             placed=state.positions(env, unit))
    return True


def _obstructed(state: BattleState, unit: Unit, other: Unit, area: Convex,
                things: list) -> bool:
    """Whether the area overlaps one of the things (units on the table, terrain pieces),
    the unit, ``other`` and the units attached to either aside."""
    kin = _kin(unit) | _kin(other)
    return any(overlap(area, _obstacle_shape(state, thing)) for thing in things
               if id(thing) not in kin and (isinstance(thing, TerrainPiece) or (
                   state.alive(thing) and thing.on_table)))


def carry(unit: Unit) -> None:
    """Units attached to this one go where it goes."""
    for follower in unit.followers:
        follower.pose = unit.pose
        follower.on_table = unit.on_table


@builtin("attach")
def attach(state, env, span, follower, leader):
    """``attach(a, b)``: ``a`` moves with ``b`` (a character joined to a unit): it stands in
    ``b``'s place, goes where ``b`` goes and is in ``b``'s fights."""
    detach(state, env, span, follower)
    follower.leader = leader
    leader.followers.append(follower)
    follower.pose = leader.pose
    env.emit(Attach, unit=follower.id, to=leader.id,
             placed=state.positions(env, follower))
    return True


@builtin("detach")
def detach(state, env, span, follower):
    """``detach(a)``: ``a`` moves on its own again."""
    leader = follower.leader
    if leader is not None:
        leader.followers.remove(follower)
        follower.leader = None
        env.emit(Detach, unit=follower.id, to=leader.id)
    return True


def leave_fights(unit: Unit) -> None:
    for other in unit.engaged:
        if unit in other.engaged:
            other.engaged.remove(unit)
    unit.engaged = []
    for follower in unit.followers:
        leave_fights(follower)


@builtin("disengage")
def disengage(state, env, span, unit):
    leave_fights(unit)
    return True
