"""The 40k5 ruleset's blasts and templates (seed 001, L386-L393, L51-L53): the marker over
the target, the scatter by the scatter dice and 2D6 less the firer's BS (never below 0), the
models under it hit, friend or foe, and the twin-linked blast's two readings (L387, L390).

Battle actions run through a probe of a small battle with fixed positions and scripted dice
(by roll name); exact chances through ``enumerate_exact``. ``Lnnn`` is a line of
``../shared/seeds/001_ae65b95f9afc45ec.txt``. The hits are counted by hand in the comments:
an Ork Boy's base is 25 mm (0.984"), a unit of ten one rank wide stands its models side by
side, centred on its position.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import ScriptedChance, enumerate_exact
from rules_run.runtime.entities import Unit, Weapon

F = Fraction
BASE = 25 / 25.4
"""An Ork Boy's base, in inches (orks.yaml: 25 mm)."""

# The devastator (one Space Marine with a frag missile launcher, BS 4) 19" from unit a, ten
# Boyz in one rank centred on (20, 30); unit b, ten more, centred 10" further along x.
BATTLE = """
edition: 40k5
battlefield: {width: 72, depth: 48}
units:
  - {id: dev, side: imperium, profile: imperium/devastator, models: 1, position: {x: 20, y: 10, facing: 0}}
  - {id: a, side: orks, profile: orks/ork_boy, models: 10, files: 10, position: {x: 20, y: 30, facing: 180}}
  - {id: b, side: orks, profile: orks/ork_boy, models: 10, files: 10, position: {x: 30, y: 30, facing: 180}}
  - {id: grots, side: imperium, profile: orks/ork_boy, models: 10, files: 10, position: {x: 20, y: 33, facing: 180}}
"""


@pytest.fixture()
def battle(tmp_path: Path) -> Path:
    return battle_file(tmp_path, BATTLE)


def volley(path: Path, dice: dict[str, list[Any]], weapon: Weapon | None = None,
           options: dict[str, Any] | None = None, shots: int = 1) -> Probe:
    """One blast volley of the devastator at unit a; every roll to wound a 1 (fails)."""
    probe = Probe("40k5", path, dice={**dice, "*": [1] * 60}, active="imperium",
                  options=options)
    w = weapon or probe.unit["dev"].weapons[0]
    probe("area_volley", u="dev", t="a", w=w, shots=shots, inches=19, moving=False)
    return probe


def test_a_hit_lands_on_the_target_and_hits_the_models_under_it(battle: Path) -> None:
    # L387: the scatter dice show HIT: the 3" marker stays centred on unit a (20, 30). Its
    # models' centres stand at 20 +- 0.49, +- 1.48, +- 2.46, ...: the bases of the middle four
    # reach within 1.5" of the centre (the nearest edges at 0 and 0.98), the next ones' at
    # 1.97 do not. The marines 3" behind (grots, y 33: their bases 2.5" away) are not hit.
    probe = volley(battle, {"scatter_roll": ["hit"], "blast_scatter": [6, 4]})
    assert probe.logged("is hit") == [["a", 4]]


def test_a_scattering_blast_hits_the_unit_it_drifts_onto(battle: Path) -> None:
    # L387: an arrow pointing along +x (90) and 2D6 = 6 + 4 = 10, less BS 4: the marker moves
    # 6" to (26, 30). Unit a's end model (centre 24.43, base to 24.92) is 1.08" from it: hit.
    # Unit b's models stand at 25.57, 26.56, 27.54, 28.52 ... (bases from 25.08): the first
    # three bases come within 1.5" (0, 0.06, 1.05), the fourth's edge at 2.03 does not.
    probe = volley(battle, {"scatter_roll": ["arrow"], "blast_scatter": [6, 4],
                            "scatter_direction": [90]})
    assert probe.logged("is hit") == [["a", 1], ["b", 3]]


