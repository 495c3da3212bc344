"""The checker: what it accepts (scopes, builtins, references) and what it reports.

The corpus (``test_broken_corpus.py``) pins one diagnostic per situation through the loader;
here the checker runs on its own over parsed declarations, so each behaviour is a few lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diagnostics import DiagnosticBag
from rules_run.lang import ast
from rules_run.lang.checker import check_declarations, report_unused
from rules_run.lang.parser import parse_rules
from rules_run.lang.rule_refs import parse_rule_ref, rule_arguments_problem

SOURCES = ("000_c4300f58fce5f1da.txt",)
TINY = Path(__file__).resolve().parent / "fixtures" / "tiny" / "core.rules"

PRELUDE = """characteristics model: M as move, WS, S, T, W as wounds, A, Ld range 0..10 @ L33
status fleeing @ L466
test leadership(unit: unit, modifier: int = 0) @ L450
    dice 2D6
    pass if result <= unit.Ld + modifier
"""
"""Declarations most snippets use (lines 1-5)."""


def declarations(text: str) -> tuple[dict[str, ast.Decl], dict[str, ast.RuleDecl]]:
    """Parse ``text`` and index its declarations as the loader does (first one wins)."""
    bag = DiagnosticBag()
    parsed = parse_rules(text, "x.rules", bag)
    assert bag.items == []
    decls: dict[str, ast.Decl] = {}
    rules: dict[str, ast.RuleDecl] = {}
    for item in parsed.items:
        assert isinstance(item, ast.Decl)
        (rules if item.kind == "rule" else decls).setdefault(item.name, item)
    return decls, rules


def check(text: str, *, sources: tuple[str, ...] = SOURCES, prelude: bool = True,
          inherited: tuple[str, ...] = ()) -> list[tuple[int, str, str]]:
    """(line, code, message) of every diagnostic; lines count from the snippet's first line."""
    offset = PRELUDE.count("\n") if prelude else 0
    decls, rules = declarations((PRELUDE if prelude else "") + text)
    bag = DiagnosticBag()
    check_declarations(decls, rules, sources, bag, inherited=inherited)
    return [(d.span.line - offset, d.code, d.message) for d in bag.items]


def codes(text: str, **kwargs) -> list[str]:
    return [code for _, code, _ in check(text, **kwargs)]


def hints(text: str) -> list[str | None]:
    decls, rules = declarations(PRELUDE + text)
    bag = DiagnosticBag()
    check_declarations(decls, rules, SOURCES, bag)
    return [d.hint for d in bag.items]


# ---------------------------------------------------------------- what is fine


def test_the_tiny_fixture_and_the_prelude_check_clean() -> None:
    decls, rules = declarations(TINY.read_text(encoding="utf-8"))
    bag = DiagnosticBag()
    check_declarations(decls, rules, SOURCES, bag)
    assert bag.items == []
    assert check("") == []


def test_a_test_sees_its_parameters_result_and_natural() -> None:
    assert check("""
test t(u: unit, bonus: int = 1) @ L1
    dice D6
    pass if result + bonus >= u.WS and natural != 1
""") == []


def test_let_for_each_and_activate_bring_names_into_scope() -> None:
    assert check("""
action a(side: side) @ L1
    let total = 0
    for each u in units(side) where u.models > 0 ordered by u.Ld:
        total += u.A
    activate x in units() alternately starting with active_side:
        total += x.A
    return [w.S for each w in weapons(x) where w.S > 0]
""") == [(8, "undefined-name", "undefined name 'x'")]  # x is the activation's own


def test_rules_see_bearer_and_the_parameters_of_what_they_change() -> None:
    assert check("""
rule "Stubborn" @ L576
    pass leadership if unit == bearer
rule "Brave" (n: int) @ L577
    modify leadership by n if unit == bearer and modifier < 0
""") == []


def test_builtins_constants_options_and_tables_are_global() -> None:
    assert check("""
option game_turns: int = 6 @ L69
table chart(a) from "chart.yaml" @ L1
action a() @ L1
    return clamp(game_turns + round_number, 0, chart[1]) + count(units(active_side))
""") == []


def test_has_accepts_rules_with_arguments_and_keywords() -> None:
    assert check("""
keyword INFANTRY @ L522
rule "Armour Piercing" (n: int) @ L388
action a(u: unit) @ L1
    return u has "Armour Piercing (1)" or u has "INFANTRY" or u has "Armour Piercing"
""") == []


