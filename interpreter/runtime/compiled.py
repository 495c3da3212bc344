"""A checked ruleset compiled once into a :class:`Runtime`: its rolls, tests, sequences,
actions, phases and battle blocks ready to run, and the rule effects indexed by what they
affect. Build it with :func:`compile_ruleset`.

Every expression and statement becomes Python code ``f(env, vars)``
(:mod:`rules_run.runtime.codegen`). A roll asks ``env.chance`` for its dice, so the very
same compiled code runs sampled (seeded or scripted dice) or exactly enumerated
(:func:`rules_run.chance.enumerate_exact`). At run time a roll looks only at the rules its
arguments carry.

The runtime reaches the battle only through :mod:`rules_run.runtime.types`: the engine's
builtins are handed to :func:`compile_ruleset`, and its battle state comes in the
:class:`~rules_run.runtime.env.Env`.
"""

from __future__ import annotations

import atexit
import itertools
import marshal
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules_run import cache
from rules_run.chance import DiceExpr
from rules_run.diagnostics import Span
from rules_run.editions.ruleset import Ruleset
from rules_run.lang import ast
from rules_run.lang.cases import joined
from rules_run.runtime.actions import CompiledAction
from rules_run.runtime.codegen import CodeGen
from rules_run.runtime.decisions import compile_decisions
from rules_run.runtime.dice import dice_of, dice_table
from rules_run.runtime.effects import (
    bearers,
    characteristic_effects,
    index_rule,
    is_live_grant,
    rule_scope,
)
from rules_run.runtime.entities import Bearer, Group, Part, RuleInstance, Unit, still_kept
from rules_run.runtime.env import Closure, Env
from rules_run.runtime.rolls import CompiledRoll
from rules_run.runtime.sequences import CompiledSequence
from rules_run.runtime.reach import Reach
from rules_run.runtime.specialise import Facts
from rules_run.runtime.types import BattleState, Builtins

__all__ = ["Runtime", "compile_ruleset"]


