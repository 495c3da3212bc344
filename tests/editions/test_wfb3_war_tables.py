"""The wfb3 ruleset's war engine and chariot charts (seed 003, L1406-L1760): every printed
cell pinned as a literal, each row with the line it is printed on, and what the seed does
not print checked to be absent (null) or marked.

The engines' tables (tables/engines.yaml) hold a template's diameter where the seed gives its
radius: 1" is 2, 1 1/2" is 3. The cannon's and organ gun's Strength is the one up to 12"
(L1506, L1566). Wounds per hit are written with their count of dice: the seed's D4 is 1D4.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from rules_run.data.tables import Table, load_table

TABLES = Path(__file__).resolve().parents[2] / "rulesets" / "wfb3" / "tables"
N = None
VALUES = ["min_range", "range", "template", "strength", "save", "wounds", "points"]


@functools.cache
def table(name: str) -> Table:
    return load_table(TABLES / f"{name}.yaml", name)


# engine, crew: min range, range, template diameter, Strength, save modifier, wounds, points
PRINTED = {
    ("Bolt Thrower", 3): [N, 48, N, 5, -2, "1D4", 15],          # L1469
    ("Bolt Thrower", 4): [N, 64, N, 6, -3, "1D4+1", 20],        # L1470
    ("Bolt Thrower", 5): [N, 80, N, 7, -4, "2D4", 25],         # L1471
    ("Bolt Thrower", 6): [N, 96, N, 8, -5, "2D4+1", 30],       # L1472
    ("Stone Thrower", 3): [12, 48, 2, 5, -2, "1D4", 15],        # L1488
    ("Stone Thrower", 4): [14, 64, 2, 6, -3, "1D4+1", 20],      # L1489
    ("Stone Thrower", 5): [16, 80, 3, 7, -4, "2D4", N],        # L1490 (its points cut off)
    ("Cannon", 2): [N, 36, N, 6, -2, 1, N],                    # L1508: the Jezail
    ("Cannon", 3): [N, 48, N, 7, -3, "1D4", N],                 # L1509
    ("Cannon", 4): [N, 60, N, 8, -4, "1D4+1", N],               # L1510
    ("Cannon", 5): [N, 72, N, 9, -5, "2D4", N],                # L1511
    ("Cannon", 6): [N, 84, N, 10, -6, "2D4+1", N],             # L1512
    ("Mortar", 2): [16, 36, 2, 6, -2, "1D4", 10],               # L1541
    ("Mortar", 3): [16, 36, 2, 7, -2, "1D4", 15],               # L1542
    ("Mortar", 4): [16, 48, 3, 8, -3, "1D4+1", N],              # L1543 (its points cut off)
    ("Organ Gun", 3): [N, 36, N, 5, -3, "1D3", 60],             # L1568: 60 + 20 a barrel more
    ("Flame Cannon", 3): [12, 36, 3, 8, -4, "1D6", 80],         # L1591
    ("Bazuka", 2): [N, 36, 2, 5, -3, "1D3", 40],                # L1616
    ("Fire Thrower", 2): [N, 12, 2, 4, -3, "1D3", 30],          # L1638
    ("Warp-Fire Thrower", 2): [N, 12, 2, 5, -4, "1D3", 60],     # L1655 (the save: scan uncertain)
}
ENGINES = ["Bolt Thrower", "Stone Thrower", "Cannon", "Mortar", "Organ Gun", "Flame Cannon",
           "Bazuka", "Fire Thrower", "Warp-Fire Thrower"]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_cell_is_the_printed_one_or_absent(engine: str) -> None:
    chart = table("engines")
    for crew in (2, 3, 4, 5, 6):
        want = PRINTED.get((engine, crew), [N] * 7)
        assert [chart.lookup(engine, crew, v) for v in VALUES] == want, (engine, crew)


def test_the_engine_points_table_agrees_with_the_engines_charts() -> None:
    # L1417-L1426: bolt throwers 15, 20, 25, 30 for 3-6 man; stone throwers 15, 20, 25, 30
    # for 3-6 crew (the 5-crew's 25 is cut from its chart at L1490; there is no 6-crew
    # stone thrower chart, and the 7-crew row is cut off, L1427).
    chart = table("engines")
    assert [chart.lookup("Bolt Thrower", c, "points") for c in (3, 4, 5, 6)] == [15, 20, 25, 30]
    assert [chart.lookup("Stone Thrower", c, "points") for c in (3, 4)] == [15, 20]


def test_the_engines_d20_scores() -> None:
    # on target from, wrong from (none), deviation dice
    d20 = table("engine_d20")
    rows = {e: [d20.lookup(e, v) for v in ("on_target", "mishap", "deviation_d6")]
            for e in ["Stone Thrower", "Mortar", "Flame Cannon", "Bazuka", "Fire Thrower",
                      "Warp-Fire Thrower"]}
    assert rows == {
        "Stone Thrower": [13, N, 2],       # L1493-L1494: 13-20 on target, 2D6
        "Mortar": [13, 20, 2],             # L1546-L1547: 13-19, 20 wrong, 2D6
        "Flame Cannon": [13, 19, 2],       # L1594-L1595, L1598: 13-18, 19-20 explodes, 2D6
        "Bazuka": [13, 18, 1],             # L1619-L1620, L1622: 13-17, 18-20 amiss, D6
        "Fire Thrower": [13, 20, 1],       # L1641-L1642, L1645: 13-19, 20 explodes, D6
        "Warp-Fire Thrower": [13, 19, 1],  # L1657: explodes on 19 or 20
    }


def test_the_rate_of_fire_as_crew_are_lost() -> None:
    # L1438-L1447: 1 lost as normal, 2 every second turn ... 10 every tenth.
    assert [table("crew_loss").lookup(n) for n in range(1, 11)] == list(range(1, 11))


def test_the_chariot_damage_chart_cell_by_cell() -> None:
    chart = table("chariot_damage")
    assert [chart.lookup(t) for t in range(3, 8)] == ["none"] * 5     # L1731: 3-7 no effect
    assert chart.lookup(8) == "wheel"           # L1732
    assert chart.lookup(9) == "reins"           # L1733
    assert chart.lookup(10) == "beast_slain"    # L1734
    assert chart.lookup(11) == "crew_struck"    # L1735
    assert chart.lookup(12) == "shaken"         # L1736
    assert chart.lookup(13) == "axle"           # not in seed: the "13" L1732 refers to


def test_the_chariot_span_moves() -> None:
    # L1698-L1701: 1 creature -3", 2 -2", 3 -1", 4 as the creature
    assert [table("chariot_span").lookup(n) for n in (1, 2, 3, 4)] == [-3, -2, -1, 0]
