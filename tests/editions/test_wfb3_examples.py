"""wfb3 worked examples (the digest's section 11, WE-nn) not reproduced elsewhere, and the
rules of standards, musicians and the army standard (seed 003_9d43467ba19595d2.txt,
L710-L731, L1331-L1339, L2935).

Each test names its 003 line and runs the ruleset's own declarations: exact odds of its
tests, or its actions in a small battle (fixed positions) with scripted dice. The other
worked examples are in test_wfb3.py, test_wfb3_tables.py, test_wfb3_psychology.py,
test_wfb3_magic.py and test_wfb3_points.py; rulesets/wfb3/README.md lists them all, and the
ones not reproduced with the reason. 2D6 shows a total of t or less in 1, 3, 6, 10, 15, 21,
26, 30, 33, 35, 36 ways of 36 for t = 2..12.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from helpers.aos4_probe import Probe
from helpers.wfb3_battle import battle, unit

from rules_run.chance import enumerate_exact

F = Fraction


def passes(p: Probe, test: str, **args: Any) -> Fraction:
    """The exact chance that a test of the probe's ruleset passes."""
    rt = p.runtime
    bound = {k: p.unit.get(v, v) if isinstance(v, str) else v for k, v in args.items()}
    dist = enumerate_exact(lambda chance: bool(rt.invoke(test, rt.env(chance, {}), dict(bound)).passed))
    return dist.probability(True)


def value(p: Probe, uid: str, name: str = "Ld") -> Any:
    """The unit's value for a test (psychology.rules' unit_value)."""
    return p.runtime.invoke("unit_value", p.env, {"u": p.unit[uid], "name": name})


def join(p: Probe, follower: str, host: str) -> None:
    """A character joins a unit (L1136, attach)."""
    f, h = p.unit[follower], p.unit[host]
    f.leader = h
    h.followers.append(f)


# ============================================================== formations (L173-L174)


def test_we13_we14_only_complete_ranks_count(tmp_path: Path) -> None:
    # WE-13, L174: 15 in double rank are 7 + 7 and 1 at the rear: 2 ranks, 1 behind the
    # first (+1 on the result, L526). WE-14: 20 in three ranks are 6 + 6 + 6 and 2: 3 ranks,
    # +2. Every blow of the round misses, so the result is the charge and the ranks alone.
    path = battle(tmp_path, unit("double", "a", "humans/human", 10, 15, 7),
                  unit("triple", "b", "humans/human", 14, 20, 6))
    p = Probe("wfb3", path, dice={"to_hit": [1] * 40}, active="a")
    p("complete_charge", u="double", t="triple")
    p("fight_round", u="double")
    assert p.counter("round_ranks", "double") == 1
    assert p.counter("round_ranks", "triple") == 2
    # the chargers 1 + 1 rank against 0 + 2 ranks: a draw, nobody pushed back (L532)
    assert p.logged("the combat is drawn") == [["double", 2]]


def test_we31_casualties_come_off_the_rear_rank(tmp_path: Path) -> None:
    # WE-31, L391-L392: two ranks of 6 suffer one casualty, then a second: each comes off the
    # rear rank (never the front, which may not be shorter than the rank behind), so the
    # front stays 6 and the rear rank is 4. The battle always removes from the rear (the
    # player's other choice, L392, two off one flank for a frontage of 5, is not offered:
    # README.md). A Goblin's free hack (S3 against T3: a 4 damages) kills a longbowman each
    # time (no armour, no save, L343); the 6 of the front rank still strike.
    path = battle(tmp_path, unit("men", "a", "humans/longbowman", 10, 12, 6),
                  unit("gob", "b", "goblins/goblin", 12, 1, 1))
    p = Probe("wfb3", path, dice={"to_wound": [4, 4]}, active="b")
    assert p("melee_attacks", attacker="men", target="gob") == 6
    p("hack", c="gob", r="men")
    assert p.unit["men"].models == 11
    assert p("melee_attacks", attacker="men", target="gob") == 6
    p("hack", c="gob", r="men")
    assert p.unit["men"].models == 10
    assert p("melee_attacks", attacker="men", target="gob") == 6


# ============================================================== manoeuvres (L212-L214, L729)


