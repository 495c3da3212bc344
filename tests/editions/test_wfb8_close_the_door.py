"""Closing the door (000 L152-L158): a charger that reaches its target ends flush with the
edge it charged; a unit below Unit Strength 5 charged by one of 10 or more aligns to the
charger instead. The units stand on 1" bases, five files wide."""

from __future__ import annotations

import math
from pathlib import Path

from helpers.wfb8_world import World, unit

INCH = {"w": 25.4, "d": 25.4}


def test_a_charger_askew_closes_the_door_on_its_targets_front(tmp_path: Path) -> None:
    # the target (10 models: 5" x 2", front edge y = 11) faces up the table; the Orcs come
    # at it from ahead and to the right, turned 20° off (M4 + the higher of 6 and 6 reaches)
    w = World(tmp_path, [unit("men", "empire", 36, 10, models=10, base=INCH),
                         unit("orcs", "orcs", 39, 15, 200, profile="orcs/orc_boy", models=10,
                              base=INCH)])
    w.call("complete_charge", [6, 6], u="orcs", target="men", reaction="hold")
    orcs = w.unit("orcs").pose
    # flush with the front edge, facing straight down at it (their centre 1" out), as wide
    # as it, so straight across
    assert (orcs.x, orcs.y, orcs.facing) == (36.0, 12.0, 180.0)
    assert w.unit("men").pose == w.unit("men").home             # the target did not move


def test_a_small_unit_charged_by_a_big_one_aligns_to_the_charger(tmp_path: Path) -> None:
    # four Halberdiers (Unit Strength 4, in one rank: 4" x 1") charged in the front by twenty
    # Orcs (Unit Strength 20, 5" x 4"): the Halberdiers turn to the Orcs (L158); the Orcs
    # stay where their charge took them, turned straight at the Halberdiers' centre
    w = World(tmp_path, [unit("few", "empire", 36, 10, models=4, files=4, base=INCH),
                         unit("orcs", "orcs", 37, 18, 190, profile="orcs/orc_boy", models=20,
                              base=INCH)])
    w.call("complete_charge", [6, 6], u="orcs", target="few", reaction="hold")
    orcs, few = w.unit("orcs").pose, w.unit("few").pose
    assert orcs.facing != 180.0                                # they came in askew
    # the Halberdiers' front now faces the Orcs' front squarely, their centre out from it
    # along the Orcs' own heading by the Orcs' half depth and their own (2" + 0.5")
    assert math.isclose(few.facing, (orcs.facing + 180) % 360)
    (fx, fy) = (math.sin(math.radians(orcs.facing)), math.cos(math.radians(orcs.facing)))
    assert math.isclose((few.x - orcs.x) * fx + (few.y - orcs.y) * fy, 2 + 0.5)
