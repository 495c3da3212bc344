"""Range, line of sight and cover: generic builtins for shooting and visibility.

The battlefield's terrain pieces are rectangles from the battle file, each carrying its
``effects`` as rules (bound through the ruleset, so ``piece has "..."`` and
``param(piece, "...")`` read them). Nothing here knows what an effect does: the builtins only
say where things stand. Which pieces or units hide a target, and how much that matters, is
for the ruleset to decide.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import BattleError, DiagnosticBag, Span
from rules_run.engine.builtins.registry import builtin, files_ranks
from rules_run.engine.builtins.shapes import base_shapes, gap, kept_for, unit_shape
from rules_run.engine.entities import Bearer, placed
from rules_run.engine.kept import MISSING
from rules_run.space import Footprint, Pose, arc_of, axes, corners, edge_distance, far_apart
from rules_run.space.lines import (Convex, apart, band, clear_line, closest_points, hull,
                                     overlap, segment_clear)
from rules_run.space.lines import behind as hidden_behind

if TYPE_CHECKING:
    from rules_run.engine.entities import Unit
    from rules_run.engine.state import BattleState

__all__ = ["TerrainPiece", "clip_segment", "grid_points", "pieces", "piece_shape"]

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


# ---------------------------------------------------------------- the battle's terrain


def pieces(state: BattleState) -> list[TerrainPiece]:
    """The battle file's terrain as pieces (built once, effects bound as rules)."""
    if state._terrain_pieces is not None:
        return state._terrain_pieces
    from rules_run.lang.rule_refs import RuleRefError

    bag = DiagnosticBag()
    doc = state.battle.doc
    bag.remember_source(doc.path, doc.text)
    out = []
    for i, spec in enumerate(state.terrain):
        rules = []
        for j, text in enumerate(spec.get("effects") or []):
            try:
                rules.append(state.runtime.bind_rule(text))
            except (KeyError, RuleRefError):
                bag.add(f"terrain {spec['id']!r}: the ruleset has no rule {text!r} for "
                        "this effect", doc.span(("battlefield", "terrain", i, "effects", j)),
                        code="unknown-rule")
        at, size = spec["at"], spec["size"]
        out.append(TerrainPiece(spec["id"], spec.get("name") or spec["id"],
                                spec["kind"], Pose(float(at["x"]), float(at["y"]), 0.0),
                                Footprint(float(size["w"]), float(size["h"])), rules))
    bag.raise_if_errors(BattleError)
    state._terrain_pieces = out
    return out


def _size_of(state: BattleState, thing: Any) -> Footprint:
    return thing.size if isinstance(thing, TerrainPiece) else state.footprint(thing)


def _shape(state: BattleState, thing: Any) -> tuple[list[tuple[float, float, float, float]],
                                                    tuple[float, float, float, float]]:
    """A unit's or piece's outline as half-planes and its bounding box (x0, y0, x1, y1),
    kept until it moves or changes size."""
    pose, size = thing.pose, _size_of(state, thing)
    kept = state._outlines.get(thing, (pose, size))
    if kept is not MISSING:
        return kept
    points = corners(pose, size)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return state._outlines.put(thing, (pose, size),
                               (_half_planes(points), (min(xs), min(ys), max(xs), max(ys))))


def piece_shape(piece: TerrainPiece) -> Convex:
    """A piece's rectangle as a shape (pieces never move)."""
    if piece.shape is None:
        piece.shape = Convex(corners(piece.pose, piece.size))
    return piece.shape


def _pieces_named(state: BattleState, what: Any, span: Span | None) -> list[TerrainPiece]:
    """A piece, a piece's id, or a list of them, as pieces."""
    items = what if isinstance(what, (list, tuple)) else [what]
    out = []
    for item in items:
        if isinstance(item, TerrainPiece):
            out.append(item)
            continue
        found = next((p for p in pieces(state) if p.id == item), None)
        if found is None:
            known = ", ".join(p.id for p in pieces(state)) or "none in this battle"
            raise BattleError([DiagnosticBag().add(
                f"no terrain piece {item!r} (pieces: {known})", span,
                code="unknown-place")])
        out.append(found)
    return out


