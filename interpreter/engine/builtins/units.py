"""The units of a battle: who is in it, what they carry, what they lose and get back, and
their leaving and coming back onto the table (generic builtins)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import Span
from rules_run.engine.builtins.movement import detach, leave_fights, other_units
from rules_run.engine.builtins.registry import builtin, fail
from rules_run.runtime.entities import Group, Unit, placed, use_items
from rules_run.space import TOLERANCE, Pose, edge_distance, far_apart
from rules_run.runtime.events import Arrive, Casualties, Destroyed, Heal, Returned, SetAside

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__ = ["destroy_unit"]

_ARRIVE_STEP = 0.5
"""Inches between the places along a table edge a unit arriving with keep_away tries."""


@builtin("sides")
def sides(state, env, span):
    return list(state.sides)


@builtin("opponent")
def opponent(state, env, span, side):
    others = [s for s in state.sides if s != side]
    return others[0] if others else None


@builtin("picked_last")
def picked_last(state, env, span):
    """The side whose unit acted last in an ``activate`` of this phase, or none."""
    last = state.last_pick
    return last[1] if last is not None and last[0] == state.period("phase") else None


@builtin("units")
def units(state, env, span, side=None):
    return [u for u in state.units if state.alive(u) and (side is None or u.side == side)]


@builtin("all_units")
def all_units(state, env, span):
    return list(state.units)


@builtin("enemies")
def enemies(state, env, span, unit):
    return [u for u in state.units if state.alive(u) and u.side != unit.side]


@builtin("friends")
def friends(state, env, span, unit):
    return [u for u in state.units if state.alive(u) and u.side == unit.side and u is not unit]


@builtin("models")
def models(state, env, span, unit):
    return unit.models


@builtin("best")
def best(state, env, span, unit, characteristic):
    return state.runtime.characteristic(env, unit, characteristic)


@builtin("unit_named")
def unit_named(state, env, span, unit_id):
    return next((u for u in state.units if u.id == unit_id), None)


@builtin("wounds_lost")
def wounds_lost(state, env, span, unit):
    return (unit.starting_models - unit.models) * unit.wounds_each + unit.damage


@builtin("wield")
def wield(state, env, span, unit, item_id):
    """The unit uses that item of its alternative group, and none of the group's others."""
    ids = getattr(unit, "item_ids", [])
    if item_id not in ids:
        raise fail(f"wield(): {unit.id!r} carries no item {item_id!r}", span)
    group = unit.all_equipment[ids.index(item_id)].get("alternative")
    if group is None:
        raise fail(f"wield(): the item {item_id!r} is of no alternative group", span)
    in_group = frozenset(i for i, item in enumerate(unit.all_equipment)
                         if item.get("alternative") == group)
    idle = (unit.idle - in_group) | frozenset(i for i in in_group if ids[i] != item_id)
    if idle == unit.idle:
        return False
    use_items(state.runtime, unit, idle)
    return True


@builtin("heal")
def heal(state, env, span, unit, points):
    healed = min(unit.damage, max(0, int(points or 0)))
    unit.damage -= healed
    env.emit(Heal, unit=unit.id, points=healed, wounds=unit.wounds)
    return healed


@builtin("return_models")
def return_models(state, env, span, unit, n):
    back = max(0, min(int(n or 0), unit.starting_models - unit.models))
    if back and not unit.destroyed:
        unit.models += back
        left = back
        for group in unit.groups:   # back into its groups, in data order
            again = min(left, group.starting_models - group.models)
            group.models += again
            left -= again
        env.emit(Returned, unit=unit.id, models=back, models_left=unit.models,
                 wounds=unit.wounds, placed=state.positions(env, unit))
    return back


@builtin("inflict")
def inflict(state, env, span, unit, damage, saves=None):
    """Damage points, allocated one model at a time; returns the models slain.

    Given a group of a unit's models, the models slain are the group's (damage beyond its
    last model is lost); given a unit with groups, each model slain is of its first group
    with models left."""
    group = unit if isinstance(unit, Group) else None
    if group is not None:
        unit = group.owner
    if damage is None or damage <= 0 or not state.alive(unit):
        return 0
    unit.damage += int(damage)
    slain = 0
    while unit.damage >= unit.wounds_each and unit.models > 0:
        losing = group or next((g for g in unit.groups if g.models > 0), None)
        if losing is not None:
            if losing.models <= 0:
                unit.damage = 0   # the group is gone: the rest of its damage is lost
                break
            losing.models -= 1
        unit.damage -= unit.wounds_each
        unit.models -= 1
        slain += 1
    if env.events is not None:
        env.emit(Casualties, unit=unit.id, damage=int(damage), slain=slain,
                 models_left=unit.models, wounds=unit.wounds,
                 wounds_each=unit.wounds_each,
                 wounds_lost=unit.damage if unit.models > 0 else 0,
                 placed=state.positions(env, unit) if unit.models > 0 else {})
    if slain:
        state.fire(env, "slain")
    if unit.models <= 0:
        unit.damage = 0
        destroy_unit(state, env, unit)
    return slain


