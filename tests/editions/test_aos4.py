"""The aos4 family (Age of Sigmar 4th edition, seed 002): the chance part.

Exact odds of one attack against hand computation, the seed's worked examples about dice,
rolls, modifiers, crits, saves, wards and damage, Monte Carlo against exact, and the two
season patches. ``Lnnn`` is a line of ``../shared/seeds/002_71a3a79b74c3f40d.txt``.

The grid builds its units and weapons directly (scores as numbers: Hit 3 is 3+); the
reference duel and test_profiles_written_as_printed read them from data ("3+", "D3").

Hand computation, one attack: P(hit) = (7 - Hit) / 6 (an unmodified 1 always fails, L965),
P(wound) likewise (L966); a save succeeds on an unmodified 2+ that reaches Save + Rend after
modifiers (L967), so P(unsaved) = 1 - (7 - max(2, Save + Rend)) / 6, or 1 when that is 7+.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rules_run import open_battle
from rules_run.chance import D3, Dist, RandomChance, ScriptedChance, enumerate_exact
from rules_run.diagnostics import Span, UsageError
from rules_run.editions.loader import load_edition, load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.odds import attack_odds, plan_attacks, sample_attacks
from rules_run.lang.parser import parse_dice
from rules_run.runtime.compiled import compile_ruleset
from rules_run.runtime.dice import dice_of
from rules_run.runtime.entities import Unit, Weapon

DUEL = "rulesets/aos4/battles/duel.yaml"

F = Fraction


# ============================================================== helpers


@pytest.fixture(scope="module")
def duel():
    return open_battle("aos4", DUEL)


@pytest.fixture(scope="module")
def rt(duel):
    return duel[1]


def weapon(rt, hit: int = 3, wound: int = 3, rend: int = 0, damage: Any = 1, *,
           attacks: int = 1, range_: int = 0, rules: tuple[str, ...] = (),
           name: str = "weapon") -> Weapon:
    """A weapon profile; ``damage`` may be dice text ("D3"), rolled per attack (L549)."""
    if isinstance(damage, str):
        damage = dice_of(parse_dice(damage, Span("test", 1)))
    profile = {"Range": range_, "Attacks": attacks, "Hit": hit, "Wound": wound, "Rend": rend,
               "Damage": damage}
    return Weapon(name, profile, [rt.bind_rule(r) for r in rules])


def unit(rt, id: str = "target", save: int | None = 4, health: int = 1, models: int = 10, *,
         keywords: tuple[str, ...] = (), rules: tuple[str, ...] = (),
         weapons: tuple[Weapon, ...] = (), command: tuple[str, ...] = (),
         statuses: tuple[str, ...] = ()) -> Unit:
    u = Unit(id, id, id, {"Move": 5, "Health": health, "Save": save, "Control": 1}, models,
             rules=[rt.bind_rule(r) for r in rules], keywords=set(keywords),
             weapons=list(weapons), command={c: {} for c in command})
    for s in statuses:
        u.statuses[s] = "turn"
    return u


def attacker_with(rt, *args: Any, **kwargs: Any) -> Unit:
    return unit(rt, "attacker", weapons=(weapon(rt, *args, **kwargs),))


def odds(rt, a: Unit, t: Unit, *, mode: str = "melee", charging: bool = False,
         options: dict[str, Any] | None = None, attacks: int = 1):
    (plan,) = plan_attacks(rt, a, t, mode=mode, attacks=attacks,
                           settings={"charging": charging}, options=options)
    return attack_odds(rt, plan, t, options)


def mean_damage(rt, a: Unit, t: Unit, **kwargs: Any) -> Fraction:
    return odds(rt, a, t, **kwargs).damage.mean()


def hits(rt, a: Unit, t: Unit, **kwargs: Any) -> Fraction:
    """Expected hits of one attack (chains that got past the hit step)."""
    return odds(rt, a, t, **kwargs).past[0].mean()


def roll(rt, name: str, dice: list[int] | None = None, **args: Any):
    """One roll or test with scripted dice (all of them used), or its exact distribution."""
    if dice is None:
        return enumerate_exact(lambda chance: _value(rt.invoke(name, rt.env(chance), args)))
    chance = ScriptedChance(dice)
    result = rt.invoke(name, rt.env(chance), dict(args))
    assert not chance.remaining(), f"{name} left dice unused: {chance.remaining()}"
    return result


def _value(result: Any) -> Any:
    return result.passed if hasattr(result, "passed") and result.passed is not None else (
        result.value if hasattr(result, "value") else result)


def count(rt, action: str, a: Unit, t: Unit) -> dict[str, int]:
    """A counting action's [weapon, count] pairs, by weapon name."""
    env = rt.env(RandomChance(0))
    return {w.name: n for w, n in rt.invoke(action, env, {"attacker": a, "target": t})}


def write_patch(folder: Path, rules: str, units: str | None = None) -> Path:
    """A throw-away ruleset extending aos4 (test fixtures, never bundled)."""
    folder.mkdir(parents=True)
    manifest = "kind: ruleset\nrules: [patch.rules]\n"
    if units is not None:
        manifest += "units: [units/extra.yaml]\n"
        (folder / "units").mkdir()
        (folder / "units" / "extra.yaml").write_text(units, encoding="utf-8")
    (folder / "index.yaml").write_text(manifest, encoding="utf-8")
    header = (f'ruleset {folder.name} "test fixture" extends aos4\n'
              '    source "002_71a3a79b74c3f40d.txt"\n\n')
    (folder / "patch.rules").write_text(header + rules, encoding="utf-8")
    return folder


def within_four_sigma(estimate: Dist, exact: Dist, n: int) -> list[str]:
    """Outcomes whose sampled probability is more than 4 sigma from the exact one."""
    misses = []
    for outcome in set(exact.support()) | set(estimate.support()):
        p = exact.probability(outcome)
        sigma = math.sqrt(p * (1 - p) / n)
        gap = abs(float(estimate.probability(outcome) - p))
        if gap > 4 * sigma:
            misses.append(f"{outcome!r}: sampled {float(estimate.probability(outcome)):.4f}, "
                          f"exact {float(p):.4f}")
    return misses


# ============================================================== the reference duel


def test_a_liberator_attack_on_clanrats_has_mean_damage_25_54(duel) -> None:
    """Warhammer (Hit 3+, Wound 3+, Rend 1, Damage 1, Crit (2 Hits)) on Save 5+.

    Hits: a 6 is 2 hits (L948), 3-5 one: 2/6 + 3/6 = 5/6. Wounds 4/6. The save needs 6
    (5 + Rend 1): unsaved 5/6. 5/6 * 2/3 * 5/6 = 25/54 (L964-L969).
    """
    _, runtime, battle = duel
    liberators, clanrats = battle.unit("liberators"), battle.unit("clanrats")
    (plan,) = plan_attacks(runtime, liberators, clanrats, attacks=1)
    result = attack_odds(runtime, plan, clanrats)
    assert result.damage.mean() == F(25, 54)
    # 2 damage: a 6, both hits wound and go unsaved: 1/6 * (2/3 * 5/6)^2
    assert result.damage.probability(2) == F(1, 6) * F(5, 9) ** 2 == F(25, 486)
    assert result.damage.probability(1) == F(1, 2) * F(5, 9) + F(1, 6) * 2 * F(5, 9) * F(4, 9)
    assert result.models_removed.mean() == F(25, 54)  # Health 1: a point is a model