def test_we20_a_second_manoeuvre_needs_a_leadership_test(tmp_path: Path) -> None:
    # WE-20, L212-L214: a second or third manoeuvre passes on 2D6 <= Ld (Humans 7: 21 of 36);
    # a fourth is never allowed, and a unit without a leader makes only one (L695). L729: a
    # musician adds +1 (26 of 36), never above 10: men of Ld 9 with a musician test on 10
    # (33 of 36), and a Ld 10 unit stays at 10.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10),
                  unit("band", "a", "humans/human", 10, x=10, extra=", command: {musician: true}"),
                  unit("steady", "a", "humans/human", 10, x=60,
                       extra=", command: {musician: true}, characteristics: {Ld: 9}"),
                  unit("foes", "b", "goblins/goblin", 40))
    p = Probe("wfb3", path, active="a")
    assert passes(p, "manoeuvre_test", unit="men") == F(21, 36)
    assert passes(p, "manoeuvre_test", unit="band") == F(26, 36)
    assert passes(p, "manoeuvre_test", unit="steady") == F(33, 36)
    p.unit["steady"].profile["Ld"] = 10
    assert passes(p, "manoeuvre_test", unit="steady") == F(33, 36)
    assert p("manoeuvres_allowed", u="men") == 3
    assert p("manoeuvres_allowed", u="men", leader=False) == 1


# ============================================================== damage (L330, L339)


def test_we25_a_crossbow_bolt_against_toughness_3(tmp_path: Path) -> None:
    # WE-25, L330, L341: a missile of S4 against T3 needs 3 on the Damage Chart: 4 of 6.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("gobs", "b", "goblins/goblin", 40))
    p = Probe("wfb3", path, active="a")
    assert passes(p, "wound_at", strength=4, target="gobs") == F(4, 6)


def test_we26_wounds_remove_whole_models(tmp_path: Path) -> None:
    # WE-26, L338-L339: 4 wounds on a unit of creatures with 2 wounds each remove two
    # models, not one wound on each of four. Four Humans (S3) strike a free hack at four
    # heroes (T4, W2, no armour: no save, L343): 5s to damage, the dice 6 6 5 5 damage four
    # times. A model of 4 wounds taking 1 has 3 left; a Human (W1) taking 1 is removed.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, 4, 4),
                  unit("heroes", "b", "psychology/human_hero", 12, 4, 4),
                  unit("giant", "b", "humans/human", 30, 1, 1, extra=", characteristics: {W: 4}"),
                  unit("man", "b", "humans/human", 40, 1, 1, x=10))
    p = Probe("wfb3", path, dice={"to_wound": [6, 6, 5, 5, 6, 6]}, active="a")
    p("hack", c="men", r="heroes")
    assert p.unit["heroes"].models == 2
    p.unit["men"].models = 1
    p("hack", c="men", r="giant")
    assert (p.unit["giant"].models, p.unit["giant"].wounds) == (1, 3)
    p("hack", c="men", r="man")
    assert p.unit["man"].models == 0


# ============================================================== panic (L667)


def test_we56_four_times_the_routers_models_tests_at_cool_plus_one(tmp_path: Path) -> None:
    # WE-56, L666-L667: a friendly unit of 5 routs within 12"; a unit of 20 (four times as
    # many) tests for panic on Cl 7 + 1 = 8, and a score of 8 (4 + 4) passes. A unit of 19
    # tests on 7: the same 8 fails.
    path = battle(tmp_path, unit("routers", "a", "humans/human", 20, 5, 5),
                  unit("twenty", "a", "humans/human", 12, 20, 10),
                  unit("nineteen", "a", "humans/human", 28, 19, 10),
                  unit("foes", "b", "goblins/goblin", 44))
    p = Probe("wfb3", path, dice={"panic_test": [4, 4, 4, 4]}, active="a")
    failed = p("panic_at_rout", router="routers")
    assert [u.id for u in failed] == ["nineteen"]
    assert len(p.events("test", rule="panic_test")) == 2 and not p.chance.remaining()


# ============================================================== standards (L717, L1334, L2935)


def standards(tmp_path: Path, *extra: str) -> Probe:
    """Humans with their standard in the front rank against Goblins, with extra units."""
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, 10, 10, extra=", command: {standard: true}"),
                  unit("gobs", "b", "goblins/goblin", 12, 10, 10), *extra)
    return Probe("wfb3", path, active="a")


