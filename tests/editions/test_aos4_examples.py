"""The aos4 family (seed 002): more of the digest's worked examples (§11.A), and coherency
after slain models are removed (2026-27).

Each test names its worked example (``WE-nn``) and the seed line(s) it reproduces; ``Lnnn``
is a line of ``../shared/seeds/002_71a3a79b74c3f40d.txt``. Every check goes through the
ruleset's own declarations: actions and tests run with ``runtime.invoke`` against a battle
state (``Probe``), with scripted dice and scripted orders where a roll or a choice matters,
or small battles with every die scripted. ``test_aos4.py`` and ``test_aos4_battle.py`` hold
the other worked examples; ``rulesets/aos4/README.md`` lists the ones not reproduced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run.chance import ScriptedChance
from rules_run import open_battle
from rules_run.engine.driver import run_battle
from rules_run.runtime.records import Record, fields

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ("aos4", "aos4-gh2025", "aos4-gh2026")
DUEL = "rulesets/aos4/battles/duel.yaml"
BATTLE = "rulesets/aos4/battles/battle.yaml"
COHERENCY = "rulesets/aos4/battles/seasons/coherency_after_slain.yaml"


# ============================================================== helpers


def fight(edition: str, path: str | Path, options: dict[str, Any] | None = None):
    _, runtime, battle = open_battle(edition, str(path), options)
    return run_battle(runtime, battle)


def models_left(result) -> dict[str, int]:
    return {u.id: u.models for u in result.units}


# ============================================================== army composition


@pytest.mark.parametrize("edition", ["aos4-gh2025", "aos4-gh2026"])
def test_we01_each_auxiliary_unit_after_the_first_costs_a_cumulative_20_points(
        edition: str) -> None:
    # WE-01, L976, L980, L1237, L1241 (and the orphan copies L52, L70): the 2nd auxiliary
    # unit +20, the 3rd +40, the 4th +60; four of them 120 in all, N of them 10 N (N - 1).
    probe = Probe(edition, DUEL)
    assert [probe("auxiliary_surcharge", nth=n) for n in (1, 2, 3, 4)] == [0, 20, 40, 60]
    assert probe("roster_surcharge", auxiliaries=4) == 120
    for n in range(0, 8):
        assert probe("roster_surcharge", auxiliaries=n) == 10 * n * (n - 1)


def test_we02_the_original_rules_have_no_auxiliary_surcharge() -> None:
    # WE-02, L1507: the original module gives auxiliary units no points surcharge.
    probe = Probe("aos4", DUEL)
    assert probe("roster_surcharge", auxiliaries=4) == 0


AUXILIARIES = """
edition: aos4
units:
  - {{id: liberators, side: order, profile: order/liberators, models: 5, values: {{auxiliary: {a}}},
     position: {{x: 20, y: 5}}}}
  - {{id: judicators, side: order, profile: order/judicators, models: 5, values: {{auxiliary: {a}}},
     position: {{x: 40, y: 5}}}}
  - {{id: clanrats, side: chaos, profile: chaos/clanrats, models: 10, values: {{auxiliary: true}},
     position: {{x: 30, y: 38, facing: 180}}}}
