"""wfb3 magic standards, instruments and items that cast or protect (seed
003_9d43467ba19595d2.txt L2903-L2939), and the other catalogue rules of specials.rules
played through the battle's phases: each test names the 003 line it checks, with scripted
dice or exact odds worked out by hand."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.aos4_probe import Probe
from helpers.wfb3_battle import battle, unit
from helpers.wfb3_world import Duel, World, u
from rules_run.engine.builtins import BUILTINS

F = Fraction
STANDARD = ", command: {standard: true}"


def test_l2910_l2911_magic_standards_cast_in_their_sides_magic_phase(tmp_path: Path) -> None:
    # L2911: a hellfire banner casts a fire ball each Magic phase of its side: D3 (2) S3 hits
    # at 24" (each a 4 on the damage chart against T3: 6, 6), no magic points.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, extra=STANDARD + ", rules: [Hellfire Banner]"),
                  unit("gobs", "b", "goblins/goblin", 30))
    p = Probe("wfb3", path, dice={"spell_d3": [2], "spell_damage": [6, 6]}, active="a")
    p("magic_phase")
    assert p.logged("the standard casts") == [["men", "gobs"]]
    assert p.logged("magic missile hits") == [["gobs", 2, 2]] and p.unit["gobs"].models == 8
    # not in the enemy's Magic phase, and not beyond 24"
    q = Probe("wfb3", path, dice={"spell_d3": [2], "spell_damage": [6, 6]}, active="b")
    q("magic_phase")
    assert q.logged("the standard casts") == []
    far = battle(tmp_path, unit("men", "a", "humans/human", 10, extra=STANDARD + ", rules: [Icon of Divine Wrath]"),
                 unit("gobs", "b", "goblins/goblin", 40))
    r = Probe("wfb3", far, active="a")
    r("magic_phase")
    assert r.logged("the standard casts") == []


def test_l2910_the_icon_strikes_at_strength_4_and_is_lost_with_its_standard(tmp_path: Path) -> None:
    # L2910: a lightning bolt, D3 (3) S4 hits: 3 on the chart against T3 (3, 3, 2: two
    # damage); L2923: a dropped or captured standard has lost its magic.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, extra=STANDARD + ", rules: [Icon of Divine Wrath]"),
                  unit("gobs", "b", "goblins/goblin", 30))
    p = Probe("wfb3", path, dice={"spell_d3": [3], "spell_damage": [3, 3, 2]}, active="a")
    p("magic_phase")
    assert p.logged("magic missile hits") == [["gobs", 3, 2]]
    p("drop_standards", r="men", captors=[p.unit["gobs"]])
    p("magic_phase")
    assert len(p.logged("the standard casts")) == 1


def test_l2918_the_bane_banner_routs_a_unit_that_fails_its_magic_save(tmp_path: Path) -> None:
    # L2918, L2389: the army standard's cause cowardly flight at 24": the Goblins (WP 5)
    # save on 2D6 <= 5; 6 + 6 fails and they rout; 1 + 2 saves.
    hero = unit("bearer", "a", "psychology/human_hero", 10, models=1, files=1,
                extra=", rules: [Army Standard, Bane Banner]")
    path = battle(tmp_path, hero, unit("gobs", "b", "goblins/goblin", 30))
    p = Probe("wfb3", path, dice={"magic_save": [6, 6]}, active="a")
    p("magic_phase")
    assert p.logged("the standard casts") == [["bearer", "gobs"]]
    assert p.logged("routs under the spell") == [["gobs"]]
    q = Probe("wfb3", path, dice={"magic_save": [1, 2]}, active="a")
    q("magic_phase")
    assert q.logged("resists the spell") == [["gobs"]] and q.logged("routs under the spell") == []


def test_l2919_the_amuletic_standard_saves_on_10_and_nullifies_magic_missiles(tmp_path: Path) -> None:
    # L2919: the army standard's bearer and the unit he is with have a magic save of 10
    # (33 of 36, instead of the Men's WP 7: 21 of 36); spells without a save, magic missiles
    # among them, are nullified; unstable troops meeting the unit test at once, at -2.
    w = World(tmp_path, [u("men", "a", 36, 10), u("bearer", "a", 36, 8, "psychology/human_hero", models=1, files=1,
                                                  rules=["Army Standard", "Amuletic Standard"]),
                         u("wiz", "b", 36, 20, "psychology/wizard", models=1, files=1, facing=180),
                         u("ghosts", "b", 30, 12, "psychology/skeleton", facing=180)])
    assert w.passes("magic_save", target="men") == F(21, 36)
    men, bearer = w.unit("men"), w.unit("bearer")
    bearer.leader = men
    men.followers.append(bearer)
    assert w.passes("magic_save", target="men") == F(33, 36)
    assert w.passes("magic_save", target="bearer") == F(33, 36)
    w.call("start_wizards")
    w.call("cast_spell", {"spell_count": [1]}, s="fire_ball", w="wiz", target="men")
    assert w.logs("the magic is nullified") == [["men"]] and w.logs("magic missile hits") == []
    w.call("warded_contact", {"instability_roll": [3]}, u="ghosts", t="men")
    # a 3, less 2: the first row of the table, ebbing (L2977)
    assert "ebbing" in w.unit("ghosts").statuses


def test_l1165_a_sub_commander_lends_his_bonus_to_his_own_race_within_his_range(tmp_path: Path) -> None:
    # L1165: the General's bonus, within the 2D6" rolled before the game (here 11, then 7:
    # the sub-commander stands 10" away) and to units of his race only (L1166): men (Ld 7)
    # near a Ld 10+3 sub-commander test on 10; a Dwarf sub-commander does not reach them, an
    # undead one reaches any race.
    def world(rng: int, race: str = "HUMAN", keywords: tuple[str, ...] = ()) -> World:
        sub = u("sub", "b", 36, 50, "psychology/human_hero", models=1, files=1, keywords=["HUMAN", *keywords],
                rules=[f"Sub-Commander ({rng}, {race})", "Leader Bonus (3, 2, 3, 3)"])
        return World(tmp_path, [u("gobs", "a", 36, 10, "goblins/goblin"),
                                u("men", "b", 36, 40, "humans/human", facing=180, keywords=["HUMAN"]), sub])
    assert world(11).call("rout_value", u="men") == 10
    assert world(7).call("rout_value", u="men") == 7
    assert world(11, "DWARF").call("rout_value", u="men") == 7
    assert world(11, "DWARF", ("UNDEAD",)).call("rout_value", u="men") == 10


WOOD = {"id": "wood", "kind": "forest", "name": "Wood", "at": {"x": 56, "y": 36}, "size": {"w": 12, "h": 12},
        "effects": ["Wood"]}


def test_l1245_foresters_move_through_woods_at_full_rate_but_make_no_reserve_move_there(tmp_path: Path) -> None:
    # L1245: M4 in a wood: 2" for others (L145), 4" for foresters; and no reserve move in it.
    w = World(tmp_path, [u("f", "a", 56, 36, models=5, files=5, rules=["Foresters"]),
                         u("m", "a", 56, 32, models=5, files=5),
                         u("o", "a", 20, 10, models=5, files=5, rules=["Foresters"]), u("b", "b", 10, 46, facing=180)],
              battlefield={"width": 72, "depth": 48, "terrain": [WOOD]})
    assert w.call("move_rate", u="f") == 4 and w.call("move_rate", u="m") == 2
    assert w.call("may_reserve", u="f") is False and w.call("may_reserve", u="m") is True
    assert w.call("may_reserve", u="o") is True


def _wizard(**spec: object) -> dict:
    return u("wiz", "a", 36, 10, "psychology/wizard", models=1, files=1, **spec)


def _men(y: float = 30) -> dict:
    return u("men", "b", 36, y, "humans/human", facing=180)


def test_l2872_a_wizard_reads_a_scroll_for_1_point_and_it_is_gone(tmp_path: Path) -> None:
    # L2872: a level 2 wizard reads the level 4 Blast from his scroll: 1 magic point, no test,
    # D6 (2) S8 hits (each a 2 against T3: 6, 6); the spell is then gone, and he casts as usual.
    w = World(tmp_path, [_wizard(rules=["Spell (dispirit)", "Scroll (blast)"]), _men()])
    w.call("start_wizards")
    w.call("magic_phase_casts", {"spell_d6": [2], "spell_damage": [6, 6]}, side="a")
    assert w.logs("reads a scroll") == [["wiz", "blast", "men"]] and w.logs("casts") == []
    assert w.state.counters[("magic_points", "wiz")] == 19 and w.unit("men").models == 8
    assert w.call("scroll_spells", w="wiz") == []
    w.call("magic_phase_casts", {"magic_save": [6, 6]}, side="a")
    assert w.logs("casts") == [["wiz", "dispirit", "men"]]


def test_l2882_a_ring_casts_its_spell_and_may_run_out_from_the_second_use(tmp_path: Path) -> None:
    # L2881: a hero (no wizard) casts the ring's Blast: D6 (1) S8 hit, a 2 against T3 (6);
    # L2882: the second use first rolls a D6, and a 6 spends the ring.
    path = battle(tmp_path, unit("hero", "a", "psychology/human_hero", 10, models=1, files=1,
                                 extra=", rules: [Ring (blast)]"),
                  unit("gobs", "b", "goblins/goblin", 30))
    p = Probe("wfb3", path, dice={"spell_d6": [1], "spell_damage": [6], "ring_power": [6]}, active="a")
    p("magic_phase")
    assert p.logged("casts with a ring") == [["hero", "blast", "gobs"]] and p.unit["gobs"].models == 9
    p("magic_phase")
    assert p.logged("the ring is spent") == [["hero"]] and len(p.logged("casts with a ring")) == 1
    p("magic_phase")
    assert len(p.logged("the ring is spent")) == 1


def test_l2917_an_arcane_standard_is_a_reservoir_of_doubled_points_that_always_casts(tmp_path: Path) -> None:
    # L2917: 5 points placed before the battle make a reservoir of 10; a wizard within 12"
    # casts Dispirit (2 points) from it with no casting test although his own 4 points are
    # under 12; the men save on 6 + 6: failed. Out of reach, he tests (and 6 + 6 fails).
    bearer = u("bearer", "a", 40, 10, "psychology/human_hero", models=1, files=1,
               rules=["Army Standard", "Arcane Standard (5)"])
    w = World(tmp_path, [_wizard(values={"magic_level": 2, "power_level": 4}), bearer, _men()])
    w.call("start_wizards")
    w.state.fire(w.env(), "start_of_battle")
    assert w.state.counters[("arcane_points", "bearer")] == 10
    assert w.call("cast_spell", {"magic_save": [6, 6]}, w="wiz", s="dispirit", target="men") is True
    assert w.logs("draws on the arcane standard") == [["wiz", 2]] and w.tests("casting_test") == []
    assert w.state.counters[("arcane_points", "bearer")] == 8 and w.state.counters[("magic_points", "wiz")] == 4
    far = World(tmp_path, [_wizard(values={"magic_level": 2, "power_level": 4}),
                           u("bearer", "a", 70, 40, "psychology/human_hero", models=1, files=1,
                             rules=["Army Standard", "Arcane Standard (5)"]), _men()])
    far.call("start_wizards")
    assert far.call("cast_spell", {"casting_test": [6, 6]}, w="wiz", s="dispirit", target="men") is False


def _engage(w: World, a: str, b: str) -> None:
    w.unit(a).engaged.append(w.unit(b))
    w.unit(b).engaged.append(w.unit(a))


def _distance(w: World, a: str, b: str) -> float:
    return BUILTINS["distance"](w.state, w.env(), None, w.unit(a), w.unit(b))


def test_l1915_l1916_a_unit_withdraws_from_combat_and_may_be_caught(tmp_path: Path) -> None:
    # L1915: the Men (M4) turn and move 8" away, then a Ld test (7: 3 + 3 passes). L1916:
    # the Goblins (M5 here) pursue 10": they catch them, strike one free hack (all 1s) and
    # the Men rout whatever their test; Goblins holding back (Ld 5: 1 + 1) do not pursue,
    # and the Men stand.
    units = [u("men", "a", 36, 10, rules=["Voluntary Withdrawal"]),
             u("gobs", "b", 36, 12.2, "goblins/goblin", facing=180, characteristics={"M": 5})]
    orders = [{"round": 1, "side": "a", "unit": "men", "decision": "withdrawal_choice", "choose": "withdraw"}]
    w = World(tmp_path, units, orders=orders)
    _engage(w, "men", "gobs")
    w.call("withdraw", {"withdrawal_test": [3, 3], "free_hack": [1] * 10, "to_wound": [1] * 10}, u="men")
    assert w.logs("withdraws from the combat") == [["men"]] and w.logs("pursues") == [["gobs", "men"]]
    assert w.logs("strikes a free hack") != [] and w.logs("routs as it withdraws") == [["men"]]
    assert "routing" in w.unit("men").statuses and "pursuing" in w.unit("gobs").statuses
    h = World(tmp_path, units, orders=orders + [{"round": 1, "side": "b", "unit": "gobs", "decision": "pursuit_choice", "choose": "hold"}])
    _engage(h, "men", "gobs")
    h.call("withdraw", {"withdrawal_test": [3, 3], "pursuit_restraint_test": [1, 1]}, u="men")
    assert h.logs("holds back from the pursuit") == [["gobs"]] and "routing" not in h.unit("men").statuses
    assert _distance(h, "men", "gobs") >= 8
    # a failed test routs them where they stand
    f = World(tmp_path, units, orders=orders + [{"round": 1, "side": "b", "unit": "gobs", "decision": "pursuit_choice", "choose": "hold"}])
    _engage(f, "men", "gobs")
    f.call("withdraw", {"withdrawal_test": [6, 6], "pursuit_restraint_test": [1, 1]}, u="men")
    assert f.logs("routs as it withdraws") == [["men"]]


def test_l1936_a_unit_obliged_to_reform_may_retire_instead(tmp_path: Path) -> None:
    # L1936: unformed, the Men retire a normal move (4") away from the Goblins and stay
    # unformed; a unit without the option reforms.
    units = [u("men", "a", 36, 10, rules=["Retire and Reform"]), u("gobs", "b", 36, 30, "goblins/goblin", facing=180)]
    orders = [{"round": 1, "side": "a", "unit": "men", "decision": "retire_choice", "choose": "retire"}]
    w = World(tmp_path, units, orders=orders)
    before = _distance(w, "men", "gobs")
    assert w.call("retires", u="men") is True
    assert _distance(w, "men", "gobs") == before + 4
    assert w.logs("retires to reform") == [["men"]]
    plain = World(tmp_path, [u("men", "a", 36, 10), u("gobs", "b", 36, 30, "goblins/goblin", facing=180)])
    assert plain.call("retires", u="men") is False


ENGINE_BASE = {"w": 30.48, "d": 30.48}


def _block(uid: str, y: float, models: int, profile: str = "goblins/goblin") -> dict:
    return u(uid, "humans", 36, y, profile, models=models, files=6, base=ENGINE_BASE)


def _engine(uid: str, profile: str, **spec: object) -> dict:
    return u(uid, "goblins", 36, 40, f"war_engines/{profile}", facing=180, models=3, files=3, **spec)


def test_l1216_l1218_a_bombardier_lays_the_engines_of_his_battery(tmp_path: Path) -> None:
    # L1217: a bolt thrower within half its range hits on 4 (1/2), with him on 3 (2/3).
    b = World(tmp_path, [_engine("bolt", "human_bolt_thrower", rules=["Bombardiers"]), _block("gob", 20, 18)])
    assert b.exact("bolt_to_hit", inches=24, longest=48, engine="bolt").probability(True) == F(2, 3)
    assert b.exact("bolt_to_hit", inches=24, longest=48).probability(True) == F(1, 2)
    # L1216: a stone thrower rolls 2D20, the better of 5 and 15 on target (13+); two misses
    # (3 and 4) deviate toward the 4, 2D6 (1 + 2) less 2: 1".
    s = World(tmp_path, [_engine("st", "goblin_stone_thrower", rules=["Bombardiers"]), _block("gob", 10, 24)])
    s.call("fire_template", {"engine_d20": [5, 15], "D4": [1] * 4, "*": [1] * 40}, m="st", t="gob")
    assert s.logs("deviates") == []
    s.call("fire_template", {"engine_d20": [3, 4], "deviation_distance": [1, 2], "*": [1] * 40}, m="st", t="gob")
    assert s.logs("deviates") == [["st", 4, 1]]
    # L1218: a cannon's hits take 1 wound more: 2 ranks of Ogres (W3), two hits a rank, each
    # damaging (6s) with D4 = 1: 4 wounds without him (one Ogre), 8 with him (two).
    def cannon(*rules: str) -> World:
        return World(tmp_path, [_engine("gun", "human_cannon", rules=list(rules)),
                                _block("ogres", 40 - 0.3937 - 8 - 1.2, 12, "psychology/ogre")])
    plain, laid = cannon(), cannon("Bombardiers")
    for w in (plain, laid):
        w.call("fire_line", {"D4": [1] * 8, "*": [6] * 40}, m="gun", t="ogres")
    assert plain.unit("ogres").models == 11 and laid.unit("ogres").models == 10


def test_l2868_l2870_one_shot_magic_arrows(tmp_path: Path) -> None:
    # L2868: a hail arrow takes the place of one of ten bows' shots and becomes 3D6 (4 + 5 + 6
    # = 15) arrows at the unit: 9 + 15 shots, all hitting (6s) and wounding; it is then spent.
    # L2869: a potent arrow hits (6), S10 against an Ogre's T5 (a 2: 6), no save, D4 (3)
    # wounds: one Ogre slain. L2870: a far flight arrow reaches 48" with a bow of 24".
    h = Duel(tmp_path, a={"profile": "missile_troops/bowman", "rules": ["Hail"]}, b={"models": 40, "files": 10})
    h.call("volley", [4, 5, 6] + [6] * 200, u="a", t="b", w=h.unit("a").weapons[0], shots=10, inches=10)
    assert [e.attacks for e in h.events if e.kind == "attacks"] == [15, 9]
    assert h.logs("looses a magic arrow") == [["a", "Hail"]] and h.call("arrows_left", u="a", arrow="Hail") == 0
    p = Duel(tmp_path, a={"profile": "missile_troops/bowman", "rules": ["Potency"]},
             b={"profile": "psychology/ogre", "models": 4, "files": 4})
    p.call("volley", {"to_hit_missile": [6] + [1] * 9, "wound_at": [6], "potency_wounds": [3]},
           u="a", t="b", w=p.unit("a").weapons[0], shots=10, inches=10)
    assert p.unit("b").models == 3
    def far(y: float) -> World:
        return World(tmp_path, [u("a", "a", 36, 5, "missile_troops/bowman", rules=["Far Flight"]),
                                u("b", "b", 36, y, facing=180)], battlefield={"width": 72, "depth": 72})
    f = far(45)
    f.call("far_flight_shot", [1] * 5, u="a")
    assert f.logs("looses a magic arrow") == [["a", "Far Flight"]]
    assert [e.attacks for e in f.events if e.kind == "attacks"] == [1]
    f.call("far_flight_shot", [1] * 5, u="a")
    assert len(f.logs("looses a magic arrow")) == 1
    for y in (20, 60):   # within the bow's 24", or beyond 48"
        n = far(y)
        n.call("far_flight_shot", u="a")
        assert n.logs("looses a magic arrow") == []


def test_l1680_a_kamikaze_guides_the_rocket_onto_its_target(tmp_path: Path) -> None:
    # L1680: 5D6 = 10 lands the rocket 7.6" short of the Goblins' front (the crew at y 30,
    # their ranks at y 7.6..12.4); the kamikaze's 2D6 (4 + 4) guides it onto them: 2D6 (11)
    # S5 hits. L1679: without a volunteer left the rocket lands short, clear of them; a
    # bombardier's 3" (L1219) brings it 4.6" from their front, where its dispersal reaches
    # ten models (L1671).
    def world(*rules: str) -> World:
        sky = u("sky", "goblins", 36, 30, "war_engines/goblin_skyrocket", facing=180, models=2, files=2, rules=list(rules))
        return World(tmp_path, [sky, _block("gob", 10, 24)])
    w = world("Rocket Kamikaze (1)")
    dice = {"rocket_flight": [2] * 5, "kamikaze_guidance": [4, 4], "rocket_hits": [5, 6], "D4": [1] * 11, "*": [6] * 80}
    w.call("fire_rocket", dice, m="sky", t="gob")
    assert w.logs("a kamikaze guides the rocket") == [["sky", 8]]
    assert [e.attacks for e in w.events if e.kind == "attacks"] == [11]
    assert w.call("kamikaze_fires", m="sky", t="gob") is False   # none left: no guiding
    spent = world("Rocket Kamikaze (0)")
    spent.call("fire_rocket", {"rocket_flight": [2] * 5, "*": [6] * 80}, m="sky", t="gob")
    assert spent.logs("a kamikaze guides the rocket") == [] and [e.attacks for e in spent.events if e.kind == "attacks"] == []
    b = world("Bombardiers")
    b.call("fire_rocket", {"rocket_flight": [2] * 5, "*": [6] * 80}, m="sky", t="gob")
    assert [e.attacks for e in b.events if e.kind == "attacks"] == [10]


WAGONS = {"id": "laager", "kind": "obstacle", "name": "Wagons", "at": {"x": 30, "y": 29.5}, "size": {"w": 20, "h": 1},
          "effects": ["Wagons"]}


def test_l1750_wagons_are_soft_cover_and_a_defended_obstacle(tmp_path: Path) -> None:
    # L1750: longbowmen shooting at men behind the wagons: soft cover (-1, L1449); men
    # charged at the wagons fight behind an obstacle (L485).
    w = World(tmp_path, [u("a", "a", 30, 10, "humans/longbowman"), u("b", "b", 30, 30.5, facing=180)],
              battlefield={"width": 72, "depth": 48, "terrain": [WAGONS]})
    assert w.call("cover_of", shooter="a", target="b") == 1
    c = World(tmp_path, [u("a", "a", 30, 26), u("b", "b", 30, 30.5, facing=180)],
              battlefield={"width": 72, "depth": 48, "terrain": [WAGONS]})
    c.unit("a").gain_status("charged", None, c.runtime.status_instance("charged", {}))
    c.call("combat_ground", c="b", foe="a")
    assert "behind_obstacle" in c.unit("b").statuses


def test_l1878_l1879_an_archer_wedge_stands_until_charged(tmp_path: Path) -> None:
    # L1878: the wedge does not move; L1879: charged, it falls into a line and moves again.
    w = Duel(tmp_path, a={"profile": "missile_troops/bowman", "rules": ["Archer Wedge"]})
    assert w.call("may_move", u="a") is False
    w.state.fire(w.env(), "declare_charge", {"u": w.unit("b"), "t": w.unit("a")})
    assert "wedge_broken" in w.unit("a").statuses and w.call("in_archer_wedge", u="a") is False


def test_l2969_saga_animosity_is_animosity_against_norse_friends(tmp_path: Path) -> None:
    # L2969-L2970: Norsemen suffer animosity against friendly Norse (their rival NORSE).
    w = World(tmp_path, [u("clan", "a", 36, 10, keywords=["NORSE"], rules=["Saga Animosity"]),
                         u("kin", "a", 36, 16, keywords=["NORSE"]), u("foe", "b", 36, 40, facing=180)])
    assert w.runtime.has_rule(w.env(), w.unit("clan"), "Animosity")
    assert [r.id for r in w.call("rivals", u="clan")] == ["kin"]


def test_l2948_an_army_allies_alignments_one_step_apart_and_evil_with_none(tmp_path: Path) -> None:
    # L2948: Good with Neutral may ally; Good with Evil may not, nor Evil with Chaos; the
    # battle does not begin.
    import pytest
    from rules_run.diagnostics import InterpreterError

    def army(x: str, y: str) -> World:
        return World(tmp_path, [u("p", "a", 20, 10, rules=[f"Alignment ({x})"]), u("q", "a", 50, 10, rules=[f"Alignment ({y})"]),
                                u("foe", "b", 36, 40, facing=180, rules=["Alignment (Chaos)"])])
    army("Good", "Neutral").state.fire(army("Good", "Neutral").env(), "start_of_battle")
    for x, y in (("Good", "Evil"), ("Evil", "Chaos"), ("Law", "Neutral")):
        w = army(x, y)
        with pytest.raises(InterpreterError, match="allies only alignments one step apart"):
            w.state.fire(w.env(), "start_of_battle")


def test_l1263_l1268_kamikaze_bombers_run_at_an_enemy_within_8_inches(tmp_path: Path) -> None:
    # L1263: revealed with the Goblins 6" off; L1264: a 4 reaches them; L1268: the 2"
    # template over their centre, one S6 hit on each model under it (against T3 a 2: 6s),
    # no save. Farther than 8": nothing. L1265: a 1 and then a 2: the fuse goes out, and
    # he tries again in a following turn only.
    def world(y: float) -> World:
        return World(tmp_path, [u("ninjas", "a", 36, 10, rules=["Kamikaze Bombers (1)"]),
                                u("gobs", "b", 36, y, "goblins/goblin", facing=180, models=20, files=10)])
    w = world(17)
    w.call("release_bombers", {"bomber_run": [4], "*": [6] * 40}, u="ninjas")
    assert w.logs("a kamikaze runs at the enemy") == [["ninjas", "gobs"]]
    [hits] = [e.attacks for e in w.events if e.kind == "attacks"]
    assert hits == 8 and w.unit("gobs").models == 12   # four files of two ranks under it
    w.call("release_bombers", u="ninjas")
    assert len(w.logs("a kamikaze runs at the enemy")) == 1   # he is spent
    far = world(30)
    far.call("release_bombers", u="ninjas")
    assert far.logs("a kamikaze runs at the enemy") == []
    f = world(17)
    f.call("release_bombers", {"bomber_run": [1], "bomber_mishap": [2]}, u="ninjas")
    assert f.logs("the fuse goes out") == [["ninjas"]]
    f.call("release_bombers", u="ninjas")
    assert len(f.logs("a kamikaze runs at the enemy")) == 1


def test_l1253_l1257_goblin_fanatics_whirl_through_the_enemy_and_die_on_a_double(tmp_path: Path) -> None:
    # L1253: the Men 6" off release the fanatic, 2D6 (3 + 4 = 7") at them; L1254: the Men
    # in its path take D6 (4) S5 hits, a 2 against T3 (6s), no save: four slain. L1257: in
    # the Goblins' next movement phase a double (2 + 2) kills it. L1301: a censer's hits
    # are S4.
    w = World(tmp_path, [u("gobs", "a", 36, 10, "goblins/goblin", rules=["Goblin Fanatics (1)"]),
                         u("men", "b", 36, 16, facing=180)], battlefield={"width": 72, "depth": 48})
    w.state.active_side = "b"
    w.call("whirl", {"whirl_move": [3, 4], "whirl_hits": [4], "wound_at": [6] * 4}, u="gobs", kind="Goblin Fanatics", strength=5)
    assert w.logs("releases a whirler") == [["gobs", "men"]] and w.logs("whirls through") == [["gobs", "men", 4]]
    assert w.unit("men").models == 6 and len(w.call("loose_whirlers", u="gobs")) == 1
    w.state.active_side = "a"
    w.state.phase = "movement_phase"
    w.call("whirl", {"whirl_move": [2, 2]}, u="gobs", kind="Goblin Fanatics", strength=5)
    assert w.logs("is slain by its own whirling") == [["gobs"]] and w.call("loose_whirlers", u="gobs") == []
    c = World(tmp_path, [u("rats", "a", 36, 10, "goblins/goblin", rules=["Plague Censer Bearers (1)"]),
                         u("men", "b", 36, 16, facing=180)], battlefield={"width": 72, "depth": 48})
    c.call("whirl", {"whirl_move": [3, 4], "whirl_hits": [1], "wound_at": [3]}, u="rats", kind="Plague Censer Bearers", strength=4)
    assert [e.args["strength"] for e in c.events if e.kind == "test" and e.rule == "wound_at"] == [4]
