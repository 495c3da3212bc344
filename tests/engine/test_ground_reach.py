"""Moves over slow ground and obstacles: ``ground_reach``, a generic builtin of
interpreter/engine/builtins/movement.py.

The mover is a 5" x 2" block (ten models on 1" bases, five files) at x 36, y 9-11, facing up
the table at a foe 30" off; the pieces lie across the table, so each reach below is worked
out by hand along y. The wfb8 ruleset only supplies the unit data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules_run.diagnostics import BattleError
from helpers.wfb8_builtins import build


def u(uid: str, y: float, side: str = "a", facing: float = 0) -> dict:
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": 10, "files": 5,
            "base": {"w": 25.4, "d": 25.4}, "position": {"x": 36, "y": y, "facing": facing}}


def piece(pid: str, y0: float, y1: float) -> dict:
    return {"id": pid, "kind": "special", "at": {"x": 36, "y": (y0 + y1) / 2},
            "size": {"w": 30, "h": y1 - y0}, "effects": []}


def world(tmp_path: Path, *pieces: dict) -> Any:
    """The caller of builtins and the pieces by id."""
    _, b, _ = build(tmp_path, [u("m", 10), u("e", 42, "b", 180)],
                    {"width": 72, "depth": 48, "terrain": list(pieces)})
    return b, {p.id: p for p in b("terrain")}


def test_slow_ground_ahead_is_crossed_at_its_rate(tmp_path: Path) -> None:
    # 2" of open ground to the scrub (y 13), then 4" left at half rate: 2" more
    b, p = world(tmp_path, piece("scrub", 13, 20))
    assert b("ground_reach", "m", "e", 6, 30, [p["scrub"]], 0.5, [], 0) == 4
    # without the scrub in the list, the ground is open
    assert b("ground_reach", "m", "e", 6, 30, [], 0.5, [], 0) == 6


def test_the_rate_holds_until_the_footprint_is_clear_of_the_piece(tmp_path: Path) -> None:
    # the block overlaps the wood (y 0-12) until its rear (y 9) passes y 12: 3" at half rate
    # cost 6; with 4 it goes 2", with 8 it goes 3" and then 2" at the full rate
    b, p = world(tmp_path, piece("wood", 0, 12))
    assert b("ground_reach", "m", "e", 4, 30, [p["wood"]], 0.5, [], 0) == 2
    assert b("ground_reach", "m", "e", 8, 30, [p["wood"]], 0.5, [], 0) == 5


def test_an_obstacle_costs_its_crossing_and_the_mover_is_placed_past_it(tmp_path: Path) -> None:
    # the hedge (y 12-12.5) is 1" off; over it, the block's rear is at 12.5: 3.5" along
    b, p = world(tmp_path, piece("hedge", 12, 12.5))
    hedge = [p["hedge"]]
    assert b("ground_reach", "m", "e", 4, 30, [], 0.5, hedge, 2) == 4.5   # 1 + over + 1
    assert b("ground_reach", "m", "e", 3, 30, [], 0.5, hedge, 2) == 3.5   # 1 + over
    # too little left to cross: it halts at the hedge and loses the rest
    assert b("ground_reach", "m", "e", 2.5, 30, [], 0.5, hedge, 2) == 1
    # nor does it cross when the far side lies past `most`
    assert b("ground_reach", "m", "e", 4, 3, [], 0.5, hedge, 2) == 1
    assert b("ground_reach", "m", "e", 4, 0.5, [], 0.5, hedge, 2) == 0.5


def test_an_obstacle_it_stands_on_does_not_stop_it(tmp_path: Path) -> None:
    b, p = world(tmp_path, piece("ditch", 10, 10.5))
    assert b("ground_reach", "m", "e", 4, 30, [], 0.5, [p["ditch"]], 2) == 4


def test_a_stretch_ended_on_slow_ground_is_rounded_up_to_the_step(tmp_path: Path) -> None:
    # 3.5 at half rate is 1.75: with a step of 1/2, 2; never past the slow ground's end
    b, p = world(tmp_path, piece("bog", 0, 30))
    assert b("ground_reach", "m", "e", 3.5, 30, [p["bog"]], 0.5, [], 0) == 1.75
    assert b("ground_reach", "m", "e", 3.5, 30, [p["bog"]], 0.5, [], 0, 0.5) == 2
    b, p = world(tmp_path, piece("mud", 0, 10.8))
    # the mud ends 1.8" on (its far side, y 10.8, passes the rear at y 9): 1.75, not 2
    assert b("ground_reach", "m", "e", 3.5, 30, [p["mud"]], 0.5, [], 0, 0.5) == 1.8


def test_ground_reach_takes_terrain_pieces_and_a_rate_in_range(tmp_path: Path) -> None:
    b, p = world(tmp_path, piece("wood", 0, 12))
    with pytest.raises(BattleError, match=r"ground_reach\(\): slow ground and obstacles are "
                                          r"terrain pieces, got .*Unit"):
        b("ground_reach", "m", "e", 4, 30, b("enemies", "m"), 0.5, [], 0)
    with pytest.raises(BattleError, match=r"ground_reach\(\): the rate on slow ground is above "
                                          r"0 and at most 1, got 0"):
        b("ground_reach", "m", "e", 4, 30, [p["wood"]], 0, [], 0)
