"""Clause-level overrides of sequences and actions: ``override sequence NAME`` with steps
(or ``damage``) changes those and keeps the others; ``override action NAME`` without a
parameter list changes the values of the action's ``let`` lines of those names; and the
located diagnostics for one that cannot apply."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from rules_run.chance import ScriptedChance, enumerate_exact
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.lang.parser import parse_rules
from rules_run.runtime.compiled import compile_ruleset

from .test_rolls import kit, unit

BASE = '''
test hit(a: unit) @ L1
    dice D6
    need 4
test wound(a: unit, t: unit) @ L1
    dice D6
    need 4
    natural 6 is six
test save(t: unit) @ L1
    dice D6
    need 5
sequence attack(a: unit, t: unit) @ L1
    step hit: hit(a) stops on fail
    step wound: wound(a, t) stops on fail
    step save: save(t) stops on pass
    damage 1
action bonus(u: unit) @ L1
    let base = 1
    if u.S > 3:
        let extra = u.S - 3
        return base + extra
    return base
action twice(u: unit) @ L1
    if u.S > 3:
        let x = 1
        return x
    let x = 2
    return x
'''


def patched(tmp_path: Path, rules: str) -> Path:
    kit(tmp_path, BASE)
    folder = tmp_path / "kit-house"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [house.rules]\n")
    (folder / "house.rules").write_text('ruleset kit-house "House" extends kit\n'
                                        '    source "000_c4300f58fce5f1da.txt"\n' + rules)
    return folder


def runtime(tmp_path: Path, rules: str):
    return compile_ruleset(load_ruleset(patched(tmp_path, rules)), builtins=BUILTINS)


def mean_damage(rt) -> F:
    a, t = unit(rt, "a"), unit(rt, "t")
    seq = rt.sequences["attack"]
    return enumerate_exact(lambda ch: seq.run(rt.env(ch), {"a": a, "t": t})).map(
        lambda o: o.damage).mean()


@pytest.mark.parametrize(("rules", "expected"), [
    ("", F(1, 2) * F(1, 2) * F(2, 3)),
    # the wound step replaced where it stands, with a hook of its own: a 6 skips the save
    ("override sequence attack @ L1\n    step wound: wound(a, t) stops on fail\n"
     "        on six: skip save @ L1\n", F(1, 2) * (F(1, 3) * F(2, 3) + F(1, 6))),
    ("override sequence attack @ L1\n    damage 2\n", 2 * F(1, 2) * F(1, 2) * F(2, 3)),
    # a step given that needs 2+ to hit, and the damage: both change, the rest stays
    ("override sequence attack @ L1\n    damage 3\n    step hit: wound(a, t) stops on fail\n",
     3 * F(1, 2) * F(1, 2) * F(2, 3)),
])
def test_the_steps_given_change_and_the_rest_stay(tmp_path, rules, expected) -> None:
    assert mean_damage(runtime(tmp_path, rules)) == expected


def test_a_changed_step_keeps_its_place_in_the_chain(tmp_path) -> None:
    rt = runtime(tmp_path, "override sequence attack @ L1\n    step hit: save(a) stops on fail\n")
    assert [s.name for s in rt.decls["attack"].steps] == ["hit", "wound", "save"]
    a, t = unit(rt, "a"), unit(rt, "t")
    # scripted: the hit step now rolls the save test (5 passes), then wound 4, save 1
    outcome = rt.sequences["attack"].run(
        rt.env(ScriptedChance({"save": [5, 1], "wound": [4]})), {"a": a, "t": t})
    assert outcome.damage == 1


@pytest.mark.parametrize(("rules", "strong", "weak"), [
    ("", 1 + 2, 1),
    ("override action bonus @ L1\n    let base = 10\n", 10 + 2, 10),
    # a let inside an `if`: changed where it stands
    ("override action bonus @ L1\n    let extra = u.S\n", 1 + 5, 1),
    ("override action bonus @ L1\n    let extra = 0\n    let base = u.S\n", 5, 3),
])
def test_the_lets_given_change_and_the_rest_stay(tmp_path, rules, strong, weak) -> None:
    rt = runtime(tmp_path, rules)
    env = rt.env(ScriptedChance({}))
    assert rt.invoke("bonus", env, {"u": unit(rt, "s", S=5)}) == strong
    assert rt.invoke("bonus", env, {"u": unit(rt, "w", S=3)}) == weak


def test_an_override_with_a_parameter_list_still_replaces_the_action_whole(tmp_path) -> None:
    rt = runtime(tmp_path, "override action bonus(u: unit) @ L1\n    let base = 7\n"
                 "    return base\n")
    assert rt.invoke("bonus", rt.env(ScriptedChance({})), {"u": unit(rt, "s", S=5)}) == 7


@pytest.mark.parametrize(("rules", "expected"), [
    ("override sequence attack @ L1\n    step wounds: wound(a, t) stops on fail\n",
     (4, 5, "patch-clause-missing", "override: sequence 'attack' has no step 'wounds' to "
      "change", "did you mean 'wound'?")),
    ("override sequence atack @ L1\n    damage 2\n",
     (3, 1, "patch-override-missing", "override: there is no sequence 'atack' to override",
      "did you mean 'attack'?")),
    ("override action bonus @ L1\n    let bas = 2\n",
     (4, 5, "patch-clause-missing", "override: action 'bonus' has no 'let bas' to change",
      "did you mean 'base'?")),
    ("override action bonus @ L1\n    let zzz = 2\n",
     (4, 5, "patch-clause-missing", "override: action 'bonus' has no 'let zzz' to change",
      "its let lines: base, extra")),
    ("override action twice @ L1\n    let x = 3\n",
     (4, 5, "patch-clause-ambiguous", "override: action 'twice' has 2 lines 'let x' "
      "(kit/kit.rules: line 28, line 30): which one changes cannot be told",
      "give them different names in 'twice', or override twice(...) whole")),
    ("override action bonus @ L1\n    let base = 2\n    return base\n",
     (5, 5, "syntax", "'override action bonus' without parameters changes its let lines: "
      "each line is 'let NAME = EXPR'", "to replace the action whole, give its parameters: "
      "override action bonus(...)")),
    ("override action bonus @ L1\n    let base = 2\n    let base = 3\n",
     (5, 5, "duplicate-clause", "'override action bonus' gives 'let base' twice", None)),
    ("override action bonus once per turn @ L1\n    let base = 2\n",
     (3, 23, "syntax", "'override action bonus' without parameters changes its let lines; a "
      "'once per' limit belongs to a whole action", "to replace the action whole, give its "
      "parameters: override action bonus(...)")),
    ("add sequence attack @ L1\n    damage 2\n",
     (3, 1, "syntax", "'add' takes a whole declaration; 'override sequence attack' changes "
      "clauses", None)),
])
def test_a_clause_override_that_cannot_apply_is_located(tmp_path, monkeypatch, rules,
                                                         expected) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InterpreterError) as err:
        load_ruleset(patched(tmp_path, rules).relative_to(tmp_path))
    assert [(d.span.line, d.span.column, d.code, d.message, d.hint)
            for d in err.value.diagnostics] == [expected]


def test_the_action_patch_is_told_apart_by_its_missing_parameter_list() -> None:
    parsed = parse_rules("override action a @ L1\n    let x = 1\n"
                         "override action b() @ L1\n    let x = 1\n", "x.rules")
    assert [type(op.decl).__name__ for op in parsed.items] == ["ActionPatch", "ActionDecl"]
