"""Wheels and alignment: ``wheel`` and ``align``, the generic builtins of
interpreter/engine/state.py. Blocks on 1" bases: ten models five files wide are 5" x 2"."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rules_run.diagnostics import BattleError
from rules_run.space import Pose
from helpers.wfb8_builtins import build


def u(uid: str, x: float, y: float, facing: float = 0, side: str = "a", models: int = 10,
      files: int = 5) -> dict:
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": models,
            "files": files, "base": {"w": 25.4, "d": 25.4},
            "position": {"x": x, "y": y, "facing": facing}}


def near(pose: Pose, x: float, y: float, facing: float) -> bool:
    return (math.isclose(pose.x, x, abs_tol=1e-9) and math.isclose(pose.y, y, abs_tol=1e-9)
            and math.isclose(pose.facing, facing, abs_tol=1e-9))


def test_a_wheel_turns_about_the_front_corner_on_the_side_it_turns_to(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [u("w", 0, 0)])
    w = state.units[0]
    # a wheel right by 90°: about the front-right corner (2.5, 1); the centre, 2.5" left of
    # and 1" behind it, ends 2.5" ahead of it (+y) and 1" to its left (-x): (1.5, 3.5)
    assert b("wheel", "w", 90) == round(math.pi / 2 * 5, 3)
    assert near(w.pose, 1.5, 3.5, 90)
    # then left by 90° about its front-left corner, now at (2.5, 6): facing up the table
    # again, its front-left corner still there, so its centre is at (5, 5)
    b("wheel", "w", -90)
    assert near(w.pose, 5, 5, 0)


def test_a_unit_aligns_its_front_flush_with_the_edge_it_stands_before(tmp_path: Path) -> None:
    # t faces up the table at (36, 10): its front edge runs y = 11 from x 33.5 to 38.5; c
    # stands askew before it, to the right
    state, b, events = build(tmp_path, [u("t", 36, 10), u("c", 38, 14, 200, side="b")])
    c = state.units[1]
    b("align", "c", "t")
    # facing down the table, its front on t's front edge (its centre 1" out), and as it is
    # as wide as that edge, no room to shift: straight across from t
    assert near(c.pose, 36, 12, 180)
    assert b("arc", "c", "t") == "front" and b("distance", "c", "t") == 0
    assert events[-1].to_json()["kind"] == "align"


def test_a_unit_aligns_its_flank_to_the_front_of_a_wider_unit(tmp_path: Path) -> None:
    # a 10" wide charger (twenty models, ten files) before t's front, its centre a little to
    # t's left; t (5" x 2") turns its left flank, the nearer, against the charger's front
    # (y = 14 - 1 = 13, so t's centre 2.5" below)
    state, b, _ = build(tmp_path, [u("t", 37, 10, 0), u("c", 36, 14, 180, side="b", models=20,
                                                         files=10)])
    t = state.units[0]
    b("align", "t", "c", "flank")
    # t's centre stays level with where it was along the charger's front (x 37, within the
    # 5" of slack), its left flank on y = 13, so it faces +x (its left is +y)
    assert near(t.pose, 37, 10.5, 90)


def test_misused_wheels_and_alignments_are_located_errors(tmp_path: Path) -> None:
    _, b, _ = build(tmp_path, [u("t", 36, 10), u("c", 36, 14, 180, side="b")])
    with pytest.raises(BattleError) as info:
        b("align", "c", "t", "side")
    assert info.value.diagnostics[0].message == (
        "align() puts a unit's front, flank or rear against another, got 'side'")
    with pytest.raises(BattleError) as info:
        b("wheel", "c", "left")
    assert info.value.diagnostics[0].message == (
        "a wheel turns by a number of degrees, got 'left'")
