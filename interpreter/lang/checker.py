"""Check a ruleset's declarations: names, arity, characteristics, tables, citations.

The checker sees the ruleset after ``extends`` and patches are resolved (one mapping of
names to declarations) and reports every problem it finds into a :class:`DiagnosticBag`.
It never stops at the first.
"""

from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Collection, Iterable, Mapping

from interpreter.diagnostics import DiagnosticBag, Span, did_you_mean
from interpreter.lang import ast
from interpreter.lang.ast import find_source
from interpreter.lang.builtins import BUILTIN_FUNCTIONS, BUILTIN_NAMES, EVENTS, UNIT_PROPERTIES
from interpreter.lang.rule_refs import RuleArg, RuleRefError, parse_rule_ref

__all__ = ["check_declarations", "rule_arguments_problem", "CALLABLE_KINDS", "NOT_IN_SEED"]

CALLABLE_KINDS = ("roll", "test", "sequence", "action", "decision", "phase")
NOT_IN_SEED = "not in seed"
_LINE_RE = re.compile(r"L(\d+)(?:-L?(\d+))?$")


class _Scope:
    """Names visible in one body: parameters, locals and context names."""

    def __init__(self, names: Iterable[str] = (), parent: _Scope | None = None) -> None:
        self.names = set(names)
        self.parent = parent

    def child(self, names: Iterable[str] = ()) -> _Scope:
        return _Scope(names, self)

    def has(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False

    def all(self) -> set[str]:
        out: set[str] = set()
        scope: _Scope | None = self
        while scope is not None:
            out |= scope.names
            scope = scope.parent
        return out


def check_declarations(
    decls: Mapping[str, ast.Decl],
    rules: Mapping[str, ast.RuleDecl],
    sources: tuple[str, ...],
    bag: DiagnosticBag,
    *,
    inherited: Collection[str] = (),
) -> None:
    """Check every declaration; report problems into ``bag``.

    Args:
        decls: declarations by name (everything but rules), after patches.
        rules: rule declarations by their quoted name, after patches.
        sources: the seed files the ruleset cites (the first is the default).
        bag: where diagnostics go.
        inherited: keys (names, rules as ``rule:<name>``) of declarations a patch takes
            unchanged from its base. Their citations were checked against the base's
            sources when the base loaded, so they are not checked again; their bodies are,
            since a patch can remove or change what they use.
    """
    _Checker(decls, rules, sources, bag, inherited).run()


_ARGUMENT_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "int": (("int",), "a whole number (1, +1, -2)"),
    "number": (("int",), "a number (1, 2)"),
    "need": (("need",), "a score (5+)"),
    "dice": (("dice", "int"), "dice or a number (D3, D6+1, 2)"),
    "keyword": (("words",), "a keyword (Infantry)"),
}
"""What a rule reference may pass for a parameter of each type: the argument kinds
(:class:`RuleArg.kind`) accepted, and what to call them. Other types accept any argument."""


