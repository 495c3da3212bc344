"""Statuses that carry effects (with arguments given when applied), durations keyed to a
side's turn, and statuses that are not refreshed when applied again."""

from __future__ import annotations

from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle

RULES = '''ruleset st "Status kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, T, W as wounds, Ld range 0..12 @ L1
status enfeebled (n: int) @ L1
    add -n to S minimum 1
status hardened @ L1
    add 2 to T
    modify nerve need by -1 if u == bearer
status shaken until end of its next turn @ L1
status stunned until end of next turn reapplied ignored @ L1
counter seen of unit = 0 @ L1
test nerve(u: unit) @ L1
    dice D6
    need 4
phase muster @ L1
    let me = [u for each u in units(active_side)][0]
    let foe = [u for each u in all_units() where u.side != active_side][0]
    log "turn", me, me.S, me.T, foe.S, foe.T, me is shaken, foe is shaken, me is stunned, foe is stunned
    if active_side == "red" and round_number == 1:
        apply(enfeebled(D3), foe)
        apply(hardened, me)
        apply(shaken, foe)
        apply(shaken, me)
        apply(stunned, foe)
    if active_side == "blue" and round_number == 1:
        apply(stunned, me)
    nerve(me)
battle @ L1
    rounds 3
    round:
        for each s in sides():
            play_turn(s)
    turn:
        muster()
    score:
        pass
'''

BATTLE = '''edition: st
seed: 3
game: {rounds: 3, first: red}
duel: {distance: 10}
dice: [2, 4, 4, 4, 4, 4, 4]
units:
  - {id: a, side: red, characteristics: {S: 3, T: 3, W: 1, Ld: 7}, models: 5}
  - {id: b, side: blue, characteristics: {S: 3, T: 3, W: 1, Ld: 7}, models: 5}
'''
