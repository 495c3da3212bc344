"""wfb3 terrain, target size and speed, and skirmishers (seed 003_9d43467ba19595d2.txt,
L87-L245, L275-L310, L484-L486, L1313-L1330): rulesets/wfb3/terrain.rules.

Each test sets out a small battle with terrain pieces at fixed positions and names the 003
line it checks. The chances are worked out by hand: BS 3 needs 4 to hit (1/2, L264), -1 a 5
(1/3), -2 a 6 (1/6); WS 3 against WS 3 needs 5 (1/3, L472), +1 a 4 (1/2), -1 a 6 (1/6).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.wfb3_world import World, u

F = Fraction

HILL = {"id": "hill", "kind": "hill", "name": "Hill", "at": {"x": 36, "y": 6}, "size": {"w": 72, "h": 12}, "effects": ["Hill"]}
WOOD = {"id": "wood", "kind": "forest", "name": "Wood", "at": {"x": 56, "y": 36}, "size": {"w": 12, "h": 12}, "effects": ["Wood"]}
WALL = {"id": "wall", "kind": "obstacle", "name": "Wall", "at": {"x": 30, "y": 29.5}, "size": {"w": 20, "h": 1}, "effects": ["Obstacle", "Hard Cover"]}
HEDGE = {"id": "hedge", "kind": "obstacle", "name": "Hedge", "at": {"x": 30, "y": 29.5}, "size": {"w": 20, "h": 1}, "effects": ["Obstacle", "Soft Cover"]}


def shot(w: World, shooter: str = "a", target: str = "b") -> Fraction:
    """The chance that one shot of the shooter's first weapon hits the target 10" away."""
    weapon = w.unit(shooter).weapons[0]
    return w.passes("to_hit_missile", shooter=shooter, target=target, weapon=weapon, inches=10)


# ============================================================== movement (L145, L1321)


def test_l145_difficult_ground_halves_the_move_and_skirmishers_lose_a_quarter(tmp_path: Path) -> None:
    # L144-L145: a wood is difficult ground: M4 moves 2" in it; L1321: skirmishers 3".
    w = World(tmp_path, [u("a", "a", 56, 36, models=5, files=5),
                         u("s", "a", 56, 32, models=5, files=5, rules=["Skirmishers"]),
                         u("b", "b", 10, 46), u("c", "a", 10, 20)], [WOOD])
    assert w.call("move_rate", u="a") == 2
    assert w.call("move_rate", u="s") == 3
    assert w.call("move_rate", u="c") == 4
    # the charge reach is twice the move where it stands (L410)
    assert w.call("charge_reach", u="a") == 4


# ============================================================== cover (L283-L298)


def test_l287_a_target_in_a_wood_is_in_soft_cover(tmp_path: Path) -> None:
    # L287, L291-L298: -1 to hit a target in a wood (soft cover, L1449): 4 becomes 5.
    w = World(tmp_path, [u("a", "a", 56, 10, "humans/longbowman"), u("b", "b", 56, 36)], [WOOD])
    assert w.call("cover_of", shooter="a", target="b") == 1
    assert shot(w) == F(1, 2)
    w.status("b", "in_cover", n=1)
    assert shot(w) == F(1, 3)


def test_l285_behind_a_wall_is_hard_cover_unless_both_are_at_it(tmp_path: Path) -> None:
    # L285, L291-L298, L1981: a target at a wall is in hard cover, -2 (a 6); a shooter at the
    # same wall cancels it (L285).
    w = World(tmp_path, [u("a", "a", 30, 10, "humans/longbowman"), u("b", "b", 30, 30.5)], [WALL])
    assert w.call("cover_of", shooter="a", target="b") == 2
    w.status("b", "in_cover", n=2)
    assert shot(w) == F(1, 6)
    both = World(tmp_path, [u("a", "a", 30, 28.8, "humans/longbowman", facing=180), u("b", "b", 30, 30.5)], [WALL])
    assert both.call("cover_of", shooter="a", target="b") == 0
    hedge = World(tmp_path, [u("a", "a", 30, 10, "humans/longbowman"), u("b", "b", 30, 30.5)], [HEDGE])
    assert hedge.call("cover_of", shooter="a", target="b") == 1


# ============================================================== close combat (L484-L486)


