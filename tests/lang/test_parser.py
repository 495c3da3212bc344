"""The parser: every construct of the grammar becomes the right AST node, with its span.

Syntax errors are in the corpus (``test_broken_corpus.py``); here are the shapes of what
parses, the spans, chunk-by-chunk recovery, and a property test of expressions.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_run.diagnostics import DiagnosticBag, LanguageError, Span
from rules_run.lang import ast
from rules_run.lang.parser import parse_dice, parse_rules
from rules_run.lang.syntax_errors import SYNTAX_ERROR_EXAMPLES


def parse(text: str) -> ast.RulesFile:
    """Parse ``text`` (a file called x.rules); fail on any diagnostic."""
    bag = DiagnosticBag()
    parsed = parse_rules(text, "x.rules", bag)
    assert [d.render() for d in bag.items] == []
    return parsed


def one(text: str) -> Any:
    """The only item of a file."""
    items = parse(text).items
    assert len(items) == 1
    return items[0]


def problems(text: str) -> list[tuple[int, int, str, str]]:
    bag = DiagnosticBag()
    parse_rules(text, "x.rules", bag)
    return [(d.span.line, d.span.column, d.code, d.message) for d in bag.items if d.span]


def shape(node: Any) -> Any:
    """A node without its spans (and positions of sub-nodes), for comparing structure."""
    if isinstance(node, tuple):
        return tuple(shape(n) for n in node)
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(
            shape(getattr(node, f.name)) for f in attrs.fields(type(node)) if f.name != "span"
        )
    return node


def expr(text: str) -> ast.Expr:
    """An expression, parsed as a test's pass condition."""
    decl = one(f"test t(u: unit) @ L1\n    dice D6\n    pass if {text}\n")
    return decl.pass_if


# ---------------------------------------------------------------- header and simple declarations


def test_header_with_extends_citation_and_sources() -> None:
    f = parse('ruleset t9a-he "The Ninth Age" extends wfb8 @ 004 L1\n'
              '    source "004_abc.txt"\n    source "000_def.txt"\n')
    h = f.header
    assert (h.id, h.title, h.extends) == ("t9a-he", "The Ninth Age", "wfb8")
    assert [s.file for s in h.sources] == ["004_abc.txt", "000_def.txt"]
    assert (h.cite.source, h.cite.ranges) == ("004", ("L1",))
    assert f.items == ()


def test_characteristics_line_gives_one_declaration_each_sharing_range_and_citation() -> None:
    items = parse("characteristics model: M as move, WS, Hit: need, W as wounds range 0..10"
                  " @ L33-L51\n").items
    assert [(d.name, d.type, d.role, d.entity, d.low, d.high) for d in items] == [
        ("M", "int", "move", "model", 0, 10),
        ("WS", "int", None, "model", 0, 10),
        ("Hit", "need", None, "model", 0, 10),
        ("W", "int", "wounds", "model", 0, 10),
    ]
    assert len({id(d.cite) for d in items}) == 1
    assert [d.span.column for d in items] == [24, 35, 39, 50]


def test_characteristics_range_may_be_signed() -> None:
    (d,) = parse("characteristics weapon: Rend range -3..+2 @ L1\n").items
    assert (d.entity, d.low, d.high) == ("weapon", -3, 2)


def test_table_die_status_counter_keyword() -> None:
    items = parse(
        'table to_hit(attacker_ws, target_ws) from "tables/to_hit.yaml" @ L418\n'
        "die artillery faces 2 4 6 8 10 misfire @ L5\n"
        "status charged until end of turn @ L120\n"
        "status fleeing @ L508\n"
        "counter command_points of side = 2 @ L40\n"
        "keyword INFANTRY, CAVALRY @ L522\n"
    ).items
    table, die, charged, fleeing, counter, infantry, cavalry = items
    assert (table.name, table.keys, table.file) == ("to_hit", ("attacker_ws", "target_ws"),
                                                   "tables/to_hit.yaml")
    assert die.faces == (2, 4, 6, 8, 10, "misfire")
    assert (charged.until, fleeing.until) == ("turn", None)
    assert (counter.keys, shape(counter.initial)) == (("side",), ("Literal", 2, "int"))
    assert [k.name for k in (infantry, cavalry)] == ["INFANTRY", "CAVALRY"]
    assert infantry.cite is cavalry.cite
    assert [d.kind for d in items] == ["table", "die", "status", "status", "counter", "keyword",
                                       "keyword"]