class Runtime:
    """A ruleset compiled to Python code. Build it with :func:`compile_ruleset` (cached)."""

    STEP_CAP = 2_000_000
    """Statements one battle may run before it is stopped as a runaway."""

    def __init__(self, ruleset: Ruleset, builtins: Builtins,
                 codes: Mapping[str, Any] | None = None, facts: Facts | None = None) -> None:
        """``builtins``: the battle's builtins (the engine's table), called straight from
        the generated code; ``codes``: compiled code of generated functions, by label and
        source, to reuse (:attr:`CodeGen.codes`); ``facts``: what one battle fixes, to
        compile the code against (:mod:`rules_run.runtime.specialise`)."""
        self.ruleset = ruleset
        self.facts = facts
        """What the code is specialised to (None: any battle)."""
        self.reach: Reach | None = None
        """What the battle the code is specialised to can reach (None: any battle): the
        counters it never writes, the statuses it never applies, the actions it reaches
        (:class:`rules_run.runtime.reach.Reach`; a counter it never writes keeps its initial
        value, so a state key may leave it out)."""
        self.specialisations: dict[Facts, Runtime] = {}
        """This ruleset compiled against each battle's facts met so far
        (:func:`rules_run.runtime.specialise.specialised`)."""
        self.decls: Mapping[str, ast.Decl] = joined(ruleset.decls)
        """The declarations as they run: each action split ``by`` a parameter with its
        cases in its body (:func:`rules_run.lang.cases.joined`)."""
        self.tables = {name: dice_table(t) for name, t in ruleset.tables.items()}
        """The ruleset's tables, their dice cells read as dice (rolled when looked up)."""
        self.characteristics: dict[str, ast.CharacteristicDecl] = {
            n: d for n, d in self.decls.items() if isinstance(d, ast.CharacteristicDecl)
        }
        self.dice_decls = {n: d for n, d in self.decls.items() if isinstance(d, ast.DieDecl)}
        self.tally_names = frozenset(t for d in self.decls.values()
                                     if isinstance(d, ast.SequenceDecl) for t in d.tallies)
        """Every sequence's tallies: ``v.NAME`` reads one from what ``fight()`` gives."""
        self.codegen = CodeGen(self, builtins)
        self.live_granting = any(
            is_live_grant(e, rule) for rule in ruleset.rules.values() for e in rule.effects
        ) or any(isinstance(e, ast.Grant) for d in self.decls.values()
                 if isinstance(d, ast.StatusDecl) for e in d.effects)
        """Whether some grant is re-read while its condition holds (``x has`` then asks
        :meth:`has_rule`)."""
        self.codegen.codes.update(codes or {})
        self.option_defaults = {
            n: d.default for n, d in self.decls.items() if isinstance(d, ast.OptionDecl)
        }
        # effects indexed by target: roll name -> [(rule name, effect)], ...
        self.modifiers: dict[str, list[tuple[str, ast.Modify, Closure | None, Closure]]] = {}
        self.rerolls: dict[str, list[tuple[str, ast.RerollEffect | ast.DiceReroll,
                                           Closure | None]]] = {}
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
        """rule name -> its grants resolved at set-up (no condition, or one on the rule's
        parameters only)."""
        self.live_grants: dict[str, list[tuple[ast.Grant, Closure | None]]] = {}
        """rule name -> its grants whose condition reads the battle: re-read whenever the
        bearer's rules are looked up (:meth:`rules_in_play`)."""
        self.granting: set[int] = set()
        """Bearers (by id) whose live grants are being read right now."""
        self.granted: dict[str, RuleInstance] = {}
        """A granted rule reference, bound once."""
        self.held: dict[int, list[RuleInstance]] = {}
        """Bearer (by id) -> its rules in play as read in the battle, held while an attack's
        exact distribution is enumerated for it (:meth:`rules_now`)."""
        self.shields: dict[str, list[tuple[ast.Shield, Closure | None]]] = {}
        """rule name -> its ``unaffected by friendly gains`` effects."""
        self.fight_cache: dict[tuple, Any] = {}
        """Exact damage distributions of volleys of attacks, for statistics runs."""
        self.rolls: dict[str, CompiledRoll] = {}
        self.sequences: dict[str, CompiledSequence] = {}
        self.actions: dict[str, CompiledAction] = {}
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
                self.battle_blocks[part] = self.codegen.block(getattr(battle, part), {},
                                                              ruleset.cite("battle"))
        for rule in ruleset.rules.values():
            index_rule(self, rule)
        self.status_rules: dict[str, ast.RuleDecl] = {
            n: ast.status_rule(d) for n, d in self.decls.items()
            if isinstance(d, ast.StatusDecl) and d.effects}
        """Status name -> the rule a unit carries while it has it (a status with effects)."""
        for rule in self.status_rules.values():
            index_rule(self, rule, live=True)   # what it grants comes and goes with it
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
        self.codegen.link_held(d for d in self.decls.values()
                               if isinstance(d, ast.StatusDecl) and d.condition is not None)
        self.decisions = compile_decisions(self)
        """Decisions by name: their options and each policy's choices, compiled."""
        self.counter_initials: dict[str, Closure] = {
            n: self.compile_expr(d.initial, {}) for n, d in self.decls.items()
            if isinstance(d, ast.CounterDecl) and d.initial is not None}
        """A counter's starting value, for the counters that declare one (the others: 0)."""
        self.counter_periods: dict[str, str] = {
            n: d.period for n, d in self.decls.items()
            if isinstance(d, ast.CounterDecl) and d.period is not None}
        """The period after which a counter starts again (``until end of phase``), for the
        counters that declare one."""
        end = self.battle_decl.end if self.battle_decl is not None else ()
        self.battle_ends: list[Closure] = [self.compile_expr(e, {}) for e in end]
        """The battle's ``end if`` conditions, checked after each player turn."""
        rounds = self.battle_decl.rounds if self.battle_decl is not None else None
        self.battle_rounds = self.compile_expr(rounds, {}) if rounds is not None else None
        """The battle's number of rounds, when it declares one."""

    # ------------------------------------------------------------ rules
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
            env, shields, [(thing, inst) for inst in self.rules_in_play(env, thing)]))

    def carried(self, vars: Mapping[str, Any], env: Env | None = None
                ) -> list[tuple[Bearer | None, RuleInstance]]:
        """The rules in play for a roll or step with these arguments: each rule carried by an
        argument (a unit, a weapon and its owner, with the rules its live grants give now),
        with its bearer; then the global rules, carried by nobody."""
        out: list[tuple[Bearer | None, RuleInstance]] = [
            (bearer, inst) for bearer in bearers(vars) for inst in bearer.rules]
        if self.live_grants:
            out = [(bearer, inst) for bearer in bearers(vars)
                   for inst in self.rules_in_play(env, bearer)]
        out.extend((None, inst) for inst in self.global_rules)
        return out

    def rules_in_play(self, env: Env | None, bearer: Bearer) -> list[RuleInstance]:
        """The rules ``bearer`` carries now: its own (with its set-up grants and statuses),
        and those its live grants give while their conditions hold, read now (transitively:
        a rule granted so grants in turn). While a condition of the bearer's is read, its
        rules are its own only (a condition asking ``bearer has "X"`` sees no live grant).

        When no condition decided them (a status's grants have none), they are kept on the
        bearer until its rules change (``_in_play``): the same list comes back."""
        rules = bearer.rules
        if not self.live_grants or id(bearer) in self.granting:
            return rules
        held = self.held.get(id(bearer))
        if held is not None:
            return held
        if env is None or env.state is None:
            return rules   # outside a battle, a live grant is not given
        kept = bearer._in_play
        if still_kept(kept, self, rules):
            return kept[3]
        live = self.live_grants
        extra: list[RuleInstance] = []
        have = {inst.text for inst in rules}
        # none of its rules grants live: nothing to walk (the walk finds nothing either)
        todo = list(rules) if any(inst.rule.name in live for inst in rules) else []
        unconditional = True   # no condition read: the same rules give the same answer
        self.granting.add(id(bearer))
        try:
            while todo:
                inst = todo.pop(0)
                grants = list(self.live_grants.get(inst.rule.name, ()))
                if any(inst is e for e in extra):   # a rule granted live: its set-up grants too
                    grants += self.grants.get(inst.rule.name, ())
                for grant, cond in grants:
                    if grant.rule in have:
                        continue
                    if cond is not None:
                        unconditional = False
                        if not cond(env, rule_scope({}, inst, bearer)):
                            continue
                    granted = self.granted.get(grant.rule)
                    if granted is None:
                        granted = self.granted[grant.rule] = self.bind_rule(grant.rule)
                    extra.append(granted)
                    have.add(grant.rule)
                    todo.append(granted)
        finally:
            self.granting.discard(id(bearer))
        played = [*rules, *extra] if extra else rules
        if unconditional:
            bearer._in_play = (self, rules, len(rules), played)
        return played

    def in_play_facts(self, env: Env | None, bearer: Bearer
                      ) -> tuple[frozenset[str], frozenset[str]]:
        """Of the rules ``bearer`` has in play now (:meth:`rules_in_play`): their names and
        texts, and the characteristics their effects and the global rules' change; kept on
        the bearer while the list of its rules in play is the same (``_played``)."""
        played = self.rules_in_play(env, bearer)
        kept = bearer._played
        if still_kept(kept, self, played):
            return kept[3], kept[4]
        names = frozenset(n for r in played for n in (r.rule.name, r.text))
        changed = frozenset(effect.characteristic for inst in (*played, *self.global_rules)
                            for effect, _, _ in self.char_effects.get(inst.rule.name, ()))
        bearer._played = (self, played, len(played), names, changed)
        return names, changed

    def rules_now(self, env: Env, bearers: Sequence[Any]) -> dict[int, list[RuleInstance]]:
        """The rules in play of these bearers (units and weapons) now, by id: what to hold
        (:attr:`held`) while an attack among them is enumerated without the battle."""
        return {id(b): self.rules_in_play(env, b) for b in bearers if isinstance(b, Bearer)}

    def has_rule(self, env: Env, thing: Bearer, name: str) -> bool:
        """``x has "NAME"`` when live grants are declared: a rule (or keyword) it carries
        now (its rules in play hold its own, :meth:`rules_in_play`)."""
        return name in thing.keywords or name in self.in_play_facts(env, thing)[0]

    def apply_grants(self, bearer: Bearer) -> None:
        """Give a bearer the rules its rules grant (``grant "Swiftstride"``), transitively.

        A grant without a condition, or with one on the rule's parameters only, is resolved
        here, when the bearer is set up; a live grant (a condition that reads the battle) is
        read whenever the bearer's rules are looked up (:meth:`rules_in_play`).
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

    def status_instance(self, name: str, args: Mapping[str, Any]) -> RuleInstance | None:
        """The rule a unit carries while it has status ``name`` applied with ``args`` (a
        parameter left out takes its default); None for a status without effects. Its text
        names the arguments: ``enfeebled(2)``."""
        rule = self.status_rules.get(name)
        if rule is None:
            return None
        values = dict(args)
        for p in rule.params:
            if p.name not in values and p.default is not None:
                values[p.name] = self.constant(p.default)
        shown = ", ".join(str(values[p.name]) for p in rule.params if p.name in values)
        return RuleInstance(rule, values, f"{name}({shown})" if rule.params else name)

    def profile_values(self, profile: Mapping[str, Any], where: Span | None = None
                       ) -> dict[str, Any]:
        """A profile from data with each value read as its characteristic's declared type:
        ``need`` values ``"3+"`` become 3, ``dice`` values ``"D3"`` dice, ``"-"`` none.

        Raises:
            LanguageError: a value that does not read as its type (located at ``where``).
        """
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
            elif decl.type == "dice" and text.isdigit():
                out[name] = int(text)
            elif decl.type == "dice":
                from rules_run.lang.parser import parse_dice   # Lark only for dice in data

                out[name] = dice_of(parse_dice(text, where or Span("<data>", 1)),
                                    self.dice_decls)
            elif decl.type in ("int", "number") and text.lstrip("+-").isdigit():
                out[name] = int(text)
        return out

    def bind_rule(self, text: str) -> RuleInstance:
        """A rule reference from data (``Ward Save (5+)``) as a :class:`RuleInstance`."""
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
                param = next((p for p in positional if p.name not in values), None)
            if param is None:
                raise ValueError(f"{text!r} gives rule {rule.name!r} more arguments than "
                                 f"its {len(positional)} parameter(s)")
            if arg.kind == "dice":
                from rules_run.lang.parser import parse_dice   # Lark only for dice

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
        """A characteristic of a unit, weapon, part or group: the profile's value (a part's or
        group's unit's when its own profile does not give it), each equipment item's
        ``modifies:`` (units only), the effects of the rules in play (set, then multiply and
        divide, then add), the declaration's floor, then its range (``as_profile``: the
        profile's value, clamped, before equipment and rule effects).

        While the effects of a characteristic are weighed, an amount or condition that reads
        that same characteristic of that same bearer sees it without rule effects."""
        profile = thing.profile
        if name not in profile and isinstance(thing, (Part, Group)) and thing.owner is not None:
            # a part or group has the characteristics of its unit it does not give itself
            return self.characteristic(env, thing.owner, name, as_profile)
        value = profile.get(name)
        modified = False
        if not as_profile:
            if isinstance(thing, Unit) and name in thing.items_modify():
                for item in thing.equipment:
                    bonus = (item.get("modifies") or {}).get(name)
                    if bonus and value is not None:
                        value += bonus
                        modified = True
            unmodified = value
            if (name in self.char_effect_names and isinstance(thing, Bearer)
                    and (thing.rules or self.global_rules or self.live_grants)
                    and name in self.in_play_facts(env, thing)[1]):
                key = (id(thing), name)
                if key not in self.reading:
                    self.reading.add(key)
                    try:
                        unmodified, value, changed = characteristic_effects(
                            self, env, thing, name, value)
                    finally:
                        self.reading.discard(key)
                    modified = modified or changed
        else:
            unmodified = value
        if type(value) is int or isinstance(value, int) and not isinstance(value, bool):
            decl = self.characteristics.get(name)
            if decl is None:
                return value
            if modified and decl.floor is not None and value < decl.floor:
                # a modifier never takes it below the floor, nor below a lower unmodified value
                value = decl.floor if not isinstance(unmodified, int) else max(
                    value, min(decl.floor, unmodified))
            if decl.type == "int":
                if decl.low is not None and value < decl.low:
                    value = decl.low
                if decl.high is not None and value > decl.high:
                    value = decl.high
        return value

    # ------------------------------------------------------------ expressions
    def compile_expr(self, e: ast.Expr, types: Mapping[str, str]) -> Closure:
        """Compile an expression to a Python function (:mod:`rules_run.runtime.codegen`);
        ``types`` gives the declared types of local names."""
        return self.codegen.expression(e, types)

    def constant(self, e: ast.Expr) -> Any:
        """The value of an expression that reads no battle: a parameter's default."""
        return self.compile_expr(e, {})(Env(self, None, {}), {})

    # ------------------------------------------------------------ calls
    def _direct_call(self, name: str) -> Callable[..., Any]:
        """What a call of ``name`` in the rules runs, with a fresh dict of arguments (an
        action: its arguments by position): as :meth:`invoke`, without looking the name up
        at each call."""
        decl = self.decls[name]
        if isinstance(decl, ast.ActionDecl):
            action, params = self.actions[name], tuple(p.name for p in decl.params)
            if name in self.triggers:
                return self.codegen.by_position(params, lambda env, args: (
                    self.invoke(name, env, args)))
            if action.returns_directly and action.limit is None:
                return action.positional
            # only a return inside an activation's body (or a limit) needs the call's checks
            return self.codegen.by_position(params, action.call)
        if name in self.triggers or isinstance(decl, ast.PhaseDecl):
            return lambda env, args: self.invoke(name, env, args)
        roll = self.rolls.get(name)
        if roll is not None:
            if roll.decl.is_test:
                return roll.run
            return lambda env, args: roll.run(env, args).value
        return self.sequences[name].run

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
            events: list | None = None, state: BattleState | None = None) -> Env:
        """An :class:`Env` with the ruleset's option defaults, overridden by ``options``."""
        merged = dict(self.option_defaults)
        merged.update(options or {})
        return Env(self, chance, merged, events, state)