def test_l484_higher_ground_gives_plus_1_to_hit(tmp_path: Path) -> None:
    # L484: the unit on the hill fights its foe below at +1 (4: 1/2); the foe does not gain.
    w = World(tmp_path, [u("a", "a", 36, 10), u("b", "b", 36, 14)], [HILL])
    w.call("combat_ground", c="a", foe="b")
    w.call("combat_ground", c="b", foe="a")
    assert "uphill" in w.unit("a").statuses and "uphill" not in w.unit("b").statuses
    assert w.passes("to_hit", attacker="a", target="b") == F(1, 2)
    assert w.passes("to_hit", attacker="b", target="a") == F(1, 3)


def test_l485_attacking_an_enemy_behind_a_hedge_is_minus_1(tmp_path: Path) -> None:
    # L485: chargers at a unit defending a hedge strike at -1; the charge's +1 cancels it (4:
    # 1/2 less 1 back to 5: 1/3, WE-38's wall).
    w = World(tmp_path, [u("a", "a", 30, 26), u("b", "b", 30, 30.5)], [HEDGE])
    w.status("a", "charged")
    w.call("combat_ground", c="b", foe="a")
    assert "behind_obstacle" in w.unit("b").statuses
    assert w.passes("to_hit", attacker="a", target="b") == F(1, 3)


def test_l486_fighting_unarmed_is_minus_2(tmp_path: Path) -> None:
    # L486: a creature that would have a weapon fighting unarmed: -2 (5 becomes "+4" on the
    # scale of L476: a 6 and then a 4, 1/12).
    w = World(tmp_path, [u("a", "a", 36, 10, values={"unarmed": True}), u("b", "b", 36, 14)])
    assert w.passes("to_hit", attacker="a", target="b") == F(1, 12)


# ============================================================== the target (L303-L306, L1318)


def test_l304_l306_l1318_small_rapid_and_skirmishing_targets(tmp_path: Path) -> None:
    # L304: a small target -1 (5: 1/3); L306: one that moved more than 6" in its reserve
    # phase, -1 more (6: 1/6); L1318: skirmishers -1 (5: 1/3).
    w = World(tmp_path, [u("a", "a", 36, 10, "humans/longbowman"), u("b", "b", 36, 20, rules=["Small Target"])])
    assert shot(w) == F(1, 3)
    w.status("b", "moving_rapidly")
    assert shot(w) == F(1, 6)
    s = World(tmp_path, [u("a", "a", 36, 10, "humans/longbowman"), u("b", "b", 36, 20, rules=["Skirmishers"])])
    assert shot(s) == F(1, 3)


def test_l306_a_reserve_move_over_6_inches_makes_a_rapid_target(tmp_path: Path) -> None:
    # L306, L600-L613: Ogres (M6) are not rapid after a 6" reserve move; an M8 unit is.
    w = World(tmp_path, [u("fast", "a", 36, 4, "psychology/ogre", models=4, files=4), u("b", "b", 36, 44)])
    w.unit("fast").profile["M"] = 8
    w.call("reserves_phase")
    assert "moving_rapidly" in w.unit("fast").statuses
    w.unit("fast").profile["M"] = 6
    w.call("reserves_phase")
    assert "moving_rapidly" not in w.unit("fast").statuses


# ============================================================== skirmishers (L1313-L1330)


def test_l1324_skirmishers_run_from_a_charge_and_charge_only_the_weak(tmp_path: Path) -> None:
    # L1324: charged by a formed unit of 10, 12 skirmishers must run away; by 2 (less than a
    # quarter of them) they may stand; L1325: they may charge only such a unit, skirmishers,
    # or unformed or routing troops. Scouts stand and charge as others (L1329).
    w = World(tmp_path, [u("s", "a", 36, 10, models=12, files=6, rules=["Skirmishers"]),
                         u("b", "b", 36, 14), u("few", "b", 10, 14, models=2, files=2)])
    assert w.call("reactions", t="s", u="b") == ["run_away"]
    assert w.call("reactions", t="s", u="few") == ["hold", "run_away"]
    assert w.call("skirmish_bound", s="s", foe="b") is True
    w.status("b", "unformed")
    assert w.call("skirmish_bound", s="s", foe="b") is False
    scouts = World(tmp_path, [u("s", "a", 36, 10, models=12, files=6, rules=["Scouts"]), u("b", "b", 36, 14)])
    assert scouts.call("skirmish_bound", s="s", foe="b") is False


def test_l1323_skirmishers_are_never_unformed(tmp_path: Path) -> None:
    # L1323: the unformed condition is ignored for skirmishers; others fall into it (L446).
    w = World(tmp_path, [u("s", "a", 36, 10, rules=["Skirmishers"]), u("b", "b", 36, 30)])
    w.call("disorder", u="s")
    w.call("disorder", u="b")
    assert "unformed" not in w.unit("s").statuses and "unformed" in w.unit("b").statuses
