"""wfb3 war engines, monsters and chariots (seed 003, L1406-L1760): templates and lines laid
on fixed positions, the dice scripted, the models hit counted by hand.

The targets stand on bases 1.2" square (30.48 mm), facing +y, six files wide: a unit
centred at (36, y) spans x 32.4..39.6, its files' edges at 32.4, 33.6, 34.8, 36, 37.2, 38.4
and 39.6, and each rank is 1.2" deep. A 1"-radius template (the 3-crew stone thrower's,
L1488) centred on such a unit meets the two middle files (their edges 0 from the centre)
and not the next (1.2" away); of a unit four ranks deep (24 models) the two middle ranks,
whose edge the centre lies on, and not the outer two (1.2" away): four models.

An engine stands at (36, 40) facing -y (180): its shot's line of fire runs down x = 36;
12 o'clock on the clock face is straight on (-y), 3 o'clock to the right (-x, heading 270).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from rules_run.runtime.records import field_of
from helpers.wfb8_world import World, unit

BASE = {"w": 30.48, "d": 30.48}


def block(uid: str, y: float, models: int, profile: str = "goblins/goblin", x: float = 36,
          side: str = "humans") -> dict:
    return unit(uid, side, x, y, 0, models=models, files=6, base=BASE, profile=profile)


def engine(uid: str, profile: str, y: float = 40, models: int = 3) -> dict:
    return unit(uid, "goblins", 36, y, 180, profile=f"war_engines/{profile}", models=models,
                files=models)


def world(tmp_path: Path, *units: dict) -> World:
    return World(tmp_path, list(units), edition="wfb3")


def volleys(w: World, target: str) -> list[int]:
    """The hits of each volley at the target, in order."""
    return [e.attacks for e in w.events if e.kind == "attacks" and e.target == target]


def strengths(w: World, target: str) -> list[int]:
    """The Strength of each to-damage roll at the target, in order."""
    return [e.args["strength"] for e in w.events
            if e.kind == "test" and e.rule == "wound_at" and e.units == [target]]


def counter(w: World, name: str, uid: str) -> int:
    return w.state.builtin(w.env(), "counter", [name, w.unit(uid)], None)


def set_counter(w: World, name: str, uid: str, value: int) -> None:
    w.state.builtin(w.env(), "set_counter", [name, w.unit(uid), value], None)


def moves(w: World) -> list[list[float]]:
    return [e.to for e in w.events if e.kind == "marker" and e.change == "moved"]


# ---------------------------------------------------------------- the stone thrower


def test_we79_l1412_four_goblins_under_a_stone_thrower_lose_four_models_at_most(
        tmp_path: Path) -> None:
    # 24 Goblins, four ranks of six; the 3-crew stone thrower (S5, -2, D4 wounds, L1488)
    # lands on target (D20 13-20, L1493): four models under its template, each hit once
    # (L1495). Every hit damages (a 6), every save fails (the Goblin's shield needs a 6, and
    # -2 makes a 6 a 4), each takes D4 = 4 wounds: four Goblins slain, the other twelve
    # wounds are not carried over to the rest of the unit (L1412).
    w = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", 10, 24))
    w.call("fire_template", {"engine_d20": [15], "D4": [4] * 4, "*": [6] * 20}, m="st", t="gob")
    assert volleys(w, "gob") == [4]
    assert strengths(w, "gob") == [5] * 4
    saves = [e for e in w.events if e.kind == "test" and e.rule == "armour_save"]
    assert [(e.dice, e.result) for e in saves] == [([6], "fail")] * 4
    assert w.unit("gob").models == 20


def test_l1493_a_d20_of_1_to_12_deviates_toward_that_hour_by_2d6(tmp_path: Path) -> None:
    # A 3 is 3 o'clock: to the right of the line of fire, heading 180 + 90 = 270 (-x). 2D6
    # = 10 moves the template 10" onto the unit standing 10" to the right (L1494); the
    # target itself is missed.
    w = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", 10, 24),
              block("right", 10, 24, x=26))
    w.call("fire_template", {"engine_d20": [3], "deviation_distance": [5, 5], "D4": [1] * 4,
                             "*": [6] * 20},
           m="st", t="gob")
    assert moves(w) == [[26.0, 10.0]]
    assert (volleys(w, "gob"), volleys(w, "right")) == ([], [4])
    assert w.logs("deviates") == [["st", 3, 10]]


def test_l1493_twelve_o_clock_overshoots_and_six_undershoots(tmp_path: Path) -> None:
    for score, y in ((12, 6.0), (6, 14.0)):
        w = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", 10, 24))
        w.call("fire_template", {"engine_d20": [score], "deviation_distance": [2, 2], "D4": [1] * 8,
                                 "*": [6] * 20},
               m="st", t="gob")
        [[x, to_y]] = moves(w)
        assert (round(x, 6), round(to_y, 6)) == (36.0, y)


def test_l1494_no_shot_deviates_more_than_half_its_range(tmp_path: Path) -> None:
    # The target's front edge 14" from the engine's (the engine's half depth 0.3937", the
    # target's 1.8"): a 2D6 of 12 straight on (12 o'clock) deviates 7" only.
    y = 40 - 0.3937 - 14 - 1.8
    w = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", y, 18))
    w.call("fire_template", {"engine_d20": [12], "deviation_distance": [6, 6], "D4": [1] * 8,
                             "*": [6] * 20}, m="st", t="gob")
    [[x, to_y]] = moves(w)
    assert (round(x, 3), round(to_y, 3)) == (36.0, round(y - 7, 3))


def test_l1498_speculative_fire_at_an_unseen_target_deviates_2d12(tmp_path: Path) -> None:
    # A unit of the engine's own side stands between it and the Goblins, blocking the line
    # of sight: a stone thrower may still target them (L1496-L1497), and its deviation is
    # 2D12, here 5 (L1498), at most half the range.
    w = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", 10, 24),
              unit("screen", "goblins", 36, 30, 180, models=18, files=6, base=BASE,
                   profile="goblins/goblin"))
    assert w.call("engine_target", m="st").id == "gob"
    w.call("fire_template", {"engine_d20": [6], "speculative_deviation": [3, 2], "*": [6] * 40},
           m="st", t="gob")
    assert [round(v, 6) for v in w.logs("deviates")[0][1:]] == [6, 5]


def test_the_deviation_dice_are_2d6_for_a_stone_thrower_and_d6_for_a_fire_thrower(
        tmp_path: Path) -> None:
    w = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", 10, 24))
    two = w.exact("deviation_distance", d6=2)
    one = w.exact("deviation_distance", d6=1)
    assert two.probability(7) == Fraction(6, 36) and max(k for k, _ in two.items()) == 12
    assert dict(one.items()) == {k: Fraction(1, 6) for k in range(1, 7)}


def test_l1484_l1492_targets_lie_within_the_range_and_outside_the_minimum(tmp_path: Path) -> None:
    # 3-crew: 12" to 48" (L1488). A unit 8" away is too close, one 50" away too far.
    near = world(tmp_path, engine("st", "goblin_stone_thrower"), block("gob", 29.2, 18))
    assert near.call("engine_target", m="st") is None
    far = world(tmp_path, engine("st", "goblin_stone_thrower", y=47), block("gob", -5.8, 18))
    assert far.call("engine_target", m="st") is None


# ---------------------------------------------------------------- the cannon


def cannon_world(tmp_path: Path) -> World:
    # L1521's example: three units in the line, the first within 12" (its front 8" off),
    # the second at 21", the third at 27"; two, two and three ranks deep.
    return world(tmp_path, engine("gun", "human_cannon"),
                 block("one", 40 - 0.3937 - 8 - 1.2, 12),
                 block("two", 40 - 0.3937 - 21 - 1.2, 12),
                 block("three", 40 - 0.3937 - 27 - 1.8, 18))


def test_l1521_a_cannon_shot_through_three_units_two_hits_a_rank_six_ranks_at_most(
        tmp_path: Path) -> None:
    # Two S7 hits on each rank of the first unit, two S6 on each of the second (21"), two
    # S5 on the first two ranks of the third (27") only: the shot has run out after six
    # ranks (L1516-L1521).
    w = cannon_world(tmp_path)
    w.call("fire_line", {"D4": [1] * 20, "*": [6] * 40}, m="gun", t="one")
    assert (volleys(w, "one"), volleys(w, "two"), volleys(w, "three")) == ([4], [4], [4])
    assert strengths(w, "one") == [7] * 4 and strengths(w, "two") == [6] * 4
    assert strengths(w, "three") == [5] * 4
    assert w.logs("shot crosses") == [["gun", "one", 2], ["gun", "two", 2], ["gun", "three", 2]]
    assert [w.unit(u).models for u in ("one", "two", "three")] == [8, 8, 14]


def test_l1516_a_unit_shot_from_the_side_is_crossed_file_by_file(tmp_path: Path) -> None:
    # A unit of 12 (six files, two ranks) facing across the line (90): the shot runs
    # along its length through six files: twelve hits (L1516: "more ranks will be crossed").
    side = unit("flank", "humans", 36, 25, 90, models=12, files=6, base=BASE,
                profile="goblins/goblin")
    w = world(tmp_path, engine("gun", "human_cannon"), side)
    w.call("fire_line", {"D4": [1] * 20, "*": [6] * 40}, m="gun", t="flank")
    assert volleys(w, "flank") == [12]


def test_l1526_a_hedge_in_the_path_costs_the_shot_two_ranks(tmp_path: Path) -> None:
    # A hedge (the rule Obstacle) across the line between the cannon and six ranks of
    # Goblins (their front 8" off): the shot smashes through it and crosses four ranks only.
    hedge = {"id": "hedge", "kind": "obstacle", "name": "Hedge", "at": {"x": 28, "y": 34},
             "size": {"w": 16, "h": 1}, "effects": ["Obstacle"]}
    w = World(tmp_path, [engine("gun", "human_cannon"),
                         block("gob", 40 - 0.3937 - 8 - 3.6, 36)], edition="wfb3",
              battlefield={"width": 72, "depth": 48, "terrain": [hedge]})
    w.call("fire_line", {"D4": [1] * 20, "*": [6] * 40}, m="gun", t="gob")
    assert w.logs("shot smashes through") == [["gun", "Hedge"]]
    assert w.logs("shot crosses") == [["gun", "gob", 4]] and volleys(w, "gob") == [8]


def test_we82_l1571_an_organ_gun_at_30_inches_three_barrels_two_ranks_six_s3_hits(
        tmp_path: Path) -> None:
    # Three barrels: 1 hit a barrel a rank, 2 ranks: 6 hits; at 30" S5 less 2 (L1570-L1574).
    w = world(tmp_path, engine("og", "human_organ_gun"), block("gob", 40 - 0.3937 - 30 - 1.2, 12))
    w.call("fire_line", {"D3": [1] * 10, "*": [6] * 20}, m="og", t="gob")
    assert volleys(w, "gob") == [6]
    assert strengths(w, "gob") == [3] * 6


def test_l1523_heat_a_cannon_gains_a_point_each_shot_after_its_first(tmp_path: Path) -> None:
    w = cannon_world(tmp_path)
    w.call("fire_line", {"*": [1] * 60}, m="gun", t="one")
    assert counter(w, "heat", "gun") == 0
    w.call("fire_line", {"*": [1] * 60}, m="gun", t="one")
    assert counter(w, "heat", "gun") == 1
    # the third shot with 1 heat point: a D6 of 6 blows it up, every crewman hit
    w.call("fire_line", {"heat_test": [6], "*": [6] * 60, "D4": [1] * 3}, m="gun", t="one")
    assert w.logs("blows up") == [["gun"]]
    assert w.unit("gun").models == 0 and volleys(w, "one") == [4, 4]


def test_l1523_the_chance_of_blowing_up_is_d6_plus_heat_less_one_six_or_more(
        tmp_path: Path) -> None:
    w = cannon_world(tmp_path)
    assert [w.exact("heat_test", heat=h).probability(False) for h in (1, 2, 3, 6)] == [
        Fraction(1, 6), Fraction(2, 6), Fraction(3, 6), Fraction(1)]


def test_l1523_a_turn_without_firing_cools_a_cannon_by_one(tmp_path: Path) -> None:
    # no target in range (48"): it does not fire this turn
    w = world(tmp_path, engine("gun", "human_cannon", y=47), block("far", -10, 12))
    set_counter(w, "heat", "gun", 2)
    w.call("fire_engine", {"*": [6] * 60}, m="gun")
    assert counter(w, "heat", "gun") == 1


# ---------------------------------------------------------------- the bolt thrower


def test_l1475_l1478_a_bolt_goes_through_the_ranks_until_it_fails_to_wound(tmp_path: Path) -> None:
    # 3-man: S5, -2, D4 (L1469). It hits (4+ within half range, L1474), spits a model of the
    # first rank (S5), goes on at S4 into the second, and stops in the third at S3 when the
    # damage roll fails.
    w = world(tmp_path, engine("bolt", "human_bolt_thrower"), block("gob", 20, 18))
    w.call("fire_bolt", {"bolt_to_hit": [4], "wound_at": [6, 6, 1], "D4": [1, 1],
                                 "*": [6] * 20}, m="bolt", t="gob")
    assert strengths(w, "gob") == [5, 4, 3]
    assert w.unit("gob").models == 16
    # failing to wound in the first rank, it goes no further (the loop's `where` was read
    # once, before the first rank, and the bolt went on through every rank)
    w = world(tmp_path, engine("bolt", "human_bolt_thrower"), block("gob", 20, 18))
    w.call("fire_bolt", {"bolt_to_hit": [4], "wound_at": [1]}, m="bolt", t="gob")
    assert strengths(w, "gob") == [5] and w.unit("gob").models == 18


def test_l1474_a_bolt_thrower_hits_on_4_within_half_range_and_5_beyond(tmp_path: Path) -> None:
    w = world(tmp_path, engine("bolt", "human_bolt_thrower"), block("gob", 20, 18))
    assert w.exact("bolt_to_hit", inches=24, longest=48).probability(True) == Fraction(1, 2)
    assert w.exact("bolt_to_hit", inches=25, longest=48).probability(True) == Fraction(1, 3)


# ---------------------------------------------------------------- crew, cover, fire throwers


def test_l1439_an_engine_two_crew_short_fires_every_second_turn(tmp_path: Path) -> None:
    w = world(tmp_path, engine("st", "goblin_stone_thrower", models=3), block("gob", 10, 24))
    st = w.unit("st")
    assert w.call("engine_ready", m="st")
    st.models = 1
    set_counter(w, "last_shot", "st", 1)
    w.state.round = 2
    assert not w.call("engine_ready", m="st")
    w.state.round = 3
    assert w.call("engine_ready", m="st")


def test_l1449_an_engine_is_soft_cover_for_its_crew(tmp_path: Path) -> None:
    # Longbowmen (BS 3: 4+) shooting at the crew within half range need a 5.
    w = world(tmp_path, engine("st", "goblin_stone_thrower"),
              unit("bows", "humans", 36, 20, 0, profile="humans/longbowman", models=10, files=10))
    bow = w.unit("bows").weapons[0]
    chance = w.exact("to_hit_missile", shooter="bows", target="st", weapon=bow, inches=10)
    assert chance.probability(True) == Fraction(2, 6)


def test_l1646_a_unit_damaged_by_a_fire_thrower_tests_for_panic(tmp_path: Path) -> None:
    w = world(tmp_path, engine("ft", "goblin_fire_thrower", y=20, models=2),
              block("gob", 10, 24))
    w.call("fire_template", {"engine_d20": [15], "D3": [1] * 4, "*": [6] * 20}, m="ft", t="gob")
    assert w.unit("gob").models == 20
    assert len([e for e in w.events if e.kind == "test" and e.rule == "panic_test"]) == 1


def test_l1645_a_fire_thrower_exploding_on_20_kills_its_crew(tmp_path: Path) -> None:
    w = world(tmp_path, engine("ft", "goblin_fire_thrower", y=20, models=2),
              block("gob", 10, 24))
    w.call("fire_template", {"engine_d20": [20], "*": [6] * 20}, m="ft", t="gob")
    assert w.logs("explodes") == [["ft"]]
    assert volleys(w, "gob") == []
    assert w.state.alive(w.unit("ft")) is False


# ---------------------------------------------------------------- monsters and chariots


def test_l303_a_large_target_is_plus_one_to_hit(tmp_path: Path) -> None:
    # L309: longbowmen (BS 3: 4) beyond half range at a giant: -1 over half range, +1 for
    # the large target (both result modifiers): a 4 or more hits; within half range a 3.
    w = world(tmp_path, unit("giant", "goblins", 36, 40, 180, profile="monsters/giant", models=1,
                             files=1),
              unit("bows", "humans", 36, 20, 0, profile="humans/longbowman", models=10, files=10))
    bow = w.unit("bows").weapons[0]
    far = w.exact("to_hit_missile", shooter="bows", target="giant", weapon=bow, inches=18)
    near = w.exact("to_hit_missile", shooter="bows", target="giant", weapon=bow, inches=10)
    assert (far.probability(True), near.probability(True)) == (Fraction(3, 6), Fraction(4, 6))


def test_l1728_the_chariot_damage_roll_is_2d6_plus_the_hits(tmp_path: Path) -> None:
    w = world(tmp_path, block("gob", 10, 24))
    one = w.exact("chariot_damage", hits=1)
    # 2D6 + 1: 3-7 no effect (2..6 on the dice: 15/36), 8 (7: 6/36), 9 (8: 5/36), 10 (4/36),
    # 11 (3/36), 12 (2/36), 13 (12 on the dice: 1/36, the axle)
    assert dict(one.items()) == {"none": Fraction(15, 36), "wheel": Fraction(6, 36),
                                 "reins": Fraction(5, 36), "beast_slain": Fraction(4, 36),
                                 "crew_struck": Fraction(3, 36), "shaken": Fraction(2, 36),
                                 "axle": Fraction(1, 36)}
    # ten hits: only a double 1 (12, shaken) stops short of the axle
    assert w.exact("chariot_damage", hits=10).probability("axle") == Fraction(35, 36)


def test_l1719_a_charging_chariot_strikes_d3_impact_hits_and_one_a_scythe(tmp_path: Path) -> None:
    w = world(tmp_path, block("gob", 10, 24))
    assert dict(w.exact("impact_hits", scythes=2).items()) == {3: Fraction(1, 3), 4: Fraction(1, 3),
                                                                5: Fraction(1, 3)}
    assert w.exact("runs_amok").probability(True) == Fraction(1, 6)
    assert [w.call("chariot_move", creature_move=8, span=n) for n in (1, 2, 3, 4)] == [5, 6, 7, 8]


# ---------------------------------------------------------------- flame cannon and bazuka

TWENTY_OFF = 40 - 0.3937 - 20 - 2.4
"""The centre of a unit four ranks deep whose front is 20" from the engine's."""


