"""``during STATUS on THING [if COND], ...:``: statuses for the length of a block, given as
``apply`` gives them when it starts and cleared however it ends; in a battle with scripted
dice, and in the exact odds of a combat (the kernel sees the same applies and clears)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.kit import kit_battle

from rules_run.engine.driver import run_battle
from rules_run.engine.kernel import combat_odds

RULES = '''ruleset dur "During kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, T, W as wounds, Ld range 0..12 @ L1
status steadied @ L1
    modify nerve need by -2 if u == bearer
status watched @ L1
status marked (n: int = 1) @ L1
test nerve(u: unit) @ L1
    dice D6
    need 5
action hold(me: unit) @ L1
    during steadied on me if round_number == 1:
        if not nerve(me): return inflict(me, 1)
    return 0
action probe(me: unit, foe: unit) @ L1
    during (watched on me, marked(2) on foe if foe.models > 0,
            steadied on me if false):
        log "inside", me is watched, foe is marked, me is steadied
        let seen = 3
        if me.models > 0: return seen
    return 0
phase muster @ L1
    let me = [u for each u in units(active_side)][0]
    let foe = [u for each u in all_units() where u.side != active_side][0]
    if round_number == 1 and active_side == "red":
        apply(watched, foe)
        log "after", probe(me, foe), me is watched, foe is marked
        during watched on foe: let kept = foe is watched
        log "kept", kept, foe is watched
    hold(me)
battle @ L1
    rounds 2
    round:
        for each s in sides():
            play_turn(s)
    turn:
        muster()
    score:
        pass
'''

BATTLE = '''edition: dur
seed: 3
game: {rounds: 2, first: red}
duel: {distance: 10}
dice: [2, 4, 4, 5]
units:
  - {id: a, side: red, characteristics: {S: 3, T: 3, W: 1, Ld: 7}, models: 5}
  - {id: b, side: blue, characteristics: {S: 3, T: 3, W: 1, Ld: 7}, models: 5}
'''


def _battle(tmp_path: Path):
    return kit_battle(tmp_path, "dur", RULES, BATTLE)


def test_statuses_are_given_in_order_and_cleared_in_reverse_however_the_block_ends(
        tmp_path: Path) -> None:
    events = run_battle(*_battle(tmp_path)).events
    changes = [(e.change, e.status, e.unit) for e in events if e.kind == "status"]
    # b was watched before: its `during watched` gives and clears nothing, and it stays
    assert changes[:5] == [("gains", "watched", "b"), ("gains", "watched", "a"),
                           ("gains", "marked", "b"), ("loses", "marked", "b"),
                           ("loses", "watched", "a")]
    logs = [(e.message, e.values) for e in events if e.kind == "log"]
    # inside: both given, the one whose condition is false not; the block's `return` leaves
    # it, and clears them; a `let` in a block is a name after it
    assert logs == [("inside", [True, True, False]), ("after", [3, False, False]),
                    ("kept", [True, True])]
    # steadied (need 5 - 2) in the first round only, then cleared: a 2 fails and a 4
    # passes as a 3+; in the second round a 4 fails and a 5 passes as a 5+
    needs = [(e.units, e.need, e.result) for e in events if e.kind == "test"]
    assert needs == [(["a"], 3, "fail"), (["b"], 3, "pass"), (["a"], 5, "fail"),
                     (["b"], 5, "pass")]


def test_the_exact_odds_of_a_combat_see_the_status_only_inside_its_block(
        tmp_path: Path) -> None:
    runtime, battle = _battle(tmp_path)
    found = combat_odds(runtime, battle, "a", "b")
    # a's nerve: a 3+ in round 1 (failed 1/3), a 5+ in round 2 (failed 2/3); one model lost
    # for each failure
    models = found.ends.map(lambda e: e.units[0].models)
    assert models.probability(5) == Fraction(2, 9)
    assert models.probability(4) == Fraction(5, 9)
    assert models.probability(3) == Fraction(2, 9)
    # nothing the blocks gave is left at the end; what b had before stays
    assert {e.units[0].statuses for e in found.ends.support()} == {()}
    assert {e.units[1].statuses for e in found.ends.support()} == {("watched",)}
