"""``activate``: units act one at a time, sides taking turns; ``where`` re-checked at each pick."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset act "Activation kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
status ready @ L1
phase muster @ L1
    for each u in units() where u.id != "r3" and u.id != "b2":
        apply(ready, u)
    activate u in units() where u is ready alternately starting with active_side:
        log "acts", u
        clear(ready, u)
        if u.id == "r1":
            # a blue unit that was not ready becomes ready: it is handed out later
            apply(ready, unit_named("b2"))
battle @ L1
    rounds 1
    round:
        play_turn(active_side)
    turn:
        muster()
    score:
        pass
'''

BATTLE = '''edition: act
seed: 1
game: {rounds: 1, first: red}
units:
  - {id: r1, side: red, characteristics: {W: 1}, models: 5, position: {x: 10, y: 10}}
  - {id: r2, side: red, characteristics: {W: 1}, models: 5, position: {x: 20, y: 10}}
  - {id: r3, side: red, characteristics: {W: 1}, models: 5, position: {x: 30, y: 10}}
  - {id: b1, side: blue, characteristics: {W: 1}, models: 5, position: {x: 10, y: 40}}
  - {id: b2, side: blue, characteristics: {W: 1}, models: 5, position: {x: 20, y: 40}}
'''


def test_where_is_checked_at_each_pick_and_the_activation_ends_when_no_one_may_act(
        tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "act", RULES, BATTLE)
    result = run_battle(runtime, battle)
    acted = [e.values[0] for e in result.events if e.kind == "log"
             and e.message == "acts"]
    # red, blue, red, blue: b2 became ready when r1 acted; r3 never is, and the activation
    # ends with it left over instead of handing it out
    assert acted == ["r1", "b1", "r2", "b2"]