def test_l1593_a_flame_cannon_builds_up_pressure_a_turn_then_fires(tmp_path: Path) -> None:
    # 12" to 36" (L1591): a target 20" off. The first Shooting phase pressurizes it, the
    # next fires; with a crewman lost it takes 2 turns, with two 3 (L1603-L1607). Its 1 1/2"
    # radius template meets the middle four models, and the four on either side and in front
    # and behind (1.2" away), not the corners (1.7" away): twelve.
    w = world(tmp_path, engine("fc", "dwarf_flame_cannon"), block("gob", TWENTY_OFF, 24))
    w.call("fire_engine", {"*": [6] * 40}, m="fc")
    assert w.logs("builds up pressure") == [["fc"]] and volleys(w, "gob") == []
    w.state.round = 2
    w.call("fire_engine", {"engine_d20": [15], "D6": [1] * 12, "*": [6] * 40}, m="fc")
    assert volleys(w, "gob") == [12] and strengths(w, "gob") == [8] * 12
    assert counter(w, "pressure", "fc") == 0
    fc = w.unit("fc")
    assert [w.call("pressure_turns", m="fc")] == [1]
    fc.models = 2
    assert w.call("pressure_turns", m="fc") == 2
    fc.models = 1
    assert w.call("pressure_turns", m="fc") == 3


