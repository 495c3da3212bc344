"""The WFB-X rulebook's worked examples, reproduced through the wfb8 ruleset's declarations.

Each test names its example (the digest's WE number, ``../shared/digests/wfb8-wfbx-seed000.md``
§11.1) and the seed line (``000_c4300f58fce5f1da.txt``). The rules run as a battle runs them:
exact odds with ``enumerate_exact``, ``runtime.invoke`` of the ruleset's tests and actions
with scripted dice, or a battle state built from a small battle file. Examples not covered
are listed in ``rulesets/wfb8/README.md``.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from helpers.wfb8_world import World, unit

from rules_run.chance import RandomChance, ScriptedChance, enumerate_exact
from rules_run import open_battle
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.records import fields

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "rulesets" / "wfb8" / "battles" / "duel.yaml")


@functools.cache
def runtime():
    return open_battle("wfb8", DUEL)[1]


def call(name: str, dice: Any = None, **args: Any) -> Any:
    """Run a declaration of the ruleset outside a battle, with scripted dice."""
    rt = runtime()
    chance = ScriptedChance(dice) if dice is not None else RandomChance(0)
    return rt.invoke(name, rt.env(chance), args)


def exact(name: str, **args: Any):
    """The exact distribution of a roll's (or test's, or action's) value."""
    rt = runtime()

    def run(chance):
        out = rt.invoke(name, rt.env(chance), dict(args))
        return getattr(out, "value", out) if not isinstance(out, (int, list, str, bool)) else out
    return enumerate_exact(run)


# ============================================================== dice and arithmetic


def test_we1_a_d3_is_a_d6_halved_rounding_up() -> None:
    # WE1, L3: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3: each value two faces of six (a Multiple Wounds
    # (D3) roll of the ruleset, L1227).
    dist = exact("multiple_wounds_d3")
    assert {v: dist.probability(v) for v in (1, 2, 3)} == {v: Fraction(2, 6) for v in (1, 2, 3)}


def test_we2_halving_7_rounds_up_to_4(tmp_path: Path) -> None:
    # WE2, L9 with L176: a unit at 25% or less rallies on half its Leadership, rounded up:
    # Ld 7 -> 4. A 4 rallies, a 5 does not (rounding down would need a 3).
    world = World(tmp_path, [unit("men", "empire", 36, 10, models=20, command=[]),
                             unit("orcs", "orcs", 36, 30, 180, profile="orcs/orc_boy")])
    men = world.unit("men")
    men.models = 5
    world.state.units[0].statuses["fleeing"] = None
    world.call("rally", {"rallying_test": [2, 2]}, u="men")
    assert "fleeing" not in men.statuses
    men.statuses["fleeing"] = None
    world.call("rally", {"rallying_test": [2, 3], "flee_distance": [1, 1]}, u="men")
    assert "fleeing" in men.statuses
    assert [t.result for t in world.tests("rallying_test")] == ["pass", "fail"]


def test_we3_ten_percent_of_51_models_is_6() -> None:
    # WE3, L9: every division rounds up; the ruleset's percentages (Panic's 25%, L512) use it.
    assert call("percent_of", n=51, percent=10) == 6
    assert call("percent_of", n=51, percent=25) == 13


def test_we4_2d6_runs_from_2_to_12() -> None:
    # WE4, L11: 2D6 adds two dice, 2-12 (the flee roll, L466). (D6x5 is used by no rule.)
    dist = exact("flee_distance", u=None)
    assert min(dist.support()) == 2 and max(dist.support()) == 12
    assert dist.probability(7) == Fraction(6, 36)


def test_we5_two_re_roll_sources_re_roll_a_die_once(tmp_path: Path) -> None:
    # WE5, L13: a Battle Standard Bearer nearby (L799) and a standard that re-rolls failed
    # Break tests (L1789): the failed test is re-rolled once, and the second result stands.
    world = World(tmp_path, [
        unit("men", "empire", 36, 10, equipment=["halberd", "light_armour", "discipline_banner"]),
        unit("bsb", "empire", 30, 8, profile="empire/captain", models=1,
             values={"battle_standard": True}),
        unit("orcs", "orcs", 36, 30, 180, profile="orcs/orc_boy")])
    chance_dice = {"break_test": [6, 6, 6, 5, 1, 1]}
    assert not world.call("take_break_test", chance_dice, l="men", lost_by=0)
    [test] = world.tests("break_test")
    assert (test.first_dice, test.dice) == ([6, 6], [6, 5])
    assert test.rerolled_by == ["Break Test Re-roll", "break_test"]
    assert world.chance.remaining() == {"break_test": [1, 1]}