def test_a_clanrat_attack_on_liberators_is_a_point_of_damage_1_in_18(duel) -> None:
    # Rusty Blade Hit 4+ (1/2), Wound 5+ (1/3); Save 3+ and Rend 0 fail on 1-2 (1/3).
    _, runtime, battle = duel
    result = odds(runtime, battle.unit("clanrats"), battle.unit("liberators"))
    assert result.damage.mean() == F(1, 18)
    assert result.models_removed.mean() == 0  # Health 2: one point slays nobody


def test_the_reference_duel_units(duel) -> None:
    _, _, battle = duel
    liberators, clanrats = battle.unit("liberators"), battle.unit("clanrats")
    assert (liberators.side, liberators.models, liberators.profile["Health"]) == ("order", 5, 2)
    assert (clanrats.side, clanrats.models, clanrats.profile["Save"]) == ("chaos", 20, 5)
    assert set(liberators.command) == {"champion", "standard_bearer"}
    assert set(clanrats.command) == {"champion", "musician", "standard_bearer"}
    assert battle.doc.value["duel"] == {"distance": 8}
    assert battle.doc.value["game"] == {"rounds": 3, "first": "order"}


# ============================================================== a grid of weapon profiles

GRID = [
    # (label, weapon args, target args, expected mean damage of one attack)
    ("hit 4 wound 4 rend 0 v save 4", (4, 4, 0, 1), {}, F(1, 2) * F(1, 2) * F(1, 2)),
    ("hit 3 wound 4 rend 1 damage 2 v save 4", (3, 4, 1, 2), {},
     F(2, 3) * F(1, 2) * F(2, 3) * 2),  # the save needs 5: unsaved 4/6
    ("hit 2 wound 2 v save 2: only a 1 fails the save", (2, 2, 0, 1), {"save": 2},
     F(5, 6) * F(5, 6) * F(1, 6)),
    ("hit 6 wound 6 v save 6", (6, 6, 0, 1), {"save": 6}, F(1, 6) * F(1, 6) * F(5, 6)),
    ("rend 2 v save 6: no save", (4, 4, 2, 1), {"save": 6}, F(1, 4)),
    ("rend 3 v save 3: saves on a 6 only", (3, 3, 3, 1), {"save": 3}, F(4, 9) * F(5, 6)),
    ("rend 4 v save 3: no save", (3, 3, 4, 1), {"save": 3}, F(4, 9)),
    ("a save of '-' never saves", (3, 3, 0, 1), {"save": None}, F(4, 9)),
    ("damage 3 v save 4", (4, 3, 0, 3), {}, F(1, 2) * F(2, 3) * F(1, 2) * 3),
]


@pytest.mark.parametrize(("label", "w", "t", "expected"), GRID, ids=[g[0] for g in GRID])
def test_plain_weapon_profiles(rt, label: str, w: tuple, t: dict, expected: Fraction) -> None:
    assert mean_damage(rt, attacker_with(rt, *w), unit(rt, **t)) == expected


CRITS = [
    # (label, rule, weapon args, target args, expected mean damage of one attack)
    # Crit (2 Hits), L948: a 6 scores 2 hits, each rolls to wound. Hits 2/6 + 2/6 = 2/3.
    ("Crit (2 Hits)", "Crit (2 Hits)", (4, 4, 0, 1), {}, F(2, 3) * F(1, 2) * F(1, 2)),
    # Crit (Auto-wound), L949: a 6 skips the wound roll, the save is made as normal.
    # 1/6 * 1/2 + 2/6 * 1/3 * 1/2 = 1/12 + 1/18 = 5/36
    ("Crit (Auto-wound)", "Crit (Auto-wound)", (4, 5, 0, 1), {}, F(5, 36)),
    # Crit (Mortal), L950: a 6 inflicts Damage 2 as mortal damage, no wound or save roll.
    # 1/6 * 2 + 2/6 * 1/2 * (save 3+ fails 2/6) * 2 = 1/3 + 1/9 = 4/9
    ("Crit (Mortal)", "Crit (Mortal)", (4, 4, 0, 2), {"save": 3}, F(4, 9)),
    # Against a unit with no save, the 6 still only does the weapon's Damage.
    ("Crit (Mortal) v no save", "Crit (Mortal)", (4, 4, 1, 1), {"save": None},
     F(1, 6) + F(2, 6) * F(1, 2)),
]


@pytest.mark.parametrize(("label", "rule", "w", "t", "expected"), CRITS,
                         ids=[c[0] for c in CRITS])
def test_crit_weapon_abilities(rt, label: str, rule: str, w: tuple, t: dict,
                               expected: Fraction) -> None:
    a = attacker_with(rt, *w, rules=(rule,))
    assert mean_damage(rt, a, unit(rt, **t)) == expected


def test_crit_2_hits_makes_one_wound_roll_per_hit(rt) -> None:
    # L948: the 6 goes on as two hits; both wound on 4+ and go unsaved on 1-3 of Save 4.
    result = odds(rt, attacker_with(rt, 4, 4, 0, 1, rules=("Crit (2 Hits)",)), unit(rt))
    assert result.past[0].probability(2) == F(1, 6)          # two hits past the hit step
    assert result.damage.probability(2) == F(1, 6) * F(1, 4) ** 2


WARDS = [
    # L790: a ward roll for each damage point; 5+ keeps 2/3 of the points, 6+ keeps 5/6.
    # Hit 3, Wound 3, Rend 1 on Save 4 (needs 5: unsaved 2/3), Damage 2.
    ("WARD (5+)", ("WARD (5+)",), F(2, 3) * F(2, 3) * F(2, 3) * 2 * F(2, 3)),
    ("WARD (6+)", ("WARD (6+)",), F(2, 3) * F(2, 3) * F(2, 3) * 2 * F(5, 6)),
    # L788: with two wards only the lowest value applies (WE-05), whatever the order.
    ("WARD (6+) and WARD (5+)", ("WARD (6+)", "WARD (5+)"), F(2, 3) ** 3 * 2 * F(2, 3)),
    ("no ward", (), F(2, 3) ** 3 * 2),
]


@pytest.mark.parametrize(("label", "rules", "expected"), WARDS, ids=[w[0] for w in WARDS])
def test_ward_is_rolled_per_damage_point(rt, label: str, rules: tuple, expected: Fraction) -> None:
    result = odds(rt, attacker_with(rt, 3, 3, 1, 2), unit(rt, rules=rules))
    assert result.damage.mean() == expected


def test_ward_rolls_also_apply_to_mortal_damage(rt) -> None:
    # L605, L790: mortal damage goes into the damage pool, so each point is warded. With a
    # Wound of 7 nothing wounds: only Crit (Mortal)'s 6s (Damage 2) do damage.
    a = attacker_with(rt, 4, 7, 0, 2, rules=("Crit (Mortal)",))
    assert mean_damage(rt, a, unit(rt, rules=("WARD (5+)",))) == F(1, 6) * 2 * F(2, 3)


def test_ward_splits_a_two_point_attack_point_by_point(rt) -> None:
    # Both points of an unsaved Damage 2 attack are rolled for: 1, 2 or 0 may get through.
    result = odds(rt, attacker_with(rt, 3, 3, 1, 2), unit(rt, rules=("WARD (5+)",)))
    unsaved = F(2, 3) ** 3
    assert result.damage.probability(1) == unsaved * 2 * F(2, 3) * F(1, 3)
    assert result.damage.probability(2) == unsaved * F(2, 3) ** 2


