"""The 40k5 ruleset's missions (seed 001, L1109-L1217): objectives controlled by scoring units
and contested, kill points, the missions' winners and their tactical draws, Dawn of War's units
moving on, Night Fighting, the moral victory, and the three mission battles played to the end.

Battle actions run through a probe of small battles with fixed positions and scripted dice;
exact chances through ``enumerate_exact``. ``Lnnn`` is a line of
``../shared/seeds/001_ae65b95f9afc45ec.txt``; ``Enn`` a worked example (the digest's §10.1).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import enumerate_exact
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle

ROOT = Path(__file__).resolve().parents[2]
F = Fraction
MISSIONS = {"seize_ground": "Seize Ground", "capture_and_control": "Capture and Control",
            "annihilation": "Annihilation"}

# Two objectives 30" apart; Troops of each side next to the first, a non-scoring unit (no
# TROOPS keyword) and a Troops vehicle next to the second.
FIELD = """
edition: 40k5
options: {{mission: {mission}}}
battlefield:
  width: 72
  depth: 48
  objectives:
    - {{id: one, at: {{x: 20, y: 24}}}}
    - {{id: two, at: {{x: 50, y: 24}}}}
units:
  - {{id: marines, side: imperium, profile: imperium/space_marine, models: 5, keywords: [TROOPS], position: {{x: 20, y: 21, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: 5, keywords: [TROOPS], position: {{x: {boyz_x}, y: 27, facing: 180}}}}
  - {{id: melta, side: imperium, profile: imperium/melta_marine, models: 5, position: {{x: 50, y: 21, facing: 0}}}}
  - {{id: russ, side: imperium, profile: imperium/leman_russ, models: 1, keywords: [TROOPS], position: {{x: 58, y: 10, facing: 0}}}}
"""


def field(tmp_path: Path, mission: str = "seize_ground", boyz_x: float = 20) -> Path:
    return battle_file(tmp_path, FIELD.format(mission=mission, boyz_x=boyz_x))


def test_scoring_units_are_troops_but_not_vehicles(tmp_path: Path) -> None:
    # L1122: only Troops score, and never a vehicle, even one taken as Troops.
    probe = Probe("40k5", field(tmp_path), dice=[])
    assert [u for u in ("marines", "boyz", "melta", "russ") if probe("scoring", u=u)] == ["marines", "boyz"]


def test_an_objective_with_both_sides_within_3_inches_is_contested(tmp_path: Path) -> None:
    # L1128: the marines' and the Boyz' nearest models are 2.5" from objective one: neither
    # controls it, it is contested. The meltagun marines stand by two but do not score.
    probe = Probe("40k5", field(tmp_path), dice=[])
    assert probe("contested", o="one") is True
    assert probe("controls", s="imperium", o="one") is False
    assert probe("controls", s="imperium", o="two") is False
    assert probe("held_objectives", s="imperium") == 0


def test_a_scoring_unit_alone_within_3_inches_controls(tmp_path: Path) -> None:
    # L1128: the Boyz 40" away: the marines hold objective one alone.
    probe = Probe("40k5", field(tmp_path, boyz_x=60), dice=[])
    assert probe("controls", s="imperium", o="one") is True
    assert probe("contested", o="one") is False
    assert probe("held_objectives", s="imperium") == 1 and probe("held_objectives", s="orks") == 0


def test_any_enemy_unit_denies_control(tmp_path: Path) -> None:
    # L1128: "no enemy unit (scoring or not)": the Boyz at objective two, 3" from the
    # non-scoring meltagun marines: the Boyz do not control it, and neither does Imperium.
    probe = Probe("40k5", field(tmp_path, boyz_x=50), dice=[])
    assert probe("controls", s="orks", o="two") is False
    assert probe("controls", s="orks", o="one") is False
    assert probe("contested", o="two") is True


def test_seize_ground_is_won_on_objectives(tmp_path: Path) -> None:
    # L1128: Imperium holds one objective, the Orks none: Imperium wins Seize Ground.
    probe = Probe("40k5", field(tmp_path, boyz_x=60), dice=[])
    probe("mission_result")
    assert probe.logged("objectives held") == [["imperium", 1, "orks", 0]]
    assert probe.logged("is a scoring unit at the objective") == [["marines", "one"]]
    assert probe.events("win", winner="imperium", reason="Seize Ground")


def test_equal_objectives_are_a_tactical_draw(tmp_path: Path) -> None:
    # L1134 (Capture and Control, as Seize Ground): objective one contested, two held by
    # nobody: 0 to 0, a tactical draw, which the victory points break (L1211): no win.
    probe = Probe("40k5", field(tmp_path, "capture_and_control"), dice=[])
    probe("mission_result")
    assert probe.logged("the objective is contested") == [["one"]]
    assert probe.logged("a tactical draw: victory points decide") == [[]]
    assert not probe.events("win")


def test_annihilation_counts_kill_points(tmp_path: Path) -> None:
    # L1138: a kill point for each enemy unit destroyed: the Orks destroy the Russ and the
    # meltagun marines (2), Imperium the Boyz (1). A unit waiting off the table is not
    # destroyed.
    probe = Probe("40k5", field(tmp_path, "annihilation"), dice=[])
    destroy = BUILTINS["destroy"]
    for u in ("russ", "melta", "boyz"):
        destroy(probe.state, probe.env, None, probe.unit[u])
    assert probe("kill_points", s="orks") == 2 and probe("kill_points", s="imperium") == 1
    probe("mission_result")
    assert probe.logged("kill points") == [["imperium", 1, "orks", 2]]
    assert probe.events("win", winner="orks", reason="Annihilation")
    probe = Probe("40k5", field(tmp_path, "annihilation"), dice=[])
    BUILTINS["set_aside"](probe.state, probe.env, None, probe.unit["boyz"])
    assert probe("kill_points", s="imperium") == 0


def test_e26_closely_fought_is_under_a_tenth_of_the_points_limit() -> None:
    # E26, L1217: in a 1,500-point battle a difference of 149 VPs is closely fought, 150 is not.
    rt = open_battle("40k5", "rulesets/40k5/battles/duel.yaml")[1]
    from rules_run.chance import ScriptedChance
    env = rt.env(ScriptedChance([]))
    assert rt.invoke("closely_fought", env, {"first_vp": 400, "second_vp": 251, "limit": 1500}) is True
    assert rt.invoke("closely_fought", env, {"first_vp": 400, "second_vp": 250, "limit": 1500}) is False


def test_night_fighting_spots_at_2d6_times_3() -> None:
    # L1207: a target 24" away is seen on 2D6 x 3 >= 24, 2D6 of 8 or more: 15/36; Night
    # Vision re-rolls a failure (L1003): 1 - (21/36)^2.
    _, rt, battle = open_battle("40k5", "rulesets/40k5/battles/annihilation.yaml")
    u = battle.units[0]
    plain = enumerate_exact(lambda c: bool(rt.invoke("spotting", rt.env(c), {
        "shooter": u, "target": u, "inches": 24}).passed))
    assert plain.probability(True) == F(15, 36)
    seer = u.fresh()
    seer.rules = [*seer.rules, rt.bind_rule("Night Vision")]
    sharp = enumerate_exact(lambda c: bool(rt.invoke("spotting", rt.env(c), {
        "shooter": seer, "target": u, "inches": 24}).passed))
    assert sharp.probability(True) == 1 - F(21, 36) ** 2


def test_night_fighting_is_game_turn_1_of_dawn_of_war() -> None:
    # L1167: the Night Fighting rule is in effect during game turn 1 of Dawn of War only.
    probe = Probe("40k5", ROOT / "rulesets/40k5/battles/annihilation.yaml",
                  dice={"spotting": [1, 2]}, active="imperium")
    assert probe("night_fighting") is True
    assert probe("spots", u="tactical_a", t="boyz_a") is False
    assert probe.logged("cannot find its target in the dark") == [["tactical_a", "boyz_a"]]
    probe.state.round = 2
    assert probe("night_fighting") is False and probe("spots", u="tactical_a", t="boyz_a") is True


def test_dawn_of_war_deploys_two_troops_and_moves_the_rest_on() -> None:
    # L1167: each side keeps two Troops units (and one HQ) on the table; the others move on
    # from their own table edge in their side's first Movement phase.
    probe = Probe("40k5", ROOT / "rulesets/40k5/battles/annihilation.yaml", dice=[],
                  active="imperium")
    probe("dawn_of_war_deployment")
    waiting = sorted(u.id for u in probe.state.units if u.set_aside)
    assert waiting == ["boyz_c", "boyz_d", "devastators", "melta", "russ"]
    probe("move_on_from_edge")
    assert sorted(u.id for u in probe.state.units if u.set_aside) == ["boyz_c", "boyz_d"]
    assert probe.unit["russ"].pose.y < 10                     # at its own (southern) edge


@pytest.mark.parametrize("name", sorted(MISSIONS))
def test_each_mission_plays_to_the_end_and_names_its_winner(name: str) -> None:
    # L1124-L1138: every game ends with a winner by the mission's own conditions, a
    # Wipeout!, or the victory points after a tactical draw; the log shows scoring units and
    # objectives (or kill points).
    _, runtime, battle = open_battle("40k5", f"rulesets/40k5/battles/{name}.yaml")
    messages: set[str] = set()
    reasons: set[str] = set()
    for seed in range(1, 9):
        result = run_battle(runtime, battle, seed=seed)
        reasons.add(result.reason.split(" (")[0])
        messages |= {e.message for e in result.events if e.kind == "log"}
    assert MISSIONS[name] in reasons
    if name == "annihilation":
        assert "kill points" in messages and "cannot find its target in the dark" in messages
    else:
        assert {"objectives held", "is a scoring unit at the objective"} <= messages


def test_the_mission_battles_run_50_times() -> None:
    for name in sorted(MISSIONS):
        out = subprocess.run(
            [sys.executable, "-m", "rules_run.cli.run", "-e", "40k5",
             f"rulesets/40k5/battles/{name}.yaml", "--runs", "50", "--seed", "1", "--json"],
            cwd=ROOT, capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["runs"] == 50
