"""The 40k5 ruleset (seed 001, Warhammer 40,000 fifth edition): profiles, the infantry
shooting chain, close combat, Leadership, the game length and the reference duel.

Every check goes through the ruleset's own declarations: tests and rolls enumerated exactly
(``enumerate_exact``) or with scripted dice, attack sequences through ``plan_attacks`` and
``attack_odds`` (what ``rules-odds`` prints), and whole battles. ``Lnnn`` is a line of
``../shared/seeds/001_ae65b95f9afc45ec.txt`` (the canonical copy, L1-L1285); ``Enn`` names a
worked example of the seed (the digest's section 10.1). Probabilities are worked out by hand
in the comments.
"""

from __future__ import annotations

import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe

from rules_run import open_battle
from rules_run.chance import ScriptedChance, enumerate_exact
from rules_run.engine.driver import run_battle
from rules_run.engine.odds import attack_odds, plan_attacks, sample_attacks
from rules_run.runtime.entities import Unit, Weapon

ROOT = Path(__file__).resolve().parents[2]
DUEL = "rulesets/40k5/battles/duel.yaml"
F = Fraction


# ============================================================== helpers


@pytest.fixture(scope="module")
def duel():
    return open_battle("40k5", DUEL)


@pytest.fixture(scope="module")
def rt(duel):
    return duel[1]


BOLTGUN = {"Range": 24, "Strength": 4, "AP": 5}


def weapon(rt, profile: dict[str, Any] | None = None, rules: tuple[str, ...] = ("Rapid Fire",),
           name: str = "gun") -> Weapon:
    return Weapon(name, dict(profile or BOLTGUN), [rt.bind_rule(r) for r in rules])


def unit(rt, id: str = "target", *, models: int = 10, rules: tuple[str, ...] = (),
         weapons: tuple[Weapon, ...] = (), statuses: tuple[str, ...] = (),
         **profile: Any) -> Unit:
    """An infantry unit: a Space Marine's profile (L129) unless ``profile`` says otherwise."""
    values = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3,
              "FrontArmour": None, "SideArmour": None, "RearArmour": None}
    values.update(profile)
    u = Unit(id, id, id, values, models, rules=[rt.bind_rule(r) for r in rules],
             keywords={"INFANTRY"}, weapons=list(weapons))
    for s in statuses:
        u.statuses[s] = "turn"
    return u


def passes(rt, name: str, **args: Any) -> Fraction:
    """The exact chance that a test passes."""
    dist = enumerate_exact(lambda chance: bool(rt.invoke(name, rt.env(chance), dict(args)).passed))
    return dist.probability(True)


def scripted(rt, name: str, dice: list[int], **args: Any) -> Any:
    chance = ScriptedChance(dice)
    result = rt.invoke(name, rt.env(chance), dict(args))
    assert not chance.remaining(), f"{name} left dice unused: {chance.remaining()}"
    return result


def call(rt, name: str, options: dict[str, Any] | None = None, **args: Any) -> Any:
    return rt.invoke(name, rt.env(ScriptedChance([]), options), dict(args))


def shot(rt, shooter: Unit, target: Unit, *, cover: int = 0, attacks: int = 1):
    """The exact odds of ``attacks`` shots of the shooter's first weapon (rules-odds)."""
    (plan,) = plan_attacks(rt, shooter, target, mode="shooting", attacks=attacks,
                           settings={"cover": cover})
    return attack_odds(rt, plan, target)


def blow(rt, attacker: Unit, target: Unit, *, assaulted: bool = False, attacks: int = 1):
    (plan,) = plan_attacks(rt, attacker, target, mode="melee", attacks=attacks,
                           settings={"assaulted": assaulted})
    return attack_odds(rt, plan, target)


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


# ============================================================== profiles (E04, E05, E15, E21)


def test_e04_e05_the_infantry_fixtures(duel) -> None:
    # E04 L128, E05 L129: the battle's units read their profiles from the unit data.
    _, _, battle = duel
    names = ["WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"]
    assert [battle.unit("boyz").profile[n] for n in names] == [4, 2, 3, 4, 1, 2, 2, 7, 6]
    assert [battle.unit("marines").profile[n] for n in names] == [4, 4, 4, 4, 1, 4, 1, 8, 3]


