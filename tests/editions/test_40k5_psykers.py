"""The 40k5 ruleset's psykers (seed 001, L643-L659): the psychic test, Perils of the Warp, one
power a player turn and psychic shooting attacks.

Exact chances through ``enumerate_exact`` over the ruleset's own tests, a Monte Carlo check of
the psychic test within 4 sigma with a fixed seed, and the battle's actions through a probe
with scripted dice (by roll name). ``Lnnn`` is a line of
``../shared/seeds/001_ae65b95f9afc45ec.txt``; the probabilities are worked out in the comments.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import RandomChance, enumerate_exact
from rules_run.runtime.entities import Unit

F = Fraction


@pytest.fixture(scope="module")
def rt():
    return open_battle("40k5", "rulesets/40k5/battles/duel.yaml")[1]


def psyker(rt, *, rules: tuple[str, ...] = (), **profile: Any) -> Unit:
    """A Librarian's profile (unit data, not in seed) unless ``profile`` says otherwise."""
    values = {"WS": 5, "BS": 5, "S": 4, "T": 4, "W": 2, "I": 4, "A": 2, "Ld": 10, "Sv": 3,
              "FrontArmour": None, "SideArmour": None, "RearArmour": None}
    values.update(profile)
    u = Unit("p", "p", "p", values, 1, keywords={"INFANTRY"},
             rules=[rt.bind_rule(r) for r in ("Psyker", *rules)])
    rt.apply_grants(u)
    return u


def psychic(rt, u: Unit):
    """The exact joint distribution of the psychic test's (passed, perils)."""
    return enumerate_exact(lambda c: (lambda r: (bool(r.passed), "perils" in r.marks))(
        rt.invoke("psychic_test", rt.env(c), {"psyker": u})))


# ============================================================== the psychic test (exact)


def test_psychic_test_on_leadership_9(rt) -> None:
    # L647: 2D6 of Ld 9 or less: 36 - (3 + 2 + 1) = 30 of 36. L651: Perils on a double 1 or a
    # double 6, 2 of 36; a double 1 passes (1/36), a double 6 fails (1/36).
    d = psychic(rt, psyker(rt, Ld=9))
    assert d.probability((True, False)) == F(29, 36)
    assert d.probability((True, True)) == F(1, 36)
    assert d.probability((False, True)) == F(1, 36)
    assert d.probability((False, False)) == F(5, 36)
    assert sum(d.probability((True, p)) for p in (True, False)) == F(30, 36)
    assert sum(d.probability((x, True)) for x in (True, False)) == F(2, 36)


def test_psychic_test_on_leadership_10_and_7(rt) -> None:
    # Ld 10: only a double 6 (12) fails, 33 of 36. Ld 7: 21 of 36 (2..7: 1+2+3+4+5+6).
    # Perils stays 2/36 whatever the Leadership (L651).
    for ld, passing in ((10, F(33, 36)), (7, F(21, 36))):
        d = psychic(rt, psyker(rt, Ld=ld))
        assert d.probability((True, False)) + d.probability((True, True)) == passing
        assert d.probability((True, True)) + d.probability((False, True)) == F(2, 36)


def test_a_double_1_always_uses_the_power(rt) -> None:
    # L651: the psyker uses the power on a double 1 even with Leadership 1: 1 of 36, perilous.
    d = psychic(rt, psyker(rt, Ld=1))
    assert d.probability((True, True)) == F(1, 36)
    assert d.probability((True, False)) == 0


def test_perils_allows_only_a_twice_passed_invulnerable_save(rt) -> None:
    # L651: no armour or cover save (a 3+ armour counts for nothing), an invulnerable save
    # whose pass is re-rolled: a 4+ invulnerable stops the wound (1/2)^2 = 1/4 of the time, a
    # 5+ (1/3)^2 = 1/9; without one it always wounds.
    def saved(u: Unit) -> Fraction:
        return enumerate_exact(lambda c: bool(rt.invoke("perils_save", rt.env(c), {"psyker": u}).passed)).probability(True)
    assert saved(psyker(rt)) == 0
    assert saved(psyker(rt, rules=("Invulnerable Save (4+)",))) == F(1, 4)
    assert saved(psyker(rt, rules=("Invulnerable Save (5+)",))) == F(1, 9)


