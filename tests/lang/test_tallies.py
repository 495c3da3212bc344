"""The checker on tallies, earlier steps' results and a re-roll's own need (issue #14):
what it accepts and the exact text of what it reports, located."""

from __future__ import annotations

from rules_run.diagnostics import DiagnosticBag
from rules_run.lang import ast
from rules_run.lang.checker import check_declarations
from rules_run.lang.parser import parse_rules

SOURCES = ("001_ae65b95f9afc45ec.txt",)

PRELUDE = """characteristics model: BS, S, T, W as wounds, Sv, AV range 0..14 @ L89
test hit(u: unit) @ L271
    dice D6
    need 3+
    natural 6 is six
test pierce(u: unit, v: unit) @ L783
    dice D6
    pass if result + u.S >= v.AV
    mark glancing if result + u.S == v.AV
test save(v: unit, rent: bool) @ L307
    dice D6
    need if rent then none else v.Sv
"""
"""Declarations the snippets use (lines 1-12)."""


def check(text: str) -> list[tuple[int, int, str, str, str | None]]:
    """(line, column, code, message, hint) of every diagnostic; lines count from the
    snippet's first line."""
    offset = PRELUDE.count("\n")
    bag = DiagnosticBag()
    parsed = parse_rules(PRELUDE + text, "x.rules", bag)
    assert bag.items == []
    decls: dict[str, ast.Decl] = {}
    rules: dict[str, ast.RuleDecl] = {}
    for item in parsed.items:
        assert isinstance(item, ast.Decl)
        (rules if item.kind == "rule" else decls).setdefault(item.name, item)
    check_declarations(decls, rules, SOURCES, bag)
    return [(d.span.line - offset, d.span.column, d.code, d.message, d.hint)
            for d in bag.items]


def test_a_sequence_with_tallies_and_a_later_step_reading_marks_checks_clean() -> None:
    assert check("""
sequence s(u: unit, v: unit) @ L783
    tally glancing
    step h: hit(u) stops on fail
    step p: pierce(u, v) stops on fail
        on glancing if h.six: count glancing
    step sv: save(v, h.six and p.passed) stops on pass
    damage if h.six then 2 else 1
action a(u: unit, v: unit) @ L783
    let volley = fight(s, u, v, 3)
    return volley.glancing + volley
""") == []


def test_counting_a_tally_the_sequence_does_not_declare() -> None:
    assert check("""
sequence s(u: unit, v: unit) @ L783
    tally glancing
    step p: pierce(u, v) stops on fail
        on glancing: count glancin
""") == [(5, 22, "unknown-tally",
          "'count glancin': sequence 's' declares no tally 'glancin'",
          "did you mean 'glancing'?")]


def test_a_rules_hook_counts_only_the_sequences_tallies() -> None:
    assert check("""
sequence s(u: unit, v: unit) @ L783
    step p: pierce(u, v) stops on fail
rule "R" @ L391
    on glancing of s.p: count glancing
""") == [(5, 25, "unknown-tally",
          "'count glancing': sequence 's' declares no tally 'glancing'",
          "declare it in the sequence: tally glancing")]


def test_a_tally_declared_twice() -> None:
    assert check("""
sequence s(u: unit, v: unit) @ L783
    tally glancing, glancing
    step p: pierce(u, v) stops on fail
        on glancing: count glancing
""") == [(2, 1, "duplicate-tally", "sequence 's' declares the tally 'glancing' twice", None)]


def test_a_step_reads_only_earlier_steps() -> None:
    found = check("""
sequence s(u: unit, v: unit) @ L783
    step sv: save(v, h.six) stops on pass
    step h: hit(u) stops on fail
""")
    assert [(line, code, message) for line, _, code, message, _ in found] == [
        (3, "undefined-name", "undefined name 'h'")]


def test_an_earlier_steps_result_gives_its_marks_and_passed_only() -> None:
    assert check("""
sequence s(u: unit, v: unit) @ L783
    step h: hit(u) stops on fail
    step sv: save(v, h.natural == 6) stops on pass
""") == [(4, 22, "bad-attribute",
          "'natural' is read from an earlier step's result, which gives its marks and "
          "'passed'", None)]


def test_a_reroll_on_its_own_need_wants_a_test_with_a_need() -> None:
    assert check("""
test t(u: unit) @ L280
    dice D6
    pass if result >= 2
    reroll natural 1 needing 6
roll r(u: unit) @ L280
    dice D6
    reroll natural 1 needing 6
""") == [
        (5, 5, "reroll-without-need", "'reroll natural ... needing' in test 't': only a test "
         "with 'need' re-rolls on a need of its own", "give the test a 'need' (need 2+)"),
        (8, 5, "reroll-without-need", "'reroll natural ... needing' in roll 'r': only a test "
         "with 'need' re-rolls on a need of its own", "write: test r(...) with a need"),
    ]


def test_a_reroll_needs_a_number_and_its_condition_is_read_before_rolling() -> None:
    found = check("""
test t(u: unit) @ L280
    dice D6
    need 2+
    reroll natural 1 needing "six" if result > 1
""")
    assert [(line, code, message) for line, _, code, message, _ in found] == [
        (5, "wrong-type", "'needing' must be a number, got text"),
        (5, "undefined-name", "undefined name 'result'"),
    ]
