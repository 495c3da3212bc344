"""Check a ruleset's declarations: names, arity, types, characteristics, tables, citations.

The checker sees the ruleset after ``extends`` and patches are resolved (one mapping of
names to declarations) and reports every problem it finds into a :class:`DiagnosticBag`.
It never stops at the first.

While it checks, it infers the type of every expression (:mod:`rules_run.lang.types`) and
notes which declarations each declaration uses (:class:`Usage`), from which
:func:`report_unused` warns of declarations nothing that runs can reach.

This module runs the check (and keeps what checking each declaration found, so an editor's
re-check after an edit checks again only what changed); the checks themselves are split by
part of the language, one small checker each sharing one
:class:`~rules_run.lang.check_context.Context`: declarations
(:mod:`~rules_run.lang.check_declarations`), rules and their effects
(:mod:`~rules_run.lang.check_effects`), statements (:mod:`~rules_run.lang.check_statements`)
and expressions (:mod:`~rules_run.lang.check_expressions`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from rules_run import slotted
from rules_run.diagnostics import DiagnosticBag, Severity, Span
from rules_run.lang import ast
from rules_run.lang.check_context import Context
from rules_run.lang.check_declarations import DeclarationChecker
from rules_run.lang.check_effects import EffectChecker
from rules_run.lang.check_expressions import ExpressionChecker
from rules_run.lang.check_statements import StatementChecker

__all__ = ["check_declarations", "report_unused", "Usage", "forget_checked", "WARNED_KINDS",
           "Checker", "Checked"]

WARNED_KINDS = ("roll", "test", "sequence", "action", "phase", "status", "counter", "table",
                "decision", "option")
"""Declarations that do nothing unless something uses them: unused ones are warned of."""


@slotted.frozen
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
    """Where running starts: the battle, every rule (units carry them from data), every
    status with effects (data may apply it), and the declarations index.yaml's attack modes
    name."""

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
    checker = Checker(decls, rules, sources, bag, inherited)
    checker.run()
    roots = {f"rule:{name}" for name in rules} | set(entry_points)
    # a status with effects is a rule a unit carries while it has it: data may apply it
    roots |= {n for n, d in decls.items() if isinstance(d, ast.StatusDecl) and d.effects}
    if isinstance(decls.get("battle"), ast.BattleDecl):
        roots.add("battle")
    return Usage({k: frozenset(v) for k, v in checker.ctx.uses.items()}, frozenset(roots))


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


def _key_text(key: str, decls: Mapping[str, ast.Decl]) -> str:
    """A :class:`Usage` key as messages name it: ``action 'nearest'``, ``rule 'Brave'``."""
    if key.startswith("rule:"):
        return f"rule {key[5:]!r}"
    decl = decls.get(key)
    return f"{decl.kind} {key!r}" if decl is not None else repr(key)


@slotted.define
class Checked:
    """What checking one declaration found, and what that depended on."""

    decl: object
    token: tuple
    """The ruleset's names, kinds, marks, global types and sources when it was checked."""
    reads: dict[tuple[str, object], object] = slotted.slot(factory=dict)
    """(space, name) -> the declaration read under that name (None: there was none)."""
    wholes: set[str] = slotted.slot(factory=set)
    """The spaces (``decls``, ``rules``) gone through whole (then it is not kept)."""
    diagnostics: list = slotted.slot(factory=list)
    uses: list[tuple[str, str]] = slotted.slot(factory=list)
    cited: list[object] = slotted.slot(factory=list)
    texts: frozenset[str] | None = None
    """Every text in the declaration (:func:`decl_texts`), once asked for."""


_CHECKED: dict[int, Checked] = {}
"""id of a declaration -> what checking it found. The parser hands back the same
declaration objects for unchanged text, so after an edit only the declarations that changed,
or that read one that changed, are checked again."""
_CHECKED_AT: dict[tuple[str, str, Span], Checked] = {}
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