def test_l1598_a_flame_cannon_explodes_on_19_or_20(tmp_path: Path) -> None:
    w = world(tmp_path, engine("fc", "dwarf_flame_cannon"), block("gob", TWENTY_OFF, 24))
    w.call("fire_template", {"engine_d20": [19], "*": [6] * 20}, m="fc", t="gob")
    assert w.logs("explodes") == [["fc"]] and volleys(w, "gob") == []
    assert w.state.alive(w.unit("fc")) is False


def test_l1596_fire_strikes_the_flammable_at_one_more_strength(tmp_path: Path) -> None:
    w = world(tmp_path, engine("fc", "dwarf_flame_cannon"),
              unit("mummies", "humans", 36, 40 - 0.3937 - 20 - 2.4, 0, models=24, files=6,
                   base=BASE, profile="goblins/goblin", rules=["Flammable"]))
    w.call("fire_template", {"engine_d20": [15], "D6": [1] * 12, "*": [6] * 40}, m="fc",
           t="mummies")
    assert strengths(w, "mummies") == [9] * 12


def test_l1623_l1624_a_bazuka_dud_on_18_and_one_s3_hit_on_19(tmp_path: Path) -> None:
    dud = world(tmp_path, engine("baz", "dwarf_bazuka", y=30, models=2), block("gob", 10, 24))
    dud.call("fire_template", {"engine_d20": [18], "*": [6] * 20}, m="baz", t="gob")
    assert volleys(dud, "gob") == [] and dud.logs("goes wrong") == [["baz", 18]]
    fizz = world(tmp_path, engine("baz", "dwarf_bazuka", y=30, models=2), block("gob", 10, 24))
    fizz.call("fire_template", {"engine_d20": [19], "armour_save": [1], "*": [6] * 20}, m="baz",
              t="gob")
    assert volleys(fizz, "gob") == [1] and strengths(fizz, "gob") == [3]
    assert fizz.unit("gob").models == 23 and fizz.state.alive(fizz.unit("baz"))


