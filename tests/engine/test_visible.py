"""Visibility: the builtin ``visible`` and the geometry under it (``clear_line`` in
interpreter/space/lines.py), on hand-computed layouts.

Units of 1" square bases stand in rows across the battlefield's x axis; the observer and the
target face each other 18" apart, and units or pieces stand in the way. The aos4 ruleset
only supplies unit data; nothing here reads a rule.
"""

from __future__ import annotations

from pathlib import Path

from helpers.aos4_table import build, piece, row

from rules_run.space import Convex, Pose, behind, clear_line

# The observer's five models span x 7.5..12.5 at y 1.5..2.5, the target's x 7.5..12.5 at
# y 19.5..20.5: every line from one to the other crosses each y between at an x in 7.5..12.5.
OBSERVER, TARGET = row("s", 10, 2), row("t", 10, 20, side="b", facing=180)


def test_a_wider_unit_between_hides_the_target(tmp_path: Path) -> None:
    # seven models: x 6.5..13.5 at y 10.5..11.5, wider than any line can pass (a friend of
    # the observer blocks as an enemy would)
    _, _, b = build(tmp_path, [OBSERVER, TARGET, row("screen", 10, 11, models=7)], [])
    assert not b("visible", "s", "t")
    assert not b("visible", "t", "s")
    # the screen itself is seen, and sees both; without units in the way, all are seen
    assert b("visible", "s", "screen") and b("visible", "screen", "t")
    assert b("visible", "s", "t", [], False)
    assert b("visible", "s", "s")


def test_a_gap_to_one_side_leaves_the_target_visible(tmp_path: Path) -> None:
    # four models: x 7.5..11.5; the line x = 12 passes beside them
    _, _, b = build(tmp_path, [OBSERVER, TARGET, row("screen", 9.5, 11, models=4)], [])
    assert b("visible", "s", "t")
    # a line along the screen's edge does not pass across it: x 7.5..12.5 leaves x = 12.5
    _, _, b = build(tmp_path, [OBSERVER, TARGET, row("screen", 10, 11, models=5)], [])
    assert b("visible", "s", "t")


def test_a_blocking_piece_counts_only_when_named(tmp_path: Path) -> None:
    _, _, b = build(tmp_path, [OBSERVER, TARGET], [piece("wall", 0, 9, 20, 11),
                                                     piece("short", 0, 9, 12, 11),
                                                     piece("aside", 30, 9, 40, 11)])
    assert b("visible", "s", "t")   # no pieces named: terrain does not block
    assert not b("visible", "s", "t", "wall")
    assert not b("visible", "s", "t", b("terrain"))
    assert b("visible", "s", "t", "short")   # x 12..12.5 is clear
    assert b("visible", "s", "t", ["short", "aside"])


def test_two_obstacles_together(tmp_path: Path) -> None:
    # a piece x 0..11 at y 8..9 leaves x 11..12.5; a unit of three at y 13.5..14.5
    # x 10.5..13.5 leaves x 7.5..10.5. The line from (12, 2.5) to (9.5, 19.5) is at x 11.19
    # and 11.04 at y 8 and 9, and at x 10.38 at y 13.5: it passes between them.
    _, _, b = build(tmp_path, [OBSERVER, TARGET, row("u", 12, 14, models=3)],
                    [piece("low", 0, 8, 11, 9)])
    assert b("visible", "s", "t", "low")
    # four models at x 9.5..13.5 (x 12.5 is no longer an edge): a line passing left of them
    # would have to lose 1.5" of x in 4.5" of y, so be at x 13.2 or more at y 2.5, beyond
    # the observer
    _, _, b = build(tmp_path, [OBSERVER, TARGET, row("u", 11.5, 14, models=4)],
                    [piece("low", 0, 8, 11, 9)])
    assert not b("visible", "s", "t", "low")
    assert b("visible", "s", "t")          # the piece alone is not named
    assert b("visible", "s", "t", "low", False)   # nor the unit counted


def test_kept_until_something_moves(tmp_path: Path) -> None:
    state, ids, b = build(tmp_path, [OBSERVER, TARGET, row("screen", 10, 11, models=7)], [])
    assert not b("visible", "s", "t")
    ids["screen"].pose = Pose(40.0, 11.0, 0.0)   # the screen steps aside
    assert b("visible", "s", "t")
    ids["screen"].pose = Pose(10.0, 11.0, 0.0)
    assert not b("visible", "s", "t")
    ids["screen"].models = 0                    # a destroyed unit no longer blocks
    assert b("visible", "s", "t")


def test_units_in_contact_see_each_other(tmp_path: Path) -> None:
    # the target 1" in front of the observer, a wide unit around nothing between: touching
    _, ids, b = build(tmp_path, [OBSERVER, row("t", 10, 3, side="b", facing=180)], [])
    assert b("visible", "s", "t")
    b("engage", "s", "t")
    assert b("visible", "s", "t")


def square(x0: float, y0: float, x1: float, y1: float) -> Convex:
    return Convex([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def test_clear_line_is_the_negation_of_behind_for_one_obstacle() -> None:
    a, b = square(-1, 0, 1, 1), square(-1, 9, 1, 10)
    for x0 in (-6.0, -2.0, -1.0, -0.5, 0.0, 0.99, 1.0, 1.01, 3.0):
        for width in (0.5, 1.0, 2.0, 4.0, 10.0):
            for y0 in (2.0, 4.5, 7.0, 8.5):
                wall = square(x0, y0, x0 + width, y0 + 1)
                assert clear_line(a, b, [wall]) == (not behind(a, b, wall)), (x0, width, y0)


def test_clear_line_between_shapes_that_touch_or_without_obstacles() -> None:
    a, b = square(0, 0, 1, 1), square(1, 0, 2, 1)
    assert clear_line(a, b, [square(-5, -5, 5, 5)])
    assert clear_line(square(0, 0, 1, 1), square(0, 5, 1, 6), [])
    # an obstacle beyond the shapes' hull is set aside
    assert clear_line(square(0, 0, 1, 1), square(0, 5, 1, 6), [square(3, 0, 4, 6)])
