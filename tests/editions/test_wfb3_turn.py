"""wfb3 psychology in the turn (seed 003_9d43467ba19595d2.txt): battle.rules calls the tests
psychology.rules declares where the turn reaches them.

Each test sets out a small battle (fixed positions), rolls scripted dice and names the 003
line it checks: fear before a charge and before shooting (L624-L627), hatred (L645-L653),
frenzy (L638-L640), panic at a charge and at a rout (L660-L667), stupidity (L672-L677), the
General's Ld (L1159-L1161) and instability (L2972). Totals on 2D6 are the dice scripted.
"""

from __future__ import annotations

from pathlib import Path

from helpers.aos4_probe import Probe
from helpers.wfb3_battle import battle, unit

from rules_run import open_battle
from rules_run.engine.driver import run_battle


def hold() -> list[dict]:
    """The Dwarfs' player holds rather than charge (a fresh order list: a battle uses its orders up)."""
    return [{"decision": "charge", "unit": "dwarfs", "choose": "hold"}]


# ============================================================== fear (L624-L628)


def test_l625_a_unit_must_pass_a_fear_test_to_charge_what_it_fears(tmp_path: Path) -> None:
    # L625: Humans (Cl 7) that want to charge Ogres (Fear, fear +1, L632) test: 6 + 1 = 7
    # passes and they charge; 6 + 6 fails: they stay inactive (no move either, L625).
    path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("ogres", "b", "psychology/ogre", 16, 4, 4))
    p = Probe("wfb3", path, dice={"fear_test": [3, 3]}, active="a")
    assert p("will_charge", u="men", t="ogres") is True
    q = Probe("wfb3", path, dice={"fear_test": [6, 6]}, active="a")
    q("movement_phase")
    assert q.logged("is too afraid to charge") == [["men", "ogres"]]
    assert q.logged("charges") == []
    assert "inactive" in q.unit["men"].statuses
    assert q("may_move", u="men") is False and q("may_charge", u="men") is False
    assert not q.chance.remaining()


def test_l624_shooting_at_a_feared_enemy_in_charge_reach_takes_a_fear_test(tmp_path: Path) -> None:
    # L624: longbowmen (M4: charge reach 8") with Ogres 6" away shoot at them only after a
    # fear test: 5 + 3 (with fear +1: 9) fails, 1 + 1 passes. Ogres 12" away: no test.
    path = battle(tmp_path, unit("bows", "a", "humans/longbowman", 10), unit("ogres", "b", "psychology/ogre", 16 + 2, 4, 4))
    p = Probe("wfb3", path, dice={"fear_test": [5, 3, 1, 1]}, active="a")
    assert p("shooting_target", u="bows") is None
    assert p("shooting_target", u="bows") is p.unit["ogres"]
    assert len(p.events("test", rule="fear_test")) == 2
    far = battle(tmp_path, unit("bows", "a", "humans/longbowman", 10), unit("ogres", "b", "psychology/ogre", 24 + 2, 4, 4))
    q = Probe("wfb3", far, dice={}, active="a")
    assert q("shooting_target", u="bows") is q.unit["ogres"]


def test_l627_charged_by_a_feared_enemy_a_failed_test_routs(tmp_path: Path) -> None:
    # L627: Ogres charge Humans: the Humans test on Cl 7 with the Ogres' fear +1: 4 + 3 + 1
    # fails and they rout before the charge lands; 2 + 2 passes and they react as usual.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("ogres", "b", "psychology/ogre", 18, 4, 4))
    p = Probe("wfb3", path, dice={"fear_test": [4, 3], "to_wound": [1] * 20}, active="b")
    p("declare_charge", u="ogres", t="men")
    assert p.logged("breaks before the charge") == [["men", "ogres"]]
    assert "routing" in p.unit["men"].statuses
    q = Probe("wfb3", path, dice={"fear_test": [2, 2]}, active="b")
    q("declare_charge", u="ogres", t="men")
    assert q.logged("breaks before the charge") == []
    assert p.unit["men"] not in q.unit["ogres"].engaged and q.unit["men"] in q.unit["ogres"].engaged


