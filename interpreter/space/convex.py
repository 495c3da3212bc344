"""The one shape of the table, its distance and its tolerance (pure geometry, in inches).

Every footprint, model base, terrain piece, swept area and band is a :class:`Convex`
polygon. Every question of contact asked of shapes is answered here, with one tolerance,
:data:`TOLERANCE`:

- two shapes *touch* when their :func:`distance` is at most it (:func:`touching`); they
  *overlap* when no straight line separates them with less than it across the line
  (:func:`overlap`): touching along an edge or at a corner is not overlapping;
- a point lies on a shape when it is at most that far outside (:meth:`Convex.holds`);
- a segment's stretch on a shape (:meth:`Convex.clip`) counts the outline, to within it.

So what one builtin calls "in contact" no other calls "apart": they all ask these.
Distances are rounded to :data:`DIGITS` decimals, which makes them the same float whichever
shape comes first; the tolerance is one unit of the last of those decimals.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from rules_run.space.geometry import Footprint, Pose, axes, corners

__all__ = ["Convex", "DIGITS", "TOLERANCE", "apart", "closest_points", "distance",
           "edge_distance", "far_apart", "hull", "overlap", "point_distance",
           "segment_distance", "touching"]

Point = tuple[float, float]
Plane = tuple[float, float, float]
_Local = tuple[float, float, float, float, float, float, float, float]

DIGITS = 9
"""Decimals a distance between shapes is rounded to."""
TOLERANCE = 1e-9
"""Inches: the one tolerance of space/ (``10 ** -DIGITS``). Shapes this near touch, a point
this far outside a shape lies on it, a line entering a shape by less than this does not pass
across it."""


class Convex:
    """A convex polygon: its corners (in order, either way round), its edges as half-planes
    with unit outward normals, its bounding box, and for a rectangle laid as a footprint the
    pose and size it was made from.

    Examples:
        >>> square = Convex([(0, 0), (2, 0), (2, 2), (0, 2)])
        >>> square.holds((2, 1)), square.holds((2.1, 1)), square.box
        (True, False, (0.0, 0.0, 2.0, 2.0))
    """

    __slots__ = ("corners", "planes", "box", "frame", "upright", "_local")

    corners: list[Point]
    planes: list[Plane]
    """Inside is ``nx * x + ny * y <= c`` for each ``(nx, ny, c)``: one per edge of non-zero
    length, in the order of the edges; a shape with no area (a segment, a point) has the
    planes across its ends too."""
    box: tuple[float, float, float, float]
    """``(x0, y0, x1, y1)``."""
    frame: tuple[Pose, Footprint] | None
    """The pose and size of a rectangle made by :meth:`rect` (None for other polygons)."""
    upright: bool
    """A rectangle whose edges run along the table's axes: its box is the shape itself."""

    def __init__(self, corners: Sequence[Point]) -> None:
        self.corners = [(float(x), float(y)) for x, y in corners]
        n = len(self.corners)
        cx = sum(x for x, _ in self.corners) / n
        cy = sum(y for _, y in self.corners) / n
        planes = []
        for (ax, ay), (bx, by) in self.edges():
            nx, ny = by - ay, ax - bx
            length = math.hypot(nx, ny)
            if length <= TOLERANCE:
                continue   # an edge this short has no direction to speak of
            nx, ny = nx / length, ny / length
            if nx * (cx - ax) + ny * (cy - ay) > 0:
                nx, ny = -nx, -ny
            planes.append((nx, ny, nx * ax + ny * ay))
        if len(planes) < 3:
            planes += _caps(self.corners, planes)
        self.planes = planes
        self.box = _box_of(self.corners)
        self.frame = None
        self.upright = False
        self._local: _Local | None = None

    @classmethod
    def rect(cls, pose: Pose, size: Footprint) -> Convex:
        """A footprint (or a base) as a shape: its four corners front-left, front-right,
        rear-right, rear-left (:func:`~rules_run.space.geometry.corners`).

        Examples:
            >>> Convex.rect(Pose(0, 0, 90), Footprint(4, 2)).box
            (-1.0, -2.0, 1.0, 2.0)
        """
        local = _local_frame(pose, size)
        x, y, fx, fy, rx, ry, hw, hd = local
        if hw <= 0 or hd <= 0:
            shape = cls(corners(pose, size))   # no area: the planes of a segment or a point
        else:
            shape = cls.__new__(cls)
            shape.corners = corners(pose, size)
            along, across = fx * x + fy * y, rx * x + ry * y
            # front, right, rear and left: the edges from each corner to the next
            shape.planes = [(fx, fy, along + hd), (rx, ry, across + hw),
                            (-fx, -fy, hd - along), (-rx, -ry, hw - across)]
            shape.box = _box_of(shape.corners)
        shape.frame = (pose, size)
        shape._local = local
        shape.upright = pose.facing % 90 == 0
        if shape.upright:
            # edges along the table's axes: the box from the size, not from rounded corners
            shape.box = _upright_box(pose, size)
        return shape

    @classmethod
    def point(cls, x: float, y: float) -> Convex:
        """A point as a shape: one corner, the four planes around it.

        Examples:
            >>> Convex.point(1, 2).holds((1, 2)), Convex.point(1, 2).holds((1, 2.1))
            (True, False)
        """
        x, y = float(x), float(y)
        shape = cls.__new__(cls)
        shape.corners = [(x, y)]
        shape.planes = [(1.0, 0.0, x), (0.0, 1.0, y), (-1.0, 0.0, -x), (0.0, -1.0, -y)]
        shape.box = (x, y, x, y)
        shape.frame = (Pose(x, y), Footprint(0.0, 0.0))
        shape._local = (x, y, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0)
        shape.upright = True
        return shape

    def edges(self) -> list[tuple[Point, Point]]:
        """Its edges, corner to next corner (the last back to the first)."""
        c = self.corners
        return list(zip(c, c[1:] + c[:1]))

    def holds(self, p: Point) -> bool:
        """The point lies on the shape: inside, on its outline or within :data:`TOLERANCE`
        of it."""
        x, y = p
        return all(nx * x + ny * y <= c + TOLERANCE for nx, ny, c in self.planes)

    def stretch(self, p: Point, v: Point, grow: float, lo: float = -math.inf,
                hi: float = math.inf, flat: float = 0.0) -> tuple[float, float] | None:
        """The parameters t (within lo..hi) of the points ``p + t·v`` inside the shape grown
        by ``grow`` inches (shrunk when negative), or None when there are none.

        An edge the line comes nearer to or farther from by at most ``flat`` inches per unit
        of t runs along it: the line is inside that edge's half-plane when ``p`` is, to
        within ``flat``.

        Examples:
            >>> Convex([(0, 0), (2, 0), (2, 2), (0, 2)]).stretch((-1, 1), (1, 0), 0.0)
            (1.0, 3.0)
        """
        px, py = p
        vx, vy = v
        for nx, ny, c in self.planes:
            den = nx * vx + ny * vy
            num = c + grow - (nx * px + ny * py)
            if -flat <= den <= flat:
                if num < -flat:
                    return None   # along the edge, outside it
                continue
            t = num / den
            if den > 0:
                if t < hi:
                    hi = t
            elif t > lo:
                lo = t
            if lo > hi:
                return None
        return (lo, hi)

    def clip(self, p: Point, q: Point) -> tuple[float, float] | None:
        """The part of the segment p→q on the shape, its outline included, as (t_in, t_out)
        in 0..1; None when the segment misses it. Where the segment crosses an edge, exactly
        (through a corner: a stretch of no length); where it runs along one (its distance
        to the edge changing by at most :data:`TOLERANCE` from end to end), on the shape
        when within :data:`TOLERANCE` of it. From a point to itself: (0, 1) when the shape
        holds the point.

        Examples:
            >>> square = Convex([(0, 0), (2, 0), (2, 2), (0, 2)])
            >>> [round(t, 6) for t in square.clip((-1, 1), (3, 1))]
            [0.25, 0.75]
            >>> square.clip((-1, 3), (3, 3)) is None
            True
        """
        return self.stretch(p, (q[0] - p[0], q[1] - p[1]), 0.0, 0.0, 1.0, TOLERANCE)

    def distance_to(self, p: Point) -> float:
        """From a point to the shape: 0 inside it (not rounded: the nearest float).

        Examples:
            >>> Convex.rect(Pose(0, 0, 90), Footprint(4, 2)).distance_to((4, 0))
            3.0
        """
        x, y = p
        if self._local is not None:
            return _footprint_distance(self._local, x, y)
        if all(nx * x + ny * y <= c for nx, ny, c in self.planes):
            return 0.0
        return min(segment_distance(p, a, b)[0] for a, b in self.edges())