def rule_arguments_problem(
    rule: ast.RuleDecl, text: str, args: tuple[RuleArg, ...]
) -> tuple[str, str, str] | None:
    """Why the reference ``text`` does not fit the parameters of ``rule``, or None.

    Returns:
        ``(code, message, hint)``: a wrong number of arguments (``wrong-arity``), or an
        argument of the wrong kind (``bad-argument``).

    Examples:
        >>> from interpreter.diagnostics import Span
        >>> rule = ast.RuleDecl(Span("r.rules", 1), "Ward Save", None,
        ...                     params=(ast.Param(Span("r.rules", 1), "value", "need"),))
        >>> rule_arguments_problem(rule, "Ward Save (5+)", parse_rule_ref("Ward Save (5+)").args)
        >>> rule_arguments_problem(rule, "Ward Save (5)", parse_rule_ref("Ward Save (5)").args)[1]
        "'Ward Save (5)': the parameter 'value' of rule 'Ward Save' takes a score (5+), got '5'"
    """
    params = rule.params
    required = [p for p in params if p.default is None]
    example = f"{rule.name} ({', '.join(p.name for p in params)})" if params else rule.name
    if not len(required) <= len(args) <= len(params):
        takes = (f"{len(params)}" if len(required) == len(params)
                 else f"{len(required)} to {len(params)}")
        return (
            "wrong-arity",
            f"rule {rule.name!r} takes {takes} parameter{'' if takes == '1' else 's'}, "
            f"{text!r} gives {len(args)}",
            f"write {example!r}" if params else f"write {rule.name!r}, without arguments",
        )
    for param, arg in zip(params, args):
        kinds, words = _ARGUMENT_KINDS.get(param.type, ((), ""))
        if kinds and arg.kind not in kinds:
            return (
                "bad-argument",
                f"{text!r}: the parameter {param.name!r} of rule {rule.name!r} takes {words}, "
                f"got {arg.text!r}",
                f"rule {rule.name!r} takes ({', '.join(f'{p.name}: {p.type}' for p in params)})",
            )
    return None


