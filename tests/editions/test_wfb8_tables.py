"""The wfb8 ruleset's data: every table cell, the unit and equipment data, the reference duel.

Each table cell is checked, through ``load_table`` and ``Table.lookup``, against a statement
of the rule written here independently of the YAML: a formula or a literal, with the seed
line it comes from (``000_c4300f58fce5f1da.txt``, the WFB-X rulebook) or "not in seed" when
the value is the standard published WFB 8th-edition one. A few cells are also checked
against the seed's own worked examples.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules_run.data.tables import Table, load_table
from rules_run.data.yaml_loader import load_yaml

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "wfb8"
TABLES = RULESET / "tables"
UNITS = RULESET / "units"

ONE_TO_TEN = list(range(1, 11))  # characteristics run 0-10 (L33); 0 is a rule, not a row


@functools.cache
def table(name: str) -> Table:
    return load_table(TABLES / f"{name}.yaml", name)


@functools.cache
def data(path: Path) -> Any:
    return load_yaml(path).value


def units(file: str) -> dict[str, Any]:
    return data(UNITS / f"{file}.yaml")["units"]


def equipment() -> dict[str, Any]:
    return data(UNITS / "equipment.yaml")["items"]


# ============================================================== independent rule statements


def melee_need(attacker_ws: int, target_ws: int) -> int:
    """Not in seed (the chart at L418 is missing): the standard WFB 8th-edition chart."""
    if attacker_ws > target_ws:
        return 3
    if target_ws <= 2 * attacker_ws:
        return 4
    return 5


def shooting_need(bs: int) -> int:
    """Not in seed (L360-L362 refer to it): WFB 8th edition, 7 - BS, kept raw."""
    return 7 - bs


# Not in seed (the chart of L362 is missing): WFB 8th edition, a 6 then 4+ / 5+ / 6+.
# The impossible 10+ cells are the seed's own rule (L362).
BEYOND = {7: 4, 8: 5, 9: 6, 10: None, 11: None, 12: None}


def wound_need(strength: int, toughness: int) -> int | None:
    """Not in seed (the chart at L420 is missing): WFB 8th edition.

    4 + T - S, between 2 and 6; T - S of 4 or more cannot wound.
    """
    difference = toughness - strength
    if difference >= 4:
        return None
    return max(2, min(6, 4 + difference))


def save_modifier(strength: int) -> int:
    """L388: -1 at Strength 4, a further -1 for each point above."""
    return -(strength - 3) if strength >= 4 else 0


# L286 (casting) and L306 (dispelling): Level 1 or 2 +1, Level 3 or 4 +2.
CASTING_BONUS = {1: 1, 2: 1, 3: 2, 4: 2}

TROOP_TYPES = [
    "infantry",
    "monstrous_infantry",
    "cavalry",
    "monstrous_cavalry",
    "swarm",
    "war_beast",
    "monstrous_beast",
    "monster",
    "chariot",
    "war_machine",
    "shrine",
]

UNIT_STRENGTH = {
    "infantry": 1,  # L528
    "monstrous_infantry": 3,  # L540
    "cavalry": 2,  # L583
    "monstrous_cavalry": 4,  # L595
    "swarm": 3,  # L603
    "war_beast": 1,  # L615
    "monstrous_beast": 3,  # L629
    "monster": "wounds+riders",  # L647: starting Wounds, plus riders if ridden
    "chariot": "wounds+extra",  # L677: starting Wounds, plus extra crew/mounts bought
    "war_machine": "current_crew",  # L683
    "shrine": "starting_wounds",  # L705
}

LINE_OF_SIGHT = {
    "infantry": 1,  # L530
    "monstrous_infantry": 2,  # L542
    "cavalry": 2,  # L585
    "monstrous_cavalry": 3,  # L597
    "swarm": 0,  # L605
    "war_beast": 1,  # L617
    "monstrous_beast": 2,  # L631
    "monster": 5,  # L649
    "chariot": 2,  # L679
    "war_machine": 1,  # L687
    "shrine": 2,  # L707
}

RANK_WIDTH = {
    "infantry": 5,  # L526
    "monstrous_infantry": 3,  # L534: ranks of three count where infantry need five
    "cavalry": 5,  # L556
    "monstrous_cavalry": 3,  # L589
    "swarm": None,  # reading: Skirmishers (L601), no rank width given
    "war_beast": 5,  # L613
    "monstrous_beast": 3,  # L623
    "monster": None,  # reading: not given (L635-L651)
    "chariot": 3,  # L673
    "war_machine": None,  # reading: not given (L683-L689)
    "shrine": None,  # reading: not given (L691-L709)
}

SUPPORTING_ATTACKS = {
    "infantry": 1,  # L536: one supporting attack is the normal case
    "monstrous_infantry": "attacks_max_3",  # L536
    "cavalry": 1,  # L558: the rider only
    "monstrous_cavalry": "attacks_max_3",  # L591: the rider, up to 3
    "swarm": 1,  # reading: the normal one (L536)
    "war_beast": 1,  # reading: the normal one (L536)
    "monstrous_beast": "attacks_max_3",  # L625
    "monster": None,  # reading: none given
    "chariot": 0,  # L663: chariots cannot make supporting attacks
    "war_machine": None,  # reading: none given
    "shrine": None,  # reading: none given
}

COMBAT_RESULT = {
    "wound": 1,  # L424: per unsaved Wound
    "charged": 1,  # L426
    "extra_rank": 1,  # L428
    "extra_rank_max": 3,  # L428
    "outnumber": 1,  # L432
    "standard": 1,  # L434
    "battle_standard": 1,  # L436
    "flank": 1,  # L438
    "flank_both": 2,  # L438
    "rear": 2,  # L440
    "high_ground": 1,  # L442
    "overkill_wound": 1,  # L444
    "overkill_max": 3,  # L444
    "musician_draw": 1,  # L733: wins a drawn combat by 1
}

# (table name, key names, key values per key, expected cell for a key tuple)
EXPECTED: dict[str, tuple[tuple[str, ...], tuple[list[Any], ...], Any]] = {
    "to_hit_melee": (("attacker_ws", "target_ws"), (ONE_TO_TEN, ONE_TO_TEN), melee_need),
    "to_hit_shooting": (("bs",), (ONE_TO_TEN,), shooting_need),
    "to_hit_beyond": (("need",), (list(BEYOND),), BEYOND.__getitem__),
    "to_wound": (("strength", "toughness"), (ONE_TO_TEN, ONE_TO_TEN), wound_need),
    "armour_save_modifier": (("strength",), (ONE_TO_TEN,), save_modifier),
    "casting_bonus": (("wizard_level",), (list(CASTING_BONUS),), CASTING_BONUS.__getitem__),
    "unit_strength": (("troop_type",), (TROOP_TYPES,), UNIT_STRENGTH.__getitem__),
    "line_of_sight": (("troop_type",), (TROOP_TYPES,), LINE_OF_SIGHT.__getitem__),
    "rank_width": (("troop_type",), (TROOP_TYPES,), RANK_WIDTH.__getitem__),
    "supporting_attacks": (("troop_type",), (TROOP_TYPES,), SUPPORTING_ATTACKS.__getitem__),
    "combat_result": (("source",), (list(COMBAT_RESULT),), COMBAT_RESULT.__getitem__),
}


def _all_cells() -> list[Any]:
    params = []
    for name, (_, values, rule) in EXPECTED.items():
        grid: list[tuple[Any, ...]] = [()]
        for key_values in values:
            grid = [prefix + (value,) for prefix in grid for value in key_values]
        for keys in grid:
            params.append(
                pytest.param(name, keys, rule(*keys), id=f"{name}[{','.join(map(str, keys))}]")
            )
    return params


# ============================================================== every cell


@pytest.mark.parametrize(("name", "keys", "expected"), _all_cells())
def test_cell(name: str, keys: tuple[Any, ...], expected: Any) -> None:
    assert table(name).lookup(*keys) == expected


@pytest.mark.parametrize("name", list(EXPECTED))
def test_table_keys_are_exactly_the_pinned_ones(name: str) -> None:
    """No table has a key value (hence a cell) that test_cell does not pin."""
    names, values, _ = EXPECTED[name]
    loaded = table(name)
    assert loaded.keys == names
    assert loaded.key_values == tuple(tuple(v) for v in values)
    expected_count = 1
    for key_values in values:
        expected_count *= len(key_values)
    assert len(loaded.cells) == expected_count


def test_every_table_file_is_pinned() -> None:
    assert sorted(p.stem for p in TABLES.glob("*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize(
    ("name", "keys"),
    [("to_hit_melee", (0, 3)), ("to_hit_melee", (3, 11)), ("to_wound", (3,)), ("rank_width", ("giant",))],
)
def test_lookup_outside_the_table_is_refused(name: str, keys: tuple[Any, ...]) -> None:
    with pytest.raises(KeyError):
        table(name).lookup(*keys)


# ============================================================== the seed's own statements


@pytest.mark.parametrize("ws", ONE_TO_TEN)
def test_equal_weapon_skill_hits_on_4(ws: int) -> None:
    # L418: equally-matched models hit each other on a 4+.
    assert table("to_hit_melee").lookup(ws, ws) == 4


def test_melee_to_hit_gets_easier_as_weapon_skill_outstrips() -> None:
    # L418: the more one WS outstrips the other's, the easier (or harder) the roll.
    chart = table("to_hit_melee")
    for a in ONE_TO_TEN:
        for t in ONE_TO_TEN[:-1]:
            assert chart.lookup(a, t) <= chart.lookup(a, t + 1)
    for t in ONE_TO_TEN:
        for a in ONE_TO_TEN[:-1]:
            assert chart.lookup(a + 1, t) <= chart.lookup(a, t)


@pytest.mark.parametrize("need", [10, 11, 12])
def test_to_hit_of_10_or_more_is_impossible(need: int) -> None:
    # L362: a required score of 10 or more is impossible.
    assert table("to_hit_beyond").lookup(need) is None


def test_shooting_modifiers_can_push_a_bs3_shot_to_the_beyond_chart() -> None:
    # L362, L366, L372: BS3 (L39) needs 4+; moved (-1), lone small target (-1) and hard
    # cover (-2, L380) make it 8: a 6, then (not in seed, 8th edition) a 5+.
    need = table("to_hit_shooting").lookup(3) + 1 + 1 + 2
    assert need == 8
    assert table("to_hit_beyond").lookup(need) == 5


def test_a_3_plus_save_against_strength_5_needs_5() -> None:
    # L390: a model with a 3+ save hit by a Strength 5 attack (-2 modifier) needs a 5+.
    assert table("armour_save_modifier").lookup(5) == -2
    assert 3 - table("armour_save_modifier").lookup(5) == 5


def test_strength_4_is_the_first_to_modify_saves() -> None:
    # L388: an attack of Strength 4 imposes -1, a further -1 per extra point.
    modifier = table("armour_save_modifier")
    assert [modifier.lookup(s) for s in (3, 4, 5)] == [0, -1, -2]


@pytest.mark.parametrize(("level", "bonus"), [(1, 1), (2, 1), (3, 2), (4, 2)])
def test_wizard_level_bonus(level: int, bonus: int) -> None:
    # L286 and L306 (digest WE14): Level 1 or 2 +1, Level 3 or 4 +2.
    assert table("casting_bonus").lookup(level) == bonus


def test_cover_from_line_of_sight_values() -> None:
    # L374 (digest WE17, WE18): blockers of at least half the target's Line of Sight value
    # give cover: Line of Sight 1 covers Line of Sight 2, not Line of Sight 3.
    los = table("line_of_sight")

    def covers(blocker: str, target: str) -> bool:
        return los.lookup(blocker) * 2 >= los.lookup(target)

    assert covers("infantry", "cavalry")
    assert covers("infantry", "monstrous_infantry")
    assert not covers("infantry", "monstrous_cavalry")


def test_run_down_wounds_from_a_unit_strength_10_charger() -> None:
    # L168 (digest WE9): two Wounds per point of Unit Strength: a US 10 charger inflicts 20.
    us = table("unit_strength")
    assert 2 * (10 * us.lookup("infantry")) == 20
    assert 2 * (5 * us.lookup("cavalry")) == 20


def test_the_multiple_combat_example() -> None:
    # L490 (digest WE24): Halberdiers 11 (2 + 4 Wounds, 3 ranks, standard, outnumber),
    # Orcs 7 (4 Wounds, 2 ranks, standard), Goblins 2 (1 Wound, flank).
    cr = table("combat_result")
    halberdiers = (
        (2 + 4) * cr.lookup("wound")
        + min(3, cr.lookup("extra_rank_max")) * cr.lookup("extra_rank")
        + cr.lookup("standard")
        + cr.lookup("outnumber")
    )
    orcs = 4 * cr.lookup("wound") + 2 * cr.lookup("extra_rank") + cr.lookup("standard")
    goblins = 1 * cr.lookup("wound") + cr.lookup("flank")
    assert (halberdiers, orcs, goblins) == (11, 7, 2)
    assert halberdiers - (orcs + goblins) == 2


def test_monstrous_ranks_are_three_wide() -> None:
    # L454 with L534, L589, L623, L673: three models make a rank for these types.
    width = table("rank_width")
    assert width.lookup("infantry") == 5
    for troop_type in ("monstrous_infantry", "monstrous_cavalry", "monstrous_beast", "chariot"):
        assert width.lookup(troop_type) == 3


# ============================================================== unit and equipment data

MAN = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}  # L35-L51


@pytest.mark.parametrize("profile", ["halberdier", "spearman", "handgunner"])
def test_state_troops_have_the_man_profile(profile: str) -> None:
    # L35 M4, L37 WS3, L39 BS3, L41 S3, L43 T3, L45 W1, L47 I3, L49 A1, L51 Ld7.
    assert units("empire")[profile]["profile"] == MAN


@pytest.mark.parametrize("profile", ["orc_boy", "orc_arrer_boy", "boar_boy", "black_orc", "orc_shaman"])
def test_orcs_have_initiative_2(profile: str) -> None:
    # L47: Orcs, I2.
    assert units("orcs")[profile]["profile"]["I"] == 2


def test_the_knight_moves_at_the_horse_s_pace() -> None:
    # L35: a horse has M8; L546: cavalry always use the mount's Movement.
    knight = units("empire")["knight"]
    assert knight["parts"]["mount"]["profile"]["M"] == 8
    assert knight["profile"]["M"] == knight["parts"]["mount"]["profile"]["M"]


@pytest.mark.parametrize("file", ["empire", "orcs"])
def test_cavalry_profiles_take_the_highest_toughness_and_wounds(file: str) -> None:
    # L546 (mount's M), L552 (highest T and W of rider and mount).
    for unit in units(file).values():
        if "parts" not in unit:
            continue
        parts = [part["profile"] for part in unit["parts"].values()]
        assert unit["profile"]["M"] == unit["parts"]["mount"]["profile"]["M"]
        assert unit["profile"]["T"] == max(p["T"] for p in parts)
        assert unit["profile"]["W"] == max(p["W"] for p in parts)


@pytest.mark.parametrize("file", ["empire", "orcs"])
def test_units_use_known_troop_types_and_equipment(file: str) -> None:
    items = equipment()
    for unit_id, unit in units(file).items():
        assert unit["type"] in TROOP_TYPES, unit_id
        for item in unit.get("equipment", []):
            assert item in items, (unit_id, item)


@pytest.mark.parametrize(("file", "wizard"), [("empire", "battle_wizard"), ("orcs", "orc_shaman")])
def test_wizards_have_a_level_the_casting_table_knows(file: str, wizard: str) -> None:
    # Wizard levels (L214) are a named value the rules read with value_of(unit, "wizard_level").
    assert units(file)[wizard]["values"] == {"wizard_level": 1}
    for unit_id, unit in units(file).items():
        level = unit.get("values", {}).get("wizard_level")
        if "WIZARD" in unit.get("keywords", []):
            assert level in CASTING_BONUS, unit_id
        else:
            assert level is None, unit_id


def test_armour_values() -> None:
    items = equipment()
    # Seed-implied (magic items that "count as" each kind list these Armour Saves):
    # The rules read these named values with item_values(unit, "save") and so on.
    assert items["light_armour"]["values"] == {"save": 6}  # L1538-L1541
    assert items["medium_armour"]["values"] == {"save": 5}  # L1492-L1495, L1531-L1534
    assert items["heavy_armour"]["values"] == {"save": 4}  # L1485-L1488, L1499-L1502
    # The normal shield bonus is +1 (L1524); the parry +1 and barding: not in seed.
    assert items["shield"]["values"] == {"save_bonus": 1, "combat_save_bonus": 1}
    assert items["barding"]["values"] == {"save_bonus": 1}


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        # not in seed: standard WFB 8th-edition values; close-combat weapons are alternatives
        # (a model fights with one, issue #22: they no longer add up)
        ("hand_weapon", {"alternative": "close_combat"}),
        ("additional_hand_weapon", {"alternative": "close_combat", "modifies": {"A": 1}, "rules": ["Requires Two Hands"]}),
        ("great_weapon", {"alternative": "close_combat", "modifies": {"S": 2}, "rules": ["Requires Two Hands", "Always Strikes Last"]}),
        ("halberd", {"alternative": "close_combat", "modifies": {"S": 1}, "rules": ["Requires Two Hands"]}),
        ("spear", {"alternative": "close_combat", "rules": ["Fight in Extra Rank"]}),
        ("cavalry_spear", {"alternative": "close_combat", "values": {"charge_strength_bonus": 1}}),
        ("lance", {"alternative": "close_combat", "values": {"charge_strength_bonus": 2}}),
        ("flail", {"alternative": "close_combat", "values": {"first_round_strength_bonus": 2}, "rules": ["Requires Two Hands"]}),
        ("bow", {"values": {"range": 24, "strength": 3}, "rules": ["Volley Fire"]}),
        ("crossbow", {"values": {"range": 30, "strength": 4}, "rules": ["Move or Fire"]}),
        ("handgun", {"values": {"range": 24, "strength": 4}, "rules": ["Armour Piercing (1)", "Move or Fire"]}),
        ("pistol", {"values": {"range": 12, "strength": 4}, "rules": ["Armour Piercing (1)", "Quick to Fire"]}),
        ("javelin", {"values": {"range": 12}, "rules": ["Quick to Fire"]}),
        ("barding", {"values": {"save_bonus": 1}, "modifies": {"M": -1}}),
    ],
)
def test_weapon_values(item: str, expected: dict[str, Any]) -> None:
    entry = {k: v for k, v in equipment()[item].items() if k not in ("name", "kind", "cite")}
    assert entry == expected


# ============================================================== the reference duel


def test_duel_file() -> None:
    duel = data(RULESET / "battles" / "duel.yaml")
    assert duel == {
        "edition": "wfb8",
        "title": duel["title"],
        "seed": 1,
        "game": {"rounds": 6, "first": "orcs"},
        "duel": {"distance": 4},
        "units": [
            {
                "id": "halberdiers",
                "side": "empire",
                "profile": "empire/halberdier",
                "models": 20,
                "files": 5,
                "command": ["champion", "standard", "musician"],
                "points": 135,
            },
            {
                "id": "orcs",
                "side": "orcs",
                "profile": "orcs/orc_boy",
                "models": 20,
                "files": 5,
                "command": ["standard", "musician"],
                "points": 130,
            },
        ],
    }
    assert duel["title"]


def _save(unit: dict[str, Any], *, close_combat: bool) -> int:
    items = equipment()
    # What core.rules computes from item_values(target, "save"), "save_bonus" and
    # "combat_save_bonus", here written out from the data.
    gear = [items[i].get("values", {}) for i in unit["equipment"]]
    save = min(values["save"] for values in gear if "save" in values)
    save -= sum(values.get("save_bonus", 0) for values in gear)
    if close_combat and "hand_weapon" in unit["equipment"]:
        save -= sum(values.get("combat_save_bonus", 0) for values in gear)
    return save


def test_duel_numbers() -> None:
    halberdier = units("empire")["halberdier"]
    orc = units("orcs")["orc_boy"]
    items = equipment()
    # The duel's profiles and gear, as the brief gives them.
    assert orc["profile"] == {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 4, "W": 1, "I": 2, "A": 1, "Ld": 7}
    assert halberdier["command"]["champion"]["profile"] == {"A": 2}  # L715: +1 Attack
    assert _save(halberdier, close_combat=True) == 6
    assert _save(orc, close_combat=False) == 5
    assert _save(orc, close_combat=True) == 4
    strength = halberdier["profile"]["S"] + items["halberd"]["modifies"]["S"]
    assert strength == 4
    # Halberdiers strike Orcs: 4+ to hit (L418), 4+ to wound, the Orcs save on 5+ (L388).
    assert table("to_hit_melee").lookup(3, 3) == 4
    assert table("to_wound").lookup(strength, orc["profile"]["T"]) == 4
    assert _save(orc, close_combat=True) - table("armour_save_modifier").lookup(strength) == 5
    # Orcs strike Halberdiers: 4+ to hit, 4+ to wound, the Halberdiers save on 6+.
    assert table("to_wound").lookup(orc["profile"]["S"], halberdier["profile"]["T"]) == 4
    assert _save(halberdier, close_combat=True) - table("armour_save_modifier").lookup(3) == 6


# ============================================================== every data file cites a source

CITE = re.compile(
    json.loads((ROOT / "schemas" / "common.schema.json").read_text())["$defs"]["cite"]["pattern"]
)
DATA_FILES = sorted(TABLES.glob("*.yaml")) + sorted(UNITS.glob("*.yaml"))


def _cites(document: dict[str, Any]) -> list[tuple[str, Any]]:
    """The file's cite, and each unit's, part's, command model's and item's."""
    found = [("(file)", document.get("cite"))]
    for unit_id, unit in document.get("units", {}).items():
        found.append((unit_id, unit.get("cite")))
        for part_id, part in unit.get("parts", {}).items():
            found.append((f"{unit_id}.{part_id}", part.get("cite")))
        command = unit.get("command", {})
        if isinstance(command, dict):
            for role, model in command.items():
                if isinstance(model, dict):
                    found.append((f"{unit_id}.{role}", model.get("cite")))
    for item_id, item in document.get("items", {}).items():
        found.append((item_id, item.get("cite")))
    return found


def test_there_are_data_files() -> None:
    assert len(DATA_FILES) >= 3


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_data_file_cites_a_source(path: Path) -> None:
    for where, cite in _cites(data(path)):
        assert isinstance(cite, str) and cite.strip(), f"{path.name}: {where} has no cite"
        assert CITE.match(cite), f"{path.name}: {where}: {cite!r} is not a seed line or 'not in seed: ...'"
