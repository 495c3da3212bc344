"""The 40k5 ruleset's vehicles (seed 001, L775-L830): the facing hit, armour penetration with
melta, ordnance, lance and rending, glancing and penetrating hits as the ``vehicle_shot``
sequence's tallies, the damage roll (TB07, TB08) and what the battle does with its results.

Exact odds go through ``plan_attacks`` and ``attack_odds`` (what ``rules-odds`` prints) and
``enumerate_exact``; battle actions through a probe of ``battles/vehicles.yaml``. ``Lnnn`` is
a line of ``../shared/seeds/001_ae65b95f9afc45ec.txt``. The probabilities are worked out by
hand in the comments: a BS 4 firer hits on 3+, 2/3 (L275).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import enumerate_exact
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle
from rules_run.engine.odds import attack_odds, plan_attacks
from rules_run.runtime.entities import Unit, Weapon

ROOT = Path(__file__).resolve().parents[2]
VEHICLES = "rulesets/40k5/battles/vehicles.yaml"
F = Fraction
TALLIES = ["glancing", "penetrating", "crew_shaken", "crew_stunned", "weapon_destroyed",
           "immobilised", "wrecked", "explodes"]


@pytest.fixture(scope="module")
def rt():
    return open_battle("40k5", VEHICLES)[1]


def gun(rt, strength: int, ap: int | None = 4, rules: tuple[str, ...] = ("Assault (1)",),
        range_: int = 24) -> Weapon:
    return Weapon("gun", {"Range": range_, "Strength": strength, "AP": ap},
                  [rt.bind_rule(r) for r in rules])


def firer(rt, weapon: Weapon, models: int = 1) -> Unit:
    """Space Marines (BS 4, L129) with one weapon."""
    values = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3,
              "FrontArmour": None, "SideArmour": None, "RearArmour": None}
    return Unit("firer", "firer", "firer", values, models, keywords={"INFANTRY"},
                weapons=[weapon])


def vehicle(front: int = 14, side: int = 12, rear: int = 10, keywords: tuple[str, ...] = ()) -> Unit:
    """A Leman Russ's armour (L725) unless told otherwise."""
    values = {"WS": None, "BS": 3, "S": None, "T": None, "W": None, "I": None, "A": None,
              "Ld": None, "Sv": None, "FrontArmour": front, "SideArmour": side, "RearArmour": rear}
    return Unit("tank", "tank", "tank", values, 1, keywords={"VEHICLE", "TANK", *keywords})


def tallies(rt, shooter: Unit, target: Unit, *, facing: str = "front", inches: int = 12,
            attacks: int = 1, obscured: int = 0) -> dict[str, dict[int, Fraction]]:
    """Each tally's exact distribution over ``attacks`` shots (rules-odds --mode vehicle)."""
    (plan,) = plan_attacks(rt, shooter, target, mode="vehicle", attacks=attacks,
                           settings={"facing": facing, "inches": inches, "obscured": obscured})
    odds = attack_odds(rt, plan, target)
    assert odds.tallies is not None
    out = {}
    for i, name in enumerate(TALLIES):
        d = odds.tallies.map(lambda t, i=i: t[i])
        out[name] = {k: d.probability(k) for k in d.support()}
    return out


def one_shot(rt, shooter: Unit, target: Unit, **kw: Any) -> tuple[Fraction, Fraction]:
    """The chances that one shot glances and that it penetrates."""
    t = tallies(rt, shooter, target, **kw)
    return t["glancing"].get(1, F(0)), t["penetrating"].get(1, F(0))


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
            if p ** k * (1 - p) ** (n - k) != 0}


# ============================================================== armour penetration


def test_d6_plus_strength_equal_glances_higher_penetrates(rt) -> None:
    # L785-L789: S9 against Armour 14: a 5 glances (14), a 6 penetrates (15); times 2/3 to hit.
    assert one_shot(rt, firer(rt, gun(rt, 9)), vehicle()) == (F(2, 3) * F(1, 6), F(2, 3) * F(1, 6))
    # S4 against 14 can do nothing (at most 10).
    assert one_shot(rt, firer(rt, gun(rt, 4)), vehicle()) == (F(0), F(0))