def test_the_standard_adds_one_to_the_result(tmp_path: Path) -> None:
    # L717 (WE-43 plays it in a round, test_wfb3.py): +1 while the standard flies; a unit that
    # routed dropped it (L731).
    p = standards(tmp_path)
    assert p("standards_bonus", x="men") == 1
    assert p("standards_bonus", x="gobs") == 0
    p.unit["men"].statuses["standard_dropped"] = None
    assert p("standards_bonus", x="men") == 0


def test_we64_a_unit_and_an_army_standard_add_two(tmp_path: Path) -> None:
    # WE-64, L1334: the army standard works as a unit standard for the unit it is with, and
    # with the unit's own standard the unit adds +2 to its casualties caused: a round of 3
    # wounds with 10 in the front rank and no rank behind scores 5.
    p = standards(tmp_path, unit("bearer", "a", "psychology/human_hero", 8, 1, 1, extra=", rules: [Army Standard]"))
    join(p, "bearer", "men")
    assert p("standards_bonus", x="men") == 2
    p.set_counter("wounds_caused", "men", 3)
    p.set_counter("round_front", "men", 10)
    assert p("combat_score", x="men") == 5
    p.unit["bearer"].models = 0       # the bearer slain: his standard's bonus is gone
    assert p("standards_bonus", x="men") == 1


def test_an_army_standard_is_captured_once(tmp_path: Path) -> None:
    # L1337, L2155: the unit with the army standard routs from combat: the enemy captures it
    # (100 points) with the unit's own standard (50); routing again takes nothing more.
    p = standards(tmp_path, unit("bearer", "a", "psychology/human_hero", 8, 1, 1, extra=", rules: [Army Standard]"))
    join(p, "bearer", "men")
    p("drop_standards", r="men", captors=[p.unit["gobs"]])
    p("drop_standards", r="men", captors=[p.unit["gobs"]])
    assert p.logged("captures the army standard") == [["gobs", "men"]]
    assert p("trophy_points", s="b") == 150
    assert p("standards_bonus", x="men") == 0


def test_we65_battlecall_and_a_standard_add_two(tmp_path: Path) -> None:
    # WE-65, L2935: the magic instrument Battlecall adds +1 to the combat result, cumulative
    # with the standard's +1: +2.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, 10, 10,
                                 extra=", command: {standard: true, musician: true}, rules: [Battlecall]"),
                  unit("gobs", "b", "goblins/goblin", 12, 10, 10))
    p = Probe("wfb3", path, active="a")
    assert p("standards_bonus", x="men") == 2


def test_a_standard_dropped_in_combat_is_captured(tmp_path: Path) -> None:
    # L731: a unit routing from combat drops its standard, which the enemy captures; L723: its
    # Ld drops by 2 (Humans 7 to 5); L2154: 50 points for the captors. Routing with no enemy
    # in contact (a panic), the standard is lost, not captured: -1 Ld.
    dice = {"to_wound": [1] * 20}
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, 10, 10, extra=", command: {standard: true}"),
                  unit("gobs", "b", "goblins/goblin", 12, 10, 10),
                  unit("bows", "a", "humans/human", 10, 10, 10, x=0, extra=", command: {standard: true}"))
    p = Probe("wfb3", path, dice=dice, active="b")
    p("complete_charge", u="gobs", t="men")
    p("begin_rout", r="men", w="gobs")
    assert p.logged("captures the standard") == [["gobs", "men"]]
    assert p.unit["men"].profile["Ld"] == 7 and value(p, "men") == 5
    assert p("trophy_points", s="b") == 50 and p("trophy_points", s="a") == 0
    p("begin_rout", r="bows", w=None)
    assert "standard_lost" in p.unit["bows"].statuses
    assert value(p, "bows") == 6
    assert p("trophy_points", s="b") == 50


def test_the_army_standard_helps_units_rally_within_12_inches(tmp_path: Path) -> None:
    # L1336: a friendly unit within 12" of the army standard adds +1 to its Ld to rally.
    p = standards(tmp_path, unit("bearer", "a", "psychology/human_hero", 0, 1, 1, extra=", rules: [Army Standard]"),
                  unit("far", "a", "humans/human", 10, 10, 10, x=70))
    assert p("rally_bonus", u="men") == 1
    assert p("rally_bonus", u="far") == 0