def test_a_rule_whose_name_has_brackets_is_found_whole() -> None:
    assert check("""
rule "Crit (2 Hits)" @ L487
rule "Sharp" @ L1
    grant "Crit (2 Hits)"
""") == []


# ---------------------------------------------------------------- what is reported


def test_every_problem_is_reported_not_only_the_first() -> None:
    assert codes("""
test a(u: unit) @ L1
    dice D6
    pass if u.Ws > x
status b
""") == ["unknown-characteristic", "undefined-name", "missing-citation"]


def test_assignment_needs_a_let_first() -> None:
    assert check("action a() @ L1\n    n = 1\n") == [
        (2, "undefined-name", "assignment to 'n', which is not defined; use 'let n = ...' first")]


@pytest.mark.parametrize(("call", "message"), [
    ("max()", "max() takes at least 1 argument(s), got 0"),
    ("clamp(1, 2)", "clamp() takes 3 argument(s), got 2"),
    ("leadership()", "test 'leadership' needs 'unit'"),
    ("leadership(u, 1, 2)", "test 'leadership' takes 2 argument(s), got 3"),
    ("leadership(u, unit = u)", "test 'leadership': 'unit' is given twice"),
    ("leadershp(u)", "unknown function 'leadershp'"),
    ("fleeing(u)", "status 'fleeing' takes no arguments"),
])
def test_calls(call: str, message: str) -> None:
    assert [m for _, _, m in check(f"action a(u: unit) @ L1\n    return {call}\n")] == [message]


def test_unknown_function_suggests_a_declared_or_builtin_one() -> None:
    assert hints("action a(u: unit) @ L1\n    return leadershp(u) + clmp(1, 2, 3)\n") == [
        "did you mean 'leadership'?", "did you mean 'clamp'?"]


def test_a_case_slip_is_suggested_before_a_closer_spelling() -> None:
    assert hints("action a(u: unit) @ L1\n    return u.Ws\n") == ["did you mean 'WS' or 'W'?"]


def test_a_lookup_of_something_that_is_not_a_table() -> None:
    assert check("action a() @ L1\n    return leadership[1]\n") == [
        (2, "not-a-table", "'leadership' is a test, not a table")]


def test_sequence_steps_must_call_tests_and_be_named_once() -> None:
    assert codes("""
sequence s(u: unit) @ L1
    step a: leadership(u) stops on fail
    step a: leadership(u) stops on fail
    step b: nothing(u) stops on fail
""") == ["duplicate-step", "undefined-name"]


def test_a_hook_cannot_skip_to_its_own_step() -> None:
    assert check("""
test t(u: unit) @ L1
    dice D6
    need 4+
    natural 6 is six
sequence s(u: unit) @ L1
    step a: t(u) stops on fail
        on six: skip a
    step b: t(u) stops on fail
""") == [(8, "unknown-step", "'skip a': step 'a' of sequence 's' is not after this one; "
                             "a hook can only skip a later step")]


def test_rule_hooks_need_a_sequence_and_a_step() -> None:
    assert codes("""
test t(u: unit) @ L1
    dice D6
    need 4+
    natural 6 is six
sequence s(u: unit) @ L1
    step a: t(u) stops on fail
rule "X" @ L1
    on six of nothing.a: passes
    on six of s.b: passes
""") == ["unknown-name", "unknown-step"]