@pytest.mark.parametrize("facing,glance,pen", [
    # L781: S6 against front 14 (nothing), side 12 (a 6 glances), rear 10 (a 4 glances, 5+ penetrate).
    ("front", F(0), F(0)),
    ("side", F(1, 6), F(0)),
    ("rear", F(1, 6), F(2, 6)),
])
def test_the_facing_hit_gives_the_armour_value(rt, facing, glance, pen) -> None:
    assert one_shot(rt, firer(rt, gun(rt, 6)), vehicle(), facing=facing) == (F(2, 3) * glance, F(2, 3) * pen)


def test_melta_rolls_2d6_at_half_range_or_less(rt) -> None:
    # L394: a meltagun (12", S8) at 6": 2D6 + 8 against 14: a 6 glances (5/36), 7+ penetrate
    # (21/36). At 8" (beyond half range) one D6: a 6 glances (1/6), nothing penetrates.
    melta = firer(rt, gun(rt, 8, 1, ("Assault (1)", "Melta"), range_=12))
    assert one_shot(rt, melta, vehicle(), inches=6) == (F(2, 3) * F(5, 36), F(2, 3) * F(21, 36))
    assert one_shot(rt, melta, vehicle(), inches=8) == (F(2, 3) * F(1, 6), F(0))


def test_ordnance_takes_the_higher_of_two_dice(rt) -> None:
    # L791: S8 against side 12: the higher of 2D6 is 4 (glance) with 16/36 - 9/36 = 7/36, 5 or
    # 6 (penetrate) with 1 - 16/36 = 20/36.
    cannon = firer(rt, gun(rt, 8, 3, ("Ordnance (1)",), range_=72))
    assert one_shot(rt, cannon, vehicle(), facing="side") == (F(2, 3) * F(7, 36), F(2, 3) * F(20, 36))


def test_lance_treats_armour_above_12_as_12(rt) -> None:
    # L395: S9 against front 14 counts 12: a 3 glances (1/6), 4+ penetrate (1/2); against rear
    # 10 (not above 12) as usual: a 1 glances, 2+ penetrate.
    lance = firer(rt, gun(rt, 9, 2, ("Assault (1)", "Lance")))
    assert one_shot(rt, lance, vehicle()) == (F(2, 3) * F(1, 6), F(2, 3) * F(1, 2))
    assert one_shot(rt, lance, vehicle(), facing="rear") == (F(2, 3) * F(1, 6), F(2, 3) * F(5, 6))


def test_rending_adds_a_d3_to_a_6(rt) -> None:
    # L391: S4 against rear 10: without rending a 6 glances (10); with it a 6 adds D3 (11-13),
    # always penetrating: 1/6. Against side 12: 6 + 4 + D3 = 11, 12, 13: a glance and a
    # penetration with 1/18 each; 1-5 do nothing.
    plain = firer(rt, gun(rt, 4))
    rending = firer(rt, gun(rt, 4, rules=("Assault (1)", "Rending")))
    assert one_shot(rt, plain, vehicle(), facing="rear") == (F(2, 3) * F(1, 6), F(0))
    assert one_shot(rt, rending, vehicle(), facing="rear") == (F(0), F(2, 3) * F(1, 6))
    assert one_shot(rt, rending, vehicle(), facing="side") == (F(2, 3) * F(1, 18), F(2, 3) * F(1, 18))


def test_a_volley_tallies_binomial_glancing_and_penetrating_hits(rt) -> None:
    # Five S9 shots against front 14: each glances with 1/9 and penetrates with 1/9.
    t = tallies(rt, firer(rt, gun(rt, 9), models=5), vehicle(), attacks=5)
    assert t["glancing"] == binomial(5, F(1, 9))
    assert t["penetrating"] == binomial(5, F(1, 9))


