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
from rules_run.engine.builtins.registry import builtin, fail, files_ranks
from rules_run.engine.builtins.shapes import base_shapes, gap, kept_for, unit_shape
from rules_run.engine.kept import MISSING
from rules_run.runtime.entities import Bearer, placed
from rules_run.runtime.events import TerrainChange
from rules_run.space import (TOLERANCE, Convex, Footprint, Pose, apart, arc_of, axes, band,
                             clear_line, closest_points, corners, distance, far_apart,
                             grid_points, hull, overlap, segment_clear)
from rules_run.space import behind as hidden_behind

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState
    from rules_run.runtime.entities import Unit

__all__ = ["TerrainPiece", "pieces", "piece_shape"]

_POINT = Footprint(0.0, 0.0)
"""The size of a point."""


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


# ---------------------------------------------------------------- sample points


def _front_centre(pose: Pose, size: Footprint) -> tuple[float, float]:
    (fx, fy), _ = axes(pose.facing)
    return (pose.x + fx * size.depth / 2, pose.y + fy * size.depth / 2)


def _edge_points(pose: Pose, size: Footprint) -> list[tuple[float, float]]:
    """Corners, edge midpoints and centre of a footprint."""
    c = corners(pose, size)
    mids = [((c[i][0] + c[(i + 1) % 4][0]) / 2, (c[i][1] + c[(i + 1) % 4][1]) / 2)
            for i in range(4)]
    return c + mids + [(pose.x, pose.y)]


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


# ---------------------------------------------------------------- terrain that changes