def test_l628_pushed_back_by_a_feared_enemy_routs(tmp_path: Path) -> None:
    # L628: Humans that lose a round to Ogres and are not routed by a rout test (no quarter
    # lost: none taken) rout all the same: they cannot be pushed back by a feared enemy.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("ogres", "b", "psychology/ogre", 14, 4, 4))
    p = Probe("wfb3", path, dice={"to_wound": [1] * 20}, active="b")
    p("complete_charge", u="ogres", t="men")
    p("lose_round", l="men", w="ogres")
    assert p.logged("flees from the feared enemy") == [["men", "ogres"]]
    assert "routing" in p.unit["men"].statuses


# ============================================================== hatred (L645-L653)


def test_l645_l648_declining_to_charge_a_hated_enemy_takes_a_hatred_test(tmp_path: Path) -> None:
    # L645-L648: Dwarfs (Cl 9) hate Goblins; their player holds: 2D6 <= 9 lets them hold, a
    # failed test (5 + 5) is a fit of hatred and they charge all the same.
    path = battle(tmp_path, unit("dwarfs", "a", "psychology/dwarf", 10), unit("gobs", "b", "goblins/goblin", 16))
    p = Probe("wfb3", path, dice={"hatred_test": [4, 5]}, active="a", orders=hold())
    assert p("will_charge", u="dwarfs", t="gobs") is False
    q = Probe("wfb3", path, dice={"hatred_test": [5, 5]}, active="a", orders=hold())
    assert q("will_charge", u="dwarfs", t="gobs") is True
    assert q.logged("charges in a fit of hatred") == [["dwarfs", "gobs"]]
    assert "hatred_fit" in q.unit["dwarfs"].statuses
    men = battle(tmp_path, unit("dwarfs", "a", "psychology/dwarf", 10), unit("men", "b", "humans/human", 16))
    r = Probe("wfb3", men, dice={}, active="a", orders=hold())
    assert r("will_charge", u="dwarfs", t="men") is False


def test_l653_a_rout_test_against_a_hated_enemy_has_plus_one_ld(tmp_path: Path) -> None:
    # L653: Dwarfs (Ld 9) that lost a quarter (3 of 10) and lose the round take a rout test:
    # a 10 (5 + 5) passes against hated Goblins (Ld 10), fails against Humans (Ld 9).
    for foe, profile, routs in [("gobs", "goblins/goblin", False), ("men", "humans/human", True)]:
        path = battle(tmp_path, unit("dwarfs", "a", "psychology/dwarf", 10), unit(foe, "b", profile, 12))
        p = Probe("wfb3", path, dice={"rout_test": [5, 5], "to_wound": [1] * 20}, active="b")
        p("complete_charge", u=foe, t="dwarfs")
        p.unit["dwarfs"].models = 7
        p("lose_round", l="dwarfs", w=foe)
        assert ("routing" in p.unit["dwarfs"].statuses) is routs
        assert len(p.events("test", rule="rout_test")) == 1


# ============================================================== frenzy (L638-L640)


def test_l638_a_frenzy_test_as_a_frenzied_unit_charges(tmp_path: Path) -> None:
    # L638, L642: Berserkers charging test (their leader's bonus deducted: none here): a
    # score above their Cl sends them into frenzy.
    path = battle(tmp_path, unit("zerks", "a", "psychology/berserker", 10), unit("men", "b", "humans/human", 16))
    p = Probe("wfb3", path, dice={"frenzy_test": [6, 6]}, active="a")
    assert p("will_charge", u="zerks", t="men") is True
    assert p.logged("charges in a frenzy") == [["zerks"]]
    assert "frenzied" in p.unit["zerks"].statuses
    q = Probe("wfb3", path, dice={"frenzy_test": [1, 1]}, active="a")
    assert q("will_charge", u="zerks", t="men") is True
    assert "frenzied" not in q.unit["zerks"].statuses