def destroy_unit(state: BattleState, env, unit: Unit) -> None:
    unit.destroyed = True
    unit.models = 0
    for group in unit.groups:
        group.models = 0
    # the units attached to it go on where they stand, in their fights
    for follower in list(unit.followers):
        detach(state, env, None, follower)
    leave_fights(unit)
    if unit.leader is not None:
        detach(state, env, None, unit)
    env.emit(Destroyed, unit=unit.id)
    state.fire(env, "destroyed")


@builtin("destroy")
def destroy(state, env, span, unit):
    if not unit.destroyed:
        destroy_unit(state, env, unit)
    return True


@builtin("set_aside")
def set_aside(state, env, span, unit):
    """Take a unit off the table without destroying it (reserves, reinforcements)."""
    leave_fights(unit)
    unit.on_table = False
    unit.set_aside = True
    env.emit(SetAside, unit=unit.id)
    return True


@builtin("arrive")
def arrive(state, env, span, unit, edge=None, along=None, keep_away=None):
    """Put a unit set aside back on the table: where the battle file places it, or at a
    table edge (see :meth:`_edge_pose`); false when it cannot come on."""
    if not unit.set_aside or unit.destroyed:
        return False
    pose = unit.home if edge is None else _edge_pose(state, unit, edge, along, keep_away,
                                                            span)
    if pose is None:
        return False
    unit.set_aside = False
    unit.on_table = True
    unit.pose = pose
    env.emit(Arrive, unit=unit.id, at=[round(pose.x, 3), round(pose.y, 3)],
             facing=pose.facing, placed=state.positions(env, unit))
    return True


def _edge_pose(state: BattleState, unit: Unit, edge: Any, along: Any, keep_away: Any,
               span: Span | None) -> Pose | None:
    """Where a unit coming on at a table edge stands: facing ``edge`` (0 comes on at the
    edge y = 0 facing up the table, 90 at x = 0, 180 at the far edge, 270 at x = width),
    its rear touching the edge, its centre ``along`` inches along it (else level with its
    battle-file position), kept on the table; with ``keep_away``, the nearest such place
    along the edge (the lower first of two as near) no nearer than that to any other unit
    on the table, or None when there is none."""
    if isinstance(edge, bool) or not isinstance(edge, (int, float)) or edge % 90 != 0:
        raise fail(f"a table edge is the heading a unit faces coming on: 0, 90, 180 or "
                   f"270, got {edge!r}", span, "bad-argument")
    facing = float(edge) % 360
    size = state.footprint(unit)
    across_x = facing in (0.0, 180.0)
    length = state.width if across_x else state.depth
    home = unit.home
    wanted = float(along) if along is not None else (
        (home.x if across_x else home.y) if home is not None else length / 2)
    half = size.width / 2
    inward = size.depth / 2

    def at(offset: float) -> Pose:
        if facing == 0.0:
            return Pose(offset, inward, facing)
        if facing == 180.0:
            return Pose(offset, state.depth - inward, facing)
        if facing == 90.0:
            return Pose(inward, offset, facing)
        return Pose(state.width - inward, offset, facing)

    wanted = min(max(wanted, half), length - half)
    if keep_away is None:
        return at(wanted)
    standing = [o for o in other_units(state, unit) if o.on_table and o.pose is not None]
    need = float(keep_away) - TOLERANCE
    steps = int(math.ceil(length / _ARRIVE_STEP))
    for k in sorted(range(-steps, steps + 1), key=lambda k: (abs(k), k)):
        offset = wanted + k * _ARRIVE_STEP
        if not half - TOLERANCE <= offset <= length - half + TOLERANCE:
            continue
        pose = at(offset)
        if all(far_apart(pose, size, placed(o), state.footprint(o), need)
               or edge_distance(pose, size, placed(o), state.footprint(o)) >= need
               for o in standing):
            return pose
    return None


@builtin("home_edge")
def home_edge(state, env, span, unit):
    """The long table edge nearest the unit's battle-file position, as the heading a unit
    coming on there faces (0 or 180 on a table wider than deep; 90 or 270 otherwise)."""
    home = unit.home or unit.pose
    if home is None:
        return None
    if state.width >= state.depth:
        return 0.0 if home.y <= state.depth / 2 else 180.0
    return 90.0 if home.x <= state.width / 2 else 270.0
