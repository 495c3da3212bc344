"""Moves through and past units: ``passed_through`` and ``move_away(..., clear_of)``, the
generic builtins of interpreter/engine/state.py.

Every unit stands on 1" square bases, ten models five files wide: a 5" x 2" block, so each
layout below is worked out by hand. The wfb8 ruleset only supplies the unit data.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from rules_run.space import edge_distance
from helpers.wfb8_builtins import build


def u(uid: str, x: float, y: float, facing: float = 0, side: str = "a",
      **spec: Any) -> dict:
    """A 5" x 2" block (ten models on 1" bases, five files) centred at (x, y)."""
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": 10, "files": 5,
            "base": {"w": 25.4, "d": 25.4}, "position": {"x": x, "y": y, "facing": facing},
            **spec}


def ids(units: list) -> list[str]:
    return sorted(x.id for x in units)


# ============================================================== passed_through


def test_a_move_passes_through_the_units_across_its_path_not_those_beside_it(
        tmp_path: Path) -> None:
    # m (x 33.5-38.5, y 9-11) flees 10" away from e (below it): it ends at y 19-21, so it
    # swept x 33.5-38.5, y 9-21
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"),
        u("across", 36, 15, 90),          # x 35-37, y 12.5-17.5: in the way
        u("clipped", 40.9, 15),           # x 38.4-43.4: 0.1" into the path
        u("beside", 41, 15),              # x 38.5-43.5: touching the path's edge only
        u("far", 60, 15),
        u("behind_it", 36, 24),           # y 23-25: 2" past where it stops
    ])
    assert b("passed_through", "m") == []   # it has not moved yet
    assert b("move_away", "m", "e", 10) == 10.0
    assert (state.units[0].pose.x, round(state.units[0].pose.y, 9)) == (36.0, 20.0)
    assert ids(b("passed_through", "m")) == ["across", "clipped"]
    # the unit fled from is behind the path: it is not passed through
    assert "e" not in ids(b("passed_through", "m"))


def test_the_path_starts_from_the_footprint_turned_the_way_it_goes(tmp_path: Path) -> None:
    # m faces the flank (x 35-37, y 7.5-12.5); turned about its centre to flee up the table
    # it starts at x 33.5-38.5, y 9-11. turned_into (x 38.4-40.4) is 1.4" from m's old
    # footprint but 0.1" into the turned one: passed through. left_behind (y 4.5-6.5) is
    # below m's old footprint and the turned one: not passed through
    state, b, _ = build(tmp_path, [
        u("m", 36, 10, 90), u("e", 36, 1, 180, side="b"),
        u("turned_into", 39.4, 10, 90), u("left_behind", 36, 5.5)])
    assert b("distance", "m", "turned_into") == pytest.approx(1.4)
    b("move_away", "m", "e", 3)
    assert ids(b("passed_through", "m")) == ["turned_into"]


def test_units_attached_to_the_mover_are_not_passed_through(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("joined", 36, 10, models=1),
        u("across", 36, 15)])
    b("attach", "joined", "m")
    b("move_away", "m", "e", 10)
    assert ids(b("passed_through", "m")) == ["across"]
    # a destroyed unit is not passed through either
    b("destroy", "across")
    assert b("passed_through", "m") == []


def test_move_toward_and_move_to_are_remembered_too(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("target", 36, 30, 180, side="b"), u("across", 36, 20, 90)])
    b("move_toward", "m", "target", 6)      # y 9-17 swept: short of across (y 17.5-22.5)
    assert b("passed_through", "m") == []
    b("move_toward", "m", "target", 5)      # from y 15-17 to y 20-22
    assert ids(b("passed_through", "m")) == ["across"]


# ============================================================== move_away(..., clear_of)


