"""Compile rule expressions and statement blocks to Python source.

Each expression, and each block of statements (an action's body, a trigger's body, a part
of the battle), becomes one generated Python function ``f(env, vars)`` with the same
contract as before: ``env`` is the :class:`~rules_run.runtime.env.Env` of one evaluation,
``vars`` the dict of local names. An action's or phase's body is also a function
``p(env, a, b, ...)`` taking its parameters in order (:meth:`CodeGen.action`): what a call
of an action in the rules runs. Inside a function an expression is inline Python
(attribute reads, comparisons, ``if``/``for`` statements), so running a rule costs about one
Python call per rule call instead of one per node of its syntax tree.

What the rules mean is unchanged: ``none`` propagates through arithmetic and makes ordered
comparisons false; ``and``/``or`` give true or false; ``/`` rounds up; each block counts its
statements against the runtime's step cap; errors are located diagnostics, never
tracebacks: a name with no value is reported at its first use in the function, a value
that cannot be computed (a text compared with a number) at the statement computing it.

A name from the rules never becomes a Python name as it is: in an action's or phase's body
a local (a parameter too) is the Python variable ``_l_<name>``, elsewhere ``vars['name']``
(a rule effect's scope, a trigger's body, the body of an ``activate`` and the action
holding it: a body compiled as a function of its own shares its action's locals, see
:data:`_OWN_BODIES`); names passed by keyword go in a dict (``**{'lambda': ...}``), a
declaration is called as ``_call_<name>`` (an action with its arguments by position, computed
in the order written; a roll, test, sequence or phase with a dict); so any name the grammar
accepts compiles, ``lambda`` and ``class`` too. A new statement reads and sets a local
through :meth:`_Function.var`, and the battle's state through :meth:`_Function.state`
(``_st``, read once when the function starts).

Every statement is written as source, ``log``, ``stop``, ``activate`` and setting a
characteristic too: this is the one producer of the rules' code (rolls, tests and sequences
are :mod:`rules_run.runtime.rolls` and :mod:`rules_run.runtime.sequences` running such
functions). The few operations that need more than an expression (arithmetic on values that
are not whole numbers, table lookups, ``ordered by``) are functions of
:mod:`rules_run.runtime.operators` the code calls.

A runtime specialised to one battle (:mod:`rules_run.runtime.specialise`) has facts the
code is written against: a ``has`` they decide is ``False``, and an ``if`` branch, an
``if ... then ... else`` side or an ``and``/``or`` operand they decide is left out
(:meth:`CodeGen.decided`); without facts the code is the same for every battle.

The generated source is kept on the function (``__rules_source__``) for debugging.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import CodeType
from typing import TYPE_CHECKING, Any

from rules_run import slotted
from rules_run.chance import DiceExpr
from rules_run.diagnostics import Span
from rules_run.lang import ast
from rules_run.lang.builtins import UNIT_PROPERTIES
from rules_run.runtime.actions import Return
from rules_run.runtime.builtins import LOCAL_BUILTINS, PURE_BUILTINS
from rules_run.runtime.dice import dice_of
from rules_run.runtime.entities import StatusWith
from rules_run.runtime.env import fail, held_event, show, tally_of
from rules_run.runtime.events import Log
from rules_run.runtime.operators import (
    binop_function,
    lookup_function,
    ordered_function,
    table_lookup_function,
)
from rules_run.runtime.records import Record, field_of
from rules_run.runtime.specialise import carries, granted_names
from rules_run.runtime.types import Builtins

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["CodeGen"]

_UNKNOWN = object()
"""What :meth:`CodeGen._fixed` gives for a value known only when the code runs."""

_PYTHON_LOCAL = re.compile(r"'_l_(\w+)'")
"""A local held in a Python variable, as Python's NameError names it."""

_SPECIAL_NAMES = {
    "nobody": "None",
    "phase_name": "(env.state.phase if env.state is not None else None)",
}
"""Names the engine gives a value (when no local or declaration has them)."""

_STATE_NAMES = {"active_side": "active_side", "round_number": "round"}
"""Names the battle's state gives a value: name -> the state's attribute (outside a
battle, such as in an odds calculation, reading one is a located error)."""