# ============================================================== movement


def duel_world(tmp_path: Path, distance: float, **orcs: Any) -> World:
    spec = {"id": "orcs", "side": "orcs", "profile": "orcs/orc_boy", "models": 20, "files": 5}
    spec.update(orcs)
    return World(tmp_path, [
        {"id": "men", "side": "empire", "profile": "empire/halberdier", "models": 20, "files": 5},
        spec], duel={"distance": distance})


def test_we6_a_wheel_moves_no_model_more_than_twice_its_move(tmp_path: Path) -> None:
    # WE6 (L98): a unit of Move 4 wheeling 90°: ten files on 1" bases make its outer corner
    # travel 15.7"; it turns only as far as 8" of that arc allows, 8 / 10 radians
    world = World(tmp_path, [unit("men", "empire", 36, 10, models=20, files=10,
                                  base={"w": 25.4, "d": 25.4})])
    assert world.call("wheel_unit", u="men", degrees=90) == 8.0
    assert world.unit("men").pose.facing == pytest.approx(math.degrees(0.8))


def test_we7_m4_rolling_2_and_5_charges_9_inches(tmp_path: Path) -> None:
    # WE7, L144-L146: M4 + the higher of 2 and 5 = 9"; a target 9" away is reached.
    world = duel_world(tmp_path, 9)
    assert world.call("charge_distance", {"charge_distance": [2, 5]}, u="orcs") == 9
    world.call("complete_charge", {"charge_distance": [2, 5]}, u="orcs", target="men",
               reaction="hold")
    assert world.unit("men") in world.unit("orcs").engaged


def test_we8_a_failed_charge_moves_the_higher_die(tmp_path: Path) -> None:
    # WE8, L150: rolling 2 and 5 at a target 10" away fails; the unit moves 5" toward it.
    world = duel_world(tmp_path, 10)
    world.call("complete_charge", {"charge_distance": [2, 5]}, u="orcs", target="men",
               reaction="hold")
    assert world.unit("orcs").engaged == []
    moves = [e for e in world.events if e.kind == "move"]
    assert [(m.unit, m.inches) for m in moves] == [("orcs", 5.0)]


def test_we9_a_unit_strength_10_charger_runs_down_20_wounds(tmp_path: Path) -> None:
    # WE9, L168: two Wounds per point of the charger's Unit Strength, no saves; survivors
    # stay, the charger 1" behind them.
    world = duel_world(tmp_path, 4, models=10)
    men = world.unit("men")
    men.models = 25
    men.starting_models = 25
    men.statuses["fleeing"] = None
    world.call("complete_charge", {"charge_distance": [3, 3]}, u="orcs", target="men",
               reaction="flee")
    assert men.models == 5
    assert world.unit("orcs").engaged == []
    assert not [e for e in world.events if e.kind == "test" and e.rule == "armour_save"]


# ============================================================== magic


@pytest.mark.parametrize(("points", "dice"), [(2000, 2), (3999, 2), (4000, 4), (6000, 6)])
def test_we10_winds_of_magic_dice_grow_every_2000_points(points: int, dice: int) -> None:
    # WE10, L246: 2D6, 4D6 at 4,000 points, 6D6 at 6,000.
    assert call("winds_dice_count", points=points) == dice


def test_we11_winds_of_2_and_6_give_8_power_and_6_dispel() -> None:
    # WE11, L252-L254: power = the total, dispel = the highest die.
    winds = call("winds_dice", {"winds_dice": [2, 6]}, number=2)
    assert fields(winds, "power_pool", "dispel_pool") == (8, 6)


def test_we12_four_winds_dice_give_16_power_and_11_dispel() -> None:
    # WE12, L254: 2, 3, 5, 6 -> 16 power dice, 11 dispel dice (the top half, 5 + 6).
    winds = call("winds_dice", {"winds_dice": [2, 3, 5, 6]}, number=4)
    assert fields(winds, "power_pool", "dispel_pool") == (16, 11)


