"""The 40k5 ruleset's universal special rules (seed 001, L990-L1015), weapon characteristics
(Pinning, Rending, L388-L392) and special close combat weapons (L545-L564).

Exact chances through ``enumerate_exact`` and ``attack_odds`` (what ``rules-odds`` prints);
battle actions through a probe with scripted dice (by roll name). ``Lnnn`` is a line of
``../shared/seeds/001_ae65b95f9afc45ec.txt``; the probabilities are worked out in the comments.
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
from rules_run.runtime.entities import Unit, Weapon

F = Fraction


@pytest.fixture(scope="module")
def rt():
    return open_battle("40k5", "rulesets/40k5/battles/duel.yaml")[1]


def unit(rt, *, rules: tuple[str, ...] = (), keywords: tuple[str, ...] = ("INFANTRY",),
         weapons: tuple[Weapon, ...] = (), models: int = 1, **profile: Any) -> Unit:
    """A Space Marine's profile (L129) unless ``profile`` says otherwise."""
    values = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3,
              "FrontArmour": None, "SideArmour": None, "RearArmour": None}
    values.update(profile)
    u = Unit("u", "u", "u", values, models, keywords=set(keywords),
             rules=[rt.bind_rule(r) for r in rules], weapons=list(weapons))
    rt.apply_grants(u)                               # as the battle's units get them
    return u


def chance(rt, name: str, options: dict[str, Any] | None = None, **args: Any) -> Fraction:
    d = enumerate_exact(lambda c: bool(rt.invoke(name, rt.env(c, options), dict(args)).passed))
    return d.probability(True)


def damage(rt, attacker: Unit, target: Unit, mode: str, **settings: Any) -> Fraction:
    (plan,) = plan_attacks(rt, attacker, target, mode=mode, attacks=1, settings=settings)
    return attack_odds(rt, plan, target).damage.mean()


# ============================================================== close combat rolls


def test_preferred_enemy_rerolls_to_hit_in_close_combat(rt) -> None:
    # L1004: WS 4 against WS 4 hits on 4+ (1/2); a re-roll of a miss: 3/4.
    assert chance(rt, "to_hit_melee", attacker=unit(rt, rules=("Preferred Enemy",)), target=unit(rt)) == F(3, 4)
    assert chance(rt, "to_hit_melee", attacker=unit(rt), target=unit(rt)) == F(1, 2)


def test_rending_in_close_combat_wounds_on_a_6_with_no_armour_save(rt) -> None:
    # L555: S4 against T8 cannot wound on the chart (L293-L303); a rending 6 does, and the
    # 3+ armour save is not allowed: 1/6 a hit. Without rending: nothing.
    big = unit(rt, T=8, WS=0)
    assert damage(rt, unit(rt, rules=("Rending",)), big, "melee") == F(1, 6)
    assert damage(rt, unit(rt), big, "melee") == 0
    # Against T4 (4+ to wound, 3+ save): a 6 unsaved, a 4 or 5 saved on 3+: 1/6 + 2/6 x 1/3.
    assert damage(rt, unit(rt, rules=("Rending",)), unit(rt, WS=0), "melee") == F(1, 6) + F(2, 6) * F(1, 3)


def test_rending_shots_wound_on_a_6_at_ap_2(rt) -> None:
    # L391: a rending S4 AP- gun against a Space Marine (T4, 3+): to hit 2/3; a 6 to wound
    # (1/6) counts as AP2 and beats the 3+ save; a 4 or 5 (2/6) is saved on 3+ (1/3 fail):
    # 2/3 x (1/6 + 2/6 x 1/3) = 5/27.
    gun = Weapon("gun", {"Range": 24, "Strength": 4, "AP": None},
                 [rt.bind_rule("Assault (1)"), rt.bind_rule("Rending")])
    assert damage(rt, unit(rt, weapons=(gun,)), unit(rt), "shooting") == F(5, 27)


