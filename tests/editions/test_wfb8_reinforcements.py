"""Reinforcements (000 L206-L208): set aside at the start, arriving in their turn."""

from __future__ import annotations

from pathlib import Path

from interpreter import open_battle
from interpreter.engine.driver import run_battle

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
    aside = next(e for e in events if e["kind"] == "set_aside")
    arrive = next(e for e in events if e["kind"] == "arrive")
    assert aside["unit"] == arrive["unit"] == "spearmen"
    assert aside["round"] == 0                                # held back at set-up
    assert (arrive["round"], arrive["side"], arrive["phase"]) == (2, "empire", "remaining_moves")
    # it moved by arriving: no move of its own that turn (L208)
    same_turn = [e for e in events if e["round"] == 2 and e["side"] == "empire"
                 and e["kind"] == "move" and e["unit"] == "spearmen"]
    assert same_turn == []
    # before arriving it is not a unit on the table: nothing targets or scores it
    assert not any(e.get("kind") == "engage" and "spearmen" in (e.get("unit"), e.get("target"))
                   for e in events if e["round"] < 2)


def test_a_reinforcement_that_never_arrives_gives_no_victory_points(tmp_path: Path) -> None:
    path = tmp_path / "late.yaml"
    path.write_text(BATTLE.replace("reinforcement_turn: 2", "reinforcement_turn: 9"))
    _, runtime, battle = open_battle("wfb8", str(path))
    result = run_battle(runtime, battle)
    assert not any(e["kind"] == "arrive" for e in result.events)
    spearmen = next(u for u in result.units if u.id == "spearmen")
    assert spearmen.models == 10
    scored = [e for e in result.events if e["kind"] == "score" and e["side"] == "orcs"]
    assert sum(e["points"] for e in scored) < 60 + 60   # the spearmen's 60 are not given
