"""The wfb8 Lores of Magic beyond Fire and Beasts, and spells that remain in play, run
through the ruleset's own declarations (magic.rules, magic/spells.yaml). Seed lines are
``000_c4300f58fce5f1da.txt``; basic casting values are not in the seed (README)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from helpers.wfb8_world import World, unit
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.records import fields


def world(tmp_path: Path, lore: str, level: int = 2, orcs: dict | None = None,
          **spec: Any) -> World:
    """A Wizard of that lore, Knights beside him, 20 Orc Boyz 16" ahead and an Orc Shaman."""
    return World(tmp_path, [
        unit("wizard", "empire", 36, 8, profile="empire/battle_wizard", models=1,
             values={"wizard_level": level, "lore": lore}, **spec),
        unit("knights", "empire", 50, 10, profile="empire/knight", models=5),
        unit("orcs", "orcs", 36, 24, 180, **{"profile": "orcs/orc_boy", "models": 20,
                                              **(orcs or {})}),
        unit("shaman", "orcs", 20, 40, 180, profile="orcs/orc_shaman", models=1,
             values={"wizard_level": 1, "lore": "beasts"})])


def attacks(w: World, target: str) -> int:
    """How many hits the last spell put through a sequence at the target."""
    return sum(e.attacks for e in w.events if e.kind == "attacks" and e.target == target)


def stat(w: World, uid: str, name: str) -> Any:
    return w.runtime.characteristic(w.env(), w.unit(uid), name)


def test_known_spells_come_from_the_wizard_s_lore(tmp_path: Path) -> None:
    # L216, L230: the Signature Spell and as many more as the level, lowest numbers first.
    assert world(tmp_path, "death").call("known_spells", w="wizard") == [
        "spirit_leech", "dreadknight", "caress_of_laniph"]
    assert world(tmp_path, "light", 1).call("known_spells", w="wizard") == [
        "burning_gaze", "phas_protection"]


def test_the_burning_gaze_burns_the_unholy_twice_as_much(tmp_path: Path) -> None:
    # L1301: D6 Strength 4 hits, 2D6 against Daemonic, Undead or Vampiric models.
    w = world(tmp_path, "light")
    w.call("resolve_spell", {"*": [3, 4] + [1] * 40}, s="burning_gaze", w="wizard",
           target="orcs", result=6)
    assert attacks(w, "orcs") == 3
    u = world(tmp_path, "light", orcs={"rules": ["Undead"]})
    u.call("resolve_spell", {"*": [3, 4] + [1] * 40}, s="burning_gaze", w="wizard",
           target="orcs", result=6)
    assert attacks(u, "orcs") == 7


def test_lore_of_metal_is_easier_against_armour_and_searing_doom_wounds_on_it(
        tmp_path: Path) -> None:
    # L1315: one less to cast at light or medium armour, two less at heavy armour; Gehenna's
    # Golden Hounds is 8+ here (not in seed). L1317: Searing Doom wounds on the target's own
    # armour save: Orc Boyz in light armour and shield (6+, +1) are wounded on 5+.
    w = world(tmp_path, "metal", orcs={"equipment": ["hand_weapon", "shield", "light_armour"]})
    assert w.call("casting_value", s="golden_hounds", target="orcs") == 7
    assert w.call("casting_value", s="golden_hounds", target="knights") == 6
    w.call("resolve_spell", {"*": [2] + [5, 4] + [1] * 10}, s="searing_doom", w="wizard",
           target="orcs", result=10)
    assert [t.need for t in w.tests("wound_on_score")] == [5, 5]
    assert w.unit("orcs").models == 19


def test_timewarp_iceshard_and_enfeebling_foe_change_characteristics(tmp_path: Path) -> None:
    # L1313: Move doubled, Initiative 10, +1 Attack. L1269: -1 WS, BS and Ld. L1337: Strength
    # less D3, never below 1 (L272).
    w = world(tmp_path, "light")
    w.call("resolve_spell", {}, s="bironas_timewarp", w="wizard", target="wizard", result=10)
    assert (stat(w, "wizard", "M"), stat(w, "wizard", "I"), stat(w, "wizard", "A")) == (8, 10, 2)
    w.call("resolve_spell", {}, s="iceshard_blizzard", w="wizard", target="orcs", result=6)
    assert (stat(w, "orcs", "WS"), stat(w, "orcs", "BS"), stat(w, "orcs", "Ld")) == (2, 2, 6)
    w.call("resolve_spell", {"*": [3]}, s="enfeebling_foe", w="wizard", target="orcs", result=8)
    assert stat(w, "orcs", "S") == 1                     # S3 less 3, held at 1


