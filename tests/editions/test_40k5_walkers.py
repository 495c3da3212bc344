"""The 40k5 ruleset's walkers in close combat (seed 001, L973): they assault and are locked as
infantry, fight with their own WS, S, I and A, and are hit by WS but penetrated on their front
armour, grenades hitting only on a 6 unless the walker is stunned or immobilised; each damage
roll counts as a wound for the combat result; a beaten walker takes no Morale check.

Exact odds through ``plan_attacks`` and ``attack_odds`` (``rules-odds --mode walker_melee``);
battle actions through a probe on fixed positions with scripted dice (by roll name). ``Lnnn``
is a line of ``../shared/seeds/001_ae65b95f9afc45ec.txt``; the probabilities are worked out in
the comments.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.odds import attack_odds, plan_attacks

F = Fraction
TALLIES = ["glancing", "penetrating", "crew_shaken", "crew_stunned", "weapon_destroyed",
           "immobilised", "wrecked", "explodes"]

FIELD = """
edition: 40k5
battlefield: {width: 72, depth: 48}
units:
  - {id: marines, side: renegades, profile: imperium/melta_marine, models: 5, position: {x: 36, y: 20, facing: 180}}
  - {id: dread, side: imperium, profile: imperium/dreadnought, models: 1, position: {x: 36, y: 12, facing: 0}}
  - {id: russ, side: imperium, profile: imperium/leman_russ, models: 1, position: {x: 10, y: 6, facing: 0}}
"""


def probe(tmp_path: Path, dice: dict[str, list[int]], *, stunned: bool = False) -> Probe:
    p = Probe("40k5", battle_file(tmp_path, FIELD), dice=dice, active="renegades")
    BUILTINS["engage"](p.state, p.env, None, p.unit["marines"], p.unit["dread"])
    BUILTINS["apply"](p.state, p.env, None, "assaulted", p.unit["marines"])
    if stunned:
        BUILTINS["apply"](p.state, p.env, None, "stunned", p.unit["dread"])
    return p


def test_walkers_assault_and_are_assaulted_other_vehicles_not(tmp_path: Path) -> None:
    # L973: a walker may assault, even after firing a heavy weapon; a tank may not (L846).
    p = Probe("40k5", battle_file(tmp_path, FIELD), dice=[], active="imperium")
    BUILTINS["apply"](p.state, p.env, None, "fired_heavy", p.unit["dread"])
    assert p("may_assault", u="dread") is True and p("may_assault", u="russ") is False
    assert p("assault_target", u="marines") == p.unit["dread"]
    BUILTINS["engage"](p.state, p.env, None, p.unit["marines"], p.unit["dread"])
    assert p("locked", u="dread") is True and p("locked", u="marines") is True


def test_a_walker_wins_and_sweeps_with_its_own_profile(tmp_path: Path) -> None:
    # Both at I4 strike together. Five krak grenades: one attack a model, hitting the walker
    # only on a 6 (one 6); 6 + a 6 = 12 against Front 12 glances (L973: the front armour);
    # the damage roll 6 - 2 (glancing) - 1 (AP "-", the default reading) = 3: Weapon
    # Destroyed. The Dreadnought's two attacks (WS4 against WS4: 4+) hit, S6 against T4
    # wounds on 2+, the 3+ saves fail (1s): two Marines die. 2 wounds to 1 (a damage roll
    # counts as one, L973): the Marines check Morale at -1 (6 + 6 against 7) and fail; the
    # sweep: Dreadnought 3 + I4 = 7 against 1 + 4 = 5: the Marines are destroyed (L519); the
    # walker consolidates 2" (L973, L527).
    dice = {"to_hit_walker": [6, 1, 1, 1, 1], "close_combat_penetration": [6],
            "vehicle_damage": [6], "to_hit_melee": [4, 4], "to_wound": [2, 2], "save": [1, 1],
            "morale_check": [6, 6], "sweep_roll": [3, 1], "consolidation_distance": [2]}
    p = probe(tmp_path, dice)
    p("resolve_combat", u="marines")
    assert p.counter("weapons_lost", "dread") == 1
    assert p.logged("wins the combat") == [["dread", 2, 1]]
    assert p.logged("is destroyed by a sweeping advance") == [["marines"]]
    assert p.logged("consolidates") == [["dread", 2]]


def test_a_stunned_walker_is_hit_by_ws_fights_with_one_attack_less_and_takes_no_morale(
        tmp_path: Path) -> None:
    # L973: stunned, the grenades hit by WS (4+: one 4); the same glancing Weapon Destroyed;
    # the Dreadnought strikes once (A2 - 1) and misses. The Marines win 1 to 0; a beaten
    # walker takes no Morale check (no Morale dice are scripted) and stays locked.
    dice = {"to_hit_walker": [4, 1, 1, 1, 1], "close_combat_penetration": [6],
            "vehicle_damage": [6], "to_hit_melee": [1]}
    p = probe(tmp_path, dice, stunned=True)
    assert p("close_combat_attacks", attacker="dread", target="marines") == 1
    p("resolve_combat", u="marines")
    assert p.logged("wins the combat") == [["marines", 1, 0]]
    assert not p.logged("holds its ground") and p("locked", u="dread") is True
    assert not p.logged("consolidates")


@pytest.fixture(scope="module")
def vehicles():
    return open_battle("40k5", "rulesets/40k5/battles/vehicles.yaml")


def test_walker_melee_odds_are_exact(vehicles) -> None:
    # rules-odds --mode walker_melee: one krak grenade (one attack) on the Dreadnought: a 6
    # to hit (1/6), then 6 + D6 against Front 12: a 6 glances (1/6), nothing penetrates:
    # a glancing hit 1/36. Five Marines: 5 attacks, the mean 5/36.
    _, rt, battle = vehicles
    melta, dread = battle.unit("melta"), battle.unit("dread")
    plan = plan_attacks(rt, melta, dread, mode="walker_melee", attacks=1, settings={})[0]
    odds = attack_odds(rt, plan, dread)
    glancing = odds.tallies.map(lambda t: t[TALLIES.index("glancing")])
    penetrating = odds.tallies.map(lambda t: t[TALLIES.index("penetrating")])
    assert glancing.probability(1) == F(1, 36) and penetrating.probability(0) == 1
    assert plan_attacks(rt, melta, dread, mode="walker_melee", settings={})[0].attacks == 5
