"""Counters ``until end of phase|turn|round``: each period starts from the initial value."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle
from rules_run.engine.state import BattleState

RULES = '''ruleset cp "Counter period kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
counter shouts of unit = 0 until end of phase @ L1
counter calls of side = 1 until end of turn @ L1
counter drills of unit until end of round @ L1
counter total of unit = 0 @ L1
phase first_phase @ L1
    for each u in units(active_side):
        add_counter(shouts, u, 1)
        add_counter(shouts, u, 1)
        add_counter(calls, u.side, 1)
        add_counter(drills, u, 1)
        add_counter(total, u, 1)
        log "first", counter(shouts, u), counter(calls, u.side), counter(drills, u), counter(total, u)
phase second_phase @ L1
    for each u in units(active_side):
        log "second", counter(shouts, u), counter(calls, u.side), counter(drills, u), counter(total, u)
battle @ L1
    rounds 2
    round:
        for each s in sides():
            play_turn(s)
    turn:
        first_phase()
        second_phase()
    score:
        pass
'''

BATTLE = '''edition: cp
seed: 1
game: {rounds: 2, first: red}
units:
  - {id: a, side: red, characteristics: {W: 1}, models: 1, position: {x: 10, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {W: 1}, models: 1, position: {x: 10, y: 40, facing: 180}}
'''


def test_each_period_starts_from_the_initial_value(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "cp", RULES, BATTLE)
    logs = [(e.round, e.side, e.message, *e.values) for e in run_battle(runtime, battle).events
            if e.kind == "log"]
    assert logs == [
        # shouts: 2 in its phase, 0 the next; calls: 1 + 1 in the turn, then again; drills:
        # one a turn, kept through the round (both sides' turns) and back to 0 the next
        (1, "red", "first", 2, 2, 1, 1), (1, "red", "second", 0, 2, 1, 1),
        (1, "blue", "first", 2, 2, 1, 1), (1, "blue", "second", 0, 2, 1, 1),
        (2, "red", "first", 2, 2, 1, 2), (2, "red", "second", 0, 2, 1, 2),
        (2, "blue", "first", 2, 2, 1, 2), (2, "blue", "second", 0, 2, 1, 2),
    ]


def test_earlier_periods_values_are_forgotten(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "cp", RULES, BATTLE)
    state = BattleState(runtime, battle, [], {})
    env = runtime.env(None, battle.options, [], state)
    unit = state.units[0]
    BUILTINS["add_counter"](state, env, None, "shouts", unit, 3)
    state.phases += 1
    assert BUILTINS["counter"](state, env, None, "shouts", unit) == 0
    assert [k for k in state.counters if k[0] == "shouts"] == [("shouts", ("phase", 1), unit.id)]