def test_a_spell_remaining_in_play_is_dispelled_later_against_its_basic_value(
        tmp_path: Path) -> None:
    # L318-L320: Doom and Darkness (-3 Ld, L1245; basic 9+, not in seed) cast at 12 stays;
    # its caster may not cast it again while it lasts. In the Orcs' next Magic phase the
    # Shaman dispels it with 3 of their power dice, needing only 9 (not 12):
    # 4 + 3 + 1, +1 for Level 1 = 9.
    w = world(tmp_path, "death", level=4)
    w.call("resolve_spell", {}, s="doom_and_darkness", w="wizard", target="orcs", result=12)
    assert stat(w, "orcs", "Ld") == 4
    assert [fields(p, "caster", "spell") for p in w.call("spells_in_play")] == [
        (w.unit("wizard"), "doom_and_darkness")]
    assert "doom_and_darkness" not in w.call("castable", w="wizard")
    env = w.env({"dispel_roll": [4, 3, 1]})
    BUILTINS["add_counter"](w.state, env, None, "power_dice", "orcs", 3)
    w.state.active_side = "orcs"
    w.runtime.invoke("dispel_spells_in_play", env, {"side": "orcs"})
    assert w.logs("dispels") == [["shaman", 9, True]]
    assert w.call("spells_in_play") == [] and stat(w, "orcs", "Ld") == 7


def test_a_spell_in_play_ends_with_its_caster_and_thorns_hurt_at_the_phase_end(
        tmp_path: Path) -> None:
    # L1293: Shield of Thorns on the Knights; at the end of each Magic phase every enemy in
    # base contact with them takes 2D6 Strength 3 hits. L318: it ends when its caster falls.
    w = world(tmp_path, "life", level=4)
    env = w.env()
    BUILTINS["engage"](w.state, env, None, w.unit("knights"), w.unit("orcs"))
    w.call("resolve_spell", {}, s="shield_of_thorns", w="wizard", target="knights", result=9)
    w.call("thorns", {"*": [2, 3] + [1] * 20})
    assert w.logs("thorns") == [["knights", "orcs"]] and attacks(w, "orcs") == 5
    w.unit("wizard").models = 0
    w.call("end_lost_spells", {})
    assert w.call("spells_in_play") == [] and "thorned" not in w.unit("knights").statuses


def test_a_sniper_picks_out_a_character_in_a_unit(tmp_path: Path) -> None:
    # L761: a character joined to a unit of five or more is no target of its own; a Sniper
    # may pick him out (L382, L729; not in seed: 8th edition).
    def targets(rules: list[str]) -> list[str]:
        w = World(tmp_path, [
            unit("guns", "empire", 36, 8, profile="empire/handgunner", models=5, rules=rules),
            unit("boyz", "orcs", 36, 24, 180, profile="orcs/orc_boy", models=10),
            unit("boss", "orcs", 36, 24, 180, profile="orcs/orc_big_boss", models=1,
                 values={"joined_to": "boyz"})])
        w.call("join_characters")
        return [u.id for u in w.call("shooting_targets", u="guns")]

    assert targets([]) == ["boyz"]
    assert targets(["Sniper"]) == ["boyz", "boss"]


def test_the_aspect_of_the_dreadknight_gives_fear_then_terror(tmp_path: Path) -> None:
    # L1239: the target causes Fear; Terror if it causes Fear already (or boosted, 9+).
    w = world(tmp_path, "death")
    assert not w.call("causes_fear", x="knights")
    w.call("resolve_spell", {}, s="dreadknight", w="wizard", target="knights", result=6)
    assert w.call("causes_fear", x="knights") and not w.call("causes_terror", x="knights")
    w.call("resolve_spell", {}, s="dreadknight", w="wizard", target="knights", result=6)
    assert w.call("causes_terror", x="knights")


def test_okkam_s_mindrazor_wounds_with_leadership_and_saves_against_strength(
        tmp_path: Path) -> None:
    # L1345: Knights (S3, Ld8) wound Orcs (T4) with their Leadership: S8 against T4, 2+;
    # the Orcs' armour save is still worsened by the real Strength 3 (none), so a 5+ stays.
    w = world(tmp_path, "shadow", orcs={"equipment": ["hand_weapon", "shield", "light_armour"]})
    knights = {"attacker": "knights", "target": "orcs"}
    assert w.call("to_wound", {"to_wound": [6]}, **knights).need == 5
    w.unit("knights").gain_status("mindrazored", None,
                                  w.runtime.status_instance("mindrazored", {}))
    assert w.call("to_wound", {"to_wound": [6]}, **knights).need == 2
    assert w.call("armour_save", {"armour_save": [6]}, target="orcs", attacker="knights",
                  melee=False).need == 5


def test_a_steadied_unit_passes_every_leadership_test_unrolled(tmp_path: Path) -> None:
    # L1307: "passes all Leadership tests": `pass every leadership` reaches each test that
    # reuses it, the reform test too; with no dice scripted, a rolled test would run out
    w = World(tmp_path, [unit("men", "empire", 36, 10)])
    BUILTINS["apply"](w.state, w.env(), None, "steadied", w.unit("men"))
    for test in ["leadership", "break_test", "panic_test", "rallying_test", "march_test",
                 "restraint_test", "fear_ld_test", "terror_test", "stupidity_test",
                 "reform_test"]:
        args = {"lost_by": 9} if test == "break_test" else {}
        assert w.call(test, [], unit="men", **args).passed, test


