"""Check a ruleset's declarations: names, arity, types, characteristics, tables, citations.

The checker sees the ruleset after ``extends`` and patches are resolved (one mapping of
names to declarations) and reports every problem it finds into a :class:`DiagnosticBag`.
It never stops at the first.

While it checks, it infers the type of every expression (:mod:`rules_run.lang.types`) and
notes which declarations each declaration uses (:class:`Usage`), from which
:func:`report_unused` warns of declarations nothing that runs can reach.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from rules_run.diagnostics import DiagnosticBag, Severity, Span, did_you_mean
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.ast import find_source
from rules_run.lang.builtins import (
    BUILTIN_FUNCTIONS,
    Builtin,
    EVENTS,
    NAME_TYPES,
    PROPERTY_TYPES,
)
from rules_run.lang.rule_refs import (
    RuleArg,
    RuleRefError,
    parse_rule_ref,
    resolve_rule,
    template_params,
)
from rules_run.limits import limit, too_many

__all__ = ["check_declarations", "report_unused", "Usage", "rule_arguments_problem",
           "rule_reference_problem", "forget_checked",
           "CALLABLE_KINDS", "NOT_IN_SEED"]

CALLABLE_KINDS = ("roll", "test", "sequence", "action", "decision", "phase")
NOT_IN_SEED = "not in seed"
_LINE_RE = re.compile(r"L(\d+)(?:-L?(\d+))?$")


class _Scope:
    """Names visible in one body, with their types: parameters, locals and context names."""

    def __init__(self, names: Mapping[str, str], parent: _Scope | None = None) -> None:
        self.names: dict[str, str] = dict(names)
        self.parent = parent

    def child(self, names: Mapping[str, str] | None = None) -> _Scope:
        return _Scope(names or {}, self)

    def find(self, name: str) -> _Scope | None:
        """The innermost scope that has ``name``."""
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None

    def has(self, name: str) -> bool:
        return self.find(name) is not None

    def all(self) -> set[str]:
        out: set[str] = set()
        scope: _Scope | None = self
        while scope is not None:
            out |= scope.names.keys()
            scope = scope.parent
        return out


def _reassigned(body: tuple[ast.Stmt, ...]) -> set[str]:
    """Names given a new value (``x = ...``) anywhere in the statements: their type is
    whatever they last got, so the checker does not assume it."""
    out: set[str] = set()
    for s in body:
        if isinstance(s, ast.Assign) and isinstance(s.target, ast.Name) and s.op == "=":
            out.add(s.target.name)
        elif isinstance(s, ast.If):
            for _, branch in s.branches:
                out |= _reassigned(branch)
            out |= _reassigned(s.otherwise)
        elif isinstance(s, (ast.ForEach, ast.While, ast.Activate)):
            out |= _reassigned(s.body)
    return out


WARNED_KINDS = ("roll", "test", "sequence", "action", "phase", "status", "counter", "table",
                "decision", "option")
"""Declarations that do nothing unless something uses them: unused ones are warned of."""


@attrs.frozen
class Usage:
    """Which declarations each part of a ruleset uses, and where running starts.

    ``uses`` maps a key (a declaration's name, ``rule:<name>`` for a rule) to the names of
    the declarations it names: calls, names read, statuses asked about, decisions picked by.
    What a rule does to a roll, a sequence or an event (``modify``, ``on ... of``, ``when``)
    is counted under the roll, the sequence or the event's declaration: it runs only when
    they run. A policy's choice for a decision is counted under the decision.
    """

    uses: Mapping[str, frozenset[str]]
    roots: frozenset[str]
    """Where running starts: the battle, every rule (units carry them from data), and the
    declarations index.yaml's attack modes name."""

    def reachable(self) -> set[str]:
        """The keys running can reach from the roots."""
        seen = set(self.roots)
        todo = list(seen)
        while todo:
            for used in self.uses.get(todo.pop(), ()):
                if used not in seen:
                    seen.add(used)
                    todo.append(used)
        return seen

    def users(self, name: str) -> list[str]:
        """The keys that use ``name`` (itself left out), sorted."""
        return sorted(k for k, v in self.uses.items() if name in v and k != name)


def check_declarations(
    decls: Mapping[str, ast.Decl],
    rules: Mapping[str, ast.RuleDecl],
    sources: tuple[str, ...],
    bag: DiagnosticBag,
    *,
    inherited: Collection[str] = (),
    entry_points: Collection[str] = (),
) -> Usage:
    """Check every declaration; report problems into ``bag``; return what uses what.

    Args:
        decls: declarations by name (everything but rules), after patches.
        rules: rule declarations by their quoted name, after patches.
        sources: the seed files the ruleset cites (the first is the default).
        bag: where diagnostics go.
        inherited: keys (names, rules as ``rule:<name>``) of declarations a patch takes
            unchanged from its base. Their citations were checked against the base's
            sources when the base loaded, so they are not checked again; their bodies are,
            since a patch can remove or change what they use.
        entry_points: names of declarations the engine runs from outside the rules (the
            sequences and counting actions of index.yaml's attack modes).
    """
    checker = _Checker(decls, rules, sources, bag, inherited)
    checker.run()
    roots = {f"rule:{name}" for name in rules} | set(entry_points)
    if isinstance(decls.get("battle"), ast.BattleDecl):
        roots.add("battle")
    return Usage({k: frozenset(v) for k, v in checker.uses.items()}, frozenset(roots))


def report_unused(
    decls: Mapping[str, ast.Decl],
    usage: Usage,
    bag: DiagnosticBag,
    *,
    inherited: Collection[str] = (),
    base: Usage | None = None,
    ops: Iterable[ast.PatchOp] = (),
) -> None:
    """Warn of each declaration nothing that runs uses (kinds :data:`WARNED_KINDS`).

    A patch is warned of its own declarations only (``inherited`` are its base's), and of
    each declaration of its base that the base used and the patch leaves unused: at the
    first of its operations (``ops``) that overrides or removes a declaration whose base
    version used it. What was unused in the base already is the base's warning.
    """
    reachable = usage.reachable()
    base_reachable = base.reachable() if base is not None else set()
    for name, decl in decls.items():
        if decl.kind not in WARNED_KINDS or name in reachable:
            continue
        if name not in inherited:
            users = [_key_text(k, decls) for k in usage.users(name)]
            hint = ("remove it, or use it where the battle, a rule or an attack mode reaches it"
                    if not users else
                    f"only {' and '.join(users)} use{'s' if len(users) == 1 else ''} it, "
                    f"and nothing that runs uses {'that' if len(users) == 1 else 'those'}")
            bag.add(f"{decl.kind} {name!r} is declared but never used",
                    Span(decl.span.path, decl.span.line, decl.span.column),
                    code="unused", severity=Severity.WARNING, hint=hint)
        elif base is not None and name in base_reachable:
            changed = [op for op in ops if op.op != "add" and name in base.uses.get(
                f"rule:{op.name}" if op.kind == "rule" else op.name, ())]
            if changed:
                where = f"{Path(decl.span.path).name}:{decl.span.line}"
                bag.add(f"after this {changed[0].op}, {decl.kind} {name!r} is no longer used",
                        Span(changed[0].span.path, changed[0].span.line, changed[0].span.column),
                        code="unused", severity=Severity.WARNING,
                        hint=" and ".join(f"{op.kind} {op.name!r}" for op in changed)
                        + f" used it before this patch (it is declared at {where}); remove it "
                        "too, or use it again")


def _alternatives(words: Sequence[str]) -> str:
    """``roll``, ``roll or test``, ``roll, test or sequence``."""
    return " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"


def _key_text(key: str, decls: Mapping[str, ast.Decl]) -> str:
    """A :class:`Usage` key as messages name it: ``action 'nearest'``, ``rule 'Brave'``."""
    if key.startswith("rule:"):
        return f"rule {key[5:]!r}"
    decl = decls.get(key)
    return f"{decl.kind} {key!r}" if decl is not None else repr(key)


_ARGUMENT_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "int": (("int",), "a whole number (1, +1, -2)"),
    "number": (("int",), "a number (1, 2)"),
    "need": (("need",), "a score (5+)"),
    "dice": (("dice", "int"), "dice or a number (D3, D6+1, 2)"),
    "keyword": (("words",), "a keyword (Infantry)"),
}
"""What a rule reference may pass for a parameter of each type: the argument kinds
(:class:`RuleArg.kind`) accepted, and what to call them. Other types accept any argument."""


