"""Located diagnostics, and the errors that carry them.

Every mistake a user can make in a ruleset, a table or a battle file becomes a
:class:`Diagnostic`: where it is (``path:line:col``), what is wrong, what was expected, and a
hint ("did you mean ..."). Stages collect every diagnostic they find in a
:class:`DiagnosticBag` and raise one :class:`InterpreterError` subclass carrying them all, so
a run reports all mistakes, not only the first.

Lines and columns are 1-based, as editors show them.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence

from rules_run import slotted

__all__ = [
    "Severity",
    "Span",
    "Diagnostic",
    "DiagnosticBag",
    "InterpreterError",
    "LanguageError",
    "DataError",
    "PatchError",
    "ChanceError",
    "BattleError",
    "UsageError",
    "CommandLineError",
    "did_you_mean",
    "escaped",
]


class Severity(enum.Enum):
    """How bad a diagnostic is."""

    ERROR = "error"
    """The input is wrong; nothing that depends on it runs."""
    WARNING = "warning"
    """The input works but probably does not say what its author meant."""
    NOTE = "note"
    """Extra context attached after an error (where the first definition was, ...)."""


@slotted.frozen
class Span:
    """A place in a source file."""

    path: str
    """The file as the user named it (or as the loader found it)."""
    line: int
    """1-based line."""
    column: int = 1
    """1-based column."""
    end_line: int | None = None
    """1-based line where the span ends, when known."""
    end_column: int | None = None
    """1-based column just past the end of the span, when known."""

    def text(self) -> str:
        """``path:line:col``."""
        return f"{self.path}:{self.line}:{self.column}"


@slotted.frozen
class Diagnostic:
    """One located message about the user's input."""

    message: str
    """What is wrong, naming the offending input with ``!r``."""
    span: Span | None = None
    """Where it is; None for a whole-run problem (a missing file, say)."""
    code: str = "error"
    """A stable kebab-case identifier for tools and tests (``undefined-name``, ...)."""
    severity: Severity = Severity.ERROR
    """Error, warning or note."""
    line_text: str | None = None
    """The source line the span points into, shown with a caret under it."""
    expected: tuple[str, ...] = ()
    """What would have been valid here (for syntax errors)."""
    hint: str | None = None
    """A suggestion: "did you mean 'WS'?", or a valid example."""

    def render(self) -> str:
        """The text a person reads: ``path:line:col: error: message``, the line, a caret."""
        where = f"{escaped(self.span.text())}: " if self.span else ""
        out = [f"{where}{self.severity.value}: {escaped(self.message)}"]
        if self.line_text is not None and self.span is not None:
            line = escaped(self.line_text.rstrip("\n").expandtabs(1))
            column = self.span.column
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column:
                width = max(1, self.span.end_column - self.span.column)
            if len(line) > _SHOWN:  # a window of a very long line, around the caret
                start = max(0, min(column - 1 - _SHOWN // 3, len(line) - _SHOWN))
                line = ("..." if start else "") + line[start:start + _SHOWN] + (
                    "..." if start + _SHOWN < len(line) else "")
                column -= start - (3 if start else 0)
                width = min(width, _SHOWN + 3 - column)
            out.append(f"    {line}")
            out.append("    " + " " * (column - 1) + "^" * max(1, width))
        if self.expected:
            out.append("  expected: " + escaped(", ".join(self.expected)))
        if self.hint:
            out.append(f"  hint: {escaped(self.hint)}")
        return "\n".join(out)

    def to_json(self) -> dict[str, object]:
        """A plain dict for ``--json`` output."""
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "path": self.span.path if self.span else None,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "expected": list(self.expected),
            "hint": self.hint,
        }

    def __str__(self) -> str:
        return self.render()


_SHOWN = 100
"""Characters of a source line a diagnostic shows (a window around the caret)."""


def escaped(text: str, lines: bool = False) -> str:
    r"""``text`` safe to print on a terminal: control characters (escape sequences, a
    carriage return, a bell) as Python writes them (``\x1b``); the rest as written. With
    ``lines``, the text's own line breaks are kept.

    Examples:
        >>> print(escaped("Bane\x1b[2J of \u2603"))
        Bane\x1b[2J of ☃
        >>> print(escaped("one\ntwo\r", lines=True))
        one
        two\r
    """
    if text.isprintable():
        return text
    if lines:
        return "\n".join(escaped(line) for line in text.split("\n"))
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _line_of(text: str | None, line: int) -> str | None:
    if text is None:
        return None
    lines = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


class DiagnosticBag:
    """Collects diagnostics from one stage, in the order found, each once.

    ``source`` is the text of the file being checked (when there is one), so that each
    diagnostic can show its line. A diagnostic equal to one already there (the same message
    at the same place: a clause that several declarations share, checked for each) is kept
    once in :attr:`items`; :attr:`found` has every one, repeats included, for a stage that
    records what checking one declaration found.
    """

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        """The diagnostics, each once."""
        self.found: list[Diagnostic] = []
        """Every diagnostic added, repeats included, in the order added."""
        self._seen: set[Diagnostic] = set()
        self._texts: dict[str, str] = {}

    def scratch(self) -> DiagnosticBag:
        """An empty bag that shows the lines of the same sources (for diagnostics to sort
        before they are kept)."""
        bag = DiagnosticBag()
        bag._texts = self._texts
        return bag

    def remember_source(self, path: str, text: str) -> None:
        """Keep ``text`` so diagnostics located in ``path`` can show their line."""
        self._texts[path] = text

    def add(
        self,
        message: str,
        span: Span | None = None,
        *,
        code: str = "error",
        severity: Severity = Severity.ERROR,
        expected: Sequence[str] = (),
        hint: str | None = None,
    ) -> Diagnostic:
        """Record a diagnostic and return it."""
        line_text = _line_of(self._texts.get(span.path), span.line) if span else None
        diag = Diagnostic(
            message=message,
            span=span,
            code=code,
            severity=severity,
            line_text=line_text,
            expected=tuple(expected),
            hint=hint,
        )
        self._keep(diag)
        return diag

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Add diagnostics found by another stage."""
        for diag in diagnostics:
            self._keep(diag)

    def _keep(self, diag: Diagnostic) -> None:
        self.found.append(diag)
        if diag not in self._seen:
            self._seen.add(diag)
            self.items.append(diag)

    @property
    def errors(self) -> list[Diagnostic]:
        """The diagnostics of severity ERROR."""
        return [d for d in self.items if d.severity is Severity.ERROR]

    def raise_if_errors(self, error_class: type[InterpreterError]) -> None:
        """Raise ``error_class`` carrying every diagnostic, if any of them is an error."""
        if self.errors:
            raise error_class(list(self.items))


class InterpreterError(Exception):
    """Root of every error rules-run reports about its input. Carries diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic] | str) -> None:
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(diagnostics)]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        """Every diagnostic, one after another."""
        return "\n".join(d.render() for d in self.diagnostics)


