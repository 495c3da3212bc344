"""``part`` and ``group`` as parameter types (of actions, rolls, tests, sequences and
decisions), the located errors where they cannot be (a rule's parameter, a characteristic),
and ``on_table``: whether a marker, a unit or a place stands on the table."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine.test_groups import RULES, kit
from helpers.wfb8_world import World, pos, unit

from rules_run.diagnostics import DiagnosticBag, InterpreterError
from rules_run.engine.driver import run_battle

TYPED = RULES.replace("test save(g: any) @ L1", "test save(g: group) @ L1").replace(
    "            report()\n", "            report()\n            typed()\n") + '''
action blows(p: part) @ L1
    return p.A * p.S
action plasma_save(g: group) @ L1
    return if g.name == "plasma" then g.Sv else none
phase typed @ L1
    log "typed", blows(part(unit_named("riders"), "mount")), [plasma_save(g) for each g in groups(unit_named("guard"))]
'''


def test_a_part_and_a_group_are_parameter_types(tmp_path: Path) -> None:
    assert TYPED.count("typed()") == 1 and TYPED.count("test save(g: group)") == 1
    opened = kit(tmp_path, rules=TYPED)
    result = run_battle(opened.runtime, opened.battle, scripted=[3, 2, 4, 6])
    seen = {e.message: e.values for e in result.events if e.kind == "log"}
    # the Horse: A 2, S 3 + 1 for its own Bite; the plasma group saves on 5+
    assert seen["typed"] == [8, [None, 5]]
    # the test typed group saves each group on its own Sv, as it did typed any
    assert seen["slain"] == [2, [2, 1], 3]


@pytest.mark.parametrize(("text", "expected"), [
    ("action a(u: unit) @ L1\n    return blows(u)\naction blows(p: part) @ L1\n    return p.S\n",
     (2, 18, "wrong-type", "argument 1 of blows must be a part, got unit", "blows takes (p: part)")),
    ('rule "Lance" (rider: part) @ L1\n    modify to_hit by 1\n',
     (1, 15, "wrong-type", "rule 'Lance': parameter 'rider' is a part, but a rule's arguments "
      "are written in data, where no part or group can be", 'read it in the rule: '
      'part(bearer, "NAME") or groups(bearer)')),
    ("characteristics weapon: Crew: group @ L1\n",
     (1, 25, "wrong-type", "characteristic 'Crew' is a group: a profile's values are written in "
      "data, where no part or group can be", 'a part or a group is read from its unit: '
      'part(u, "NAME"), groups(u)')),
])
def test_a_part_or_a_group_where_it_cannot_be_is_located(tmp_path, monkeypatch, text,
                                                          expected) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "k"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [k.rules]\n")
    (folder / "k.rules").write_text(
        'ruleset k "K"\n    source "000_c4300f58fce5f1da.txt"\n'
        "characteristics model: S, W as wounds range 0..10 @ L1\n"
        "test to_hit(attacker: unit) @ L1\n    dice D6\n    need 4\n" + text)
    with pytest.raises(InterpreterError) as caught:
        from rules_run.editions.loader import load_ruleset
        load_ruleset("k")
    offset = 6
    assert [(d.span.line - offset, d.span.column, d.code, d.message, d.hint)
            for d in caught.value.diagnostics if d.severity.value == "error"] == [expected]


INCH = {"w": 25.4, "d": 25.4}


def blast_world(tmp_path: Path) -> World:
    """wfb8 on its 72" x 48" table: a block of 18 Halberdiers centred at (36, 3) near the
    edge y = 0, and an orc Wizard."""
    return World(tmp_path, [unit("a", "empire", 36, 3, 0, models=18, files=6, base=INCH),
                            {"id": "w", "side": "orcs", "profile": "empire/battle_wizard",
                             "models": 1, "position": pos(36, 30, 180)}])


def test_a_marker_scattered_off_the_table_is_not_on_it(tmp_path: Path) -> None:
    w = blast_world(tmp_path)
    env = w.env({})
    state, span = w.state, None
    from rules_run.engine.builtins import BUILTINS

    place, move, on = BUILTINS["place_marker"], BUILTINS["move_marker"], BUILTINS["on_table"]
    m = place(state, env, span, w.unit("a"), 3)
    assert on(state, env, span, m) is True
    assert on(state, env, span, w.unit("a")) is True
    move(state, env, span, m, 180, 3)          # to (36, 0): on the edge, still on the table
    assert on(state, env, span, m) is True
    move(state, env, span, m, 180, 0.5)        # half an inch past the edge
    assert on(state, env, span, m) is False
    move(state, env, span, m, 90, 40)          # and along it, past x = 72
    assert on(state, env, span, m) is False
    w.unit("a").on_table = False               # set aside
    assert on(state, env, span, w.unit("a")) is False


def test_on_table_is_checked_as_a_builtin_of_one_argument() -> None:
    from rules_run.lang.checker import check_declarations
    from rules_run.lang.parser import parse_rules

    bag = DiagnosticBag()
    parsed = parse_rules("action a(u: unit) @ L1\n    return on_table(u, 1)\n", "x.rules", bag)
    check_declarations({d.name: d for d in parsed.items}, {}, ("000_c4300f58fce5f1da.txt",), bag)
    assert [(d.code, d.message) for d in bag.items] == [
        ("wrong-arity", "on_table() takes 1 argument(s), got 2")]
