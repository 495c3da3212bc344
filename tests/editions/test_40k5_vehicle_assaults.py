"""The 40k5 ruleset's close combat against vehicles (seed 001, L846-L861, TB09, E19): to hit by
the vehicle's speed in its previous turn, penetration D6 + S (or a grenade's) against the rear
armour, one attack a model with a grenade, the damage roll with the close combat AP reading
(option ``close_combat_ap``, L801-L805), and the battle's assault on a vehicle.

Exact odds through ``plan_attacks`` and ``attack_odds`` (``rules-odds --mode vehicle_melee``);
battle actions through a probe with scripted dice. ``Lnnn`` is a line of
``../shared/seeds/001_ae65b95f9afc45ec.txt``; probabilities are worked out in the comments.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import enumerate_exact
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.odds import attack_odds, plan_attacks
from rules_run.runtime.entities import Unit

F = Fraction
VEHICLES = "rulesets/40k5/battles/vehicles.yaml"
TALLIES = ["glancing", "penetrating", "crew_shaken", "crew_stunned", "weapon_destroyed",
           "immobilised", "wrecked", "explodes"]


@pytest.fixture(scope="module")
def rt():
    return open_battle("40k5", VEHICLES)[1]


def infantry(rt, rules: tuple[str, ...] = (), models: int = 1, S: int = 4, A: int = 1) -> Unit:
    """Space Marines (L129) with the given wargear."""
    values = {"WS": 4, "BS": 4, "S": S, "T": 4, "W": 1, "I": 4, "A": A, "Ld": 8, "Sv": 3,
              "FrontArmour": None, "SideArmour": None, "RearArmour": None}
    return Unit("marines", "marines", "marines", values, models, keywords={"INFANTRY"},
                rules=[rt.bind_rule(r) for r in rules])


def tank(front: int = 14, side: int = 12, rear: int = 10) -> Unit:
    values = {"WS": None, "BS": 3, "S": None, "T": None, "W": None, "I": None, "A": None,
              "Ld": None, "Sv": None, "FrontArmour": front, "SideArmour": side, "RearArmour": rear}
    return Unit("tank", "tank", "tank", values, 1, keywords={"VEHICLE", "TANK"})


def blows(rt, attacker: Unit, target: Unit, *, speed: str = "stationary",
          assaulted: bool = False, options: dict[str, Any] | None = None):
    (plan,) = plan_attacks(rt, attacker, target, mode="vehicle_melee",
                           settings={"speed": speed, "assaulted": assaulted}, options=options)
    return plan, attack_odds(rt, plan, target, options)


def tally(odds, name: str) -> dict[int, Fraction]:
    d = odds.tallies.map(lambda t, i=TALLIES.index(name): t[i])
    return {k: d.probability(k) for k in d.support()}


# ============================================================== to hit (TB09)


@pytest.mark.parametrize("speed,chance", [
    # L851-L853: stationary or immobilised: automatic; combat speed 4+; cruising speed a 6.
    ("stationary", F(1)), ("combat_speed", F(1, 2)), ("cruising_speed", F(1, 6)),
])
def test_the_roll_to_hit_a_vehicle_is_by_its_speed(rt, speed, chance) -> None:
    marine = infantry(rt)
    d = enumerate_exact(lambda c: bool(rt.invoke("to_hit_vehicle", rt.env(c), {
        "attacker": marine, "target": tank(), "speed": speed}).passed))
    assert d.probability(True) == chance


# ============================================================== penetration (E19)


def test_e19_grenades_penetrate_4_6_or_8_plus_d6_one_attack_a_model(rt) -> None:
    # E19, L861: against rear 10, stationary (hit automatically). Krak 6 + D6: a 4 glances,
    # 5-6 penetrate. Melta bombs 8 + 2D6: 2 glances (1/36), 3+ penetrate (35/36). Frag 4 + D6
    # (for a Strength 3 model): a 6 glances, nothing penetrates. One attack a model whatever
    # its Attacks (A 3 here).
    for rules, glance, pen, s in [(("Krak Grenades",), F(1, 6), F(2, 6), 4),
                                  (("Melta Bombs", "Krak Grenades"), F(1, 36), F(35, 36), 4),
                                  (("Frag Grenades",), F(1, 6), F(0), 3)]:
        plan, odds = blows(rt, infantry(rt, rules, A=3, S=s), tank())
        assert plan.attacks == 1
        assert tally(odds, "glancing").get(1, F(0)) == glance
        assert tally(odds, "penetrating").get(1, F(0)) == pen


def test_close_combat_hits_the_rear_armour_at_the_attackers_strength(rt) -> None:
    # L857: rear armour whatever the facing; S4 without grenades against rear 10: a 6
    # glances, nothing penetrates; the Attacks count (A 2, +1 for assaulting: 3 attacks,
    # L449-L453). Front 14 and side 12 make no difference.
    plan, odds = blows(rt, infantry(rt, A=2), tank(), assaulted=True)
    assert plan.attacks == 3
    assert tally(odds, "glancing") == {k: F(3 if k in (1, 2) else 1, 1) * F(1, 6) ** k * F(5, 6) ** (3 - k)
                                       for k in range(4)}
    assert tally(odds, "penetrating") == {0: F(1)}


def test_a_grenade_weaker_than_the_model_is_not_used(rt) -> None:
    # L861 (README.md): S5 with frag grenades (4): the model's own attacks at S5, two of
    # them; against rear 10 a 5 glances, a 6 penetrates.
    plan, odds = blows(rt, infantry(rt, ("Frag Grenades",), S=5, A=2), tank())
    assert plan.attacks == 2
    assert tally(odds, "penetrating")[0] == F(5, 6) ** 2


# ============================================================== the damage roll's AP (A24)


def test_close_combat_ap_reading(rt) -> None:
    # L801-L805 (option close_combat_ap): a krak grenade's penetrating hit on a stationary
    # rear 10 (a 5 or 6: 1/3). ap_none (default): AP "-", -1: Crew Shaken on a 1 or 2 (1/3),
    # Explodes! never. no_ap: no modifier, a sixth each.
    marine = infantry(rt, ("Krak Grenades",))
    _, odds = blows(rt, marine, tank(rear=9))
    # against rear 9 a krak grenade penetrates on a 4+ (1/2) and glances on a 3 (1/6)
    assert tally(odds, "penetrating")[1] == F(1, 2)
    assert tally(odds, "explodes").get(1, F(0)) == 0
    # glancing: D6 - 3, shaken on 1-4; penetrating: D6 - 1, shaken on 1-2
    assert tally(odds, "crew_shaken")[1] == F(1, 6) * F(4, 6) + F(1, 2) * F(2, 6)
    _, plain = blows(rt, marine, tank(rear=9), options={"close_combat_ap": "no_ap"})
    assert tally(plain, "explodes")[1] == F(1, 2) * F(1, 6)
    # glancing: D6 - 2, shaken on 1-3; penetrating: D6, shaken on a 1
    assert tally(plain, "crew_shaken")[1] == F(1, 6) * F(3, 6) + F(1, 2) * F(1, 6)


# ============================================================== in the battle


BATTLE = """
edition: 40k5
battlefield: {width: 72, depth: 48}
units:
  - {id: russ, side: imperium, profile: imperium/leman_russ, models: 1, position: {x: 24, y: 10, facing: 0}}
  - {id: melta, side: renegades, profile: imperium/melta_marine, models: 5, position: {x: 24, y: 18, facing: 180}}
