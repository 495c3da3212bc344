"""The t9a ruleset: The Ninth Age 1.x special rules (seed 004_a56105ac0032614f.txt) as a
patch over wfb8. Each test names the 004 line it checks (and the digest's §4 case id where
it is one: ``../shared/digests/t9a-seed004.md``). Probabilities are exact fractions worked
out by hand in the comments; dice are scripted where a single outcome is checked.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from helpers import wfb8_world
from rules_run import open_battle
from rules_run.engine.driver import run_battle
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.builtins import PURE_BUILTINS

ROOT = Path(__file__).resolve().parents[2]
HIGHBORN = str(ROOT / "rulesets" / "t9a" / "battles" / "highborn.yaml")


class World(wfb8_world.World):
    """A t9a battle state from a few units, to run the ruleset's declarations in."""

    def __init__(self, tmp_path: Path, units: list[dict], edition: str = "t9a",
                 **extra: Any) -> None:
        super().__init__(tmp_path, units, edition, **extra)

    def damage(self, sequence: str, attacker: str, target: str):
        """One attack's exact damage (a Dist of points)."""
        seq = self.runtime.sequences[sequence]
        names = [p.name for p in seq.decl.params]
        args = dict(zip(names, (self.unit(attacker), self.unit(target))))
        outcomes = seq.exact(lambda ch: self.runtime.env(ch, self.battle.options), args)
        weights: dict[int, Fraction] = {}
        for out, p in outcomes.items():
            weights[out.damage] = weights.get(out.damage, Fraction(0)) + p
        return weights

    def join(self, follower: str, leader: str) -> None:
        """Join a character to a unit, as wfb8's set-up does (attach)."""
        f, l = self.unit(follower), self.unit(leader)
        f.leader = l
        l.followers.append(f)


def u(uid: str, side: str, x: float, y: float, facing: float = 0, **spec: Any) -> dict:
    spec.setdefault("profile", "orcs/orc_boy")
    spec.setdefault("models", 10)
    spec.setdefault("files", 5)
    return {"id": uid, "side": side, "position": {"x": x, "y": y, "facing": facing}, **spec}


# ============================================================== P30 Multiple Wounds (L133)


def test_the_seed_example_multiple_wounds_d6_rolling_5_on_a_troll_deals_3(tmp_path) -> None:
    # T-MW-1, L133: the one worked example 004 gives. The D6 shows 5; the Troll's Wounds
    # characteristic is 3, so the unsaved wound becomes 3.
    w = World(tmp_path, [u("elves", "elves", 36, 10, rules=["Multiple Wounds (D6)"]),
                         u("troll", "orcs", 36, 20, 180, profile="orcs/troll", models=1)])
    assert w.call("multiple_wounds", [5], attacker="elves", target="troll") == 3
    assert w.call("multiple_wounds", [2], attacker="elves", target="troll") == 2


def test_multiple_wounds_is_rolled_per_wound_and_capped_at_the_profile_wounds(tmp_path) -> None:
    # L133: D6 against W3: 1, 2 on one face each; 3 on 3, 4, 5, 6 (4/6). Exact.
    w = World(tmp_path, [u("elves", "elves", 36, 10, rules=["Multiple Wounds (D6)"]),
                         u("troll", "orcs", 36, 20, 180, profile="orcs/troll", models=1)])
    dist = w.exact("multiple_wounds", attacker="elves", target="troll")
    assert {v: dist.probability(v) for v in (1, 2, 3)} == {
        1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(4, 6)}
    # the cap is the profile's Wounds, not what is left: a Troll with 2 wounds taken still
    # takes up to 3 (004: "excluding Wounds suffered previously")
    w.unit("troll").damage = 2
    assert w.call("multiple_wounds", [6], attacker="elves", target="troll") == 3


def test_multiple_wounds_x_y_only_against_that_troop_type(tmp_path) -> None:
    # T-MW-5, L133: Multiple Wounds (2, infantry) doubles a wound on infantry only.
    w = World(tmp_path, [u("elves", "elves", 36, 10, rules=["Multiple Wounds (2, infantry)"]),
                         u("boyz", "orcs", 36, 20, 180, profile="orcs/black_orc", models=5),
                         u("boars", "orcs", 50, 20, 180, profile="orcs/boar_boy", models=5)])
    w.unit("boyz").profile["W"] = 2
    w.unit("boars").profile["W"] = 2
    assert w.call("multiple_wounds", attacker="elves", target="boyz") == 2
    assert w.call("multiple_wounds", attacker="elves", target="boars") == 1


def test_multiple_wounds_ordnance_is_d3_plus_1_or_plus_2_against_fly(tmp_path) -> None:
    # T-MW-4, L133: (Ordnance) is D3+1, D3+2 against a target with Fly; capped at W.
    w = World(tmp_path, [u("gun", "elves", 36, 10, rules=["Multiple Wounds (Ordnance)"]),
                         u("giant", "orcs", 36, 20, 180, models=1),
                         u("bird", "orcs", 50, 20, 180, models=1, rules=["Fly (8)"]),
                         u("small_bird", "orcs", 60, 20, 180, models=1, rules=["Fly (8)"])])
    w.unit("giant").profile["W"] = 6
    w.unit("bird").profile["W"] = 6
    w.unit("small_bird").profile["W"] = 3
    # a scripted D3 of 2
    assert w.call("multiple_wounds", [2], attacker="gun", target="giant") == 3
    assert w.call("multiple_wounds", [2], attacker="gun", target="bird") == 4
    assert w.call("multiple_wounds", [2], attacker="gun", target="small_bird") == 3
    # exact: D3+2 against W3 is 3 always; D3+1 against W6 is 2, 3, 4 a third each
    assert w.exact("multiple_wounds", attacker="gun", target="small_bird").probability(3) == 1
    dist = w.exact("multiple_wounds", attacker="gun", target="giant")
    assert {v: dist.probability(v) for v in (2, 3, 4)} == {v: Fraction(1, 3) for v in (2, 3, 4)}


def test_the_attack_sequence_deals_the_capped_multiple_wounds(tmp_path) -> None:
    # L133 through melee_attack: Orc Boyz (S3, WS3) with Multiple Wounds (D3) on a Troll (T4,
    # WS3, no armour, Regeneration 4+, rolled once: L169's one save). Hit 4+ (1/2), wound 5+
    # (1/3), Regeneration fails 1/2: 1/12. Damage D3: 1, 2, 3 each 1/3 (all within W3).
    w = World(tmp_path, [u("boyz", "elves", 36, 10, rules=["Multiple Wounds (D3)"], models=1),
                         u("troll", "orcs", 36, 20, 180, profile="orcs/troll", models=1)])
    dist = w.damage("melee_attack", "boyz", "troll")
    wounding = Fraction(1, 2) * Fraction(1, 3) * Fraction(1, 2)
    assert dist == {0: 1 - wounding, 1: wounding / 3, 2: wounding / 3, 3: wounding / 3}


