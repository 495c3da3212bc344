"""Range, line of sight and cover: the generic builtins of interpreter/engine/sight.py.

The builtins only say where things stand; the wfb8 ruleset is used for its unit data and to
bind terrain effects as rules, never for what they mean.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from rules_run.chance import RandomChance
from rules_run import open_battle
from rules_run.diagnostics import BattleError
from rules_run.engine.builtins.sight import TerrainPiece, clip_segment, grid_points
from rules_run.engine.state import BattleState
from rules_run.space import Footprint, Pose

FOREST = {"id": "wood", "kind": "forest", "name": "Wood", "at": {"x": 36, "y": 24},
          "size": {"w": 10, "h": 6}, "effects": ["Line of Sight (5)", "Soft Cover"]}


def build(tmp_path: Path, units: list[dict], terrain: list[dict] | None = None):
    doc: dict[str, Any] = {"edition": "wfb8", "seed": 1, "units": units}
    if terrain is not None:
        doc["battlefield"] = {"width": 72, "depth": 48, "terrain": terrain}
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("wfb8", str(path))
    state = BattleState(runtime, battle, [], {})
    env = runtime.env(RandomChance(1), battle.options, [], state)

    def b(name: str, *args: Any) -> Any:
        args = tuple(next(u for u in state.units if u.id == a) if isinstance(a, str)
                     and any(u.id == a for u in state.units) else a for a in args)
        return state.builtin(env, name, list(args), None)
    return state, b


def u(uid: str, x: float, y: float, facing: float = 0, models: int = 10, files: int = 5,
      side: str = "a") -> dict:
    return {"id": uid, "side": side, "profile": "empire/halberdier", "models": models,
            "files": files, "position": {"x": x, "y": y, "facing": facing}}


def test_clip_segment_gives_the_part_inside() -> None:
    square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]
    assert clip_segment((-2.0, 2.0), (6.0, 2.0), square) == (0.25, 0.75)
    assert clip_segment((-2.0, 5.0), (6.0, 5.0), square) is None
    # a segment starting inside
    t_in, t_out = clip_segment((2.0, 2.0), (2.0, 10.0), square)
    assert (t_in, round(t_out, 6)) == (0.0, 0.25)


def test_grid_points_follow_the_facing() -> None:
    points = grid_points(Pose(0, 0, 90), Footprint(4, 2), 2, 1)
    # facing +x: the unit's width runs along y
    assert [tuple(round(v, 6) for v in p) for p in points] == [(0.0, 1.0), (0.0, -1.0)]


def test_in_arc_and_in_range(tmp_path: Path) -> None:
    _, b = build(tmp_path, [u("a", 36, 10), u("front", 36, 30, 180, side="b"),
                            u("side", 60, 10, 270, side="b"), u("behind", 36, 2, side="b")])
    assert b("in_arc", "a", "front")
    assert not b("in_arc", "a", "side")
    assert not b("in_arc", "a", "behind")
    gap = b("distance", "a", "front")
    assert b("in_range", "a", "front", gap + 0.01)
    assert not b("in_range", "a", "front", gap - 0.5)
    # in range but out of the arc does not count
    assert b("distance", "a", "side") < 24 and not b("in_range", "a", "side", 24)


def test_terrain_pieces_carry_their_effects_as_rules(tmp_path: Path) -> None:
    _, b = build(tmp_path, [u("a", 36, 24), u("b", 36, 40, 180, side="b")], [FOREST])
    (piece,) = b("terrain")
    assert isinstance(piece, TerrainPiece)
    assert (piece.id, piece.type, piece.name) == ("wood", "forest", "Wood")
    assert piece.has_rule("Soft Cover") and piece.has_rule("Line of Sight")
    assert b("terrain_at", "a") == [piece]
    assert b("terrain_at", "b") == []


def test_terrain_at_needs_the_majority_of_the_unit(tmp_path: Path) -> None:
    # the wood spans x 31..41; a 5-wide unit (about 3.9") centred at x 42.5 has its
    # centre outside and most of its models outside
    _, b = build(tmp_path, [u("edge", 42.5, 24, models=5), u("mostly", 39.5, 24, models=5)], [FOREST])
    assert b("terrain_at", "edge") == []
    assert [p.id for p in b("terrain_at", "mostly")] == ["wood"]


def test_between_lists_what_hides_the_majority_of_the_target(tmp_path: Path) -> None:
    units = [u("shooter", 36, 4), u("target", 36, 40, 180, side="b"),
             u("screen", 36, 14, models=10, files=10), u("aside", 60, 20)]
    _, b = build(tmp_path, units, [FOREST])
    found = sorted(x.id for x in b("between", "shooter", "target"))
    assert found == ["screen", "wood"]
    # a narrow screen hides only a few of the sight lines: not the majority
    _, b2 = build(tmp_path, [u("shooter", 36, 4), u("target", 36, 40, 180, side="b", files=10),
                             u("post", 30, 20, models=1, files=1)])
    assert b2("between", "shooter", "target") == []


def test_line_through_measures_the_sight_line_inside_a_piece(tmp_path: Path) -> None:
    _, b = build(tmp_path, [u("a", 36, 4), u("b", 36, 44, 180, side="b")], [FOREST])
    (piece,) = b("terrain")
    assert b("line_through", "a", "b", piece) == pytest.approx(6.0)
    _, b2 = build(tmp_path, [u("a", 10, 4), u("b", 10, 44, 180, side="b")], [FOREST])
    assert b2("line_through", "a", "b", b2("terrain")[0]) == 0.0


def test_an_unknown_terrain_effect_is_reported_in_the_battle_file(tmp_path: Path) -> None:
    bad = dict(FOREST, effects=["Soft Cover", "Thick Fog"])
    _, b = build(tmp_path, [u("a", 36, 4), u("b", 36, 44, 180, side="b")], [bad])
    with pytest.raises(BattleError, match="Thick Fog") as err:
        b("terrain")
    assert err.value.diagnostics[0].span is not None
    assert math.isfinite(err.value.diagnostics[0].span.line)
