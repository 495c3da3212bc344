"""Straight lines between convex shapes past an obstacle (pure geometry): "behind".

Shapes are convex polygons (unit footprints, model bases and terrain pieces are rectangles).
The question answered here: can a straight line be drawn from a point of shape ``a`` to a
point of shape ``b`` without passing across the obstacle ``piece``, where the parts of the
piece within ``ignore`` inches of ``a`` do not count?

A line *passes across* the piece when a stretch of it of positive length lies inside the
piece: a line touching a corner or running along an edge does not (to within
:data:`EPSILON`). Two facts make the answer exact:

- Along a segment starting at a point of ``a``, the points within ``ignore`` of ``a`` form a
  prefix of the segment (the distance to a convex shape is convex along a line and 0 at the
  start). So the segment is clear when its stretch inside the piece ends before that prefix
  does (or it has none).
- The lines that are clear form a region of the plane of lines whose edges are pencils of
  lines through finitely many points: the corners of ``a``, ``b`` and the piece, and the
  points where the piece's outline meets the outlines of ``a``, ``b`` and of the band
  within ``ignore`` of ``a``. A non-empty such region has a corner, a line through two of
  those points; so trying the lines through every two of them decides the question.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = ["Convex", "EPSILON", "apart", "behind", "clear_line", "closest_points", "gap",
           "hull", "overlap", "segment_clear", "until_clear"]

Point = tuple[float, float]

EPSILON = 1e-7
"""Inches: a line that enters the piece by less than this does not pass across it, and a
line that comes this near a shape meets it."""


class Convex:
    """A convex polygon: its corners (in order, either way round), its edges as half-planes
    with unit outward normals, and its bounding box."""

    __slots__ = ("corners", "planes", "box")

    def __init__(self, corners: Sequence[Point]) -> None:
        self.corners: list[Point] = [(float(x), float(y)) for x, y in corners]
        n = len(self.corners)
        cx = sum(x for x, _ in self.corners) / n
        cy = sum(y for _, y in self.corners) / n
        planes = []
        for i in range(n):
            (ax, ay), (bx, by) = self.corners[i], self.corners[(i + 1) % n]
            nx, ny = by - ay, ax - bx
            length = math.hypot(nx, ny)
            if length < 1e-12:
                continue
            nx, ny = nx / length, ny / length
            if nx * (cx - ax) + ny * (cy - ay) > 0:
                nx, ny = -nx, -ny
            planes.append((nx, ny, nx * ax + ny * ay))
        self.planes: list[tuple[float, float, float]] = planes
        """Inside is ``nx * x + ny * y <= c`` for each ``(nx, ny, c)``."""
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        self.box = (min(xs), min(ys), max(xs), max(ys))

    def edges(self) -> list[tuple[Point, Point]]:
        n = len(self.corners)
        return [(self.corners[i], self.corners[(i + 1) % n]) for i in range(n)]

    def holds(self, p: Point, grow: float = EPSILON) -> bool:
        return all(nx * p[0] + ny * p[1] <= c + grow for nx, ny, c in self.planes)


def _interval(p: Point, v: Point, planes: Iterable[tuple[float, float, float]], grow: float,
              lo: float = -math.inf, hi: float = math.inf) -> tuple[float, float] | None:
    """The parameters t (within lo..hi) of the points p + t·v inside the polygon grown by
    ``grow`` inches (shrunk when negative), or None."""
    px, py = p
    vx, vy = v
    for nx, ny, c in planes:
        den = nx * vx + ny * vy
        num = c + grow - (nx * px + ny * py)
        if abs(den) < 1e-15:
            if num < 0:
                return None
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


def _point_segment(p: Point, a: Point, b: Point) -> tuple[float, Point]:
    """The distance from p to the segment a-b, and the nearest point of the segment."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                              / length2))
    q = (a[0] + t * dx, a[1] + t * dy)
    return math.hypot(p[0] - q[0], p[1] - q[1]), q


def _distance_to(p: Point, shape: Convex) -> float:
    """From a point to a convex shape: 0 inside it."""
    if shape.holds(p, 0.0):
        return 0.0
    return min(_point_segment(p, a, b)[0] for a, b in shape.edges())