# ============================================================== P03 Armour Piercing (L9)


def _save_need(w: World, attacker: str, target: str) -> Fraction:
    return w.exact("armour_save", target=target, attacker=attacker, melee=True).probability(True)


def test_armour_piercing_the_highest_counts_and_plus_x_adds(tmp_path) -> None:
    # T-AP-2, L9: a target with a 2+ save (heavy armour 4+, shield, hand weapon and shield
    # in combat: 2+) against S3 (no Strength modifier). AP (1) and AP (2): the highest, 2
    # -> 4+ (1/2). AP (2) and AP (+1): 3 -> 5+ (1/3). AP (+1) alone: 1 -> 3+ (2/3).
    def world(rules):
        return World(tmp_path, [
            u("elves", "elves", 36, 10, rules=rules),
            u("guard", "orcs", 36, 20, 180, profile="orcs/orc_boy",
              equipment=["hand_weapon", "shield", "heavy_armour"])])
    assert _save_need(world([]), "elves", "guard") == Fraction(5, 6)
    assert _save_need(world(["Armour Piercing (1)", "Armour Piercing (2)"]), "elves",
                      "guard") == Fraction(3, 6)
    assert _save_need(world(["Armour Piercing (2)", "Armour Piercing (+1)"]), "elves",
                      "guard") == Fraction(2, 6)
    assert _save_need(world(["Armour Piercing (+1)"]), "elves", "guard") == Fraction(4, 6)


def test_armour_piercing_under_wfb8_adds_every_instance(tmp_path) -> None:
    # The diff: wfb8's Armour Piercing sums its instances (000 L388-L390 gives no stacking):
    # AP (1) and AP (2) make 3 -> 5+ (1/3), where t9a takes the highest (1/2 above).
    w = World(tmp_path, [u("elves", "elves", 36, 10, rules=["Armour Piercing (1)",
                                                             "Armour Piercing (2)"]),
                         u("guard", "orcs", 36, 20, 180,
                           equipment=["hand_weapon", "shield", "heavy_armour"])], edition="wfb8")
    assert _save_need(w, "elves", "guard") == Fraction(2, 6)


# ============================================================== P39, P18, P02 saves


def test_ward_save_is_not_taken_alongside_regeneration(tmp_path) -> None:
    # L169: a model with Ward Save (5+) and Regeneration (4+) uses one: the better, 4+ (1/2).
    # Under wfb8 (regeneration after the ward) both are rolled: 1 - 2/3 * 1/2 = 2/3.
    units = [u("elves", "elves", 36, 10, models=1),
             u("troll", "orcs", 36, 20, 180, profile="orcs/troll", models=1,
               rules=["Ward Save (5+)"])]
    t9a = World(tmp_path, units)
    assert t9a.exact("ward_save", target="troll").probability(True) == Fraction(1, 2)
    assert t9a.exact("regeneration_save", target="troll",
                     attacker="elves").probability(True) == 0
    wfb8 = World(tmp_path, units, edition="wfb8")
    saved = 1 - (1 - wfb8.exact("ward_save", target="troll").probability(True)) * (
        1 - wfb8.exact("regeneration_save", target="troll", attacker="elves").probability(True))
    assert saved == Fraction(2, 3)


def test_fireborn_and_dragonforged_armour(tmp_path) -> None:
    # T-FIRE-1, L5, L69: Dragonforged Armour is heavy armour (4+) and gives Fireborn and a
    # Ward Save (6+). Against Flaming Attacks the best ward is Fireborn's 2+ (5/6); against
    # other attacks the 6+ (1/6). Fireborn bars Regeneration.
    w = World(tmp_path, [
        u("fire", "orcs", 36, 20, 180, models=1, rules=["Flaming Attacks"]),
        u("cold", "orcs", 40, 20, 180, models=1),
        u("noble", "elves", 36, 10, profile="highborn/highborn_noble", models=1,
          rules=["Regeneration (4+)"])])
    noble = w.unit("noble")
    assert noble.has_rule("Fireborn") and noble.has_rule("Ward Save (6+)")
    assert w.exact("ward_save", target="noble", attacker="fire").probability(True) == Fraction(5, 6)
    assert w.exact("ward_save", target="noble", attacker="cold").probability(True) == Fraction(1, 6)
    assert w.exact("regeneration_save", target="noble", attacker="cold").probability(True) == 0
    # the armour is heavy armour: a 4+ save against S3 (no shield)
    assert w.exact("armour_save", target="noble", attacker="cold",
                   melee=False).probability(True) == Fraction(3, 6)


# ============================================================== share of a unit (#14)


def test_share_thresholds_count_a_joined_character(tmp_path) -> None:
    # share(u, "RULE", threshold) of a unit of 3 models without the rule and a joined
    # character with it: 1 of 4; then 1 of 2 (half); then the character alone (all).
    w = World(tmp_path, [u("men", "elves", 36, 10, models=3),
                         u("hero", "elves", 36, 10, models=1, rules=["Hard Target"])])
    w.join("hero", "men")
    thresholds = ("at least one", "half or more", "more than half", "all")

    def shares(who: str = "men") -> list[bool]:
        return [PURE_BUILTINS["share"](w.unit(who), "Hard Target", t) for t in thresholds]

    assert shares() == [True, False, False, False]
    w.unit("men").models = 1
    assert shares() == [True, True, False, False]
    assert shares("hero") == shares()          # asked of the character: the same body
    w.unit("men").models = 0
    assert shares() == [True, True, True, True]
    w.unit("hero").models = 0                  # no models: no share
    assert shares() == [False, False, False, False]


def test_hard_target_more_than_half_with_a_joined_character(tmp_path) -> None:
    # L29: Orc Arrer Boyz (BS3 and wfb8's Volley Fire -1: 5+ to hit) shoot at 4 Hard Target
    # models with a joined character without it: 4 of 5, more than half: 6+ (1/6). With 4
    # of 8 (half; a joined unit of 4): 5+ (1/3).
    w = World(tmp_path, [u("arrers", "orcs", 36, 30, 180, profile="orcs/orc_arrer_boy"),
                         u("men", "elves", 36, 10, models=4, rules=["Hard Target"]),
                         u("hero", "elves", 36, 10, models=1)])
    w.join("hero", "men")
    hit = w.exact("to_hit_missile", shooter="arrers", target="men").probability(True)
    assert hit == Fraction(1, 6)
    w.unit("hero").models = 4         # 4 of 8: half, not more than half
    assert w.exact("to_hit_missile", shooter="arrers",
                   target="men").probability(True) == Fraction(2, 6)


