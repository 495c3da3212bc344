"""Parse a YAML text into a :class:`~rules_run.data.yaml_loader.YamlDocument`: the dialect
that :mod:`rules_run.data.yaml_loader` describes, on PyYAML.

Kept apart so that PyYAML is imported only when a text is parsed: a warm start reads every
document it needs from the disk cache.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, NoReturn

import yaml

from rules_run.data.yaml_loader import DataPath, YamlDocument, _Location
from rules_run.diagnostics import DataError, DiagnosticBag, Span
from rules_run.limits import limit, too_many

__all__ = ["parse"]

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
_MERGE = "tag:yaml.org,2002:merge"

_INT_RE = re.compile(r"^[-+]?[0-9]+$")
_FLOAT_RE = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_BOOL_RE = re.compile(r"^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$")
_NULL_RE = re.compile(r"^(?:~|[Nn][Uu][Ll][Ll]|)$")

_SCALARS: dict[str, tuple[re.Pattern[str], Callable[[str], Any]]] = {
    _INT: (_INT_RE, int),
    _FLOAT: (_FLOAT_RE, float),
    _BOOL: (_BOOL_RE, lambda text: text.lower() == "true"),
    _NULL: (_NULL_RE, lambda text: None),
}
"""The plain scalar types: what each is spelt like, and how to read it."""

_MAX_ALIASED = 100_000
"""More values reached through aliases than this can only come from aliases expanding
aliases (a "billion laughs"); values written out are bounded by the file size instead."""

_MAX_DIGITS = 15
"""Digits a whole number may have: more is a typo (and Python refuses past 4,300)."""

_TOKEN_WORDS = (
    ("found unexpected end of stream", "reached the end of the file"),
    ("'?'", "another key"),
    ("'<block mapping start>'", "a mapping that starts here"),
    ("'<block sequence start>'", "a list that starts here"),
    ("'<stream end>'", "the end of the file"),
    ("<block end>", "the end of the indented block"),
)
"""PyYAML's token names, in the words a user would use."""

_SYNTAX_HINTS = (
    ("'\\t'", "indent with spaces: YAML does not allow tabs here"),
    ("mapping values are not allowed here", "put quotes around a value that contains ': '"),
    ("could not find expected ':'", "a key needs a ':' after it"),
    ("end of the indented block", "check this line's indentation against the lines above"),
    ("found undefined alias", "define the anchor (&name) before the alias (*name) uses it"),
    ("end of the file while scanning a quoted scalar", "close the quotes"),
    ("end of the file while parsing a flow sequence", "close the '[' with a ']'"),
    ("end of the file while parsing a flow mapping", "close the '{' with a '}'"),
    ("another document", "a file holds one YAML document: remove the second '---'"),
)


class _Loader(yaml.SafeLoader):
    """The YAML dialect described in the module docstring.

    Own implicit resolvers, never registered on PyYAML's global loaders. Aliases come back
    wrapped in :class:`_AliasNode`, so a value reached through an alias is located at the
    alias, not at the anchor.
    """

    yaml_implicit_resolvers: dict[Any, Any] = {}

    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            target = super().compose_node(parent, index)
            assert target is not None  # an alias always stands for an anchored node
            return _AliasNode(target, event.start_mark, event.end_mark)
        self.depth += 1
        try:
            if self.depth > limit("depth"):
                raise _TooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_Loader.add_implicit_resolver(_BOOL, _BOOL_RE, list("tTfF"))
_Loader.add_implicit_resolver(_INT, _INT_RE, list("-+0123456789"))
_Loader.add_implicit_resolver(_FLOAT, _FLOAT_RE, list("-+.0123456789"))
_Loader.add_implicit_resolver(_NULL, _NULL_RE, ["~", "n", "N", ""])
_Loader.add_implicit_resolver(_MERGE, re.compile(r"^<<$"), ["<"])


class _TooDeep(Exception):
    """Lists and mappings nested past the ``depth`` limit (composing stops there)."""

    def __init__(self, mark: Any) -> None:
        super().__init__("too deep")
        self.mark = mark


