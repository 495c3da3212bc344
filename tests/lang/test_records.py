"""Records (``record Cast(total: int, ones: int)``) and counters kept per several keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from fractions import Fraction as F

from rules_run.chance import D6, Adding, Pool, ScriptedChance, enumerate_exact
from rules_run.diagnostics import DiagnosticBag
from rules_run.lang import ast
from rules_run.lang.checker import check_declarations
from rules_run.lang.parser import parse_rules
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset
from rules_run.runtime.records import Record, fields

HEADER = '''ruleset kit "Record kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: WS, S, T, Ld, W as wounds range 0..10 @ L1
'''

RECORDS = '''
record Cast(total: int, ones: int, dice: int = 2)                    @ L284

roll two_dice() @ L284
    dice 2D6

action cast(extra: int)                                              @ L284
    let c = Cast(ones = 1, total = two_dice() + extra)
    return c

action total_of(extra: int)                                          @ L284
    let c = cast(extra)
    return c.total + c.dice * 10 + c.ones * 100
'''


def kit(tmp_path: Path, rules: str):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(HEADER + rules)
    ruleset = load_ruleset(folder)
    return ruleset, compile_ruleset(ruleset, builtins=BUILTINS)


def diagnostics(text: str) -> list[tuple[int, int, str, str, str | None]]:
    """(line, column, code, message, hint) of each diagnostic of ``text``, checked alone."""
    bag = DiagnosticBag()
    parsed = parse_rules(HEADER + text, "x.rules", bag)
    decls = {d.name: d for d in parsed.items if isinstance(d, ast.Decl) and d.kind != "rule"}
    check_declarations(decls, {}, ("000_c4300f58fce5f1da.txt",), bag)
    lines = HEADER.count("\n")
    return [(d.span.line - lines, d.span.column, d.code, d.message, d.hint) for d in bag.items
            if d.code != "unused"]


def test_a_record_is_built_by_field_names_and_read_by_them(tmp_path: Path) -> None:
    _, rt = kit(tmp_path, RECORDS)
    made = rt.invoke("cast", rt.env(ScriptedChance([3, 4])), {"extra": 1})
    assert made == Record("Cast", ("total", "ones", "dice"), (8, 1, 2))
    # total 3 + 4 + 1, the default 2 dice, 1 one
    assert rt.invoke("total_of", rt.env(ScriptedChance([3, 4])), {"extra": 1}) == 8 + 20 + 100


def test_an_unknown_field_is_located_with_a_did_you_mean() -> None:
    assert diagnostics(RECORDS + """
action typo(extra: int) @ L284
    let c = Cast(total = extra, ones = 0)
    return c.totl
""") == [(17, 12, "unknown-field", "record 'Cast' has no field 'totl'", "did you mean 'total'?")]


def test_building_a_record_is_checked_as_a_call() -> None:
    found = diagnostics(RECORDS + """
action build() @ L284
    return Cast(total = 1, once = 2)
""")
    assert [(line, code, message) for line, _, code, message, _ in found] == [
        (16, "unknown-param", "record 'Cast' has no parameter 'once'"),
        (16, "wrong-arity", "record 'Cast' needs 'ones'"),
    ]


def test_a_field_named_like_a_characteristic_is_an_error() -> None:
    assert diagnostics("record Hit(S: int, hits: int) @ L1\n") == [
        (1, 12, "bad-field", "field 'S' of record 'Hit' is also a characteristic: x.S "
         "would read that", "give the field another name")]


COUNTERS = """
counter hits_on of unit, unit = 0 @ L1
counter clock of battle @ L1
action tally(a: unit, b: unit) @ L1
    add_counter(hits_on, a, b, 2)
    set_counter(clock, 3)
    return counter(hits_on, a, b) + counter(clock)
"""


def test_a_counter_takes_as_many_keys_as_it_declares() -> None:
    assert diagnostics(COUNTERS) == []
    found = diagnostics(COUNTERS + """action wrong(a: unit) @ L1
    add_counter(hits_on, a, 1)
    return counter(clock, a) + counter(hits_on, a, a.side)
""")
    assert [(line, code, message) for line, _, code, message, _ in found] == [
        (9, "wrong-arity", "counter 'hits_on' is kept per unit, unit: add_counter() gives it "
         "1 key(s), it takes 2"),
        (10, "wrong-arity", "counter 'clock' is kept per battle: counter() gives it 1 key(s), "
         "it takes 0"),
        (10, "wrong-type", "key 2 of counter 'hits_on' must be a unit, got side"),
    ]


def test_counter_values_are_kept_per_key(tmp_path: Path) -> None:
    from helpers.aos4_probe import Probe
    probe = Probe("aos4", Path("rulesets/aos4/battles/duel.yaml"))
    a, b = probe.state.units[:2]
    add = BUILTINS["add_counter"]
    add(probe.state, probe.env, None, "command_points", a.side, 2)
    assert probe.counter("command_points", a.side) == 2
    assert BUILTINS["set_counter"](probe.state, probe.env, None, "command_points", a.side, 5) == 5
    assert probe.state.counters[("command_points", a.side)] == 5


GROWING = """
record Casting(total: int, ones: int, rolled: int)                   @ L284

roll casting(number: int)                                            @ L284, L294
    dice number D6 each 6 adds D6
    value Casting(total = natural, ones = count([d for each d in dice where d == 1]), rolled = count(dice))
"""


def test_a_growing_pool_rolls_its_added_dice_after_its_own(tmp_path: Path) -> None:
    _, rt = kit(tmp_path, GROWING)
    made = rt.invoke("casting", rt.env(ScriptedChance({"casting": [6, 1, 1]})), {"number": 2})
    assert made == Record("Casting", ("total", "ones", "rolled"), (8, 2, 3))


def test_a_growing_pool_enumerated_exactly_agrees_with_the_chance_layer(tmp_path: Path) -> None:
    _, rt = kit(tmp_path, GROWING)
    dist = enumerate_exact(lambda ch: rt.invoke("casting", rt.env(ch), {"number": 2}))
    totals: dict[int, F] = {}
    for made, p in dist.items():
        totals[fields(made, "total")[0]] = totals.get(fields(made, "total")[0], F(0)) + p
    assert totals == dict(Adding(Pool(2, D6), (6,), D6).exact().items())
    # two or more 1s among every die rolled: two 1s (1/36); a 6 and a 1 (2/36), then a 1
    # added (1/6); two 6s (1/36), then two 1s added (1/36)
    miscast = sum(p for made, p in dist.items() if fields(made, "ones")[0] >= 2)
    assert miscast == F(1, 36) + F(2, 36) * F(1, 6) + F(1, 36) * F(1, 36) == F(49, 1296)


@pytest.mark.parametrize(("dice", "message"), [
    ("highest of 2D6 each 6 adds D6", "only a pool of dice grows, as in '2D6 each 6 adds D6', "
     "not 'highest of 2D6'"),
    ("2D6 each 6 adds 2D6", "each face adds one die, as in 'each 6 adds D6'"),
    ("2D6 each 7 adds D6", "a D6 has no face 7 to count; its faces are 1 to 6"),
])
def test_what_cannot_grow_is_located(dice: str, message: str) -> None:
    bag = DiagnosticBag()
    parse_rules(HEADER + f"roll r() @ L1\n    dice {dice}\n", "x.rules", bag)
    assert [(d.span.line, d.code, d.message) for d in bag.items] == [(5, "bad-dice", message)]
