"""Actions and expressions as generated Python code: the rules' meaning (none, booleans,
returns, evaluation order) and the runtime diagnostics, each located."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import RandomChance, ScriptedChance
from rules_run.diagnostics import BattleError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import Runtime, compile_ruleset

HEADER = '''ruleset kit "Code kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, W as wounds range 0..10 @ L1
'''


def kit(tmp_path: Path, rules: str) -> Runtime:
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(HEADER + rules)
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def run(runtime: Runtime, name: str, dice=None, **args):
    chance = ScriptedChance(dice) if dice is not None else RandomChance(1)
    return runtime.invoke(name, runtime.env(chance), dict(args))


def diagnostic(err: pytest.ExceptionInfo[BattleError]):
    (d,) = err.value.diagnostics
    return d


def test_none_propagates_and_ordered_comparisons_with_none_are_false(tmp_path) -> None:
    rt = kit(tmp_path, '''
action calc(x: int) @ L1
    let a = x + 1
    let b = 0 - x
    return [a, b, x < 3, x >= 3, x == none, x / 2]
''')
    assert run(rt, "calc", x=None) == [None, None, False, False, True, None]
    assert run(rt, "calc", x=5) == [6, -5, False, True, False, 3]    # "/" rounds up


def test_and_or_give_booleans_and_short_circuit(tmp_path) -> None:
    rt = kit(tmp_path, '''
action both(x: int) @ L1
    return [x and 7, x or 7, not x]
''')
    assert run(rt, "both", x=3) == [True, True, False]
    assert run(rt, "both", x=0) == [False, True, True]


def test_both_sides_of_a_comparison_are_evaluated(tmp_path) -> None:
    # the right side rolls a die even when the left is none: the dice used stay the same
    # whatever the values, so scripted dice and seeds line up
    rt = kit(tmp_path, '''
action cmp(x: int) @ L1
    let first = x < D6
    return [first, D6]
''')
    assert run(rt, "cmp", dice=[4, 2], x=None) == [False, 2]
    assert run(rt, "cmp", dice=[4, 2], x=3) == [True, 2]


def test_return_leaves_nested_loops_and_the_action(tmp_path) -> None:
    rt = kit(tmp_path, '''
action find(xs: list) @ L1
    for each a in xs:
        for each b in xs where b > a:
            if a + b == 7:
                return [a, b]
    return none
''')
    assert run(rt, "find", xs=[1, 3, 4, 6]) == [1, 6]
    assert run(rt, "find", xs=[1, 2]) is None


def test_for_each_order_is_stable_and_comprehensions_keep_locals(tmp_path) -> None:
    rt = kit(tmp_path, '''
action sorted_by_tens(xs: list) @ L1
    let out = []
    for each x in xs ordered by x // 10:
        out = out + [x]
    let x = 99
    let small = [[y, [z * y for each z in [y, -y]]] for each y in (if x > 50 then xs else []) where y < 10]
    return [out, [y * 2 for each y in xs where y > 20], x, small]
''')
    assert run(rt, "sorted_by_tens", xs=[31, 12, 35, 17, 5]) == [
        [5, 12, 17, 31, 35], [62, 70], 99, [[5, [25, -25]]]]


def test_a_name_without_a_value_is_located(tmp_path) -> None:
    # the checker sees every name defined; one can still lack a value when the engine or a
    # rule calls an action without an argument it needs
    rt = kit(tmp_path, '''
action twice(x: int) @ L1
    return x + x
''')
    assert run(rt, "twice", x=2) == 4
    with pytest.raises(BattleError) as err:
        run(rt, "twice")
    d = diagnostic(err)
    assert d.message == "'x' has no value here"
    assert (d.span.line, d.span.column) == (6, 12)


def test_division_by_zero_is_located(tmp_path) -> None:
    rt = kit(tmp_path, '''
action split(x: int) @ L1
    return 10 / x
''')
    with pytest.raises(BattleError) as err:
        run(rt, "split", x=0)
    d = diagnostic(err)
    assert (d.code, d.message) == ("division-by-zero", "division by zero in '/'")
    assert (d.span.line, d.span.column) == (6, 12)


def test_a_runaway_loop_meets_the_step_cap(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(Runtime, "STEP_CAP", 1000)
    rt = kit(tmp_path, '''
action forever(x: int) @ L1
    let n = 0
    while x > 0:
        n += 1
''')
    with pytest.raises(BattleError) as err:
        run(rt, "forever", x=1)
    assert diagnostic(err).code == "step-cap"
    assert run(rt, "forever", x=0) is None


def test_actions_calling_each_other_without_end_are_located(tmp_path) -> None:
    rt = kit(tmp_path, '''
action ping(x: int) @ L1
    return pong(x + 1)
action pong(x: int) @ L1
    if x > 10 * x:
        return x
    return ping(x)
''')
    with pytest.raises(BattleError) as err:
        run(rt, "ping", x=1)
    d = diagnostic(err)
    assert d.code == "too-deep"
    name = "ping" if "'ping'" in d.message else "pong"
    assert d.message == (f"'{name}' was called within itself too deeply: rules that call each "
                         "other without end")
    assert (d.span.line, d.span.column) == ((5, 1) if name == "ping" else (7, 1))
    assert run(rt, "pong", x=-1) == -1


def test_the_generated_source_is_kept_for_debugging(tmp_path) -> None:
    rt = kit(tmp_path, '''
action add_one(x: int) @ L1
    return x + 1
''')
    source = rt.actions["add_one"].body.__rules_source__
    assert source.startswith("def _f(env, vars):")
    assert "return " in source


def test_ordered_by_keys_that_cannot_be_compared_are_located(tmp_path) -> None:
    rt = kit(tmp_path, '''
action sort(xs: list) @ L1
    let out = []
    for each x in xs ordered by if x > 1 then x else none:
        out = out + [x]
    return out
''')
    assert run(rt, "sort", xs=[3, 2]) == [2, 3]
    with pytest.raises(BattleError) as err:
        run(rt, "sort", xs=[3, 1])
    d = diagnostic(err)
    assert (d.code, d.message) == (
        "bad-operands", "'ordered by' gave values that cannot be put in order: 3, none")
    assert (d.span.line, d.span.column) == (7, 33)


def test_arithmetic_on_whole_numbers_and_on_anything_else(tmp_path) -> None:
    # two whole numbers are added in place; lists, texts, none and mistakes go through the
    # operator's checks, which name the operands
    rt = kit(tmp_path, '''
action calc(xs: list) @ L1
    let total = 0
    for each x in xs:
        total = total + (x - 1) * 2
    return [total, [1] + [2], "a" + "b", xs[0] + none]
''')
    assert run(rt, "calc", xs=[1, 2, 3]) == [6, [1, 2], "ab", None]
    with pytest.raises(BattleError) as err:
        run(rt, "calc", xs=[1, "five"])
    d = diagnostic(err)
    assert (d.code, d.message) == ("bad-operands", "cannot compute 'five' - 1")
    assert (d.span.line, d.span.column) == (8, 26)


def test_only_numbers_subtract_multiply_and_divide(tmp_path) -> None:
    # a text or a list times a number is no repetition: "-", "*", "/" and "//" take numbers
    rt = kit(tmp_path, '''
action times(x: list, n: int) @ L1
    return x[0] * n
''')
    assert run(rt, "times", x=[3], n=2) == 6
    assert run(rt, "times", x=[True], n=2) == 2     # true counts as 1
    for item, shown in (("ab", "'ab'"), ([1], "[1]")):
        with pytest.raises(BattleError) as err:
            run(rt, "times", x=[item], n=2)
        assert diagnostic(err).message == f"cannot compute {shown} * 2"


def test_values_that_cannot_be_computed_are_located_at_their_statement(tmp_path) -> None:
    # the checker cannot know a list parameter's items: a text compared with a number fails
    # when the action runs, at the statement that compares them
    rt = kit(tmp_path, '''
action biggest(xs: list) @ L1
    let best = 0
    for each x in xs:
        if x > best:
            best = x
    return best
''')
    assert run(rt, "biggest", xs=[2, 5, 3]) == 5
    with pytest.raises(BattleError) as err:
        run(rt, "biggest", xs=[2, "five"])
    d = diagnostic(err)
    assert d.code == "bad-operands"
    assert d.message == "cannot compute this: '>' not supported between instances of 'str' and 'int'"
    assert (d.span.line, d.span.column) == (8, 12)
