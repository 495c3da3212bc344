"""The 40k5 ruleset's printed tables: every cell of the 17 tables of seed 001 (the digest's
table inventory, TB01-TB17), each in its canonical copy (L1-L1285).

Each cell is checked, through ``load_table`` and ``Table.lookup``, against a statement of the
rule written here independently of the YAML: the seed's own rule of thumb where it gives one
(the to-wound and WS charts, the BS table), else the printed rows as literals, each with the
line it is printed on. TB01, the profile example, is unit data: the Ork Boy and the Space
Marine (L127-L129).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

from rules_run.data.tables import Table, load_table
from rules_run.data.yaml_loader import load_yaml
from rules_run.editions.loader import load_edition

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "40k5"
TABLES = RULESET / "tables"
UNITS = RULESET / "units"

ONE_TO_TEN = list(range(1, 11))


@functools.cache
def table(name: str) -> Table:
    return load_table(TABLES / f"{name}.yaml", name)


def units(file: str) -> dict[str, Any]:
    return load_yaml(UNITS / f"{file}.yaml").value["units"]


# ============================================================== rules of thumb


def wound_need(strength: int, toughness: int) -> int | None:
    """L293-L303: 4+ at equal Strength and Toughness, one worse per point of Toughness above
    the Strength and one better per point below, never better than 2+ or worse than 6+; a
    Toughness 4 or more above the Strength cannot be wounded ("N")."""
    if toughness - strength >= 4:
        return None
    return max(2, min(6, 4 + toughness - strength))


def ws_need(attacker: int, target: int) -> int:
    """L475: a lower WS is hit on 3+, an equal one up to double the attacker's on 4+, a
    greater one on 5+."""
    if target < attacker:
        return 3
    if target <= 2 * attacker:
        return 4
    return 5


# ============================================================== TB01 to TB04


def test_tb01_the_profile_example_is_the_unit_data() -> None:
    # L127-L129: WS BS S T W I A Ld Sv of an Ork Boy and a Space Marine.
    names = ["WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"]
    ork = units("orks")["ork_boy"]["profile"]
    marine = units("imperium")["space_marine"]["profile"]
    assert [ork[n] for n in names] == [4, 2, 3, 4, 1, 2, 2, 7, "6+"]
    assert [marine[n] for n in names] == [4, 4, 4, 4, 1, 4, 1, 8, "3+"]


@pytest.mark.parametrize("bs", [1, 2, 3, 4, 5])
def test_tb02_bs_table(bs: int) -> None:
    # L275-L276, L278: 7 - BS.
    assert table("to_hit_bs").lookup(bs) == 7 - bs


def test_tb02_cells_as_printed() -> None:
    assert [table("to_hit_bs").lookup(b) for b in range(1, 6)] == [6, 5, 4, 3, 2]


@pytest.mark.parametrize("bs", [6, 7, 8, 9, 10])
def test_tb03_bs_6_and_better_hit_on_2_and_reroll(bs: int) -> None:
    # L280-L283: 2+, re-roll a 1 needing 6, 5, 4, 3, 2 for BS 6 to 10.
    assert table("to_hit_bs_high").lookup(bs, "need") == 2
    assert table("to_hit_bs_high").lookup(bs, "reroll") == 12 - bs


@pytest.mark.parametrize("strength", ONE_TO_TEN)
@pytest.mark.parametrize("toughness", ONE_TO_TEN)
def test_tb04_to_wound_chart(strength: int, toughness: int) -> None:
    assert table("to_wound").lookup(strength, toughness) == wound_need(strength, toughness)


def test_tb04_the_printed_rows_spot_checked() -> None:
    # L294 (S1): 4+ 5+ 6+ 6+ N ...; L303 (S10): 2+ x7, 3+, 4+.
    t = table("to_wound")
    assert [t.lookup(1, x) for x in ONE_TO_TEN] == [4, 5, 6, 6] + [None] * 6
    assert [t.lookup(10, x) for x in ONE_TO_TEN] == [2] * 8 + [3, 4]


# ============================================================== TB05 cover


COVER = {  # L321-L325, one row per save
    6: ["razor wire", "wire mesh"],
    5: ["high grass", "crops", "bushes", "hedges", "fences"],
    4: ["units", "trenches", "gun pits", "tank traps", "emplacements", "sandbags", "barricades",
        "logs", "pipes", "crates", "barrels", "hill crests", "woods", "jungles", "wreckage",
        "craters", "rubble", "rocks", "ruins", "walls", "buildings", "wrecked vehicles"],
    3: ["fortifications"],
}


@pytest.mark.parametrize("save,kinds", sorted(COVER.items()))
def test_tb05_cover_chart(save: int, kinds: list[str]) -> None:
    for kind in kinds:
        assert table("cover").lookup(kind) == save, kind


def test_tb05_lists_every_kind_and_no_other() -> None:
    assert sorted(table("cover").key_values[0]) == sorted(k for ks in COVER.values() for k in ks)


# ============================================================== TB06 WS chart


@pytest.mark.parametrize("attacker", ONE_TO_TEN)
@pytest.mark.parametrize("target", ONE_TO_TEN)
def test_tb06_ws_chart(attacker: int, target: int) -> None:
    assert table("to_hit_melee").lookup(attacker, target) == ws_need(attacker, target)


def test_tb06_the_printed_rows_spot_checked() -> None:
    # L464 (WS1): 4+ 4+ 5+ ...; L473 (WS10): 3+ x9, 4+.
    t = table("to_hit_melee")
    assert [t.lookup(1, x) for x in ONE_TO_TEN] == [4, 4] + [5] * 8
    assert [t.lookup(10, x) for x in ONE_TO_TEN] == [3] * 9 + [4]


# ============================================================== TB07 to TB10 vehicles


def test_tb07_damage_modifiers() -> None:
    # L801-L805.
    t = table("damage_modifiers")
    assert {k: t.lookup(k) for k in ["glancing_hit", "ap_none", "ap1", "open_topped"]} == {
        "glancing_hit": -2, "ap_none": -1, "ap1": 1, "open_topped": 1}


def test_tb08_vehicle_damage_table() -> None:
    # L809-L815: 1 or less Crew Shaken ... 6 or more Explodes!
    t = table("vehicle_damage")
    assert [t.lookup(r) for r in range(1, 7)] == [
        "crew_shaken", "crew_stunned", "weapon_destroyed", "immobilised", "wrecked", "explodes"]


def test_tb09_close_combat_to_hit_against_vehicles() -> None:
    # L850-L853.
    t = table("to_hit_vehicle")
    assert [t.lookup(m) for m in ["stationary", "combat_speed", "cruising_speed"]] == [
        "auto_hit", 4, 6]


def test_tb10_vehicle_moving_and_shooting() -> None:
    # L983-L988 ("1 Weapon*" is one weapon plus every defensive weapon; N/A is null).
    t = table("vehicle_fire")
    speeds = ["stationary", "combat_speed", "cruising_speed", "flat_out"]
    assert [t.lookup("ordinary", s) for s in speeds] == ["all", "one_defensive", "none", None]
    assert [t.lookup("fast", s) for s in speeds] == ["all", "all", "one_defensive", "none"]
    assert [t.lookup("walker", s) for s in speeds] == ["all", "all", None, None]


# ============================================================== TB11 to TB17


def test_tb11_buildings_armour_chart() -> None:
    # L1037-L1043.
    t = table("building_armour")
    assert {b: t.lookup(b) for b in t.key_values[0]} == {
        "bastion_or_bunker": 14, "stone_palace": 13, "concrete_building": 12,
        "brick_house": 11, "log_cabin": 10, "shed": 9}


def test_tb12_mission_roll() -> None:
    # L1113-L1116.
    assert [table("mission").lookup(r) for r in range(1, 7)] == [
        "seize_ground"] * 2 + ["capture_control"] * 2 + ["annihilation"] * 2


def test_tb13_deployment_roll() -> None:
    # L1144-L1147.
    assert [table("deployment").lookup(r) for r in range(1, 7)] == [
        "pitched_battle"] * 2 + ["spearhead"] * 2 + ["dawn_of_war"] * 2


def test_tb14_reserves_table() -> None:
    # L1179-L1184: turn 1 N/A, 4+, 3+, 2+, automatic from turn 5.
    assert [table("reserves").lookup(t) for t in range(1, 6)] == [None, 4, 3, 2, "auto_arrival"]


def test_tb15_deep_strike_mishap_table() -> None:
    # L1200-L1203.
    assert [table("deep_strike_mishap").lookup(r) for r in range(1, 7)] == [
        "destroyed"] * 2 + ["misplaced"] * 2 + ["delayed"] * 2


def test_tb16_difficult_terrain_by_unit_type() -> None:
    # L1235-L1247: slowed, dangerous terrain test ("No*": no unless also dangerous).
    expected = {
        "infantry": ["slowed", "unless_dangerous"], "bikes": ["unslowed", "test"],
        "jetbikes": ["unslowed", "starts_or_ends"], "monstrous": ["slowed", "unless_dangerous"],
        "jump_infantry": ["unslowed", "starts_or_ends"], "artillery": ["slowed", "guns_only"],
        "beasts_cavalry": ["slowed", "unless_dangerous"],
        "walkers": ["slowed", "unless_dangerous"], "skimmers": ["unslowed", "starts_or_ends"],
        "other_vehicles": ["unslowed", "test"],
    }
    t = table("difficult_terrain")
    assert {u: [t.lookup(u, e) for e in ["slowed", "dangerous"]]
            for u in t.key_values[0]} == expected


def test_tb17_weapon_type_summary() -> None:
    # L1274-L1278.
    t = table("weapon_types")
    assert {w: [t.lookup(w, r) for r in ["moving_firing", "firing_assaulting"]]
            for w in t.key_values[0]} == {
        "pistol": ["once", "same_unit"], "rapid_fire": ["twice_at_12", "no_assault"],
        "assault": ["moves_fires", "same_unit"], "heavy": ["cannot", "no_assault"]}


# ============================================================== the ruleset declares them all


def test_every_table_file_is_declared_and_cites_the_canonical_copy() -> None:
    ruleset = load_edition("40k5")
    declared = {t.file for t in ruleset.of_kind("table").values()}
    assert declared == {f"tables/{p.name}" for p in TABLES.glob("*.yaml")}
    for path in TABLES.glob("*.yaml"):
        cite = load_yaml(path).value["cite"]
        lines = [int(x) for x in cite.replace("L", " ").replace("-", " ").replace(",", " ").split()]
        assert all(1 <= n <= 1285 for n in lines), (path.name, cite)
