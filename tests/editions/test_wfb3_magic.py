"""wfb3 magic (seed 003_9d43467ba19595d2.txt, L2158-L2263, L2270-L2496).

Each test names the 003 line it checks (and the digest's worked example WE-88, §11.8). The
rules run through magic.rules and its table magic/spells.yaml: exact odds of its tests, and
its actions in a small battle state with scripted dice. 2D6 shows t or less in 1, 3, 6, 10,
15, 21, 26, 30, 33, 35, 36 ways of 36 for t = 2..12.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from helpers import wfb3_world
from helpers.wfb3_world import u

ROOT = Path(__file__).resolve().parents[2]
SPELLS = ROOT / "rulesets" / "wfb3" / "magic" / "spells.yaml"


class World(wfb3_world.World):
    """A wfb3 battle state with its wizards' magic points set up (L2166-L2174)."""

    def __init__(self, tmp_path: Path, units: list[dict], **extra: Any) -> None:
        super().__init__(tmp_path, units, **extra)
        self.call("start_wizards")

    def points(self, uid: str) -> int:
        """The wizard's magic points (the counter magic_points)."""
        return self.state.counters.get(("magic_points", uid), 0)

    def set_points(self, uid: str, n: int) -> None:
        self.state.counters[("magic_points", uid)] = n


def wizard(uid: str = "wiz", side: str = "a", x: float = 36, y: float = 10, **spec: Any) -> dict:
    return u(uid, side, x, y, "psychology/wizard", models=1, files=1, **spec)


def men(x: float = 36, y: float = 30, **spec: Any) -> dict:
    return u("men", "b", x, y, "humans/human", facing=180, **spec)


# ============================================================== power and points (L2166-L2177)


def test_a_wizard_starts_with_his_power_level_in_magic_points(tmp_path: Path) -> None:
    # L2166-L2174: magic level 2 has the typical power level 20; given, 20 magic points.
    w = World(tmp_path, [wizard(), men(), wizard("novice", values={"magic_level": 1}, x=10),
                         wizard("weak", values={"magic_level": 2, "power_level": 15}, x=60)])
    assert w.points("wiz") == 20
    assert w.points("novice") == 10            # L2168: level 1, power level 10
    assert w.points("weak") == 15              # a power level of its own
    assert w.points("men") == 0


def test_a_random_power_level_is_3d6_per_magic_level(tmp_path: Path) -> None:
    # L2166-L2171: random power levels 3D6, 6D6, 9D6, 12D6; a level 2 wizard rolls 6D6.
    w = World(tmp_path, [wizard(), men()])
    dist = w.exact("random_power", level=2)
    assert min(dist.support()) == 6 and max(dist.support()) == 36
    assert dist.probability(6) == Fraction(1, 6 ** 6)
    rolled = World(tmp_path, [wizard(), men()], options={"random_power_level": True})
    rolled.call("start_wizards", {"random_power": [1, 2, 3, 4, 5, 6]})
    assert rolled.points("wiz") == 21


def test_we88_a_level_4_wizard_carries_twelve_spells(tmp_path: Path) -> None:
    # WE-88, L2209-L2214: three spells of each level he may use: 3, 6, 9, 12.
    w = World(tmp_path, [wizard(values={"magic_level": 4}), men(),
                         wizard("two", x=10), wizard("one", x=60, values={"magic_level": 1})])
    assert len(w.call("known_spells", w="wiz")) == 12
    assert len(w.call("known_spells", w="two")) == 6
    assert len(w.call("known_spells", w="one")) == 3
    doc = yaml.safe_load(SPELLS.read_text(encoding="utf-8"))
    level = {s: row[1] for s, row in zip(doc["keys"][0]["values"], doc["cells"])}
    assert [level[s] for s in w.call("known_spells", w="one")] == [1, 1, 1]
    assert sorted(level[s] for s in w.call("known_spells", w="two")) == [1, 1, 1, 2, 2, 2]


# ============================================================== casting (L2218-L2221)