# ============================================================== multiple combats (L1896-L1898)


def test_a_unit_beaten_front_and_rear_is_pushed_back_where_it_stands(tmp_path: Path) -> None:
    # L1898: a unit attacked from the front and the back loses: nobody moves, the losers are
    # taken as pushed back and the winners have the +1 to hit of following up (attacked from
    # the front only, it moves 2" back, L528: test_wfb3.py).
    behind = ("{id: behind, side: b, profile: goblins/goblin, models: 10, files: 10, "
              "position: {x: 36, y: 12, facing: 0}}")
    path = battle(tmp_path, unit("mid", "a", "humans/human", 20, 10, 10),
                  unit("ahead", "b", "goblins/goblin", 26, 10, 10), behind)
    p = Probe("wfb3", path, active="b")
    p("complete_charge", u="ahead", t="mid")
    assert p("caught_front_and_rear", l="mid") is False
    p("complete_charge", u="behind", t="mid")
    assert p("caught_front_and_rear", l="mid") is True
    where = {k: u.pose for k, u in p.unit.items()}
    p("push_back", l="mid", w="ahead")
    assert {k: u.pose for k, u in p.unit.items()} == where
    assert all("followed_up" in p.unit[k].statuses for k in ("ahead", "behind"))
    assert p.logged("is pushed back") == [["mid", "ahead"]]


# ============================================================== moving over the ground (L145-L158)
# One model (a 20 mm base, D inches deep) moves up the table at a foe 30" off; the pieces lie
# across its way. `close_in` is the movement phase's move (battle.rules, ground_move); the
# model's front and rear are read from where it ends.

D = 20 / 25.4


def piece(pid: str, y0: float, y1: float, *effects: str) -> str:
    """A battlefield piece across the table's middle from y0 to y1."""
    return (f"{{id: {pid}, kind: {pid}, at: {{x: 36, y: {(y0 + y1) / 2}}}, "
            f"size: {{w: 30, h: {y1 - y0}}}, effects: [{', '.join(effects)}]}}")


def walker(tmp_path: Path, *pieces: str, extra: str = "", profile: str = "humans/human") -> Probe:
    """The model (its front at y = 10) and the foe, with the pieces."""
    path = battle(tmp_path, unit("m", "a", profile, 10 - D / 2, 1, 1, extra=extra),
                  unit("foe", "b", "goblins/goblin", 44), terrain=", ".join(pieces))
    return Probe("wfb3", path, active="a")


def walk(p: Probe) -> tuple[float, float]:
    """The model makes its move; its front and rear (y) where it ends, to 1/1000"."""
    p("close_in", u="m", inches=p("move_allowance", u="m"), short=1)
    y = p.unit["m"].pose.y
    return round(y + D / 2, 3), round(y - D / 2, 3)


def test_we04_four_inches_through_a_wood_are_two(tmp_path: Path) -> None:
    # WE-04, L145: a move of 4" made wholly in a wood (difficult ground) is 2".
    p = walker(tmp_path, piece("wood", 5, 30, "Wood"))
    assert walk(p)[0] == 12


def test_l146_one_inch_to_the_wood_then_half_rate_inside(tmp_path: Path) -> None:
    # L146: the edge of the wood 1" away: 1" at the normal rate, and the 3" left go 1 1/2"
    # inside it.
    p = walker(tmp_path, piece("wood", 11, 30, "Wood"))
    assert walk(p)[0] == 12.5


def test_we05_three_and_a_half_inches_in_difficult_ground_round_up_to_two(tmp_path: Path) -> None:
    # WE-05, L145: a move of 3 1/2" (a Goblin with light armour and shield, L130) across
    # difficult ground is 1 3/4", rounded up to the nearest 1/2": 2" (the printed "1"" is a
    # slip, digest 13). Skirmishers lose a quarter (L1321): 3 1/2 x 3/4 = 2 5/8, 3".
    ground = piece("scrub", 5, 30, "Difficult Ground")
    p = walker(tmp_path, ground, profile="goblins/goblin", extra=", equipment: [light_armour, shield]")
    assert p("move_allowance", u="m") == 3.5
    assert walk(p)[0] == 12
    s = walker(tmp_path, ground, profile="goblins/goblin",
               extra=", equipment: [light_armour, shield], rules: [Skirmishers]")
    assert walk(s)[0] == 13