def test_channelling_rolls_a_d6_per_wizard_level(tmp_path: Path) -> None:
    # L250, L256: a Level 3 Wizard channels with 3D6, each 5 or 6 a power die; the orcs, with
    # no Wizard, roll no dice to channel dispel dice. Winds of 2 and 6: 8 power, 6 dispel.
    world = wizard_world(tmp_path, 3)
    world.call("winds_of_magic", {"winds_dice": [2, 6], "power_channelled": [5, 6, 1]},
               side="empire")
    assert world.state.counters[("power_dice", "empire")] == 10
    assert world.state.counters[("dispel_dice", "orcs")] == 6
    # exactly: none of 3 dice shows 5 or 6 with (2/3)^3; both of 2 dice show 6 with 1/36
    assert exact("power_channelled", levels=3).probability(0) == Fraction(8, 27)
    assert exact("dispel_channelled", levels=2).probability(2) == Fraction(1, 36)


def wizard_world(tmp_path: Path, level: int, **spec: Any) -> World:
    return World(tmp_path, [
        unit("wizard", "empire", 36, 8, profile="empire/battle_wizard", models=1,
             values={"wizard_level": level, "lore": "fire"}, **spec),
        unit("orcs", "orcs", 36, 24, 180, profile="orcs/orc_boy", models=20)])


def test_we13_a_level_3_wizard_uses_at_most_5_dice(tmp_path: Path) -> None:
    # WE13, L282: Wizard Level + 2.
    world = wizard_world(tmp_path, 3)
    assert world.call("max_power_dice", u="wizard") == 5


@pytest.mark.parametrize(("level", "bonus"), [(1, 1), (2, 1), (3, 2), (4, 2)])
def test_we14_casting_bonus_by_level_and_its_cap(tmp_path: Path, level: int, bonus: int) -> None:
    # WE14, L286, L306: +1 at Level 1-2, +2 at Level 3-4, never more than +5 in all.
    world = wizard_world(tmp_path, level)
    assert world.call("casting_bonus", u="wizard", extra=0) == bonus
    assert world.call("casting_bonus", u="wizard", extra=4) == 5


def test_we15_a_natural_2_fails_whatever_the_bonus(tmp_path: Path) -> None:
    # WE15, L290-L292: one die showing 2, +2 bonus, casting value 3: the spell fails and the
    # Wizard's concentration breaks; a natural 3 casts it.
    assert call("casting_outcome", natural=2, bonus=2, cv=3) == "broken"
    assert call("casting_outcome", natural=3, bonus=0, cv=3) == "cast"
    world = wizard_world(tmp_path, 4, equipment=["hand_weapon"])
    world.state.orders = [{"decision": "power_dice_to_use", "choose": 1}]
    world.state.counters[("power_dice", "empire")] = 6
    world.call("attempt_spell", {"casting_roll": [2]}, w="wizard", s="fireball")
    assert "lost_concentration" in world.unit("wizard").statuses
    assert world.logs("casts")[0][-2:] == [4, "broken"]


def test_we16_a_miscast_with_4_dice_and_a_3_is_7() -> None:
    # WE16, L298: D6 + the dice used.
    assert call("miscast_result", {"miscast_roll": [3]}, dice_used=4) == 7


def test_we28_a_bound_spell_gets_one_free_die_and_no_bonus(tmp_path: Path) -> None:
    # WE28, L330-L336: at least one pool die plus one free, three at most; no casting bonus;
    # a Miscast crumbles the item without a roll on the Miscast table.
    assert fields(call("bound_dice", pool=5), "from_pool", "free") == (2, 1)
    assert fields(call("bound_dice", pool=1), "from_pool") == (1,)
    world = wizard_world(tmp_path, 2, equipment=["hand_weapon", "bound_fireball_item"])
    world.state.counters[("power_dice", "empire")] = 4
    world.call("attempt_bound_spell", {"casting_roll": [1, 1, 2], "*": [1] * 10}, w="wizard")
    # natural 4 reaches power level 4 only without a bonus; the two 1s crumble the item
    assert world.logs("casts a bound spell")[0][-1] == 4
    assert world.state.counters[("power_dice", "empire")] == 2
    assert world.state.counters[("bound_item_spent", "wizard")] == 1
    assert not [e for e in world.events if getattr(e, "rule", None) == "miscast_roll"]