def test_e15_e21_the_vehicle_fixtures(rt) -> None:
    # E15 L725: Leman Russ, Tank, Front 14 Side 12 Rear 10, BS 3. E21 L963: Dreadnought,
    # Walker, WS4 BS4 S6, Front 12 Side 12 Rear 10, I4 A2. No T, W, Ld or Sv (L725, L963).
    profiles = rt.ruleset.units
    russ, dread = profiles["imperium/leman_russ"], profiles["imperium/dreadnought"]
    assert {k: russ["profile"][k] for k in ["BS", "FrontArmour", "SideArmour", "RearArmour"]} == {
        "BS": 3, "FrontArmour": 14, "SideArmour": 12, "RearArmour": 10}
    assert "TANK" in russ["keywords"] and "WALKER" in dread["keywords"]
    walker = ["WS", "BS", "S", "FrontArmour", "SideArmour", "RearArmour", "I", "A"]
    assert {k: dread["profile"][k] for k in walker} == {
        "WS": 4, "BS": 4, "S": 6, "FrontArmour": 12, "SideArmour": 12, "RearArmour": 10,
        "I": 4, "A": 2}
    assert all(russ["profile"][k] is None for k in ["T", "W", "Ld", "Sv", "WS", "S", "I", "A"])
    assert all(dread["profile"][k] is None for k in ["T", "W", "Ld", "Sv"])


def test_e10_the_boltgun(rt) -> None:
    # E10 L365: Boltgun, 24", S4, AP5, Rapid Fire.
    boltgun = rt.ruleset.units["imperium/space_marine"]["weapons"]["boltgun"]
    assert boltgun["profile"] == {"Range": 24, "Strength": 4, "AP": 5}
    assert boltgun["rules"] == ["Rapid Fire"]


def test_e03_multiply_before_add(rt) -> None:
    # E03 L101-L103: Strength 4 with "+1 Strength" (Furious Charge, assaulting, L999) and
    # "double Strength" (a power fist, L553) is 4 x 2 + 1 = 9, not (4 + 1) x 2 = 10. Against
    # Toughness 8 Strength 9 wounds on 3+ (L302), 10 on 2+ and 8 on 4+: 4/6 tells them apart.
    fist = unit(rt, "fist", rules=("Power Fist", "Furious Charge"), statuses=("assaulted",))
    tough = unit(rt, T=8, Sv=None)
    result = blow(rt, fist, tough, assaulted=True)
    hit = F(1, 2)  # WS4 against WS4, 4+ (L467)
    assert result.past[1].mean() == hit * F(4, 6)
    # The fist alone: 8, 4+ (1/2); Furious Charge alone: 5, 6+ (1/6).
    alone = unit(rt, "alone", rules=("Power Fist",), statuses=("assaulted",))
    assert blow(rt, alone, tough).past[1].mean() == hit * F(1, 2)
    charger = unit(rt, "charger", rules=("Furious Charge",), statuses=("assaulted",))
    assert blow(rt, charger, tough).past[1].mean() == hit * F(1, 6)


# ============================================================== to hit (E06, E07, E08, E11)


@pytest.mark.parametrize("bs,need", [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2)])
def test_e07_the_bs_table_and_a_1_always_misses(rt, bs: int, need: int) -> None:
    # E07 L275-L278: 7 - BS, never better than 2+; a 1 always misses.
    shooter = unit(rt, "shooter", BS=bs)
    gun = weapon(rt)
    assert passes(rt, "to_hit_shooting", shooter=shooter, target=unit(rt), weapon=gun) == F(7 - need, 6)
    assert not scripted(rt, "to_hit_shooting", [1], shooter=shooter, target=unit(rt), weapon=gun).passed
    assert scripted(rt, "to_hit_shooting", [need], shooter=shooter, target=unit(rt), weapon=gun).passed


