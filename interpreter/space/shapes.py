"""Shapes laid on the table: markers and templates (pure geometry, in inches and degrees).

Every shape is a :class:`Sweep`: a disc swept along a straight segment, its radius changing
evenly from one end to the other. That one kind covers what rules lay on a table:

- a point marker (radius 0, no length) and a round template (a disc);
- a line (the same small radius along its whole length, or none: a line one point wide);
- a teardrop (a small disc at one end, a larger one at the other, and what lies between).

A point belongs to the shape when some disc of the sweep holds it: ``|p - c(t)| <= r(t)``
for some ``t`` in 0..1, where ``c`` runs from the start centre to the end centre and ``r``
from the start radius to the end radius. The distance from a convex shape (a base) to
``c(t)`` less ``r(t)`` is convex in ``t``, so its least value, found by golden-section
search, says exactly (to the float) whether the base meets the shape. A base within
:data:`~rules_run.space.convex.TOLERANCE` of a shape is under it (a shape touching a base's
edge hits it).
"""

from __future__ import annotations

import math

from rules_run import slotted
from rules_run.space.convex import TOLERANCE, Convex
from rules_run.space.geometry import Footprint, Pose, corners

__all__ = ["Sweep"]

_GOLDEN = (math.sqrt(5) - 1) / 2
_SEARCH_STEPS = 80
"""Golden-section steps: 0.618^80 of the length is far below a float's precision."""


def _least(f, lo: float = 0.0, hi: float = 1.0) -> tuple[float, float]:
    """The least value of a convex function on lo..hi and where it is (golden section)."""
    a, b = lo, hi
    c, d = b - _GOLDEN * (b - a), a + _GOLDEN * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(_SEARCH_STEPS):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - _GOLDEN * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + _GOLDEN * (b - a)
            fd = f(d)
    best = min((f(lo), lo), (fc, c), (fd, d), (f(hi), hi))
    return best[0], best[1]


@slotted.frozen
class Sweep:
    """A disc swept from ``(x1, y1)`` with radius ``r1`` to ``(x2, y2)`` with radius ``r2``.

    Examples:
        >>> ring = Sweep.disc(0, 0, 3)
        >>> ring.holds(1.5, 0), ring.holds(1.6, 0)
        (True, False)
        >>> flame = Sweep.disc(0, 0, 0.5).stretched(0, 8, 3)
        >>> flame.holds(0, 9.4), flame.holds(1.2, 6.5), flame.holds(1.2, 1)
        (True, True, False)
    """

    x1: float
    y1: float
    r1: float
    x2: float
    y2: float
    r2: float

    @classmethod
    def disc(cls, x: float, y: float, diameter: float = 0.0) -> Sweep:
        """A round marker or template of that diameter (0: a point) centred there."""
        r = float(diameter) / 2
        return cls(float(x), float(y), r, float(x), float(y), r)

    @property
    def centre(self) -> tuple[float, float]:
        """The start disc's centre: where a round template's hole is, where a line starts."""
        return self.x1, self.y1

    @property
    def length(self) -> float:
        """From the start centre to the end centre."""
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    def moved(self, heading: float, inches: float) -> Sweep:
        """The whole shape moved ``inches`` along ``heading`` (degrees; 0 is +y, 90 is +x)."""
        r = math.radians(heading)
        dx, dy = inches * math.sin(r), inches * math.cos(r)
        return Sweep(self.x1 + dx, self.y1 + dy, self.r1, self.x2 + dx, self.y2 + dy, self.r2)

    def stretched(self, heading: float, length: float, end_diameter: float | None = None
                  ) -> Sweep:
        """The start disc kept and the end disc put ``length`` along ``heading`` from its
        centre, with ``end_diameter`` (the start's when not given)."""
        r = math.radians(heading)
        r2 = self.r1 if end_diameter is None else float(end_diameter) / 2
        return Sweep(self.x1, self.y1, self.r1, self.x1 + length * math.sin(r),
                     self.y1 + length * math.cos(r), r2)

    def _at(self, t: float) -> tuple[float, float, float]:
        return (self.x1 + t * (self.x2 - self.x1), self.y1 + t * (self.y2 - self.y1),
                self.r1 + t * (self.r2 - self.r1))

    def _gap(self, distance) -> tuple[float, float]:
        """The least of ``distance(x, y) - r`` over the sweep's discs, and where (t)."""
        def f(t: float) -> float:
            x, y, r = self._at(t)
            return distance(x, y) - r
        if self.x1 == self.x2 and self.y1 == self.y2:
            return min((f(0.0), 0.0), (f(1.0), 1.0))
        return _least(f)

    def holds(self, x: float, y: float) -> bool:
        """The point lies on the shape (its outline included)."""
        return self._gap(lambda cx, cy: math.hypot(x - cx, y - cy))[0] <= TOLERANCE

    def meets(self, pose: Pose, size: Footprint) -> bool:
        """Some part of the rectangle (a model's base) lies under the shape."""
        base = Convex.rect(pose, size)
        return self._gap(lambda cx, cy: base.distance_to((cx, cy)))[0] <= TOLERANCE

    def holds_all(self, pose: Pose, size: Footprint) -> bool:
        """The whole rectangle lies under the shape (a convex shape holds it when it holds
        its four corners)."""
        return all(self.holds(x, y) for x, y in corners(pose, size))

    def along(self, x: float, y: float) -> float:
        """How far along the shape, from its start, the point lies (its projection on the
        segment; from a disc, its distance to the centre): for ordering what a line crosses."""
        length = self.length
        if length == 0:
            return math.hypot(x - self.x1, y - self.y1)
        return ((x - self.x1) * (self.x2 - self.x1) + (y - self.y1) * (self.y2 - self.y1)) / length
