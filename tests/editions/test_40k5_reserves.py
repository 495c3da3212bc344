"""The 40k5 ruleset's reserves (seed 001, L1173-L1207; rulesets/40k5/reserves.rules): the
reserve roll's need by game turn (TB14), walking on from the own table edge, Deep Strike with
the scatter dice and the mishap table (TB15), Outflank on each side, and falling back toward
the own table edge (L590).

Actions run through a probe of a small battle with scripted dice (by roll tag) and fixed
positions on a 72" x 48" table; ``Lnnn`` is a line of ``../shared/seeds/001_ae65b95f9afc45ec.txt``.
A squad of five marines on 25 mm bases, five files, is 4.92" wide and 0.98" deep.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import enumerate_exact
from rules_run.engine.driver import run_battle
from rules_run.space import Pose

ROOT = Path(__file__).resolve().parents[2]
RESERVES = "rulesets/40k5/battles/reserves.yaml"
MARINE_W, MARINE_D = 5 * 25 / 25.4, 25 / 25.4

BATTLE = """
edition: 40k5
battlefield: {width: 72, depth: 48, edges: {imperium: 0, orks: 180}}
units:
  - {id: marines, side: imperium, profile: imperium/space_marine, models: 10, position: {x: 36, y: 6, facing: 0}}
  - {id: strike, side: imperium, profile: imperium/space_marine, models: 5, rules: ["Deep Strike"], values: {reserve: deep_strike}, position: {x: 30, y: 30, facing: 0}}
  - {id: boyz, side: orks, profile: orks/ork_boy, models: 10, position: {x: 36, y: 42, facing: 180}}
  - {id: mob, side: orks, profile: orks/ork_boy, models: 10, values: {reserve: walk_on}, position: {x: 50, y: 44, facing: 180}}
  - {id: kommandos, side: orks, profile: orks/ork_boy, models: 10, rules: ["Infiltrate"], values: {reserve: outflank}, position: {x: 20, y: 24, facing: 180}}