def test_bs_0_cannot_shoot(rt) -> None:
    # L111: a model with BS 0 cannot make ranged attacks.
    shooter = unit(rt, "shooter", BS=0, weapons=(weapon(rt),))
    assert call(rt, "shooting_attacks", attacker=shooter, target=unit(rt), inches=12, moving=False) == []


@pytest.mark.parametrize("bs", [6, 7, 8, 9, 10])
def test_e08_bs_6_and_better_reroll_a_1(rt, bs: int) -> None:
    # E08 L280-L283: 2+, and a 1 is re-rolled needing 6, 5, 4, 3, 2 for BS 6 to 10.
    shooter = unit(rt, "shooter", BS=bs)
    reroll = 12 - bs
    expected = F(5, 6) + F(1, 6) * F(7 - reroll, 6)
    assert passes(rt, "to_hit_shooting", shooter=shooter, target=unit(rt), weapon=weapon(rt)) == expected


def test_twin_linked_rerolls_a_miss(rt) -> None:
    # L390: a BS4 shot hits on 3+; twin-linked re-rolls a miss: 2/3 + 1/3 * 2/3 = 8/9.
    plain = unit(rt, "plain", weapons=(weapon(rt),))
    twin = unit(rt, "twin", weapons=(weapon(rt, rules=("Rapid Fire", "Twin-linked")),))
    target = unit(rt, Sv=None)
    assert shot(rt, plain, target).past[0].mean() == F(2, 3)
    assert shot(rt, twin, target).past[0].mean() == F(8, 9)


def test_e06_out_of_range_misses_automatically(rt) -> None:
    # E06 L259-L265: a target 25" from a boltgun (24") cannot be hit: no shots count.
    marines = unit(rt, "marines", weapons=(weapon(rt),))
    assert call(rt, "shooting_attacks", attacker=marines, target=unit(rt), inches=25, moving=False) == []
    (pair,) = call(rt, "shooting_attacks", attacker=marines, target=unit(rt), inches=24, moving=False)
    assert pair[1] == 10


@pytest.mark.parametrize("rules,inches,moved,expected", [
    (("Rapid Fire",), 12, False, 2), (("Rapid Fire",), 13, False, 1),
    (("Rapid Fire",), 12, True, 1), (("Rapid Fire",), 13, True, 0),
    (("Heavy (3)",), 30, False, 3), (("Heavy (3)",), 30, True, 0),
    (("Assault (2)",), 30, True, 2), (("Pistol",), 12, True, 1),
])
def test_e11_weapon_types_shots(rt, rules, inches, moved, expected) -> None:
    # L370-L381: Rapid Fire two at up to 12" and one beyond, one at up to 12" after moving
    # (L378); Heavy 3 fires exactly 3, or none after moving (E11 L372, L380); Assault always;
    # a pistol one.
    gun = weapon(rt, {"Range": 36, "Strength": 4, "AP": 5}, rules)
    assert call(rt, "shots_per_model", w=gun, inches=inches, moving=moved) == expected


def test_rapid_fire_after_moving_reading_of_the_qrs(duel) -> None:
    # L1276 (the QRS) against L378: with the option, a moved unit fires twice at up to 12".
    _, rt, battle = duel
    gun = weapon(rt)
    two = {"rapid_fire_after_moving": "two"}
    assert call(rt, "shots_per_model", two, w=gun, inches=12, moving=True) == 2
    assert call(rt, "shots_per_model", two, w=gun, inches=13, moving=True) == 0
    assert call(rt, "shots_per_model", w=gun, inches=12, moving=True) == 1


# ============================================================== to wound


@pytest.mark.parametrize("strength,toughness,p", [
    (4, 4, F(1, 2)), (3, 4, F(1, 3)), (8, 4, F(5, 6)), (1, 4, F(1, 6)), (3, 7, F(0)),
    (10, 10, F(1, 2)),
])
def test_the_to_wound_chart_through_the_test(rt, strength, toughness, p) -> None:
    # L293-L303, and a 1 never wounds (L289): S8 against T4 is 2+, 5/6, not 1.
    assert passes(rt, "to_wound", attacker=unit(rt, "a"), target=unit(rt, T=toughness),
                  strength=strength) == p