def _terrain_changed(state: BattleState, env: Any, piece: TerrainPiece, change: str) -> None:
    """Forget what was worked out from where the terrain stood (which pieces a unit stands
    in, what lies between two units, what hides them, the places), and log the change."""
    piece.shape = None
    for kept in (state._terrain_under, state._between, state._behind):
        kept.entries.clear()
    state._places = None
    if change == "removed":
        env.emit(TerrainChange, piece=piece.id, change=change)
        return
    x, y, w, d = piece.pose.x, piece.pose.y, piece.size.width, piece.size.depth
    outline = [[round(x + sx * w / 2, 3), round(y + sy * d / 2, 3)]
               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    env.emit(TerrainChange, piece=piece.id, change=change, at=[round(x, 3), round(y, 3)],
             size=[round(w, 3), round(d, 3)], effects=[r.text for r in piece.rules],
             shape={"kind": "polygon", "points": outline, "label": piece.name})


def _spec_of(state: BattleState, piece: TerrainPiece) -> dict[str, Any]:
    """The piece as a battle file's terrain entry (the places are made from these)."""
    return {"id": piece.id, "name": piece.name, "kind": piece.type,
            "at": {"x": piece.pose.x, "y": piece.pose.y},
            "size": {"w": piece.size.width, "h": piece.size.depth},
            "effects": [r.text for r in piece.rules]}


def _respec(state: BattleState, piece: TerrainPiece | None, old_id: str) -> None:
    """Put the piece's entry where the one of that id stood (none: take it out)."""
    at = next((i for i, t in enumerate(state.terrain) if t["id"] == old_id), None)
    if piece is None:
        if at is not None:
            del state.terrain[at]
    elif at is None:
        state.terrain.append(_spec_of(state, piece))
    else:
        state.terrain[at] = _spec_of(state, piece)


@builtin("add_terrain")
def add_terrain(state, env, span, piece_id, at, width, depth, effects, kind="special"):
    """A new piece of terrain centred on ``at`` (a unit, a marker or a place), ``width`` by
    ``depth`` inches, carrying ``effects`` (the texts of rules the ruleset declares)."""
    from rules_run.engine.builtins.markers import point_of
    from rules_run.engine.builtins.objectives import places
    from rules_run.lang.rule_refs import RuleRefError

    if not isinstance(piece_id, str) or not piece_id:
        raise fail(f"a terrain piece's id must be a text, got {piece_id!r}", span,
                   "bad-argument")
    if piece_id in places(state):
        raise fail(f"a place {piece_id!r} is on the table already; a new piece needs an id "
                   "of its own", span, "duplicate-place")
    x, y = point_of(state, at, span)
    sizes = []
    for value, what in ((width, "width"), (depth, "depth")):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise fail(f"a terrain piece's {what} must be a number of inches above 0, got "
                       f"{value!r}", span, "bad-argument")
        sizes.append(float(value))
    texts = effects if isinstance(effects, (list, tuple)) else [effects]
    rules = []
    for text in texts:
        try:
            rules.append(state.runtime.bind_rule(str(text)))
        except (KeyError, RuleRefError):
            raise fail(f"the ruleset has no rule {text!r} for a terrain effect", span,
                       "unknown-rule") from None
    piece = TerrainPiece(piece_id, piece_id, str(kind), Pose(x, y, 0.0),
                         Footprint(sizes[0], sizes[1]), rules)
    pieces(state).append(piece)
    _respec(state, piece, piece_id)
    _terrain_changed(state, env, piece, "added")
    return piece


@builtin("move_terrain")
def move_terrain(state, env, span, what, heading, inches):
    """Move the piece ``inches`` along ``heading`` (degrees, as a unit's facing), its
    effects with it; nothing else moves."""
    piece = _pieces_named(state, what, span)[0]
    for value, name in ((heading, "a heading"), (inches, "inches")):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail(f"{name} must be a number, got {value!r}", span, "bad-argument")
    (fx, fy), _ = axes(float(heading))
    piece.pose = Pose(piece.pose.x + fx * float(inches), piece.pose.y + fy * float(inches), 0.0)
    _respec(state, piece, piece.id)
    _terrain_changed(state, env, piece, "moved")
    return True


@builtin("remove_terrain")
def remove_terrain(state, env, span, what):
    """Take the piece off the table, its effects with it."""
    piece = _pieces_named(state, what, span)[0]
    pieces(state).remove(piece)
    piece.on_table = False
    _respec(state, None, piece.id)
    _terrain_changed(state, env, piece, "removed")
    return True


def _size_of(state: BattleState, thing: Any) -> Footprint:
    return thing.size if isinstance(thing, TerrainPiece) else state.footprint(thing)


def _shape(state: BattleState, thing: Any) -> Convex:
    """A unit's or piece's rectangle as a shape (:func:`unit_shape`, :func:`piece_shape`)."""
    return piece_shape(thing) if isinstance(thing, TerrainPiece) else unit_shape(state, thing)


def piece_shape(piece: TerrainPiece) -> Convex:
    """A piece's rectangle as a shape (made again when the piece moves)."""
    if piece.shape is None:
        piece.shape = Convex.rect(piece.pose, piece.size)
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
        shape = piece_shape(piece)
        inside = sum(1 for p in points if shape.holds(p))
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
    shape = unit_shape(state, a)
    for x, y in _edge_points(b.pose, size_b):
        if arc_of(pose, size_a, x, y) != "front":
            continue
        if (not far_apart(pose, size_a, Pose(x, y), _POINT, reach)
                and distance(shape, Convex.point(x, y)) <= reach):
            return True
    # the whole of a's front may face part of b without a sample point in the arc
    return (not far_apart(pose, size_a, b.pose, size_b, reach)
            and distance(shape, _shape(state, b)) <= reach
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
            shapes: list[Convex]) -> list[Any]:
    """The things (with their shapes) that cut the majority of the lines of sight: a line
    is cut when a stretch of it longer than :data:`~rules_run.space.TOLERANCE` lies on the
    shape (:meth:`~rules_run.space.Convex.clip`).

    A thing is tested against a line only when their bounding boxes meet (within the
    tolerance), and no further than it takes to know the majority's verdict.
    """
    boxes = [(p, q, min(p[0], q[0]) - TOLERANCE, min(p[1], q[1]) - TOLERANCE,
              max(p[0], q[0]) + TOLERANCE, max(p[1], q[1]) + TOLERANCE,
              math.hypot(q[0] - p[0], q[1] - p[1])) for p, q in lines]
    x0, y0 = min(box[2] for box in boxes), min(box[3] for box in boxes)
    x1, y1 = max(box[4] for box in boxes), max(box[5] for box in boxes)
    n = len(lines)
    out = []
    for thing, shape in zip(things, shapes):
        bx0, by0, bx1, by1 = shape.box
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue   # nowhere near the lines of sight
        crossed = missed = 0
        for p, q, lx0, ly0, lx1, ly1, length in boxes:
            if not (bx0 > lx1 or bx1 < lx0 or by0 > ly1 or by1 < ly0):
                cut = shape.clip(p, q)
                if cut is not None and (cut[1] - cut[0]) * length > TOLERANCE:
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
    cut = _shape(state, piece).clip(p, q)
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
