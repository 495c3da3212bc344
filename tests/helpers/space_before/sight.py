"""The pure geometry engine/sight.py had before space/ provided it on Convex (half-planes,
Cyrus-Beck clipping, grid points, the inside test), kept as it was to compare against."""

from __future__ import annotations

from helpers.space_before.geometry import Footprint, Pose, axes

_GRID_MAX = 5

def clip_segment(p: tuple[float, float], q: tuple[float, float],
                 poly: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The part of the segment p→q inside a convex polygon, as (t_in, t_out) in 0..1.

    None when the segment misses the polygon (Cyrus-Beck clipping; the polygon's corners
    may run either way round).

    Examples:
        >>> square = [(0, 0), (2, 0), (2, 2), (0, 2)]
        >>> clip_segment((-1, 1), (3, 1), square)
        (0.25, 0.75)
        >>> clip_segment((-1, 3), (3, 3), square) is None
        True
    """
    return _clip(p, q, _half_planes(poly))


def _half_planes(poly: list[tuple[float, float]]) -> list[tuple[float, float, float, float]]:
    """A convex polygon as the half-planes of its edges: (a corner, the outward normal)."""
    n = len(poly)
    cx = sum(x for x, _ in poly) / n
    cy = sum(y for _, y in poly) / n
    planes = []
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        # the edge's normal, pointing out of the polygon
        nx, ny = by - ay, ax - bx
        if nx * (cx - ax) + ny * (cy - ay) > 0:
            nx, ny = -nx, -ny
        planes.append((ax, ay, nx, ny))
    return planes


_MARGIN = 1e-6
"""Inches around the lines of sight within which a thing is tested against them."""


def _clip(p: tuple[float, float], q: tuple[float, float],
          planes: list[tuple[float, float, float, float]]) -> tuple[float, float] | None:
    """:func:`clip_segment` against a polygon given as its half-planes."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    t_in, t_out = 0.0, 1.0
    for ax, ay, nx, ny in planes:
        denominator = nx * dx + ny * dy
        numerator = nx * (px - ax) + ny * (py - ay)
        if abs(denominator) < 1e-12:
            if numerator > 1e-12:
                return None
            continue
        t = -numerator / denominator
        if denominator < 0:
            t_in = max(t_in, t)
        else:
            t_out = min(t_out, t)
        if t_in > t_out + 1e-12:
            return None
    return (t_in, t_out)


def grid_points(pose: Pose, size: Footprint, across: int, deep: int
                ) -> list[tuple[float, float]]:
    """Sample points spread over a footprint: ``across`` × ``deep`` cell centres (each at
    most :data:`_GRID_MAX`), standing for the models of a unit.

    Examples:
        >>> [tuple(round(v, 6) for v in pt) for pt in grid_points(Pose(0, 0), Footprint(2, 1), 2, 1)]
        [(-0.5, 0.0), (0.5, 0.0)]
    """
    across = max(1, min(_GRID_MAX, across))
    deep = max(1, min(_GRID_MAX, deep))
    (fx, fy), (rx, ry) = axes(pose.facing)
    out = []
    for j in range(deep):
        along_front = size.depth / 2 - (j + 0.5) * size.depth / deep
        for i in range(across):
            along_right = -size.width / 2 + (i + 0.5) * size.width / across
            out.append((pose.x + along_right * rx + along_front * fx,
                        pose.y + along_right * ry + along_front * fy))
    return out


def _inside(point: tuple[float, float], planes: list[tuple[float, float, float, float]]
            ) -> bool:
    return _clip(point, point, planes) is not None