def test_poisoned_arrows_exchange_volley_fire_for_poisoned_attacks(tmp_path) -> None:
    # L33: Orc Arrer Boyz (BS3, wfb8's Volley Fire -1: 5+) with Poisoned Arrows give up the
    # -1 (4+, 1/2) and a natural 6 wounds automatically. S3 against the Orc Boyz' T4 wounds
    # on 5+ and their light armour and shield (5+) fail 2/3: (1/6 + 2/6 * 1/3) * 2/3 = 5/27
    # a shot; without the rule 2/6 * 1/3 * 2/3 = 2/27.
    def odds(rules: list[str]) -> tuple[Fraction, Fraction]:
        w = World(tmp_path, [u("arrers", "orcs", 36, 30, 180, profile="orcs/orc_arrer_boy",
                               rules=rules),
                             u("men", "elves", 36, 10, models=10)])
        hit = w.exact("to_hit_missile", shooter="arrers", target="men").probability(True)
        return hit, w.damage("shooting_attack", "arrers", "men").get(1, Fraction(0))

    assert odds([]) == (Fraction(1, 3), Fraction(2, 27))
    assert odds(["Poisoned Arrows"]) == (Fraction(1, 2), Fraction(5, 27))


def test_immune_to_psychology_half_or_more_passes_panic(tmp_path) -> None:
    # T-ITP-1, L93: half or more Immune to Psychology: Panic is passed without a roll, and
    # the unit cannot flee as a charge reaction. A unit of 9 with a joined character that
    # is Immune: 1 of 10 rolls (Ld7 on 2D6: 21/36); 1 of 2 passes.
    w = World(tmp_path, [u("men", "elves", 50, 10, models=9),
                         u("hero", "elves", 50, 10, models=1, rules=["Immune to Psychology"]),
                         u("orcs", "orcs", 50, 30, 180)])
    w.join("hero", "men")
    assert w.exact("panic_test", unit="men").probability(True) == Fraction(21, 36)
    assert "flee" in w.call("reactions", target="men", charger="orcs")
    w.unit("men").models = 1
    assert w.exact("panic_test", unit="men").probability(True) == 1
    assert "flee" not in w.call("reactions", target="men", charger="orcs")
    # the character's own immunity to Fear (L93) is its own, whatever the share
    assert w.exact("fear_ld_test", unit="hero").probability(True) == 1


def test_entirely_fly_moves_with_its_fly_value(tmp_path) -> None:
    # L77: a unit entirely of Fly models charges with Fly (8); a Fly character joined to a
    # unit without Fly does not fly it.
    w = World(tmp_path, [u("bird", "elves", 36, 10, models=1, rules=["Fly (8)"]),
                         u("men", "elves", 50, 10, models=5),
                         u("hero", "elves", 50, 10, models=1, rules=["Fly (8)"])])
    w.join("hero", "men")
    assert w.call("charge_base", u="bird") == 8
    assert w.call("charge_base", u="men") == 4
    assert w.call("charge_base", u="hero") == 4
    assert w.unit("bird").has_rule("Swiftstride") and w.unit("bird").has_rule("Light Troops")


def test_light_troops_entirely_shoot_after_marching_and_more_than_half_no_ranks(tmp_path) -> None:
    # L97: entirely Light Troops shoot after marching; a joined character without it stops
    # that. More than half Light Troops: no rank bonus.
    w = World(tmp_path, [u("scouts", "elves", 36, 10, profile="orcs/orc_arrer_boy", models=10,
                           rules=["Light Troops"]),
                         u("hero", "elves", 36, 10, models=1),
                         u("orcs", "orcs", 36, 30, 180)])
    scouts = w.unit("scouts")
    scouts.statuses["marched"] = "turn"
    assert w.call("can_shoot", u="scouts") is True
    w.join("hero", "scouts")
    assert w.call("can_shoot", u="scouts") is False
    assert w.call("rank_bonus", u="scouts") == 0          # 10 of 11 Light Troops
    plain = World(tmp_path, [u("boyz", "orcs", 36, 10, models=15)])
    assert plain.call("rank_bonus", u="boyz") == 2


def test_fast_cavalry_solely_moves_after_rallying(tmp_path) -> None:
    # L61: a unit solely of Fast Cavalry moves after it rallies; with a joined character
    # that is not Fast Cavalry it does not.
    w = World(tmp_path, [u("reavers", "elves", 36, 10, profile="highborn/reaver", models=5),
                         u("hero", "elves", 50, 10, models=1)])
    reavers = w.unit("reavers")
    assert reavers.has_rule("Light Troops") and reavers.has_rule("Vanguard")
    reavers.statuses["rallied"] = "turn"
    assert w.call("can_move", u="reavers") is True
    w.join("hero", "reavers")
    assert w.call("can_move", u="reavers") is False


def test_scoring_needs_at_least_one_scoring_model_and_no_light_troops(tmp_path) -> None:
    # T-SCORING-1, L141: one Scoring model (a joined character) makes the unit Scoring; any
    # Light Troops model, or fleeing, takes it away.
    w = World(tmp_path, [u("men", "elves", 36, 10, models=9),
                         u("hero", "elves", 36, 10, models=1, rules=["Scoring"]),
                         u("scouts", "elves", 50, 10, models=5, rules=["Scoring"]),
                         u("runner", "elves", 50, 10, models=1, rules=["Light Troops"])])
    assert w.call("scoring_unit", u="men") is False
    w.join("hero", "men")
    assert w.call("scoring_unit", u="men") is True
    w.unit("men").statuses["fleeing"] = None
    assert w.call("scoring_unit", u="men") is False
    assert w.call("scoring_unit", u="scouts") is True
    w.join("runner", "scouts")
    assert w.call("scoring_unit", u="scouts") is False


# ============================================================== P14 Martial Discipline (L53)


def test_martial_discipline_rolls_3d6_drop_the_highest_but_not_for_panic_or_break(tmp_path) -> None:
    # L53 at Ld 7: 2D6 <= 7 is 21/36; the lowest two of 3D6 <= 7 is 174/216 (counted below).
    # More than half the unit has it: 6 elves and a joined character without it.
    lowest_two = sum(1 for a in range(1, 7) for b in range(1, 7) for c in range(1, 7)
                     if a + b + c - max(a, b, c) <= 7)
    assert lowest_two == 174
    w = World(tmp_path, [u("elves", "elves", 36, 10, models=6, rules=["Martial Discipline"]),
                         u("hero", "elves", 36, 10, models=1),
                         u("orcs", "orcs", 36, 30, 180)])
    w.join("hero", "elves")
    elves = w.unit("elves")
    assert elves.profile["Ld"] == 7
    for name in ("leadership", "rallying_test", "march_test", "restraint_test",
                 "fear_ld_test", "terror_test", "stupidity_test", "reform_test"):
        assert w.exact(name, unit="elves").probability(True) == Fraction(174, 216), name
    assert w.exact("panic_test", unit="elves").probability(True) == Fraction(21, 36)
    assert w.exact("break_test", unit="elves", lost_by=0).probability(True) == Fraction(21, 36)
    # half the body (6 of 12) is not more than half: 2D6 again
    w.unit("hero").models = 6
    assert w.exact("march_test", unit="elves").probability(True) == Fraction(21, 36)