@pytest.mark.parametrize(("decl", "code"), [
    ("test t() @ L1\n    need 4+\n", "missing-dice"),
    ("test t() @ L1\n    dice D6\n    need 4+\n    pass if true\n", "need-and-pass"),
    ("test t() @ L1\n    dice D6\n    pass if true\n    beyond 6 need 4\n", "beyond-without-need"),
    ("test t() @ L1\n    dice D6\n    need 4+\n    modifiers capped 2..-2\n", "bad-range"),
    ("test t() @ L1\n    dice scatter\n    need 4+\n", "unknown-die"),
    ("phase p in q @ L1\n    pass\n", "unknown-phase"),
    ("policy p @ L1\n    for charge: choose options\n", "unknown-decision"),
    ("policy p is default @ L1\n    for d: choose 1\npolicy q is default @ L1\n    for d: choose 1\n"
     "decision d() options [1] @ L1\n", "duplicate-default"),
    ("action a() @ L1\n    activate u in units() by side starting with active_side picking by pick:\n"
     "        pass\n", "unknown-decision"),
    ('rule "X" @ L1\n    when nothing_happens: pass\n', "unknown-event"),
    ('rule "X" @ L1\n    set Wz to 3\n', "unknown-characteristic"),
    ('rule "X" @ L1\n    pass to_hit\n', "unknown-name"),
    ('rule "X" @ L1\n    grant "Nope"\n', "unknown-rule"),
    ('rule "X" @ L1\n    grant "Bad (("\n', "bad-rule-reference"),
    ("option o: int = true @ L1\n", "bad-option"),
    ("option o: a | b = c @ L1\n", "bad-option"),
    ("die d faces 6 @ L1\n", "bad-die"),
    ("characteristics weapon: Dmg as wounds, Hp as wounds @ L1\n", "duplicate-role"),
    ("test t(u: unit, u: unit) @ L1\n    dice D6\n    need 4+\n", "duplicate-param"),
])
def test_each_check(decl: str, code: str) -> None:
    assert codes(decl) == [code]


def test_roles_are_per_entity() -> None:
    # One 'as wounds' per entity: model W and weapon Hp are fine; a second model one is not,
    # even with a weapon one declared between them.
    assert check("characteristics weapon: Hp as wounds @ L1\n"
                 "characteristics model: H as wounds @ L2\n") == [
        (2, "duplicate-role", "two characteristics of model are 'as wounds': 'W' and 'H'")]


def test_an_unknown_target_hides_the_names_it_would_have_defined() -> None:
    # 'modifier' is a parameter of leadership: with the target misspelled it cannot be known,
    # so only the target is reported.
    assert codes('rule "X" @ L1\n    modify leadershp by 1 if modifier < 0\n') == ["unknown-name"]


# ---------------------------------------------------------------- types


TYPED = """characteristics weapon: Range, Save: need @ L1
table chart(a) from "chart.yaml" @ L1
counter tokens of unit = 0 @ L1
option turns: int = 6 @ L1
sequence attack(attacker: unit, target: unit, weapon: weapon = none) @ L1
    step hit: leadership(attacker) stops on fail
action strike_order(u: unit, n: int = 1) @ L1
    return n
decision pick(u: unit) options [none] + enemies(u) @ L1
rule "X" @ L1
"""
"""More declarations the type snippets use (lines 6-15)."""


def types_check(body: str) -> list[tuple[int, str, str]]:
    """(line, code, message) of ``body``, the statements of an action with a unit ``u``, a
    list ``us``, a number ``n``, a side ``s`` and a test result ``r`` (line 1: the first)."""
    text = TYPED + "action a(u: unit, us: list, n: int, s: side, w: weapon) @ L1\n"
    text += "    let r = leadership(u)\n"
    text += "".join(f"    {line}\n" for line in body.splitlines())
    offset = TYPED.count("\n") + 2
    return [(line - offset, code, message) for line, code, message in check(text)]


@pytest.mark.parametrize("statement", [
    "return u.models + n * 2 - half_up(u.WS) // 1 / 2",
    "return [e.Ld for each e in enemies(u) where e.side != s] + us + [n]",
    "return u.name + \" of \" + s + u.id",
    "return u.models < u.leader.models or n < true or s >= \"a\" or us < []",
    "return -n + -true",
    "return r.passed and r.natural > 1 and r.value != 0 and not r",
    "return w.Range + w.Save + w.S",
    "return u has \"X\" and w has \"X\" and u is fleeing and us[0] has \"X\"",
    "return chart[n] + us[n] + [1, 2][0] + (if n > 0 then u else none).models",
    "return \"a\" in us or \"a\" in \"abc\" or u in enemies(u)",
    "return distance(u, nearest_of(us)) + count(us) + random_pick(enemies(u)).models",
    "apply(fleeing, u)\napply(\"fleeing\", w)\nclear(fleeing, u)",
    "add_counter(tokens, u, 1)\nreturn counter(tokens, u) + counter(\"tokens\", u)",
    "fight(attack, u, u, n, weapon = w)\nreturn decide(pick, u)",
    "strike_order(u)\nstrike_order(u.leader, n = u.models)\nattack(u, u)",
    "for each e in us:\n    pass\nfor each e in all_units() ordered by e.Ld:\n    pass",
    "activate x in units(s) alternately starting with active_side:\n    return x.models",
    "let x = 0\nx = u\nreturn x.models",
    "for each x in [1]:\n    x = u\n    return x.models",
    "n = us\nreturn n[0]",
    "let total = 0\ntotal += u.models\nlet names = []\nnames += [u.name]",
    "return value_of(u, \"x\").models + param(u, \"X\") + max(us).models",
    "return turns + round_number + (if phase_name == \"magic\" then 1 else 0)",
])
def test_what_types_allow(statement: str) -> None:
    assert types_check(statement.replace("nearest_of(us)", "us[0]")) == []


