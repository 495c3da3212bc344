"""One shape, one distance, one tolerance (interpreter/space/convex.py).

The unified functions are compared with the code they replace (kept in helpers/space_before:
geometry.py's ``edge_distance`` and ``point_distance``, lines.py's ``gap``, ``apart``,
``overlap``, ``closest_points``, ``hull``, ``behind`` and ``clear_line``, sight.py's
half-plane clipping and inside test) on random
shapes; where the old codes used tolerances of their own (1e-12 to 1e-6), they may differ
only on inputs within those tolerances of the boundary, which the comparisons set aside.
Then contact is checked against distance at the tolerance: the bug class of issue #13, two
shapes "in contact" for one question and "apart" for another.
"""

from __future__ import annotations

import math

import pytest
from helpers.space_before import geometry as old_geometry
from helpers.space_before import lines as old_lines
from helpers.space_before import sight as old_sight
from hypothesis import assume, given
from hypothesis import strategies as st

from rules_run.space import (
    TOLERANCE,
    Convex,
    Footprint,
    Pose,
    Sweep,
    apart,
    behind,
    clear_line,
    closest_points,
    corners,
    distance,
    edge_distance,
    hull,
    overlap,
    point_distance,
    touching,
)

coordinate = st.floats(-30, 30, allow_nan=False)
side = st.floats(0.5, 10, allow_nan=False)
facing = st.floats(0, 360) | st.sampled_from([0, 90, 180, 270])
grid = st.integers(-40, 40).map(lambda k: k / 2)
"""Half inches: layouts where shapes touch exactly, as units in base contact do."""
half_side = st.integers(1, 12).map(lambda k: k / 2)


@st.composite
def footprints(draw, x=coordinate, y=coordinate, size=side, turn=facing):
    return Pose(draw(x), draw(y), draw(turn)), Footprint(draw(size), draw(size))


upright = footprints(grid, grid, half_side, st.sampled_from([0, 90, 180, 270]))
anywhere = footprints()


def _rect(footprint: tuple[Pose, Footprint]) -> Convex:
    return Convex.rect(*footprint)


def _old_convex(footprint: tuple[Pose, Footprint]) -> old_lines.Convex:
    return old_lines.Convex(old_geometry.corners(*footprint))


def test_clip_gives_the_part_on_the_shape() -> None:
    square = Convex([(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)])
    assert square.clip((-2.0, 2.0), (6.0, 2.0)) == (0.25, 0.75)
    assert square.clip((-2.0, 5.0), (6.0, 5.0)) is None
    # a segment starting inside
    t_in, t_out = square.clip((2.0, 2.0), (2.0, 10.0))
    assert (t_in, round(t_out, 6)) == (0.0, 0.25)
    # along an edge: on the shape; through a corner: a point of it, no stretch
    assert square.clip((-2.0, 4.0), (6.0, 4.0)) == (0.25, 0.75)
    corner = square.clip((2.0, 6.0), (6.0, 2.0))
    assert corner is None or (corner[1] - corner[0]) * math.hypot(4, 4) <= TOLERANCE


# ---------------------------------------------------------------- against the old codes

@given(anywhere | upright, anywhere | upright)
def test_the_distance_agrees_with_the_old_footprint_distance(a, b) -> None:
    new = distance(_rect(a), _rect(b))
    old = old_geometry.edge_distance(a[0], a[1], b[0], b[1])
    assert abs(new - old) <= TOLERANCE
    assert edge_distance(a[0], a[1], b[0], b[1]) == new


@given(anywhere | upright, anywhere | upright)
def test_the_distance_agrees_with_the_old_gap_of_shapes(a, b) -> None:
    assert abs(distance(_rect(a), _rect(b)) - old_lines.gap(_old_convex(a), _old_convex(b))
               ) <= TOLERANCE


@given(anywhere | upright, anywhere | upright)
def test_the_distance_is_the_same_either_way_round(a, b) -> None:
    assert distance(_rect(a), _rect(b)) == distance(_rect(b), _rect(a))


@given(anywhere, coordinate, coordinate)
def test_the_point_distance_is_the_old_one(a, x, y) -> None:
    assert point_distance(a[0], a[1], x, y) == old_geometry.point_distance(a[0], a[1], x, y)
    # a polygon that is no footprint measures the same, to the tolerance
    polygon = Convex(corners(*a))
    assert abs(polygon.distance_to((x, y)) - point_distance(a[0], a[1], x, y)) <= TOLERANCE
    # and a point as a shape, rounded
    assert distance(Convex.point(x, y), _rect(a)) == round(point_distance(a[0], a[1], x, y), 9)


