"""The wfb3 ruleset (seed 003, Warhammer Fantasy Battle third edition): the tests, the attack
chains, close combat step by step, routs, pursuit and rallying, and the bundled battles.

Every check goes through the ruleset's own declarations: tests enumerated exactly
(``enumerate_exact``) or rolled on scripted dice, attack sequences through ``plan_attacks``
and ``attack_odds`` (what ``rules-odds`` prints), actions in a battle state (``Probe``) and
whole battles. ``Lnnn`` is a line of ``../shared/seeds/003_9d43467ba19595d2.txt``; ``WE-nn``
names a worked example of the digest's section 11. Probabilities are worked out by hand in the
comments.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.chance import ScriptedChance, enumerate_exact
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle
from rules_run.engine.odds import attack_odds, plan_attacks, sample_attacks
from rules_run.runtime.entities import Unit, Weapon

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "rulesets/wfb3/battles/duel.yaml")
SHOOTING = str(ROOT / "rulesets/wfb3/battles/shooting.yaml")
F = Fraction

HUMAN = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7, "Int": 7,
         "Cl": 7, "WP": 7}
LONG_BOW = {"Range": 30, "Strength": 3, "SaveMod": 0}
CROSSBOW = {"Range": 30, "Strength": 4, "SaveMod": 0}
SHIELD = {"values": {"shield": True}}
LIGHT = {"values": {"armour": "light"}}
HEAVY = {"values": {"armour": "heavy"}}
BARDING = {"values": {"barding": True}}


# ============================================================== helpers


@pytest.fixture(scope="module")
def duel():
    return open_battle("wfb3", DUEL)


@pytest.fixture(scope="module")
def rt(duel):
    return duel[1]


def unit(rt, id: str = "target", *, models: int = 10, files: int | None = None,
         equipment: tuple[dict, ...] = (), weapons: tuple[Weapon, ...] = (),
         statuses: tuple[str, ...] = (), values: dict[str, Any] | None = None,
         **profile: Any) -> Unit:
    """A unit of the Human profile (L55-L58) unless ``profile`` says otherwise."""
    u = Unit(id, id, id, dict(HUMAN, **profile), models, files=files or models,
             equipment=list(equipment), weapons=list(weapons), values=values or {})
    for s in statuses:
        u.statuses[s] = "turn"
    return u


def bow(rt, profile: dict[str, Any] = LONG_BOW) -> Weapon:
    return Weapon("bow", dict(profile), [rt.bind_rule("Piercing at Half Range")])


def passes(rt, name: str, options: dict[str, Any] | None = None, **args: Any) -> Fraction:
    """The exact chance that a test passes."""
    dist = enumerate_exact(lambda chance: bool(rt.invoke(name, rt.env(chance, options), dict(args)).passed))
    return dist.probability(True)


def rolled(rt, name: str, dice: list[int], **args: Any) -> list[bool]:
    """A test rolled once on each scripted die."""
    out = []
    for d in dice:
        chance = ScriptedChance([d])
        out.append(bool(rt.invoke(name, rt.env(chance), dict(args)).passed))
    return out


def call(rt, name: str, options: dict[str, Any] | None = None, **args: Any) -> Any:
    return rt.invoke(name, rt.env(ScriptedChance([]), options), dict(args))


def two_units(tmp_path: Path, a: str, b: str, *, distance: float = 4, first: str = "a") -> str:
    """A battle file: unit a (side a) against unit b (side b), each line a battle unit."""
    return str(battle_file(tmp_path, f"""edition: wfb3
game: {{rounds: 2, first: {first}}}
duel: {{distance: {distance}}}
units:
  - {a}
  - {b}
