"""Range, line of sight and cover: generic builtins for shooting and visibility.

A mixin of :class:`rules_run.engine.state.BattleState`: each ``_b_<name>`` method is the
builtin ``<name>`` of the rules language (signatures in :mod:`rules_run.lang.builtins`).

The battlefield's terrain pieces are rectangles from the battle file, each carrying its
``effects`` as rules (bound through the ruleset, so ``piece has "..."`` and
``param(piece, "...")`` read them). Nothing here knows what an effect does: the builtins only
say where things stand. Which pieces or units hide a target, and how much that matters, is
for the ruleset to decide.
"""

from __future__ import annotations

import math
import operator
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import BattleError, DiagnosticBag
from rules_run.engine.entities import Bearer, placed
from rules_run.space import Footprint, Pose, arc_of, axes, corners, edge_distance, far_apart
from rules_run.space import (Convex, apart, band, behind, clear_line, closest_points, hull,
                             overlap, segment_clear)

if TYPE_CHECKING:
    from rules_run.engine.entities import Unit
    from rules_run.engine.setup import Battle
    from rules_run.lang.compiler import Runtime

__all__ = ["SightMixin", "TerrainPiece", "clip_segment", "grid_points"]

_POINT = Footprint(0.0, 0.0)
"""The size of a point."""
_GRID_MAX = 5
"""At most this many sample points across (and deep) a footprint."""


class TerrainPiece(Bearer):
    """A piece of terrain: an axis-aligned rectangle carrying its effects as rules."""

    kind = "terrain"

    def __init__(self, id: str, name: str, type: str, pose: Pose, size: Footprint,
                 rules: list) -> None:
        super().__init__(rules)
        self.id = id
        self.name = name
        self.type = type
        """What the battle file calls it (``forest``, ``hill``, ...)."""
        self.pose = pose
        self.size = size
        self.side = None
        self.models = None
        self.on_table = True
        self.shape: Convex | None = None
        """Its rectangle as a shape for the lines of sight (made on first use)."""

    def __repr__(self) -> str:
        return f"TerrainPiece({self.id!r})"


# ---------------------------------------------------------------- pure geometry


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


def _front_centre(pose: Pose, size: Footprint) -> tuple[float, float]:
    (fx, fy), _ = axes(pose.facing)
    return (pose.x + fx * size.depth / 2, pose.y + fy * size.depth / 2)


def _edge_points(pose: Pose, size: Footprint) -> list[tuple[float, float]]:
    """Corners, edge midpoints and centre of a footprint."""
    c = corners(pose, size)
    mids = [((c[i][0] + c[(i + 1) % 4][0]) / 2, (c[i][1] + c[(i + 1) % 4][1]) / 2)
            for i in range(4)]
    return c + mids + [(pose.x, pose.y)]


def _inside(point: tuple[float, float], planes: list[tuple[float, float, float, float]]
            ) -> bool:
    return _clip(point, point, planes) is not None


# ---------------------------------------------------------------- the builtins