# ---------------------------------------------------------------- the skyrocket


def test_l1670_a_rocket_landing_in_a_unit_strikes_2d6_s5_hits_none_twice(tmp_path: Path) -> None:
    # The crew's centre at y 30, the 24 Goblins' ranks at y 7.6..12.4: the policy throws 5D6
    # (17.6" to their front); 20 lands at y 10, inside them; 2D6 = 11 hits at S5, -2, D4.
    w = world(tmp_path, engine("sky", "goblin_skyrocket", y=30, models=2), block("gob", 10, 24))
    w.call("fire_rocket", {"rocket_flight": [4] * 5, "rocket_hits": [5, 6], "D4": [1] * 11,
                           "*": [6] * 40}, m="sky", t="gob")
    assert volleys(w, "gob") == [11] and strengths(w, "gob") == [5] * 11


def test_l1671_a_rocket_landing_clear_hits_every_model_within_6_inches_at_s3(
        tmp_path: Path) -> None:
    # 5D6 = 10 toward the Goblins 17.6" off: it lands at y 20, 7.6" from their front: no
    # model within 6"; 5D6 = 14 lands at y 16, 3.6" from it: the front two ranks (3.6" and
    # 4.8" away, the outer files 4.3" and 5.4") are within 6", the fourth rank (7.2") not.
    w = world(tmp_path, engine("sky", "goblin_skyrocket", y=30, models=2), block("gob", 10, 24))
    w.call("fire_rocket", {"rocket_flight": [2] * 5, "*": [6] * 40}, m="sky", t="gob")
    assert volleys(w, "gob") == []
    w2 = world(tmp_path, engine("sky", "goblin_skyrocket", y=30, models=2), block("gob", 10, 24))
    w2.call("fire_rocket", {"rocket_flight": [2, 2, 2, 4, 4], "*": [6] * 60}, m="sky", t="gob")
    [hits] = volleys(w2, "gob")
    assert 12 <= hits <= 18 and strengths(w2, "gob") == [3] * hits


