"""One effect for several names (``add 1 to S, T``, ``modify to_hit, to_hit_missile need by
1``, ``grant "A", "B"``): the effects the lines written one name each give, in that order;
each located at its name, and a name given twice a located ``duplicate-clause`` error."""

from __future__ import annotations

import pytest

from rules_run import slotted
from rules_run.diagnostics import LanguageError
from rules_run.lang import ast
from rules_run.lang.parser import parse_rules

ONE_LINE = '''status shielded @ L1
    add 1 to S, T minimum 1 if bearer.W > 1 @ L2
    modify to_hit, to_hit_missile need by 1 if target == bearer
    grant "Fear", "Magical Attacks"
'''
LINE_EACH = '''status shielded @ L1
    add 1 to S minimum 1 if bearer.W > 1 @ L2
    add 1 to T minimum 1 if bearer.W > 1 @ L2
    modify to_hit need by 1 if target == bearer
    modify to_hit_missile need by 1 if target == bearer
    grant "Fear"
    grant "Magical Attacks"
'''


def effects(text: str) -> tuple[ast.Effect, ...]:
    status = next(d for d in parse_rules(text, "x.rules").items if isinstance(d, ast.StatusDecl))
    return status.effects


def unplaced(node):
    """The node with every span (its own and its parts') left out, to compare what it says."""
    if isinstance(node, tuple):
        return tuple(unplaced(x) for x in node)
    if "__slotted__" not in type(node).__dict__:
        return node
    return tuple((f.name, unplaced(getattr(node, f.name))) for f in slotted.fields(type(node))
                 if f.name != "span")


def test_several_names_are_the_lines_written_one_name_each() -> None:
    assert unplaced(effects(ONE_LINE)) == unplaced(effects(LINE_EACH))
    assert [e.characteristic for e in effects(ONE_LINE)[:2]] == ["S", "T"]


def test_each_effect_of_several_is_located_at_its_name() -> None:
    spans = [(e.span.line, e.span.column) for e in effects(ONE_LINE)]
    assert spans == [(2, 14), (2, 17), (3, 12), (3, 20), (4, 11), (4, 19)]


def test_one_name_is_located_at_its_line_as_before() -> None:
    (effect,) = effects('status s @ L1\n    add 1 to S\n')
    assert (effect.span.line, effect.span.column) == (2, 5)


@pytest.mark.parametrize(("line", "column", "message"), [
    ("add 1 to S, T, S", 20, "the characteristic 'S' is named twice"),
    ("modify to_hit, to_hit need by 1", 20, "the roll 'to_hit' is named twice"),
    ('grant "Fear", "Fear"', 19, "the rule 'Fear' is named twice"),
])
def test_a_name_given_twice_is_a_located_error(line: str, column: int, message: str) -> None:
    with pytest.raises(LanguageError) as caught:
        parse_rules(f"status s @ L1\n    {line}\n", "x.rules")
    (d,) = caught.value.diagnostics
    assert (d.code, d.message, d.span.line, d.span.column) == (
        "duplicate-clause", message, 2, column)