@pytest.mark.parametrize(("text", "type_", "choices", "default"), [
    ("option charge_roll: highest | sum = highest @ L1", "choice", ("highest", "sum"), "highest"),
    ("option game_turns: int = 6 @ L1", "int", (), 6),
    ("option penalty: int = -1 @ L1", "int", (), -1),
    ("option ratio: number = 1.5 @ L1", "number", (), 1.5),
    ("option after_ward: bool = true @ L1", "bool", (), True),
    ("option label: text = \"x y\" @ L1", "text", (), "x y"),
])
def test_option_defaults_are_plain_values(text: str, type_: str, choices: tuple, default: Any) -> None:
    d = one(text + "\n")
    assert (d.type, d.choices, d.default) == (type_, choices, default)
    assert type(d.default) is type(default)


def test_option_documentation_string() -> None:
    d = one('option charge_roll: highest | sum = sum "how the charge is rolled" @ L120\n')
    assert d.doc == "how the charge is rolled"


# ---------------------------------------------------------------- rolls and tests


def test_test_with_every_clause() -> None:
    d = one(
        "test to_hit(attacker: unit, target: unit, modifier: int = 0) @ L418\n"
        "    dice D6\n"
        "    need to_hit_chart[attacker.WS, target.WS] - modifier\n"
        "    natural 6 passes\n"
        "    natural 1 fails\n"
        "    natural 5, 6 is critical\n"
        "    modifiers capped -1..+1\n"
        "    beyond 6 need beyond_chart[need]\n"
        "    reroll one die\n"
    )
    assert d.is_test and d.kind == "test"
    assert [(p.name, p.type, shape(p.default)) for p in d.params] == [
        ("attacker", "unit", None), ("target", "unit", None),
        ("modifier", "int", ("Literal", 0, "int")),
    ]
    assert d.dice.text() == "D6"
    assert shape(d.need)[0] == "BinOp"
    assert [(n.values, n.effect, n.mark) for n in d.naturals] == [
        ((6,), "passes", None), ((1,), "fails", None), ((5, 6), "mark", "critical"),
    ]
    assert d.cap == (-1, 1)
    assert d.beyond[0] == 6 and shape(d.beyond[1])[0] == "Lookup"
    assert d.reroll == "one die"
    assert d.pass_if is None and d.value is None


@pytest.mark.parametrize(("clause", "cap"), [
    ("modifiers capped -2..+2", (-2, 2)),
    ("modifiers at most +1", (None, 1)),
    ("modifiers at least -1", (-1, None)),
])
def test_modifier_caps(clause: str, cap: tuple) -> None:
    assert one(f"test t() @ L1\n    dice D6\n    need 4+\n    {clause}\n").cap == cap


def test_roll_with_value_and_pass_if_test() -> None:
    roll, test = parse(
        "roll charge_range(unit: unit) @ L120\n    dice highest of 2D6\n    value unit.M + result\n"
        "test leadership(unit: unit) @ L450\n    dice 2D6\n    pass if result <= unit.Ld\n"
        "    reroll never\n"
    ).items
    assert (roll.is_test, roll.kind, roll.dice.text(), shape(roll.value)[0]) == (
        False, "roll", "highest of 2D6", "BinOp")
    assert shape(test.pass_if)[:2] == ("Compare", "<=")
    assert (test.need, test.reroll) == (None, "never")


@pytest.mark.parametrize(("dice", "fields"), [
    ("D6", (1, 6, 1, None, 1, 0, None)),
    ("2D6", (2, 6, 1, None, 1, 0, None)),
    ("D6x5", (1, 6, 5, None, 1, 0, None)),
    ("D3+1", (1, 3, 1, None, 1, 1, None)),
    ("2D6-2", (2, 6, 1, None, 1, -2, None)),
    ("highest of 2D6", (2, 6, 1, "highest", 1, 0, None)),
    ("lowest 2 of 3D6", (3, 6, 1, "lowest", 2, 0, None)),
    ("artillery", (1, 0, 1, None, 1, 0, "artillery")),
])
def test_dice_clauses(dice: str, fields: tuple) -> None:
    d = one(f"roll r() @ L1\n    dice {dice}\n").dice
    assert (d.count, d.sides, d.times, d.keep, d.keep_count, d.plus, d.die_name) == fields
    assert d.text() == dice


