"""Battlefield geometry: pure functions on small value types, in inches and degrees.

A unit's footprint is a rectangle: ``files`` models wide and as many ranks deep as its
models need, each model on a base ``base_w`` × ``base_d`` (millimetres in the data,
inches here). Facing is the direction its front points, in degrees: 0 is "up the table"
(+y), 90 is +x. Distances between units are edge to edge; arcs follow the 45° lines from the
corners of the target's footprint.
"""

from __future__ import annotations

import math

import attrs

__all__ = ["Footprint", "Pose", "axes", "corners", "edge_distance", "far_apart", "arc_of",
           "advance", "heading_to", "point_distance", "MM_PER_INCH"]

MM_PER_INCH = 25.4


@attrs.frozen
class Footprint:
    """A rectangle's size in inches: ``width`` across the front, ``depth`` front to back."""

    width: float
    depth: float


@attrs.frozen
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


def point_distance(pose: Pose, size: Footprint, x: float, y: float) -> float:
    """From a point to a (turned) rectangle: 0 inside it.

    Examples:
        >>> point_distance(Pose(0, 0, 90), Footprint(4, 2), 4, 0)
        3.0
    """
    (fx, fy), (rx, ry) = axes(pose.facing)
    dx, dy = x - pose.x, y - pose.y
    across = dx * rx + dy * ry
    along = dx * fx + dy * fy
    return math.hypot(max(abs(across) - size.width / 2, 0.0),
                      max(abs(along) - size.depth / 2, 0.0))


def _nearest(points, poly, best: float) -> float:
    """The least of ``best`` and the distances from the points to the polygon's edges."""
    hypot = math.hypot
    for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1]):
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        for px, py in points:
            # the nearest point of the edge is a + t (b - a), t clamped to 0..1
            if length2 == 0:
                t = 0.0
            else:
                t = ((px - ax) * dx + (py - ay) * dy) / length2
                if not t < 1.0:
                    t = 1.0
                if not t > 0.0:
                    t = 0.0
            d = hypot(px - (ax + t * dx), py - (ay + t * dy))
            if d < best:
                best = d
    return best


def _crosses(p1, p2, q1, q2) -> bool:
    """Whether two segments cross (rectangles laid in a cross touch no corner inside)."""
    def side(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = side(q1, q2, p1), side(q1, q2, p2)
    d3, d4 = side(p1, p2, q1), side(p1, p2, q2)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4)


def _inside(p, poly) -> bool:
    sign = 0
    for i in range(4):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % 4]
        cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        if abs(cross) < 1e-12:
            continue
        s = 1 if cross > 0 else -1
        if sign == 0:
            sign = s
        elif s != sign:
            return False
    return True


def edge_distance(a: Pose, a_size: Footprint, b: Pose, b_size: Footprint) -> float:
    """The shortest distance between two footprints (0 when they touch or overlap); the
    same float whichever footprint comes first.

    Examples:
        >>> edge_distance(Pose(0, 0), Footprint(2, 2), Pose(0, 6), Footprint(2, 2))
        4.0
    """
    if a.facing % 90 == 0 and b.facing % 90 == 0:
        # both rectangles are aligned with the table: the distance of two boxes
        aw, ad = (a_size.width, a_size.depth) if a.facing % 180 == 0 else (a_size.depth,
                                                                            a_size.width)
        bw, bd = (b_size.width, b_size.depth) if b.facing % 180 == 0 else (b_size.depth,
                                                                            b_size.width)
        dx = max(0.0, abs(a.x - b.x) - (aw + bw) / 2)
        dy = max(0.0, abs(a.y - b.y) - (ad + bd) / 2)
        return round(math.hypot(dx, dy), 9)
    pa, pb = corners(a, a_size), corners(b, b_size)
    reach = (math.hypot(a_size.width, a_size.depth) + math.hypot(b_size.width, b_size.depth)) / 2
    apart = math.hypot(a.x - b.x, a.y - b.y) > reach   # the circles around them do not meet
    if not apart and (any(_inside(p, pb) for p in pa) or any(_inside(p, pa) for p in pb)
                      or any(_crosses(pa[i], pa[(i + 1) % 4], pb[j], pb[(j + 1) % 4])
                             for i in range(4) for j in range(4))):
        return 0.0
    return round(_nearest(pb, pa, _nearest(pa, pb, math.inf)), 9)


def far_apart(a: Pose, a_size: Footprint, b: Pose, b_size: Footprint, inches: float) -> bool:
    """Whether the footprints are surely more than ``inches`` apart edge to edge, seen
    without measuring them; False says nothing.

    The distance of the centres less the radii of the circles around the footprints is
    never more than the distance of their edges; when it clears ``inches`` by a margin far
    above the rounding of either computation, :func:`edge_distance` gives more too.

    Examples:
        >>> far_apart(Pose(0, 0), Footprint(2, 2), Pose(0, 30), Footprint(2, 2), 10)
        True
        >>> far_apart(Pose(0, 0), Footprint(2, 2), Pose(0, 6), Footprint(2, 2), 3.5)
        False
    """
    reach = (math.hypot(a_size.width, a_size.depth) + math.hypot(b_size.width, b_size.depth)) / 2
    return math.hypot(a.x - b.x, a.y - b.y) - reach > inches + 1e-6


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