def test_random_damage_d3_with_a_ward(rt) -> None:
    """Damage D3 is rolled for each attack (L549, L156), each point then warded (L790).

    Hit 3, Wound 3, Rend 0 on Save 4: 2/3 * 2/3 * 1/2 = 2/9 unsaved; D3 averages 2; a 5+
    ward keeps 2/3 of the points: 2/9 * 2 * 2/3 = 8/27.
    """
    result = odds(rt, attacker_with(rt, 3, 3, 0, "D3"), unit(rt, rules=("WARD (5+)",)))
    assert result.damage.mean() == F(8, 27)
    # 3 points: a D3 of 3 (D6 5-6) and all three kept
    assert result.damage.probability(3) == F(2, 9) * F(1, 3) * F(2, 3) ** 3
    assert result.damage.max() == 3


def test_random_damage_d3_on_health_2_models(rt) -> None:
    # Models removed from the summed damage (L881): 2 or 3 points slay 1 model of Health 2.
    result = odds(rt, attacker_with(rt, 3, 3, 0, "D3"), unit(rt, health=2))
    assert result.models_removed.probability(1) == F(2, 9) * F(2, 3)


def test_anti_infantry_adds_1_rend_against_infantry_only(rt) -> None:
    # L448. Hit 3, Wound 3, Rend 1 v Save 4: the save needs 5 (unsaved 2/3), or 6 (5/6).
    a = attacker_with(rt, 3, 3, 1, 1, rules=("Anti-INFANTRY (+1 Rend)",))
    assert mean_damage(rt, a, unit(rt, keywords=("INFANTRY",))) == F(4, 9) * F(5, 6)
    assert mean_damage(rt, a, unit(rt, keywords=("CAVALRY",))) == F(4, 9) * F(2, 3)


def test_anti_x_takes_x_from_its_name_whatever_the_keyword(rt) -> None:
    # L448: one rule, "Anti-{x} (+1 Rend)"; a keyword no bundled weapon names works too
    a = attacker_with(rt, 3, 3, 1, 1, rules=("Anti-DAEMON (+1 Rend)",))
    assert [r.args for r in a.weapons[0].rules] == [{"x": "DAEMON"}]
    assert mean_damage(rt, a, unit(rt, keywords=("DAEMON",))) == F(4, 9) * F(5, 6)
    assert mean_damage(rt, a, unit(rt, keywords=("INFANTRY",))) == F(4, 9) * F(2, 3)


def test_anti_charge_adds_1_rend_against_a_unit_that_charged(rt) -> None:
    a = attacker_with(rt, 3, 3, 0, 1, rules=("Anti-charge (+1 Rend)",))
    assert mean_damage(rt, a, unit(rt, statuses=("charged",))) == F(4, 9) * F(2, 3)
    assert mean_damage(rt, a, unit(rt)) == F(4, 9) * F(1, 2)


def test_charge_adds_1_damage_when_the_attacker_charged(rt) -> None:
    # L470: Damage 1 becomes 2. Hit 3, Wound 3, Rend 0 v Save 4: 2/9 unsaved.
    a = attacker_with(rt, 3, 3, 0, 1, rules=("Charge (+1 Damage)",))
    assert mean_damage(rt, a, unit(rt)) == F(2, 9)
    assert mean_damage(rt, a, unit(rt), charging=True) == F(4, 9)


def test_charging_without_the_ability_changes_nothing(rt) -> None:
    a = attacker_with(rt, 3, 3, 0, 1)
    assert mean_damage(rt, a, unit(rt), charging=True) == F(2, 9)


@pytest.mark.parametrize(("bonus_on_mortal", "expected"), [
    # Hit 4, Wound 4, Rend 0, Damage 1, charging, v Save 4.
    # Reading 3 (README): the mortal damage is the Damage with its Charge bonus, 2.
    (True, F(1, 6) * 2 + F(2, 6) * F(1, 2) * F(1, 2) * 2),
    # The other reading: the printed Damage, 1.
    (False, F(1, 6) * 1 + F(2, 6) * F(1, 2) * F(1, 2) * 2),
])
def test_crit_mortal_and_charge_bonus_reading(rt, bonus_on_mortal: bool, expected) -> None:
    a = attacker_with(rt, 4, 4, 0, 1, rules=("Crit (Mortal)", "Charge (+1 Damage)"))
    options = {"charge_bonus_on_mortal": bonus_on_mortal}
    assert mean_damage(rt, a, unit(rt), charging=True, options=options) == expected


# ============================================================== modifiers and their caps


def test_hit_modifiers_are_capped_at_minus_1(rt) -> None:
    """Cover (-1, L666) and Guarded Hero (-1 to shooting attacks, L1124) add to -2, capped
    at -1 (L1148): a Hit 3+ shooting attack still hits on 4+."""
    target = unit(rt, keywords=("HERO", "INFANTRY"), rules=("Cover", "Guarded Hero"))
    shooter = attacker_with(rt, 3, 3, 0, 1, range_=18)
    assert hits(rt, shooter, target, mode="shooting") == F(1, 2)
    assert hits(rt, shooter, unit(rt), mode="shooting") == F(2, 3)


def test_hit_modifiers_are_capped_at_plus_1_and_added_before_capping(rt) -> None:
    # All-out Attack +1 (L769) on a Hit 4+ weapon: 3+. With Cover, -1 + 1 = 0: 4+.
    a = unit(rt, "attacker", rules=("All-out Attack",), weapons=(weapon(rt, 4, 4),))
    assert hits(rt, a, unit(rt)) == F(2, 3)
    assert hits(rt, a, unit(rt, rules=("Cover",))) == F(1, 2)


def test_a_modified_hit_roll_of_1_still_fails(rt) -> None:
    # L965: Hit 2+ and +1: a 1 (1 + 1 = 2) still fails.
    a = unit(rt, "attacker", rules=("All-out Attack",), weapons=(weapon(rt, 2, 2),))
    assert hits(rt, a, unit(rt)) == F(5, 6)


def test_wound_roll_needs_its_score_and_a_1_fails(rt) -> None:
    assert odds(rt, attacker_with(rt, 2, 2), unit(rt)).past[1].mean() == F(5, 6) * F(5, 6)
    assert odds(rt, attacker_with(rt, 2, 6), unit(rt)).past[1].mean() == F(5, 6) * F(1, 6)


def test_two_cover_features_give_minus_1_once(rt) -> None:
    # Rules of One (L1285): the same passive ability affects a unit once.
    target = unit(rt, rules=("Cover",))
    target.rules.append(rt.bind_rule("Cover"))
    a = unit(rt, "attacker", rules=("All-out Attack",), weapons=(weapon(rt, 4, 4),))
    assert hits(rt, a, target) == F(1, 2)   # +1 - 1 = 0, not +1 - 2 capped at -1


def test_cover_does_not_help_a_unit_that_charged_or_flies(rt) -> None:
    a = attacker_with(rt, 4, 4)
    assert hits(rt, a, unit(rt, rules=("Cover",))) == F(1, 3)
    assert hits(rt, a, unit(rt, rules=("Cover",), statuses=("charged",))) == F(1, 2)
    assert hits(rt, a, unit(rt, rules=("Cover",), keywords=("FLY",))) == F(1, 2)


