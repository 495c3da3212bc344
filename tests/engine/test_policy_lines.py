"""A policy line for several decisions (``for a, b: choose X``): each decision takes it."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset pl "Policy line kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
decision stance(u: unit) options ["hold", "advance", "run"] @ L1
decision banner(u: unit) options ["furl", "raise"] @ L1
decision shout(u: unit) options ["quiet", "roar"] @ L1
policy bold is default @ L1
    for stance, banner: choose options[count(options) - 1]
    for shout, stance: choose "quiet"
phase muster @ L1
    for each u in units():
        log "chose", decide(stance, u), decide(banner, u), decide(shout, u)
battle @ L1
    rounds 1
    round:
        play_turn(active_side)
    turn:
        muster()
    score:
        pass
'''

BATTLE = '''edition: pl
seed: 1
game: {rounds: 1, first: red}
units:
  - {id: r1, side: red, characteristics: {W: 1}, models: 5, position: {x: 10, y: 10}}
  - {id: b1, side: blue, characteristics: {W: 1}, models: 5, position: {x: 10, y: 40}}
'''


def test_each_decision_of_a_line_takes_its_choice(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "pl", RULES, BATTLE)
    events = run_battle(runtime, battle).events
    # stance: the first line's choice ("run"), before the second's ("quiet", no option)
    assert [e.values for e in events if e.kind == "log"] == [["run", "raise", "quiet"]] * 2
    assert [(e.decision, e.why) for e in events if e.kind == "decision"] == [
        ("stance", "policy bold"), ("banner", "policy bold"), ("shout", "policy bold")] * 2
