"""What the checkers of a ruleset share: the declarations, the names in scope, the marks,
what uses what, and the diagnostics.

Checking is split by part of the language (:mod:`~rules_run.lang.check_declarations`,
:mod:`~rules_run.lang.check_effects`, :mod:`~rules_run.lang.check_statements`,
:mod:`~rules_run.lang.check_expressions`): one small checker each, all holding the one
:class:`Context`, through which they reach each other.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import DiagnosticBag, Span
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.builtins import NAME_TYPES

if TYPE_CHECKING:  # the checkers import this module: named here for their types only
    from rules_run.lang.check_declarations import DeclarationChecker
    from rules_run.lang.check_effects import EffectChecker
    from rules_run.lang.check_expressions import ExpressionChecker
    from rules_run.lang.check_statements import StatementChecker
    from rules_run.lang.checker import Checked

__all__ = ["CALLABLE_KINDS", "NOT_IN_SEED", "NUMERIC_CHARACTERISTICS", "Context", "Reads",
           "Scope", "alternatives", "article", "param_types", "reassigned", "value_type"]

CALLABLE_KINDS = ("roll", "test", "sequence", "action", "decision", "phase", "record")
"""Kinds of declaration a call can name."""
NOT_IN_SEED = "not in seed"
"""How a quoted citation starts: the value is not in the seed text."""


class Scope:
    """Names visible in one body, with their types: parameters, locals and context names."""

    def __init__(self, names: Mapping[str, str], parent: Scope | None = None) -> None:
        self.names: dict[str, str] = dict(names)
        self.parent = parent

    def child(self, names: Mapping[str, str] | None = None) -> Scope:
        return Scope(names or {}, self)

    def find(self, name: str) -> Scope | None:
        """The innermost scope that has ``name``."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope
            scope = scope.parent
        return None

    def has(self, name: str) -> bool:
        return self.find(name) is not None

    def all(self) -> set[str]:
        out: set[str] = set()
        scope: Scope | None = self
        while scope is not None:
            out |= scope.names.keys()
            scope = scope.parent
        return out


def reassigned(body: tuple[ast.Stmt, ...]) -> set[str]:
    """Names given a new value (``x = ...``) anywhere in the statements: their type is
    whatever they last got, so the checker does not assume it."""
    out: set[str] = set()
    for s in body:
        if isinstance(s, ast.Assign) and isinstance(s.target, ast.Name) and s.op == "=":
            out.add(s.target.name)
        elif isinstance(s, ast.If):
            for _, branch in s.branches:
                out |= reassigned(branch)
            out |= reassigned(s.otherwise)
        elif isinstance(s, (ast.ForEach, ast.While, ast.Activate, ast.During)):
            out |= reassigned(s.body)
    return out


NUMERIC_CHARACTERISTICS = ("int", "number", "dice")
"""Characteristic types that multiply, divide and ``minimum`` apply to."""


