"""Behaviour diffs: exact odds over a grid of synthetic inputs."""

from __future__ import annotations

from fractions import Fraction

from rules_run.diff import behaviour_diff, structure_diff
from rules_run.diff.grid import Dim, select_cells
from rules_run.editions.loader import load_edition, load_ruleset

from .conftest import NO_STEADFAST, ONE_CELL


STRENGTH = ("attacker.S", "shooter.S", "strength")


def _plain_cells(d):
    """The cells of a declaration's grid whose inputs are all at their defaults except its
    Strength and the target's Toughness (no status, rule or equipment changes them)."""
    labels = {dim.label for dim in d.dims}
    strength = next((x for x in STRENGTH if x in labels), None)
    if strength is None or "target.T" not in labels:
        return None, []
    defaults = {dim.label: dim.values[dim.default] for dim in d.dims
                if dim.label not in (strength, "target.T")}
    return strength, [c for c in d.cells
                      if all(dict(c.inputs)[k] == v for k, v in defaults.items())]


def test_a_chart_that_differs_in_one_cell_is_reported_in_exactly_that_cell() -> None:
    wfb8, patch = load_edition("wfb8"), load_ruleset(ONE_CELL)
    # the structure: exactly one cell
    (table,) = structure_diff(wfb8, patch).declarations
    assert [(dict(c.key), c.a, c.b) for c in table.cells] == [
        ({"strength": 4, "toughness": 4}, 4, 5)]
    # the behaviour: the to-wound test, at plain inputs, differs in exactly S4 against T4
    # 300 cells hold every S against every T at plain inputs, and more
    diff = behaviour_diff(wfb8, patch, cells=300, sequence_cells=100,
                          only={"to_wound", "to_wound_missile", "melee_attack"})
    by_name = {d.name: d for d in diff.compared}
    to_wound = by_name["to_wound"]
    assert {"attacker.S", "target.T"} <= {d.label for d in to_wound.dims}
    _, plain = _plain_cells(to_wound)
    assert [c.shown for c in plain] == ["attacker.S=4, target.T=4"]
    (cell,) = plain
    assert (cell.a_value, cell.b_value, cell.delta) == (
        Fraction(1, 2), Fraction(1, 3), Fraction(-1, 6))
    # everything else that reads the chart: at plain inputs, only S4 against T4 differs
    assert {"to_wound_missile", "melee_attack"} <= set(by_name)
    checked = 0
    for d in diff.compared:
        strength, plain = _plain_cells(d)
        for c in plain:
            inputs = dict(c.inputs)
            assert (inputs[strength], inputs["target.T"]) == (4, 4), (d.name, c.shown)
            checked += 1
    assert checked >= 2
    # largest difference first
    for d in diff.compared:
        sizes = [abs(c.delta) for c in d.cells if c.delta is not None]
        assert sizes == sorted(sizes, reverse=True)


def test_identical_rulesets_have_nothing_to_compare() -> None:
    wfb8 = load_edition("wfb8")
    diff = behaviour_diff(wfb8, wfb8)
    assert diff.compared == () and diff.not_comparable == () and diff.unaffected > 0


def test_a_changed_test_is_compared_over_its_parameters() -> None:
    # Insane Courage: a natural 2 on the break test always passes.
    diff = behaviour_diff(load_edition("wfb8"), load_ruleset(NO_STEADFAST))
    by_name = {d.name: d for d in diff.compared}
    brk = by_name["break_test"]
    assert {"unit.Ld", "lost_by", "steadfast", "rerolled"} <= {d.label for d in brk.dims}
    assert brk.evaluated == brk.total and brk.metric == "P(pass)"
    for c in brk.cells:
        inputs = dict(c.inputs)
        target = inputs["unit.Ld"] - (0 if inputs["steadfast"] else inputs["lost_by"])
        assert target < 2  # only where a roll of 2 used to fail
        # a 2 once, or (re-rolled) on either of two rolls
        assert c.delta == (1 - Fraction(35, 36) ** 2 if inputs["rerolled"] else Fraction(1, 36))
    assert "steadfast" in by_name  # compared too, as far as synthetic units allow


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


def test_a_rule_that_only_widens_a_mark_is_seen(tmp_path) -> None:
    # critical hits on a 5+ for everyone: nothing passes or fails differently, but the
    # hit roll's critical comes twice as often
    folder = tmp_path / "aos4-keen"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\ndescription: t\nrules:\n  - p.rules\n")
    (folder / "p.rules").write_text(
        'ruleset aos4-keen "t" extends aos4\n'
        '    source "002_71a3a79b74c3f40d.txt"\n\n'
        'add rule "Keen Eye" is global                                        @ L971-L972\n'
        '    mark critical on hit_roll if natural >= 5\n')
    diff = behaviour_diff(load_edition("aos4"), load_ruleset(folder), cells=200,
                          only={"hit_roll"})
    (hit,) = diff.compared
    assert hit.metric == "P(pass)" and hit.cells
    for c in hit.cells:
        assert c.delta == 0
        (extra,) = c.extra
        assert extra == ("p_critical", "P(critical)", Fraction(1, 6), Fraction(1, 3))
        assert c.distance == Fraction(1, 6)