class _AliasNode(yaml.Node):
    """A use of an alias (``*name``): where it was written, and the node it stands for."""

    def __init__(self, target: yaml.Node, start_mark: Any, end_mark: Any) -> None:
        super().__init__(target.tag, target.value, start_mark, end_mark)
        self.target = target



def parse(shown: str, text: str) -> YamlDocument:
    """The document ``text`` holds (named ``shown``): :func:`~rules_run.data.yaml_loader.load_yaml`
    without the disk cache."""
    bag = DiagnosticBag()
    bag.remember_source(shown, text)
    try:
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        _syntax_error(bag, shown, text, exc)
    except _TooDeep as exc:
        line, column = exc.mark.line + 1, exc.mark.column + 1
        bag.add(too_many("depth", "levels of lists and mappings one inside another"),
                Span(shown, line, column, line, column + 1), code="too-deep")
        raise DataError(bag.items) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        bag.add(
            f"unacceptable character #x{exc.character:04x}: {exc.reason}",
            Span(shown, line, column, line, column + 1),
            code="yaml-syntax",
        )
        raise DataError(bag.items) from None
    if root is None:
        locations: dict[DataPath, _Location] = {(): _Location(None, Span(shown, 1, 1))}
        return YamlDocument(shown, text, None, locations=locations)
    builder = _Builder(shown, bag)
    try:
        value = builder.build(root, (), None)
    except _TooLarge:
        raise DataError(bag.items) from None
    bag.raise_if_errors(DataError)
    return YamlDocument(shown, text, value, locations=builder.locations)


def _syntax_error(bag: DiagnosticBag, shown: str, text: str, exc: yaml.MarkedYAMLError) -> NoReturn:
    problem = exc.problem or exc.context or "invalid YAML"
    for token, words in _TOKEN_WORDS:
        problem = problem.replace(token, words)
    mark, context = exc.problem_mark, exc.context
    if mark is None or (mark.index >= len(text.rstrip()) and exc.context_mark is not None):
        # Ran off the end of the file: point at what was left open, not past the last line.
        mark, message, context = exc.context_mark, f"{problem} {context}", None
    elif problem.startswith("but ") and context:
        message, context = f"{context}, {problem}", None
    else:
        message = problem
    hint = next((h for pattern, h in _SYNTAX_HINTS if pattern in message), None)
    if hint is None and context and exc.context_mark is not None:
        hint = f"{context} that starts at line {exc.context_mark.line + 1}"
    span = None
    if mark is not None:
        span = Span(shown, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)
    bag.add(message, span, code="yaml-syntax", hint=hint)
    raise DataError(bag.items) from None


class _TooLarge(Exception):
    """Stop building: aliases expand the document past :data:`_MAX_ALIASED` values."""


def _tag_name(tag: str) -> str:
    """``!!int`` for a standard tag, the tag as written otherwise."""
    prefix = "tag:yaml.org,2002:"
    return "!!" + tag.removeprefix(prefix) if tag.startswith(prefix) else tag


def _end_mark(node: yaml.Node) -> Any:
    """Where ``node`` ends.

    PyYAML ends a block collection where the next token starts, often lines later; it ends
    here where its last value ends.
    """
    if isinstance(node, yaml.CollectionNode):
        if not node.flow_style and node.value:
            last = node.value[-1]
            return _end_mark(last[1] if isinstance(node, yaml.MappingNode) else last)
    return node.end_mark


