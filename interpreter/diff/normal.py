"""Compare AST nodes by what they say, not where they were written.

Two declarations are the same when their normal forms are equal: every attrs field but the
source spans (and, for the body of a declaration, its citations), through tuples, as nested
plain tuples. A patch that copies a declaration unchanged into another file is no change.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from rules_run import slotted

__all__ = ["normalise", "same", "differing_fields", "SPANS", "SPANS_AND_CITES"]

SPANS: frozenset[str] = frozenset({"span"})
"""Drop only the source spans: two nodes then differ if their citations differ."""
SPANS_AND_CITES: frozenset[str] = frozenset({"span", "cite"})
"""Drop spans and citations: what the rule *does*."""


def normalise(node: Any, drop: Collection[str] = SPANS) -> Any:
    """A hashable, span-free form of an AST node (or of any value inside one).

    An attrs node becomes ``(class name, (field, value), ...)`` over its fields (those in
    ``drop`` left out), tuples and lists become tuples, mappings sorted tuples of pairs.

    Examples:
        >>> from rules_run.diagnostics import Span
        >>> from rules_run.lang import ast
        >>> one = ast.Name(Span("a.rules", 3, 7), "x")
        >>> two = ast.Name(Span("b.rules", 9, 1), "x")
        >>> normalise(one) == normalise(two)
        True
        >>> normalise(one)
        ('Name', ('name', 'x'))
    """
    if isinstance(node, (tuple, list)):
        return tuple(normalise(item, drop) for item in node)
    if slotted.has(type(node)):
        return (type(node).__name__,) + tuple(
            (f.name, normalise(getattr(node, f.name), drop))
            for f in slotted.fields(type(node))
            if f.name not in drop
        )
    if isinstance(node, Mapping):
        return ("mapping",) + tuple(
            sorted(((repr(k), normalise(v, drop)) for k, v in node.items()), key=lambda kv: kv[0])
        )
    if isinstance(node, (set, frozenset)):
        return ("set",) + tuple(sorted(repr(x) for x in node))
    return node


def same(a: Any, b: Any, drop: Collection[str] = SPANS) -> bool:
    """Whether two nodes say the same thing (their spans, and ``drop``, aside)."""
    return normalise(a, drop) == normalise(b, drop)


def _label(item: Any) -> str | None:
    name = getattr(item, "name", None)
    return name if isinstance(name, str) else None


def differing_fields(a: Any, b: Any, drop: Collection[str] = SPANS_AND_CITES) -> list[str]:
    """In words, which fields of two nodes of one class differ.

    A field holding named items (steps, parameters) is compared item by item:
    ``steps: 'wound' changed (hooks)``, ``steps: 'charge' added``.

    Examples:
        >>> from rules_run.diagnostics import Span
        >>> from rules_run.lang import ast
        >>> s = Span("a.rules", 1)
        >>> one = ast.OptionDecl(s, "o", None, default=1)
        >>> differing_fields(one, ast.OptionDecl(s, "o", None, default=2))
        ['default: 1 -> 2']
    """
    if type(a) is not type(b) or not slotted.has(type(a)):
        return [f"{_kind(a)} -> {_kind(b)}"]
    out: list[str] = []
    for f in slotted.fields(type(a)):
        if f.name in drop or f.name == "name":
            continue
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if normalise(va, drop) == normalise(vb, drop):
            continue
        if isinstance(va, tuple) and isinstance(vb, tuple) and va + vb and all(
                _label(x) is not None for x in va + vb):
            out.extend(f"{f.name}: {part}" for part in _named_items(va, vb, drop))
        elif isinstance(va, (int, str, bool, type(None))) and isinstance(
                vb, (int, str, bool, type(None))):
            out.append(f"{f.name}: {va!r} -> {vb!r}")
        else:
            out.append(f.name)
    return out


def _kind(node: Any) -> str:
    kind = getattr(node, "kind", None)
    return kind if isinstance(kind, str) else type(node).__name__


def _named_items(va: tuple, vb: tuple, drop: Collection[str]) -> list[str]:
    by_a = {_label(x): x for x in va}
    by_b = {_label(x): x for x in vb}
    out = []
    for name in dict.fromkeys([*by_a, *by_b]):
        if name not in by_b:
            out.append(f"{name!r} removed")
        elif name not in by_a:
            out.append(f"{name!r} added")
        elif normalise(by_a[name], drop) != normalise(by_b[name], drop):
            inner = differing_fields(by_a[name], by_b[name], drop)
            out.append(f"{name!r} changed ({', '.join(inner)})" if inner else f"{name!r} changed")
    if not out:
        out.append("order changed")
    return out