def test_a_sniper_wounds_on_4_whatever_the_toughness(rt) -> None:
    # L392.
    sniper = weapon(rt, {"Range": 36, "Strength": 1, "AP": 6}, ("Heavy (1)", "Sniper"))
    assert passes(rt, "to_wound", attacker=unit(rt, "a"), target=unit(rt, T=8), strength=1,
                  weapon=sniper) == F(1, 2)


# ============================================================== the single best save


@pytest.mark.parametrize("label,profile,rules,statuses,ap,cover,p", [
    # L309-L311: armour 3+ against AP5; AP3 or AP1 deny it; AP "-" never does.
    ("armour", {"Sv": 3}, (), (), 5, 0, F(2, 3)),
    ("ap equal denies", {"Sv": 3}, (), (), 3, 0, F(0)),
    ("ap none", {"Sv": 3}, (), (), None, 0, F(2, 3)),
    ("no armour", {"Sv": None}, (), (), 5, 0, F(0)),
    # L313: an invulnerable save whatever the AP.
    ("invulnerable", {"Sv": 3}, ("Invulnerable Save (5+)",), (), 2, 0, F(1, 3)),
    # L341: only the best of armour, invulnerable and cover.
    ("best is armour", {"Sv": 3}, ("Invulnerable Save (5+)",), (), 5, 4, F(2, 3)),
    ("best is cover", {"Sv": 3}, ("Invulnerable Save (5+)",), (), 3, 4, F(1, 2)),
    # L339: going to ground improves cover by 1, or gives 6+ with none.
    ("to ground in cover", {"Sv": 6}, (), ("gone_to_ground",), 6, 4, F(2, 3)),
    ("to ground in the open", {"Sv": None}, (), ("gone_to_ground",), 5, 0, F(1, 6)),
    # L1010 Stealth, L341: never better than 2+, and a 1 always fails.
    ("capped at 2+", {"Sv": 6}, ("Stealth",), ("gone_to_ground",), 6, 3, F(5, 6)),
    ("a 1 fails a 2+", {"Sv": 2}, (), (), 5, 0, F(5, 6)),
])
def test_the_single_best_save(rt, label, profile, rules, statuses, ap, cover, p) -> None:
    target = unit(rt, rules=rules, statuses=statuses, **profile)
    assert passes(rt, "save", target=target, ap=ap, cover=cover) == p, label


def test_a_template_denies_cover(rt) -> None:
    # L386: no cover save against a template weapon; a 6+ armour save against AP- remains.
    flamer = weapon(rt, {"Range": 8, "Strength": 4, "AP": None}, ("Assault (1)", "Template"))
    boyz = unit(rt, "boyz", T=4, Sv=6)
    burner = unit(rt, "burner", weapons=(flamer,))
    in_cover = shot(rt, burner, boyz, cover=4)
    # no roll to hit (L386: the models under the template are hit), wound 1/2, save only
    # the 6+: 5/6 unsaved
    assert in_cover.damage.mean() == F(1, 2) * F(5, 6)


# ============================================================== Feel No Pain, Instant Death


def test_feel_no_pain_ignores_half_the_wounds(rt) -> None:
    # L997: 4+ ignores an unsaved wound; not against AP1 or AP2, nor an Instant Death wound.
    hardy = unit(rt, Sv=None, rules=("Feel No Pain",))
    assert passes(rt, "feel_no_pain", target=hardy, strength=4, ap=5) == F(1, 2)
    assert passes(rt, "feel_no_pain", target=hardy, strength=4, ap=2) == 0
    assert passes(rt, "feel_no_pain", target=hardy, strength=8, ap=5) == 0
    assert passes(rt, "feel_no_pain", target=unit(rt), strength=4, ap=5) == 0


@pytest.mark.parametrize("strength,eternal,damage", [(8, False, 3), (7, False, 1), (8, True, 1)])
def test_instant_death(rt, strength, eternal, damage) -> None:
    # L359: Strength double the unmodified Toughness or more kills a multiple-wound model
    # outright; Eternal Warrior stops it (L995).
    target = unit(rt, W=3, rules=("Eternal Warrior",) if eternal else ())
    assert call(rt, "wound_damage", target=target, strength=strength) == damage


