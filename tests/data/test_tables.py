"""Lookup tables: loading, shape checks, lookups and cell locations."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.data.tables import Table, TableKeyError, load_table
from rules_run.diagnostics import DataError, Span

HEADER = """\
kind: table
cite: "not in seed: standard published value (WFB 8th-edition to-hit chart)"
description: "To hit in close combat: attacker's WS (rows) against the target's WS (columns)"
"""

TO_HIT = HEADER + """\
keys:
  - {name: attacker_ws, values: [1, 2, 3]}
  - {name: target_ws, values: [1, 2, 3]}
cells:
  - [4, 4, 5]
  - [3, 4, 4]
  - [3, 3, 4]
"""


def load(text: str, name: str = "to_hit") -> Table:
    return load_table("t.yaml", name, text=text)


def errors_of(text: str) -> list[tuple[int, int, str, str]]:
    with pytest.raises(DataError) as caught:
        load(text)
    return [
        (d.span.line, d.span.column, d.code, d.message)
        for d in caught.value.diagnostics
        if d.span
    ]


def test_a_two_key_table() -> None:
    table = load(TO_HIT)
    assert table.name == "to_hit"
    assert table.keys == ("attacker_ws", "target_ws")
    assert table.key_values == ((1, 2, 3), (1, 2, 3))
    assert table.cite == "not in seed: standard published value (WFB 8th-edition to-hit chart)"
    assert table.description.startswith("To hit in close combat")
    assert table.path == "t.yaml"
    assert len(table.cells) == 9
    assert table.lookup(1, 3) == 5
    assert table.lookup(3, 1) == 3


def test_cell_span_points_at_the_cell() -> None:
    table = load(TO_HIT)
    assert table.cell_span((1, 3)) == Span("t.yaml", 8, 12, 8, 13)
    assert table.cell_span([3, 2]) == Span("t.yaml", 10, 9, 10, 10)


def test_a_one_key_table_with_symbols_and_impossible_cells() -> None:
    table = load(
        HEADER + "keys:\n  - {name: roll, values: [1, 2, 3]}\ncells: [null, flee, 2]\n", "rout"
    )
    assert table.cells == {(1,): None, (2,): "flee", (3,): 2}
    assert table.lookup(1) is None


def test_a_three_key_table_with_string_keys() -> None:
    table = load(
        HEADER
        + "keys:\n  - {name: a, values: [1, 2]}\n  - {name: b, values: [x, y]}\n"
        + "  - {name: c, values: [front, flank]}\n"
        + "cells:\n  - [[1, 2], [3, 4]]\n  - [[5, 6], [7, auto]]\n"
    )
    assert table.lookup(2, "y", "flank") == "auto"
    assert table.cell_span((2, "y", "flank")) == Span("t.yaml", 10, 18, 10, 22)


def test_load_table_reads_the_file(tmp_path: Path) -> None:
    file = tmp_path / "to_hit.yaml"
    file.write_text(TO_HIT, encoding="utf-8")
    assert load_table(file, "to_hit").lookup(2, 2) == 4


# --- lookups out of range ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ((4, 1), "attacker_ws 4 is not in table 'to_hit' (values 1..3)"),
        ((1, 0), "target_ws 0 is not in table 'to_hit' (values 1..3)"),
        ((1, "2"), "target_ws '2' is not in table 'to_hit' (values 1..3)"),
        ((True, 1), "attacker_ws True is not in table 'to_hit' (values 1..3)"),
        ((1,), "table 'to_hit' takes 2 keys (attacker_ws, target_ws), got 1"),
        ((1, 2, 3), "table 'to_hit' takes 2 keys (attacker_ws, target_ws), got 3"),
    ],
)
def test_lookup_out_of_range(keys: tuple[object, ...], message: str) -> None:
    table = load(TO_HIT)
    with pytest.raises(TableKeyError) as caught:
        table.lookup(*keys)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, KeyError)
    assert (caught.value.table, caught.value.keys) == ("to_hit", keys)


def test_cell_span_out_of_range() -> None:
    with pytest.raises(TableKeyError, match="target_ws 9 is not in table"):
        load(TO_HIT).cell_span((1, 9))


# --- broken tables -----------------------------------------------------------------------

BROKEN = [
    pytest.param(
        TO_HIT.replace("  - [3, 4, 4]\n", "  - [3, 4]\n").replace(
            "  - [3, 3, 4]\n", "  - [3, 3, 4, 4]\n"
        ),
        [
            (9, 5, "bad-shape", "row 2 of cells has 2 entries; target_ws has 3 values"),
            (10, 5, "bad-shape", "row 3 of cells has 4 entries; target_ws has 3 values"),
        ],
        id="rows-of-wrong-length",
    ),
    pytest.param(
        TO_HIT.replace("  - [3, 3, 4]\n", ""),
        [(7, 1, "bad-shape", "cells has 2 entries; attacker_ws has 3 values")],
        id="too-few-rows",
    ),
    pytest.param(
        TO_HIT.replace("  - [3, 4, 4]\n", "  - 3\n"),
        [
            (
                9,
                5,
                "bad-shape",
                "row 2 of cells should be a list of 3 entries, one for each value of target_ws; "
                "got 3",
            )
        ],
        id="too-shallow",
    ),
    pytest.param(
        TO_HIT.replace("  - [3, 4, 4]\n", "  - [3, [4, 5], 4]\n"),
        [
            (
                9,
                9,
                "bad-shape",
                "cells[1][1] should be a single cell, not a list: "
                "the table has 2 keys (attacker_ws, target_ws)",
            )
        ],
        id="too-deep",
    ),
    pytest.param(
        TO_HIT.replace("[1, 2, 3]}\n  - {name: target_ws", "[1, 2, 2]}\n  - {name: attacker_ws"),
        [
            (5, 40, "duplicate-value",
             "duplicate attacker_ws value 2 (first given at line 5, column 37)"),
            (6, 12, "duplicate-value",
             "duplicate key name 'attacker_ws' (first given at line 5, column 12)"),
        ],
        id="duplicate-key-values-and-names",
    ),
    pytest.param(
        TO_HIT.replace("  - [4, 4, 5]\n", "  - [4, 4, 4.5]\n"),
        [
            (
                8,
                12,
                "bad-type",
                "cells[0][2]: expected a cell (an integer, null for an impossible result, "
                "or a short symbol) or a list of them, got 4.5 (number)",
            )
        ],
        id="schema-errors-come-first",
    ),
    pytest.param(
        TO_HIT.replace("  - {name: target_ws", "  - {nmae: target_ws"),
        [
            (6, 5, "missing-key", "missing key 'name' in keys[1]"),
            (6, 6, "unknown-key", "unknown key 'nmae' in keys[1]"),
        ],
        id="misspelt-key-field",
    ),
]


@pytest.mark.parametrize(("text", "expected"), BROKEN)
def test_broken_table(text: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert errors_of(text) == expected


def test_documented_example_loads() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "data-formats.md"
    text = docs.read_text(encoding="utf-8").split("<!-- example: table -->\n```yaml\n")[1]
    table = load(text.split("```")[0], "to_hit_melee")
    assert table.lookup(1, 4) == 5


def test_render_of_a_short_row() -> None:
    with pytest.raises(DataError) as caught:
        load(TO_HIT.replace("  - [3, 3, 4]\n", "  - [3, 3]\n"))
    assert caught.value.render() == (
        "t.yaml:10:5: error: row 3 of cells has 2 entries; target_ws has 3 values\n"
        "      - [3, 3]\n"
        "        ^^^^^^"
    )
