"""Where the units stand, as the builtins measure it: the gap between two units, a unit's
footprint and its models' bases as shapes. Each is kept (:mod:`rules_run.engine.kept`) until
the units it is about move or change size."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_run.engine.builtins.registry import builtin, fail
from rules_run.engine.kept import MISSING
from rules_run.runtime.entities import placed
from rules_run.space import Convex, Footprint, Pose, axes, distance

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState
    from rules_run.runtime.entities import Unit

__all__ = ["gap", "kept_for", "model_bases", "unit_shape", "base_shapes"]


def gap(state: BattleState, a: Unit, b: Unit) -> float:
    """The edge-to-edge distance between two units' footprints where they stand (the
    :func:`~rules_run.space.distance` of their shapes).

    Kept for the pair, both ways round (the distance is the same from either), until either
    moves or changes size (a new pose or footprint).
    """
    pa, pb, fa, fb = a.pose, b.pose, state.footprint(a), state.footprint(b)
    kept = state._gaps.get((a, b), (pa, pb, fa, fb))
    if kept is not MISSING:
        return kept
    found = distance(unit_shape(state, a), unit_shape(state, b))
    state._gaps.put((b, a), (pb, pa, fb, fa), found)
    return state._gaps.put((a, b), (pa, pb, fa, fb), found)


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
    return kept_for(state, ("shape", unit), unit, unit, lambda: Convex.rect(
        placed(unit), state.footprint(unit)))


def base_shapes(state: BattleState, unit: Unit) -> list[Convex]:
    """Its models' bases as shapes, kept until it moves or changes size."""
    return kept_for(state, ("bases", unit), unit, unit, lambda: [
        Convex.rect(pose, size) for pose, size in model_bases(state, unit)])


def model_bases(state: BattleState, unit: Any) -> list[tuple[Pose, Footprint]]:
    """Where each living model's base is: the unit's block, rank by rank, the last rank
    centred, neighbouring bases ``unit.spacing`` inches apart.

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
    # a model's place in the block: its base and the spacing beside it (space_models)
    pitch_w, pitch_d = unit.base_w + unit.spacing, unit.base_d + unit.spacing
    width, depth = size.width, size.depth
    (fx, fy), (rx, ry) = axes(unit.pose.facing)
    bases = []
    for k in range(models):
        rank, col = divmod(k, files)
        in_rank = files if rank < ranks - 1 else models - rank * files
        shift = (files - in_rank) * pitch_w / 2
        across = -width / 2 + shift + col * pitch_w + unit.base_w / 2
        along = depth / 2 - rank * pitch_d - unit.base_d / 2
        x = unit.pose.x + across * rx + along * fx
        y = unit.pose.y + across * ry + along * fy
        bases.append((Pose(x, y, unit.pose.facing), base))
    state._bases.put(unit, (unit.pose, size), bases)
    return list(bases)


# ---------------------------------------------------------------- spacing


@builtin("space_models")
def space_models(state, env, span, unit, inches):
    """Stand the unit's models ``inches`` apart, across each rank and between ranks (0:
    a close-ranked block); its footprint and its models' bases follow, about its centre.
    True if that changed its spacing."""
    if isinstance(inches, bool) or not isinstance(inches, (int, float)) or inches < 0:
        raise fail(f"a spacing must be a number of inches, 0 or more, got {inches!r}", span,
                   "bad-argument")
    if float(inches) == unit.spacing:
        return False
    unit.spacing = float(inches)
    return True


@builtin("spacing")
def spacing(state, env, span, unit):
    """The inches between neighbouring models of the unit (``space_models``)."""
    return unit.spacing