@pytest.mark.parametrize(("statement", "code", "message"), [
    ('return u.models + "x"', "bad-operands", "cannot add text to int"),
    ("return n - s", "bad-operands", "cannot subtract side from int"),
    ("return us * u", "bad-operands", "cannot multiply list by unit"),
    ("return u / 2", "bad-operands", "cannot divide unit by int"),
    ("return u < 3", "bad-operands", "cannot compare unit with int"),
    ('return r > "x"', "bad-operands", "cannot compare test result with text"),
    ("return -s", "bad-operands", "cannot negate side"),
    ('return n has "X"', "wrong-type", "'has \"X\"' asks a unit or a weapon, got int"),
    ("return s is fleeing", "wrong-type", "'is fleeing' asks a unit or a weapon, got side"),
    ("return us is not fleeing", "wrong-type", "'is not fleeing' asks a unit or a weapon, got list"),
    ("return n.models", "bad-attribute", "'models' is read from an int, not a unit or a group"),
    ("return us.WS", "bad-attribute",
     "'WS' is read from a list, not a unit, a weapon, a part or a group"),
    ("return u.passed", "bad-attribute", "'passed' is read from a unit, not a test result"),
    ("return w.side", "bad-attribute", "'side' is read from a weapon, not a unit"),
    ("return r.WS", "bad-attribute",
     "'WS' is read from a test result, not a unit, a weapon, a part or a group"),
    ("return leadership(u).models", "bad-attribute",
     "'models' is read from a test result, not a unit or a group"),
    ("return strike_order(us)", "wrong-type", "argument 1 of strike_order must be a unit, got list"),
    ("return strike_order(u, n = s)", "wrong-type",
     "'n' of strike_order must be an int, got side"),
    ("return leadership(u, true)", "wrong-type",
     "argument 2 of leadership must be an int, got bool"),
    ("return enemies(s)", "wrong-type", "argument 1 of enemies must be a unit, got side"),
    ("return units(u)", "wrong-type", "argument 1 of units must be a side, got unit"),
    ("apply(tokens, u)", "wrong-type",
     "argument 1 of apply must be a status, got counter"),
    ("apply(fleeing, s)", "wrong-type",
     "argument 2 of apply must be a unit, a weapon, a part or a group, got side"),
    ("return counter(fleeing, u)", "wrong-type", "argument 1 of counter must be a counter, got status"),
    ("fight(leadership, u, u)", "wrong-type", "argument 1 of fight must be a sequence, got test"),
    ("fight(attack, u, us)", "wrong-type", "argument 3 of fight must be a unit, got list"),
    ("fight(attack, u, u, weapon = s)", "wrong-type", "'weapon' of attack must be a weapon, got side"),
    ("fight(attack, u, u, weapon = w, n = 2)", "unknown-param",
     "sequence 'attack' has no parameter 'n'"),
    ("return decide(pick, s)", "wrong-type", "argument 1 of pick must be a unit, got side"),
    ("return count(n)", "wrong-type", "argument 1 of count must be a list, got int"),
    ("for each e in n:\n    pass", "wrong-type", "'for each' goes over a list, got int"),
    ("for each m in models(u):\n    pass", "wrong-type",
     "'for each' goes over a list, got int"),
    ("return [e for each e in u]", "wrong-type", "'for each' goes over a list, got unit"),
    ("activate x in u alternately starting with s:\n    pass", "wrong-type",
     "'activate' goes over a list, got unit"),
    ("activate x in us alternately starting with u:\n    pass", "wrong-type",
     "'starting with' must be a side, got unit"),
    ("return u in n", "wrong-type", "'in' looks in a list, got int"),
    ("return us[s]", "wrong-type", "an item of a list is looked up by one whole number, got side"),
    ("return n[1]", "wrong-type", "only a table or a list can be looked up with [...], got int"),
    ("n += s", "bad-operands", "cannot add side to int"),
    ("u.WS += us", "bad-operands", "cannot add list to int"),
    ("return (if n > 0 then 1 else 2).models", "bad-attribute",
     "'models' is read from an int, not a unit or a group"),
    ("return random_pick(enemies(u)) + 1", "bad-operands", "cannot add int to unit"),
    ("return sides()[0].models", "bad-attribute", "'models' is read from a side, not a unit or a group"),
    ("return us + [u][0]", "bad-operands", "cannot add unit to list"),
])
def test_what_types_report(statement: str, code: str, message: str) -> None:
    assert types_check(statement) == [(1, code, message)]