"""))


# ============================================================== Leadership (L544)


def test_the_ld_test_is_2d6_at_or_under_ld(rt) -> None:
    # L544: 2D6 <= Ld passes; humans Ld 7 (21/36), Goblins Ld 5 (10/36, L546); an unformed
    # unit tests at -1 (L419, L599): 15/36.
    assert passes(rt, "leadership", unit=unit(rt)) == F(21, 36)
    assert passes(rt, "rout_test", unit=unit(rt, Ld=5)) == F(10, 36)
    assert passes(rt, "leadership", unit=unit(rt, statuses=("unformed",))) == F(15, 36)
    # L594: halting a pursuit is a Ld test at -1.
    assert passes(rt, "halt_pursuit_test", unit=unit(rt)) == F(15, 36)


# ============================================================== to hit in close combat


def test_we37_twelve_humans_need_4s_against_goblins(rt) -> None:
    # WE-37, L477: WS 3 against WS 2 needs 4; dice 1 2 2 3 3 4 4 4 5 6 6 6 give 7 hits.
    hits = rolled(rt, "to_hit", [1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 6],
                  attacker=unit(rt), target=unit(rt, "goblins", WS=2))
    assert sum(hits) == 7


def test_we38_charging_and_a_wall(rt) -> None:
    # WE-38, L488: WS 4 against WS 3 needs 4 (1/2); charging +1 needs 3 (2/3); charging at an
    # enemy behind a wall (+1 -1, L485) needs 4 again.
    attacker, target = unit(rt, WS=4), unit(rt, "t", WS=3)
    charger = unit(rt, WS=4, statuses=("charged",))
    walled = unit(rt, "t", WS=3, statuses=("behind_obstacle",))
    assert passes(rt, "to_hit", attacker=attacker, target=target) == F(1, 2)
    assert passes(rt, "to_hit", attacker=charger, target=target) == F(2, 3)
    assert passes(rt, "to_hit", attacker=charger, target=walled) == F(1, 2)


def test_plus_n_is_a_6_then_n(rt) -> None:
    # L474, L476: WS 1 against WS 5 is "+4": a 6, then the die again needing 4 (1/6 x 1/2);
    # against WS 9 "+6": a 6 then a 6 (1/36); against WS 7 "+5" (1/6 x 1/3).
    a = unit(rt, WS=1)
    assert passes(rt, "to_hit", attacker=a, target=unit(rt, "t", WS=5)) == F(1, 12)
    assert passes(rt, "to_hit", attacker=a, target=unit(rt, "t", WS=7)) == F(1, 18)
    assert passes(rt, "to_hit", attacker=a, target=unit(rt, "t", WS=9)) == F(1, 36)
    # scripted: 6 then 4 hits, 6 then 3 misses, a 5 misses at once
    args = {"attacker": a, "target": unit(rt, "t", WS=5)}
    for dice, hit in [([6, 4], True), ([6, 3], False), ([5], False)]:
        chance = ScriptedChance(dice)
        assert bool(rt.invoke("to_hit", rt.env(chance), dict(args)).passed) is hit
        assert not chance.remaining()


def test_modifiers_on_plus_n_scores_are_a_reading(rt) -> None:
    # L476, L479 do not say how a modifier meets a "+N" score. shift (the default): a +4
    # with +1 needs a plain 6 (1/6); second: a 6 and then 3+ (1/6 x 2/3 = 1/9). A "+6" with
    # -1 cannot hit either way.
    a, t = unit(rt, WS=1, statuses=("charged",)), unit(rt, "t", WS=5)
    assert passes(rt, "to_hit", attacker=a, target=t) == F(1, 6)
    assert passes(rt, "to_hit", {"plus_modifiers": "second"}, attacker=a, target=t) == F(1, 9)
    for reading in ["shift", "second"]:
        walled = unit(rt, "t", WS=9, statuses=("behind_obstacle",))
        assert passes(rt, "to_hit", {"plus_modifiers": reading}, attacker=unit(rt, WS=1), target=walled) == 0


def test_no_score_below_2_and_a_1_always_misses(rt) -> None:
    # L476, L479: WS 10 against WS 1 needs 2; charging does not make it 1 (5/6 still).
    a = unit(rt, WS=10, statuses=("charged",))
    assert passes(rt, "to_hit", attacker=a, target=unit(rt, "t", WS=1)) == F(5, 6)


def test_the_cut_rows_reading(rt) -> None:
    # L472-L476, README.md: WS 7 against WS 2 (+5) needs 2 under the ladder reading, 3 under
    # "three".
    a, t = unit(rt, WS=7), unit(rt, "t", WS=2)
    assert passes(rt, "to_hit", attacker=a, target=t) == F(5, 6)
    assert passes(rt, "to_hit", {"ws_advantage": "three"}, attacker=a, target=t) == F(2, 3)


# ============================================================== to hit when shooting


def test_we22_four_longbowmen(rt) -> None:
    # WE-22, L268: BS 3 at 5-7" with long bows (30") needs 4: dice 1 4 4 6 give 3 hits.
    hits = rolled(rt, "to_hit_missile", [1, 4, 4, 6], shooter=unit(rt), target=unit(rt, "orcs"),
                  weapon=bow(rt), inches=6)
    assert sum(hits) == 3


def test_we23_a_giant_beyond_half_range(rt) -> None:
    # WE-23, L309: 17-20" is over half of a long bow's 30" (-1), a giant is large (+1, the
    # caller's modifier): 4 needed, dice 3 3 4 5 6 give 3 hits.
    hits = rolled(rt, "to_hit_missile", [3, 3, 4, 5, 6], shooter=unit(rt), target=unit(rt, "giant"),
                  weapon=bow(rt), inches=18, modifier=1)
    assert sum(hits) == 3
    assert passes(rt, "to_hit_missile", shooter=unit(rt), target=unit(rt, "giant"), weapon=bow(rt), inches=18) == F(1, 3)


def test_the_shooting_modifiers(rt) -> None:
    # L305: having moved -1; L307, L435: at chargers -1; BS 3 needs 5 with one of them.
    for status in ["has_moved", "standing_and_shooting"]:
        assert passes(rt, "to_hit_missile", shooter=unit(rt, statuses=(status,)), target=unit(rt, "t"),
                      weapon=bow(rt), inches=6) == F(1, 3)
    # L267, L310: BS 6 needs 1 on the table, held to 2 even when moving; a 1 misses (5/6).
    assert passes(rt, "to_hit_missile", shooter=unit(rt, BS=6, statuses=("has_moved",)),
                  target=unit(rt, "t"), weapon=bow(rt), inches=6) == F(5, 6)


def test_a_shot_needing_7_is_a_reading(rt) -> None:
    # BS 1 (6) moving (-1) needs 7: plus_n (default) a 6 then 4+ (1/12); miss: cannot hit.
    shooter = unit(rt, BS=1, statuses=("has_moved",))
    args = dict(shooter=shooter, target=unit(rt, "t"), weapon=bow(rt), inches=6)
    assert passes(rt, "to_hit_missile", **args) == F(1, 12)
    assert passes(rt, "to_hit_missile", {"shooting_beyond_six": "miss"}, **args) == 0


# ============================================================== damage and saves


def test_the_damage_examples(rt) -> None:
    # L330, L341: a crossbow's S4 against Goblins' T3 needs 3; the dice 1 4 5 damage twice.
    goblin = unit(rt, "goblins")
    assert passes(rt, "wound_at", strength=4, target=goblin) == F(2, 3)
    assert sum(rolled(rt, "wound_at", [1, 4, 5], strength=4, target=goblin)) == 2
    # L500: S3 against Ogres' T5 needs 6: the dice 1 4 5 6 damage once.
    ogre = unit(rt, "ogres", T=5)
    assert sum(rolled(rt, "to_wound", [1, 4, 5, 6], attacker=unit(rt), target=ogre)) == 1
    # L337: N cannot damage; 2 is the lowest score and a 1 always fails.
    assert passes(rt, "to_wound", attacker=unit(rt, S=1), target=ogre) == 0
    assert passes(rt, "wound_at", strength=10, target=unit(rt, "t", T=1)) == F(5, 6)


def test_we28_chainmail_and_shields(rt) -> None:
    # WE-28, L367: Orcs with light armour and shields save on 5: dice 1 3 5 6 save twice.
    orcs = unit(rt, "orcs", equipment=(LIGHT, SHIELD))
    assert sum(rolled(rt, "armour_save", [1, 3, 5, 6], target=orcs)) == 2


def test_we29_a_knight_hit_by_a_crossbow_at_short_range(rt) -> None:
    # WE-29, L385: a knight saving on 4 needs 5 against a crossbow within half range (-1),
    # 4 beyond it.
    knight = unit(rt, "knight", equipment=(HEAVY, SHIELD))
    crossbow = bow(rt, CROSSBOW)
    assert call(rt, "missile_save_modifier", weapon=crossbow, inches=15) == -1
    assert call(rt, "missile_save_modifier", weapon=crossbow, inches=16) == 0
    assert passes(rt, "armour_save", target=knight, save_modifier=-1) == F(1, 3)
    assert passes(rt, "armour_save", target=knight) == F(1, 2)


def test_the_mounted_saves_as_printed(rt) -> None:
    # L356-L363: on a riding animal none 6, barded 5; shield 5, barded 4; light armour 5,
    # barded 4 (+1 for the mount and at least a 6, +1 more for barding, L355).
    riding = {"riding_animal": True}
    rows = [((), 6), ((BARDING,), 5), ((SHIELD,), 5), ((SHIELD, BARDING), 4),
            ((LIGHT,), 5), ((LIGHT, BARDING), 4)]
    for equipment, save in rows:
        assert call(rt, "armour_of", target=unit(rt, equipment=equipment, values=riding), shield=True) == save


def test_we50_no_shields_against_a_free_hack(rt) -> None:
    # WE-50, L553-L554: Goblins with only shields have no save against a free hack; in light
    # armour they would save on 6.
    assert call(rt, "armour_of", target=unit(rt, equipment=(SHIELD,)), shield=False) is None
    assert call(rt, "armour_of", target=unit(rt, equipment=(LIGHT, SHIELD)), shield=False) == 6


def test_we01_we02_encumbrance(rt) -> None:
    # WE-01, L128: M4 with heavy armour and shield (save 4) moves 3"; WE-02, L130: a Goblin
    # with light armour and shield (save 5) moves 3 1/2".
    assert call(rt, "move_allowance", u=unit(rt, equipment=(HEAVY, SHIELD))) == 3
    assert call(rt, "move_allowance", u=unit(rt, equipment=(LIGHT, SHIELD))) == 3.5


# ============================================================== the attack sequences (rules-odds)


def test_the_duel_blow_odds(duel) -> None:
    # rules-odds --mode melee: a Human against a Goblin hits on 4 (1/2), damages on 4 (1/2),
    # and the shield saves on 6 (5/6 fail): 5/24 a blow; twelve blows, 12 x 5/24 = 5/2.
    _, rt, battle = duel
    humans, goblins = battle.unit("humans"), battle.unit("goblins")
    (plan,) = plan_attacks(rt, humans, goblins, mode="melee")
    odds = attack_odds(rt, plan, goblins)
    assert plan.attacks == 12
    assert odds.damage.mean() == F(5, 2)


def test_a_free_hack_hits_automatically(duel) -> None:
    # L553: every attack hits; a Human damages a Goblin on 4 and the shield does not count:
    # 1/2 a blow.
    _, rt, battle = duel
    humans, goblins = battle.unit("humans"), battle.unit("goblins")
    (plan,) = plan_attacks(rt, humans, goblins, mode="free_hack", attacks=8)
    assert attack_odds(rt, plan, goblins).damage.mean() == 4


def test_a_long_bow_volley(rt) -> None:
    # 20 longbowmen at 6" (within half range): hit 4 (1/2), S3 against T3 4 (1/2), a Goblin's
    # shield cannot save against -1 (6 + 1 = 7): 1/4 a shot, 5 on average.
    archers = unit(rt, "archers", models=20, files=10, weapons=(bow(rt),))
    goblins = unit(rt, "goblins", equipment=(SHIELD,), models=12, WS=2, I=2, Ld=5)
    (plan,) = plan_attacks(rt, archers, goblins, mode="shooting", settings={"inches": 6})
    assert plan.attacks == 20
    assert attack_odds(rt, plan, goblins).damage.mean() == 5


# ============================================================== who strikes (L407, L516-L520)


def test_we40_we41_casualties_lose_their_attacks(rt) -> None:
    # WE-40, L517: ten Goblins in a rank that lost 4 to the faster men strike with 6. WE-41,
    # L520: two ranks of ten that lost 4 strike with 6 too, front or rear casualties alike.
    assert call(rt, "melee_attacks", attacker=unit(rt, models=6, files=10), target=unit(rt), lost=4) == 6
    assert call(rt, "melee_attacks", attacker=unit(rt, models=16, files=10), target=unit(rt), lost=4) == 6
    # WE-37: twelve in a rank strike twelve blows; L556: a free hack after 2 of a front rank
    # of 10 fell is 8 attacks.
    assert call(rt, "melee_attacks", attacker=unit(rt, models=12), target=unit(rt)) == 12
    assert call(rt, "melee_attacks", attacker=unit(rt, models=18, files=10), target=unit(rt), lost=2) == 8


# ============================================================== a round step by step


def test_we37_a_round_of_the_duel_with_rout_free_hacks_and_pursuit() -> None:
    # L477, L516-L527, L542, L552-L581: the Goblins charge (+1 to hit, +1 on the result). The
    # Humans (I3) strike first: 12 blows, the 7 hits of WE-37, 4 damage, 1 saved: 3 Goblins
    # fall. The 9 left strike (4+ with the charge): 3 hits, 2 damage, 1 saved. Humans 3 against
    # Goblins 1 + 1 = 2: the Goblins lost a quarter of twelve and test for rout (L542): 12
    # fails. The Humans strike a free hack with the 11 of their rank still standing (L553,
    # L556), pursue, and strike a second one (L581). In light armour and shield they move 3
    # 1/2" (L351): 7" of pursuit does not catch Goblins routing 8", so they halt unformed
    # (L583).
    dice = {"to_hit": [1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 6, 6] + [4, 4, 4, 1, 1, 1, 1, 1, 1],
            "to_wound": [4, 4, 4, 4, 1, 1, 1] + [4, 4, 1] + [1] * 22,
            "armour_save": [6, 1, 1, 1] + [5, 1],
            "rout_test": [6, 6]}
    p = Probe("wfb3", DUEL, dice=dice, active="goblins")
    p("complete_charge", u="goblins", t="humans")
    p("fight_round", u="humans")
    volleys = [(e.attacker, e.sequence, e.attacks, e.damage) for e in p.events("attacks")]
    assert volleys == [("humans", "melee_attack", 12, 3), ("goblins", "melee_attack", 9, 1),
                       ("humans", "free_hack", 11, 0), ("humans", "free_hack", 11, 0)]
    assert p.logged("wins the combat") == [["humans", 3, 2]]
    assert p.logged("fails its rout test") == [["goblins"]]
    assert p.unit["goblins"].models == 9 and p.unit["humans"].models == 11
    assert "routing" in p.unit["goblins"].statuses and "pursuing" not in p.unit["humans"].statuses
    assert p.logged("halts unformed") == [["humans"]]
    assert p.unit["goblins"] not in p.unit["humans"].engaged
    assert not p.chance.remaining()


def test_we52_holding_back_strikes_one_free_hack() -> None:
    # WE-52, L592: the winner that passes its Ld test does not pursue: one free hack only.
    dice = {"to_wound": [1] * 12, "leadership": [1, 1], "pursuit_restraint_test": [1, 1]}
    orders = [{"decision": "pursuit_choice", "unit": "humans", "choose": "hold"}]
    p = Probe("wfb3", DUEL, dice=dice, active="humans", orders=orders)
    p("complete_charge", u="goblins", t="humans")
    p("begin_rout", r="goblins", w="humans")
    assert [e.sequence for e in p.events("attacks")] == ["free_hack"]
    assert p.logged("holds back from the pursuit") == [["humans"]]
    assert "pursuing" not in p.unit["humans"].statuses


def test_the_combat_result_l527(tmp_path: Path) -> None:
    # L527: the Humans cause 3 wounds and charged (+1), the Goblins cause 3: the Humans win
    # 4 to 3. Both in a single rank: no rank bonus.
    p = Probe("wfb3", DUEL, active="humans")
    p.unit["humans"].statuses["charged"] = "turn"
    for u in ["humans", "goblins"]:
        p.set_counter("wounds_caused", u, 3)
        p.set_counter("round_front", u, 12)
    assert p("combat_score", x="humans") == 4
    assert p("combat_score", x="goblins") == 3


def test_the_rank_bonus(tmp_path: Path) -> None:
    # L526: +1 a complete rank behind the first as the round began, at most +3, and only with
    # 4 or more fighting in the front rank; following up last round +1 (L525).
    p = Probe("wfb3", DUEL, active="humans")
    for front, ranks, bonus in [(5, 3, 3), (10, 1, 1), (5, 5, 3), (3, 3, 0), (4, 2, 2)]:
        p.set_counter("wounds_caused", "humans", 0)
        p.set_counter("round_front", "humans", front)
        p.set_counter("round_ranks", "humans", ranks)
        assert p("combat_score", x="humans") == bonus
    p.unit["humans"].statuses["followed_up"] = None
    assert p("combat_score", x="humans") == 3  # (4, 2): 2, and 1 following up


def test_we53_a_rout_test_only_after_a_quarter_lost(tmp_path: Path) -> None:
    # WE-53, L542: a unit of 20 that lost 4 is pushed back without a test; having lost 5 it
    # tests before the push-back, and passing is still pushed back.
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/human, models: 20, files: 10}",
                     "{id: b, side: b, profile: humans/human, models: 20, files: 10}")
    p = Probe("wfb3", path, dice={"rout_test": [1, 1]}, active="a")
    p("complete_charge", u="a", t="b")
    p.unit["b"].models = 16
    p("lose_round", l="b", w="a")
    assert p.events("test", rule="rout_test") == []
    assert p.logged("is pushed back") == [["b", "a"]]
    p.unit["b"].models = 15
    p("lose_round", l="b", w="a")
    assert len(p.events("test", rule="rout_test")) == 1
    assert p.logged("is pushed back") == [["b", "a"], ["b", "a"]]
    assert not p.chance.remaining()


def test_push_back_and_follow_up(tmp_path: Path) -> None:
    # L528-L529, L483: the loser moves 2" back and the winner follows into contact; next round
    # the follower has +1 to hit (WS 3 against 3: 5 becomes 4).
    p = Probe("wfb3", DUEL, active="humans")
    p("complete_charge", u="goblins", t="humans")
    p("push_back", l="goblins", w="humans")
    assert p.unit["goblins"] in p.unit["humans"].engaged
    assert "followed_up" in p.unit["humans"].statuses
    assert p.logged("is pushed back") == [["goblins", "humans"]]
    rt = p.runtime
    follower = unit(rt, statuses=("followed_up",))
    assert passes(rt, "to_hit", attacker=follower, target=unit(rt, "t")) == F(1, 2)


def test_an_unformed_unit_pushed_back_in_its_first_round_routs(tmp_path: Path) -> None:
    # L446: a charge that fell short leaves the unit unformed; pushed back in its first round
    # of combat it routs, with no test.
    p = Probe("wfb3", DUEL, dice={"to_wound": [1] * 30}, active="humans")
    p("complete_charge", u="goblins", t="humans")
    p.unit["goblins"].statuses["unformed"] = None
    p("lose_round", l="goblins", w="humans")
    assert p.logged("is pushed back while unformed and routs") == [["goblins"]]
    assert "routing" in p.unit["goblins"].statuses


# ============================================================== strike order (L466-L468)


def test_the_charger_strikes_first_at_equal_initiative(tmp_path: Path) -> None:
    # L468: two Human units (I3): the one that charged strikes first; its 4 kills (of 10 in a
    # rank) cost the other 4 of its 10 blows (L516-L520).
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/human, models: 10}",
                     "{id: b, side: b, profile: humans/human, models: 10}")
    dice = {"to_hit": [6] * 4 + [1] * 6 + [1] * 6, "to_wound": [6] * 4, "rout_test": [1, 1]}
    p = Probe("wfb3", path, dice=dice, active="a")
    p("complete_charge", u="a", t="b")
    p("fight_round", u="b")
    assert [(e.attacker, e.attacks, e.damage) for e in p.events("attacks")] == [("a", 10, 4), ("b", 6, 0)]


def test_the_last_winner_strikes_first_then_both_at_once(tmp_path: Path) -> None:
    # L468: with no charger, the winner of the last round strikes first; with neither, both
    # strike at once (the default reading): no casualty removed until both have struck.
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/human, models: 10}",
                     "{id: b, side: b, profile: humans/human, models: 10}")
    dice = {"to_hit": [6] * 4 + [1] * 6 + [1] * 6, "to_wound": [6] * 4, "rout_test": [1, 1]}
    p = Probe("wfb3", path, dice=dice, active="a")
    p("complete_charge", u="a", t="b")
    del p.unit["a"].statuses["charged"]
    p.unit["b"].statuses["won_round"] = None
    p("fight_round", u="a")
    assert [(e.attacker, e.attacks, e.damage) for e in p.events("attacks")] == [("b", 10, 4), ("a", 6, 0)]
    dice = dict(dice, to_hit=[6] * 4 + [1] * 6 + [1] * 10)
    q = Probe("wfb3", path, dice=dice, active="a")
    q("complete_charge", u="a", t="b")
    del q.unit["a"].statuses["charged"]
    q("fight_round", u="a")
    assert [(e.attacker, e.attacks, e.damage) for e in q.events("attacks")] == [("a", 10, 4), ("b", 10, 0)]
    # the other reading (strike_ties roll_off): a roll-off decides; b rolls 5 against a's 2
    # and strikes first, its 4 kills costing a 4 blows.
    dice = dict(dice, roll_off=[2, 5])
    r = Probe("wfb3", path, dice=dice, active="a", options={"strike_ties": "roll_off"})
    r("complete_charge", u="a", t="b")
    del r.unit["a"].statuses["charged"]
    r("fight_round", u="a")
    assert [(e.attacker, e.attacks, e.damage) for e in r.events("attacks")] == [("b", 10, 4), ("a", 6, 0)]


@pytest.mark.parametrize("reading, counted, score", [("raw", 10, 11), ("capped", 3, 4)])
def test_wounds_beyond_the_foes_last_model_are_a_reading(tmp_path: Path, reading: str,
                                                         counted: int, score: int) -> None:
    # L521-L523: ten charging Humans cause 10 wounds (every die scripted a 6, no save) on 3
    # Humans of 1 Wound. The combat result counts all 10 (combat_wounds raw, the default) or
    # the 3 the foe had (capped); +1 for the charge.
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/human, models: 10}",
                     "{id: b, side: b, profile: humans/human, models: 3, files: 3}")
    dice = {"to_hit": [6] * 10, "to_wound": [6] * 10, "armour_save": [1] * 10, "rout_test": [1, 1]}
    p = Probe("wfb3", path, dice=dice, active="a", options={"combat_wounds": reading})
    p("complete_charge", u="a", t="b")
    p("fight_round", u="b")
    assert [(e.attacker, e.attacks, e.damage) for e in p.events("attacks")] == [("a", 10, 10)]
    assert p.counter("wounds_caused", "a") == counted
    assert p.logged("wins the combat") == [["a", score, 0]]


# ============================================================== rallying (L565-L573)


def test_we55_a_quarter_left_to_rally(tmp_path: Path) -> None:
    # WE-55, L570: a unit that began with 20 may rally with 5 left, not with 4; it must be
    # nearer a friendly unit than an enemy (L571).
    path = str(battle_file(tmp_path, """edition: wfb3
