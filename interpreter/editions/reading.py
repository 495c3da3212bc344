"""Reading the files of one ruleset folder: named paths checked, YAML files validated,
each file's result remembered by its text, and the error that fits what was found.

:class:`FolderReader` is what every part of loading a ruleset reads through
(:mod:`rules_run.editions.loader`, :mod:`rules_run.editions.contents`); it collects every
problem in one :class:`~rules_run.diagnostics.DiagnosticBag`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from rules_run.buffers import read_text
from rules_run.data.schema import validate
from rules_run.data.yaml_loader import YamlDocument, load_yaml
from rules_run.diagnostics import (
    DataError,
    Diagnostic,
    DiagnosticBag,
    LanguageError,
    PatchError,
    Span,
)
from rules_run.paths import PathRefused, named_path, shown

__all__ = ["FolderReader", "by_text", "forget_read", "raise_errors", "fail"]

_DATA_CACHE: dict[tuple[Any, ...], Any] = {}
"""(what, file, its text) -> what was made of it: YAML files are read and checked once per
text, so re-checking a ruleset after an edit to one file reads only that file again."""
_DATA_CACHE_SIZE = 2_000


def forget_read() -> None:
    """Forget what :func:`by_text` remembers."""
    _DATA_CACHE.clear()


def by_text(what: tuple[Any, ...], path: Path, make: Callable[[str | None], Any]) -> Any:
    """``make(text)`` for ``path``'s text, remembered for that text. ``make(None)`` (which
    reads the file and reports why it cannot) when the file cannot be read."""
    try:
        text = read_text(path)
    except (OSError, UnicodeError):
        return make(None)
    key = (what, shown(path), text)
    if key not in _DATA_CACHE:
        if len(_DATA_CACHE) >= _DATA_CACHE_SIZE:
            _DATA_CACHE.clear()
        _DATA_CACHE[key] = make(text)
    return _DATA_CACHE[key]


def raise_errors(bag: DiagnosticBag) -> None:
    """Raise :func:`fail`'s error if ``bag`` holds an error."""
    if bag.errors:
        fail(bag)


def fail(bag: DiagnosticBag) -> NoReturn:
    """Raise the error that fits ``bag``'s errors: a PatchError for a patch's, a DataError
    when all are in YAML files, else a LanguageError."""
    errors = bag.errors
    codes = {d.code for d in errors}
    if any(c.startswith("patch-") for c in codes):
        raise PatchError(bag.items)
    if all(d.span is not None and d.span.path.endswith((".yaml", ".yml")) for d in errors):
        raise DataError(bag.items)
    raise LanguageError(bag.items)


class FolderReader:
    """The files of one ruleset folder, read with every problem put in :attr:`bag`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.bag = DiagnosticBag()

    def named(self, rel: str, span: Span | None) -> Path | None:
        """The file at ``rel``, relative to the ruleset folder (:func:`named_path`), or
        None when it leads outside (reported at ``span``)."""
        try:
            return named_path(rel, self.folder, "the ruleset folder")
        except PathRefused as refused:
            self.bag.add(refused.message, span, code="refused-path", hint=refused.hint)
            return None

    def yaml(self, path: Path, schema: str) -> YamlDocument | None:
        """The YAML file at ``path``, validated against ``schema``; None (its problems
        reported) when it does not load or validate."""
        def check(text: str | None) -> tuple[YamlDocument | None, list[Diagnostic]]:
            try:
                doc = load_yaml(shown(path), text)
            except DataError as err:
                return None, err.diagnostics
            return doc, validate(doc, schema)

        doc, problems = by_text(("yaml", schema), path, check)
        self.bag.extend(problems)
        if doc is None:
            return None
        self.bag.remember_source(doc.path, doc.text)
        return None if problems else doc