def _a(word: str) -> str:
    """``a test``, ``an action``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


class _Checker:
    def __init__(self, decls, rules, sources, bag: DiagnosticBag,
                 inherited: Collection[str] = ()) -> None:
        self.decls: Mapping[str, ast.Decl] = decls
        self.rules: Mapping[str, ast.RuleDecl] = rules
        self.sources = sources
        self.bag = bag
        self.inherited = inherited
        self.cited: set[object] = set()
        """Citations checked already (a line of characteristics shares one), and the
        lines whose missing citation or empty range has been reported."""
        self.characteristics = {
            n for n, d in decls.items() if isinstance(d, ast.CharacteristicDecl)
        }
        self.marks = {
            n.mark
            for d in decls.values()
            if isinstance(d, ast.RollDecl)
            for n in d.naturals
            if n.mark
        } | {
            mark for d in decls.values() if isinstance(d, ast.RollDecl) for mark, _ in d.marks
        }
        self.globals = _Scope(
            [n for n, d in decls.items() if not isinstance(d, ast.CharacteristicDecl)]
            + list(BUILTIN_NAMES)
        )

    # ------------------------------------------------------------ helpers
    def error(self, message: str, span: Span, code: str, hint: str | None = None) -> None:
        self.bag.add(message, span, code=code, hint=hint)

    def kind_of(self, name: str) -> str | None:
        d = self.decls.get(name)
        return d.kind if d is not None else None

    # ------------------------------------------------------------ entry
    def run(self) -> None:
        self.check_roles()
        self.check_default_policy()
        for decl in self.decls.values():
            if decl.name not in self.inherited:
                self.check_cite(decl.cite, decl.span, f"{decl.kind} {decl.name!r}")
            method = getattr(self, f"check_{type(decl).__name__}", None)
            if method is not None:
                method(decl)
        for rule in self.rules.values():
            if f"rule:{rule.name}" not in self.inherited:
                self.check_cite(rule.cite, rule.span, f"rule {rule.name!r}")
            self.check_RuleDecl(rule)

    def check_cite(self, cite: ast.Cite | None, span: Span, what: str) -> None:
        seen = cite if cite is not None else (span.path, span.line)
        if seen in self.cited:
            return
        self.cited.add(seen)
        if cite is None:
            self.error(
                f"{what} has no citation",
                Span(span.path, span.line, span.column),
                "missing-citation",
                hint='end the line with @ L<line> (the seed line) or '
                '@ "not in seed: <where the value comes from>"',
            )
            return
        if cite.note is not None:
            if not cite.note.startswith(NOT_IN_SEED):
                self.error(
                    f"a quoted citation must start with 'not in seed:', got {cite.note!r}",
                    cite.span,
                    "bad-citation",
                    hint='cite a seed line (@ L450) or write @ "not in seed: standard published value"',
                )
            return
        if not self.sources:
            self.error(
                "a line citation needs a source: the ruleset header declares none",
                cite.span,
                "bad-citation",
                hint='add to the header: source "<seed file>"',
            )
        elif cite.source is not None and find_source(cite.source, self.sources) is None:
            self.error(
                f"no declared source is seed {cite.source!r}",
                cite.span,
                "bad-citation",
                hint="declared sources: " + ", ".join(self.sources),
            )
        for r in cite.ranges:
            m = _LINE_RE.match(r)
            if m and m.group(2) and int(m.group(2)) < int(m.group(1)):
                self.error(f"line range {r!r} ends before it starts", cite.span, "bad-citation")

    # ------------------------------------------------------------ declarations
    def check_roles(self) -> None:
        roles: dict[tuple[str, str], ast.CharacteristicDecl] = {}
        for d in self.decls.values():
            if isinstance(d, ast.CharacteristicDecl) and d.role:
                first = roles.setdefault((d.entity, d.role), d)
                if first is not d:
                    self.error(f"two characteristics of {d.entity} are 'as {d.role}': "
                               f"{first.name!r} and {d.name!r}", d.span, "duplicate-role",
                               hint=f"one characteristic of {d.entity} plays each role")

    def check_CharacteristicDecl(self, d: ast.CharacteristicDecl) -> None:
        if d.low is not None and d.high is not None and d.low > d.high:
            # One range serves a whole line of characteristics: report it once.
            line = ("range", d.span.path, d.span.line)
            if line not in self.cited:
                self.cited.add(line)
                self.error(
                    f"characteristic {d.name!r} has an empty range {d.low}..{d.high}",
                    d.span, "bad-range",
                    hint=f"a range goes from the lowest value up: range {d.high}..{d.low}",
                )

    def check_OptionDecl(self, d: ast.OptionDecl) -> None:
        if d.choices and d.default not in d.choices:
            self.error(
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
                self.error(
                    f"option {d.name!r} is declared {d.type} but defaults to {d.default!r}",
                    d.span, "bad-option",
                )

    def check_CounterDecl(self, d: ast.CounterDecl) -> None:
        if d.initial is not None:
            self.expr(d.initial, self.globals)

    def check_DieDecl(self, d: ast.DieDecl) -> None:
        if len(d.faces) < 2:
            self.error(f"die {d.name!r} needs at least two faces", d.span, "bad-die")

    def check_RollDecl(self, d: ast.RollDecl) -> None:
        params = self.param_scope(d.params)
        scope = params.child(["result", "natural"])
        what = f"{d.kind} {d.name!r}"
        if d.dice is None:
            self.error(f"{what} says no dice", d.span, "missing-dice",
                       hint="add a line such as: dice D6")
        else:
            self.dice(d.dice)
        if d.is_test and d.need is None and d.pass_if is None:
            self.error(f"{what} has no pass condition", d.span, "missing-pass",
                       hint="add 'need <score>' or 'pass if <condition>'")
        if not d.is_test and (d.need is not None or d.pass_if is not None):
            self.error(f"{what} has a pass condition; declare it as a test", d.span,
                       "roll-with-pass", hint=f"write: test {d.name}(...)")
        if d.need is not None and d.pass_if is not None:
            self.error(f"{what} gives both 'need' and 'pass if'", d.span, "need-and-pass")
        # the score needed and the roll's own modifier are known before the dice are rolled,
        # so they cannot read them
        if d.need is not None:
            self.expr(d.need, params)
        if d.modifier is not None:
            self.expr(d.modifier, params)
        for _, condition in d.marks:
            self.expr(condition, scope.child(["dice"]))
        for e in (d.pass_if, d.value):
            if e is not None:
                self.expr(e, scope)
        if d.beyond is not None:
            self.expr(d.beyond[1], params.child(["need"]))
            if d.need is None:
                self.error(f"{what} has 'beyond' but no 'need'", d.span, "beyond-without-need")
        lo, hi = d.cap
        if lo is not None and hi is not None and lo > hi:
            self.error(f"{what}: modifiers capped {lo}..{hi} is an empty range", d.span, "bad-range")

    def check_SequenceDecl(self, d: ast.SequenceDecl) -> None:
        scope = self.param_scope(d.params)
        names = [s.name for s in d.steps]
        seen: set[str] = set()
        for i, step in enumerate(d.steps):
            if step.name in seen:
                self.error(f"sequence {d.name!r} has two steps named {step.name!r}", step.span,
                           "duplicate-step")
            seen.add(step.name)
            self.call(step.call, scope, want=("test",))
            for hook in step.hooks:
                if hook.cite is not None:
                    self.check_cite(hook.cite, hook.span, f"a hook of step {step.name!r}")
                self.hook(hook.mark, hook.condition, hook.effect, hook.span, scope,
                          names[i + 1:], d.name, names[: i + 1])
        if not d.steps:
            self.error(f"sequence {d.name!r} has no steps", d.span, "empty-sequence")
        if d.damage is not None:
            self.expr(d.damage, scope)
        if d.per_point is not None:
            self.call(d.per_point.call, scope, want=("test",))

    def hook(self, mark, condition, effect, span, scope, later_steps, sequence,
             earlier_steps=()) -> None:
        if mark not in self.marks:
            self.error(
                f"no roll marks results as {mark!r}", span, "unknown-mark",
                hint=did_you_mean(mark, self.marks)
                or "declare it in a roll: natural 6 is " + mark,
            )
        if condition is not None:
            self.expr(condition, scope)
        if effect.kind == "skip" and effect.arg in earlier_steps:
            self.error(
                f"'skip {effect.arg}': step {effect.arg!r} of sequence {sequence!r} is not "
                "after this one; a hook can only skip a later step",
                effect.span, "unknown-step",
                hint="later steps: " + ", ".join(later_steps) if later_steps
                else "this is the last step: there is nothing to skip",
            )
        elif effect.kind == "skip" and effect.arg not in later_steps:
            self.error(
                f"'skip {effect.arg}': sequence {sequence!r} has no later step {effect.arg!r}",
                effect.span, "unknown-step",
                hint=did_you_mean(str(effect.arg), later_steps),
            )
        elif isinstance(effect.arg, ast.Expr):
            self.expr(effect.arg, scope)

    def check_ActionDecl(self, d: ast.ActionDecl) -> None:
        self.block(d.body, self.param_scope(d.params))

    def check_PhaseDecl(self, d: ast.PhaseDecl) -> None:
        if d.parent is not None and self.kind_of(d.parent) != "phase":
            self.error(f"phase {d.name!r} is in {d.parent!r}, which is not a phase", d.span,
                       "unknown-phase", hint=did_you_mean(d.parent, self.names_of("phase")))
        self.block(d.body, self.param_scope(d.params))

    def check_DecisionDecl(self, d: ast.DecisionDecl) -> None:
        scope = self.param_scope(d.params)
        if d.options is not None:
            self.expr(d.options, scope)

    def check_default_policy(self) -> None:
        defaults = [d for d in self.decls.values()
                    if isinstance(d, ast.PolicyDecl) and d.is_default]
        for extra in defaults[1:]:
            self.error(f"two policies are the default: {defaults[0].name!r} and {extra.name!r}",
                       extra.span, "duplicate-default")

    def check_PolicyDecl(self, d: ast.PolicyDecl) -> None:
        for decision, expr in d.choices:
            target = self.decls.get(decision)
            if not isinstance(target, ast.DecisionDecl):
                self.error(f"policy {d.name!r} chooses for {decision!r}, which is not a decision",
                           expr.span, "unknown-decision",
                           hint=did_you_mean(decision, self.names_of("decision")))
                continue
            scope = self.param_scope(target.params).child(["options"])
            self.expr(expr, scope)

    def check_BattleDecl(self, d: ast.BattleDecl) -> None:
        for body in (d.setup, d.round, d.turn, d.score):
            self.block(body, self.globals)
        if d.rounds is not None:
            self.expr(d.rounds, self.globals)
        for e in d.end:
            self.expr(e, self.globals)

    def check_RuleDecl(self, d: ast.RuleDecl) -> None:
        if d.is_global:
            for p in d.params:
                if p.default is None:
                    self.error(f"global rule {d.name!r}: parameter {p.name!r} needs a default "
                               "(nobody carries a global rule, so nothing gives it one)",
                               p.span, "global-param")
        base = self.param_scope(d.params).child(["bearer"])
        for effect in d.effects:
            self.effect(effect, base, d)

    # ------------------------------------------------------------ rules
    def target_scope(self, name: str, kinds: tuple[str, ...], span: Span, base: _Scope,
                     what: str) -> _Scope | None:
        """The scope inside the roll or test an effect names; None (reported) if it is not one."""
        target = self.decls.get(name)
        if target is None or target.kind not in kinds:
            actual = f"; it is {_a(target.kind)}" if target is not None else ""
            self.error(
                f"{what} names {name!r}, which is not a {' or '.join(kinds)}{actual}",
                span, "unknown-name",
                hint=did_you_mean(name, [n for k in kinds for n in self.names_of(k)]),
            )
            return None
        params = getattr(target, "params", ())
        # effects are worked out before the dice are rolled: they see the arguments only
        return base.child([p.name for p in params])

    def effect(self, e: ast.Effect, base: _Scope, rule: ast.RuleDecl) -> None:
        if e.cite is not None:
            self.check_cite(e.cite, e.span, f"an effect of rule {rule.name!r}")
        scope: _Scope | None = base
        if isinstance(e, ast.Modify):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "modify")
            if scope is not None:
                self.expr(e.amount, scope)
        elif isinstance(e, ast.RerollEffect):
            scope = self.target_scope(e.roll, ("test",), e.span, base,
                                      f"reroll {e.which}")
        elif isinstance(e, ast.AutoResult):
            scope = self.target_scope(e.test, ("test",), e.span, base, e.result)
        elif isinstance(e, ast.RuleHook):
            seq = self.decls.get(e.sequence)
            if not isinstance(seq, ast.SequenceDecl):
                self.error(f"'on {e.mark} of {e.sequence}.{e.step}': {e.sequence!r} is not a "
                           "sequence", e.span, "unknown-name",
                           hint=did_you_mean(e.sequence, self.names_of("sequence")))
            else:
                steps = [s.name for s in seq.steps]
                if e.step not in steps:
                    self.error(f"sequence {e.sequence!r} has no step {e.step!r}", e.span,
                               "unknown-step", hint=did_you_mean(e.step, steps))
                    later: list[str] = []
                    earlier: list[str] = []
                else:
                    later = steps[steps.index(e.step) + 1:]
                    earlier = steps[: steps.index(e.step) + 1]
                scope = base.child(p.name for p in seq.params)
                self.hook(e.mark, None, e.effect, e.span, scope, later, e.sequence, earlier)
        elif isinstance(e, ast.Grant):
            self.rule_ref(e.rule, e.span)
        elif isinstance(e, ast.Trigger):
            target = self.decls.get(e.event)
            if e.event not in EVENTS and (target is None or target.kind not in (
                    "action", "phase", "test", "roll", "status", "decision")):
                self.error(f"'when {e.event}': no event, action, phase, test or status is named "
                           f"{e.event!r}", e.span, "unknown-event",
                           hint=did_you_mean(e.event, list(EVENTS) + list(self.decls)))
            params = getattr(target, "params", ()) if target is not None else ()
            # after a roll or test, its result is known as `result`
            extra = ["result"] if target is not None and target.kind in ("roll", "test") else []
            scope = base.child([p.name for p in params] + extra)
            self.block(e.body, scope)
        elif isinstance(e, ast.CharacteristicEffect):
            if e.characteristic not in self.characteristics:
                self.error(f"unknown characteristic {e.characteristic!r}", e.span,
                           "unknown-characteristic",
                           hint=did_you_mean(e.characteristic, self.characteristics))
            self.expr(e.amount, base)
        # An unknown target is reported once: its parameters, which the amount and the
        # condition may use, are unknown too.
        if e.condition is not None and scope is not None:
            self.expr(e.condition, scope)

    def rule_ref(self, text: str, span: Span) -> None:
        if text in self.rules:
            return
        try:
            ref = parse_rule_ref(text)
        except RuleRefError as err:
            # A rule whose own name has brackets ("Crit (2 Hits)") is looked up whole.
            close = did_you_mean(text, self.rules)
            if close is not None:
                self.error(f"unknown rule {text!r}", span, "unknown-rule", hint=close)
            else:
                self.error(str(err), span, "bad-rule-reference")
            return
        rule = self.rules.get(ref.name)
        if rule is None:
            self.error(f"unknown rule {text!r}", span, "unknown-rule",
                       hint=did_you_mean(ref.name, self.rules))
            return
        problem = rule_arguments_problem(rule, text, ref.args)
        if problem is not None:
            code, message, hint = problem
            self.error(message, span, code, hint=hint)

    # ------------------------------------------------------------ statements
    def param_scope(self, params: tuple[ast.Param, ...]) -> _Scope:
        seen: set[str] = set()
        for p in params:
            if p.name in seen:
                self.error(f"parameter {p.name!r} is declared twice", p.span, "duplicate-param")
            seen.add(p.name)
            if p.default is not None:
                self.expr(p.default, self.globals)
        return self.globals.child(seen)

    def names_of(self, kind: str) -> list[str]:
        return [n for n, d in self.decls.items() if d.kind == kind]

    def block(self, body: tuple[ast.Stmt, ...], scope: _Scope) -> None:
        scope = scope.child()
        for stmt in body:
            self.stmt(stmt, scope)

    def stmt(self, s: ast.Stmt, scope: _Scope) -> None:
        if isinstance(s, ast.Let):
            self.expr(s.value, scope)
            shadowed = self.decls.get(s.name)
            if shadowed is not None and not isinstance(shadowed, ast.CharacteristicDecl):
                where = f"{Path(shadowed.span.path).name}:{shadowed.span.line}"
                self.error(f"'let {s.name}' hides the {shadowed.kind} {s.name!r} "
                           f"(declared at {where})", s.span, "shadowed-name",
                           hint="give the local another name")
            scope.names.add(s.name)
        elif isinstance(s, ast.Assign):
            self.expr(s.value, scope)
            if isinstance(s.target, ast.Name):
                if not scope.has(s.target.name):
                    self.error(f"assignment to {s.target.name!r}, which is not defined; use "
                               f"'let {s.target.name} = ...' first", s.target.span,
                               "undefined-name",
                               hint=did_you_mean(s.target.name, scope.all()))
            else:
                self.expr(s.target, scope)
        elif isinstance(s, ast.CallStmt):
            self.call(s.call, scope)
        elif isinstance(s, ast.Return):
            if s.value is not None:
                self.expr(s.value, scope)
        elif isinstance(s, ast.Log):
            for a in s.args:
                self.expr(a, scope)
        elif isinstance(s, ast.If):
            for cond, body in s.branches:
                self.expr(cond, scope)
                self.block(body, scope)
            self.block(s.otherwise, scope)
        elif isinstance(s, ast.ForEach):
            self.expr(s.iterable, scope)
            inner = scope.child([s.var])
            for e in (s.where, s.order):
                if e is not None:
                    self.expr(e, inner)
            self.block(s.body, inner)
        elif isinstance(s, ast.While):
            self.expr(s.condition, scope)
            self.block(s.body, scope)
        elif isinstance(s, ast.Activate):
            self.expr(s.units, scope)
            self.expr(s.start, scope)
            if s.picker is not None and self.kind_of(s.picker) != "decision":
                self.error(f"'picking by {s.picker}': {s.picker!r} is not a decision", s.span,
                           "unknown-decision",
                           hint=did_you_mean(s.picker, self.names_of("decision")))
            self.block(s.body, scope.child([s.var]))

    # ------------------------------------------------------------ expressions
    def dice(self, d: ast.DiceLit) -> None:
        if d.die_name is not None:
            if self.kind_of(d.die_name) != "die":
                self.error(f"unknown die {d.die_name!r}", d.span, "unknown-die",
                           hint=did_you_mean(d.die_name, self.names_of("die"))
                           or "declare special dice with: die <name> faces ...")

    def call(self, c: ast.Call, scope: _Scope, want: tuple[str, ...] = ()) -> None:
        for a in c.args:
            self.expr(a, scope)
        for _, a in c.kwargs:
            self.expr(a, scope)
        target = self.decls.get(c.name)
        if target is not None and target.kind in CALLABLE_KINDS:
            if want and target.kind not in want:
                self.error(f"{c.name!r} is {_a(target.kind)}; {_a(' or '.join(want))} is needed "
                           "here",
                           c.span, "wrong-kind",
                           hint=did_you_mean(c.name, [n for k in want for n in self.names_of(k)]))
            params = getattr(target, "params", ())
            self.arguments(c, params, f"{target.kind} {c.name!r}")
            return
        if want:
            self.error(f"unknown {' or '.join(want)} {c.name!r}", c.span, "undefined-name",
                       hint=did_you_mean(c.name, [n for k in want for n in self.names_of(k)]))
            return
        builtin = BUILTIN_FUNCTIONS.get(c.name)
        if builtin is not None:
            if builtin.keywords:
                self.sequence_keywords(c)
            for key, value in () if builtin.keywords else c.kwargs:
                self.error(f"{c.name}() takes its arguments by position, not {key}=",
                           value.span, "keyword-argument",
                           hint=f"{c.name}() takes {builtin.arity_text()} argument(s): "
                           + builtin.doc)
            n = len(c.args) + (0 if builtin.keywords else len(c.kwargs))
            if n < builtin.min_args or (builtin.max_args is not None and n > builtin.max_args):
                self.error(f"{c.name}() takes {builtin.arity_text()} argument(s), got {n}",
                           c.span, "wrong-arity")
            return
        if target is not None:
            self.error(f"{c.name!r} is {_a(target.kind)}, which cannot be called", c.span,
                       "not-callable",
                       hint=f"look a table up with square brackets: {c.name}[...]"
                       if target.kind == "table" else None)
            return
        self.error(
            f"unknown function {c.name!r}", c.span, "undefined-name",
            hint=did_you_mean(
                c.name,
                [n for n, d in self.decls.items() if d.kind in CALLABLE_KINDS]
                + list(BUILTIN_FUNCTIONS),
            ),
        )

    def sequence_keywords(self, c: ast.Call) -> None:
        """``fight(seq, a, t, weapon = w)``: named arguments must be parameters of ``seq``."""
        if not c.args or not isinstance(c.args[0], ast.Name):
            return
        seq = self.decls.get(c.args[0].name)
        if not isinstance(seq, ast.SequenceDecl):
            return
        names = [p.name for p in seq.params]
        for key, value in c.kwargs:
            if key not in names:
                self.error(f"sequence {seq.name!r} has no parameter {key!r}", value.span,
                           "unknown-param", hint=did_you_mean(key, names))

    def arguments(self, c: ast.Call, params: tuple[ast.Param, ...], what: str) -> None:
        names = [p.name for p in params]
        required = [p.name for p in params if p.default is None]
        given = set(names[: len(c.args)])
        takes = f"it takes ({', '.join(names)})"
        if len(c.args) > len(params):
            self.error(f"{what} takes {len(params)} argument(s), got {len(c.args) + len(c.kwargs)}",
                       c.span, "wrong-arity", hint=takes)
            return
        for key, value in c.kwargs:
            if key not in names:
                self.error(f"{what} has no parameter {key!r}", value.span, "unknown-param",
                           hint=did_you_mean(key, names) or takes)
            elif key in given:
                self.error(f"{what}: {key!r} is given twice", value.span, "duplicate-argument")
            given.add(key)
        missing = [n for n in required if n not in given]
        if missing:
            self.error(f"{what} needs {', '.join(repr(m) for m in missing)}", c.span,
                       "wrong-arity", hint=takes)

    def expr(self, e: ast.Expr | None, scope: _Scope) -> None:
        if e is None:
            return
        if isinstance(e, ast.Name):
            if not scope.has(e.name):
                if e.name in self.characteristics:
                    self.error(f"undefined name {e.name!r}: {e.name!r} is a characteristic, "
                               "which belongs to a unit or a model", e.span, "undefined-name",
                               hint=f"write <unit>.{e.name}")
                else:
                    self.error(f"undefined name {e.name!r}", e.span, "undefined-name",
                               hint=did_you_mean(e.name, scope.all()))
        elif isinstance(e, ast.DiceLit):
            self.dice(e)
        elif isinstance(e, ast.Attribute):
            self.expr(e.target, scope)
            if (e.name not in self.characteristics and e.name not in UNIT_PROPERTIES
                    and e.name not in self.marks):
                self.error(
                    f"unknown characteristic or property {e.name!r}", e.span,
                    "unknown-characteristic",
                    hint=did_you_mean(e.name, self.characteristics | set(UNIT_PROPERTIES)
                                      | self.marks),
                )
        elif isinstance(e, ast.Lookup):
            for k in e.keys:
                self.expr(k, scope)
            if isinstance(e.target, ast.Name) and not scope.has(e.target.name):
                self.expr(e.target, scope)
                return
            if isinstance(e.target, ast.Name):
                table = self.decls.get(e.target.name)
                if isinstance(table, ast.TableDecl):
                    if len(e.keys) != len(table.keys):
                        self.error(
                            f"table {table.name!r} has {len(table.keys)} key(s) "
                            f"({', '.join(table.keys)}), the lookup gives {len(e.keys)}",
                            e.span, "wrong-arity",
                            hint=f"write {table.name}[{', '.join(table.keys)}]",
                        )
                elif table is not None:
                    self.error(f"{e.target.name!r} is {_a(table.kind)}, not a table", e.span,
                               "not-a-table", hint=did_you_mean(e.target.name,
                                                                self.names_of("table")))
            else:
                self.expr(e.target, scope)
        elif isinstance(e, ast.Call):
            self.call(e, scope)
        elif isinstance(e, (ast.BinOp, ast.Compare)):
            self.expr(e.left, scope)
            self.expr(e.right, scope)
        elif isinstance(e, ast.BoolOp):
            for o in e.operands:
                self.expr(o, scope)
        elif isinstance(e, (ast.Not, ast.Neg)):
            self.expr(e.operand, scope)
        elif isinstance(e, ast.CondExpr):
            for o in (e.condition, e.then, e.otherwise):
                self.expr(o, scope)
        elif isinstance(e, ast.Has):
            self.expr(e.subject, scope)
            if e.rule not in self.rules and self.kind_of(e.rule) != "keyword":
                self.rule_ref(e.rule, e.span)
        elif isinstance(e, ast.IsStatus):
            self.expr(e.subject, scope)
            if self.kind_of(e.status) != "status":
                self.error(f"unknown status {e.status!r}", e.span, "unknown-status",
                           hint=did_you_mean(e.status, self.names_of("status")))
        elif isinstance(e, ast.Member):
            self.expr(e.item, scope)
            self.expr(e.collection, scope)
        elif isinstance(e, ast.ListLit):
            for i in e.items:
                self.expr(i, scope)
        elif isinstance(e, ast.Comprehension):
            self.expr(e.iterable, scope)
            inner = scope.child([e.var])
            self.expr(e.item, inner)
            if e.where is not None:
                self.expr(e.where, inner)