def _segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> list[Point]:
    """Where two segments meet: their crossing point, or the ends of their common stretch
    when they lie on one line."""
    rx, ry = p2[0] - p1[0], p2[1] - p1[1]
    sx, sy = q2[0] - q1[0], q2[1] - q1[1]
    den = rx * sy - ry * sx
    wx, wy = q1[0] - p1[0], q1[1] - p1[1]
    if abs(den) < 1e-12:
        if abs(wx * ry - wy * rx) > 1e-9 * max(1.0, math.hypot(rx, ry)):
            return []   # parallel, apart
        out = []
        for a, (b1, b2) in ((q1, (p1, p2)), (q2, (p1, p2)), (p1, (q1, q2)), (p2, (q1, q2))):
            if _point_segment(a, b1, b2)[0] < 1e-9:
                out.append(a)
        return out
    t = (wx * sy - wy * sx) / den
    u = (wx * ry - wy * rx) / den
    if -1e-9 <= t <= 1 + 1e-9 and -1e-9 <= u <= 1 + 1e-9:
        return [(p1[0] + t * rx, p1[1] + t * ry)]
    return []


def _segment_circle(p1: Point, p2: Point, c: Point, r: float) -> list[Point]:
    dx, dy = p2[0] - p1[0], p2[1] - p1[1]
    wx, wy = p1[0] - c[0], p1[1] - c[1]
    a = dx * dx + dy * dy
    b = wx * dx + wy * dy
    disc = b * b - a * (wx * wx + wy * wy - r * r)
    if a == 0 or disc < 0:
        return []
    root = math.sqrt(disc)
    return [(p1[0] + t * dx, p1[1] + t * dy) for t in ((-b - root) / a, (-b + root) / a)
            if -1e-9 <= t <= 1 + 1e-9]


def gap(a: Convex, b: Convex) -> float:
    """The distance between two convex shapes (0 when they touch or overlap)."""
    if any(b.holds(p, 0.0) for p in a.corners) or any(a.holds(p, 0.0) for p in b.corners):
        return 0.0
    for p1, p2 in a.edges():
        for q1, q2 in b.edges():
            if _segments_cross(p1, p2, q1, q2):
                return 0.0
    return min(min(_point_segment(p, q1, q2)[0] for p in a.corners for q1, q2 in b.edges()),
               min(_point_segment(q, p1, p2)[0] for q in b.corners for p1, p2 in a.edges()))


def closest_points(a: Convex, b: Convex) -> tuple[Point, Point] | None:
    """The closest point of ``a`` to ``b`` and of ``b`` to ``a``; None when they touch or
    overlap. Where the closest points are not single (facing edges side by side), the middle
    of each closest stretch."""
    if not apart(a, b):
        return None
    found: list[tuple[float, Point, Point]] = []
    edges_a, edges_b = a.edges(), b.edges()
    for p in a.corners:
        for q1, q2 in edges_b:
            d, q = _point_segment(p, q1, q2)
            found.append((d, p, q))
    for q in b.corners:
        for p1, p2 in edges_a:
            d, p = _point_segment(q, p1, p2)
            found.append((d, p, q))
    best = min(d for d, _, _ in found)
    if best <= 1e-9:
        return None
    near = [(p, q) for d, p, q in found if d <= best + 1e-9]
    n = len(near)
    return ((sum(p[0] for p, _ in near) / n, sum(p[1] for p, _ in near) / n),
            (sum(q[0] for _, q in near) / n, sum(q[1] for _, q in near) / n))


def apart(a: Convex, b: Convex, margin: float = 1e-12) -> bool:
    """Whether a straight line separates the two shapes (they may touch along it, or cross
    it by up to ``margin`` inches).

    Examples:
        >>> apart(Convex([(0, 0), (1, 0), (1, 1), (0, 1)]), Convex([(1, 0), (2, 0), (2, 1), (1, 1)]))
        True
        >>> apart(Convex([(0, 0), (2, 0), (2, 2), (0, 2)]), Convex([(1, 1), (3, 1), (3, 3), (1, 3)]))
        False
    """
    for one, other in ((a, b), (b, a)):
        for nx, ny, c in one.planes:
            if min(nx * x + ny * y for x, y in other.corners) >= c - margin:
                return True
    return False