@pytest.mark.parametrize("text", ["D6", "2D6+1", "D3-1", "D6x5", "highest of 2D6",
                                  "lowest 2 of 3D6", "  D6  "])
def test_parse_dice_reads_data_values(text: str) -> None:
    where = Span("units.yaml", 3, 7)
    d = parse_dice(text, where)
    assert d.text() == text.strip()
    assert d.span == where


@pytest.mark.parametrize("text", ["", "0D6", "D1", "highest 3 of 2D6", "2D6 +", "D6 D6", "4+"])
def test_parse_dice_rejects_what_is_not_dice(text: str) -> None:
    where = Span("units.yaml", 3, 7)
    with pytest.raises(LanguageError) as raised:
        parse_dice(text, where)
    (d,) = raised.value.diagnostics
    assert (d.span, d.code, d.message) == (where, "bad-dice", f"{text!r} is not a dice expression")


# ---------------------------------------------------------------- sequences


def test_sequence_with_steps_hooks_damage_and_per_point() -> None:
    d = one(
        "sequence melee_attack(attacker: unit, target: unit) @ L418-L422\n"
        "    step hit: to_hit(attacker, target) stops on fail\n"
        "        on critical if attacker has \"Crit (2 Hits)\": chains 2 @ L487\n"
        "        on six: skip wound\n"
        "        on seven: end with damage 2\n"
        "        on eight: passes\n"
        "        on nine: fails\n"
        "    step wound: to_wound(attacker, target) stops on fail\n"
        "    step save: armour_save(target, attacker) stops on pass\n"
        "    damage min(D3 + 1, target.W)\n"
        "    each point: ward(target) removes on pass\n"
    )
    assert [(s.name, s.call.name, s.stop_on) for s in d.steps] == [
        ("hit", "to_hit", "fail"), ("wound", "to_wound", "fail"), ("save", "armour_save", "pass"),
    ]
    hooks = d.steps[0].hooks
    assert [(h.mark, h.effect.kind) for h in hooks] == [
        ("critical", "chains"), ("six", "skip"), ("seven", "end_damage"), ("eight", "pass"),
        ("nine", "fail"),
    ]
    assert shape(hooks[0].condition) == ("Has", ("Name", "attacker"), "Crit (2 Hits)")
    assert hooks[0].cite.ranges == ("L487",) and hooks[1].cite is None
    assert hooks[1].effect.arg == "wound"
    assert shape(d.damage)[:2] == ("Call", "min")
    assert (d.per_point.call.name, d.per_point.removes_on) == ("ward", "pass")


# ---------------------------------------------------------------- procedures


def test_action_statements() -> None:
    d = one(
        "action fight(u: unit) @ L406\n"
        "    let n = u.A * 2\n"
        "    n += 1\n"
        "    n -= 1\n"
        "    u.flag = true\n"
        "    for each m in models(u) where m.W > 0 ordered by -m.W:\n"
        "        n += 1\n"
        "    if n > 3:\n"
        "        log \"many\", n\n"
        "    elif n == 2: pass\n"
        "    else:\n"
        "        stop \"cannot\"\n"
        "    while n > 0: n -= 1\n"
        "    activate a in units() alternately starting with active_side picking by pick:\n"
        "        fight(a)\n"
        "    activate a in units() by side starting with active_side: fight(a)\n"
        "    return n\n"
    )
    let, add, sub, flag, loop, cond, wloop, alt, by_side, ret = d.body
    assert (let.name, shape(let.value)[:2]) == ("n", ("BinOp", "*"))
    assert [(s.op, shape(s.target)) for s in (add, sub)] == [("+=", ("Name", "n")),
                                                           ("-=", ("Name", "n"))]
    assert shape(flag.target) == ("Attribute", ("Name", "u"), "flag")
    assert loop.var == "m" and shape(loop.where)[:2] == ("Compare", ">")
    assert shape(loop.order)[0] == "Neg"  # not the where clause (regression)
    assert [shape(c)[1] for c, _ in cond.branches] == [">", "=="]
    assert shape(cond.branches[0][1]) == (("Log", "many", (("Name", "n"),)),)
    assert shape(cond.branches[1][1]) == (("Pass",),)
    assert shape(cond.otherwise) == (("Stop", "cannot"),)
    assert isinstance(wloop, ast.While) and len(wloop.body) == 1
    assert (alt.var, alt.order, alt.picker) == ("a", "alternately", "pick")
    assert (by_side.order, by_side.picker) == ("by side", None)
    assert shape(ret.value) == ("Name", "n")


