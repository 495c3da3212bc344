"""Fleeing through units in wfb8 (seed 000 L182-L186, L520): a flee move runs through friends
and foes, goes on until 1" clear of every unit, takes a Wound per point of Unit Strength of
each non-fleeing enemy it fled through, and makes the friends it fled through test for Panic.

Every unit here stands on 1" square bases, five files wide, so each layout is worked out by
hand: twenty Halberdiers are a 5" x 4" block, ten a 5" x 2" one, three Orc Boyz 3" x 1".
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from helpers.wfb8_world import World, unit
from rules_run.engine.builtins import BUILTINS

INCH = {"w": 25.4, "d": 25.4}


def block(uid: str, side: str, x: float, y: float, facing: float = 0, **spec: Any) -> dict:
    spec.setdefault("base", INCH)
    if side == "orcs":
        spec.setdefault("profile", "orcs/orc_boy")
    return unit(uid, side, x, y, facing, **spec)


def fleeing_halberdiers(tmp_path: Path, *others: dict, models: int = 20, **extra: Any) -> World:
    """Halberdiers (a, x 33.5-38.5, y 8-12 with twenty) that will flee up the table from
    Orc Boyz (b) below them: 8" on the dice takes them to y 16-20."""
    return World(tmp_path, [
        block("a", "empire", 36, 10, models=models),
        block("b", "orcs", 36, 2, 180),
        *others,
    ], **extra)


def moves(w: World, uid: str) -> list[dict]:
    return [e for e in w.events if e.kind == "move" and e.unit == uid]


# ============================================================== wounds from enemies fled through


def test_an_enemy_fled_through_deals_a_wound_per_point_of_its_unit_strength(
        tmp_path: Path) -> None:
    # three Orc Boyz (Unit Strength 3, y 13.5-14.5) stand across the path: three Wounds, no
    # saves (the script holds no die for one: a save rolled would run out of dice), 20 -> 17
    w = fleeing_halberdiers(tmp_path, block("e", "orcs", 36, 14, 180, models=3, files=3))
    w.call("flee_from", {"flee_distance": [4, 4]}, u="a", enemy="b")
    a = w.unit("a")
    assert a.pose.y == pytest.approx(18.0) and a.models == 17
    assert w.logs("flees through") == [["a", "e"]]
    assert w.unit("e").models == 3


def test_a_fleeing_enemy_or_one_only_passed_beside_deals_no_wounds(tmp_path: Path) -> None:
    # e is fleeing itself; s stands beside the path (x 38.5-41.5, touching its edge)
    w = fleeing_halberdiers(tmp_path, block("e", "orcs", 36, 14, 180, models=3, files=3),
                            block("s", "orcs", 40, 14, 180, models=3, files=3))
    BUILTINS["apply"](w.state, w.env(), None, "fleeing", w.unit("e"))
    w.call("flee_from", {"flee_distance": [4, 4]}, u="a", enemy="b")
    assert w.unit("a").models == 20 and w.logs("flees through") == []


def test_the_wounds_fall_on_the_rank_and_file_first_then_the_joined_character(
        tmp_path: Path) -> None:
    def flee_through(orcs: int) -> World:
        # two Halberdiers with a Captain (W2) flee through a rank of `orcs` Orc Boyz
        w = World(tmp_path, [
            block("a", "empire", 36, 10, models=2, files=2),
            unit("c", "empire", 36, 10, profile="empire/captain", models=1,
                 values={"joined_to": "a"}),
            block("b", "orcs", 36, 2, 180),
            block("e", "orcs", 36, 14, 180, models=orcs, files=orcs),
        ])
        w.call("join_characters")
        w.call("flee_from", {"flee_distance": [4, 4], "*": [1] * 10}, u="a", enemy="b")
        return w

    # L763: through five Orc Boyz (Unit Strength 5), two of the five Wounds slay the
    # Halberdiers, the three left over the Captain
    w = flee_through(5)
    assert w.unit("a").destroyed and w.unit("c").destroyed
    # through three Orc Boyz, the one Wound left over falls on the Captain: he is left with
    # one of his two, a unit of his own, still fleeing
    w = flee_through(3)
    c = w.unit("c")
    assert w.unit("a").destroyed and c.models == 1 and c.damage == 1 and c.leader is None
    assert "fleeing" in c.statuses


def test_a_unit_breaking_from_combat_takes_no_wounds_from_the_enemy_it_broke_from(
        tmp_path: Path) -> None:
    # a (y 18-22) is engaged by b in front and breaks: it flees 8" down the table through
    # three Orc Boyz (y 14.5-15.5) behind it, ends 0.5" short of them (y 10-14) and goes on
    # until 1" clear (y 9.5-13.5): three Wounds from them, none from b
    w = World(tmp_path, [
        block("a", "empire", 36, 20, models=20),
        block("b", "orcs", 36, 26, 180, models=10),
        block("c", "orcs", 36, 15, 180, models=3, files=3),
    ], orders=[{"decision": "pursue", "unit": "b", "choose": "restrain"}])
    a, b = w.unit("a"), w.unit("b")
    BUILTINS["engage"](w.state, w.env(), None, b, a)
    w.call("flee_and_pursue", {"flee_distance": [4, 4], "restraint_test": [1, 1]},
           l="a", held=[])
    assert a.pose.y == pytest.approx(11.5, abs=1e-6)
    assert moves(w, "a")[-1].on_until_clear == pytest.approx(0.5, abs=1e-3)
    assert w.logs("flees through") == [["a", "c"]] and a.models == 17


