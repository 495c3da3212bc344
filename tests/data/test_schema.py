"""The JSON Schemas, and the messages schema errors turn into."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules_run.data.schema import check, load_and_check, validate
from rules_run.data.yaml_loader import load_yaml
from rules_run.diagnostics import DataError
from rules_run.paths import SCHEMAS_DIR

DOCS = Path(__file__).resolve().parents[2] / "docs" / "data-formats.md"
SCHEMA_FILES = sorted(SCHEMAS_DIR.glob("*.schema.json"))


def problems(schema: str, text: str) -> list[tuple[int, int, str, str, str | None]]:
    """``(line, column, code, message, hint)`` of every diagnostic, in the order reported."""
    diagnostics = validate(load_yaml("f.yaml", text), schema)
    return [(d.span.line, d.span.column, d.code, d.message, d.hint) for d in diagnostics if d.span]


# --- the schemas themselves --------------------------------------------------------------


@pytest.mark.parametrize("file", SCHEMA_FILES, ids=lambda f: f.name)
def test_schema_is_valid_2020_12(file: Path) -> None:
    schema = json.loads(file.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://rules-run.dev/schemas/{file.name}"


def subschemas(schema: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(schema, dict):
        yield where, schema
        for key, value in schema.items():
            yield from subschemas(value, f"{where}/{key}")
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            yield from subschemas(value, f"{where}/{index}")


@pytest.mark.parametrize("file", SCHEMA_FILES, ids=lambda f: f.name)
def test_every_object_is_closed_or_names_its_keys(file: Path) -> None:
    schema = json.loads(file.read_text(encoding="utf-8"))
    for where, sub in subschemas(schema):
        if sub.get("type") == "object":
            closed = sub.get("additionalProperties") is False
            assert closed or "propertyNames" in sub, f"{file.name}{where} is open"


@pytest.mark.parametrize("file", SCHEMA_FILES, ids=lambda f: f.name)
def test_every_property_and_definition_is_described(file: Path) -> None:
    schema = json.loads(file.read_text(encoding="utf-8"))
    for where, sub in subschemas(schema):
        for name, prop in sub.get("properties", {}).items():
            if where.endswith("/properties"):
                continue  # a property called "properties", not a keyword
            assert "description" in prop, f"{file.name}{where}/properties/{name}"
        for name, definition in sub.get("$defs", {}).items():
            assert "description" in definition, f"{file.name}{where}/$defs/{name}"


@pytest.mark.parametrize("file", SCHEMA_FILES, ids=lambda f: f.name)
def test_every_pattern_says_what_it_expects(file: Path) -> None:
    schema = json.loads(file.read_text(encoding="utf-8"))
    for where, sub in subschemas(schema):
        if "pattern" in sub:
            assert "x-expected" in sub, f"{file.name}{where}"


COMMON = json.loads((SCHEMAS_DIR / "common.schema.json").read_text(encoding="utf-8"))["$defs"]


@pytest.mark.parametrize(
    ("definition", "good", "bad"),
    [
        (
            "cite",
            ["L450", "L418-L422", "L418-422", "004 L9", "L1, L5-L7", "not in seed: WFB 8th chart"],
            ["450", "l450", "L", "not in seed:", "000_c43.txt L450", "L1,", "4 L9"],
        ),
        ("id", ["halberdier", "orc_boy2", "a"], ["Halberdier", "2orcs", "orc-boy", "_x", ""]),
        (
            "dice",
            ["D6", "2D6", "D3+1", "D6x5", "D6×5", "2D6-1", "3", "0", "10D6"],
            ["D7", "d6", "0D6", "2D", "D6+", "D6 + 1", "-1", "x"],
        ),
        ("need", ["3+", "1+", "10+"], ["3", "0+", "+3", "3++", "100+"]),
        (
            "rule_ref",
            ["Stubborn", "Ward Save (5+)", "Breath Weapon (Strength 4, Flaming Attacks)", "A"],
            ["Stubborn ", " Stubborn", "Ward Save(5+)", "Ward Save (5+) (6+)", "(5+)", ""],
        ),
    ],
)
def test_common_patterns(definition: str, good: list[str], bad: list[str]) -> None:
    pattern = COMMON[definition]["pattern"]
    assert [g for g in good if not re.search(pattern, g)] == []
    assert [b for b in bad if re.search(pattern, b)] == []


# --- messages ----------------------------------------------------------------------------

UNITS = """\
kind: units
cite: "L33-L51"
units:
  halberdier:
    name: Halberdier
    cite: "not in seed: illustrative profile"
    profil: {M: 4}
    profile: {M: 4, WS: 3, A: D7}
"""

BATTLE = """\
edition: wfb8
seed: 7
units:
  - id: halberdiers
    side: empire
    profile: empire/halberdier
    models: 20
  - id: orcs
    side: orcs
    profile: orcs/orc_boy
    models: 20
