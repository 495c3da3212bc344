"""Battlefield geometry: poses and footprints, pure functions on small value types, in inches
and degrees.

A unit's footprint is a rectangle: ``files`` models wide and as many ranks deep as its
models need, each model on a base ``base_w`` × ``base_d`` (millimetres in the data,
inches here). Facing is the direction its front points, in degrees: 0 is "up the table"
(+y), 90 is +x. Arcs follow the 45° lines from the corners of the target's footprint.
Footprints as shapes, and the distances between them, are :mod:`rules_run.space.convex`'s.
"""

from __future__ import annotations

import math

from rules_run import slotted

__all__ = ["Footprint", "Pose", "axes", "corners", "grid_points", "arc_of", "advance",
           "heading_to", "edge_reach", "on_table", "points_near", "MM_PER_INCH"]

MM_PER_INCH = 25.4


@slotted.frozen
class Footprint:
    """A rectangle's size in inches: ``width`` across the front, ``depth`` front to back."""

    width: float
    depth: float


@slotted.frozen
class Pose:
    """Where a unit's centre is and which way it faces."""

    x: float
    y: float
    facing: float = 0.0
    """Degrees; 0 faces +y, 90 faces +x."""


def axes(facing: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Unit vectors of a facing: forward and right.

    Examples:
        >>> [tuple(round(v, 6) for v in vector) for vector in axes(90)]
        [(1.0, 0.0), (0.0, -1.0)]
    """
    r = math.radians(facing)
    forward = (math.sin(r), math.cos(r))
    right = (math.cos(r), -math.sin(r))
    return forward, right


def corners(pose: Pose, size: Footprint) -> list[tuple[float, float]]:
    """The four corners: front-left, front-right, rear-right, rear-left.

    Examples:
        >>> [tuple(round(v, 6) for v in c) for c in corners(Pose(0, 0, 0), Footprint(2, 1))]
        [(-1.0, 0.5), (1.0, 0.5), (1.0, -0.5), (-1.0, -0.5)]
    """
    (fx, fy), (rx, ry) = axes(pose.facing)
    hw, hd = size.width / 2, size.depth / 2
    # half the width along the right axis, half the depth along the forward axis
    wx, wy, dx, dy = hw * rx, hw * ry, hd * fx, hd * fy
    x, y = pose.x, pose.y
    return [(x - wx + dx, y - wy + dy), (x + wx + dx, y + wy + dy),
            (x + wx - dx, y + wy - dy), (x - wx - dx, y - wy - dy)]


GRID_MAX = 5
"""At most this many sample points across (and deep) a footprint."""


def grid_points(pose: Pose, size: Footprint, across: int, deep: int
                ) -> list[tuple[float, float]]:
    """Sample points spread over a footprint: ``across`` × ``deep`` cell centres (each at
    most :data:`GRID_MAX`), front rank first, left to right, standing for the models of a
    unit.

    Examples:
        >>> [tuple(round(v, 6) for v in pt) for pt in grid_points(Pose(0, 0), Footprint(2, 1), 2, 1)]
        [(-0.5, 0.0), (0.5, 0.0)]
    """
    across = max(1, min(GRID_MAX, across))
    deep = max(1, min(GRID_MAX, deep))
    (fx, fy), (rx, ry) = axes(pose.facing)
    out = []
    for j in range(deep):
        along_front = size.depth / 2 - (j + 0.5) * size.depth / deep
        for i in range(across):
            along_right = -size.width / 2 + (i + 0.5) * size.width / across
            out.append((pose.x + along_right * rx + along_front * fx,
                        pose.y + along_right * ry + along_front * fy))
    return out


def arc_of(target: Pose, size: Footprint, x: float, y: float) -> str:
    """Which arc of ``target`` the point is in: ``front``, ``flank`` or ``rear``.

    The front arc lies in front of the front edge, between the 45° lines from its corners;
    the rear arc likewise behind; the rest are the flanks.

    Examples:
        >>> arc_of(Pose(0, 0, 0), Footprint(4, 2), 0, 5)
        'front'
        >>> arc_of(Pose(0, 0, 0), Footprint(4, 2), 6, 0)
        'flank'
        >>> arc_of(Pose(0, 0, 0), Footprint(4, 2), 0, -5)
        'rear'
    """
    (fx, fy), (rx, ry) = axes(target.facing)
    dx, dy = x - target.x, y - target.y
    local_y = dx * fx + dy * fy
    local_x = dx * rx + dy * ry
    hw, hd = size.width / 2, size.depth / 2
    if local_y >= hd and abs(local_x) - hw <= local_y - hd:
        return "front"
    if local_y <= -hd and abs(local_x) - hw <= -local_y - hd:
        return "rear"
    return "flank"


def heading_to(a: Pose, x: float, y: float) -> float:
    """The facing (degrees) that points from ``a`` to the point."""
    return math.degrees(math.atan2(x - a.x, y - a.y)) % 360


def advance(pose: Pose, heading: float, inches: float) -> Pose:
    """The pose moved ``inches`` along ``heading``, facing that way."""
    r = math.radians(heading)
    return Pose(pose.x + inches * math.sin(r), pose.y + inches * math.cos(r), heading % 360)


def edge_reach(pose: Pose, size: Footprint, heading: float, width: float,
               depth: float) -> float:
    """How far the footprint, turned to face ``heading``, goes along it before one of its
    corners meets an edge of a ``width`` × ``depth`` table (0 when one is on or past an edge
    already; infinite when it never meets one).

    Examples:
        >>> edge_reach(Pose(10, 10, 0), Footprint(4, 2), 180, 48, 48)
        9.0
        >>> edge_reach(Pose(10, 10, 0), Footprint(4, 2), 90, 48, 48)
        37.0
    """
    turned = Pose(pose.x, pose.y, heading)
    (vx, vy), _ = axes(heading)
    reach = math.inf
    for x, y in corners(turned, size):
        for p, v, top in ((x, vx, width), (y, vy, depth)):
            if v > 1e-12:
                reach = min(reach, (top - p) / v)
            elif v < -1e-12:
                reach = min(reach, p / -v)
    return round(max(0.0, reach), 9)


def on_table(pose: Pose, size: Footprint, width: float, depth: float,
             tolerance: float = 1e-6) -> bool:
    """Whether the whole footprint lies on a ``width`` × ``depth`` table (touching an edge
    counts as on it).

    Examples:
        >>> on_table(Pose(2, 1, 0), Footprint(4, 2), 48, 48)
        True
        >>> on_table(Pose(1.5, 1, 0), Footprint(4, 2), 48, 48)
        False
    """
    return all(-tolerance <= x <= width + tolerance and -tolerance <= y <= depth + tolerance
               for x, y in corners(pose, size))


def points_near(x: float, y: float, within: float, step: float) -> list[tuple[float, float]]:
    """The points of a square grid ``step`` apart, through ``(x, y)``, no farther than
    ``within`` from it, nearest first (of two as near, the one at the smaller heading from
    it: a fixed order, so a search over them is deterministic).

    Examples:
        >>> points_near(0, 0, 1, 1)
        [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)]
    """
    n = int(math.floor(within / step + 1e-9))
    found = []
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            d = math.hypot(i, j) * step
            if d <= within + 1e-9:
                turn = round(math.degrees(math.atan2(i, j)) % 360, 9)
                found.append((round(d, 9), turn, x + i * step, y + j * step))
    found.sort()
    return [(float(px), float(py)) for _, _, px, py in found]
