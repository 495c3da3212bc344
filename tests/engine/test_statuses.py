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
    grant "Braced"
status shaken until end of its next turn @ L1
status stunned until end of next turn reapplied ignored @ L1
counter seen of unit = 0 @ L1
rule "Braced" @ L1
test nerve(u: unit) @ L1
    dice D6
    need 4
phase muster @ L1
    let me = [u for each u in units(active_side)][0]
    let foe = [u for each u in all_units() where u.side != active_side][0]
    log "turn", me, me.S, me.T, foe.S, foe.T, me is shaken, foe is shaken, me is stunned, foe is stunned, me has "Braced"
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


def _events(tmp_path: Path):
    runtime, battle = kit_battle(tmp_path, "st", RULES, BATTLE)
    return run_battle(runtime, battle).events


def test_a_status_carries_its_effects_with_the_arguments_it_was_applied_with(
        tmp_path: Path) -> None:
    logs = [e.values for e in _events(tmp_path) if e.kind == "log"]
    # turn 1 (red): nothing yet; blue's S 3 less D3 = 2 -> 1; red's T 3 + 2 -> 5
    assert logs[0][:5] == ["a", 3, 3, 3, 3]
    assert logs[1][:5] == ["b", 1, 3, 3, 5]
    assert logs[2][:5] == ["a", 3, 5, 1, 3]


def test_what_a_status_grants_comes_and_goes_with_it(tmp_path: Path) -> None:
    braced = [e.values[-1] for e in _events(tmp_path) if e.kind == "log"]
    # red is hardened from its first turn on (it is never cleared); blue never
    assert braced == [False, False, True, False, True, False]


def test_a_status_modifier_names_the_status_and_its_arguments(tmp_path: Path) -> None:
    tests = [e for e in _events(tmp_path) if e.kind == "test"]
    red, blue = tests[0], tests[1]
    assert red.modifiers == [{"amount": -1, "source": "hardened", "applies_to": "need"}]
    assert red.need == 3
    assert blue.modifiers == [] and blue.need == 4


def test_its_next_turn_and_next_turn_and_reapplied_ignored(tmp_path: Path) -> None:
    events = _events(tmp_path)
    logs = [e.values[5:9] for e in events if e.kind == "log"]
    # [me shaken, foe shaken, me stunned, foe stunned] at the start of each turn
    assert logs == [
        [False, False, False, False],   # 1 red: then red shakes both, stuns blue
        [True, True, True, False],      # 1 blue: blue shaken (until its turn ends), stunned
        [True, False, False, False],    # 2 red: blue's shaken and stunned ended with its turn
        [False, False, False, False],   # 2 blue: red's own shaken ended with red's next turn
        [False, False, False, False],
        [False, False, False, False],
    ]
    expired = [(e.round, e.side, e.statuses) for e in events if e.kind == "expire"
               and e.period == "turn"]
    # blue re-applied stunned in its own turn: ignored, so it still ends with that turn
    assert expired == [(1, "blue", {"b": ["shaken", "stunned"]}), (2, "red", {"a": ["shaken"]})]


def test_reapplied_refreshes_by_default(tmp_path: Path) -> None:
    rules = RULES.replace(" reapplied ignored", "")
    runtime, battle = kit_battle(tmp_path, "st", rules, BATTLE)
    events = run_battle(runtime, battle).events
    expired = [(e.round, e.side, e.statuses) for e in events if e.kind == "expire"
               and e.period == "turn"]
    # blue's own stunned, applied again in its turn 1 (turn 2), now lasts to the end of the
    # next turn to start, red's second (turn 3)
    assert expired == [(1, "blue", {"b": ["shaken"]}),
                       (2, "red", {"a": ["shaken"], "b": ["stunned"]})]


def test_exact_odds_weigh_a_status_with_its_argument() -> None:
    from fractions import Fraction

    from rules_run import open_battle
    from rules_run.engine.odds import attack_odds, plan_attacks

    _, runtime, battle = open_battle("wfb8", "rulesets/wfb8/battles/duel.yaml")
    orcs, halberdiers = battle.unit("orcs"), battle.unit("halberdiers")
    orcs.gain_status("enfeebled", None, runtime.status_instance("enfeebled", {"n": 1}))
    (plan,) = plan_attacks(runtime, orcs, halberdiers, attacks=1)
    # WS3 v WS3 hits on 4+ (1/2); S3 - 1 = 2 v T3 wounds on 5+ (1/3); the halberdiers' light
    # armour 6+ (no modifier at S2) fails 5/6
    assert attack_odds(runtime, plan, halberdiers).damage.probability(1) == Fraction(5, 36)
    orcs.lose_status("enfeebled")
    (plan,) = plan_attacks(runtime, orcs, halberdiers, attacks=1)
    assert attack_odds(runtime, plan, halberdiers).damage.probability(1) == Fraction(5, 24)


HELD = '''ruleset hd "Held kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 0..12 @ L1
status late while round_number >= 2 @ L1
status early quiet while round_number == 1 @ L1
status never_read while round_number >= 1 @ L1
phase muster @ L1
    let me = [u for each u in units(active_side)][0]
    log "turn", me is late, me is early, me is late
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

HELD_BATTLE = '''edition: hd
seed: 3
game: {rounds: 3, first: red}
duel: {distance: 10}
units:
  - {id: a, side: red, characteristics: {W: 1}, models: 5}
  - {id: b, side: blue, characteristics: {W: 1}, models: 5}
'''


def test_a_held_status_is_logged_when_a_read_finds_it_changed(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "hd", HELD, HELD_BATTLE)
    events = run_battle(runtime, battle, keep_events=True).events
    told = [(e.round, e.unit, e.status, e.change, e.quiet) for e in events
            if e.kind == "status"]
    # each unit's first read: early holds (quiet), late not (no event: not held before);
    # round 2 finds early gone and late come; the second read of late in a turn, and round
    # 3, change nothing; a status no rule reads is never told
    assert told == [
        (1, "a", "early", "gains", True), (1, "b", "early", "gains", True),
        (2, "a", "late", "gains", False), (2, "a", "early", "loses", True),
        (2, "b", "late", "gains", False), (2, "b", "early", "loses", True),
    ]


def test_the_narration_tells_a_held_status_unless_quiet(tmp_path: Path) -> None:
    from rules_run.engine.narrate import Words, narrate

    runtime, battle = kit_battle(tmp_path, "hd", HELD, HELD_BATTLE)
    result = run_battle(runtime, battle, keep_events=True)
    lines = [line.strip() for line in narrate(result.events, Words())
             if "late" in line or "early" in line]
    assert lines == ["a: now late", "b: now late"]