def overlap(a: Convex, b: Convex) -> bool:
    """Whether the two shapes share more than their outlines: shapes that only touch along an
    edge or at a corner (to within :data:`EPSILON`) do not overlap.

    Examples:
        >>> overlap(Convex([(0, 0), (2, 0), (2, 2), (0, 2)]), Convex([(1, 1), (3, 1), (3, 3), (1, 3)]))
        True
        >>> overlap(Convex([(0, 0), (1, 0), (1, 1), (0, 1)]), Convex([(1, 0), (2, 0), (2, 1), (1, 1)]))
        False
    """
    box, other = a.box, b.box
    if (box[0] >= other[2] - EPSILON or box[2] <= other[0] + EPSILON
            or box[1] >= other[3] - EPSILON or box[3] <= other[1] + EPSILON):
        return False
    return not apart(a, b, EPSILON)


def until_clear(a: Convex, b: Convex, v: Point, reach: float) -> float:
    """How far ``a`` moved along the unit vector ``v`` must go before it is ``reach`` inches
    or more from ``b`` for good: the largest t at which ``a`` moved by t·v is within reach of
    ``b`` (grown by :data:`EPSILON`), or a negative number when it never is ahead.

    The distance of ``a`` moved by t·v from ``b`` is convex in t (the distance from t·v to
    the shape ``b`` less ``a``), so the t within reach are one interval, and past its end the
    shapes stay apart. Two polygons' nearest points include a corner of one of them: the
    interval's end is the last t at which a corner of ``a`` moved is within reach of ``b``,
    or a corner of ``b`` moved back by t·v is within reach of ``a``.

    Examples:
        >>> square = Convex([(0, 0), (2, 0), (2, 2), (0, 2)])
        >>> round(until_clear(square, Convex([(0, 3), (2, 3), (2, 5), (0, 5)]), (0, 1), 1), 6)
        6.0
        >>> until_clear(square, Convex([(0, -5), (2, -5), (2, -3), (0, -3)]), (0, 1), 1) < 0
        True
    """
    back = (-v[0], -v[1])
    around_b, around_a = _Band(b, reach), _Band(a, reach)
    return max(max(around_b.end(p, v) for p in a.corners),
               max(around_a.end(q, back) for q in b.corners))


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


class _Band:
    """The points within ``reach`` of a convex shape: the shape, a strip along each edge and
    a disc at each corner (their union is convex)."""

    __slots__ = ("shape", "reach", "strips", "edges")

    def __init__(self, shape: Convex, reach: float) -> None:
        self.shape = shape
        self.reach = reach
        strips = []
        edges = []
        for (a, b), (nx, ny, c) in zip(_edges_by_plane(shape), shape.planes):
            a2 = (a[0] + nx * reach, a[1] + ny * reach)
            b2 = (b[0] + nx * reach, b[1] + ny * reach)
            # between the edge and its copy pushed out by reach, and across its two ends
            ex, ey = b[0] - a[0], b[1] - a[1]
            length = math.hypot(ex, ey)
            ex, ey = ex / length, ey / length
            strips.append([(nx, ny, c + reach), (-nx, -ny, -c), (ex, ey, ex * b[0] + ey * b[1]),
                           (-ex, -ey, -(ex * a[0] + ey * a[1]))])
            edges.append((a2, b2))
        self.strips = strips
        self.edges = edges
        """The straight parts of the band's outline."""

    def end(self, p: Point, v: Point) -> float:
        """The largest t with p + t·v within reach of the shape (the line meets the shape)."""
        best = -math.inf
        found = _interval(p, v, self.shape.planes, EPSILON)
        if found is not None:
            best = found[1]
        for planes in self.strips:
            found = _interval(p, v, planes, EPSILON)
            if found is not None and found[1] > best:
                best = found[1]
        vv = v[0] * v[0] + v[1] * v[1]
        r = self.reach + EPSILON
        for cx, cy in self.shape.corners:
            wx, wy = p[0] - cx, p[1] - cy
            b = wx * v[0] + wy * v[1]
            disc = b * b - vv * (wx * wx + wy * wy - r * r)
            if disc >= 0:
                t = (-b + math.sqrt(disc)) / vv
                if t > best:
                    best = t
        return best

    def outline_meets(self, piece: Convex) -> list[Point]:
        """Where the band's outline meets the piece's outline (and the band's straight
        parts' ends inside the piece)."""
        out: list[Point] = []
        for p1, p2 in piece.edges():
            for q1, q2 in self.edges:
                out.extend(_segments_cross(p1, p2, q1, q2))
            for c in self.shape.corners:
                out.extend(q for q in _segment_circle(p1, p2, c, self.reach)
                           if abs(_distance_to(q, self.shape) - self.reach) < 1e-6)
        for q1, q2 in self.edges:
            out.extend(q for q in (q1, q2) if piece.holds(q))
        return out


