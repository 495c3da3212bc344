"""Impassable terrain in wfb8 (seed 000 L881, L182-L184) and a charge that cannot close the
door (L164), on fixed positions.

Units stand on 1" square bases, five files wide: ten models are a 5" x 2" block, twenty a
5" x 4" one. Facing 0 is up the table (+y). A piece with the effect ``Impassable`` is one of
``impassable()`` (shooting.rules): moves stop short of it, a charge whose straight path
crosses it is neither offered nor made, a flee runs through it (a Dangerous Terrain test for
each piece) and on until 1" clear of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpers.wfb8_world import World, unit

INCH = {"w": 25.4, "d": 25.4}


def block(uid: str, side: str, x: float, y: float, facing: float = 0, **spec: Any) -> dict:
    spec.setdefault("base", INCH)
    if side == "orcs":
        spec.setdefault("profile", "orcs/orc_boy")
    return unit(uid, side, x, y, facing, **spec)


def piece(pid: str, x: float, y: float, w: float, h: float,
          effects: tuple[str, ...] = ("Impassable",)) -> dict:
    return {"id": pid, "kind": "special", "name": pid, "at": {"x": x, "y": y},
            "size": {"w": w, "h": h}, "effects": list(effects)}


def world(tmp_path: Path, units: list[dict], *pieces: dict) -> World:
    return World(tmp_path, units, battlefield={"width": 72, "depth": 48,
                                               "terrain": list(pieces)})


def facing_off(tmp_path: Path, *pieces: dict, orcs_y: float = 30) -> World:
    """Ten Halberdiers (x 33.5-38.5, y 9-11) facing ten Orc Boyz straight ahead."""
    return world(tmp_path, [block("men", "empire", 36, 10, models=10),
                            block("orcs", "orcs", 36, orcs_y, 180, models=10)], *pieces)


# ============================================================== moves stop short


def test_an_ordinary_move_stops_short_of_an_impassable_piece(tmp_path: Path) -> None:
    # a lake (y 14-16) across the way: a 4" move ends with the front rank against it, 3" on
    w = facing_off(tmp_path, piece("lake", 36, 15, 10, 2))
    w.call("advance_on", u="men", inches=4)
    assert w.unit("men").pose.y == pytest.approx(13.0)
    # the same lake without the effect is no obstacle: the whole 4"
    w = facing_off(tmp_path, piece("lake", 36, 15, 10, 2, ("Soft Cover",)))
    w.call("advance_on", u="men", inches=4)
    assert w.unit("men").pose.y == pytest.approx(14.0)


def test_a_move_may_leave_an_impassable_piece_it_stands_in(tmp_path: Path) -> None:
    # standing half in a chasm (y 8-10), the unit walks out of it: the whole 4"
    w = facing_off(tmp_path, piece("chasm", 36, 9, 10, 2))
    w.call("advance_on", u="men", inches=4)
    assert w.unit("men").pose.y == pytest.approx(14.0)


def test_a_piece_beside_the_path_does_not_stop_the_move(tmp_path: Path) -> None:
    # a rock at x 38.5-40.5 only touches the line of the unit's right flank (x 38.5)
    w = facing_off(tmp_path, piece("rock", 39.5, 14, 2, 2))
    w.call("advance_on", u="men", inches=4)
    assert w.unit("men").pose.y == pytest.approx(14.0)


def test_a_pursuit_stops_short_of_an_impassable_piece(tmp_path: Path) -> None:
    # pursuing 6" up the table toward fleeing Orcs (y 29-31), stopped by a chasm at y 13-15
    w = facing_off(tmp_path, piece("chasm", 36, 14, 10, 2))
    w.call("pursue_move", w="men", l="orcs", inches=6)
    assert w.unit("men").pose.y == pytest.approx(12.0)


# ============================================================== charges


def test_a_charge_across_an_impassable_piece_is_not_offered(tmp_path: Path) -> None:
    # the Orcs (y 17-19) are 6" away, well within the Halberdiers' reach; a lake at y 13-15
    # lies between: no charge is possible; without the lake one is
    assert facing_off(tmp_path, piece("lake", 36, 14, 10, 2), orcs_y=18).call(
        "charge_targets", u="men") == []
    w = facing_off(tmp_path, orcs_y=18)
    assert [e.id for e in w.call("charge_targets", u="men")] == ["orcs"]


def test_a_charge_whose_path_is_blocked_fails_short_of_the_piece(tmp_path: Path) -> None:
    # declared (the target was elsewhere when it was), the charge finds the lake in its way:
    # it reaches (M4 + 6 = 10 >= 6") but fails, moving as a failed charge, the higher die
    # (6") at most, and stopping against the lake (front 11 -> 13): 2"
    w = facing_off(tmp_path, piece("lake", 36, 14, 10, 2), orcs_y=18)
    w.call("complete_charge", [6, 6], u="men", target="orcs", reaction="hold")
    men = w.unit("men")
    assert men.pose.y == pytest.approx(12.0) and men.engaged == []
    assert w.logs("charge is blocked by") == [["men", "orcs", "lake"]]
    assert w.logs("charge connects") == []


# ============================================================== flee moves


def fleeing(tmp_path: Path, *pieces: dict) -> World:
    """Twenty Halberdiers (x 33.5-38.5, y 8-12) that flee up the table from Orc Boyz
    below them: 8" on the dice takes them to y 16-20."""
    return world(tmp_path, [block("a", "empire", 36, 10, models=20),
                            block("b", "orcs", 36, 2, 180)], *pieces)


