"""Tests that reuse a test (``test panic is leadership``): their own name, dice and rules,
the base's clauses with its parameters bound; a patch of the base reaches them; and the
diagnostics for a reuse that cannot be."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from rules_run.chance import ScriptedChance, enumerate_exact
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset

from .test_rolls import HEADER, kit, unit

LEADERSHIP = '''
test leadership(unit: unit, modifier: int = 0) @ L1
    dice 2D6
    pass if result <= clamp(unit.Ld + modifier, 0, 10)
test panic is leadership @ L2
test shaken(unit: unit, lost_by: int) is leadership(unit, 0 - lost_by) @ L3
test calm(unit: unit) is shaken(unit, lost_by = 0 - 2) @ L4
rule "Cold" @ L5
    modify panic by -1
'''


def p_pass(rt, name, **args) -> F:
    return enumerate_exact(
        lambda ch: rt.invoke(name, rt.env(ch), dict(args)).passed).probability(True)


def test_a_reusing_test_takes_the_clauses_with_its_arguments(tmp_path) -> None:
    rt = kit(tmp_path, LEADERSHIP)
    u = unit(rt, Ld=7)
    assert p_pass(rt, "panic", unit=u, modifier=0) == F(21, 36)
    assert p_pass(rt, "leadership", unit=u, modifier=0) == F(21, 36)
    assert p_pass(rt, "panic", unit=u, modifier=-2) == F(10, 36)   # 2D6 <= 5
    assert p_pass(rt, "shaken", unit=u, lost_by=2) == F(10, 36)
    assert p_pass(rt, "calm", unit=u) == F(30, 36)                  # 2D6 <= 9, through two


def test_rules_and_dice_name_the_reusing_test(tmp_path) -> None:
    rt = kit(tmp_path, LEADERSHIP)
    cold = unit(rt, rules=("Cold",), Ld=7)
    assert p_pass(rt, "panic", unit=cold, modifier=0) == F(26, 36)       # 2D6 - 1 <= 7
    assert p_pass(rt, "leadership", unit=cold, modifier=0) == F(21, 36)  # not aimed at it
    result = rt.invoke("panic", rt.env(ScriptedChance({"panic": [4, 4]})),
                       {"unit": cold, "modifier": 0})
    assert (result.name, result.passed, result.value) == ("panic", True, 7)


def test_a_patch_of_the_base_reaches_every_test_that_reuses_it(tmp_path) -> None:
    kit(tmp_path, LEADERSHIP)
    patch = tmp_path / "kit-brave"
    patch.mkdir()
    (patch / "index.yaml").write_text("kind: ruleset\nrules: [patch.rules]\n")
    (patch / "patch.rules").write_text('''ruleset kit-brave "Braver" extends kit
    source "000_c4300f58fce5f1da.txt"
override test leadership(unit: unit, modifier: int = 0) @ L1
    dice 2D6
    pass if result <= clamp(unit.Ld + modifier, 0, 10)
    natural 2 passes
''')
    rt = compile_ruleset(load_ruleset(patch), builtins=BUILTINS)
    assert p_pass(rt, "shaken", unit=unit(rt, Ld=7), lost_by=6) == F(1, 36)  # only a double 1


def diagnostics(tmp_path: Path, rules: str) -> list[tuple[int, int, str, str, str | None]]:
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(HEADER + LEADERSHIP + rules)
    with pytest.raises(InterpreterError) as err:
        load_ruleset(folder)
    first = (HEADER + LEADERSHIP).count("\n")
    return [(d.span.line - first, d.span.column, d.code, d.message, d.hint)
            for d in err.value.diagnostics]


@pytest.mark.parametrize(("rules", "expected"), [
    ("test fear is leadershp @ L6\n",
     [(1, 14, "unknown-reuse", "test 'fear' reuses 'leadershp', which is no roll or test",
       "did you mean 'leadership'?")]),
    ("test fear is calm_option @ L6\noption calm_option: bool = true @ L6\n",
     [(1, 14, "unknown-reuse", "test 'fear' reuses 'calm_option', which is no roll or test "
       "(it is declared with 'option')", None)]),
    ("roll fear is leadership @ L6\n",
     [(1, 14, "reuse-kind", "roll 'fear' reuses test 'leadership': a roll reuses a roll",
       "write: test fear is leadership")]),
    ("test a is b @ L6\ntest b is a @ L6\n",
     [(1, 11, "reuse-cycle", "test 'a' reuses itself: a -> b -> a", None)]),
    ("test fear(u: unit) is leadership(u, 1, 2) @ L6\n",
     [(1, 23, "wrong-arity", "test 'leadership' takes 2 argument(s), got 3",
       "it takes (unit, modifier)")]),
    ("test fear(u: unit) is leadership(u, level = 3) @ L6\n",
     [(1, 45, "unknown-param", "test 'leadership' has no parameter 'level'",
       "it takes (unit, modifier)")]),
    ("test fear(u: int) is leadership(u) @ L6\n",
     [(1, 33, "wrong-type", "argument 1 of leadership must be a unit, got int",
       "leadership takes (unit: unit, modifier: int)")]),
])
def test_a_reuse_that_cannot_be_is_located(tmp_path, rules, expected) -> None:
    assert diagnostics(tmp_path, rules) == expected


# ---------------------------------------------------------------- policies that extend others
def test_a_policy_chooses_as_its_base_for_what_it_leaves_out() -> None:
    decls = load_ruleset(Path(__file__).resolve().parents[2] / "rulesets" / "aos4").decls
    holding, sparing, steady = (decls[n] for n in ("holding", "sparing", "steady_general"))
    own = {d: e for d, e in holding.choices}
    assert holding.choices_for("move_order", decls) == (own["move_order"],)
    assert holding.choices_for("rally", decls) == (dict(sparing.choices)["rally"],)
    assert holding.choices_for("turn_choice", decls) == (dict(steady.choices)["turn_choice"],)
    assert holding.choices_for("no_such_decision", decls) == ()


@pytest.mark.parametrize(("rules", "expected"), [
    ("policy bold extends stedy @ L6\n    for d: choose none\n",
     [(1, 1, "unknown-policy", "policy 'bold' extends 'stedy', which is not a policy",
       "did you mean 'steady'?")]),
    ("policy a extends b @ L6\npolicy b extends a @ L6\n",
     [(1, 1, "reuse-cycle", "policy 'a' extends itself: a -> b -> a", None),
      (2, 1, "reuse-cycle", "policy 'b' extends itself: b -> a -> b", None)]),
])
def test_a_policy_that_cannot_extend_is_located(tmp_path, rules, expected) -> None:
    base = '''decision d(u: unit) options [none] @ L6
policy steady @ L6
    for d: choose none
'''
    got = diagnostics(tmp_path, base + rules)
    assert got == [(line + 3, column, code, message, hint)
                   for line, column, code, message, hint in expected]


def test_a_reusing_test_with_clauses_changes_its_base_clauses(tmp_path) -> None:
    # not in seed: a Leadership test that a double 1 passes (Insane Courage), by reuse
    rt = kit(tmp_path, '''
test leadership(unit: unit, modifier: int = 0) @ L1
    dice 2D6
    pass if result <= unit.Ld + modifier
test courage(unit: unit, lost_by: int) is leadership(unit, 0 - lost_by) @ L2
    natural 2 passes
''')
    hopeless = unit(rt, Ld=7)
    assert p_pass(rt, "courage", unit=hopeless, lost_by=7) == F(1, 36)   # only the double 1
    assert p_pass(rt, "courage", unit=hopeless, lost_by=0) == F(21, 36)
    assert p_pass(rt, "leadership", unit=hopeless, modifier=-7) == F(0)  # the base unchanged


def test_a_reusing_test_that_removes_a_clause_its_base_lacks_is_located(tmp_path) -> None:
    with pytest.raises(InterpreterError) as err:
        kit(tmp_path, '''
test leadership(unit: unit) @ L1
    dice 2D6
    pass if result <= unit.Ld
    natural 2 passes
test courage is leadership @ L2
    remove natural 12 fails
''')
    assert [(d.span.line, d.span.column, d.code, d.message, d.hint)
            for d in err.value.diagnostics] == [
        (10, 12, "patch-clause-missing", "test 'courage' reuses 'leadership', which has no "
         "clause 'natural 12 fails' to remove", "its natural clauses: natural 2 passes")]