def test_instant_death_needs_double_the_toughness(rt) -> None:
    # L359: S8 against T4 is double; S7 is not.
    biker = unit(rt, W=2, T=4)
    assert call(rt, "causes_instant_death", target=biker, strength=8)
    assert not call(rt, "causes_instant_death", target=biker, strength=7)


# ============================================================== close combat (E13)


@pytest.mark.parametrize("ws,target_ws,p", [(4, 3, F(2, 3)), (4, 4, F(1, 2)), (4, 8, F(1, 2)),
                                             (4, 9, F(1, 3)), (0, 4, F(1, 3))])
def test_e13_the_ws_chart_through_the_test(rt, ws, target_ws, p) -> None:
    # E13 L475: lower WS 3+, equal to double 4+, more than double 5+; an attacker of WS 0
    # reads the WS 1 row (the digest's A25), 5+ against WS 4 (L464).
    assert passes(rt, "to_hit_melee", attacker=unit(rt, "a", WS=ws),
                  target=unit(rt, WS=target_ws)) == p


def test_e13_a_ws_0_model_is_hit_automatically(rt) -> None:
    # E13 L111, L475: no dice are rolled.
    result = scripted(rt, "to_hit_melee", [], attacker=unit(rt, "a", WS=1), target=unit(rt, WS=0))
    assert result.passed


def test_assault_bonus_and_two_weapons(duel) -> None:
    # L449-L457: Ork Boyz, A2, slugga and choppa (+1), assaulting (+1): 4 attacks each.
    _, rt, battle = duel
    boyz, marines = battle.unit("boyz"), battle.unit("marines")
    assert call(rt, "close_combat_attacks", attacker=boyz, target=marines, assaulted=True) == 80
    assert call(rt, "close_combat_attacks", attacker=boyz, target=marines, assaulted=False) == 60
    assert call(rt, "close_combat_attacks", attacker=marines, target=boyz, assaulted=False) == 10


def test_a_power_weapon_denies_armour_and_feel_no_pain(rt) -> None:
    # L549, L997: a 3+ armoured model struck by a power weapon has no save.
    sword = unit(rt, "sword", rules=("Power Weapon",))
    marine = unit(rt, rules=("Feel No Pain",))
    # hit 1/2, wound S4 v T4 1/2, no save, no Feel No Pain
    assert blow(rt, sword, marine).damage.mean() == F(1, 4)
    # without it: the 3+ save (1/3 fail), then Feel No Pain (1/2)
    assert blow(rt, unit(rt, "plain"), marine).damage.mean() == F(1, 4) * F(1, 3) * F(1, 2)


# ============================================================== Leadership


def test_morale_check_and_insane_heroism(rt) -> None:
    # L566-L572: 2D6 of Ld or less; a double 1 always passes, whatever the penalty.
    boyz = unit(rt, Ld=7)
    assert passes(rt, "morale_check", unit=boyz, penalty=0) == F(21, 36)
    assert passes(rt, "morale_check", unit=boyz, penalty=3) == F(6, 36)
    assert passes(rt, "morale_check", unit=boyz, penalty=10) == F(1, 36)
    assert scripted(rt, "morale_check", [1, 1], unit=boyz, penalty=10).passed


def test_stubborn_ignores_the_penalty_and_fearless_passes(rt) -> None:
    # L1011, L996.
    assert passes(rt, "morale_check", unit=unit(rt, Ld=7, rules=("Stubborn",)), penalty=3) == F(21, 36)
    assert scripted(rt, "morale_check", [], unit=unit(rt, rules=("Fearless",)), penalty=5).passed


@pytest.mark.parametrize("value,p", [(0, F(0)), (1, F(1, 6)), (4, F(4, 6)), (6, F(5, 6)), (10, F(5, 6))])
def test_characteristic_tests(rt, value, p) -> None:
    # L115: a 1 always passes and a 6 always fails; a test on 0 fails.
    assert passes(rt, "characteristic_test", value=value) == p


# ============================================================== the game


