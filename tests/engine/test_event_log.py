"""What the event log says about the table (log version 2): where units stand, how big their
footprints are, what they have left, and when statuses run out.

The numbers are worked by hand from the wfb8 reference duel (seed 1): two blocks of 20, five
files wide, 4" apart across the centre of a 72" x 48" table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run import open_battle
from rules_run.engine.driver import LOG_VERSION, run_battle

ROOT = Path(__file__).resolve().parents[2]
DUEL = str(ROOT / "rulesets" / "wfb8" / "battles" / "duel.yaml")
SHOOTING = str(ROOT / "rulesets" / "wfb8" / "battles" / "shooting.yaml")


@pytest.fixture(scope="module")
def duel_events() -> list[dict]:
    """The duel's events as the log writes them (their ``to_json()``)."""
    _, runtime, battle = open_battle("wfb8", DUEL)
    return [e.to_json() for e in run_battle(runtime, battle).events or []]


def _place(y: float, facing: float, ranks: int, base_mm: float) -> dict:
    base = round(base_mm / 25.4, 4)
    return {"x": 36.0, "y": y, "facing": facing, "files": 5, "ranks": ranks,
            "base_width": base, "base_depth": base}


def test_the_battle_event_draws_the_table_and_every_unit(duel_events) -> None:
    battle = duel_events[0]
    assert battle["kind"] == "battle" and battle["log_version"] == LOG_VERSION == 2
    assert battle["table"] == {"width": 72.0, "depth": 48.0}
    assert battle["terrain"] == [] and battle["objectives"] == []
    assert [(u["id"], u["models"], u["wounds"], u["wounds_each"], u["statuses"])
            for u in battle["units"]] == [("halberdiers", 20, 20, 1, []), ("orcs", 20, 20, 1, [])]
    # 4 ranks of 20 mm bases is 3.1496" deep, of 25 mm 3.937": each block's front 2" from
    # the centre line (24"), facing the other
    assert battle["placed"] == {"halberdiers": _place(20.4252, 0.0, 4, 20),
                                "orcs": _place(27.9685, 180.0, 4, 25)}


def test_moves_engagements_and_casualties_say_where_the_unit_stands(duel_events) -> None:
    placed = [(e["kind"], e["placed"]) for e in duel_events
              if "placed" in e and e["kind"] != "battle"]
    # the Orcs charge the 4" gap and close the door (already flush: they stay where they
    # are); 3 of them fall (17: still 4 ranks); 4 Halberdiers fall (16); the Halberdiers
    # flee 8" straight away, turned about; the Orcs pursue 6"
    assert placed[:6] == [
        ("engage", {"orcs": _place(23.9685, 180.0, 4, 25)}),
        ("align", {"orcs": _place(23.9685, 180.0, 4, 25)}),
        ("casualties", {"orcs": _place(23.9685, 180.0, 4, 25)}),
        ("casualties", {"halberdiers": _place(20.4252, 0.0, 4, 20)}),
        ("move", {"halberdiers": _place(12.4252, 180.0, 4, 20)}),
        ("move", {"orcs": _place(17.9685, 180.0, 4, 25)}),
    ]
    losses = [(e["unit"], e["models_left"], e["wounds"]) for e in duel_events
              if e["kind"] == "casualties"]
    assert losses[:2] == [("orcs", 17, 17), ("halberdiers", 16, 16)]
    # 12 Halberdiers left stand 3 ranks deep
    twelve = next(e for e in duel_events if e["kind"] == "casualties"
                  and e["unit"] == "halberdiers" and e["models_left"] == 12)
    assert twelve["placed"]["halberdiers"]["ranks"] == 3


def test_statuses_that_run_out_are_named_when_they_do(duel_events) -> None:
    charged = next(i for i, e in enumerate(duel_events) if e["kind"] == "status"
                   and e["status"] == "charged")
    first_turn_ends = next(e for e in duel_events[charged:] if e["kind"] == "expire"
                           and e["period"] == "turn")
    assert first_turn_ends["side"] == "orcs" and first_turn_ends["round"] == 1
    assert "charged" in first_turn_ends["statuses"]["orcs"]


def test_attacks_say_whether_the_units_are_in_contact(duel_events) -> None:
    assert {e["in_contact"] for e in duel_events if e["kind"] == "attacks"} == {True}
    _, runtime, battle = open_battle("wfb8", SHOOTING)
    shots = [e for e in run_battle(runtime, battle).events or [] if e.kind == "attacks"]
    assert shots and not shots[0].in_contact


def test_a_logged_terrain_piece_or_list_is_written_by_its_id() -> None:
    # a rule may log any value it holds: a terrain piece (once a TypeError from the JSON
    # writer) is written by its id, a list item by item, a plain value as it is
    import json

    from rules_run.engine.builtins.sight import TerrainPiece
    from rules_run.runtime.env import show
    from rules_run.space import Footprint, Pose

    hedge = TerrainPiece("hedge_1", "Hedge", "obstacle", Pose(0.0, 0.0, 0.0),
                         Footprint(6.0, 0.5), [])
    assert show(hedge) == "hedge_1"
    assert json.dumps([show(v) for v in (hedge, [hedge, 3], (1.5, "x"), None, True)]) == \
        '["hedge_1", ["hedge_1", 3], [1.5, "x"], null, true]'


def test_a_logged_value_without_a_name_is_written_without_its_address() -> None:
    # determinism: object's own repr holds a memory address; such a value is its type's name
    from rules_run.runtime.env import show

    class Thing:
        pass

    assert show(Thing()) == "Thing"