def _box_of(points: list[Point]) -> tuple[float, float, float, float]:
    """The least box ``(x0, y0, x1, y1)`` around the points."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _caps(points: list[Point], planes: list[Plane]) -> list[Plane]:
    """The half-planes that close a shape with no area: across the ends of a segment, or
    around a point (so that it holds only what is on it)."""
    if planes:
        nx, ny, _ = planes[0]
        ex, ey = -ny, nx
    else:
        ex, ey = 1.0, 0.0
    along = [ex * x + ey * y for x, y in points]
    across = [-ey * x + ex * y for x, y in points]
    caps = [(ex, ey, max(along)), (-ex, -ey, -min(along))]
    if not planes:
        caps += [(-ey, ex, max(across)), (ey, -ex, -min(across))]
    return caps


def segment_distance(p: Point, a: Point, b: Point) -> tuple[float, Point]:
    """The distance from p to the segment a-b, and the nearest point of the segment.

    Examples:
        >>> segment_distance((1, 1), (0, 0), (2, 0))
        (1.0, (1.0, 0.0))
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2 != 0:
        t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
        if not t < 1.0:
            t = 1.0
        if not t > 0.0:
            t = 0.0
    q = (a[0] + t * dx, a[1] + t * dy)
    return math.hypot(p[0] - q[0], p[1] - q[1]), q