# ============================================================== shooting, saves, casualties


def cover_world(tmp_path: Path, target: dict, shooter: dict, blocker: dict, **extra: Any) -> World:
    return World(tmp_path, [shooter, blocker, target], **extra)


HILL = {"id": "hill", "kind": "hill", "at": {"x": 36, "y": 40}, "size": {"w": 20, "h": 8},
        "effects": ["Line of Sight (2)", "Hill"]}


def test_we17_line_of_sight_1_covers_line_of_sight_2(tmp_path: Path) -> None:
    # WE17, L374: knights (Line of Sight 2) behind infantry (1): the blocker has at least half.
    world = cover_world(tmp_path,
                        unit("knights", "orcs", 36, 40, 180, profile="empire/knight", models=5),
                        unit("gunners", "empire", 36, 10, profile="empire/handgunner"),
                        unit("screen", "orcs", 36, 25, 180, profile="orcs/orc_boy", files=10,
                             models=10))
    assert world.call("cover_of", a="gunners", b="knights") == "hard"
    assert world.call("can_see", a="gunners", b="knights")


def test_we18_line_of_sight_1_does_not_cover_line_of_sight_3(tmp_path: Path) -> None:
    # WE18, L374, L887: infantry on a hill (1 + 2 = 3) behind infantry (1): no cover.
    world = cover_world(tmp_path,
                        unit("boyz", "orcs", 36, 40, 180, profile="orcs/orc_boy"),
                        unit("gunners", "empire", 36, 10, profile="empire/handgunner"),
                        unit("screen", "orcs", 36, 25, 180, profile="orcs/orc_boy", files=10,
                             models=10),
                        battlefield={"width": 72, "depth": 48, "terrain": [HILL]})
    assert world.call("los_value", x="boyz") == 3
    assert world.call("cover_of", a="gunners", b="boyz") == "none"


def test_we19_a_line_of_sight_3_shooter_ignores_that_cover(tmp_path: Path) -> None:
    # WE19, L374: the shooter on a hill (3) looks past a Line of Sight 1 screen at knights (2).
    hill = dict(HILL, at={"x": 36, "y": 8})
    world = cover_world(tmp_path,
                        unit("knights", "orcs", 36, 40, 180, profile="empire/knight", models=5),
                        unit("gunners", "empire", 36, 8, profile="empire/handgunner"),
                        unit("screen", "orcs", 36, 25, 180, profile="orcs/orc_boy", files=10,
                             models=10),
                        battlefield={"width": 72, "depth": 48, "terrain": [hill]})
    assert world.call("los_value", x="gunners") == 3
    assert world.call("cover_of", a="gunners", b="knights") == "none"


def test_we20_a_3_plus_save_against_strength_5_needs_5(tmp_path: Path) -> None:
    # WE20, L390: heavy armour (4+, L1485) and a shield (+1): 3+; a Strength 5 hit: 5+.
    world = World(tmp_path, [
        unit("guard", "empire", 36, 10, equipment=["hand_weapon", "heavy_armour", "shield"]),
        unit("brute", "orcs", 36, 30, 180, profile="orcs/orc_boy", characteristics={"S": 5})])
    env = world.env({"armour_save": [5, 4]})
    args = {"target": world.unit("guard"), "attacker": world.unit("brute"), "melee": False}
    first = world.runtime.invoke("armour_save", env, dict(args))
    second = world.runtime.invoke("armour_save", env, dict(args))
    assert (first.need, first.passed, second.passed) == (5, True, False)
    rt = world.runtime
    hit = {"target": world.unit("guard"), "strength": 5, "melee": False}
    dist = enumerate_exact(lambda ch: bool(rt.invoke("save_at", rt.env(ch), dict(hit))))
    assert dist.probability(True) == Fraction(1, 3)