def test_lightning_claws_poison_and_witchblades_wound(rt) -> None:
    # L550: lightning claws re-roll failed wounds (S4 against T4: 1/2 -> 3/4); L552: a
    # poisoned weapon (4+) with S 4 >= T 4 re-rolls too (3/4), against T5 it does not (1/2);
    # L556: a witchblade wounds on 2+ (5/6), even S3 against T8.
    me, t4, t5, t8 = unit(rt), unit(rt), unit(rt, T=5), unit(rt, T=8)
    assert chance(rt, "to_wound", attacker=unit(rt, rules=("Lightning Claws",)), target=t4, strength=4) == F(3, 4)
    assert chance(rt, "to_wound", attacker=unit(rt, rules=("Poisoned Weapon",)), target=t4, strength=4) == F(3, 4)
    assert chance(rt, "to_wound", attacker=unit(rt, rules=("Poisoned Weapon",)), target=t5, strength=4) == F(1, 2)
    assert chance(rt, "to_wound", attacker=unit(rt, rules=("Witchblade",), S=3), target=t8, strength=3) == F(5, 6)
    assert chance(rt, "to_wound", attacker=me, target=t4, strength=4) == F(1, 2)


def test_lightning_claws_and_thunder_hammers_are_power_weapons(rt) -> None:
    # L550, L554: no armour save (a 3+ Space Marine, WS 0 target hit automatically): S4
    # against T4 with lightning claws 3/4 unsaved; a thunder hammer is a power fist (S 8
    # against T4: 2+, 5/6).
    target = unit(rt, WS=0)
    assert damage(rt, unit(rt, rules=("Lightning Claws",)), target, "melee") == F(3, 4)
    assert damage(rt, unit(rt, rules=("Thunder Hammer",)), target, "melee") == F(5, 6)


def test_tank_hunters_add_1_to_penetration(rt) -> None:
    # L1013: S4 against rear 10 in close combat: D6 + 4 + 1 glances on a 5, penetrates on 6.
    d = enumerate_exact(lambda c: tuple(sorted(rt.invoke("close_combat_penetration", rt.env(c), {
        "attacker": unit(rt, rules=("Tank Hunters",)), "armour": 10, "strength": 4}).marks)))
    assert d.probability(("glancing",)) == F(1, 6) and d.probability(("penetrating",)) == F(1, 6)


# ============================================================== terrain tests (chance part)


def test_move_through_cover_rolls_an_extra_die(rt) -> None:
    # L216: the highest of 2D6, a 6 with 11/36; L1002 read as the highest of 3D6 (default):
    # 91/216; as printed, the three highest of three dice: their total, 3 to 18.
    def dist(rules: tuple[str, ...], option: str = "highest_of_3"):
        return enumerate_exact(lambda c: rt.invoke("difficult_terrain_distance", rt.env(
            c, {"move_through_cover": option}), {"unit": unit(rt, rules=rules)}))
    assert dist(()).probability(6) == F(11, 36)
    assert dist(("Move Through Cover",)).probability(6) == F(91, 216)
    total = dist(("Move Through Cover",), "three_highest")
    assert total.probability(18) == F(1, 216) and total.probability(3) == F(1, 216)


def test_skilled_riders_reroll_dangerous_terrain(rt) -> None:
    # L224: a 1 fails; L1008: a bike re-rolls it (35/36), an infantry model does not.
    assert chance(rt, "dangerous_terrain", unit=unit(rt, rules=("Skilled Rider",), keywords=("BIKE",))) == F(35, 36)
    assert chance(rt, "dangerous_terrain", unit=unit(rt, rules=("Skilled Rider",))) == F(5, 6)


# ============================================================== in the battle


FIELD = """
edition: 40k5
battlefield: {{width: 72, depth: 48}}
units:
  - {{id: marines, side: imperium, profile: imperium/space_marine, models: 5, rules: [{rules}], position: {{x: 36, y: 6, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: 10, position: {{x: 36, y: 42, facing: 180}}}}
"""


def field(tmp_path: Path, rules: str = "") -> Path:
    return battle_file(tmp_path, FIELD.format(rules=rules))


def test_scouts_and_infiltrators_close_in_before_the_game(tmp_path: Path) -> None:
    # L1001, L1007, L1151: 35" apart edge to edge. Infiltrators close to 18.5", scouts move
    # 6" (still more than 12" away).
    for rule, gap in (("Infiltrate", 18.5), ("Scouts", None)):
        probe = Probe("40k5", field(tmp_path, f'"{rule}"'), dice=[], active="imperium")
        before = BUILTINS["distance"](probe.state, probe.env, None, probe.unit["marines"], probe.unit["boyz"])
        probe("infiltrate_and_scout")
        after = BUILTINS["distance"](probe.state, probe.env, None, probe.unit["marines"], probe.unit["boyz"])
        assert after == pytest.approx(gap if gap else before - 6, abs=0.01)