@pytest.mark.parametrize(("decl", "message"), [
    ("test t(u: unit) @ L1\n    dice D6\n    need u.name\n",
     "'need' must be a number, got text"),
    ("test t(u: unit) @ L1\n    dice D6\n    need 4+\n    modifier [1]\n",
     "'modifier' must be a number, got list"),
    ("test t(u: unit) @ L1\n    dice D6\n    need 6+\n    beyond 6 need u\n",
     "'beyond' must be a number, got unit"),
    ("sequence q(u: unit) @ L1\n    step a: leadership(u) stops on fail\n    damage u.side\n",
     "'damage' must be a number, got side"),
    ("test t(u: unit = 1) @ L1\n    dice D6\n    need 4+\n",
     "the default of 'u' must be a unit, got int"),
    ("decision d(u: unit) options u.models @ L1\n",
     "the options of decision 'd' must be a list, got int"),
    ('rule "X" (n: int) @ L1\n    modify leadership by unit if n > 0\n',
     "the amount of 'modify leadership' must be a number, got unit"),
    ('rule "X" @ L1\n    add "one" to WS\n', "the amount added to WS must be a number, got text"),
    ('rule "X" @ L1\n    set Ld to [1]\n', "the value Ld is set to must be an int, got list"),
    ('rule "X" @ L1\n    when leadership: return result.models\n',
     "'models' is read from a test result, not a unit or a group"),
    ("battle @ L1\n    rounds \"six\"\n", "'rounds' must be a number, got text"),
])
def test_what_types_report_in_declarations(decl: str, message: str) -> None:
    assert [m for _, _, m in check(decl)] == [message]


def test_a_roll_sees_its_totals_as_numbers_and_its_dice_as_a_list() -> None:
    assert check("""
roll r(u: unit) @ L1
    dice 2D6
    mark double if dice[0] == dice[1] and count(dice) == 2
    value result + natural - u.models
test t(u: unit) @ L1
    dice D6
    natural 6 is six
    pass if result.six or result >= 4
""") == [(9, "bad-attribute", "'six' is read from an int, not a test result")]


def test_a_test_called_gives_its_result_and_a_roll_its_value() -> None:
    assert check("""
roll r(u: unit) @ L1
    dice D6
action a(u: unit) @ L1
    return leadership(u).value + r(u) + r(u).value
""") == [(5, "bad-attribute", "'value' is read from an int, not a test result")]


def test_an_unknown_type_is_never_reported() -> None:
    # untyped parameters, decisions' answers, actions' results: anything goes
    assert check("""
rule "X" @ L1
action b(x) @ L1
    return x
action a(x, u: unit) @ L1
    let y = b(u)
    return x.models + x * "a" + y.WS + (y has "X") + [e for each e in x] + x[1, 2]
""") == []


# ---------------------------------------------------------------- unused declarations


def unused(text: str, *, entry_points: tuple[str, ...] = ()) -> list[str]:
    """The names of the declarations ``report_unused`` warns of, for the prelude and ``text``
    (which checks clean)."""
    decls, rules = declarations(PRELUDE + text)
    bag = DiagnosticBag()
    usage = check_declarations(decls, rules, SOURCES, bag, entry_points=entry_points)
    assert bag.items == []
    report_unused(decls, usage, bag)
    assert all(d.code == "unused" and d.severity.value == "warning" for d in bag.items)
    return [d.message.split("'")[1] for d in bag.items]


