"""wfb3 special troops, formations, Chaos attributes, fire and magic items (seed
003_9d43467ba19595d2.txt): rulesets/wfb3/specials.rules, through the ruleset's chains.

Each test names the 003 line it checks. The chances are worked out by hand: WS 3 against WS 3
needs 5 (1/3, L472); S3 against T3 damages on 4 (1/2), S4 on 3 (2/3), S3 against T4 on 5
(1/3); a Human with heavy armour and shield saves on 4 (L353), light armour alone on 6.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.wfb3_world import ARMOURED, Duel

F = Fraction


def test_l1238_flagellants_are_frenzied_double_attackers_who_hate_chaos(tmp_path: Path) -> None:
    # L1238-L1241: frenzy, twice the attacks, hatred of Chaos (+1 to hit a CHAOS target, L652).
    w = Duel(tmp_path, a={"rules": ["Flagellants"]}, b={"keywords": ["CHAOS"], **ARMOURED})
    a = w.unit("a")
    rt = w.runtime
    assert w.value("a", "A") == 2
    assert rt.has_rule(w.env(), a, "Frenzy") and rt.has_rule(w.env(), a, "Hatred")
    # WS 3 against 3 needs 5, hatred +1: 4 (1/2); S3 (1/2); a 4 save (1/2)
    assert w.damage() == F(1, 8)


def test_l1919_poison_adds_1_strength_except_against_the_undead(tmp_path: Path) -> None:
    # L1919-L1921: S4 against T3 (2/3): 1/3 x 2/3 x 1/2 = 1/9; against UNDEAD S3: 1/12.
    w = Duel(tmp_path, a={"rules": ["Poisonous Attacks"]}, b=ARMOURED)
    assert w.damage() == F(1, 9)
    u = Duel(tmp_path, a={"rules": ["Poisonous Attacks"]}, b={"keywords": ["UNDEAD"], **ARMOURED})
    assert u.damage() == F(1, 12)


def test_l1881_l1884_shieldwall_and_testudo_saves_and_moves(tmp_path: Path) -> None:
    # L1881: a shieldwall saves at +1 (4 becomes 3: 1/3 fail) and neither moves nor shoots;
    # L1884: a testudo +2 (2: 1/6 fail) at half move (M4: 2), dropped in combat.
    w = Duel(tmp_path, b={"rules": ["Shieldwall"], **ARMOURED})
    assert w.damage() == F(1, 3) * F(1, 2) * F(1, 3)
    assert w.call("may_move", u="b") is False
    t = Duel(tmp_path, b={"rules": ["Testudo"], **ARMOURED})
    assert t.value("b", "M") == 2
    assert t.damage() == F(1, 3) * F(1, 2) * F(1, 6)
    t.engage()
    assert t.damage() == F(1, 3) * F(1, 2) * F(1, 2)


def test_l1858_a_square_is_never_pushed_back(tmp_path: Path) -> None:
    # L1857-L1859: a square does not move, is not pushed back, and never follows up.
    w = Duel(tmp_path, a={"rules": ["Square"]})
    w.engage()
    assert w.call("may_move", u="a") is False
    w.call("push_back", l="a", w="b")
    assert w.logs("holds in square") == [["a"]] and "followed_up" not in w.unit("b").statuses
    v = Duel(tmp_path, a={"rules": ["Square"]})
    v.engage()
    v.call("push_back", l="b", w="a")
    assert "followed_up" not in v.unit("a").statuses and v.unit("a") not in v.unit("b").engaged


def test_l3011_l3017_chaos_attributes(tmp_path: Path) -> None:
    # L3011: atrophy -1 M (a character also -1 I); L3012: blood rage is frenzy; L3016: M halved.
    w = Duel(tmp_path, a={"rules": ["Atrophy"]}, b={"rules": ["Atrophy"], "models": 1, "files": 1})
    assert (w.value("a", "M"), w.value("a", "I")) == (3, 3)
    assert (w.value("b", "M"), w.value("b", "I")) == (3, 2)
    f = Duel(tmp_path, a={"rules": ["Enormously Fat", "Blood Rage"]})
    assert f.value("a", "M") == 2 and f.runtime.has_rule(f.env(), f.unit("a"), "Frenzy")


def test_l3017_great_fangs_bite_at_plus_1_for_every_second_model(tmp_path: Path) -> None:
    # L3017: 10 fighting models bite 5 more times at +1 to hit (WS 3 against 3: 4, 1/2).
    w = Duel(tmp_path, a={"rules": ["Great Fangs"], "models": 10, "files": 10}, b=ARMOURED)
    w.status("a", "biting")
    assert w.damage() == F(1, 2) * F(1, 2) * F(1, 2)
    w.call("struck_by", [1] * 15, c="a", foe="b", n=10)
    attacks = [e.attacks for e in w.events if e.kind == "attacks"]
    assert attacks == [10, 5]


def test_l2013_l2017_fire_weapons_are_plus_1_strength_against_the_flammable(tmp_path: Path) -> None:
    # L2013, L2017: a flaming brand is improvised (-1 to hit: a 6, 1/6; +1 save: a 3, 1/3
    # fail) and +1 S against a flammable target (S4: 2/3): 1/27; magical fire +1 S only.
    w = Duel(tmp_path, a={"rules": ["Flaming Brands"]}, b={"rules": ["Flammable"], **ARMOURED})
    assert w.damage() == F(1, 6) * F(2, 3) * F(1, 3)
    m = Duel(tmp_path, a={"rules": ["Magical Fire Weapons"]}, b={"rules": ["Flammable"], **ARMOURED})
    assert m.damage() == F(1, 3) * F(2, 3) * F(1, 2)
    n = Duel(tmp_path, a={"rules": ["Magical Fire Weapons"]}, b=ARMOURED)
    assert n.damage() == F(1, 12)


def test_l2847_l2850_magic_weapons(tmp_path: Path) -> None:
    # L2847-L2849: +D3 A, S, T, the D3 rolled before the game (the rule's argument); L2850:
    # no save. Might (2): S5 against T3 (2, 5/6): 1/3 x 5/6 x 1/2 = 5/36; Piercing: no save,
    # 1/3 x 1/2 = 1/6; a target with Immunity (1): T4, S3 damages on 5 (1/3): 1/18.
    w = Duel(tmp_path, a={"rules": ["Savagery (3)", "Might (2)"]}, b=ARMOURED)
    assert w.value("a", "A") == 4
    assert w.damage() == F(5, 36)
    assert Duel(tmp_path, a={"rules": ["Piercing Weapon"]}, b=ARMOURED).damage() == F(1, 6)
    assert Duel(tmp_path, b={"rules": ["Immunity (1)"], **ARMOURED}).damage() == F(1, 18)


def test_l2860_l2862_magic_arrows(tmp_path: Path) -> None:
    # L2860: true flight always hits: a bow at 10" (S3: 1/2) and a 4 save (1/2): 1/4; L2861:
    # sure flight +1 to hit (3: 2/3): 1/6; L2862: piercing arrows allow no save: 1/4.
    def bows(rule: str) -> Duel:
        return Duel(tmp_path, a={"profile": "missile_troops/bowman", "rules": [rule]}, b=ARMOURED)
    assert bows("True Flight").volley(10)[1] == F(1, 4)
    assert bows("Sure Flight").volley(10)[1] == F(1, 6)
    assert bows("Piercing Arrows").volley(10)[1] == F(1, 4)


def test_l2891_l2899_magic_and_mithril_armour(tmp_path: Path) -> None:
    # L2891: magic armour +N to the save (+2: 4 becomes 2, 1/6 fail): 1/3 x 1/2 x 1/6 = 1/36;
    # L2899-L2901: mithril +1 (3: 1/3 fail) and no encumbrance (heavy armour and shield cost
    # 1", L108-L117: M4 stays 4).
    assert Duel(tmp_path, b={"rules": ["Magic Armour (2)"], **ARMOURED}).damage() == F(1, 36)
    m = Duel(tmp_path, b={"rules": ["Mithril Armour"], **ARMOURED})
    assert m.damage() == F(1, 18)
    assert m.call("move_allowance", u="b") == 4
    assert Duel(tmp_path, b=ARMOURED).call("move_allowance", u="b") == 3


def test_l2909_l2912_magic_standards_in_the_combat_result(tmp_path: Path) -> None:
    # L2909: a battle banner +D6 each round (scripted 4); L2912: a war banner +1 (L2935's
    # battlecall is the standards' bonus: test_wfb3_examples.py, WE-65).
    w = Duel(tmp_path, a={"rules": ["Battle Banner", "War Banner"]})
    assert w.call("banner_bonus", [4], x="a") == 5
    assert w.call("banner_bonus", [], x="b") == 0


def test_l2934_l2937_instruments_on_ld_fear_and_to_hit(tmp_path: Path) -> None:
    # L2934: -1 Ld for an enemy fighting the doomsounder's unit; L2936: +1 to fear tests
    # (Cl 7 against an Ogre's fear +1: 2D6 + 1 <= 7 is 15/36, one better 21/36); L2937:
    # battlerage +1 to hit until pushed back (4: 1/2, then 5: 1/3).
    w = Duel(tmp_path, a={"rules": ["Doomsounder", "Battlerage"]}, b=ARMOURED)
    w.engage()
    assert w.call("doom", u="b") == 1 and w.call("doom", u="a") == 0
    assert w.exact("to_hit", attacker="a", target="b").probability(True) == F(1, 2)
    w.status("a", "driven_back")
    assert w.exact("to_hit", attacker="a", target="b").probability(True) == F(1, 3)
    c = Duel(tmp_path, a={"rules": ["Call of Valour"]}, b={"profile": "psychology/ogre", "models": 4, "files": 4})
    assert c.exact("fear_test", unit="a", feared="b").probability(True) == F(21, 36)
    plain = Duel(tmp_path, b={"profile": "psychology/ogre", "models": 4, "files": 4})
    assert plain.exact("fear_test", unit="a", feared="b").probability(True) == F(15, 36)


def test_l1208_l1209_berserkers_frenzy_at_the_charge_and_give_no_ground(tmp_path: Path) -> None:
    # L1208: frenzied with no test the first time they charge or are charged, for the rest of
    # the battle; L1209: never pushed back nor routed by close combat; L1210: they charge.
    w = Duel(tmp_path, a={"rules": ["Berserkers"]})
    w.call("declare_charge", [1] * 40, u="b", t="a")
    assert "frenzied" in w.unit("a").statuses
    w.unit("a").engaged.clear()
    w.unit("b").engaged.clear()
    w.call("calm_down")
    assert "frenzied" in w.unit("a").statuses
    w.engage()
    w.call("lose_round", l="a", w="b")
    assert w.logs("is pushed back") == [] and "routing" not in w.unit("a").statuses
    assert w.call("will_charge", u="a", t="b") is True


def test_l2851_double_damage_and_l3013_breathe_fire(tmp_path: Path) -> None:
    # L2851: two wounds a blow against a W3 Ogre; L3013: a character's extra fire attack, +1 S
    # against the flammable.
    w = Duel(tmp_path, a={"rules": ["Double Damage"]}, b={"profile": "psychology/ogre", "models": 4, "files": 4})
    rt = w.runtime
    dist = rt.sequences["melee_attack"].exact(lambda ch: rt.env(ch, w.battle.options, [], w.state),
                                              {"attacker": w.unit("a"), "target": w.unit("b")})
    assert {o.damage for o, p in dist.items()} == {0, 2}
    f = Duel(tmp_path, a={"rules": ["Breathe Fire"], "models": 1, "files": 1}, b={"rules": ["Flammable"]})
    f.call("struck_by", [6, 6, 6, 6], c="a", foe="b", n=1)
    assert [e.attacks for e in f.events if e.kind == "attacks"] == [1, 1]


def test_l3015_cowardice(tmp_path: Path) -> None:
    # L3015: a Cool test to charge (Humans Cl 7: 6 + 6 fails), and charging enemies of greater
    # numerical strength are feared.
    w = Duel(tmp_path, a={"rules": ["Cowardice"], "models": 5}, b={"models": 10})
    assert w.call("dares_charge", [6, 6], u="a", target="b") is False
    assert w.call("dares_charge", [1, 1], u="a", target="b") is True
    assert w.call("fears", u="a", x="b") is False
    w.status("b", "charged")
    assert w.call("fears", u="a", x="b") is True


def _damage_dist(w: Duel, sequence: str = "melee_attack", **args: object) -> dict[int, Fraction]:
    rt = w.runtime
    names = [p.name for p in rt.sequences[sequence].decl.params]
    full = dict(zip(names, (w.unit("a"), w.unit("b"))), **args)
    dist = rt.sequences[sequence].exact(lambda ch: rt.env(ch, w.battle.options, [], w.state), full)
    out: dict[int, Fraction] = {}
    for o, p in dist.items():
        out[o.damage] = out.get(o.damage, F(0)) + p
    return out


def test_l452_l455_stomps_bites_and_claws_strike_to_the_front(tmp_path: Path) -> None:
    # L452-L455: a creature's attacks of each kind; stomps, bites and claws all strike a foe
    # in front (L451), so a Human with 2 bites, a claw and 2 stomps strikes 1 + 5 times.
    w = Duel(tmp_path, a={"rules": ["Bite (2)", "Claw", "Stomp (2)"]})
    assert w.value("a", "A") == 6
    # L456: a tail strikes only to the side or rear: not simulated, its reason says why
    assert Duel(tmp_path, a={"rules": ["Tail (2)"]}).value("a", "A") == 1


def test_l2846_freeze_kills_a_living_target_on_2_or_more_with_no_save(tmp_path: Path) -> None:
    # L2846: WS 3 against 3 hits on 5 (1/3); S3 against the Ogre's T5 damages on 6 (1/6), no
    # save; then a D6: 2+ kills the Ogre (its 3 Wounds), a 1 is the blow's one wound.
    w = Duel(tmp_path, a={"rules": ["Freeze"]}, b={"profile": "psychology/ogre", "models": 4, "files": 4, **ARMOURED})
    p = F(1, 3) * F(1, 6)
    assert _damage_dist(w) == {0: 1 - p, 3: p * F(5, 6), 1: p * F(1, 6)}
    # an undead target is not living: one wound a damaging blow, and still no save
    u = Duel(tmp_path, a={"rules": ["Freeze"]}, b={"keywords": ["UNDEAD"], **ARMOURED})
    assert _damage_dist(u) == {0: 1 - F(1, 3) * F(1, 2), 1: F(1, 3) * F(1, 2)}


def test_l2863_enchanted_arrows_wound_the_undead_without_a_save(tmp_path: Path) -> None:
    # L2863: a bow at 10" hits on 4 (1/2); against an undead target each hit is a wound with
    # no save; against others the chain as normal: 1/2 x 1/2 (S3 against T3) x 1/2 (a 4 save).
    def bows(**b: object) -> Duel:
        return Duel(tmp_path, a={"profile": "missile_troops/bowman", "rules": ["Enchantment"]}, b={**ARMOURED, **b})
    assert bows(keywords=["UNDEAD"]).volley(10)[1] == F(1, 2)
    assert bows(keywords=["ETHEREAL"]).volley(10)[1] == F(1, 2)
    assert bows().volley(10)[1] == F(1, 8)


def test_l1233_l1234_falconers_cast_hawks_and_fight_with_them(tmp_path: Path) -> None:
    # L1233: a hawk is a 24" missile at BS 5 (a 2 to hit, 5/6; 12" is within half range) and
    # S 2 (against T3 a 5, 1/3), the 4 save (1/2): 5/36. L1234: in close combat a hawk's
    # attack for each falconer fighting, WS 5 against 3 (a 3, 2/3) and S 2 (1/3), the save:
    # 1/9; the falconers' own blows as before (1/3 x 1/2 x 1/2).
    w = Duel(tmp_path, a={"profile": "missile_troops/falconer"}, b=ARMOURED)
    weapon, chance = w.volley(12)
    assert weapon.name == "hawk" and chance == F(5, 36)
    assert w.damage() == F(1, 12)
    w.status("a", "hawking")
    assert w.damage() == F(2, 3) * F(1, 3) * F(1, 2)
    v = Duel(tmp_path, a={"profile": "missile_troops/falconer"}, b=ARMOURED)
    v.call("struck_by", [1] * 20, c="a", foe="b", n=5)
    assert [e.attacks for e in v.events if e.kind == "attacks"] == [5, 5]


def test_l2014_fire_arrows_fly_half_as_far_and_burn_the_flammable(tmp_path: Path) -> None:
    # L2014: a bow with fire arrows reaches 12" (24 halved); L2017: +1 S against a flammable
    # target: at 5" (within half range) a 4 to hit (1/2), S4 against T3 (2/3), the 4 save
    # (1/2): 1/6; no fire after moving this turn (Move or Fire).
    w = Duel(tmp_path, a={"profile": "missile_troops/fire_archer"}, b={"rules": ["Flammable"], **ARMOURED})
    assert w.call("shooting_attacks", attacker="a", target="b", inches=13) == []
    assert w.volley(5)[1] == F(1, 6)
    n = Duel(tmp_path, a={"profile": "missile_troops/fire_archer"}, b=ARMOURED)
    assert n.volley(5)[1] == F(1, 8)
    n.status("a", "has_moved")
    assert n.call("shooting_attacks", attacker="a", target="b", inches=5) == []


def test_l2043_troops_afraid_of_fire_test_for_panic_when_attacked_by_fire(tmp_path: Path) -> None:
    # L2011, L2043: attacked by flaming brands (five blows, all missing), the wolves take a
    # panic test: Cl 7, 6 + 6 fails and they rout from the fire; blows without fire, no test.
    w = Duel(tmp_path, a={"rules": ["Flaming Brands"]}, b={"rules": ["Afraid of Fire"]})
    w.engage()
    # (routing from the combat, they suffer the free hacks of L552: all 1s)
    w.call("struck_by", [1, 1, 1, 1, 1, 6, 6] + [1] * 40, c="a", foe="b", n=5)
    assert w.logs("routs from the fire") == [["b"]] and "routing" in w.unit("b").statuses
    p = Duel(tmp_path, b={"rules": ["Afraid of Fire"]})
    p.engage()
    p.call("struck_by", [1, 1, 1, 1, 1, 6, 6], c="a", foe="b", n=5)
    assert p.logs("routs from the fire") == [] and "routing" not in p.unit("b").statuses
    # fire arrows shot at them: the same test (a volley of misses, then 6 + 6)
    f = Duel(tmp_path, a={"profile": "missile_troops/fire_archer"}, b={"rules": ["Afraid of Fire"]})
    f.call("shoot", [1] * 10 + [6, 6], u="a", t="b", inches=5)
    assert f.logs("routs from the fire") == [["b"]]


def test_l1307_l1311_poisoned_wind_globes_are_s4_grenades_with_no_save(tmp_path: Path) -> None:
    # L1307: thrown as grenades (the D20 lands it on 13-19, 7/20); L1310: S4 (against T3 a 3,
    # 2/3) and no save, even for heavy armour and shield: 7/30; not after moving (L1043).
    w = Duel(tmp_path, a={"profile": "missile_troops/globe_carrier"}, b=ARMOURED)
    globe = w.unit("a").weapons[0]
    assert w.damage("grenade_attack", weapon=globe, inches=4) == F(7, 20) * F(2, 3)
    w.status("a", "has_moved")
    assert w.call("shooting_attacks", attacker="a", target="b", inches=4) == []


def test_l1273_levies_cost_2_less_and_may_fall_under_the_half_equipment_price(tmp_path: Path) -> None:
    # L1273: a Human warrior (5, light armour and shield 2 + 1 at full price) costs 8; a levy
    # 3, and below 5 its equipment is at half (L1275): 3 + 1.5 = 4.5; a Goblin levy 1 (2.5 - 2,
    # never below 1).
    w = Duel(tmp_path, a={"profile": "humans/human_warrior"}, b={"profile": "humans/human_warrior", "rules": ["Levies"]})
    assert w.call("trooper_points", u="a") == 8
    assert w.call("trooper_points", u="b") == F(9, 2)
    g = Duel(tmp_path, a={"profile": "goblins/goblin", "rules": ["Levies"]})
    assert g.call("basic_points", x="a") == 1