def _edges_by_plane(shape: Convex) -> list[tuple[Point, Point]]:
    """The edges of non-zero length, in the order of the shape's planes."""
    return [(a, b) for a, b in shape.edges() if math.hypot(b[0] - a[0], b[1] - a[1]) >= 1e-12]


def _boxes_meet(box: tuple[float, float, float, float], other: tuple[float, float, float, float],
                margin: float = 0.0) -> bool:
    return not (box[0] > other[2] + margin or box[2] < other[0] - margin
                or box[1] > other[3] + margin or box[3] < other[1] - margin)


def _line_clear(p: Point, v: Point, a: Convex, b: Convex, piece: Convex,
                band: _Band | None) -> bool:
    """Whether, on the line through p along v, the stretch from ``a`` to ``b`` avoids the
    piece (beyond the band around ``a``). False when the line misses ``a`` or ``b``."""
    return _lines_clear(p, v, a, b, (piece,), band)


def _stretch_clear(p: Point, v: Point, t0: float, t1: float, pieces: Iterable[Convex],
                   band: _Band | None) -> bool:
    """Whether the stretch t0..t1 of the line p + t·v (v of unit length) passes across none
    of the pieces (beyond the band, if any)."""
    end = None
    for piece in pieces:
        ip = _interval(p, v, piece.planes, -EPSILON, t0, t1)
        if ip is None or ip[1] - ip[0] <= EPSILON:
            continue
        if band is None:
            return False
        if end is None:
            end = band.end(p, v)
        if ip[1] > end + EPSILON:
            return False
    return True


def behind(a: Convex, b: Convex, piece: Convex, ignore: float = 0.0) -> bool:
    """True when every straight line from a point of ``a`` to a point of ``b`` passes
    across ``piece``, the parts of the piece within ``ignore`` inches of ``a`` aside.

    Examples:
        >>> wall = Convex([(-5, 4), (5, 4), (5, 6), (-5, 6)])
        >>> behind(Convex([(-1, 0), (1, 0), (1, 1), (-1, 1)]),
        ...        Convex([(-1, 9), (1, 9), (1, 10), (-1, 10)]), wall)
        True
        >>> behind(Convex([(-1, 0), (1, 0), (1, 1), (-1, 1)]),
        ...        Convex([(10, 9), (12, 9), (12, 10), (10, 10)]), wall)
        False
    """
    box = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]),
           max(a.box[2], b.box[2]), max(a.box[3], b.box[3]))
    if not _boxes_meet(box, piece.box) or apart(hull(a.corners + b.corners), piece):
        return False   # every line from a to b runs inside their hull, which misses the piece
    if gap(a, b) <= ignore + EPSILON:
        return False   # every line from a to b runs within the ignored distance of a
    band = None
    points = a.corners + b.corners + piece.corners
    if ignore > 0 and _boxes_meet(piece.box, a.box, ignore):
        if all(_distance_to(c, a) <= ignore for c in piece.corners):
            return False   # the whole piece is ignored
        band = _Band(a, ignore)
        points += band.outline_meets(piece)
    return not _key_line_clear(a, b, [piece], points, band)


