"""wfb8 rules the seed states that earlier versions did not play (issue #22): Poisoned
Attacks in shooting, dangerous terrain as counted dice, and the like, each run through the
ruleset's own declarations with exact odds or scripted dice. Seed lines are
``000_c4300f58fce5f1da.txt``; "not in seed" readings are listed in rulesets/wfb8/README.md.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from helpers.wfb8_world import World, unit


def pair(tmp_path: Path, a: dict | None = None, b: dict | None = None, **extra: Any) -> World:
    """Two units of ten facing each other 16" apart: a (empire) at y 10, b (orcs) at y 26."""
    a = {"equipment": ["hand_weapon"], **(a or {})}
    b = {"equipment": ["hand_weapon"], "profile": "orcs/orc_boy", **(b or {})}
    return World(tmp_path, [unit("a", "empire", 36, 10, **a),
                            unit("b", "orcs", 36, 26, 180, **b)], **extra)


def wounded(w: World) -> Fraction:
    return w.attack("shooting_attack", "a", "b").map(lambda o: o.damage).probability(1)


def test_poisoned_shots_wound_on_a_6_to_hit_unless_they_need_7_or_more(tmp_path: Path) -> None:
    # BS3 hits on 4+ (1/2); S3 v T4 wounds on 5+ (1/3); no armour. Plain: 1/6. Poisoned: a 6
    # wounds at once, a 4 or 5 rolls to wound: 1/6 + 2/6 * 1/3 = 5/18 (not in seed: 8th ed).
    assert wounded(pair(tmp_path)) == Fraction(1, 6)
    poisoned = pair(tmp_path, a={"rules": ["Poisoned Attacks"]})
    assert wounded(poisoned) == Fraction(5, 18)
    # BS1 needs 6; having moved, 7: a 6 and then a 4+ (L362, 1/12), then the wound roll as
    # usual, poisoned or not: 1/12 * 1/3 = 1/36.
    for rules in ([], ["Poisoned Attacks"]):
        w = pair(tmp_path, a={"rules": rules, "characteristics": {"BS": 1}})
        w.unit("a").statuses["has_moved"] = None
        assert wounded(w) == Fraction(1, 36)


# ---------------------------------------------------------------- ordinary moves wheel


def test_an_ordinary_move_wheels_toward_its_goal_then_goes_straight_on(tmp_path: Path) -> None:
    # L98-L102: ten Halberdiers (five files on 20 mm bases: 3.94" wide) facing up the table
    # at (36, 10), the Orcs ahead and to the right (heading 45): they wheel right about the
    # right front corner, the outside model travelling 45° x 3.94" = 3.09" of the 4" move,
    # and the rest is straight on toward the Orcs.
    w = World(tmp_path, [unit("a", "empire", 36, 10), unit("b", "orcs", 56, 30, 225)])
    w.call("advance_on", {}, u="a", inches=4)
    wheels = [e for e in w.events if e.kind == "wheel"]
    moves = [e for e in w.events if e.kind == "move"]
    width = 5 * 20 / 25.4
    assert wheels[0].degrees > 40 and wheels[0].inches == round(
        wheels[0].degrees * 3.141592653589793 / 180 * width, 3)
    assert round(sum(e.inches for e in wheels) + sum(m.inches for m in moves), 2) == 4
    assert abs(w.call("turn_toward", {}, u="a", goal="b")) < 1


def test_a_move_too_short_for_the_whole_wheel_only_wheels(tmp_path: Path) -> None:
    # the Orcs straight to the right (heading 90): a 90° wheel costs 6.18", more than the
    # 4" move, so the unit turns 4 / 3.94 radians (58.2°) and goes no further (L102)
    w = World(tmp_path, [unit("a", "empire", 36, 10), unit("b", "orcs", 60, 10, 270)])
    w.call("advance_on", {}, u="a", inches=4)
    wheels = [e for e in w.events if e.kind == "wheel"]
    assert [round(e.degrees, 1) for e in wheels] == [58.2]
    assert wheels[0].inches == 4
    assert not [e for e in w.events if e.kind == "move"]


def test_a_unit_facing_its_goal_moves_straight_without_wheeling(tmp_path: Path) -> None:
    w = World(tmp_path, [unit("a", "empire", 36, 10), unit("b", "orcs", 36, 30, 180)])
    w.call("advance_on", {}, u="a", inches=4)
    assert not [e for e in w.events if e.kind == "wheel"]
    assert [e.inches for e in w.events if e.kind == "move"] == [4]