"""


@pytest.mark.parametrize("edition", EDITIONS)
def test_we03_the_player_with_fewer_auxiliary_units_gets_an_extra_command_point(
        tmp_path: Path, edition: str) -> None:
    # WE-03, L976 (L1507, L1237): order has 2 auxiliary units, chaos 1: chaos gets 1 extra
    # command point at the start of the battle round (no underdog in round 1, L41).
    probe = Probe(edition, battle_file(tmp_path, AUXILIARIES.format(a="true")))
    probe("grant_command_points")
    assert probe.logged("command points") == [["order", 4, "chaos", 5]]
    # with the same number of auxiliary units (here 1 each), neither gets one
    text = AUXILIARIES.format(a="true").replace(
        "judicators, models: 5, values: {auxiliary: true}", "judicators, models: 5, values: {auxiliary: false}")
    probe = Probe(edition, battle_file(tmp_path, text, "equal.yaml"))
    probe("grant_command_points")
    assert probe.logged("command points") == [["order", 4, "chaos", 4]]


def test_we38_a_reinforced_unit_has_twice_the_models_and_the_points() -> None:
    # WE-38, L1721 (L1173): minimum size 5 at 100 points, reinforced: 10 models, 200
    # points; a unit of minimum size 1 cannot be reinforced (nor, from 2025-26, one whose
    # profile says so, L1484).
    probe = Probe("aos4", DUEL)
    assert fields(probe("reinforced_unit", min_size=5, points=100, allowed=True), "size",
                  "cost") == (10, 200)
    assert probe("reinforced_unit", min_size=1, points=100, allowed=True) is None
    assert probe("reinforced_unit", min_size=5, points=100, allowed=False) is None


def test_we39_a_replacement_unit_is_reinforced_with_more_than_half_the_models() -> None:
    # WE-39, L1176: the original reinforced unit had 10 models; a replacement of 6 is
    # reinforced, one of 5 (exactly half) is not.
    probe = Probe("aos4", DUEL)
    args = {"original_reinforced": True, "original_models": 10}
    assert probe("replacement_reinforced", replacement_models=6, **args) is True
    assert probe("replacement_reinforced", replacement_models=5, **args) is False
    assert probe("replacement_reinforced", original_reinforced=False, original_models=10,
                 replacement_models=6) is False


@pytest.mark.parametrize("edition", EDITIONS)
def test_we41_regiments_at_most_5_and_4_non_heroes_only_with_the_general(edition: str) -> None:
    # WE-41, L951, L1120 (L1657): a roster of 6 regiments is invalid; a regiment of a HERO
    # and 4 non-HERO units is invalid unless the general leads it.
    probe = Probe(edition, DUEL)
    def regiment(non_heroes: int, general: bool) -> Record:
        return Record("Regiment", ("non_heroes", "general"), (non_heroes, general))
    six = [regiment(3, True)] + [regiment(3, False)] * 5
    assert probe("roster_valid", regiments=six) is False
    assert probe("roster_valid", regiments=[regiment(3, True)] + [regiment(3, False)] * 4) is True
    assert probe("regiment_valid", non_heroes=4, general=False) is False
    assert probe("roster_valid", regiments=[regiment(2, True), regiment(4, False)]) is False
    assert probe("regiment_valid", non_heroes=4, general=True) is True
    assert probe("roster_valid", regiments=[regiment(4, True), regiment(1, False)]) is True


# ============================================================== dice and damage


def test_we12_a_tied_roll_off_is_rolled_again() -> None:
    # WE-12, L853: A 4 against B 4 is a tie and is rolled again; A 2 against B 5: B wins.
    probe = Probe("aos4", DUEL, dice={"roll_off": [4, 4, 2, 5]})
    assert probe("roll_off_winner", a="order", b="chaos") == "chaos"
    assert [e.rolls for e in probe.events("roll_off")] == [[4, 4], [2, 5]]
    assert not probe.chance.remaining()


IGNORING = """
edition: aos4
units:
  - {{id: clanrats, side: chaos, profile: chaos/clanrats, models: 10, rules: {rules},
     position: {{x: 30, y: 30}}}}
  - {{id: liberators, side: order, profile: order/liberators, models: 5, position: {{x: 30, y: 5}}}}
"""


def test_we19_two_effects_ignore_only_the_first_damage_point_of_a_phase(tmp_path: Path) -> None:
    # WE-19, L973-L974: a unit under two different effects that each ignore the first damage
    # point in a phase (the rule it carries, and the same effect given for the phase by the
    # status ignoring_first_point) takes 3 damage points: only the first is ignored, 2 are
    # allocated.
    rules = '["Ignore the First Damage Point"]'
    probe = Probe("aos4", battle_file(tmp_path, IGNORING.format(rules=rules)))
    probe.next_phase()
    probe.unit["clanrats"].statuses["ignoring_first_point"] = "phase"
    assert probe("allocate_damage", u="clanrats", points=3) == 2
    assert probe.unit["clanrats"].models == 8
    # later in the same phase nothing more is ignored; in the next phase the first point is
    assert probe("allocate_damage", u="clanrats", points=1) == 1
    probe.next_phase()
    assert probe("allocate_damage", u="clanrats", points=1) == 0
    assert probe.unit["clanrats"].models == 7


def test_we20_an_effect_gained_after_damage_in_the_phase_ignores_nothing(tmp_path: Path) -> None:
    # WE-20, L973-L974: the unit took 1 damage point earlier in the phase, then became
    # subject to such an effect (status ignoring_first_point), then takes 2 more: none is
    # ignored, 2 are allocated.
    probe = Probe("aos4", battle_file(tmp_path, IGNORING.format(rules="[]")))
    probe.next_phase()
    assert probe("allocate_damage", u="clanrats", points=1) == 1
    probe.unit["clanrats"].statuses["ignoring_first_point"] = "phase"
    assert probe("allocate_damage", u="clanrats", points=2) == 2
    assert probe.unit["clanrats"].models == 7
    assert not probe.logged("the first damage point of the phase is ignored")


# ============================================================== magic and prayers


WIZARDS = """
edition: aos4
units:
  - {{id: incantor, side: order, profile: order/knight_incantor, models: 1, rules: {rules},
     position: {{x: 30, y: 5}}}}
  - {{id: grey_seer, side: chaos, profile: chaos/grey_seer, models: 1, position: {{x: 30, y: 25, facing: 180}}}}