def test_l640_a_frenzied_unit_takes_no_rout_test(tmp_path: Path) -> None:
    # L640: frenzied Berserkers that lost a quarter and lose the round take no rout test
    # (no dice scripted): they are pushed back; nor do they test after missile losses (L543).
    path = battle(tmp_path, unit("zerks", "a", "psychology/berserker", 10), unit("men", "b", "humans/human", 12))
    p = Probe("wfb3", path, dice={}, active="b")
    p("complete_charge", u="men", t="zerks")
    p.unit["zerks"].statuses["frenzied"] = None
    p.unit["zerks"].models = 6
    p("lose_round", l="zerks", w="men")
    assert p.events("test", rule="rout_test") == []
    assert p.logged("is pushed back") == [["zerks", "men"]]
    p.set_counter("turn_models", "zerks", 10)
    p("missile_rout_check", u="zerks")
    assert p.events("test", rule="rout_test") == []


# ============================================================== panic (L660-L667)


def test_l660_a_unit_within_4_inches_of_friendly_routers_tests_at_the_start_of_its_turn(tmp_path: Path) -> None:
    # L660: at the start of their side's turn Humans 2.4" behind friendly routers test on
    # Cl 7: 6 + 5 fails (they panic); friends 24" away do not test.
    path = battle(tmp_path, unit("run", "a", "humans/human", 10), unit("near", "a", "humans/human", 6),
                  unit("far", "a", "humans/human", 10, x=8), unit("gobs", "b", "goblins/goblin", 40))
    p = Probe("wfb3", path, dice={"panic_test": [6, 5]}, active="a")
    p.unit["run"].statuses["routing"] = None
    failed = p("panic_near_routers", side="a", routing=[p.unit["run"]])
    assert [f.id for f in failed] == ["near"]
    assert len([e for e in p.events("test") if e.rule == "panic_test"]) == 1


def test_l661_charged_in_the_flank_while_fighting_to_the_front_a_panic_test(tmp_path: Path) -> None:
    # L661: Humans fighting Goblins to their front are charged in the flank by more Goblins:
    # a panic test on Cl 7; 6 + 5 fails and they break before the charge (the free hack of
    # the Goblins they fought wounds nothing: 1s). Charged in the flank while not fighting: no
    # test.
    def field(engaged: bool) -> Probe:
        path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("gobs", "b", "goblins/goblin", 13),
                      unit("wolves", "b", "goblins/goblin", 10, models=5, files=5, x=50))
        p = Probe("wfb3", path, dice={"panic_test": [6, 5], "to_wound": [1] * 20}, active="b")
        if engaged:
            p.unit["men"].engaged.append(p.unit["gobs"])
            p.unit["gobs"].engaged.append(p.unit["men"])
        p("declare_charge", u="wolves", t="men")
        return p
    p = field(True)
    assert p.logged("panics") == [["men"]]
    assert "routing" in p.unit["men"].statuses
    q = field(False)
    assert [e for e in q.events("test") if e.rule == "panic_test"] == []
    assert "routing" not in q.unit["men"].statuses


def test_l664_charged_while_crossing_an_obstacle_a_panic_test(tmp_path: Path) -> None:
    # L664: Humans standing on a hedge (a piece with the rule Obstacle) are charged: a
    # panic test on Cl 7; 4 + 4 fails and they rout. Off the hedge: no test.
    hedge = "{id: hedge, kind: obstacle, name: Hedge, at: {x: 30, y: 9.5}, size: {w: 12, h: 1}, effects: [Obstacle]}"
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, 10, 10), unit("gobs", "b", "goblins/goblin", 16, 10, 10), terrain=hedge)
    p = Probe("wfb3", path, dice={"panic_test": [4, 4]}, active="b")
    assert p("crossing", u="men") is True
    p("declare_charge", u="gobs", t="men")
    assert p.logged("panics") == [["men"]]
    assert p.logged("breaks before the charge") == [["men", "gobs"]]
    assert "routing" in p.unit["men"].statuses
    plain = battle(tmp_path, unit("men", "a", "humans/human", 10, 10, 10), unit("gobs", "b", "goblins/goblin", 16, 10, 10))
    q = Probe("wfb3", plain, dice={}, active="b")
    q("declare_charge", u="gobs", t="men")
    assert q.logged("panics") == [] and q.unit["men"] in q.unit["gobs"].engaged