# ============================================================== the damage roll


def damage_results(rt, target: Unit, glancing: bool, ap: int | None) -> dict[str, Fraction]:
    marks = ["crew_shaken", "crew_stunned", "weapon_destroyed", "immobilised", "wrecked", "explodes"]

    def roll(chance):
        r = rt.invoke("vehicle_damage", rt.env(chance), {"target": target, "glancing": glancing, "ap": ap})
        (mark,) = [m for m in marks if m in r.marks]
        return mark
    d = enumerate_exact(roll)
    return {m: d.probability(m) for m in d.support()}


@pytest.mark.parametrize("label,glancing,ap,keywords,expected", [
    # TB08 (L809-L815) on an unmodified D6: a sixth each.
    ("penetrating, AP2", False, 2, (), {"crew_shaken": F(1, 6), "crew_stunned": F(1, 6),
     "weapon_destroyed": F(1, 6), "immobilised": F(1, 6), "wrecked": F(1, 6), "explodes": F(1, 6)}),
    # TB07 (L801-L805): glancing -2 and AP "-" -1: D6 - 3, 1 or less on 1-4.
    ("glancing, AP -", True, None, (), {"crew_shaken": F(4, 6), "crew_stunned": F(1, 6),
     "weapon_destroyed": F(1, 6)}),
    # AP1 +1: 2 to 7, 6 or more on a 5 or 6.
    ("penetrating, AP1", False, 1, (), {"crew_stunned": F(1, 6), "weapon_destroyed": F(1, 6),
     "immobilised": F(1, 6), "wrecked": F(1, 6), "explodes": F(2, 6)}),
    # AP1 and open-topped: +2, 3 to 8.
    ("penetrating, AP1, open-topped", False, 1, ("OPEN-TOPPED",), {"weapon_destroyed": F(1, 6),
     "immobilised": F(1, 6), "wrecked": F(1, 6), "explodes": F(3, 6)}),
    # Glancing with AP1: -1, 0 to 5.
    ("glancing, AP1", True, 1, (), {"crew_shaken": F(2, 6), "crew_stunned": F(1, 6),
     "weapon_destroyed": F(1, 6), "immobilised": F(1, 6), "wrecked": F(1, 6)}),
])
def test_the_damage_table_with_its_modifiers(rt, label, glancing, ap, keywords, expected) -> None:
    assert damage_results(rt, vehicle(keywords=keywords), glancing, ap) == expected


def test_one_damage_roll_per_glancing_or_penetrating_hit(rt) -> None:
    # L795: a meltagun at 6" (AP1) against front 14: glance 2/3 * 5/36 = 5/54, penetrate
    # 2/3 * 21/36 = 7/18. Explodes! needs a 6+ on D6 + 1 after a penetration (1/3), never
    # after a glance (D6 - 1): 7/54. Shaken only after a glance (1 or less on D6 - 1: 2/6):
    # 5/162.
    melta = firer(rt, gun(rt, 8, 1, ("Assault (1)", "Melta"), range_=12))
    t = tallies(rt, melta, vehicle(), inches=6)
    assert t["explodes"][1] == F(7, 18) * F(1, 3) == F(7, 54)
    assert t["crew_shaken"][1] == F(5, 54) * F(2, 6)
    results = sum(t[name].get(1, F(0)) for name in TALLIES[2:])
    assert results == t["glancing"][1] + t["penetrating"][1]


# ============================================================== rules-odds