_RUNTIMES: dict[tuple[int, int], tuple[Ruleset, Builtins, Runtime]] = {}

FIGHTS_KEPT = 2000
"""The most exact volley distributions (:attr:`Runtime.fight_cache`) the disk cache keeps
for one ruleset: the first found."""

_KEEP: list[tuple[weakref.ref[Runtime], Any, str, str, int]] = []
"""The runtimes compiled in this process whose volleys are written at exit (if they are
still alive then): each with the cache's folder then (a cache that has moved since, as in
a test, is left alone), its ruleset's fingerprint, its cache key and how many volleys it
started with."""


def compile_ruleset(ruleset: Ruleset, *, builtins: Builtins) -> Runtime:
    """The compiled :class:`Runtime` of a ruleset, whose generated code calls the battle
    builtins ``builtins`` (the engine's table, :data:`rules_run.runtime.types.Builtins`).

    Compiled once per ruleset object and table; the Python code of its rules is kept in the
    disk cache (:mod:`rules_run.cache`) by the ruleset's fingerprint.
    """
    cached = _RUNTIMES.get((id(ruleset), id(builtins)))
    if cached is not None and cached[0] is ruleset and cached[1] is builtins:
        return cached[2]
    fingerprint = ruleset.fingerprint
    key = cache.digest(cache.code_fingerprint(), fingerprint)
    stored = cache.read("code", fingerprint, key) if fingerprint else None
    try:
        codes = marshal.loads(stored) if isinstance(stored, bytes) else {}
    except (ValueError, EOFError, TypeError):
        codes = {}
    runtime = Runtime(ruleset, builtins, codes if isinstance(codes, dict) else {})
    if fingerprint and runtime.codegen.compiled:
        cache.write("code", fingerprint, key, marshal.dumps(runtime.codegen.codes))
    if fingerprint:
        # the exact volleys an earlier process worked out: a first battle starts warm (a
        # distribution is the same whoever enumerated it, so no result changes)
        fights = cache.read("fights", fingerprint, key)
        if isinstance(fights, dict):
            runtime.fight_cache.update(fights)
        if not _KEEP:
            atexit.register(_keep_all_fights)
        _KEEP.append((weakref.ref(runtime), cache.cache_dir(), fingerprint, key,
                      len(runtime.fight_cache)))
    _RUNTIMES[(id(ruleset), id(builtins))] = (ruleset, builtins, runtime)
    return runtime


def _keep_all_fights() -> None:
    """At exit: :func:`_keep_fights` for each runtime still alive."""
    for ref, folder, fingerprint, key, known in _KEEP:
        runtime = ref()
        if runtime is not None and folder == cache.cache_dir():
            _keep_fights(runtime, fingerprint, key, known)


def _keep_fights(runtime: Runtime, fingerprint: str, key: str, known: int) -> None:
    """Write the runtime's exact volleys to the disk cache, if it found new ones (up to
    :data:`FIGHTS_KEPT`)."""
    found = runtime.fight_cache
    if len(found) > known and known < FIGHTS_KEPT:
        cache.write("fights", fingerprint, key, dict(itertools.islice(found.items(), FIGHTS_KEPT)))