@given(anywhere | upright, coordinate, coordinate)
def test_holding_a_point_is_the_old_inside_test(a, x, y) -> None:
    shape = _rect(a)
    old = old_sight._inside((x, y), old_sight._half_planes(corners(*a)))
    if abs(shape.distance_to((x, y))) > TOLERANCE:
        assert shape.holds((x, y)) is False and old is False
    elif shape.distance_to((x, y)) == 0 and min(
            c - (nx * x + ny * y) for nx, ny, c in shape.planes) > TOLERANCE:
        assert shape.holds((x, y)) is True and old is True


@given(anywhere | upright, coordinate, coordinate, coordinate, coordinate)
def test_clipping_agrees_with_the_old_half_planes(a, px, py, qx, qy) -> None:
    length = math.hypot(qx - px, qy - py)
    assume(length > 0.01)
    shape = _rect(a)
    new = shape.clip((px, py), (qx, qy))
    old = old_sight.clip_segment((px, py), (qx, qy), corners(*a))
    segment = Convex([(px, py), (qx, qy)])
    if new is None or old is None:
        # they may differ only on a segment that comes within the tolerance of the outline
        if new is not old:
            assert distance(segment, shape) <= 2 * TOLERANCE
        return
    # both cross the outline where the old did, or the segment runs along an edge
    if abs(new[0] - old[0]) * length > 1e-9 or abs(new[1] - old[1]) * length > 1e-9:
        assert min(abs(nx * (qx - px) + ny * (qy - py)) for nx, ny, _ in shape.planes
                   ) <= TOLERANCE


@given(anywhere | upright, anywhere | upright)
def test_apart_and_overlap_agree_with_the_old_ones(a, b) -> None:
    new_a, new_b, old_a, old_b = _rect(a), _rect(b), _old_convex(a), _old_convex(b)
    d = distance(new_a, new_b)
    if d > 2 * TOLERANCE:
        assert apart(new_a, new_b) and old_lines.apart(old_a, old_b)
        assert not overlap(new_a, new_b) and not old_lines.overlap(old_a, old_b)
        new, old = closest_points(new_a, new_b), old_lines.closest_points(old_a, old_b)
        assert new is not None and old is not None
        assert math.dist(new[0], old[0]) <= 1e-6 and math.dist(new[1], old[1]) <= 1e-6
    elif overlap(new_a, new_b) != old_lines.overlap(old_a, old_b):
        # only shapes touching to within the old tolerance (1e-7) may be told apart
        assert _depth(new_a, new_b) <= 1e-7


def _depth(a: Convex, b: Convex) -> float:
    """How deep the shapes overlap: the least, over the edges' normals, of their overlap."""
    best = math.inf
    for one, other in ((a, b), (b, a)):
        for nx, ny, c in one.planes:
            best = min(best, c - min(nx * x + ny * y for x, y in other.corners))
    return best


@given(st.lists(st.tuples(grid, grid), min_size=3, max_size=8))
def test_the_hull_is_the_old_hull(points) -> None:
    assume(len({(x, y) for x, y in points}) >= 3)
    xs, ys = {x for x, _ in points}, {y for _, y in points}
    assume(len(xs) > 1 and len(ys) > 1)
    try:
        old = old_lines.hull(points).corners
    except ZeroDivisionError:
        return
    assert hull(points).corners == old


@given(upright, upright, upright, st.sampled_from([0, 0.5, 1, 2]))
def test_behind_agrees_with_the_old_one_on_a_half_inch_grid(a, b, piece, ignore) -> None:
    new = behind(_rect(a), _rect(b), _rect(piece), ignore)
    old = old_lines.behind(_old_convex(a), _old_convex(b), _old_convex(piece), ignore)
    assert new == old


@given(upright, upright, st.lists(upright, max_size=3))
def test_clear_line_agrees_with_the_old_one_on_a_half_inch_grid(a, b, pieces) -> None:
    new = clear_line(_rect(a), _rect(b), [_rect(p) for p in pieces])
    old = old_lines.clear_line(_old_convex(a), _old_convex(b), [_old_convex(p) for p in pieces])
    assert new == old


@given(anywhere, coordinate, coordinate, st.floats(0, 6), st.floats(0, 360), st.floats(0, 12),
       st.floats(0, 6))