def test_rules_odds_gives_the_volleys_glancing_and_penetrating_hits() -> None:
    # Five meltaguns at 8" (one D6, L394) against the Leman Russ's front 14: each shot
    # glances on a hit and a 6, 1/9; none penetrates. At 6" (2D6) a shot penetrates with
    # 7/18: none of five with (11/18)^5.
    def odds(inches: int) -> dict[str, Any]:
        out = subprocess.run(
            [sys.executable, "-m", "rules_run.cli.odds", "-e", "40k5", VEHICLES, "--attacker",
             "melta", "--target", "russ", "--mode", "vehicle", "--set", f"inches={inches}", "--json"],
            cwd=ROOT, capture_output=True, text=True, check=False)
        assert out.returncode == 0, out.stderr
        steps = json.loads(out.stdout)["steps"]
        return {s["name"]: {r["k"]: F(r["exactly_exact"]) for r in s["table"]} for s in steps}
    far = odds(8)
    assert far["glancing"] == binomial(5, F(1, 9))
    assert far["penetrating"] == {0: F(1)}
    near = odds(6)
    assert near["penetrating"] == binomial(5, F(7, 18))
    assert near["penetrating"][0] == F(11, 18) ** 5


# ============================================================== the battle


def test_the_facing_is_the_arc_the_firer_stands_in(tmp_path: Path) -> None:
    # L781: the marines 14" in front of the Russ hit its front; behind it, its rear; beside it,
    # its side armour (README.md: the arc of the firing unit's centre).
    for x, y, facing in [(24, 30, "front"), (24, -8, "rear"), (44, 8, "side")]:
        path = battle_file(tmp_path, f"""
edition: 40k5
battlefield: {{width: 72, depth: 72}}
units:
  - {{id: russ, side: imperium, profile: imperium/leman_russ, models: 1, position: {{x: 24, y: 20, facing: 0}}}}
  - {{id: melta, side: renegades, profile: imperium/melta_marine, models: 5, position: {{x: {x}, y: {y + 12}, facing: 180}}}}
""")
        assert Probe("40k5", path)("facing_hit", shooter="melta", target="russ") == facing


def test_weapon_destroyed_then_immobilised_then_wrecked() -> None:
    # L821-L822: the Russ has one weapon (its lascannon): a Weapon Destroyed result takes it;
    # the next one, with no weapon left, immobilises; a further Damaged result wrecks it.
    probe = Probe("40k5", VEHICLES, dice=[], active="renegades")
    russ = probe.unit["russ"]
    probe("damaged", v="russ", weapon_results=1, immobilised_results=0)
    assert probe.counter("weapons_lost", russ) == 1 and "immobilised" not in russ.statuses
    assert probe("may_fire", u="russ") is False
    probe("damaged", v="russ", weapon_results=1, immobilised_results=0)
    assert "immobilised" in russ.statuses and not probe.logged("is wrecked")
    probe("damaged", v="russ", weapon_results=0, immobilised_results=1)
    assert probe.logged("is wrecked") and not probe.state.alive(russ)
    # Two Immobilised results at once: one immobilises, the other counts as Weapon Destroyed.
    probe = Probe("40k5", VEHICLES, dice=[], active="renegades")
    probe("damaged", v="dread", weapon_results=0, immobilised_results=2)
    dread = probe.unit["dread"]
    assert "immobilised" in dread.statuses and probe.counter("weapons_lost", dread) == 1


def test_e16_shaken_lasts_until_the_end_of_the_vehicles_next_turn() -> None:
    # E16, L819-L820: shaken in the enemy's turn, it recovers at the end of its own next turn;
    # shaken in its own turn, at the end of the one after. Repeated results do not stack.
    probe = Probe("40k5", VEHICLES, dice=[], active="renegades")
    russ, state, env = probe.unit["russ"], probe.state, probe.env

    def end_turn_of(side: str) -> None:
        state.active_side = side
        state.turns += 1
        state.expire(env, "turn")

    state.turns = 1                                   # the renegades' turn
    BUILTINS["apply"](state, env, None, "shaken", russ)
    BUILTINS["apply"](state, env, None, "shaken", russ)   # a second result: one status
    state.expire(env, "turn")                         # the end of the renegades' turn
    assert "shaken" in russ.statuses
    end_turn_of("imperium")                           # its own next turn ends: it recovers
    assert "shaken" not in russ.statuses
    BUILTINS["apply"](state, env, None, "stunned", russ)  # hit in its own turn
    state.expire(env, "turn")
    end_turn_of("renegades")
    assert "stunned" in russ.statuses
    end_turn_of("imperium")
    assert "stunned" not in russ.statuses