BATTLE = """battle @ L1
    rounds 6
    turn:
        turn_order()
action turn_order() @ L1
    pass
"""


def test_without_a_battle_or_a_rule_nothing_is_used() -> None:
    assert unused("") == ["fleeing", "leadership"]


def test_the_battle_rules_and_attack_modes_are_where_running_starts() -> None:
    assert unused(BATTLE) == ["fleeing", "leadership"]
    assert unused('rule "Brave" @ L1\n    pass leadership if unit is fleeing\n') == [
        "fleeing", "leadership"]
    assert unused("action count(u: unit) @ L1\n    return leadership(u)\n",
                  entry_points=("count",)) == ["fleeing"]


def test_what_a_rule_does_to_a_declaration_runs_only_when_it_runs() -> None:
    # 'fleeing' is read only by a change to 'leadership' (so: unused while it is), and by a
    # trigger on the action 'a' (unused too)
    text = BATTLE + """rule "Brave" @ L1
    modify leadership by 1 if unit is fleeing
    when a: apply(fleeing, u)
action a(u: unit) @ L1
    pass
"""
    assert unused(text) == ["fleeing", "leadership", "a"]
    assert unused(text.replace("    pass\n", "    a(none)\n", 1)) == ["leadership"]
    assert unused(text.replace("    pass\n", "    leadership(none)\n", 1)) == ["a"]


def test_a_policy_s_choice_runs_only_when_its_decision_is_made() -> None:
    text = BATTLE + """decision d(u: unit) options [1, 2] @ L1
policy p is default @ L1
    for d: choose if leadership(u) then 1 else 2
"""
    assert unused(text) == ["fleeing", "leadership", "d"]
    assert unused(text.replace("        turn_order()", "        decide(d, none)")) == [
        "fleeing", "turn_order"]


def test_every_way_of_naming_a_declaration_is_a_use() -> None:
    assert unused(BATTLE.replace("    pass\n", """    activate u in units() alternately starting with active_side picking by pick:
        apply("fleeing", u)
        add_counter(tokens, u, chart[1] + turns + special())
    return fight(attack, none, none)
""") + """decision pick(us: list) options us @ L1
counter tokens of unit = 0 @ L1
table chart(a) from "chart.yaml" @ L1
option turns: int = 6 @ L1
roll special() @ L1
    dice D6
sequence attack(a: unit, t: unit) @ L1
    step one: leadership(a) stops on fail
""") == []


def test_a_local_named_like_a_declaration_does_not_use_it() -> None:
    assert unused(BATTLE.replace("turn_order() @ L1\n    pass",
                                 "turn_order(leadership: int = 1) @ L1\n    return leadership")
                  ) == ["fleeing", "leadership"]


def test_a_patch_is_warned_of_what_its_override_leaves_unused() -> None:
    text = BATTLE.replace("    pass\n", "    return leadership(none)\n")
    decls, rules = declarations(PRELUDE + text)
    base = check_declarations(decls, rules, SOURCES, DiagnosticBag())
    patched, _ = declarations("action turn_order() @ L9\n    pass\n")
    decls["turn_order"] = patched["turn_order"]
    op = ast.PatchOp(patched["turn_order"].span, "override", "action", "turn_order",
                     patched["turn_order"])
    bag = DiagnosticBag()
    usage = check_declarations(decls, rules, SOURCES, bag)
    report_unused(decls, usage, bag, inherited=set(decls) - {"turn_order"}, base=base,
                  ops=[op])
    # 'fleeing' was unused in the base already: the base's warning, not the patch's
    assert [(d.span.line, d.message) for d in bag.items] == [
        (1, "after this override, test 'leadership' is no longer used")]


# ---------------------------------------------------------------- citations


def test_citations() -> None:
    assert check(
        'status a @ "not in seed: standard published value"\n'
        'status b @ "from the book"\n'
        "status c @ 004 L1\n"
        "status d @ L9-L3\n"
        "status e\n"
    ) == [
        (2, "bad-citation",
         "a quoted citation must start with 'not in seed:', got 'from the book'"),
        (3, "bad-citation", "no declared source is seed '004'"),
        (4, "bad-citation", "line range 'L9-L3' ends before it starts"),
        (5, "missing-citation", "status 'e' has no citation"),
    ]


