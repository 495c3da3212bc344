"""Counters that hold values of a declared type (``holds``), and ``counter_values``."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle
from rules_run.engine.setup import specialised

RULES = '''ruleset cv "Held counter kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
record Mark(by: unit, on: unit, note: text) @ L1
counter marks of unit, text holds Mark = none @ L1
counter leader of side holds unit = none @ L1
counter calls of unit holds text = "quiet" until end of turn @ L1
counter never_set of unit holds Mark = none @ L1
phase first_phase @ L1
    for each u in units(active_side):
        for each e in enemies(u):
            set_counter(marks, e, "b", Mark(u, e, "b"))
            set_counter(marks, e, "a", Mark(u, e, "a"))
        set_counter(leader, u.side, u)
        if u.W > 1: set_counter(calls, u, "loud")
    set_counter(marks, units(active_side)[0], "a", none)
    log "marks", [m.by.id + ">" + m.on.id + ":" + m.note for each m in counter_values(marks)]
    log "leaders", [u.id for each u in counter_values(leader)]
    log "calls", counter_values(calls), count(counter_values(never_set))
battle @ L1
    rounds 1
    round:
        for each s in sides():
            play_turn(s)
    turn:
        first_phase()
    score:
        pass
'''

BATTLE = '''edition: cv
seed: 1
game: {rounds: 1, first: red}
units:
  - {id: c, side: red, characteristics: {W: 2}, models: 1, position: {x: 10, y: 10, facing: 0}}
  - {id: a, side: red, characteristics: {W: 1}, models: 1, position: {x: 20, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {W: 1}, models: 1, position: {x: 10, y: 40, facing: 180}}
'''


def logs(runtime, battle) -> list:
    return [(e.side, e.message, *e.values) for e in run_battle(runtime, battle).events
            if e.kind == "log"]


def test_the_values_set_come_in_the_order_of_their_keys_without_the_unset(
        tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "cv", RULES, BATTLE)
    assert logs(runtime, battle) == [
        # red's turn: c and a mark b ("a" then "b" by key, whatever order they were set in;
        # a's marks replaced c's); red's first unit, c, was never marked. The leader of red
        # is the last set; the counter of calls keeps c's this turn only
        ("red", "marks", ["a>b:a", "a>b:b"]),
        ("red", "leaders", ["a"]),
        ("red", "calls", ["loud"], 0),
        # blue's turn: b marks a and c; blue's first unit is b: its "a" mark set back to
        # none is left out, its "b" mark from red's turn stays. Unit keys come by id: a, b, c
        ("blue", "marks", ["b>a:a", "b>a:b", "a>b:b", "b>c:a", "b>c:b"]),
        ("blue", "leaders", ["b", "a"]),   # sides by name: blue, red
        ("blue", "calls", [], 0),
    ]


def test_a_specialised_battle_reads_them_alike(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "cv", RULES, BATTLE)
    assert logs(specialised(runtime, battle), battle) == logs(runtime, battle)
