"""Moves along a heading, placing units that are off the table, and bringing a destroyed
unit back: the generic builtins of interpreter/engine/builtins/placement.py (a 72" x 48"
table; a block of ten on 1" bases, five files, is 5" wide and 2" deep)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diagnostics import BattleError
from rules_run.runtime.events import Arrive, LeftTable, Returned, StraightMove
from rules_run.space import Pose
from helpers.wfb8_builtins import build


def u(uid: str, x: float, y: float, side: str = "a", facing: float = 0) -> dict:
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": 10, "files": 5,
            "base": {"w": 25.4, "d": 25.4}, "position": {"x": x, "y": y, "facing": facing}}


def message(info: pytest.ExceptionInfo) -> str:
    return info.value.diagnostics[0].message


# ---------------------------------------------------------------- headings


def test_the_heading_toward_each_table_edge_is_the_opposite_of_coming_on_there(
        tmp_path: Path) -> None:
    _, b, _ = build(tmp_path, [u("r", 20, 40)])
    assert [b("toward_edge", e) for e in (0, 90, 180, 270)] == [180.0, 270.0, 0.0, 90.0]
    assert b("toward_edge", b("home_edge", "r")) == 0.0    # its own edge is the far one
    with pytest.raises(BattleError) as info:
        b("toward_edge", 45)
    assert message(info) == ("toward_edge(): a table edge is the heading a unit coming on "
                             "there faces: 0, 90, 180 or 270, got 45")


# ---------------------------------------------------------------- moves along a heading


def test_a_move_along_a_heading_turns_the_unit_and_moves_it_that_far(tmp_path: Path) -> None:
    state, b, events = build(tmp_path, [u("r", 20, 20)])
    assert b("move_along", "r", 90, 7) == 7.0
    assert state.units[0].pose == Pose(27, 20, 90)
    move = [e for e in events if isinstance(e, StraightMove)][-1]
    assert (move.heading, move.inches, move.toward, move.away_from) == (90.0, 7.0, None, None)
    assert state.units[0].on_table


def test_a_move_that_meets_the_table_edge_stops_there_and_leaves_the_table(
        tmp_path: Path) -> None:
    # r faces down the table at y = 10: turned to 180 its rear-most corners are at y = 9,
    # 9" from the edge y = 0; a move of 12" stops after 9" and r leaves the table
    state, b, events = build(tmp_path, [u("r", 20, 10)])
    assert b("move_along", "r", 180, 12) == 9.0
    r = state.units[0]
    assert r.pose == Pose(20, 1, 180) and not r.on_table and not r.destroyed
    left = [e for e in events if isinstance(e, LeftTable)]
    assert [(e.unit, e.reason) for e in left] == [("r", "reached the table edge")]
    assert not state.alive(r)


def test_a_move_that_ends_just_short_of_the_edge_stays_on_the_table(tmp_path: Path) -> None:
    state, b, events = build(tmp_path, [u("r", 20, 10)])
    assert b("move_along", "r", 180, 8.5) == 8.5
    assert state.units[0].on_table and not [e for e in events if isinstance(e, LeftTable)]


def test_a_move_until_clear_goes_on_past_the_units_it_ends_near(tmp_path: Path) -> None:
    # r (x 17.5..22.5, y 19..21) moves 5" down the table, to y 14..16, touching e (y 12..14):
    # it goes on until 1" clear of e beyond it, its top edge at y 11, its centre at y 10:
    # 5" and 5" more
    state, b, events = build(tmp_path, [u("r", 20, 20), u("e", 20, 13, side="b")])
    assert b("move_along", "r", 180, 5, 1) == pytest.approx(10.0)
    move = [e for e in events if isinstance(e, StraightMove)][-1]
    assert (move.inches, move.on_until_clear) == (10.0, 5.0)
    assert state.units[0].pose.y == pytest.approx(10.0)
    assert b("distance", "r", "e") == pytest.approx(1.0)


def test_a_move_along_a_heading_of_a_unit_off_the_table_is_an_error(tmp_path: Path) -> None:
    _, b, _ = build(tmp_path, [u("r", 20, 20)])
    with pytest.raises(BattleError) as info:
        b("move_along", "r", 0, -3)
    assert message(info) == "move_along(): a distance of inches cannot be negative, got -3"
    b("set_aside", "r")
    with pytest.raises(BattleError) as info:
        b("move_along", "r", 0, 3)
    assert message(info) == "move_along(): 'r' is not on the table"


# ---------------------------------------------------------------- placing


def test_a_unit_set_aside_is_placed_centred_on_a_marker_facing_a_heading(
        tmp_path: Path) -> None:
    state, b, events = build(tmp_path, [u("r", 20, 20), u("e", 50, 30, side="b")])
    b("set_aside", "r")
    mark = b("place_marker", "e")                   # a point at e's centre (50, 30)
    b("move_marker", mark, 180, 10)                 # now at (50, 20)
    assert b("place", "r", mark, 270) is True
    r = state.units[0]
    assert r.pose == Pose(50, 20, 270) and r.on_table and not r.set_aside
    arrive = [e for e in events if isinstance(e, Arrive)][-1]
    assert (arrive.unit, arrive.at, arrive.facing) == ("r", [50.0, 20.0], 270.0)


def test_a_unit_is_not_placed_on_another_unit_nor_off_the_table(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [u("r", 20, 20), u("e", 50, 30, side="b")])
    b("set_aside", "r")
    assert b("place", "r", "e") is False            # on e
    assert b("place", "r", b("home_marker", "r")) is True
    b("set_aside", "r")
    state.units[1].pose = Pose(2, 30, 0)            # e's centre 2" from the edge x = 0
    assert b("place", "r", "e", 0) is False         # r is 5" wide: partly off the table
    assert not state.units[0].on_table


def test_within_a_distance_the_nearest_clear_spot_is_taken(tmp_path: Path) -> None:
    # e spans x 47.5..52.5, y 29..31; r (5" x 2") within 6" of e's centre and 1" clear of
    # it, nearest first on a 0.5" grid: 3" above it (r's bottom edge at y 32, 1" from e's
    # top) is the nearest clear spot; spots beside e are 6" or more away
    state, b, _ = build(tmp_path, [u("r", 20, 20), u("e", 50, 30, side="b")])
    b("set_aside", "r")
    assert b("place", "r", "e", 0, 6, 1) is True
    assert state.units[0].pose == Pose(50, 33, 0)
    b("set_aside", "r")
    assert b("place", "r", "e", 0, 2, 1) is False   # no spot within 2" is 1" clear
    assert not state.units[0].on_table


def test_clear_of_only_the_units_named(tmp_path: Path) -> None:
    # f is a friend 0.5" above where r lands: clear of the enemies only, r may stand there
    state, b, _ = build(tmp_path, [u("r", 20, 20), u("e", 50, 10, side="b"),
                                   u("f", 50, 32.5)])
    b("set_aside", "r")
    spot = b("place_marker", "e")
    b("move_marker", spot, 0, 20)                  # (50, 30): r's top edge at y 31
    assert b("place", "r", spot, 0, 0, 1) is False  # f within 1"
    assert b("place", "r", spot, 0, 0, 1, [state.units[1]]) is True


def test_misplacing_a_unit_is_a_located_error(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [u("r", 20, 20), u("e", 50, 30, side="b")])
    with pytest.raises(BattleError) as info:
        b("place", "r", "e")
    assert message(info) == ("place(): 'r' is on the table already; place() puts a unit "
                             "that is off it (set aside) on the table")
    b("destroy", "r")
    with pytest.raises(BattleError) as info:
        b("place", "r", "e")
    assert message(info) == ("place(): 'r' is destroyed; restore() brings a destroyed unit "
                             "back before it is placed")
    b("restore", "r")
    with pytest.raises(BattleError) as info:
        b("place", "r", "e", 0, -1)
    assert message(info) == "place(): a distance of inches cannot be negative, got -1"
    with pytest.raises(BattleError) as info:
        b("place", "r", "e", 0, 3, 1, [7])
    assert message(info) == ("place(): what to keep clear of is a list of units and terrain "
                             "pieces, got 7 in it")


# ---------------------------------------------------------------- coming back


def test_a_destroyed_unit_is_restored_off_the_table_with_its_statuses(tmp_path: Path) -> None:
    state, b, events = build(tmp_path, [u("r", 20, 20), u("e", 50, 30, side="b")])
    r = state.units[0]
    r.statuses["marked"] = None
    b("destroy", "r")
    assert r.destroyed and r.models == 0
    assert b("restore", "r", 1, 1) == 1
    assert (r.destroyed, r.models, r.wounds, r.on_table, r.set_aside) == (
        False, 1, 1, False, True)
    assert "marked" in r.statuses
    assert [(e.unit, e.models) for e in events if isinstance(e, Returned)] == [("r", 1)]
    assert b("place", "r", b("place_marker", "e"), 90, 3, 1) is True
    assert state.alive(r)
    with pytest.raises(BattleError) as info:
        b("restore", "r")
    assert message(info) == ("restore(): 'r' is not destroyed; return_models() gives a unit "
                             "in the battle its slain models back")


def test_restoring_more_models_than_it_had_is_an_error(tmp_path: Path) -> None:
    _, b, _ = build(tmp_path, [u("r", 20, 20)])
    b("destroy", "r")
    with pytest.raises(BattleError) as info:
        b("restore", "r", 11)
    assert message(info) == "restore(): 'r' comes back with 1 to 10 models, got 11"