def test_the_rules_a_spells_status_gives_are_carried_while_it_lasts(tmp_path: Path) -> None:
    # L1239 Fear (Terror, which causes Fear), L1247 Stupidity, L1257 Magical and Flaming
    # Attacks, L1305 Always Strikes First, L1321 Magical Attacks: each status grants them
    w = World(tmp_path, [unit("men", "empire", 36, 10)])
    men = w.unit("men")
    names = ["Fear", "Terror", "Stupidity", "Magical Attacks", "Flaming Attacks",
             "Always Strikes First", "First Strike"]
    for status, rules in [("dreadful", ["Fear"]), ("terrifying", ["Fear", "Terror"]),
                          ("witless", ["Stupidity"]),
                          ("flaming_sword", ["Magical Attacks", "Flaming Attacks"]),
                          ("quickened", ["First Strike"]),
                          ("blessed_blades", ["Magical Attacks"])]:
        BUILTINS["apply"](w.state, w.env(), None, status, men)
        assert [r for r in names if w.runtime.has_rule(w.env(), men, r)] == \
            [r for r in names if r in rules], status
        assert (w.call("causes_fear", x="men"), w.call("causes_terror", x="men"),
                w.call("strikes_first", x="men")) == (
            "Fear" in rules, "Terror" in rules, "First Strike" in rules), status
        BUILTINS["clear"](w.state, w.env(), None, status, men)
    assert [r for r in names if w.runtime.has_rule(w.env(), men, r)] == []


def test_the_banishment_re_rolls_passed_ward_saves(tmp_path: Path) -> None:
    # L1311: the Banishment's hits are a hit's parameter, not a status on the target; a
    # passed 4+ ward is re-rolled: 1/2 x 1/2 = 1/4 saved. A 5 passes, the re-roll's 2 fails.
    w = world(tmp_path, "light", orcs={"rules": ["Ward Save (4+)"]})
    assert w.exact("ward_save", target="orcs").probability(True) == Fraction(1, 2)
    assert w.exact("ward_save", target="orcs", wards_rerolled=True).probability(
        True) == Fraction(1, 4)
    assert not w.call("ward_save", {"ward_save": [5, 2]}, target="orcs", wards_rerolled=True)
    assert [(e.dice, e.rerolled, e.rerolled_by) for e in w.tests("ward_save")] == [
        ([2], True, ["ward_save"])]


def test_a_flaming_hit_allows_no_regeneration(tmp_path: Path) -> None:
    # L1251: Regeneration (4+) saves half the wounds, none from a Flaming hit; a 4+ ward
    # still stands.
    w = world(tmp_path, "fire", orcs={"rules": ["Regeneration (4+)", "Ward Save (4+)"]})
    assert w.exact("regeneration_save", target="orcs").probability(True) == Fraction(1, 2)
    assert w.exact("regeneration_save", target="orcs", flaming=True).probability(True) == 0
    assert w.exact("ward_save", target="orcs", flaming=True).probability(True) == Fraction(1, 2)


def test_a_spell_s_roll_of_its_hits_cites_the_spell_s_own_row(tmp_path: Path) -> None:
    # spells.yaml's `cites`: the one roll of a spell's hits cites each spell's seed line.
    w = world(tmp_path, "beasts")
    w.call("spell_of_hits", {"*": [1] * 40}, s="flock_of_doom", w="wizard", target="orcs")
    w.call("spell_of_hits", {"*": [1] * 40}, s="urannons_thunderbolt", w="wizard", target="orcs")
    assert [e.cite for e in w.events if e.kind == "roll" and e.rule == "spell_hit_dice"] == [
        "000_c4300f58fce5f1da.txt L1223", "000_c4300f58fce5f1da.txt L1277"]


def test_the_light_of_battle_rallies_a_unit_and_the_wizard_with_it(tmp_path: Path) -> None:
    # L1307: a fleeing unit rallies and passes every Leadership test, the characters joined
    # to it too (spells.yaml: whole_unit, rallies); the Orcs, not its target, stay as they are.
    w = World(tmp_path, [
        unit("knights", "empire", 50, 10, profile="empire/knight", models=5),
        unit("wizard", "empire", 50, 10, profile="empire/battle_wizard", models=1,
             values={"wizard_level": 2, "lore": "light"}),
        unit("orcs", "orcs", 36, 30, 180, profile="orcs/orc_boy", models=20)])
    BUILTINS["attach"](w.state, w.env(), None, w.unit("wizard"), w.unit("knights"))
    for uid in ("knights", "wizard", "orcs"):
        BUILTINS["apply"](w.state, w.env(), None, "fleeing", w.unit(uid))
    w.call("resolve_spell", {}, s="light_of_battle", w="wizard", target="knights", result=8)
    assert [sorted({"fleeing", "steadied"} & set(w.unit(u).statuses))
            for u in ("knights", "wizard", "orcs")] == [["steadied"], ["steadied"], ["fleeing"]]