def test_we21_soft_and_hard_cover_do_not_stack(tmp_path: Path) -> None:
    # WE21, L380: a hedge (soft) and a unit (hard) in the way: -2 only.
    hedge = {"id": "hedge", "kind": "obstacle", "at": {"x": 36, "y": 20},
             "size": {"w": 20, "h": 0.5},
             "effects": ["Line of Sight (0)", "Soft Cover", "Obstacle"]}
    world = cover_world(tmp_path,
                        unit("knights", "orcs", 36, 40, 180, profile="empire/knight", models=5),
                        unit("gunners", "empire", 36, 10, profile="empire/handgunner"),
                        unit("screen", "orcs", 36, 28, 180, profile="orcs/orc_boy", files=10,
                             models=10),
                        battlefield={"width": 72, "depth": 48, "terrain": [hedge]})
    assert world.call("cover_of", a="gunners", b="knights") == "hard"
    assert world.call("cover_modifier", kinds=["soft", "hard"]) == -2
    # both statuses on the target still worsen the shot by 2 only (BS3 needs 4+ -> 6+)
    knights = world.unit("knights")
    knights.statuses.update({"soft_cover": "phase", "hard_cover": "phase"})
    result = world.call("to_hit_missile", {"to_hit_missile": [6]}, shooter="gunners",
                        target="knights", modifier=0)
    assert result.need == 6


def test_we22_ogres_with_3_wounds_lose_one_model_to_5_wounds(tmp_path: Path) -> None:
    # WE22, L398-L400: 5 wounds on W3 models: one removed, 2 carried to the next damage.
    world = World(tmp_path, [
        unit("ogres", "orcs", 36, 30, 180, profile="orcs/orc_boy", models=4, files=4,
             characteristics={"W": 3}),
        unit("men", "empire", 36, 10)])
    world.state.__init__(world.runtime, world.battle, [], {})
    ogres = world.unit("ogres")
    assert world.call("remove_casualties", u="ogres", wounds=5, source=None) == 1
    assert (ogres.models, ogres.damage) == (3, 2)
    assert world.call("remove_casualties", u="ogres", wounds=1, source=None) == 1
    assert (ogres.models, ogres.damage) == (2, 0)


def test_we27_a_champion_is_removed_last(tmp_path: Path) -> None:
    # WE27, L721, L729: a unit of three with a champion and a standard: two wounds leave
    # the champion alone (the standard goes before him); three take the champion too.
    world = World(tmp_path, [
        unit("men", "empire", 36, 10, models=3, files=3, command=["champion", "standard"]),
        unit("orcs", "orcs", 36, 30, 180, profile="orcs/orc_boy")])
    world.call("remove_casualties", u="men", wounds=2, source=None)
    assert world.call("command_present", u="men", role="champion")
    assert not world.call("command_present", u="men", role="standard")
    world.call("remove_casualties", u="men", wounds=1, source=None)
    assert not world.call("command_present", u="men", role="champion")


# ============================================================== close combat


def test_we23_ld_8_losing_by_3_breaks_on_a_7() -> None:
    # WE23, L450-L452: Leadership 8 less 3 is 5; a 7 breaks, a 5 holds.
    _, rt, battle = open_battle("wfb8", DUEL)
    knights = battle.unit("halberdiers")
    knights.profile["Ld"] = 8
    env = rt.env(ScriptedChance({"break_test": [3, 4, 2, 3]}))
    assert not rt.invoke("break_test", env, {"unit": knights, "lost_by": 3, "steadfast": False})
    assert rt.invoke("break_test", env, {"unit": knights, "lost_by": 3, "steadfast": False})


def multiple_combat(tmp_path: Path) -> World:
    # Halberdiers (25, five wide, standard) fight Orcs (15, standard) to their front and
    # Goblins (5) on their flank (L490).
    world = World(tmp_path, [
        unit("halberdiers", "empire", 36, 20, models=25, command=["standard"]),
        unit("orcs", "orcs", 36, 26, 180, profile="orcs/orc_boy", models=15, command=["standard"]),
        unit("goblins", "orcs", 25, 19.5, 90, profile="orcs/orc_boy", models=5, name="Goblins")])
    env = world.env()
    BUILTINS["engage"](world.state, env, None, world.unit("orcs"), world.unit("halberdiers"))
    BUILTINS["engage"](world.state, env, None, world.unit("goblins"), world.unit("halberdiers"))
    wounds = {("halberdiers", "orcs"): 2, ("halberdiers", "goblins"): 4, ("orcs", "halberdiers"): 4,
              ("goblins", "halberdiers"): 1}
    for (a, t), n in wounds.items():
        world.state.counters[("wounds_on", a, t)] = n
        key = ("wounds_caused", a)
        world.state.counters[key] = world.state.counters.get(key, 0) + n
    return world


