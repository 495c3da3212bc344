"""Characters joined to units (000 L741-L799) through the generic attach builtin."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import RandomChance
from rules_run import open_battle
from rules_run.engine.driver import run_battle
from rules_run.engine.state import BattleState

BATTLE = """edition: wfb8
seed: 2
game: {rounds: 2, first: empire}
units:
  - {id: captain, side: empire, profile: empire/captain, models: 1,
     values: {joined_to: halberdiers}, position: {x: 36, y: 10, facing: 0}}
  - {id: halberdiers, side: empire, profile: empire/halberdier, models: 20, files: 5,
     command: [standard], points: 130, position: {x: 36, y: 10, facing: 0}}
  - {id: orcs, side: orcs, profile: orcs/orc_boy, models: 20, files: 5, command: [standard],
     points: 130, position: {x: 36, y: 20, facing: 180}}
  - {id: arrer_boyz, side: orcs, profile: orcs/orc_arrer_boy, models: 10, files: 5,
     points: 80, position: {x: 40, y: 24, facing: 180}}
"""


@pytest.fixture()
def battle_file(tmp_path: Path) -> str:
    path = tmp_path / "joined.yaml"
    path.write_text(BATTLE)
    return str(path)


def set_up(battle_file: str):
    _, runtime, battle = open_battle("wfb8", battle_file)
    state = BattleState(runtime, battle, [], {})
    env = runtime.env(RandomChance(1), battle.options, [], state)
    runtime.battle_blocks["setup"](env, {})
    units = {u.id: u for u in state.units}
    return runtime, env, units


def test_the_unit_tests_on_the_highest_leadership_present(battle_file: str) -> None:
    runtime, env, units = set_up(battle_file)
    captain, halberdiers = units["captain"], units["halberdiers"]
    assert captain.leader is halberdiers and halberdiers.followers == [captain]   # L741
    assert captain.profile["Ld"] > halberdiers.profile["Ld"]
    # the unit borrows the captain's Leadership (L771)
    assert runtime.invoke("borrowed_ld", env, {"u": halberdiers}) == captain.profile["Ld"]


def test_a_joined_character_cannot_be_shot_while_its_unit_has_five_models(
        battle_file: str) -> None:
    runtime, env, units = set_up(battle_file)
    targets = runtime.invoke("shooting_targets", env, {"u": units["arrer_boyz"]})
    assert units["captain"] not in targets                                        # L761
    units["halberdiers"].models = 4
    targets = runtime.invoke("shooting_targets", env, {"u": units["arrer_boyz"]})
    assert units["captain"] in targets or units["halberdiers"] in targets


def test_a_joined_character_moves_and_fights_with_its_unit(battle_file: str) -> None:
    _, runtime, battle = open_battle("wfb8", battle_file)
    result = run_battle(runtime, battle)
    kinds = [(e.kind, getattr(e, "unit", None), getattr(e, "to", None)) for e in result.events]
    assert ("attach", "captain", "halberdiers") in kinds
    # it never moves or charges on its own, yet it fights the Orcs with its unit
    assert not any(e.kind in ("move", "engage") and getattr(e, "unit", None) == "captain"
                   for e in result.events)
    fights = [e for e in result.events if e.kind == "attacks" and e.attacker == "captain"]
    assert fights and fights[0].target == "orcs"