# ============================================================== close combat rules


def test_lightning_reflexes_plus_one_to_hit_unless_striking_last(tmp_path) -> None:
    # T-LR-1, L101: WS4 against WS4 hits on 4+; with Lightning Reflexes 3+. With a great
    # weapon (Always Strikes Last, I0 in wfb8) no +1, but it strikes at its own I.
    w = World(tmp_path, [u("elves", "elves", 36, 10, models=5, rules=["Lightning Reflexes"]),
                         u("great", "elves", 50, 10, models=5, rules=["Lightning Reflexes"],
                           equipment=["great_weapon"]),
                         u("orcs", "orcs", 36, 20, 180)])
    for uid in ("elves", "great", "orcs"):
        w.unit(uid).profile["WS"] = 4
        w.unit(uid).profile["I"] = 5
    assert w.exact("to_hit", attacker="elves", target="orcs").probability(True) == Fraction(4, 6)
    assert w.exact("to_hit", attacker="great", target="orcs").probability(True) == Fraction(3, 6)
    assert w.call("strike_order", x="great") == 5
    plain = World(tmp_path, [u("great", "elves", 50, 10, models=5, equipment=["great_weapon"])])
    assert plain.call("strike_order", x="great") == 0


def test_devastating_charge_only_in_the_first_round_after_charging(tmp_path) -> None:
    # T-DC-1, L41: A1 +1 when charged and in the first round; not in a later round.
    w = World(tmp_path, [u("elves", "elves", 36, 10, models=5, rules=["Devastating Charge"])])
    elves = w.unit("elves")
    rt = w.runtime
    assert rt.characteristic(w.env(), elves, "A") == 1
    elves.statuses["charged"] = "turn"
    elves.statuses["first_round"] = None
    assert rt.characteristic(w.env(), elves, "A") == 2
    del elves.statuses["first_round"]
    assert rt.characteristic(w.env(), elves, "A") == 1


def test_the_charge_strength_bonus_only_against_the_charged_enemy(tmp_path) -> None:
    # T-CHS-1, L161: S3 with the rule, charged, first round: to wound T4 at S4 (4+) against
    # the unit it charged, at S3 (5+) against one that charged too.
    w = World(tmp_path, [u("elves", "elves", 36, 10, models=5, rules=["Charging Strength"]),
                         u("charged", "orcs", 36, 20, 180), u("charger", "orcs", 40, 20, 180)])
    for uid, status in (("elves", "charged"), ("charger", "charged")):
        w.unit(uid).statuses[status] = "turn"
    w.unit("elves").statuses["first_round"] = None
    # WS3 against WS3 hits on 4+ (1/2). Against the charged unit: S4 wounds T4 on 4+ (1/2),
    # the Orc Boyz' 4+ combat save (light armour, shield, parry) is 5+ at S4 (fails 4/6):
    # 1/6. Against the charger: S3 wounds on 5+ (1/3), the save stays 4+ (fails 3/6): 1/12.
    assert w.damage("melee_attack", "elves", "charged")[1] == Fraction(1, 6)
    assert w.damage("melee_attack", "elves", "charger")[1] == Fraction(1, 12)


def test_the_frost_aura_takes_3_initiative_and_1_strength_minimum_1(tmp_path) -> None:
    # L45: enemy units in contact with the Frost Phoenix: I and S -3 and -1, never below 1.
    w = World(tmp_path, [u("bird", "elves", 36, 10, profile="highborn/frost_phoenix", models=1),
                         u("orcs", "orcs", 36, 12.2, 180),
                         u("weak", "orcs", 50, 20, 180)])
    rt = w.runtime
    orcs, weak = w.unit("orcs"), w.unit("weak")
    weak.profile.update({"I": 2, "S": 1})
    orcs.statuses["chilled"] = "phase"
    weak.statuses["chilled"] = "phase"
    assert rt.characteristic(w.env(), orcs, "I") == 1      # 2 - 3, minimum 1
    assert rt.characteristic(w.env(), orcs, "S") == 2      # 3 - 1
    assert rt.characteristic(w.env(), weak, "S") == 1      # 1 - 1, minimum 1
    orcs.profile["I"] = 6
    assert rt.characteristic(w.env(), orcs, "I") == 3


def test_fear_gives_enemies_in_contact_minus_1_leadership(tmp_path) -> None:
    # L65: an enemy in contact suffers -1 Ld (the reading of "a 1 Leadership modifier"),
    # not one with Fear itself or Immune to Psychology. Ld7 on 2D6: 21/36; Ld6: 15/36.
    w = World(tmp_path, [u("orcs", "orcs", 36, 20, 180), u("elves", "elves", 36, 10, models=1,
                                                            rules=["Fear"])])
    w.unit("orcs").statuses["feared"] = "phase"
    assert w.exact("leadership", unit="orcs").probability(True) == Fraction(15, 36)


def test_lion_guard_oath_is_stubborn_only_in_contact_with_fear(tmp_path) -> None:
    # L165: Stubborn while in base contact with an enemy model with Fear, read again as
    # contact changes (a grant re-checked while its condition holds).
    w = World(tmp_path, [u("guard", "elves", 36, 10, rules=["Lion Guard Oath"]),
                         u("boyz", "orcs", 36, 12, 180),
                         u("ghosts", "orcs", 60, 10, 180, models=5, rules=["Fear"])])
    guard, env = w.unit("guard"), w.env()
    stubborn = lambda: w.runtime.has_rule(env, guard, "Stubborn")
    assert not stubborn()
    BUILTINS["engage"](w.state, env, None, guard, w.unit("boyz"))
    assert not stubborn()                     # in contact, but with no Fear
    BUILTINS["engage"](w.state, env, None, guard, w.unit("ghosts"))
    assert stubborn()
    guard.engaged.remove(w.unit("ghosts"))
    w.unit("ghosts").engaged.clear()
    assert not stubborn()