def test_we88_with_fewer_than_12_points_the_test_is_the_higher_of_points_and_int(tmp_path: Path) -> None:
    # WE-88, L2221: 6 points and Int 8 test on 8 (26 of 36); the wizard's Int 9 with 10
    # points: 10 (33 of 36); 5 points and Int 9: 9 (30 of 36).
    w = World(tmp_path, [wizard(characteristics={"Int": 8}), men()])
    assert w.passes("casting_test", wizard="wiz", points=6) == Fraction(26, 36)
    v = World(tmp_path, [wizard(), men()])
    assert v.passes("casting_test", wizard="wiz", points=10) == Fraction(33, 36)
    assert v.passes("casting_test", wizard="wiz", points=5) == Fraction(30, 36)


def test_with_12_points_or_more_a_spell_is_cast_without_a_test(tmp_path: Path) -> None:
    # L2219: 20 points: Dispirit cast (2 points spent), no casting test rolled.
    w = World(tmp_path, [wizard(), men()])
    assert w.call("cast_spell", {"magic_save": [6, 6]}, w="wiz", s="dispirit", target="men") is True
    assert w.tests("casting_test") == []
    assert w.points("wiz") == 18
    assert "dispirited" in w.unit("men").statuses


def test_the_points_are_spent_whether_or_not_the_spell_is_cast(tmp_path: Path) -> None:
    # L2220: 8 points (test on Int 9): 2D6 = 11 fails; Dispirit's 2 points are gone.
    w = World(tmp_path, [wizard(), men()])
    w.set_points("wiz", 8)
    assert w.call("cast_spell", {"casting_test": [5, 6]}, w="wiz", s="dispirit", target="men") is False
    assert w.points("wiz") == 6
    assert "dispirited" not in w.unit("men").statuses


def test_a_spell_costing_more_than_the_points_left_cannot_be_tried(tmp_path: Path) -> None:
    # L2221: 3 points left, Blast costs 4: not tried (whatever the Int), nothing spent.
    w = World(tmp_path, [wizard(values={"magic_level": 4}), men()])
    w.set_points("wiz", 3)
    assert w.call("cast_spell", {}, w="wiz", s="blast", target="men") is False
    assert w.points("wiz") == 3 and w.tests("casting_test") == []
    assert "blast" not in w.call("castable", w="wiz")


def test_we88_disharmony_adds_an_armour_pip_to_every_spell(tmp_path: Path) -> None:
    # WE-88, L2243: a save of 4, 5 or 6 is 3 pips: Dispirit costs 2 + 3 = 5; unarmoured, 2.
    w = World(tmp_path, [wizard(values={"magic_level": 2, "armour_save": 4}), men(),
                         wizard("bare", x=10)])
    assert w.call("spell_cost", w="wiz", s="dispirit") == 5
    assert w.call("spell_cost", w="bare", s="dispirit") == 2


def test_one_spell_per_wizard_in_his_sides_magic_phase(tmp_path: Path) -> None:
    # L2218: the wizard's side casts in its Magic phase, one spell each: one casting.
    w = World(tmp_path, [wizard(), men()], orders=[
        {"round": 1, "side": "a", "unit": "wiz", "decision": "magic_choice", "choose": "dispirit"}])
    w.call("magic_phase_casts", {"magic_save": [6, 6]}, side="a")
    assert w.logs("casts") == [["wiz", "dispirit", "men"]]
    assert w.points("wiz") == 18


# ============================================================== the magic save (L2229-L2238)


def test_the_magic_save_is_2d6_at_most_wp_with_augment_and_enhance(tmp_path: Path) -> None:
    # L2229-L2235: men (WP 7) save on 21 of 36; enhanced by 2 points, on 5: 10 of 36; a
    # wizard (WP 9) augmenting by 1 saves on 10: 33 of 36.
    w = World(tmp_path, [wizard(), men()])
    assert w.passes("magic_save", target="men") == Fraction(21, 36)
    assert w.passes("magic_save", target="men", enhance=2) == Fraction(10, 36)
    assert w.passes("magic_save", target="wiz", augment=1) == Fraction(33, 36)


