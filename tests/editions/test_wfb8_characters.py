"""Characters joined to units in wfb8 (seed 000 L741-L799): blows at a joined character in
close combat (L767), the unit left with no rank-and-file (L775)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.wfb8_world import World, unit
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.records import fields


def combined(tmp_path: Path, character: str = "empire/battle_wizard", **extra: Any) -> World:
    """Ten Halberdiers (a, five files) with a character (c) joined, engaged by ten Orc Boyz
    (b, five files) in front."""
    w = World(tmp_path, [
        unit("a", "empire", 36, 10, equipment=["halberd", "light_armour"]),
        unit("c", "empire", 36, 10, profile=character, models=1, values={"joined_to": "a"}),
        unit("b", "orcs", 36, 14, 180, profile="orcs/orc_boy",
             equipment=["hand_weapon", "shield", "light_armour"]),
    ], **extra)
    w.call("join_characters")
    BUILTINS["engage"](w.state, w.env(), None, w.unit("b"), w.unit("a"))
    return w


def decisions(w: World, name: str) -> list[dict]:
    return [e for e in w.events if e.kind == "decision" and e.decision == name]


def test_the_joined_character_is_in_the_fight_but_not_the_units_place_in_it(
        tmp_path: Path) -> None:
    w = combined(tmp_path)
    a, b, c = w.unit("a"), w.unit("b"), w.unit("c")
    assert c.leader is a and c in b.engaged
    # even listed first, the character is not whom the Orcs strike or measure against:
    # the unit is (L767)
    b.engaged.sort(key=lambda u: u.id != "c")
    assert b.engaged[0] is c
    assert w.call("strike_target", x="b") is a
    assert w.call("primary_target", x="b") is a


def test_an_enemy_declares_how_many_blows_go_at_the_character(tmp_path: Path) -> None:
    # L767: the Orcs put 2 of their 5 blows on the Wizard, declared before any die is rolled;
    # only the 3 models touching it may (character_contact_models), so 0..3 are offered
    w = combined(tmp_path)
    w.state.orders = [{"decision": "attack_character", "unit": "b", "choose": 2}]
    dice = {"to_hit": [4, 4, 1, 1, 1], "to_wound": [6, 1], "*": [1] * 20}
    blows = w.call("aimed_blows", dice, x="b", t="a", seq="melee_attack", attacks=5, each=1)
    asked = decisions(w, "attack_character")
    assert [d.options for d in asked] == [[0, 1, 2, 3]]
    assert asked[0].why == "scripted order"
    assert [(x.id, t.id, n) for x, t, n in (fields(b, "striker", "foe", "struck") for b in blows)
            ] == [("b", "c", 1), ("b", "a", 0)]
    attacks = [(e.target, e.attacks) for e in w.events if e.kind == "attacks"]
    assert attacks == [("c", 2), ("a", 3)]
    assert w.logs("blows at the character") == [["b", "c", 2]]


def test_every_blow_at_the_character_leaves_none_for_the_unit(tmp_path: Path) -> None:
    w = combined(tmp_path)
    w.state.orders = [{"decision": "attack_character", "unit": "b", "choose": 3}]
    blows = w.call("aimed_blows", {"*": [1] * 20}, x="b", t="a", seq="melee_attack",
                   attacks=3, each=1)
    assert [(t.id, n) for t, n in (fields(b, "foe", "struck") for b in blows)] == [("c", 0)]
    assert [e.target for e in w.events if e.kind == "attacks"] == ["c"]


def test_the_contact_option_bounds_the_blows_at_the_character(tmp_path: Path) -> None:
    w = combined(tmp_path, options={"character_contact_models": 1})
    w.call("aimed_blows", {"*": [1] * 20}, x="b", t="a", seq="melee_attack", attacks=5, each=2)
    assert [d.options for d in decisions(w, "attack_character")] == [[0, 1, 2]]


def test_the_default_policy_aims_at_a_character_it_can_slay_no_tougher_than_its_unit(
        tmp_path: Path) -> None:
    # the Wizard (T3, W2) among Halberdiers (T3): three blows can reach him: all three go
    w = combined(tmp_path)
    w.call("aimed_blows", {"*": [1] * 20}, x="b", t="a", seq="melee_attack", attacks=5, each=1)
    assert [(d.choice, d.why) for d in decisions(w, "attack_character")] == [
        (3, "policy aggressive")]
    # with one model touching him, one blow cannot slay his two Wounds: all at the unit
    w = combined(tmp_path, options={"character_contact_models": 1})
    w.call("aimed_blows", {"*": [1] * 20}, x="b", t="a", seq="melee_attack", attacks=5, each=1)
    assert [d.choice for d in decisions(w, "attack_character")] == [0]
    # the Captain (T4) is tougher than his Halberdiers (T3): all at the unit
    w = combined(tmp_path, character="empire/captain")
    w.call("aimed_blows", {"*": [1] * 20}, x="b", t="a", seq="melee_attack", attacks=5, each=1)
    assert [d.choice for d in decisions(w, "attack_character")] == [0]
    assert [e.target for e in w.events if e.kind == "attacks"] == ["a"]


def test_a_slain_characters_excess_wounds_are_lost(tmp_path: Path) -> None:
    # L767: 5 Wounds on the 2-Wound Wizard slay him; 3 are lost: none reach the Halberdiers
    # and only 2 count for the combat result (an overkill counts only in a challenge, L789)
    w = combined(tmp_path)
    w.call("deal", attacker="b", target="c", damage=5)
    assert w.unit("c").models == 0 and w.unit("a").models == 10
    assert w.state.counters[("wounds_caused", "b")] == 2
    assert w.logs("excess wounds are lost") == [["c", 3]]
    # a unit's own casualties count in full, as before
    w.call("deal", attacker="b", target="a", damage=3)
    assert w.unit("a").models == 7
    assert w.state.counters[("wounds_caused", "b")] == 5


# ============================================================== a unit with no rank-and-file


def alone(tmp_path: Path, models: int = 2, **extra: Any) -> World:
    """Two Halberdiers (a) with a Captain (c) joined, a friend (f) 4" away, Orc Boyz (b)
    12" off."""
    w = World(tmp_path, [
        unit("a", "empire", 36, 10, models=models, files=2),
        unit("c", "empire", 36, 10, profile="empire/captain", models=1,
             values={"joined_to": "a"}),
        unit("f", "empire", 44, 10),
        unit("b", "orcs", 36, 26, 180, profile="orcs/orc_boy"),
    ], **extra)
    w.call("join_characters")
    return w