def test_for_each_with_only_an_order() -> None:
    d = one("action a(u: unit) @ L1\n    for each m in models(u) ordered by m.W:\n        pass\n")
    (loop,) = d.body
    assert loop.where is None and shape(loop.order) == ("Attribute", ("Name", "m"), "W")


def test_decision_policy_phase_battle() -> None:
    decision, policy, default_policy, phase, battle = parse(
        "decision charge(u: unit) options [none] + enemies(u) @ L112\n"
        "    default none\n"
        "policy cautious @ L1\n"
        "    for charge: choose options[0]\n"
        "policy aggressive is default @ L1\n"
        "    for charge: choose options[1]\n"
        "phase movement(side: side) in turn_phases @ L90\n"
        "    pass\n"
        "battle @ L69\n"
        "    setup: pass\n"
        "    rounds 6\n"
        "    round:\n"
        "        for each s in sides(): play_turn(s)\n"
        "    turn: movement(active_side)\n"
        "    end if round_number > 6\n"
        "    end if count(units()) == 0\n"
        "    score: pass\n"
    ).items
    assert (decision.default, shape(decision.options)[:2]) == ("none", ("BinOp", "+"))
    assert [d for d, _ in policy.choices] == ["charge"]
    assert (policy.is_default, default_policy.is_default) == (False, True)
    assert (phase.parent, [p.name for p in phase.params]) == ("turn_phases", ["side"])
    assert len(battle.end) == 2 and shape(battle.rounds) == ("Literal", 6, "int")
    assert [len(b) for b in (battle.setup, battle.round, battle.turn, battle.score)] == [1, 1, 1, 1]


# ---------------------------------------------------------------- rules


def test_rule_with_every_effect() -> None:
    d = one(
        'rule "Armour Piercing" (n: int, against: keyword = "any") @ 000 L9\n'
        "    modify armour_save by -n if attacker == bearer stacking max\n"
        "    modify to_hit need by 1 stacking capped at 2 @ L10\n"
        "    modify to_wound result by 1 stacking exclusive\n"
        "    reroll failed to_hit if bearer == attacker\n"
        "    reroll passed armour_save\n"
        "    on six of melee_attack.hit if bearer == attacker: skip wound\n"
        '    grant "Swiftstride"\n'
        "    pass panic\n"
        "    fail break_test if true\n"
        "    add 1 to WS if bearer is charged stacking add\n"
        "    set Ld to 10\n"
        '    not simulated "needs a 3-D battlefield"\n'
        "    when charged if true: log \"charge!\", bearer\n"
    )
    assert (d.name, [p.name for p in d.params]) == ("Armour Piercing", ["n", "against"])
    assert shape(d.params[1].default) == ("Literal", "any", "text")
    kinds = [type(e).__name__ for e in d.effects]
    assert kinds == ["Modify", "Modify", "Modify", "RerollEffect", "RerollEffect", "RuleHook",
                     "Grant", "AutoResult", "AutoResult", "CharacteristicEffect",
                     "CharacteristicEffect", "NotSimulated", "Trigger"]
    m1, m2, m3, r1, r2, hook, grant, auto1, auto2, add, set_, note, when = d.effects
    assert (m1.roll, m1.part, m1.stacking.policy, shape(m1.amount)) == (
        "armour_save", "result", "max", ("Neg", ("Name", "n")))
    assert (m2.part, m2.stacking.policy, m2.stacking.cap, m2.cite.ranges) == (
        "need", "capped", 2, ("L10",))
    assert (m3.part, m3.stacking.policy) == ("result", "exclusive")
    assert [(r.which, r.roll) for r in (r1, r2)] == [("failed", "to_hit"),
                                                    ("passed", "armour_save")]
    assert (hook.mark, hook.sequence, hook.step, hook.effect.kind, hook.effect.arg) == (
        "six", "melee_attack", "hit", "skip", "wound")
    assert grant.rule == "Swiftstride"
    assert [(a.result, a.test) for a in (auto1, auto2)] == [("pass", "panic"),
                                                           ("fail", "break_test")]
    assert (add.op, add.characteristic, shape(add.amount), add.stacking.policy) == (
        "add", "WS", ("Literal", 1, "int"), "add")
    assert shape(add.condition) == ("IsStatus", ("Name", "bearer"), "charged", False)
    assert (set_.op, set_.characteristic, shape(set_.amount)) == ("set", "Ld",
                                                                 ("Literal", 10, "int"))
    assert note.reason == "needs a 3-D battlefield"
    assert (when.event, len(when.body)) == ("charged", 1)