def apart(a: Convex, b: Convex) -> bool:
    """Whether a straight line separates the two shapes (they may touch along it, or cross
    it by up to :data:`TOLERANCE`).

    Examples:
        >>> apart(Convex([(0, 0), (1, 0), (1, 1), (0, 1)]), Convex([(1, 0), (2, 0), (2, 1), (1, 1)]))
        True
        >>> apart(Convex([(0, 0), (2, 0), (2, 2), (0, 2)]), Convex([(1, 1), (3, 1), (3, 3), (1, 3)]))
        False
    """
    for one, other in ((a, b), (b, a)):
        points = other.corners
        for nx, ny, c in one.planes:
            limit = c - TOLERANCE
            for x, y in points:
                if nx * x + ny * y < limit:
                    break
            else:
                return True   # every point of the other is on the far side of this edge
    return False


def _upright_box(pose: Pose, size: Footprint) -> tuple[float, float, float, float]:
    """The box of a footprint facing along one of the table's axes: the footprint itself."""
    w, d = (size.width, size.depth) if pose.facing % 180 == 0 else (size.depth, size.width)
    return (pose.x - w / 2, pose.y - d / 2, pose.x + w / 2, pose.y + d / 2)


def _box_distance(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
                  ) -> float:
    """The :func:`distance` of two boxes."""
    return round(math.hypot(max(0.0, b[0] - a[2], a[0] - b[2]),
                            max(0.0, b[1] - a[3], a[1] - b[3])), DIGITS)


def _local_frame(pose: Pose, size: Footprint) -> _Local:
    """A footprint's centre, forward and right axes and half width and depth."""
    (fx, fy), (rx, ry) = axes(pose.facing)
    return (pose.x, pose.y, fx, fy, rx, ry, size.width / 2, size.depth / 2)


def _footprint_distance(local: _Local, x: float, y: float) -> float:
    """From a point to a footprint (given by :func:`_local_frame`), in its own axes."""
    cx, cy, fx, fy, rx, ry, hw, hd = local
    dx, dy = x - cx, y - cy
    return math.hypot(max(abs(dx * rx + dy * ry) - hw, 0.0),
                      max(abs(dx * fx + dy * fy) - hd, 0.0))


def _nearest_pairs(a: Convex, b: Convex) -> list[tuple[float, Point, Point]]:
    """Every corner of each shape with its nearest point on each edge of the other, and
    their distance: the nearest points of two polygons apart are among them."""
    found = []
    edges_a, edges_b = a.edges(), b.edges()
    for p in a.corners:
        for q1, q2 in edges_b:
            d, q = segment_distance(p, q1, q2)
            found.append((d, p, q))
    for q in b.corners:
        for p1, p2 in edges_a:
            d, p = segment_distance(q, p1, p2)
            found.append((d, p, q))
    return found


def _corners_to_edges(a: Convex, b: Convex) -> float:
    """The least distance from a corner of either shape to an edge of the other (the
    distance of two polygons apart): :func:`segment_distance` unrolled, on the hot path."""
    best = math.inf
    hypot = math.hypot
    for points, shape in ((a.corners, b), (b.corners, a)):
        for (ax, ay), (bx, by) in shape.edges():
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            for px, py in points:
                t = 0.0 if length2 == 0 else ((px - ax) * dx + (py - ay) * dy) / length2
                t = 1.0 if t > 1.0 else (0.0 if t < 0.0 else t)
                d = hypot(px - (ax + t * dx), py - (ay + t * dy))
                if d < best:
                    best = d
    return best