def _key_line_clear(a: Convex, b: Convex, pieces: Sequence[Convex], points: list[Point],
                    band: _Band | None) -> bool:
    """Whether some straight line from a point of ``a`` to a point of ``b`` passes across none
    of the pieces (beyond the band), trying the lines through every two key points: the
    ``points`` given (the corners of ``a``, ``b`` and the pieces first, in that order, and
    where the band's outline meets the pieces'), and where each piece's outline meets the
    outlines of ``a`` and ``b``.

    The clear lines for one piece form a region of the plane of lines whose edges are pencils
    through that piece's key points; the lines clear of every piece are the intersection of
    those regions, whose edges are among the same pencils, so a non-empty one still has a
    corner through two key points (of one piece or of two)."""
    for piece in pieces:
        for shape in (a, b):
            for p1, p2 in piece.edges():
                for q1, q2 in shape.edges():
                    points += _segments_cross(p1, p2, q1, q2)
    # corner of a to corner of b first: the likeliest clear lines
    na, nb = len(a.corners), len(b.corners)
    pairs = [(i, na + j) for i in range(na) for j in range(nb)]
    pairs += [(i, j) for i in range(len(points)) for j in range(i + 1, len(points))
              if not (i < na and na <= j < na + nb)]
    for i, j in pairs:
        p, q = points[i], points[j]
        v = (q[0] - p[0], q[1] - p[1])
        if abs(v[0]) + abs(v[1]) < 1e-9:
            continue
        if _lines_clear(p, v, a, b, pieces, band):
            return True
    return False


def _lines_clear(p: Point, v: Point, a: Convex, b: Convex, pieces: Sequence[Convex],
                 band: _Band | None) -> bool:
    """:func:`_line_clear` for several pieces: the stretch from ``a`` to ``b`` passes across
    none of them."""
    length = math.hypot(v[0], v[1])
    v = (v[0] / length, v[1] / length)
    ia = _interval(p, v, a.planes, EPSILON)
    if ia is None:
        return False
    ib = _interval(p, v, b.planes, EPSILON)
    if ib is None:
        return False
    if ib[1] <= ia[0]:
        v = (-v[0], -v[1])
        ia, ib = (-ia[1], -ia[0]), (-ib[1], -ib[0])
    elif ia[1] > ib[0]:
        return True   # the line meets a and b at a common point
    return _stretch_clear(p, v, ia[1], ib[0], pieces, band)


def segment_clear(p: Point, q: Point, piece: Convex, band: _Band | None) -> bool:
    """Whether the segment p→q avoids the piece beyond the band (p is within the band's
    shape or reach)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1])
    if length < 1e-9:
        return True
    v = ((q[0] - p[0]) / length, (q[1] - p[1]) / length)
    ip = _interval(p, v, piece.planes, -EPSILON, 0.0, length)
    if ip is None or ip[1] - ip[0] <= EPSILON:
        return True
    return band is not None and ip[1] <= band.end(p, v) + EPSILON


def band(shape: Convex, reach: float) -> _Band | None:
    """The points within ``reach`` of the shape, for :func:`segment_clear` (None for 0)."""
    return _Band(shape, reach) if reach > 0 else None


def clear_line(a: Convex, b: Convex, obstacles: Iterable[Convex]) -> bool:
    """True when some straight line from a point of ``a`` to a point of ``b`` passes across
    none of the obstacles (a line touching a corner or running along an edge does not pass
    across). Shapes that touch or overlap always have one. Obstacles the hull of ``a`` and
    ``b`` misses are set aside; the rest are decided as :func:`behind` decides one.

    Examples:
        >>> a = Convex([(-1, 0), (1, 0), (1, 1), (-1, 1)])
        >>> b = Convex([(-1, 9), (1, 9), (1, 10), (-1, 10)])
        >>> left = Convex([(-5, 4), (0.5, 4), (0.5, 5), (-5, 5)])
        >>> right = Convex([(-0.5, 6), (5, 6), (5, 7), (-0.5, 7)])
        >>> clear_line(a, b, [left]), clear_line(a, b, [right]), clear_line(a, b, [left, right])
        (True, True, False)
    """
    box = (min(a.box[0], b.box[0]), min(a.box[1], b.box[1]),
           max(a.box[2], b.box[2]), max(a.box[3], b.box[3]))
    candidates = [o for o in obstacles if _boxes_meet(box, o.box)]
    if not candidates:
        return True
    around = hull(a.corners + b.corners)
    pieces = [o for o in candidates if not apart(around, o)]
    if not pieces:
        return True   # every line from a to b runs inside their hull, which misses them
    points = a.corners + b.corners
    for piece in pieces:
        points = points + piece.corners
    # shapes that touch or overlap have a line through a point they share (asked last: the
    # key lines usually find a clear one first)
    return _key_line_clear(a, b, pieces, points, None) or gap(a, b) <= EPSILON