def test_a_blast_hits_friends_too(battle: Path) -> None:
    # L387: "including the firer's own troops": an arrow along +y (0) and 2D6 = 5 + 2, less
    # BS 4: 3" to (20, 33), onto the marines' middle four (grots, the firer's side); unit a's
    # bases reach y 30.49, 2.5" away: none of them.
    probe = volley(battle, {"scatter_roll": ["arrow"], "blast_scatter": [5, 2],
                            "scatter_direction": [0]})
    assert probe.logged("is hit") == [["grots", 4]]


def test_each_shot_is_placed_on_its_own_then_hits_are_added(battle: Path) -> None:
    # L387: two shots, the first on target (4 on a), the second 6" along +x (1 on a, 3 on b):
    # a takes 5 hits rolled together, b 3.
    probe = volley(battle, {"scatter_roll": ["hit", "arrow"], "blast_scatter": [6, 4, 6, 4],
                            "scatter_direction": [90]}, shots=2)
    assert probe.logged("is hit") == [["a", 5], ["b", 3]]


def test_the_scatter_is_2d6_less_bs_never_below_0() -> None:
    # L387: 2D6 - BS, minimum 0; a barrage scatters the full 2D6 (L393). BS 4: 0" on 2D6 of 4
    # or less (6 of 36 throws), 8" on a 12 (1 of 36).
    _, rt, _ = open_battle("40k5", "rulesets/40k5/battles/duel.yaml")
    marine = Unit("m", "m", "m", {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
                                  "Ld": 8, "Sv": 3, "FrontArmour": None, "SideArmour": None,
                                  "RearArmour": None}, 1, keywords={"INFANTRY"})
    blast = Weapon("frag", {"Range": 48, "Strength": 4, "AP": 6},
                   [rt.bind_rule("Heavy (1)"), rt.bind_rule("Blast (3)")])
    barrage = Weapon("shell", {"Range": 48, "Strength": 4, "AP": 6},
                     [rt.bind_rule("Heavy (1)"), rt.bind_rule("Blast (3)"), rt.bind_rule("Barrage")])
    far = enumerate_exact(lambda c: rt.invoke("blast_scatter", rt.env(c),
                                              {"shooter": marine, "weapon": blast}))
    assert far.probability(0) == F(1, 6) and far.probability(8) == F(1, 36)
    assert far.probability(1) == F(4, 36)                     # 2D6 of 5
    full = enumerate_exact(lambda c: rt.invoke("blast_scatter", rt.env(c),
                                               {"shooter": marine, "weapon": barrage}))
    assert full.probability(2) == F(1, 36) and full.probability(0) == 0
    # The scatter dice: HIT on two faces of six (L53).
    faces = enumerate_exact(lambda c: rt.invoke("scatter_roll", rt.env(c), {}))
    assert faces.probability("hit") == F(1, 3)


def test_twin_linked_blast_rerolls_the_scatter(battle: Path) -> None:
    # L387 (the default reading): an arrow is re-rolled with its 2D6; the second roll, HIT,
    # lands on target: 4 on a. With the other reading (L390) the arrow stands (1 on a, 3 on b)
    # and the failed rolls to wound are re-rolled instead.
    probe = Probe("40k5", battle, dice=[], active="imperium")
    rules = [probe.runtime.bind_rule(r) for r in ("Heavy (1)", "Blast (3)", "Twin-linked")]
    twin = Weapon("twin", {"Range": 48, "Strength": 4, "AP": 6}, rules)
    probe = volley(battle, {"scatter_roll": ["arrow", "hit"], "blast_scatter": [6, 4, 3, 3],
                            "scatter_direction": [90]}, weapon=twin)
    assert probe.logged("is hit") == [["a", 4]]
    probe = volley(battle, {"scatter_roll": ["arrow"], "blast_scatter": [6, 4],
                            "scatter_direction": [90]}, weapon=twin,
                   options={"twin_linked_blast": "wound"})
    assert probe.logged("is hit") == [["a", 1], ["b", 3]]


