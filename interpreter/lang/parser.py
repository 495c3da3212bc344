"""Parse rule files into the AST, reporting every syntax error with its location.

A file is cut into top-level chunks (a line at column 1 starts a new declaration) and each
chunk is parsed on its own, so one mistake does not hide the rest: every chunk with a syntax
error gets its own diagnostic. Chunks keep their real line numbers.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TypedDict

import attrs
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError, Indenter

from rules_run import cache
from rules_run.buffers import read_text
from rules_run.diagnostics import Diagnostic, DiagnosticBag, LanguageError, Span, did_you_mean
from rules_run.lang import ast
from rules_run.limits import current as current_limits
from rules_run.limits import limit, too_many
from rules_run.paths import GRAMMAR_DIR, PathRefused

__all__ = ["parse_rules", "parse_file", "parse_dice", "grammar_parser", "forget_parsed"]


class _IndentError(Exception):
    """A line is dedented to a column no enclosing block starts at (lark's DedentError, located)."""

    def __init__(self, line: int, column: int, levels: list[int]) -> None:
        super().__init__(f"dedent to column {column} at line {line}")
        self.line = line
        """The line, counted in the chunk being parsed."""
        self.column = column
        """1-based column of the line's first character."""
        self.levels = levels
        """The indentations (in spaces) of the blocks open before the line."""


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def handle_NL(self, token: Token) -> Iterator[Token]:
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            # The newline token ends where the next line's text starts.
            _, _, end_line, end_column = _position(token)
            raise _IndentError(end_line, end_column, levels) from None


def _position(token: Token) -> tuple[int, int, int, int]:
    """Where the lexer found ``token``: line, column, end line, end column.

    lark types them optional, for a token made by hand; every token the lexer (or the
    indenter, from a newline) makes has them.
    """
    line, column, end_line, end_column = token.line, token.column, token.end_line, token.end_column
    assert line is not None and column is not None, token
    assert end_line is not None and end_column is not None, token
    return line, column, end_line, end_column


_LAYOUT_TOKENS = frozenset({"_NL", "_INDENT", "_DEDENT"})


class _TakesSpace:
    """Whether a node counts for the span of its parent: newlines and indentation do not,
    so a declaration ends at its last word, not at the start of the next line.

    A class with a fixed ``repr`` rather than a function: Lark's cache key includes the
    text of its options, and a function's holds its address, new in every process."""

    def __call__(self, node: object) -> bool:
        return not (isinstance(node, Token) and node.type in _LAYOUT_TOKENS)

    def __repr__(self) -> str:
        return "_takes_space"


_takes_space = _TakesSpace()


class _TokenError(Exception):
    """A token the grammar accepts but rules-run cannot hold (a number of 5,000 digits)."""

    def __init__(self, message: str, token: Token, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.token = token
        self.code = code


_MAX_DIGITS = 15
"""Digits a number in a rule file may have: more is a typo, and Python refuses past 4,300."""

_DICE_RE = re.compile(r"([0-9]*)D([0-9]+)(?:x([0-9]+))?")


def _check_number(token: Token) -> Token:
    """Refuse a number with more than :data:`_MAX_DIGITS` digits (lexer callback)."""
    if len(token.strip("+-").split(".")[0]) > _MAX_DIGITS:
        raise _TokenError(f"{token[:12]}... ({len(token)} digits) is too large a number; a "
                          f"number has at most {_MAX_DIGITS} digits", token, "bad-number")
    return token


def _check_dice(token: Token) -> Token:
    """Refuse dice past the ``dice`` and ``faces`` limits (lexer callback)."""
    m = _DICE_RE.fullmatch(str(token))
    assert m is not None  # the DICE terminal's own pattern
    count, sides, times = (m.group(i) or "1" for i in (1, 2, 3))
    if max(len(count), len(sides), len(times)) > _MAX_DIGITS:
        raise _TokenError(f"{token[:12]}... holds too large a number", token, "bad-number")
    for digits, name, what in ((count, "dice", "dice in one roll"),
                               (sides, "faces", "faces on a die")):
        if int(digits) > limit(name):
            raise _TokenError(too_many(name, what, int(digits)), token, "too-many-dice")
    return token


@functools.cache
def grammar_parser() -> Lark:
    """The LALR parser for ``grammar/rules.lark`` (built once per process, and its tables
    kept in the disk cache, :mod:`rules_run.cache`)."""
    folder = cache.cache_dir()
    where: str | bool = False
    if folder is not None:
        try:
            (folder / "grammar").mkdir(parents=True, exist_ok=True)
            where = str(folder / "grammar" / "rules.lark.pickle")
        except OSError:
            where = False
    return Lark(
        (GRAMMAR_DIR / "rules.lark").read_text(encoding="utf-8"),
        parser="lalr",
        postlex=_RulesIndenter(),
        propagate_positions=_takes_space,
        maybe_placeholders=False,
        start=["start", "dice_expr"],
        cache=where,
        lexer_callbacks={"INT": _check_number, "SIGNED_INT_": _check_number,
                         "DECIMAL": _check_number, "NEED": _check_number, "DICE": _check_dice},
    )


def _too_deep(tree: Tree) -> Tree | None:
    """Where a declaration nests deeper than the ``depth`` limit: the statement (a node
    near the top) holding the deepest node; or None. Walked without recursion, so a tree
    of any depth is measured before anything recurses into it."""
    most = limit("depth")
    stack: list[tuple[Tree, int, Tree]] = [(tree, 0, tree)]
    while stack:
        node, depth, top = stack.pop()
        if depth > most:
            return top
        stack.extend((c, depth + 1, c if depth < 4 and not c.meta.empty else top)
                     for c in node.children if isinstance(c, Tree))
    return None


# Human names for the grammar's terminals, used in "expected ..." lists.
_TERMINAL_NAMES = {
    "NAME": "a name",
    "STRING": 'a quoted string ("...")',
    "INT": "a whole number",
    "SIGNED_INT_": "a signed number (+1, -2)",
    "DECIMAL": "a decimal number",
    "NEED": "a score such as 4+",
    "DICE": "dice such as D6 or 2D6",
    "LINE_RANGE": "a line such as L450 or L418-L422",
    "SEED": "a seed number such as 004",
    "EDITION_ID": "an edition id such as core or core-season2",
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block",
    "$END": "end of file",
    "COMP_OP": "a comparison (<, <=, ==, ...)",
    "ADD_OP": "+ or -",
    "MUL_OP": "*, / or //",
    "ASSIGN_OP": "=, += or -=",
}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[terminal]
    term = grammar_parser().get_terminal(terminal)
    pattern = term.pattern
    if pattern.type == "str":
        return repr(pattern.value)
    return terminal.lower()


# Common mistakes, recognised by example (lark's match_examples): label -> bad snippets.
SYNTAX_ERROR_EXAMPLES: dict[str, list[str]] = {
    "a citation needs '@' followed by a line (L450) or a quoted note": [
        "status fleeing L508\n",
        "status fleeing @ 508\n",
    ],
    "a test or roll needs an indented body (dice, need, ...)": [
        "test t(u: unit) @ L1\n",
        "roll r() @ L1\n",
    ],
    "a rule name is a quoted string: rule \"Name\"": [
        "rule Brave @ L1\n",
    ],
    "a step is named, then ':' and the test it calls: step hit: to_hit(a, t) stops on fail": [
        "sequence s() @ L1\n    step hit t() stops on fail\n",
    ],
    "a table names its keys in parentheses: table t(a, b) from \"file.yaml\"": [
        'table t from "x.yaml" @ L1\n',
    ],
}


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split into top-level chunks: (number of lines before the chunk, its text)."""
    lines = text.splitlines(keepends=True)
    starts: list[int] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and not line[0].isspace():
            if starts and _continues(lines[i - 1] if i else ""):
                continue
            starts.append(i)
    out = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        body = "".join(lines[start:end])
        if not body.endswith("\n"):
            body += "\n"
        out.append((start, body))
    return out


def _continues(previous_line: str) -> bool:
    return previous_line.rstrip().endswith("\\")


def _stray_indent(text: str) -> tuple[int, int] | None:
    """The line and column of an indented line before the first declaration, if any.

    Chunks start at column 1, so such lines belong to no chunk; without this check they
    would be silently ignored.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0].isspace():
            return number, len(line) - len(line.lstrip()) + 1
        return None
    return None


def parse_rules(text: str, path: str, bag: DiagnosticBag | None = None) -> ast.RulesFile:
    """Parse the text of one rule file.

    Args:
        text: the file's contents.
        path: the file name used in spans and diagnostics.
        bag: where to record diagnostics; when None, a LanguageError is raised on errors.

    Returns:
        The parsed file; chunks with syntax errors are left out (and reported).

    Raises:
        LanguageError: with every syntax error, when ``bag`` is None.
    """
    own_bag = bag is None
    bag = bag if bag is not None else DiagnosticBag()
    bag.remember_source(path, text)
    if "\t" in text:
        line_no = text[: text.index("\t")].count("\n") + 1
        col = len(text[: text.index("\t")].rsplit("\n", 1)[-1]) + 1
        bag.add(
            "tab character in a rule file",
            Span(path, line_no, col, line_no, col + 1),
            code="syntax",
            hint="indent with spaces (4 per level)",
        )
        text = text.replace("\t", "    ")
    stray = _stray_indent(text)
    if stray is not None:
        bag.add(
            "unexpected indentation: this line is indented, but no declaration starts above it",
            Span(path, stray[0], stray[1]),
            code="syntax",
            hint="start each declaration at column 1; indent only the lines of its body",
        )
    header: ast.Header | None = None
    items: list[ast.Decl | ast.PatchOp] = []
    for offset, chunk in _chunks(text):
        result, problems = _parse_chunk(chunk, path, offset, text)
        bag.extend(problems)
        for item in result:
            if isinstance(item, ast.Header):
                if header is not None:
                    bag.add(
                        "a rule file has one 'ruleset' header; this is a second one "
                        f"(the first is at line {header.span.line})",
                        item.span,
                        code="duplicate-header",
                        hint="declare the ruleset once, at the top of its first rule file",
                    )
                else:
                    header = item
            else:
                items.extend(item if isinstance(item, list) else [item])
    if own_bag:
        bag.raise_if_errors(LanguageError)
    return ast.RulesFile(path=path, header=header, items=tuple(items))


_CHUNK_CACHE: dict[tuple[str, str, tuple[int, ...]], tuple[int, list, list[Diagnostic]]] = {}
"""(file, chunk text) -> the line offset it was parsed at, what it parsed to, its syntax
errors. An editor re-checks a file after each keystroke: only the chunks that changed are
parsed again; a chunk that only moved (lines added above it) has its spans moved."""
_CHUNK_CACHE_SIZE = 20_000


def forget_parsed() -> None:
    """Forget every chunk parsed (to time a cold parse)."""
    _CHUNK_CACHE.clear()


def _parse_chunk(chunk: str, path: str, offset: int, text: str) -> tuple[list, list[Diagnostic]]:
    """One chunk's declarations (or header) and its syntax errors (none, or one)."""
    key = (path, chunk, current_limits())
    cached = _CHUNK_CACHE.get(key)
    if cached is not None:
        at, result, problems = cached
        if at == offset:
            return result, problems
        result, problems = _moved(result, offset - at), _moved(problems, offset - at)
    else:
        result, problems = _parse_chunk_text(chunk, path, offset, text)
    if len(_CHUNK_CACHE) >= _CHUNK_CACHE_SIZE:
        _CHUNK_CACHE.clear()
    _CHUNK_CACHE[key] = (offset, result, problems)
    return result, problems


def _parse_chunk_text(chunk: str, path: str, offset: int,
                      text: str) -> tuple[list, list[Diagnostic]]:
    bag = DiagnosticBag()
    bag.remember_source(path, text)
    try:
        tree = grammar_parser().parse(chunk, start="start")
    except UnexpectedInput as err:
        _report_syntax(err, chunk, path, offset, bag)
        return [], bag.items
    except _IndentError as err:
        _report_dedent(err, path, offset, bag)
        return [], bag.items
    except _TokenError as err:
        line, column, end_line, end_column = _position(err.token)
        bag.add(err.message, Span(path, line + offset, column, end_line + offset, end_column),
                code=err.code)
        return [], bag.items
    deep = _too_deep(tree)
    if deep is not None:
        line = deep.meta.line + offset if not deep.meta.empty else offset + 1
        bag.add(too_many("depth", "levels of nesting in one declaration"),
                Span(path, line, deep.meta.column if not deep.meta.empty else 1),
                code="too-deep",
                hint="an expression inside an expression, or a sum of as many terms: "
                "split it with 'let' or an action")
        return [], bag.items
    try:
        return _AstBuilder(path, offset).transform(tree), bag.items
    except (VisitError, RecursionError) as err:
        orig = err.orig_exc if isinstance(err, VisitError) else err
        if isinstance(orig, RecursionError):  # the depth limit raised past the stack
            bag.add("this declaration nests too deeply to be read; lower --limit depth",
                    Span(path, offset + 1, 1), code="too-deep")
            return [], bag.items
        if not isinstance(orig, _BuildError):
            raise
        bag.add(orig.message, orig.span, code=orig.code)
        return [], bag.items


def _moved(node: Any, lines: int) -> Any:
    """``node`` (AST nodes, diagnostics, in lists and tuples) with every span ``lines``
    further down."""
    if isinstance(node, Span):
        return attrs.evolve(node, line=node.line + lines,
                            end_line=None if node.end_line is None else node.end_line + lines)
    if isinstance(node, (list, tuple)):
        return type(node)(_moved(n, lines) for n in node)
    if attrs.has(type(node)):
        return attrs.evolve(node, **{f.name: _moved(getattr(node, f.name), lines)
                                     for f in attrs.fields(type(node)) if f.init})
    return node


def parse_file(path: str | Path, bag: DiagnosticBag | None = None) -> ast.RulesFile:
    """Read and parse one rule file (see :func:`parse_rules`).

    Raises:
        LanguageError: when ``bag`` is None, with every syntax error, or because the file
            is not UTF-8 text (code ``bad-encoding``).
    """
    try:
        text = read_text(path)
    except (UnicodeDecodeError, PathRefused, OSError) as exc:
        own_bag = bag is None
        bag = bag if bag is not None else DiagnosticBag()
        if isinstance(exc, UnicodeDecodeError):
            bag.add(f"{str(path)!r} is not UTF-8 text ({exc.reason})", code="bad-encoding",
                    hint="save the rule file as UTF-8")
        elif isinstance(exc, PathRefused):
            bag.add(exc.message, code="refused-file", hint=exc.hint)
        else:
            bag.add(f"cannot read {str(path)!r}: {exc.strerror or type(exc).__name__}",
                    code="no-file")
        if own_bag:
            bag.raise_if_errors(LanguageError)
        return ast.RulesFile(path=str(path), header=None, items=())
    return parse_rules(text, str(path), bag)


def parse_dice(text: str, where: Span) -> ast.DiceLit:
    """Parse a dice expression written in data (``D3+1``, ``2D6``, ``highest of 2D6``).

    Raises:
        LanguageError: located at ``where`` when ``text`` is not a dice expression.
    """
    try:
        # no trailing newline: the dice_expr start rule ends at the last die, not a line end
        tree = grammar_parser().parse(text.strip(), start="dice_expr")
        return _AstBuilder(where.path, fixed_span=where).transform(tree)
    except _TokenError as err:
        raise LanguageError([DiagnosticBag().add(err.message, where, code=err.code)]) from None
    except (UnexpectedInput, _IndentError, VisitError):
        raise LanguageError(
            [
                DiagnosticBag().add(
                    f"{text!r} is not a dice expression",
                    where,
                    code="bad-dice",
                    hint="write dice as D6, 2D6, D3+1, D6x5, highest of 2D6 or lowest 2 of 3D6",
                )
            ]
        ) from None


def _report_syntax(
    err: UnexpectedInput, chunk: str, path: str, offset: int, bag: DiagnosticBag
) -> None:
    line = getattr(err, "line", None)
    column = getattr(err, "column", None)
    if not isinstance(line, int) or line < 1:
        line = chunk.count("\n")
        column = 1
    label = None
    try:
        label = err.match_examples(
            lambda s: grammar_parser().parse(s, start="start"), SYNTAX_ERROR_EXAMPLES,
            use_accepts=True,
        )
    except Exception:  # match_examples re-parses examples; a failure there only loses the label
        label = None
    expected: list[str] = []
    hint: str | None = None
    if isinstance(err, UnexpectedToken):
        token = err.token
        accepts = err.accepts or err.expected
        expected = sorted({_describe(t) for t in accepts})
        # Inside brackets line ends do not count, so a bracket left open shows up later: at
        # the end of the declaration, or as a word on a later line that cannot follow.
        bracket = None
        if token.type in ("_DEDENT", "$END"):
            bracket = _unclosed_bracket(chunk)
        elif isinstance(token.start_pos, int) and isinstance(token.line, int):
            bracket = _unclosed_bracket(chunk[: token.start_pos])
            if bracket is not None and bracket[0] >= token.line:
                bracket = None
        if bracket is not None:
            line, column, char = bracket
            message, label = f"{char!r} is never closed", None
            hint = f"close it with {_CLOSING[char]!r} before the end of the declaration"
        elif token.type == "_NL":
            message = "unexpected end of line"
            if isinstance(token.end_line, int):
                # the newline token starts at the end of the line: point just past the last word
                line, column = token.line, token.column
        elif token.type == "$END":
            # each declaration is parsed on its own: its end need not be the file's
            message = "unexpected end of the declaration"
        elif token.type in ("_INDENT", "_DEDENT"):
            # Both borrow the position of the newline before them, which ends where the
            # indented (or dedented) line's text starts.
            message = ("unexpected indentation" if token.type == "_INDENT"
                       else "unexpected end of an indented block")
            label = None
            if isinstance(token.end_line, int) and token.value:
                line, column = token.end_line, token.end_column
            if token.type == "_INDENT":
                hint = "indent a line only to start the body of the line above it"
        else:
            message = f"unexpected {str(token)!r}"
            if str(token).isidentifier():  # a NAME, or an EDITION_ID where a keyword belongs
                hint = did_you_mean(str(token), _keywords(accepts))
    elif isinstance(err, UnexpectedCharacters):
        if err.char == '"':
            message, label = "unterminated string", None
            hint = 'a quoted string ends with \'"\' on the same line'
        else:
            message = f"unexpected character {err.char!r}"
        expected = sorted({_describe(t) for t in err.allowed or ()})
    elif isinstance(err, UnexpectedEOF):
        message = "unexpected end of the declaration"
        expected = sorted({_describe(t) for t in err.expected})
    else:  # pragma: no cover - lark raises only the three above
        message = str(err)
    if label:
        message = f"{message}: {label}"
    bag.add(message, Span(path, line + offset, column or 1), code="syntax", expected=expected,
            hint=hint)


def _report_dedent(err: _IndentError, path: str, offset: int, bag: DiagnosticBag) -> None:
    indent = err.column - 1
    levels = " or ".join(str(n) for n in err.levels)
    bag.add(
        f"unexpected indentation: this line is indented by {indent} space"
        f"{'' if indent == 1 else 's'}, which matches no enclosing block",
        Span(path, err.line + offset, err.column),
        code="syntax",
        hint=f"indent it as one of the blocks above it: by {levels} spaces",
    )


_CLOSING = {"(": ")", "[": "]"}


def _unclosed_bracket(chunk: str) -> tuple[int, int, str] | None:
    """The innermost bracket a chunk leaves open, as (line, column, bracket), or None.

    Inside brackets the indenter ignores line ends, so an unclosed bracket shows up only at
    the end of the chunk; the bracket itself is the place to point at.
    """
    stack: list[tuple[int, int, str]] = []
    line, column = 1, 0
    in_string = in_comment = False
    for char in chunk:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
            in_string = in_comment = False
        elif in_comment:
            continue
        elif in_string:
            in_string = char != '"'
        elif char == '"':
            in_string = True
        elif char == "#":
            in_comment = True
        elif char in _CLOSING:
            stack.append((line, column, char))
        elif char in ")]":
            if not stack or _CLOSING[stack[-1][2]] != char:
                return None  # a stray closing bracket: the parser's own position is right
            stack.pop()
    return stack[-1] if stack else None


def _keywords(terminals: Iterable[str]) -> list[str]:
    """The keywords among the terminals a parser state accepts (for "did you mean")."""
    out = []
    for name in terminals:
        try:
            pattern = grammar_parser().get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value.isalpha():
            out.append(pattern.value)
    return out


@attrs.frozen
class _FacePick:
    """The faces a ``count`` names, as written (``6``, ``5+``), and where."""

    faces: tuple[str, ...]
    span: Span


class _BuildError(Exception):
    """A mistake the grammar lets through but the AST cannot hold (``0D6``, a clause twice)."""

    def __init__(self, message: str, span: Span, code: str = "syntax") -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.code = code


def _unquote(token: Token | str) -> str:
    s = str(token)
    return s[1:-1] if s.startswith('"') else s


_LINE_RE = re.compile(r"L(\d+)(?:-L?(\d+))?")


@v_args(meta=True)
class _AstBuilder(Transformer):
    """Turns lark's parse tree into :mod:`rules_run.lang.ast` nodes."""

    def __init__(self, path: str, line_offset: int = 0, fixed_span: Span | None = None) -> None:
        super().__init__()
        self.path = path
        self.offset = line_offset
        self.fixed_span = fixed_span

    # -------------------------------------------------------- helpers
    def _span(self, meta) -> Span:
        if self.fixed_span is not None:
            return self.fixed_span
        if getattr(meta, "empty", True):
            return Span(self.path, 1, 1)
        return Span(
            self.path, meta.line + self.offset, meta.column,
            meta.end_line + self.offset, meta.end_column,
        )

    def _tspan(self, token: Token) -> Span:
        if self.fixed_span is not None:
            return self.fixed_span
        line, column, end_line, end_column = _position(token)
        return Span(self.path, line + self.offset, column, end_line + self.offset, end_column)

    @staticmethod
    def _pick(children, cls):
        return [c for c in children if isinstance(c, cls)]

    @staticmethod
    def _cite(children) -> ast.Cite | None:
        for c in children:
            if isinstance(c, ast.Cite):
                return c
        return None

    # -------------------------------------------------------- file
    def start(self, meta, children):
        return [c for c in children if c is not None]

    def header(self, meta, children):
        name, title = str(children[0]), _unquote(children[1])
        extends = next((c for c in children if isinstance(c, _Extends)), None)
        return ast.Header(
            span=self._span(meta),
            id=name,
            title=title,
            extends=extends.name if extends else None,
            cite=self._cite(children),
            sources=tuple(self._pick(children, ast.SourceDecl)),
        )

    def extends(self, meta, children):
        return _Extends(str(children[0]))

    def source_decl(self, meta, children):
        return ast.SourceDecl(self._span(meta), _unquote(children[0]))

    def patch_op(self, meta, children):
        return str(children[0])

    def kind(self, meta, children):
        return str(children[0])

    def patch_decl(self, meta, children):
        op, decls = children[0], children[1]
        decls = decls if isinstance(decls, list) else [decls]
        return [
            ast.PatchOp(span=self._span(meta), op=op, kind=d.kind, name=d.name, decl=d, cite=d.cite)
            for d in decls
        ]

    def removed_natural(self, meta, children):
        return _Clause("remove_natural", children[0].value, self._span(meta))

    def clause_patch_decl(self, meta, children):
        op, kind, name = children[0], children[1], str(children[2])
        if op != "override":
            raise _BuildError(f"'{op}' takes a whole declaration; 'override {kind} {name}' "
                              "changes clauses", self._span(meta), code="syntax")
        fields = _clauses(children, f"override {kind} {name!r}",
                          repeatable=("natural", "mark", "remove_natural"))
        removed = fields.pop("remove_natural")
        keys = {"natural": "naturals", "mark": "marks"}
        changes = tuple((keys.get(k, k), v) for k, v in fields.items() if v != ())
        decl = ast.ClausePatch(span=self._span(meta), name=name, cite=self._cite(children),
                               is_test=kind == "test", changes=changes, removed=removed)
        return ast.PatchOp(span=self._span(meta), op=op, kind=decl.kind, name=name, decl=decl,
                           cite=decl.cite)

    def remove_decl(self, meta, children):
        kind = children[0]
        name = _unquote(children[1])
        return ast.PatchOp(
            span=self._span(meta), op="remove", kind=kind, name=name, decl=None,
            cite=self._cite(children),
        )

    # -------------------------------------------------------- citations
    def citation(self, meta, children):
        c = children[0]
        if isinstance(c, ast.Cite):
            return attrs.evolve(c, span=self._span(meta))
        return ast.Cite(span=self._span(meta), note=_unquote(c))

    def cite_lines(self, meta, children):
        source = None
        ranges = []
        for c in children:
            if c.type == "SEED":
                source = str(c)
            else:
                ranges.append(str(c))
        return ast.Cite(span=self._span(meta), source=source, ranges=tuple(ranges))

    # -------------------------------------------------------- simple declarations
    def type_name(self, meta, children):
        return str(children[0])

    def char_item(self, meta, children):
        type_ = next((c for c in children[1:] if isinstance(c, str) and not isinstance(c, Token)),
                     "int")
        role = next((str(c) for c in children[1:] if isinstance(c, Token) and c.type == "ROLE"),
                    None)
        floor = next((c.value for c in children if isinstance(c, _Floor)), None)
        return (str(children[0]), type_, role, self._tspan(children[0]), floor)

    def floor(self, meta, children):
        return _Floor(int(children[0]))

    def char_range(self, meta, children):
        return _Range(int(children[0]), int(children[1]))

    def characteristics_decl(self, meta, children):
        entity = str(children[0])
        rng = next((c for c in children if isinstance(c, _Range)), None)
        cite = self._cite(children)
        return [
            ast.CharacteristicDecl(
                span=span,
                name=name,
                cite=cite,
                entity=entity,
                type=type_,
                low=rng.low if rng else None,
                high=rng.high if rng else None,
                role=role,
                floor=floor,
            )
            for name, type_, role, span, floor in (c for c in children if isinstance(c, tuple))
        ]

    def table_decl(self, meta, children):
        names = [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]
        file = next(_unquote(c) for c in children if isinstance(c, Token) and c.type == "STRING")
        return ast.TableDecl(
            span=self._span(meta), name=names[0], cite=self._cite(children),
            keys=tuple(names[1:]), file=file,
        )

    def die_decl(self, meta, children):
        name = str(children[0])
        faces = tuple(
            int(c) if c.type == "INT" else str(c)
            for c in children[1:]
            if isinstance(c, Token)
        )
        return ast.DieDecl(span=self._span(meta), name=name, cite=self._cite(children), faces=faces)

    def option_scalar(self, meta, children):
        return ("scalar", children[0])

    def option_choice(self, meta, children):
        return ("choice", tuple(str(c) for c in children))

    def option_decl(self, meta, children):
        name = str(children[0])
        kind, detail = children[1]
        bounds = children[2] if isinstance(children[2], _Range) else None
        if bounds is not None:
            children = [*children[:2], *children[3:]]
        default = _as_literal(children[2], self)
        doc = ""
        rest = children[3:]
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            doc = _unquote(rest[0])
        default_value = default.value if isinstance(default, ast.Literal) else default
        if isinstance(default, ast.Name):
            default_value = default.name
        return ast.OptionDecl(
            span=self._span(meta), name=name, cite=self._cite(children),
            type="choice" if kind == "choice" else detail,
            choices=detail if kind == "choice" else (),
            default=default_value, doc=doc,
            low=bounds.low if bounds else None, high=bounds.high if bounds else None,
        )

    def duration(self, meta, children):
        return _Until(str(children[0]))

    def status_decl(self, meta, children):
        until = next((c.what for c in children if isinstance(c, _Until)), None)
        quiet = any(isinstance(c, Token) and c.type == "STATUS_QUIET" for c in children)
        return ast.StatusDecl(
            span=self._span(meta), name=str(children[0]), cite=self._cite(children), until=until,
            quiet=quiet,
        )

    def scope(self, meta, children):
        return _Scope(str(children[0]))

    def counter_decl(self, meta, children):
        scope = next(c.what for c in children if isinstance(c, _Scope))
        initial = next((c for c in children if isinstance(c, ast.Expr)), None)
        return ast.CounterDecl(
            span=self._span(meta), name=str(children[0]), cite=self._cite(children),
            scope=scope, initial=initial,
        )

    def keyword_decl(self, meta, children):
        cite = self._cite(children)
        return [
            ast.KeywordDecl(span=self._tspan(c), name=_unquote(c), cite=cite)
            for c in children
            if isinstance(c, Token)
        ]

    # -------------------------------------------------------- rolls and tests
    def params(self, meta, children):
        return _Params(tuple(c for c in children if c is not None))

    def param(self, meta, children):
        name = str(children[0])
        type_ = "any"
        default = None
        for c in children[1:]:
            if isinstance(c, str) and not isinstance(c, Token):
                type_ = c
            else:
                default = _as_literal(c, self)
        return ast.Param(self._span(meta), name, type_, default)

    def roll_kind(self, meta, children):
        return str(children[0])

    def dice_clause(self, meta, children):
        return _Clause("dice", children[0], self._span(meta))

    def need_clause(self, meta, children):
        return _Clause("need", children[0], self._span(meta))

    def pass_clause(self, meta, children):
        return _Clause("pass_if", children[0], self._span(meta))

    def natural_fails(self, meta, children):
        return ("fails", None)

    def natural_passes(self, meta, children):
        return ("passes", None)

    def natural_mark(self, meta, children):
        return ("mark", str(children[0]))

    def natural_clause(self, meta, children):
        values = tuple(int(c) for c in children[:-1])
        effect, mark = children[-1]
        return _Clause("natural", ast.Natural(self._span(meta), values, effect, mark),
                       self._span(meta))

    def cap_both(self, meta, children):
        return _Clause("cap", (int(children[0]), int(children[1])), self._span(meta))

    def cap_most(self, meta, children):
        return _Clause("cap", (None, int(children[0])), self._span(meta))

    def cap_least(self, meta, children):
        return _Clause("cap", (int(children[0]), None), self._span(meta))

    def value_clause(self, meta, children):
        return _Clause("value", children[0], self._span(meta))

    def beyond_clause(self, meta, children):
        return _Clause("beyond", (int(children[0]), children[1]), self._span(meta))

    def reroll_scope(self, meta, children):
        return " ".join(str(c) for c in children)

    def reroll_clause(self, meta, children):
        return _Clause("reroll", children[0], self._span(meta))

    def mark_clause(self, meta, children):
        return _Clause("mark", (str(children[0]), children[1]), self._span(meta))

    def marked_clause(self, meta, children):
        return _Clause("marked", (str(children[0]), self._tspan(children[0])), self._span(meta))

    def modifier_clause(self, meta, children):
        return _Clause("modifier", children[0], self._span(meta))

    def roll_decl(self, meta, children):
        kind = children[0]
        name = str(children[1])
        params = next((c.items for c in children if isinstance(c, _Params)), ())
        fields = _clauses(children, f"{kind} {name!r}", repeatable=("natural", "mark", "marked"))
        naturals = fields.get("natural", ())
        return ast.RollDecl(
            span=self._span(meta),
            name=name,
            cite=self._cite(children),
            is_test=kind == "test",
            params=params,
            dice=fields.get("dice"),
            need=fields.get("need"),
            pass_if=fields.get("pass_if"),
            naturals=tuple(naturals),
            cap=fields.get("cap", (None, None)),
            value=fields.get("value"),
            beyond=fields.get("beyond"),
            reroll=fields.get("reroll", "all dice"),
            marks=tuple(fields.get("mark", ())),
            modifier=fields.get("modifier"),
            failing_marks=tuple(fields.get("marked", ())),
        )

    def reuse_decl(self, meta, children):
        kind, name = children[0], str(children[1])
        params = next((c.items for c in children if isinstance(c, _Params)), ())
        base = next(c for c in children[2:] if isinstance(c, (ast.Call, Token)))
        if isinstance(base, Token):
            base = ast.Call(self._tspan(base), str(base))
        return ast.RollDecl(span=self._span(meta), name=name, cite=self._cite(children),
                            is_test=kind == "test", params=params, reuses=base)

    # -------------------------------------------------------- dice
    def _dice_parts(self, token: Token) -> tuple[int, int, int]:
        m = re.fullmatch(r"([0-9]*)D([0-9]+)(?:x([0-9]+))?", str(token))
        assert m is not None
        count = int(m.group(1)) if m.group(1) else 1
        sides = int(m.group(2))
        times = int(m.group(3)) if m.group(3) else 1
        if count < 1 or sides < 2:
            raise _BuildError(f"{str(token)!r} rolls no dice", self._tspan(token), code="bad-dice")
        return count, sides, times

    def dice_pool(self, meta, children):
        count, sides, times = self._dice_parts(children[0])
        return ast.DiceLit(self._span(meta), count, sides, times)

    dice_atom = dice_pool

    def _keep(self, meta, children, which):
        keep_count = int(children[0]) if len(children) == 2 else 1
        token = children[-1]
        count, sides, times = self._dice_parts(token)
        if keep_count > count:
            raise _BuildError(
                f"cannot keep the {which} {keep_count} of {count} dice", self._span(meta),
                code="bad-dice",
            )
        return ast.DiceLit(self._span(meta), count, sides, times, which, keep_count)

    def dice_highest(self, meta, children):
        return self._keep(meta, children, "highest")

    def dice_lowest(self, meta, children):
        return self._keep(meta, children, "lowest")

    def dice_named(self, meta, children):
        return ast.DiceLit(self._span(meta), 1, 0, die_name=str(children[0]))

    def dice_counted(self, meta, children):
        number, token = children
        count, sides, times = self._dice_parts(token)
        if count != 1 or times != 1 or str(token)[0].isdigit():
            raise _BuildError(f"a counted number of dice takes one die: write 'n D{sides}', "
                              f"not 'n {token}'", self._tspan(token), code="bad-dice")
        return ast.CountedDice(self._span(meta), ast.DiceLit(self._tspan(token), 1, sides),
                               number)

    def face_pick(self, meta, children):
        return _FacePick(tuple(str(c) for c in children), self._span(meta))

    def dice_count(self, meta, children):
        pick, counted = children
        if isinstance(counted, ast.DiceLit):
            counted = ast.CountedDice(counted.span, counted)
        pool = counted.pool
        if pool.keep or pool.times != 1 or pool.die_name or counted.counting:
            what = "a count" if counted.counting else f"'{pool.text()}'"
            raise _BuildError(f"only a pool of dice is counted, as in 'count 6 in 3D6', not "
                              f"{what}", counted.span, code="bad-dice")
        if pick.faces[0].endswith("+"):
            lowest = int(pick.faces[0][:-1])
            faces = tuple(range(lowest, pool.sides + 1))
        else:
            faces = tuple(sorted({int(f) for f in pick.faces}))
        # a D3 shows 1 to 3 (compiler: a D6 read halved)
        missing = [f for f in faces or (lowest,) if not 1 <= f <= pool.sides]
        if missing or not faces:
            raise _BuildError(f"a D{pool.sides} has no face {missing[0] if missing else lowest}"
                              f" to count; its faces are 1 to {pool.sides}", pick.span,
                              code="bad-dice")
        return attrs.evolve(counted, counting=faces, span=self._span(meta))

    def dice_plus(self, meta, children):
        base, op, amount = children
        plus = int(amount) if str(op) == "+" else -int(amount)
        return attrs.evolve(base, plus=base.plus + plus, span=self._span(meta))

    # -------------------------------------------------------- sequences
    def hook_chains(self, meta, children):
        return ast.HookEffect(self._span(meta), "chains", children[0])

    def hook_skip(self, meta, children):
        return ast.HookEffect(self._span(meta), "skip", str(children[0]))

    def hook_end_damage(self, meta, children):
        return ast.HookEffect(self._span(meta), "end_damage", children[0])

    def hook_pass(self, meta, children):
        return ast.HookEffect(self._span(meta), "pass")

    def hook_fail(self, meta, children):
        return ast.HookEffect(self._span(meta), "fail")

    def hook(self, meta, children):
        mark = str(children[0])
        effect = next(c for c in children if isinstance(c, ast.HookEffect))
        condition = next((c for c in children[1:] if isinstance(c, ast.Expr)), None)
        return ast.Hook(self._span(meta), mark, condition, effect, self._cite(children))

    def stop_on(self, meta, children):
        return _StopOn(str(children[0]))

    def step(self, meta, children):
        stop_on = next(c.what for c in children if isinstance(c, _StopOn))
        return ast.Step(
            self._span(meta), str(children[0]), children[1], stop_on,
            tuple(self._pick(children, ast.Hook)),
        )

    def damage_clause(self, meta, children):
        return _Clause("damage", children[0], self._span(meta))

    def per_point_clause(self, meta, children):
        stop_on = next(c.what for c in children if isinstance(c, _StopOn))
        return ast.PerPoint(self._span(meta), children[0], stop_on)

    def sequence_decl(self, meta, children):
        fields = _clauses(children, f"sequence {str(children[0])!r}")
        damage = fields.get("damage")
        per_points = self._pick(children, ast.PerPoint)
        if len(per_points) > 1:
            raise _BuildError(
                f"sequence {str(children[0])!r} gives 'each point' twice", per_points[1].span,
                code="duplicate-clause",
            )
        per_point = per_points[0] if per_points else None
        return ast.SequenceDecl(
            span=self._span(meta), name=str(children[0]), cite=self._cite(children),
            params=next((c.items for c in children if isinstance(c, _Params)), ()),
            steps=tuple(self._pick(children, ast.Step)), damage=damage, per_point=per_point,
        )

    # -------------------------------------------------------- procedures
    def block(self, meta, children):
        return _Block(tuple(c for c in children if isinstance(c, ast.Stmt)))

    def _body(self, children) -> tuple[ast.Stmt, ...]:
        for c in children:
            if isinstance(c, _Block):
                return c.stmts
            if isinstance(c, ast.Stmt):
                return (c,)
        return ()

    def action_decl(self, meta, children):
        return ast.ActionDecl(
            span=self._span(meta), name=str(children[0]), cite=self._cite(children),
            params=next((c.items for c in children if isinstance(c, _Params)), ()),
            body=self._body(children),
        )

    def decision_default(self, meta, children):
        return _Default(str(children[0]))

    def decision_decl(self, meta, children):
        return ast.DecisionDecl(
            span=self._span(meta), name=str(children[0]), cite=self._cite(children),
            params=next((c.items for c in children if isinstance(c, _Params)), ()),
            options=next(c for c in children[1:] if isinstance(c, ast.Expr)),
            default=next((c.name for c in children if isinstance(c, _Default)), None),
        )

    def policy_rule(self, meta, children):
        return _PolicyRule(str(children[0]), children[1])

    def policy_decl(self, meta, children):
        return ast.PolicyDecl(
            span=self._span(meta), name=str(children[0]), cite=self._cite(children),
            choices=tuple((c.decision, c.expr) for c in children if isinstance(c, _PolicyRule)),
            is_default=any(isinstance(c, Token) and c.type == "POLICY_DEFAULT" for c in children),
        )

    def policy_extends_decl(self, meta, children):
        names = [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]
        return attrs.evolve(self.policy_decl(meta, children), name=names[0], extends=names[1])

    def phase_decl(self, meta, children):
        names = [str(c) for c in children if isinstance(c, Token) and c.type == "NAME"]
        return ast.PhaseDecl(
            span=self._span(meta), name=names[0], cite=self._cite(children),
            params=next((c.items for c in children if isinstance(c, _Params)), ()),
            parent=names[1] if len(names) > 1 else None, body=self._body(children),
        )

    def battle_setup(self, meta, children):
        return _Clause("setup", self._body(children), self._span(meta))

    def battle_rounds(self, meta, children):
        return _Clause("rounds", children[0], self._span(meta))

    def battle_round(self, meta, children):
        return _Clause("round", self._body(children), self._span(meta))

    def battle_turn(self, meta, children):
        return _Clause("turn", self._body(children), self._span(meta))

    def battle_end(self, meta, children):
        return _Clause("end", children[0], self._span(meta))

    def battle_score(self, meta, children):
        return _Clause("score", self._body(children), self._span(meta))

    def battle_decl(self, meta, children):
        fields = _clauses(children, "'battle'", repeatable=("end",))
        return ast.BattleDecl(
            span=self._span(meta), name="battle", cite=self._cite(children), **fields
        )

    # -------------------------------------------------------- rules
    def condition(self, meta, children):
        return _Condition(children[0])

    def stack_add(self, meta, children):
        return ast.Stacking(self._span(meta), "add")

    def stack_max(self, meta, children):
        return ast.Stacking(self._span(meta), "max")

    def stack_min(self, meta, children):
        return ast.Stacking(self._span(meta), "min")

    def stack_boolean(self, meta, children):
        return ast.Stacking(self._span(meta), "boolean")

    def stack_exclusive(self, meta, children):
        return ast.Stacking(self._span(meta), "exclusive")

    def stack_capped(self, meta, children):
        return ast.Stacking(self._span(meta), "capped", int(children[0]))

    def stacking(self, meta, children):
        return children[0]

    def _effect_common(self, meta, children) -> _EffectCommon:
        return {
            "span": self._span(meta),
            "condition": next((c.expr for c in children if isinstance(c, _Condition)), None),
            "cite": self._cite(children),
        }

    def modify_part(self, meta, children):
        return _Part(str(children[0]))

    def modify_effect(self, meta, children):
        part = next((c.what for c in children if isinstance(c, _Part)), "result")
        amount = next(c for c in children[1:] if isinstance(c, ast.Expr))
        return ast.Modify(
            **self._effect_common(meta, children), roll=str(children[0]), part=part,
            amount=amount, stacking=next((c for c in children if isinstance(c, ast.Stacking)), None),
            despite=next((c.rule for c in children if isinstance(c, _Despite)), None),
        )

    def despite(self, meta, children):
        return _Despite(_unquote(children[0]))

    def shield_effect(self, meta, children):
        return ast.Shield(**self._effect_common(meta, children),
                          names=tuple(str(c) for c in children
                                      if isinstance(c, Token) and c.type == "NAME"))

    def dice_effect(self, meta, children):
        return ast.DiceEffect(**self._effect_common(meta, children), roll=str(children[0]),
                              dice=children[1])

    def reroll_which(self, meta, children):
        return str(children[0])

    def reroll_effect(self, meta, children):
        return ast.RerollEffect(
            **self._effect_common(meta, children), which=children[0], roll=str(children[1])
        )

    def hook_effect_decl(self, meta, children):
        return ast.RuleHook(
            **self._effect_common(meta, children), mark=str(children[0]),
            sequence=str(children[1]), step=str(children[2]),
            effect=next(c for c in children if isinstance(c, ast.HookEffect)),
        )

    def grant_effect(self, meta, children):
        return ast.Grant(**self._effect_common(meta, children), rule=_unquote(children[0]))

    def trigger_effect(self, meta, children):
        return ast.Trigger(
            **self._effect_common(meta, children), event=str(children[0]),
            body=self._body(children),
        )

    def auto_result(self, meta, children):
        return str(children[0])

    def auto_effect(self, meta, children):
        return ast.AutoResult(
            **self._effect_common(meta, children), result=children[0], test=str(children[1])
        )

    def mark_effect(self, meta, children):
        return ast.MarkEffect(**self._effect_common(meta, children), mark=str(children[0]),
                              roll=str(children[1]))

    def during(self, meta, children):
        return _During(str(children[0]))

    def _characteristic_effect(self, meta, children, op: str, name, amount):
        return ast.CharacteristicEffect(
            **self._effect_common(meta, children), op=op, characteristic=str(name),
            amount=amount,
            stacking=next((c for c in children if isinstance(c, ast.Stacking)), None),
            during=next((c.name for c in children if isinstance(c, _During)), None),
            floor=next((c.value for c in children if isinstance(c, _Floor)), None),
            round_up=any(isinstance(c, _Rounding) and c.up for c in children),
        )

    def set_characteristic(self, meta, children):
        return self._characteristic_effect(meta, children, "set", children[0], children[1])

    def add_characteristic(self, meta, children):
        return self._characteristic_effect(meta, children, "add", children[1], children[0])

    def multiply_characteristic(self, meta, children):
        return self._characteristic_effect(meta, children, "multiply", children[0], children[1])

    def divide_characteristic(self, meta, children):
        return self._characteristic_effect(meta, children, "divide", children[0], children[1])

    def rounding(self, meta, children):
        return _Rounding(str(children[-1]) == "up")

    def note_effect(self, meta, children):
        return ast.NotSimulated(
            **self._effect_common(meta, children), reason=_unquote(children[0])
        )

    def rule_decl(self, meta, children):
        return ast.RuleDecl(
            span=self._span(meta), name=_unquote(children[0]), cite=self._cite(children),
            params=next((c.items for c in children if isinstance(c, _Params)), ()),
            effects=tuple(self._pick(children, ast.Effect)),
            is_global=any(isinstance(c, Token) and c.type == "RULE_GLOBAL" for c in children),
        )

    # -------------------------------------------------------- statements
    def let_stmt(self, meta, children):
        return ast.Let(self._span(meta), str(children[0]), children[1])

    def attr_target(self, meta, children):
        target = children[0]
        if isinstance(target, Token):
            target = ast.Name(self._tspan(target), str(target))
        return ast.Attribute(self._span(meta), target, str(children[1]))

    def assign_stmt(self, meta, children):
        target = children[0]
        if isinstance(target, Token):
            target = ast.Name(self._tspan(target), str(target))
        return ast.Assign(self._span(meta), target, str(children[1]), children[2])

    def call_stmt(self, meta, children):
        return ast.CallStmt(self._span(meta), children[0])

    def return_stmt(self, meta, children):
        return ast.Return(self._span(meta), children[0] if children else None)

    def emit_stmt(self, meta, children):
        return ast.Log(self._span(meta), _unquote(children[0]), tuple(children[1:]))

    def pass_stmt(self, meta, children):
        return ast.Pass(self._span(meta))

    def stop_stmt(self, meta, children):
        return ast.Stop(self._span(meta), _unquote(children[0]))

    def elif_clause(self, meta, children):
        return _Branch(children[0], self._body(children[1:]))

    def else_clause(self, meta, children):
        return _Else(self._body(children))

    def if_stmt(self, meta, children):
        branches = [(children[0], self._body(children[1:2]))]
        otherwise: tuple[ast.Stmt, ...] = ()
        for c in children[2:]:
            if isinstance(c, _Branch):
                branches.append((c.condition, c.body))
            elif isinstance(c, _Else):
                otherwise = c.body
        return ast.If(self._span(meta), tuple(branches), otherwise)

    def for_where(self, meta, children):
        return _Where(children[0])

    def for_order(self, meta, children):
        return _OrderBy(children[0])

    def for_stmt(self, meta, children):
        return ast.ForEach(
            self._span(meta),
            str(children[0]),
            children[1],
            next((c.expr for c in children if isinstance(c, _Where)), None),
            next((c.expr for c in children if isinstance(c, _OrderBy)), None),
            self._body(children[2:]),
        )

    def while_stmt(self, meta, children):
        return ast.While(self._span(meta), children[0], self._body(children[1:]))

    def activation_order(self, meta, children):
        return _Order(" ".join(str(c) for c in children))

    def activation_where(self, meta, children):
        return _Where(children[0])

    def activate_stmt(self, meta, children):
        var = str(children[0])
        units = children[1]
        order = next(c.what for c in children if isinstance(c, _Order))
        where = next((c.expr for c in children if isinstance(c, _Where)), None)
        exprs = [c for c in children[2:] if isinstance(c, ast.Expr)]
        picker = next(
            (str(c) for c in children[2:] if isinstance(c, Token) and c.type == "NAME"), None
        )
        return ast.Activate(
            self._span(meta), var, units, order, exprs[0], picker, self._body(children[2:]),
            where,
        )

    # -------------------------------------------------------- expressions
    def int_lit(self, meta, children):
        return ast.Literal(self._span(meta), int(children[0]), "int")

    def decimal_lit(self, meta, children):
        return ast.Literal(self._span(meta), float(children[0]), "number")

    def string_lit(self, meta, children):
        return ast.Literal(self._span(meta), _unquote(children[0]), "text")

    def need_lit(self, meta, children):
        return ast.Literal(self._span(meta), int(str(children[0])[:-1]), "need")

    def true_lit(self, meta, children):
        return ast.Literal(self._span(meta), True, "bool")

    def false_lit(self, meta, children):
        return ast.Literal(self._span(meta), False, "bool")

    def none_lit(self, meta, children):
        return ast.Literal(self._span(meta), None, "none")

    def name(self, meta, children):
        return ast.Name(self._span(meta), str(children[0]))

    def list_lit(self, meta, children):
        return ast.ListLit(self._span(meta), tuple(c for c in children if c is not None))

    def comprehension(self, meta, children):
        return ast.Comprehension(
            self._span(meta), children[0], str(children[1]), children[2],
            children[3] if len(children) > 3 else None,
        )

    def attribute(self, meta, children):
        return ast.Attribute(self._span(meta), children[0], str(children[1]))

    def lookup(self, meta, children):
        return ast.Lookup(self._span(meta), children[0], tuple(children[1:]))

    def keyword_arg(self, meta, children):
        return _KeywordArg(str(children[0]), children[1])

    def call(self, meta, children):
        args = tuple(c for c in children[1:] if isinstance(c, ast.Expr))
        kwargs = tuple((c.name, c.expr) for c in children[1:] if isinstance(c, _KeywordArg))
        return ast.Call(self._span(meta), str(children[0]), args, kwargs)

    def binop(self, meta, children):
        return ast.BinOp(self._span(meta), str(children[1]), children[0], children[2])

    def compare(self, meta, children):
        return ast.Compare(self._span(meta), str(children[1]), children[0], children[2])

    def or_expr(self, meta, children):
        return ast.BoolOp(self._span(meta), "or", tuple(children))

    def and_expr(self, meta, children):
        return ast.BoolOp(self._span(meta), "and", tuple(children))

    def not_(self, meta, children):
        return ast.Not(self._span(meta), children[0])

    def neg(self, meta, children):
        operand = children[0]
        if (isinstance(operand, ast.Literal) and operand.kind in ("int", "number")
                and isinstance(operand.value, (int, float))):
            return ast.Literal(self._span(meta), -operand.value, operand.kind)
        return ast.Neg(self._span(meta), operand)

    def cond_expr(self, meta, children):
        return ast.CondExpr(self._span(meta), children[0], children[1], children[2])

    def has(self, meta, children):
        return ast.Has(self._span(meta), children[0], _unquote(children[1]))

    def is_status(self, meta, children):
        return ast.IsStatus(self._span(meta), children[0], str(children[1]))

    def is_not_status(self, meta, children):
        return ast.IsStatus(self._span(meta), children[0], str(children[1]), negated=True)

    def member(self, meta, children):
        return ast.Member(self._span(meta), children[0], children[1])


class _EffectCommon(TypedDict):
    """The fields every rule effect has, as :meth:`_AstBuilder._effect_common` reads them."""

    span: Span
    condition: ast.Expr | None
    cite: ast.Cite | None


@attrs.frozen
class _Clause:
    """One clause of a roll, a sequence or the battle (``need 4+``, ``damage 1``, ``rounds 6``)."""

    key: str
    value: Any
    """What the clause's grammar rule built, from lark's (untyped) children: the grammar,
    not the type checker, says what each key holds; the declaration reading it knows."""
    span: Span


def _clauses(children, what: str, repeatable: tuple[str, ...] = ()) -> dict[str, Any]:
    """The clauses among ``children`` by key; repeatable ones as tuples, in order.

    Raises:
        _BuildError: at the second of two clauses with the same (non-repeatable) key.
    """
    fields: dict[str, Any] = {}
    repeated: dict[str, list[Any]] = {key: [] for key in repeatable}
    for c in children:
        if not isinstance(c, _Clause):
            continue
        if c.key in repeated:
            repeated[c.key].append(c.value)
        elif c.key in fields:
            raise _BuildError(f"{what} gives {c.key.replace('_', ' ')!r} twice", c.span,
                              code="duplicate-clause")
        else:
            fields[c.key] = c.value
    fields.update((key, tuple(values)) for key, values in repeated.items())
    return fields


def _as_literal(node, builder: _AstBuilder) -> ast.Expr:
    """A parameter default as an expression node."""
    if isinstance(node, ast.Expr):
        return node
    token = node
    span = builder._tspan(token)
    if token.type in ("INT", "SIGNED_INT_"):
        return ast.Literal(span, int(token), "int")
    if token.type == "DECIMAL":
        return ast.Literal(span, float(token), "number")
    if token.type == "STRING":
        return ast.Literal(span, _unquote(token), "text")
    if token.type == "NEED":
        return ast.Literal(span, int(str(token)[:-1]), "need")
    return ast.Name(span, str(token))


class _Extends:
    def __init__(self, name: str) -> None:
        self.name = name


class _Range:
    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high


class _Until:
    def __init__(self, what: str) -> None:
        self.what = what


_Scope = _Until
_StopOn = _Until
_Part = _Until
_Order = _Until


class _Params:
    def __init__(self, items) -> None:
        self.items = items


class _Block:
    def __init__(self, stmts) -> None:
        self.stmts = stmts


class _Default:
    def __init__(self, name: str) -> None:
        self.name = name


class _PolicyRule:
    def __init__(self, decision: str, expr) -> None:
        self.decision, self.expr = decision, expr


class _Condition:
    def __init__(self, expr) -> None:
        self.expr = expr


class _During:
    def __init__(self, name: str) -> None:
        self.name = name


class _Floor:
    def __init__(self, value: int) -> None:
        self.value = value


class _Rounding:
    def __init__(self, up: bool) -> None:
        self.up = up


class _Despite:
    def __init__(self, rule: str) -> None:
        self.rule = rule


class _Branch:
    def __init__(self, condition, body) -> None:
        self.condition, self.body = condition, body


class _Else:
    def __init__(self, body) -> None:
        self.body = body


class _Where:
    def __init__(self, expr) -> None:
        self.expr = expr


class _OrderBy:
    # Not an alias of _Where: for_stmt tells the two apart with isinstance.
    def __init__(self, expr) -> None:
        self.expr = expr


class _KeywordArg:
    def __init__(self, name: str, expr) -> None:
        self.name, self.expr = name, expr
