"""Walk the AST: every node below a declaration, depth first."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from interpreter.lang import ast

__all__ = ["walk", "rule_names_used"]


def walk(node: object) -> Iterator[object]:
    """Yield ``node`` and every AST node inside it (attrs instances, through tuples), in
    the order the text has them (pre-order)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, tuple):
            stack.extend(reversed(current))
            continue
        cls = type(current)
        if not attrs.has(cls):
            continue
        yield current
        children = [getattr(current, f.name) for f in attrs.fields(cls) if f.name != "span"]
        stack.extend(reversed([c for c in children if isinstance(c, tuple) or attrs.has(type(c))]))


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