def test_we24_the_multiple_combat_example(tmp_path: Path) -> None:
    # WE24, L486-L490: Halberdiers 11 (6 Wounds, 3 ranks, standard, outnumber) against
    # Orcs 7 (4 Wounds, 2 ranks, standard) and Goblins 2 (1 Wound, flank): won by 2. The Orcs
    # draw locally (7-7) and take no Break test; the Goblins lose 9-2 but test at -2 only.
    world = multiple_combat(tmp_path)
    hal, orcs, goblins = (world.unit(i) for i in ("halberdiers", "orcs", "goblins"))
    world.call("combat_result", {"break_test": [3, 3], "flee_distance": [1, 1]}, side_a=[hal],
               side_b=[orcs, goblins])
    assert world.logs("combat result") == [["halberdiers", 11, "orcs", 9]]
    assert world.logs("fights to a draw") == [["orcs"]]
    tests = world.tests("break_test")
    assert [t.units for t in tests] == [["goblins"]]
    # Ld 7 - 2 = 5: a 6 breaks
    assert tests[0].result == "fail"
    assert world.logs("breaks") == [["goblins"]]
    # the Halberdiers touch the Orcs, who held: they cannot pursue (L496)
    assert "fleeing" in goblins.statuses and "pursuing" not in hal.statuses


@pytest.mark.parametrize(("lost_by", "dice", "passed"), [
    (1, [4, 4], True), (1, [4, 5], False), (3, [3, 4], True), (3, [4, 4], False)])
def test_we25_26_a_steadfast_unit_borrows_the_general_s_leadership(
        tmp_path: Path, lost_by: int, dice: list[int], passed: bool) -> None:
    # WE25, WE26, L795: Steadfast Ld 7 within 12" of a Ld 9 General: losing by 1 it tests on
    # 8 (9 - 1 > 7); losing by 3 on its own 7 (9 - 3 = 6 is lower).
    world = World(tmp_path, [
        unit("men", "empire", 36, 20, models=20, command=[]),
        unit("general", "empire", 36, 10, profile="empire/general", models=1,
             values={"general": True}),
        unit("orcs", "orcs", 36, 26, 180, profile="orcs/orc_boy", models=10)])
    BUILTINS["engage"](world.state, world.env(), None, world.unit("orcs"), world.unit("men"))
    assert world.call("steadfast", u="men", enemy="orcs")
    assert bool(world.call("take_break_test", {"break_test": dice}, l="men",
                           lost_by=lost_by)) is passed


# ============================================================== war machines


def test_we29_a_bolt_goes_on_through_the_ranks(tmp_path: Path) -> None:
    # WE29, L841 (and the Amber Spear, L1227): Strength 6, then 5, then 4, until a model
    # survives; against Toughness 5 the wound rolls need 3+, 4+, 5+.
    world = World(tmp_path, [
        unit("crew", "empire", 36, 10, models=1, files=1),
        unit("block", "orcs", 36, 30, 180, profile="orcs/orc_boy", models=15,
             characteristics={"T": 5},
             equipment=["hand_weapon"])])
    dice = {"wound_at": [3, 4, 4], "save_at": [1, 1, 1], "multiple_wounds_d3": [1, 1]}
    ranks = world.call("penetrating_hit", dice, source="crew", target="block", strength=6,
                       heavy=False)
    assert ranks == 2
    assert [t.need for t in world.tests("wound_at")] == [3, 4, 5]
    assert world.unit("block").models == 13


@pytest.mark.parametrize(("bounce", "great", "die"), [
    (False, False, "D6"), (True, False, "D3"), (True, True, "D6")])
def test_we30_cannonball_multiple_wounds(bounce: bool, great: bool, die: str) -> None:
    # WE30, L855: direct hit D6, bounce D3; a Great Cannon D6 both.
    assert call("cannon_wounds_die", bounce=bounce, great=great) == die


