"""Behind a terrain piece: the builtins ``behind`` and ``models_behind`` and the pure geometry
under them (interpreter/space/lines.py), on hand-computed layouts.

Units of 1" square bases stand in rows on the battlefield's x axis; a piece lies across
the way between them. The aos4 ruleset only supplies unit data; nothing here reads a rule.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers.aos4_table import build, piece, row

from rules_run.diagnostics import BattleError
from rules_run.space import Footprint, Pose, corners
from rules_run.space.lines import (
    Convex,
    band,
    behind,
    closest_points,
    gap,
    segment_clear,
)

# The shooter's five models span x 7.5..12.5 at y 1.5..2.5, the target's x 7.5..12.5 at
# y 19.5..20.5: every line from one to the other crosses y 9..11 between x 7.5 and 12.5.
SHOOTER, TARGET = row("s", 10, 2), row("t", 10, 20, side="b", facing=180)


def test_a_piece_fully_between_hides_the_target(tmp_path: Path) -> None:
    _, _, b = build(tmp_path, [SHOOTER, TARGET], [piece("wall", 0, 9, 20, 11)])
    assert b("behind", "s", "t", "wall")
    assert b("behind", "t", "s", "wall")
    # by id, as a piece, or in a list with another piece
    assert b("behind", "s", "t", b("terrain")[0])
    assert b("behind", "s", "t", ["wall"])


def test_a_gap_to_one_side_leaves_a_clear_line(tmp_path: Path) -> None:
    # x 0..12: the lines at x 12..12.5 pass beside it
    _, _, b = build(tmp_path, [SHOOTER, TARGET], [piece("short", 0, 9, 12, 11),
                                                 piece("long", 0, 9, 13, 11),
                                                 piece("aside", 30, 9, 40, 11)])
    assert not b("behind", "s", "t", "short")
    # x 0..13 covers every x a line can cross at
    assert b("behind", "s", "t", "long")
    assert not b("behind", "s", "t", "aside")
    assert b("behind", "s", "t", ["aside", "long"])


def test_a_slanting_line_passes_beside_the_piece(tmp_path: Path) -> None:
    # the target 20" to the right: the line from the shooter's corner (12.5, 2.5) to the
    # target's (32.5, 19.5) crosses y 9 at x 20.15, right of a piece ending at x 20; a piece
    # reaching x 21 is crossed by every line (the rightmost crossing of y 9 is below 20.9)
    far = row("t", 30, 20, side="b", facing=180)
    _, _, b = build(tmp_path, [SHOOTER, far], [piece("p20", 0, 9, 20, 11), piece("p21", 0, 9, 21, 11)])
    assert not b("behind", "s", "t", "p20")
    assert b("behind", "s", "t", "p21")


def test_parts_of_the_piece_within_the_ignored_distance_do_not_hide(tmp_path: Path) -> None:
    # the lines cross the piece at x 7.5..12.5, where its far edge (y 11) is 8.5" from the
    # shooter's front (y 2.5): ignoring 8" leaves a strip that hides, 9" leaves nothing
    # (though the piece's far corners, 11.3" away, stay beyond 9")
    _, _, b = build(tmp_path, [SHOOTER, TARGET], [piece("wall", 0, 9, 20, 11)])
    assert b("behind", "s", "t", "wall", 8)
    assert not b("behind", "s", "t", "wall", 9)
    # the target's side: its front (y 19.5) is 8.5" from the piece's near edge (y 11)
    assert b("behind", "t", "s", "wall", 8)
    assert b("behind", "t", "s", "wall", 8.4)
    assert not b("behind", "t", "s", "wall", 10.6)


def test_a_target_within_the_ignored_distance_is_never_behind(tmp_path: Path) -> None:
    near = row("t", 10, 8, side="b", facing=180)   # y 7.5..8.5: 5" from the shooter
    _, _, b = build(tmp_path, [SHOOTER, near], [piece("wall", 0, 4, 20, 6)])
    assert b("behind", "s", "t", "wall")
    assert b("behind", "s", "t", "wall", 3)
    assert not b("behind", "s", "t", "wall", 5)


def test_models_behind_draws_closest_point_lines_model_to_model(tmp_path: Path) -> None:
    # piece x 0..11: the shooter's models at x 8, 9, 10 see every target model across it
    # (the line from the model at 10 to the target model at 12 enters at (10.88, 9) and
    # leaves at (11, 11)); the model at 11 has a line straight up the piece's edge x 11,
    # which touches it without crossing
    _, _, b = build(tmp_path, [SHOOTER, TARGET], [piece("p", 0, 9, 11, 11),
                                                 piece("all", 0, 9, 20, 11)])
    assert b("models_behind", "s", "t", "p") == 3
    assert not b("behind", "s", "t", "p")
    assert b("models_behind", "s", "t", "all") == 5
    assert b("models_behind", "s", "t", ["p", "all"]) == 5


def test_models_behind_ignores_near_each_model_or_near_the_unit(tmp_path: Path) -> None:
    # two ranks: the front rank's bases reach y 2.5, the rear rank's y 1.5; the piece lies
    # at y 4.5..5.5. Ignoring 3" of each model clears the front rank (its bases come within
    # 3" of all the piece) but not the rear rank; ignoring 3" of the unit clears every model
    deep = row("s", 10, 1.5, models=10, files=5)
    _, _, b = build(tmp_path, [deep, TARGET], [piece("wall", 0, 4.5, 20, 5.5)])
    assert b("models_behind", "s", "t", "wall") == 10
    assert b("models_behind", "s", "t", "wall", 2.5) == 10
    assert b("models_behind", "s", "t", "wall", 3) == 5
    assert b("models_behind", "s", "t", "wall", 3, True) == 0
    assert b("behind", "s", "t", "wall", 2.5)
    assert not b("behind", "s", "t", "wall", 3)


def test_an_unknown_piece_is_an_error(tmp_path: Path) -> None:
    _, _, b = build(tmp_path, [SHOOTER, TARGET], [piece("wall", 0, 9, 20, 11)])
    with pytest.raises(BattleError, match="no terrain piece 'hedge'"):
        b("behind", "s", "t", "hedge")


def test_answers_are_kept_until_a_unit_moves(tmp_path: Path) -> None:
    state, _, b = build(tmp_path, [SHOOTER, TARGET], [piece("wall", 0, 9, 20, 11)])
    assert b("behind", "s", "t", "wall") and b("models_behind", "s", "t", "wall") == 5
    assert state._behind.entries
    target = next(u for u in state.units if u.id == "t")
    target.pose = Pose(40, 20, 180)   # beside the wall's end
    assert not b("behind", "s", "t", "wall")
    assert b("models_behind", "s", "t", "wall") == 0
    target.models = 1
    target.pose = Pose(10, 20, 180)
    assert b("behind", "s", "t", "wall") and b("models_behind", "s", "t", "wall") == 5


# ---------------------------------------------------------------- the pure geometry

def _rect(x: float, y: float, w: float, h: float, facing: float = 0) -> Convex:
    return Convex(corners(Pose(x, y, facing), Footprint(w, h)))


def test_closest_points_take_the_middle_of_facing_edges() -> None:
    a, b = _rect(0, 0, 2, 1), _rect(1, 5, 2, 1)
    p, q = closest_points(a, b)
    assert p == pytest.approx((0.5, 0.5)) and q == pytest.approx((0.5, 4.5))
    assert gap(a, b) == pytest.approx(4.0)
    assert closest_points(a, _rect(1, 0.5, 2, 1)) is None   # overlapping


def test_segment_clear_against_the_ignored_band() -> None:
    wall = _rect(0, 5, 20, 2)                                  # y 4..6
    base = _rect(0, 0, 1, 1)                                   # y -0.5..0.5
    assert not segment_clear((0, 0.5), (0, 10), wall, None)
    assert not segment_clear((0, 0.5), (0, 10), wall, band(base, 5))   # y 5.5..6 is left
    assert segment_clear((0, 0.5), (0, 10), wall, band(base, 5.5))
    assert segment_clear((11, 0.5), (11, 10), wall, None)


def _boundary(shape: Convex, k: int) -> list[tuple[float, float]]:
    out = []
    for (ax, ay), (bx, by) in shape.edges():
        out.extend((ax + (bx - ax) * i / k, ay + (by - ay) * i / k) for i in range(k))
    return out


def test_behind_agrees_with_sampled_lines() -> None:
    # the exact answer against lines between points sampled on the two outlines: when
    # behind() says behind, no sampled line is clear (the sampling can only miss lines)
    rng = random.Random(3)
    hidden = seen = 0
    for _ in range(150):
        a = _rect(rng.uniform(0, 20), rng.uniform(0, 5), rng.uniform(1, 8), rng.uniform(0.5, 4),
                  rng.choice([0, 90, rng.uniform(0, 360)]))
        b = _rect(rng.uniform(0, 20), rng.uniform(12, 20), rng.uniform(1, 8),
                  rng.uniform(0.5, 4), rng.choice([0, 180, rng.uniform(0, 360)]))
        wall = _rect(rng.uniform(0, 20), rng.uniform(4, 12), rng.uniform(1, 12),
                     rng.uniform(1, 6))
        reach = rng.choice([0.0, 1.5, 3.0])
        ignored = band(a, reach)
        clear = any(segment_clear(p, q, wall, ignored)
                    for p in _boundary(a, 24) for q in _boundary(b, 24))
        if behind(a, b, wall, reach):
            hidden += 1
            assert not clear
        else:
            seen += 1
            assert clear
    assert hidden > 10 and seen > 10
