"""Syntax errors of rule files, as diagnostics a reader can act on.

lark reports where parsing stopped and which terminals it would have taken; this turns that
into a message (a bracket never closed, an unexpected word and the keyword it may have
meant, a common mistake recognised by example) located in the file, not in the chunk.
"""

from __future__ import annotations

from collections.abc import Iterable

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rules_run.diagnostics import DiagnosticBag, Span, did_you_mean

__all__ = ["SYNTAX_ERROR_EXAMPLES", "IndentError", "report_dedent", "report_syntax"]


class IndentError(Exception):
    """A line is dedented to a column no enclosing block starts at (lark's DedentError, located)."""

    def __init__(self, line: int, column: int, levels: list[int]) -> None:
        super().__init__(f"dedent to column {column} at line {line}")
        self.line = line
        """The line, counted in the chunk being parsed."""
        self.column = column
        """1-based column of the line's first character."""
        self.levels = levels
        """The indentations (in spaces) of the blocks open before the line."""


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


def _describe(terminal: str, parser: Lark) -> str:
    """How an "expected ..." list names a terminal."""
    if terminal in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[terminal]
    term = parser.get_terminal(terminal)
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


def report_syntax(err: UnexpectedInput, chunk: str, path: str, offset: int, bag: DiagnosticBag,
                  parser: Lark) -> None:
    """Add the diagnostic of a syntax error in ``chunk`` (which starts ``offset`` lines into
    the file at ``path``), as ``parser`` (the grammar's) found it."""
    line = getattr(err, "line", None)
    column = getattr(err, "column", None)
    if not isinstance(line, int) or line < 1:
        line = chunk.count("\n")
        column = 1
    label = None
    try:
        label = err.match_examples(
            lambda s: parser.parse(s, start="start"), SYNTAX_ERROR_EXAMPLES,
            use_accepts=True,
        )
    except Exception:  # match_examples re-parses examples; a failure there only loses the label
        label = None
    expected: list[str] = []
    hint: str | None = None
    if isinstance(err, UnexpectedToken):
        token = err.token
        accepts = err.accepts or err.expected
        expected = sorted({_describe(t, parser) for t in accepts})
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
                hint = did_you_mean(str(token), _keywords(accepts, parser))
    elif isinstance(err, UnexpectedCharacters):
        if err.char == '"':
            message, label = "unterminated string", None
            hint = 'a quoted string ends with \'"\' on the same line'
        else:
            message = f"unexpected character {err.char!r}"
        expected = sorted({_describe(t, parser) for t in err.allowed or ()})
    elif isinstance(err, UnexpectedEOF):
        message = "unexpected end of the declaration"
        expected = sorted({_describe(t, parser) for t in err.expected})
    else:  # pragma: no cover - lark raises only the three above
        message = str(err)
    if label:
        message = f"{message}: {label}"
    bag.add(message, Span(path, line + offset, column or 1), code="syntax", expected=expected,
            hint=hint)


def report_dedent(err: IndentError, path: str, offset: int, bag: DiagnosticBag) -> None:
    """Add the diagnostic of a line dedented to no enclosing block's column."""
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


def _keywords(terminals: Iterable[str], parser: Lark) -> list[str]:
    """The keywords among the terminals a parser state accepts (for "did you mean")."""
    out = []
    for name in terminals:
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value.isalpha():
            out.append(pattern.value)
    return out