"""
"""A valid battle file."""

BROKEN = [
    pytest.param(
        "units",
        UNITS,
        [
            (7, 5, "unknown-key", "unknown key 'profil' in units.halberdier",
             "did you mean 'profile'?"),
            (8, 31, "bad-value",
             "units.halberdier.profile.A: expected an integer, a roll needed such as 3+, "
             "a dice expression such as D6, or null for '-', got 'D7'", None),
        ],
        id="unknown-key-and-bad-dice",
    ),
    pytest.param(
        "battle",
        BATTLE.removesuffix("    models: 20\n"),
        [
            (8, 5, "missing-key", "missing key 'models' in units[1]",
             "models: How many models the unit has."),
        ],
        id="missing-key",
    ),
    pytest.param(
        "battle",
        BATTLE.replace("seed: 7", "seed: seven"),
        [(2, 7, "bad-type", "seed: expected an integer, got 'seven' (string)", None)],
        id="bad-type",
    ),
    pytest.param(
        "equipment",
        "kind: equipment\ncite: L9\nitems:\n  halberd: {name: Halberd, cite: L9, kind: weapn}\n",
        [
            (4, 44, "bad-value",
             "items.halberd.kind: 'weapn' is not one of 'weapon', 'armour', 'shield', 'other'",
             "did you mean 'weapon'?"),
        ],
        id="bad-enum",
    ),
    pytest.param(
        "battle",
        BATTLE + "dice: {charge: [6, 0]}\nbattlefield: {width: 72, depht: 48}\n",
        [
            (12, 20, "bad-value", "dice.charge[1]: expected at least 1, got 0", None),
            (13, 26, "unknown-key", "unknown key 'depht' in battlefield", "did you mean 'depth'?"),
        ],
        id="minimum-inside-alternatives",
    ),
    pytest.param(
        "table",
        "kind: units\ncite: L1\nunits: {}\n",
        [(1, 7, "bad-value", "kind: 'units' is not 'table'", None)],
        id="wrong-kind-is-reported-alone",
    ),
    pytest.param(
        "units",
        "kind: units\ncite: page 12\nunits:\n  Halberdier: {name: H, cite: L1, profile: {}}\n",
        [
            (2, 7, "bad-value",
             "cite: expected a citation such as L450, L418-L422, 004 L9 or "
             "'not in seed: <where it comes from>', got 'page 12'", None),
            (4, 3, "bad-value",
             "bad key 'Halberdier' in units: expected a snake_case id such as 'halberdier' "
             "(lower-case letters, digits and '_', starting with a letter)", None),
        ],
        id="bad-cite-and-bad-id-key",
    ),
    pytest.param(
        "battle",
        "units:\n  - {id: a, side: x, characteristics: {WS: 3}, models: 5,"
        " values: {wizard_level: {level: 2}}}\n"
        "  - {id: b, side: y, models: 5}\n",
        [
            (2, 82, "bad-type",
             "units[0].values.wizard_level: expected a number, true or false, or a word, "
             "got a mapping", None),
            (3, 5, "missing-key", "missing key 'profile' or 'characteristics' in units[1]", None),
        ],
        id="value-not-plain-and-either-key",
    ),
    pytest.param(
        "battle",
        "units:\n  - {id: a, side: x, profile: a/b, models: 5,"
        " values: {Wizard_level: 2, general: null}}\n",
        [
            (2, 56, "bad-value",
             "bad key 'Wizard_level' in units[0].values: expected a snake_case id such as "
             "'halberdier' (lower-case letters, digits and '_', starting with a letter)", None),
            (2, 82, "bad-type",
             "units[0].values.general: expected a number, true or false, or a word, "
             "got nothing (null)", None),
        ],
        id="values-bad-name-and-null",
    ),
    pytest.param(
        "battle",
        "units:\n  - {id: a, side: x, profile: a/b, models: 5, wizard: 2}\n",
        [
            (2, 47, "unknown-key", "unknown key 'wizard' in units[0]",
             "allowed keys: id, side, profile, name, models, files, base, characteristics, "
             "equipment, rules, command, keywords, position, values, groups, points"),
        ],
        id="game-specific-key-is-unknown",
    ),
    pytest.param(
        "battle",
        "units:\n  - {id: a, side: x, profile: a/b, models: 5, command: {champion: 2}}\n",
        [
            (2, 67, "bad-type",
             "units[0].command.champion: expected true or a mapping, got 2 (integer)", None),
        ],
        id="alternatives-none-fits",
    ),
    pytest.param(
        "battle",
        "units:\n  - id: a\n    side: x\n    profile: a/b\n    models: 5\n"
        "    command: [champion, Standard, champion]\n",
        [
            (6, 25, "bad-value",
             "units[0].command[1]: expected a snake_case id such as 'halberdier' "
             "(lower-case letters, digits and '_', starting with a letter), got 'Standard'", None),
            (6, 35, "bad-value",
             "duplicate item 'champion' in units[0].command (first given at line 6, column 15)",
             None),
        ],
        id="alternatives-one-fits",
    ),
    pytest.param(
        "battle",
        "units:\n  - {id: a, side: x, profile: empire, models: 0, base: {w: 20}}\n",
        [
            (2, 31, "bad-value",
             "units[0].profile: expected a profile such as 'empire/halberdier' "
             "(unit file, '/', profile id), got 'empire'", None),
            (2, 47, "bad-value", "units[0].models: expected at least 1, got 0", None),
            (2, 56, "missing-key", "missing key 'd' in units[0].base",
             "d: Depth in millimetres."),
        ],
        id="pattern-minimum-required",
    ),
    pytest.param(
        "manifest",
        "kind: ruleset\nrules: []\nunits: [units/empire.json]\n",
        [
            (2, 8, "bad-value", "rules: expected at least 1 item, got 0", None),
            (3, 9, "bad-value",
             "units[0]: expected a .yaml file relative to the ruleset folder, such as "
             "'units/empire.yaml', got 'units/empire.json'", None),
        ],
        id="manifest",
    ),
    pytest.param(
        "table",
        "kind: table\ncite: L1\nkeys: [{name: a, values: [1, 2.5]}]\ncells: [1, [2, 4.5]]\n",
        [
            (3, 30, "bad-type",
             "keys[0].values[1]: expected a key value (an integer or a string), "
             "got 2.5 (number)", None),
            (4, 16, "bad-type",
             "cells[1][1]: expected a cell (an integer, null for an impossible result, "
             "or a short symbol) or a list of them, got 4.5 (number)", None),
        ],
        id="table-cells",
    ),
    pytest.param(
        "battle",
        "units: {id: a}\n",
        [(1, 8, "bad-type", "units: expected a list, got a mapping", None)],
        id="mapping-for-list",
    ),
    pytest.param(
        "battle",
        "- id: a\n",
        [(1, 1, "bad-type", "expected a mapping, got a list", None)],
        id="top-level-type",
    ),
]


@pytest.mark.parametrize(("schema", "text", "expected"), BROKEN)
def test_broken_data(
    schema: str, text: str, expected: list[tuple[int, int, str, str, str | None]]
) -> None:
    assert problems(schema, text) == expected


def test_unknown_key_without_a_close_match_lists_the_allowed_keys() -> None:
    [(line, column, code, message, hint)] = problems(
        "battle", "units: [{id: a, side: x, profile: a/b, models: 1}]\nzzz: 1\n"
    )
    assert (line, column, code) == (2, 1, "unknown-key")
    assert message == "unknown key 'zzz' at the top level"
    assert hint == (
        "allowed keys: edition, title, seed, game, options, policies, sides, battlefield, duel, "
        "units, orders, dice"
    )


def test_options_stay_open() -> None:
    text = BATTLE + "options: {charge_roll: highest, reroll_ones: true, bonus: 1, no_thing: null}\n"
    assert problems("battle", text) == []


def test_check_raises_with_every_diagnostic_rendered() -> None:
    with pytest.raises(DataError) as caught:
        check(load_yaml("units.yaml", UNITS), "units")
    assert caught.value.render() == (
        "units.yaml:7:5: error: unknown key 'profil' in units.halberdier\n"
        "        profil: {M: 4}\n"
        "        ^^^^^^\n"
        "  hint: did you mean 'profile'?\n"
        "units.yaml:8:31: error: units.halberdier.profile.A: expected an integer, a roll needed "
        "such as 3+, a dice expression such as D6, or null for '-', got 'D7'\n"
        "        profile: {M: 4, WS: 3, A: D7}\n"
        "                                  ^^"
    )


def test_load_and_check_reads_the_file(tmp_path: Path) -> None:
    file = tmp_path / "index.yaml"
    file.write_text("kind: ruleset\nrules: [core.rules]\n", encoding="utf-8")
    assert load_and_check(file, "manifest").value == {"kind": "ruleset", "rules": ["core.rules"]}


def test_unknown_schema_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="no schema 'tabel'.*did you mean 'table'"):
        validate(load_yaml("f.yaml", "a: 1\n"), "tabel")


# --- the documented examples -------------------------------------------------------------

EXAMPLE = re.compile(r"<!-- example: (\w+) -->\n```yaml\n(.*?)```", re.DOTALL)


def test_docs_have_an_example_of_every_file_kind() -> None:
    kinds = {schema for schema, _ in EXAMPLE.findall(DOCS.read_text(encoding="utf-8"))}
    assert kinds == {f.name.removesuffix(".schema.json") for f in SCHEMA_FILES} - {"common"}


@pytest.mark.parametrize(
    ("schema", "text"), EXAMPLE.findall(DOCS.read_text(encoding="utf-8")) if DOCS.exists() else []
)
def test_documented_example_is_valid(schema: str, text: str) -> None:
    assert validate(load_yaml("example.yaml", text), schema) == []