"""


@pytest.mark.parametrize("edition", EDITIONS)
def test_we06_wizard_2_has_power_level_2(tmp_path: Path, edition: str) -> None:
    # WE-06, L836 (L1475, L1714): the power level is the number after the keyword,
    # WIZARD (2) -> 2; a WIZARD without a number has 1.
    probe = Probe(edition, battle_file(tmp_path, WIZARDS.format(rules='["WIZARD (2)"]')))
    assert probe("power_level", u="incantor") == 2
    assert probe("power_level", u="grey_seer") == 1


def test_we08_with_two_power_levels_the_higher_one_is_used(tmp_path: Path) -> None:
    # WE-08 (first part), L1476 (2025-26; FAQ also in the original, L1715-L1717): a WIZARD
    # (1) and PRIEST (2): an ability that refers to its power level uses 2.
    rules = '["WIZARD (1)", "PRIEST (2)"]'
    probe = Probe("aos4-gh2025", battle_file(tmp_path, WIZARDS.format(rules=rules)))
    assert probe("power_level", u="incantor") == 2


@pytest.mark.parametrize("level, attempts", [(1, 1), (2, 2)])
def test_we26_a_wizard_unbinds_as_many_times_a_phase_as_its_power_level(
        tmp_path: Path, level: int, attempts: int) -> None:
    # WE-26, L1221: a WIZARD (1) cannot try a second Unbind in the same phase; a WIZARD (2)
    # can (once per casting roll). Two spells are cast in one phase, each with a casting
    # roll of 8; the unbinding rolls are 5 + 4 = 9 (exceeds 8, L823).
    path = battle_file(tmp_path, WIZARDS.format(rules=f'["WIZARD ({level})"]'))
    probe = Probe("aos4", path, dice={"unbinding_roll": [5, 4] * attempts}, active="chaos")
    probe.next_phase()
    results = [probe("unbound", caster="grey_seer", casting_total=8) for _ in range(2)]
    assert results == [True, level >= 2]
    assert len([e for e in probe.env.events if getattr(e, "rule", None) == "unbinding_roll"]) == attempts
    # a new phase gives the WIZARD (1) its Unbind back
    if level == 1:
        probe.chance = ScriptedChance({"unbinding_roll": [5, 4]})
        probe.env = probe.runtime.env(probe.chance, probe.env.options, [], probe.state)
        probe.next_phase()
        assert probe("unbound", caster="grey_seer", casting_total=8) is True


PRIEST = """
edition: aos4
units:
  - {id: priest, side: order, profile: order/knight_incantor, models: 1, position: {x: 30, y: 5}}
  - {id: clanrats, side: chaos, profile: chaos/clanrats, models: 10, position: {x: 30, y: 35, facing: 180}}