def test_l666_a_rout_from_combat_makes_friends_within_12_test_for_panic(tmp_path: Path) -> None:
    # L666-L667, L670: Humans routing from combat: the friends 6" behind them test (Cl 7):
    # 6 + 5 fails, and they rout too; friends 20" away do not test.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("near", "a", "humans/human", 4),
                  unit("far", "a", "humans/human", 10, x=8), unit("gobs", "b", "goblins/goblin", 12))
    p = Probe("wfb3", path, dice={"panic_test": [6, 5], "to_hit": [1] * 40, "to_wound": [1] * 40}, active="b")
    p("complete_charge", u="gobs", t="men")
    p("begin_rout", r="men", w="gobs")
    assert p.logged("panics") == [["near"]]
    assert "routing" in p.unit["near"].statuses and "routing" not in p.unit["far"].statuses


def test_l549_a_rout_away_from_combat_sets_off_panic_only_under_the_other_reading(tmp_path: Path) -> None:
    # L549, L666: Humans routing with no enemy in contact (a failed test after shooting, say):
    # the friends 6" behind them do not test (panic_on_any_rout false, the default: L666
    # names routs from hand-to-hand combat); under the other reading they test (6 + 5 fails)
    # and rout too.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10), unit("near", "a", "humans/human", 4),
                  unit("gobs", "b", "goblins/goblin", 40))
    for reading, panicked in [(False, []), (True, [["near"]])]:
        p = Probe("wfb3", path, dice={"panic_test": [6, 5]}, active="b",
                  options={"panic_on_any_rout": reading})
        p("begin_rout", r="men", w="gobs")
        assert p.logged("panics") == panicked
        assert ("routing" in p.unit["near"].statuses) is reading


# ============================================================== stupidity (L672-L676)


def test_l673_a_stupid_unit_strikes_with_half_its_fighting_models(tmp_path: Path) -> None:
    # L673: 10 stupid Humans in a rank strike with 5; 9 with 4, and the odd one on a 4+.
    path = battle(tmp_path, unit("men", "a", "humans/human", 10, 10, 10), unit("gobs", "b", "goblins/goblin", 12, 10, 10))
    p = Probe("wfb3", path, dice={"stupid_fighters": [4, 3], "to_hit": [1] * 5 + [1] * 10}, active="a")
    p.unit["men"].statuses["stupid"] = None
    assert p("strikers_attacks", c="men", n=10) == 5
    assert p("strikers_attacks", c="men", n=9) == 5
    assert p("strikers_attacks", c="men", n=9) == 4
    assert p("strikers_attacks", c="gobs", n=9) == 9
    q = Probe("wfb3", path, dice={"to_hit": [1] * 15, "rout_test": [1, 1]}, active="a")
    q("complete_charge", u="men", t="gobs")
    q.unit["men"].statuses["stupid"] = None
    q("fight_round", u="men")
    assert [(e.attacker, e.attacks) for e in q.events("attacks")] == [("men", 5), ("gobs", 10)]


def test_l676_inactive_and_stupid_units_neither_move_charge_shoot_nor_reserve(tmp_path: Path) -> None:
    # L625, L672-L676: an inactive or stupid unit does nothing of its own in the turn.
    path = battle(tmp_path, unit("bows", "a", "humans/longbowman", 10), unit("gobs", "b", "goblins/goblin", 30))
    for status in ["inactive", "stupid"]:
        p = Probe("wfb3", path, dice={}, active="a")
        p.unit["bows"].statuses[status] = None
        for check in ["may_move", "may_charge", "may_reserve"]:
            assert p(check, u="bows") is False
        p("shooting_phase")
        assert p.logged("shoots at") == []
    q = Probe("wfb3", path, dice={}, active="a")
    assert q("may_move", u="bows") is True and q("may_reserve", u="bows") is True


def test_l631_l2963_no_reserve_move_trading_insults_or_in_a_fear_range(tmp_path: Path) -> None:
    # L2963: a unit trading insults with its rivals makes no reserve move; L631: nor one
    # standing within the Fear X" of an enemy it fears.
    path = battle(tmp_path, unit("bows", "a", "humans/longbowman", 10), unit("gobs", "b", "goblins/goblin", 30))
    for status in ["insulting", "in_fear_range"]:
        p = Probe("wfb3", path, dice={}, active="a")
        p.unit["bows"].statuses[status] = None
        assert p("may_reserve", u="bows") is False and p("may_move", u="bows") is True