# ---------------------------------------------------------------- the builtins


@builtin("terrain")
def terrain(state, env, span):
    return list(pieces(state))


@builtin("terrain_at")
def terrain_at(state, env, span, unit):
    found = pieces(state)
    if not found:
        return []
    # kept until the unit moves or changes size (its footprint stands for its models and
    # files too: the same footprint comes back only while they are the same)
    size = state.footprint(unit)
    kept = state._terrain_under.get(unit, (unit.pose, size))
    if kept is not MISSING:
        return list(kept)
    files, ranks = files_ranks(unit)
    points = grid_points(unit.pose, size, files, ranks)
    out = []
    for piece in found:
        planes = _shape(state, piece)[0]
        inside = sum(1 for p in points if _inside(p, planes))
        if inside * 2 > len(points):
            out.append(piece)
    state._terrain_under.put(unit, (unit.pose, size), out)
    return list(out)


@builtin("terrain_touching")
def terrain_touching(state, env, span, unit):
    """The terrain pieces some part of the unit's footprint lies in (not only touching
    their outline)."""
    if unit.pose is None or not unit.on_table:
        return []
    shape = unit_shape(state, unit)
    return [piece for piece in pieces(state) if overlap(shape, piece_shape(piece))]


@builtin("in_arc")
def in_arc(state, env, span, a, b):
    size_a = state.footprint(a)
    return any(arc_of(a.pose, size_a, x, y) == "front"
               for x, y in _edge_points(b.pose, _size_of(state, b)))


@builtin("in_range")
def in_range(state, env, span, a, b, inches):
    size_a, size_b = state.footprint(a), _size_of(state, b)
    if b in a.engaged:
        return True
    reach = float(inches)
    grounds = (a.pose, size_a, b.pose, size_b)
    kept = state._in_range.get((a, b, reach), grounds)
    if kept is not MISSING:
        return kept
    return state._in_range.put((a, b, reach), grounds,
                               _reaches(state, env, span, a, size_a, b, size_b, reach))


def _reaches(state: BattleState, env: Any, span: Any, a: Unit, size_a: Footprint, b: Any,
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
            and in_arc(state, env, span, a, b))