class _Function:
    """One generated function being written: its lines, constants and temporaries."""

    def __init__(self, gen: CodeGen, top: ast.ActionDecl | ast.PhaseDecl | None,
                 params: tuple[str, ...] | None = None) -> None:
        self.gen = gen
        self.top = top
        """The action whose body this is (``return`` returns from it), or None."""
        self.params = params
        """The parameters, in order, of a function whose locals are Python variables
        (``_l_<name>``: an action's body, :meth:`CodeGen.action`); None: its locals are the
        dict ``vars``."""
        self.lines: list[str] = []
        self.temps = 0
        self.names: dict[str, Span] = {}
        """Local names read, with the place of their first read (for "has no value")."""
        self.bound: dict[str, str] = {}
        """Local names held in Python variables (a comprehension's variable)."""
        self.spans: list[Span | None] = []
        """For each line, the statement or expression it was written for."""
        self.at: Span | None = None
        """What the lines being written now are for."""
        self.reads_state = False
        """Whether the function reads the battle's state (``_st``, read once on entry)."""

    def const(self, value: Any) -> str:
        return self.gen.const(value)

    def state(self) -> str:
        """Python source for the battle's state (None outside a battle), read once when the
        function starts (it never changes within one evaluation)."""
        self.reads_state = True
        return "_st"

    def var(self, name: str) -> str:
        """Python source for the local ``name``, to read or to set."""
        return f"vars[{name!r}]" if self.params is None else f"_l_{name}"

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)
        self.spans.append(self.at)

    def build(self, label: str) -> Any:
        body, at = self.lines or ["    pass"], self.spans
        if self.reads_state:
            body, at = ["    _st = env.state", *body], [None, *at]
        # line 1 is the def, line 2 the try: a body line i (from 0) is line i + 3
        spans = self.const(dict(enumerate(at, start=3)))
        handlers = ["    except TypeError as _e:", f"        raise _type_error(_e, {spans}) from None"]
        if self.top is not None:
            # every frame of a call without end tries, until one has the room to report it
            handlers += ["    except RecursionError as _e:",
                         f"        raise _too_deep(_e, {self.top.name!r}, "
                         f"{self.const(self.top.span)}) from None"]
        if self.names:   # a local read before it has a value: no key, or no variable
            handlers = [f"    except {'KeyError' if self.params is None else 'NameError'} as _e:",
                        f"        _no_value(_e, {self.const(dict(self.names))})",
                        "        raise", *handlers]
        args = ", vars" if self.params is None else "".join(f", _l_{p}" for p in self.params)
        source = "\n".join([f"def _f(env{args}):", "    try:",
                            *("    " + line for line in body),
                            *handlers])
        namespace = self.gen.namespace
        try:
            code = self.gen.code(source, f"<rules {label}>")
        except (SyntaxError, RecursionError, MemoryError):
            # only nesting past what Python compiles gets here: the depth limit raised far
            raise fail(
                "this nests too deeply to be compiled (Python allows about 100 levels of "
                "brackets); split it with 'let', or lower --limit depth",
                next((s for s in self.spans if s is not None), None), "too-deep") from None
        exec(code, namespace)
        fn = namespace.pop("_f")
        fn.__rules_source__ = source
        return fn


