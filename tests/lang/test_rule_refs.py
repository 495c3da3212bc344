"""Rule references as unit data and rule files write them: ``Ward Save (5+)`` and friends."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_run.diagnostics import Span
from rules_run.lang import ast
from rules_run.lang.rule_refs import RuleArg, RuleRef, RuleRefError, parse_rule_ref, resolve_rule


@pytest.mark.parametrize(("text", "name", "args"), [
    ("Stubborn", "Stubborn", []),
    ("  Stubborn  ", "Stubborn", []),
    ("Cavalry's Charge", "Cavalry's Charge", []),
    ("Armour Piercing (1)", "Armour Piercing", [("int", 1, None)]),
    ("Armour Piercing (+1)", "Armour Piercing", [("int", 1, None)]),
    ("Armour Piercing (-1)", "Armour Piercing", [("int", -1, None)]),
    ("Multiple Wounds (D3)", "Multiple Wounds", [("dice", "D3", None)]),
    ("Multiple Wounds (D3+1)", "Multiple Wounds", [("dice", "D3+1", None)]),
    ("Multiple Wounds (2, Infantry)", "Multiple Wounds", [("int", 2, None),
                                                           ("words", "Infantry", None)]),
    ("Ward Save (5+)", "Ward Save", [("need", 5, None)]),
    ("Strider (Forest)", "Strider", [("words", "Forest", None)]),
    ("Hatred (High Elves)", "Hatred", [("words", "High Elves", None)]),
    ("Breath Weapon (Strength 4, Flaming Attacks)", "Breath Weapon",
     [("int", 4, "Strength"), ("words", "Flaming Attacks", None)]),
    ("Fear (Ld -1)", "Fear", [("int", -1, "Ld")]),
    ("Breath (Strength D6)", "Breath", [("dice", "D6", "Strength")]),
    ("Regeneration (4+, Fire)", "Regeneration", [("need", 4, None), ("words", "Fire", None)]),
    ("Name(1)", "Name", [("int", 1, None)]),
])
def test_references(text: str, name: str, args: list[tuple]) -> None:
    ref = parse_rule_ref(text)
    assert ref.name == name
    assert [(a.kind, a.value, a.label) for a in ref.args] == args
    assert str(ref) == text.strip()


def test_arguments_keep_their_text() -> None:
    ref = parse_rule_ref("Breath Weapon (Strength 4,  Flaming Attacks)")
    assert [a.text for a in ref.args] == ["Strength 4", "Flaming Attacks"]
    assert ref.args[0] == RuleArg("int", 4, "Strength", "Strength 4")


@pytest.mark.parametrize(("text", "message"), [
    ("", "'' is not a rule name"),
    ("Stubborn)", "'Stubborn)' is not a rule name"),
    ("(1)", "'(1)' does not start with a rule name"),
    ("Name (1) and more", "'Name (1) and more' is not a rule reference; "
                          "write Name or Name (argument, argument)"),
    ("Name (a (b))", "'Name (a (b))' is not a rule reference; "
                     "write Name or Name (argument, argument)"),
    ("Name ()", "'Name ()': an argument is empty"),
    ("Name (1,)", "'Name (1,)': an argument is empty"),
    ("Ward Save (5++)", "'Ward Save (5++)': cannot read the argument '5++': an argument is a "
                        "number (1, +1), a score (5+), dice (D3, D6+1) or words (Forest), "
                        "optionally after a label (Strength 4)"),
])
def test_what_is_not_a_reference(text: str, message: str) -> None:
    with pytest.raises(RuleRefError) as raised:
        parse_rule_ref(text)
    assert str(raised.value) == message


def test_a_rule_whose_own_name_has_brackets_is_found_whole() -> None:
    # "Crit (2 Hits)" is not Crit with an argument "2 Hits" (that is no argument at all): it
    # is a rule of that name, looked up by its whole name first.
    with pytest.raises(RuleRefError):
        parse_rule_ref("Crit (2 Hits)")
    where = Span("r.rules", 1)
    crit = ast.RuleDecl(where, "Crit (2 Hits)", None)
    ward = ast.RuleDecl(where, "Ward Save", None, params=(ast.Param(where, "value", "need"),))
    rules = {"Crit (2 Hits)": crit, "Ward Save": ward}
    assert resolve_rule("Crit (2 Hits)", rules) == (crit, ())
    rule, args = resolve_rule("Ward Save (4+)", rules)
    assert rule is ward and [a.value for a in args] == [4]
    with pytest.raises(RuleRefError):  # not a rule's whole name, and no reference either
        resolve_rule("Crit (3 Hits)", rules)
    with pytest.raises(KeyError):
        resolve_rule("Regeneration (5+)", rules)


def test_a_rule_name_can_hold_its_parameters() -> None:
    where = Span("r.rules", 1)
    anti = ast.RuleDecl(where, "Anti-{x} (+1 Rend)", None,
                        params=(ast.Param(where, "x", "keyword"),))
    sworn = ast.RuleDecl(where, "{n} Sworn {foe}", None,
                         params=(ast.Param(where, "n", "int"), ast.Param(where, "foe", "keyword")))
    ward = ast.RuleDecl(where, "Ward Save", None, params=(ast.Param(where, "value", "need"),))
    rules = {r.name: r for r in (anti, sworn, ward)}
    rule, args = resolve_rule("Anti-INFANTRY (+1 Rend)", rules)
    assert rule is anti and [(a.kind, a.value) for a in args] == [("words", "INFANTRY")]
    rule, args = resolve_rule("3 Sworn Night Goblins", rules)
    assert rule is sworn and [(a.kind, a.value) for a in args] == [("int", 3),
                                                                   ("words", "Night Goblins")]
    assert resolve_rule("Ward Save (4+)", rules)[0] is ward     # brackets as before
    with pytest.raises(RuleRefError):   # the template does not fit, nor is it Name (args)
        resolve_rule("Anti-INFANTRY (+2 Rend)", rules)


# ---------------------------------------------------------------- a property

WORDS = st.sampled_from(["Ward", "Save", "Multiple", "Wounds", "Armour", "Piercing", "Fear",
                         "Cavalry's", "Flaming", "Attacks"])
NAME = st.lists(WORDS, min_size=1, max_size=3).map(" ".join)
ARG = st.one_of(
    st.integers(-9, 99).map(lambda n: (str(n), RuleArg("int", n, None, str(n)))),
    st.integers(1, 9).map(lambda n: (f"+{n}", RuleArg("int", n, None, f"+{n}"))),
    st.integers(2, 6).map(lambda n: (f"{n}+", RuleArg("need", n, None, f"{n}+"))),
    st.sampled_from(["D3", "D6", "2D6", "D3+1", "D6-1"]).map(lambda d: (d, RuleArg("dice", d, None, d))),
    NAME.map(lambda w: (w, RuleArg("words", w, None, w))),
    st.tuples(st.sampled_from(["Strength", "Ld"]), st.integers(1, 9)).map(
        lambda t: (f"{t[0]} {t[1]}", RuleArg("int", t[1], t[0], f"{t[0]} {t[1]}"))),
)


@settings(max_examples=300, deadline=None)
@given(NAME, st.lists(ARG, max_size=3))
def test_written_references_read_back(name: str, args: list[tuple[str, RuleArg]]) -> None:
    text = f"{name} ({', '.join(a for a, _ in args)})" if args else name
    assert parse_rule_ref(text) == RuleRef(name, tuple(arg for _, arg in args), text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AbD3+5-,() x'&/S", max_size=30))
def test_any_text_is_a_reference_or_a_rule_ref_error(text: str) -> None:
    try:
        parse_rule_ref(text)
    except RuleRefError as err:
        assert repr(text.strip()) in str(err) or repr(text) in str(err)