class LanguageError(InterpreterError, ValueError):
    """A ruleset's rule files are malformed (syntax) or do not check (names, types)."""


class DataError(InterpreterError, ValueError):
    """A YAML file (table, unit data, manifest, battle) is malformed or breaks its schema."""


class PatchError(InterpreterError, ValueError):
    """A patch overrides or removes what is not there, or adds what already is."""


class ChanceError(InterpreterError, ValueError):
    """A roll cannot be made: scripted dice ran out, an impossible dice expression, ..."""


class BattleError(InterpreterError, RuntimeError):
    """A battle cannot go on: no legal option for a decision, a trigger loop, a step cap."""


class UsageError(InterpreterError, ValueError):
    """A command line asks for something that is not there (an unknown edition, unit, ...)."""


class CommandLineError(UsageError):
    """A command line is wrong in itself: an option given a value it cannot take (``--runs
    0``, ``--limit dice=x``), or options that do not go together. Commands exit 2 on it."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidates to ``name``, or None when none is close.

    Examples:
        >>> did_you_mean("Ws", ["WS", "BS", "Ld"])
        "did you mean 'WS'?"
        >>> did_you_mean("Ws", ["W", "WS", "BS"])
        "did you mean 'WS' or 'W'?"
        >>> did_you_mean("zzz", ["WS"]) is None
        True
    """
    import difflib   # only when a name is unknown: a plain run never needs it

    pool = sorted(set(candidates))
    # A difference of case only ("Ws" for "WS") is the likeliest slip: it comes first, even
    # when difflib rates a shorter name ("W") closer.
    same_but_case = [c for c in pool if c.lower() == name.lower() and c != name]
    close = same_but_case + [
        c for c in difflib.get_close_matches(name, pool, n=3, cutoff=0.6)
        if c not in same_but_case
    ]
    close = close[:3]
    if not close:
        return None
    if len(close) == 1:
        return f"did you mean {close[0]!r}?"
    return "did you mean " + ", ".join(repr(c) for c in close[:-1]) + f" or {close[-1]!r}?"