class CodeGen:
    """Writes the Python functions of one compiled ruleset (a :class:`Runtime`)."""

    def __init__(self, runtime: Runtime, builtins: Builtins) -> None:
        """``builtins``: the battle's builtins, called straight from the generated code."""
        self.rt = runtime
        self.record_fields = {p.name for d in runtime.decls.values()
                              if isinstance(d, ast.RecordDecl) for p in d.params}
        """The field names of the ruleset's records (``c.total`` reads one)."""
        cap = runtime.STEP_CAP

        def step_cap():
            return fail(f"the battle ran more than {cap} steps; a loop in the rules never "
                        "ends", None, "step-cap")

        def no_value(err: KeyError | NameError, names: Mapping[str, Span]) -> None:
            if isinstance(err, NameError):   # a Python local _l_<name>: named in the message
                found = _PYTHON_LOCAL.search(str(err))
                name = found.group(1) if found else None
            else:
                name = err.args[0] if err.args else None
            if isinstance(name, str) and name in names:
                raise fail(f"{name!r} has no value here", names[name]) from None

        def type_error(err: TypeError, spans: Mapping[int, Span | None]) -> Exception:
            # the traceback starts in the generated function that caught it
            tb = err.__traceback__
            span = spans.get(tb.tb_lineno) if tb is not None else None
            return fail(f"cannot compute this: {err}", span, "bad-operands")

        def too_deep(err: RecursionError, name: str, span: Span) -> Exception:
            # the traceback starts at the action that caught it: the action is to blame
            # when it was called again below; else the error goes on up
            tb = err.__traceback__
            own = tb.tb_frame.f_code if tb is not None else None
            while tb is not None:
                tb = tb.tb_next
                if tb is not None and tb.tb_frame.f_code is own:
                    return fail(f"{name!r} was called within itself too deeply: rules "
                                "that call each other without end", span, "too-deep")
            return err

        def no_state(name: str, span: Span, call: bool = True):
            raise fail(f"{name}{'()' if call else ''} needs a battle; it cannot run in "
                       "an odds calculation", span)

        self.namespace: dict[str, Any] = {
            # the globals of every generated function: these helpers, the constants the
            # functions use (_k0, _k1, ...) and a direct call for each roll, test, sequence
            # and action (_call_<name>, filled in by link())
            "_step_cap": step_cap,
            "_no_value": no_value,
            "_type_error": type_error,
            "_no_state": no_state,
            "_too_deep": too_deep,
            "_Return": Return,
            "_DiceExpr": DiceExpr,
            "_characteristic": runtime.characteristic,
            "_tally": tally_of,
            "_fail": fail,
            "_show": show,
            "_Log": Log,
        }
        self._cache: dict[tuple, tuple[ast.Expr, Any]] = {}
        self.battle_builtins = builtins
        """The battle's builtins, called straight from the generated code."""
        self._constants = itertools.count()
        self.codes: dict[str, CodeType] = {}
        """Compiled code by label and source: the functions written so far, and those the
        disk cache had (:func:`rules_run.runtime.compiled.compile_ruleset` fills it)."""
        self.compiled = 0
        """How many of :attr:`codes` this code generator compiled itself."""
        self._grantable: frozenset[str] | None = None
        self.calls: set[str] = set()
        """The names the code calls (declarations and builtins), found as it is written."""
        self.activating: set[str] = set()
        """The actions whose body holds an ``activate`` (so a ``return`` in its body is
        carried out of it by ``_Return``), found as their code is written."""

    def code(self, source: str, label: str) -> CodeType:
        """``source`` compiled (or found in :attr:`codes`)."""
        key = f"{label}\0{source}"
        found = self.codes.get(key)
        if found is None:
            found = self.codes[key] = compile(source, label, "exec")
            self.compiled += 1
        return found

    def const(self, value: Any) -> str:
        """The name of a new constant in the generated functions' globals."""
        name = f"_k{next(self._constants)}"
        self.namespace[name] = value
        return name

    def link(self, calls: Mapping[str, Any]) -> None:
        """Give the generated functions their direct calls: ``name -> f(env, args)``."""
        for name, call in calls.items():
            self.namespace[f"_call_{name}"] = call

    def link_held(self, decls: Iterable[ast.StatusDecl]) -> None:
        """Give the generated functions each status held while a condition holds
        (``status NAME while C``) as ``_held_<name>(env, unit)``: ``C`` with ``bearer``
        that unit. Where events are kept, a read that finds it changed since the unit's
        last read logs the change (:func:`held_event`)."""
        for d in decls:
            assert d.condition is not None
            condition = self.expression(d.condition, {"bearer": "unit"})

            def held(env, unit, condition=condition, d=d):
                value = condition(env, {"bearer": unit})
                if env.events is not None:
                    held_event(env, unit, d, value)
                return value
            self.namespace[f"_held_{d.name}"] = held

    # ------------------------------------------------------------ entry points
    def expression(self, e: ast.Expr, types: Mapping[str, str]) -> Any:
        """A function ``f(env, vars)`` giving the value of ``e`` (made once per expression
        and set of local types)."""
        key = (id(e), tuple(sorted(types.items())))
        found = self._cache.get(key)
        if found is None or found[0] is not e:
            fn = _Function(self, top=None)
            fn.at = e.span
            fn.emit(1, f"return {self.ex(fn, e, types)}")
            found = self._cache[key] = (e, fn.build(type(e).__name__))
        return found[1]

    def block(self, body: tuple[ast.Stmt, ...], types: Mapping[str, str], cite: str,
              top: ast.ActionDecl | ast.PhaseDecl | None = None) -> Any:
        """A function ``f(env, vars)`` running the statements. In an action's body
        (``top``, the action) ``return`` gives the function's value, and a call without end
        is reported naming the action; elsewhere ``return`` raises ``_Return`` for the
        enclosing action to catch."""
        fn = _Function(self, top)
        self._block(fn, 1, body, types, cite)
        return fn.build(cite or "block")

    def action(self, decl: ast.ActionDecl | ast.PhaseDecl, types: Mapping[str, str],
               cite: str) -> tuple[Any, Any]:
        """An action's or phase's body as two functions, ``(f, p)``: ``f(env, vars)`` takes
        its arguments in a dict, ``p(env, a, b, ...)`` its parameters in order (what a call
        of an action in the rules runs). Its locals are Python variables (``_l_<name>``),
        and ``f`` hands ``p`` the arguments (one it lacks is reported at its first read);
        but where a statement runs a body of its own that shares them (:data:`_OWN_BODIES`),
        they are the dict ``vars`` (as in :meth:`block`) and ``p`` hands ``f`` a dict."""
        params = tuple(p.name for p in decl.params)
        if any(isinstance(s, _OWN_BODIES) for s in _statements(decl.body)):
            by_name = self.block(decl.body, types, cite, top=decl)
            return by_name, self.by_position(params, by_name)
        fn = _Function(self, decl, params)
        self._block(fn, 1, decl.body, types, cite)
        by_position = fn.build(cite or "block")
        lines = [f"        _a{i} = vars{f'[{p!r}]' if p in fn.names else f'.get({p!r})'}"
                 for i, p in enumerate(params)]
        if lines:   # an argument the caller did not give is reported where it is read
            lines = ["    try:", *lines, "    except KeyError as _e:",
                     f"        _no_value(_e, {self.const(dict(fn.names))})", "        raise"]
        call = f"{self.const(by_position)}(env{''.join(f', _a{i}' for i in range(len(params)))})"
        return (self._adapter("by name", ", vars", [*lines, f"    return {call}"], by_position),
                by_position)

    def by_position(self, params: tuple[str, ...], by_name: Any) -> Any:
        """``p(env, a, b, ...)``: ``by_name(env, vars)`` called with the arguments in a dict,
        by the parameters' names."""
        items = ", ".join(f"{p!r}: _l_{p}" for p in params)
        return self._adapter("by position", "".join(f", _l_{p}" for p in params),
                             [f"    return {self.const(by_name)}(env, {{{items}}})"], by_name)

    def _adapter(self, label: str, args: str, body: list[str], target: Any) -> Any:
        """A generated function ``_f(env<args>)`` with these lines, which only hands its
        arguments on to ``target``: its ``__rules_source__`` shows both."""
        source = "\n".join([f"def _f(env{args}):", *body])
        exec(self.code(source, f"<rules {label}>"), self.namespace)
        fn = self.namespace.pop("_f")
        fn.__rules_source__ = "\n".join([source, getattr(target, "__rules_source__", "")])
        return fn

    # ------------------------------------------------------------ statements
    def _block(self, fn: _Function, depth: int, body, types, cite: str) -> None:
        start = len(fn.lines)
        for s in body:
            self._stmt(fn, depth, s, types, cite)
        if len(fn.lines) == start:   # no statements, or only branches the facts leave out
            fn.emit(depth, "pass")

    def _stmt(self, fn: _Function, depth: int, s: ast.Stmt, types, cite: str) -> None:
        fn.at = s.span
        x = self.ex
        if isinstance(s, ast.Let):
            fn.emit(depth, f"{fn.var(s.name)} = {x(fn, s.value, types)}")
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            name = s.target.name
            if s.op == "=":
                fn.emit(depth, f"{fn.var(name)} = {x(fn, s.value, types)}")
            else:
                t = fn.temp()
                fn.names.setdefault(name, s.target.span)
                fn.emit(depth, f"{t} = {x(fn, s.value, types)}")
                fn.emit(depth, f"{fn.var(name)} = {fn.var(name)} {s.op[0]} {t}")
        elif isinstance(s, ast.CallStmt):
            fn.emit(depth, x(fn, s.call, types))
        elif isinstance(s, ast.Return):
            value = x(fn, s.value, types) if s.value is not None else "None"
            fn.emit(depth, f"return {value}" if fn.top is not None else f"raise _Return({value})")
        elif isinstance(s, ast.Pass):
            fn.emit(depth, "pass")
        elif isinstance(s, ast.Log):
            self._log(fn, depth, s, types, cite)
        elif isinstance(s, ast.If):
            self._if(fn, depth, s, types, cite)
        elif isinstance(s, ast.ForEach):
            self._for_each(fn, depth, s, types, cite)
        elif isinstance(s, ast.While):
            # the only statement that can run without end (a "for each" walks a list made
            # before it starts; calls without end meet Python's depth limit): its turns are
            # counted against the cap
            fn.emit(depth, f"while {x(fn, s.condition, types)}:")
            fn.emit(depth + 1, "env.steps += 1")
            fn.emit(depth + 1, f"if env.steps > {self.rt.STEP_CAP}: raise _step_cap()")
            self._block(fn, depth + 1, s.body, types, cite)
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Attribute):
            self._set_characteristic(fn, depth, s, types)
        elif isinstance(s, ast.Stop):
            fn.emit(depth, f"raise _fail({s.message!r}, {fn.const(s.span)}, 'stopped')")
        elif isinstance(s, ast.Activate):
            self._activate(fn, depth, s, types, cite)
        elif isinstance(s, ast.During):
            self._during(fn, depth, s, types, cite)
        else:
            raise AssertionError(f"no code for {type(s).__name__}")  # pragma: no cover

    def _if(self, fn: _Function, depth: int, s: ast.If, types, cite: str) -> None:
        """``if``/``elif``/``else``; a branch whose condition the battle's facts decide
        false is left out, and one they decide true is the last (:meth:`decided`)."""
        written = 0
        for cond, body in s.branches:
            known = self.decided(fn, cond, types)
            if known is False:
                continue
            if known is True:
                if written:
                    fn.emit(depth, "else:")
                self._block(fn, depth + bool(written), body, types, cite)
                return
            fn.at = cond.span   # after the statements of the branch before
            fn.emit(depth, f"{'elif' if written else 'if'} {self.ex(fn, cond, types)}:")
            self._block(fn, depth + 1, body, types, cite)
            written += 1
        if s.otherwise:
            if written:
                fn.emit(depth, "else:")
            self._block(fn, depth + bool(written), s.otherwise, types, cite)

    def _line(self, fn: _Function, depth: int, e: ast.Expr, types) -> str:
        """``e`` computed on a line of its own, located at ``e`` (as a function of its own
        would report it); the temporary holding its value."""
        at, fn.at = fn.at, e.span
        t = fn.temp()
        fn.emit(depth, f"{t} = {self.ex(fn, e, types)}")
        fn.at = at
        return t

    def _log(self, fn: _Function, depth: int, s: ast.Log, types, cite: str) -> None:
        """``log "message" with values``: an event, written only when events are kept."""
        fn.emit(depth, "if env.events is not None:")
        values = [self._line(fn, depth + 1, a, types) for a in s.args]
        fn.emit(depth + 1, f"env.emit(_Log, message={s.message!r}, "
                           f"values=[{''.join(f'_show({v}), ' for v in values)}], "
                           f"at={s.span.text()!r}, cite={cite!r})")

    def _set_characteristic(self, fn: _Function, depth: int, s: ast.Assign, types) -> None:
        """``x.Name = v`` (or ``+=``, ``-=`` on its value now): the bearer's profile."""
        assert isinstance(s.target, ast.Attribute)
        thing = self._line(fn, depth, s.target.target, types)
        value = self._line(fn, depth, s.value, types)
        attr = s.target.name
        if s.op != "=":
            fn.emit(depth, f"{value} = _characteristic(env, {thing}, {attr!r}) "
                           f"{'+' if s.op == '+=' else '-'} {value}")
        fn.emit(depth, f"{thing}.profile[{attr!r}] = {value}")

    def _activate(self, fn: _Function, depth: int, s: ast.Activate, types, cite: str) -> None:
        """``activate``: the battle runs the body for its units one at a time."""
        if fn.top is not None:   # a return in its body leaves the action by _Return
            self.activating.add(fn.top.name)
        fn.emit(depth, "if env.state is None: "
                       f"raise _fail(\"'activate' needs a battle\", {fn.const(s.span)})")
        units, start = self._line(fn, depth, s.units, types), self._line(fn, depth, s.start, types)
        body = fn.const(self.block(s.body, types, cite))
        may = "None"
        if s.where is not None:
            where = fn.const(self.expression(s.where, dict(types, **{s.var: "unit"})))
            may = f"lambda _u: bool({where}(env, dict(vars, **{{{s.var!r}: _u}})))"
        fn.emit(depth, f"env.state.activate(env, vars, {s.var!r}, {units}, {s.order!r}, "
                       f"{start}, {s.picker!r}, {body}, {may})")

    def _during(self, fn: _Function, depth: int, s: ast.During, types, cite: str) -> None:
        """``during STATUS on THING [if COND], ...``: each status applied (as ``apply`` does)
        to a thing that lacks it, when its condition holds, as the block starts; those applied
        cleared in the reverse order however the block ends (``return`` and errors too)."""
        given, done = fn.temp(), fn.temp()
        span = fn.const(s.span)
        missing = f"_no_state(\"'during'\", {span}, False)"
        fn.emit(depth, f"{given} = []")
        fn.emit(depth, "try:")
        for item in s.items:
            fn.at = item.span
            status = self._line(fn, depth + 1, item.status, types)
            thing = self._line(fn, depth + 1, item.thing, types)
            test = f"str({status}) not in {thing}.statuses"
            if item.condition is not None:
                test = f"({self.ex(fn, item.condition, types)}) and {test}"
            fn.emit(depth + 1, f"if {test}:")
            fn.emit(depth + 2, self._battle_call(fn, "apply", [status, thing],
                                                 fn.const(item.span), missing))
            fn.emit(depth + 2, f"{given}.append(({status}, {thing}))")
        self._block(fn, depth + 1, s.body, types, cite)
        fn.at = s.span
        fn.emit(depth, "finally:")
        fn.emit(depth + 1, f"for {done} in reversed({given}):")
        fn.emit(depth + 2, self._battle_call(fn, "clear", [f"*{done}"], span, missing))

    def _for_each(self, fn: _Function, depth: int, s: ast.ForEach, types, cite: str) -> None:
        items, item, var = fn.temp(), fn.temp(), fn.var(s.var)
        fn.emit(depth, f"{items} = list({self.ex(fn, s.iterable, types)})")
        if s.where is not None:
            where = s.where
            kept = self._each_item(fn, depth, items, item, var, lambda kept: (
                f"if {self.ex(fn, where, types)}: {kept}.append({item})"))
            fn.emit(depth, f"{items} = {kept}")
        if s.order is not None:
            order = s.order
            keyed = self._each_item(fn, depth, items, item, var, lambda keyed: (
                f"{keyed}.append(({self.ex(fn, order, types)}, len({keyed}), {item}))"))
            fn.emit(depth, f"{items} = {fn.const(ordered_function(order))}({keyed})")
        fn.emit(depth, f"for {item} in {items}:")
        fn.emit(depth + 1, f"{var} = {item}")
        self._loop_while(fn, depth + 1, s, types)
        self._block(fn, depth + 1, s.body, types, cite)

    def _loop_while(self, fn: _Function, depth: int, s: ast.ForEach, types) -> None:
        """A loop's ``while C``: read before each item, once its name is bound; the loop ends
        at the first item for which it does not hold."""
        if s.keep_going is not None:
            fn.emit(depth, f"if not ({self.ex(fn, s.keep_going, types)}): break")

    @staticmethod
    def _each_item(fn: _Function, depth: int, items: str, item: str, var: str,
                   line: Callable[[str], str]) -> str:
        """A new list built by a loop over ``items`` with the loop's name bound to each:
        ``line(list)`` is the loop's body (written after the loop's head, so temporaries
        keep their order). The new list's temporary."""
        out = fn.temp()
        fn.emit(depth, f"{out} = []")
        fn.emit(depth, f"for {item} in {items}:")
        fn.emit(depth + 1, f"{var} = {item}")
        fn.emit(depth + 1, line(out))
        return out

    # ------------------------------------------------------------ expressions
    def ex(self, fn: _Function, e: ast.Expr, types: Mapping[str, str]) -> str:
        """Python source for ``e``, inside ``fn``."""
        return getattr(self, f"_x_{type(e).__name__}")(fn, e, types)

    def _x_Literal(self, fn, e: ast.Literal, types) -> str:
        v = e.value
        if v is None or type(v) in (bool, int, str):
            return repr(v)
        return fn.const(v)

    def _x_Name(self, fn, e: ast.Name, types) -> str:
        name = e.name
        if name in fn.bound:
            return fn.bound[name]
        if types.get(name) == "dice":
            fn.names.setdefault(name, e.span)
            return _rolled(fn, fn.var(name), name)
        decl = self.rt.decls.get(name)
        if name in types or decl is None:
            if name in _SPECIAL_NAMES and name not in types:
                return _SPECIAL_NAMES[name]
            if name in _STATE_NAMES and name not in types:
                span = fn.const(e.span)
                state = fn.state()
                return (f"({state} if {state} is not None else "
                        f"_no_state({name!r}, {span}, False)).{_STATE_NAMES[name]}")
            fn.names.setdefault(name, e.span)
            return fn.var(name)
        if isinstance(decl, ast.OptionDecl):
            return f"env.options[{name!r}]"
        if isinstance(decl, ast.TableDecl):
            return fn.const(self.rt.tables[name])
        return repr(name)

    def _x_DiceLit(self, fn, e: ast.DiceLit, types) -> str:
        dice = fn.const(dice_of(e, self.rt.dice_decls))
        return f"{dice}.roll(env.chance, {e.text()!r})"

    def _x_Attribute(self, fn, e: ast.Attribute, types) -> str:
        target = self.ex(fn, e.target, types)
        name = e.name
        t = fn.temp()
        decl = self.rt.characteristics.get(name)
        if decl is not None:
            value = f"_characteristic(env, {t}, {name!r})"
            if decl.type == "dice":
                value = _rolled(fn, value, name)
            return f"(None if ({t} := {target}) is None else {value})"
        if name in UNIT_PROPERTIES:
            return f"getattr({target}, {name!r}, None)"
        if name in self.rt.tally_names:
            return f"_tally({target}, {name!r})"
        if name in self.record_fields:
            return f"{fn.const(field_of)}({target}, {name!r})"
        return f"({name!r} in getattr({target}, 'marks', ()))"

    def _x_Lookup(self, fn, e: ast.Lookup, types) -> str:
        table = self._known_table(fn, e.target, types)
        if table is not None:
            cell = self._fixed(fn, e, types)
            if isinstance(cell, DiceExpr):   # a dice cell rolls each time it is read
                return f"{fn.const(cell)}.roll(env.chance, {cell.text()!r})"
            if cell is not _UNKNOWN:   # a cell with constant keys is read once, here
                return self._value(fn, cell)
            lookup = fn.const(table_lookup_function(e, table))
            read = f"{lookup}(({''.join(f'{self.ex(fn, k, types)}, ' for k in e.keys)}))"
            if not table.dice_cells:
                return read
            t = fn.temp()
            return (f"({t}.roll(env.chance, {t}.text()) "
                    f"if isinstance(({t} := {read}), _DiceExpr) else {t})")
        lookup = fn.const(lookup_function(e))
        keys = "".join(f"{self.ex(fn, k, types)}, " for k in e.keys)
        return f"{lookup}({self.ex(fn, e.target, types)}, ({keys}))"

    def _known_table(self, fn, e: ast.Expr, types) -> Any:
        """The table ``e`` names when it is a table's declared name (not a local), else
        None."""
        if not isinstance(e, ast.Name) or e.name in fn.bound or e.name in types:
            return None
        if isinstance(self.rt.decls.get(e.name), ast.TableDecl):
            return self.rt.tables[e.name]
        return None

    def _fixed(self, fn, e: ast.Expr, types) -> Any:
        """The value of ``e`` when the code is written, if it has one: a number or text
        written in the rules, or a table's cell at keys so written; else ``_UNKNOWN`` (a
        cell the table does not have is reported when the lookup runs)."""
        if isinstance(e, ast.Literal):
            return e.value if type(e.value) in (int, float, str) else _UNKNOWN
        if not isinstance(e, ast.Lookup):
            return _UNKNOWN
        table = self._known_table(fn, e.target, types)
        keys = tuple(k.value for k in e.keys if isinstance(k, ast.Literal)
                     and type(k.value) in (int, str))
        if table is None or len(keys) != len(e.keys):
            return _UNKNOWN
        try:
            return table.lookup(*keys)
        except KeyError:
            return _UNKNOWN

    @staticmethod
    def _value(fn, value: Any) -> str:
        """Python source giving ``value``, a value known when the code is written."""
        if value is None or type(value) in (bool, int, str):
            return repr(value)
        return fn.const(value)

    def _x_Call(self, fn, e: ast.Call, types) -> str:
        name = e.name
        self.calls.add(name)
        args = [self.ex(fn, a, types) for a in e.args]
        decl = self.rt.decls.get(name)
        if isinstance(decl, ast.RecordDecl):
            given = dict(zip([p.name for p in decl.params], args))
            given.update((k, self.ex(fn, a, types)) for k, a in e.kwargs)
            values = [given.get(p.name) or (self.ex(fn, p.default, {}) if p.default is not None
                                            else "None") for p in decl.params]
            names = tuple(p.name for p in decl.params)
            return f"{fn.const(Record)}({name!r}, {names!r}, ({''.join(v + ', ' for v in values)}))"
        if isinstance(decl, (ast.RollDecl, ast.SequenceDecl, ast.ActionDecl, ast.PhaseDecl)):
            params = [p.name for p in decl.params]
            bound = set(params[:len(args)]) | {k for k, _ in e.kwargs}
            if isinstance(decl, ast.ActionDecl) and all(
                    p.name in bound or p.default is not None for p in decl.params):
                return self._positional(fn, e, decl, args, types)
            items = [f"{p!r}: {a}" for p, a in zip(params, args)]
            items += [f"{k!r}: {self.ex(fn, a, types)}" for k, a in e.kwargs]
            items += [f"{p.name!r}: {self.ex(fn, p.default, {})}" for p in decl.params
                      if p.default is not None and p.name not in bound]
            if isinstance(decl, ast.ActionDecl):   # one lacks a value: reported where read
                return f"{fn.const(self.rt.invoke)}({name!r}, env, {{{', '.join(items)}}})"
            return f"_call_{name}(env, {{{', '.join(items)}}})"
        if isinstance(decl, ast.StatusDecl):   # a status with the arguments it is applied with
            items = [f"{p.name!r}: {a}" for p, a in zip(decl.params, args)]
            items += [f"{k!r}: {self.ex(fn, a, types)}" for k, a in e.kwargs]
            return f"{fn.const(StatusWith)}({name!r}, {{{', '.join(items)}}})"
        pure = PURE_BUILTINS.get(name)
        if pure is not None:
            return f"{fn.const(pure)}({', '.join(args)})"
        local = LOCAL_BUILTINS.get(name)
        if local is not None:
            return f"{fn.const(local)}(env, {', '.join(args)})"
        span = fn.const(e.span)
        if e.kwargs and name in self.battle_builtins:
            # by a dict: a name the rules give may be a Python keyword (lambda)
            args.append("**{" + ", ".join(f"{k!r}: {self.ex(fn, a, types)}"
                                          for k, a in e.kwargs) + "}")
        return self._battle_call(fn, name, args, span, f"_no_state({name!r}, {span})")

    def _battle_call(self, fn: _Function, name: str, args: list[str], span: str,
                     missing: str) -> str:
        """The call of battle builtin ``name``: straight to the engine's method, else through
        the state, which reports it as not available in battles; ``missing``: what raises
        without a battle."""
        state = fn.state()
        state = f"({state} if {state} is not None else {missing})"
        method = self.battle_builtins.get(name)
        if method is None:
            return f"{state}.builtin(env, {name!r}, [{', '.join(args)}], {span})"
        return f"{fn.const(method)}({', '.join([state, 'env', span, *args])})"

    def _positional(self, fn, e: ast.Call, decl: ast.ActionDecl, args: list[str],
                    types) -> str:
        """A call of an action with its arguments by position (``_call_<name>(env, a, b)``),
        each parameter given or its default. The values are computed in the order written,
        then the defaults, as a dict of them would be: in place when only values nothing can
        change (:func:`_unchanging`) move past others, else first into temporaries."""
        params = [p.name for p in decl.params]
        bound = set(params[:len(args)]) | {k for k, _ in e.kwargs}
        # (the parameter's place, the source of its value, whether nothing can change it)
        values = [(i, a, _unchanging(x, types)) for i, (a, x) in enumerate(zip(args, e.args))]
        values += [(params.index(k), self.ex(fn, a, types), _unchanging(a, types))
                   for k, a in e.kwargs]
        values += [(i, self.ex(fn, p.default, {}), _unchanging(p.default, {}))
                   for i, p in enumerate(decl.params) if p.default is not None
                   and p.name not in bound]
        loud = [i for i, _, unchanging in values if not unchanging]
        if loud == sorted(loud):
            return f"_call_{e.name}(env{''.join(', ' + a for _, a, _ in sorted(values))})"
        held = {i: fn.temp() for i, _, _ in values}
        first = "".join(f"({held[i]} := {a}), " for i, a, _ in values)
        return f"({first}_call_{e.name}(env{''.join(', ' + held[i] for i in sorted(held))}))[-1]"

    def _x_BinOp(self, fn, e: ast.BinOp, types) -> str:
        op = fn.const(binop_function(e))
        left, right = self.ex(fn, e.left, types), self.ex(fn, e.right, types)
        if e.op not in ("+", "-", "*"):
            return f"{op}({left}, {right})"
        # two whole numbers add, subtract and multiply in place; anything else (none, a
        # list, an error to report) goes through the operator's function. Both sides are
        # evaluated either way (they may roll dice).
        # a whole number known when the code is written needs no test
        if type(self._fixed(fn, e.right, types)) is int:
            a = fn.temp()
            return f"({a} {e.op} {right} if type({a} := {left}) is int else {op}({a}, {right}))"
        if type(self._fixed(fn, e.left, types)) is int:
            b = fn.temp()
            return f"({left} {e.op} {b} if type({b} := {right}) is int else {op}({left}, {b}))"
        a, b = fn.temp(), fn.temp()
        return (f"({a} {e.op} {b} if (type({a} := {left}) is int) & (type({b} := {right}) "
                f"is int) else {op}({a}, {b}))")

    def _x_Compare(self, fn, e: ast.Compare, types) -> str:
        left, right = self.ex(fn, e.left, types), self.ex(fn, e.right, types)
        if e.op in ("==", "!="):
            return f"({left} {e.op} {right})"
        # a side known when the code is written to be a number or a text is never none
        if type(self._fixed(fn, e.right, types)) in (int, float, str):
            a = fn.temp()
            return f"((({a} := {left}) is not None) and {a} {e.op} {right})"
        if type(self._fixed(fn, e.left, types)) in (int, float, str):
            b = fn.temp()
            return f"((({b} := {right}) is not None) and {left} {e.op} {b})"
        a, b = fn.temp(), fn.temp()
        # both sides are evaluated (they may roll dice); none compares false
        return (f"((({a} := {left}) is not None) & (({b} := {right}) is not None) "
                f"and {a} {e.op} {b})")

    def _x_BoolOp(self, fn, e: ast.BoolOp, types) -> str:
        known = self.decided(fn, e, types)
        if known is not _UNKNOWN:
            return repr(known)
        # an operand the facts decide that cannot change the answer is left out: a false
        # one of an "or", a true one of an "and" (reading it does nothing)
        idle = e.op == "and"
        operands = [o for o in e.operands
                    if not (self.decided(fn, o, types) is idle and _quiet(o, types))]
        parts = f" {e.op} ".join(f"({self.ex(fn, o, types)})" for o in operands)
        return f"(True if ({parts}) else False)"

    def _x_Not(self, fn, e: ast.Not, types) -> str:
        known = self.decided(fn, e, types)
        if known is not _UNKNOWN:
            return repr(known)
        return f"(not {self.ex(fn, e.operand, types)})"

    def _x_Neg(self, fn, e: ast.Neg, types) -> str:
        t = fn.temp()
        return f"(None if ({t} := {self.ex(fn, e.operand, types)}) is None else -{t})"

    def _x_CondExpr(self, fn, e: ast.CondExpr, types) -> str:
        known = self.decided(fn, e.condition, types)
        if known is not _UNKNOWN:
            return self.ex(fn, e.then if known else e.otherwise, types)
        c, a, b = (self.ex(fn, x, types) for x in (e.condition, e.then, e.otherwise))
        return f"({a} if {c} else {b})"

    def _x_Has(self, fn, e: ast.Has, types) -> str:
        if self._never_carried(e.rule):   # nothing of the battle can carry it
            if _quiet(e.subject, types):
                return "False"
            return f"(({self.ex(fn, e.subject, types)}), False)[1]"
        t = fn.temp()
        if self.rt.live_granting and e.rule in self.grantable():
            # what it carries now: its live grants are read (a rule no grant gives is
            # carried only as its own: the plain test below)
            return (f"(({t} := {self.ex(fn, e.subject, types)}) is not None "
                    f"and {fn.const(self.rt.has_rule)}(env, {t}, {e.rule!r}))")
        return (f"(({t} := {self.ex(fn, e.subject, types)}) is not None "
                f"and {t}.has_rule({e.rule!r}))")

    # ------------------------------------------------------------ facts
    def grantable(self) -> frozenset[str]:
        """The names and texts of the rules some grant of the ruleset gives (whatever its
        condition), and the statuses' names: only those can be carried through a live
        grant (:func:`~rules_run.runtime.specialise.granted_names`, made once); specialised
        to a battle, those some grant of a rule the battle can carry gives."""
        if self._grantable is None:
            self._grantable = granted_names(self.rt, self.rt.facts)
        return self._grantable

    def _never_carried(self, rule: str) -> bool:
        """Whether the battle's facts say nothing of it can ever carry ``rule``."""
        facts = self.rt.facts
        return facts is not None and not carries(facts, rule)

    def decided(self, fn: _Function, e: ast.Expr, types) -> Any:
        """True or False when the battle's facts (:mod:`rules_run.runtime.specialise`)
        decide the condition ``e`` and leaving it out skips nothing the rules do (what it
        reads first is :func:`_quiet`); else ``_UNKNOWN``. Without facts, always
        ``_UNKNOWN``: the code is the same as ever."""
        if self.rt.facts is None:
            return _UNKNOWN
        if isinstance(e, ast.Has):
            return False if self._never_carried(e.rule) and _quiet(e.subject, types) else _UNKNOWN
        if isinstance(e, ast.Not):
            known = self.decided(fn, e.operand, types)
            return _UNKNOWN if known is _UNKNOWN else not known
        if isinstance(e, ast.BoolOp):
            # "and" is false at a false operand, "or" true at a true one, when what is
            # read before it does nothing; else decided when every operand is
            stop = e.op == "or"
            knowns = []
            for o in e.operands:
                known = self.decided(fn, o, types)
                if known is stop:
                    return stop
                if not _quiet(o, types):
                    return _UNKNOWN
                knowns.append(known)
            return _UNKNOWN if _UNKNOWN in knowns else not stop
        return _UNKNOWN

    def _x_IsStatus(self, fn, e: ast.IsStatus, types) -> str:
        t = fn.temp()
        held = f"{e.status!r} in {t}.statuses"
        decl = self.rt.decls.get(e.status)
        if isinstance(decl, ast.StatusDecl) and decl.condition is not None:
            # worked out from its condition in a battle; without one (an odds calculation's
            # synthetic inputs) it is as given, as an applied status is
            held = f"(_held_{e.status}(env, {t}) if {fn.state()} is not None else {held})"
        test = f"(({t} := {self.ex(fn, e.subject, types)}) is not None and {held})"
        return f"(not {test})" if e.negated else test

    def _x_Member(self, fn, e: ast.Member, types) -> str:
        return f"({self.ex(fn, e.item, types)} in {self.ex(fn, e.collection, types)})"

    def _x_Comprehension(self, fn, e: ast.Comprehension, types) -> str:
        iterable = self.ex(fn, e.iterable, types)
        var = fn.temp()
        outer = fn.bound.get(e.var)
        fn.bound[e.var] = var
        item = self.ex(fn, e.item, types)
        where = f" if {self.ex(fn, e.where, types)}" if e.where is not None else ""
        order = self.ex(fn, e.order, types) if e.order is not None else None
        if outer is None:
            del fn.bound[e.var]
        else:
            fn.bound[e.var] = outer
        if order is not None:
            # the items kept, keyed by their order and place, sorted; then the list built
            assert e.order is not None
            items, place = fn.temp(), fn.temp()
            ordered = fn.const(ordered_function(e.order))
            return (f"(({items} := {iterable}), ({items} := {ordered}([({order}, {place}, {var})"
                    f" for {place}, {var} in enumerate({items}){where}])), "
                    f"[{item} for {var} in {items}])[2]")
        if ":=" not in iterable:
            return f"[{item} for {var} in {iterable}{where}]"
        # Python allows no assignment expression in a comprehension's iterable
        items = fn.temp()
        return f"(({items} := {iterable}), [{item} for {var} in {items}{where}])[1]"

    def _x_ListLit(self, fn, e: ast.ListLit, types) -> str:
        return f"[{''.join(f'{self.ex(fn, i, types)}, ' for i in e.items)}]"