def test_rule_without_parameters_or_effects() -> None:
    d = one('rule "Stubborn" @ L576\n')
    assert (d.name, d.params, d.effects, d.kind) == ("Stubborn", (), (), "rule")


# ---------------------------------------------------------------- patches and citations


def test_patch_operations() -> None:
    add, override, define, remove, remove_table = parse(
        'add rule "Fireborn" @ 004 L67\n'
        "override table to_hit(a, b) from \"t.yaml\" @ L1\n"
        "define status shaken @ L2\n"
        'remove rule "Stubborn" @ L3\n'
        "remove table to_hit\n"
    ).items
    assert [(p.op, p.kind, p.name) for p in (add, override, define, remove, remove_table)] == [
        ("add", "rule", "Fireborn"), ("override", "table", "to_hit"),
        ("define", "status", "shaken"), ("remove", "rule", "Stubborn"),
        ("remove", "table", "to_hit"),
    ]
    assert isinstance(add.decl, ast.RuleDecl) and add.cite is add.decl.cite
    assert remove.decl is None and remove.cite.ranges == ("L3",)
    assert remove_table.cite is None


def test_patch_of_a_characteristics_line_gives_one_operation_each() -> None:
    ops = parse("override characteristics model: WS, BS range 1..10 @ L1\n").items
    assert [(p.op, p.kind, p.name) for p in ops] == [("override", "characteristics", "WS"),
                                                    ("override", "characteristics", "BS")]


@pytest.mark.parametrize(("citation", "source", "ranges", "note"), [
    ("@ L450", None, ("L450",), None),
    ("@ L418-L422", None, ("L418-L422",), None),
    ("@ L41-42", None, ("L41-42",), None),
    ("@ 004 L9, L11-L12", "004", ("L9", "L11-L12"), None),
    ('@ "not in seed: standard published value"', None, (), "not in seed: standard published value"),
])
def test_citations(citation: str, source: str | None, ranges: tuple, note: str | None) -> None:
    cite = one(f"status fleeing {citation}\n").cite
    assert (cite.source, cite.ranges, cite.note) == (source, ranges, note)
    assert (cite.span.line, cite.span.column) == (1, 16)
    assert cite.span.end_column == 16 + len(citation)


def test_cite_text_names_the_seed_file() -> None:
    cite = one("status fleeing @ 004 L9-L11\n").cite
    assert cite.text(("000_a.txt", "004_b.txt")) == "004_b.txt L9-L11"
    assert one("status fleeing @ L9\n").cite.text(("000_a.txt",)) == "000_a.txt L9"


# ---------------------------------------------------------------- expressions


