"""Actions limited to once per phase, turn, round or battle, counted per key, and used()."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset op "Once-per kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds, Ld range 0..12 @ L1
action shout(u: unit, word: text) once per phase per u, word @ L1
    log "shout", u, word
action rally(u: unit) once per turn per u.side @ L1
    log "rally", u
action banner(u: unit) once per battle @ L1
    log "banner", u
action drill(u: unit) once per round per u @ L1
    log "drill", u
phase first_phase @ L1
    for each u in units(active_side):
        log "before", used(shout, u, "charge"), used(rally, u), used(banner, u), used(drill, u)
        shout(u, "charge")
        shout(u, "charge")
        shout(u, "hold")
        rally(u)
        banner(u)
        drill(u)
phase second_phase @ L1
    for each u in units(active_side):
        log "after", used(shout, u, "charge"), used(rally, u), used(banner, u), used(drill, u)
        shout(u, "charge")
        drill(u)
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

BATTLE = '''edition: op
seed: 1
game: {rounds: 2, first: red}
units:
  - {id: a, side: red, characteristics: {W: 1, Ld: 7}, models: 1, position: {x: 10, y: 10, facing: 0}}
  - {id: c, side: red, characteristics: {W: 1, Ld: 7}, models: 1, position: {x: 20, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {W: 1, Ld: 7}, models: 1, position: {x: 10, y: 40, facing: 180}}
'''


def test_each_limit_counts_its_own_period_and_keys(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "op", RULES, BATTLE)
    logs = [(e.round, e.side, e.message, *e.values) for e in run_battle(runtime, battle).events
            if e.kind == "log"]
    red1 = [x for x in logs if x[:2] == (1, "red")]
    assert red1 == [
        (1, "red", "before", False, False, False, False),
        (1, "red", "shout", "a", "charge"),
        (1, "red", "shout", "a", "hold"),    # another word: another key
        (1, "red", "rally", "a"),
        (1, "red", "banner", "a"),            # once in the whole battle, for anybody
        (1, "red", "drill", "a"),
        (1, "red", "before", False, True, True, False),
        (1, "red", "shout", "c", "charge"),
        (1, "red", "shout", "c", "hold"),     # rally is per side: c's side has used it
        (1, "red", "drill", "c"),
        # a new phase: shout again; drill is once a round
        (1, "red", "after", False, True, True, True),
        (1, "red", "shout", "a", "charge"),
        (1, "red", "after", False, True, True, True),
        (1, "red", "shout", "c", "charge"),
    ]
    blue1 = [x[2:] for x in logs if x[:2] == (1, "blue")]
    assert blue1[:4] == [("before", False, False, True, False), ("shout", "b", "charge"),
                         ("shout", "b", "hold"), ("rally", "b")]
    assert not any(x[2] == "banner" for x in logs if x[:2] != (1, "red"))
    red2 = [x[2:] for x in logs if x[:2] == (2, "red")]
    # a new turn: rally again; a new round: drill again
    assert ("rally", "a") in red2 and ("drill", "a") in red2 and ("drill", "c") in red2


SPLIT = '''ruleset op "Once-per kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds, Ld range 0..12 @ L1
action cast(u: unit, spell: text) by spell once per phase per u @ L1
    log "fizzles", u, spell
case cast "fireball" @ L2
    log "fireball", u
phase first_phase @ L1
    for each u in units(active_side):
        cast(u, "fireball")
        cast(u, "mist")
        log "used", used(cast, u, "mist")
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


def test_a_split_actions_limit_counts_every_case_as_the_action(tmp_path: Path) -> None:
    # the limit is the action's: a case run uses it up for the keys, whatever the value
    runtime, battle = kit_battle(tmp_path, "op", SPLIT, BATTLE)
    logs = [(e.side, e.message, *e.values) for e in run_battle(runtime, battle).events
            if e.kind == "log" and e.round == 1]
    assert logs == [("red", "fireball", "a"), ("red", "used", True),
                    ("red", "fireball", "c"), ("red", "used", True),
                    ("blue", "fireball", "b"), ("blue", "used", True)]