_OWN_BODIES: tuple[type[ast.Stmt], ...] = (ast.Activate,)
"""Statements whose body is a function of its own sharing the enclosing locals (the dict
``vars``): an action holding one keeps its locals in ``vars`` (:meth:`CodeGen.action`)."""


def _statements(body: tuple[ast.Stmt, ...]) -> Iterator[ast.Stmt]:
    """The statements of a body and, within them, of every body they hold."""
    for s in body:
        yield s
        for f in slotted.fields(type(s)):
            value = getattr(s, f.name)
            if isinstance(value, tuple):
                for item in value:   # a body, or an if's (condition, body) branches
                    if isinstance(item, ast.Stmt):
                        yield from _statements((item,))
                    elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], tuple):
                        yield from _statements(item[1])


def _quiet(e: ast.Expr, types: Mapping[str, str]) -> bool:
    """Whether computing ``e`` does nothing but read: a literal, a local name (not dice,
    which a read rolls), ``not``/``and``/``or``, ``has`` and ``is`` of such, so code the
    battle's facts decide may leave it out."""
    if isinstance(e, ast.Literal):
        return True
    if isinstance(e, ast.Name):   # a local, an option, a declaration's name
        return types.get(e.name) != "dice"
    if isinstance(e, (ast.Has, ast.IsStatus)):
        return _quiet(e.subject, types)
    if isinstance(e, ast.Not):
        return _quiet(e.operand, types)
    if isinstance(e, ast.BoolOp):
        return all(_quiet(o, types) for o in e.operands)
    return False


def _unchanging(e: ast.Expr, types: Mapping[str, str]) -> bool:
    """Whether ``e`` has the same value wherever it is computed within one expression, and
    computing it does nothing: a literal, or a local, an option or a table by its name (a
    local changes only between statements; not dice, which a read rolls, nor a name the
    battle's state gives)."""
    if isinstance(e, ast.Literal):
        return True
    return (isinstance(e, ast.Name) and types.get(e.name) != "dice"
            and e.name not in _STATE_NAMES and e.name != "phase_name")


def _rolled(fn: _Function, value: str, tag: str) -> str:
    """``value``, rolled when it is dice (a ``dice`` parameter or characteristic: ``D3``)."""
    t = fn.temp()
    return f"({t}.roll(env.chance, {tag!r}) if isinstance(({t} := {value}), _DiceExpr) else {t})"

