"""Generated code without the generic tax (issue #18): an action's locals are Python
variables, a call of an action passes its arguments by position (computed in the order
written), and a function reads the battle's state once. The rules mean the same: the same
values, the same order of dice, the same located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import ScriptedChance
from rules_run.diagnostics import BattleError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import Runtime, compile_ruleset

RULES = '''ruleset kit "Code kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, W as wounds range 0..10 @ L1
counter tally of battle = 0 @ L1
status shaken @ L1

action totals(xs: list) @ L1
    let total = 0
    let big = []
    for each x in xs where x > 1 ordered by 0 - x:
        total += x
        big = big + [y * total for each y in [x] where y > total - 10]
    let n = 0
    while n < 2:
        n += 1
    return [total, big, n]

action pair(a: int, b: int, c: int = 7) @ L1
    return [a, b, c]

action calls() @ L1
    return [pair(1, 2), pair(b = 3, a = 4), pair(1, c = 5, b = 6)]

action rolled() @ L1
    return pair(b = D6, a = D6)

action applied(u: unit) @ L1
    return pair(b = if apply(shaken, u) then 1 else 0, a = if u is shaken then 1 else 0)

action keyword(lambda: int) @ L1
    let class = lambda + 1
    return class

action counted() @ L1
    return [counter(tally), counter(tally), round_number]

action each_unit() @ L1
    activate u in all_units() alternately starting with active_side:
        pass
'''


@pytest.fixture
def rt(tmp_path: Path) -> Runtime:
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(RULES)
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def run(rt: Runtime, name: str, dice=None, **args):
    return rt.invoke(name, rt.env(ScriptedChance(dice or [])), dict(args))


def source(rt: Runtime, name: str) -> str:
    return rt.actions[name].positional.__rules_source__


def test_locals_are_python_variables(rt) -> None:
    # the loop's filter, order and body, a comprehension reading a local, +=, while
    assert run(rt, "totals", xs=[1, 2, 5, 3]) == [10, [25, 24, 20], 2]
    text = source(rt, "totals")
    assert text.startswith("def _f(env, _l_xs):")
    assert "_l_total = " in text and "vars" not in text


def test_what_a_value_reads_is_read_after_what_is_written_before_it(rt) -> None:
    # "u is shaken" reads the battle: it is computed after the apply written before it
    text = source(rt, "applied")
    assert "[-1]" in text and text.index("apply") < text.index("'shaken' in")


def test_a_name_a_rule_cannot_use_in_python_compiles(rt) -> None:
    assert run(rt, "keyword", **{"lambda": 2}) == 3
    assert "_l_class = " in source(rt, "keyword")


def test_calls_of_actions_pass_their_arguments_by_position(rt) -> None:
    assert run(rt, "calls") == [[1, 2, 7], [4, 3, 7], [1, 6, 5]]
    text = source(rt, "calls")
    assert "_call_pair(env, 1, 2, 7)" in text and "_call_pair(env, 4, 3, 7)" in text


def test_arguments_are_computed_in_the_order_written(rt) -> None:
    # b's die is rolled first, as it is written first: held in a temporary, then passed
    assert run(rt, "rolled", dice=[2, 5]) == [5, 2, 7]
    assert "[-1]" in source(rt, "rolled")


def test_an_argument_not_given_is_located_where_it_is_read(rt) -> None:
    with pytest.raises(BattleError) as err:
        run(rt, "pair", a=1, c=2)
    (d,) = err.value.diagnostics
    assert d.message == "'b' has no value here"
    assert (d.span.line, d.span.column) == (19, 16)


def test_the_state_is_read_once_and_is_still_needed(rt) -> None:
    text = source(rt, "counted")
    assert text.count("env.state") == 1 and text.count("_st is not None") == 3
    with pytest.raises(BattleError) as err:
        run(rt, "counted")
    (d,) = err.value.diagnostics
    assert d.message == "counter() needs a battle; it cannot run in an odds calculation"


def test_an_action_holding_activate_keeps_its_locals_in_a_dict(rt) -> None:
    # the body of 'activate' is a function of its own that shares the action's locals
    assert "vars['u']" not in source(rt, "each_unit").split("\n")[1]
    assert rt.actions["each_unit"].body.__rules_source__.startswith("def _f(env, vars):")
    assert source(rt, "each_unit").startswith("def _f(env):")