def _sight_lines(state: BattleState, a: Any, b: Any
                 ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    origin = _front_centre(a.pose, state.footprint(a))
    size = _size_of(state, b)
    if isinstance(b, TerrainPiece):
        targets = grid_points(b.pose, size, 3, 3)
    else:
        files, ranks = files_ranks(b)
        targets = grid_points(b.pose, size, files, ranks)
    return [(origin, t) for t in targets]


@builtin("between")
def between(state, env, span, a, b):
    things: list[Any] = [u for u in state.units
                         if u is not a and u is not b and state.alive(u)]
    things.extend(pieces(state))
    shapes = [_shape(state, thing) for thing in things]
    # kept until a or b moves or changes size, or anything else moves, changes size,
    # falls or arrives: an outline is made for one thing where it stands, so the same
    # outlines are the same things in the same places
    grounds = (a.pose, state.footprint(a), b.pose, _size_of(state, b), *shapes)
    kept = state._between.get((a, b), grounds)
    if kept is not MISSING:
        return list(kept)
    out = _hiding(_sight_lines(state, a, b), things, shapes)
    state._between.put((a, b), grounds, out)
    return list(out)


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


@builtin("line_through")
def line_through(state, env, span, a, b, piece):
    p = _front_centre(a.pose, state.footprint(a))
    q = (b.pose.x, b.pose.y)
    cut = _clip(p, q, _shape(state, piece)[0])
    if cut is None:
        return 0.0
    return round((cut[1] - cut[0]) * math.hypot(q[0] - p[0], q[1] - p[1]), 6)


# ---------------------------------------------------------------- behind a piece


@builtin("behind")
def behind(state, env, span, a, b, pieces, ignore_within=0):
    found = _pieces_named(state, pieces, span)
    if a.pose is None or b.pose is None or not found:
        return False
    reach = max(0.0, float(ignore_within))

    def work() -> bool:
        if gap(state, a, b) <= reach:
            return False   # every line from a to b runs within the ignored distance of a
        shape_a, shape_b = unit_shape(state, a), unit_shape(state, b)
        return any(hidden_behind(shape_a, shape_b, piece_shape(p), reach) for p in found)
    return kept_for(state, ("behind", a, b, tuple(p.id for p in found), reach), a, b, work)


@builtin("models_behind")
def models_behind(state, env, span, a, b, pieces, ignore_within=0, from_unit=False):
    """How many of ``a``'s models have every line to ``b``'s models, drawn between the
    closest points of the two bases, passing across one of the pieces, the parts within
    ``ignore_within`` of that model's base (of ``a``'s footprint with ``from_unit``) aside.

    One builtin rather than a composition in the ruleset: the rules language has no value
    for a model's base nor for the segment between the closest points of two bases, so
    ``behind`` per model and a count cannot be written with it; and the work is a loop
    over pairs of bases that stops at the first pair in contact and drops each piece as
    soon as one line misses it, kept per pair of units until either moves (rules code
    looping over models would test every pair every time). What it measures is
    geometry, not a game's rule: which pieces count, how far is ignored and from where
    are the ruleset's arguments.
    """
    found = _pieces_named(state, pieces, span)
    if a.pose is None or b.pose is None or not found:
        return 0
    reach = max(0.0, float(ignore_within))
    whole = bool(from_unit)

    def work() -> int:
        if whole and gap(state, a, b) <= reach:
            return 0   # every line from a to b runs within the ignored distance of a
        shape_a, shape_b = unit_shape(state, a), unit_shape(state, b)
        # a piece the hull of the two units misses is crossed by no line between them
        around = hull(shape_a.corners + shape_b.corners)
        shapes = [s for s in (piece_shape(p) for p in found) if not apart(around, s)]
        if not shapes:
            return 0
        mine, theirs = base_shapes(state, a), base_shapes(state, b)
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
    return kept_for(state, ("models", a, b, tuple(p.id for p in found), reach, whole), a, b,
                    work)


# ---------------------------------------------------------------- visible


@builtin("visible")
def visible(state, env, span, a, b, pieces=None, units=True):
    if a is b:
        return True   # a unit always sees itself
    if a.pose is None or b.pose is None:
        return False
    if b in a.engaged:
        return True   # in base contact: nothing between them
    found = _pieces_named(state, pieces, span) if pieces else []
    others = ([u for u in state.units if u is not a and u is not b and u.pose is not None
               and state.alive(u)] if units else [])
    # only the units whose boxes meet the box around a and b can stand between them; the
    # answer is kept until a or b moves or changes size, or another unit comes into that
    # box, leaves it or moves or changes size in it: a unit's shape is made anew each time
    # it stands somewhere new, so the same shapes are the same units in the same places
    # (the pieces never move)
    shape_a, shape_b = unit_shape(state, a), unit_shape(state, b)
    x0, y0 = min(shape_a.box[0], shape_b.box[0]), min(shape_a.box[1], shape_b.box[1])
    x1, y1 = max(shape_a.box[2], shape_b.box[2]), max(shape_a.box[3], shape_b.box[3])
    shapes = tuple(s for s in (unit_shape(state, o) for o in others)
                   if not (s.box[0] > x1 or s.box[2] < x0 or s.box[1] > y1 or s.box[3] < y0))
    key = ("visible", a, b, tuple(p.id for p in found), bool(units))
    grounds = (a.pose, state.footprint(a), b.pose, state.footprint(b), *shapes)
    kept = state._behind.get(key, grounds)
    if kept is not MISSING:
        return kept
    return state._behind.put(key, grounds, clear_line(
        shape_a, shape_b, [piece_shape(p) for p in found] + list(shapes)))
