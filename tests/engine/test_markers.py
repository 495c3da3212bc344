"""Markers and templates on the table: the generic builtins of interpreter/engine/markers.py.

Every unit stands on 1" square bases, ten models five files wide: a 5" x 2" block. Unit ``a``
is centred at (36, 10) facing +y, so its front rank's bases span y 10..11 and its rear
rank's y 9..10, with centres at x 34, 35, 36, 37, 38. Each count below is worked out by hand
from those numbers. The wfb8 ruleset only supplies the unit data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diagnostics import BattleError
from helpers.wfb8_builtins import build

OBJECTIVE = {"objectives": [{"id": "obj", "at": {"x": 36, "y": 10.2}}]}


def u(uid: str, x: float, y: float, facing: float = 0, side: str = "a") -> dict:
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": 10, "files": 5,
            "base": {"w": 25.4, "d": 25.4}, "position": {"x": x, "y": y, "facing": facing}}


def test_a_round_template_counts_the_models_under_it_by_each_reading(tmp_path: Path) -> None:
    _, b, events = build(tmp_path, [u("a", 36, 10)], OBJECTIVE)
    # a 2.4" template (radius 1.2) centred at (36, 10.2), on the objective
    m = b("place_marker", "obj", 2.4)
    assert m == "marker 1"
    # touched: front rank x 35, 36, 37 (nearest edges 0.5, 0, 0.5 away), rear rank the same
    # three (0.54, 0.2, 0.54 away); x 34 and 38 are 1.5 away
    assert b("models_under", "a", m) == 6
    assert b("models_under", "a", m, "touched") == 6
    # centres within 1.2: (35|36|37, 10.5) at 1.04, 0.3, 1.04; (36, 9.5) at 0.7; (35, 9.5) is
    # 1.22 away
    assert b("models_under", "a", m, "centre") == 4
    # wholly under: only the front base at x 36 (its far corners 0.94 away; the rear one's
    # 1.3)
    assert b("models_under", "a", m, "whole") == 1
    placed = {k: v for k, v in events[0].to_json().items() if k not in ("seq", "round", "side", "phase")}
    assert placed == {"kind": "marker", "marker": "marker 1", "change": "placed",
                      "at": [36.0, 10.2], "to": [36.0, 10.2], "diameters": [2.4, 2.4]}


def test_a_template_moved_along_a_heading_drifts_onto_another_unit(tmp_path: Path) -> None:
    state, b, _ = build(tmp_path, [u("a", 36, 10), u("b", 46, 10, side="b")], OBJECTIVE)
    m = b("place_marker", "obj", 2.4)
    assert b("units_under", m) == [state.units[0]]
    b("move_marker", m, 90, 10)            # 10" along +x: centred at (46, 10.2), over b
    assert b("models_under", "a", m) == 0
    assert b("models_under", "b", m) == 6
    assert (b("heading", "a", "b"), b("heading", "b", m), b("facing", "b")) == (90.0, 0.0, 0.0)
    b("remove_marker", m)
    assert b("place_marker", "a") == "marker 2"        # ids are never reused


def test_a_line_crosses_units_in_order_with_the_ranks_and_files_it_crosses(
        tmp_path: Path) -> None:
    # c stands behind a: its front rank spans y 5..6
    state, b, _ = build(tmp_path, [u("a", 36, 10), u("c", 36, 5)])
    line = b("place_marker", "a")          # a point at a's centre, moved in front of it
    b("move_marker", line, 0, 4)           # (36, 14)
    b("stretch_marker", line, 180, 8.5)    # down the table to (36, 5.5), no width
    a, c = state.units
    assert b("units_under", line) == [a, c]
    assert (b("models_under", "a", line), b("ranks_under", "a", line),
            b("files_under", "a", line)) == (2, 2, 1)
    assert (b("models_under", "c", line), b("ranks_under", "c", line)) == (1, 1)
    # across a's front rank, through its bases' centres: five models, one rank, five files
    flank = b("place_marker", "a")
    b("move_marker", flank, 270, 6)         # (30, 10)
    b("move_marker", flank, 0, 0.5)         # (30, 10.5)
    b("stretch_marker", flank, 90, 12)
    assert (b("models_under", "a", flank), b("ranks_under", "a", flank),
            b("files_under", "a", flank)) == (5, 1, 5)
    assert b("units_under", flank) == [a]


def test_markers_misused_are_located_errors(tmp_path: Path) -> None:
    _, b, _ = build(tmp_path, [u("a", 36, 10)])
    m = b("place_marker", "a", 3)
    with pytest.raises(BattleError) as info:
        b("models_under", "a", m, "partly")
    assert str(info.value.diagnostics[0].message) == (
        "'partly' is not a reading of what lies under a shape; expected 'touched', "
        "'centre', 'whole'")
    with pytest.raises(BattleError) as info:
        b("move_marker", "marker 7", 0, 1)
    assert info.value.diagnostics[0].message == "no marker 'marker 7' (markers: marker 1)"
    with pytest.raises(BattleError) as info:
        b("place_marker", "nowhere")
    assert info.value.diagnostics[0].message == (
        "expected a unit, a marker or a place (an objective or a terrain feature), got "
        "'nowhere'")