def test_perils_wound_and_the_power_combined(rt) -> None:
    # A Ld 10 psyker with a 4+ invulnerable save: the test passes and Perils wounds him (a
    # double 1, then 3/4 unsaved) 1/36 x 3/4 = 1/48; fails and is wounded (a double 6) also
    # 1/48; no wound 1 - 2/36 x 3/4 = 23/24.
    u = psyker(rt, rules=("Invulnerable Save (4+)",))

    def outcome(c) -> tuple[bool, bool]:
        env = rt.env(c)
        r = rt.invoke("psychic_test", env, {"psyker": u})
        wounded = "perils" in r.marks and not rt.invoke("perils_save", env, {"psyker": u}).passed
        return bool(r.passed), wounded
    d = enumerate_exact(outcome)
    assert d.probability((True, True)) == F(1, 48)
    assert d.probability((False, True)) == F(1, 48)
    assert d.probability((True, False)) + d.probability((False, False)) == F(23, 24)


def test_psychic_test_sampled_agrees_within_4_sigma(rt) -> None:
    # The same test rolled with seeded dice (n = 3000): pass and Perils within 4 sigma of the
    # exact 30/36 and 2/36 (Ld 9).
    u, n = psyker(rt, Ld=9), 3000
    chance = RandomChance(5)
    env = rt.env(chance)
    results = [rt.invoke("psychic_test", env, {"psyker": u}) for _ in range(n)]
    for p, seen in ((F(30, 36), sum(bool(r.passed) for r in results)),
                    (F(2, 36), sum("perils" in r.marks for r in results))):
        sigma = math.sqrt(float(p * (1 - p)) / n)
        assert abs(seen / n - float(p)) <= 4 * sigma


# ============================================================== in the battle


FIELD = """
edition: 40k5
battlefield: {{width: 72, depth: 48}}
units:
  - {{id: varro, side: imperium, profile: imperium/librarian, models: 1, rules: [{rules}], position: {{x: 36, y: 24, facing: 0}}}}
  - {{id: boyz, side: orks, profile: orks/ork_boy, models: 10, position: {{x: 36, y: 32, facing: 180}}}}
"""


def probe(tmp_path: Path, dice: dict[str, list[int]], rules: str = "") -> Probe:
    return Probe("40k5", battle_file(tmp_path, FIELD.format(rules=rules)), dice=dice,
                 active="imperium")


SMITE_HITS = {"to_hit_shooting": [2, 2, 2, 2], "to_wound": [4, 4, 1, 1], "save": [],
              "feel_no_pain": []}


def test_a_passed_test_fires_the_power(tmp_path: Path) -> None:
    # L647, L655: a 3 + 4 against Ld 10 passes; Smite's four shots (BS 5: 2+) hit, two wound
    # (S4 against T4: 4+) and the AP2 beats the Boyz' 6+ save: two Boyz die. The power is
    # spent for the turn: the Librarian's next shots are his bolt pistol's (one shot).
    p = probe(tmp_path, {"psychic_test": [3, 4], **SMITE_HITS})
    p("shoot", u="varro", t="boyz")
    assert p.logged("uses a psychic power") and not p.logged("suffers Perils of the Warp")
    assert p.unit["boyz"].models == 8
    assert "used_psychic_power" in p.unit["varro"].statuses
    pairs = p("shooting_attacks", attacker="varro", target="boyz", inches=7)
    assert [(w.name, n) for w, n in pairs] == [("bolt_pistol", 1)]


