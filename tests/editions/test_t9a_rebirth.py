"""t9a's Rebirth (P33, seed 004 L145; rulesets/t9a/rebirth.rules): the first time a Fire
Phoenix is destroyed a D6 of 5+ lets it come back at the start of the remaining moves
sub-phase of the next Player Turn, within 3" of where it fell, more than 1" from other units,
with 1 Wound left; otherwise, or with no room, it stays a casualty.

A probe of a small battle (scripted dice by roll tag) plays the phases by hand: the death,
the end of the player turn, the next remaining moves sub-phase. A Fire Phoenix (W5) stands on
a 50 mm base (1.97" square); 25 Orc Boyz, five files on 25 mm bases, make a 4.92" square.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle
from rules_run.space import Pose

BATTLE = """
edition: t9a
battlefield: {width: 72, depth: 48}
units:
  - {id: phoenix, side: highborn, profile: highborn/fire_phoenix, models: 1, position: {x: 20, y: 20, facing: 0}}
  - {id: boyz, side: orcs, profile: orcs/orc_boy, models: 25, files: 5, position: {x: 20, y: 26, facing: 180}}
"""


def probe(tmp_path: Path, dice: Any, *, options: dict | None = None) -> Probe:
    return Probe("t9a", battle_file(tmp_path, BATTLE), dice=dice, active="orcs",
                 options=options)


def builtin(p: Probe, name: str, *args: Any) -> Any:
    return BUILTINS[name](p.state, p.env, None, *args)


def next_turn(p: Probe, side: str) -> None:
    """The player turn ends; ``side``'s begins and reaches its remaining moves sub-phase."""
    p.state.expire(p.env, "turn")
    p.state.turns += 1
    p.state.active_side = side
    p.state.enter_phase(p.env, "remaining_moves", lambda: None)


def test_a_phoenix_that_rolls_5_returns_in_the_next_player_turn(tmp_path: Path) -> None:
    p = probe(tmp_path, {"rebirth_roll": [5]})
    phoenix = p.unit["phoenix"]
    builtin(p, "destroy", phoenix)                     # in the Orcs' turn
    assert phoenix.destroyed and p.logged("falls in flames, to rise again") == [["phoenix"]]
    p.state.enter_phase(p.env, "remaining_moves", lambda: None)
    assert phoenix.destroyed                           # not in the turn it fell
    next_turn(p, "highborn")
    assert p.state.alive(phoenix) and phoenix.models == 1 and phoenix.wounds == 1
    # the boyz' near edge is at y 26 - 2.46 = 23.54, the phoenix's top edge where it fell at
    # 20.98: 2.56" apart, so it stands where it fell, facing as it did
    assert phoenix.pose == Pose(20, 20, 0)
    assert p.logged("rises from its ashes") == [["phoenix"]]


def test_it_returns_within_3_inches_more_than_1_from_other_units(tmp_path: Path) -> None:
    # The boyz' near edge at y 23.54 - 2 = 21.54 when they stand at y 24: the spot where it
    # fell is 0.56" from them; the nearest clear spot on the 0.5" grid is 0.5" lower, (20, 19.5)
    p = probe(tmp_path, {"rebirth_roll": [6]})
    p.unit["boyz"].pose = Pose(20, 24, 180)
    phoenix = p.unit["phoenix"]
    builtin(p, "destroy", phoenix)
    next_turn(p, "highborn")
    assert phoenix.pose == Pose(20, 19.5, 0)
    assert builtin(p, "distance", phoenix, p.unit["boyz"]) >= 1


def test_with_no_room_within_3_inches_it_stays_a_casualty(tmp_path: Path) -> None:
    # the boyz stand where it fell: every centre within 3" of (20, 20) is within 1" of them
    p = probe(tmp_path, {"rebirth_roll": [5]})
    p.unit["boyz"].pose = Pose(20, 20, 180)
    phoenix = p.unit["phoenix"]
    builtin(p, "destroy", phoenix)
    next_turn(p, "highborn")
    assert phoenix.destroyed and p.logged("cannot rise from its ashes") == [["phoenix"]]


@pytest.mark.parametrize("score", [1, 4])
def test_a_roll_below_5_leaves_it_a_casualty(tmp_path: Path, score: int) -> None:
    p = probe(tmp_path, {"rebirth_roll": [score]})
    phoenix = p.unit["phoenix"]
    builtin(p, "destroy", phoenix)
    next_turn(p, "highborn")
    next_turn(p, "orcs")
    assert phoenix.destroyed and not p.logged("falls in flames, to rise again")


def test_rebirth_works_only_the_first_time(tmp_path: Path) -> None:
    # no second rebirth roll is scripted: a second death asks for none
    p = probe(tmp_path, {"rebirth_roll": [5]})
    phoenix = p.unit["phoenix"]
    builtin(p, "destroy", phoenix)
    next_turn(p, "highborn")
    assert p.state.alive(phoenix)
    builtin(p, "inflict", phoenix, 1)                  # its last Wound
    assert phoenix.destroyed
    next_turn(p, "orcs")
    assert phoenix.destroyed


def test_with_the_own_turn_reading_it_waits_for_its_sides_turn(tmp_path: Path) -> None:
    # option rebirth_turn: own; it fell in the Highborn's turn: the Orcs' turn is not its own
    p = probe(tmp_path, {"rebirth_roll": [5]}, options={"rebirth_turn": "own"})
    p.state.active_side = "highborn"
    phoenix = p.unit["phoenix"]
    builtin(p, "destroy", phoenix)
    next_turn(p, "orcs")
    assert phoenix.destroyed
    next_turn(p, "highborn")
    assert p.state.alive(phoenix)


def test_the_fire_phoenix_rises_again_in_the_highborn_battle() -> None:
    # seed 28 of battles/highborn.yaml: it falls, rolls 5+, and comes back the next turn
    _, runtime, battle = open_battle("t9a", "rulesets/t9a/battles/highborn.yaml")
    result = run_battle(runtime, battle, seed=28)
    logged = [(e.message, e.values) for e in result.events if e.kind == "log"
              and e.message in ("falls in flames, to rise again", "rises from its ashes")]
    assert logged == [("falls in flames, to rise again", ["fire_phoenix"]),
                      ("rises from its ashes", ["fire_phoenix"])]
    back = [e for e in result.events if e.kind == "arrive" and e.unit == "fire_phoenix"]
    assert len(back) == 1