def article(word: str) -> str:
    """``a test``, ``an action``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


class Reads(Mapping):
    """A mapping that notes which of its names are read (and whether it is gone through
    whole) while one declaration is checked."""

    def __init__(self, data: Mapping[str, Any], space: str, checker: Context) -> None:
        self.data = data
        self.space = space
        self.ctx = checker

    def _note(self, name: object) -> None:
        record = self.ctx.record
        if record is not None:
            record.reads[(self.space, name)] = self.data.get(name)  # type: ignore[call-overload]

    def _note_all(self) -> None:
        record = self.ctx.record
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


class Context:
    """The state every checker of one ruleset reads and adds to, and the checkers."""

    def __init__(self, decls, rules, sources, bag: DiagnosticBag,
                 inherited: Collection[str] = ()) -> None:
        self.record: Checked | None = None
        """What the declaration being checked reads, uses and reports."""
        self.raw_decls: Mapping[str, ast.Decl] = decls
        self.raw_rules: Mapping[str, ast.RuleDecl] = rules
        self.decls: Mapping[str, ast.Decl] = Reads(decls, "decls", self)
        self.rules: Mapping[str, ast.RuleDecl] = Reads(rules, "rules", self)
        self.sources = sources
        self.bag = bag
        self.inherited = inherited
        self.cited: set[object] = set()
        """Citations checked already (a line of characteristics shares one), and the
        lines whose missing citation or empty range has been reported."""
        self.characteristics: Mapping[str, ast.CharacteristicDecl] = Reads({
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
        self.tallies = {t for d in decls.values() if isinstance(d, ast.SequenceDecl)
                        for t in d.tallies}
        """Every sequence's tallies (``v.glancing`` reads one from what ``fight()`` gives)."""
        self.globals = Scope(
            {n: value_type(d) for n, d in decls.items()
             if not isinstance(d, ast.CharacteristicDecl)} | NAME_TYPES
        )
        self.rule_marks: dict[str, set[str]] = {}
        """The marks rules give each roll's result (``mark ... on``), by the roll's name."""
        for r in rules.values():
            for e in r.effects:
                if isinstance(e, ast.MarkEffect):
                    self.rule_marks.setdefault(e.roll, set()).add(e.mark)
        self.record_fields = frozenset(p.name for d in decls.values()
                                       if isinstance(d, ast.RecordDecl) for p in d.params)
        """The field names of every declared record."""
        self.uses: dict[str, set[str]] = {}
        """What each declaration uses (see :class:`Usage`)."""
        self.token = (tuple((n, d.kind) for n, d in decls.items()), tuple(rules),
                      frozenset(self.marks), frozenset(self.tallies),
                      tuple(sorted(self.globals.names.items())),
                      tuple(sources),
                      tuple(sorted((n, tuple(sorted(m))) for n, m in self.rule_marks.items())),
                      self.record_fields)
        self.user = ""
        """The key the names being checked are used by."""
        self.reassigned: set[str] = set()
        """Names given a new value in the body being checked (see :func:`reassigned`)."""
        self.declarations: DeclarationChecker
        self.effects: EffectChecker
        self.stmts: StatementChecker
        self.exprs: ExpressionChecker
        """The checkers, by part of the language (set by :class:`~rules_run.lang.checker.Checker`
        once they are made, each with this context)."""

    def error(self, message: str, span: Span, code: str, hint: str | None = None) -> None:
        """Report an error at ``span``."""
        self.bag.add(message, span, code=code, hint=hint)

    def kind_of(self, name: str) -> str | None:
        """The kind of the declaration ``name``, or None when there is none."""
        d = self.decls.get(name)
        return d.kind if d is not None else None

    def use(self, name: str, user: str | None = None) -> None:
        """Note that the declaration ``name`` is used (by ``user``, else the current one)."""
        if name in self.decls:
            key = self.user if user is None else user
            self.uses.setdefault(key, set()).add(name)
            if self.record is not None:
                self.record.uses.append((key, name))

    def note_cited(self, seen: object) -> None:
        """Note a citation (or a line) as checked, so it is reported once."""
        self.cited.add(seen)
        if self.record is not None:
            self.record.cited.append(seen)

    def names_of(self, kind: str) -> list[str]:
        """The names of the declarations of ``kind``."""
        return [n for n, d in self.decls.items() if d.kind == kind]


def alternatives(words: Sequence[str]) -> str:
    """``roll``, ``roll or test``, ``roll, test or sequence``."""
    return " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"


def param_types(params: Iterable[ast.Param]) -> dict[str, str]:
    """Parameters by name, with the type of the values they hold."""
    return {p.name: ty.declared(p.type) for p in params}


def value_type(d: ast.Decl) -> str:
    """The type of a declaration's name read as a value: an option's value, a table, the
    name itself (as text) for the others."""
    if isinstance(d, ast.OptionDecl):
        return "text" if d.choices else ty.declared(d.type)
    if isinstance(d, ast.TableDecl):
        return "table"
    return d.kind if d.kind in ty.NAMES else "text"