def test_stomp_x_hits_only_the_listed_troop_types(tmp_path) -> None:
    # T-STOMP-1, L153: Stomp (3) at S6 on infantry: 3 automatic hits; on cavalry none.
    w = World(tmp_path, [u("giant", "elves", 36, 10, models=1, rules=["Stomp (3)"]),
                         u("boyz", "orcs", 36, 12, 180),
                         u("boars", "orcs", 60, 10, 180, profile="orcs/boar_boy", models=5)])
    w.unit("giant").profile["S"] = 6
    BUILTINS["engage"](w.state, w.env(), None, w.unit("giant"), w.unit("boyz"))
    w.call("stomps", None, members=[w.unit("giant")])
    assert [e.values[-1] for e in w.events if e.kind == "log" and e.message == "stomps"] == [3]
    w.events.clear()
    w.unit("giant").engaged.clear()
    w.unit("boyz").engaged.clear()
    BUILTINS["engage"](w.state, w.env(), None, w.unit("giant"), w.unit("boars"))
    w.call("stomps", None, members=[w.unit("giant")])
    assert not [e for e in w.events if e.kind == "log" and e.message == "stomps"]


# ============================================================== P07 the Reaper (L25)


def test_the_reapers_two_modes_as_exact_damage(tmp_path) -> None:
    # L25 against Black Orcs (T4, W1) in heavy armour (4+). Bolt: S6 wounds on 2+ (5/6);
    # the save 4+ worsened by 3 (S6) and 6 (Armour Piercing (6)) cannot be made; damage
    # min(D3, W1) = 1: 5/6. Volley shot: S4 wounds on 4+ (1/2); the save 4+ worsened by 1
    # (S4) and 1 (Armour Piercing (1)) is 6+, failed 5/6: 5/12.
    w = World(tmp_path, [u("reaper", "elves", 36, 10, models=1, rules=["Sea Guard Reaper"]),
                         u("orcs", "orcs", 36, 30, 180, profile="orcs/black_orc",
                           equipment=["hand_weapon", "heavy_armour"])])
    assert w.damage("reaper_bolt", "reaper", "orcs") == {0: Fraction(1, 6), 1: Fraction(5, 6)}
    assert w.damage("reaper_volley", "reaper", "orcs") == {0: Fraction(7, 12),
                                                            1: Fraction(5, 12)}
    # against a Troll (W3, T4, no armour, Regeneration 4+): the bolt's D3 is kept whole
    w2 = World(tmp_path, [u("reaper", "elves", 36, 10, models=1),
                          u("troll", "orcs", 36, 30, 180, profile="orcs/troll", models=1)])
    third = Fraction(5, 6) * Fraction(1, 2) / 3
    assert w2.damage("reaper_bolt", "reaper", "troll") == {0: 1 - 3 * third, 1: third,
                                                            2: third, 3: third}


# ============================================================== battles


def test_the_highborn_battle_plays_to_the_end() -> None:
    _, runtime, battle = open_battle("t9a", HIGHBORN)
    result = run_battle(runtime, battle)
    logs = [(e.kind, getattr(e, "message", None)) for e in result.events]
    assert ("log", "vanguards") in logs                     # the Reavers, L21, L61
    assert any(e.kind == "log" and e.message == "stomps" for e in result.events)   # L153
    again = run_battle(*open_battle("t9a", HIGHBORN)[1:])
    assert [str(e) for e in again.events] == [str(e) for e in result.events]


@pytest.mark.parametrize("name", ["duel", "shooting", "battle", "characters", "artillery"])
def test_wfb8_battles_run_under_t9a(name: str) -> None:
    path = str(ROOT / "rulesets" / "wfb8" / "battles" / f"{name}.yaml")
    _, runtime, battle = open_battle("t9a", path)
    result = run_battle(runtime, battle)
    assert result.events


# ============================================================== more of the digest's §4 cases


def test_mw_2_two_unsaved_wounds_roll_a_die_each(tmp_path) -> None:
    # T-MW-2, L133: Multiple Wounds (D3) on W3: two unsaved wounds rolling 2 and 3 deal 5
    # (a die each, each within the cap).
    w = World(tmp_path, [u("elves", "elves", 36, 10, rules=["Multiple Wounds (D3)"]),
                         u("troll", "orcs", 36, 20, 180, profile="orcs/troll", models=3)])
    dealt = [w.call("multiple_wounds", [2, 3], attacker="elves", target="troll"),
             w.call("multiple_wounds", attacker="elves", target="troll")]  # the next die
    assert dealt == [2, 3] and sum(dealt) == 5


def test_ht_1_bs4_at_a_unit_six_of_ten_hard_target(tmp_path) -> None:
    # T-HT-1, L29: BS4 hits on 3+; 6 of 10 Hard Target: 4+ (1/2). (A crossbow-armed shooter
    # without wfb8's Volley Fire.)
    w = World(tmp_path, [u("shooters", "orcs", 36, 30, 180, equipment=["hand_weapon", "crossbow"]),
                         u("men", "elves", 36, 10, models=6, rules=["Hard Target"]),
                         u("hero", "elves", 36, 10, models=4)])
    w.unit("shooters").profile["BS"] = 4
    w.join("hero", "men")
    assert w.exact("to_hit_missile", shooter="shooters", target="men").probability(True) == \
        Fraction(1, 2)


def test_fear_2_immune_to_psychology_in_contact_with_fear(tmp_path) -> None:
    # T-FEAR-2, L65, L93: an Immune to Psychology unit (Ld 8) in contact with a Fear model:
    # its Leadership stays 8 and its Fear test passes without a roll.
    w = World(tmp_path, [u("guard", "elves", 36, 10, models=10, rules=["Immune to Psychology"]),
                         u("troll", "orcs", 36, 12.2, 180, profile="orcs/troll", models=1)])
    guard, troll = w.unit("guard"), w.unit("troll")
    guard.profile["Ld"] = 8
    BUILTINS["engage"](w.state, w.env(), None, troll, guard)
    w.call("frighten", None, u="troll")
    assert "feared" not in guard.statuses
    assert w.runtime.characteristic(w.env(), guard, "Ld") == 8
    assert w.exact("fear_ld_test", unit="guard").probability(True) == 1
    # a unit without it is feared: -1 Ld
    w2 = World(tmp_path, [u("men", "elves", 36, 10, models=10),
                          u("troll", "orcs", 36, 12.2, 180, profile="orcs/troll", models=1)])
    BUILTINS["engage"](w2.state, w2.env(), None, w2.unit("troll"), w2.unit("men"))
    w2.call("frighten", None, u="troll")
    assert w2.runtime.characteristic(w2.env(), w2.unit("men"), "Ld") == 6