"""


def test_infantry_assaults_a_vehicle_and_attacks_its_rear(tmp_path: Path) -> None:
    # L846, L857, L861: five marines with krak grenades assault the stationary Russ: five
    # automatic hits (one attack a model, L851), 6 + D6 against its rear 10: 1, 2, 3 miss, 4
    # glances, 6 penetrates; the glance's damage roll 6 - 3 (glancing, AP "-") = 3: Weapon
    # Destroyed; the penetration's 5 - 1 = 4: Immobilised. The marines are not locked (L859).
    path = battle_file(tmp_path, BATTLE)
    probe = Probe("40k5", path, dice={"close_combat_penetration": [1, 2, 3, 4, 6],
                                      "vehicle_damage": [6, 5]}, active="renegades")
    BUILTINS["engage"](probe.state, probe.env, None, probe.unit["melta"], probe.unit["russ"])
    probe("attack_vehicle", u="melta", v="russ")
    russ = probe.unit["russ"]
    assert "immobilised" in russ.statuses and probe.counter("weapons_lost", russ) == 1
    assert probe.logged("is immobilised")
    assert probe("locked", u="melta") is False and probe("locked", u="russ") is False


def test_a_vehicle_that_moved_is_hit_on_4_plus(tmp_path: Path) -> None:
    # L852: the Russ moved at combat speed in its previous turn: five krak grenades hit on
    # 4+: 3, 4, 5, 1, 6 are three hits, then three penetration rolls.
    path = battle_file(tmp_path, BATTLE)
    probe = Probe("40k5", path, dice={"to_hit_vehicle": [3, 4, 5, 1, 6],
                                      "close_combat_penetration": [1, 1, 1]}, active="renegades")
    BUILTINS["apply"](probe.state, probe.env, None, "moved_at_combat_speed", probe.unit["russ"])
    assert probe("vehicle_speed", v="russ") == "combat_speed"
    BUILTINS["engage"](probe.state, probe.env, None, probe.unit["melta"], probe.unit["russ"])
    probe("attack_vehicle", u="melta", v="russ")
    assert not probe.chance.remaining()


def test_the_assault_phase_fights_a_vehicle_in_contact(tmp_path: Path) -> None:
    # L859: a unit in base contact with a vehicle attacks it in the Assault phase, the
    # vehicle's side's too, and the combat has no result: nobody falls back.
    path = battle_file(tmp_path, BATTLE)
    probe = Probe("40k5", path, dice={"close_combat_penetration": [1] * 5}, active="imperium")
    BUILTINS["engage"](probe.state, probe.env, None, probe.unit["melta"], probe.unit["russ"])
    probe("assault_phase")
    assert not probe.chance.remaining()
    assert not probe.logged("wins the combat") and not probe.logged("the combat is drawn")