def test_the_characters_left_alone_fight_on_and_everyone_near_tests_for_panic(
        tmp_path: Path) -> None:
    # L775: the last two Halberdiers fall to shooting: the Captain is a unit of his own, and
    # he and the friend 4" away test for Panic, though the unit was far below Unit Strength 10
    w = alone(tmp_path)
    w.call("remove_casualties", {"panic_test": [6, 6, 1, 1], "flee_distance": [2, 2]}, u="a", wounds=2, source="b")
    c = w.unit("c")
    assert w.unit("a").destroyed and c.leader is None and c.models == 1
    assert w.logs("is left as a unit of its own") == [["c", "a"]]
    assert sorted(t.units[0] for t in w.tests("panic_test")) == ["c", "f"]
    # a failed test (12 on Ld 8) makes the Captain flee
    assert w.logs("panics") == [["c"]] and "fleeing" in c.statuses
    # read as the destroyed-unit Panic of L516 instead, a unit that small panics nobody
    w = alone(tmp_path, options={"character_left_panic": "unit_strength_10"})
    w.call("remove_casualties", {}, u="a", wounds=2, source="b")
    assert not w.tests("panic_test")


def test_a_character_left_alone_in_close_combat_stays_in_the_fight(tmp_path: Path) -> None:
    w = alone(tmp_path)
    BUILTINS["engage"](w.state, w.env(), None, w.unit("b"), w.unit("a"))
    w.call("deal", {"panic_test": [1, 1]}, attacker="b", target="a", damage=2)
    c, b = w.unit("c"), w.unit("b")
    assert w.unit("a").destroyed and c.leader is None
    assert b in c.engaged and c in b.engaged
    # the friend tests; the Captain, in close combat, does not (panic_in_combat false)
    assert [t.units for t in w.tests("panic_test")] == [["f"]]


