"""Battle outcomes with common random numbers, and attribution to a patch's operations."""

from __future__ import annotations

import pytest

from rules_run.diff import diff_rulesets, paired
from rules_run.diff.steps import apply_ops, resolved_ops
from rules_run.editions.loader import load_edition, load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset

from .conftest import DUEL, HOUSE_CHARGE, NO_STEADFAST

RUNS = 30


@pytest.fixture(scope="module")
def charge_report():
    return diff_rulesets("wfb8", str(HOUSE_CHARGE), str(DUEL), runs=RUNS, seed=1,
                         behaviour=False)


def test_intermediate_rulesets_apply_the_operations_in_order_and_leave_a_alone() -> None:
    wfb8, patch = load_edition("wfb8"), load_ruleset(HOUSE_CHARGE)
    ops = resolved_ops(wfb8, patch)
    assert [r.step.label() for r in ops] == ["override option charge_roll",
                                             "override table combat_result_chart"]
    first = apply_ops(wfb8, ops[:1], "first")
    assert first.decls["charge_roll"].default == "sum"
    assert first.tables["combat_result_chart"] is wfb8.tables["combat_result_chart"]
    assert first.origins["charge_roll"].ruleset == "wfb8-house-charge"
    assert wfb8.decls["charge_roll"].default == "highest"
    both = apply_ops(wfb8, ops, "both")
    assert both.decls == patch.decls and both.rules == patch.rules
    assert both.tables["combat_result_chart"].cells == patch.tables["combat_result_chart"].cells
    assert both.tables["combat_result_chart"].cells[("charged",)] == 2
    compile_ruleset(both, builtins=BUILTINS)


def test_attribution_sums_to_the_total(charge_report) -> None:
    att = charge_report.attribution
    assert [s.ops for s in att.steps] == [(1,), (2,)]
    for metric in att.metrics:
        steps = sum(s.delta(metric).mean for s in att.steps)
        assert steps == pytest.approx(att.total.delta(metric).mean, abs=1e-12)
    # and the total is B - A of the battle part
    diffs = {k: p for k, _, _, p in charge_report.battle.differences}
    assert att.total.delta("win:empire").mean == pytest.approx(diffs["win:empire"].mean)
    # each operation alone, and what is left is the interaction
    assert [s.ops for s in att.alone] == [(1,), (2,)]
    assert att.alone[0].delta("draw") == att.steps[0].delta("draw")
    for metric, interaction in att.interaction:
        alone = sum(s.delta(metric).mean for s in att.alone)
        assert interaction == pytest.approx(att.total.delta(metric).mean - alone, abs=1e-12)


def test_the_same_seeds_give_the_same_report_with_any_number_of_workers(charge_report) -> None:
    again = diff_rulesets("wfb8", str(HOUSE_CHARGE), str(DUEL), runs=RUNS, seed=1,
                          behaviour=False, workers=2)
    assert again.to_json() == charge_report.to_json()
    other = diff_rulesets("wfb8", str(HOUSE_CHARGE), str(DUEL), runs=RUNS, seed=2,
                          behaviour=False, attribute=False)
    assert other.to_json()["battle"] != charge_report.to_json()["battle"]


def test_a_runs_under_a_are_the_runs_of_rules_run(charge_report) -> None:
    # run i uses derive_seed(seed, "run", i), as rules-run --runs does
    from rules_run.engine.stats import RunSpec, run_many, summarise

    expected = summarise(run_many(RunSpec("wfb8", str(DUEL), {}, 1), RUNS))
    assert charge_report.battle.a == expected


def test_an_unchanged_battle_has_no_significant_difference() -> None:
    report = diff_rulesets("wfb8", "wfb8", str(DUEL), runs=30, seed=1, behaviour=False)
    assert report.attribution is None
    for _, x, y, p in report.battle.differences:
        assert x == y and p.mean == 0 and not p.significant
    assert report.battle.winner_changed == 0


def test_paired_differences() -> None:
    same = paired([1, 0, 1], [1, 0, 1])
    assert (same.mean, same.z, same.significant) == (0, None, False)
    shift = paired([0] * 50, [1] * 50)
    assert (shift.mean, shift.low, shift.high, shift.significant) == (1, 1, 1, True)
    noisy = paired([0, 1] * 50, [1, 0] * 25 + [0, 1] * 25)
    assert noisy.mean == 0 and noisy.low < 0 < noisy.high and not noisy.significant


def test_a_patch_with_an_inert_operation_reports_zero_for_it() -> None:
    # In the reference duel the loser of a combat round almost never outnumbers the winner,
    # so "no Steadfast" changes nothing in these runs.
    report = diff_rulesets("wfb8", str(NO_STEADFAST), str(DUEL), runs=10, seed=1,
                           behaviour=False)
    first = report.attribution.steps[0]
    assert first.label == "1. override action steadfast"
    assert all(not p.significant for _, p in first.deltas)


def test_an_operation_that_needs_a_later_one_is_measured_with_it(tmp_path) -> None:
    folder = tmp_path / "wfb8-order"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\ndescription: t\nrules:\n  - p.rules\n")
    (folder / "p.rules").write_text(
        'ruleset wfb8-order "uses a test before it adds it" extends wfb8\n\n'
        'override action steadfast(u: unit, enemy: unit)   @ "not in seed: test"\n'
        '    return grim_resolve(u)\n'
        'add test grim_resolve(u: unit)   @ "not in seed: test"\n'
        '    dice D6\n'
        '    need 6\n'
        'override action combat_bonus(u: unit, enemy: unit)   @ "not in seed: test"\n'
        '    return 0\n')
    report = diff_rulesets("wfb8", str(folder), str(DUEL), runs=10, seed=1, behaviour=False)
    att = report.attribution
    assert [s.ops for s in att.steps] == [(1, 2), (3,)]
    assert att.steps[0].label == ("1-2. override action steadfast + add test grim_resolve")
    assert att.alone[0].deltas == () and "cannot be applied alone" in att.alone[0].note
    assert att.interaction == ()
    assert any("with operation 1 but not 2" in n for n in att.notes)
    for metric in att.metrics:
        assert sum(s.delta(metric).mean for s in att.steps) == pytest.approx(
            att.total.delta(metric).mean, abs=1e-12)