# ============================================================== the General (L1159-L1161)


def test_l1159_a_unit_near_the_general_routs_on_his_ld(tmp_path: Path) -> None:
    # L1159-L1161: Goblins (Ld 5) within 12" of a General of Ld 10 with a bonus of 3 test for
    # rout on 5 + 3 = 8: a total of 8 passes, which on their own Ld 5 would fail.
    gen = unit("gen", "a", "psychology/human_hero", 4, 1, 1, extra=", rules: [General]")
    path = battle(tmp_path, unit("gobs", "a", "goblins/goblin", 10), gen, unit("men", "b", "humans/human", 12))
    p = Probe("wfb3", path, dice={"rout_test": [4, 4]}, active="b")
    assert p("rout_modifier", u="gobs") == 3
    p("complete_charge", u="men", t="gobs")
    p.unit["gobs"].models = 7
    p("lose_round", l="gobs", w="men")
    assert "routing" not in p.unit["gobs"].statuses


# ============================================================== instability (L2972)


def test_l2972_an_unstable_unit_pushed_back_tests_for_instability(tmp_path: Path) -> None:
    # L2972, L2977: Skeletons pushed back test on the instability table: a 1 ebbs.
    path = battle(tmp_path, unit("bones", "a", "psychology/skeleton", 10), unit("men", "b", "humans/human", 12))
    p = Probe("wfb3", path, dice={"instability_roll": [1]}, active="b")
    p("complete_charge", u="men", t="bones")
    p("lose_round", l="bones", w="men")
    assert p.logged("is unstable") == [["bones", "ebbs"]]
    assert "ebbing" in p.unit["bones"].statuses


# ============================================================== the pitched battle (issue #17)


def test_the_pitched_battle_plays_to_the_end_with_its_psychology_and_magic() -> None:
    # L67-L76, L2136-L2139: battles/battle.yaml on its own seed plays its six game turns to a
    # result. Every player turn has the six phases in the order of L67-L76, and close combat
    # is fought in both sides' turns (L66). Its log shows charges with their reactions
    # (L432-L443), shooting, close combat, reserve moves (L600-L613), magic, rallying
    # (L565-L573), both war engines firing (L1480-L1534) and the psychology the turn asks (a
    # stupidity test, L672; panic, L660-L667; fear, L625-L628).
    _, runtime, battle = open_battle("wfb3", str(Path(__file__).resolve().parents[2] / "rulesets/wfb3/battles/battle.yaml"))
    result = run_battle(runtime, battle, seed=battle.seed)
    phases: dict[tuple[int, str], list[str]] = {}
    for e in result.events:
        if e.kind == "phase":
            phases.setdefault((e.round, e.side), []).append(e.phase)
    assert len(phases) == 12
    assert set(map(tuple, phases.values())) == {("movement_phase", "shooting_phase", "hand_to_hand_phase",
                                                  "reserves_phase", "magic_phase", "rallying_phase")}
    melee_turns = {e.side for e in result.events if e.kind == "attacks" and e.phase == "hand_to_hand_phase"}
    assert melee_turns == {"men", "greenskins"}
    logs = {e.message for e in result.events if e.kind == "log"}
    assert {"charges", "shoots at", "wins the combat", "casts", "rallies", "points of troops left"} <= logs
    assert logs & {"panics", "panics and routs"}
    reactions = {e.choice for e in result.events if e.kind == "decision" and e.decision == "charge_reaction"}
    assert {"hold", "run_away"} <= reactions
    assert any(e.kind == "move" and e.phase == "reserves_phase" for e in result.events)
    fired = {e.values[0] for e in result.events if e.kind == "log" and e.message == "fires"}
    assert {"cannon", "stone_thrower"} <= fired
    tests = {e.rule for e in result.events if e.kind == "test"}
    assert {"stupidity_test", "fear_test", "panic_test", "rout_test", "rally_test"} <= tests
    assert [e.kind for e in result.events][-1] in {"win", "result"}
