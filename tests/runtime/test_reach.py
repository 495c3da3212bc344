"""What a battle can reach (issue #18, :mod:`rules_run.runtime.reach`): for each kind of
fact the specialised code folds (a value no unit has, a counter never written, a status
never applied, an action whose value is then constant, a loop over an empty list and the
branches these decide), a battle where the fact holds folds it and one where it does not
keeps the code; the folded code gives the same values and events as the plain code."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import ScriptedChance
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import Runtime, compile_ruleset
from rules_run.runtime.entities import Unit
from rules_run.runtime.reach import reach
from rules_run.runtime.specialise import battle_facts, specialised

RULES = '''ruleset kit "Reach kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 0..10 @ L1
counter charged of unit = 0 @ L1
counter spent of unit = 0 @ L1
counter watched of unit = 0 @ L1
counter noted of unit = 0 @ L1
counter asked of unit = 0 @ L1
status hexed @ L1
status dazed @ L1
status braced @ L1

action level(u: unit) @ L1
    return if value_of(u, "level") == none then 0 else value_of(u, "level")

action spare(u: unit) @ L1
    let lv = level(u)
    return u.W + lv * 3

action steady(u: unit) @ L1
    return u.W > 0 and level(u) == 0

action casters() @ L1
    return [u for each u in all_units() where level(u) > 0]

decision pick(u: unit) options numbers(0, counter(asked, u)) @ L1

action choosing() @ L1
    return decide(pick, all_units()[0])

action lonely(u: unit) @ L1
    return count(friends(u))

action hex_all() @ L1
    for each w in casters():
        set_counter(charged, w, 1)
        if counter(noted, w) > 0:
            clear(dazed, w)
        for each u in all_units() where u.side != w.side:
            apply(hexed, u)

action charges() @ L1
    return sum([counter(charged, u) for each u in all_units()])

action unhex() @ L1
    for each u in all_units():
        if u is hexed:
            clear(hexed, u)
        clear(hexed, u)

action never_called() @ L1
    set_counter(spent, all_units()[0], 1)

action spending() @ L1
    return counter(spent, all_units()[0])

action watching() @ L1
    return counter(watched, all_units()[0])

action on_watch() @ L1
    return 0

rule "Watcher" @ L1
    when on_watch:
        set_counter(watched, all_units()[0], 1)

phase magic @ L1
    hex_all()
    unhex()
    on_watch()
    if charges() > 0 or count(casters()) > 0:
        apply(dazed, all_units()[0])
    let s = spending()
    let w = watching()
    for each u in all_units():
        set_counter(noted, u, 1)
    if count(casters()) > 5:
        choosing()
    let f = lonely(all_units()[0])
    let sp = spare(all_units()[0])
    let st = steady(all_units()[0])

action braced_now(u: unit) @ L1
    return u is braced

phase drill @ L1
    for each u in all_units() while count(all_units()) > 0:
        during braced on u:
            set_counter(noted, u, if braced_now(u) then 2 else 1)
'''


@pytest.fixture
def kit(tmp_path: Path):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "kit.rules").write_text(RULES, encoding="utf-8")
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n", encoding="utf-8")
    ruleset = load_ruleset(folder)
    return compile_ruleset(ruleset, builtins=BUILTINS)


def _units(wizard: bool, allies: bool = False) -> list[Unit]:
    a = Unit("a", "Adepts", "A", {"W": 1}, 5, values={"level": 2} if wizard else {})
    b = Unit("b", "Brutes", "A" if allies else "B", {"W": 1}, 5)
    return [a, b]


def _source(runtime: Runtime, name: str) -> str:
    return runtime.actions[name].body.__rules_source__


def test_a_value_no_unit_has_folds_and_the_actions_it_decides(kit):
    fast = specialised(kit, battle_facts(kit, _units(False)))
    assert "return 0" in _source(fast, "level")   # value_of(u, "level") is none for all
    assert "return []" in _source(fast, "casters")
    assert "set_counter" not in _source(fast, "hex_all")   # a loop over an empty list
    assert fast.reach is not None and "charged" in fast.reach.unwritten
    assert "return 0" in _source(fast, "charges")   # a counter never written
    # the branch the constant actions decide is left out
    assert "dazed" not in _source(fast, "magic")


def test_a_part_of_an_expression_the_facts_fix_is_written_as_its_value(kit):
    fast = specialised(kit, battle_facts(kit, _units(False)))
    # a local every way to which gives it one value, within arithmetic
    assert "_l_lv = 0" in _source(fast, "spare") and "* 3" not in _source(fast, "spare")
    # an operand of "and" the facts make true is left out
    assert "== 0" not in _source(fast, "steady") and "> 0" in _source(fast, "steady")
    slow = specialised(kit, battle_facts(kit, _units(True)))   # a unit has a level
    assert "_call_level" in _source(slow, "spare") and "* 3" in _source(slow, "spare")
    assert "== 0" in _source(slow, "steady") and "_call_level" in _source(slow, "steady")


def test_a_value_some_unit_has_keeps_the_code(kit):
    slow = specialised(kit, battle_facts(kit, _units(True)))
    assert "'level'" in _source(slow, "level")   # still read
    assert "set_counter" in _source(slow, "hex_all")
    assert slow.reach is not None and "charged" not in slow.reach.unwritten
    assert "hexed" not in slow.reach.unapplied
    assert "counter" in _source(slow, "charges") and "dazed" in _source(slow, "magic")


def test_a_status_never_applied_folds_its_tests_and_clears(kit):
    found = reach(kit, battle_facts(kit, _units(False)))
    assert "hexed" in found.unapplied and "dazed" in found.unapplied
    fast = specialised(kit, battle_facts(kit, _units(False)))
    assert "hexed" not in _source(fast, "unhex") and "unhex" not in _source(fast, "magic")
    slow = specialised(kit, battle_facts(kit, _units(True)))
    assert "hexed" in _source(slow, "unhex") and "unhex" in _source(slow, "magic")


def test_a_status_held_during_a_block_is_applied_and_its_body_reached(kit):
    found = reach(kit, battle_facts(kit, _units(False)))
    assert "braced" not in found.unapplied and "braced_now" in found.reached
    fast = specialised(kit, battle_facts(kit, _units(False)))
    assert "braced" in _source(fast, "braced_now")


def test_a_write_counts_only_where_the_battle_reaches_it(kit):
    found = reach(kit, battle_facts(kit, _units(False)))
    assert "never_called" not in found.reached and "spent" in found.unwritten
    assert "magic" in found.reached and "spending" in found.reached
    # a trigger's body is always reached; an action a trigger watches is never dropped
    assert "watched" not in found.unwritten
    fast = specialised(kit, battle_facts(kit, _units(False)))
    assert "_call_on_watch" in _source(fast, "magic")
    assert "counter" in _source(fast, "watching")
    assert "counter" not in _source(fast, "spending")


@pytest.mark.parametrize("wizard,allies", [(False, False), (True, False), (False, True)])
def test_the_folded_code_does_what_the_plain_code_does(kit, wizard, allies):
    from types import SimpleNamespace

    from rules_run.engine.state import BattleState

    fast = specialised(kit, battle_facts(kit, _units(wizard, allies)))
    results = []
    for runtime in (kit, fast):
        battle = SimpleNamespace(units=_units(wizard, allies), doc=SimpleNamespace(value={"units": [
            {"position": {"x": 10, "y": 10}}, {"position": {"x": 20, "y": 20}}]}),
                                 sides=["A", "B"], options={})
        state = BattleState(runtime, battle, [], {})
        env = runtime.env(ScriptedChance([]), events=[], state=state)
        values = [runtime.invoke(n, env, {}) for n in ("charges", "casters")]
        runtime.invoke("magic", env, {})
        values += [runtime.invoke(n, env, {}) for n in ("charges", "spending", "watching")]
        values += [runtime.invoke(n, env, {"u": u}) for n in ("lonely", "spare", "steady")
                   for u in state.units]
        values.append(sorted((u.id, sorted(u.statuses)) for u in state.units))
        results.append((repr(values), [repr(e) for e in env.events]))
    assert results[0] == results[1]


def test_a_counter_nothing_reads_is_not_written(kit):
    found = reach(kit, battle_facts(kit, _units(False)))
    assert "noted" in found.unread and "noted" not in found.unwritten
    assert "'noted'" not in _source(specialised(kit, battle_facts(kit, _units(False))), "magic")
    slow = specialised(kit, battle_facts(kit, _units(True)))   # hex_all reads it
    assert slow.reach is not None and "noted" not in slow.reach.unread
    assert "'noted'" in _source(slow, "magic")


def test_a_decision_is_reached_where_it_is_decided(kit):
    found = reach(kit, battle_facts(kit, _units(False)))
    assert "choosing" not in found.reached and "asked" in found.unread
    found = reach(kit, battle_facts(kit, _units(True)))
    assert "choosing" in found.reached and "asked" not in found.unread


def test_friends_of_a_battle_of_one_unit_a_side_are_none(kit):
    assert battle_facts(kit, _units(False)).shared_sides == frozenset()
    fast = specialised(kit, battle_facts(kit, _units(False)))
    assert "return 0" in _source(fast, "lonely")
    allied = battle_facts(kit, _units(False, allies=True))
    assert allied.shared_sides == {"A"}
    assert "return 0" not in _source(specialised(kit, allied), "lonely")
