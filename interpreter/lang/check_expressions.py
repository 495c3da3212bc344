"""Check expressions and calls, inferring the type of each (:mod:`rules_run.lang.types`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import did_you_mean
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.builtins import BUILTIN_FUNCTIONS, PROPERTY_TYPES, Builtin
from rules_run.lang.check_context import CALLABLE_KINDS, Scope, article

if TYPE_CHECKING:
    from rules_run.lang.check_context import Context

__all__ = ["ExpressionChecker"]

COUNTER_BUILTINS = {"counter": 0, "add_counter": 1, "set_counter": 1}
"""The builtins that read or change a counter, and how many arguments follow its keys."""


class ExpressionChecker:
    """Checks expressions (one method per kind of node, :data:`_EXPRESSIONS`) and calls."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def expect(self, e: ast.Expr | None, scope: Scope, wanted: str, what: str) -> None:
        """Check ``e``, which must fit the type ``wanted`` (:func:`types.fits`)."""
        if e is None:
            return
        t = self.expr(e, scope)
        if not ty.fits(t, wanted):
            self.ctx.error(f"{what} must be {ty.shown_wanted(wanted)}, got {ty.show(t)}", e.span,
                           "wrong-type")

    def dice(self, d: ast.DiceLit) -> None:
        if d.die_name is not None:
            if self.ctx.kind_of(d.die_name) != "die":
                self.ctx.error(f"unknown die {d.die_name!r}", d.span, "unknown-die",
                               hint=did_you_mean(d.die_name, self.ctx.names_of("die"))
                               or "declare special dice with: die <name> faces ...")

    def key_values_arguments(self, table: ast.Expr, key: ast.Expr) -> None:
        """``key_values(TABLE, "key")``: a declared table, and one of its keys."""
        decl = self.ctx.decls.get(table.name) if isinstance(table, ast.Name) else None
        if not isinstance(decl, ast.TableDecl):
            self.ctx.error("key_values reads a table, given by its name", table.span,
                           "not-a-table", hint=did_you_mean(getattr(table, "name", ""),
                                                            self.ctx.names_of("table")))
        elif (isinstance(key, ast.Literal) and key.kind == "text"
              and key.value not in decl.keys):
            self.ctx.error(f"table {decl.name!r} has no key {key.value!r} (its keys: "
                           f"{', '.join(decl.keys)})", key.span, "unknown-key",
                           hint=did_you_mean(str(key.value), list(decl.keys)))

    def cell_dice(self, d: ast.CellDice, scope: Scope) -> None:
        """A roll's dice from a table's cell (``dice spell_data[s, "hits"]``): the name is a
        table's, the keys are checked as a lookup's."""
        name = d.lookup.target
        assert isinstance(name, ast.Name), "the grammar reads a name"
        if self.ctx.kind_of(name.name) != "table":
            self.ctx.error(f"dice from a table's cell: {name.name!r} is not a table", name.span,
                           "bad-dice", hint=did_you_mean(name.name, self.ctx.names_of("table")))
            return
        self.expr(d.lookup, scope)

    def call(self, c: ast.Call, scope: Scope, want: tuple[str, ...] = ()) -> str:
        """Check a call; the type of its result."""
        args = [self.expr(a, scope) for a in c.args]
        kwargs = {key: self.expr(a, scope) for key, a in c.kwargs}
        target = self.ctx.decls.get(c.name)
        if target is not None and target.kind in CALLABLE_KINDS:
            self.ctx.use(c.name)
            if want and target.kind not in want:
                self.ctx.error(f"{c.name!r} is {article(target.kind)}; "
                               f"{article(' or '.join(want))} is needed here",
                               c.span, "wrong-kind", hint=did_you_mean(c.name, self.wanted(want)))
            params = getattr(target, "params", ())
            if self.arguments(c, params, f"{target.kind} {c.name!r}"):
                self.argument_types(c, args, kwargs, params, c.name)
            if isinstance(target, ast.RecordDecl):
                return ty.record_of(target.name)
            if isinstance(target, ast.RollDecl):
                return "result" if target.is_test else ("int" if target.value is None
                                                        else ty.ANY)
            return "outcome" if isinstance(target, ast.SequenceDecl) else ty.ANY
        if isinstance(target, ast.StatusDecl) and not want:
            return self.ctx.effects.status_call(c, target, args, kwargs)
        if want:
            self.ctx.error(f"unknown {' or '.join(want)} {c.name!r}", c.span, "undefined-name",
                           hint=did_you_mean(c.name, self.wanted(want)))
            return ty.ANY
        builtin = BUILTIN_FUNCTIONS.get(c.name)
        if builtin is not None:
            if builtin.keywords:
                self.sequence_arguments(c, kwargs)
            for key, value in () if builtin.keywords else c.kwargs:
                self.ctx.error(f"{c.name}() takes its arguments by position, not {key}=",
                               value.span, "keyword-argument",
                               hint=f"{c.name}() takes {builtin.arity_text()} argument(s): "
                               + builtin.doc)
            n = len(c.args) + (0 if builtin.keywords else len(c.kwargs))
            if n < builtin.min_args or (builtin.max_args is not None and n > builtin.max_args):
                self.ctx.error(f"{c.name}() takes {builtin.arity_text()} argument(s), got {n}",
                               c.span, "wrong-arity")
            else:
                for i, (a, t) in enumerate(zip(c.args, args)):
                    self.argument_type(a, t, builtin.param_type(i), f"argument {i + 1}", c.name,
                                       builtin)
                for i, allowed in builtin.choices:
                    given = c.args[i] if i < len(c.args) else None
                    if (isinstance(given, ast.Literal) and given.kind == "text"
                            and given.value not in allowed):
                        self.ctx.error(f"argument {i + 1} of {c.name} is {given.value!r}; expected "
                                       + ", ".join(repr(a) for a in allowed), given.span,
                                       "bad-argument",
                                       hint=did_you_mean(str(given.value), list(allowed)))
            if c.name == "decide":
                self.decision_arguments(c, args)
            if c.name == "apply" and c.args:
                self.ctx.effects.applied_status(c.args[0])
            if c.name in ("apply", "clear") and c.args:
                self.ctx.effects.held_status(c.args[0], f"{c.name}()")
            if c.name == "used" and c.args:
                self.used_arguments(c, args)
            if c.name in COUNTER_BUILTINS:
                held = self.counter_arguments(c, args)
                if held is not None:
                    return held
            if c.name == "counter_values" and c.args:
                held = self.counter_values_argument(c.args[0])
                if held is not None:
                    return ty.list_of(held)
            if c.name == "unaffected" and len(c.args) == 2:
                self.ctx.effects.unaffected_argument(c.args[1])
            if c.name == "share" and len(c.args) >= 2:
                self.share_rule(c.args[1])
            if c.name == "key_values" and len(c.args) == 2:
                self.key_values_arguments(c.args[0], c.args[1])
            if builtin.returns == "item":
                return ty.item_of(args[0]) if args else ty.ANY
            return builtin.returns
        if target is not None:
            self.ctx.error(f"{c.name!r} is {article(target.kind)}, which cannot be called", c.span,
                           "not-callable",
                           hint=f"look a table up with square brackets: {c.name}[...]"
                           if target.kind == "table" else None)
            return ty.ANY
        self.ctx.error(
            f"unknown function {c.name!r}", c.span, "undefined-name",
            hint=did_you_mean(
                c.name,
                [n for n, d in self.ctx.decls.items() if d.kind in CALLABLE_KINDS]
                + list(BUILTIN_FUNCTIONS),
            ),
        )
        return ty.ANY

    def share_rule(self, given: ast.Expr) -> None:
        """``share(u, "RULE", ...)``: a rule written there must exist, as for ``has``."""
        if not (isinstance(given, ast.Literal) and given.kind == "text"):
            return
        name = str(given.value)
        if name not in self.ctx.rules and self.ctx.kind_of(name) != "keyword":
            self.ctx.effects.rule_ref(name, given.span)

    def wanted(self, kinds: tuple[str, ...]) -> list[str]:
        """The names of the declarations of ``kinds`` (what a call could have named)."""
        return [n for k in kinds for n in self.ctx.names_of(k)]

    def sequence_arguments(self, c: ast.Call, kwargs: dict[str, str]) -> None:
        """``fight(seq, a, t, weapon = w)``: named arguments fill the sequence's parameters of
        those names (the attacker and the target, units, its first two)."""
        if not c.args or not isinstance(c.args[0], ast.Name):
            return
        seq = self.ctx.decls.get(c.args[0].name)
        if not isinstance(seq, ast.SequenceDecl):
            return
        names = [p.name for p in seq.params]
        for key, value in c.kwargs:
            if key not in names:
                self.ctx.error(f"sequence {seq.name!r} has no parameter {key!r}", value.span,
                               "unknown-param", hint=did_you_mean(key, names))
        by_name = {p.name: p for p in seq.params}
        for key, value in c.kwargs:
            if key in by_name:
                self.argument_type(value, kwargs[key], by_name[key].type, f"{key!r}", seq.name,
                                   seq.params)

    def used_arguments(self, c: ast.Call, args: list[str]) -> None:
        """``used(use_command, u, "Rally")``: an action with a ``once per`` limit, then its
        arguments (what the limit is counted for is read from them)."""
        first = c.args[0]
        action = self.ctx.decls.get(first.name) if isinstance(first, ast.Name) else None
        if action is not None and not isinstance(action, ast.ActionDecl):
            return   # a declaration of another kind: its type is reported
        if not isinstance(action, ast.ActionDecl) or action.limit is None:
            limited = [n for n, d in self.ctx.decls.items()
                       if isinstance(d, ast.ActionDecl) and d.limit is not None]
            named = first.name if isinstance(first, ast.Name) else None
            what = (f"{named!r} is an action without a limit"
                    if isinstance(action, ast.ActionDecl) else
                    f"no action is named {named!r}" if named is not None else
                    "its first argument is not an action's name")
            self.ctx.error(f"used() asks of an action declared 'once per ...'; {what}",
                           first.span, "not-limited",
                           hint=did_you_mean(named, limited) if named is not None
                           and action is None else
                           "declare it: action NAME(params) once per phase|turn|round|battle "
                           "[per KEY, ...]")
            return
        rest = ast.Call(c.span, action.name, c.args[1:], c.kwargs)
        if self.arguments(rest, action.params, f"action {action.name!r}"):
            self.argument_types(rest, args[1:], {}, action.params, action.name)

    def decision_arguments(self, c: ast.Call, args: list[str]) -> None:
        """``decide(charge, u)``: the arguments after the decision are its parameters."""
        if not c.args or not isinstance(c.args[0], ast.Name):
            return
        decision = self.ctx.decls.get(c.args[0].name)
        if not isinstance(decision, ast.DecisionDecl):
            return
        for i, (p, a, t) in enumerate(zip(decision.params, c.args[1:], args[1:])):
            self.argument_type(a, t, p.type, f"argument {i + 1}", decision.name,
                               decision.params)

    def counter_arguments(self, c: ast.Call, args: list[str]) -> str | None:
        """``counter(wounds_on, a, b)``, ``add_counter(wounds_on, a, b, 1)``: after the
        counter's name come its keys, as many as it declares and of their types; a value
        set must be of the type it holds, and only a number is added to. The type of the
        value it gives (None: not known)."""
        if not c.args or not isinstance(c.args[0], ast.Name):
            return None
        decl = self.ctx.decls.get(c.args[0].name)
        if not isinstance(decl, ast.CounterDecl):
            return None
        if c.name == "add_counter" and decl.holds not in ty.NUMBERS:
            self.ctx.error(f"counter {decl.name!r} holds {ty.show(decl.holds)}, not a number: "
                           "add_counter() cannot add to it", c.span, "bad-counter",
                           hint=f"write set_counter({decl.name}, ..., value)")
        elif c.name == "set_counter" and decl.holds_span is not None and len(
                c.args) > len(decl.key_types) + 1 and not ty.fits(
                args[-1], decl.holds) and not ty.fits(args[-1], ty.NONE):
            self.ctx.error(f"counter {decl.name!r} holds {ty.show(decl.holds)}: the value set "
                           f"is {ty.show(args[-1])}", c.args[-1].span, "wrong-type",
                           hint=f"set it to {ty.shown_wanted(decl.holds)} (or none)")
        wanted = decl.key_types
        amount = COUNTER_BUILTINS[c.name]
        keys = c.args[1:len(c.args) - amount]
        if len(keys) != len(wanted):
            shown = ", ".join(wanted) if wanted else "battle"
            self.ctx.error(
                f"counter {decl.name!r} is kept per {shown}: {c.name}() gives it "
                f"{len(keys)} key(s), it takes {len(wanted)}", c.span, "wrong-arity",
                hint=f"write {c.name}(" + ", ".join([decl.name, *wanted]
                                                     + ["amount"] * amount) + ")")
            return decl.holds
        for i, (a, t, want) in enumerate(zip(keys, args[1:], wanted)):
            if not ty.fits(t, want):
                self.ctx.error(f"key {i + 1} of counter {decl.name!r} must be "
                               f"{ty.shown_wanted(want)}, got {ty.show(t)}", a.span, "wrong-type",
                               hint=f"it is kept per {', '.join(wanted)}")
        return decl.holds

    def counter_values_argument(self, a: ast.Expr) -> str | None:
        """``counter_values(in_play)``: the type of a counter's values (None: not known)."""
        decl = self.ctx.decls.get(a.name) if isinstance(a, ast.Name) else None
        return decl.holds if isinstance(decl, ast.CounterDecl) else None

    def arguments(self, c: ast.Call, params: tuple[ast.Param, ...], what: str) -> bool:
        """Check the number and names of a call's arguments; whether they fit."""
        names = [p.name for p in params]
        required = [p.name for p in params if p.default is None]
        given = set(names[: len(c.args)])
        takes = f"it takes ({', '.join(names)})"
        if len(c.args) > len(params):
            self.ctx.error(f"{what} takes {len(params)} argument(s), got "
                           f"{len(c.args) + len(c.kwargs)}",
                           c.span, "wrong-arity", hint=takes)
            return False
        fit = True
        for key, value in c.kwargs:
            if key not in names:
                self.ctx.error(f"{what} has no parameter {key!r}", value.span, "unknown-param",
                               hint=did_you_mean(key, names) or takes)
                fit = False
            elif key in given:
                self.ctx.error(f"{what}: {key!r} is given twice", value.span, "duplicate-argument")
                fit = False
            given.add(key)
        missing = [n for n in required if n not in given]
        if missing:
            self.ctx.error(f"{what} needs {', '.join(repr(m) for m in missing)}", c.span,
                           "wrong-arity", hint=takes)
        return fit

    def argument_types(self, c: ast.Call, args: list[str], kwargs: dict[str, str],
                       params: tuple[ast.Param, ...], name: str) -> None:
        for i, (p, a, t) in enumerate(zip(params, c.args, args)):
            self.argument_type(a, t, p.type, f"argument {i + 1}", name, params)
        by_name = {p.name: p for p in params}
        for key, value in c.kwargs:
            self.argument_type(value, kwargs[key], by_name[key].type, f"{key!r}", name, params)

    def argument_type(self, e: ast.Expr, t: str, wanted: str, which: str, callee: str,
                      signature: Builtin | tuple[ast.Param, ...]) -> None:
        if not ty.fits(t, wanted):
            self.ctx.error(f"{which} of {callee} must be {ty.shown_wanted(wanted)}, got "
                           f"{ty.show(t)}",
                           e.span, "wrong-type", hint=_takes(callee, signature))

    def expr(self, e: ast.Expr | None, scope: Scope) -> str:
        """Check ``e``; its type (:mod:`rules_run.lang.types`)."""
        if e is None:
            return ty.ANY
        return _EXPRESSIONS[type(e)](self, e, scope)

    def _literal(self, e: ast.Literal, scope: Scope) -> str:
        if e.kind == "text" and e.value in self.ctx.decls:
            self.ctx.use(str(e.value))  # a declaration named by text works as its name does
        return _LITERAL_TYPES.get(e.kind, ty.ANY)

    def _name(self, e: ast.Name, scope: Scope) -> str:
        found = scope.find(e.name)
        if found is None:
            if e.name in self.ctx.characteristics:
                self.ctx.error(f"undefined name {e.name!r}: {e.name!r} is a characteristic, "
                               "which belongs to a unit or a model", e.span, "undefined-name",
                               hint=f"write <unit>.{e.name}")
            else:
                self.ctx.error(f"undefined name {e.name!r}", e.span, "undefined-name",
                               hint=did_you_mean(e.name, scope.all()))
            return ty.ANY
        if found is self.ctx.globals:
            self.ctx.use(e.name)
        return found.names[e.name]

    def _dicelit(self, e: ast.DiceLit, scope: Scope) -> str:
        self.dice(e)
        if e.die_name is not None:
            self.ctx.use(e.die_name)
        return "int"

    def _binop(self, e: ast.BinOp, scope: Scope) -> str:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        t, problem = ty.binop(e.op, left, right)
        if problem is not None:
            self.ctx.error(problem, e.span, "bad-operands", hint=operand_hint(left, right))
        return t

    def _compare(self, e: ast.Compare, scope: Scope) -> str:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op not in ("==", "!=") and not ty.comparable(left, right):
            self.ctx.error(f"cannot compare {ty.show(left)} with {ty.show(right)}", e.span,
                           "bad-operands", hint=operand_hint(left, right))
        return "bool"

    def _boolop(self, e: ast.BoolOp, scope: Scope) -> str:
        for o in e.operands:
            self.expr(o, scope)
        return "bool"

    def _not(self, e: ast.Not, scope: Scope) -> str:
        self.expr(e.operand, scope)
        return "bool"

    def _neg(self, e: ast.Neg, scope: Scope) -> str:
        t = self.expr(e.operand, scope)
        if ty.is_known(t) and t not in ty.NUMBERS:
            self.ctx.error(f"cannot negate {ty.show(t)}", e.span, "bad-operands")
            return ty.ANY
        return "int" if t == "bool" else t

    def _condexpr(self, e: ast.CondExpr, scope: Scope) -> str:
        self.expr(e.condition, scope)
        return ty.join(self.expr(e.then, scope), self.expr(e.otherwise, scope))

    def _has(self, e: ast.Has, scope: Scope) -> str:
        self.bearer(e.subject, scope, f'\'has "{e.rule}"\'')
        if e.rule not in self.ctx.rules and self.ctx.kind_of(e.rule) != "keyword":
            self.ctx.effects.rule_ref(e.rule, e.span)
        return "bool"

    def _isstatus(self, e: ast.IsStatus, scope: Scope) -> str:
        self.bearer(e.subject, scope, f"'is {'not ' if e.negated else ''}{e.status}'")
        if self.ctx.kind_of(e.status) != "status":
            self.ctx.error(f"unknown status {e.status!r}", e.span, "unknown-status",
                           hint=did_you_mean(e.status, self.ctx.names_of("status")))
        self.ctx.use(e.status)
        return "bool"

    def _member(self, e: ast.Member, scope: Scope) -> str:
        self.expr(e.item, scope)
        t = self.expr(e.collection, scope)
        if ty.is_known(t) and not (t.startswith("list") or t in ty.TEXTS):
            self.ctx.error(f"'in' looks in a list, got {ty.show(t)}", e.collection.span,
                           "wrong-type")
        return "bool"

    def _listlit(self, e: ast.ListLit, scope: Scope) -> str:
        item = ty.NONE
        for i in e.items:
            item = ty.join(item, self.expr(i, scope))
        return ty.list_of(item)

    def _comprehension(self, e: ast.Comprehension, scope: Scope) -> str:
        inner = scope.child({e.var: self.ctx.stmts.items(e.iterable, scope, "'for each'")})
        item = self.expr(e.item, inner)
        if e.where is not None:
            self.expr(e.where, inner)
        if e.order is not None:
            self.expr(e.order, inner)
        return ty.list_of(item)

    def bearer(self, e: ast.Expr, scope: Scope, what: str) -> None:
        """Check ``e``, which must carry rules and statuses (a unit, a weapon, a part of a
        unit's models or a group of them)."""
        t = self.expr(e, scope)
        if not ty.fits(t, "unit|weapon|part|group"):
            self.ctx.error(f"{what} asks a unit or a weapon, got {ty.show(t)}", e.span,
                           "wrong-type")

    def _attribute(self, e: ast.Attribute, scope: Scope) -> str:
        t = self.expr(e.target, scope)
        if t == "step":
            # an earlier step's result, as a chain keeps it: its marks and whether it passed
            if e.name in self.ctx.marks or e.name == "passed":
                return "bool"
            self.ctx.error(f"{e.name!r} is read from an earlier step's result, which gives its "
                           "marks and 'passed'", e.span, "bad-attribute",
                           hint=did_you_mean(e.name, self.ctx.marks | {"passed"}))
            return ty.ANY
        record = self.ctx.decls.get(ty.record_name(t) or "")
        if isinstance(record, ast.RecordDecl):
            fields = {p.name: p for p in record.params}
            if e.name in fields:
                return ty.declared(fields[e.name].type)
            self.ctx.error(f"record {record.name!r} has no field {e.name!r}", e.span,
                           "unknown-field", hint=did_you_mean(e.name, list(fields))
                           or f"its fields: {', '.join(fields)}")
            return ty.ANY
        if not ty.is_known(t) and e.name in self.record_fields():
            return ty.ANY   # a record's field, read from a value of no known type
        char = self.ctx.characteristics.get(e.name)
        if char is not None:
            owner, value = "unit|weapon|part|group", ty.declared(char.type)
        elif e.name in PROPERTY_TYPES:
            owner, value = PROPERTY_TYPES[e.name]
        elif e.name in self.ctx.tallies and (e.name not in self.ctx.marks or t == "int"):
            owner, value = "int", "int"   # what fight() gives: the damage, with its tallies
        elif e.name in self.ctx.marks:
            owner, value = "result", "bool"
        else:
            self.ctx.error(
                f"unknown characteristic or property {e.name!r}", e.span,
                "unknown-characteristic",
                hint=did_you_mean(e.name, set(self.ctx.characteristics) | set(PROPERTY_TYPES)
                                  | self.ctx.marks | self.ctx.tallies
                                  | (set() if ty.is_known(t) else self.record_fields())),
            )
            return ty.ANY
        if not ty.fits(t, owner):
            self.ctx.error(f"{e.name!r} is read from {ty.article(ty.show(t))}, not "
                           f"{ty.shown_wanted(owner)}", e.span, "bad-attribute",
                           hint=f"read it from each item: [x.{e.name} for each x in ...]"
                           if t.startswith("list") else None)
        return value

    def record_fields(self) -> set[str]:
        """The field names of every declared record."""
        return set(self.ctx.record_fields)

    def _lookup(self, e: ast.Lookup, scope: Scope) -> str:
        keys = [self.expr(k, scope) for k in e.keys]
        if isinstance(e.target, ast.Name) and not scope.has(e.target.name):
            self.expr(e.target, scope)
            return ty.ANY
        if isinstance(e.target, ast.Name) and scope.find(e.target.name) is self.ctx.globals:
            self.ctx.use(e.target.name)
            table = self.ctx.decls.get(e.target.name)
            if isinstance(table, ast.TableDecl):
                if len(e.keys) != len(table.keys):
                    self.ctx.error(
                        f"table {table.name!r} has {len(table.keys)} key(s) "
                        f"({', '.join(table.keys)}), the lookup gives {len(e.keys)}",
                        e.span, "wrong-arity",
                        hint=f"write {table.name}[{', '.join(table.keys)}]",
                    )
                return ty.ANY
            if table is not None:
                self.ctx.error(f"{e.target.name!r} is {article(table.kind)}, not a table", e.span,
                               "not-a-table", hint=did_you_mean(e.target.name,
                                                            self.ctx.names_of("table")))
                return ty.ANY
        t = self.expr(e.target, scope)
        if t.startswith("list"):
            if len(keys) != 1 or not ty.fits(keys[0], "int"):
                got = f"{len(keys)} keys" if len(keys) != 1 else ty.show(keys[0])
                self.ctx.error(f"an item of a list is looked up by one whole number, got {got}",
                               e.span, "wrong-type")
            return ty.item_of(t)
        if ty.is_known(t) and t != "table":
            self.ctx.error(f"only a table or a list can be looked up with [...], got {ty.show(t)}",
                           e.span, "wrong-type")
        return ty.ANY


