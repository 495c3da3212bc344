"""Walk the AST: every node below a declaration, depth first."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules_run import slotted
from rules_run.lang import ast

__all__ = ["walk", "rule_names_used"]


_FIELDS: dict[type, tuple[str, ...] | None] = {}

_SOURCES: dict[type, frozenset[str]] = {
    ast.SequenceDecl: frozenset({"reuses", "changes"}),
    ast.RollDecl: frozenset({"changes"}),
}
"""Fields a reusing declaration was resolved from (:mod:`rules_run.lang.reuse`): what they
say is in its own clauses once it is, so they are not walked (a sequence's base, read as a
call, would make it seem to call a sequence)."""


def _fields(cls: type) -> tuple[str, ...] | None:
    """The fields of an AST node class that may hold nodes (all but ``span``), or None for
    a class that is not a node (asked once per class)."""
    try:
        return _FIELDS[cls]
    except KeyError:
        skip = _SOURCES.get(cls, frozenset()) | {"span"}
        names = (tuple(f.name for f in slotted.fields(cls) if f.name not in skip)
                 if slotted.has(cls) else None)
        _FIELDS[cls] = names
        return names


def walk(node: object) -> Iterator[object]:
    """Yield ``node`` and every AST node inside it (record instances, through tuples), in
    the order the text has them (pre-order)."""
    stack = [node]
    fields = _fields
    while stack:
        current = stack.pop()
        if isinstance(current, tuple):
            stack.extend(reversed(current))
            continue
        names = fields(type(current))
        if names is None:
            continue
        yield current
        children = [getattr(current, name) for name in names]
        stack.extend(reversed([c for c in children
                               if isinstance(c, tuple) or fields(type(c)) is not None]))


def rule_names_used(decls: Iterable[ast.Decl]) -> set[str]:
    """Rule names the declarations test for (``x has "Brave"``) or read by name."""
    used: set[str] = set()
    for decl in decls:
        for node in walk(decl):
            if isinstance(node, ast.Has):
                used.add(node.rule)
            elif isinstance(node, ast.Literal) and node.kind == "text":
                used.add(str(node.value))
    return used