def test_a_flee_runs_through_impassable_terrain_with_a_dangerous_terrain_test(
        tmp_path: Path) -> None:
    # a chasm at y 13-15 is fled through: each of the twenty models rolls a D6, the two 1s
    # are two Wounds with no save (the script holds no die for one), 20 -> 18
    w = fleeing(tmp_path, piece("chasm", 36, 14, 10, 2))
    faces = [1, 1] + [4] * 18
    w.call("flee_from", {"flee_distance": [4, 4], "dangerous_failures": faces},
           u="a", enemy="b")
    a = w.unit("a")
    assert a.pose.y == pytest.approx(18.0) and a.models == 18
    assert w.logs("dangerous terrain") == [["a", "chasm", 2]]


def test_a_flee_ending_on_impassable_terrain_goes_on_until_an_inch_clear(
        tmp_path: Path) -> None:
    # 8" would end it at y 16-20, on a lake at y 19.5-21.5: it flees on until its rear is
    # 1" past the lake, y 22.5 (its centre 24.5: 6.5" on), and tests for the lake, no 1s
    w = fleeing(tmp_path, piece("lake", 36, 20.5, 10, 2))
    w.call("flee_from", {"flee_distance": [4, 4], "dangerous_failures": [3] * 20},
           u="a", enemy="b")
    a = w.unit("a")
    assert a.pose.y == pytest.approx(24.5, abs=1e-6) and a.models == 20
    move = [e for e in w.events if e.kind == "move" and e.unit == "a"][-1]
    assert move.on_until_clear == pytest.approx(6.5)
    assert w.logs("dangerous terrain") == []


# ============================================================== closing the door (L164)


def askew(tmp_path: Path, *pieces: dict) -> World:
    """Ten Orc Boyz, turned 20° off, charge ten Halberdiers from ahead and to the right
    (test_wfb8_close_the_door.py): unobstructed, they close the door onto (36, 12)."""
    return world(tmp_path, [block("men", "empire", 36, 10, models=10),
                            block("orcs", "orcs", 39, 15, 200, models=10)], *pieces)


def test_a_door_blocked_for_the_charger_is_closed_by_its_target(tmp_path: Path) -> None:
    # a rock (x 32-34, y 12-13) stands where the Orcs' wheel would take their left end, so
    # the Halberdiers turn to face the Orcs instead (L164), their front flush with the
    # Orcs' front; the Orcs stay as they met them
    w = askew(tmp_path, piece("rock", 33, 12.5, 2, 1))
    w.call("complete_charge", [6, 6], u="orcs", target="men", reaction="hold")
    orcs, men = w.unit("orcs").pose, w.unit("men").pose
    assert orcs.facing != pytest.approx(180.0)
    assert men.facing == pytest.approx((orcs.facing + 180) % 360)
    assert w.logs("charge connects") == [["orcs", "men"]]
    assert w.logs("cannot close the door") == []


def test_a_door_blocked_both_ways_leaves_the_units_as_they_met(tmp_path: Path) -> None:
    # a stone (x 38-38.6, y 8.2-8.8) stands where the Halberdiers' turn would take their
    # rear right corner too: neither turns; the charge still connects, in contact askew
    w = askew(tmp_path, piece("rock", 33, 12.5, 2, 1), piece("stone", 38.3, 8.5, 0.6, 0.6))
    w.call("complete_charge", [6, 6], u="orcs", target="men", reaction="hold")
    orcs, men = w.unit("orcs"), w.unit("men")
    assert men.pose == men.home and orcs.pose.facing != pytest.approx(180.0)
    assert men in orcs.engaged
    assert w.logs("cannot close the door") == [["orcs", "men"]]
    assert w.logs("charge connects") == [["orcs", "men"]]


def test_another_unit_in_the_way_blocks_the_door_as_terrain_does(tmp_path: Path) -> None:
    # a friend of the Orcs standing where the rock stood (x 32-34, y 12-13, one rank of
    # two Orcs) keeps the Orcs from wheeling there: the Halberdiers close the door instead
    w = world(tmp_path, [block("men", "empire", 36, 10, models=10),
                         block("orcs", "orcs", 39, 15, 200, models=10),
                         block("pair", "orcs", 33, 12.5, 0, models=2, files=2)])
    w.call("complete_charge", [6, 6], u="orcs", target="men", reaction="hold")
    orcs, men = w.unit("orcs").pose, w.unit("men").pose
    assert men.facing == pytest.approx((orcs.facing + 180) % 360)


# ============================================================== misuse


def test_an_obstacle_that_is_neither_a_unit_nor_a_piece_is_a_located_error(
        tmp_path: Path) -> None:
    from rules_run.diagnostics import BattleError
    from rules_run.diagnostics import Span
    w = facing_off(tmp_path)
    span = Span("walls.rules", 5, 12, 5, 30)
    men, orcs = w.unit("men"), w.unit("orcs")
    with pytest.raises(BattleError) as caught:
        w.state.builtin(w.env(), "move_toward", [men, orcs, 4, [3]], span)
    [d] = caught.value.diagnostics
    assert (d.message, d.code, d.span) == (
        "move_toward() keeps clear of units and terrain pieces, got 3", "bad-argument", span)
    with pytest.raises(BattleError, match=r"^.*move_away\(\) keeps clear of terrain pieces, "
                       r"got Unit"):
        w.state.builtin(w.env(), "move_away", [men, orcs, 4, 1, [orcs]], span)
    assert men.pose == men.home
