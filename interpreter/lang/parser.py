"""Parse rule files into the AST, reporting every syntax error with its location.

A file is cut into top-level chunks (a line at column 1 starts a new declaration) and each
chunk is parsed on its own, so one mistake does not hide the rest: every chunk with a syntax
error gets its own diagnostic. Chunks keep their real line numbers.

This module wires the grammar (the LALR parser, its indenter and lexer checks) and cuts and
caches chunks; :mod:`rules_run.lang.syntax_errors` words the syntax errors and
:mod:`rules_run.lang.builder` turns a chunk's parse tree into AST nodes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import DedentError, Indenter

from rules_run import cache, slotted
from rules_run.buffers import read_text
from rules_run.diagnostics import Diagnostic, DiagnosticBag, LanguageError, Span
from rules_run.lang import ast
from rules_run.lang.builder import AstBuilder, BuildError, position
from rules_run.lang.builder.dice import DICE_RE
from rules_run.lang.syntax_errors import IndentError, report_dedent, report_syntax
from rules_run.limits import current as current_limits
from rules_run.limits import limit, too_many
from rules_run.paths import GRAMMAR_DIR, PathRefused

__all__ = ["parse_rules", "parse_file", "parse_dice", "grammar_parser", "forget_parsed"]


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
            _, _, end_line, end_column = position(token)
            raise IndentError(end_line, end_column, levels) from None


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

def _check_number(token: Token) -> Token:
    """Refuse a number with more than :data:`_MAX_DIGITS` digits (lexer callback)."""
    if len(token.strip("+-").split(".")[0]) > _MAX_DIGITS:
        raise _TokenError(f"{token[:12]}... ({len(token)} digits) is too large a number; a "
                          f"number has at most {_MAX_DIGITS} digits", token, "bad-number")
    return token


def _check_dice(token: Token) -> Token:
    """Refuse dice past the ``dice`` and ``faces`` limits (lexer callback)."""
    m = DICE_RE.fullmatch(str(token))
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
    unparsed: list[str | None] = []
    for offset, chunk in _chunks(text):
        result, problems = _parse_chunk(chunk, path, offset, text)
        bag.extend(problems)
        if not result and problems:
            unparsed.append(_declared_name(chunk))
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
    return ast.RulesFile(path=path, header=header, items=tuple(items), unparsed=tuple(unparsed))


_DECLARED = re.compile(r'(?:(?:add|override|define)\s+)?(?:table|die|option|status|counter|record|'
                       r'keyword|roll|test|sequence|action|decision|policy|phase|rule|battle)\s+'
                       r'(?:"([^"\n]*)"|([A-Za-z_][A-Za-z0-9_]*))')
"""The start of a declaration that declares one name: its kind (after a patch's verb) and
its name."""


def _declared_name(chunk: str) -> str | None:
    """The name the declaration in ``chunk`` seems to declare, when its first line says."""
    found = _DECLARED.match(chunk)
    return None if found is None else found.group(1) if found.group(1) is not None \
        else found.group(2)


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
        report_syntax(err, chunk, path, offset, bag, grammar_parser())
        return [], bag.items
    except IndentError as err:
        report_dedent(err, path, offset, bag)
        return [], bag.items
    except _TokenError as err:
        line, column, end_line, end_column = position(err.token)
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
        return AstBuilder(path, offset).transform(tree), bag.items
    except (VisitError, RecursionError) as err:
        orig = err.orig_exc if isinstance(err, VisitError) else err
        if isinstance(orig, RecursionError):  # the depth limit raised past the stack
            bag.add("this declaration nests too deeply to be read; lower --limit depth",
                    Span(path, offset + 1, 1), code="too-deep")
            return [], bag.items
        if not isinstance(orig, BuildError):
            raise
        bag.add(orig.message, orig.span, code=orig.code, hint=orig.hint)
        return [], bag.items


def _moved(node: Any, lines: int) -> Any:
    """``node`` (AST nodes, diagnostics, in lists and tuples) with every span ``lines``
    further down."""
    if isinstance(node, Span):
        return slotted.evolve(node, line=node.line + lines,
                            end_line=None if node.end_line is None else node.end_line + lines)
    if isinstance(node, (list, tuple)):
        return type(node)(_moved(n, lines) for n in node)
    if slotted.has(type(node)):
        return slotted.evolve(node, **{f.name: _moved(getattr(node, f.name), lines)
                                     for f in slotted.fields(type(node)) if f.init})
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
        dice = AstBuilder(where.path, fixed_span=where).transform(tree)
        if not isinstance(dice, ast.CellDice):   # data writes dice, not a table's cell
            return dice
    except _TokenError as err:
        raise LanguageError([DiagnosticBag().add(err.message, where, code=err.code)]) from None
    except (UnexpectedInput, IndentError, VisitError):
        pass
    raise LanguageError(
        [
            DiagnosticBag().add(
                f"{text!r} is not a dice expression",
                where,
                code="bad-dice",
                hint="write dice as D6, 2D6, D3+1, D6x5, highest of 2D6 or lowest 2 of 3D6",
            )
        ]
    )