def test_breath_1_two_d6_hits_at_6_inches_once_a_game(tmp_path) -> None:
    # T-BREATH-1, L37: the 2D6 roll 3 and 4 gives 7 hits at Strength 4, on an enemy 6" away
    # (after marching too); an enemy 7" away is out of reach; used once, never again.
    units = [u("dragon", "elves", 36, 10, models=1, profile="orcs/troll",
               rules=["Breath Weapon (Strength 4, Flaming Attacks)"]),
             u("boyz", "orcs", 36, 30, 180, models=20)]
    w = World(tmp_path, units)
    dragon, boyz = w.unit("dragon"), w.unit("boyz")
    dragon.statuses["marched"] = "turn"
    d = BUILTINS["distance"](w.state, w.env(), None, dragon, boyz)
    BUILTINS["move_toward"](w.state, w.env(), None, boyz, dragon, d - 6)
    w.call("breathe", {"breath_hits": [3, 4], "*": [6] * 40}, u="dragon")
    assert [e.values[-1] for e in w.events if e.kind == "log" and e.message == "breathes"] == [7]
    w.events.clear()
    w.call("shooting_phase", {"*": [6] * 40})
    w.call("breathe", {"*": [6] * 40}, u="dragon")
    assert not [e for e in w.events if e.kind == "log" and e.message == "breathes"]
    far = World(tmp_path, units)
    fd, fb = far.unit("dragon"), far.unit("boyz")
    d = BUILTINS["distance"](far.state, far.env(), None, fd, fb)
    BUILTINS["move_toward"](far.state, far.env(), None, fb, fd, d - 7)
    far.call("breathe", {"*": [6] * 40}, u="dragon")
    assert not [e for e in far.events if e.kind == "log" and e.message == "breathes"]


def test_van_1_vanguard_stops_12_inches_away_or_6_from_a_scouted_enemy(tmp_path) -> None:
    # T-VAN-1, L21: a Vanguard unit 30" from the enemy moves 12" (to 18"); 20" from it,
    # 8" (to 12"); 14" from an enemy that scouted, 8" (to 6").
    def gap_after(start_gap: float, scouted: bool) -> float:
        w = World(tmp_path, [u("reavers", "elves", 36, 4, profile="highborn/reaver", models=5),
                             u("orcs", "orcs", 36, 40, 180)])
        reavers, orcs = w.unit("reavers"), w.unit("orcs")
        d = BUILTINS["distance"](w.state, w.env(), None, reavers, orcs)
        BUILTINS["move_toward"](w.state, w.env(), None, orcs, reavers, d - start_gap)
        if scouted:
            orcs.statuses["scouted"] = None
        w.call("deploy_specialists", None)
        assert ("vanguarded" in reavers.statuses) == (start_gap > 12 or scouted)
        return round(BUILTINS["distance"](w.state, w.env(), None, reavers, orcs), 6)
    assert gap_after(30, False) == 18
    assert gap_after(20, False) == 12
    assert gap_after(14, True) == 6


def test_vanguard_only_a_unit_entirely_of_vanguard_models(tmp_path) -> None:
    # L21 "composed entirely": Reavers (Fast Cavalry: Vanguard) 30" from the Orcs move 12";
    # with a joined character without Vanguard they stay where they are.
    def moved(join: bool) -> bool:
        w = World(tmp_path, [u("reavers", "elves", 36, 4, profile="highborn/reaver", models=5),
                             u("hero", "elves", 36, 4, models=1),
                             u("orcs", "orcs", 36, 40, 180)])
        if join:
            w.join("hero", "reavers")
        w.call("deploy_specialists", None)
        return "vanguarded" in w.unit("reavers").statuses
    assert moved(False) is True
    assert moved(True) is False


def test_lt_1_more_than_half_light_troops_have_no_full_ranks(tmp_path) -> None:
    # T-LT-1, L97: a unit of 20, 5 wide (+3 rank bonus: three ranks behind the first), with
    # a joined unit of 21 Light Troops: 21 of 41, more than half: no rank bonus, never
    # Steadfast. With 19 of 39: the rank bonus again.
    w = World(tmp_path, [u("men", "elves", 36, 10, models=20, files=5),
                         u("light", "elves", 36, 10, models=21, files=5, rules=["Light Troops"]),
                         u("orcs", "orcs", 36, 30, 180, models=5)])
    assert w.call("rank_bonus", u="men") == 3
    w.join("light", "men")
    assert w.call("rank_bonus", u="men") == 0
    assert w.call("steadfast", u="men", enemy="orcs") is False
    w.unit("light").models = 19
    assert w.call("rank_bonus", u="men") == 3


def test_sweeping_attack_on_a_unit_moved_through(tmp_path) -> None:
    # L73: the Fire Phoenix advances over a fleeing enemy unit on its way to another: the
    # unit it moved through (unengaged) takes D6 hits, and D3 more for each rank after the
    # first. Five Orcs in one rank: the D6 alone, scripted to 4.
    w = World(tmp_path, [u("phoenix", "elves", 36, 4, profile="highborn/fire_phoenix", models=1),
                         u("runners", "orcs", 36, 14, 180, models=5, files=5),
                         u("boyz", "orcs", 36, 40, 180, models=20)])
    w.unit("runners").statuses["fleeing"] = None
    w.call("advance_on", {"sweep_hits": [4], "*": [1] * 60}, u="phoenix", inches=30)
    runners = w.unit("runners")
    assert runners in BUILTINS["passed_through"](w.state, w.env(), None, w.unit("phoenix"))
    sweeps = [e.values for e in w.events if e.kind == "log" and e.message == "sweeps through"]
    assert [v[-1] for v in sweeps] == [4]
    # two ranks: D6 + D3, exactly: 2 to 9, mean 3.5 + 2
    dist = w.exact("sweep_hits", ranks=2)
    assert dist.mean() == Fraction(11, 2)
    assert dist.probability(2) == Fraction(1, 18) and dist.probability(9) == Fraction(1, 18)


def test_rules_diff_lists_the_overridden_wfb8_rules_with_both_citations(capsys) -> None:
    # #15: the wfb8 rules this patch changes are overrides, each shown with the 000 and the
    # 004 citation (the structure part of rules-diff; the behaviour grid is left out here).
    from rules_run.cli import diff
    import json
    assert diff.main(["--no-behaviour", "--json", "wfb8", str(ROOT / "rulesets" / "t9a")]) == 0
    report = json.loads(capsys.readouterr().out)
    changed = {d["name"]: d for d in report["structure"]["declarations"]
               if d["kind"] == "rule" and d["change"] == "changed"}
    for name in ("Armour Piercing", "Ward Save", "Multiple Wounds", "Fear",
                 "Immune to Psychology", "Breath Weapon", "Stomp", "Fly", "Vanguard", "Scouts",
                 "Fast Cavalry", "Skirmishers", "Strider", "Devastating Charge",
                 "Fight in Extra Rank"):
        d = changed[name]
        # wfb8's Fight in Extra Rank is itself "not in seed" (000 has no spear rule)
        assert d["a"]["cite"].startswith(("000_c4300f58fce5f1da.txt L", "not in seed")), name
        assert d["b"]["cite"].startswith("004_a56105ac0032614f.txt L"), name
        assert d["b"]["op"] == "override", name


