"""engaged_group(u): the units of a multiple combat, reached through base contact: the unit
first, then those touching it, then those touching them, each once; a unit in no combat
is a group of its own."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset eg "Engaged group kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: A, W as wounds @ L1
phase clash @ L1
    let a = unit_named("a")
    let b = unit_named("b")
    let c = unit_named("c")
    let d = unit_named("d")
    log "alone", [u.id for each u in engaged_group(a)]
    engage(a, b)
    engage(a, c)
    engage(d, b)
    log "chain", [u.id for each u in engaged_group(d)]
    log "from the middle", [u.id for each u in engaged_group(a)]
battle @ L1
    rounds 1
    round:
        play_turn(sides()[0])
    turn:
        clash()
    score:
        pass
'''

BATTLE = '''edition: eg
seed: 1
game: {rounds: 1, first: red}
units:
  - {id: a, side: red, characteristics: {A: 1, W: 1}, models: 5, position: {x: 10, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {A: 1, W: 1}, models: 5, position: {x: 10, y: 20, facing: 180}}
  - {id: c, side: blue, characteristics: {A: 1, W: 1}, models: 5, position: {x: 30, y: 20, facing: 180}}
  - {id: d, side: red, characteristics: {A: 1, W: 1}, models: 5, position: {x: 10, y: 40, facing: 0}}
'''


def test_the_group_is_walked_breadth_first_each_unit_once(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "eg", RULES, BATTLE)
    logs = [(e.message, *e.values) for e in run_battle(runtime, battle).events if e.kind == "log"]
    # d touches b; b touches a and d; a touches b and c
    assert logs == [("alone", ["a"]), ("chain", ["d", "b", "a", "c"]),
                    ("from the middle", ["a", "b", "c", "d"])]
