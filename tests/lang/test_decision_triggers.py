"""``when DECISION``: a trigger runs after a declared decision is made, with the decision's
parameters and ``result`` (the option chosen) as names."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.kit import kit_battle

from rules_run.diagnostics import InterpreterError
from rules_run.engine.driver import run_battle

RULES = '''ruleset dec "Decision kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds, Ld range 0..12 @ L1
status steady @ L1
status wavering @ L1
decision stance(u: unit) options ["hold", "rally"] @ L1
phase muster @ L1
    for each u in units(active_side):
        decide(stance, u)
battle @ L1
    rounds 2
    round:
        for each s in sides():
            play_turn(s)
    turn:
        muster()
    score:
        pass
rule "Banner" @ L1
    when stance if u == bearer and result == "rally": apply(steady, bearer)
    when stance if u == bearer and result == "hold": apply(wavering, bearer)
'''

BATTLE = '''edition: dec
seed: 3
game: {rounds: 2, first: red}
duel: {distance: 10}
units:
  - {id: a, side: red, characteristics: {W: 1, Ld: 7}, models: 5, rules: ["Banner"]}
  - {id: b, side: blue, characteristics: {W: 1, Ld: 7}, models: 5, rules: ["Banner"]}
orders:
  - {decision: stance, unit: b, choose: rally}
'''


def test_a_trigger_on_a_decision_runs_after_it_with_the_choice(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "dec", RULES, BATTLE)
    result = run_battle(runtime, battle)
    fired = [(e.event, e.unit) for e in result.events if e.kind == "trigger"]
    # one decision for each unit in each of its side's two turns; each fires its own unit's
    # trigger only (u == bearer)
    assert fired == [("stance", "a"), ("stance", "b"), ("stance", "a"), ("stance", "b")]
    gained = [(e.unit, e.status) for e in result.events
              if e.kind == "status" and e.change == "gains"]
    # a: no order, so the first option ("hold"); b: its order says "rally" once, then "hold"
    assert gained == [("a", "wavering"), ("b", "steady"), ("b", "wavering")]
    kinds = [e.kind for e in result.events if e.kind in ("decision", "trigger")]
    assert kinds[:2] == ["decision", "trigger"]   # the trigger follows its decision


def test_a_trigger_on_a_misspelt_decision_is_located(tmp_path: Path) -> None:
    with pytest.raises(InterpreterError) as caught:
        kit_battle(tmp_path, "dec", RULES.replace("when stance if u == bearer and result == "
                                                  '"hold"', 'when stanse if u == bearer and '
                                                  'result == "hold"'), BATTLE)
    [diag] = caught.value.diagnostics   # the names it reads are not reported unknown
    assert (diag.span.line, diag.span.column, diag.code, diag.message, diag.hint) == (
        21, 5, "unknown-event", "'when stanse': no event, action, phase, test, roll, status or "
        "decision is named 'stanse'", "did you mean 'stance'?")