def test_a_failed_test_fires_nothing(tmp_path: Path) -> None:
    # 6 + 5 = 11 against Ld 10: the test fails and the psyker fires nothing that phase
    # (README.md), no shot rolled.
    p = probe(tmp_path, {"psychic_test": [6, 5]})
    p("shoot", u="varro", t="boyz")
    assert p.logged("fails its psychic test") and not p.logged("fires at")
    assert p.unit["boyz"].models == 10


def test_a_double_1_uses_the_power_and_wounds_the_psyker(tmp_path: Path) -> None:
    # L651: a double 1 passes and is Perils of the Warp: the Librarian (no invulnerable save)
    # loses one of his two Wounds, and Smite still fires.
    p = probe(tmp_path, {"psychic_test": [1, 1], **SMITE_HITS})
    p("shoot", u="varro", t="boyz")
    assert p.logged("suffers Perils of the Warp") and p.logged("uses a psychic power")
    assert p.unit["varro"].damage == 1 and p.unit["varro"].models == 1
    assert p.unit["boyz"].models == 8


def test_a_double_6_fails_and_a_passed_invulnerable_save_is_rerolled(tmp_path: Path) -> None:
    # L651: a double 6 fails and is Perils; a 4+ invulnerable save passes on a 5, is re-rolled
    # and fails on a 2: the wound stands. With a 5 then a 4 it is saved.
    p = probe(tmp_path, {"psychic_test": [6, 6], "perils_save": [5, 2]}, '"Invulnerable Save (4+)"')
    p("shoot", u="varro", t="boyz")
    assert p.logged("suffers Perils of the Warp") and p.logged("fails its psychic test")
    assert p.unit["varro"].damage == 1
    q = probe(tmp_path, {"psychic_test": [6, 6], "perils_save": [5, 4]}, '"Invulnerable Save (4+)"')
    q("shoot", u="varro", t="boyz")
    assert q.unit["varro"].damage == 0


# ============================================================== force weapons (L659)


DUEL_OF_PSYKERS = """
edition: 40k5
battlefield: {width: 72, depth: 48}
units:
  - {id: varro, side: imperium, profile: imperium/librarian, models: 1, position: {x: 36, y: 24, facing: 0}}
  - {id: foe, side: orks, profile: imperium/librarian, models: 2, position: {x: 36, y: 26, facing: 180}}
"""


@pytest.mark.parametrize("test_dice, slain", [([3, 4], 1), ([6, 5], 0)])
def test_a_force_weapon_slays_the_model_it_wounded(tmp_path: Path, test_dice: list[int],
                                                   slain: int) -> None:
    # L659: one blow (WS5 against WS5: 4+, a 5) wounds (S4 against T4: 4+, a 6), no armour
    # save (a power weapon, L551): a two-Wound model is left with one. The psychic test
    # (3 + 4 against Ld 10) passes: the model dies outright. A failed test (6 + 5) leaves it.
    dice = {"to_hit_melee": [5], "to_wound": [6], "save": [], "feel_no_pain": [],
            "psychic_test": test_dice}
    p = Probe("40k5", battle_file(tmp_path, DUEL_OF_PSYKERS), dice=dice, active="imperium")
    p("strike", attacker="varro", foe="foe", blows=1)
    assert p.unit["foe"].models == 2 - slain
    assert bool(p.logged("slays with its force weapon")) is bool(slain)
    assert "used_psychic_power" in p.unit["varro"].statuses


def test_no_force_weapon_test_when_the_wounded_model_fell(tmp_path: Path) -> None:
    # L659: the power needs a model that took an unsaved wound and still stands: against
    # one-Wound Boyz the wounded Boy is dead already, so no test is taken (none scripted).
    text = DUEL_OF_PSYKERS.replace("imperium/librarian, models: 2", "orks/ork_boy, models: 10")
    p = Probe("40k5", battle_file(tmp_path, text), dice={"to_hit_melee": [5], "to_wound": [6],
                                                          "save": [], "feel_no_pain": []},
              active="imperium")
    p("strike", attacker="varro", foe="foe", blows=1)
    assert p.unit["foe"].models == 9 and "used_psychic_power" not in p.unit["varro"].statuses