class SightMixin:
    """What a unit can see and shoot at across the battlefield's terrain."""

    # What this mixin uses of the BattleState it is part of:
    runtime: Runtime
    battle: Battle
    units: list[Unit]
    terrain: list[dict[str, Any]]
    _outlines: dict[Any, tuple[Pose, Footprint, tuple[list[tuple[float, float, float, float]],
                                                      tuple[float, float, float, float]]]]
    _terrain_under: dict[Unit, tuple[Pose, Footprint, list[TerrainPiece]]]
    _in_range: dict[tuple[Unit, Any, float], tuple[Pose, Footprint, Pose, Footprint, bool]]
    _between: dict[tuple[Unit, Any], tuple[Pose, Footprint, Pose, Footprint, list[Any],
                                           list[Any]]]
    _terrain_pieces: list[TerrainPiece] | None
    _behind: dict[tuple[Any, ...], tuple[Pose, Footprint, Pose, Footprint, Any]]

    if TYPE_CHECKING:
        def footprint(self, unit: Unit) -> Footprint: ...
        def alive(self, unit: Unit) -> bool: ...
        def model_bases(self, unit: Any) -> list[tuple[Pose, Footprint]]: ...
        def _gap(self, a: Unit, b: Unit) -> float: ...

    def _pieces(self) -> list[TerrainPiece]:
        """The battle file's terrain as pieces (built once, effects bound as rules)."""
        if self._terrain_pieces is not None:
            return self._terrain_pieces
        from rules_run.lang.rule_refs import RuleRefError

        bag = DiagnosticBag()
        doc = self.battle.doc
        bag.remember_source(doc.path, doc.text)
        pieces = []
        for i, spec in enumerate(self.terrain):
            rules = []
            for j, text in enumerate(spec.get("effects") or []):
                try:
                    rules.append(self.runtime.bind_rule(text))
                except (KeyError, RuleRefError):
                    bag.add(f"terrain {spec['id']!r}: the ruleset has no rule {text!r} for "
                            "this effect", doc.span(("battlefield", "terrain", i, "effects", j)),
                            code="unknown-rule")
            at, size = spec["at"], spec["size"]
            pieces.append(TerrainPiece(spec["id"], spec.get("name") or spec["id"],
                                       spec["kind"], Pose(float(at["x"]), float(at["y"]), 0.0),
                                       Footprint(float(size["w"]), float(size["h"])), rules))
        bag.raise_if_errors(BattleError)
        self._terrain_pieces = pieces
        return pieces

    def _outline(self, thing: Any) -> list[tuple[float, float, float, float]]:
        """A unit's or piece's rectangle as half-planes, kept until it moves or changes size."""
        return self._shape(thing)[0]

    def _shape(self, thing: Any) -> tuple[list[tuple[float, float, float, float]],
                                          tuple[float, float, float, float]]:
        """Its outline's half-planes and its bounding box (x0, y0, x1, y1), kept until it
        moves or changes size."""
        pose, size = thing.pose, self._size_of(thing)
        kept = self._outlines.get(thing)
        if kept is not None and kept[0] is pose and kept[1] is size:
            return kept[2]
        points = corners(pose, size)
        xs, ys = [x for x, _ in points], [y for _, y in points]
        shape = (_half_planes(points), (min(xs), min(ys), max(xs), max(ys)))
        self._outlines[thing] = (pose, size, shape)
        return shape

    def _b_terrain(self, env, span):
        return list(self._pieces())

    def _b_terrain_at(self, env, span, unit):
        pieces = self._pieces()
        if not pieces:
            return []
        # kept until the unit moves or changes size (its footprint stands for its models and
        # files too: the same footprint comes back only while they are the same)
        size = self.footprint(unit)
        kept = self._terrain_under.get(unit)
        if kept is not None and kept[0] is unit.pose and kept[1] is size:
            return list(kept[2])
        files = max(1, min(unit.files, unit.models or 1))
        ranks = max(1, math.ceil((unit.models or 1) / files))
        points = grid_points(unit.pose, size, files, ranks)
        out = []
        for piece in pieces:
            planes = self._outline(piece)
            inside = sum(1 for p in points if _inside(p, planes))
            if inside * 2 > len(points):
                out.append(piece)
        self._terrain_under[unit] = (unit.pose, size, out)
        return list(out)

    def _b_terrain_touching(self, env, span, unit):
        """The terrain pieces some part of the unit's footprint lies in (not only touching
        their outline)."""
        if unit.pose is None or not unit.on_table:
            return []
        shape = self._unit_shape(unit)
        return [piece for piece in self._pieces() if overlap(shape, self._piece_shape(piece))]

    def _b_in_arc(self, env, span, a, b):
        size_a = self.footprint(a)
        return any(arc_of(a.pose, size_a, x, y) == "front"
                   for x, y in _edge_points(b.pose, self._size_of(b)))

    def _size_of(self, thing: Any) -> Footprint:
        return thing.size if isinstance(thing, TerrainPiece) else self.footprint(thing)

    def _b_in_range(self, env, span, a, b, inches):
        size_a, size_b = self.footprint(a), self._size_of(b)
        if b in a.engaged:
            return True
        reach = float(inches)
        kept = self._in_range.get((a, b, reach))
        if (kept is not None and kept[0] is a.pose and kept[1] is size_a and kept[2] is b.pose
                and kept[3] is size_b):
            return kept[4]
        found = self._reaches(env, span, a, size_a, b, size_b, reach)
        self._in_range[(a, b, reach)] = (a.pose, size_a, b.pose, size_b, found)
        return found

    def _reaches(self, env: Any, span: Any, a: Unit, size_a: Footprint, b: Any,
                 size_b: Footprint, reach: float) -> bool:
        """Whether ``b`` is within ``reach`` of ``a``'s front arc (engagement aside)."""
        pose = placed(a)
        for x, y in _edge_points(b.pose, size_b):
            if arc_of(pose, size_a, x, y) != "front":
                continue
            point = Pose(x, y)
            if (not far_apart(pose, size_a, point, _POINT, reach)
                    and edge_distance(pose, size_a, point, _POINT) <= reach):
                return True
        # the whole of a's front may face part of b without a sample point in the arc
        return (not far_apart(pose, size_a, b.pose, size_b, reach)
                and edge_distance(pose, size_a, b.pose, size_b) <= reach
                and self._b_in_arc(env, span, a, b))

    def _sight_lines(self, a, b) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        origin = _front_centre(a.pose, self.footprint(a))
        size = self._size_of(b)
        if isinstance(b, TerrainPiece):
            targets = grid_points(b.pose, size, 3, 3)
        else:
            files = max(1, min(b.files, b.models or 1))
            ranks = max(1, math.ceil((b.models or 1) / files))
            targets = grid_points(b.pose, size, files, ranks)
        return [(origin, t) for t in targets]

    def _b_between(self, env, span, a, b):
        things: list[Any] = [u for u in self.units
                             if u is not a and u is not b and self.alive(u)]
        things.extend(self._pieces())
        shapes = [self._shape(thing) for thing in things]
        size_a, size_b = self.footprint(a), self._size_of(b)
        # kept until a or b moves or changes size, or anything else moves, changes size,
        # falls or arrives: an outline is made for one thing where it stands, so the same
        # outlines are the same things in the same places
        kept = self._between.get((a, b))
        if (kept is not None and kept[0] is a.pose and kept[1] is size_a and kept[2] is b.pose
                and kept[3] is size_b and len(kept[4]) == len(shapes)
                and all(map(operator.is_, kept[4], shapes))):
            return list(kept[5])
        out = self._hiding(self._sight_lines(a, b), things, shapes)
        self._between[(a, b)] = (a.pose, size_a, b.pose, size_b, shapes, out)
        return list(out)

    @staticmethod
    def _hiding(lines: list[tuple[tuple[float, float], tuple[float, float]]], things: list[Any],
                shapes: list[tuple[list[tuple[float, float, float, float]],
                                   tuple[float, float, float, float]]]) -> list[Any]:
        """The things (with their outlines) that cut the majority of the lines of sight.

        A thing is tested against a line only when their bounding boxes meet (within
        :data:`_MARGIN`), and no further than it takes to know the majority's verdict.
        """
        boxes = [(p, q, min(p[0], q[0]) - _MARGIN, min(p[1], q[1]) - _MARGIN,
                  max(p[0], q[0]) + _MARGIN, max(p[1], q[1]) + _MARGIN) for p, q in lines]
        x0, y0 = min(box[2] for box in boxes), min(box[3] for box in boxes)
        x1, y1 = max(box[4] for box in boxes), max(box[5] for box in boxes)
        n = len(lines)
        out = []
        for thing, (planes, (bx0, by0, bx1, by1)) in zip(things, shapes):
            if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
                continue   # nowhere near the lines of sight
            crossed = missed = 0
            for p, q, lx0, ly0, lx1, ly1 in boxes:
                if not (bx0 > lx1 or bx1 < lx0 or by0 > ly1 or by1 < ly0):
                    cut = _clip(p, q, planes)
                    if cut is not None and cut[1] - cut[0] > 1e-9:
                        crossed += 1
                        if crossed * 2 > n:
                            out.append(thing)
                            break
                        continue
                missed += 1
                if missed * 2 >= n:
                    break   # the rest cannot make a majority
        return out

    def _b_line_through(self, env, span, a, b, piece):
        p = _front_centre(a.pose, self.footprint(a))
        q = (b.pose.x, b.pose.y)
        cut = _clip(p, q, self._outline(piece))
        if cut is None:
            return 0.0
        return round((cut[1] - cut[0]) * math.hypot(q[0] - p[0], q[1] - p[1]), 6)

    # ------------------------------------------------------------ behind a piece
    def _pieces_named(self, what: Any, span: Any) -> list[TerrainPiece]:
        """A piece, a piece's id, or a list of them, as pieces."""
        items = what if isinstance(what, (list, tuple)) else [what]
        out = []
        for item in items:
            if isinstance(item, TerrainPiece):
                out.append(item)
                continue
            found = next((p for p in self._pieces() if p.id == item), None)
            if found is None:
                known = ", ".join(p.id for p in self._pieces()) or "none in this battle"
                raise BattleError([DiagnosticBag().add(
                    f"no terrain piece {item!r} (pieces: {known})", span,
                    code="unknown-place")])
            out.append(found)
        return out

    def _kept_behind(self, key: tuple[Any, ...], a: Unit, b: Unit, work: Any) -> Any:
        """``work()``'s answer for a and b where they stand, kept until a or b moves or
        changes size (the pieces never move)."""
        size_a, size_b = self.footprint(a), self.footprint(b)
        kept = self._behind.get(key)
        if (kept is not None and kept[0] is a.pose and kept[1] is size_a and kept[2] is b.pose
                and kept[3] is size_b):
            return kept[4]
        answer = work()
        self._behind[key] = (placed(a), size_a, placed(b), size_b, answer)
        return answer

    def _unit_shape(self, unit: Unit) -> Convex:
        """Its footprint as a shape, kept until it moves or changes size."""
        return self._kept_behind(("shape", unit), unit, unit, lambda: Convex(
            corners(placed(unit), self.footprint(unit))))

    @staticmethod
    def _piece_shape(piece: TerrainPiece) -> Convex:
        """A piece's rectangle as a shape (pieces never move)."""
        if piece.shape is None:
            piece.shape = Convex(corners(piece.pose, piece.size))
        return piece.shape

    def _base_shapes(self, unit: Unit) -> list[Convex]:
        """Its models' bases as shapes, kept until it moves or changes size."""
        return self._kept_behind(("bases", unit), unit, unit, lambda: [
            Convex(corners(pose, size)) for pose, size in self.model_bases(unit)])

    def _b_behind(self, env, span, a, b, pieces, ignore_within=0):
        found = self._pieces_named(pieces, span)
        if a.pose is None or b.pose is None or not found:
            return False
        reach = max(0.0, float(ignore_within))

        def work() -> bool:
            if self._gap(a, b) <= reach:
                return False   # every line from a to b runs within the ignored distance of a
            shape_a, shape_b = self._unit_shape(a), self._unit_shape(b)
            return any(behind(shape_a, shape_b, self._piece_shape(p), reach) for p in found)
        return self._kept_behind(("behind", a, b, tuple(p.id for p in found), reach), a, b,
                                 work)

    def _b_models_behind(self, env, span, a, b, pieces, ignore_within=0, from_unit=False):
        found = self._pieces_named(pieces, span)
        if a.pose is None or b.pose is None or not found:
            return 0
        reach = max(0.0, float(ignore_within))
        whole = bool(from_unit)

        def work() -> int:
            if whole and self._gap(a, b) <= reach:
                return 0   # every line from a to b runs within the ignored distance of a
            shape_a, shape_b = self._unit_shape(a), self._unit_shape(b)
            # a piece the hull of the two units misses is crossed by no line between them
            around = hull(shape_a.corners + shape_b.corners)
            shapes = [s for s in (self._piece_shape(p) for p in found) if not apart(around, s)]
            if not shapes:
                return 0
            mine, theirs = self._base_shapes(a), self._base_shapes(b)
            unit_band = band(shape_a, reach) if whole else None
            count = 0
            for base in mine:
                ignored = unit_band if whole else None
                # the pieces that every line drawn so far from this model passes across
                hiding = shapes
                for other in theirs:
                    line = closest_points(base, other)
                    if line is None:
                        hiding = []   # in base contact with the target: nothing between
                        break
                    p, q = line
                    still = []
                    for shape in hiding:
                        if segment_clear(p, q, shape, None):
                            continue
                        if reach > 0 and ignored is None:
                            ignored = band(base, reach)
                        if not segment_clear(p, q, shape, ignored):
                            still.append(shape)
                    hiding = still
                    if not hiding:
                        break
                if hiding:
                    count += 1
            return count
        return self._kept_behind(("models", a, b, tuple(p.id for p in found), reach, whole),
                                 a, b, work)

    # ------------------------------------------------------------ visible
    def _b_visible(self, env, span, a, b, pieces=None, units=True):
        if a is b:
            return True   # a unit always sees itself
        if a.pose is None or b.pose is None:
            return False
        if b in a.engaged:
            return True   # in base contact: nothing between them
        found = self._pieces_named(pieces, span) if pieces else []
        others = ([u for u in self.units if u is not a and u is not b and u.pose is not None
                   and self.alive(u)] if units else [])
        # only the units whose boxes meet the box around a and b can stand between them; the
        # answer is kept until a or b moves or changes size, or another unit comes into that
        # box, leaves it or moves or changes size in it: a unit's shape is made anew each time
        # it stands somewhere new, so the same shapes are the same units in the same places
        # (the pieces never move)
        shape_a, shape_b = self._unit_shape(a), self._unit_shape(b)
        x0, y0 = min(shape_a.box[0], shape_b.box[0]), min(shape_a.box[1], shape_b.box[1])
        x1, y1 = max(shape_a.box[2], shape_b.box[2]), max(shape_a.box[3], shape_b.box[3])
        shapes = tuple(s for s in map(self._unit_shape, others)
                       if not (s.box[0] > x1 or s.box[2] < x0 or s.box[1] > y1 or s.box[3] < y0))
        key = ("visible", a, b, tuple(p.id for p in found), bool(units))
        size_a, size_b = self.footprint(a), self.footprint(b)
        kept = self._behind.get(key)
        if (kept is not None and kept[0] is a.pose and kept[1] is size_a and kept[2] is b.pose
                and kept[3] is size_b and len(kept[4][0]) == len(shapes)
                and all(map(operator.is_, kept[4][0], shapes))):
            return kept[4][1]
        answer = clear_line(shape_a, shape_b, [self._piece_shape(p) for p in found] + list(shapes))
        self._behind[key] = (placed(a), size_a, placed(b), size_b, (shapes, answer))
        return answer