def test_twin_linked_blast_rerolls_failed_wounds_as_an_option() -> None:
    # L390 read as "re-roll to wound": S4 against T4 wounds on 4+ (1/2), a failure re-rolled:
    # 3/4. The default reading (L387) leaves the roll to wound alone: 1/2.
    _, rt, _ = open_battle("40k5", "rulesets/40k5/battles/duel.yaml")
    twin = Weapon("twin", {"Range": 48, "Strength": 4, "AP": 6},
                  [rt.bind_rule("Heavy (1)"), rt.bind_rule("Blast (3)"), rt.bind_rule("Twin-linked")])
    boy = Unit("b", "b", "b", {"WS": 4, "BS": 2, "S": 3, "T": 4, "W": 1, "I": 2, "A": 2,
                               "Ld": 7, "Sv": 6, "FrontArmour": None, "SideArmour": None,
                               "RearArmour": None}, 1, keywords={"INFANTRY"})

    def wounds(option: str) -> Fraction:
        args = {"attacker": boy, "target": boy, "strength": 4, "weapon": twin}
        d = enumerate_exact(lambda c: bool(rt.invoke(
            "to_wound", rt.env(c, {"twin_linked_blast": option}), dict(args)).passed))
        return d.probability(True)

    assert wounds("wound") == F(3, 4) and wounds("scatter") == F(1, 2)


def test_a_blast_needs_no_roll_to_hit() -> None:
    # L387: "instead of rolling to hit": the to-hit test passes without dice.
    _, rt, _ = open_battle("40k5", "rulesets/40k5/battles/duel.yaml")
    blast = Weapon("frag", {"Range": 48, "Strength": 4, "AP": 6},
                   [rt.bind_rule("Heavy (1)"), rt.bind_rule("Blast (3)")])
    flamer = Weapon("flamer", {"Range": 8, "Strength": 4, "AP": 5},
                    [rt.bind_rule("Assault (1)"), rt.bind_rule("Template")])
    marine = Unit("m", "m", "m", {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
                                  "Ld": 8, "Sv": 3, "FrontArmour": None, "SideArmour": None,
                                  "RearArmour": None}, 1, keywords={"INFANTRY"})
    for w in (blast, flamer):
        result = rt.invoke("to_hit_shooting", rt.env(ScriptedChance([])),
                           {"shooter": marine, "target": marine, "weapon": w})
        assert result.passed


def test_a_template_hits_the_enemies_under_it_not_friends(tmp_path: Path) -> None:
    # L386: a flamer 4" from ten Boyz in one rank, side on: the 8" teardrop (1" to 3" wide)
    # runs along the line of fire from y 26 to y 34, across the unit's centre (y 30); at the
    # rank's far edge (y 30.49) it is 1 + 2 x 4.49 / 8 = 2.12" wide, 1.06" either side of
    # the line: the middle four models (their bases' near edges 0 and 0.98" from the line),
    # not the next (1.97"), and never a model of the firer's own side.
    path = battle_file(tmp_path, """
edition: 40k5
battlefield: {width: 72, depth: 48}
units:
  - {id: flamers, side: imperium, profile: imperium/flamer_marine, models: 1, position: {x: 20, y: 25, facing: 0}}
  - {id: a, side: orks, profile: orks/ork_boy, models: 10, files: 10, position: {x: 20, y: 30, facing: 180}}
""")
    probe = Probe("40k5", path, dice={"*": [1] * 20}, active="imperium")
    w = probe.unit["flamers"].weapons[0]
    probe("area_volley", u="flamers", t="a", w=w, shots=1, inches=4, moving=False)
    assert probe.logged("is hit") == [["a", 4]]


def test_blast_hits_roll_to_wound_and_save(battle: Path) -> None:
    # L387: the 4 hits on a roll to wound (S4 against T4, 4+) and save (the Boyz' 6+ against
    # AP 6 is denied, L311): wounds of 4, 5 and 6 kill 3, a 1 does not.
    probe = Probe("40k5", battle, dice={"scatter_roll": ["hit"], "blast_scatter": [6, 4],
                                        "to_wound": [4, 5, 6, 1]}, active="imperium")
    probe("area_volley", u="dev", t="a", w=probe.unit["dev"].weapons[0], shots=1, inches=19,
          moving=False)
    assert probe.unit["a"].models == 7
