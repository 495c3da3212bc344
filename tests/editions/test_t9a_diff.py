"""rules-diff wfb8 t9a on the Highborn battle (issue #15): the report's four parts at a
small number of runs, and the pieces that make the diff of a large patch finish: the
behaviour grid's enumeration budget, the Highborn profiles fought under wfb8, and the
operations that add a declaration nothing names yet (not fought: exactly no change).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diff import behaviour as behaviour_module
from rules_run.diff import behaviour_diff, diff_rulesets
from rules_run.diff.battles import borrowed_data
from rules_run.diff.report import unreferenced
from rules_run.diff.steps import apply_ops, resolved_ops
from rules_run.editions.loader import load_edition

ROOT = Path(__file__).resolve().parents[2]
T9A = str(ROOT / "rulesets" / "t9a")
HIGHBORN = str(ROOT / "rulesets" / "t9a" / "battles" / "highborn.yaml")


@pytest.fixture(scope="module")
def pair():
    return load_edition("wfb8"), load_edition(T9A)


def test_the_highborn_profiles_fight_under_wfb8_without_the_rules_it_lacks(pair) -> None:
    # the battle's elven profiles are t9a's data: under wfb8 they keep wfb8's rules (Fly,
    # Fear, Breath Weapon, ...) and lose those only t9a declares (Fireborn, Martial
    # Discipline, ...); the Orcs' profiles are wfb8's own, untouched
    wfb8, t9a = pair
    fought, dropped = borrowed_data(wfb8, t9a)
    phoenix = fought.units["highborn/fire_phoenix"]
    assert phoenix["rules"] == ["Fly (8)", "Flaming Attacks", "Fear",
                                "Breath Weapon (Strength 4, Flaming Attacks)"]
    assert {"Fireborn", "Martial Discipline", "Sweeping Attack", "Rebirth"} <= set(dropped)
    assert fought.equipment["dragonforged_armour"]["rules"] == []
    assert fought.units["orcs/orc_boy"] is wfb8.units["orcs/orc_boy"]
    assert borrowed_data(t9a, wfb8) == (t9a, ())


def test_an_operation_adding_a_declaration_nothing_names_is_inert(pair) -> None:
    # "add status chilled" comes before the action that applies it: nothing names it yet;
    # "add action chill" is named by the Blizzard Aura rule once that is added; a rule no
    # battle unit carries and nothing names is inert, one the Frost Phoenix carries is not
    wfb8, t9a = pair
    ops = resolved_ops(wfb8, t9a)
    at = {o.step.label(): i for i, o in enumerate(ops)}

    def state(label: str):
        return apply_ops(wfb8, ops[:at[label] + 1], "x")
    chilled = state("add status chilled")
    assert unreferenced(chilled, wfb8, "chilled", {})
    aura = state('add rule "Blizzard Aura"')
    assert not unreferenced(aura, wfb8, "chill", {})
    assert unreferenced(aura, wfb8, "rule:Moonlight Arrows", {})
    fought = borrowed_data(aura, t9a)[0]
    assert not unreferenced(fought, wfb8, "rule:Blizzard Aura", {})
    assert not unreferenced(aura, wfb8, "rule:Blizzard Aura (unit)", {})  # global


def test_the_behaviour_grid_stops_a_declaration_at_its_enumeration_budget(pair, monkeypatch) -> None:
    # roll_to_hit rolls one die per shot: its cells grow as 6 ** shots. With a budget of
    # 3,000 leaves the first waves are evaluated and the rest left out, with a note; the
    # cells beyond the per-cell limit are reported as not enumerable on both sides.
    monkeypatch.setattr(behaviour_module, "DECL_LEAVES", 3_000)
    monkeypatch.setattr(behaviour_module, "CELL_LEAVES", 500)
    wfb8, t9a = pair
    (d,) = behaviour_diff(wfb8, t9a, only=["roll_to_hit"]).compared
    assert 1 < d.evaluated < 2000 and d.total > 1_000_000
    assert d.note == (f"{d.evaluated} of 2000 cells evaluated: their exact enumeration took "
                      "the 3000 outcomes rules-diff spends on one declaration")


def test_rules_diff_wfb8_t9a_on_the_highborn_battle_reports_every_part(pair) -> None:
    # #15: structure (the overrides with both citations), the differing behaviour cells,
    # the outcome of the battle under both, and the attribution per operation, the steps
    # adding up to the total over the attribution's runs
    report = diff_rulesets("wfb8", T9A, HIGHBORN, runs=4, attribution_runs=2, seed=1,
                           cells=40, sequence_cells=4).to_json()
    changed = {d["name"] for d in report["structure"]["declarations"]
               if d["kind"] == "rule" and d["change"] == "changed"}
    assert {"Armour Piercing", "Ward Save", "Multiple Wounds", "Fear", "Breath Weapon"} <= changed
    # Regeneration: not taken with Fireborn (L69): 40 of its 64 cells (the cap given)
    differing = {d["name"]: d for d in report["behaviour"]["compared"] if d["cells"]}
    regeneration = differing["regeneration_save"]
    assert (regeneration["cells_evaluated"], regeneration["cells_total"]) == (40, 64)
    assert all(c["delta"] is not None and c["delta"] <= 0 for c in regeneration["cells"])
    battle = report["battle"]
    assert battle["runs"] == 4 and battle["sides"] == ["highborn", "orcs"]
    assert "win:highborn" in battle["differences"]
    att = report["attribution"]
    ops = len(resolved_ops(*pair))
    assert len(att["steps"]) == ops + 1  # each operation, then the unit data
    assert [s["ops"] for s in att["steps"][:ops]] == [[i + 1] for i in range(ops)]
    for m in att["metrics"]:
        assert att["sum_of_steps"][m] == pytest.approx(att["total"]["deltas"][m]["mean"])
    chilled = next(s for s in att["steps"] if s["label"].endswith("add status chilled"))
    assert all(d["mean"] == 0 and d["z"] is None for d in chilled["deltas"].values())
    notes = " | ".join(report["notes"])
    assert "not fought: nothing in the ruleset names what each declares yet" in notes
    assert "fights the first 2 of the 4 runs" in notes
    assert "without the rule references wfb8 cannot read: Blizzard Aura" in notes
    assert att["alone"] == [] and "no interaction term" in notes
