"""wfb3 weapons (seed 003_9d43467ba19595d2.txt, the Weapons chapter L838-L1058).

Each hand-to-hand and missile weapon is a rule (rulesets/wfb3/weapons.rules) read by the
ruleset's attack chains; every test names the 003 line it checks. The chances are worked
out by hand in the comments: WS 3 against WS 3 needs 5 (1/3, L472); the Damage Chart gives
S3 against T3 4 (1/2), S4 3 (2/3), S2 5 (1/3), S1 6 (1/6), S5 and S6 2 (5/6); a Human with
heavy armour and shield saves on 4 (L353), heavy armour alone on 5, light armour alone on 6.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from helpers.wfb3_world import ARMOURED, Duel

from rules_run.runtime.entities import Weapon

F = Fraction


# ============================================================== the missile weapons' rows


ROWS = [  # rule, Range, Strength (None: the shooter's), SaveMod (None: none), line
    ("Bow", 24, 3, None, "L936"), ("Short Bow", 16, 3, None, "L941"),
    ("Long Bow", 30, 3, None, "L946"), ("Crossbow", 30, 4, None, "L951"),
    ("Repeating Crossbow", 16, 3, None, "L959"), ("Throwing Spear", 4, None, -1, "L965"),
    ("Throwing Dart", 6, None, None, "L975"), ("Javelin", 8, None, None, "L981"),
    ("Sling", 18, 3, None, "L987"), ("Blowpipe", 12, None, None, "L994"),
    ("Improvised Missile", 3, None, None, "L1000"), ("Arquebus", 24, 4, None, "L1007"),
    ("Blunderbuss", 16, None, None, "L1017"), ("Pistol", 6, 4, -1, "L1029"),
    ("Grenade", 6, 3, -2, "L1044"), ("Torinoko", 6, 2, None, "L1053, L1056"),
]


@pytest.mark.parametrize("rule,reach,strength,save,line", ROWS)
def test_each_missile_weapon_has_its_row_of_the_chapter(tmp_path: Path, rule: str, reach: int,
                                                        strength: int | None, save: int | None,
                                                        line: str) -> None:
    # The tables of L933-L1058: range, Strength and save modifier outside a shot (the
    # blunderbuss's and arquebus's depend on the range of the shot, below).
    w = Duel(tmp_path)
    rt = w.runtime
    weapon = Weapon("w", {}, [rt.bind_rule(rule)], w.unit("a"))
    assert [rt.characteristic(w.env(), weapon, c) for c in ("Range", "Strength", "SaveMod")] == [reach, strength, save]


def test_bows_hit_at_their_strength(tmp_path: Path) -> None:
    # L936, L941: a bow or short bow shot by BS 3 (4 to hit, L264) at S3 against T3 (4) and
    # a 4 save: 1/2 x 1/2 x 1/2 = 1/8; beyond half range (over 12" for the bow, L308) 5 to
    # hit: 1/12; the short bow does not reach 20".
    w = Duel(tmp_path, a={"profile": "missile_troops/bowman"}, b=ARMOURED)
    assert w.volley(10)[1] == F(1, 8)
    assert w.volley(20)[1] == F(1, 12)
    s = Duel(tmp_path, a={"profile": "missile_troops/short_bowman"}, b=ARMOURED)
    assert s.volley(8)[1] == F(1, 8)
    assert s.call("shooting_attacks", attacker="a", target="b", inches=20) == []


def test_the_long_bow_and_crossbow_pierce_at_half_range(tmp_path: Path) -> None:
    # L946, L953: -1 save at up to half range (15"): a 4 save becomes 5. Long bow at 10":
    # 1/2 x 1/2 x 2/3 = 1/6; at 20" 1/3 x 1/2 x 1/2 = 1/12. Crossbow S4 (3 to damage) at
    # 10": 1/2 x 2/3 x 2/3 = 2/9.
    w = Duel(tmp_path, a={"profile": "humans/longbowman"}, b=ARMOURED)
    assert w.volley(10)[1] == F(1, 6)
    assert w.volley(20)[1] == F(1, 12)
    c = Duel(tmp_path, a={"profile": "missile_troops/crossbowman"}, b=ARMOURED)
    assert c.volley(10)[1] == F(2, 9)


def test_crossbows_do_not_move_and_fire_nor_stand_after_moving_or_firing(tmp_path: Path) -> None:
    # L949-L950: a crossbow unit that moved this turn does not fire; at a charge it stands and
    # fires only if it neither moved nor fired in its previous turn.
    w = Duel(tmp_path, a={"profile": "missile_troops/crossbowman"})
    assert w.call("shooting_attacks", attacker="a", target="b", inches=10)[0][1] == 10
    w.status("a", "has_moved")
    assert w.call("shooting_attacks", attacker="a", target="b", inches=10) == []
    w = Duel(tmp_path, a={"profile": "missile_troops/crossbowman"})
    assert len(w.call("ready_at_charge", t="a")) == 1
    w.status("a", "fired_recently")
    assert w.call("ready_at_charge", t="a") == []
    # a bow may stand and shoot whatever it did (L433)
    b = Duel(tmp_path, a={"profile": "missile_troops/bowman"})
    b.status("a", "moved_recently", "fired_recently")
    assert len(b.call("ready_at_charge", t="a")) == 1


def test_the_repeating_crossbow_shoots_twice_at_minus_1(tmp_path: Path) -> None:
    # L957-L959 (WE-32): two shots a model, each at -1 to hit: BS 3 needs 5 (1/3), S3 against T3
    # (1/2), a 4 save (1/2): 1/12 each.
    w = Duel(tmp_path, a={"profile": "missile_troops/repeater"}, b=ARMOURED)
    assert w.call("shooting_attacks", attacker="a", target="b", inches=6)[0][1] == 20
    assert w.volley(6)[1] == F(1, 12)


def test_throwing_weapons_strike_as_their_thrower_with_no_long_range_penalty(tmp_path: Path) -> None:
    # L965-L968: a throwing spear hits at the thrower's Strength with -1 save, and a throw at
    # over half range is not -1. Human S3 at 3" (over half of 4"): 1/2 x 1/2 x (1 - 1/3) = 1/6.
    # A javelin (S as thrower, no save modifier) at 6" of 8: 1/2 x 1/2 x 1/2 = 1/8.
    w = Duel(tmp_path, a={"profile": "missile_troops/spear_thrower"}, b=ARMOURED)
    assert w.volley(3)[1] == F(1, 6)
    j = Duel(tmp_path, a={"profile": "missile_troops/javelineer"}, b=ARMOURED)
    assert j.volley(6)[1] == F(1, 8)
    # thrown as the unit closes (WE-49, L969): a further -1 (throwing_at_contact), the charger's -1 for moving:
    # BS 3 needs 4, at -2 a 6 (1/6); 1/6 x 1/2 x 2/3 = 1/18. Never at a stand and shoot (L964).
    w.status("a", "throwing_at_contact", "has_moved")
    assert w.volley(3)[1] == F(1, 18)
    t = Duel(tmp_path, a={"profile": "missile_troops/dart_thrower"})
    assert t.call("ready_at_charge", t="a") == []


def test_a_stationary_sling_unit_shoots_twice_at_9_inches(tmp_path: Path) -> None:
    # L986-L988: two shots a model at 9" or less if the unit has not moved; one otherwise, and
    # one at a stand and shoot.
    w = Duel(tmp_path, a={"profile": "missile_troops/slinger"})
    assert w.call("shooting_attacks", attacker="a", target="b", inches=9)[0][1] == 20
    assert w.call("shooting_attacks", attacker="a", target="b", inches=12)[0][1] == 10
    w.status("a", "has_moved")
    assert w.call("shooting_attacks", attacker="a", target="b", inches=9)[0][1] == 10


def test_the_blowpipe_hits_at_a_strength_of_d6(tmp_path: Path) -> None:
    # L994-L995: each hit at a Strength of D6 against T3: 6, 5, 4, 3, 2, 2 to damage, so
    # (1 + 2 + 3 + 4 + 5 + 5) / 36 = 5/9; BS 3 at 4" (4 to hit, 1/2), an unarmoured target:
    # 5/18.
    w = Duel(tmp_path, a={"profile": "missile_troops/blowpiper"})
    assert w.volley(4)[1] == F(5, 18)


def test_an_improvised_missile_is_the_throwers_strength_less_2(tmp_path: Path) -> None:
    # L1000: S3 - 2 = S1 against T3 needs 6 (1/6); 3" range; BS 3 at 1": 1/2 x 1/6 = 1/12.
    w = Duel(tmp_path, a={"profile": "missile_troops/stone_thrower_mob"})
    assert w.volley(1)[1] == F(1, 12)
    assert w.call("shooting_attacks", attacker="a", target="b", inches=4) == []


def test_the_arquebus_pierces_by_range_and_misfires_on_a_1(tmp_path: Path) -> None:
    # L1007-L1013: S4 (3 to damage, 2/3); a 4 save at -2 within 6" (a 6: 5/6 fail), -1 within
    # 12" (a 5: 2/3), none beyond; beyond 12" -1 to hit (5: 1/3).
    w = Duel(tmp_path, a={"profile": "missile_troops/arquebusier"}, b=ARMOURED)
    assert w.volley(5)[1] == F(1, 2) * F(2, 3) * F(5, 6)
    assert w.volley(10)[1] == F(1, 2) * F(2, 3) * F(2, 3)
    assert w.volley(20)[1] == F(1, 3) * F(2, 3) * F(1, 2)
    # a natural 1 to hit is a misfire (1/6 of shots), counted by the gun's chain
    rt = w.runtime
    seq = rt.sequences["gun_attack"]
    weapon = w.unit("a").weapons[0]
    dist = seq.exact(lambda ch: rt.env(ch, w.battle.options, [], w.state),
                     {"shooter": w.unit("a"), "target": w.unit("b"), "weapon": weapon, "inches": 5})
    assert sum((p for o, p in dist.items() if any(o.tallies)), F(0)) == F(1, 6)
    # it does not move and fire, nor fire two turns running (L1007-L1008)
    w.status("a", "fired_recently")
    assert w.call("shooting_attacks", attacker="a", target="b", inches=10) == []


def test_the_blunderbuss_falls_off_past_8_inches(tmp_path: Path) -> None:
    # L1017-L1024: up to 8" S3 (4: 1/2) with -2 save (a 6: 5/6); over 8" S1 (6: 1/6), no
    # modifier (4: 1/2), and over half its 16" -1 to hit (5: 1/3).
    w = Duel(tmp_path, a={"profile": "missile_troops/blunderbusser"}, b=ARMOURED)
    assert w.volley(6)[1] == F(1, 2) * F(1, 2) * F(5, 6)
    assert w.volley(12)[1] == F(1, 3) * F(1, 6) * F(1, 2)


def test_the_pistol_moves_and_fires_but_not_two_turns_running(tmp_path: Path) -> None:
    # L1029-L1031: 6", S4 (2/3), -1 save (a 5: 2/3); it may move and fire (-1 to hit, L305:
    # 5 needed), not the turn after firing.
    w = Duel(tmp_path, a={"profile": "missile_troops/pistolier"}, b=ARMOURED)
    assert w.volley(3)[1] == F(1, 2) * F(2, 3) * F(2, 3)
    w.status("a", "has_moved")
    assert w.volley(3)[1] == F(1, 3) * F(2, 3) * F(2, 3)
    w.status("a", "fired_recently")
    assert w.call("shooting_attacks", attacker="a", target="b", inches=3) == []


def test_a_pistol_fired_in_close_combat(tmp_path: Path) -> None:
    # L1034-L1038: at the firer's WS, -1 to hit (WS 3 against 3: 6, 1/6), the pistol's S4 (2/3)
    # and -2 save (heavy armour and shield: a 6, 5/6 fail): 5/54.
    w = Duel(tmp_path, a={"profile": "missile_troops/pistolier"}, b=ARMOURED)
    w.status("a", "pistol_shot")
    assert w.damage() == F(1, 6) * F(2, 3) * F(5, 6)


def test_a_grenade_lands_on_13_to_19(tmp_path: Path) -> None:
    # L1046-L1047: the D20 lands the grenade on its point on 13-19 (7/20); S3 (1/2), -2 save
    # (4 becomes 6: 5/6): 7/48. Torinoko: S2 (5: 1/3), a 4 save (1/2): 7/120.
    w = Duel(tmp_path, a={"profile": "missile_troops/grenadier"}, b=ARMOURED)
    weapon = w.unit("a").weapons[0]
    assert w.damage("grenade_attack", weapon=weapon, inches=4) == F(7, 20) * F(1, 2) * F(5, 6)
    t = Duel(tmp_path, a={"profile": "missile_troops/ninja"}, b=ARMOURED)
    assert t.damage("grenade_attack", weapon=t.unit("a").weapons[0], inches=4) == F(7, 20) * F(1, 3) * F(1, 2)
    # thrown only by a unit that has not moved (L1043)
    w.status("a", "has_moved")
    assert w.call("shooting_attacks", attacker="a", target="b", inches=4) == []


# ============================================================== hand-to-hand weapons on foot


def test_a_hand_weapon_has_no_modifier(tmp_path: Path) -> None:
    # L849: 1/3 to hit, 1/2 to damage, the 4 save fails 1/2: 1/12; Initiative 3.
    w = Duel(tmp_path, a={"equipment": ["hand_weapon"]}, b=ARMOURED)
    assert w.damage() == F(1, 12)
    assert w.value("a", "I") == 3


def test_an_improvised_weapon(tmp_path: Path) -> None:
    # L852-L853: -1 to hit (a 6: 1/6); the armoured enemy +1 save (4 becomes 3: 1/3 fail):
    # 1/6 x 1/2 x 1/3 = 1/36.
    w = Duel(tmp_path, a={"equipment": ["improvised_weapon"]}, b=ARMOURED)
    assert w.damage() == F(1, 36)


def test_a_dagger(tmp_path: Path) -> None:
    # L856-L858: +1 I (4), S -1 (S2 against T3: 5, 1/3), +1 save (3: 1/3 fail): 1/27.
    w = Duel(tmp_path, a={"equipment": ["dagger"]}, b=ARMOURED)
    assert w.damage() == F(1, 3) * F(1, 3) * F(1, 3)
    assert w.value("a", "I") == 4


def test_a_double_handed_weapon(tmp_path: Path) -> None:
    # L861-L865: -1 I (2), +1 S (S4: 3, 2/3), -1 save (5: 2/3 fail): 1/3 x 2/3 x 2/3 = 4/27.
    # Its user has no shield: heavy armour alone saves on 5, so a plain blow at him wounds
    # 1/3 x 1/2 x 2/3 = 1/9 (L861, L365).
    w = Duel(tmp_path, a={"equipment": ["double_handed_weapon"]}, b=ARMOURED)
    assert w.damage() == F(4, 27)
    assert w.value("a", "I") == 2
    v = Duel(tmp_path, b={"equipment": ["double_handed_weapon", "heavy_armour", "shield"]})
    assert v.damage() == F(1, 9)


def test_a_flail_needs_ws_3(tmp_path: Path) -> None:
    # L868-L870: WS 3: +1 S (2/3): 1/3 x 2/3 x 1/2 = 1/9; -1 I the round after a push-back.
    # WS 2 counts as improvised: WS 2 against 3 needs 5, -1: a 6 (1/6); S3 (1/2); +1 save
    # (1/3 fail): 1/36.
    w = Duel(tmp_path, a={"equipment": ["flail"]}, b=ARMOURED)
    assert w.damage() == F(1, 9)
    w.status("a", "recoiled")
    assert w.value("a", "I") == 2
    weak = Duel(tmp_path, a={"equipment": ["flail"]}, b=ARMOURED)
    weak.unit("a").profile["WS"] = 2
    assert weak.damage() == F(1, 36)


def test_a_flail_charges_at_its_normal_move(tmp_path: Path) -> None:
    # L872: a flail unit charges (and pursues) at its move, not double: M4 -> 4", a plain
    # unit 8" (L410).
    w = Duel(tmp_path, a={"equipment": ["flail"]})
    assert w.call("charge_reach", u="a") == 4
    assert Duel(tmp_path).call("charge_reach", u="a") == 8


def test_a_halberd(tmp_path: Path) -> None:
    # L874-L877: +1 S (2/3): 1/9; +1 I against mounted foes until pushed back; no shield.
    w = Duel(tmp_path, a={"equipment": ["halberd"]}, b=ARMOURED)
    assert w.damage() == F(1, 9)
    assert w.value("a", "I") == 3
    m = Duel(tmp_path, a={"equipment": ["halberd"]}, b={"values": {"riding_animal": True}})
    m.engage()
    assert m.value("a", "I") == 4
    m.status("a", "driven_back")
    assert m.value("a", "I") == 3


def test_a_net(tmp_path: Path) -> None:
    # L880-L882: its bearer saves as with a shield (light armour and net: 5, L351) and its
    # attackers are -1 to hit (a 6): 1/6 x 1/2 x 2/3 = 1/18.
    w = Duel(tmp_path, b={"equipment": ["net", "light_armour"]})
    assert w.damage() == F(1, 18)


def test_a_pike(tmp_path: Path) -> None:
    # L889-L892 (WE-44, WE-46): +3 I, +6 against cavalry, none once pushed back; a frontage of 6 fights with
    # 6 + 3 + 2 + 1 = 12 models (the L892 example), one rank once pushed back.
    w = Duel(tmp_path, a={"equipment": ["pike"], "models": 24, "files": 6},
              b={"values": {"riding_animal": True}})
    assert w.value("a", "I") == 6
    assert w.call("melee_attacks", attacker="a", target="b") == 12
    w.engage()
    assert w.value("a", "I") == 9
    w.status("a", "driven_back")
    assert w.value("a", "I") == 3
    assert w.call("melee_attacks", attacker="a", target="b") == 6


def test_a_spear(tmp_path: Path) -> None:
    # L896-L899 (WE-47): +1 I in the first round, +2 more against mounted foes until pushed back; a
    # second rank of 8 gives 4 more blows (the L899 example).
    w = Duel(tmp_path, a={"equipment": ["spear", "shield"], "models": 16, "files": 8},
              b={"values": {"riding_animal": True}})
    assert w.call("melee_attacks", attacker="a", target="b") == 12
    w.status("a", "first_round")
    assert w.value("a", "I") == 4
    w.engage()
    assert w.value("a", "I") == 6


def test_two_hand_weapons(tmp_path: Path) -> None:
    # L846-L847: an attack with each hand (A 2), the right hand's at -1 (a 6: 1/6), the
    # left's at -2 (WS 3 against 3 needs 5; -2 moves it along the scale to "+4", a 6 and then
    # a 4: 1/12, README's plus_modifiers).
    w = Duel(tmp_path, a={"equipment": ["two_hand_weapons"]}, b=ARMOURED)
    assert w.value("a", "A") == 2
    assert w.damage() == F(1, 6) * F(1, 2) * F(1, 2)
    w.status("a", "off_hand")
    assert w.damage() == F(1, 12) * F(1, 2) * F(1, 2)


# ============================================================== weapons used mounted


MOUNTED = {"values": {"riding_animal": True}}


def test_a_mounted_hand_weapon_is_plus_1_against_foot(tmp_path: Path) -> None:
    # L903-L904: +1 to hit foot troops (4: 1/2), not after being pushed back last round.
    w = Duel(tmp_path, a={"equipment": ["hand_weapon"], **MOUNTED}, b=ARMOURED)
    assert w.damage() == F(1, 2) * F(1, 2) * F(1, 2)
    w.status("a", "recoiled")
    assert w.damage() == F(1, 3) * F(1, 2) * F(1, 2)


def test_two_handed_weapons_are_improvised_when_mounted(tmp_path: Path) -> None:
    # L907-L908: a halberd used mounted is improvised: -1 to hit (a 6), no +1 S, +1 save
    # (a 3: 1/3 fail): 1/36.
    w = Duel(tmp_path, a={"equipment": ["halberd"], **MOUNTED}, b=ARMOURED)
    assert w.damage() == F(1, 6) * F(1, 2) * F(1, 3)


def test_a_mounted_dagger(tmp_path: Path) -> None:
    # L911-L913: +1 I, -1 S, +1 save, mounted as on foot.
    w = Duel(tmp_path, a={"equipment": ["dagger"], **MOUNTED}, b=ARMOURED)
    assert w.value("a", "I") == 4
    assert w.damage() == F(1, 3) * F(1, 3) * F(1, 3)


def test_a_mounted_flail_needs_ws_4(tmp_path: Path) -> None:
    # L916-L918: WS 3 is improvised (1/36 as above); WS 4 against 3 needs 4 (1/2), +1 S
    # (2/3), a 4 save (1/2): 1/6; -1 I after the first round.
    w = Duel(tmp_path, a={"equipment": ["flail"], **MOUNTED}, b=ARMOURED)
    assert w.damage() == F(1, 36)
    w.unit("a").profile["WS"] = 4
    assert w.damage() == F(1, 6)
    assert w.value("a", "I") == 2
    w.status("a", "first_round")
    assert w.value("a", "I") == 3


def test_a_lance_in_the_first_round(tmp_path: Path) -> None:
    # L921-L924: in the first round +2 I and +2 S (S5 against T3: 2, 5/6), and -1 save from a
    # charging lancer (a 5: 2/3 fail); a knight's WS 3 against 3 needs 5 (1/3), the charge +1
    # (4: 1/2): 1/2 x 5/6 x 2/3 = 5/18. Later rounds: no bonus.
    w = Duel(tmp_path, a={"equipment": ["lance"], **MOUNTED}, b=ARMOURED)
    w.status("a", "first_round", "charged")
    assert w.value("a", "I") == 5
    assert w.damage() == F(5, 18)
    later = Duel(tmp_path, a={"equipment": ["lance"], **MOUNTED}, b=ARMOURED)
    assert later.value("a", "I") == 3
    assert later.damage() == F(1, 3) * F(1, 2) * F(1, 2)


def test_a_mounted_spear(tmp_path: Path) -> None:
    # L927-L929: +1 I in the first round; +1 to hit foot troops; +1 S charging. A charging
    # spearman: +2 to hit (3: 2/3), S4 (2/3), a 4 save (1/2): 2/9.
    w = Duel(tmp_path, a={"equipment": ["spear"], **MOUNTED}, b=ARMOURED)
    w.status("a", "first_round", "charged")
    assert w.value("a", "I") == 4
    assert w.damage() == F(2, 3) * F(2, 3) * F(1, 2)


# ============================================================== weapons in the battle


def test_misfires_strike_the_firers(tmp_path: Path) -> None:
    # L1013: ten arquebusiers roll 1s to hit: ten misfires, each an S4 hit on their own unit
    # (3 to damage, scripted 6s; no armour, no save): all ten fall, none of the target.
    w = Duel(tmp_path, a={"profile": "missile_troops/arquebusier"})
    w.call("shoot", [1] * 10 + [6] * 10, u="a", t="b", inches=5)
    assert w.logs("misfires") == [["a", 10]]
    assert w.unit("a").models == 0 and w.unit("b").models == 10
    # having fired, it may not fire in its following turn (L1008)
    assert "fired_recently" in w.unit("a").statuses


def test_javelins_are_thrown_as_the_charge_meets(tmp_path: Path) -> None:
    # L965-L967: ten javelineers charged (files 5: a front rank of 5) throw first: 5 throws at
    # -1 as they close and -1 for firing at chargers (BS 3: 4 becomes a 6): scripted 6s hit, 6s
    # damage (S3 against T3); the wounds count in the round's result.
    w = Duel(tmp_path, a={"profile": "missile_troops/javelineer"})
    w.state.active_side = "b"
    w.call("complete_charge", [6] * 5 + [6] * 5, u="b", t="a")
    assert w.logs("throws before contact") == [["a", "b", "javelin"]]
    assert w.unit("b").models == 5
    assert w.unit("b") in w.unit("a").engaged


def test_the_pitched_battle_fights_with_its_weapons_on_its_terrain() -> None:
    # battles/battle.yaml on its seed: the skirmishing bowmen (L1313) and the Goblins' short
    # bows (L938) shoot; the Goblins shoot at the skirmishers in the wood, in cover (L287);
    # charged by Ogres, the skirmishers run away (L1324).
    from rules_run import open_battle
    from rules_run.engine.driver import run_battle
    root = Path(__file__).resolve().parents[2]
    _, runtime, battle = open_battle("wfb3", str(root / "rulesets/wfb3/battles/battle.yaml"))
    result = run_battle(runtime, battle, seed=battle.seed)
    logs = [(e.message, e.values[0]) for e in result.events if e.kind == "log"]
    assert {("shoots at", "skirmishers"), ("shoots at", "goblin_archers"), ("runs away", "skirmishers")} <= set(logs)
    covered = {e.unit for e in result.events if e.kind == "status" and e.status.startswith("in_cover")}
    assert "skirmishers" in covered