def test_relentless_and_fleet_may_assault(tmp_path: Path) -> None:
    # L1006: a relentless unit that fired a heavy weapon may still assault; L998: a fleet
    # unit that ran may. Without the rules neither may (L380, L251).
    apply = BUILTINS["apply"]
    for rules, status in (('"Relentless"', "fired_heavy"), ('"Fleet"', "ran")):
        probe = Probe("40k5", field(tmp_path, rules), dice=[], active="imperium")
        apply(probe.state, probe.env, None, status, probe.unit["marines"])
        assert probe("may_assault", u="marines") is True
        plain = Probe("40k5", field(tmp_path), dice=[], active="imperium")
        apply(plain.state, plain.env, None, status, plain.unit["marines"])
        assert plain("may_assault", u="marines") is False


def test_counter_attack_gives_the_assault_bonus(tmp_path: Path) -> None:
    # L994: assaulted, the unit passes a Leadership test (2D6 of 3 + 4 against Ld 8) and
    # fights with the +1 attack: 5 models x (1 + 1).
    probe = Probe("40k5", field(tmp_path, '"Counter-attack"'), dice={"leadership": [3, 4]},
                  active="orks")
    probe("counter_attack", t="marines")
    marines = probe.unit["marines"]
    assert "counter_attacking" in marines.statuses
    assert probe("close_combat_attacks", attacker="marines", target="boyz", assaulted=True) == 10
    failed = Probe("40k5", field(tmp_path, '"Counter-attack"'), dice={"leadership": [6, 5]},
                   active="orks")
    failed("counter_attack", t="marines")
    assert "counter_attacking" not in failed.unit["marines"].statuses


def test_hit_and_run_breaks_off_3d6(tmp_path: Path) -> None:
    # L1000: locked, an Initiative test (a 3 against I 4) passes: the unit leaves the combat
    # and moves 2 + 3 + 4 = 9" away (past its table edge); the Boyz, no longer in combat,
    # consolidate (L1000, L527: a 1), with no enemy left on the table to move toward.
    probe = Probe("40k5", field(tmp_path, '"Hit & Run"'), dice={"characteristic_test": [3],
                                                               "hit_and_run_distance": [2, 3, 4],
                                                               "consolidation_distance": [1]},
                  active="orks")
    marines, boyz = probe.unit["marines"], probe.unit["boyz"]
    BUILTINS["engage"](probe.state, probe.env, None, boyz, marines)
    probe("hit_and_run", u="marines")
    assert probe("locked", u="marines") is False
    gap = BUILTINS["distance"](probe.state, probe.env, None, marines, boyz)
    assert gap == pytest.approx(9, abs=0.01)


def test_pinning_sends_a_unit_to_ground(tmp_path: Path) -> None:
    # L388: unsaved wounds from a pinning weapon: a Pinning test (2D6 of 6 + 5 against Ld 7)
    # fails: the Boyz go to ground; no test without wounds, or once gone to ground.
    probe = Probe("40k5", field(tmp_path), dice={"pinning_test": [6, 5]}, active="imperium")
    sniper = Weapon("rifle", {"Range": 36, "Strength": 4, "AP": 6},
                    [probe.runtime.bind_rule("Heavy (1)"), probe.runtime.bind_rule("Sniper")])
    probe.runtime.apply_grants(sniper)                # Sniper is also Pinning (L392)
    probe("pinned", t="boyz", w=sniper, removed=0)
    assert "gone_to_ground" not in probe.unit["boyz"].statuses
    probe("pinned", t="boyz", w=sniper, removed=1)
    assert "gone_to_ground" in probe.unit["boyz"].statuses
    probe("pinned", t="boyz", w=sniper, removed=1)           # no dice left: no second test
    assert probe.logged("goes to ground") == [["boyz"]]


