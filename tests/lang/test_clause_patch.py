"""Clause-level overrides: ``override test NAME`` with a few clauses changes those clauses of
the base's declaration and keeps the rest; and the diagnostics for one that cannot apply."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from rules_run.chance import enumerate_exact
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset

from .test_rolls import kit, unit

BASE = '''
test wound(a: unit) @ L1
    dice D6
    need a.S
    natural 6 passes
    natural 1 fails
test panic is wound @ L2
'''


def patched(tmp_path: Path, rules: str) -> Path:
    kit(tmp_path, BASE)
    folder = tmp_path / "kit-house"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [house.rules]\n")
    (folder / "house.rules").write_text('ruleset kit-house "House" extends kit\n'
                                        '    source "000_c4300f58fce5f1da.txt"\n' + rules)
    return folder


def p_pass(rt, name, **args) -> F:
    return enumerate_exact(
        lambda ch: rt.invoke(name, rt.env(ch), dict(args)).passed).probability(True)


@pytest.mark.parametrize(("rules", "strength", "expected"), [
    # the base: a 6 always passes, so a need of 9 still passes on a 6
    ("", 9, F(1, 6)),
    ("override test wound @ L1\n    remove natural 6 passes\n", 9, F(0)),
    ("override test wound @ L1\n    need a.S - 1\n", 5, F(1, 2)),
    ("override test wound @ L1\n    natural 5 passes\n", 9, F(1, 3)),
])
def test_the_clauses_given_change_and_the_rest_stay(tmp_path, rules, strength, expected) -> None:
    rt = compile_ruleset(load_ruleset(patched(tmp_path, rules)), builtins=BUILTINS)
    assert p_pass(rt, "wound", a=unit(rt, S=strength)) == expected
    assert p_pass(rt, "wound", a=unit(rt, S=1)) == F(5, 6)  # natural 1 fails: kept


@pytest.mark.parametrize(("rules", "wound", "panic"), [
    # a clause of a test that reuses another changes that test only
    ("override test panic @ L1\n    need 3\n", F(1, 6), F(2, 3)),
    # a clause of its base changes both (the reusing test takes its base's after patches)
    ("override test wound @ L1\n    natural 5 passes\n", F(1, 3), F(1, 3)),
    ("override test panic @ L1\n    natural 5 passes\n", F(1, 6), F(1, 3)),
])
def test_a_clause_override_of_a_reusing_test_changes_it_alone(tmp_path, rules, wound,
                                                              panic) -> None:
    rt = compile_ruleset(load_ruleset(patched(tmp_path, rules)), builtins=BUILTINS)
    strong = unit(rt, S=9)   # needs 9: only the natural clauses (and panic's need 3) pass
    assert (p_pass(rt, "wound", a=strong), p_pass(rt, "panic", a=strong)) == (wound, panic)


@pytest.mark.parametrize(("rules", "expected"), [
    ("override test wound @ L1\n    remove natural 5 passes\n",
     (4, 12, "patch-clause-missing", "override: test 'wound' has no clause 'natural 5 passes' "
      "to remove", "its natural clauses: natural 6 passes; natural 1 fails")),
    ("override test panic @ L1\n    remove natural 5 passes\n",
     (4, 12, "patch-clause-missing", "override: test 'panic' has no clause 'natural 5 passes' "
      "to remove", "its natural clauses: natural 6 passes; natural 1 fails")),
    ("add test wound @ L1\n    need 3\n",
     (3, 1, "syntax", "'add' takes a whole declaration; 'override test wound' changes "
      "clauses", None)),
])
def test_a_clause_override_that_cannot_apply_is_located(tmp_path, rules, expected) -> None:
    with pytest.raises(InterpreterError) as err:
        load_ruleset(patched(tmp_path, rules))
    assert [(d.span.line, d.span.column, d.code, d.message, d.hint)
            for d in err.value.diagnostics] == [expected]