def distance(a: Convex, b: Convex) -> float:
    """The shortest distance between two shapes, rounded to :data:`DIGITS` decimals (0 when
    they overlap); the same float whichever comes first.

    Examples:
        >>> distance(Convex.rect(Pose(0, 0), Footprint(2, 2)), Convex.rect(Pose(0, 6), Footprint(2, 2)))
        4.0
        >>> distance(Convex.rect(Pose(0, 0, 45), Footprint(2, 2)), Convex.point(3, 0))
        1.585786438
    """
    if a.upright and b.upright:
        return _box_distance(a.box, b.box)   # both along the table's axes: their boxes
    if not apart(a, b):
        return 0.0
    return round(_corners_to_edges(a, b), DIGITS)


def touching(a: Convex, b: Convex) -> bool:
    """The shapes touch or overlap: their distance is at most :data:`TOLERANCE`."""
    return distance(a, b) <= TOLERANCE


def overlap(a: Convex, b: Convex) -> bool:
    """Whether the two shapes share more than their outlines: shapes that only touch along an
    edge or at a corner (to within :data:`TOLERANCE`) do not overlap.

    Examples:
        >>> overlap(Convex([(0, 0), (2, 0), (2, 2), (0, 2)]), Convex([(1, 1), (3, 1), (3, 3), (1, 3)]))
        True
        >>> overlap(Convex([(0, 0), (1, 0), (1, 1), (0, 1)]), Convex([(1, 0), (2, 0), (2, 1), (1, 1)]))
        False
    """
    box, other = a.box, b.box
    if (box[0] >= other[2] - TOLERANCE or box[2] <= other[0] + TOLERANCE
            or box[1] >= other[3] - TOLERANCE or box[3] <= other[1] + TOLERANCE):
        return False
    return not apart(a, b)


def closest_points(a: Convex, b: Convex) -> tuple[Point, Point] | None:
    """The closest point of ``a`` to ``b`` and of ``b`` to ``a``; None when they touch
    (:func:`touching`). Where the closest points are not single (facing edges side by side),
    the middle of each closest stretch.

    Examples:
        >>> closest_points(Convex.rect(Pose(0, 0), Footprint(2, 2)), Convex.rect(Pose(0, 6), Footprint(2, 2)))
        ((0.0, 1.0), (0.0, 5.0))
    """
    if not apart(a, b):
        return None
    found = _nearest_pairs(a, b)
    best = min(d for d, _, _ in found)
    if round(best, DIGITS) <= TOLERANCE:
        return None
    near = [(p, q) for d, p, q in found if d <= best + TOLERANCE]
    n = len(near)
    return ((sum(p[0] for p, _ in near) / n, sum(p[1] for p, _ in near) / n),
            (sum(q[0] for _, q in near) / n, sum(q[1] for _, q in near) / n))


def hull(points: Iterable[Point]) -> Convex:
    """The convex hull of the points (at least three not on one line)."""
    pts = sorted(set(points))

    def cross(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])
    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return Convex(lower[:-1] + upper[:-1])


def edge_distance(a: Pose, a_size: Footprint, b: Pose, b_size: Footprint) -> float:
    """The :func:`distance` of two footprints where they stand.

    Examples:
        >>> edge_distance(Pose(0, 0), Footprint(2, 2), Pose(0, 6), Footprint(2, 2))
        4.0
    """
    if a.facing % 90 == 0 and b.facing % 90 == 0:
        return _box_distance(_upright_box(a, a_size), _upright_box(b, b_size))
    return distance(Convex.rect(a, a_size), Convex.rect(b, b_size))


def point_distance(pose: Pose, size: Footprint, x: float, y: float) -> float:
    """From a point to a footprint (as :meth:`Convex.distance_to` measures): 0 inside it.

    Examples:
        >>> point_distance(Pose(0, 0, 90), Footprint(4, 2), 4, 0)
        3.0
    """
    return _footprint_distance(_local_frame(pose, size), x, y)


def far_apart(a: Pose, a_size: Footprint, b: Pose, b_size: Footprint, inches: float) -> bool:
    """Whether the footprints are surely more than ``inches`` apart edge to edge, seen
    without measuring them; False says nothing.

    The distance of the centres less the radii of the circles around the footprints is
    never more than the distance of their edges; when it clears ``inches`` by
    :data:`TOLERANCE` (above the rounding of :func:`distance`, half of it), the distance
    is more too.

    Examples:
        >>> far_apart(Pose(0, 0), Footprint(2, 2), Pose(0, 30), Footprint(2, 2), 10)
        True
        >>> far_apart(Pose(0, 0), Footprint(2, 2), Pose(0, 6), Footprint(2, 2), 3.5)
        False
    """
    reach = (math.hypot(a_size.width, a_size.depth) + math.hypot(b_size.width, b_size.depth)) / 2
    return math.hypot(a.x - b.x, a.y - b.y) - reach > inches + TOLERANCE
