"""Units placed at a table edge: ``arrive(unit, edge, along, keep_away)`` and ``home_edge``,
the generic builtins of interpreter/engine/state.py (a 72" x 48" table; a block of ten on 1"
bases, five files, is 5" wide and 2" deep)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diagnostics import BattleError
from rules_run.space import Pose
from helpers.wfb8_builtins import build


def u(uid: str, x: float, y: float, side: str = "a") -> dict:
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": 10, "files": 5,
            "base": {"w": 25.4, "d": 25.4}, "position": {"x": x, "y": y, "facing": 0}}


def test_a_unit_arrives_facing_in_with_its_rear_on_each_edge(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [u("r", 20, 40), u("e", 67.5, 24, side="b")])
    r = state.units[0]
    assert b("home_edge", "r") == 180.0            # nearer the far long edge (y = 48)
    for edge, along, pose in [(0, 30, Pose(30, 1, 0)), (180, None, Pose(20, 47, 180)),
                              (90, 10, Pose(1, 10, 90)), (270, 70, Pose(71, 45.5, 270))]:
        b("set_aside", "r")
        assert b("arrive", "r", edge, along) is True
        assert r.pose == pose, edge                  # at 270, 70 is kept on the table
    # 1" clear of e (x 65..70, y 23..25): at the edge x = 72 (r spans x 70..72 and 5" along
    # y), level with e it would touch it; 1" clear, its centre is at y 19.5 or less, or 28.5
    # or more: as near either way, the lower comes first
    b("set_aside", "r")
    assert b("arrive", "r", 270, 24, 1) is True
    assert r.pose == Pose(71, 19.5, 270)


def test_a_table_edge_must_be_one_of_the_four_headings(tmp_path: Path) -> None:
    _, b, _ = build(tmp_path, [u("r", 20, 40)])
    b("set_aside", "r")
    with pytest.raises(BattleError) as info:
        b("arrive", "r", 45)
    assert info.value.diagnostics[0].message == (
        "a table edge is the heading a unit faces coming on: 0, 90, 180 or 270, got 45")