def test_game_length_is_five_six_or_seven_turns_a_third_each(rt) -> None:
    # L1118: at the end of turn 5 a 3+ plays turn 6; at the end of turn 6 a 4+ plays turn 7.
    after_5 = passes(rt, "game_goes_on", game_turn=5)
    after_6 = passes(rt, "game_goes_on", game_turn=6)
    length = {5: 1 - after_5, 6: after_5 * (1 - after_6), 7: after_5 * after_6}
    assert length == {5: F(1, 3), 6: F(1, 3), 7: F(1, 3)}


def test_seize_the_initiative_on_a_6(rt) -> None:
    # L1155.
    assert passes(rt, "seize_the_initiative_roll", side="orks") == F(1, 6)


def test_a_seized_initiative_reverses_the_turn_order() -> None:
    # L1155: a 6 and the Orks take the first turn.
    probe = Probe("40k5", DUEL, dice=[6], active="imperium")
    probe("seize_the_initiative")
    assert probe("turn_order") == ["orks", "imperium"]
    assert Probe("40k5", DUEL, dice=[5])("seize_the_initiative") is None
    assert Probe("40k5", DUEL)("turn_order") == ["imperium", "orks"]


def test_the_game_ends_after_turn_five_on_a_1_or_2() -> None:
    # L1118: only after the second player's turn of game turn 5.
    probe = Probe("40k5", DUEL, dice=[2], active="orks")
    probe.state.round = 5
    probe("end_of_game_turn")
    assert probe.counter("game_over") == 1
    early = Probe("40k5", DUEL, dice=[], active="imperium")
    early.state.round = 5
    early("end_of_game_turn")  # the first player's turn: no roll
    assert early.counter("game_over") == 0