def test_a_joined_character_breaks_flees_and_rallies_with_its_unit(tmp_path: Path) -> None:
    # L755, L771: one Break test for the combined unit; the character flees with it and
    # rallies with it
    w = alone(tmp_path, models=10)
    BUILTINS["engage"](w.state, w.env(), None, w.unit("b"), w.unit("a"))
    a, c = w.unit("a"), w.unit("c")
    w.state.orders = [{"decision": "pursue", "unit": "b", "choose": "restrain"}]
    w.call("lose_combat", {"break_test": [6, 6], "restraint_test": [1, 1], "*": [3, 3]},
           losers=[a, c], winners=[w.unit("b")], margin=2)
    assert [t.units for t in w.tests("break_test")] == [["a"]]
    assert "fleeing" in a.statuses and "fleeing" in c.statuses and c.leader is a
    for u in (a, c):
        u.statuses.pop("fled_this_turn", None)
    w.state.active_side = "empire"
    w.call("compulsory_moves", {"rallying_test": [1, 1]})
    assert [t.units for t in w.tests("rallying_test")] == [["a"]]
    assert "fleeing" not in a.statuses and "fleeing" not in c.statuses


def test_a_unit_run_down_passes_the_wounds_left_over_to_its_characters(tmp_path: Path) -> None:
    # L470, L763: 3 Wounds on two Halberdiers (W1) and the Captain (W2): he keeps 1 Wound
    w = alone(tmp_path)
    w.call("run_down", target="a", wounds=3, source="b")
    assert w.unit("a").destroyed
    c = w.unit("c")
    assert c.models == 1 and w.call("wounds_left", u="c") == 1


# ============================================================== missiles and templates


def test_look_out_sir_keeps_templates_and_missiles_off_a_joined_character(
        tmp_path: Path) -> None:
    # L761, L765: in a unit of five or more, the Captain is no target of his own for a
    # breath weapon (a template, read as hits on a unit) or a magic missile
    w = World(tmp_path, [
        unit("a", "empire", 36, 10),
        unit("c", "empire", 36, 10, profile="empire/captain", models=1,
             values={"joined_to": "a"}),
        # Trolls (Line of Sight 2) see over the Halberdiers (1) to the Captain
        unit("b", "orcs", 36, 16, 180, profile="orcs/troll", models=3, files=3,
             rules=["Breath Weapon (4)"]),
        unit("s", "orcs", 28, 22, 180, profile="orcs/orc_shaman", models=1,
             values={"wizard_level": 1, "lore": "fire"}),
    ], battlefield={"width": 72, "depth": 48, "terrain": [
        # the Shaman's hill lets him see over the Halberdiers to the Captain (L29, L887)
        {"id": "hill", "kind": "hill", "name": "Hill", "at": {"x": 28, "y": 22},
         "size": {"w": 8, "h": 8}, "effects": ["Hill", "Line of Sight (2)"]}]})
    w.call("join_characters")
    a, c = w.unit("a"), w.unit("c")
    assert w.call("can_see", a="s", b="c")
    assert c not in w.call("spell_targets", w="s", s="fireball")
    assert a in w.call("spell_targets", w="s", s="fireball")
    # the Captain is in sight, listed first among the enemies and as near: the breath still
    # goes at the unit
    assert w.call("can_see", a="b", b="c")
    w.state.units.sort(key=lambda u: u.id != "c")
    w.call("breathe", {"template_hits": [2], "*": [1] * 10}, u="b")
    assert [v[:2] for v in w.logs("breathes")] == [["b", "a"]]
