"""Structure diffs: declarations, table cells, patch operations, citations."""

from __future__ import annotations

import re

import pytest

from rules_run.diagnostics import InterpreterError
from rules_run.diff import normalise, structure_diff
from rules_run.diff.structure import relation, source_text
from rules_run.editions.loader import load_edition, load_ruleset

from .conftest import HOUSE_CHARGE, NO_STEADFAST, ONE_CELL


def test_identical_rulesets_give_an_empty_diff() -> None:
    wfb8 = load_edition("wfb8")
    diff = structure_diff(wfb8, wfb8)
    assert diff.empty and diff.declarations == () and diff.data == ()
    assert diff.relation == "same" and diff.patch is None


def test_spans_never_count(tmp_path) -> None:
    # wfb8's own declarations written again in another file, at other lines and columns:
    # with the same citation no change, with another citation a citation-only change.
    wfb8 = load_edition("wfb8")
    same = source_text(wfb8.decls["steadfast"])
    recited = source_text(wfb8.decls["break_test"])
    recited[0] = re.sub(r"@ .*$", "@ L999", recited[0])
    folder = tmp_path / "wfb8-same-again"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\ndescription: t\nrules:\n  - p.rules\n")
    (folder / "p.rules").write_text(
        'ruleset wfb8-same-again "the same declarations again" extends wfb8\n\n\n'
        "# a comment that moves everything down\n"
        + "override " + "\n".join(same) + "\n"
        + "override " + "\n".join(recited) + "\n")
    again = load_ruleset(folder)
    assert again.decls["steadfast"].span != wfb8.decls["steadfast"].span
    assert normalise(again.decls["steadfast"]) == normalise(wfb8.decls["steadfast"])
    diff = structure_diff(wfb8, again)
    assert [(d.change, d.name, d.citation_only, d.details) for d in diff.declarations] == [
        ("changed", "break_test", True, ("citation",))]
    assert [(p.op, p.name) for p in diff.patch] == [("override", "steadfast"),
                                                     ("override", "break_test")]


def test_a_patch_lists_exactly_its_operations_in_order() -> None:
    wfb8 = load_edition("wfb8")
    patch = load_ruleset(NO_STEADFAST)
    diff = structure_diff(wfb8, patch)
    assert diff.relation == "patch"
    assert [(p.index, p.patch, p.op, p.kind, p.name, p.cite) for p in diff.patch] == [
        (1, "wfb8-no-steadfast", "override", "action", "steadfast",
         "not in seed: house rule (no Steadfast; the seed's rule is L454)"),
        (2, "wfb8-no-steadfast", "override", "test", "break_test",
         "not in seed: house rule (Insane Courage: a double 1 always passes)"),
    ]
    assert [p.at.split(":")[1] for p in diff.patch] == ["9", "14"]


@pytest.mark.parametrize("folder", [NO_STEADFAST, HOUSE_CHARGE, ONE_CELL])
def test_every_changed_declaration_has_both_citations(folder) -> None:
    wfb8, patch = load_edition("wfb8"), load_ruleset(folder)
    diff = structure_diff(wfb8, patch)
    ops = patch.patches[-1][1]
    assert [(p.op, p.kind, p.name) for p in diff.patch] == [(o.op, o.kind, o.name) for o in ops]
    assert {d.name for d in diff.declarations} == {o.name for o in ops}
    for d in diff.declarations:
        assert d.change == "changed"
        assert d.a.ruleset == "wfb8" and d.a.cite == wfb8.cite(d.key) != ""
        assert d.b.ruleset == patch.id and d.b.cite == patch.cite(d.key) != ""


def test_what_changed_is_said_in_words() -> None:
    diff = structure_diff(load_edition("wfb8"), load_ruleset(HOUSE_CHARGE))
    by_name = {d.name: d for d in diff.declarations}
    assert by_name["charge_roll"].details[0] == "default: 'highest' -> 'sum'"
    assert any(line.startswith("+option charge_roll: highest | sum = sum")
               for line in by_name["charge_roll"].text_diff)
    chart = by_name["combat_result_chart"]
    assert chart.details == ("1 cell",) and chart.text_diff == ()
    assert [(c.key_text(), c.a, c.b) for c in chart.cells] == [("source charged", 1, 2)]


def test_a_table_is_compared_cell_by_cell() -> None:
    diff = structure_diff(load_edition("wfb8"), load_ruleset(ONE_CELL))
    (table,) = diff.declarations
    assert (table.kind, table.name, table.details) == ("table", "wound_chart", ("1 cell",))
    assert [(c.key, c.a, c.b) for c in table.cells] == [
        ((("strength", 4), ("toughness", 4)), 4, 5)]
    assert table.cells[0].key_text() == "strength 4, toughness 4"


def test_the_reverse_of_a_patch_is_not_a_patch() -> None:
    wfb8, patch = load_edition("wfb8"), load_ruleset(NO_STEADFAST)
    assert relation(patch, wfb8) == "reverse patch"
    diff = structure_diff(patch, wfb8)
    assert diff.patch is None
    assert {d.name for d in diff.declarations} == {"steadfast", "break_test"}


def _aos4_pair():
    try:
        return load_edition("aos4"), load_edition("aos4-gh2026")
    except InterpreterError as err:  # the aos4 rulesets are being written
        pytest.skip(f"aos4 or aos4-gh2026 does not load yet: {err.diagnostics[0].message}")


def test_aos4_seasons_list_every_operation_of_the_chain_with_both_citations() -> None:
    aos4, gh2026 = _aos4_pair()
    diff = structure_diff(aos4, gh2026)
    assert diff.relation == "patch"
    expected = [(pid, o.op, o.kind, o.name) for pid, ops in gh2026.patches for o in ops]
    assert expected, "aos4-gh2026 should patch aos4 through aos4-gh2025"
    assert [(p.patch, p.op, p.kind, p.name) for p in diff.patch] == expected
    listed = {d.key: d for d in diff.declarations}
    for pid, op, kind, name in expected:
        key = f"rule:{name}" if kind == "rule" else name
        if key not in listed:
            # an operation that leaves the declaration as it was (same text) is no change
            assert normalise(aos4.decls.get(name) or aos4.rules.get(name), {"span", "cite"}) \
                == normalise(gh2026.decls.get(name) or gh2026.rules.get(name), {"span", "cite"})
            continue
        d = listed[key]
        if d.b is not None:
            assert d.b.cite, f"{key} has no citation in B"
        if d.change != "added":
            assert d.a is not None and d.a.cite, f"{key} has no citation in A"
