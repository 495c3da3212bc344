"""Where each name of a ruleset is declared and where it is used, across its files and
its ``extends`` chain.

A *key* names a declaration the way :attr:`Ruleset.origins` does: the declaration's name, or
``rule:<name>`` for a special rule. Spans are the exact words: the name in its declaration,
each use of it in a rule file, each rule or characteristic a unit file names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, cast

from rules_run import slotted
from rules_run.buffers import read_text
from rules_run.diagnostics import Span
from rules_run.editions.ruleset import Ruleset
from rules_run.lang import ast
from rules_run.lang.rule_refs import resolve_rule
from rules_run.lang.walk import walk

__all__ = ["Index", "rule_key", "word_at"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED = re.compile(r'"([^"\n]*)"')

# String fields of AST nodes that name something local, or are not names at all.
_NOT_REFERENCES = frozenset({"message", "op", "kind", "effect", "type", "entity", "role",
                             "policy", "order", "picker", "which", "part", "result", "var",
                             "stop_on", "removes_on", "until", "scope", "file", "doc", "mark",
                             "note", "source", "step", "keep", "die_name", "value", "reroll"})
_DEFINING = (ast.Decl, ast.Param, ast.Let, ast.Step, ast.PatchOp, ast.Header, ast.SourceDecl)


def rule_key(name: str) -> str:
    """The key of the rule ``name``."""
    return f"rule:{name}"


def word_at(line: str, column: int) -> tuple[str, bool] | None:
    """The name under 1-based ``column`` of ``line``: a word, or the text of a quoted
    string (then the flag is True).

    Examples:
        >>> word_at('    u has "Rule" and x', 14)
        ('Rule', True)
        >>> word_at("    dice D6", 8)
        ('dice', False)
        >>> word_at("    a  +  b", 8) is None   # on the "+"
        True
    """
    i = column - 1
    for m in _QUOTED.finditer(line):
        if m.start() <= i < m.end():
            return m.group(1), True
    for m in _WORD.finditer(line):
        if m.start() <= i <= m.end():   # on the word, or just after it
            return m.group(), False
    return None


@slotted.frozen
class _Texts:
    """Source lines by path, read once per index."""

    lines: dict[str, list[str]] = slotted.slot(factory=dict)

    def of(self, path: str) -> list[str]:
        if path not in self.lines:
            try:
                self.lines[path] = read_text(path).splitlines()
            except (OSError, UnicodeError):
                self.lines[path] = []
        return self.lines[path]


class Index:
    """The declarations and uses of one loaded ruleset (and the rulesets it extends)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._texts = _Texts()
        self.definitions: dict[str, list[Span]] = {}
        """key -> where it is declared: the declaration in force first, then those it
        overrides down the chain."""
        self.references: dict[str, list[Span]] = {}
        """key -> every use of it."""
        self.declarations: dict[str, ast.Decl] = {}
        """key -> the declaration in force."""
        chain: list[Ruleset] = []
        current: Ruleset | None = ruleset
        while current is not None:
            chain.append(current)
            current = current.base
        seen: set[int] = set()
        for level in chain:
            for key, decl in _keyed(level):
                self.declarations.setdefault(key, decl)
                if id(decl) in seen:
                    continue
                seen.add(id(decl))
                where = self._name_span(decl)
                if where not in self.definitions.setdefault(key, []):
                    self.definitions[key].append(where)
                self._collect(decl)
            for _, ops in level.patches[-1:] if level.base is not None else ():
                for op in ops:
                    if op.decl is None:
                        self._add_ref(_key_of(op.kind, op.name), self._find(op.span, op.name,
                                                                            op.kind == "rule"))
        for located in list(ruleset.units.values()) + list(ruleset.equipment.values()):
            self._collect_data(located)
        for refs in self.references.values():
            refs.sort(key=lambda s: (s.path, s.line, s.column))

    # ------------------------------------------------------------ queries
    def key_for(self, word: str, quoted: bool) -> str | None:
        """The key a word names in this ruleset, if any."""
        if quoted:
            try:
                rule, _ = resolve_rule(word, self.ruleset.rules)
            except ValueError:
                return None
            return rule_key(rule.name) if rule is not None else None
        if word in self.declarations and not word.startswith("rule:"):
            return word
        return None

    def key_at(self, path: str, line: int, column: int) -> str | None:
        """The key of the name at a 1-based position of ``path``, if it names one."""
        lines = self._texts.of(path)
        if not 1 <= line <= len(lines):
            return None
        found = word_at(lines[line - 1], column)
        if found is None:
            return None
        key = self.key_for(*found)
        if key is None and not found[1]:
            # an unquoted rule name in YAML (rules: [Stubborn])
            key = self._yaml_rule(lines[line - 1], column)
        return key

    def _yaml_rule(self, line: str, column: int) -> str | None:
        """The rule named by the YAML scalar around ``column`` (in a flow list, a map)."""
        start = max(line.rfind(c, 0, column - 1) for c in "[,:{-") + 1
        ends = [i for i in (line.find(c, column - 1) for c in "],}#") if i >= 0]
        text = line[start:min(ends) if ends else len(line)].strip().strip("'\"")
        return self.key_for(text, True) if text else None

    # ------------------------------------------------------------ building
    def _name_span(self, decl: ast.Decl) -> Span:
        return self._find(decl.span, decl.name, isinstance(decl, ast.RuleDecl))

    def _find(self, within: Span, word: str, quoted: bool, last: bool = False) -> Span:
        """The span of ``word`` inside ``within`` (its first, or ``last``, occurrence);
        ``within`` itself when the text does not have it."""
        lines = self._texts.of(within.path)
        pattern = re.compile(re.escape(f'"{word}') if quoted
                             else rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])")
        end_line = within.end_line or within.line
        found: Span | None = None
        for number in range(within.line, min(end_line, len(lines)) + 1):
            text = lines[number - 1]
            start = within.column - 1 if number == within.line else 0
            stop = (within.end_column - 1 if number == end_line and within.end_column
                    else len(text))
            for m in pattern.finditer(text, start, max(stop, start)):
                col = m.start() + (2 if quoted else 1)
                found = Span(within.path, number, col, number, col + len(word))
                if not last:
                    return found
        return found or within

    def _add_ref(self, key: str, span: Span) -> None:
        self.references.setdefault(key, []).append(span)

    def _collect(self, decl: ast.Decl) -> None:
        names = self.ruleset.decls
        rules = self.ruleset.rules
        for node in walk(decl):
            span = getattr(node, "span", None)
            if not isinstance(span, Span):
                continue
            for f in slotted.fields(cast(Any, type(node))):
                value = getattr(node, f.name)
                if f.name == "name" and isinstance(node, _DEFINING):
                    continue
                if isinstance(value, str) and f.name not in _NOT_REFERENCES:
                    if f.name == "rule" and value in rules:
                        self._add_ref(rule_key(value), self._find(span, value, True))
                    elif value in names:
                        self._add_ref(value, self._find(span, value, False,
                                                        last=isinstance(node, ast.Attribute)))
            if isinstance(node, ast.PolicyDecl):
                for decision, _ in node.choices:
                    if decision in names:
                        self._add_ref(decision, self._find(span, decision, False))

    def _collect_data(self, located) -> None:
        doc = located.doc
        for path, text in located.rule_refs():
            try:
                rule, _ = resolve_rule(text, self.ruleset.rules)
            except ValueError:
                continue
            if rule is not None:
                self._add_ref(rule_key(rule.name), doc.span(path))
        for path, profile in located.profiles():
            for name in profile:
                if name in self.ruleset.decls:
                    self._add_ref(name, doc.key_span(path + (name,)))


def _key_of(kind: str, name: str) -> str:
    return rule_key(name) if kind == "rule" else name


def _keyed(ruleset: Ruleset) -> Iterator[tuple[str, ast.Decl]]:
    for name, decl in ruleset.decls.items():
        yield name, decl
    for name, rule in ruleset.rules.items():
        yield rule_key(name), rule