@pytest.mark.parametrize(("text", "expected"), [
    ("1 + 2 * 3", ("BinOp", "+", ("Literal", 1, "int"),
                   ("BinOp", "*", ("Literal", 2, "int"), ("Literal", 3, "int")))),
    ("(1 + 2) * 3", ("BinOp", "*", ("BinOp", "+", ("Literal", 1, "int"), ("Literal", 2, "int")),
                     ("Literal", 3, "int"))),
    ("10 - 2 - 3", ("BinOp", "-", ("BinOp", "-", ("Literal", 10, "int"), ("Literal", 2, "int")),
                    ("Literal", 3, "int"))),
    ("7 // 2", ("BinOp", "//", ("Literal", 7, "int"), ("Literal", 2, "int"))),
    ("-3", ("Literal", -3, "int")),
    ("-u.A", ("Neg", ("Attribute", ("Name", "u"), "A"))),
    ("not a and b or c", ("BoolOp", "or", (("BoolOp", "and", (("Not", ("Name", "a")),
                                                              ("Name", "b"))), ("Name", "c")))),
    ("if a then 1 else 2", ("CondExpr", ("Name", "a"), ("Literal", 1, "int"),
                            ("Literal", 2, "int"))),
    ("u has \"Stubborn\"", ("Has", ("Name", "u"), "Stubborn")),
    ("u is fleeing", ("IsStatus", ("Name", "u"), "fleeing", False)),
    ("u is not fleeing", ("IsStatus", ("Name", "u"), "fleeing", True)),
    ("\"champion\" in u.command", ("Member", ("Literal", "champion", "text"),
                                   ("Attribute", ("Name", "u"), "command"))),
    ("t[u.WS, 3]", ("Lookup", ("Name", "t"), (("Attribute", ("Name", "u"), "WS"),
                                              ("Literal", 3, "int")))),
    ("f(1, key = 2)", ("Call", "f", (("Literal", 1, "int"),), (("key", ("Literal", 2, "int")),))),
    ("f(u).passed", ("Attribute", ("Call", "f", (("Name", "u"),), ()), "passed")),
    ("[1, 2]", ("ListLit", (("Literal", 1, "int"), ("Literal", 2, "int")))),
    ("[]", ("ListLit", ())),
    ("4+", ("Literal", 4, "need")),
    ("1.5", ("Literal", 1.5, "number")),
    ("true", ("Literal", True, "bool")),
    ("none", ("Literal", None, "none")),
    ("2D6", ("DiceLit", 2, 6, 1, None, 1, 0, None)),
    ("[m.W for each m in models(u) where m.W > 0]",
     ("Comprehension", ("Attribute", ("Name", "m"), "W"), "m",
      ("Call", "models", (("Name", "u"),), ()),
      ("Compare", ">", ("Attribute", ("Name", "m"), "W"), ("Literal", 0, "int")), None)),
    ("[m for each m in models(u) ordered by m.W]",
     ("Comprehension", ("Name", "m"), "m", ("Call", "models", (("Name", "u"),), ()), None,
      ("Attribute", ("Name", "m"), "W"))),
])
def test_expressions(text: str, expected: tuple) -> None:
    assert shape(expr(text)) == expected


def test_expression_spans() -> None:
    e = expr("u.WS + t[1]")
    # "    pass if " is 12 characters: the expression starts at column 13 of line 3.
    assert (e.span.line, e.span.column, e.span.end_column) == (3, 13, 24)
    assert (e.left.span.column, e.left.span.end_column) == (13, 17)
    assert (e.right.span.column, e.right.span.end_column) == (20, 24)


# ---------------------------------------------------------------- spans, chunks, recovery


def test_declaration_spans_end_at_their_last_word() -> None:
    status, test = parse(
        "# a comment\n"
        "status fleeing @ L508   # trailing comment\n"
        "\n"
        "test t(u: unit) @ L1\n"
        "    dice D6\n"
        "    need 4+\n"
        "\n"
        "# a comment after the body\n"
    ).items
    assert (status.span.line, status.span.column, status.span.end_line, status.span.end_column) \
        == (2, 1, 2, 22)
    assert (test.span.line, test.span.end_line, test.span.end_column) == (4, 6, 12)


def test_line_continuation_joins_a_declaration() -> None:
    d = one("status fleeing \\\n    @ L508\n")
    assert d.cite.ranges == ("L508",) and d.cite.span.line == 2


def test_comments_inside_a_body_and_at_column_one() -> None:
    d = one("test t() @ L1\n    dice D6   # the die\n# a note at column 1\n    need 4+\n")
    assert d.need is not None


def test_declarations_after_a_broken_one_still_parse() -> None:
    bag = DiagnosticBag()
    f = parse_rules(
        "status fleeing L508\n"
        "status shaken @ L509\n"
        "rule Stubborn @ L576\n"
        "test t(u: unit) @ L1\n"
        "    dice D6\n"
        "    need 4+\n",
        "x.rules", bag,
    )
    assert [d.span.line for d in bag.items] == [1, 3]
    assert [i.name for i in f.items] == ["shaken", "t"]
    assert f.items[1].span.line == 4  # chunks keep their real line numbers


def test_without_a_bag_every_syntax_error_is_raised_at_once() -> None:
    with pytest.raises(LanguageError) as raised:
        parse_rules("status a L1\nstatus b L2\n", "x.rules")
    assert [d.span.line for d in raised.value.diagnostics] == [1, 2]


def test_the_header_may_follow_comments_and_blank_lines() -> None:
    f = parse("# about the file\n\nruleset tiny \"Tiny\"\n\nstatus fleeing @ L1\n")
    assert f.header.id == "tiny" and f.header.span.line == 3


def test_crlf_line_ends() -> None:
    d = one("test t() @ L1\r\n    dice D6\r\n    need 4+\r\n")
    assert d.dice.text() == "D6"


