"""The AST builder's frame: the transformer, its span helpers and the parts callbacks pass up.

:class:`AstBuilder` holds no grammar rule itself: :mod:`rules_run.lang.builder` installs
one callback per rule, generated from a table (:mod:`~rules_run.lang.builder.table`) where
a rule only builds a node from its children, hand-written where it does real work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from lark import Token, Transformer, v_args
from lark.tree import Meta

from rules_run import slotted
from rules_run.diagnostics import Span
from rules_run.lang import ast

__all__ = ["AstBuilder", "BuildError", "Callback", "Clause", "FacePick", "Part", "as_literal",
           "clauses", "position", "unquote"]


def position(token: Token) -> tuple[int, int, int, int]:
    """Where the lexer found ``token``: line, column, end line, end column.

    lark types them optional, for a token made by hand; every token the lexer (or the
    indenter, from a newline) makes has them.
    """
    line, column, end_line, end_column = token.line, token.column, token.end_line, token.end_column
    assert line is not None and column is not None, token
    assert end_line is not None and end_column is not None, token
    return line, column, end_line, end_column


class BuildError(Exception):
    """A mistake the grammar lets through but the AST cannot hold (``0D6``, a clause twice)."""

    def __init__(self, message: str, span: Span, code: str = "syntax",
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code
        self.hint = hint


def unquote(token: Token | str) -> str:
    """A STRING token's text without its quotes (any other text as it is)."""
    s = str(token)
    return s[1:-1] if s.startswith('"') else s


@slotted.frozen
class Part:
    """A piece of a declaration a grammar rule hands up to its parent, by tag (``where C``
    is ``Part("where", C)``); the parent picks it out with :meth:`AstBuilder.part`."""

    tag: str
    value: Any


@slotted.frozen
class Clause:
    """One clause of a roll, a sequence or the battle (``need 4+``, ``damage 1``, ``rounds 6``)."""

    key: str
    value: Any
    """What the clause's grammar rule built, from lark's (untyped) children: the grammar,
    not the type checker, says what each key holds; the declaration reading it knows."""
    span: Span


@slotted.frozen
class FacePick:
    """The faces a ``count`` names, as written (``6``, ``5+``), and where."""

    span: Span
    faces: tuple[str, ...]


Callback = Callable[["AstBuilder", Meta, list[Any]], Any]
"""A grammar rule's callback: the builder, the rule's position and its built children."""


class AstBuilder(Transformer):
    """Turns lark's parse tree into :mod:`rules_run.lang.ast` nodes.

    The callbacks, one per grammar rule, are installed by :meth:`install`; the methods here
    are what they share: spans, and picking children out by type or tag.
    """

    def __init__(self, path: str, line_offset: int = 0, fixed_span: Span | None = None) -> None:
        super().__init__()
        self.path = path
        self.offset = line_offset
        self.fixed_span = fixed_span

    @classmethod
    def install(cls, callbacks: Mapping[str, Callback]) -> None:
        """Make each callback the method of its grammar rule (as lark's ``v_args(meta=True)``
        methods: they are called with the rule's meta and children). A rule named as one
        of the builder's own methods is refused: the callback would hide the method."""
        for rule, callback in callbacks.items():
            assert not hasattr(cls, rule), f"grammar rule {rule!r} hides AstBuilder.{rule}"
            setattr(cls, rule, v_args(meta=True)(callback))

    def span(self, meta: Meta) -> Span:
        """Where a grammar rule's text is (the fixed span, for dice written in data)."""
        if self.fixed_span is not None:
            return self.fixed_span
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1)
        return Span(
            self.path, meta.line + self.offset, meta.column,
            meta.end_line + self.offset, meta.end_column,
        )

    def tspan(self, token: Token) -> Span:
        """Where a token is (the fixed span, for dice written in data)."""
        if self.fixed_span is not None:
            return self.fixed_span
        line, column, end_line, end_column = position(token)
        return Span(self.path, line + self.offset, column, end_line + self.offset, end_column)

    @staticmethod
    def pick(children: Iterable[Any], cls: type) -> list[Any]:
        """The children that are ``cls`` nodes, in order."""
        return [c for c in children if isinstance(c, cls)]

    @staticmethod
    def effects(children: Iterable[Any]) -> tuple[ast.Effect, ...]:
        """The rule effects among the children, in order; a hook on several steps hands up
        one effect for each."""
        return tuple(e for c in children for e in (c if isinstance(c, tuple) else (c,))
                     if isinstance(e, ast.Effect))

    @staticmethod
    def cite(children: Iterable[Any]) -> ast.Cite | None:
        """The declaration's citation, if it has one."""
        return next((c for c in children if isinstance(c, ast.Cite)), None)

    @staticmethod
    def part(children: Iterable[Any], tag: str, default: Any = None) -> Any:
        """The value of the first :class:`Part` tagged ``tag``, or ``default``."""
        return next((c.value for c in children if isinstance(c, Part) and c.tag == tag),
                    default)

    @staticmethod
    def parts(children: Iterable[Any], tag: str) -> list[Any]:
        """The values of every :class:`Part` tagged ``tag``, in order."""
        return [c.value for c in children if isinstance(c, Part) and c.tag == tag]

    @staticmethod
    def param_list(children: Iterable[Any]) -> tuple[ast.Param, ...]:
        """The declared parameters (none when the declaration has no parameter list)."""
        return AstBuilder.part(children, "params", ())

    @staticmethod
    def body(children: Iterable[Any]) -> tuple[ast.Stmt, ...]:
        """The statements of the first block among ``children``, or its one statement."""
        for c in children:
            if isinstance(c, Part) and c.tag == "block":
                return c.value
            if isinstance(c, ast.Stmt):
                return (c,)
        return ()

    @staticmethod
    def names(children: Iterable[Any]) -> list[str]:
        """The NAME tokens among ``children``, as text."""
        return [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]

    @staticmethod
    def flag(children: Iterable[Any], token_type: str) -> bool:
        """Whether a keyword token of ``token_type`` (``RULE_GLOBAL``, ...) was written."""
        return any(isinstance(c, Token) and c.type == token_type for c in children)


def clauses(children: Iterable[Any], what: str,
            repeatable: tuple[str, ...] = ()) -> dict[str, Any]:
    """The clauses among ``children`` by key; repeatable ones as tuples, in order.

    Raises:
        BuildError: at the second of two clauses with the same (non-repeatable) key.
    """
    fields: dict[str, Any] = {}
    repeated: dict[str, list[Any]] = {key: [] for key in repeatable}
    for c in children:
        if not isinstance(c, Clause):
            continue
        if c.key in repeated:
            repeated[c.key].append(c.value)
        elif c.key in fields:
            raise BuildError(f"{what} gives {c.key.replace('_', ' ')!r} twice", c.span,
                             code="duplicate-clause")
        else:
            fields[c.key] = c.value
    fields.update((key, tuple(values)) for key, values in repeated.items())
    return fields


def as_literal(node: Any, builder: AstBuilder) -> ast.Expr:
    """A parameter or option default as an expression node."""
    if isinstance(node, ast.Expr):
        return node
    token = node
    span = builder.tspan(token)
    if token.type in ("INT", "SIGNED_INT_"):
        return ast.Literal(span, int(token), "int")
    if token.type == "DECIMAL":
        return ast.Literal(span, float(token), "number")
    if token.type == "STRING":
        return ast.Literal(span, unquote(token), "text")
    if token.type == "NEED":
        return ast.Literal(span, int(str(token)[:-1]), "need")
    return ast.Name(span, str(token))
