"""Generic unit properties (``u.models``, ``u.wounds``) read in a battle."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset props "Property kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
phase hurt @ L1
    for each u in units(active_side):
        log "before", u.models, u.wounds
        inflict(u, 4)
        log "after", u.models, u.wounds
battle @ L1
    rounds 1
    round:
        play_turn(sides()[0])
    turn:
        hurt()
    score:
        pass
'''

BATTLE = '''edition: props
seed: 1
game: {rounds: 1, first: red}
duel: {distance: 10}
units:
  - {id: a, side: red, characteristics: {W: 3}, models: 4}
  - {id: b, side: blue, characteristics: {W: 3}, models: 4}
'''


def test_wounds_are_the_health_left_on_the_unit(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "props", RULES, BATTLE)
    result = run_battle(runtime, battle)
    logs = [(e.message, e.values) for e in result.events if e.kind == "log"]
    # four 3-wound models take 4 damage: one is slain, the next has 1 damage on it
    assert logs == [("before", [4, 12]), ("after", [3, 8])]
