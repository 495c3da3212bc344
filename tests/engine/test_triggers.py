"""Triggers (``when <event>``) and grants run in battles."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.kit import kit_battle

from rules_run.diagnostics import BattleError

from rules_run.engine.driver import run_battle

RULES = '''ruleset trig "Trigger kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds, Ld range 0..12 @ L1
status inspired until end of turn @ L1
status steady @ L1
counter rallies of unit = 0 @ L1
test nerve(u: unit) @ L1
    dice 2D6
    pass if result <= u.Ld
phase muster @ L1
    for each u in units(active_side):
        nerve(u)
battle @ L1
    rounds 2
    round:
        for each s in sides():
            play_turn(s)
    turn:
        muster()
    score:
        pass
rule "Banner" @ L1
    when start_of_turn if bearer.side == active_side: apply(inspired, bearer)
    when nerve if u == bearer and result.passed: add_counter(rallies, bearer, 1)
    grant "Drilled"
rule "Drilled" @ L1
    when inspired: apply(steady, bearer)
'''

BATTLE = '''edition: trig
seed: 3
game: {rounds: 2, first: red}
duel: {distance: 10}
units:
  - {id: a, side: red, characteristics: {W: 1, Ld: 12}, models: 5, rules: ["Banner"]}
  - {id: b, side: blue, characteristics: {W: 1, Ld: 12}, models: 5}
'''


def test_triggers_fire_on_engine_events_statuses_and_tests(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "trig", RULES, BATTLE)
    a = battle.unit("a")
    assert [r.text for r in a.rules] == ["Banner", "Drilled"]   # granted
    result = run_battle(runtime, battle)
    fired = [(e.event, e.rule) for e in result.events if e.kind == "trigger"]
    # red's two turns: start_of_turn -> inspired -> Drilled makes it steady; each passed
    # nerve test (Ld 12 always passes) counts a rally
    assert fired.count(("start_of_turn", "Banner")) == 2
    assert ("inspired", "Drilled") in fired
    assert fired.count(("nerve", "Banner")) == 2
    statuses = [(e.unit, e.status, e.change) for e in result.events
                if e.kind == "status"]
    assert ("a", "steady", "gains") in statuses
    assert not any(u == "b" for u, _, _ in statuses)


ENDS = '''ruleset ends "End kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 0..10 @ L1
phase idle @ L1
    pass
battle @ L1
    rounds 5
    round:
        for each s in sides():
            play_turn(s)
    turn:
        idle()
    end if round_number >= 2
    end if round_number >= 4
    score:
        pass
'''


def test_every_end_condition_is_checked_not_only_the_last(tmp_path: Path) -> None:
    # regression: the end conditions' closures once all saw the last condition
    runtime, battle = kit_battle(tmp_path, "ends", ENDS,
                                 BATTLE.replace("edition: trig", "edition: ends")
                                 .replace(', rules: ["Banner"]', "")
                                 .replace(", Ld: 12", "").replace("rounds: 2", "rounds: 5"))
    assert run_battle(runtime, battle).rounds == 2


def test_a_trigger_that_sets_itself_off_stops_with_a_located_error(tmp_path: Path) -> None:
    # every nerve test the Banner's bearer takes makes it take another
    looping = RULES.replace('    grant "Drilled"\n',
                            '    when nerve if u == bearer: nerve(bearer)\n    grant "Drilled"\n')
    assert looping != RULES
    runtime, battle = kit_battle(tmp_path, "trig", looping, BATTLE)
    with pytest.raises(BattleError) as err:
        run_battle(runtime, battle)
    (d,) = err.value.diagnostics
    assert (d.code, d.message) == ("too-deep", "the 'when nerve' of rule 'Banner' sets itself "
                                   "off without end")
    assert (d.span.line, d.span.column) == (25, 5)
