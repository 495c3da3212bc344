"""Battlefield geometry: distances edge to edge, arcs, moves (pure functions)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from helpers.space_before import geometry as before

from rules_run.space import (Footprint, Pose, advance, arc_of, corners, edge_distance,
                             far_apart, grid_points)


def test_facing_units_4_inches_apart() -> None:
    a = Pose(36, 10, 0)
    b = Pose(36, 10 + 1 + 4 + 1, 180)
    assert edge_distance(a, Footprint(4, 2), b, Footprint(4, 2)) == 4.0


def test_rectangles_laid_in_a_cross_overlap() -> None:
    # found by the property test below: no corner of either lies inside the other
    a, b = Pose(0, 0, 45), Pose(0, 0, 45)
    assert edge_distance(a, Footprint(1, 1), b, Footprint(2, 0.5)) == 0.0


def test_touching_and_overlapping_are_zero() -> None:
    assert edge_distance(Pose(0, 0), Footprint(2, 2), Pose(2, 0), Footprint(2, 2)) == 0.0
    assert edge_distance(Pose(0, 0), Footprint(2, 2), Pose(1, 1), Footprint(2, 2)) == 0.0


def test_corner_to_corner() -> None:
    d = edge_distance(Pose(0, 0), Footprint(2, 2), Pose(5, 5), Footprint(2, 2))
    assert math.isclose(d, math.hypot(3, 3))


def test_arcs_follow_the_45_degree_lines_from_the_corners() -> None:
    target = Pose(0, 0, 0)
    size = Footprint(4, 2)
    assert arc_of(target, size, 2.5, 1.6) == "front"    # just inside the line from (2, 1)
    assert arc_of(target, size, 3.5, 1.6) == "flank"
    assert arc_of(target, size, -3, -5) == "rear"
    assert arc_of(Pose(0, 0, 90), size, 5, 0) == "front"   # facing +x


def test_advance_moves_along_the_heading() -> None:
    p = advance(Pose(0, 0, 0), 90, 3)
    assert math.isclose(p.x, 3) and abs(p.y) < 1e-9 and p.facing == 90


def _slow_distance(a, a_size, b, b_size) -> float:
    """The general polygon computation (no axis-aligned shortcut) of the code before one
    distance (helpers/space_before), for comparison."""
    pa, pb = corners(a, a_size), corners(b, b_size)
    g = before
    if (any(g._inside(p, pb) for p in pa) or any(g._inside(p, pa) for p in pb)
            or any(g._crosses(pa[i], pa[(i + 1) % 4], pb[j], pb[(j + 1) % 4])
                   for i in range(4) for j in range(4))):
        return 0.0
    return min(math.hypot(p[0] - x, p[1] - y)
               for p_poly, poly in ((pa, pb), (pb, pa)) for p in p_poly for i in range(4)
               for x, y in [_nearest_on_segment(p, poly[i], poly[(i + 1) % 4])])


def _nearest_on_segment(p, a, b) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return a[0] + t * dx, a[1] + t * dy


coordinate = st.floats(-30, 30, allow_nan=False)
side = st.floats(0.5, 10, allow_nan=False)
facing = st.sampled_from([0, 90, 180, 270])


@given(coordinate, coordinate, facing, side, side, coordinate, coordinate, facing, side, side)
def test_the_aligned_shortcut_agrees_with_the_polygons(ax, ay, af, aw, ad, bx, by, bf, bw, bd):
    a, b = Pose(ax, ay, af), Pose(bx, by, bf)
    fa, fb = Footprint(aw, ad), Footprint(bw, bd)
    assert math.isclose(edge_distance(a, fa, b, fb), _slow_distance(a, fa, b, fb),
                        abs_tol=1e-6)


@given(coordinate, coordinate, st.floats(0, 360), side, side, coordinate, coordinate,
       st.floats(0, 360), side, side)
def test_turned_footprints_agree_with_the_polygons(ax, ay, af, aw, ad, bx, by, bf, bw, bd):
    a, b = Pose(ax, ay, af), Pose(bx, by, bf)
    fa, fb = Footprint(aw, ad), Footprint(bw, bd)
    assert math.isclose(edge_distance(a, fa, b, fb), _slow_distance(a, fa, b, fb),
                        abs_tol=1e-6)


@given(coordinate, coordinate, st.floats(0, 360) | facing, side, side, coordinate, coordinate,
       st.floats(0, 360) | facing, side, side)
def test_the_distance_is_the_same_either_way_round(ax, ay, af, aw, ad, bx, by, bf, bw, bd):
    # the battle keeps a pair's distance for both orders (BattleState._gap)
    a, b = Pose(ax, ay, af), Pose(bx, by, bf)
    fa, fb = Footprint(aw, ad), Footprint(bw, bd)
    assert edge_distance(a, fa, b, fb) == edge_distance(b, fb, a, fa)


@given(coordinate, coordinate, st.floats(0, 360), side, side, coordinate, coordinate,
       st.floats(0, 360), side, side, st.floats(0, 40))
def test_far_apart_footprints_are_farther_than_that(ax, ay, af, aw, ad, bx, by, bf, bw, bd,
                                                    inches):
    a, b = Pose(ax, ay, af), Pose(bx, by, bf)
    fa, fb = Footprint(aw, ad), Footprint(bw, bd)
    if far_apart(a, fa, b, fb, inches):
        assert edge_distance(a, fa, b, fb) > inches


def test_grid_points_follow_the_facing() -> None:
    points = grid_points(Pose(0, 0, 90), Footprint(4, 2), 2, 1)
    # facing +x: the unit's width runs along y
    assert [tuple(round(v, 6) for v in p) for p in points] == [(0.0, 1.0), (0.0, -1.0)]
