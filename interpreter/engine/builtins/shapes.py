"""Where the units stand, as the builtins measure it: the gap between two units, a unit's
footprint and its models' bases as shapes. Each is kept (:mod:`rules_run.engine.kept`) until
the units it is about move or change size."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_run.engine.entities import placed
from rules_run.engine.kept import MISSING
from rules_run.space import Footprint, Pose, axes, corners, edge_distance
from rules_run.space.lines import Convex

if TYPE_CHECKING:
    from rules_run.engine.entities import Unit
    from rules_run.engine.state import BattleState

__all__ = ["gap", "kept_for", "model_bases", "unit_shape", "base_shapes"]


def gap(state: BattleState, a: Unit, b: Unit) -> float:
    """The edge-to-edge distance between two units' footprints where they stand.

    Kept for the pair, both ways round (the distance is the same from either: see
    :func:`rules_run.space.edge_distance`), until either moves or changes size (a new
    pose or footprint).
    """
    pa, pb, fa, fb = a.pose, b.pose, state.footprint(a), state.footprint(b)
    kept = state._gaps.get((a, b), (pa, pb, fa, fb))
    if kept is not MISSING:
        return kept
    distance = edge_distance(placed(a), fa, placed(b), fb)
    state._gaps.put((b, a), (pb, pa, fb, fa), distance)
    return state._gaps.put((a, b), (pa, pb, fa, fb), distance)


def kept_for(state: BattleState, key: tuple[Any, ...], a: Unit, b: Unit,
             work: Callable[[], Any]) -> Any:
    """``work()``'s answer for a and b where they stand, kept until a or b moves or changes
    size (the terrain pieces never move)."""
    grounds = (a.pose, state.footprint(a), b.pose, state.footprint(b))
    kept = state._behind.get(key, grounds)
    if kept is not MISSING:
        return kept
    return state._behind.put(key, grounds, work())


def unit_shape(state: BattleState, unit: Unit) -> Convex:
    """Its footprint as a shape, kept until it moves or changes size."""
    return kept_for(state, ("shape", unit), unit, unit, lambda: Convex(
        corners(placed(unit), state.footprint(unit))))


def base_shapes(state: BattleState, unit: Unit) -> list[Convex]:
    """Its models' bases as shapes, kept until it moves or changes size."""
    return kept_for(state, ("bases", unit), unit, unit, lambda: [
        Convex(corners(pose, size)) for pose, size in model_bases(state, unit)])


def model_bases(state: BattleState, unit: Any) -> list[tuple[Pose, Footprint]]:
    """Where each living model's base is: the unit's block, rank by rank, the last rank
    centred.

    Kept per unit until it moves or changes size (its footprint stands for its models,
    files and bases: the same footprint comes back only while they are the same).
    """
    models = max(0, int(unit.models))
    if models == 0 or unit.pose is None:
        return []
    size = state.footprint(unit)
    kept = state._bases.get(unit, (unit.pose, size))
    if kept is not MISSING:
        return list(kept)
    files = max(1, min(int(unit.files), models))
    ranks = math.ceil(models / files)
    base = Footprint(unit.base_w, unit.base_d)
    width, depth = files * unit.base_w, ranks * unit.base_d
    (fx, fy), (rx, ry) = axes(unit.pose.facing)
    bases = []
    for k in range(models):
        rank, col = divmod(k, files)
        in_rank = files if rank < ranks - 1 else models - rank * files
        shift = (files - in_rank) * unit.base_w / 2
        across = -width / 2 + shift + (col + 0.5) * unit.base_w
        along = depth / 2 - (rank + 0.5) * unit.base_d
        x = unit.pose.x + across * rx + along * fx
        y = unit.pose.y + across * ry + along * fy
        bases.append((Pose(x, y, unit.pose.facing), base))
    state._bases.put(unit, (unit.pose, size), bases)
    return list(bases)
