"""What the rules carried by bearers do: indexing a rule's effects by what they affect when
the ruleset is compiled, the scope an effect sees, and how the effects on a characteristic
combine (set, then multiply and divide, then add by stacking policy, with floors).

At run time a roll or a characteristic looks only at the rules its arguments carry (and the
global rules).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules_run.chance import DiceExpr
from rules_run.lang import ast
from rules_run.lang.reuse import reusing
from rules_run.lang.walk import walk
from rules_run.runtime.dice import dice_of
from rules_run.runtime.entities import Bearer, Group, RuleInstance, Weapon
from rules_run.runtime.env import Env, fail

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["index_rule", "is_live_grant", "characteristic_effects", "rule_scope", "bearers",
           "stack", "kept_off"]


def index_rule(rt: Runtime, rule: ast.RuleDecl, live: bool = False) -> None:
    """Compile a rule's effects into the runtime's tables, by what each affects; ``live``:
    its grants are all re-read when the bearer's rules are looked up (a status's rule,
    carried only while the status lasts)."""
    types = {p.name: p.type for p in rule.params}
    for e in rule.effects:
        cond = rt.compile_expr(e.condition, types) if e.condition is not None else None
        if isinstance(e, ast.Modify):
            rt.modifiers.setdefault(e.roll, []).append(
                (rule.name, e, cond, rt.compile_expr(e.amount, types)))
        elif isinstance(e, (ast.RerollEffect, ast.DiceReroll)):
            rt.rerolls.setdefault(e.roll, []).append((rule.name, e, cond))
        elif isinstance(e, ast.AutoResult):
            for test in reusing(rt.decls, e.test) if e.every else (e.test,):
                rt.autos.setdefault(test, []).append((rule.name, e, cond))
        elif isinstance(e, ast.MarkEffect):
            rt.marks.setdefault(e.roll, []).append((rule.name, e, cond))
        elif isinstance(e, ast.DiceEffect):
            rt.rule_dice.setdefault(e.roll, {}).setdefault(rule.name, []).append(
                (cond, dice_of(e.dice, rt.dice_decls)))
        elif isinstance(e, ast.RuleHook):
            arg = e.effect.arg
            amount = rt.compile_expr(arg, types) if isinstance(arg, ast.Expr) else None
            rt.rule_hooks.setdefault((e.sequence, e.step), []).append(
                (rule.name, e, cond, amount))
        elif isinstance(e, ast.CharacteristicEffect):
            rt.char_effects.setdefault(rule.name, []).append(
                (e, cond, rt.compile_expr(e.amount, types)))
            rt.char_effect_names.add(e.characteristic)
        elif isinstance(e, ast.Trigger):
            target = rt.decls.get(e.event)
            params = {p.name: p.type for p in getattr(target, "params", ())}
            rt.triggers.setdefault(e.event, {}).setdefault(rule.name, []).append(
                (e, cond, rt.codegen.block(e.body, {**types, **params},
                                           rt.ruleset.cite(f"rule:{rule.name}"))))
        elif isinstance(e, ast.Grant):
            (rt.live_grants if live or is_live_grant(e, rule) else rt.grants).setdefault(rule.name, []).append((e, cond))
        elif isinstance(e, ast.Shield):
            rt.shields.setdefault(rule.name, []).append((e, cond))


def is_live_grant(e: ast.Effect, rule: ast.RuleDecl) -> bool:
    """A grant whose condition reads the battle (anything but the rule's parameters): it is
    re-read whenever the bearer's rules are looked up, not resolved at set-up."""
    return isinstance(e, ast.Grant) and e.condition is not None and not _reads_only(
        e.condition, {p.name for p in rule.params})


def _reads_only(e: ast.Expr, params: set[str]) -> bool:
    """Whether an expression reads nothing but these parameters (and literals, operators):
    its value cannot change during a battle."""
    for node in walk(e):
        if isinstance(node, ast.Name) and node.name not in params:
            return False
        if isinstance(node, (ast.Call, ast.Attribute, ast.Has, ast.IsStatus, ast.DiceLit)):
            return False
    return True


def characteristic_effects(runtime: Runtime, env: Any, thing: Bearer, name: str,
                           value: Any) -> tuple[Any, Any, bool]:
    """The effects of the rules in play on one characteristic of ``thing`` (``env``: the
    evaluation, or None outside one): (the value they start from, rolled if it is dice, the
    value after them, whether any applied)."""
    applied: dict[str, list[tuple[ast.CharacteristicEffect, Any]]] = {}
    for inst in [*runtime.rules_in_play(env, thing), *runtime.global_rules]:
        for effect, cond, amount in runtime.char_effects.get(inst.rule.name, ()):
            if effect.characteristic != name:
                continue
            inside = _running(env, effect.during) if effect.during is not None else {}
            if inside is None:
                continue   # not inside the roll or sequence it applies during
            evars = rule_scope(inside, inst, thing)
            if cond is not None and not cond(env, evars):
                continue
            applied.setdefault(effect.op, []).append((effect, amount(env, evars)))
    if not applied:
        return value, value, False
    sets = [v for _, v in applied.get("set", ()) if v is not None]
    if sets:
        value = sets[-1]   # the last set that applies wins
    if isinstance(value, DiceExpr) and env is not None:
        value = value.roll(env.chance, name)   # a random value is rolled, then modified
    start = value
    if value is None or isinstance(value, DiceExpr):
        return start, value, True
    value = _floored(value, applied.get("set", ()))
    for effect, factor in applied.get("multiply", ()):
        value = None if factor is None or value is None else value * factor
    for effect, divisor in applied.get("divide", ()):
        if divisor == 0:
            raise fail(f"{name} divided by 0", effect.span, "division-by-zero")
        if divisor is not None and value is not None:
            value = -(-value // divisor) if effect.round_up else value // divisor
    if value is None:
        return start, None, True
    value = _floored(value, [*applied.get("multiply", ()), *applied.get("divide", ())])
    # each effect's sources combine by its stacking policy; different effects add up
    adds: dict[int, tuple[ast.CharacteristicEffect, list[Any]]] = {}
    for effect, amount in applied.get("add", ()):
        adds.setdefault(id(effect), (effect, []))[1].append(amount)
    for effect, amounts in adds.values():
        value += stack(amounts, effect.stacking)
    return start, _floored(value, applied.get("add", ())), True


def stack(amounts: list, stacking: ast.Stacking | None) -> int:
    """Combine the amounts of one effect from several sources, by its stacking policy."""
    policy = stacking.policy if stacking else "add"
    if policy == "add":
        return sum(amounts)
    if policy == "max":
        return max(amounts)
    if policy == "min":
        return min(amounts)
    if policy in ("boolean", "exclusive"):
        return amounts[0]
    total = sum(amounts)
    cap = stacking.cap if stacking and stacking.cap is not None else total
    return max(-abs(cap), min(abs(cap), total))


def _side_of(thing: Any) -> Any:
    """The side a unit, or a weapon's owner, fights for."""
    return getattr(getattr(thing, "owner", None) or thing, "side", None)


def kept_off(source: Bearer | None, despite: str | None,
             unaffected: Sequence[tuple[Bearer, str]]) -> bool:
    """A gain from a rule carried by ``source`` is kept off: an unaffected argument is of the
    same side (and not the source itself), and the effect is not ``despite`` its rule."""
    if source is None:
        return False   # a global rule is nobody's ability
    side = _side_of(source)
    return any(b is not source and _side_of(b) == side and despite != rule
               for b, rule in unaffected)


def _floored(value: Any, applied: Sequence[tuple[ast.CharacteristicEffect, Any]]) -> Any:
    """``value`` raised to the highest ``minimum N`` of the effects of a stage that applied."""
    floors = [e.floor for e, _ in applied if e.floor is not None]
    return max(value, *floors) if floors and value is not None else value


def _running(env: Env | None, name: str) -> Mapping[str, Any] | None:
    """The arguments of the innermost running roll, test or sequence ``name``, if any."""
    if env is not None:
        for running, args in reversed(env.running):
            if running == name:
                return args
    return None


def rule_scope(vars: Mapping[str, Any], inst: RuleInstance, bearer: Any) -> dict[str, Any]:
    """The names a rule's effect sees: the arguments of what it affects, the rule's own
    parameters, and ``bearer``."""
    scope = dict(vars)
    scope.update(inst.args)
    scope["bearer"] = bearer
    return scope


def bearers(args: Mapping[str, Any]) -> list[Bearer]:
    """The bearers among a roll's or step's arguments, each once: a weapon, then its owner
    (a unit, or the part of its models carrying it); a group of a unit's models, then the
    unit. A part's unit is not in play through the part: its rules are the part's own."""
    seen: list[Bearer] = []
    for v in args.values():
        if isinstance(v, Bearer) and all(v is not s for s in seen):
            seen.append(v)
            if isinstance(v, (Weapon, Group)) and v.owner is not None and all(
                    v.owner is not s for s in seen):
                seen.append(v.owner)
    return seen