game: {rounds: 2, first: a}
units:
  - {id: routers, side: a, profile: humans/human, models: 20, files: 10, position: {x: 30, y: 10, facing: 0}}
  - {id: friends, side: a, profile: humans/human, models: 10, files: 10, position: {x: 30, y: 4, facing: 0}}
  - {id: enemy, side: b, profile: humans/human, models: 10, files: 10, position: {x: 30, y: 30, facing: 180}}
"""))
    p = Probe("wfb3", path, active="a")
    p.unit["routers"].statuses["routing"] = None
    p.unit["routers"].models = 5
    assert p("may_rally", u="routers") is True
    p.unit["routers"].models = 4
    assert p("may_rally", u="routers") is False


# ============================================================== the ruleset: clean and cited

SEED_LINES = 3018          # the lines of 003_9d43467ba19595d2.txt
CITE = re.compile(json.loads((ROOT / "schemas" / "common.schema.json").read_text())["$defs"]["cite"]["pattern"])


def cited_lines(cite: str) -> list[tuple[int, int]]:
    """The line ranges a citation names (L12, L12-L15, L12-15)."""
    return [(int(a), int(b or a)) for a, b in re.findall(r"L(\d+)(?:-L?(\d+))?", cite)]


def test_rules_check_is_clean_for_the_ruleset_and_its_battles(capsys) -> None:
    # `rules-check rulesets/wfb3` checks the ruleset and its bundled battles: no error, no
    # warning.
    from rules_run.cli.check import main

    assert main([str(ROOT / "rulesets" / "wfb3")]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out and "error" not in out
    assert out.count("ok: ") == 4     # the ruleset and its three battles


def test_every_declaration_cites_a_003_line_or_not_in_seed(duel) -> None:
    # Every declaration of the ruleset names the seed line it comes from (a line of the seed,
    # 1 to 3018, never L1259 alone: an extraction leftover) or says "not in seed: ...".
    ruleset = duel[0]
    assert len(ruleset.origins) > 500
    for key, origin in ruleset.origins.items():
        assert origin.ruleset == "wfb3", key
        cite = origin.cite
        assert cite.startswith(("003_9d43467ba19595d2.txt L", "not in seed: ")), (key, cite)
        if cite.startswith("003"):
            spans = cited_lines(cite)
            assert spans, (key, cite)
            assert all(1 <= lo <= hi <= SEED_LINES for lo, hi in spans), (key, cite)
            assert (1259, 1259) not in spans, (key, cite)


def test_every_data_file_cites_a_003_line_or_not_in_seed() -> None:
    # The tables, unit profiles, equipment and spells: the file's cite, each unit's and each
    # item's.
    files = sorted((ROOT / "rulesets" / "wfb3").glob("*/*.yaml"))
    files = [f for f in files if f.parent.name != "battles"]
    assert len(files) >= 20
    for path in files:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        found = [("(file)", doc.get("cite"))]
        found += [(uid, unit.get("cite")) for uid, unit in doc.get("units", {}).items()]
        found += [(iid, item.get("cite")) for iid, item in doc.get("items", {}).items()]
        for where, cite in found:
            assert isinstance(cite, str) and CITE.match(cite), (path.name, where, cite)
            assert all(1 <= lo <= hi <= SEED_LINES for lo, hi in cited_lines(cite)), (path.name, where, cite)


def test_the_readme_gives_every_option_with_its_default(duel) -> None:
    # README.md's table of readings lists every option the ruleset declares, with its default.
    readme = (ROOT / "rulesets" / "wfb3" / "README.md").read_text(encoding="utf-8")
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(\w+)` \| `([^`]+)`", readme, re.M)}
    defaults = duel[1].option_defaults
    assert len(defaults) >= 9
    for name, default in defaults.items():
        assert name in rows, name
        assert rows[name] == (str(default).lower() if isinstance(default, bool) else default), name


def test_the_points_values_are_pure_actions(duel) -> None:
    # L743-L837, L1065-L1068, L2184-L2201: every action of points.rules reads the unit and
    # changes nothing (it runs without a battle: rules-odds and the editor may call it).
    from rules_run.runtime.sequences import purity

    rt = duel[1]
    names = [n for n, a in rt.actions.items() if a.decl.span.path.endswith("points.rules")]
    assert {"model_points", "unit_points", "character_points", "chariot_points"} <= set(names)
    assert [n for n in names if not purity(rt, rt.actions[n].decl, dice=False)[0]] == []


# ============================================================== the battles


def test_the_duel_plays_to_the_end(duel) -> None:
    # L67-L76: six phases in order each turn; close combat in both sides' turns (L66).
    _, runtime, battle = duel
    result = run_battle(runtime, battle, seed=1)
    assert result.winner in ("humans", "goblins", None)
    phases = [e.phase for e in result.events if e.kind == "phase"]
    six = ["movement_phase", "shooting_phase", "hand_to_hand_phase", "reserves_phase",
           "magic_phase", "rallying_phase"]
    assert phases == six * (len(phases) // 6)
    fought_in = {e.side for e in result.events if e.kind == "attacks" and e.sequence == "melee_attack"}
    assert fought_in == {"humans", "goblins"}


def test_the_longbowmen_stand_and_shoot_and_the_goblins_test() -> None:
    # L433-L435, L543: over seeds, the longbowmen fire at the charge at -1; a quarter of the
    # Goblins lost to it brings a rout test before they strike.
    _, runtime, battle = open_battle("wfb3", SHOOTING)
    tested = shot = False
    for seed in range(1, 40):
        result = run_battle(runtime, battle, seed=seed)
        logs = [e.message for e in result.events if e.kind == "log"]
        shot = shot or "shoots at" in logs
        tested = tested or any(e.kind == "test" and e.rule == "rout_test" and e.round == 1
                               and e.side == "goblins" for e in result.events)
        if shot and tested:
            return
    pytest.fail("no stand and shoot followed by a rout test in 40 seeds")


def test_two_thousand_runs_finish() -> None:
    # The acceptance command, with fewer runs: rules-run --runs N --seed 1 --json.
    out = subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", "wfb3", DUEL,
                          "--runs", "50", "--seed", "1", "--json"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    data = json.loads(out.stdout)
    assert data["runs"] == 50


def test_shields_laid_aside_after_standing_and_shooting(rt) -> None:
    # L435: bowmen who fired at chargers fight the first round without their shields. A
    # Goblin's blow at a Human in light armour and shield: hit 5 (1/3), damage 4 (1/2), the
    # save 5 fails 2/3: 1/9; with the shield aside the save is 6 (fails 5/6): 5/36.
    goblin = unit(rt, "goblins", WS=2, I=2)
    for statuses, p in [((), F(1, 9)), (("shields_aside",), F(5, 36))]:
        human = unit(rt, "humans", equipment=(LIGHT, SHIELD), statuses=statuses)
        (plan,) = plan_attacks(rt, goblin, human, mode="melee", attacks=1)
        assert attack_odds(rt, plan, human).damage.mean() == p


# ============================================================== charges and their reactions


@pytest.mark.parametrize("distance, reach", [(5.9, True), (6.1, False)])
def test_we34_a_charge_is_twice_the_move(tmp_path: Path, distance: float, reach: bool) -> None:
    # WE-34, L410: a move of 3 (M4 in heavy armour and shield, L353) charges up to 6".
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/human, models: 10, equipment: [heavy_armour, shield]}",
                     "{id: b, side: b, profile: goblins/goblin, models: 10}", distance=distance)
    p = Probe("wfb3", path, active="a")
    assert p("move_allowance", u="a") == 3
    assert (p("charge_target", u="a") is not None) is reach


@pytest.mark.parametrize("distance, may_shoot", [(4.5, True), (3.5, False)])
def test_we35_stand_and_shoot_only_from_over_half_the_charge(tmp_path: Path, distance: float, may_shoot: bool) -> None:
    # WE-35, L433: Goblins charging up to 8" may be shot at only if they began more than 4"
    # away.
    path = two_units(tmp_path, "{id: bows, side: a, profile: humans/longbowman, models: 10}",
                     "{id: gobs, side: b, profile: goblins/goblin, models: 10}", distance=distance)
    p = Probe("wfb3", path, active="b")
    assert ("stand_and_shoot" in p("reactions", t="bows", u="gobs")) is may_shoot


def test_running_away(tmp_path: Path) -> None:
    # L436-L438: a passed Ld test runs double rate straight away (8" for M4) and may not
    # charge next turn; a failed one routs.
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/human, models: 10}",
                     "{id: b, side: b, profile: goblins/goblin, models: 10}", distance=6)
    p = Probe("wfb3", path, dice={"run_away_test": [1, 1, 6, 6]}, active="b")
    p("run_away", t="a", u="b")
    assert p.logged("runs away") == [["a", "b"]]
    gap = BUILTINS["distance"](p.state, p.env, None, p.unit["a"], p.unit["b"])
    assert gap == pytest.approx(14)
    assert "ran_away" in p.unit["a"].statuses and p("may_charge", u="a") is False
    q = Probe("wfb3", path, dice={"run_away_test": [6, 6]}, active="b")
    q("run_away", t="a", u="b")
    assert q.logged("panics and routs") == [["a"]]
    assert "routing" in q.unit["a"].statuses


def test_a_quarter_lost_to_missiles_tests_for_rout(tmp_path: Path) -> None:
    # L543: a quarter or more of the strength at the start of the turn lost to missile fire:
    # a rout test; 12 at the start: 9 left tests, 10 left does not. Once a turn.
    path = two_units(tmp_path, "{id: a, side: a, profile: humans/longbowman, models: 10}",
                     "{id: b, side: b, profile: goblins/goblin, models: 12}", distance=10)
    p = Probe("wfb3", path, dice={"rout_test": [1, 1]}, active="a")
    p.set_counter("turn_models", "b", 12)
    p.unit["b"].models = 10
    p("missile_rout_check", u="b")
    assert p.events("test", rule="rout_test") == []
    p.unit["b"].models = 9
    p("missile_rout_check", u="b")
    p("missile_rout_check", u="b")
    assert len(p.events("test", rule="rout_test")) == 1
    assert "routing" not in p.unit["b"].statuses


def test_pursuers_in_contact_strike_free_hacks_until_the_routers_fall() -> None:
    # L586: every round against routers is a free hack (all hit); when the last router falls
    # the pursuers halt unformed. Twelve Humans hack twelve Goblins with only shields (no save,
    # L553): twelve 6s to damage slay them all.
    p = Probe("wfb3", DUEL, dice={"to_wound": [6] * 12}, active="goblins")
    p("complete_charge", u="humans", t="goblins")
    p.unit["goblins"].statuses["routing"] = None
    p.unit["humans"].statuses["pursuing"] = None
    p("fight_round", u="humans")
    assert [(e.attacker, e.sequence, e.attacks, e.damage) for e in p.events("attacks")] == [
        ("humans", "free_hack", 12, 12)]
    assert p.unit["goblins"].models == 0
    assert p.logged("halts unformed") == [["humans"]]
    assert "pursuing" not in p.unit["humans"].statuses


def test_sampled_and_exact_odds_agree_for_a_plus_n_blow(rt) -> None:
    # One declaration, two kinds of chance: WS 1 against WS 6 ("+4": 1/12) with S 4 against
    # T 3 (3: 2/3), no save: 1/18 a blow; 2000 sampled volleys of 12 blows lie within 4 sigma
    # of the exact distribution.
    attacker, target = unit(rt, "a", models=12, WS=1, S=4), unit(rt, "t", models=12, WS=6)
    (plan,) = plan_attacks(rt, attacker, target, mode="melee")
    exact = attack_odds(rt, plan, target).damage
    assert exact.mean() == 12 * F(1, 18)
    n = 2000
    sampled = sample_attacks(rt, plan, n, 3)
    for k in exact.support():
        p = exact.probability(k)
        assert abs(float(sampled.probability(k) - p)) <= 4 * math.sqrt(float(p * (1 - p)) / n) + 1e-12, k
    assert abs(float(sampled.mean() - exact.mean())) < 4 * math.sqrt(float(exact.variance()) / n)


def test_we43_a_standard_in_the_front_rank(tmp_path: Path) -> None:
    # WE-43, L717: the Humans cause 4 wounds, the Orcs 3 with their standard in the front
    # rank (+1): a draw, both hold. A routed unit drops its standard (L731).
    path = two_units(tmp_path, "{id: humans, side: a, profile: humans/human, models: 10}",
                     "{id: orcs, side: b, profile: humans/human, models: 10, command: [standard]}")
    p = Probe("wfb3", path, dice={"to_wound": [1] * 20}, active="a")
    for u, wounds in [("humans", 4), ("orcs", 3)]:
        p.set_counter("wounds_caused", u, wounds)
    assert (p("combat_score", x="humans"), p("combat_score", x="orcs")) == (4, 4)
    p("complete_charge", u="humans", t="orcs")
    del p.unit["humans"].statuses["charged"]
    p("round_result", members=[p.unit["humans"], p.unit["orcs"]])
    assert p.logged("the combat is drawn") == [["humans", 4]]
    p("begin_rout", r="orcs", w="humans")
    assert "standard_dropped" in p.unit["orcs"].statuses
    p.set_counter("wounds_caused", "orcs", 3)
    assert p("combat_score", x="orcs") == 3