# ============================================================== battle tests (fought battles)


def _fight(tmp_path: Path, name: str, units: list[dict], first: str, rounds: int = 2,
           **extra: Any) -> list:
    """The events of a small fixed-seed t9a battle fought to its end."""
    doc = {"edition": "t9a", "seed": 3, "game": {"rounds": rounds, "first": first},
           "battlefield": {"width": 72, "depth": 48}, "units": units, **extra}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("t9a", str(path))
    return run_battle(runtime, battle).events


def _tests(events: list, rule: str, attacker: str | None = None, rnd: int | None = None) -> list:
    return [e for e in events if e.kind == "test" and e.rule == rule
            and (attacker is None or e.units[0] == attacker) and (rnd is None or e.round == rnd)]


def test_battle_fear_tests_at_the_start_of_the_round_at_minus_1_leadership(tmp_path) -> None:
    # L65: Orc Boyz (Ld 7) charge a Frost Phoenix (Fear). At the start of each round of the
    # combat they test on Ld 7 - 1 = 6 (the reading of the lost sign); with the option
    # fear_modifier 0, on Ld 7. The test comes before the first blow of the round.
    units = [u("boyz", "orcs", 36, 30, 180, models=20),
             u("bird", "elves", 36, 22, 0, profile="highborn/frost_phoenix", models=1)]
    events = _fight(tmp_path, "fear", units, "orcs")
    fear = _tests(events, "fear_ld_test")
    assert fear and all(e.units == ["boyz"] and e.target == ["<=", 6] for e in fear)
    first_blow = next(e.seq for e in events if e.kind == "test" and e.rule == "to_hit"
                      and e.round == fear[0].round)
    assert fear[0].seq < first_blow
    plain = _fight(tmp_path, "fear0", units, "orcs", options={"fear_modifier": 0})
    assert all(e.target == ["<=", 7] for e in _tests(plain, "fear_ld_test"))


def test_battle_stomp_strikes_after_every_blow_of_the_round(tmp_path) -> None:
    # L153: the Frost Phoenix's Stomp (1) on charging Orc Boyz (infantry) comes at
    # Initiative 0: after the last blow of each round of the combat, one hit at its S 5.
    units = [u("boyz", "orcs", 36, 30, 180, models=20),
             u("bird", "elves", 36, 22, 0, profile="highborn/frost_phoenix", models=1)]
    events = _fight(tmp_path, "stomp", units, "orcs", rounds=1)
    stomps = [e for e in events if e.kind == "log" and e.message == "stomps"]
    assert stomps and all(e.values[-1] == 1 for e in stomps)
    for s in stomps:
        blows = [e.seq for e in events if e.kind == "attacks" and e.sequence == "melee_attack"
                 and (e.round, e.side) == (s.round, s.side)]
        assert blows and max(blows) < s.seq


def test_battle_the_frost_aura_strikes_at_initiative_minimum_1(tmp_path) -> None:
    # L45: Orc Boyz (I 2, S 3) charge a Frost Phoenix given I 0 and T 3. Chilled in
    # contact, they strike at I 2 - 3, raised to 1: before the bird (I 0); without the
    # minimum they would be below every strike step and not strike at all. At S 3 - 1 = 2
    # they wound T 3 on 5+ (S 3 would need 4+).
    units = [u("boyz", "orcs", 36, 30, 180, models=20),
             u("bird", "elves", 36, 22, 0, profile="highborn/frost_phoenix", models=1,
               characteristics={"I": 0, "T": 3})]
    events = _fight(tmp_path, "frost", units, "orcs", rounds=1)
    hits = _tests(events, "to_hit", rnd=1)
    assert [e.units[0] for e in hits][:1] == ["boyz"] and "bird" in [e.units[0] for e in hits]
    wounds = _tests(events, "to_wound", "boyz")
    assert wounds and all(e.need == 5 for e in wounds)
    # the same charge on a Fire Phoenix (no aura): S 3 wounds T 3 on 4+
    units[1] = u("bird", "elves", 36, 22, 0, profile="highborn/fire_phoenix", models=1,
                 characteristics={"I": 0, "T": 3})
    warm = _fight(tmp_path, "warm", units, "orcs", rounds=1)
    assert all(e.need == 4 for e in _tests(warm, "to_wound", "boyz"))


def test_battle_the_charge_bonuses_only_against_the_charged_enemy(tmp_path) -> None:
    # L41, L161: Sea Guard (S 3, A 1) with Devastating Charge and Charging Strength charge
    # Orc Boyz (T 4) (an order makes them): in the first round S 4 wounds on 4+ and each
    # model of the front rank (5 wide) strikes twice (A 1 + 1), the second rank's supporting
    # attacks once each (wfb8: one supporting attack a model): 15 blows. When the Orcs
    # charge them, neither bonus: S 3 on 5+, 5 + 5 = 10 blows.
    elves = u("elves", "elves", 36, 22, 0, profile="highborn/sea_guard", models=10,
              rules=["Devastating Charge", "Charging Strength"])
    boyz = u("boyz", "orcs", 36, 30, 180, models=20)
    order = [{"round": 1, "side": "elves", "unit": "elves", "decision": "charge",
              "choose": "boyz"}]
    charging = _fight(tmp_path, "elves_charge", [elves, boyz], "elves", rounds=1,
                      orders=order)
    assert {e.need for e in _tests(charging, "to_wound", "elves", 1)} == {4}
    charged = _fight(tmp_path, "orcs_charge", [elves, boyz], "orcs", rounds=1)
    assert {e.need for e in _tests(charged, "to_wound", "elves", 1)} == {5}

    def blows(events: list) -> int:
        return next(e.attacks for e in events if e.kind == "attacks" and e.attacker == "elves"
                    and e.phase == "close_combat_phase")
    assert (blows(charging), blows(charged)) == (15, 10)