def test_the_vehicles_battle_plays_to_the_end() -> None:
    # L795-L830 in play: in some seed a vehicle is shaken or stunned, and one is destroyed.
    _, runtime, battle = open_battle("40k5", VEHICLES)
    messages: set[str] = set()
    for seed in range(1, 21):
        result = run_battle(runtime, battle, seed=seed)
        assert result.winner is not None
        messages |= {e.message for e in result.events if e.kind == "log"}
    assert {"its crew is shaken", "loses weapons"} <= messages
    assert messages & {"is wrecked", "explodes"}


def test_the_vehicles_battle_runs_50_times() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rules_run.cli.run", "-e", "40k5", VEHICLES, "--runs", "50",
         "--seed", "1", "--json"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["runs"] == 50


# ============================================================== obscured (E17, E18)


@pytest.mark.parametrize("cover,saved", [
    # E17, L840: behind a hedge 5+, a building 4+, a fortification 3+ (the cover chart,
    # L321-L325); E18: obscured in the open by a rule, 4+.
    ("hedges", F(1, 3)), ("buildings", F(1, 2)), ("fortifications", F(2, 3)), (None, F(1, 2)),
])
def test_e17_e18_an_obscured_vehicle_saves_against_each_hit(rt, cover, saved) -> None:
    # L840: a passed save discards the hit with no damage roll. A lascannon-like S9 AP2 shot
    # at side armour 12: hit 2/3, a 3 glances (1/6), 4+ penetrate (1/2): the tallies count
    # the glancing and penetrating hits as rolled; the damage results only those the save
    # did not discard, 2/3 x 2/3 times the chance it fails.
    value = 4 if cover is None else {"hedges": 5, "buildings": 4, "fortifications": 3}[cover]
    shot = firer(rt, gun(rt, 9, 2))
    t = tallies(rt, shot, vehicle(), facing="side", inches=12, obscured=value)
    kept = 1 - saved
    assert t["glancing"][1] == F(2, 3) * F(1, 6)
    assert t["penetrating"][1] == F(2, 3) * F(1, 2)
    damage_rolls = sum(t[name].get(1, F(0)) for name in TALLIES[2:])
    assert damage_rolls == F(2, 3) * F(2, 3) * kept


def test_the_obscured_cover_comes_from_what_stands_between(tmp_path: Path) -> None:
    # L834-L837: the Russ behind a hedge (a 5+ piece across the lines of sight from the
    # marines) is obscured 5+; without it, 0; with smoke (status obscured, L842) 4+.
    for hedge, expected in ((True, 5), (False, 0)):
        terrain = ("  terrain:\n    - {id: hedge, kind: hedge, at: {x: 24, y: 15}, size: {w: 12, h: 1},"
                   " effects: [\"Cover (hedges)\"]}\n") if hedge else ""
        path = battle_file(tmp_path, f"""
edition: 40k5
battlefield:
  width: 72
  depth: 72
{terrain}units:
  - {{id: russ, side: imperium, profile: imperium/leman_russ, models: 1, position: {{x: 24, y: 10, facing: 0}}}}
  - {{id: melta, side: renegades, profile: imperium/melta_marine, models: 5, position: {{x: 24, y: 24, facing: 180}}}}
""")
        probe = Probe("40k5", path, dice=[])
        assert probe("obscured_cover", shooter="melta", v="russ") == expected
    BUILTINS["apply"](probe.state, probe.env, None, "obscured", probe.unit["russ"])
    assert probe("obscured_cover", shooter="melta", v="russ") == 4