"""


def probe(tmp_path: Path, dice: Any, active: str = "imperium", text: str = BATTLE) -> Probe:
    p = Probe("40k5", battle_file(tmp_path, text), dice=dice, active=active)
    p("hold_reserves")
    return p


def test_units_in_reserve_leave_the_table_at_deployment(tmp_path: Path) -> None:
    p = probe(tmp_path, {})
    assert [u.id for u in p.state.units if u.set_aside] == ["strike", "mob", "kommandos"]
    assert p("reserves", s="orks") == [p.unit["mob"], p.unit["kommandos"]]


@pytest.mark.parametrize("turn, need", [(2, 4), (3, 3), (4, 2)])
def test_the_reserve_roll_needs_4_3_2_by_game_turn(tmp_path: Path, turn: int, need: int) -> None:
    # TB14 (L1179-L1184): a D6 per unit, at least the turn's score
    for score in (need - 1, need):
        p = probe(tmp_path, {"reserve_roll": [score]})
        p.state.round = turn
        assert p("arrives_this_turn", u="mob") is (score >= need), (turn, score)


def test_the_reserve_roll_odds_are_a_half_two_thirds_five_sixths_then_certain(
        tmp_path: Path) -> None:
    # Exactly: 3/6 on turn 2, 4/6 on turn 3, 5/6 on turn 4, 1 from turn 5 (no roll)
    p = probe(tmp_path, {})
    for turn, chance in [(2, Fraction(1, 2)), (3, Fraction(2, 3)), (4, Fraction(5, 6)),
                         (5, Fraction(1)), (7, Fraction(1))]:
        p.state.round = turn

        def arrives(c, p=p) -> bool:
            p.env.chance = c
            return bool(p("arrives_this_turn", u="mob"))
        assert enumerate_exact(arrives).probability(True) == chance, turn


def test_from_turn_5_every_reserve_arrives_without_a_roll(tmp_path: Path) -> None:
    # TB14's 5+ row: automatic; no reserve roll is scripted, and none is asked for
    p = probe(tmp_path, {"outflank_roll": [1]}, active="orks")
    p.state.round = 5
    p("roll_for_reserves", s="orks")
    assert p.state.alive(p.unit["mob"]) and p.state.alive(p.unit["kommandos"])


def test_a_reserve_walks_on_at_its_own_table_edge(tmp_path: Path) -> None:
    # L1188: the Orks' edge is y = 48 (edge 180): the mob's rear on it, level with x 50
    p = probe(tmp_path, {"reserve_roll": [4, 1]}, active="orks")      # the mob, then the kommandos
    p.state.round = 2
    p("roll_for_reserves", s="orks")
    mob = p.unit["mob"]
    depth = p.state.footprint(mob).depth
    assert mob.pose == Pose(50, 48 - depth / 2, 180) and p.state.alive(mob)
    assert p.logged("arrives from reserve") == [["mob"]]


def test_a_deep_strike_that_hits_lands_at_its_point(tmp_path: Path) -> None:
    p = probe(tmp_path, {"reserve_roll": [6], "scatter_roll": ["hit"]})
    p.state.round = 2
    p("roll_for_reserves", s="imperium")
    strike = p.unit["strike"]
    assert strike.pose == Pose(30, 30, 0) and p.state.alive(strike)
    assert {"deep_struck", "has_moved"} <= set(strike.statuses)
    assert p("may_assault", u="strike") is False          # L1196


def test_a_deep_strike_that_scatters_onto_an_enemy_rolls_a_mishap(tmp_path: Path) -> None:
    # The point (30, 30) scatters 2D6 = 8" at heading 90: (38, 30). The boyz stand there
    # (moved for the test): the strike would be on them, so a mishap: 1-2, destroyed
    p = probe(tmp_path, {"reserve_roll": [4], "scatter_roll": ["arrow"], "scatter_direction": [90],
                         "deep_strike_scatter": [3, 5], "mishap_roll": [2]})
    p.unit["boyz"].pose = Pose(38, 30, 180)
    p.state.round = 2
    p("roll_for_reserves", s="imperium")
    strike = p.unit["strike"]
    assert strike.destroyed and not p.state.alive(strike)
    assert p.logged("suffers a deep strike mishap") == [["strike", "destroyed"]]


def test_only_a_unit_with_the_rule_deep_strikes_or_outflanks(tmp_path: Path) -> None:
    # L1175, L1190: the way a reserve arrives is the rule it has; Infiltrate (and Scouts) give
    # Outflank. Without Deep Strike the strike squad walks on at its own edge (y = 0), level
    # with x 30; no scatter is rolled.
    p = probe(tmp_path, {"reserve_roll": [6]},
              text=BATTLE.replace('rules: ["Deep Strike"], ', ""))
    p.state.round = 2
    p("roll_for_reserves", s="imperium")
    strike = p.unit["strike"]
    assert p.logged("arrives from reserve") == [["strike"]] and not p.logged("arrives by deep strike")
    assert strike.pose.x == pytest.approx(30) and strike.pose.y == pytest.approx(MARINE_D / 2)
    assert "Outflank" in {r.rule.name for r in p.unit["kommandos"].rules}
    assert "Outflank" not in {r.rule.name for r in p.unit["mob"].rules}


def test_coverage_lists_the_mission_special_rules_as_implemented() -> None:
    # L1173-L1207: Reserves, Outflank, Deep Strike (with its mishaps) and Night Fighting are
    # catalogue entries, each implemented.
    out = subprocess.run([sys.executable, "-m", "rules_run.cli.check", "--coverage", "rulesets/40k5"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    rows = {line.strip().split("  ")[0]: line for line in out.stdout.splitlines() if line.startswith("  ")}
    for name in ("Reserves", "Outflank", "Deep Strike", "Night Fighting"):
        assert "implemented" in rows[name], name


@pytest.mark.parametrize("mishap, placed, in_reserve", [(3, True, False), (5, False, True)])
def test_a_mishap_misplaces_or_delays_the_unit(tmp_path: Path, mishap: int, placed: bool,
                                              in_reserve: bool) -> None:
    # Within 1" of the boyz (their front edge 0.5" from where the strike lands): 3-4 the
    # opponent places it (at its own edge, y = 0, README), 5-6 it stays in reserve
    p = probe(tmp_path, {"reserve_roll": [4], "scatter_roll": ["hit"], "mishap_roll": [mishap]})
    p.unit["boyz"].pose = Pose(30, 30 + MARINE_D / 2 + 0.5 + 1, 180)
    p.state.round = 2
    p("roll_for_reserves", s="imperium")
    strike = p.unit["strike"]
    assert p.state.alive(strike) is placed and strike.set_aside is in_reserve
    if placed:
        assert strike.pose.y == pytest.approx(MARINE_D / 2) and "deep_struck" in strike.statuses


@pytest.mark.parametrize("score, x, facing", [(1, 72, 270), (2, 72, 270), (3, 0, 90),
                                              (4, 0, 90)])
def test_outflank_comes_on_at_the_left_or_right_short_edge(tmp_path: Path, score: int,
                                                           x: float, facing: float) -> None:
    # L1190: the Orks' edge is y = 48; looking down the table from it, their left hand is
    # toward +x: 1-2 the edge x = 72 (coming on facing 270), 3-4 the edge x = 0 (facing 90),
    # the unit's rear on the edge, level with its battle-file y (24)
    p = probe(tmp_path, {"reserve_roll": [1, 6], "outflank_roll": [score]}, active="orks")
    p.state.round = 2
    p("roll_for_reserves", s="orks")
    k = p.unit["kommandos"]
    depth = p.state.footprint(k).depth
    assert p.state.alive(k)
    assert k.pose == Pose(abs(x - depth / 2), 24, facing)
    assert p.logged("outflanks") == [["kommandos", "left" if score <= 2 else "right"]]


def test_outflank_on_a_5_or_6_takes_the_players_edge(tmp_path: Path) -> None:
    p = probe(tmp_path, {"reserve_roll": [1, 6], "outflank_roll": [6]}, active="orks")
    p.state.orders.append({"decision": "outflank_edge", "unit": "kommandos", "choose": "right"})
    p.state.round = 2
    p("roll_for_reserves", s="orks")
    assert p.unit["kommandos"].pose.facing == 90


def test_falling_back_moves_toward_the_own_table_edge(tmp_path: Path) -> None:
    # L590: the marines (edge y = 0) fall back 2D6 = 7" straight down the table, whatever
    # stands where; the boyz up it. From y = 6 the marines (2 ranks, 1.97" deep) reach the
    # edge after 6 - 0.98 = 5.02": 7" takes them off the table, and they are destroyed
    p = probe(tmp_path, {"fall_back_distance": [3, 4, 1, 1]})
    marines = p.unit["marines"]
    p("fall_back", u="marines")
    assert marines.destroyed and p.logged("falls back off the table and is destroyed")
    boyz = p.unit["boyz"]
    p("fall_back", u="boyz")                         # 1 + 1 = 2": from y 42 to y 44
    assert boyz.pose == Pose(36, 44, 0) and p.state.alive(boyz)


def test_the_reserves_battle_plays_to_the_end() -> None:
    # every way of arriving happens in some seed
    _, runtime, battle = open_battle("40k5", RESERVES)
    messages: set[str] = set()
    for seed in range(1, 31):
        result = run_battle(runtime, battle, seed=seed)
        messages |= {e.message for e in result.events if e.kind == "log"}
    assert {"arrives from reserve", "outflanks", "arrives by deep strike"} <= messages


def test_the_reserves_battle_runs_50_times() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rules_run.cli.run", "-e", "40k5", RESERVES, "--runs", "50",
         "--seed", "1", "--json"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["runs"] == 50