def test_a_line_citation_needs_a_declared_source() -> None:
    assert check("status a @ L1\n", sources=(), prelude=False) == [
        (1, "bad-citation", "a line citation needs a source: the ruleset header declares none")]


def test_a_shared_citation_or_range_is_reported_once() -> None:
    assert check("characteristics model: A, B, C range 5..1 @ 004 L1\n", prelude=False) == [
        (1, "bad-citation", "no declared source is seed '004'"),
        (1, "bad-range", "characteristic 'A' has an empty range 5..1"),
    ]
    assert codes("keyword X, Y, Z\n", prelude=False) == ["missing-citation"]


def test_inherited_declarations_keep_the_citations_their_base_checked() -> None:
    text = "status a @ 004 L1\nstatus b @ 004 L2\n"
    assert codes(text, prelude=False) == ["bad-citation", "bad-citation"]
    assert check(text, prelude=False, inherited=("a",)) == [
        (2, "bad-citation", "no declared source is seed '004'")]


def test_inherited_bodies_are_still_checked() -> None:
    # A patch that removes what an inherited declaration uses must hear about it.
    assert codes("test t(u: unit) @ 004 L1\n    dice D6\n    pass if u is gone\n",
                 inherited=("t",)) == ["unknown-status"]


# ---------------------------------------------------------------- rule references


def _rule(text: str) -> ast.RuleDecl:
    _, rules = declarations(text)
    (rule,) = rules.values()
    return rule


SIGNATURE = "rule 'Multiple Wounds' takes (amount: dice, against: keyword)"


@pytest.mark.parametrize(("reference", "problem"), [
    ("Multiple Wounds (D3)", None),
    ("Multiple Wounds (2)", None),
    ("Multiple Wounds (D3, Infantry)", None),
    ("Multiple Wounds", ("wrong-arity", "rule 'Multiple Wounds' takes 1 to 2 parameters, "
                         "'Multiple Wounds' gives 0", "write 'Multiple Wounds (amount, against)'")),
    ("Multiple Wounds (1, Infantry, 3)", ("wrong-arity", "rule 'Multiple Wounds' takes 1 to 2 "
                                          "parameters, 'Multiple Wounds (1, Infantry, 3)' gives 3",
                                          "write 'Multiple Wounds (amount, against)'")),
    ("Multiple Wounds (4+)", ("bad-argument", "'Multiple Wounds (4+)': the parameter 'amount' of "
                              "rule 'Multiple Wounds' takes dice or a number (D3, D6+1, 2), "
                              "got '4+'", SIGNATURE)),
    ("Multiple Wounds (D3, 2)", ("bad-argument", "'Multiple Wounds (D3, 2)': the parameter "
                                 "'against' of rule 'Multiple Wounds' takes a keyword (Infantry), "
                                 "got '2'", SIGNATURE)),
])
def test_rule_arguments_against_parameters(reference: str, problem: tuple | None) -> None:
    rule = _rule('rule "Multiple Wounds" (amount: dice, against: keyword = "any") @ L402\n')
    assert rule_arguments_problem(rule, reference, parse_rule_ref(reference).args) == problem


def test_a_rule_without_parameters_takes_no_arguments() -> None:
    rule = _rule('rule "Stubborn" @ L576\n')
    assert rule_arguments_problem(rule, "Stubborn (1)", parse_rule_ref("Stubborn (1)").args) == (
        "wrong-arity", "rule 'Stubborn' takes 0 parameters, 'Stubborn (1)' gives 1",
        "write 'Stubborn', without arguments")


def test_labelled_and_signed_arguments_count_as_their_kind() -> None:
    rule = _rule('rule "Breath Weapon" (strength: int, kind: text = "fire") @ L1\n')
    reference = "Breath Weapon (Strength 4, Flaming Attacks)"
    assert rule_arguments_problem(rule, reference, parse_rule_ref(reference).args) is None
    rule = _rule('rule "Armour Piercing" (n: int) @ L1\n')
    assert rule_arguments_problem(rule, "Armour Piercing (+1)",
                                  parse_rule_ref("Armour Piercing (+1)").args) is None
