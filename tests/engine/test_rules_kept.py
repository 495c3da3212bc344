"""A bearer's rules in play are kept on it (``Runtime.rules_in_play``, ``in_play_facts``)
while its rule list is the same and no grant's condition decided them: each change of its
rules must show at once in ``has``, in characteristics and in the rules a roll sees."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset rk "Rules kept kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: A, W as wounds, Ld range 0..12 @ L1
test nerve(u: unit) @ L1
    dice D6
    need 4
rule "Frenzy" @ L1
    add 1 to A
rule "Stubborn" @ L1
    modify nerve need by -1 if u == bearer
rule "Steady Ranks" @ L1
    grant "Stubborn" if count(engaged_with(bearer)) > 0
status blessed @ L1
    grant "Frenzy"
status braced @ L1
    grant "Steady Ranks"
status hardened @ L1
    add 2 to Ld
phase clash @ L1
    let a = unit_named("a")
    let b = unit_named("b")
    log "before", a has "Frenzy", a.A, a.Ld
    apply(blessed, a)
    log "blessed", a has "Frenzy", a.A, a.Ld
    apply(hardened, a)
    log "hardened", a has "Frenzy", a.A, a.Ld
    clear(blessed, a)
    log "cleared", a has "Frenzy", a.A, a.Ld
    clear(hardened, a)
    log "both cleared", a has "Frenzy", a.A, a.Ld
    apply(blessed, a)
    log "blessed again", a has "Frenzy", a.A, a.Ld
    apply(braced, a)
    log "braced apart", a has "Steady Ranks", a has "Stubborn"
    nerve(a)
    engage(a, b)
    log "braced in contact", a has "Stubborn"
    nerve(a)
    clear(braced, a)
    log "unbraced in contact", a has "Steady Ranks", a has "Stubborn"
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

BATTLE = '''edition: rk
seed: 1
game: {rounds: 1, first: red}
dice: [4, 4, 4]
units:
  - {id: a, side: red, characteristics: {A: 1, W: 1, Ld: 7}, models: 5, position: {x: 10, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {A: 1, W: 1, Ld: 7}, models: 5, position: {x: 10, y: 20, facing: 180}}
'''


def test_each_change_of_a_bearers_rules_shows_at_once(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "rk", RULES, BATTLE)
    events = run_battle(runtime, battle).events
    logs = [(e.message, *e.values) for e in events if e.kind == "log"]
    assert logs == [
        ("before", False, 1, 7),
        ("blessed", True, 2, 7),        # a status's grant: its rule's effect too
        ("hardened", True, 2, 9),       # a second status: the rules kept are made again
        ("cleared", False, 1, 9),
        ("both cleared", False, 1, 7),
        ("blessed again", True, 2, 7),  # the same status again: not what was kept before
        # a granted rule that grants on a condition of the battle: read each time
        ("braced apart", True, False),
        ("braced in contact", True),
        ("unbraced in contact", False, False),
    ]
    needs = [(e.need, [m["source"] for m in e.modifiers]) for e in events if e.kind == "test"]
    assert needs == [(4, []), (3, ["Stubborn"]), (4, [])]
