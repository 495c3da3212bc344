"""wfb3 psychology (seed 003_9d43467ba19595d2.txt, L618-L692, L1107-L1161, L2951-L2984).

Each test names the 003 line it checks (and the digest's worked example, WE-nn, of
``../shared/digests/wfb3-seed003.md`` §11.6). The rules run through the ruleset's own
declarations (psychology.rules): exact odds of its tests, and its actions in a small battle
state with scripted dice. Probabilities are worked out by hand in the comments: 2D6 shows
a total of t or less in 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36 ways of 36 for t = 2..12.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from helpers import wfb3_world
from helpers.wfb3_world import u

AT_MOST = {t: n for t, n in zip(range(1, 13), [0, 1, 3, 6, 10, 15, 21, 26, 30, 33, 35, 36])}


def p_at_most(t: int) -> Fraction:
    """Chance that 2D6 shows t or less."""
    return Fraction(AT_MOST[max(1, min(12, t))] if t >= 1 else 0, 36)


class World(wfb3_world.World):
    """A wfb3 battle state from a few units."""

    def join(self, follower: str, leader: str) -> None:
        """A character joins (and, with the better Ld, leads) a unit (L1146): attach."""
        f, host = self.unit(follower), self.unit(leader)
        f.leader = host
        host.followers.append(f)


def gobs(**spec: Any) -> dict:
    return u("gobs", "a", 36, 10, "goblins/goblin", **spec)


def men(x: float = 36, y: float = 40, **spec: Any) -> dict:
    return u("men", "b", x, y, "humans/human", facing=180, **spec)


def hero(uid: str = "hero", side: str = "a", profile: str = "psychology/human_hero",
         x: float = 36, y: float = 10, **spec: Any) -> dict:
    return u(uid, side, x, y, profile, models=1, files=1, **spec)


# ============================================================== tests on Cool (L621)


def test_a_psychology_test_passes_on_2d6_at_most_the_units_cool(tmp_path: Path) -> None:
    # L621: 2D6 <= Cl. Goblins Cl 5: 10 of 36; Humans Cl 7: 21 of 36.
    w = World(tmp_path, [gobs(), men()])
    assert w.passes("cool", unit="gobs") == Fraction(10, 36)
    assert w.passes("cool", unit="men") == Fraction(21, 36)


def test_the_tests_of_each_psychology_reuse_the_cool_test(tmp_path: Path) -> None:
    # L621: "all psychology tests are taken in the same way": panic, hatred, stupidity and
    # fear (against a creature with no fear +N) are the Cool test by another name.
    w = World(tmp_path, [gobs(), men(), u("bones", "b", 10, 40, "psychology/skeleton")])
    for test in ("panic_test", "hatred_test", "stupidity_test"):
        assert w.passes(test, unit="men") == Fraction(21, 36)
        assert w.exact(test, unit="men").probability(True) == w.passes("cool", unit="men")
    assert w.passes("fear_test", unit="men", feared="bones") == Fraction(21, 36)


def test_an_unformed_unit_tests_at_minus_one(tmp_path: Path) -> None:
    # L419, L599: -1 on Ld, Int, Cl and WP tests while unformed: Humans test on Cl 6.
    w = World(tmp_path, [gobs(), men()])
    w.unit("men").statuses["unformed"] = None
    assert w.passes("cool", unit="men") == Fraction(15, 36)


# ============================================================== unit values (L547, L1147-L1161)


def test_we59_a_mixed_unit_tests_on_the_lowest_cool(tmp_path: Path) -> None:
    # WE-59, L680: Orcs (Cl 7) with Goblins (Cl 5) in the unit test on the Goblins' 5.
    goblin = {"M": 4, "WS": 2, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 2, "A": 1,
              "Ld": 5, "Int": 5, "Cl": 5, "WP": 5}
    mixed = u("mob", "a", 36, 10, "psychology/orc", models=10,
              groups=[{"name": "orcs", "models": 5}, {"name": "goblins", "models": 5, "profile": goblin}])
    w = World(tmp_path, [mixed, men()])
    assert w.call("troops_value", u="mob", name="Cl") == 5
    assert w.call("unit_value", u="mob", name="Ld") == 5
    assert w.passes("cool", unit="mob") == Fraction(10, 36)


def test_we61_we62_a_leaders_bonus_is_capped_at_ten_and_at_his_own_value(tmp_path: Path) -> None:
    # WE-61, L1110, and WE-62, L1148-L1149: a human character of Ld 10+3 leading Goblins
    # (Ld 5) gives them 5 + 3 = 8; his Cl 10+3 gives Goblins (Cl 5) 8 as well.
    w = World(tmp_path, [gobs(), hero(), men()])
    assert w.call("unit_value", u="gobs", name="Ld") == 5
    w.join("hero", "gobs")
    assert w.call("unit_value", u="gobs", name="Ld") == 8
    assert w.call("unit_value", u="gobs", name="Cl") == 8
    assert w.passes("cool", unit="gobs") == Fraction(26, 36)


def test_we62_a_goblin_leader_lifts_men_only_to_his_own_ld(tmp_path: Path) -> None:
    # WE-62, L1149: a Goblin character of Ld 8+3 leading men (Ld 7): 7 + 3 = 10, but no more
    # than his own 8.
    w = World(tmp_path, [gobs(), men(), hero("boss", "b", "psychology/goblin_hero", 36, 40)])
    w.join("boss", "men")
    assert w.call("unit_value", u="men", name="Ld") == 8


def test_no_bonus_takes_a_value_above_ten(tmp_path: Path) -> None:
    # L547, L1147: Dwarfs (Ld 9) led by a Ld 10+3 hero: 12, capped at 10.
    w = World(tmp_path, [u("dwarfs", "a", 36, 10, "psychology/dwarf"), hero(), men()])
    w.join("hero", "dwarfs")
    assert w.call("unit_value", u="dwarfs", name="Ld") == 10


def test_a_character_leads_only_with_an_ld_above_the_troops(tmp_path: Path) -> None:
    # L1146: a character becomes the unit's leader if his Ld is above the troops'. A Goblin
    # hero (Ld 8) joined to Dwarfs (Ld 9) does not lead them; his bonus does not count.
    w = World(tmp_path, [u("dwarfs", "a", 36, 10, "psychology/dwarf"),
                         hero("boss", "a", "psychology/goblin_hero"), men()])
    w.join("boss", "dwarfs")
    assert w.call("leading_character", u="dwarfs") is None
    assert w.call("unit_value", u="dwarfs", name="Cl") == 9


def test_the_generals_bonus_within_12_inches_for_rout_and_rally(tmp_path: Path) -> None:
    # L1159-L1161: a unit whose leader is within 12" of the General takes rout and rally
    # tests with the General's Ld bonus: men (Ld 7) near a Ld 10+3 General test on 10.
    general = hero("general", "b", x=36, y=50, rules=["General", "Leader Bonus (3, 2, 3, 3)"])
    w = World(tmp_path, [gobs(), men(), general])
    assert w.call("rout_value", u="men") == 10
    far = hero("general", "b", x=36, y=70, rules=["General", "Leader Bonus (3, 2, 3, 3)"])
    assert World(tmp_path, [gobs(), men(), far]).call("rout_value", u="men") == 7


def test_the_generals_bonus_cap_is_an_option(tmp_path: Path) -> None:
    # L1147-L1149 read with L1161: capped at the General's own Ld (default) or at the unit's
    # own leader's; men led by one of their own (Ld 7) then keep 7.
    general = hero("general", "b", x=36, y=50, rules=["General", "Leader Bonus (3, 2, 3, 3)"])
    w = World(tmp_path, [gobs(), men(), general], options={"general_bonus_cap": "leader"})
    assert w.call("rout_value", u="men") == 7


# ============================================================== fear (L622-L633)


def test_fear_plus_n_adds_to_the_testers_dice(tmp_path: Path) -> None:
    # L632: an Ogre's fear +1 (Fear 5" +1): men (Cl 7) pass on 2D6 + 1 <= 7, 15 of 36.
    w = World(tmp_path, [u("ogres", "a", 36, 10, "psychology/ogre", models=3), men()])
    assert w.call("fear_plus", x="ogres") == 1
    assert w.passes("fear_test", unit="men", feared="ogres") == Fraction(15, 36)


def test_a_failed_fear_test_to_charge_leaves_the_unit_inactive(tmp_path: Path) -> None:
    # L625: wanting to charge a feared enemy; failed (2D6 = 12 > 7): no charge, inactive.
    w = World(tmp_path, [u("trolls", "a", 36, 10, "psychology/troll", models=3), men()])
    assert w.call("dares_charge", {"fear_test": [6, 6]}, u="men", target="trolls") is False
    assert "inactive" in w.unit("men").statuses
    assert w.call("dares_charge", {"fear_test": [3, 4]}, u="men", target="trolls") is True


def test_charged_by_a_feared_enemy_a_failed_test_routs(tmp_path: Path) -> None:
    # L627: fails (8 > 7) -> routs; passes (7) -> holds. Units that cause fear do not fear.
    w = World(tmp_path, [u("trolls", "a", 36, 10, "psychology/troll", models=3), men(),
                         u("ogres", "b", 10, 40, "psychology/ogre", models=3)])
    assert w.call("fear_of_charger", {"fear_test": [4, 4]}, target="men", charger="trolls") is True
    assert w.call("fear_of_charger", {"fear_test": [3, 4]}, target="men", charger="trolls") is False
    assert w.call("fears", u="ogres", x="trolls") is False
    assert w.call("routed_by_fear", loser="men", winner="trolls") is True


def test_within_a_fear_range_a_unit_is_afraid_and_hits_at_minus_one(tmp_path: Path) -> None:
    # L628-L629: within an Ogre's Fear 5" a unit it fears takes -1 on its to-hit rolls. At
    # 4" the men are in range, at 6" not; -1 on a D6 to hit takes away one face, 1/6.
    ogres = u("ogres", "a", 36, 10, "psychology/ogre", models=3, files=3)
    w = World(tmp_path, [ogres, men(y=10 + 1 + 4 + 0.5)])
    assert w.call("fear_range_of", u="men") is not None
    before = w.passes("to_hit", attacker="men", target="ogres")
    w.call("fear_ranges")
    assert "in_fear_range" in w.unit("men").statuses
    assert before - w.passes("to_hit", attacker="men", target="ogres") == Fraction(1, 6)
    far = World(tmp_path, [ogres, men(y=10 + 1 + 8)])
    assert far.call("fear_range_of", u="men") is None
    # the other reading (fear_range_penalty false): in the range, no -1.
    calm = World(tmp_path, [ogres, men(y=10 + 1 + 4 + 0.5)], options={"fear_range_penalty": False})
    calm.call("fear_ranges")
    assert "in_fear_range" in calm.unit("men").statuses
    assert calm.passes("to_hit", attacker="men", target="ogres") == before


# ============================================================== frenzy (L634-L642)


def test_the_frenzy_test_is_inverted(tmp_path: Path) -> None:
    # L638: a score above Cl sends the unit into frenzy: Berserkers (Cl 7) keep cool on 21
    # of 36, so go frenzied on 15 of 36.
    w = World(tmp_path, [u("zerks", "a", 36, 10, "psychology/berserker"), men()])
    assert 1 - w.passes("frenzy_test", unit="zerks") == Fraction(15, 36)


def test_the_leader_may_add_deduct_or_ignore_his_cool_bonus(tmp_path: Path) -> None:
    # L642: Berserkers (Cl 7) led by a Cl 10+3 hero: deducting, Cl 4 (frenzy on 30 of 36);
    # ignoring, 7 (15 of 36); adding, 10 (3 of 36).
    w = World(tmp_path, [u("zerks", "a", 36, 10, "psychology/berserker"), hero(), men()])
    w.join("hero", "zerks")
    assert 1 - w.passes("frenzy_test", unit="zerks", use=-1) == Fraction(30, 36)
    assert 1 - w.passes("frenzy_test", unit="zerks", use=0) == Fraction(15, 36)
    assert 1 - w.passes("frenzy_test", unit="zerks", use=1) == Fraction(3, 36)


def test_a_frenzied_unit_hits_harder_and_ignores_psychology(tmp_path: Path) -> None:
    # L640-L641: charging, the Berserkers fail to keep cool (2D6 = 9 > 4 with the bonus
    # deducted, the default exhortation): frenzied: +1 to hit (one face more, 1/6), no panic
    # test (passed without a roll).
    w = World(tmp_path, [u("zerks", "a", 36, 10, "psychology/berserker"), hero(), men()])
    w.join("hero", "zerks")
    before = w.passes("to_hit", attacker="zerks", target="men")
    assert w.call("frenzy_on_charge", {"frenzy_test": [4, 5]}, u="zerks") is True
    assert "frenzied" in w.unit("zerks").statuses
    assert w.passes("to_hit", attacker="zerks", target="men") - before == Fraction(1, 6)
    assert w.call("panic", {"panic_test": [6, 6]}, u="zerks", outnumbers=False) is True


def test_frenzy_wears_off_out_of_contact(tmp_path: Path) -> None:
    # L638: frenzy lasts while the unit is in base contact with the enemy.
    w = World(tmp_path, [u("zerks", "a", 36, 10, "psychology/berserker"), men()])
    w.unit("zerks").statuses["frenzied"] = None
    w.call("calm_down")
    assert "frenzied" not in w.unit("zerks").statuses


# ============================================================== hatred (L643-L654)


def test_hatred_gives_plus_one_to_hit_against_the_hated_foe_only(tmp_path: Path) -> None:
    # L651: Dwarfs hate Goblins (L678): +1 to hit them, one face more (1/6); none on men.
    w = World(tmp_path, [u("dwarfs", "b", 36, 40, "psychology/dwarf", facing=180), gobs(),
                         u("others", "a", 10, 10, "humans/human")])
    base = w.passes("to_hit", attacker="others", target="gobs")
    # the same WS 4 without the hatred: a Human given the Dwarf's WS
    plain = World(tmp_path, [u("dwarfs", "b", 36, 40, "humans/human", facing=180, characteristics={"WS": 4}), gobs()])
    assert w.passes("to_hit", attacker="dwarfs", target="gobs") - plain.passes("to_hit", attacker="dwarfs", target="gobs") == Fraction(1, 6)
    assert w.call("hates", u="dwarfs", x="gobs") is True
    assert w.call("hates", u="dwarfs", x="others") is False
    assert base == Fraction(1, 2)  # Humans (WS 3) against Goblins (WS 2): 4+, no hatred


def test_holding_back_from_a_hated_enemy_takes_a_test(tmp_path: Path) -> None:
    # L645-L648: Dwarfs (Cl 9) pass on 30 of 36; a failure is a fit of hatred.
    w = World(tmp_path, [u("dwarfs", "b", 36, 40, "psychology/dwarf", facing=180), gobs()])
    assert w.passes("hatred_test", unit="dwarfs") == Fraction(30, 36)
    assert w.call("resists_hatred", {"hatred_test": [5, 5]}, u="dwarfs", foe="gobs") is False
    assert "hatred_fit" in w.unit("dwarfs").statuses
    assert w.call("hatred_rout_bonus", u="dwarfs", winner="gobs") == 1     # L653


# ============================================================== panic (L655-L670)


def test_panic_with_four_times_the_routers_models_is_at_plus_one(tmp_path: Path) -> None:
    # L667: men (Cl 7) with four times the models of the router test on 8: 26 of 36.
    w = World(tmp_path, [gobs(), men()])
    assert w.passes("panic_test", unit="men") == Fraction(21, 36)
    assert w.passes("panic_test", unit="men", outnumbers=True) == Fraction(26, 36)


def test_a_rout_within_12_inches_sets_off_panic_tests(tmp_path: Path) -> None:
    # L666: friends within 12" of a unit routing from combat test; beyond, not. The near
    # men (40 models, four times the 10 routers: +1 Cl) roll 9: fail; the far ones do not test.
    w = World(tmp_path, [gobs(), men(y=40, models=10),
                         u("near", "b", 36, 40 + 2 + 10, "humans/human", facing=180, models=40, files=10),
                         u("far", "b", 36, 40 + 2 + 30, "humans/human", facing=180)])
    failed = w.call("panic_at_rout", {"panic_test": [4, 5]}, router="men")
    assert [x.id for x in failed] == ["near"]
    assert len(w.tests("panic_test")) == 1


def test_charged_while_crossing_an_obstacle_tests_for_panic(tmp_path: Path) -> None:
    # L664: charged while crossing an obstacle: a test (fails on 8 > 7, passes on 6). A unit
    # charged to the front, neither crossing nor engaged, does not test (L661-L664).
    w = World(tmp_path, [gobs(), men()])
    assert w.call("panic_at_charge", {"panic_test": [4, 4]}, target="men", charger="gobs", crossing=True) is True
    again = World(tmp_path, [gobs(), men()])
    assert again.call("panic_at_charge", {"panic_test": [3, 3]}, target="men", charger="gobs", crossing=True) is False
    assert again.call("panic_at_charge", {}, target="men", charger="gobs", crossing=False) is False
    assert len(again.tests("panic_test")) == 1


# ============================================================== stupidity (L671-L677)


def test_stupidity_tests_at_the_start_of_the_turn(tmp_path: Path) -> None:
    # L672: Trolls (Cl 4) pass on 6 of 36. Failed out of combat, a D6 of 4-6: inactive
    # (L676); 1-3: shuffle in a D12 clock direction (L675).
    w = World(tmp_path, [u("trolls", "a", 36, 10, "psychology/troll", models=3), men()])
    assert w.passes("stupidity_test", unit="trolls") == Fraction(6, 36)
    w.call("stupidity", {"stupidity_test": [3, 4], "stupid_action": [5]}, u="trolls")
    trolls = w.unit("trolls")
    assert "stupid" in trolls.statuses and "inactive" in trolls.statuses
    w.call("stupidity", {"stupidity_test": [1, 2]}, u="trolls")
    assert "stupid" not in trolls.statuses


def test_we58_a_stupid_unit_rolling_6_on_the_clock_turns_round(tmp_path: Path) -> None:
    # WE-58, L675: 12 is the way the unit faces; a 6 sends it the opposite way.
    w = World(tmp_path, [u("trolls", "a", 36, 10, "psychology/troll", models=3), men()])
    assert w.call("clock_heading", u="trolls", hour=6) == 180
    assert w.call("clock_heading", u="trolls", hour=12) == 0
    w.call("stupidity", {"stupidity_test": [3, 4], "stupid_action": [2], "clock_direction": [6]}, u="trolls")
    assert w.logs("shuffles off at half rate") == [["trolls", 180]]


def test_a_stupid_unit_is_not_affected_by_other_psychology(tmp_path: Path) -> None:
    # L677: a stupid unit passes its fear and panic tests untested.
    w = World(tmp_path, [u("trolls", "a", 36, 10, "psychology/troll", models=3), men(),
                         u("ogres", "b", 10, 40, "psychology/ogre", models=3)])
    w.call("stupidity", {"stupidity_test": [3, 4], "stupid_action": [5]}, u="trolls")
    assert "stupid" in w.unit("trolls").statuses
    assert w.call("panic", {"panic_test": [6, 6]}, u="trolls", outnumbers=False) is True
    assert w.call("fears", u="trolls", x="ogres") is False


def test_in_combat_half_a_stupid_unit_fights_the_odd_model_on_4_plus(tmp_path: Path) -> None:
    # L673: 5 models: 2 fight, the fifth on a D6 of 4+.
    w = World(tmp_path, [gobs(), men()])
    dist = w.exact("stupid_strikers", models=5)
    assert dist.probability(2) == Fraction(1, 2) and dist.probability(3) == Fraction(1, 2)
    assert w.call("stupid_strikers", models=4) == 2


# ============================================================== animosity (L2951-L2967)


def test_animosity_is_a_d6_less_the_leaders_bonus_plus_its_modifiers(tmp_path: Path) -> None:
    # L2957-L2965: a D6 alone never reaches 7: 6 (insults) on 1/6. With the rival ahead,
    # another race and no enemy in sight (+3): 7+ on a 4+ (1/2), 6 on a 3 (1/6). A Ld +3
    # leader takes the three away again.
    w = World(tmp_path, [u("orcs", "a", 36, 10, "psychology/orc_rival"), hero(), men()])
    plain = w.exact("animosity_roll", u="orcs")
    assert plain.probability("insult") == Fraction(1, 6) and plain.probability("attack") == 0
    spurred = w.exact("animosity_roll", u="orcs", ahead=True, other_race=True, no_enemy=True)
    assert spurred.probability("attack") == Fraction(1, 2)
    assert spurred.probability("insult") == Fraction(1, 6)
    w.join("hero", "orcs")
    led = w.exact("animosity_roll", u="orcs", ahead=True, other_race=True, no_enemy=True)
    assert led.probability("insult") == Fraction(1, 6) and led.probability("attack") == 0


def test_animosity_is_tested_only_with_a_rival_near_and_no_enemy_near(tmp_path: Path) -> None:
    # L2953-L2956: a rival within 12", enemies more than 12" away: a test (6: insults).
    w = World(tmp_path, [u("orcs", "a", 36, 10, "psychology/orc_rival"),
                         u("goblins", "a", 36 + 12, 10, "goblins/goblin"), men(y=60)])
    assert w.call("animosity", {"animosity_roll": [6]}, u="orcs") == "insult"
    assert "insulting" in w.unit("orcs").statuses
    near = World(tmp_path, [u("orcs", "a", 36, 10, "psychology/orc_rival"),
                            u("goblins", "a", 36 + 12, 10, "goblins/goblin"), men(y=20)])
    assert near.call("animosity", u="orcs") == "calm"
    assert near.tests("animosity_roll") == []


# ============================================================== instability (L2971-L2984)


def test_the_instability_table_is_a_d6_moved_down_by_modifiers(tmp_path: Path) -> None:
    # L2976-L2983 (read 1 to 6 in the printed order): each result 1/6; at -2 (Tempest of
    # Magic, L2679) a 1, 2 or 3 ebbs (1/2), and no roll laughs.
    w = World(tmp_path, [u("bones", "a", 36, 10, "psychology/skeleton"), men()])
    plain = w.exact("instability_roll", u="bones")
    assert all(plain.probability(r) == Fraction(1, 6) for r in
               ("ebbs", "disorientated", "dispersal 4+", "dispersal 5+", "fresh power", "laugh"))
    tempest = w.exact("instability_roll", u="bones", modifier=-2)
    assert tempest.probability("ebbs") == Fraction(1, 2) and tempest.probability("laugh") == 0


def test_dispersal_removes_each_model_on_its_score_and_ebbing_then_disperses(tmp_path: Path) -> None:
    # L2979: 3 skeletons, each removed on a D6 of 4+: dice 4, 3, 6 remove 2. L2977: an ebbing
    # unit's next instability test disperses it.
    w = World(tmp_path, [u("bones", "a", 36, 10, "psychology/skeleton", models=3, files=3), men()])
    assert w.call("instability", {"instability_roll": [3], "dispersal": [4, 3, 6]}, u="bones") == "dispersal 4+"
    assert w.unit("bones").models == 1
    assert w.call("instability", {"instability_roll": [1]}, u="bones") == "ebbs"
    assert w.call("instability", {}, u="bones") == "dispersed"


def test_a_unit_not_subject_to_psychology_passes_untested(tmp_path: Path) -> None:
    # L1360, L2330: undead are not subject to psychology: fear and panic pass untaken.
    w = World(tmp_path, [u("bones", "a", 36, 10, "psychology/skeleton"), men(),
                         u("ogres", "b", 10, 40, "psychology/ogre", models=3)])
    assert w.passes("panic_test", unit="bones") == 1
    assert w.call("fears", u="bones", x="ogres") is False


# ============================================================== psychology in the turn: the gaps closed


def _battle(tmp_path: Path, *units: dict) -> str:
    """A battle file of the given units (scripted dice per test through Probe)."""
    import yaml
    from helpers.aos4_probe import battle_file
    return str(battle_file(tmp_path, yaml.safe_dump({"edition": "wfb3", "game": {"rounds": 2, "first": "a"},
                                                      "units": list(units)}, sort_keys=False)))


def test_l648_a_fit_of_hatred_charges_the_nearest_hated_enemy(tmp_path: Path) -> None:
    # L645, L648-L649: Dwarfs (M3: a 6" charge) hate Goblins; the player charges the nearer
    # Humans, so the Dwarfs test (Cl 9): 6 + 6 fails, and the fit of hatred makes them charge
    # the Goblins; 1 + 1 passes and the player's target stands.
    from helpers.aos4_probe import Probe
    path = _battle(tmp_path, u("dwarfs", "a", 36, 10, "psychology/dwarf"),
                   u("men", "b", 30, 14, "humans/human", facing=180, models=5, files=5),
                   u("gobs", "b", 42, 15, "goblins/goblin", facing=180, models=5, files=5))
    p = Probe("wfb3", path, dice={"hatred_test": [6, 6, 1, 1]}, active="a")
    assert p("in_charge_reach", u="dwarfs", e="gobs") is True
    assert p("hatred_target", u="dwarfs", t="men") is p.unit["gobs"]
    assert p.logged("charges in a fit of hatred") == [["dwarfs", "gobs"]]
    assert "hatred_fit" in p.unit["dwarfs"].statuses
    assert p("will_charge", u="dwarfs", t="gobs") is True
    q = Probe("wfb3", path, dice={"hatred_test": [1, 1]}, active="a")
    assert q("hatred_target", u="dwarfs", t="men") is q.unit["men"]
    # charging the hated enemy itself takes no test
    r = Probe("wfb3", path, dice={}, active="a")
    assert r("hatred_target", u="dwarfs", t="gobs") is r.unit["gobs"]


def test_l646_a_unit_must_shoot_at_a_hated_enemy_unless_it_passes_a_test(tmp_path: Path) -> None:
    # L646, L650: longbowmen who hate Goblins, with Humans nearer: the test failed (6 + 6
    # against Cl 7), they shoot at the Goblins; passed (1 + 1), at the nearest.
    from helpers.aos4_probe import Probe
    path = _battle(tmp_path, u("bows", "a", 36, 10, "humans/longbowman", rules=["Hatred (GOBLINOID)"]),
                   u("men", "b", 36, 22, "humans/human", facing=180, models=5, files=5),
                   u("gobs", "b", 46, 24, "goblins/goblin", facing=180, models=5, files=5))
    p = Probe("wfb3", path, dice={"hatred_test": [6, 6]}, active="a")
    assert p("shooting_target", u="bows") is p.unit["gobs"]
    assert p.logged("shoots in a fit of hatred") == [["bows", "gobs"]]
    q = Probe("wfb3", path, dice={"hatred_test": [1, 1]}, active="a")
    assert q("shooting_target", u="bows") is q.unit["men"]


def test_l675_a_stupid_unit_shuffles_at_half_rate_in_a_clock_direction(tmp_path: Path) -> None:
    # L675: Trolls (Cl 4) fail (6 + 6); a D6 of 2 shuffles them at half rate (M6: 3") in the
    # D12 direction: a 6 is straight back (facing up the table: 3" down it).
    from helpers.aos4_probe import Probe
    path = _battle(tmp_path, u("trolls", "a", 36, 20, "psychology/troll", models=3, files=3),
                   u("men", "b", 36, 40, "humans/human", facing=180))
    p = Probe("wfb3", path, dice={"stupidity_test": [6, 6], "stupid_action": [2], "clock_direction": [6]}, active="a")
    before = p.unit["trolls"].pose.y
    p("stupidity", u="trolls")
    assert p.logged("shuffles off at half rate") == [["trolls", 180]]
    assert abs(p.unit["trolls"].pose.y - (before - 3)) < 1e-6
    # 4-6: inactive, no move (L676)
    q = Probe("wfb3", path, dice={"stupidity_test": [6, 6], "stupid_action": [4]}, active="a")
    q("stupidity", u="trolls")
    assert "inactive" in q.unit["trolls"].statuses and q.unit["trolls"].pose.y == before


def test_l2962_a_unit_set_on_its_rival_closes_in_or_shoots_at_it(tmp_path: Path) -> None:
    # L2962-L2963: in a fit of animosity (or trading insults) a unit without missiles moves to
    # 1" of its rival; one with missiles shoots at it.
    from helpers.aos4_probe import Probe
    path = _battle(tmp_path, u("orcs", "a", 36, 10, "psychology/orc_rival"),
                   u("gobs", "a", 36, 20, "goblins/goblin"),
                   u("men", "b", 36, 46, "humans/human", facing=180))
    p = Probe("wfb3", path, dice={}, active="a")
    p.unit["orcs"].statuses["animosity_fit"] = None
    before = p.unit["orcs"].pose.y
    p("approach_rival", u="orcs", r="gobs")
    assert abs(p.unit["orcs"].pose.y - (before + 4)) < 1e-6
    bows = _battle(tmp_path, u("bows", "a", 36, 10, "humans/longbowman", rules=["Animosity (HUMAN)"]),
                   u("zerks", "a", 36, 20, "psychology/berserker"),
                   u("men", "b", 36, 46, "humans/human", facing=180))
    q = Probe("wfb3", bows, dice=None, active="a")
    q.unit["bows"].statuses["insulting"] = None
    q("shooting_phase")
    assert [v[:2] for v in q.logged("shoots at")] == [["bows", "zerks"]]


def test_l388_shots_into_close_combat_are_shared_by_a_d6(tmp_path: Path) -> None:
    # L388-L389: two units engaged, 1-3 strikes one and 4-6 the other; 20 Orcs against 10 Men:
    # 1-2 a Man. Each shot strikes the target on more than the friends' faces.
    w = World(tmp_path, [gobs(models=20), men(models=10)])
    assert w.call("stray_faces", t="gobs", foe="men") == 2
    assert w.call("stray_faces", t="men", foe="gobs") == 4
    assert w.call("stray_faces", t="gobs", foe=w.unit("gobs")) == 3
    assert w.passes("strikes_target", share=2) == Fraction(2, 3)