def test_l1672_any_die_showing_1_bursts_the_rocket_in_the_air(tmp_path: Path) -> None:
    w = world(tmp_path, engine("sky", "goblin_skyrocket", y=30, models=2), block("gob", 10, 24))
    w.call("fire_rocket", {"rocket_flight": [6, 1, 6, 3, 2], "*": [6] * 40}, m="sky", t="gob")
    assert w.logs("bursts in the air") == [["sky"]] and volleys(w, "gob") == []
    burst = w.exact("rocket_flight", n=3)
    assert sum(p for f, p in burst.items() if field_of(f, "burst")) == 1 - Fraction(5, 6) ** 3


def test_l1668_the_policy_throws_the_dice_whose_average_is_nearest(tmp_path: Path) -> None:
    w = world(tmp_path, engine("sky", "goblin_skyrocket", y=30, models=2), block("gob", 10, 24))
    # 17.6" to the front, aimed an inch inside: 18.6" is nearest 5 dice (17.5")
    assert w.call("rocket_choices", m="sky", t="gob")[0] == 5


def test_we80_l1456_two_ogres_destroy_an_engine_on_a_3_or_more(tmp_path: Path) -> None:
    # +1 the first Ogre's S4, +1 the second model, +1 the second Ogre's S4: +3, a D6 of 3+.
    w = world(tmp_path, block("gob", 10, 24))
    assert w.call("wrecking_bonus", strengths=[4, 4]) == 3
    assert w.exact("destroy_engine", strengths=[4, 4]).probability(True) == Fraction(4, 6)
    assert w.exact("destroy_engine", strengths=[3]).probability(True) == Fraction(1, 6)