# ============================================================== friends fled through: Panic


def test_a_friend_fled_through_tests_for_panic_after_the_move(tmp_path: Path) -> None:
    # ten Halberdiers (f, y 13-15) are in the way of twenty (Unit Strength 20) fleeing 8":
    # once the move is done, they test for Panic; failing (12 on Ld 7), they flee from the
    # nearest enemy (b, below them) up the table
    w = fleeing_halberdiers(tmp_path, block("f", "empire", 36, 14, models=10))
    w.call("flee_from", {"flee_distance": [4, 4, 3, 3], "panic_test": [6, 6]},
           u="a", enemy="b")
    f = w.unit("f")
    assert [t.units for t in w.tests("panic_test")] == [["f"]]
    first_move = next(i for i, e in enumerate(w.events) if e.kind == "move")
    panic = next(i for i, e in enumerate(w.events)
                 if e.kind == "test" and e.rule == "panic_test")
    assert w.events[first_move].unit == "a" and first_move < panic
    assert w.logs("panics") == [["f"]] and "fleeing" in f.statuses
    assert w.logs("flees through its friends") == [["a", "f"]]


def test_a_friend_that_passes_stays_and_a_small_fleeing_unit_panics_nobody(
        tmp_path: Path) -> None:
    w = fleeing_halberdiers(tmp_path, block("f", "empire", 36, 14, models=10))
    w.call("flee_from", {"flee_distance": [4, 4], "panic_test": [1, 1]}, u="a", enemy="b")
    assert [t.units for t in w.tests("panic_test")] == [["f"]]
    assert "fleeing" not in w.unit("f").statuses
    # eight Halberdiers (Unit Strength 8) fleeing through friends cause no test (L520)...
    w = fleeing_halberdiers(tmp_path, block("f", "empire", 36, 14, models=10), models=8)
    w.call("flee_from", {"flee_distance": [4, 4]}, u="a", enemy="b")
    assert w.logs("flees through its friends") == [] and not w.tests("panic_test")
    # ... unless every fleeing unit does (L184 read alone)
    w = fleeing_halberdiers(tmp_path, block("f", "empire", 36, 14, models=10), models=8,
                            options={"flee_through_panic": "always"})
    w.call("flee_from", {"flee_distance": [4, 4], "panic_test": [1, 1]}, u="a", enemy="b")
    assert [t.units for t in w.tests("panic_test")] == [["f"]]


# ============================================================== on until clear


def test_a_flee_ending_within_an_inch_of_a_unit_goes_on_until_clear(tmp_path: Path) -> None:
    # 8" takes a to y 16-20, 0.5" short of friends (k, y 20.5-22.5): it flees on through
    # them until its rear is 1" past them, y 23.5: 7.5" on, 15.5" in all
    w = fleeing_halberdiers(tmp_path, block("k", "empire", 36, 21.5, models=10))
    w.call("flee_from", {"flee_distance": [4, 4], "panic_test": [1, 1]}, u="a", enemy="b")
    a = w.unit("a")
    assert a.pose.y == pytest.approx(25.5, abs=1e-6)
    move = moves(w, "a")[-1]
    assert move.inches == pytest.approx(15.5) and move.on_until_clear == pytest.approx(7.5)
    # it went through them: they test
    assert [t.units for t in w.tests("panic_test")] == [["k"]]
    assert BUILTINS["distance"](w.state, w.env(), None, a, w.unit("k")) >= 1.0


def test_a_flee_ending_beside_an_enemy_goes_on_past_it_without_wounds(tmp_path: Path) -> None:
    # s (x 39-42, y 17.5-18.5) is 0.5" right of where a ends: a goes on until its corner
    # (38.5, y) is 1" from s's (39, 18.5): y = 18.5 + sqrt(0.75), its centre 2" above that;
    # it only passed beside s, so takes no wounds
    w = fleeing_halberdiers(tmp_path, block("s", "orcs", 40.5, 18, 180, models=3, files=3))
    w.call("flee_from", {"flee_distance": [4, 4]}, u="a", enemy="b")
    a = w.unit("a")
    assert a.pose.y == pytest.approx(18.5 + math.sqrt(0.75) + 2, abs=1e-6)
    assert a.models == 20 and w.logs("flees through") == []


def test_a_flee_carried_on_off_the_table_destroys_the_unit(tmp_path: Path) -> None:
    # a would stop at y 38-42, 0.5" from friends near the table's far edge (y 42.5-44.5, the
    # edge at 48): it flees on past them, off the table, and is destroyed; the friends it
    # fled through still test (L520)
    w = World(tmp_path, [
        block("a", "empire", 36, 32, models=20),
        block("b", "orcs", 36, 24, 180),
        block("k", "empire", 36, 43.5, models=10),
    ])
    w.call("flee_from", {"flee_distance": [4, 4], "panic_test": [1, 1]}, u="a", enemy="b")
    a = w.unit("a")
    assert not a.on_table and a.destroyed
    assert [t.units for t in w.tests("panic_test")] == [["k"]]
