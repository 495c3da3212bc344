"""The 40k5 ruleset's moves around close combat and running (seed 001): consolidation after a
combat (L519, L527) and after a Hit & Run (L1000); running in the Shooting phase as the
default policy's choice, and no assault after it (L251, L998, L967-L969).

Battle actions through a probe on fixed positions with scripted dice (by roll name);
``Lnnn`` is a line of ``../shared/seeds/001_ae65b95f9afc45ec.txt``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run.engine.builtins import BUILTINS

FIELD = """
edition: 40k5
battlefield: {{width: 72, depth: 48}}
units:
  - {{id: marines, side: imperium, profile: imperium/space_marine, models: 5, rules: [{rules}], position: {{x: 36, y: 10, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: {boyz}, position: {{x: 36, y: 14, facing: 180}}}}
  - {{id: mob, side: orks, profile: orks/ork_boy, models: 10, position: {{x: {mob_x}, y: {mob_y}, facing: 180}}}}
"""


def probe(tmp_path: Path, dice: dict[str, list[int]], *, rules: str = "", boyz: int = 1,
          mob: tuple[float, float] = (36, 40)) -> Probe:
    text = FIELD.format(rules=rules, boyz=boyz, mob_x=mob[0], mob_y=mob[1])
    p = Probe("40k5", battle_file(tmp_path, text), dice=dice, active="imperium")
    BUILTINS["engage"](p.state, p.env, None, p.unit["marines"], p.unit["boyz"])
    return p


def gap(p: Probe, a: str, b: str) -> float:
    return BUILTINS["distance"](p.state, p.env, None, p.unit[a], p.unit[b])


# One Ork Boy (I2) against five Space Marines (I4): the Marines strike first, 5 attacks (WS4
# against WS4: 4+), one hits (a 4), wounds (S4 against T4: 4+, a 5) and the 6+ save fails (a
# 3): the Boy dies before he strikes; the Marines win and are no longer locked (L505, L527).
KILL_THE_BOY = {"to_hit_melee": [4, 1, 1, 1, 1], "to_wound": [5], "save": [3]}


def test_a_victor_with_no_enemy_left_consolidates_d6(tmp_path: Path) -> None:
    # L527: the D6 shows 4: the Marines move 4" toward the nearest enemy, the mob 40 - 14 =
    # 26" centre to centre ahead of the Boy.
    p = probe(tmp_path, {**KILL_THE_BOY, "consolidation_distance": [4]})
    before = gap(p, "marines", "mob")
    p("resolve_combat", u="marines")
    assert p.unit["boyz"].models == 0
    assert p.logged("consolidates") == [["marines", 4]]
    assert gap(p, "marines", "mob") == pytest.approx(before - 4, abs=0.01)


def test_consolidation_stops_1_inch_from_the_enemy(tmp_path: Path) -> None:
    # L527: never into base contact: a 6 with the mob 3" away ends 1" from it.
    p = probe(tmp_path, {**KILL_THE_BOY, "consolidation_distance": [6]}, mob=(36, 17.2))
    before = gap(p, "marines", "mob")
    assert 2 < before < 6
    p("resolve_combat", u="marines")
    assert gap(p, "marines", "mob") == pytest.approx(1, abs=0.01)


def test_a_drawn_combat_does_not_consolidate(tmp_path: Path) -> None:
    # Ten Boyz: the Marines miss with all five (1s); the Boyz (I2, 10 x 2 attacks, +1 with
    # slugga and choppa: 30) all miss too: a draw (0 wounds each), both stay locked and no
    # consolidation is rolled (the scripted dice would be left over).
    p = probe(tmp_path, {"to_hit_melee": [1] * 35}, boyz=10)
    p("resolve_combat", u="marines")
    assert p.logged("the combat is drawn") and not p.logged("consolidates")
    assert p("locked", u="marines") is True


def test_the_winner_consolidates_after_the_loser_breaks_off(tmp_path: Path) -> None:
    # L519: ten Boyz lose (two die to the Marines, none of theirs wound), fail the Morale check
    # at -2 (6 + 6 against Ld 7), outrun the sweep (Marines 1 + I4 = 5 against Boyz 6 + I2 =
    # 8) and fall back 2D6 (3 + 3 = 6" and on until 1" clear); the Marines then consolidate
    # 5" toward the nearest enemy, ending 1" or more from every enemy.
    dice = {"to_hit_melee": [4, 4, 1, 1, 1] + [1] * 28, "to_wound": [5, 5], "save": [3, 3],
            "morale_check": [6, 6], "sweep_roll": [1, 6], "fall_back_distance": [3, 3],
            "consolidation_distance": [5]}
    p = probe(tmp_path, dice, boyz=10)
    p("resolve_combat", u="marines")
    assert p.logged("falls back from the combat") and p.logged("consolidates")
    assert min(gap(p, "marines", "boyz"), gap(p, "marines", "mob")) >= 1 - 0.01


def test_hit_and_run_leaves_the_foe_to_consolidate(tmp_path: Path) -> None:
    # L1000: the Marines pass the Initiative test (a 2 against I4) and break off 3D6 = 9";
    # the Boy, no longer in combat, consolidates 2" toward the nearest enemy.
    p = probe(tmp_path, {"characteristic_test": [2], "hit_and_run_distance": [3, 3, 3],
                         "consolidation_distance": [2]}, rules='"Hit & Run"')
    p("hit_and_run", u="marines")
    assert p.logged("hits and runs") and p.logged("consolidates") == [["boyz", 2]]


# ============================================================== running (L251)


RUNNERS = """
edition: 40k5
battlefield: {{width: 72, depth: 48}}
units:
  - {{id: marines, side: imperium, profile: imperium/space_marine, models: 5, rules: [{rules}], position: {{x: 36, y: 4, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: 10, position: {{x: 36, y: {boyz_y}, facing: 180}}}}
"""


def runners(tmp_path: Path, dice: dict[str, list[int]], *, rules: str = "", boyz_y: float = 44) -> Probe:
    text = RUNNERS.format(rules=rules, boyz_y=boyz_y)
    return Probe("40k5", battle_file(tmp_path, text), dice=dice, active="imperium")


def test_out_of_range_the_default_policy_runs_d6_and_may_not_assault(tmp_path: Path) -> None:
    # The Boyz are some 38" away, beyond the boltguns' 24": the Marines run instead of firing
    # (the default policy), a D6 of 5: 5" nearer, no shot fired; they may not assault that
    # turn (L251).
    p = runners(tmp_path, {"run_distance": [5]})
    before = gap(p, "marines", "boyz")
    assert before > 24
    p("shooting_phase")
    assert p.logged("runs") == [["marines", 5]] and not p.logged("fires at")
    assert gap(p, "marines", "boyz") == pytest.approx(before - 5, abs=0.01)
    assert "ran" in p.unit["marines"].statuses
    assert p("may_assault", u="marines") is False


def test_a_fleet_unit_may_assault_after_running(tmp_path: Path) -> None:
    # L998: Fleet lets a unit that ran assault.
    p = runners(tmp_path, {"run_distance": [5]}, rules='"Fleet"')
    p("shooting_phase")
    assert p.logged("runs") and p("may_assault", u="marines") is True


def test_in_range_the_default_policy_fires(tmp_path: Path) -> None:
    # 20" away the boltguns reach: no run (the run's D6 is never rolled).
    p = runners(tmp_path, {"to_hit_shooting": [1] * 5}, boyz_y=26)
    assert p("runs_to_close", u="marines") is False
    p("shooting_phase")
    assert p.logged("fires at") and not p.logged("runs")


def test_vehicles_do_not_run_but_walkers_may(tmp_path: Path) -> None:
    # L967-L969: a walker runs as infantry, unless stunned or immobilised; other vehicles
    # never run.
    text = """
edition: 40k5
battlefield: {width: 72, depth: 48}
units:
  - {id: dread, side: imperium, profile: imperium/dreadnought, models: 1, position: {x: 20, y: 6, facing: 0}}
  - {id: russ, side: imperium, profile: imperium/leman_russ, models: 1, position: {x: 50, y: 6, facing: 0}}
  - {id: boyz, side: orks, profile: orks/ork_boy, models: 10, position: {x: 36, y: 44, facing: 180}}
"""
    p = Probe("40k5", battle_file(tmp_path, text), dice=[], active="imperium")
    assert p("may_run", u="dread") is True and p("may_run", u="russ") is False
    BUILTINS["apply"](p.state, p.env, None, "stunned", p.unit["dread"])
    assert p("may_run", u="dread") is False


# ============================================================== assault moves (L405, L707)


def test_assault_moves_are_6_inches_12_for_beasts_and_cavalry(tmp_path: Path) -> None:
    # L405: infantry (and jump infantry, L681) assault up to 6"; L707: beasts and cavalry 12".
    from rules_run.runtime.entities import Unit
    p = runners(tmp_path, {})
    assert p("assault_range", u="marines") == 6
    values = dict(p.unit["marines"].profile)
    for kind, reach in (("cavalry", 12), ("beast", 12), ("jump_infantry", 6)):
        rider = Unit("r", "r", "r", values, 1, keywords={"INFANTRY"}, type=kind)
        assert p("assault_range", u=rider) == reach, kind


def test_an_enemy_8_inches_away_is_out_of_an_infantry_assault(tmp_path: Path) -> None:
    # L405: the Boyz 8" away (edge to edge) are not assaulted by infantry: nothing happens.
    p = runners(tmp_path, {}, boyz_y=4 + 1 + 8)
    assert 7.5 < gap(p, "marines", "boyz") < 8.5
    p("assault_phase")
    assert not p.logged("assaults")