def test_we85_l1680_a_kamikaze_guides_the_landing_point_within_2d6_inches(tmp_path: Path) -> None:
    # WE-85, L1680: the landing point moves anywhere within the 2D6 guidance, 3 + 5: 8". The
    # 5D6 scripted to 10 land at y 20, 7.6" short of the Goblins' front (y 12.4); the aim an
    # inch inside it (rocket_choices) is 8.2" on: the 8" of guidance put the point at y 12,
    # inside them: 2D6 = 11 hits at S5 (L1669). With 3 + 4 (7") it lands at y 13, short: the
    # blast disperses at S3 (L1670). Each Kamikaze fires once (L1679): the third rocket of a
    # team of two is a normal one.
    def fire(guide: list[int]) -> World:
        w = world(tmp_path, engine("sky", "goblin_skyrocket", y=30, models=2) | {
            "rules": ["Skyrocket (2)", "Rocket Kamikaze (2)"]}, block("gob", 10, 24))
        w.call("fire_rocket", {"rocket_flight": [2] * 5, "kamikaze_guidance": guide,
                               "rocket_hits": [5, 6], "D4": [1] * 11, "*": [6] * 60},
               m="sky", t="gob")
        return w
    w = fire([3, 5])
    assert w.logs("a kamikaze guides the rocket") == [["sky", 8]]
    assert volleys(w, "gob") == [11] and strengths(w, "gob") == [5] * 11
    w = fire([3, 4])
    [hits] = volleys(w, "gob")
    assert strengths(w, "gob") == [3] * hits
    for _ in range(2):
        w.call("fire_rocket", {"rocket_flight": [6, 1, 6, 3, 2], "kamikaze_guidance": [6, 6]},
               m="sky", t="gob")
    assert len(w.logs("a kamikaze guides the rocket")) == 1 and counter(w, "kamikazes_fired", "sky") == 2