class _Builder:
    """Turns a composed node tree into plain data, filling the location index as it goes."""

    def __init__(self, shown: str, bag: DiagnosticBag) -> None:
        self.shown = shown
        self.bag = bag
        self.locations: dict[DataPath, _Location] = {}
        self.aliased = 0
        """Values built through aliases so far."""
        self.through: list[Span] = []
        """The aliases the value being built is reached through, outermost first."""
        self.active: set[int] = set()
        """The collection nodes being built, to catch an alias inside its own anchor."""

    def span(self, node: yaml.Node) -> Span:
        start, end = node.start_mark, _end_mark(node)
        return Span(self.shown, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def build(self, node: yaml.Node, path: DataPath, key_span: Span | None) -> Any:
        span = self.span(node)
        alias = isinstance(node, _AliasNode)
        if alias:
            self.through.append(span)
        try:
            if self.through:
                self.aliased += 1
                if self.aliased > _MAX_ALIASED:
                    self.bag.add(
                        f"the document expands to more than {_MAX_ALIASED} values through "
                        "aliases (here: an alias of values holding aliases, and so on)",
                        self.through[0], code="too-large",
                    )
                    raise _TooLarge
            return self.value(node, path, key_span, span)
        finally:
            if alias:
                self.through.pop()

    def value(self, node: yaml.Node, path: DataPath, key_span: Span | None, span: Span) -> Any:
        self.locations[path] = _Location(key_span, span)
        target = node.target if isinstance(node, _AliasNode) else node
        if id(target) in self.active:
            self.bag.add("this alias is used inside its own anchor", span, code="recursive-alias")
            return None
        if isinstance(target, yaml.ScalarNode):
            return self.scalar(target, span)
        self.active.add(id(target))
        value: list[Any] | dict[Any, Any] | None
        if isinstance(target, yaml.SequenceNode):
            value = self.sequence(target, path, span)
        else:
            assert isinstance(target, yaml.MappingNode)  # the only other kind PyYAML composes
            value = self.mapping(target, path, span)
        self.active.discard(id(target))
        return value

    def scalar(self, node: yaml.ScalarNode, span: Span) -> Any:
        if node.tag in (_STR, _MERGE):
            return node.value
        if node.tag not in _SCALARS:
            self.unknown_tag(node, span)
            return None
        pattern, convert = _SCALARS[node.tag]
        if node.tag == _INT and len(node.value.lstrip("+-")) > _MAX_DIGITS:
            self.bag.add(f"{node.value[:12]}... ({len(node.value)} digits) is too large a "
                         f"number; a whole number has at most {_MAX_DIGITS} digits", span,
                         code="bad-value")
            return None
        if pattern.match(node.value):
            value = convert(node.value)
            if isinstance(value, float) and math.isinf(value):
                self.bag.add(f"{node.value} is too large a number", span, code="bad-value",
                             hint="a number up to about 1e308")
                return None
            return value
        # Only an explicit tag (``!!int abc``) can get here: the resolvers match the patterns.
        self.bag.add(f"{node.value!r} is not a valid {_tag_name(node.tag)}", span, code="bad-value")
        return None

    def unknown_tag(self, node: yaml.Node, span: Span) -> None:
        self.bag.add(
            f"unknown tag {_tag_name(node.tag)!r}",
            span,
            code="unknown-tag",
            hint="rules-run data uses plain YAML values: remove the tag, or quote the value "
            "to keep it as text",
        )

    def sequence(self, node: yaml.SequenceNode, path: DataPath, span: Span) -> list[Any] | None:
        if node.tag != _SEQ:
            self.unknown_tag(node, span)
            return None
        return [self.build(child, path + (i,), None) for i, child in enumerate(node.value)]

    def mapping(self, node: yaml.MappingNode, path: DataPath, span: Span) -> dict[Any, Any] | None:
        if node.tag != _MAP:
            self.unknown_tag(node, span)
            return None
        result: dict[Any, Any] = {}
        first_lines: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key_span = self.span(key_node)
            key_target = key_node.target if isinstance(key_node, _AliasNode) else key_node
            if key_target.tag == _MERGE:
                self.bag.add(
                    "merge keys ('<<') are not supported",
                    key_span,
                    code="merge-key",
                    hint="write the keys out, or use an alias (*name) for the whole value",
                )
                continue
            if not isinstance(key_target, yaml.ScalarNode):
                self.bag.add(
                    "a mapping key must be a plain value (a name or a number), not a "
                    + ("list" if isinstance(key_target, yaml.SequenceNode) else "mapping"),
                    key_span,
                    code="bad-key",
                )
                continue
            key = self.scalar(key_target, key_span)
            if key in first_lines:
                self.bag.add(
                    f"duplicate key {key!r} (first given at line {first_lines[key]})",
                    key_span,
                    code="duplicate-key",
                )
                # Still look inside the value for mistakes, but keep it out of the index.
                kept, self.locations = self.locations, {}
                self.build(value_node, path + (key,), key_span)
                self.locations = kept
                continue
            first_lines[key] = key_span.line
            result[key] = self.build(value_node, path + (key,), key_span)
        return result