class Checker:
    """Runs the checkers of one ruleset over its declarations, each once, or replays what
    checking it found last time when nothing it read has changed."""

    def __init__(self, decls: Mapping[str, ast.Decl], rules: Mapping[str, ast.RuleDecl],
                 sources: tuple[str, ...], bag: DiagnosticBag,
                 inherited: Collection[str] = ()) -> None:
        ctx = self.ctx = Context(decls, rules, sources, bag, inherited)
        ctx.declarations = DeclarationChecker(ctx)
        ctx.effects = EffectChecker(ctx)
        ctx.stmts = StatementChecker(ctx)
        ctx.exprs = ExpressionChecker(ctx)
        self.changes: dict[int, tuple[tuple, frozenset[str] | None]] = {}
        """id of an earlier token -> (it, :func:`token_change` from it to this one)."""

    def token_unread(self, found: Checked) -> bool:
        """Whether checking ``found.decl`` could not have read what changed between its
        token and this ruleset's: the sources are the same, no name that changed occurs
        in the declaration, and it reported nothing (a hint may list every name of a
        kind). What it reads through the declarations themselves :meth:`still` compares."""
        if found.diagnostics:
            return False
        seen = self.changes.get(id(found.token))
        if seen is None or seen[0] is not found.token:
            seen = self.changes[id(found.token)] = (found.token,
                                                    token_change(found.token, self.ctx.token))
        changed = seen[1]
        if changed is None:
            return False
        if found.texts is None:
            texts = _TEXTS.get(id(found.decl))
            if texts is None or texts[0] is not found.decl:
                if len(_TEXTS) >= _CHECKED_SIZE:
                    _TEXTS.clear()
                texts = _TEXTS[id(found.decl)] = (found.decl, decl_texts(found.decl))
            found.texts = texts[1]
        return changed.isdisjoint(found.texts)

    def run(self) -> None:
        """Check every declaration and rule (and the checks that span them: roles, the
        default policy)."""
        self.ctx.declarations.check_roles()
        self.ctx.declarations.check_default_policy()
        self.ctx.declarations.check_cases()
        for decl in self.ctx.raw_decls.values():
            if decl.name not in self.ctx.inherited:
                self.ctx.declarations.check_cite(decl.cite, decl.span,
                                                 f"{decl.kind} {decl.name!r}")
            method = getattr(self.ctx.declarations, f"check_{type(decl).__name__}", None)
            if method is not None:
                self.ctx.user = decl.name
                self.ctx.reassigned = set()
                # a line of characteristics shares what it reports: checked every time
                self.check_once(decl, method, cache=not isinstance(decl, ast.CharacteristicDecl))
        for rule in self.ctx.raw_rules.values():
            if f"rule:{rule.name}" not in self.ctx.inherited:
                self.ctx.declarations.check_cite(rule.cite, rule.span, f"rule {rule.name!r}")
            self.ctx.user = f"rule:{rule.name}"
            self.ctx.reassigned = set()
            self.check_once(rule, self.ctx.effects.check_RuleDecl)

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
            self.ctx.bag.extend(found.diagnostics)
            for key, name in found.uses:
                self.ctx.uses.setdefault(key, set()).add(name)
            self.ctx.cited.update(found.cited)
            return
        record = self.ctx.record = Checked(decl, self.ctx.token)
        first = len(self.ctx.bag.found)
        try:
            method(decl)
        finally:
            self.ctx.record = None
        record.diagnostics = self.ctx.bag.found[first:]
        if cache and not record.wholes:   # what reads a whole space is checked every time
            if len(_CHECKED) >= _CHECKED_SIZE:
                _CHECKED.clear()
            if len(_CHECKED_AT) >= _CHECKED_SIZE:
                _CHECKED_AT.clear()
            _CHECKED[id(decl)] = record
            _CHECKED_AT[_place(decl)] = record

    def still(self, found: Checked) -> bool:
        """Whether what ``found`` depended on is unchanged."""
        if found.token is not self.ctx.token and found.token != self.ctx.token \
                and not self.token_unread(found):
            return False
        spaces = {"decls": self.ctx.raw_decls, "rules": self.ctx.raw_rules}
        return all(_same(spaces[space].get(name), seen)  # type: ignore[call-overload]
                   for (space, name), seen in found.reads.items())


def token_change(before: tuple, now: tuple) -> frozenset[str] | None:
    """The names whose entry differs between two :attr:`Context.token` values: declared
    or not, their kind or global type, rule names, marks, tallies, record fields, the marks
    rules give a roll (the roll's name and the marks). None when the sources differ (every
    citation may read otherwise)."""
    if before[5] != now[5]:
        return None
    out: set[str] = set()
    for i in (0, 4, 6):   # (name, kind), (name, global type), (roll, marks rules give it)
        was, is_ = dict(before[i]), dict(now[i])
        out |= {n for n in was.keys() | is_.keys() if was.get(n) != is_.get(n)}
        if i == 6:
            out |= {m for n in out & (was.keys() | is_.keys())
                    for m in (*was.get(n, ()), *is_.get(n, ()))}
    out |= set(before[1]) ^ set(now[1])
    for i in (2, 3, 7):   # marks, tallies, record fields
        out |= set(before[i]) ^ set(now[i])
    return frozenset(out)


_FIELDS: dict[type, tuple[str, ...]] = {}
"""The attrs fields of each type :func:`decl_texts` went through."""
_TEXTS: dict[int, tuple[object, frozenset[str]]] = {}
"""id of a declaration -> (it, :func:`decl_texts` of it)."""


def decl_texts(value: object) -> frozenset[str]:
    """Every text anywhere in a declaration (names, rule references, messages), and each
    rule reference's name without its parameters (``Fly`` of ``Fly (8)``)."""
    out: set[str] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            out.add(v)
            if "(" in v:
                out.add(v.split("(")[0].strip())
        elif isinstance(v, (tuple, list, set, frozenset)):
            todo.extend(v)
        elif isinstance(v, Mapping):
            todo.extend(v.keys())
            todo.extend(v.values())
        else:
            t = type(v)
            names = _FIELDS.get(t)
            if names is None:
                names = _FIELDS[t] = (tuple(f.name for f in slotted.fields(t))
                                      if slotted.has(t) else ())
            todo.extend(getattr(v, n) for n in names)
    return frozenset(out)

