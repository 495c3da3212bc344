"""Check rules: a rule's name and parameters, and each of its effects against what it names
(the roll it modifies, the sequence step it hooks, the event it triggers on, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_run.diagnostics import Span, did_you_mean
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.builtins import EVENTS
from rules_run.lang.check_context import (
    NUMERIC_CHARACTERISTICS,
    Scope,
    alternatives,
    article,
    param_types,
)
from rules_run.lang.reuse import reusing
from rules_run.lang.rule_refs import rule_reference_problem, template_params
from rules_run.limits import limit, too_many

if TYPE_CHECKING:
    from rules_run.lang.check_context import Context

__all__ = ["EffectChecker"]


class EffectChecker:
    """Checks rule declarations and their effects."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def check_RuleDecl(self, d: ast.RuleDecl) -> None:
        held = template_params(d.name)
        if len(held) > limit("placeholders"):
            self.ctx.error(f"rule {d.name!r}: " + too_many("placeholders", "placeholders in a "
                                                        "rule name", len(held)),
                       d.span, "too-many-placeholders")
        elif "}{" in d.name:
            self.ctx.error(f"rule {d.name!r}: two placeholders side by side; put text between "
                           "them, so a reference says where one ends", d.span, "bad-rule-template")
        elif len(set(held)) != len(held):
            twice = next(h for h in held if held.count(h) > 1)
            self.ctx.error(f"rule {d.name!r}: the placeholder {{{twice}}} is used twice; a "
                           "parameter is named once", d.span, "bad-rule-template")
        elif held and held != [p.name for p in d.params]:
            types = {p.name: p.type for p in d.params}
            self.ctx.error(f"rule {d.name!r}: the names in braces ({', '.join(held)}) must be its "
                           f"parameters, in order; it has ({', '.join(types) or 'none'})", d.span,
                           "bad-rule-template",
                           hint=f'declare: rule "{d.name}" ('
                           + ", ".join(f"{h}: {types.get(h, 'keyword')}" for h in held) + ")")
        for p in d.params:
            if p.type in ("part", "group"):
                self.ctx.error(f"rule {d.name!r}: parameter {p.name!r} is {article(p.type)}, but "
                               "a rule's arguments are written in data, where no part or group "
                               "can be", p.span, "wrong-type",
                               hint="read it in the rule: part(bearer, \"NAME\") or "
                               "groups(bearer)")
        if d.is_global:
            for p in d.params:
                if p.default is None:
                    self.ctx.error(f"global rule {d.name!r}: parameter {p.name!r} needs a default "
                                   "(nobody carries a global rule, so nothing gives it one)",
                                   p.span, "global-param")
        base = self.ctx.stmts.param_scope(d.params).child({"bearer": ty.ANY})
        rule = f"rule:{d.name}"
        for effect in d.effects:
            self.ctx.user = rule
            self.effect(effect, base, d)

    def check_status(self, d: ast.StatusDecl) -> None:
        """A status's parameters and effects: its effects are checked as those of a rule the
        unit carries while it has the status (``bearer`` is that unit)."""
        if d.effects and d.name in self.ctx.rules:
            self.ctx.error(f"status {d.name!r} has effects, and a rule is named {d.name!r} "
                           "too: the unit would carry two rules of one name", d.span,
                           "duplicate-declaration", hint="rename the status or the rule")
        for p in d.params:
            if p.type == "dice":
                self.ctx.error(f"status {d.name!r}: parameter {p.name!r} is dice, but a "
                               "status's arguments are read when it is applied, dice rolled "
                               "once then", p.span, "wrong-type",
                               hint=f"declare ({p.name}: int) and apply({d.name}(D3), x)")
        base = self.ctx.stmts.param_scope(d.params).child({"bearer": ty.ANY})
        rule = ast.status_rule(d)
        for effect in d.effects:
            self.ctx.user = d.name
            self.effect(effect, base, rule)
        self.ctx.user = d.name
        if d.condition is not None:
            self.ctx.exprs.expect(d.condition, self.ctx.globals.child({"bearer": "unit"}),
                                  "bool", f"status {d.name!r}: 'while C': C")

    def held_status(self, e: ast.Expr, how: str) -> None:
        """``apply``, ``clear`` or ``during`` (``how``) of a status held while a condition
        holds: it is worked out from its condition, never given or taken away."""
        name = e.name if isinstance(e, (ast.Name, ast.Call)) else None
        d = self.ctx.decls.get(name) if name is not None else None
        if isinstance(d, ast.StatusDecl) and d.condition is not None:
            self.ctx.error(f"status {d.name!r} holds while its condition holds: {how} cannot "
                           "give or take it away", e.span, "held-status",
                           hint=f"change what its condition reads, or declare a status "
                           f"without 'while' to {how} it")

    def status_call(self, c: ast.Call, d: ast.StatusDecl, args: list[str],
                    kwargs: dict[str, str]) -> str:
        """``enfeebled(D3)``: a status with the arguments it is applied with."""
        self.ctx.use(d.name)
        if not d.params:
            self.ctx.error(f"status {d.name!r} takes no arguments", c.span, "wrong-arity",
                           hint=f"apply it by name: apply({d.name}, x)")
            return "status"
        if self.ctx.exprs.arguments(c, d.params, f"status {d.name!r}"):
            self.ctx.exprs.argument_types(c, args, kwargs, d.params, d.name)
        return "status"

    def applied_status(self, e: ast.Expr, form: str = "apply({}, x)") -> None:
        """``apply(NAME, x)`` of a status whose parameters have no defaults: they must be
        given (``form``: how the hint writes the status given with them)."""
        d = self.ctx.decls.get(e.name) if isinstance(e, ast.Name) else None
        if isinstance(d, ast.StatusDecl):
            needed = [p.name for p in d.params if p.default is None]
            if needed:
                self.ctx.error(f"status {d.name!r} needs {', '.join(map(repr, needed))} when it "
                               "is applied", e.span, "wrong-arity",
                               hint=form.format(f"{d.name}({', '.join(needed)})"))

    def target_scope(self, name: str, kinds: tuple[str, ...], span: Span, base: Scope,
                     what: str) -> Scope | None:
        """The scope inside the roll or test an effect names; None (reported) if it is not one.

        What the effect reads is used when the roll is: it counts as used by the roll."""
        target = self.ctx.decls.get(name)
        if target is None or target.kind not in kinds:
            actual = f"; it is {article(target.kind)}" if target is not None else ""
            self.ctx.error(
                f"{what} names {name!r}, which is not a {alternatives(kinds)}{actual}",
                span, "unknown-name",
                hint=did_you_mean(name, [n for k in kinds for n in self.ctx.names_of(k)]),
            )
            return None
        self.ctx.user = name
        # effects are worked out before the dice are rolled: they see the arguments only
        return base.child(param_types(getattr(target, "params", ())))

    def effect(self, e: ast.Effect, base: Scope, rule: ast.RuleDecl) -> None:
        if e.cite is not None:
            self.ctx.declarations.check_cite(e.cite, e.span, f"an effect of rule {rule.name!r}")
        scope: Scope | None = base
        if isinstance(e, ast.Modify):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "modify")
            if scope is not None:
                self.ctx.exprs.expect(e.amount, scope, "number", f"the amount of 'modify {e.roll}'")
            self.despite(e)
        elif isinstance(e, ast.Shield):
            for name in e.names:
                target = self.ctx.decls.get(name)
                if name not in self.ctx.characteristics and (
                        target is None or target.kind not in ("roll", "test")):
                    actual = f"; it is {article(target.kind)}" if target is not None else ""
                    self.ctx.error(f"'unaffected by friendly gains to' names {name!r}, which is "
                                   f"not a roll, test or characteristic{actual}", e.span,
                                   "unknown-name",
                                   hint=did_you_mean(name, [*self.ctx.characteristics,
                                                        *self.ctx.names_of("roll"),
                                                        *self.ctx.names_of("test")]))
        elif isinstance(e, ast.RerollEffect):
            scope = self.target_scope(e.roll, ("test",), e.span, base,
                                      f"reroll {e.which}")
        elif isinstance(e, ast.DiceReroll):
            scope = self.dice_reroll(e, base)
        elif isinstance(e, ast.DiceEffect):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "roll ... with")
            self.ctx.declarations.rule_dice(e)
        elif isinstance(e, ast.AutoResult):
            scope = self.target_scope(e.test, ("test",), e.span, base, e.result)
            if e.every and scope is not None and len(reusing(self.ctx.decls, e.test)) == 1:
                self.ctx.error(f"'{e.result} every {e.test}': no test reuses {e.test!r}",
                               e.span, "every-without-reuse",
                               hint=f"write: {e.result} {e.test}")
        elif isinstance(e, ast.MarkEffect):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "mark")
            if scope is not None:
                # read once the dice are rolled
                scope = scope.child({"result": "int", "natural": "int",
                                     "dice": ty.list_of("int")})
        elif isinstance(e, ast.RuleHook):
            seq = self.ctx.decls.get(e.sequence)
            if not isinstance(seq, ast.SequenceDecl):
                self.ctx.error(f"'on {e.mark} of {e.sequence}.{e.step}': {e.sequence!r} is not a "
                               "sequence", e.span, "unknown-name",
                               hint=did_you_mean(e.sequence, self.ctx.names_of("sequence")))
            else:
                steps = [s.name for s in seq.steps]
                if e.step not in steps:
                    self.ctx.error(f"sequence {e.sequence!r} has no step {e.step!r}", e.span,
                                   "unknown-step", hint=did_you_mean(e.step, steps))
                    # where it would stand is unknown: a skip of any of its steps is let be
                    later: list[str] = steps
                    earlier: list[str] = []
                else:
                    later = steps[steps.index(e.step) + 1:]
                    earlier = steps[: steps.index(e.step) + 1]
                self.ctx.user = e.sequence
                scope = base.child(param_types(seq.params))
                self.ctx.declarations.hook(e.mark, None, e.effect, e.span, scope, later,
                                           e.sequence, earlier)
        elif isinstance(e, ast.Grant):
            self.rule_ref(e.rule, e.span)
        elif isinstance(e, ast.Trigger):
            target = self.ctx.decls.get(e.event)
            if e.event not in EVENTS and (target is None or target.kind not in (
                    "action", "phase", "test", "roll", "status", "decision")):
                self.ctx.error(f"'when {e.event}': no event, action, phase, test, roll, status or "
                               f"decision is named {e.event!r}", e.span, "unknown-event",
                               hint=did_you_mean(e.event, list(EVENTS) + list(self.ctx.decls)))
                scope = None   # the names it reads would be unknown too: reported once
            else:
                names = param_types(getattr(target, "params", ()) if target is not None else ())
                if target is not None:
                    # it runs when its declaration does; after a roll or test, `result` is
                    # its result, after a decision the option chosen
                    self.ctx.user = e.event
                    if target.kind in ("roll", "test"):
                        names["result"] = "result"
                    elif target.kind == "decision":
                        names["result"] = ty.ANY
                scope = base.child(names)
                self.ctx.stmts.body(e.body, scope)
        elif isinstance(e, ast.CharacteristicEffect):
            if e.during is not None:
                # inside that roll, test or sequence, its arguments are seen too
                scope = self.target_scope(e.during, ("roll", "test", "sequence"), e.span, base,
                                          "during")
            decl = self.ctx.characteristics.get(e.characteristic)
            if scope is None:
                pass
            elif decl is None:
                self.ctx.error(f"unknown characteristic {e.characteristic!r}", e.span,
                               "unknown-characteristic",
                               hint=did_you_mean(e.characteristic, self.ctx.characteristics))
                self.ctx.exprs.expr(e.amount, scope)
            elif e.op == "set":
                self.ctx.exprs.expect(e.amount, scope, decl.type,
                                      f"the value {e.characteristic} is set to")
            else:
                what = {"add": "the amount added to", "multiply": "the factor of",
                        "divide": "the divisor of"}[e.op]
                self.ctx.exprs.expect(e.amount, scope, "number", f"{what} {e.characteristic}")
            if decl is not None and decl.type not in NUMERIC_CHARACTERISTICS and (
                    e.op in ("multiply", "divide") or e.floor is not None):
                done = {"multiply": "multiplied", "divide": "divided"}.get(e.op,
                                                                          "given a minimum")
                self.ctx.error(f"characteristic {e.characteristic!r} is {article(decl.type)}: "
                               f"only a number can be {done}", e.span, "bad-operands",
                               hint="multiply, divide and 'minimum' apply to an int or dice "
                                "characteristic")
            if e.op == "divide" and isinstance(e.amount, ast.Literal) and e.amount.value == 0:
                self.ctx.error(f"{e.characteristic} is divided by 0", e.amount.span,
                               "division-by-zero", hint="divide by 2 to halve it")
        # An unknown target is reported once: its parameters, which the amount and the
        # condition may use, are unknown too.
        if e.condition is not None and scope is not None:
            self.ctx.exprs.expr(e.condition, scope)

    def dice_reroll(self, e: ast.DiceReroll, base: Scope) -> Scope | None:
        """``reroll lowest die of NAME [if COND]``: NAME is a plain roll (a test's result is
        re-rolled by ``reroll failed``), of dice each rolled once (not a pool that grows),
        with the faces named; the condition is read once the dice are rolled."""
        what = {"all": "reroll all dice of", "lowest": "reroll lowest die of",
                "highest": "reroll highest die of", "showing": "reroll dice showing ... of"
                }[e.pick]
        target = self.ctx.decls.get(e.roll)
        if isinstance(target, ast.RollDecl) and target.is_test:
            self.ctx.error(f"{what} {e.roll!r}: {e.roll!r} is a test, whose result a rule "
                           "re-rolls when it fails or passes", e.span, "reroll-of-test",
                           hint=f"reroll failed {e.roll}")
            return None
        scope = self.target_scope(e.roll, ("roll",), e.span, base, what)
        if scope is None or not isinstance(target, ast.RollDecl):
            return None
        dice = target.dice
        pool = dice.pool if isinstance(dice, ast.CountedDice) else dice
        if isinstance(dice, ast.CountedDice) and dice.added is not None and e.pick != "all":
            self.ctx.error(f"{what} {e.roll!r}: a pool that grows is rolled again whole, not "
                           "die by die (the dice it adds hang on its faces)", e.span,
                           "bad-reroll", hint=f"reroll all dice of {e.roll}")
        elif isinstance(pool, ast.DiceLit) and pool.die_name is None and e.faces:
            missing = [f for f in e.faces if not 1 <= f <= pool.sides]
            if missing:
                self.ctx.error(f"{what} {e.roll!r}: a D{pool.sides} has no face {missing[0]}; "
                               f"its faces are 1 to {pool.sides}", e.span, "bad-dice")
        # read once the dice are rolled, before modifiers
        return scope.child({"natural": "int", "dice": ty.list_of("int")})

    def unaffected_argument(self, name: ast.Expr) -> None:
        """``unaffected(x, "NAME")`` asks of a NAME some rule makes its bearer unaffected by
        friendly gains to: another would always be false."""
        if not (isinstance(name, ast.Literal) and isinstance(name.value, str)):
            return
        named = {n for r in self.ctx.rules.values() for e in r.effects
                 if isinstance(e, ast.Shield) for n in e.names}
        if name.value not in named:
            self.ctx.error(f"no rule makes anything unaffected by friendly gains to "
                           f"{name.value!r}", name.span, "unknown-name",
                           hint=did_you_mean(name.value, named)
                           or "name it in a rule: unaffected by friendly gains to " + name.value)

    def despite(self, e: ast.Modify) -> None:
        """``despite "RULE"`` names a rule that makes its bearer unaffected by friendly gains."""
        rule_name = e.despite
        if rule_name is None:
            return
        rule = self.ctx.rules.get(rule_name)
        if rule is None or not any(isinstance(x, ast.Shield) for x in rule.effects):
            shields = [n for n, r in self.ctx.rules.items()
                       if any(isinstance(x, ast.Shield) for x in r.effects)]
            why = "is not a rule" if rule is None else "has no 'unaffected by friendly gains'"
            self.ctx.error(f"despite {rule_name!r}: {rule_name!r} {why}", e.span, "unknown-rule",
                           hint=did_you_mean(rule_name, shields) or
                           "despite names a rule with an 'unaffected by friendly gains' effect"
                           + (f": {', '.join(repr(n) for n in shields)}" if shields else ""))

    def rule_ref(self, text: str, span: Span) -> None:
        problem = rule_reference_problem(text, self.ctx.rules)
        if problem is not None:
            code, message, hint = problem
            self.ctx.error(message, span, code, hint=hint)