def test_we07_a_hedge_one_inch_away_is_crossed_with_an_inch_to_spare(tmp_path: Path) -> None:
    # WE-07, L151-L152: M4, a hedge 1" away: 1" to it, 2" (half the move) to get over, placed
    # beyond it, and 1" more: the model's rear ends 1" past the hedge.
    p = walker(tmp_path, piece("hedge", 11, 11.5, "Obstacle", "Soft Cover"))
    assert walk(p)[1] == 12.5


def test_we08_a_hedge_two_inches_away_is_crossed_with_nothing_left(tmp_path: Path) -> None:
    # WE-08, L152: the hedge 2" away: 2" to it and 2" over it: placed just beyond it (its
    # rear at the hedge's far side), nothing left. From 3" away the 1" left is not enough to
    # cross: it halts before the hedge and loses that inch (L151-L152).
    p = walker(tmp_path, piece("hedge", 12, 12.5, "Obstacle", "Soft Cover"))
    assert walk(p)[1] == 12.5
    q = walker(tmp_path, piece("hedge", 13, 13.5, "Obstacle", "Soft Cover"))
    assert walk(q)[0] == 13


def test_we10_a_ditch_in_a_wood_costs_half_the_reduced_move(tmp_path: Path) -> None:
    # WE-10, L157: M4 in a wood is 2"; a ditch in the wood costs half of that, 1": the model
    # goes 1/2" to the ditch, crosses it, and has 1/2" left beyond it (1/2 + 1/2 + 1 = 2).
    p = walker(tmp_path, piece("wood", 5, 30, "Wood"), piece("ditch", 10.5, 11, "Obstacle"))
    assert walk(p)[1] == 11.5


def test_we11_a_hedge_bounding_a_wood_one_inch_away(tmp_path: Path) -> None:
    # WE-11, L158: M4 in a wood (2"), the hedge at its edge 1" away: 1" to the hedge, 1" to
    # cross it: over it, nothing left (its rear at the hedge's far side).
    p = walker(tmp_path, piece("wood", 5, 11, "Wood"), piece("hedge", 11, 11.5, "Obstacle", "Soft Cover"))
    assert walk(p)[1] == 11.5


# ============================================================== flyers' heights (L1776, L1794-L1803)


def test_we86_a_height_level_adds_to_the_range(tmp_path: Path) -> None:
    # WE-86, L1776, L1796: a flyer at +10, 10" from the archers across the table, counts as
    # 20" away (the true distance would be about 15"): a long bow (30") reaches it; a short
    # bow (16") does not. The same flyer at the attack level is a ground target (L1795): 10".
    def archers(profile: str, height: int) -> Probe:
        path = battle(tmp_path, unit("bows", "a", profile, 10 - D / 2, 10, 10),
                      unit("bird", "b", "humans/human", 20 + D / 2, 1, 1,
                           extra=f", values: {{height: {height}}}"))
        return Probe("wfb3", path, active="a")
    p = archers("humans/longbowman", 10)
    assert round(p("shot_range", u="bows", t="bird"), 6) == 20
    assert p("in_sight_and_range", u="bows", e="bird") is True
    assert archers("goblins/goblin_archer", 10)("in_sight_and_range", u="bows", e="bird") is False
    assert archers("goblins/goblin_archer", 0)("in_sight_and_range", u="bows", e="bird") is True
    assert round(archers("humans/longbowman", 0)("shot_range", u="bows", t="bird"), 6) == 10
    # L1803, air to air: +30 to +10 measures the horizontal range only (down two levels),
    # +10 to +30 adds 20", +40 to +10 adds 10" (three levels down, one beyond two), and the
    # attack level to +20 is two levels: +20". L1801: a flyer at +30 shooting at the ground
    # adds 10", at +20 nothing.
    assert [p("height_range", shooter=s, target=t)
            for s, t in [(30, 10), (10, 30), (40, 10), (0, 20), (30, 0), (20, 0), (0, 10)]] \
        == [0, 20, 10, 20, 10, 0, 10]
