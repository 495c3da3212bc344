"""Reinforcements (000 L206-L208): set aside at the start, arriving in their turn."""

from __future__ import annotations

from pathlib import Path

from rules_run import open_battle
from rules_run.engine.driver import run_battle

BATTLE = """edition: wfb8
seed: 4
game: {rounds: 3, first: empire}
units:
  - {id: halberdiers, side: empire, profile: empire/halberdier, models: 10, files: 5,
     points: 60, position: {x: 36, y: 6, facing: 0}}
  - {id: spearmen, side: empire, profile: empire/spearman, models: 10, files: 5, points: 60,
     values: {reinforcement_turn: 2}, position: {x: 10, y: 2, facing: 0}}
  - {id: orcs, side: orcs, profile: orcs/orc_boy, models: 10, files: 5, points: 60,
     position: {x: 36, y: 44, facing: 180}}
"""


def test_a_reinforcement_waits_then_arrives_in_its_sides_second_turn(tmp_path: Path) -> None:
    path = tmp_path / "reinforcements.yaml"
    path.write_text(BATTLE)
    _, runtime, battle = open_battle("wfb8", str(path))
    result = run_battle(runtime, battle)
    events = result.events
    aside = next(e for e in events if e.kind == "set_aside")
    arrive = next(e for e in events if e.kind == "arrive")
    assert aside.unit == arrive.unit == "spearmen"
    assert aside.round == 0                                # held back at set-up
    assert (arrive.round, arrive.side, arrive.phase) == (2, "empire", "remaining_moves")
    # it moved by arriving: no move of its own that turn (L208)
    same_turn = [e for e in events if e.round == 2 and e.side == "empire"
                 and e.kind == "move" and e.unit == "spearmen"]
    assert same_turn == []
    # before arriving it is not a unit on the table: nothing targets or scores it
    assert not any(e.kind == "engage" and "spearmen" in (getattr(e, "unit", None), getattr(e, "target", None))
                   for e in events if e.round < 2)


def test_a_reinforcement_that_never_arrives_gives_no_victory_points(tmp_path: Path) -> None:
    path = tmp_path / "late.yaml"
    path.write_text(BATTLE.replace("reinforcement_turn: 2", "reinforcement_turn: 9"))
    _, runtime, battle = open_battle("wfb8", str(path))
    result = run_battle(runtime, battle)
    assert not any(e.kind == "arrive" for e in result.events)
    spearmen = next(u for u in result.units if u.id == "spearmen")
    assert spearmen.models == 10
    scored = [e for e in result.events if e.kind == "score" and e.side == "orcs"]
    assert sum(e.points for e in scored) < 60 + 60   # the spearmen's 60 are not given


# the reinforcement battle, the halberdiers moved next to where the spearmen come on
RESERVES = (BATTLE.replace("{x: 36, y: 6, facing: 0}", "{x: 12, y: 3, facing: 0}")
            .replace("values: {reinforcement_turn: 2}", "values: {reserve: true}"))


def arrivals(tmp_path: Path, text: str) -> list[dict]:
    path = tmp_path / "reserves.yaml"
    path.write_text(text)
    _, runtime, battle = open_battle("wfb8", str(path))
    return [e for e in run_battle(runtime, battle).events if e.kind == "arrive"]


def test_a_reserve_comes_on_at_its_own_long_edge_clear_of_the_units_there(
        tmp_path: Path) -> None:
    # L1201: the spearmen (5 files of 20 mm: 3.94" wide, 1.57" deep) come on at the long
    # edge nearest their battle-file position (y = 0, facing up the table), rear rank on it
    # (L206): centred 0.787" in. Level with x = 10 they would stand 0.64" from the
    # halberdiers (x 10.03..13.97, y 2.21..3.79), nearer than 1" (L94); the nearest place
    # 1" clear along the edge, in steps of 0.5", is x = 7 (x 7.29 or less on the left, 16.71
    # or more on the right).
    (arrive,) = arrivals(tmp_path, RESERVES)
    assert (arrive.unit, arrive.round, arrive.side) == ("spearmen", 1, "empire")
    assert (arrive.at, arrive.facing) == ([7.0, 0.787], 0.0)


def test_a_reserve_waits_while_its_controller_chooses(tmp_path: Path) -> None:
    text = RESERVES + """orders:
  - {decision: bring_reserve, round: 1, choose: wait}
"""
    (arrive,) = arrivals(tmp_path, text)
    assert (arrive.unit, arrive.round) == ("spearmen", 2)


def test_ambushers_wait_and_spring_at_the_far_edge_from_their_second_turn(
        tmp_path: Path) -> None:
    # Ambushers (L567; read as reserves, L1201): held from set-up, they come on in their
    # side's second turn; the default policy picks the enemy's long edge (y = 48, facing
    # down), level with the battle-file x = 10: centred 0.787" in from it
    text = RESERVES.replace("values: {reserve: true}", 'rules: ["Ambushers"]')
    (arrive,) = arrivals(tmp_path, text)
    assert (arrive.unit, arrive.round, arrive.side) == ("spearmen", 2, "empire")
    assert (arrive.at, arrive.facing) == ([10.0, 47.213], 180.0)
