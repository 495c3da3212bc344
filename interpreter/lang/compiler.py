"""Compile a checked ruleset into Python closures, and run its rolls, tests and sequences.

Every expression and statement becomes a closure ``f(env, vars)``: ``env`` is the
:class:`Env` of one evaluation (its chance source, options, event log and battle state),
``vars`` the local names. A roll asks ``env.chance`` for its dice, so the very same compiled
code runs sampled (seeded or scripted dice) or exactly enumerated
(:func:`rules_run.chance.enumerate_exact`).

Rule effects (modifiers, re-rolls, automatic results, sequence hooks, characteristic
changes) are indexed by what they affect when the ruleset is compiled; at run time a roll
looks only at the rules its arguments carry.
"""

from __future__ import annotations

import marshal
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ParamSpec

import attrs

from rules_run import cache
from rules_run.chance import (
    D6,
    CountFaces,
    DiceExpr,
    Die,
    KeepHighest,
    KeepLowest,
    Plus,
    Pool,
    Times,
)
from rules_run.chance.dice import Face
from rules_run.chance.die import FaceValue
from rules_run.diagnostics import BattleError, DiagnosticBag, Span
from rules_run.engine.entities import Bearer, RuleInstance, Unit, Weapon
from rules_run.lang import ast
from rules_run.lang.codegen import CodeGen
from rules_run.lang.walk import walk
from rules_run.limits import limit, too_many
from rules_run.runtime.events import AutomaticTest, Event, Log, Roll, Test

__all__ = ["Env", "RollResult", "SequenceOutcome", "Runtime", "compile_ruleset", "dice_of"]

Closure = Callable[["Env", dict], Any]
P = ParamSpec("P")


@attrs.define
class Env:
    """What one evaluation runs with."""

    runtime: Runtime
    chance: Any
    """A :class:`rules_run.chance.Chance`: random, scripted or enumerating."""
    options: Mapping[str, Any]
    """Ruleset options in force (defaults overridden by the battle file or the CLI)."""
    events: list[Event] | None = None
    """Where the events go; None keeps logging off the hot path."""
    state: Any = None
    """The battle state, when there is a battle."""
    steps: int = 0
    """Statements run so far (a runaway loop stops at the runtime's cap)."""
    running: list[tuple[str, Mapping[str, Any]]] = attrs.Factory(list)
    """The rolls, tests and sequences running, innermost last, with their arguments (what
    a characteristic effect ``during`` one of them sees)."""

    def emit(self, record: Callable[P, Event], *args: P.args, **fields: P.kwargs) -> None:
        """Keep an event, the record of its kind built from ``fields`` and stamped with
        where it happened; only when events are being kept (no record is built else)."""
        if self.events is None:
            return
        event = record(*args, **fields)
        state = self.state
        if state is None:
            event.stamp(len(self.events) + 1, None, None, None, False)
        else:
            event.stamp(len(self.events) + 1, state.round, state.active_side, state.phase,
                        bool(state.attacking))
        self.events.append(event)


@attrs.frozen
class RollResult:
    """The outcome of one roll or test."""

    name: str
    value: Any
    """The final value: the modified total (or the declared ``value``)."""
    natural: FaceValue
    """The unmodified total of the dice (or the face of a single die with symbols)."""
    passed: bool | None
    """Whether a test passed; None for a roll."""
    marks: frozenset[str] = frozenset()
    """Marks from ``natural N is <mark>`` (``critical``)."""
    faces: tuple = ()
    need: int | None = None
    """The score needed, after modifiers to it (tests with ``need``)."""

    def __bool__(self) -> bool:
        return bool(self.passed) if self.passed is not None else bool(self.value)


@attrs.frozen
class _StepResult:
    """What a sequence's chain reads of a step's result: whether it passed, and its marks."""

    passed: bool | None
    marks: frozenset[str]

    @classmethod
    def of(cls, result: RollResult) -> _StepResult:
        return cls(result.passed, result.marks)


@attrs.frozen
class SequenceOutcome:
    """What one run of a sequence did: how many chains got past each step, and the damage."""

    past: tuple[int, ...]
    """For each step in order, the number of chains that went on past it."""
    damage: int


# ---------------------------------------------------------------- dice


def dice_of(lit: ast.DiceLit | ast.CountedDice,
            dice_decls: Mapping[str, ast.DieDecl] | None = None) -> DiceExpr:
    """The chance-layer dice expression for a dice literal (``D3`` is a D6 halved up)."""
    if isinstance(lit, ast.CountedDice):
        return _counted_of(lit)
    if lit.die_name is not None:
        decl = (dice_decls or {})[lit.die_name]
        expr: DiceExpr = Face(Die(tuple(decl.faces), decl.name))
    elif lit.sides == 3:
        expr = _d3_pool(lit.count)
    else:
        die = D6 if lit.sides == 6 else Die.standard(lit.sides)
        pool = Pool(lit.count, die)
        if lit.keep == "highest":
            expr = KeepHighest(lit.keep_count, pool)
        elif lit.keep == "lowest":
            expr = KeepLowest(lit.keep_count, pool)
        else:
            expr = pool
    if lit.times != 1:
        expr = Times(expr, lit.times)
    if lit.plus:
        expr = Plus(expr, lit.plus)
    return expr


_D3_DIE = Die((1, 1, 2, 2, 3, 3), "D3")
"""A D3: a D6 read halved, rounding up (1-2 → 1, 3-4 → 2, 5-6 → 3). Modelled as a die with
those faces, so ``2D3`` is two such dice summed and scripted dice give the D3's value."""


def _d3_pool(count: int) -> DiceExpr:
    return Pool(count, _D3_DIE)


def _counted_of(counted: ast.CountedDice) -> DiceExpr:
    """Counted dice whose number is known: a pool, or how many of its dice show some faces."""
    assert counted.number is None, "a counted number is worked out before rolling"
    pool = dice_of(counted.pool)
    assert isinstance(pool, Pool), "the parser counts a plain pool only"
    expr: DiceExpr = CountFaces(pool, counted.counting) if counted.counting else pool
    return Plus(expr, counted.plus) if counted.plus else expr


# ---------------------------------------------------------------- runtime errors


def _fail(message: str, span: Span | None, code: str = "runtime") -> BattleError:
    bag = DiagnosticBag()
    return BattleError([bag.add(message, span, code=code)])


_BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def _divide(a: Any, b: Any) -> Any:
    # "/" in the rules divides and rounds up (000 L9: any division rounds up)
    return -((-a) // b)


_BINOPS["/"] = _divide


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


_PURE_BUILTINS: dict[str, Callable[..., Any]] = {
    # questions about one unit that need no battle (rules-odds asks them too)
    "weapons": lambda unit, kind=None: list(unit.weapons),
    "ranks": _ranks,
    "files": lambda unit: min(unit.files, unit.models),
    "starting_models": lambda unit: unit.starting_models,
    "points_of": lambda unit: unit.points,
    "min": _min,
    "max": _max,
    "clamp": lambda x, lo, hi: None if x is None else max(lo, min(hi, x)),
    "abs": lambda x: None if x is None else abs(x),
    "half_up": _half_up,
    "half_down": lambda x: None if x is None else x // 2,
    "count": len,
    "sum": lambda xs: sum(x for x in xs if x is not None),
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


_LOCAL_BUILTINS: dict[str, Callable[..., Any]] = {
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


def _binop_function(e: ast.BinOp) -> Callable[[Any, Any], Any]:
    """``a <op> b`` for the operator of ``e``: none if either side is none, errors located."""
    op = _BINOPS[e.op]
    numbers_only = e.op != "+"   # "+" also joins texts and lists; the rest take numbers

    def binop(a, b):
        if a is None or b is None:
            return None
        if numbers_only and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            raise _fail(f"cannot compute {_show(a)!r} {e.op} {_show(b)!r}", e.span,
                        "bad-operands")
        try:
            return op(a, b)
        except ZeroDivisionError:
            raise _fail(f"division by zero in {e.op!r}", e.span, "division-by-zero") from None
        except TypeError:
            raise _fail(f"cannot compute {_show(a)!r} {e.op} {_show(b)!r}", e.span,
                        "bad-operands") from None
    return binop


def _lookup_function(e: ast.Lookup) -> Callable[[Any, tuple], Any]:
    """``table[key...]`` (or ``list[index]``): none for a none key or an index out of range."""

    def lookup(table, key):
        if isinstance(table, list):
            index = key[0]
            return table[index] if -len(table) <= index < len(table) else None
        if None in key:
            return None
        try:
            return table.lookup(*key)
        except KeyError as err:
            raise _fail(getattr(err, "message", None) or
                        f"table {table.name!r} has no cell {list(key)}", e.span,
                        "table-key") from None
    return lookup


# ---------------------------------------------------------------- the runtime


class Runtime:
    """A ruleset compiled to closures. Build it with :func:`compile_ruleset` (cached)."""

    STEP_CAP = 2_000_000
    """Statements one battle may run before it is stopped as a runaway."""

    def __init__(self, ruleset: Any, codes: Mapping[str, Any] | None = None) -> None:
        """``codes``: compiled code of generated functions, by label and source, to reuse
        (:attr:`CodeGen.codes`)."""
        self.ruleset = ruleset
        self.decls: Mapping[str, ast.Decl] = ruleset.decls
        self.tables = ruleset.tables
        self.characteristics: dict[str, ast.CharacteristicDecl] = {
            n: d for n, d in self.decls.items() if isinstance(d, ast.CharacteristicDecl)
        }
        self.dice_decls = {n: d for n, d in self.decls.items() if isinstance(d, ast.DieDecl)}
        self.codegen = CodeGen(self)
        self.codegen.codes.update(codes or {})
        self.option_defaults = {
            n: d.default for n, d in self.decls.items() if isinstance(d, ast.OptionDecl)
        }
        # effects indexed by target: roll name -> [(rule name, effect)], ...
        self.modifiers: dict[str, list[tuple[str, ast.Modify, Closure | None, Closure]]] = {}
        self.rerolls: dict[str, list[tuple[str, ast.RerollEffect, Closure | None]]] = {}
        self.autos: dict[str, list[tuple[str, ast.AutoResult, Closure | None]]] = {}
        self.marks: dict[str, list[tuple[str, ast.MarkEffect, Closure | None]]] = {}
        self.rule_dice: dict[str, dict[str, list[tuple[Closure | None, DiceExpr]]]] = {}
        """roll name -> rule name -> the dice its ``roll ... with`` effects set, by condition."""
        self.rule_hooks: dict[tuple[str, str], list[tuple[str, ast.RuleHook, Closure | None,
                                                          Closure | None]]] = {}
        self.char_effects: dict[str, list[tuple[ast.CharacteristicEffect, Closure | None,
                                                Closure]]] = {}
        self.char_effect_names: set[str] = set()
        """The characteristics some rule effect changes."""
        self.reading: set[tuple[int, str]] = set()
        """(bearer id, characteristic) whose effects are being weighed right now."""
        self.triggers: dict[str, dict[str, list[tuple[ast.Trigger, Closure | None,
                                                      Closure]]]] = {}
        """event -> rule name -> its ``when <event>`` effects."""
        self.grants: dict[str, list[tuple[ast.Grant, Closure | None]]] = {}
        self.shields: dict[str, list[tuple[ast.Shield, Closure | None]]] = {}
        """rule name -> its ``unaffected by friendly gains`` effects."""
        self.fight_cache: dict[tuple, Any] = {}
        """Exact damage distributions of volleys of attacks, for statistics runs."""
        self.rolls: dict[str, CompiledRoll] = {}
        self.sequences: dict[str, CompiledSequence] = {}
        self.actions: dict[str, CompiledAction] = {}
        self.param_types: dict[str, dict[str, str]] = {}
        for name, d in self.decls.items():
            if isinstance(d, ast.RollDecl):
                self.rolls[name] = CompiledRoll(self, d)
            elif isinstance(d, ast.SequenceDecl):
                self.sequences[name] = CompiledSequence(self, d)
            elif isinstance(d, (ast.ActionDecl, ast.PhaseDecl)):
                self.actions[name] = CompiledAction(self, d)
        self.default_policy = next((n for n, d in self.decls.items()
                                    if isinstance(d, ast.PolicyDecl) and d.is_default), None)
        battle = self.decls.get("battle")
        self.battle_decl = battle if isinstance(battle, ast.BattleDecl) else None
        self.battle_blocks: dict[str, Closure] = {}
        if self.battle_decl is not None:
            for part in ("setup", "round", "turn", "score"):
                self.battle_blocks[part] = _compile_block(self, getattr(battle, part), {},
                                                          ruleset.cite("battle"))
        for rule in ruleset.rules.values():
            self._index_rule(rule)
        self.global_rules = [RuleInstance(rule, {p.name: self.constant(p.default)
                                                 for p in rule.params if p.default is not None},
                                          rule.name)
                             for rule in ruleset.rules.values() if rule.is_global]
        """Rules that apply everywhere (``rule "..." is global``), with their defaults."""
        for roll in self.rolls.values():
            roll.finish()
        for seq in self.sequences.values():
            seq.finish()
        self.codegen.link({name: self._direct_call(name)
                           for name in [*self.rolls, *self.sequences, *self.actions]})

    # ------------------------------------------------------------ rules
    def _index_rule(self, rule: ast.RuleDecl) -> None:
        types = {p.name: p.type for p in rule.params}
        for e in rule.effects:
            cond = self.compile_expr(e.condition, types) if e.condition is not None else None
            if isinstance(e, ast.Modify):
                self.modifiers.setdefault(e.roll, []).append(
                    (rule.name, e, cond, self.compile_expr(e.amount, types)))
            elif isinstance(e, ast.RerollEffect):
                self.rerolls.setdefault(e.roll, []).append((rule.name, e, cond))
            elif isinstance(e, ast.AutoResult):
                self.autos.setdefault(e.test, []).append((rule.name, e, cond))
            elif isinstance(e, ast.MarkEffect):
                self.marks.setdefault(e.roll, []).append((rule.name, e, cond))
            elif isinstance(e, ast.DiceEffect):
                self.rule_dice.setdefault(e.roll, {}).setdefault(rule.name, []).append(
                    (cond, dice_of(e.dice, self.dice_decls)))
            elif isinstance(e, ast.RuleHook):
                arg = e.effect.arg
                amount = self.compile_expr(arg, types) if isinstance(arg, ast.Expr) else None
                self.rule_hooks.setdefault((e.sequence, e.step), []).append(
                    (rule.name, e, cond, amount))
            elif isinstance(e, ast.CharacteristicEffect):
                self.char_effects.setdefault(rule.name, []).append(
                    (e, cond, self.compile_expr(e.amount, types)))
                self.char_effect_names.add(e.characteristic)
            elif isinstance(e, ast.Trigger):
                target = self.decls.get(e.event)
                params = {p.name: p.type for p in getattr(target, "params", ())}
                self.triggers.setdefault(e.event, {}).setdefault(rule.name, []).append(
                    (e, cond, _compile_block(self, e.body, {**types, **params},
                                             self.ruleset.cite(f"rule:{rule.name}"))))
            elif isinstance(e, ast.Grant):
                self.grants.setdefault(rule.name, []).append((e, cond))
            elif isinstance(e, ast.Shield):
                self.shields.setdefault(rule.name, []).append((e, cond))

    def shields_naming(self, name: str) -> dict[str, list[Closure | None]]:
        """The ``unaffected by friendly gains`` effects that name this roll or
        characteristic: rule name -> their conditions."""
        out: dict[str, list[Closure | None]] = {}
        for rule_name, shields in self.shields.items():
            for shield, cond in shields:
                if name in shield.names:
                    out.setdefault(rule_name, []).append(cond)
        return out

    def unaffected_bearers(self, env: Env, shields: Mapping[str, list[Closure | None]],
                           carried: Sequence[tuple[Bearer | None, RuleInstance]]
                           ) -> list[tuple[Bearer, str]]:
        """The bearers among ``carried`` that one of ``shields`` makes unaffected by friendly
        gains, each with the rule that does."""
        out: list[tuple[Bearer, str]] = []
        for bearer, inst in carried:
            for cond in shields.get(inst.rule.name, ()):
                if bearer is not None and (cond is None or cond(
                        env, rule_scope({}, inst, bearer))):
                    out.append((bearer, inst.rule.name))
        return out

    def is_unaffected(self, env: Env, thing: Any, name: str) -> bool:
        """``unaffected(x, "NAME")``: a rule ``x`` carries makes it unaffected by friendly gains
        to that roll or characteristic."""
        if not isinstance(thing, Bearer):
            return False
        shields = self.shields_naming(name)
        return bool(shields) and bool(self.unaffected_bearers(
            env, shields, [(thing, inst) for inst in thing.rules]))

    def carried(self, vars: Mapping[str, Any]) -> list[tuple[Bearer | None, RuleInstance]]:
        """The rules in play for a roll or step with these arguments: each rule carried by an
        argument (a unit, a weapon and its owner), with its bearer; then the global rules,
        carried by nobody."""
        out: list[tuple[Bearer | None, RuleInstance]] = [
            (bearer, inst) for bearer in _bearers(vars) for inst in bearer.rules]
        out.extend((None, inst) for inst in self.global_rules)
        return out

    def apply_grants(self, bearer: Bearer) -> None:
        """Give a bearer the rules its rules grant (``grant "Swiftstride"``), transitively.

        A grant's condition is read once, when the bearer is set up, with ``bearer`` bound.
        """
        have = {inst.text for inst in bearer.rules}
        todo = list(bearer.rules)
        env = self.env(None)
        while todo:
            inst = todo.pop()
            for grant, cond in self.grants.get(inst.rule.name, ()):
                if grant.rule in have:
                    continue
                evars = rule_scope({}, inst, bearer)
                if cond is None or cond(env, evars):
                    granted = self.bind_rule(grant.rule)
                    bearer.rules.append(granted)
                    have.add(grant.rule)
                    todo.append(granted)

    def profile_values(self, profile: Mapping[str, Any], where: Span | None = None
                       ) -> dict[str, Any]:
        """A profile from data with each value read as its characteristic's declared type:
        ``need`` values ``"3+"`` become 3, ``dice`` values ``"D3"`` dice, ``"-"`` none.

        Raises:
            LanguageError: a value that does not read as its type (located at ``where``).
        """
        from rules_run.lang.parser import parse_dice

        out = dict(profile)
        for name, value in profile.items():
            decl = self.characteristics.get(name)
            if decl is None or not isinstance(value, str):
                continue
            text = value.strip()
            if text in ("-", ""):
                out[name] = None
            elif decl.type == "need" and text.endswith("+") and text[:-1].isdigit():
                out[name] = int(text[:-1])
            elif decl.type == "dice":
                out[name] = int(text) if text.isdigit() else dice_of(
                    parse_dice(text, where or Span("<data>", 1)), self.dice_decls)
            elif decl.type in ("int", "number") and text.lstrip("+-").isdigit():
                out[name] = int(text)
        return out

    def bind_rule(self, text: str) -> RuleInstance:
        """A rule reference from data (``Ward Save (5+)``) as a :class:`RuleInstance`."""
        from rules_run.lang.parser import parse_dice
        from rules_run.lang.rule_refs import resolve_rule

        rule, args = resolve_rule(text, self.ruleset.rules)
        values: dict[str, Any] = {}
        by_name = {p.name.lower(): p for p in rule.params}
        positional = list(rule.params)
        for arg in args:
            # a labelled argument (Strength 4) binds to the parameter of that name, if any
            label = (arg.label or "").lower().replace(" ", "_")
            param = by_name.get(label) if label else None
            if param is None or param.name in values:
                param = next(p for p in positional if p.name not in values)
            if arg.kind == "dice":
                values[param.name] = dice_of(parse_dice(str(arg.value), Span("<rule>", 1)),
                                             self.dice_decls)
            else:
                values[param.name] = arg.value
        for param in rule.params:
            if param.name not in values and param.default is not None:
                values[param.name] = self.constant(param.default)
        return RuleInstance(rule, values, text)

    # ------------------------------------------------------------ characteristics
    def characteristic(self, env: Env | None, thing: Any, name: str,
                       as_profile: bool = False) -> Any:
        """A characteristic of a unit or weapon: the profile's value, each equipment item's
        ``modifies:`` (units only), the effects of the rules in play (set, then multiply and
        divide, then add), the declaration's floor, then its range (``as_profile``: the
        profile's value, clamped, before equipment and rule effects).

        While the effects of a characteristic are weighed, an amount or condition that reads
        that same characteristic of that same bearer sees it without rule effects."""
        value = thing.profile.get(name)
        modified = False
        if not isinstance(thing, Weapon) and not as_profile:
            for item in getattr(thing, "equipment", ()):
                bonus = (item.get("modifies") or {}).get(name)
                if bonus and value is not None:
                    value += bonus
                    modified = True
        unmodified = value
        if (not as_profile and name in self.char_effect_names and isinstance(thing, Bearer)
                and (thing.rules or self.global_rules)):
            key = (id(thing), name)
            if key not in self.reading:
                self.reading.add(key)
                try:
                    unmodified, value, changed = self._apply_char_effects(env, thing, name, value)
                finally:
                    self.reading.discard(key)
                modified = modified or changed
        decl = self.characteristics.get(name)
        if decl is not None and isinstance(value, int) and not isinstance(value, bool):
            if decl.floor is not None and modified and value < decl.floor:
                # a modifier never takes it below the floor, nor below a lower unmodified value
                value = decl.floor if not isinstance(unmodified, int) else max(
                    value, min(decl.floor, unmodified))
            if decl.type == "int":
                if decl.low is not None and value < decl.low:
                    value = decl.low
                if decl.high is not None and value > decl.high:
                    value = decl.high
        return value

    def _apply_char_effects(self, env, thing: Bearer, name: str, value: Any
                            ) -> tuple[Any, Any, bool]:
        """The effects on one characteristic: (the value they start from, rolled if it is
        dice, the value after them, whether any applied)."""
        applied: dict[str, list[tuple[ast.CharacteristicEffect, Any]]] = {}
        for inst in [*thing.rules, *self.global_rules]:
            for effect, cond, amount in self.char_effects.get(inst.rule.name, ()):
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
                raise _fail(f"{name} divided by 0", effect.span, "division-by-zero")
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
            value += _stack(amounts, effect.stacking)
        return start, _floored(value, applied.get("add", ())), True

    # ------------------------------------------------------------ expressions
    def compile_expr(self, e: ast.Expr, types: Mapping[str, str]) -> Closure:
        """Compile an expression to a Python function (:mod:`rules_run.lang.codegen`);
        ``types`` gives the declared types of local names."""
        return self.codegen.expression(e, types)

    def constant(self, e: ast.Expr) -> Any:
        """The value of an expression that reads no battle: a parameter's default."""
        return self.compile_expr(e, {})(Env(self, None, {}), {})

    # ------------------------------------------------------------ calls
    def _direct_call(self, name: str) -> Callable[[Env, dict], Any]:
        """What a call of ``name`` in the rules runs, with a fresh dict of arguments: as
        :meth:`invoke`, without looking the name up at each call."""
        if name in self.triggers or isinstance(self.decls[name], ast.PhaseDecl):
            return lambda env, args: self.invoke(name, env, args)
        roll = self.rolls.get(name)
        if roll is not None:
            if roll.decl.is_test:
                return roll.run
            return lambda env, args: roll.run(env, args).value
        seq = self.sequences.get(name)
        if seq is not None:
            return seq.run
        action = self.actions[name]
        # only a return inside an activation's body needs catching
        return action.body if action.returns_directly else action.call

    def invoke(self, name: str, env: Env, args: dict) -> Any:
        """Run the roll, test, sequence, action or phase ``name`` with bound arguments (a
        parameter left out takes its default)."""
        params = getattr(self.decls.get(name), "params", ())
        if len(args) < len(params):
            args = dict(args)
            for p in params:
                if p.name not in args and p.default is not None:
                    args[p.name] = self.constant(p.default)
        roll = self.rolls.get(name)
        if roll is not None:
            result = roll.run(env, args)
            if env.state is not None and name in self.triggers:
                env.state.fire(env, name, dict(args, result=result))
            return result if roll.decl.is_test else result.value
        seq = self.sequences.get(name)
        if seq is not None:
            return seq.run(env, args)
        action = self.actions[name]
        if env.state is not None and isinstance(action.decl, ast.PhaseDecl):
            result = env.state.enter_phase(env, name, lambda: action.run(env, args))
        else:
            result = action.run(env, args)
        if env.state is not None and name in self.triggers:
            env.state.fire(env, name, args)
        return result

    def battle_turn(self, env: Env) -> None:
        """Run the battle declaration's ``turn`` block."""
        self.battle_blocks["turn"](env, {})

    def role(self, role: str, entity: str = "model") -> str | None:
        """The characteristic declared ``as <role>`` (``wounds``, ``move``), if any."""
        return next((n for n, d in self.characteristics.items()
                     if d.role == role and d.entity == entity), None)

    def env(self, chance: Any, options: Mapping[str, Any] | None = None,
            events: list | None = None, state: Any = None) -> Env:
        """An :class:`Env` with the ruleset's option defaults, overridden by ``options``."""
        merged = dict(self.option_defaults)
        merged.update(options or {})
        return Env(self, chance, merged, events, state)


def _stack(amounts: list, stacking: ast.Stacking | None) -> int:
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


def _kept_off(source: Bearer | None, despite: str | None,
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


def _bearers(args: Mapping[str, Any]) -> list[Bearer]:
    seen: list[Bearer] = []
    for v in args.values():
        if isinstance(v, Bearer) and all(v is not s for s in seen):
            seen.append(v)
            if isinstance(v, Weapon) and v.owner is not None and all(
                    v.owner is not s for s in seen):
                seen.append(v.owner)
    return seen


# ---------------------------------------------------------------- rolls and tests


class CompiledRoll:
    """A roll or test, ready to run."""

    def __init__(self, runtime: Runtime, decl: ast.RollDecl) -> None:
        self.runtime = runtime
        self.decl = decl
        self.name = decl.name
        types = {p.name: p.type for p in decl.params}
        self.params = frozenset(types)
        ctx = dict(types, result="int", natural="int")
        assert decl.dice is not None, "the checker requires dice (missing-dice)"
        number = decl.dice.number if isinstance(decl.dice, ast.CountedDice) else None
        self.number = runtime.compile_expr(number, types) if number is not None else None
        self.dice = dice_of(decl.dice, runtime.dice_decls) if number is None else None
        """The dice, unless their number is worked out each time (:meth:`_counted_dice`)."""
        self.counted: dict[int, DiceExpr] = {}
        """The dice for each counted number rolled so far (``levels D6``)."""
        self.need = runtime.compile_expr(decl.need, ctx) if decl.need is not None else None
        self.pass_if = runtime.compile_expr(decl.pass_if, ctx) if decl.pass_if else None
        self.target = _target(runtime, decl.pass_if, ctx)
        """``pass if result <= X``: the comparison and X compiled, for the event log."""
        self.value = runtime.compile_expr(decl.value, ctx) if decl.value is not None else None
        self.beyond = (decl.beyond[0], runtime.compile_expr(decl.beyond[1], dict(ctx, need="int"))
                       ) if decl.beyond else None
        self.naturals = decl.naturals
        self.natural_can_pass = any(n.effect == "passes" for n in decl.naturals)
        self.mark_ifs = [(mark, runtime.compile_expr(cond, dict(ctx, dice="list")))
                         for mark, cond in decl.marks]
        self.own_modifier = (runtime.compile_expr(decl.modifier, types)
                             if decl.modifier is not None else None)
        self.lo, self.hi = decl.cap
        self.cite = runtime.ruleset.cite(decl.name)

    def finish(self) -> None:
        """Pick up the rule effects aimed at this roll (after every rule is indexed)."""
        self.modifiers = self.runtime.modifiers.get(self.name, [])
        self.rerolls = self.runtime.rerolls.get(self.name, [])
        self.rule_dice = self.runtime.rule_dice.get(self.name, {})
        self.autos = self.runtime.autos.get(self.name, [])
        marks = self.runtime.marks.get(self.name, [])
        self.has_effects = bool(self.modifiers or self.rerolls or self.autos or marks)
        self.shields = self.runtime.shields_naming(self.name)
        """rule name -> its ``unaffected by friendly gains`` conditions that name this roll."""
        self.by_rule: dict[str, tuple[list, list, list, list]] = {}
        """rule name -> its modifiers (with their index), re-rolls, automatic results and
        marks."""
        for i, (rname, eff, cond, amount) in enumerate(self.modifiers):
            self.by_rule.setdefault(rname, ([], [], [], []))[0].append((i, eff, cond, amount))
        for rname, reroll, cond in self.rerolls:
            self.by_rule.setdefault(rname, ([], [], [], []))[1].append((reroll, cond))
        for rname, auto, cond in self.autos:
            self.by_rule.setdefault(rname, ([], [], [], []))[2].append((auto, cond))
        for rname, mark, cond in marks:
            self.by_rule.setdefault(rname, ([], [], [], []))[3].append((mark, cond))

    def _effects(self, env: Env, vars: dict):
        """Modifiers (by part) with their sources, the re-roll asked for, an automatic result,
        and the marks rules may give (each with its condition, read after the roll)."""
        mods: dict[tuple[str, int], list] = {}
        sources: list[tuple[str, int, str]] = []
        reroll_failed = reroll_passed = False
        rerolled_by: list[str] = []
        auto = None
        marking: list[tuple[str, Closure | None, dict]] = []
        carried = self.runtime.carried(vars)
        unaffected = self.runtime.unaffected_bearers(env, self.shields, carried) if self.shields \
            else ()
        for bearer, inst in carried:
            effects = self.by_rule.get(inst.rule.name)
            if effects is None:
                continue
            modifiers, rerolls, autos, marks = effects
            evars = rule_scope(vars, inst, bearer)
            marking.extend((eff.mark, cond, evars) for eff, cond in marks)
            for i, eff, cond, amount in modifiers:
                if cond is None or cond(env, evars):
                    v = amount(env, evars)
                    if v and unaffected and (v > 0) == (eff.part == "result") and _kept_off(
                            bearer, eff.despite, unaffected):
                        continue   # a friendly gain an argument is unaffected by
                    if v:
                        mods.setdefault((eff.part, i), []).append(v)
                        sources.append((eff.part, v, inst.text))
            for eff, cond in rerolls:
                if cond is None or cond(env, evars):
                    rerolled_by.append(inst.text)
                    if eff.which == "failed":
                        reroll_failed = True
                    else:
                        reroll_passed = True
            for eff, cond in autos:
                if cond is None or cond(env, evars):
                    auto = (eff.result == "pass", inst.text)
        totals = {"result": 0, "need": 0}
        for (part, i), amounts in mods.items():
            totals[part] += _stack(amounts, self.modifiers[i][1].stacking)
        # a granted re-roll and a forced re-roll of successes cancel (000 L15)
        if reroll_failed and reroll_passed:
            reroll_failed = reroll_passed = False
        return totals, sources, (reroll_failed, reroll_passed, rerolled_by), auto, marking

    def run(self, env: Env, vars: dict) -> RollResult:
        """Roll (or test) with arguments ``vars``.

        Raises:
            BattleError: ``too-deep``, when the roll's effects roll it again without end.
        """
        env.running.append((self.name, vars))
        try:
            return self._run(env, vars)
        except RecursionError:
            if sum(1 for name, _ in env.running if name == self.name) < 2:
                raise
            raise _fail(f"{self.name!r} was rolled within itself too deeply: rules that roll "
                        "it again without end", self.decl.span, "too-deep") from None
        finally:
            env.running.pop()

    def _run(self, env: Env, vars: dict) -> RollResult:
        if self.has_effects:
            totals, sources, rerolls, auto, marking = self._effects(env, vars)
        else:
            totals, sources, rerolls, auto, marking = _NO_MODS, (), _NO_REROLLS, None, []
        reroll_failed, reroll_passed, rerolled_by = rerolls
        if auto is not None:
            result = RollResult(self.name, None, 0, auto[0])
            env.emit(AutomaticTest, rule=self.name, cite=self.cite,
                     result="pass" if auto[0] else "fail", automatic=auto[1])
            return result
        modifier = totals["result"]
        if self.own_modifier is not None:
            modifier += self.own_modifier(env, vars) or 0
        if self.lo is not None and modifier < self.lo:
            modifier = self.lo
        if self.hi is not None and modifier > self.hi:
            modifier = self.hi
        dice = self._dice_by_rules(env, vars) if self.rule_dice else None
        if dice is None:
            dice = self.dice if self.dice is not None else self._counted_dice(env, vars)
        result = self._roll_once(env, vars, dice, modifier, totals["need"], marking)
        rerolled = False
        if self.decl.is_test and self.decl.reroll != "never" and result.faces and (
                (reroll_failed and not result.passed) or (reroll_passed and result.passed)):
            # a die is re-rolled at most once, whatever the number of sources (000 L13)
            result = self._roll_once(env, vars, dice, modifier, totals["need"], marking,
                                     self._rerolled_faces(env, result, dice.dice()))
            rerolled = True
        if env.events is not None:
            env.emit(
                Test if self.decl.is_test else Roll,
                rule=self.name,
                units=[v.id for v in vars.values() if isinstance(v, Unit)],
                cite=self.cite,
                dice=list(result.faces),
                natural=result.natural,
                modifiers=[{"amount": v, "source": s, "applies_to": p} for p, v, s in sources],
                need=result.need,
                value=result.value,
                result=None if result.passed is None else ("pass" if result.passed else "fail"),
                rerolled=rerolled,
                marks=sorted(result.marks),
                **self._described(env, vars, rerolled_by if rerolled else ()),
            )
        return result

    def _described(self, env: Env, vars: dict, rerolled_by: Sequence[str]) -> dict[str, Any]:
        """What the battle report shows beside the dice: the arguments that are not units
        (``args``), the score a ``pass if result <= X`` test compares with (``target``, as
        ``[comparison, X]``) and the rules that gave a re-roll (``rerolled_by``)."""
        out: dict[str, Any] = {}
        args = {k: v for k, v in vars.items()
                if k in self.params and isinstance(v, (bool, int, float, str))}
        if args:
            out["args"] = args
        if self.target is not None:
            out["target"] = [self.target[0], self.target[1](env, vars)]
        if rerolled_by:
            out["rerolled_by"] = list(dict.fromkeys(rerolled_by))
        return out

    def _dice_by_rules(self, env: Env, vars: dict) -> DiceExpr | None:
        """The dice a rule in play sets for this roll (``roll NAME with DICE``), worked out
        before rolling; the first such rule carried wins."""
        for bearer, inst in self.runtime.carried(vars):
            for cond, dice in self.rule_dice.get(inst.rule.name, ()):
                if cond is None or cond(env, rule_scope(vars, inst, bearer)):
                    return dice
        return None

    def _counted_dice(self, env: Env, vars: dict) -> DiceExpr:
        """The dice of a roll of a counted number of dice (``levels D6``), worked out now."""
        counted = self.decl.dice
        assert self.number is not None and isinstance(counted, ast.CountedDice)
        assert counted.number is not None
        n = self.number(env, vars)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise _fail(f"{self.decl.kind} {self.name!r} is to roll {n!r} dice; the number of "
                        "dice must be a whole number, 0 or more", counted.number.span,
                        "bad-dice")
        if n > limit("dice"):
            raise _fail(f"{self.decl.kind} {self.name!r}: "
                        + too_many("dice", "dice in one roll", n), counted.number.span,
                        "too-many-dice")
        dice = self.counted.get(n)
        if dice is None:
            lit = attrs.evolve(counted, pool=attrs.evolve(counted.pool, count=n), number=None)
            dice = self.counted[n] = dice_of(lit)
        return dice

    def _rerolled_faces(self, env: Env, result: RollResult, physical: tuple[Die, ...]) -> tuple:
        """The faces after a re-roll: every die (``reroll all dice``, the default for
        many-dice rolls, 000 L13), or one die (``reroll one die``): the lowest when a high
        result passes (``need``), the highest when a low one does (``pass if``)."""
        if self.decl.reroll != "one die" or len(result.faces) == 1:
            return env.chance.roll(physical, self.name)
        faces = list(result.faces)
        pick = faces.index(min(faces) if self.need is not None else max(faces))
        faces[pick] = env.chance.roll((physical[pick],), self.name)[0]
        return tuple(faces)

    def _roll_once(self, env: Env, vars: dict, rolled: DiceExpr, modifier: int, need_mod: int,
                   marking: list[tuple[str, Closure | None, dict]],
                   faces: tuple | None = None) -> RollResult:
        need = None
        if self.need is not None:
            # the score needed does not depend on the dice, so it is known before rolling;
            # an impossible need ("none": no save at all) is not rolled unless a natural
            # result could still pass it
            need = self.need(env, vars)
            if need is not None:
                need += need_mod
            elif not self.natural_can_pass:
                return RollResult(self.name, None, 0, False)
        if faces is None:
            physical = rolled.dice()
            # a counted number of none rolls nothing, so asks no chance source
            faces = env.chance.roll(physical, self.name) if physical else ()
        natural = rolled.value(faces)
        total = natural + modifier if isinstance(natural, int) else natural
        vars = dict(vars)
        vars["natural"] = natural
        vars["result"] = total
        marks = frozenset(n.mark for n in self.naturals
                          if n.mark is not None and natural in n.values)
        if self.mark_ifs or marking:
            vars["dice"] = list(faces)
            marks = marks | {mark for mark, cond in self.mark_ifs if cond(env, vars)}
            # a rule's mark: its condition sees the dice as the roll's own clauses do
            dice = {"natural": natural, "result": total, "dice": vars["dice"]}
            marks = marks | {mark for mark, cond, evars in marking
                             if cond is None or cond(env, {**evars, **dice})}
        passed: bool | None = None
        if self.decl.is_test:
            forced = None
            for n in self.naturals:
                if natural in n.values and n.effect in ("fails", "passes"):
                    forced = n.effect == "passes"
                    if not forced:
                        break
            if self.need is not None:
                if need is None:
                    passed = False
                elif (self.beyond is not None and isinstance(natural, int)
                      and need - modifier > self.beyond[0]):
                    passed = self._beyond(env, vars, rolled, natural, need - modifier)
                else:
                    passed = total >= need
            else:
                assert self.pass_if is not None, "the checker requires one (missing-pass)"
                passed = bool(self.pass_if(env, vars))
            if forced is not None:
                passed = forced
            if passed and marks and any(m in marks for m, _ in self.decl.failing_marks):
                passed = False
        value = self.value(env, vars) if self.value is not None else total
        return RollResult(self.name, value, natural, passed, marks, faces, need)

    def _beyond(self, env: Env, vars: dict, rolled: DiceExpr, natural: int, need: int) -> bool:
        """A need above the die (7+): roll the highest face, then another die (000 L362)."""
        assert self.beyond is not None, "only a roll with 'beyond' goes beyond"
        threshold, follow = self.beyond
        if natural < threshold:
            return False
        second = follow(env, dict(vars, need=need))
        if second is None:
            return False
        faces = env.chance.roll(rolled.dice(), self.name + ".beyond")
        return rolled.value(faces) >= second


_NO_MODS = {"result": 0, "need": 0}
_NO_REROLLS: tuple[bool, bool, list[str]] = (False, False, [])


def _target(runtime: Runtime, pass_if: ast.Expr | None, ctx: dict[str, str]
            ) -> tuple[str, Closure] | None:
    """``pass if result <= X`` (or ``>=``, ``<``, ``>``) with an X that reads neither the
    dice nor any roll or action: the comparison and X compiled; else None."""
    if not (isinstance(pass_if, ast.Compare) and isinstance(pass_if.left, ast.Name)
            and pass_if.left.name == "result" and pass_if.op in ("<=", ">=", "<", ">")):
        return None
    for node in walk(pass_if.right):
        if isinstance(node, ast.Name) and node.name in ("result", "natural", "dice"):
            return None
        if isinstance(node, ast.Call) and node.name in runtime.decls:
            return None
    return pass_if.op, runtime.compile_expr(pass_if.right, ctx)


# ---------------------------------------------------------------- sequences


class CompiledSequence:
    """An attack's chain of steps, ready to run."""

    def __init__(self, runtime: Runtime, decl: ast.SequenceDecl) -> None:
        self.runtime = runtime
        self.decl = decl
        self.name = decl.name
        types = {p.name: p.type for p in decl.params}
        self.steps = []
        for step in decl.steps:
            call = runtime.compile_expr(step.call, types)
            hooks = [(h.mark, runtime.compile_expr(h.condition, types) if h.condition else None,
                      h.effect, runtime.compile_expr(h.effect.arg, types)
                      if isinstance(h.effect.arg, ast.Expr) else None, None)
                     for h in step.hooks]
            self.steps.append((step.name, call, step.stop_on == "pass", hooks))
        self.step_names = [s.name for s in decl.steps]
        self.damage = runtime.compile_expr(decl.damage, types) if decl.damage else None
        self.per_point = (runtime.compile_expr(decl.per_point.call, types),
                          decl.per_point.removes_on == "pass") if decl.per_point else None
        self.cite = runtime.ruleset.cite(decl.name)

    def finish(self) -> None:
        """Pick up hooks that rules add to this sequence's steps; decide whether it is pure."""
        self.pure, self.reads, self.statuses = _purity(self.runtime, self.decl)
        """Safe to enumerate inside a battle (no battle state read or changed), and the
        properties and statuses it reads (a cached distribution depends on those only)."""
        self.rule_hooks = {
            name: self.runtime.rule_hooks.get((self.name, name), []) for name in self.step_names
        }

    def _hooks(self, env, vars, index, result):
        """The hook effects that fire on this step's result, in order."""
        name, _, _, hooks = self.steps[index]
        out = []
        for mark, cond, effect, amount, _ in hooks:
            if mark in result.marks and (cond is None or cond(env, vars)):
                out.append((effect, amount, vars))
        rule_hooks = self.rule_hooks.get(name)
        if rule_hooks and result.marks:
            for bearer, inst in self.runtime.carried(vars):
                for rname, eff, cond, amount in rule_hooks:
                    if rname != inst.rule.name or eff.mark not in result.marks:
                        continue
                    evars = rule_scope(vars, inst, bearer)
                    if cond is None or cond(env, evars):
                        out.append((eff.effect, amount, evars))
        return out

    def run(self, env: Env, vars: dict) -> SequenceOutcome:
        """Resolve one attack: its first chain, then every chain a hook added."""
        past = [0] * len(self.steps)
        damage = 0
        todo: list[tuple[int, frozenset[int]]] = [(0, frozenset())]
        while todo:
            chain_past, chain_damage, spawned = self._chain(env, vars, *todo.pop())
            for i, n in enumerate(chain_past):
                past[i] += n
            damage += chain_damage
            todo.extend(spawned)
        return SequenceOutcome(tuple(past), damage)

    def exact(self, make_env: Callable[[Any], Env], vars: dict) -> Any:
        """One attack's exact outcome distribution (a ``Dist`` of :class:`SequenceOutcome`).

        The same chain code as :meth:`run`, enumerated one chain at a time: chains a hook
        adds (``chains 2``) are independent, so their distributions are enumerated once and
        convolved, instead of enumerating every die of every chain together. Within a chain,
        each step's roll is enumerated once, on its own: a chain tells a step's results
        apart only by whether it passed and its marks, and a step's chances do not depend on
        the steps before it (the sequence changes nothing), so the chain branches on those
        few results instead of on every die of every step.
        """
        from rules_run.chance import Dist, binomial, enumerate_exact

        memo: dict[tuple[int, frozenset[int]], Any] = {}
        keep = None
        if self.per_point is not None:
            # each damage point is tested alone, the same way whatever the chain did: so the
            # points kept are a binomial thinning of the points made
            test, removes_on_pass = self.per_point
            passes = enumerate_exact(lambda ch: bool(self._inside(make_env(ch), vars,
                                                                  test).passed))
            keep = passes.probability(not removes_on_pass)

        steps: dict[int, Any] = {}

        def step_result(i: int) -> Any:
            # what a chain sees of step i's result, with its probability (made when a chain
            # first reaches the step)
            found = steps.get(i)
            if found is None:
                call = self.steps[i][1]
                found = steps[i] = enumerate_exact(
                    lambda ch: _StepResult.of(self._inside(make_env(ch), vars, call)))
            return found

        def drawn(i: int) -> Callable[[Env, dict], Any]:
            name = self.step_names[i]
            return lambda env, vars: env.chance.draw(step_result(i), name)

        calls = [drawn(i) for i in range(len(self.steps))]

        def add(a: SequenceOutcome, b: SequenceOutcome) -> SequenceOutcome:
            return SequenceOutcome(tuple(x + y for x, y in zip(a.past, b.past)),
                                   a.damage + b.damage)

        def from_chain(start: int, skip: frozenset[int]) -> Any:
            key = (start, skip)
            if key not in memo:
                chain = enumerate_exact(lambda ch: self._chain(make_env(ch), vars, start, skip,
                                                               per_point=False, calls=calls))

                def with_spawned(out: tuple) -> Any:
                    if keep is None or out[1] == 0:
                        total = Dist.certain(SequenceOutcome(out[0], out[1]))
                    else:
                        total = binomial(out[1], keep).map(
                            lambda kept: SequenceOutcome(out[0], kept))
                    for s in out[2]:
                        total = total.combine(from_chain(*s), add)
                    return total

                memo[key] = chain.bind(with_spawned)
            return memo[key]

        return from_chain(0, frozenset())

    def _inside(self, env: Env, vars: dict, roll: Closure) -> Any:
        """A step's roll or a per-point test, run inside this sequence as a chain runs it."""
        env.running.append((self.name, vars))
        try:
            return roll(env, vars)
        finally:
            env.running.pop()

    def _chain(self, env: Env, vars: dict, start: int, skip: frozenset[int],
               per_point: bool = True, calls: Sequence[Closure] | None = None
               ) -> tuple[tuple[int, ...], int, tuple[tuple[int, frozenset[int]], ...]]:
        """One chain from step ``start``: how many got past each step, its damage, and the
        chains its hooks added (each as its first step and the steps it skips). Without
        ``per_point`` the damage is before the ``each point`` tests. ``calls`` stand in for
        the steps' rolls (one each, in order)."""
        env.running.append((self.name, vars))
        try:
            return self._chain_steps(env, vars, start, skip, per_point, calls)
        finally:
            env.running.pop()

    def _chain_steps(self, env: Env, vars: dict, start: int, skip: frozenset[int],
                     per_point: bool, calls: Sequence[Closure] | None
                     ) -> tuple[tuple[int, ...], int, tuple[tuple[int, frozenset[int]], ...]]:
        n_steps = len(self.steps)
        past = [0] * n_steps
        spawned: list[tuple[int, frozenset[int]]] = []
        i = start
        ended_with = None
        while i < n_steps:
            if i in skip:
                past[i] += 1
                i += 1
                continue
            name, call, stops_on_pass, hooks = self.steps[i]
            result = (call if calls is None else calls[i])(env, vars)
            passed = result.passed
            extra_chains = 0
            if result.marks:
                for effect, amount, evars in self._hooks(env, vars, i, result):
                    kind = effect.kind
                    if kind == "chains":
                        extra_chains += amount(env, evars) - 1
                    elif kind == "skip":
                        skip = skip | {self.step_names.index(effect.arg)}
                    elif kind == "end_damage":
                        ended_with = amount(env, evars)
                    elif kind == "pass":
                        passed = True
                    elif kind == "fail":
                        passed = False
            if ended_with is not None:
                break
            if passed == stops_on_pass:
                return tuple(past), 0, tuple(spawned)
            past[i] += 1 + max(0, extra_chains)
            spawned.extend([(i + 1, skip)] * max(0, extra_chains))
            i += 1
        points = ended_with if ended_with is not None else (
            self.damage(env, vars) if self.damage is not None else 1)
        if points and per_point and self.per_point is not None:
            test, removes_on_pass = self.per_point
            kept = 0
            for _ in range(points):
                if bool(test(env, vars).passed) != removes_on_pass:
                    kept += 1
            points = kept
        return tuple(past), points or 0, tuple(spawned)


def _purity(runtime: Runtime, decl: ast.Decl
            ) -> tuple[bool, frozenset[str], frozenset[str]]:
    """Whether a declaration can run without a battle and change nothing in it, which
    properties of things (``x.models``, ...) it reads, and which statuses it asks about
    (``x is charging``).

    It may call rolls and tests (that have no ``when`` triggers), actions whose statements
    are pure, and the pure builtins; the rule effects that can reach it (modifiers, re-rolls,
    automatic results, hooks, characteristic changes) must be pure too.
    """

    seen: set[str] = set()
    reads: set[str] = set()
    statuses: set[str] = set()
    todo: list[object] = [decl]
    for rule in runtime.ruleset.rules.values():
        todo.extend(e for e in rule.effects if not isinstance(e, (ast.Trigger, ast.Grant)))
    pure = True
    while todo and pure:
        current = todo.pop()
        for node in walk(current):
            if isinstance(node, ast.Attribute):
                reads.add(node.name)
            elif isinstance(node, ast.IsStatus):
                statuses.add(node.status)
            elif isinstance(node, ast.Assign) and not isinstance(node.target, ast.Name):
                pure = False
            elif isinstance(node, ast.Call):
                target = runtime.decls.get(node.name)
                if isinstance(target, (ast.RollDecl, ast.ActionDecl)) and not isinstance(
                        target, ast.PhaseDecl):
                    if node.name in runtime.triggers:
                        pure = False
                    elif node.name not in seen:
                        seen.add(node.name)
                        todo.append(target)
                elif target is not None or node.name not in _PURE_NAMES:
                    pure = False
            if not pure:
                break
    return pure, frozenset(reads), frozenset(statuses)


_PURE_NAMES = frozenset(_PURE_BUILTINS) | frozenset(_LOCAL_BUILTINS)
"""Builtins that read only their arguments (no battle state)."""


# ---------------------------------------------------------------- actions (statements)


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


class CompiledAction:
    """An action or phase: a compiled block of statements."""

    def __init__(self, runtime: Runtime, decl: ast.ActionDecl | ast.PhaseDecl) -> None:
        self.runtime = runtime
        self.decl = decl
        types = {p.name: p.type for p in decl.params}
        self.body = runtime.codegen.block(decl.body, types, runtime.ruleset.cite(decl.name),
                                          top=decl)
        self.returns_directly = not any(isinstance(node, ast.Activate)
                                        for node in walk(decl.body))
        """Whether every ``return`` is a Python return (none is inside an activation)."""

    def run(self, env: Env, vars: dict) -> Any:
        """Run the statements; the value of ``return`` (None without one)."""
        return self.call(env, dict(vars))

    def call(self, env: Env, vars: dict) -> Any:
        """As :meth:`run`, with a dict of arguments the action may keep as its locals."""
        try:
            return self.body(env, vars)
        except _Return as r:  # a return inside an activation's body
            return r.value


def _compile_block(runtime: Runtime, body: tuple[ast.Stmt, ...], types, cite: str = "") -> Closure:
    return runtime.codegen.block(body, types, cite)


def _log_statement(runtime: Runtime, s: ast.Log, types, cite: str) -> Closure:
    """``log "message" with values`` (run only when events are kept)."""
    args = [runtime.compile_expr(a, types) for a in s.args]
    message, span = s.message, s.span

    def log(env, vars):
        env.emit(Log, message=message, values=[_show(a(env, vars)) for a in args],
                 at=span.text(), cite=cite)
    return log


def _statement_closure(runtime: Runtime, s: ast.Stmt, types, cite: str) -> Closure:
    """The statements the code generator leaves as closures: setting a characteristic,
    ``stop`` and ``activate``."""
    x = runtime.compile_expr
    if isinstance(s, ast.Assign) and isinstance(s.target, ast.Attribute):
        value = x(s.value, types)
        target, attr, op = x(s.target.target, types), s.target.name, s.op

        def assign_attr(env, vars):
            thing = target(env, vars)
            v = value(env, vars)
            if op != "=":
                old = env.runtime.characteristic(env, thing, attr)
                v = old + v if op == "+=" else old - v
            thing.profile[attr] = v
        return assign_attr
    if isinstance(s, ast.Stop):
        message, span = s.message, s.span

        def stop(env, vars):
            raise _fail(message, span, "stopped")
        return stop
    if isinstance(s, ast.Activate):
        units, start = x(s.units, types), x(s.start, types)
        body = _compile_block(runtime, s.body, types, cite)
        var, picker, order, span = s.var, s.picker, s.order, s.span
        where = x(s.where, dict(types, **{var: "unit"})) if s.where is not None else None

        def activate(env, vars):
            if env.state is None:
                raise _fail("'activate' needs a battle", span)
            may = None
            if where is not None:
                def may(unit):
                    return bool(where(env, dict(vars, **{var: unit})))
            env.state.activate(env, vars, var, units(env, vars), order, start(env, vars),
                               picker, body, may)
        return activate
    raise AssertionError(f"no compiler for {type(s).__name__}")  # pragma: no cover


def _show(value: Any) -> Any:
    if isinstance(value, (Unit, Weapon)):
        return getattr(value, "id", None) or value.name
    if isinstance(value, RollResult):
        return value.value
    return value


_RUNTIMES: dict[int, tuple[Any, Runtime]] = {}


def compile_ruleset(ruleset: Any) -> Runtime:
    """The compiled :class:`Runtime` of a ruleset (compiled once per ruleset object; the
    Python code of its rules kept in the disk cache, :mod:`rules_run.cache`, by the
    ruleset's fingerprint)."""
    cached = _RUNTIMES.get(id(ruleset))
    if cached is not None and cached[0] is ruleset:
        return cached[1]
    fingerprint = getattr(ruleset, "fingerprint", "")
    key = cache.digest(cache.code_fingerprint(), fingerprint)
    stored = cache.read("code", fingerprint, key) if fingerprint else None
    try:
        codes = marshal.loads(stored) if isinstance(stored, bytes) else {}
    except (ValueError, EOFError, TypeError):
        codes = {}
    runtime = Runtime(ruleset, codes if isinstance(codes, dict) else {})
    if fingerprint and runtime.codegen.compiled:
        cache.write("code", fingerprint, key, marshal.dumps(runtime.codegen.codes))
    _RUNTIMES[id(ruleset)] = (ruleset, runtime)
    return runtime