def test_a_move_ending_on_a_unit_goes_on_until_clear(tmp_path: Path) -> None:
    # m would end at y 19-21, touching k (y 21-23): it goes on until its rear edge is 1"
    # past k's far edge, y 24: its centre at y 25, 15" in all
    state, b, events = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("k", 36, 22)])
    m = state.units[0]
    moved = b("move_away", "m", "e", 10, 1)
    assert moved == pytest.approx(15.0, abs=1e-6)
    assert m.pose.y == pytest.approx(25.0, abs=1e-6) and m.pose.x == pytest.approx(36.0)
    assert b("distance", "m", "k") == pytest.approx(1.0, abs=1e-6)
    assert b("distance", "m", "k") >= 1.0
    assert ids(b("passed_through", "m")) == ["k"]
    move = [e for e in events if e.kind == "move"][-1]
    assert move.inches == 15.0 and move.on_until_clear == 5.0


def test_clearing_one_unit_onto_another_goes_on_past_both(tmp_path: Path) -> None:
    # clear of k at y 25 (m at y 24-26), m is on k2 (y 24.5-26.5): on to y 28.5
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("k", 36, 22), u("k2", 36, 25.5)])
    assert b("move_away", "m", "e", 10, 1) == pytest.approx(18.5, abs=1e-6)
    assert state.units[0].pose.y == pytest.approx(28.5, abs=1e-6)
    assert ids(b("passed_through", "m")) == ["k", "k2"]


def test_a_unit_ending_beside_another_goes_on_until_the_corners_are_apart(
        tmp_path: Path) -> None:
    # m ends at x 33.5-38.5, y 19-21; s stands 0.5" to its right (x 39-44, y 19-21). It is
    # clear once its top-right corner (38.5, y) is 1" from s's bottom-left corner (39, 19):
    # 19 - y = sqrt(1 - 0.25), so its centre stops at 19 + 0.866 + 1 (rear edge to centre)
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("s", 41.5, 20)])
    b("move_away", "m", "e", 10, 1)
    assert state.units[0].pose.y == pytest.approx(21 + math.sqrt(0.75) + 1, abs=1e-6)
    assert b("distance", "m", "s") == pytest.approx(1.0, abs=1e-6)
    # it only passed beside s
    assert b("passed_through", "m") == []


def test_a_move_ending_far_enough_away_stops_where_it_ends(tmp_path: Path) -> None:
    # k at y 22-24 is exactly 1" from where m ends: m stops there
    state, b, events = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("k", 36, 23)])
    assert b("move_away", "m", "e", 10, 1) == 10.0
    assert state.units[0].pose.y == pytest.approx(20.0)
    assert [e for e in events if e.kind == "move"][-1].on_until_clear is None
    # 0.5" nearer, it goes on past k
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("k", 36, 22.5)])
    assert b("move_away", "m", "e", 10, 1) == pytest.approx(15.5, abs=1e-6)


def test_moving_on_ends_at_the_table_edge(tmp_path: Path) -> None:
    # m would end at y 43-45, within 0.5" of k (y 45.5-47.5) at the table's far edge (48):
    # it goes on past k and off the table
    state, b, events = build(tmp_path, [
        u("m", 36, 40), u("e", 36, 34, 180, side="b"), u("k", 36, 46.5)])
    b("move_away", "m", "e", 4, 1)
    m = state.units[0]
    assert not m.on_table
    assert m.pose.y == pytest.approx(49.5, abs=1e-6)
    assert [e.kind for e in events][-1] == "left_table"


def test_moving_on_leaves_the_units_attached_to_it_with_it(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("joined", 36, 10, models=1),
        u("k", 36, 22)])
    b("attach", "joined", "m")
    b("move_away", "m", "e", 10, 1)
    m, joined = state.units[0], state.units[2]
    assert m.pose.y == pytest.approx(25.0, abs=1e-6) and joined.pose is m.pose


def test_distances_after_a_move_on_are_those_computed_afresh(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [
        u("m", 36, 10), u("e", 36, 4, 180, side="b"), u("k", 36, 22), u("s", 41.5, 26)])
    for other in ("e", "k", "s"):
        b("distance", "m", other)            # kept for where m stood
    b("move_away", "m", "e", 10, 1)
    m = state.units[0]
    for other in state.units[1:]:
        fresh = edge_distance(m.pose, state.footprint(m), other.pose, state.footprint(other))
        assert b("distance", "m", other.id) == fresh
        assert fresh >= 1.0 - 1e-9