def test_rage_advances_whatever_the_policy(tmp_path: Path) -> None:
    # L1005: the marines would hold to fire their boltguns (the default policy); with Rage
    # they advance 6" toward the Boyz.
    probe = Probe("40k5", field(tmp_path, '"Rage"'), dice=[], active="imperium")
    probe("movement_phase")
    assert probe.unit["marines"].pose.y == pytest.approx(12, abs=0.01)


# ============================================================== assaulting through cover (E12)


def cover_field(tmp_path: Path, gap: float, rules: str = "") -> Path:
    # The marines (one rank of five, 25 mm bases) stand in a 10" x 4" wood; the Boyz' front
    # rank is `gap` inches beyond the marines' front.
    front = 20 + 0.4921
    return battle_file(tmp_path, f"""
edition: 40k5
battlefield:
  width: 72
  depth: 48
  terrain:
    - {{id: wood, kind: forest, at: {{x: 36, y: 20}}, size: {{w: 10, h: 4}}, effects: ["Difficult Terrain"]}}
units:
  - {{id: marines, side: imperium, profile: imperium/space_marine, models: 5, rules: [{rules}], position: {{x: 36, y: 20, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: 5, position: {{x: 36, y: {front + gap + 0.4921}, facing: 180}}}}
""")


def test_e12_a_double_1_still_reaches_an_enemy_1_inch_away_at_initiative_1(tmp_path: Path) -> None:
    # E12, L443: 1" from the Boyz, in a wood: the difficult terrain test (highest of 2D6)
    # rolls a double 1, and the assault still goes in; the marines strike at Initiative 1.
    probe = Probe("40k5", cover_field(tmp_path, 1.0), dice={"difficult_terrain_distance": [1, 1]},
                  active="imperium")
    assert probe("assault_reaches", u="marines", t="boyz") is True
    assert probe("strike_initiative", u="marines") == 1


def test_a_short_difficult_terrain_roll_fails_the_assault(tmp_path: Path) -> None:
    # L443: 3" away, the highest of 1 and 2 is 2: the assault fails; with frag grenades an
    # assault that goes in keeps its Initiative (L447).
    probe = Probe("40k5", cover_field(tmp_path, 3.0), dice={"difficult_terrain_distance": [1, 2]},
                  active="imperium")
    assert probe("assault_reaches", u="marines", t="boyz") is False
    assert probe.logged("is slowed by difficult terrain and fails to reach") == [["marines", "boyz"]]
    probe = Probe("40k5", cover_field(tmp_path, 3.0, '"Frag Grenades"'),
                  dice={"difficult_terrain_distance": [1, 4]}, active="imperium")
    assert probe("assault_reaches", u="marines", t="boyz") is True
    assert probe("strike_initiative", u="marines") == 4


# ============================================================== Morale: 25% and Pinning (exact)


@pytest.mark.parametrize("lost, checks", [(2, False), (3, True)])
def test_a_quarter_of_the_models_lost_in_the_shooting_phase_checks_morale(
        tmp_path: Path, lost: int, checks: bool) -> None:
    # L578: ten Boyz at the start of the phase; 3 lost (30%) is a quarter or more: a Morale
    # check (3 + 3 against Ld 7 passes, the dice are used); 2 lost (20%) is not: no dice.
    dice = {"morale_check": [3, 3]} if checks else {}
    probe = Probe("40k5", field(tmp_path), dice=dice, active="imperium")
    probe.set_counter("models_at_phase_start", "boyz", 10)
    BUILTINS["inflict"](probe.state, probe.env, None, probe.unit["boyz"], lost)
    probe("casualty_checks")
    assert not probe.chance.remaining()
    assert probe.unit["boyz"].models == 10 - lost and "falling_back" not in probe.unit["boyz"].statuses


def test_pinning_test_odds_are_exact(rt) -> None:
    # L388: a Pinning test is a Leadership test: 2D6 of Ld 7 or less, 21/36 (Boyz), Ld 8,
    # 26/36 (Space Marines); a Fearless unit passes it always (L996).
    assert chance(rt, "pinning_test", unit=unit(rt, Ld=7)) == F(21, 36)
    assert chance(rt, "pinning_test", unit=unit(rt, Ld=8)) == F(26, 36)
    assert chance(rt, "pinning_test", unit=unit(rt, Ld=8, rules=("Fearless",))) == 1
