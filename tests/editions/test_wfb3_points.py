"""wfb3 points values (seed 003_9d43467ba19595d2.txt, L743-L837, L1064-L1068, L1212, L1228,
L1756-L1760, L2184-L2201) and the result by the points of the troops left (L2136-L2139).

Every value goes through the ruleset's own pure actions (points.rules) on units built from
the seed's numbers; ``WE-nn`` names the digest's worked example (§11.7). The sums are worked
out by hand in the comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import wfb8_world

from rules_run import open_battle
from rules_run.chance import ScriptedChance
from rules_run.runtime.entities import Unit, Weapon

ROOT = Path(__file__).resolve().parents[2]
HUMAN = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7, "Int": 7,
         "Cl": 7, "WP": 7}
SHIELD = {"values": {"shield": True}}
LIGHT = {"values": {"armour": "light"}}
HEAVY = {"values": {"armour": "heavy"}}
BARDING = {"values": {"barding": True}}


@pytest.fixture(scope="module")
def rt():
    return open_battle("wfb3", str(ROOT / "rulesets/wfb3/battles/duel.yaml"))[1]


def weapon(name: str) -> Weapon:
    """A weapon by its id (the points table's key); its profile does not matter here."""
    return Weapon(name, {"Range": None, "Strength": None, "SaveMod": None}, [])


def model(*, points: float | None = 5, equipment: tuple[dict, ...] = (),
          weapons: tuple[str, ...] = (), command: dict | None = None, models: int = 1,
          rules: tuple[str, ...] = (), rt: Any = None, **values: Any) -> Unit:
    """A unit of the Human profile (L55-L58) whose data gives these named values (and these
    rules, bound by ``rt``)."""
    vals = dict(values)
    if points is not None:
        vals["points"] = points
    return Unit("u", "u", "a", dict(HUMAN), models, equipment=list(equipment),
                weapons=[weapon(w) for w in weapons], command=command or {}, values=vals,
                rules=[rt.bind_rule(r) for r in rules])


def call(rt, name: str, **args: Any) -> Any:
    return rt.invoke(name, rt.env(ScriptedChance([])), dict(args))


def points(rt, u: Unit) -> Any:
    return call(rt, "model_points", u=u)


# ============================================================== the tables (L771-L827)


def test_every_weapon_and_armour_cell_is_the_seeds(rt) -> None:
    # L771-L803 (weapons) and L806-L811 (armour), every printed cell.
    weapons = {"hand_weapon": 0, "two_hand_weapons": 1, "dagger": 1, "double_handed_weapon": 2,
               "flail": 1, "halberd": 2, "lance": 2, "net": 2, "pike": 1, "spear": 1,
               "blowpipe": 1, "bow": 2, "crossbow": 3, "throwing_dart": 1, "javelin": 1,
               "long_bow": 3, "repeating_crossbow": 4, "short_bow": 1, "sling": 1,
               "throwing_axe": 1, "throwing_knife": 1, "throwing_spear": 1, "arquebus": 3,
               "blunderbuss": 2, "grenade": 2, "torinoko": 1, "pistol": 2}
    table = rt.tables["weapon_points"]
    assert {k: table.lookup(k) for k in weapons} == weapons
    armour = rt.tables["armour_points"]
    assert [armour.lookup(k) for k in ("shield", "light", "heavy", "barding")] == [1, 2, 3, 4]


def test_the_equipment_multiplier_by_basic_cost(rt) -> None:
    # L813-L827: below 5 half, 5-10 standard, 10-20 x2, 21-30 x3, ... 91-100 x10, +1 per 10.
    rows = {2.5: 0.5, 4: 0.5, 5: 1, 10: 1, 11: 2, 20: 2, 21: 3, 30: 3, 31: 4, 40: 4, 41: 5,
            50: 5, 51: 6, 90: 9, 91: 10, 100: 10, 101: 11, 110: 11, 111: 12, 250: 25}
    assert {b: call(rt, "equipment_multiplier", basic=b) for b in rows} == rows


def test_the_basic_value_includes_a_hand_weapon(rt) -> None:
    # L769, L773: the basic hand weapon is free; a Human is 5 (L1066).
    assert points(rt, model()) == 5
    assert points(rt, model(weapons=("hand_weapon",))) == 5
    # L774: an additional hand weapon is paid for.
    assert points(rt, model(weapons=("hand_weapon", "two_hand_weapons"))) == 6


def test_hand_to_hand_weapons_carried_as_equipment_are_paid_for(rt) -> None:
    # L776-L782: a Human with a spear (1) is 6, with a halberd (2) 7; the hand weapon the
    # basic value includes is free (L773). Hand-to-hand weapons are equipment items of the
    # group close_combat (a model fights with one at a time, L843), each paid for.
    def armed(*ids: str) -> Unit:
        u = model(equipment=tuple({"alternative": "close_combat"} for _ in ids))
        u.item_ids = list(ids)
        return u
    assert points(rt, armed("hand_weapon", "spear")) == 6
    assert points(rt, armed("halberd")) == 7
    assert points(rt, armed("double_handed_weapon", "two_hand_weapons")) == 8


def test_men_and_goblins_in_light_armour_and_shield(rt) -> None:
    # L1757: men "armed with shield and light armour" are 8 each (5 + 2 + 1); L1758: Goblins
    # equipped the same are 4 (2 1/2 + 3 x 1/2, L813).
    assert points(rt, model(equipment=(LIGHT, SHIELD))) == 8
    assert points(rt, model(points=2.5, equipment=(LIGHT, SHIELD))) == 4


def test_dearer_creatures_pay_more_for_equipment(rt) -> None:
    # L813, L818: a basic value of 10-20 pays double: a creature of 12 with a bow (2) is 16;
    # an Ogre (40, L749, x4) with light armour (2) is 48.
    assert points(rt, model(points=12, weapons=("bow",))) == 16
    assert points(rt, model(points=40, equipment=(LIGHT,))) == 48


# ============================================================== riding animals (L829-L831)


def test_we67_a_knight_on_a_barded_warhorse(rt) -> None:
    # L829: heavy armour, lance, shield and barding: 5+3+2+1+4 = 15, doubled 30; without the
    # barding 11, doubled 22 (a mount without attacks adds nothing, L830).
    kit = dict(equipment=(HEAVY, SHIELD), weapons=("lance",), riding_animal=True)
    assert points(rt, model(**kit)) == 22
    assert points(rt, model(**{**kit, "equipment": (HEAVY, SHIELD, BARDING)})) == 30
    # WE-67, L831: the warhorse (6) has attacks: half its value, 3, is added: 33.
    knight = model(**{**kit, "equipment": (HEAVY, SHIELD, BARDING)}, mount_points=6,
                   mount_attacks=True)
    assert points(rt, knight) == 33


def test_we68_a_goblin_wolf_rider(rt) -> None:
    # WE-68, L831: a Goblin (2 1/2) with bow, light armour and shield at half cost (1 + 1 +
    # 1/2) is 5, doubled 10, and half the giant wolf's 7 is 3 1/2: 13 1/2, rounded up to 14.
    rider = model(points=2.5, equipment=(LIGHT, SHIELD), weapons=("bow",), riding_animal=True,
                  mount_points=7, mount_attacks=True)
    assert points(rt, rider) == 14


# ============================================================== command, elites, special troops


def test_we70_a_standard_bearer_costs_double(rt) -> None:
    # WE-70, L837: Humans at 7 each (5 + light armour 2): the standard bearer is 14. A unit of
    # ten with its standard among them: 9 x 7 + 14 = 77; with a musician too: 8 x 7 + 28 = 84.
    troop = dict(equipment=(LIGHT,))
    assert points(rt, model(**troop)) == 7
    assert call(rt, "unit_points", u=model(**troop), models=10) == 70
    assert call(rt, "unit_points", u=model(**troop, command={"standard": True}), models=10) == 77
    both = model(**troop, command={"standard": True, "musician": True})
    assert call(rt, "unit_points", u=both, models=10) == 84
    # the halves of a Goblin unit are rounded up once, for the unit: 9 Goblins of 2 1/2 are 23
    assert call(rt, "unit_points", u=model(points=2.5), models=9) == 23


def test_we73_an_elite_pays_its_basic_value_per_bonus(rt) -> None:
    # WE-73, L1228: a human +2 elite costs 5 + 2 x 5 = 15; the bonus costs at most 10 each
    # (a creature of 40 with +1 pays 10 more).
    assert points(rt, model(rt=rt, rules=("Elite Troops (2)",))) == 15
    assert points(rt, model(rt=rt, points=40, rules=("Elite Troops (1)",))) == 50
    # L1229: a mounted elite's extra points come after the doubling: (5 + 3) x 2 + 5 = 21.
    elite = model(rt=rt, rules=("Elite Troops (1)",), equipment=(HEAVY,), riding_animal=True)
    assert points(rt, elite) == 21


def test_berserkers_cost_five_more_after_equipment(rt) -> None:
    # L1212: +5 added after the points for equipment: a Human with a shield, 6 + 5 = 11.
    assert points(rt, model(equipment=(SHIELD,), surcharge=5)) == 11


# ============================================================== characters and wizards


def test_we71_a_level_5_human_character(rt) -> None:
    # WE-71, L1066: 5 x 5 + 5 = 30; level 25: 5 x 25 + 5 = 130.
    assert points(rt, model(level=5)) == 30
    assert points(rt, model(level=25)) == 130
    # L1066: a Goblin of level 5: 2 1/2 x 5 + 2 1/2 = 15; level 10: 27 1/2, rounded up 28.
    assert points(rt, model(points=2.5, level=5)) == 15
    assert points(rt, model(points=2.5, level=10)) == 28


def test_a_level_15_ogre(rt) -> None:
    # L1067: above a basic 10, 10 x the level plus the basic: 10 x 15 + 40 = 190.
    assert points(rt, model(points=40, level=15)) == 190


def test_a_characters_mount_is_bought_at_its_value(rt) -> None:
    # L1112-L1113: a level 5 Human on a warhorse: 30 + 6 = 36 (not doubled).
    assert points(rt, model(level=5, mount_points=6)) == 36


def test_the_army_standard_costs_double_its_bearer_plus_50(rt) -> None:
    # L1332, L2929: a level 5 Human (30) carrying the army standard: 30 + 2 x 30 + 50 = 140.
    assert points(rt, model(rt=rt, level=5, rules=("Army Standard",))) == 140


def test_we74_human_wizards_by_level(rt) -> None:
    # WE-74, L2187-L2201: a wizard is costed as a character plus his magic (30, 30, 75, 135,
    # 210): Human wizards of level 5-25 are 60, 85, 155, 240 and 340.
    expected = {5: 60, 10: 85, 15: 155, 20: 240, 25: 340}
    got = {lv: points(rt, model(level=lv, magic_level=max(1, lv // 5 - 1))) for lv in expected}
    assert got == expected
    # the bundled wizard (units/psychology.yaml) is a level 15 Human: 155
    battle = open_battle("wfb3", str(ROOT / "rulesets/wfb3/battles/battle.yaml"))[2]
    wizard = next(u for u in battle.units if u.id == "wizard")
    assert points(rt, wizard) == 155


# ============================================================== chariots (L1756-L1760)


def test_we76_we77_chariots_are_crew_and_animals_doubled(rt) -> None:
    # L1757: two horses (3 + 3) and two men in light armour and shield (8 + 8): 22 x 2 = 44.
    man = points(rt, model(equipment=(LIGHT, SHIELD)))
    assert call(rt, "chariot_points", crew=[man, man], animals=[3, 3]) == 44
    # WE-76, L1758: two giant wolves (8 + 8 as printed there, sic: 7 elsewhere, L831) and two
    # Goblins equipped the same (4 + 4): 24 x 2 = 48.
    gob = points(rt, model(points=2.5, equipment=(LIGHT, SHIELD)))
    assert gob == 4
    assert call(rt, "chariot_points", crew=[gob, gob], animals=[8, 8]) == 48
    # WE-77, L1759: with a character driving, one Goblin: 7 + 7 + 4 = 18 x 2 = 36, plus the
    # character's own value (a level 5 Goblin, 15: 51). L1760: scythes add 20.
    chariot = call(rt, "chariot_points", crew=[gob], animals=[7, 7])
    assert chariot == 36
    assert chariot + points(rt, model(points=2.5, level=5)) == 51
    assert call(rt, "chariot_points", crew=[gob], animals=[7, 7], scythes=True) == 56


# ============================================================== the result (L2136-L2139)


def world(tmp_path: Path, a_models: int, b_models: int, **extra: Any) -> wfb8_world.World:
    units = [
        {"id": "men", "side": "a", "profile": "humans/human_warrior", "models": a_models,
         "files": 10, "position": {"x": 20, "y": 10, "facing": 0}},
        {"id": "gobs", "side": "b", "profile": "goblins/goblin", "models": b_models,
         "files": 10, "position": {"x": 20, "y": 40, "facing": 180}},
    ]
    return wfb8_world.World(tmp_path, units, "wfb3", **extra)


def test_the_points_of_the_troops_left_come_from_the_profiles(tmp_path: Path) -> None:
    # L2137, L2142: ten Humans with light armour and shield, 8 each (L1757): 80; twenty
    # Goblins with shields, 3 each: 60. Six Humans left: 48.
    w = world(tmp_path, 10, 20)
    assert w.call("surviving_points", s="a") == 80
    assert w.call("surviving_points", s="b") == 60
    w.unit("men").models = 6
    assert w.call("surviving_points", s="a") == 48


def test_routers_do_not_count_and_late_rallies_count_half(tmp_path: Path) -> None:
    # L2137: routing models are not counted; a unit that rallied in the final game turn
    # counts at half value (here the battle's one turn: 80 // 2 = 40).
    w = world(tmp_path, 10, 20)
    w.unit("gobs").statuses["routing"] = None
    assert w.call("surviving_points", s="b") == 0
    w.state.counters[("rallied_in", "men")] = 1
    assert w.call("surviving_points", s="a") == 40


@pytest.mark.parametrize("men, gobs, winner", [
    (10, 20, "a"),      # 80 against 60: more than 10% more, a win (L2139)
    (9, 24, None),      # 72 against 72: a draw (L2138)
    (11, 27, None),     # 88 against 81: 88 is no more than 10% above 81 (89.1), a draw
    (11, 26, "a"),      # 88 against 78: more than 85.8, a win
])
def test_a_draw_within_ten_percent(tmp_path: Path, men: int, gobs: int, winner: str | None) -> None:
    # L2138-L2139: a higher score no more than 10% above the lower is a draw.
    w = world(tmp_path, men, gobs)
    w.call("score_battle")
    wins = [e for e in w.events if e.kind == "win"]
    assert [e.winner for e in wins] == [winner]


def test_the_bundled_battles_price_their_troops(tmp_path: Path) -> None:
    # The duel's Humans (12 x 8) and Goblins (12 x 3) come from their profiles, not from the
    # battle file (which gives no points for them).
    doc = yaml.safe_load((ROOT / "rulesets/wfb3/battles/duel.yaml").read_text(encoding="utf-8"))
    assert all("points" not in u for u in doc["units"])
    _, rt, battle = open_battle("wfb3", str(ROOT / "rulesets/wfb3/battles/duel.yaml"))
    got = {u.id: call(rt, "unit_points", u=u, models=u.models) for u in battle.units}
    assert got == {"humans": 96, "goblins": 36}


def test_round_up_gives_whole_points() -> None:
    # The builtin the points actions round with (L830-L831, L1066): a whole number at or
    # above, none for none.
    from rules_run.runtime.builtins import PURE_BUILTINS

    f = PURE_BUILTINS["round_up"]
    assert [f(13.5), f(14), f(27.25), f(-0.5), f(None)] == [14, 14, 28, 0, None]
    assert isinstance(f(13.5), int)