def test_we88_magically_vulnerable_creatures_save_only_on_spent_points(tmp_path: Path) -> None:
    # WE-88, L2236-L2238: undead have no save (0); a vulnerable wizard spending 7 points
    # saves on 7: 21 of 36.
    w = World(tmp_path, [wizard(), u("bones", "b", 36, 30, "psychology/skeleton")])
    assert w.passes("magic_save", target="bones") == 0
    assert w.passes("magic_save", target="bones", augment=7) == Fraction(21, 36)


def test_the_spent_points_of_both_sides_are_deducted(tmp_path: Path) -> None:
    # L2233-L2235: the caster enhances by 2, the targeted wizard augments by 1; both pay.
    w = World(tmp_path, [wizard(), wizard("foe", "b", 36, 30)], orders=[
        {"round": 1, "side": "a", "unit": "wiz", "decision": "enhance", "choose": 2},
        {"round": 1, "side": "b", "unit": "foe", "decision": "augment", "choose": 1}])
    assert w.call("spell_takes_hold", {"magic_save": [6, 6]}, w="wiz", target="foe") is True
    assert w.points("wiz") == 18 and w.points("foe") == 19


# ============================================================== resting (L2239-L2243)


def test_a_resting_wizard_recovers_a_point_up_to_his_power_level(tmp_path: Path) -> None:
    # L2239-L2241: one point back after a turn of rest; never above the power level.
    w = World(tmp_path, [wizard(), men()])
    w.set_points("wiz", 15)
    assert w.call("rest_wizard", w="wiz") is True
    w.call("recover_points")
    assert w.points("wiz") == 16
    w.call("recover_points")                                 # once a turn
    assert w.points("wiz") == 16
    full = World(tmp_path, [wizard(), men()])
    full.call("rest_wizard", w="wiz")
    full.call("recover_points")
    assert full.points("wiz") == 20


def test_an_armoured_wizard_cannot_rest(tmp_path: Path) -> None:
    # L2243: a wizard with an armour save may not regain points by resting.
    w = World(tmp_path, [wizard(values={"magic_level": 2, "armour_save": 6}), men()])
    assert w.call("rest_wizard", w="wiz") is False
    assert "resting" not in w.unit("wiz").statuses


# ============================================================== the spells (L2270-L2496)


def test_the_spell_table_gives_every_battle_magic_header() -> None:
    # L2270-L2496: 60 battle magic spells, 15 of each level, with the headers' points and
    # ranges: Fire Ball 1 per ball at 24" (L2288), Blast 4 at 24" (L2447), Vorpal Hurricane
    # of Chaos 18 (L2435), Cloak of Darkness printed Spell Level 4 (L2397).
    doc = yaml.safe_load(SPELLS.read_text(encoding="utf-8"))
    spells = doc["keys"][0]["values"]
    fields = doc["keys"][1]["values"]
    rows = {s: dict(zip(fields, row)) for s, row in zip(spells, doc["cells"])}
    assert len(rows) == 60
    assert [r["level"] for r in rows.values()].count(1) == 15
    assert rows["fire_ball"]["cost"] == 1 and rows["fire_ball"]["range"] == 24
    assert rows["blast"]["cost"] == 4 and rows["vorpal_hurricane_of_chaos"]["cost"] == 18
    assert rows["cloak_of_darkness"]["level"] == 4
    played = [s for s, r in rows.items() if r["played"] == "in_play"]
    assert len(played) >= 20


def test_the_spells_played_are_the_ones_the_phase_may_choose(tmp_path: Path) -> None:
    # L2270-L2496: every spell the table marks played is one magic.rules casts.
    doc = yaml.safe_load(SPELLS.read_text(encoding="utf-8"))
    spells = doc["keys"][0]["values"]
    fields = doc["keys"][1]["values"]
    played = sorted(s for s, row in zip(spells, doc["cells"]) if dict(zip(fields, row))["played"] == "in_play")
    w = World(tmp_path, [wizard(), men()])
    assert sorted(w.call("all_spells")) == played