@pytest.mark.parametrize("label", list(SYNTAX_ERROR_EXAMPLES))
def test_each_labelled_syntax_error_example_gets_its_label(label: str) -> None:
    for snippet in SYNTAX_ERROR_EXAMPLES[label]:
        bag = DiagnosticBag()
        parse_rules(snippet, "x.rules", bag)
        assert len(bag.items) == 1
        assert bag.items[0].message.endswith(": " + label)


def test_a_file_that_is_not_utf8_is_a_diagnostic(tmp_path) -> None:
    from rules_run.lang.parser import parse_file

    path = tmp_path / "latin1.rules"
    path.write_bytes('status fleeing @ "not in seed: café"\n'.encode("latin-1"))
    with pytest.raises(LanguageError) as raised:
        parse_file(path)
    assert raised.value.diagnostics[0].code == "bad-encoding"


# ---------------------------------------------------------------- properties

NAMES = st.sampled_from(["a", "b", "unit", "target", "n"])


def _expressions() -> st.SearchStrategy[tuple[str, Any]]:
    """(fully bracketed text, expected shape) for random well-formed expressions."""
    leaves = st.one_of(
        st.integers(0, 99).map(lambda n: (str(n), ("Literal", n, "int"))),
        NAMES.map(lambda n: (n, ("Name", n))),
        st.tuples(NAMES, st.sampled_from(["WS", "Ld", "models"])).map(
            lambda p: (f"{p[0]}.{p[1]}", ("Attribute", ("Name", p[0]), p[1]))),
        st.sampled_from(["D6", "2D6", "D3"]).map(
            lambda d: (d, ("DiceLit", int(d[0]) if d[0] != "D" else 1, int(d[-1]), 1, None, 1, 0,
                           None))),
        st.integers(2, 6).map(lambda n: (f"{n}+", ("Literal", n, "need"))),
    )

    def extend(inner: st.SearchStrategy[tuple[str, Any]]) -> st.SearchStrategy[tuple[str, Any]]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//"]), inner).map(
            lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", ("BinOp", t[1], t[0][1], t[2][1])))
        compare = st.tuples(inner, st.sampled_from(["<", "<=", "==", "!=", ">=", ">"]), inner).map(
            lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", ("Compare", t[1], t[0][1], t[2][1])))
        boolean = st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(
            lambda t: (f"({t[0][0]} {t[1]} {t[2][0]})", ("BoolOp", t[1], (t[0][1], t[2][1]))))
        negation = inner.map(lambda t: (f"(not {t[0]})", ("Not", t[1])))
        conditional = st.tuples(inner, inner, inner).map(
            lambda t: (f"(if {t[0][0]} then {t[1][0]} else {t[2][0]})",
                       ("CondExpr", t[0][1], t[1][1], t[2][1])))
        call = st.tuples(st.sampled_from(["max", "min", "f"]), st.lists(inner, max_size=3)).map(
            lambda t: (f"{t[0]}({', '.join(a[0] for a in t[1])})",
                       ("Call", t[0], tuple(a[1] for a in t[1]), ())))
        listed = st.lists(inner, max_size=3).map(
            lambda items: (f"[{', '.join(i[0] for i in items)}]",
                           ("ListLit", tuple(i[1] for i in items))))
        return st.one_of(binary, compare, boolean, negation, conditional, call, listed)

    return st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(_expressions())
def test_well_formed_expressions_parse_to_the_tree_they_spell(case: tuple[str, Any]) -> None:
    text, expected = case
    assert shape(expr(text)) == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    "test", "t", "(", ")", "u", ":", "unit", "@", "L1", "\n", "    ", "  ", "\t", "dice", "D6",
    "need", "4+", "pass", "if", "[", "]", ",", "rule", '"X"', '"', "sequence", "step", "stops",
    "on", "fail", "table", "from", "ruleset", "extends", "0D6", "highest", "3", "of", "#", "\\",
    "=", "+", "-", "option", "|", "battle", "rounds", "override", "remove", "status", "é",
]), max_size=40).map(" ".join))
def test_no_input_makes_the_parser_raise_anything_but_diagnostics(text: str) -> None:
    bag = DiagnosticBag()
    parse_rules(text, "fuzz.rules", bag)  # never a traceback
    for d in bag.items:
        assert d.span is not None and d.span.line >= 1 and d.span.column >= 1