def test_a_sweep_meets_a_base_where_the_old_point_distance_says(base, x, y, diameter,
                                                                 heading, length, end) -> None:
    shape = Sweep.disc(x, y, diameter).stretched(heading, length, end)
    least = shape._gap(lambda cx, cy: old_geometry.point_distance(base[0], base[1], cx, cy))[0]
    assert shape.meets(*base) is (least <= TOLERANCE)
    assert shape.holds_all(*base) is all(shape.holds(cx, cy) for cx, cy in corners(*base))


# ---------------------------------------------------------------- contact at the tolerance

GAPS = [0.0, 0.3e-9, 0.9e-9, 1.6e-9, 3e-9, 5e-8, 1e-6, 0.01]
"""Inches between two shapes: touching (within the tolerance) for the first three; apart
for the rest, 5e-8 being where the old codes disagreed (edge_distance said 5e-8, clear_line's
1e-7 said touching)."""


def _pair(gap: float, turn: float) -> tuple[Convex, Convex]:
    """A square and a shape turned by ``turn`` degrees whose nearest point is ``gap`` inches
    to the square's right: a corner of it when turned, its left edge when not."""
    square = Convex.rect(Pose(0, 0), Footprint(2, 2))
    half = math.hypot(1, 1) if turn % 90 else 1.0
    other = Convex.rect(Pose(1 + gap + half, 0.25, 45.0 if turn % 90 else turn),
                        Footprint(2, 2))
    return square, other


@pytest.mark.parametrize("turn", [0, 45, 90])
@pytest.mark.parametrize("gap", GAPS)
def test_contact_and_distance_agree_at_the_tolerance(gap: float, turn: float) -> None:
    a, b = _pair(gap, turn)
    d = distance(a, b)
    assert d == pytest.approx(round(gap, 9), abs=1e-12)
    contact = gap <= TOLERANCE
    assert touching(a, b) is contact is (d <= TOLERANCE)
    assert (closest_points(a, b) is None) is contact
    assert not overlap(a, b)    # touching is not overlapping
    assert apart(a, b)
    # a line from one to the other always runs; behind a piece the lines hide, touching
    # shapes are never behind it (a line through their common point crosses nothing)
    wall = Convex.rect(Pose(2, 0.25 + 3), Footprint(0.5, 4))
    assert clear_line(a, b, [])
    assert behind(a, b, wall) is (False if contact else behind(a, b, wall))


@pytest.mark.parametrize("gap", GAPS)
def test_a_marker_meets_a_base_exactly_when_the_distance_says_so(gap: float) -> None:
    base = (Pose(0, 0), Footprint(2, 2))
    disc = Sweep.disc(1 + gap + 1.5, 0, 3)   # a round template 1.5 in radius
    d = point_distance(base[0], base[1], disc.x1, disc.y1) - disc.r1
    assert d == pytest.approx(gap, abs=1e-12)
    assert disc.meets(*base) is (d <= TOLERANCE)


def test_the_old_codes_disagreed_between_their_tolerances() -> None:
    # the case the issue names: 5e-8 apart, the old footprint distance said "apart"
    # (5e-8 > 0) while the old clear line said "touching" (gap <= 1e-7), and the old closest
    # points said "apart" (5e-8 > 1e-9): three answers, of which the new code gives one
    a, b = _pair(5e-8, 0)
    pa, pb = a.frame, b.frame
    assert pa is not None and pb is not None
    assert old_geometry.edge_distance(pa[0], pa[1], pb[0], pb[1]) == 5e-8
    old_a, old_b = old_lines.Convex(a.corners), old_lines.Convex(b.corners)
    assert old_lines.gap(old_a, old_b) <= old_lines.EPSILON
    assert old_lines.closest_points(old_a, old_b) is not None
    assert not touching(a, b) and closest_points(a, b) is not None


# ---------------------------------------------------------------- shapes with no area

def test_a_point_and_a_segment_hold_only_what_is_on_them() -> None:
    point = Convex.point(1, 2)
    assert point.holds((1, 2)) and not point.holds((1, 3)) and not point.holds((5, 2))
    segment = Convex([(0, 0), (4, 0)])
    assert segment.holds((2, 0)) and not segment.holds((6, 0)) and not segment.holds((2, 1))
    thin = Convex.rect(Pose(0, 0), Footprint(0, 4))
    assert thin.holds((0, 1)) and not thin.holds((0, 9))
    assert distance(point, Convex.rect(Pose(1, 5), Footprint(2, 2))) == 2.0