"""


def test_we28_banking_ritual_points_adds_the_chanting_roll(tmp_path: Path) -> None:
    # WE-28, L803 (L1683-L1685): Resurrection (chanting value 7), 3 ritual points, a
    # chanting roll of 4, and the player banks: 3 + 4 = 7 ritual points, the prayer is not
    # resolved.
    orders = [{"decision": "chant_choice", "choose": "bank"}]
    probe = Probe("aos4", battle_file(tmp_path, PRIEST), dice={"chanting_roll": [4]},
                  orders=orders)
    probe.set_counter("ritual_points", "priest", 3)
    assert probe("chant", priest="priest", chanting_value=7) is False
    assert probe.counter("ritual_points", "priest") == 7
    assert probe.logged("ritual points banked") == [["priest", 7]]
    assert not probe.logged("the prayer is answered")


def test_we27_we28_answering_instead_resolves_the_prayer_and_resets_the_points(
        tmp_path: Path) -> None:
    # The other choice of WE-28 (WE-27, L813-L817): 4 + 3 = 7 equals the chanting value, the
    # prayer is answered and the ritual points go back to 0.
    probe = Probe("aos4", battle_file(tmp_path, PRIEST), dice={"chanting_roll": [4]},
                  orders=[{"decision": "chant_choice", "choose": "answer"}])
    probe.set_counter("ritual_points", "priest", 3)
    assert probe("chant", priest="priest", chanting_value=7) is True
    assert probe.counter("ritual_points", "priest") == 0


def test_we32_the_original_glossary_banishment_has_no_bonus() -> None:
    # WE-32, L458: the original glossary's Banish Manifestation has no +1 per enemy
    # manifestation after the first: with 3 enemy manifestations, dice 3 and 4 make 7, short
    # of a banishment value of 9. aos4 follows the module's errata by default (L1516-L1518,
    # reading 10: 7 + 2 = 9 banishes, WE-31); option banishment_by = glossary gives WE-32.
    args = {"caster": "grey_seer", "banishment_value": 9, "enemy_manifestations": 3}
    glossary = Probe("aos4", BATTLE, dice={"banishment_roll": [3, 4]},
                     options={"banishment_by": "glossary"})
    assert not glossary("banishment_roll", **args).passed
    module = Probe("aos4", BATTLE, dice={"banishment_roll": [3, 4]})
    assert module("banishment_roll", **args).passed
    # 2025-26 and 2026-27: glossary and module agree on the +1, and the option is gone
    for edition in ("aos4-gh2025", "aos4-gh2026"):
        probe = Probe(edition, BATTLE, dice={"banishment_roll": [3, 4]})
        assert probe("banishment_roll", **args).passed
        assert "banishment_by" not in probe.runtime.ruleset.decls


# ============================================================== battle tactics


@pytest.mark.parametrize("edition", ["aos4-gh2025", "aos4-gh2026"])
def test_we44_one_tactic_a_card_a_turn_and_strike_only_after_affray(edition: str) -> None:
    # WE-44, L126-L127 (L300-L301): at the end of the turn both Affray (a friendly unit
    # charged) and Strike (an enemy unit destroyed) are done: only Affray is scored, as at
    # most one tactic of a card is scored a turn. (The battle keeps one card: README.md.)
    probe = Probe(edition, BATTLE)
    probe("start_tactics")
    probe.unit["liberators"].statuses["charged"] = "turn"
    probe.unit["warhounds"].models = 0
    probe.unit["warhounds"].destroyed = True
    probe("complete_tactics")
    assert probe.logged("battle tactic completed") == [["order", "Storm Forward"]]
    assert probe.state.vp.get("order") == 4
    assert probe.counter("card_progress", "order") == 1


@pytest.mark.parametrize("edition", ["aos4-gh2025", "aos4-gh2026"])
def test_we44_strike_cannot_be_scored_before_affray(edition: str) -> None:
    # WE-44, L126-L127: with only Strike's condition met (an enemy unit destroyed), nothing
    # is scored, because Affray has not been completed.
    probe = Probe(edition, BATTLE)
    probe("start_tactics")
    probe.unit["warhounds"].models = 0
    probe.unit["warhounds"].destroyed = True
    probe("complete_tactics")
    assert not probe.logged("battle tactic completed")
    assert probe.state.vp.get("order", 0) == 0


# ============================================================== coherency after slain models (2026-27)


def test_coherency_after_slain_models_differs_in_2026_27() -> None:
    # L138 against L312 and L472 (reading 23): a strung-out unit of 10 Clanrats loses 2
    # models in combat. Coherency is checked only when a unit is set up or ends a move in the
    # original rules and 2025-26: 8 are left. 2026-27 checks it also when slain models are
    # removed: the chain splits, the smaller group (4) is removed too, and those count as
    # slain (L1020-L1021): 4 are left.
    left = {edition: models_left(fight(edition, COHERENCY))["clanrats"] for edition in EDITIONS}
    assert left == {"aos4": 8, "aos4-gh2025": 8, "aos4-gh2026": 4}
    result = fight("aos4-gh2026", COHERENCY)
    casualties = [e for e in result.events if e.kind == "casualties" and e.unit == "clanrats"]
    assert [e.slain for e in casualties] == [2, 4]


def test_coherency_reading_end_keeps_a_strung_out_unit_whole_in_2026_27() -> None:
    # With strung_out_casualties = end, the slain models come off an end of the chain and
    # 2026-27 removes nothing more: the same as the earlier seasons.
    result = fight("aos4-gh2026", COHERENCY, options={"strung_out_casualties": "end"})
    assert models_left(result)["clanrats"] == 8


def test_coherency_spares_a_unit_that_is_not_strung_out(tmp_path: Path) -> None:
    # A unit without formation: strung_out stands as a block; removing slain models from its
    # back never breaks coherency, in 2026-27 too.
    text = (ROOT / COHERENCY).read_text(encoding="utf-8").replace(
        ", values: {formation: strung_out}", "")
    result = fight("aos4-gh2026", battle_file(tmp_path, text))
    assert models_left(result)["clanrats"] == 8
