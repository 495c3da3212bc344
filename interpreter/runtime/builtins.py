"""The builtins the runtime runs itself, without a battle: the pure ones read only their
arguments (rules-odds asks them too), the local ones also the evaluation's chance and the
runtime. The battle's builtins are the engine's: the runtime is given their table
(:class:`rules_run.runtime.types.Builtins`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules_run.chance import DiceExpr
from rules_run.lang.builtins import SHARES
from rules_run.runtime.env import Env

__all__ = ["PURE_BUILTINS", "LOCAL_BUILTINS", "PURE_NAMES"]


def _half_up(x: Any) -> Any:
    return None if x is None else -((-x) // 2)


def _flat(args: tuple) -> list:
    """The arguments of min/max with lists spread out and "none" values left out."""
    out: list[Any] = []
    for a in args:
        if isinstance(a, list):
            out.extend(x for x in a if x is not None)
        elif a is not None:
            out.append(a)
    return out


def _min(*args: Any) -> Any:
    values = _flat(args)
    return min(values) if values else None


def _max(*args: Any) -> Any:
    values = _flat(args)
    return max(values) if values else None


def _ranks(unit: Any) -> int:
    return unit.models // max(1, unit.files)


def _joined(unit: Any) -> list[Any]:
    """The unit and every unit joined to it, from the one they all follow (``attach``): a
    character in a regiment and the regiment are one body of models."""
    root = unit
    while getattr(root, "leader", None) is not None:
        root = root.leader
    body, todo = [], [root]
    while todo:
        u = todo.pop(0)
        body.append(u)
        todo.extend(getattr(u, "followers", ()))
    return body


def _share(unit: Any, rule_name: str, threshold: str) -> bool:
    """Whether ``threshold`` of the models of the unit and of the units joined to it carry
    the rule: the fraction is exact (whole numbers compared), a body of no models has none."""
    if unit is None:
        return False
    body = _joined(unit)
    total = sum(u.models for u in body)
    carrying = sum(u.models for u in body if u.has_rule(rule_name))
    if total <= 0:
        return False
    if threshold == "all":
        return carrying == total
    if threshold == "more than half":
        return 2 * carrying > total
    if threshold == "half or more":
        return 2 * carrying >= total
    if threshold == "at least one":
        return carrying > 0
    raise ValueError(f"share(): unknown threshold {threshold!r}; expected one of {SHARES}")


PURE_BUILTINS: dict[str, Callable[..., Any]] = {
    # questions about one unit that need no battle (rules-odds asks them too)
    "weapons": lambda unit, kind=None: list(unit.weapons),
    "part": lambda unit, name: None if unit is None else unit.parts.get(name),
    "parts": lambda unit: [] if unit is None else list(unit.parts.values()),
    "groups": lambda unit: [] if unit is None else list(unit.groups),
    "ranks": _ranks,
    "share": _share,
    "files": lambda unit: min(unit.files, unit.models),
    "starting_models": lambda unit: unit.starting_models,
    "points_of": lambda unit: unit.points,
    "min": _min,
    "max": _max,
    "clamp": lambda x, lo, hi: None if x is None else max(lo, min(hi, x)),
    "abs": lambda x: None if x is None else abs(x),
    "half_up": _half_up,
    "half_down": lambda x: None if x is None else x // 2,
    "round_up": lambda x: None if x is None else -int((-x) // 1),
    "count": len,
    "sum": lambda xs: sum(x for x in xs if x is not None),
    "numbers": lambda low, high: list(range(low, high + 1)),
    "key_values": lambda table, key: list(table.key_values[table.keys.index(key)]),
    "any": lambda xs: any(xs),
    "all": lambda xs: all(xs),
}


def _param(env: Env, thing: Any, rule_name: str, index: int = 0) -> Any:
    """The ``index``-th argument of the rule ``rule_name`` on ``thing`` (dice are rolled)."""
    for inst in getattr(thing, "rules", ()):
        if inst.rule.name == rule_name:
            ps = list(inst.args.values())
            v = ps[index] if index < len(ps) else None
            return v.roll(env.chance, rule_name) if isinstance(v, DiceExpr) else v
    return None


def _params(env: Env, thing: Any, rule_name: str, index: int = 0) -> list:
    """That argument of every copy of the rule on ``thing``."""
    out = []
    for inst in getattr(thing, "rules", ()):
        if inst.rule.name == rule_name:
            values = list(inst.args.values())
            if index < len(values):
                v = values[index]
                out.append(v.roll(env.chance, rule_name) if isinstance(v, DiceExpr) else v)
    return out


def _value_of(env: Env, thing: Any, key: str) -> Any:
    return (getattr(thing, "values", None) or {}).get(key)


def _item_values(env: Env, thing: Any, key: str) -> list:
    return [item["values"][key] for item in getattr(thing, "equipment", ())
            if key in (item.get("values") or {})]


def _command_value(env: Env, thing: Any, model: str, characteristic: str) -> Any:
    """A command model's characteristic: its own value, else the unit's; None without it."""
    command = getattr(thing, "command", {}).get(model)
    if command is None:
        return None
    value = (command.get("profile") or {}).get(characteristic)
    return value if value is not None else env.runtime.characteristic(env, thing, characteristic)


def _unmodified(env: Env, thing: Any, characteristic: str) -> Any:
    """A characteristic as the profile gives it, before equipment and rule effects, clamped."""
    if thing is None:
        return None
    return env.runtime.characteristic(env, thing, characteristic, as_profile=True)


def _alternatives(env: Env, thing: Any, group: str) -> list:
    """The ids of a unit's items of an alternative group, in data order."""
    return [item_id for item_id, item in zip(getattr(thing, "item_ids", ()),
                                              getattr(thing, "all_equipment", ()))
            if item.get("alternative") == group]


def _wielded(env: Env, thing: Any, group: str) -> Any:
    """The id of the unit's item of that group in use; none without one."""
    idle: frozenset[int] = getattr(thing, "idle", frozenset())
    return next((item_id for i, (item_id, item) in enumerate(
        zip(getattr(thing, "item_ids", ()), getattr(thing, "all_equipment", ())))
        if item.get("alternative") == group and i not in idle), None)


LOCAL_BUILTINS: dict[str, Callable[..., Any]] = {
    # builtins that read their arguments and the evaluation's chance, not the battle
    "param": _param,
    "params": _params,
    "value_of": _value_of,
    "item_values": _item_values,
    "command_value": _command_value,
    "unaffected": lambda env, thing, name: env.runtime.is_unaffected(env, thing, name),
    "unmodified": _unmodified,
    "alternatives": _alternatives,
    "wielded": _wielded,
}

PURE_NAMES = frozenset(PURE_BUILTINS) | frozenset(LOCAL_BUILTINS)
"""Builtins that read only their arguments (no battle state)."""