def test_we31_we32_we34_scatter_distances() -> None:
    # WE31 L849: a cannon's marker moves half the artillery die (8 -> 4); WE32 L865: a stone
    # thrower's the whole die (8); WE34 L871: indirect Hit!, artillery 4 less BS 3 -> 1, never
    # below 0; a misfire moves nothing.
    assert call("scatter_distance", machine="cannon", artillery=8, crew_bs=3) == 4
    assert call("scatter_distance", machine="stone_thrower", artillery=8, crew_bs=3) == 8
    assert call("scatter_distance", machine="indirect", artillery=4, crew_bs=3) == 1
    assert call("scatter_distance", machine="indirect", artillery=2, crew_bs=3) == 0
    assert call("scatter_distance", machine="cannon", artillery="misfire", crew_bs=3) is None
    # the artillery die itself (L5): 2, 4, 6, 8, 10 or a misfire, each 1 in 6
    dist = exact("artillery_roll")
    assert dist.probability("misfire") == Fraction(1, 6) and dist.probability(8) == Fraction(1, 6)


def test_we33_stone_thrower_hole_and_template() -> None:
    # WE33, L867-L869: under the hole Strength 10 with Multiple Wounds (D6); the rest Strength 4.
    assert fields(call("stone_thrower_hit", under_hole=True), "strength",
                  "multiple_wounds") == (10, "D6")
    assert fields(call("stone_thrower_hit", under_hole=False), "strength",
                  "multiple_wounds") == (4, None)


def test_we35_a_template_on_a_building_hits_at_most_each_model_once() -> None:
    # WE35, L1021: D6 hits on the garrison, never more than one a model.
    assert call("building_hits_taken", {"building_hits": [6]}, garrison_models=4) == 4
    assert call("building_hits_taken", {"building_hits": [2]}, garrison_models=4) == 2


@pytest.mark.parametrize(("strength", "party"), [(1, 6), (2, 3), (3, 2), (4, 1)])
def test_we36_a_war_machine_assault_party_is_unit_strength_6_at_most(
        strength: int, party: int) -> None:
    # WE36, L829: models totalling Unit Strength 6 at most, at least one model.
    assert call("assault_party", model_strength=strength, models=10) == party


# ============================================================== scenarios


@pytest.mark.parametrize(("points", "point"), [(1000, 1), (1001, 2), (2000, 2), (2500, 3)])
def test_we37_breaking_point(points: int, point: int) -> None:
    # WE37, L1185: 1 for every 1,000 points, rounded up.
    assert call("breaking_point", points=points) == point


def test_we38_fortitude_of_a_2000_point_army(tmp_path: Path) -> None:
    # WE38, L1187: three unit standards, a battle standard and a General: 3 + 1 + 2 = 6;
    # a 2,000-point army (breaking point 2) breaks when it falls to 2.
    world = World(tmp_path, [
        unit("a", "empire", 10, 10, command=["standard"], points=500),
        unit("b", "empire", 30, 10, command=["standard"], points=500),
        unit("c", "empire", 50, 10, command=["standard"], points=500),
        unit("bsb", "empire", 20, 5, profile="empire/captain", models=1,
             values={"battle_standard": True}, points=250),
        unit("general", "empire", 40, 5, profile="empire/general", models=1,
             values={"general": True}, points=250),
        unit("orcs", "orcs", 36, 40, 180, profile="orcs/orc_boy")])
    assert world.call("fortitude", side="empire") == 6
    assert world.call("breaking_point", points=world.call("army_points", side="empire")) == 2
    assert not world.call("army_broken", side="empire")
    for uid in ("general", "a"):
        world.unit(uid).models = 0
    assert world.call("fortitude", side="empire") == 3
    world.unit("b").models = 0
    assert world.call("army_broken", side="empire")


@pytest.mark.parametrize(("turn", "chance"), [
    (3, Fraction(0)), (4, Fraction(1, 6)), (5, Fraction(2, 6)), (6, Fraction(3, 6))])
def test_we39_the_watchtower_game_ends_on_d6_plus_turn_of_10(turn: int, chance: Fraction) -> None:
    # WE39, L1213: from game turn 4, D6 + the turn of 10 or more ends the game.
    assert exact("watchtower_ends", turn=turn).probability(True) == chance