def rule_reference_problem(text: str, rules: Mapping[str, ast.RuleDecl],
                           removed: Callable[[str], str | None] = lambda name: None
                           ) -> tuple[str, str, str | None] | None:
    """Why ``text`` names no rule of ``rules`` or does not fit its parameters, or None.

    Returns:
        ``(code, message, hint)``: an unknown rule (``unknown-rule``; the hint is what
        ``removed`` says of the name, else the closest names), text that is no reference
        (``bad-rule-reference``), or arguments that do not fit (see
        :func:`rule_arguments_problem`).
    """
    try:
        rule, args = resolve_rule(text, rules)
    except RuleRefError as err:
        # A rule whose own name has brackets ("Crit (2 Hits)") is looked up whole.
        close = did_you_mean(text, rules)
        if close is not None:
            return "unknown-rule", f"unknown rule {text!r}", close
        return "bad-rule-reference", str(err), None
    except KeyError:
        name = text.split("(")[0].strip()
        return ("unknown-rule", f"unknown rule {text!r}",
                removed(name) or did_you_mean(name, rules))
    return rule_arguments_problem(rule, text, args)


def rule_arguments_problem(
    rule: ast.RuleDecl, text: str, args: tuple[RuleArg, ...]
) -> tuple[str, str, str] | None:
    """Why the reference ``text`` does not fit the parameters of ``rule``, or None.

    Returns:
        ``(code, message, hint)``: a wrong number of arguments (``wrong-arity``), or an
        argument of the wrong kind (``bad-argument``).

    Examples:
        >>> from rules_run.diagnostics import Span
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


_NUMERIC_CHARACTERISTICS = ("int", "number", "dice")
"""Characteristic types that multiply, divide and ``minimum`` apply to."""


def _a(word: str) -> str:
    """``a test``, ``an action``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


class _Reads(Mapping):
    """A mapping that notes which of its names are read (and whether it is gone through
    whole) while one declaration is checked."""

    def __init__(self, data: Mapping[str, Any], space: str, checker: _Checker) -> None:
        self.data = data
        self.space = space
        self.checker = checker

    def _note(self, name: object) -> None:
        record = self.checker.record
        if record is not None:
            record.reads[(self.space, name)] = self.data.get(name)  # type: ignore[call-overload]

    def _note_all(self) -> None:
        record = self.checker.record
        if record is not None:
            record.wholes.add(self.space)

    def __getitem__(self, name: str) -> Any:
        self._note(name)
        return self.data[name]

    def get(self, name: str, default: Any = None) -> Any:
        self._note(name)
        return self.data.get(name, default)

    def __contains__(self, name: object) -> bool:
        self._note(name)
        return name in self.data

    def __iter__(self):
        self._note_all()
        return iter(self.data)

    def __len__(self) -> int:
        self._note_all()
        return len(self.data)


@attrs.define
class _Checked:
    """What checking one declaration found, and what that depended on."""

    decl: object
    token: tuple
    """The ruleset's names, kinds, marks, global types and sources when it was checked."""
    reads: dict[tuple[str, object], object] = attrs.Factory(dict)
    """(space, name) -> the declaration read under that name (None: there was none)."""
    wholes: set[str] = attrs.Factory(set)
    """The spaces (``decls``, ``rules``) gone through whole (then it is not kept)."""
    diagnostics: list = attrs.Factory(list)
    uses: list[tuple[str, str]] = attrs.Factory(list)
    cited: list[object] = attrs.Factory(list)


_CHECKED: dict[int, _Checked] = {}
"""id of a declaration -> what checking it found. The parser hands back the same
declaration objects for unchanged text, so after an edit only the declarations that changed,
or that read one that changed, are checked again."""
_CHECKED_AT: dict[tuple[str, str, Span], _Checked] = {}
"""(type, name, span) of a declaration -> what checking it found: for a declaration the
loader makes anew on every load from unchanged parts (a roll that reuses another, ``test X
is Y``, filled in after patches; a clause-level override), which is a new object equal to
the one checked before (see :func:`_same`)."""
_CHECKED_SIZE = 20_000


def _same(now: object, seen: object) -> bool:
    """Whether ``now`` is what ``seen`` was: the same object, or an equal one (declarations
    are frozen, compared field by field, their places included)."""
    if now is seen:
        return True
    if now is None or seen is None or type(now) is not type(seen):
        return False
    try:
        return bool(now == seen)
    except Exception:  # pragma: no cover - a value that cannot be compared: not the same
        return False


def _place(decl: ast.Decl) -> tuple[str, str, Span]:
    return type(decl).__name__, decl.name, decl.span


def forget_checked() -> None:
    """Forget what checking each declaration found (to time a cold check)."""
    _CHECKED.clear()
    _CHECKED_AT.clear()


