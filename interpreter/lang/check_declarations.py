"""Check the declarations other than rules: characteristics, options, dice, rolls and tests,
sequences and their hooks, actions, phases, decisions, policies, the battle, and citations."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rules_run.diagnostics import Severity, Span, did_you_mean
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.ast import find_source
from rules_run.lang.builtins import PROPERTY_TYPES
from rules_run.lang.check_context import (NOT_IN_SEED, NUMERIC_CHARACTERISTICS, article,
                                          param_types)

if TYPE_CHECKING:
    from rules_run.lang.check_context import Context, Scope

__all__ = ["DeclarationChecker"]


class DeclarationChecker:
    """Checks each kind of declaration (``check_<Node>``), and citations."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def check_cite(self, cite: ast.Cite | None, span: Span, what: str) -> None:
        seen = cite if cite is not None else (span.path, span.line)
        if seen in self.ctx.cited:
            return
        self.ctx.note_cited(seen)
        if cite is None:
            self.ctx.error(
                f"{what} has no citation",
                Span(span.path, span.line, span.column),
                "missing-citation",
                hint='end the line with @ L<line> (the seed line) or '
                '@ "not in seed: <where the value comes from>"',
            )
            return
        if cite.note is not None:
            if not cite.note.startswith(NOT_IN_SEED):
                self.ctx.error(
                    f"a quoted citation must start with 'not in seed:', got {cite.note!r}",
                    cite.span,
                    "bad-citation",
                    hint='cite a seed line (@ L450) or write @ "not in seed: standard published '
                    'value"',
                )
            return
        if not self.ctx.sources:
            self.ctx.error(
                "a line citation needs a source: the ruleset header declares none",
                cite.span,
                "bad-citation",
                hint='add to the header: source "<seed file>"',
            )
        elif cite.source is not None and find_source(cite.source, self.ctx.sources) is None:
            self.ctx.error(
                f"no declared source is seed {cite.source!r}",
                cite.span,
                "bad-citation",
                hint="declared sources: " + ", ".join(self.ctx.sources),
            )
        for r in cite.ranges:
            m = _LINE_RE.match(r)
            if m and m.group(2) and int(m.group(2)) < int(m.group(1)):
                self.ctx.error(f"line range {r!r} ends before it starts", cite.span, "bad-citation")

    def check_roles(self) -> None:
        roles: dict[tuple[str, str], ast.CharacteristicDecl] = {}
        for d in self.ctx.decls.values():
            if isinstance(d, ast.CharacteristicDecl) and d.role:
                first = roles.setdefault((d.entity, d.role), d)
                if first is not d:
                    self.ctx.error(f"two characteristics of {d.entity} are 'as {d.role}': "
                                   f"{first.name!r} and {d.name!r}", d.span, "duplicate-role",
                                   hint=f"one characteristic of {d.entity} plays each role")

    def check_CharacteristicDecl(self, d: ast.CharacteristicDecl) -> None:
        if d.low is not None and d.high is not None and d.low > d.high:
            # One range serves a whole line of characteristics: report it once.
            line = ("range", d.span.path, d.span.line)
            if line not in self.ctx.cited:
                self.ctx.note_cited(line)
                self.ctx.error(
                    f"characteristic {d.name!r} has an empty range {d.low}..{d.high}",
                    d.span, "bad-range",
                    hint=f"a range goes from the lowest value up: range {d.high}..{d.low}",
                )

        if d.type in ("part", "group"):
            self.ctx.error(f"characteristic {d.name!r} is {article(d.type)}: a profile's values "
                           "are written in data, where no part or group can be", d.span,
                           "wrong-type", hint="a part or a group is read from its unit: part(u, "
                           "\"NAME\"), groups(u)")
        if d.floor is not None and d.type not in NUMERIC_CHARACTERISTICS:
            self.ctx.error(f"characteristic {d.name!r} is {article(d.type)}: only a number has a "
                           f"'minimum'", d.span, "bad-floor",
                           hint="give 'minimum' to an int or dice characteristic, or drop it")

    def check_OptionDecl(self, d: ast.OptionDecl) -> None:
        if d.choices and d.default not in d.choices:
            self.ctx.error(
                f"option {d.name!r} defaults to {d.default!r}, which is not one of its choices "
                + ", ".join(repr(c) for c in d.choices),
                d.span, "bad-option",
                hint=did_you_mean(str(d.default), d.choices),
            )
        if not d.choices:
            types: dict[str, type | tuple[type, ...]] = {
                "int": int, "number": (int, float), "bool": bool, "text": str,
            }
            expected = types.get(d.type)
            if expected is not None and (
                not isinstance(d.default, expected)
                or (d.type == "int" and isinstance(d.default, bool))
            ):
                self.ctx.error(
                    f"option {d.name!r} is declared {d.type} but defaults to {d.default!r}",
                    d.span, "bad-option",
                )
            elif d.low is not None and d.high is not None:
                if d.type not in ("int", "number"):
                    self.ctx.error(f"option {d.name!r} is {d.type}: only numbers take a range",
                                   d.span, "bad-option")
                elif d.low > d.high:
                    self.ctx.error(f"option {d.name!r}: the range {d.low}..{d.high} is empty",
                                   d.span, "bad-range")
                elif isinstance(d.default, (int, float)) and not d.low <= d.default <= d.high:
                    self.ctx.error(f"option {d.name!r} defaults to {d.default!r}, outside its "
                                   f"range {d.low}..{d.high}", d.span, "bad-option")

    def check_StatusDecl(self, d: ast.StatusDecl) -> None:
        self.ctx.effects.check_status(d)

    def check_CounterDecl(self, d: ast.CounterDecl) -> None:
        if "battle" in d.keys and len(d.keys) > 1:
            at = d.key_spans[d.keys.index("battle")] if d.key_spans else d.span
            self.ctx.error(f"counter {d.name!r}: 'battle' is one number for the whole battle, "
                           "it takes no other key", at, "bad-counter",
                           hint=f"write: counter {d.name} of "
                           + ", ".join(k for k in d.keys if k != "battle"))
        if d.initial is not None:
            self.ctx.exprs.expr(d.initial, self.ctx.globals)
        record = ty.record_name(d.holds)
        if record is not None:
            if isinstance(self.ctx.decls.get(record), ast.RecordDecl):
                self.ctx.use(record)
            else:
                records = [n for n, r in self.ctx.decls.items() if isinstance(r, ast.RecordDecl)]
                self.ctx.error(f"counter {d.name!r} holds {record!r}, which is neither a type "
                               "nor a record", d.holds_span or d.span, "bad-counter",
                               hint=did_you_mean(record, records)
                               or "write a type (int, unit, text, ...) or a record's name")

    def check_RecordDecl(self, d: ast.RecordDecl) -> None:
        seen: set[str] = set()
        for p in d.params:
            if p.name in seen:
                self.ctx.error(f"record {d.name!r} has two fields {p.name!r}", p.span,
                               "duplicate-field")
            seen.add(p.name)
            clash = ("a characteristic" if p.name in self.ctx.characteristics
                     else "a property" if p.name in PROPERTY_TYPES
                     else "a mark" if p.name in self.ctx.marks else None)
            if clash is not None:
                self.ctx.error(f"field {p.name!r} of record {d.name!r} is also {clash}: "
                               f"x.{p.name} would read that", p.span, "bad-field",
                               hint="give the field another name")
        if not d.params:
            self.ctx.error(f"record {d.name!r} has no fields", d.span, "bad-field",
                           hint=f"write: record {d.name}(NAME: type, ...)")

    def check_DieDecl(self, d: ast.DieDecl) -> None:
        if len(d.faces) < 2:
            self.ctx.error(f"die {d.name!r} needs at least two faces", d.span, "bad-die")

    def check_RollDecl(self, d: ast.RollDecl) -> None:
        if d.reuses is not None and (not self.reused(d) or d.dice is None):
            return  # it could not take its base's clauses (reported)
        params = self.ctx.stmts.param_scope(d.params)
        # while the roll is worked out, `result` and `natural` are its totals
        scope = params.child({"result": "int", "natural": "int"})
        what = f"{d.kind} {d.name!r}"
        if d.dice is None:
            self.ctx.error(f"{what} says no dice", d.span, "missing-dice",
                           hint="add a line such as: dice D6")
        elif isinstance(d.dice, ast.CellDice):
            # a table's cell of dice, looked up before they are rolled
            self.ctx.exprs.cell_dice(d.dice, params)
        elif isinstance(d.dice, ast.CountedDice):
            # a counted number of dice is known before they are rolled
            self.ctx.exprs.expect(d.dice.number, params, "int", "the number of dice")
            if d.dice.added is not None:
                self.ctx.exprs.dice(d.dice.added)
                symbols = self.symbol_faces(d.dice.added)
                if symbols:
                    self.ctx.error(f"{what}: the dice a pool adds are added up, but die "
                                   f"{d.dice.added.die_name!r} has faces that are not numbers "
                                   f"({', '.join(symbols)})", d.dice.added.span, "bad-dice")
        else:
            self.ctx.exprs.dice(d.dice)
            symbols = self.symbol_faces(d.dice)
            if symbols and d.need is not None:
                self.ctx.error(f"{what} needs a score, but die {d.dice.die_name!r} has faces that "
                               f"are not numbers ({', '.join(symbols)})", d.span, "need-on-symbols",
                               hint="compare its result in 'pass if' (pass if result == \"hit\")")
        if d.is_test and d.need is None and d.pass_if is None:
            self.ctx.error(f"{what} has no pass condition", d.span, "missing-pass",
                           hint="add 'need <score>' or 'pass if <condition>'")
        if not d.is_test and (d.need is not None or d.pass_if is not None):
            self.ctx.error(f"{what} has a pass condition; declare it as a test", d.span,
                           "roll-with-pass", hint=f"write: test {d.name}(...)")
        if d.need is not None and d.pass_if is not None:
            self.ctx.error(f"{what} gives both 'need' and 'pass if'", d.span, "need-and-pass")
        # the score needed and the roll's own modifier are known before the dice are rolled,
        # so they cannot read them
        self.ctx.exprs.expect(d.need, params, "number", "'need'")
        self.ctx.exprs.expect(d.modifier, params, "number", "'modifier'")
        marking = {"dice": ty.list_of("int")} | ({"need": "int"} if d.need is not None else {})
        for _, condition in d.marks:
            self.ctx.exprs.expr(condition, scope.child(marking))
        given = ({n.mark for n in d.naturals if n.mark} | {mark for mark, _ in d.marks}
                 | self.ctx.rule_marks.get(d.name, set()))
        for mark, span in d.failing_marks:
            if not d.is_test:
                self.ctx.error(f"'marked {mark} fails' in {what}: only a test passes or fails",
                               span, "roll-with-pass", hint=f"write: test {d.name}(...)")
            elif mark not in given:
                self.ctx.error(f"{what} never marks its result as {mark!r}", span, "unknown-mark",
                               hint=did_you_mean(mark, given)
                               or f"mark it first: mark {mark} if <condition on the dice>")
        for e in (d.pass_if, d.value):
            if e is not None:
                self.ctx.exprs.expr(e, scope.child({"dice": ty.list_of("int")}))
        if d.beyond is not None:
            self.ctx.exprs.expect(d.beyond[1], params.child({"need": "int"}), "number", "'beyond'")
            if d.need is None:
                self.ctx.error(f"{what} has 'beyond' but no 'need'", d.span, "beyond-without-need")
        if d.reroll_needing is not None:
            self.reroll_needing(d, what, params)
        if d.reroll_result is not None:
            self.reroll_result(d, what, params)
        lo, hi = d.cap
        if lo is not None and hi is not None and lo > hi:
            self.ctx.error(f"{what}: modifiers capped {lo}..{hi} is an empty range", d.span,
                           "bad-range")

    def reroll_needing(self, d: ast.RollDecl, what: str, params: Scope) -> None:
        """``reroll natural N needing EXPR [if COND]``: a test with a need; its need and
        condition, like the test's own need, are known before the dice are rolled."""
        own = d.reroll_needing
        assert own is not None
        if not d.is_test or d.need is None:
            self.ctx.error(f"'reroll natural ... needing' in {what}: only a test with 'need' "
                           "re-rolls on a need of its own", own.span, "reroll-without-need",
                           hint="give the test a 'need' (need 2+)" if d.is_test
                           else f"write: test {d.name}(...) with a need")
        self.ctx.exprs.expect(own.need, params, "number", "'needing'")
        self.ctx.exprs.expect(own.condition, params, "bool", "the re-roll's condition")

    def reroll_result(self, d: ast.RollDecl, what: str, params: Scope) -> None:
        """``reroll passed|failed if COND``: a test's, with a condition on its arguments
        (known before the dice are rolled)."""
        own = d.reroll_result
        assert own is not None
        if not d.is_test:
            self.ctx.error(f"'reroll {own.which}' in {what}: only a test passes or fails",
                           own.span, "roll-with-pass", hint=f"write: test {d.name}(...)")
        self.ctx.exprs.expect(own.condition, params, "bool", "the re-roll's condition")

    def rule_dice(self, e: ast.DiceEffect) -> None:
        """``roll NAME with DICE``: dice whose number is known, of numbers where the roll
        needs a score."""
        if isinstance(e.dice, ast.CellDice):
            self.ctx.error(f"'roll {e.roll} with': a rule sets dice written out (D6, 2D6), "
                           "not a table's cell", e.dice.span, "bad-dice")
            return
        if isinstance(e.dice, ast.CountedDice):
            if e.dice.number is not None:
                self.ctx.error(f"'roll {e.roll} with': the number of dice a rule sets is a whole "
                               "number", e.dice.number.span, "bad-dice")
            return
        self.ctx.exprs.dice(e.dice)
        target = self.ctx.decls.get(e.roll)
        symbols = self.symbol_faces(e.dice)
        if symbols and isinstance(target, ast.RollDecl) and target.need is not None:
            self.ctx.error(f"'roll {e.roll} with': {e.roll!r} needs a score, but die "
                           f"{e.dice.die_name!r} has faces that are not numbers "
                           f"({', '.join(symbols)})", e.span, "need-on-symbols")

    def reused(self, d: ast.RollDecl | ast.SequenceDecl) -> bool:
        """``test NAME(params) is BASE(args)`` (or ``sequence ...``): the arguments are
        checked as a call's (the loader has said why a base that is no roll of the same
        kind, or no sequence, cannot be reused); whether they fit, so the clauses taken with
        them are worth checking."""
        call = d.reuses
        assert call is not None
        base = self.ctx.decls.get(call.name)
        if type(base) is not type(d) or base.kind != d.kind:
            return False
        if not call.args and not call.kwargs and d.params == base.params:
            self.ctx.use(call.name)  # the base's parameters, passed on
            return True
        before = len(self.ctx.bag.found)
        self.ctx.exprs.call(call, self.ctx.stmts.param_scope(d.params))
        return all(e.severity is not Severity.ERROR for e in self.ctx.bag.found[before:])

    def symbol_faces(self, dice: ast.DiceLit) -> list[str]:
        """The faces of a special die that are not numbers (none for other dice)."""
        decl = self.ctx.decls.get(dice.die_name) if dice.die_name else None
        faces = decl.faces if isinstance(decl, ast.DieDecl) else ()
        return list(dict.fromkeys(str(f) for f in faces if not isinstance(f, int)))

    def check_SequenceDecl(self, d: ast.SequenceDecl) -> None:
        if d.reuses is not None and (not self.reused(d) or not d.steps):
            return  # it could not take its base's steps (reported)
        scope = self.ctx.stmts.param_scope(d.params)
        names = [s.name for s in d.steps]
        seen: set[str] = set()
        tallied: set[str] = set()
        for tally in d.tallies:
            if tally in tallied:
                self.ctx.error(f"sequence {d.name!r} declares the tally {tally!r} twice", d.span,
                               "duplicate-tally")
            tallied.add(tally)
        for i, step in enumerate(d.steps):
            if step.name in seen:
                self.ctx.error(f"sequence {d.name!r} has two steps named {step.name!r}", step.span,
                               "duplicate-step")
            seen.add(step.name)
            # a step reads the results of the steps before it by their names (``wound.six``)
            earlier = scope.child({name: "step" for name in names[:i]})
            self.ctx.exprs.call(step.call, earlier, want=("test",))
            for hook in step.hooks:
                if hook.cite is not None:
                    self.check_cite(hook.cite, hook.span, f"a hook of step {step.name!r}")
                self.hook(hook.mark, hook.condition, hook.effect, hook.span, earlier,
                          names[i + 1:], d.name, names[: i + 1])
        if not d.steps:
            self.ctx.error(f"sequence {d.name!r} has no steps", d.span, "empty-sequence")
        self.ctx.exprs.expect(d.damage, scope.child({name: "step" for name in names}), "number",
                              "'damage'")
        if d.per_point is not None:
            self.ctx.exprs.call(d.per_point.call, scope, want=("test",))

    def hook(self, mark, condition, effect, span, scope, later_steps, sequence,
             earlier_steps=()) -> None:
        if mark not in self.ctx.marks:
            self.ctx.error(
                f"no roll marks results as {mark!r}", span, "unknown-mark",
                hint=did_you_mean(mark, self.ctx.marks)
                or "declare it in a roll: natural 6 is " + mark,
            )
        if condition is not None:
            self.ctx.exprs.expr(condition, scope)
        if effect.kind == "skip" and effect.arg in earlier_steps:
            self.ctx.error(
                f"'skip {effect.arg}': step {effect.arg!r} of sequence {sequence!r} is not "
                "after this one; a hook can only skip a later step",
                effect.span, "unknown-step",
                hint="later steps: " + ", ".join(later_steps) if later_steps
                else "this is the last step: there is nothing to skip",
            )
        elif effect.kind == "skip" and effect.arg not in later_steps:
            self.ctx.error(
                f"'skip {effect.arg}': sequence {sequence!r} has no later step {effect.arg!r}",
                effect.span, "unknown-step",
                hint=did_you_mean(str(effect.arg), later_steps),
            )
        elif effect.kind == "count":
            seq = self.ctx.decls.get(sequence)
            tallies = seq.tallies if isinstance(seq, ast.SequenceDecl) else ()
            if effect.arg not in tallies:
                self.ctx.error(
                    f"'count {effect.arg}': sequence {sequence!r} declares no tally "
                    f"{effect.arg!r}", effect.span, "unknown-tally",
                    hint=did_you_mean(str(effect.arg), tallies)
                    or f"declare it in the sequence: tally {effect.arg}")
        elif isinstance(effect.arg, ast.Expr):
            words = "chains" if effect.kind == "chains" else "end with damage"
            self.ctx.exprs.expect(effect.arg, scope, "number", f"'{words}'")

    def check_ActionDecl(self, d: ast.ActionDecl) -> None:
        scope = self.ctx.stmts.param_scope(d.params)
        for key in d.limit.keys if d.limit is not None else ():
            self.ctx.exprs.expr(key, scope)
        params = [p.name for p in d.params]
        if d.by is not None and d.by not in params:
            self.ctx.error(f"action {d.name!r} is split by {d.by!r}, which is not one of its "
                           "parameters", d.by_span or d.span, "unknown-param",
                           hint=did_you_mean(d.by, params) or (
                               f"its parameters: {', '.join(params)}" if params else
                               "split it by a parameter: action NAME(p: text) by p"))
        self.ctx.stmts.body(d.body, scope)

    def check_CaseDecl(self, d: ast.CaseDecl) -> None:
        """A case of an action split ``by`` a parameter: values of that parameter's type,
        and a body that sees the action's parameters (the action uses it: it runs only
        when the action does)."""
        action = self.ctx.decls.get(d.action)
        where = d.action_span or d.span
        if not isinstance(action, ast.ActionDecl):
            found = "" if action is None else f" (it is {article(action.kind)})"
            self.ctx.error(f"case of {d.action!r}, which is not an action{found}", where,
                           "undefined-name" if action is None else "wrong-kind",
                           hint=did_you_mean(d.action, self.ctx.names_of("action")))
            return
        self.ctx.use(d.name, action.name)
        split = next((p for p in action.params if p.name == action.by), None)
        if action.by is None:
            self.ctx.error(f"case of action {d.action!r}, which is not split by a parameter",
                           where, "not-split",
                           hint=f"split it by the parameter its cases are for: action "
                           f"{d.action}(...) by <parameter>")
        elif split is not None:
            for v in d.values:
                self.ctx.exprs.expect(v, self.ctx.globals, split.type,
                                      f"a case of {d.action!r} (split by {split.name!r})")
        scope = self.ctx.globals.child(param_types(action.params))
        self.ctx.stmts.body(d.body, scope)

    def check_cases(self) -> None:
        """No value is given to two cases of one action (nor twice to one)."""
        seen: dict[tuple[str, object], ast.Literal] = {}
        for d in self.ctx.raw_decls.values():
            if not isinstance(d, ast.CaseDecl):
                continue
            for v in d.values:
                first = seen.setdefault((d.action, (v.kind, v.value)), v)
                if first is not v:
                    at = (f"line {first.span.line}" if first.span.path == v.span.path
                          else first.span.text())
                    self.ctx.error(f"action {d.action!r} has a case for "
                                   f"{ast.CaseDecl.value_text(v)} already (at {at})", v.span,
                                   "duplicate-case",
                                   hint="give each value one case: remove it here or there")

    def check_PhaseDecl(self, d: ast.PhaseDecl) -> None:
        if d.parent is not None and self.ctx.kind_of(d.parent) != "phase":
            self.ctx.error(f"phase {d.name!r} is in {d.parent!r}, which is not a phase", d.span,
                           "unknown-phase", hint=did_you_mean(d.parent, self.ctx.names_of("phase")))
        self.ctx.stmts.body(d.body, self.ctx.stmts.param_scope(d.params))

    def check_DecisionDecl(self, d: ast.DecisionDecl) -> None:
        t = self.ctx.exprs.expr(d.options, self.ctx.stmts.param_scope(d.params))
        if not ty.iterable(t):
            self.ctx.error(f"the options of decision {d.name!r} must be a list, got "
                           f"{ty.show(t)}", d.options.span, "wrong-type")

    def check_default_policy(self) -> None:
        defaults = [d for d in self.ctx.decls.values()
                    if isinstance(d, ast.PolicyDecl) and d.is_default]
        for extra in defaults[1:]:
            self.ctx.error(f"two policies are the default: {defaults[0].name!r} and {extra.name!r}",
                           extra.span, "duplicate-default")

    def check_PolicyDecl(self, d: ast.PolicyDecl) -> None:
        if d.extends is not None:
            self.policy_base(d)
        for i, (decision, expr) in enumerate(d.choices):
            target = self.ctx.decls.get(decision)
            if not isinstance(target, ast.DecisionDecl):
                self.ctx.error(f"policy {d.name!r} chooses for {decision!r}, which is not a "
                               "decision",
                               d.choice_spans[i] if i < len(d.choice_spans) else expr.span,
                               "unknown-decision",
                               hint=did_you_mean(decision, self.ctx.names_of("decision")))
                continue
            # a choice runs only when its decision is made
            self.ctx.user = decision
            scope = self.ctx.stmts.param_scope(target.params).child({"options": "list"})
            self.ctx.exprs.expr(expr, scope)

    def policy_base(self, d: ast.PolicyDecl) -> None:
        """``policy NAME extends BASE``: the base is a policy, and the chain has no ring."""
        chain = [d.name]
        policy: ast.Decl | None = d
        while isinstance(policy, ast.PolicyDecl) and policy.extends is not None:
            base = self.ctx.decls.get(policy.extends)
            if not isinstance(base, ast.PolicyDecl):
                if policy is d:
                    self.ctx.error(f"policy {d.name!r} extends {policy.extends!r}, which is not a "
                                   "policy", d.span, "unknown-policy",
                                   hint=did_you_mean(policy.extends, self.ctx.names_of("policy")))
                return
            if base.name in chain:
                if base.name == d.name:
                    self.ctx.error(f"policy {d.name!r} extends itself: "
                                   f"{' -> '.join(chain + [d.name])}", d.span, "reuse-cycle")
                return
            self.ctx.use(base.name, d.name)
            chain.append(base.name)
            policy = base

    def check_BattleDecl(self, d: ast.BattleDecl) -> None:
        for body in (d.setup, d.round, d.turn, d.score):
            self.ctx.stmts.body(body, self.ctx.globals)
        self.ctx.exprs.expect(d.rounds, self.ctx.globals, "number", "'rounds'")
        for e in d.end:
            self.ctx.exprs.expr(e, self.ctx.globals)


_LINE_RE = re.compile(r"L(\d+)(?:-L?(\d+))?$")