def test_save_modifiers_are_capped_at_plus_1(rt) -> None:
    # All-out Defence +1 (L1542) on Save 4, Rend 0: saves on 3+, unsaved 1/3.
    a = attacker_with(rt, 2, 2, 0, 1)
    assert mean_damage(rt, a, unit(rt, rules=("All-out Defence",))) == F(25, 36) * F(1, 3)
    # with Rend 1: +1 - 1 = 0, the save is back on 4+
    a1 = attacker_with(rt, 2, 2, 1, 1)
    assert mean_damage(rt, a1, unit(rt, rules=("All-out Defence",))) == F(25, 36) * F(1, 2)


def test_a_save_roll_of_1_fails_even_with_plus_1(rt) -> None:
    # Save 2+ with All-out Defence: only the unmodified 1 fails (L967).
    a = attacker_with(rt, 2, 2, 0, 1)
    assert mean_damage(rt, a, unit(rt, save=2, rules=("All-out Defence",))) == F(25, 36) / 6


def test_save_modifiers_have_no_negative_cap(rt) -> None:
    # Rend 1, Anti-INFANTRY (+1 Rend) and All-out Attack's -1 on its own saves (L769):
    # Save 3 needs 3 + 3 = 6: unsaved 5/6 (L1148: nothing caps the minus side).
    a = attacker_with(rt, 2, 2, 1, 1, rules=("Anti-INFANTRY (+1 Rend)",))
    target = unit(rt, save=3, keywords=("INFANTRY",), rules=("All-out Attack",))
    assert mean_damage(rt, a, target) == F(25, 36) * F(5, 6)


@pytest.fixture(scope="module")
def shielded(tmp_path_factory):
    """aos4 plus a second +1 save ability (a test fixture), to reach the +1 cap with Rend."""
    folder = write_patch(tmp_path_factory.mktemp("aos4") / "aos4_shielded", '''\
add rule "Test Shield"                                                @ "not in seed: test fixture"
    modify save_roll by 1 if bearer == target
''')
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


@pytest.mark.parametrize(("rend_in_cap", "unsaved"), [
    # Save 4, Rend 1, modifiers +1 +1. Rend inside the cap: +2 - 1 = +1, saves on 3+.
    (True, F(2, 6)),
    # Rend outside: min(+2, +1) - 1 = 0, saves on 4+.
    (False, F(3, 6)),
])
def test_rend_and_the_save_cap_reading(shielded, rend_in_cap: bool, unsaved: Fraction) -> None:
    """Reading 1 (README): does Rend count among the modifiers capped at +1 (L967, L1148)?"""
    rt2 = shielded
    a = attacker_with(rt2, 2, 2, 1, 1)
    t = unit(rt2, rules=("All-out Defence", "Test Shield"))
    options = {"rend_in_save_cap": rend_in_cap}
    assert mean_damage(rt2, a, t, options=options) == F(25, 36) * unsaved


def test_the_rend_reading_changes_nothing_below_the_cap(rt) -> None:
    a = attacker_with(rt, 2, 2, 2, 1)
    for t in (unit(rt), unit(rt, rules=("All-out Defence",))):
        assert (mean_damage(rt, a, t, options={"rend_in_save_cap": True})
                == mean_damage(rt, a, t, options={"rend_in_save_cap": False}))


# ============================================================== the seed's worked examples


def test_we04_ward_5_removes_a_point_on_5_or_6(rt) -> None:
    """WE-04, L788: WARD (5+) is a ward value of 5; a ward roll of 5 or 6 removes a point."""
    warded = unit(rt, rules=("WARD (5+)",))
    assert roll(rt, "ward_roll", [5], target=warded).passed
    assert roll(rt, "ward_roll", [6], target=warded).passed
    assert not roll(rt, "ward_roll", [4], target=warded).passed
    assert roll(rt, "ward_roll", target=warded).probability(True) == F(1, 3)


def test_we05_two_wards_only_the_lowest_applies(rt) -> None:
    """WE-05, L788: a unit with WARD (5+) and WARD (6+) uses 5+ only."""
    for rules in (("WARD (5+)", "WARD (6+)"), ("WARD (6+)", "WARD (5+)")):
        warded = unit(rt, rules=rules)
        assert roll(rt, "ward_roll", [5], target=warded).need == 5
        assert roll(rt, "ward_roll", [5], target=warded).passed
        assert roll(rt, "ward_roll", target=warded).probability(True) == F(1, 3)


def test_a_unit_without_ward_rolls_no_ward_dice(rt) -> None:
    # L787-L790: only units with the WARD keyword make ward rolls.
    result = roll(rt, "ward_roll", [], target=unit(rt))
    assert not result.passed


def test_we09_a_3_plus_roll_passes_on_3_and_fails_on_2(rt) -> None:
    """WE-09, L850: "3+" means 3 or more (here a Hit 3+ hit roll)."""
    args = {"attacker": unit(rt, "a"), "target": unit(rt), "weapon": weapon(rt, 3),
            "shooting": False}
    assert roll(rt, "hit_roll", [3], **args).passed
    assert not roll(rt, "hit_roll", [2], **args).passed


