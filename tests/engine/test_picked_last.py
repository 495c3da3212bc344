"""``picked_last()``: the side whose unit acted last in an activation of this phase."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset lp "Last picker kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
phase muster @ L1
    log "before", picked_last()
    activate u in [u for each u in units() where u.id != "r2"] alternately starting with active_side:
        log "acts", u
    log "then", picked_last()
    activate u in [u for each u in units() where u.id == "r2"] alternately starting with opponent(picked_last()):
        log "acts", u
    log "last", picked_last()
phase after @ L1
    log "next phase", picked_last()
battle @ L1
    rounds 1
    round:
        play_turn(active_side)
    turn:
        muster()
        after()
    score:
        pass
'''

BATTLE = '''edition: lp
seed: 1
game: {rounds: 1, first: red}
units:
  - {id: r1, side: red, characteristics: {W: 1}, models: 5, position: {x: 10, y: 10}}
  - {id: r2, side: red, characteristics: {W: 1}, models: 5, position: {x: 20, y: 10}}
  - {id: r3, side: red, characteristics: {W: 1}, models: 5, position: {x: 30, y: 10}}
  - {id: b1, side: blue, characteristics: {W: 1}, models: 5, position: {x: 10, y: 40}}
'''


def test_the_side_that_picked_last_in_this_phase(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "lp", RULES, BATTLE)
    logs = [(e.message, *e.values) for e in run_battle(runtime, battle).events
            if e.kind == "log"]
    # red r1, blue b1, then red alone: r3 was picked last, so blue would start the next
    # activation, where only red has a unit; the next phase starts with no pick
    assert logs == [("before", None), ("acts", "r1"), ("acts", "b1"), ("acts", "r3"),
                    ("then", "red"), ("acts", "r2"), ("last", "red"), ("next phase", None)]