_EXPRESSIONS: dict[type, Callable[[ExpressionChecker, Any, Scope], str]] = {
    ast.Literal: ExpressionChecker._literal,
    ast.Name: ExpressionChecker._name,
    ast.DiceLit: ExpressionChecker._dicelit,
    ast.Attribute: ExpressionChecker._attribute,
    ast.Lookup: ExpressionChecker._lookup,
    ast.Call: ExpressionChecker.call,
    ast.BinOp: ExpressionChecker._binop,
    ast.Compare: ExpressionChecker._compare,
    ast.BoolOp: ExpressionChecker._boolop,
    ast.Not: ExpressionChecker._not,
    ast.Neg: ExpressionChecker._neg,
    ast.CondExpr: ExpressionChecker._condexpr,
    ast.Has: ExpressionChecker._has,
    ast.IsStatus: ExpressionChecker._isstatus,
    ast.Member: ExpressionChecker._member,
    ast.ListLit: ExpressionChecker._listlit,
    ast.Comprehension: ExpressionChecker._comprehension,
}
"""The check of each kind of expression node."""

_LITERAL_TYPES = {"int": "int", "number": "number", "text": "text", "need": "int",
                  "bool": "bool", "none": ty.NONE}


def operand_hint(*operands: str) -> str | None:
    """What to write instead, when an operand is a test's result."""
    if "result" in operands:
        return "a test's result is not a number: read its .value (or .passed, .natural)"
    return None


def _takes(name: str, signature: Builtin | tuple[ast.Param, ...]) -> str:
    """``strike_order takes (u: unit, n: int)``, ``apply() takes (status, unit or weapon,
    text)``."""
    if isinstance(signature, Builtin):
        return (f"{name}() takes (" + ", ".join(ty.shown_type(p) for p in signature.params)
                + ("..." if signature.variadic else "") + ")")
    return f"{name} takes ({', '.join(f'{p.name}: {p.type}' for p in signature)})"