def test_the_reference_duel_is_played_to_the_end(duel) -> None:
    # L133-L159: Movement, Shooting, Assault in every player turn; both sides fight in the
    # Assault phase. Seed 1: the marines shoot the Boyz down as they close, and wipe them
    # out in the Orks' third assault phase.
    _, runtime, battle = duel
    result = run_battle(runtime, battle, seed=1)
    assert result.winner == "imperium"
    assert "Wipeout!" in result.reason
    phases = [e.phase for e in result.events if e.kind == "phase"]
    assert phases == ["movement_phase", "shooting_phase", "assault_phase"] * (len(phases) // 3)
    turns = [e.side for e in result.events if e.kind == "turn"]
    assert turns == ["imperium", "orks"] * result.rounds


def test_both_sides_fight_in_an_assault_phase(duel) -> None:
    # L143, L429-L439: the assault of the player whose turn it is, and both units strike,
    # the marines (I4) before the Orks (I2).
    _, runtime, battle = duel
    for seed in range(1, 30):
        result = run_battle(runtime, battle, seed=seed)
        attackers = [e.attacker for e in result.events
                     if e.kind == "attacks" and getattr(e, "sequence", "") == "close_combat_attack"]
        if "marines" in attackers and "boyz" in attackers:
            assert attackers.index("marines") < attackers.index("boyz")
            return
    pytest.fail("no duel in 30 seeds had a close combat in which both sides struck")


# ============================================================== the duel's odds


def test_the_duel_volley_is_binomial_20_one_third(duel) -> None:
    # rules-odds --mode shooting: 10 marines at 12" fire 20 boltgun shots (L378). Each hits
    # on 3+ (2/3), wounds T4 at S4 on 4+ (1/2), and AP5 denies the Boyz' 6+ save: 1/3 each.
    _, rt, battle = duel
    marines, boyz = battle.unit("marines"), battle.unit("boyz")
    (plan,) = plan_attacks(rt, marines, boyz, mode="shooting")
    assert plan.attacks == 20
    odds = attack_odds(rt, plan, boyz)
    assert odds.damage.mean() == F(20, 3)
    expected = binomial(20, F(1, 3))
    assert {k: odds.damage.probability(k) for k in range(21)} == expected
    assert odds.models_removed.mean() == F(20, 3)


def test_the_duel_volley_sampled_agrees_within_4_sigma(duel) -> None:
    _, rt, battle = duel
    marines, boyz = battle.unit("marines"), battle.unit("boyz")
    (plan,) = plan_attacks(rt, marines, boyz, mode="shooting")
    exact = attack_odds(rt, plan, boyz).damage
    n = 2000
    sampled = sample_attacks(rt, plan, n, 7)
    for k in exact.support():
        p = exact.probability(k)
        assert abs(float(sampled.probability(k) - p)) <= 4 * math.sqrt(float(p * (1 - p)) / n) + 1e-12, k
    assert abs(float(sampled.mean() - exact.mean())) < 4 * math.sqrt(float(exact.variance()) / n)


def test_rules_odds_prints_the_duel(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rules_run.cli.odds", "-e", "40k5", DUEL, "--attacker", "marines",
         "--target", "boyz", "--mode", "shooting", "--samples", "500", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert '"mean"' in out.stdout


# ============================================================== cover in a battle


COVER_BATTLE = """
edition: 40k5
battlefield:
  terrain:
    - {{id: piece, kind: {ident}, at: {{x: 36, y: {y}}}, size: {{w: 20, h: {h}}}, effects: ["Cover ({kind})"]}}
units:
  - {{id: marines, side: imperium, profile: imperium/space_marine, models: 10, position: {{x: 36, y: 10, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: 20, position: {{x: 36, y: 30, facing: 180}}}}
{extra}
"""


@pytest.mark.parametrize("label,kind,y,h,extra,save", [
    # L331, L337: half or more of the unit in area terrain: the whole unit has its cover.
    ("wholly in woods", "woods", 30, 6, "", 4),
    ("half in woods", "woods", 31.5, 3, "", 4),
    ("a quarter in woods", "woods", 33, 3, "", 0),
    ("wholly in high grass", "high grass", 30, 6, "", 5),
    ("in a fortification", "fortifications", 30, 6, "", 3),
    # L333: firing through area terrain.
    ("woods in between", "woods", 20, 3, "", 4),
    # L327: other models in the way, a 4+.
    ("a unit in the way", "woods", 45, 3,
     "  - {id: grots, side: orks, profile: orks/ork_boy, models: 20, position: {x: 36, y: 20, facing: 180}}", 4),
])
def test_cover_from_the_chart_and_half_the_unit(tmp_path: Path, label, kind, y, h, extra, save) -> None:
    path = tmp_path / "cover.yaml"
    text = COVER_BATTLE.format(kind=kind, ident=kind.replace(" ", "_"), y=y, h=h, extra=extra)
    path.write_text(text, encoding="utf-8")
    probe = Probe("40k5", path, active="imperium")
    assert probe("cover_from", shooter="marines", target="boyz") == save, label


# ============================================================== losing a combat


def test_a_caught_loser_is_destroyed_by_a_sweeping_advance() -> None:
    # L515-L519, L582: the Boyz lose by 2 and fail Morale (5 + 2 = 7 > Ld 7 - 2); D6 + I:
    # marines 3 + 4 = 7, Boyz 5 + 2 = 7; equal or higher catches them.
    probe = Probe("40k5", DUEL, dice=[5, 2, 3, 5], active="orks")
    probe("lose_combat", loser="boyz", winner="marines", margin=2)
    assert not probe.unit["boyz"].on_table or probe.unit["boyz"].destroyed
    assert probe.logged("is destroyed by a sweeping advance") == [["boyz"]]


def test_a_loser_that_gets_away_falls_back_2d6() -> None:
    # L519, L590: 1 + 4 = 5 against 6 + 2 = 8: the Boyz fall back 3 + 4 = 7" (and on until
    # 1" clear of the marines).
    probe = Probe("40k5", DUEL, dice=[5, 2, 1, 6, 3, 4], active="orks")
    boyz = probe.unit["boyz"]
    start = boyz.pose.y
    probe("lose_combat", loser="boyz", winner="marines", margin=2)
    assert "falling_back" in boyz.statuses and boyz.on_table
    assert boyz.pose.y - start == pytest.approx(7)  # straight away, already clear


def test_insane_heroism_holds_whatever_the_margin() -> None:
    # L572: a double 1 passes at -10.
    probe = Probe("40k5", DUEL, dice=[1, 1], active="orks")
    probe("lose_combat", loser="boyz", winner="marines", margin=10)
    assert probe.logged("holds its ground") == [["boyz"]]


def test_no_retreat_wounds_with_saves_but_no_cover(tmp_path: Path) -> None:
    # L586: a Fearless loser takes as many wounds as the margin (3), saving against each as
    # usual: its 6+ saves one of 1, 6, 2.
    text = (ROOT / DUEL).read_text(encoding="utf-8").replace(
        "models: 20, points: 120}", "models: 20, points: 120, rules: [Fearless]}")
    path = tmp_path / "fearless.yaml"
    path.write_text(text, encoding="utf-8")
    probe = Probe("40k5", path, dice=[1, 6, 2], active="orks")
    probe("lose_combat", loser="boyz", winner="marines", margin=3)
    assert probe.unit["boyz"].models == 18
    assert not probe.chance.remaining()


def test_a_unit_assaulted_while_falling_back_regroups_or_is_destroyed() -> None:
    # L598: it must test whatever the restrictions; 5 + 4 = 9 fails Ld 7: destroyed.
    probe = Probe("40k5", DUEL, dice=[5, 4], active="imperium")
    boyz = probe.unit["boyz"]
    boyz.statuses["falling_back"] = "battle"
    assert probe("stands_to_be_assaulted", t="boyz") is False
    assert boyz.destroyed or not boyz.on_table
    steady = Probe("40k5", DUEL, dice=[3, 3], active="imperium")
    steady.unit["boyz"].statuses["falling_back"] = "battle"
    assert steady("stands_to_be_assaulted", t="boyz") is True
    assert "falling_back" not in steady.unit["boyz"].statuses


# ============================================================== dice and saves (E01, E02, E09)


def test_e01_a_d3_is_a_d6_halved(rt) -> None:
    # E01, L39: a D3 is read from a D6, 1-2 as 1, 3-4 as 2, 5-6 as 3: a third each. The
    # ruleset's D3 (rending's extra die against a vehicle, L391): a 6 + S4 + D3 against
    # Armour 11, 12 or 13 passes with 3/3, 2/3 and 1/3.
    rending = weapon(rt, {"Range": 24, "Strength": 4, "AP": None}, ("Assault (1)", "Rending"))
    assert [passes(rt, "rending_extra", weapon=rending, armour=a) for a in (11, 12, 13)] == [F(1), F(2, 3), F(1, 3)]


def test_e02_dice_totals_through_the_ruleset(rt) -> None:
    # E02, L41-L43: 2D6 showing 3 and 5 is 8 (a Leadership test against Ld 8 passes); D6 + N
    # as in armour penetration: a 4 + S4 is 8 against Armour 8, a glance (L783-L789); 2D6 - N
    # as the blast's scatter: 6 + 4 less BS 4 is 6 (L387).
    marine = unit(rt, "marine")
    r = scripted(rt, "leadership", [3, 5], unit=marine)
    assert r.natural == 8 and r.passed
    gun = weapon(rt, {"Range": 24, "Strength": 4, "AP": None}, ("Assault (1)",))
    pen = scripted(rt, "armour_penetration", [4], weapon=gun, armour=8)
    assert pen.passed and "glancing" in pen.marks
    frag = weapon(rt, {"Range": 48, "Strength": 4, "AP": 6}, ("Heavy (1)", "Blast (3)"))
    assert scripted(rt, "blast_scatter", [6, 4], shooter=marine, weapon=frag) == 6


def test_e09_armour_saves(rt) -> None:
    # E09, L309: an Ork's 6+ (L128), Imperial Guard flak armour's 5+ (no unit data: a
    # profile with Sv 5), a Space Marine's power armour 3+ (L129), against AP -.
    _, _, duel = open_battle("40k5", DUEL)
    boyz, marines = (next(u for u in duel.units if u.id == i) for i in ("boyz", "marines"))
    assert passes(rt, "save", target=boyz) == F(1, 6)
    assert passes(rt, "save", target=unit(rt, "guard", Sv=5)) == F(1, 3)
    assert passes(rt, "save", target=marines) == F(2, 3)