def test_a_fire_ball_hits_for_d3_at_strength_3_without_armour_save(tmp_path: Path) -> None:
    # L2291: each of up to magic level balls auto-hits for D3 S3 hits; the damage chart as
    # for missiles (S3 against T3 wounds on a 4, 1/2); no armour save on foot.
    w = World(tmp_path, [wizard(), men()])
    seq = w.runtime.sequences["spell_hit"]
    outcomes = seq.exact(lambda ch: w.runtime.env(ch, w.battle.options),
                         {"caster": w.unit("wiz"), "target": w.unit("men"), "strength": 3})
    wounded = sum(p for out, p in outcomes.items() if out.damage == 1)
    assert wounded == Fraction(1, 2)
    w.call("cast_spell", {"spell_d3": [3, 2], "spell_damage": [4, 4, 1, 6, 5]}, w="wiz", s="fire_ball", target="men")
    assert w.unit("men").models == 6                          # 2 balls, 3 + 2 hits, 4 wound
    assert w.points("wiz") == 18


def test_a_blast_is_d6_hits_at_strength_8(tmp_path: Path) -> None:
    # L2450: D6 S8 hits; S8 against T3 wounds on a 2 (a 1 always fails).
    w = World(tmp_path, [wizard(values={"magic_level": 4}), men()])
    w.call("cast_spell", {"spell_d6": [4], "spell_damage": [2, 1, 6, 3]}, w="wiz", s="blast", target="men")
    assert w.unit("men").models == 7


def test_dispirit_and_enthuse_once_per_unit(tmp_path: Path) -> None:
    # L2281-L2286: -1 / +1 Ld for the rest of the battle, once on a unit.
    w = World(tmp_path, [wizard(), men(), u("friends", "a", 10, 10, "humans/human")])
    w.call("cast_spell", {"magic_save": [6, 6]}, w="wiz", s="dispirit", target="men")
    assert w.unit("men").statuses and w.call("unit_value", u="men", name="Ld") == 6
    assert "men" not in [x.id for x in w.call("spell_targets", w="wiz", s="dispirit")]
    w.call("cast_spell", {}, w="wiz", s="enthuse", target="friends")
    assert w.call("unit_value", u="friends", name="Ld") == 8


def test_cause_panic_routs_on_a_failed_panic_test_and_not_undead(tmp_path: Path) -> None:
    # L2334-L2336: a failed save, then a failed panic test (12 > 7): the unit routs.
    w = World(tmp_path, [wizard(), men(), u("bones", "b", 50, 30, "psychology/skeleton")])
    w.call("cast_spell", {"magic_save": [6, 6], "panic_test": [6, 6]}, w="wiz", s="cause_panic", target="men")
    assert w.logs("routs under the spell") == [["men"]]
    w.call("cast_spell", {"magic_save": [6, 6]}, w="wiz", s="cause_panic", target="bones")
    assert w.logs("is not subject to psychology") == [["bones"]]


def test_steal_magical_power_takes_2d6_points_up_to_the_power_level(tmp_path: Path) -> None:
    # L2367-L2369: 2D6 = 9 points, but the caster (17 after paying 3) takes only 3, to 20.
    w = World(tmp_path, [wizard(), wizard("foe", "b", 36, 30)])
    w.call("cast_spell", {"magic_save": [6, 6], "stolen_points": [4, 5]}, w="wiz", s="steal_magical_power", target="foe")
    assert w.points("wiz") == 20 and w.points("foe") == 17


def test_a_mental_duel_is_d6_plus_magic_level(tmp_path: Path) -> None:
    # L2345-L2346: 5 + 2 against 3 + 2: the caster regains his 3 points and takes 3 more.
    w = World(tmp_path, [wizard(), wizard("foe", "b", 36, 30)])
    w.call("cast_spell", {"duel_roll": [5, 3]}, w="wiz", s="mental_duel", target="foe")
    assert w.points("wiz") == 23 and w.points("foe") == 17


def test_steadfast_lasts_d3_turns(tmp_path: Path) -> None:
    # L2363-L2366: immune to psychology, double attacks, +1 save, for D3 of its turns.
    w = World(tmp_path, [wizard(), men()])
    w.call("cast_spell", {"spell_duration_d3": [2]}, w="wiz", s="steadfast", target="wiz")
    assert "steadfast" in w.unit("wiz").statuses
    w.call("count_down")
    assert "steadfast" in w.unit("wiz").statuses
    w.call("count_down")
    assert "steadfast" not in w.unit("wiz").statuses
