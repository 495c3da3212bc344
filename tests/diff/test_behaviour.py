"""Behaviour diffs: exact odds over a grid of synthetic inputs."""

from __future__ import annotations

from fractions import Fraction

from interpreter.diff import behaviour_diff, structure_diff
from interpreter.diff.grid import Dim, select_cells
from interpreter.editions.loader import load_edition, load_ruleset

from .conftest import NO_STEADFAST, ONE_CELL


def _strength(cell, ruleset) -> int:
    """The Strength a cell's attacker (or shooter) wounds with: a missile weapon's, if any."""
    inputs = dict(cell.inputs)
    item = inputs.get("shooter equipment")
    if item is not None:
        strength = (ruleset.equipment[item].get("values") or {}).get("strength")
        if strength is not None:
            return strength
    return inputs.get("attacker.S", inputs.get("shooter.S"))


def test_a_chart_that_differs_in_one_cell_is_reported_in_exactly_that_cell() -> None:
    wfb8, patch = load_edition("wfb8"), load_ruleset(ONE_CELL)
    # the structure: exactly one cell
    (table,) = structure_diff(wfb8, patch).declarations
    assert [(dict(c.key), c.a, c.b) for c in table.cells] == [
        ({"strength": 4, "toughness": 4}, 4, 5)]
    # the behaviour: the to-wound test differs in exactly the cell S4 against T4
    diff = behaviour_diff(wfb8, patch)  # a sequence's 100 cells hold every S and T
    by_name = {d.name: d for d in diff.compared}
    to_wound = by_name["to_wound"]
    assert [d.label for d in to_wound.dims] == ["attacker.S", "target.T"]
    assert (to_wound.total, to_wound.evaluated) == (100, 100)
    assert [c.inputs for c in to_wound.cells] == [(("attacker.S", 4), ("target.T", 4))]
    (cell,) = to_wound.cells
    assert (cell.a_value, cell.b_value, cell.delta) == (
        Fraction(1, 2), Fraction(1, 3), Fraction(-1, 6))
    # everything else that reads the chart differs only where it wounds S4 against T4
    assert {"to_wound_missile", "melee_attack", "shooting_attack"} <= set(by_name)
    for d in diff.compared:
        for c in d.cells:
            assert dict(c.inputs)["target.T"] == 4, (d.name, c.shown)
            assert _strength(c, wfb8) == 4, (d.name, c.shown)
    # largest difference first
    for d in diff.compared:
        sizes = [abs(c.delta) for c in d.cells]
        assert sizes == sorted(sizes, reverse=True)
    assert {c.shown for c in by_name["melee_attack"].cells} >= {
        "attacker.WS=5, attacker.S=4, target.WS=5, target.T=4, target.W=5"}


def test_identical_rulesets_have_nothing_to_compare() -> None:
    wfb8 = load_edition("wfb8")
    diff = behaviour_diff(wfb8, wfb8)
    assert diff.compared == () and diff.not_comparable == () and diff.unaffected > 0


def test_a_changed_test_is_compared_over_its_parameters() -> None:
    # Insane Courage: a natural 2 on the break test always passes.
    diff = behaviour_diff(load_edition("wfb8"), load_ruleset(NO_STEADFAST))
    by_name = {d.name: d for d in diff.compared}
    brk = by_name["break_test"]
    assert [d.label for d in brk.dims] == ["unit.Ld", "lost_by", "steadfast"]
    assert brk.total == brk.evaluated == 10 * 13 * 2
    assert brk.metric == "P(pass)"
    assert {c.delta for c in brk.cells} == {Fraction(1, 36)}
    for c in brk.cells:
        inputs = dict(c.inputs)
        target = inputs["unit.Ld"] - (0 if inputs["steadfast"] else inputs["lost_by"])
        assert target < 2  # only where a roll of 2 used to fail
    # steadfast() reads nothing the grid can vary: one cell, the same in both
    assert by_name["steadfast"].evaluated == 1


def test_inputs_that_differ_are_not_comparable(tmp_path) -> None:
    folder = tmp_path / "wfb8-new-params"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\ndescription: t\nrules:\n  - p.rules\n")
    (folder / "p.rules").write_text(
        'ruleset wfb8-new-params "t" extends wfb8\n\n'
        'override test leadership(unit: unit, modifier: int = 0, bonus: int = 0)   @ L450\n'
        '    dice 2D6\n'
        '    pass if result <= clamp(unit.Ld + modifier + bonus, 0, 10)\n')
    diff = behaviour_diff(load_edition("wfb8"), load_ruleset(folder))
    assert ("test", "leadership",
            "parameters differ: (unit: unit, modifier: int) in A, "
            "(unit: unit, modifier: int, bonus: int) in B") in diff.not_comparable


def test_a_grid_larger_than_the_cap_is_cut_down_deterministically() -> None:
    dims = [Dim(f"x{i}", "p", "value", None, tuple(range(10)), 5, "int", focus=i < 2)
            for i in range(5)]
    cells, total = select_cells(dims, 300, "example")
    assert total == 100_000 and len(cells) == 300 == len(set(cells))
    assert cells == sorted(cells)
    assert cells == select_cells(dims, 300, "example")[0]
    # every combination of the focus dimensions, the others at their default
    assert {(a, b, 5, 5, 5) for a in range(10) for b in range(10)} <= set(cells)