def test_we10_d3_is_a_d6_halved_rounding_up(rt) -> None:
    """WE-10, L851, L156: D6 faces 1..6 give D3 1,1,2,2,3,3; a D3 of 2+ is a D6 of 3+."""
    assert [D3.value((face,)) for face in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    d3 = roll(rt, "ritual_points_lost", priest=unit(rt))
    assert d3 == Dist.uniform([1, 1, 2, 2, 3, 3])
    assert d3.p_at_least(2) == F(4, 6)


def test_we11_2d6_adds_the_dice(rt) -> None:
    """WE-11, L849: a 2D6 charge roll of 3 and 5 is 8."""
    assert roll(rt, "charge_roll", [3, 5], unit=unit(rt)) == 8
    assert roll(rt, "charge_roll", unit=unit(rt)).mean() == 7


def test_we17_cloying_quagmire_needs_save_3_or_better(tmp_path) -> None:
    """WE-17, L909, FAQ L928-L929: "Save 3+ or better" is a Save of 3 or lower; such a unit
    has -1 to its run and charge rolls (the spell is a test fixture here)."""
    rt2 = compile_ruleset(load_ruleset(write_patch(tmp_path / "aos4_quagmire", '''\
add rule "Cloying Quagmire"                                           @ L906-L909, L928-L929
    modify run_roll by -1 if bearer == unit and unit.Save <= 3
    modify charge_roll by -1 if bearer == unit and unit.Save <= 3
''')), builtins=BUILTINS)
    for save, penalty in ((2, 1), (3, 1), (4, 0)):
        target = unit(rt2, save=save, rules=("Cloying Quagmire",))
        assert roll(rt2, "charge_roll", [3, 4], unit=target) == 7 - penalty
        assert roll(rt2, "run_roll", [4], unit=target) == 4 - penalty


def test_we16_a_die_rerolled_once_refuses_a_reroll_of_the_whole_charge_roll(tmp_path) -> None:
    """WE-16, L854, FAQ L857-L858: an ability re-rolls one die of a 2D6 charge roll; another
    ability cannot then re-roll the whole 2D6, as a die is re-rolled at most once (both
    abilities are test fixtures: the seed names Aurelias, L857, without its text)."""
    rt2 = compile_ruleset(load_ruleset(write_patch(tmp_path / "aos4_rerolls", '''\
add rule "Re-roll one charge die"                                     @ "not in seed: Aurelias-like (L857)"
    reroll lowest die of charge_roll if bearer == unit and natural < 7
add rule "Re-roll the charge roll"                                    @ "not in seed: illustrative (L857-L858)"
    reroll all dice of charge_roll if bearer == unit and natural < 8
''')), builtins=BUILTINS)
    both = unit(rt2, rules=("Re-roll one charge die", "Re-roll the charge roll"))
    chance = ScriptedChance([1, 3, 4])
    events: list = []
    env = rt2.env(chance)
    env.events = events
    assert rt2.invoke("charge_roll", env, {"unit": both}) == 7   # 1 3 -> 4 3; 7 < 8 stands
    assert chance.used_all()
    (event,) = events
    assert (event.first_dice, event.dice) == ([1, 3], [4, 3])
    assert (event.rerolled_by, event.reroll_refused) == (["Re-roll one charge die"],
                                                         ["Re-roll the charge roll"])
    # without the first ability, the whole roll is rolled again
    whole = unit(rt2, rules=("Re-roll the charge roll",))
    assert roll(rt2, "charge_roll", [1, 3, 5, 6], unit=whole) == 11
    # one die of a roll below 7 re-rolled: mean 565/72 (by hand: 7 + 61/72)
    one = unit(rt2, rules=("Re-roll one charge die",))
    assert roll(rt2, "charge_roll", unit=one).mean() == F(565, 72)


@pytest.fixture(scope="module")
def crit_on_5(tmp_path_factory):
    """aos4 with a weapon ability whose crits come on an unmodified 5+ (the FAQ's situation)."""
    folder = write_patch(tmp_path_factory.mktemp("aos4") / "aos4_crit5", '''\
add rule "Crit on 5+"                                                @ L971-L972
    mark critical on hit_roll if natural >= 5 and weapon == bearer
''')
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


@pytest.mark.parametrize(("rule", "damage_on_a_5"), [
    ("Crit (2 Hits)", 0), ("Crit (Auto-wound)", 0), ("Crit (Mortal)", 2),
])
def test_we18_a_critical_hit_that_misses(crit_on_5, rule: str, damage_on_a_5: int) -> None:
    """WE-18, FAQ L971-L972: crits on an unmodified 5+, Hit 5+ and -1 to hit (Cover). An
    unmodified 5 is a critical hit but not a hit (5 - 1 < 5): the sequence ends, so Crit
    (2 Hits) and Crit (Auto-wound) do nothing, while Crit (Mortal) still inflicts Damage."""
    rt2 = crit_on_5
    a = attacker_with(rt2, 5, 2, 0, 2, rules=(rule, "Crit on 5+"))
    t = unit(rt2, save=None, rules=("Cover",))
    (plan,) = plan_attacks(rt2, a, t, attacks=1)
    seq = rt2.sequences[plan.sequence]
    outcome = seq.run(rt2.env(ScriptedChance({"hit_roll": [5], "*": [6, 6]})), dict(plan.args))
    assert outcome.damage == damage_on_a_5
    assert outcome.past[0] == 0


def test_we22_casting_rolls_and_a_miscast(rt) -> None:
    """WE-22, L795-L799, L1664: Mystic Shield, casting value 6: 2+4 casts, 2+3 fails, 1+1 is
    a miscast (two unmodified 1s) and fails."""
    wizard = unit(rt, "wizard", keywords=("WIZARD",))
    assert roll(rt, "casting_roll", [2, 4], wizard=wizard, casting_value=6).passed
    assert not roll(rt, "casting_roll", [2, 3], wizard=wizard, casting_value=6).passed
    miscast = roll(rt, "casting_roll", [1, 1], wizard=wizard, casting_value=6)
    assert not miscast.passed and "miscast" in miscast.marks
    assert "miscast" not in roll(rt, "casting_roll", [1, 2], wizard=wizard,
                                 casting_value=6).marks
    # a miscast fails even against a casting value it would reach
    assert not roll(rt, "casting_roll", [1, 1], wizard=wizard, casting_value=2).passed


def test_we24_an_unbinding_roll_must_exceed_the_casting_roll(rt) -> None:
    """WE-24, L823, L1710: casting roll 8; unbinding 8 does not unbind, 9 does."""
    wizard = unit(rt, "wizard", keywords=("WIZARD",))
    assert not roll(rt, "unbinding_roll", [4, 4], wizard=wizard, casting_roll=8).passed
    assert roll(rt, "unbinding_roll", [4, 5], wizard=wizard, casting_roll=8).passed


def test_we25_a_casting_roll_below_the_casting_value_fails(rt) -> None:
    """WE-25, L793, L1664: 5 against casting value 6 fails (no Unbind is then allowed: the
    battle engine's)."""
    wizard = unit(rt, "wizard", keywords=("WIZARD",))
    assert not roll(rt, "casting_roll", [2, 3], wizard=wizard, casting_value=6).passed


def test_we27_ritual_points_answer_a_prayer(rt) -> None:
    """WE-27, L813-L817, L1685: Resurrection (chanting value 7), 3 ritual points, roll 4:
    4 + 3 = 7 answers it."""
    priest = unit(rt, "priest", keywords=("PRIEST",))
    assert roll(rt, "chanting_roll", [4], priest=priest, chanting_value=7, ritual_points=3).passed
    assert not roll(rt, "chanting_roll", [3], priest=priest, chanting_value=7,
                    ritual_points=3).passed


def test_we29_an_unmodified_chanting_roll_of_1_fails(rt) -> None:
    """WE-29, L1683: an unmodified 1 fails even when ritual points would reach the value;
    then D3 ritual points are lost (a D6 of 5 is a D3 of 3; scripted dice give the D3)."""
    priest = unit(rt, "priest", keywords=("PRIEST",))
    assert not roll(rt, "chanting_roll", [1], priest=priest, chanting_value=7,
                    ritual_points=6).passed
    assert roll(rt, "ritual_points_lost", [3], priest=priest) == 3


def test_we31_banishment_adds_1_per_enemy_manifestation_after_the_first(rt) -> None:
    """WE-31, L1511, L1516-L1518 (also L831, L1253): three enemy manifestations, dice 3+4:
    7 + 2 = 9 banishes a manifestation of banishment value 9. (WE-32, the original glossary
    without the bonus, L458, is not followed: the module and its errata win, L445.)"""
    caster = unit(rt, "caster", keywords=("WIZARD",))
    assert roll(rt, "banishment_roll", [3, 4], caster=caster, banishment_value=9,
                enemy_manifestations=3).passed
    assert not roll(rt, "banishment_roll", [3, 4], caster=caster, banishment_value=9,
                    enemy_manifestations=1).passed


def test_we33_six_rally_rolls_each_4_plus_a_point(rt) -> None:
    """WE-33, L1702: rally dice 4,5,6,1,2,3 give 3 rally points (the battle spends them:
    test_aos4_battle.py)."""
    assert roll(rt, "rally_points", [4, 5, 6, 1, 2, 3], unit=unit(rt)) == 3
    assert roll(rt, "rally_points", unit=unit(rt)).mean() == 3


def test_we34_a_musician_adds_a_seventh_rally_roll(rt) -> None:
    """WE-34, L1169: with a musician the unit makes 7 rally rolls."""
    band = unit(rt, command=("musician",))
    assert roll(rt, "rally_points", [4, 5, 6, 1, 2, 3, 6], unit=band) == 4
    assert roll(rt, "rally_points", unit=band).mean() == F(7, 2)


def test_we46_guarded_hero_is_minus_1_to_hit_for_shooting_attacks(rt) -> None:
    """WE-46, L1124, L1131: shooting attacks at a guarded HERO have -1 to hit; combat attacks
    do not. (Who may target it, 12" and the 3" guard, is the battle engine's.)"""
    hero = unit(rt, keywords=("HERO", "INFANTRY"), rules=("Guarded Hero",))
    assert hits(rt, attacker_with(rt, 3, 3, range_=18), hero, mode="shooting") == F(1, 2)
    assert hits(rt, attacker_with(rt, 3, 3), hero) == F(2, 3)


def test_we47_ignoring_the_targeting_limit_keeps_the_minus_1(rt) -> None:
    """WE-47, FAQ L1136-L1137: a shooter that may ignore the targeting limit still has -1."""
    hero = unit(rt, keywords=("HERO", "INFANTRY"), rules=("Guarded Hero",))
    shooter = unit(rt, "sniper", weapons=(weapon(rt, 4, 4, range_=30),))
    assert hits(rt, shooter, hero, mode="shooting") == F(1, 3)


def test_guarded_hero_does_not_protect_monsters_or_war_machines(rt) -> None:
    # L1123, L1133
    for kind in ("MONSTER", "WAR MACHINE"):
        hero = unit(rt, keywords=("HERO", kind), rules=("Guarded Hero",))
        assert hits(rt, attacker_with(rt, 3, 3, range_=18), hero, mode="shooting") == F(2, 3)


def test_an_unmodified_6_does_not_always_hit(rt) -> None:
    # Reading 2 (README): only the unmodified 1 is fixed (L965). Hit 6+ at -1 never hits, but
    # the 6 is still a critical hit, so Crit (Mortal) still inflicts its Damage (L972).
    target = unit(rt, save=None, rules=("Cover",))
    assert hits(rt, attacker_with(rt, 6, 2), target) == 0
    assert mean_damage(rt, attacker_with(rt, 6, 2, 0, 1, rules=("Crit (Mortal)",)),
                       target) == F(1, 6)


# ============================================================== how many attacks


def test_each_model_attacks_with_each_weapon_and_the_champion_adds_one(duel) -> None:
    # L690: models x Attacks; L468: +1 Attacks to the champion's weapons.
    _, runtime, battle = duel
    liberators, clanrats = battle.unit("liberators"), battle.unit("clanrats")
    assert count(runtime, "combat_attacks", liberators, clanrats) == {"warhammer": 11}
    assert count(runtime, "combat_attacks", clanrats, liberators) == {"rusty_blade": 41}
    assert count(runtime, "shooting_attacks", liberators, clanrats) == {}


def test_melee_and_ranged_weapons_are_counted_apart(rt) -> None:
    bow = weapon(rt, 3, 3, attacks=2, range_=24, name="bow")
    blade = weapon(rt, 4, 4, attacks=1, name="blade")
    a = unit(rt, "a", models=5, weapons=(bow, blade), command=("champion",))
    assert count(rt, "shooting_attacks", a, unit(rt)) == {"bow": 11}
    assert count(rt, "combat_attacks", a, unit(rt)) == {"blade": 6}


def test_the_champion_does_not_add_to_companion_weapons(rt) -> None:
    # L479: a Companion weapon is not affected by friendly abilities that improve its
    # characteristics, and Champion (L468) is one.
    jaws = weapon(rt, 4, 4, attacks=2, rules=("Companion",), name="jaws")
    for keywords in ((), ("BEAST",)):
        hounds = unit(rt, "hounds", models=5, keywords=keywords, weapons=(jaws,),
                      command=("champion",))
        assert count(rt, "combat_attacks", hounds, unit(rt)) == {"jaws": 10}


@pytest.fixture(scope="module")
def buffs(tmp_path_factory):
    """aos4 with abilities that change hit and wound rolls (test fixtures, L145)."""
    folder = write_patch(tmp_path_factory.mktemp("aos4") / "aos4_buffs", '''\
add rule "Battle Fury"                                               @ L145
    modify hit_roll by 1 if bearer == attacker
    modify wound_roll need by -1 if bearer == attacker

add rule "Weighed Down"                                              @ L145
    modify hit_roll by -1 if bearer == attacker

add rule "Easy Prey"                                                 @ L145
    modify hit_roll by 1 if bearer == target
''')
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


@pytest.mark.parametrize(("attacker_rules", "target_rules", "hit", "wound"), [
    ((), (), (F(1, 2), F(1, 2)), (F(1, 2), F(1, 2))),
    # a friendly ability's +1 to hit and -1 to the wound score: not for Companion
    (("Battle Fury",), (), (F(2, 3), F(1, 2)), (F(2, 3), F(1, 2))),
    # a negative modifier reaches it (L145: "except for those that apply negative")
    (("Weighed Down",), (), (F(1, 3), F(1, 3)), (F(1, 2), F(1, 2))),
    # All-out Attack says it affects Companion weapons (L769)
    (("All-out Attack",), (), (F(2, 3), F(2, 3)), (F(1, 2), F(1, 2))),
    # an enemy's ability is not a friendly one
    ((), ("Easy Prey",), (F(2, 3), F(2, 3)), (F(1, 2), F(1, 2))),
])
def test_companion_weapons_are_not_affected_by_friendly_gains(
        buffs, attacker_rules, target_rules, hit, wound) -> None:
    # L145, L479: the hit and wound chances (4+ each) of a plain weapon and of a Companion
    # weapon of the same unit
    blade = weapon(buffs, 4, 4, name="blade")
    jaws = weapon(buffs, 4, 4, rules=("Companion",), name="jaws")
    a = unit(buffs, "attacker", rules=attacker_rules, weapons=(blade, jaws))
    t = unit(buffs, rules=target_rules)

    def p(test: str, w: Weapon) -> F:
        args = {"attacker": a, "target": t, "weapon": w}
        return enumerate_exact(lambda ch: buffs.invoke(test, buffs.env(ch), dict(args)).passed
                               ).probability(True)
    assert (p("hit_roll", blade), p("hit_roll", jaws)) == hit
    assert (p("wound_roll", blade), p("wound_roll", jaws)) == wound


def test_rules_odds_plans_one_attack_per_weapon_with_attacks_1(duel) -> None:
    _, runtime, battle = duel
    plans = plan_attacks(runtime, battle.unit("liberators"), battle.unit("clanrats"), attacks=1)
    assert [(p.label, p.attacks, p.sequence) for p in plans] == [
        ("melee (warhammer)", 1, "combat_attack")]


def test_rules_odds_counts_the_full_allocation(duel) -> None:
    # 5 Liberators x 2 + the Liberator-Prime's +1 = 11 attacks of 25/54 each.
    _, runtime, battle = duel
    liberators, clanrats = battle.unit("liberators"), battle.unit("clanrats")
    (plan,) = plan_attacks(runtime, liberators, clanrats)
    assert (plan.label, plan.attacks) == ("melee (warhammer)", 11)
    assert attack_odds(runtime, plan, clanrats).damage.mean() == 11 * F(25, 54)
    assert plan_attacks(runtime, liberators, clanrats, mode="shooting") == []


# ============================================================== Monte Carlo agrees with exact

MC_SAMPLES = 10_000
MC_CASES = [
    # (label, weapon args, target args, attacks, charging, seed)
    ("liberators v clanrats", (3, 3, 1, 1, "Crit (2 Hits)"), {"save": 5}, 5, False, 101),
    ("D3 damage into a 5+ ward", (3, 3, 0, "D3", None), {"rules": ("WARD (5+)",)}, 3, False,
     102),
    ("Crit (Mortal) with Charge", (4, 4, 1, 2, "Crit (Mortal)"), {"save": 3}, 4, True, 103),
    ("Crit (Auto-wound) into Cover and a 6+ ward", (3, 5, 1, 1, "Crit (Auto-wound)"),
     {"save": 4, "rules": ("Cover", "WARD (6+)")}, 6, False, 104),
]


@pytest.mark.parametrize(("label", "w", "t", "n", "charging", "seed"), MC_CASES,
                         ids=[c[0] for c in MC_CASES])
def test_monte_carlo_agrees_with_exact(rt, label, w, t, n, charging, seed) -> None:
    hit, wound, rend, damage, rule = w
    rules = (rule,) if rule else ()
    if charging:
        rules += ("Charge (+1 Damage)",)
    a = attacker_with(rt, hit, wound, rend, damage, rules=rules)
    target = unit(rt, **t)
    (plan,) = plan_attacks(rt, a, target, attacks=n, settings={"charging": charging})
    exact = attack_odds(rt, plan, target).damage
    sampled = sample_attacks(rt, plan, MC_SAMPLES, seed)
    assert within_four_sigma(sampled, exact, MC_SAMPLES) == []
    sigma = math.sqrt(float(exact.variance()) / MC_SAMPLES)
    assert abs(float(sampled.mean() - exact.mean())) < 4 * sigma


def test_the_four_sigma_check_would_catch_a_missing_crit(rt) -> None:
    # Sampling Crit (2 Hits) attacks against the exact odds of plain ones must fail.
    target = unit(rt, save=5)
    (with_crit,) = plan_attacks(rt, attacker_with(rt, 3, 3, 1, 1, rules=("Crit (2 Hits)",)),
                                target, attacks=5)
    (plain,) = plan_attacks(rt, attacker_with(rt, 3, 3, 1, 1), target, attacks=5)
    sampled = sample_attacks(rt, with_crit, MC_SAMPLES, 7)
    assert within_four_sigma(sampled, attack_odds(rt, plain, target).damage, MC_SAMPLES) != []


# ============================================================== the ruleset and its patches


def test_every_declaration_cites_the_seed(duel) -> None:
    ruleset = duel[0]
    for key, origin in ruleset.origins.items():
        assert origin.cite, key
        assert "002_71a3a79b74c3f40d.txt L" in origin.cite or "not in seed:" in origin.cite


def test_rules_check_is_clean_for_aos4(capsys) -> None:
    from rules_run.cli.check import main

    assert main(["rulesets/aos4"]) == 0


def test_rules_check_is_clean_for_the_whole_family(capsys) -> None:
    from rules_run.cli.check import main

    assert main(["rulesets/aos4", "rulesets/aos4-gh2025", "rulesets/aos4-gh2026"]) == 0


@pytest.mark.parametrize("edition", ["aos4-gh2025", "aos4-gh2026"])
def test_each_patch_loads(edition: str) -> None:
    ruleset = load_edition(edition)
    assert ruleset.chain[-1] == edition
    assert ruleset.base is not None and ruleset.base.id in ("aos4", "aos4-gh2025")


@pytest.fixture(scope="module")
def seasons():
    return {season: load_edition(f"aos4-{season}") for season in ("gh2025", "gh2026")}


def test_the_season_patches_chain_and_only_patch(seasons) -> None:
    gh2025, gh2026 = seasons["gh2025"], seasons["gh2026"]
    assert gh2025.chain == ("aos4", "aos4-gh2025")
    assert gh2026.chain == ("aos4", "aos4-gh2025", "aos4-gh2026")
    ops = [(patch, op.op, op.kind, op.name) for patch, own in gh2026.patches for op in own]
    assert ("aos4-gh2025", "add", "test", "sacred_rites_roll") in ops
    assert ("aos4-gh2026", "override", "action", "champion_bonus") in ops
    assert {patch for patch, *_ in ops} == {"aos4-gh2025", "aos4-gh2026"}
    for _, own in gh2026.patches:
        for op in own:
            assert op.cite is not None and op.cite.ranges, op.name
    # the units and the bundled battle come from aos4
    assert "order/liberators" in gh2026.units
    assert gh2026.default_battle.name == "battle.yaml"


def test_the_duel_odds_are_the_same_in_every_season(seasons) -> None:
    for ruleset in seasons.values():
        runtime = compile_ruleset(ruleset, builtins=BUILTINS)
        lib = unit(runtime, "lib", weapons=(weapon(runtime, 3, 3, 1, 1,
                                                   rules=("Crit (2 Hits)",)),))
        assert mean_damage(runtime, lib, unit(runtime, save=5)) == F(25, 54)


def test_we30_sacred_rites_from_2025_26(seasons, rt) -> None:
    """WE-30, L808-L809, L1429-L1434, errata L1444-L1447: Sacred Rites (chanting value 2)
    gives ritual points equal to the unmodified roll (a 5 gives 5); an unmodified 1 fails.
    The original rules have no Sacred Rites (L1683)."""
    runtime = compile_ruleset(seasons["gh2025"], builtins=BUILTINS)
    priest = unit(runtime, "priest", keywords=("PRIEST",))
    five = roll(runtime, "sacred_rites_roll", [5], priest=priest)
    assert five.passed and five.value == 5
    assert not roll(runtime, "sacred_rites_roll", [1], priest=priest).passed
    assert "sacred_rites_roll" not in rt.rolls


def test_champion_adds_to_a_beasts_companion_weapons_from_2026_27(seasons, rt) -> None:
    """L134, L1007: from 2026-27 the Champion ability also affects a BEAST unit's Companion
    weapons; before (L468, L479) it did not. A non-BEAST unit's Companion weapons still get
    nothing."""
    runtime = compile_ruleset(seasons["gh2026"], builtins=BUILTINS)
    older = compile_ruleset(seasons["gh2025"], builtins=BUILTINS)
    for r, beast_bonus in ((rt, 0), (older, 0), (runtime, 1)):
        jaws = weapon(r, 4, 4, attacks=2, rules=("Companion",), name="jaws")
        hounds = unit(r, "hounds", models=5, keywords=("BEAST",), weapons=(jaws,),
                      command=("champion",))
        assert count(r, "combat_attacks", hounds, unit(r)) == {"jaws": 10 + beast_bonus}
        claws = weapon(r, 4, 4, attacks=3, rules=("Companion",), name="claws")
        riders = unit(r, "riders", models=3, keywords=("CAVALRY",), weapons=(claws,),
                      command=("champion",))
        assert count(r, "combat_attacks", riders, unit(r)) == {"claws": 9}


# ============================================================== profiles as printed


def test_profiles_written_as_printed(tmp_path) -> None:
    """Scores ("4+") and dice ("D3") in unit data are read by the characteristic's type
    (L850-L851): Hit 3+, Wound 3+, Rend 0, Damage D3 on Save 4+ is 2/3 * 2/3 * 1/2 * 2."""
    folder = write_patch(tmp_path / "aos4_printed", "", units='''\
kind: units
cite: "not in seed: test fixture"
units:
  printed:
    name: Printed
    cite: "not in seed: test fixture"
    profile: {Move: 5, Health: 1, Save: "4+", Control: 1}
    weapons:
      blade:
        profile: {Range: 0, Attacks: 1, Hit: "3+", Wound: "3+", Rend: 0, Damage: D3}
''')
    battle = tmp_path / "battle.yaml"
    battle.write_text("units:\n"
                      "  - {id: a, side: x, profile: extra/printed, models: 1}\n"
                      "  - {id: t, side: y, profile: extra/printed, models: 5}\n",
                      encoding="utf-8")
    _, runtime, fight = open_battle(str(folder), str(battle))
    a, t = fight.unit("a"), fight.unit("t")
    assert (t.profile["Save"], a.weapons[0].profile["Hit"]) == (4, 3)
    assert mean_damage(runtime, a, t) == F(2, 3) * F(2, 3) * F(1, 2) * 2


def test_the_grey_seers_d3_staff_from_data(tmp_path) -> None:
    """Warpstone Staff (illustrative, chaos.yaml): Hit 4+, Wound 4+, Rend 1, Damage D3, Crit
    (Mortal). On the Liberators' Save 3+ (Rend 1: needs 4, unsaved 1/2): the 6 inflicts D3
    mortal damage, 1/6 * 2; a 4 or 5 hits, 1/3 * 1/2 * 1/2 * 2. Total 1/2."""
    battle = tmp_path / "seer.yaml"
    battle.write_text("edition: aos4\nunits:\n"
                      "  - {id: seer, side: chaos, profile: chaos/grey_seer, models: 1}\n"
                      "  - {id: liberators, side: order, profile: order/liberators, models: 5}\n",
                      encoding="utf-8")
    _, runtime, fight = open_battle(None, str(battle))
    result = odds(runtime, fight.unit("seer"), fight.unit("liberators"))
    assert result.damage.mean() == F(1, 2)
    assert result.damage.max() == 3


def test_a_random_attacks_characteristic_is_exact_in_rules_odds(rt) -> None:
    # L549: a D3 Attacks is rolled once for the ability, for the whole unit (reading 7):
    # two models make 2, 4 or 6 attacks, each hitting and wounding on 3+ (4/9), no save
    d3 = dice_of(parse_dice("D3", Span("test", 1)))
    a = unit(rt, "attacker", models=2, weapons=(weapon(rt, 3, 3, 0, 1, attacks=d3),))
    t = unit(rt, save=None)
    (plan,) = plan_attacks(rt, a, t)
    assert plan.attacks == Dist.uniform([2, 4, 6])
    damage = attack_odds(rt, plan, t).damage
    assert damage.mean() == 4 * F(4, 9)
    miss = F(5, 9)
    assert damage.probability(0) == (miss ** 2 + miss ** 4 + miss ** 6) / 3
    sampled = sample_attacks(rt, plan, 4000, 11)
    assert abs(float(sampled.mean() - damage.mean())) <= 4 * math.sqrt(
        float(damage.variance()) / 4000)


@pytest.fixture(scope="module")
def modified(tmp_path_factory):
    """aos4 with rules that lower Attacks and Rend and halve Move (test fixtures, L194)."""
    folder = write_patch(tmp_path_factory.mktemp("aos4") / "aos4_modified", '''\
add rule "Weakened"                                                  @ L194
    add -1 to Attacks
    add -2 to Rend
    add -2 to Damage

add rule "Slowed"                                                    @ L194
    divide Move by 2 rounding down

add rule "Surging"                                                   @ L194
    add 1 to Move
''')
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def test_modifiers_take_attacks_and_damage_no_lower_than_1_and_rend_no_lower_than_0(
        modified) -> None:
    # L194: Attacks 1 - 1 is 1, Rend 1 - 2 is 0, Damage 2 - 2 is 1; a melee weapon's Range 0
    # is its own value, not a modifier's
    w = weapon(modified, rend=1, damage=2, rules=("Weakened",))
    assert [modified.characteristic(None, w, c) for c in ("Attacks", "Rend", "Damage",
                                                           "Range")] == [1, 0, 1, 0]
    assert [modified.characteristic(None, weapon(modified, rend=3, attacks=4, damage=3,
                                                 rules=("Weakened",)), c)
            for c in ("Attacks", "Rend", "Damage")] == [3, 1, 1]


def test_move_is_halved_rounding_down_then_added_to(modified) -> None:
    # L194: round fractions down; multiply or divide, then add
    def move(value: int, *rules: str) -> int:
        u = Unit("u", "u", "u", {"Move": value, "Health": 1, "Save": 4, "Control": 1}, 1,
                 rules=[modified.bind_rule(r) for r in rules])
        return modified.characteristic(None, u, "Move")
    assert move(5, "Slowed") == 2
    assert move(1, "Slowed") == 1              # 1/2 rounds down to 0: not below 1
    assert move(5, "Slowed", "Surging") == 3   # 5 / 2 = 2, + 1
    assert move(5, "Surging", "Slowed") == 3


def test_a_lowered_random_attacks_is_exact_in_rules_odds(modified) -> None:
    # L215, L194: the D3 is rolled, then -1, then no lower than 1: 1, 1 or 2 attacks
    d3 = dice_of(parse_dice("D3", Span("test", 1)))
    a = unit(modified, "attacker", models=1,
             weapons=(weapon(modified, attacks=d3, rules=("Weakened",)),))
    (plan,) = plan_attacks(modified, a, unit(modified, save=None))
    assert plan.attacks == Dist.from_weights({1: 2, 2: 1})


def test_counts_of_two_weapons_sharing_one_roll_are_refused(tmp_path) -> None:
    # a house rule: one D3 for every melee weapon of the unit; the two counts are not
    # independent, so their odds cannot be added up weapon by weapon
    folder = write_patch(tmp_path / "aos4_shared", '''\\
add roll frenzy_roll(u: unit)                                        @ "not in seed: a test fixture"
    dice D3

override action combat_attacks(attacker: unit, target: unit)         @ "not in seed: a test fixture"
    let n = frenzy_roll(attacker)
    let attacks = []
    for each w in weapons(attacker) where not (w.Range > 0):
        attacks += [[w, n]]
    return attacks
''')
    rt2 = compile_ruleset(load_ruleset(folder), builtins=BUILTINS)
    a = unit(rt2, "attacker", weapons=(weapon(rt2, name="claws"), weapon(rt2, name="horns")))
    with pytest.raises(UsageError) as err:
        plan_attacks(rt2, a, unit(rt2))
    assert str(err.value) == ("error: the attacks counted by 'combat_attacks' for 'attacker' share "
                              "dice between weapons, so their odds cannot be added up: give "
                              "--attacks")
    # one weapon alone: its count is the roll's
    (plan,) = plan_attacks(rt2, unit(rt2, "attacker", weapons=(weapon(rt2),)), unit(rt2))
    assert plan.attacks == Dist.uniform([1, 2, 3])


def test_rules_odds_exact_table_keeps_long_fractions_apart(capsys) -> None:
    """The duel's 11 attacks give fractions of 50 digits and more: each exact column is as
    wide as its longest fraction, so every row splits into k, two percentages and two
    fractions, and the fractions end in the same columns."""
    from rules_run.cli.odds import main as odds_main
    assert odds_main(["-e", "aos4", "rulesets/aos4/battles/duel.yaml", "--attacker",
                      "liberators", "--target", "clanrats", "--exact"]) == 0
    table = capsys.readouterr().out.split("damage:\n")[1].split("models removed:")[0]
    rows = table.splitlines()[1:]
    assert len(rows) > 10 and max(len(r.split()[3]) for r in rows) > 40
    assert all(len(r.split()) == 5 for r in rows)
    assert len({len(r) for r in rows}) == 1
    assert len({r.index(r.split()[3]) + len(r.split()[3]) for r in rows}) == 1
