"""Grants re-read while their condition holds: a rule granted while a unit is in contact
comes and goes with the contact; a grant on a parameter only is resolved at set-up."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset lg "Live grant kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: A, W as wounds, Ld range 0..12 @ L1
test nerve(u: unit) @ L1
    dice D6
    need 4
rule "Stubborn" @ L1
    modify nerve need by -1 if u == bearer
rule "Frenzy" @ L1
    add 1 to A
rule "Steady Ranks" @ L1
    grant "Stubborn" if count(engaged_with(bearer)) > 0
rule "Drilled" (n: int) @ L1
    grant "Frenzy" if n > 1
phase clash @ L1
    let a = unit_named("a")
    let b = unit_named("b")
    log "apart", a has "Stubborn", a has "Frenzy", a.A
    nerve(a)
    engage(a, b)
    log "in contact", a has "Stubborn", a.A
    nerve(a)
    disengage(a)
    log "apart again", a has "Stubborn"
    nerve(a)
battle @ L1
    rounds 1
    round:
        play_turn(sides()[0])
    turn:
        clash()
    score:
        pass
'''

BATTLE = '''edition: lg
seed: 1
game: {rounds: 1, first: red}
dice: [4, 4, 4]
units:
  - {id: a, side: red, characteristics: {A: 1, W: 1, Ld: 7}, models: 5, rules: ["Steady Ranks", "Drilled (2)"], position: {x: 10, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {A: 1, W: 1, Ld: 7}, models: 5, position: {x: 10, y: 20, facing: 180}}
'''


def test_a_grant_on_the_battle_is_read_whenever_the_rules_are_looked_up(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "lg", RULES, BATTLE)
    a = battle.unit("a")
    # resolved at set-up: the condition reads the rule's parameter only
    assert [r.text for r in a.rules] == ["Steady Ranks", "Drilled (2)", "Frenzy"]
    events = run_battle(runtime, battle).events
    logs = [(e.message, *e.values) for e in events if e.kind == "log"]
    assert logs == [("apart", False, True, 2), ("in contact", True, 2), ("apart again", False)]
    needs = [(e.need, [m["source"] for m in e.modifiers]) for e in events if e.kind == "test"]
    assert needs == [(4, []), (3, ["Stubborn"]), (4, [])]