def bombardier(e: dict) -> dict:
    """The engine with its battery's bombardier (the rule Bombardiers, L1213-L1220)."""
    return e | {"rules": [*e.get("rules", []), "Bombardiers"]}


def test_we83_l1218_a_bombardier_makes_a_3_man_cannons_d4_d4_plus_1(tmp_path: Path) -> None:
    # WE-83, L1218: a 3-man cannon's D4 wounds a hit (L1506) are D4+1 with a bombardier
    # present. The Giants (W6, T6: the S7 shot damages on a 2, L331-L337) take the line's two
    # hits on their one rank; the D4s 3 and 2 do 4 and 3 wounds: 7, one Giant slain and 1 on
    # the other. Without him, 3 and 2: 5, no Giant slain.
    giants = unit("g", "humans", 36, 20, 0, models=2, files=2, base=BASE, profile="monsters/giant")
    w = world(tmp_path, bombardier(engine("gun", "human_cannon")), giants)
    w.call("fire_line", {"D4": [3, 2], "*": [6] * 20}, m="gun", t="g")
    assert volleys(w, "g") == [2] and (w.unit("g").models, w.unit("g").wounds) == (1, 5)  # of 12
    w = world(tmp_path, engine("gun", "human_cannon"), giants)
    w.call("fire_line", {"D4": [3, 2], "*": [6] * 20}, m="gun", t="g")
    assert (w.unit("g").models, w.unit("g").wounds) == (2, 7)