class _Checker:
    def __init__(self, decls, rules, sources, bag: DiagnosticBag,
                 inherited: Collection[str] = ()) -> None:
        self.record: _Checked | None = None
        """What the declaration being checked reads, uses and reports."""
        self.raw_decls: Mapping[str, ast.Decl] = decls
        self.raw_rules: Mapping[str, ast.RuleDecl] = rules
        self.decls: Mapping[str, ast.Decl] = _Reads(decls, "decls", self)
        self.rules: Mapping[str, ast.RuleDecl] = _Reads(rules, "rules", self)
        self.sources = sources
        self.bag = bag
        self.inherited = inherited
        self.cited: set[object] = set()
        """Citations checked already (a line of characteristics shares one), and the
        lines whose missing citation or empty range has been reported."""
        self.characteristics: Mapping[str, ast.CharacteristicDecl] = _Reads({
            n: d for n, d in decls.items() if isinstance(d, ast.CharacteristicDecl)
        }, "decls", self)
        self.marks = {
            n.mark
            for d in decls.values()
            if isinstance(d, ast.RollDecl)
            for n in d.naturals
            if n.mark
        } | {
            mark for d in decls.values() if isinstance(d, ast.RollDecl) for mark, _ in d.marks
        } | {
            e.mark for d in rules.values() for e in d.effects if isinstance(e, ast.MarkEffect)
        }
        self.globals = _Scope(
            {n: _value_type(d) for n, d in decls.items()
             if not isinstance(d, ast.CharacteristicDecl)} | NAME_TYPES
        )
        self.rule_marks: dict[str, set[str]] = {}
        """The marks rules give each roll's result (``mark ... on``), by the roll's name."""
        for r in rules.values():
            for e in r.effects:
                if isinstance(e, ast.MarkEffect):
                    self.rule_marks.setdefault(e.roll, set()).add(e.mark)
        self.uses: dict[str, set[str]] = {}
        """What each declaration uses (see :class:`Usage`)."""
        self.token = (tuple((n, d.kind) for n, d in decls.items()), tuple(rules),
                      frozenset(self.marks), tuple(sorted(self.globals.names.items())),
                      tuple(sources),
                      tuple(sorted((n, tuple(sorted(m))) for n, m in self.rule_marks.items())))
        self.user = ""
        """The key the names being checked are used by."""
        self.reassigned: set[str] = set()
        """Names given a new value in the body being checked (see :func:`_reassigned`)."""

    # ------------------------------------------------------------ helpers
    def error(self, message: str, span: Span, code: str, hint: str | None = None) -> None:
        self.bag.add(message, span, code=code, hint=hint)

    def kind_of(self, name: str) -> str | None:
        d = self.decls.get(name)
        return d.kind if d is not None else None

    def use(self, name: str, user: str | None = None) -> None:
        """Note that the declaration ``name`` is used (by ``user``, else the current one)."""
        if name in self.decls:
            key = self.user if user is None else user
            self.uses.setdefault(key, set()).add(name)
            if self.record is not None:
                self.record.uses.append((key, name))

    def expect(self, e: ast.Expr | None, scope: _Scope, wanted: str, what: str) -> None:
        """Check ``e``, which must fit the type ``wanted`` (:func:`types.fits`)."""
        if e is None:
            return
        t = self.expr(e, scope)
        if not ty.fits(t, wanted):
            self.error(f"{what} must be {ty.shown_wanted(wanted)}, got {ty.show(t)}", e.span,
                       "wrong-type")

    # ------------------------------------------------------------ entry
    def run(self) -> None:
        self.check_roles()
        self.check_default_policy()
        for decl in self.raw_decls.values():
            if decl.name not in self.inherited:
                self.check_cite(decl.cite, decl.span, f"{decl.kind} {decl.name!r}")
            method = getattr(self, f"check_{type(decl).__name__}", None)
            if method is not None:
                self.user = decl.name
                self.reassigned = set()
                # a line of characteristics shares what it reports: checked every time
                self.check_once(decl, method, cache=not isinstance(decl, ast.CharacteristicDecl))
        for rule in self.raw_rules.values():
            if f"rule:{rule.name}" not in self.inherited:
                self.check_cite(rule.cite, rule.span, f"rule {rule.name!r}")
            self.user = f"rule:{rule.name}"
            self.reassigned = set()
            self.check_once(rule, self.check_RuleDecl)

    def check_once(self, decl: ast.Decl, method: Callable[[Any], None], cache: bool = True
                   ) -> None:
        """Check one declaration, or replay what checking it found last time, when it and
        everything it read are the same as then (the same objects, or equal ones)."""
        found = _CHECKED.get(id(decl)) if cache else None
        if found is None or found.decl is not decl:
            # made anew from what was checked before? (an equal declaration, same place)
            found = _CHECKED_AT.get(_place(decl)) if cache else None
            if found is not None and _same(decl, found.decl):
                _CHECKED[id(decl)] = found
                found.decl = decl
            else:
                found = None
        if found is not None and self.still(found):
            self.bag.extend(found.diagnostics)
            for key, name in found.uses:
                self.uses.setdefault(key, set()).add(name)
            self.cited.update(found.cited)
            return
        record = self.record = _Checked(decl, self.token)
        first = len(self.bag.items)
        try:
            method(decl)
        finally:
            self.record = None
        record.diagnostics = self.bag.items[first:]
        if cache and not record.wholes:   # what reads a whole space is checked every time
            if len(_CHECKED) >= _CHECKED_SIZE:
                _CHECKED.clear()
            if len(_CHECKED_AT) >= _CHECKED_SIZE:
                _CHECKED_AT.clear()
            _CHECKED[id(decl)] = record
            _CHECKED_AT[_place(decl)] = record

    def still(self, found: _Checked) -> bool:
        """Whether what ``found`` depended on is unchanged."""
        if found.token != self.token:
            return False
        spaces = {"decls": self.raw_decls, "rules": self.raw_rules}
        return all(_same(spaces[space].get(name), seen)  # type: ignore[call-overload]
                   for (space, name), seen in found.reads.items())

    def note_cited(self, seen: object) -> None:
        self.cited.add(seen)
        if self.record is not None:
            self.record.cited.append(seen)

    def check_cite(self, cite: ast.Cite | None, span: Span, what: str) -> None:
        seen = cite if cite is not None else (span.path, span.line)
        if seen in self.cited:
            return
        self.note_cited(seen)
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
                self.note_cited(line)
                self.error(
                    f"characteristic {d.name!r} has an empty range {d.low}..{d.high}",
                    d.span, "bad-range",
                    hint=f"a range goes from the lowest value up: range {d.high}..{d.low}",
                )

        if d.floor is not None and d.type not in _NUMERIC_CHARACTERISTICS:
            self.error(f"characteristic {d.name!r} is {_a(d.type)}: only a number has a "
                       f"'minimum'", d.span, "bad-floor",
                       hint="give 'minimum' to an int or dice characteristic, or drop it")

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
            elif d.low is not None and d.high is not None:
                if d.type not in ("int", "number"):
                    self.error(f"option {d.name!r} is {d.type}: only numbers take a range",
                               d.span, "bad-option")
                elif d.low > d.high:
                    self.error(f"option {d.name!r}: the range {d.low}..{d.high} is empty",
                               d.span, "bad-range")
                elif isinstance(d.default, (int, float)) and not d.low <= d.default <= d.high:
                    self.error(f"option {d.name!r} defaults to {d.default!r}, outside its "
                               f"range {d.low}..{d.high}", d.span, "bad-option")

    def check_CounterDecl(self, d: ast.CounterDecl) -> None:
        if d.initial is not None:
            self.expr(d.initial, self.globals)

    def check_DieDecl(self, d: ast.DieDecl) -> None:
        if len(d.faces) < 2:
            self.error(f"die {d.name!r} needs at least two faces", d.span, "bad-die")

    def check_RollDecl(self, d: ast.RollDecl) -> None:
        if d.reuses is not None and (not self.reused(d) or d.dice is None):
            return  # it could not take its base's clauses (reported)
        params = self.param_scope(d.params)
        # while the roll is worked out, `result` and `natural` are its totals
        scope = params.child({"result": "int", "natural": "int"})
        what = f"{d.kind} {d.name!r}"
        if d.dice is None:
            self.error(f"{what} says no dice", d.span, "missing-dice",
                       hint="add a line such as: dice D6")
        elif isinstance(d.dice, ast.CountedDice):
            # a counted number of dice is known before they are rolled
            self.expect(d.dice.number, params, "int", "the number of dice")
        else:
            self.dice(d.dice)
            symbols = self.symbol_faces(d.dice)
            if symbols and d.need is not None:
                self.error(f"{what} needs a score, but die {d.dice.die_name!r} has faces that "
                           f"are not numbers ({', '.join(symbols)})", d.span, "need-on-symbols",
                           hint="compare its result in 'pass if' (pass if result == \"hit\")")
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
        self.expect(d.need, params, "number", "'need'")
        self.expect(d.modifier, params, "number", "'modifier'")
        for _, condition in d.marks:
            self.expr(condition, scope.child({"dice": ty.list_of("int")}))
        given = ({n.mark for n in d.naturals if n.mark} | {mark for mark, _ in d.marks}
                 | self.rule_marks.get(d.name, set()))
        for mark, span in d.failing_marks:
            if not d.is_test:
                self.error(f"'marked {mark} fails' in {what}: only a test passes or fails",
                           span, "roll-with-pass", hint=f"write: test {d.name}(...)")
            elif mark not in given:
                self.error(f"{what} never marks its result as {mark!r}", span, "unknown-mark",
                           hint=did_you_mean(mark, given)
                           or f"mark it first: mark {mark} if <condition on the dice>")
        for e in (d.pass_if, d.value):
            if e is not None:
                self.expr(e, scope)
        if d.beyond is not None:
            self.expect(d.beyond[1], params.child({"need": "int"}), "number", "'beyond'")
            if d.need is None:
                self.error(f"{what} has 'beyond' but no 'need'", d.span, "beyond-without-need")
        lo, hi = d.cap
        if lo is not None and hi is not None and lo > hi:
            self.error(f"{what}: modifiers capped {lo}..{hi} is an empty range", d.span, "bad-range")

    def rule_dice(self, e: ast.DiceEffect) -> None:
        """``roll NAME with DICE``: dice whose number is known, of numbers where the roll
        needs a score."""
        if isinstance(e.dice, ast.CountedDice):
            if e.dice.number is not None:
                self.error(f"'roll {e.roll} with': the number of dice a rule sets is a whole "
                           "number", e.dice.number.span, "bad-dice")
            return
        self.dice(e.dice)
        target = self.decls.get(e.roll)
        symbols = self.symbol_faces(e.dice)
        if symbols and isinstance(target, ast.RollDecl) and target.need is not None:
            self.error(f"'roll {e.roll} with': {e.roll!r} needs a score, but die "
                       f"{e.dice.die_name!r} has faces that are not numbers "
                       f"({', '.join(symbols)})", e.span, "need-on-symbols")

    def reused(self, d: ast.RollDecl) -> bool:
        """``test NAME(params) is BASE(args)``: the arguments are checked as a call's (the
        loader has said why a base that is no roll of the same kind cannot be reused);
        whether they fit, so the clauses taken with them are worth checking."""
        call = d.reuses
        assert call is not None
        base = self.decls.get(call.name)
        if not isinstance(base, ast.RollDecl) or base.kind != d.kind:
            return False
        if not call.args and not call.kwargs and d.params == base.params:
            self.use(call.name)  # the base's parameters, passed on
            return True
        before = len(self.bag.errors)
        self.call(call, self.param_scope(d.params))
        return len(self.bag.errors) == before

    def symbol_faces(self, dice: ast.DiceLit) -> list[str]:
        """The faces of a special die that are not numbers (none for other dice)."""
        decl = self.decls.get(dice.die_name) if dice.die_name else None
        faces = decl.faces if isinstance(decl, ast.DieDecl) else ()
        return list(dict.fromkeys(str(f) for f in faces if not isinstance(f, int)))

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
        self.expect(d.damage, scope, "number", "'damage'")
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
            words = "chains" if effect.kind == "chains" else "end with damage"
            self.expect(effect.arg, scope, "number", f"'{words}'")

    def check_ActionDecl(self, d: ast.ActionDecl) -> None:
        self.body(d.body, self.param_scope(d.params))

    def check_PhaseDecl(self, d: ast.PhaseDecl) -> None:
        if d.parent is not None and self.kind_of(d.parent) != "phase":
            self.error(f"phase {d.name!r} is in {d.parent!r}, which is not a phase", d.span,
                       "unknown-phase", hint=did_you_mean(d.parent, self.names_of("phase")))
        self.body(d.body, self.param_scope(d.params))

    def check_DecisionDecl(self, d: ast.DecisionDecl) -> None:
        t = self.expr(d.options, self.param_scope(d.params))
        if not ty.iterable(t):
            self.error(f"the options of decision {d.name!r} must be a list, got "
                       f"{ty.show(t)}", d.options.span, "wrong-type")

    def check_default_policy(self) -> None:
        defaults = [d for d in self.decls.values()
                    if isinstance(d, ast.PolicyDecl) and d.is_default]
        for extra in defaults[1:]:
            self.error(f"two policies are the default: {defaults[0].name!r} and {extra.name!r}",
                       extra.span, "duplicate-default")

    def check_PolicyDecl(self, d: ast.PolicyDecl) -> None:
        if d.extends is not None:
            self.policy_base(d)
        for decision, expr in d.choices:
            target = self.decls.get(decision)
            if not isinstance(target, ast.DecisionDecl):
                self.error(f"policy {d.name!r} chooses for {decision!r}, which is not a decision",
                           expr.span, "unknown-decision",
                           hint=did_you_mean(decision, self.names_of("decision")))
                continue
            # a choice runs only when its decision is made
            self.user = decision
            scope = self.param_scope(target.params).child({"options": "list"})
            self.expr(expr, scope)

    def policy_base(self, d: ast.PolicyDecl) -> None:
        """``policy NAME extends BASE``: the base is a policy, and the chain has no ring."""
        chain = [d.name]
        policy: ast.Decl | None = d
        while isinstance(policy, ast.PolicyDecl) and policy.extends is not None:
            base = self.decls.get(policy.extends)
            if not isinstance(base, ast.PolicyDecl):
                if policy is d:
                    self.error(f"policy {d.name!r} extends {policy.extends!r}, which is not a "
                               "policy", d.span, "unknown-policy",
                               hint=did_you_mean(policy.extends, self.names_of("policy")))
                return
            if base.name in chain:
                if base.name == d.name:
                    self.error(f"policy {d.name!r} extends itself: "
                               f"{' -> '.join(chain + [d.name])}", d.span, "reuse-cycle")
                return
            self.use(base.name, d.name)
            chain.append(base.name)
            policy = base

    def check_BattleDecl(self, d: ast.BattleDecl) -> None:
        for body in (d.setup, d.round, d.turn, d.score):
            self.body(body, self.globals)
        self.expect(d.rounds, self.globals, "number", "'rounds'")
        for e in d.end:
            self.expr(e, self.globals)

    def check_RuleDecl(self, d: ast.RuleDecl) -> None:
        held = template_params(d.name)
        if len(held) > limit("placeholders"):
            self.error(f"rule {d.name!r}: " + too_many("placeholders", "placeholders in a "
                                                        "rule name", len(held)),
                       d.span, "too-many-placeholders")
        elif "}{" in d.name:
            self.error(f"rule {d.name!r}: two placeholders side by side; put text between "
                       "them, so a reference says where one ends", d.span, "bad-rule-template")
        elif len(set(held)) != len(held):
            twice = next(h for h in held if held.count(h) > 1)
            self.error(f"rule {d.name!r}: the placeholder {{{twice}}} is used twice; a "
                       "parameter is named once", d.span, "bad-rule-template")
        elif held and held != [p.name for p in d.params]:
            types = {p.name: p.type for p in d.params}
            self.error(f"rule {d.name!r}: the names in braces ({', '.join(held)}) must be its "
                       f"parameters, in order; it has ({', '.join(types) or 'none'})", d.span,
                       "bad-rule-template",
                       hint=f'declare: rule "{d.name}" ('
                       + ", ".join(f"{h}: {types.get(h, 'keyword')}" for h in held) + ")")
        if d.is_global:
            for p in d.params:
                if p.default is None:
                    self.error(f"global rule {d.name!r}: parameter {p.name!r} needs a default "
                               "(nobody carries a global rule, so nothing gives it one)",
                               p.span, "global-param")
        base = self.param_scope(d.params).child({"bearer": ty.ANY})
        rule = f"rule:{d.name}"
        for effect in d.effects:
            self.user = rule
            self.effect(effect, base, d)

    # ------------------------------------------------------------ rules
    def target_scope(self, name: str, kinds: tuple[str, ...], span: Span, base: _Scope,
                     what: str) -> _Scope | None:
        """The scope inside the roll or test an effect names; None (reported) if it is not one.

        What the effect reads is used when the roll is: it counts as used by the roll."""
        target = self.decls.get(name)
        if target is None or target.kind not in kinds:
            actual = f"; it is {_a(target.kind)}" if target is not None else ""
            self.error(
                f"{what} names {name!r}, which is not a {_alternatives(kinds)}{actual}",
                span, "unknown-name",
                hint=did_you_mean(name, [n for k in kinds for n in self.names_of(k)]),
            )
            return None
        self.user = name
        # effects are worked out before the dice are rolled: they see the arguments only
        return base.child(_param_types(getattr(target, "params", ())))

    def effect(self, e: ast.Effect, base: _Scope, rule: ast.RuleDecl) -> None:
        if e.cite is not None:
            self.check_cite(e.cite, e.span, f"an effect of rule {rule.name!r}")
        scope: _Scope | None = base
        if isinstance(e, ast.Modify):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "modify")
            if scope is not None:
                self.expect(e.amount, scope, "number", f"the amount of 'modify {e.roll}'")
            self.despite(e)
        elif isinstance(e, ast.Shield):
            for name in e.names:
                target = self.decls.get(name)
                if name not in self.characteristics and (
                        target is None or target.kind not in ("roll", "test")):
                    actual = f"; it is {_a(target.kind)}" if target is not None else ""
                    self.error(f"'unaffected by friendly gains to' names {name!r}, which is "
                               f"not a roll, test or characteristic{actual}", e.span,
                               "unknown-name",
                               hint=did_you_mean(name, [*self.characteristics,
                                                        *self.names_of("roll"),
                                                        *self.names_of("test")]))
        elif isinstance(e, ast.RerollEffect):
            scope = self.target_scope(e.roll, ("test",), e.span, base,
                                      f"reroll {e.which}")
        elif isinstance(e, ast.DiceEffect):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "roll ... with")
            self.rule_dice(e)
        elif isinstance(e, ast.AutoResult):
            scope = self.target_scope(e.test, ("test",), e.span, base, e.result)
        elif isinstance(e, ast.MarkEffect):
            scope = self.target_scope(e.roll, ("roll", "test"), e.span, base, "mark")
            if scope is not None:
                # read once the dice are rolled
                scope = scope.child({"result": "int", "natural": "int",
                                     "dice": ty.list_of("int")})
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
                self.user = e.sequence
                scope = base.child(_param_types(seq.params))
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
            names = _param_types(getattr(target, "params", ()) if target is not None else ())
            if target is not None:
                # it runs when its declaration does; after a roll or test, `result` is its
                # result
                self.user = e.event
                if target.kind in ("roll", "test"):
                    names["result"] = "result"
            scope = base.child(names)
            self.body(e.body, scope)
        elif isinstance(e, ast.CharacteristicEffect):
            if e.during is not None:
                # inside that roll, test or sequence, its arguments are seen too
                scope = self.target_scope(e.during, ("roll", "test", "sequence"), e.span, base,
                                          "during")
            decl = self.characteristics.get(e.characteristic)
            if scope is None:
                pass
            elif decl is None:
                self.error(f"unknown characteristic {e.characteristic!r}", e.span,
                           "unknown-characteristic",
                           hint=did_you_mean(e.characteristic, self.characteristics))
                self.expr(e.amount, scope)
            elif e.op == "set":
                self.expect(e.amount, scope, decl.type, f"the value {e.characteristic} is set to")
            else:
                what = {"add": "the amount added to", "multiply": "the factor of",
                        "divide": "the divisor of"}[e.op]
                self.expect(e.amount, scope, "number", f"{what} {e.characteristic}")
            if decl is not None and decl.type not in _NUMERIC_CHARACTERISTICS and (
                    e.op in ("multiply", "divide") or e.floor is not None):
                done = {"multiply": "multiplied", "divide": "divided"}.get(e.op,
                                                                          "given a minimum")
                self.error(f"characteristic {e.characteristic!r} is {_a(decl.type)}: "
                           f"only a number can be {done}", e.span, "bad-operands",
                           hint="multiply, divide and 'minimum' apply to an int or dice "
                                "characteristic")
            if e.op == "divide" and isinstance(e.amount, ast.Literal) and e.amount.value == 0:
                self.error(f"{e.characteristic} is divided by 0", e.amount.span,
                           "division-by-zero", hint="divide by 2 to halve it")
        # An unknown target is reported once: its parameters, which the amount and the
        # condition may use, are unknown too.
        if e.condition is not None and scope is not None:
            self.expr(e.condition, scope)

    def unaffected_argument(self, name: ast.Expr) -> None:
        """``unaffected(x, "NAME")`` asks of a NAME some rule makes its bearer unaffected by
        friendly gains to: another would always be false."""
        if not (isinstance(name, ast.Literal) and isinstance(name.value, str)):
            return
        named = {n for r in self.rules.values() for e in r.effects
                 if isinstance(e, ast.Shield) for n in e.names}
        if name.value not in named:
            self.error(f"no rule makes anything unaffected by friendly gains to "
                       f"{name.value!r}", name.span, "unknown-name",
                       hint=did_you_mean(name.value, named)
                       or "name it in a rule: unaffected by friendly gains to " + name.value)

    def despite(self, e: ast.Modify) -> None:
        """``despite "RULE"`` names a rule that makes its bearer unaffected by friendly gains."""
        rule_name = e.despite
        if rule_name is None:
            return
        rule = self.rules.get(rule_name)
        if rule is None or not any(isinstance(x, ast.Shield) for x in rule.effects):
            shields = [n for n, r in self.rules.items()
                       if any(isinstance(x, ast.Shield) for x in r.effects)]
            why = "is not a rule" if rule is None else "has no 'unaffected by friendly gains'"
            self.error(f"despite {rule_name!r}: {rule_name!r} {why}", e.span, "unknown-rule",
                       hint=did_you_mean(rule_name, shields) or
                       "despite names a rule with an 'unaffected by friendly gains' effect"
                       + (f": {', '.join(repr(n) for n in shields)}" if shields else ""))

    def rule_ref(self, text: str, span: Span) -> None:
        problem = rule_reference_problem(text, self.rules)
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
            self.expect(p.default, self.globals, p.type, f"the default of {p.name!r}")
        return self.globals.child(_param_types(params))

    def names_of(self, kind: str) -> list[str]:
        return [n for n, d in self.decls.items() if d.kind == kind]

    def body(self, body: tuple[ast.Stmt, ...], scope: _Scope) -> None:
        """A whole body (an action's, a trigger's, a part of the battle): a name it gives a
        new value is of no known type, parameters included."""
        outer = self.reassigned
        self.reassigned = _reassigned(body)
        scope = scope.child({n: ty.ANY for n in self.reassigned if scope.has(n)})
        self.block(body, scope)
        self.reassigned = outer

    def block(self, body: tuple[ast.Stmt, ...], scope: _Scope) -> None:
        scope = scope.child()
        for stmt in body:
            self.stmt(stmt, scope)

    def stmt(self, s: ast.Stmt, scope: _Scope) -> None:
        if isinstance(s, ast.Let):
            t = self.expr(s.value, scope)
            shadowed = self.decls.get(s.name)
            if shadowed is not None and not isinstance(shadowed, ast.CharacteristicDecl):
                where = f"{Path(shadowed.span.path).name}:{shadowed.span.line}"
                self.error(f"'let {s.name}' hides the {shadowed.kind} {s.name!r} "
                           f"(declared at {where})", s.span, "shadowed-name",
                           hint="give the local another name")
            scope.names[s.name] = self.local(s.name, t)
        elif isinstance(s, ast.Assign):
            t = self.expr(s.value, scope)
            if isinstance(s.target, ast.Name):
                if not scope.has(s.target.name):
                    self.error(f"assignment to {s.target.name!r}, which is not defined; use "
                               f"'let {s.target.name} = ...' first", s.target.span,
                               "undefined-name",
                               hint=did_you_mean(s.target.name, scope.all()))
                    return
                if s.op == "=":
                    return
            old = self.expr(s.target, scope)
            if s.op != "=":
                _, problem = ty.binop(s.op[0], old, t)
                if problem is not None:
                    self.error(problem, s.span, "bad-operands", hint=_operand_hint(old, t))
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
            inner = scope.child({s.var: self.local(s.var, self.items(s.iterable, scope,
                                                                       "'for each'"))})
            for e in (s.where, s.order):
                if e is not None:
                    self.expr(e, inner)
            self.block(s.body, inner)
        elif isinstance(s, ast.While):
            self.expr(s.condition, scope)
            self.block(s.body, scope)
        elif isinstance(s, ast.Activate):
            self.items(s.units, scope, "'activate'")
            self.expect(s.start, scope, "side", "'starting with'")
            if s.picker is not None:
                if self.kind_of(s.picker) != "decision":
                    self.error(f"'picking by {s.picker}': {s.picker!r} is not a decision",
                               s.span, "unknown-decision",
                               hint=did_you_mean(s.picker, self.names_of("decision")))
                self.use(s.picker)
            inner = scope.child({s.var: self.local(s.var, "unit")})
            if s.where is not None:
                self.expr(s.where, inner)
            self.block(s.body, inner)

    def local(self, name: str, t: str) -> str:
        """The type of a local that starts as a ``t``: no known type if it is given another
        value later (:func:`_reassigned`)."""
        return ty.ANY if name in self.reassigned else t

    def items(self, e: ast.Expr, scope: _Scope, what: str) -> str:
        """Check ``e``, which a loop goes over; the type of its items."""
        t = self.expr(e, scope)
        if not ty.iterable(t):
            self.error(f"{what} goes over a list, got {ty.show(t)}", e.span, "wrong-type")
        return ty.item_of(t)

    # ------------------------------------------------------------ expressions
    def dice(self, d: ast.DiceLit) -> None:
        if d.die_name is not None:
            if self.kind_of(d.die_name) != "die":
                self.error(f"unknown die {d.die_name!r}", d.span, "unknown-die",
                           hint=did_you_mean(d.die_name, self.names_of("die"))
                           or "declare special dice with: die <name> faces ...")

    def call(self, c: ast.Call, scope: _Scope, want: tuple[str, ...] = ()) -> str:
        """Check a call; the type of its result."""
        args = [self.expr(a, scope) for a in c.args]
        kwargs = {key: self.expr(a, scope) for key, a in c.kwargs}
        target = self.decls.get(c.name)
        if target is not None and target.kind in CALLABLE_KINDS:
            self.use(c.name)
            if want and target.kind not in want:
                self.error(f"{c.name!r} is {_a(target.kind)}; {_a(' or '.join(want))} is needed "
                           "here",
                           c.span, "wrong-kind",
                           hint=did_you_mean(c.name, [n for k in want for n in self.names_of(k)]))
            params = getattr(target, "params", ())
            if self.arguments(c, params, f"{target.kind} {c.name!r}"):
                self.argument_types(c, args, kwargs, params, c.name)
            if isinstance(target, ast.RollDecl):
                return "result" if target.is_test else ("int" if target.value is None
                                                        else ty.ANY)
            return "outcome" if isinstance(target, ast.SequenceDecl) else ty.ANY
        if want:
            self.error(f"unknown {' or '.join(want)} {c.name!r}", c.span, "undefined-name",
                       hint=did_you_mean(c.name, [n for k in want for n in self.names_of(k)]))
            return ty.ANY
        builtin = BUILTIN_FUNCTIONS.get(c.name)
        if builtin is not None:
            if builtin.keywords:
                self.sequence_arguments(c, kwargs)
            for key, value in () if builtin.keywords else c.kwargs:
                self.error(f"{c.name}() takes its arguments by position, not {key}=",
                           value.span, "keyword-argument",
                           hint=f"{c.name}() takes {builtin.arity_text()} argument(s): "
                           + builtin.doc)
            n = len(c.args) + (0 if builtin.keywords else len(c.kwargs))
            if n < builtin.min_args or (builtin.max_args is not None and n > builtin.max_args):
                self.error(f"{c.name}() takes {builtin.arity_text()} argument(s), got {n}",
                           c.span, "wrong-arity")
            else:
                for i, (a, t) in enumerate(zip(c.args, args)):
                    self.argument_type(a, t, builtin.param_type(i), f"argument {i + 1}", c.name,
                                       builtin)
                for i, allowed in builtin.choices:
                    given = c.args[i] if i < len(c.args) else None
                    if (isinstance(given, ast.Literal) and given.kind == "text"
                            and given.value not in allowed):
                        self.error(f"argument {i + 1} of {c.name} is {given.value!r}; expected "
                                   + ", ".join(repr(a) for a in allowed), given.span,
                                   "bad-argument",
                                   hint=did_you_mean(str(given.value), list(allowed)))
            if c.name == "decide":
                self.decision_arguments(c, args)
            if c.name == "unaffected" and len(c.args) == 2:
                self.unaffected_argument(c.args[1])
            if builtin.returns == "item":
                return ty.item_of(args[0]) if args else ty.ANY
            return builtin.returns
        if target is not None:
            self.error(f"{c.name!r} is {_a(target.kind)}, which cannot be called", c.span,
                       "not-callable",
                       hint=f"look a table up with square brackets: {c.name}[...]"
                       if target.kind == "table" else None)
            return ty.ANY
        self.error(
            f"unknown function {c.name!r}", c.span, "undefined-name",
            hint=did_you_mean(
                c.name,
                [n for n, d in self.decls.items() if d.kind in CALLABLE_KINDS]
                + list(BUILTIN_FUNCTIONS),
            ),
        )
        return ty.ANY

    def sequence_arguments(self, c: ast.Call, kwargs: dict[str, str]) -> None:
        """``fight(seq, a, t, weapon = w)``: named arguments fill the sequence's parameters of
        those names (the attacker and the target, units, its first two)."""
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
        by_name = {p.name: p for p in seq.params}
        for key, value in c.kwargs:
            if key in by_name:
                self.argument_type(value, kwargs[key], by_name[key].type, f"{key!r}", seq.name,
                                   seq.params)

    def decision_arguments(self, c: ast.Call, args: list[str]) -> None:
        """``decide(charge, u)``: the arguments after the decision are its parameters."""
        if not c.args or not isinstance(c.args[0], ast.Name):
            return
        decision = self.decls.get(c.args[0].name)
        if not isinstance(decision, ast.DecisionDecl):
            return
        for i, (p, a, t) in enumerate(zip(decision.params, c.args[1:], args[1:])):
            self.argument_type(a, t, p.type, f"argument {i + 1}", decision.name,
                               decision.params)

    def arguments(self, c: ast.Call, params: tuple[ast.Param, ...], what: str) -> bool:
        """Check the number and names of a call's arguments; whether they fit."""
        names = [p.name for p in params]
        required = [p.name for p in params if p.default is None]
        given = set(names[: len(c.args)])
        takes = f"it takes ({', '.join(names)})"
        if len(c.args) > len(params):
            self.error(f"{what} takes {len(params)} argument(s), got {len(c.args) + len(c.kwargs)}",
                       c.span, "wrong-arity", hint=takes)
            return False
        fit = True
        for key, value in c.kwargs:
            if key not in names:
                self.error(f"{what} has no parameter {key!r}", value.span, "unknown-param",
                           hint=did_you_mean(key, names) or takes)
                fit = False
            elif key in given:
                self.error(f"{what}: {key!r} is given twice", value.span, "duplicate-argument")
                fit = False
            given.add(key)
        missing = [n for n in required if n not in given]
        if missing:
            self.error(f"{what} needs {', '.join(repr(m) for m in missing)}", c.span,
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
            self.error(f"{which} of {callee} must be {ty.shown_wanted(wanted)}, got {ty.show(t)}",
                       e.span, "wrong-type", hint=_takes(callee, signature))

    def expr(self, e: ast.Expr | None, scope: _Scope) -> str:
        """Check ``e``; its type (:mod:`rules_run.lang.types`)."""
        if e is None:
            return ty.ANY
        return _EXPRESSIONS[type(e)](self, e, scope)

    def _literal(self, e: ast.Literal, scope: _Scope) -> str:
        if e.kind == "text" and e.value in self.decls:
            self.use(str(e.value))  # a declaration named by text works as its name does
        return _LITERAL_TYPES.get(e.kind, ty.ANY)

    def _name(self, e: ast.Name, scope: _Scope) -> str:
        found = scope.find(e.name)
        if found is None:
            if e.name in self.characteristics:
                self.error(f"undefined name {e.name!r}: {e.name!r} is a characteristic, "
                           "which belongs to a unit or a model", e.span, "undefined-name",
                           hint=f"write <unit>.{e.name}")
            else:
                self.error(f"undefined name {e.name!r}", e.span, "undefined-name",
                           hint=did_you_mean(e.name, scope.all()))
            return ty.ANY
        if found is self.globals:
            self.use(e.name)
        return found.names[e.name]

    def _dicelit(self, e: ast.DiceLit, scope: _Scope) -> str:
        self.dice(e)
        if e.die_name is not None:
            self.use(e.die_name)
        return "int"

    def _binop(self, e: ast.BinOp, scope: _Scope) -> str:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        t, problem = ty.binop(e.op, left, right)
        if problem is not None:
            self.error(problem, e.span, "bad-operands", hint=_operand_hint(left, right))
        return t

    def _compare(self, e: ast.Compare, scope: _Scope) -> str:
        left, right = self.expr(e.left, scope), self.expr(e.right, scope)
        if e.op not in ("==", "!=") and not ty.comparable(left, right):
            self.error(f"cannot compare {ty.show(left)} with {ty.show(right)}", e.span,
                       "bad-operands", hint=_operand_hint(left, right))
        return "bool"

    def _boolop(self, e: ast.BoolOp, scope: _Scope) -> str:
        for o in e.operands:
            self.expr(o, scope)
        return "bool"

    def _not(self, e: ast.Not, scope: _Scope) -> str:
        self.expr(e.operand, scope)
        return "bool"

    def _neg(self, e: ast.Neg, scope: _Scope) -> str:
        t = self.expr(e.operand, scope)
        if ty.is_known(t) and t not in ty.NUMBERS:
            self.error(f"cannot negate {ty.show(t)}", e.span, "bad-operands")
            return ty.ANY
        return "int" if t == "bool" else t

    def _condexpr(self, e: ast.CondExpr, scope: _Scope) -> str:
        self.expr(e.condition, scope)
        return ty.join(self.expr(e.then, scope), self.expr(e.otherwise, scope))

    def _has(self, e: ast.Has, scope: _Scope) -> str:
        self.bearer(e.subject, scope, f'\'has "{e.rule}"\'')
        if e.rule not in self.rules and self.kind_of(e.rule) != "keyword":
            self.rule_ref(e.rule, e.span)
        return "bool"

    def _isstatus(self, e: ast.IsStatus, scope: _Scope) -> str:
        self.bearer(e.subject, scope, f"'is {'not ' if e.negated else ''}{e.status}'")
        if self.kind_of(e.status) != "status":
            self.error(f"unknown status {e.status!r}", e.span, "unknown-status",
                       hint=did_you_mean(e.status, self.names_of("status")))
        self.use(e.status)
        return "bool"

    def _member(self, e: ast.Member, scope: _Scope) -> str:
        self.expr(e.item, scope)
        t = self.expr(e.collection, scope)
        if ty.is_known(t) and not (t.startswith("list") or t in ty.TEXTS):
            self.error(f"'in' looks in a list, got {ty.show(t)}", e.collection.span,
                       "wrong-type")
        return "bool"

    def _listlit(self, e: ast.ListLit, scope: _Scope) -> str:
        item = ty.NONE
        for i in e.items:
            item = ty.join(item, self.expr(i, scope))
        return ty.list_of(item)

    def _comprehension(self, e: ast.Comprehension, scope: _Scope) -> str:
        inner = scope.child({e.var: self.items(e.iterable, scope, "'for each'")})
        item = self.expr(e.item, inner)
        if e.where is not None:
            self.expr(e.where, inner)
        return ty.list_of(item)

    def bearer(self, e: ast.Expr, scope: _Scope, what: str) -> None:
        """Check ``e``, which must carry rules and statuses (a unit or a weapon)."""
        t = self.expr(e, scope)
        if not ty.fits(t, "unit|weapon"):
            self.error(f"{what} asks a unit or a weapon, got {ty.show(t)}", e.span, "wrong-type")

    def _attribute(self, e: ast.Attribute, scope: _Scope) -> str:
        t = self.expr(e.target, scope)
        char = self.characteristics.get(e.name)
        if char is not None:
            owner, value = "unit|weapon", ty.declared(char.type)
        elif e.name in PROPERTY_TYPES:
            owner, value = PROPERTY_TYPES[e.name]
        elif e.name in self.marks:
            owner, value = "result", "bool"
        else:
            self.error(
                f"unknown characteristic or property {e.name!r}", e.span,
                "unknown-characteristic",
                hint=did_you_mean(e.name, set(self.characteristics) | set(PROPERTY_TYPES)
                                  | self.marks),
            )
            return ty.ANY
        if not ty.fits(t, owner):
            self.error(f"{e.name!r} is read from {ty.article(ty.show(t))}, not "
                       f"{ty.shown_wanted(owner)}", e.span, "bad-attribute",
                       hint=f"read it from each item: [x.{e.name} for each x in ...]"
                       if t.startswith("list") else None)
        return value

    def _lookup(self, e: ast.Lookup, scope: _Scope) -> str:
        keys = [self.expr(k, scope) for k in e.keys]
        if isinstance(e.target, ast.Name) and not scope.has(e.target.name):
            self.expr(e.target, scope)
            return ty.ANY
        if isinstance(e.target, ast.Name) and scope.find(e.target.name) is self.globals:
            self.use(e.target.name)
            table = self.decls.get(e.target.name)
            if isinstance(table, ast.TableDecl):
                if len(e.keys) != len(table.keys):
                    self.error(
                        f"table {table.name!r} has {len(table.keys)} key(s) "
                        f"({', '.join(table.keys)}), the lookup gives {len(e.keys)}",
                        e.span, "wrong-arity",
                        hint=f"write {table.name}[{', '.join(table.keys)}]",
                    )
                return ty.ANY
            if table is not None:
                self.error(f"{e.target.name!r} is {_a(table.kind)}, not a table", e.span,
                           "not-a-table", hint=did_you_mean(e.target.name,
                                                            self.names_of("table")))
                return ty.ANY
        t = self.expr(e.target, scope)
        if t.startswith("list"):
            if len(keys) != 1 or not ty.fits(keys[0], "int"):
                got = f"{len(keys)} keys" if len(keys) != 1 else ty.show(keys[0])
                self.error(f"an item of a list is looked up by one whole number, got {got}",
                           e.span, "wrong-type")
            return ty.item_of(t)
        if ty.is_known(t) and t != "table":
            self.error(f"only a table or a list can be looked up with [...], got {ty.show(t)}",
                       e.span, "wrong-type")
        return ty.ANY


_EXPRESSIONS: dict[type, Callable[[_Checker, Any, _Scope], str]] = {
    ast.Literal: _Checker._literal,
    ast.Name: _Checker._name,
    ast.DiceLit: _Checker._dicelit,
    ast.Attribute: _Checker._attribute,
    ast.Lookup: _Checker._lookup,
    ast.Call: _Checker.call,
    ast.BinOp: _Checker._binop,
    ast.Compare: _Checker._compare,
    ast.BoolOp: _Checker._boolop,
    ast.Not: _Checker._not,
    ast.Neg: _Checker._neg,
    ast.CondExpr: _Checker._condexpr,
    ast.Has: _Checker._has,
    ast.IsStatus: _Checker._isstatus,
    ast.Member: _Checker._member,
    ast.ListLit: _Checker._listlit,
    ast.Comprehension: _Checker._comprehension,
}
"""The check of each kind of expression node."""

_LITERAL_TYPES = {"int": "int", "number": "number", "text": "text", "need": "int",
                  "bool": "bool", "none": ty.NONE}


def _operand_hint(*operands: str) -> str | None:
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


def _param_types(params: Iterable[ast.Param]) -> dict[str, str]:
    """Parameters by name, with the type of the values they hold."""
    return {p.name: ty.declared(p.type) for p in params}


def _value_type(d: ast.Decl) -> str:
    """The type of a declaration's name read as a value: an option's value, a table, the
    name itself (as text) for the others."""
    if isinstance(d, ast.OptionDecl):
        return "text" if d.choices else ty.declared(d.type)
    if isinstance(d, ast.TableDecl):
        return "table"
    return d.kind if d.kind in ty.NAMES else "text"
