"""The wfb3 ruleset's charts (seed 003, Warhammer Fantasy Battle third edition): every cell
the seed prints, and the cells it lacks.

Printed cells are checked as literals, each with the line it is printed on: the BS table
(L264-L266), the close-combat to-hit chart's rows 1 and 2 (L474-L475, with "+4" ... "+6" as
7 ... 9: a 6 and then 4 ... 6, L476), the Damage Chart's rows S 1 and S 2 (L335-L336, repeated
at L496-L497) and the armour saves (L347-L353, repeated at L504-L510). The cells the seed
lacks (to-hit rows 3-10 and cell 2 v 10, Damage rows S 3-10: not in seed) are checked
against the difference rule the printed cells fit, written here independently of the YAML,
and against the seed's own figures (L330, L341, L477, L488, L500, L1735).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from rules_run.data.tables import Table, load_table
from rules_run.data.yaml_loader import load_yaml

ROOT = Path(__file__).resolve().parents[2]
RULESET = ROOT / "rulesets" / "wfb3"
TABLES = RULESET / "tables"
ONE_TO_TEN = list(range(1, 11))
N = None


@functools.cache
def table(name: str) -> Table:
    return load_table(TABLES / f"{name}.yaml", name)


def ws_rule(attacker: int, target: int) -> int:
    """The difference rule of the printed to-hit cells (README.md): +1 4, 0 and -1 5, -2 and
    -3 6, then "+4" (7) for -4 and -5, "+5" (8) for -6 and -7, "+6" (9) for -8 and -9; +2 and
    +3 give 3 and +4 and more 2 (the reading `ws_advantage: ladder`)."""
    d = attacker - target
    if d >= 4:
        return 2
    if d >= 2:
        return 3
    if d == 1:
        return 4
    return 5 + (-d) // 2


def damage_rule(strength: int, toughness: int) -> int | None:
    """The difference rule of the printed Damage rows (README.md): S - T of +2 or more 2, +1 3,
    0 4, -1 5, -2 and -3 6, -4 or less N."""
    d = strength - toughness
    if d <= -4:
        return None
    return {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(d, 2)


# ============================================================== the BS table (L264-L266)


def test_the_bs_table_as_printed() -> None:
    # L266: 6 5 4 3 2 1 0 -1 -2 -3 for BS 1 to 10.
    assert [table("to_hit_shooting").lookup(bs) for bs in ONE_TO_TEN] == [6, 5, 4, 3, 2, 1, 0, -1, -2, -3]


def test_the_bs_table_examples() -> None:
    # L263: BS 2 needs a 5 or 6, BS 4 a 3 or better; L268: BS 3 needs 4.
    bs = table("to_hit_shooting")
    assert (bs.lookup(2), bs.lookup(4), bs.lookup(3)) == (5, 3, 4)


# ============================================================== the to-hit chart (L471-L477)

PRINTED_WS = {
    1: [5, 5, 6, 6, 7, 7, 8, 8, 9, 9],     # L474: 5 5 6 6 +4 +4 +5 +5 +6 +6
    2: [4, 5, 5, 6, 6, 7, 7, 8, 8],        # L475: 4 5 5 6 6 +4 +4 +5 +5 (column 10 cut)
}


@pytest.mark.parametrize("attacker", [1, 2])
def test_the_printed_to_hit_rows(attacker: int) -> None:
    chart = table("to_hit_melee")
    row = PRINTED_WS[attacker]
    assert [chart.lookup(attacker, t) for t in range(1, len(row) + 1)] == row


def test_the_printed_cells_fit_the_difference_rule() -> None:
    # All 19 printed cells follow the rule the cut cells are filled with.
    for attacker, row in PRINTED_WS.items():
        assert row == [ws_rule(attacker, t) for t in range(1, len(row) + 1)]


@pytest.mark.parametrize("attacker", ONE_TO_TEN)
def test_every_to_hit_cell_is_the_difference_rule(attacker: int) -> None:
    # Rows 3-10 and cell 2 v 10 are not in seed: the difference rule.
    chart = table("to_hit_melee")
    assert [chart.lookup(attacker, t) for t in ONE_TO_TEN] == [ws_rule(attacker, t) for t in ONE_TO_TEN]


def test_the_to_hit_examples_of_the_text() -> None:
    # L477: WS 3 against WS 2 needs 4; L488: WS 4 against WS 3 needs 4; L476: equal WS 5+,
    # scores run from 2 to 6 and "+4" to "+6" (7 to 9).
    chart = table("to_hit_melee")
    assert chart.lookup(3, 2) == 4
    assert chart.lookup(4, 3) == 4
    assert all(chart.lookup(w, w) == 5 for w in ONE_TO_TEN)
    cells = {chart.lookup(a, t) for a in ONE_TO_TEN for t in ONE_TO_TEN}
    assert cells == {2, 3, 4, 5, 6, 7, 8, 9}


# ============================================================== the Damage Chart (L331-L337)

PRINTED_DAMAGE = {
    1: [4, 5, 6, 6, N, N, N, N, N, N],     # L335, L496
    2: [3, 4, 5, 6, 6, N, N, N, N, N],     # L336, L497
}


@pytest.mark.parametrize("strength", [1, 2])
def test_the_printed_damage_rows(strength: int) -> None:
    chart = table("damage")
    assert [chart.lookup(strength, t) for t in ONE_TO_TEN] == PRINTED_DAMAGE[strength]
    assert PRINTED_DAMAGE[strength] == [damage_rule(strength, t) for t in ONE_TO_TEN]


@pytest.mark.parametrize("strength", ONE_TO_TEN)
def test_every_damage_cell_is_the_difference_rule(strength: int) -> None:
    # Rows S 3-10 are not in seed: the difference rule.
    chart = table("damage")
    assert [chart.lookup(strength, t) for t in ONE_TO_TEN] == [damage_rule(strength, t) for t in ONE_TO_TEN]


def test_the_damage_figures_of_the_text() -> None:
    # L330, L341: S4 against T3 needs 3; L500: S3 against T5 needs 6; L1735: S equal to T
    # needs 4; L337: 2 is the lowest score.
    chart = table("damage")
    assert chart.lookup(4, 3) == 3
    assert chart.lookup(3, 5) == 6
    assert all(chart.lookup(v, v) == 4 for v in ONE_TO_TEN)
    assert min(c for s in ONE_TO_TEN for t in ONE_TO_TEN if (c := chart.lookup(s, t)) is not None) == 2


# ============================================================== armour (L347-L353)


def test_the_armour_saves_as_printed() -> None:
    # L349-L353: shield only 6, light armour only 6, light armour and shield 5, heavy armour
    # only 5, heavy armour and shield 4; no armour at all, no save (L343).
    chart = table("armour_save")
    assert chart.lookup("none", "shielded") == 6
    assert chart.lookup("light", "unshielded") == 6
    assert chart.lookup("light", "shielded") == 5
    assert chart.lookup("heavy", "unshielded") == 5
    assert chart.lookup("heavy", "shielded") == 4
    assert chart.lookup("none", "unshielded") is None


def test_the_movement_reductions_as_printed() -> None:
    # L349-L353, in half inches: none, none, 1/2", 1/2", 1".
    chart = table("move_reduction")
    assert [chart.lookup("none", "shielded"), chart.lookup("light", "unshielded"), chart.lookup("light", "shielded"),
            chart.lookup("heavy", "unshielded"), chart.lookup("heavy", "shielded"), chart.lookup("none", "unshielded")] == [0, 0, 1, 1, 2, 0]


def test_the_human_profile_is_the_seed_s() -> None:
    # L55-L58: M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7 Int7 Cl7 WP7.
    human = load_yaml(RULESET / "units" / "humans.yaml").value["units"]["human"]["profile"]
    names = ["M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Int", "Cl", "WP"]
    assert [human[n] for n in names] == [4, 3, 3, 3, 3, 1, 3, 1, 7, 7, 7, 7]
