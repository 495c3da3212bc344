"""Generated code for values known when it is written (issue #18): a table's cell at keys
written in the rules is read once, when the code is written; a side of a comparison or of
``+ - *`` that is a number written in the rules (or such a cell) is not tested for none or
for being a whole number. The rules mean the same: none, texts and mistakes as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import RandomChance
from rules_run.diagnostics import BattleError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import Runtime, compile_ruleset

RULES = '''ruleset kit "Code kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, W as wounds range 0..10 @ L1
table bonus(what) from "tables/bonus.yaml" @ L1
table grid(a, b) from "tables/grid.yaml" @ L1

action fixed() @ L1
    return [bonus["charge"], bonus["rank"] * 2, 1 + bonus["rank"], grid[1, 2]]

action picked(what: text, a: int) @ L1
    return [bonus[what], grid[a, 2]]

action compare(x: int) @ L1
    return [x < 3, 3 < x, x >= bonus["rank"], bonus["charge"] > x, x == 3]

action arithmetic(x: int, xs: list) @ L1
    return [x + 1, 10 - x, x * bonus["rank"], xs[0] - 1]
'''

BONUS = '''kind: table
cite: "L1"
keys:
  - {name: what, values: [charge, rank]}
cells:
  - 1
  - 3
'''

GRID = '''kind: table
cite: "L1"
keys:
  - {name: a, values: [1, 2]}
  - {name: b, values: [1, 2]}
cells:
  - [10, 12]
  - [20, 22]
'''


@pytest.fixture
def rt(tmp_path: Path) -> Runtime:
    folder = tmp_path / "kit"
    (folder / "tables").mkdir(parents=True)
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(RULES)
    (folder / "tables" / "bonus.yaml").write_text(BONUS)
    (folder / "tables" / "grid.yaml").write_text(GRID)
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def run(runtime: Runtime, name: str, **args):
    return runtime.invoke(name, runtime.env(RandomChance(1)), dict(args))


def test_cells_at_written_keys_are_read_when_the_code_is_written(rt) -> None:
    assert run(rt, "fixed") == [1, 6, 4, 12]
    source = rt.actions["fixed"].body.__rules_source__
    assert "return [1, " in source and ", 12, ]" in source   # no lookup left
    assert "type(" in source and source.count("type(") == 2  # only the other side tested


def test_cells_at_keys_known_only_when_it_runs_are_looked_up(rt) -> None:
    assert run(rt, "picked", what="rank", a=2) == [3, 22]
    assert run(rt, "picked", what=None, a=None) == [None, None]
    with pytest.raises(BattleError) as err:
        run(rt, "picked", what="flank", a=1)
    (d,) = err.value.diagnostics
    assert (d.code, d.message) == (
        "table-key", "what 'flank' is not in table 'bonus' (values 'charge', 'rank')")
    with pytest.raises(BattleError) as err:
        run(rt, "picked", what="rank", a=True)   # true is no key, though Python says 1
    (d,) = err.value.diagnostics
    assert (d.code, d.message) == ("table-key", "a True is not in table 'grid' (values 1, 2)")


def test_a_comparison_with_a_written_side_is_false_with_none(rt) -> None:
    assert run(rt, "compare", x=None) == [False, False, False, False, False]
    assert run(rt, "compare", x=3) == [False, False, True, False, True]
    assert run(rt, "compare", x=0) == [True, False, False, True, False]
    with pytest.raises(BattleError) as err:
        run(rt, "compare", x="five")
    (d,) = err.value.diagnostics
    assert d.code == "bad-operands"
    assert d.message == "cannot compute this: '<' not supported between instances of 'str' and 'int'"


def test_arithmetic_with_a_written_side_keeps_none_and_its_checks(rt) -> None:
    assert run(rt, "arithmetic", x=2, xs=[5]) == [3, 8, 6, 4]
    assert run(rt, "arithmetic", x=None, xs=[None]) == [None, None, None, None]
    assert run(rt, "arithmetic", x=2, xs=[2.5]) == [3, 8, 6, 1.5]
    with pytest.raises(BattleError) as err:
        run(rt, "arithmetic", x=2, xs=["five"])
    (d,) = err.value.diagnostics
    assert (d.code, d.message) == ("bad-operands", "cannot compute 'five' - 1")
