"""The check of each ruleset between A and B is incremental (issue #18): what checking a
declaration found is replayed when nothing it can read changed, also when a step adds or
removes names it never mentions. Each such check must report exactly what a check from
scratch reports, and give the same usage.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diagnostics import DiagnosticBag
from rules_run.diff.battles import BASE, _state_ruleset
from rules_run.diff.steps import applied, resolved_ops
from rules_run.editions.loader import load_edition
from rules_run.lang import checker
from rules_run.lang.checker import check_declarations, decl_texts, token_change
from rules_run.lang.check_context import Context
from rules_run.lang.parser import parse_rules

ROOT = Path(__file__).resolve().parents[2]
T9A = str(ROOT / "rulesets" / "t9a")
SOURCES = ("000_c4300f58fce5f1da.txt",)


@pytest.fixture(scope="module")
def pair():
    return load_edition("wfb8"), load_edition(T9A)


def _found(decls, rules, sources, inherited=()):
    bag = DiagnosticBag()
    usage = check_declarations(decls, rules, sources, bag, inherited=inherited)
    return [d.render() for d in bag.items], usage


def _from_scratch(monkeypatch, decls, rules, sources, inherited=()):
    """A check that replays nothing (and keeps nothing for the checks after it)."""
    with monkeypatch.context() as m:
        m.setattr(checker, "_CHECKED", {})
        m.setattr(checker, "_CHECKED_AT", {})
        return _found(decls, rules, sources, inherited)


def test_each_state_of_an_attribution_checks_as_a_check_from_scratch_does(pair, monkeypatch
                                                                           ) -> None:
    # the states in the order rules-diff builds them: every prefix of the patch (A with
    # operations 1..k), then each operation alone on A; many of those alone do not check
    # (an unknown rule, status or function a later operation adds), each with its hint
    wfb8, t9a = pair
    ops = resolved_ops(wfb8, t9a)
    states = [ops[:k] for k in range(1, len(ops) + 1)] + [[op] for op in ops]
    compared = failing = 0
    for i, state in enumerate(states):
        done = applied(wfb8, state)
        args = (done.decls, done.rules, done.sources, done.inherited)
        incremental = _found(*args)
        if i % 3 == 0:
            assert incremental == _from_scratch(monkeypatch, *args), state[-1].step.label()
            compared += 1
            failing += any(": error: " in d for d in incremental[0])
    assert compared == 65 and failing >= 12   # t9a's patch: 97 operations


def _decls(text: str):
    bag = DiagnosticBag()
    decls, rules = {}, {}
    for item in parse_rules(text, "x.rules", bag).items:
        (rules if item.kind == "rule" else decls)[item.name] = item
    assert bag.items == []
    return decls, rules


def test_a_declaration_is_checked_again_when_a_name_it_mentions_is_added(monkeypatch) -> None:
    # ``r.lucky`` is no mark of the test until a roll declares one; the test's check
    # mentions 'lucky', so adding that roll checks it again (and the result is a check
    # from scratch's); the action, which mentions neither, is replayed
    base = """test t(u: unit) @ L1
    dice D6
    pass if result >= 4
action a(u: unit) @ L1
    return t(u).lucky
action b(u: unit) @ L1
    return u.models
"""
    checker.forget_checked()   # a nearly full cache, left by earlier tests, would be cleared midway
    decls, rules = _decls(base)
    assert _found(decls, rules, SOURCES)[0] == [
        "x.rules:5:12: error: unknown characteristic or property 'lucky'"]
    # a check that read a whole space (the hint's properties, on a fresh cache) is not kept:
    # it is checked every time
    kept_a, kept_b = checker._CHECKED.get(id(decls["a"])), checker._CHECKED[id(decls["b"])]
    more, _ = _decls(base + """roll luck(u: unit) @ L1
    dice D6
    mark lucky if natural == 6
""")
    grown = {**decls, "luck": more["luck"]}
    assert _found(grown, rules, SOURCES) == _from_scratch(monkeypatch, grown, rules, SOURCES)
    assert _found(grown, rules, SOURCES)[0] == []
    assert kept_a is None or checker._CHECKED[id(decls["a"])] is not kept_a
    assert checker._CHECKED[id(decls["b"])] is kept_b


def test_what_a_step_changes_in_the_names_a_check_reads() -> None:
    decls, rules = _decls("""roll r(u: unit) @ L1
    dice D6
    mark big if natural == 6
status tired @ L2
""")
    before = Context(decls, rules, SOURCES, DiagnosticBag()).token
    fewer = {k: v for k, v in decls.items() if k != "tired"}
    assert token_change(before, Context(fewer, rules, SOURCES, DiagnosticBag()).token) == {
        "tired"}
    assert token_change(before, Context(decls, rules, ("other.txt",),
                                        DiagnosticBag()).token) is None
    assert token_change(before, before) == frozenset()
    assert {"r", "big", "u", "unit", "natural"} <= decl_texts(decls["r"])
    assert {"Fly (8)", "Fly"} <= decl_texts(("Fly (8)",))


def test_the_rulesets_between_a_and_b_are_built_once(pair) -> None:
    # the plan's inert test and the battles ask for the same states: one object each
    wfb8, t9a = pair
    key = ("ops", (0, 1))
    assert _state_ruleset(wfb8, t9a, key) is _state_ruleset(wfb8, t9a, key)
    assert _state_ruleset(wfb8, t9a, BASE) is _state_ruleset(wfb8, t9a, BASE)