def test_battle_lightning_reflexes_and_weapon_master(tmp_path) -> None:
    # L101: Sword Masters (WS 6, I 6, great weapon: Always Strikes Last) with Lightning
    # Reflexes, charged by Orc Boyz (WS 3, I 2): no +1 to hit (3+, WS 6 against WS 3), but
    # they strike at their own I 6, before the Orcs. L113: with Weapon Master and a hand
    # weapon besides, the weapon is chosen at the start of every round of the combat (each
    # player turn's close combat), not only the first.
    masters = u("masters", "elves", 36, 22, 0, profile="highborn/sword_master", models=5,
                equipment=["great_weapon", "hand_weapon", "heavy_armour"])
    boyz = u("boyz", "orcs", 36, 30, 180, models=30, files=5)

    def turns(events: list) -> tuple[list, list]:
        fought = sorted({(e.round, e.side) for e in events if e.kind == "test"
                         and e.rule == "to_hit" and e.phase == "close_combat_phase"},
                        key=lambda rs: next(e.seq for e in events if (e.round, e.side) == rs))
        chosen = [(e.round, e.side) for e in events if e.kind == "log"
                  and e.message == "fights with" and e.values[0] == "masters"]
        return fought, chosen
    events = _fight(tmp_path, "reflexes", [masters, boyz], "orcs")
    first = _tests(events, "to_hit", rnd=1)
    assert first[0].units[0] == "masters"
    assert {e.need for e in first if e.units[0] == "masters"} == {3}
    fought, chosen = turns(events)
    assert len(fought) >= 2 and chosen == fought[:1]
    masters["rules"] = ["Weapon Master"]
    fought, chosen = turns(_fight(tmp_path, "master", [masters, boyz], "orcs"))
    assert len(fought) >= 2 and chosen == fought


def test_towering_presence_adds_6_inches_to_inspiring_presence_and_the_standard(tmp_path) -> None:
    # L137: a General (Ld 9) 15" from Orc Boyz (Ld 7): beyond wfb8's 12", they keep their
    # own Ld; with Towering Presence (18") they use his: +2. The same for a Battle Standard
    # Bearer's re-roll (Hold Your Ground).
    def at_15(rules: list[str]) -> World:
        w = World(tmp_path, [u("boyz", "orcs", 36, 10, 180),
                             u("boss", "orcs", 36, 40, 180, profile="highborn/highborn_noble",
                               models=1, rules=rules,
                               values={"general": True, "battle_standard": True})])
        boyz, boss = w.unit("boyz"), w.unit("boss")
        d = BUILTINS["distance"](w.state, w.env(), None, boss, boyz)
        BUILTINS["move_toward"](w.state, w.env(), None, boss, boyz, d - 15)
        return w
    plain, towering = at_15([]), at_15(["Towering Presence"])
    assert plain.call("inspiring", u="boyz") == 0 and plain.call("bsb_near", u="boyz") is False
    assert towering.call("inspiring", u="boyz") == 2
    assert towering.call("bsb_near", u="boyz") is True


def _breaths(events: list) -> list:
    return [e for e in events if e.kind == "log" and e.message == "breathes"]


def test_battle_breath_weapon_in_close_combat_once_a_game(tmp_path) -> None:
    # L37: a Fire Phoenix (I 5) in base contact with Orc Boyz (I 2). In the round of combat
    # it breathes at its Initiative: after its own blows (step 5), before the Orcs' (step
    # 2); the 2D6 roll 3 and 4 gives 7 hits at Strength 4 (4+ to wound T 4), dealt in the
    # combat. In the next round it has none left.
    w = World(tmp_path, [u("boyz", "orcs", 36, 30, 180, models=20),
                         u("bird", "elves", 36, 22, 0, profile="highborn/fire_phoenix",
                           models=1)])
    BUILTINS["engage"](w.state, w.env(), None, w.unit("boyz"), w.unit("bird"))
    w.call("fight_combat", {"breath_hits": [3, 4], "*": [4] * 400}, a="bird", b="boyz")
    breaths = _breaths(w.events)
    assert [b.values for b in breaths] == [["bird", "boyz", 7]]
    seq = breaths[0].seq
    bird = [e.seq for e in w.events if e.kind == "test" and e.rule == "to_hit" and e.units[0] == "bird"]
    boyz = [e.seq for e in w.events if e.kind == "test" and e.rule == "to_hit" and e.units[0] == "boyz"]
    assert bird and boyz and max(bird) < seq < min(boyz)
    wounds = [e for e in w.events if e.kind == "test" and e.rule == "wound_at" and e.seq > seq]
    assert [e.need for e in wounds[:7]] == [4] * 7 and wounds[6].seq < min(boyz)
    # all seven wound (4s), no armour for Orc Boyz' light armour and shield at S 4 on a 4
    assert BUILTINS["counter"](w.state, w.env(), None, "wounds_caused", w.unit("bird")) >= 7
    w.events.clear()
    w.call("fight_combat", {"*": [4] * 400}, a="bird", b="boyz")
    assert not _breaths(w.events)


def test_battle_breath_weapon_as_stand_and_shoot(tmp_path) -> None:
    # L37: Orc Boyz (M 4) charge a Fire Phoenix from 5" (beyond their M, within the breath's
    # 6"): it may Stand & Shoot, which the default policy takes, and breathes at the
    # charger: 7 hits (3 and 4), casualties at once. From 7" it cannot (out of range), and
    # once used it is never offered again.
    def charged_from(gap: float) -> World:
        w = World(tmp_path, [u("boyz", "orcs", 36, 40, 180, models=20),
                             u("bird", "elves", 36, 22, 0, profile="highborn/fire_phoenix",
                               models=1)])
        boyz, bird = w.unit("boyz"), w.unit("bird")
        d = BUILTINS["distance"](w.state, w.env(), None, boyz, bird)
        BUILTINS["move_toward"](w.state, w.env(), None, boyz, bird, d - gap)
        return w
    w = charged_from(5)
    assert w.call("reactions", target="bird", charger="boyz") == ["hold", "stand_and_shoot", "flee"]
    assert w.call("react_to_charge", {"breath_hits": [3, 4], "*": [4] * 40},
                  target="bird", charger="boyz") == "stand_and_shoot"
    assert [b.values for b in _breaths(w.events)] == [["bird", "boyz", 7]]
    assert w.unit("boyz").models < 20
    w.unit("bird").statuses.pop("stood_and_shot")
    assert w.call("reactions", target="bird", charger="boyz") == ["hold", "flee"]
    far = charged_from(7)
    assert far.call("reactions", target="bird", charger="boyz") == ["hold", "flee"]


def test_battle_breath_weapon_once_in_a_fought_battle(tmp_path) -> None:
    # L37: Orc Boyz 8" from a Fire Phoenix, two rounds: it breathes once (here in its first
    # Shooting phase), and never again, though the Orcs stay within 6" and fight it.
    units = [u("boyz", "orcs", 36, 33, 180, models=20),
             u("bird", "elves", 36, 22, 0, profile="highborn/fire_phoenix", models=1)]
    events = _fight(tmp_path, "breath", units, "orcs")
    breaths = _breaths(events)
    assert [(b.phase, b.round) for b in breaths] == [("shooting_phase", 1)]
    later = {(e.round, e.side) for e in events if e.kind == "test" and e.rule == "to_hit"
             and e.phase == "close_combat_phase" and e.seq > breaths[0].seq}
    assert later