def test_we83_l1216_a_bombardier_shortens_a_stone_throwers_miss_by_2_inches(tmp_path: Path) -> None:
    # WE-83, L1216: the lobbed shot's 2D20 both 12 (the better still deviates); a shot
    # missing by 4" becomes a 2" miss (the D20's 12 o'clock overshoots
    # along the line of fire, L1493): 2D6 = 2 + 2 puts the template at y 8 (not 6); a miss
    # by 1" or 2" becomes a hit: 1 + 1 leaves it on the target's centre (y 10).
    for dice, y in (([2, 2], 8.0), ([1, 1], 10.0)):
        w = world(tmp_path, bombardier(engine("st", "goblin_stone_thrower")), block("gob", 10, 24))
        w.call("fire_template", {"engine_d20": [12, 12], "deviation_distance": dice, "D4": [1] * 8,
                                 "*": [6] * 20}, m="st", t="gob")
        [[x, to_y]] = moves(w)
        assert (round(x, 6), round(to_y, 6)) == (36.0, y)
        assert volleys(w, "gob") == [4]


def test_l1217_l1219_a_bombardier_adds_1_to_a_bolt_and_guides_a_rocket_3_inches(tmp_path: Path) -> None:
    # L1217: +1 to hit for a bolt thrower: 4+ within half range becomes 3+ (4 of 6).
    w = world(tmp_path, bombardier(engine("bolt", "human_bolt_thrower")), block("gob", 20, 18))
    assert w.exact("bolt_to_hit", inches=24, longest=48, engine="bolt").probability(True) == Fraction(2, 3)
    w.call("fire_bolt", {"bolt_to_hit": [3], "wound_at": [1], "*": [6] * 20}, m="bolt", t="gob")
    assert strengths(w, "gob") == [5]
    # L1219: a skyrocket's landing point moved up to 3" toward the aim: the 5D6 of 15 land at
    # y 15, 2.6" short of the Goblins' front (y 12.4), the aim 3.2" on: 3" lands it at y 12,
    # inside them (2D6 = 11 S5 hits, L1669); without him it disperses.
    sky = engine("sky", "goblin_skyrocket", y=30, models=2)
    w = world(tmp_path, bombardier(sky), block("gob", 10, 24))
    w.call("fire_rocket", {"rocket_flight": [3] * 5, "rocket_hits": [5, 6], "D4": [1] * 11,
                           "*": [6] * 60}, m="sky", t="gob")
    assert w.logs("a kamikaze guides the rocket") == [] and volleys(w, "gob") == [11]
    w = world(tmp_path, sky, block("gob", 10, 24))
    w.call("fire_rocket", {"rocket_flight": [3] * 5, "*": [6] * 60}, m="sky", t="gob")
    assert strengths(w, "gob") == [3] * volleys(w, "gob")[0]
