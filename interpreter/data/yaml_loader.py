"""Load a YAML file as plain Python data, remembering where every value came from.

Every table, unit file, manifest and battle file goes through :func:`load_yaml`. It returns a
:class:`YamlDocument`: the data as plain ``dict``/``list``/``str``/``int``/``float``/``bool``/
``None`` values, and a location index, so that any later stage (the schema check, a table's
shape check, the engine) can point at the exact key or value it complains about.

The YAML dialect is deliberately small. Nothing the user gave is lost or rewritten:

- a mapping that gives the same key twice is an error, never "the last one wins";
- only ``true`` and ``false`` (in any case) are booleans; ``yes``, ``no``, ``on``, ``off``
  stay the strings the user wrote (YAML 1.1 would turn a unit called ``No`` into ``False``);
- dates and times stay strings;
- integers are decimal (``12``, ``-3``) and stay ints; floats (``1.5``, ``2e3``) stay floats,
  and one too large to hold (``1e999``, infinity) is an error; ``0x1F``, ``1_000`` and
  ``1:30`` stay strings;
- ``null``, ``~`` and an empty value are ``None``;
- mapping keys keep their type, so a table keyed ``1:``, ``2:`` has int keys;
- aliases (``*name``) are allowed; merge keys (``<<``) and tags other than the standard
  ``!!str``, ``!!int``, ``!!float``, ``!!bool``, ``!!null``, ``!!seq``, ``!!map`` are errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeAlias

from rules_run import cache, slotted
from rules_run.buffers import read_text
from rules_run.diagnostics import DataError, DiagnosticBag, Span
from rules_run.limits import current
from rules_run.paths import PathRefused

__all__ = ["Key", "DataPath", "YamlDocument", "load_yaml", "path_text"]

Key: TypeAlias = str | int | float | bool | None
"""One step of a :data:`DataPath`: a mapping key, or an index into a list."""

DataPath: TypeAlias = tuple[Key, ...]
"""Where a value is inside a document, as the keys and indices leading to it."""

@slotted.frozen
class _Location:
    key: Span | None
    """The mapping key of the entry; None for list items and the document itself."""
    value: Span
    """The value."""


@slotted.frozen
class YamlDocument:
    """A loaded YAML file: its plain data, and where each value and key is.

    Examples:
        >>> doc = load_yaml("unit.yaml", "profile:\\n  WS: 3\\n  BS: [3, 4]\\n")
        >>> doc.value
        {'profile': {'WS': 3, 'BS': [3, 4]}}
        >>> doc.span(("profile", "BS", 1)).text()
        'unit.yaml:3:11'
        >>> doc.key_span(("profile", "WS")).text()
        'unit.yaml:2:3'
        >>> doc.span(("profile", "Ld")).text()  # not there: its nearest ancestor
        'unit.yaml:2:3'
    """

    path: str
    """The file as the caller named it; every span carries it."""
    text: str = slotted.slot(repr=False)
    """The whole source text."""
    value: Any = slotted.slot(repr=False, hash=False)
    """The data: plain dicts, lists, strings, ints, floats, bools and None."""
    _locations: Mapping[DataPath, _Location] = slotted.slot(
        repr=False, eq=False, alias="locations"
    )

    def span(self, path: Iterable[Key] = ()) -> Span:
        """Where the value at ``path`` is (or its nearest ancestor's, if ``path`` is not there).

        Args:
            path: keys and list indices from the top of the document, as in
                ``("units", 0, "profile", "WS")``.

        Returns:
            The value's span, from its first character to just past its last.
        """
        return self._nearest(tuple(path)).value

    def key_span(self, path: Iterable[Key]) -> Span:
        """Where the mapping key of the entry at ``path`` is.

        A list item has no key, so for it (and for the document itself) this is the span of
        the value. As with :meth:`span`, a path that is not there gives its nearest ancestor.
        """
        location = self._nearest(tuple(path))
        return location.key or location.value

    def _nearest(self, path: DataPath) -> _Location:
        while path not in self._locations:
            path = path[:-1]
        return self._locations[path]


def path_text(path: Iterable[Key]) -> str:
    """Write a data path the way messages show it: ``units[0].profile.WS``.

    Examples:
        >>> path_text(("units", 0, "profile", "WS"))
        'units[0].profile.WS'
        >>> path_text(("rules", "Ward Save"))
        "rules['Ward Save']"
        >>> path_text(())
        ''
    """
    out = ""
    for step in path:
        if isinstance(step, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", step):
            out += f".{step}" if out else step
        else:
            out += f"[{step!r}]"
    return out


def load_yaml(path: str | Path, text: str | None = None) -> YamlDocument:
    """Load one YAML document as plain data with a location index.

    Args:
        path: the file to read; also the name spans carry.
        text: the file's text, when the caller has it already; then ``path`` is not read.

    Returns:
        The document.

    Raises:
        DataError: the file cannot be read (code ``no-file``), is not UTF-8 text
            (``bad-encoding``), is not valid YAML (``yaml-syntax``), or breaks the dialect:
            duplicate keys (``duplicate-key``), unknown tags (``unknown-tag``), merge keys
            (``merge-key``), ... Every such mistake in the file is reported at once.

    Examples:
        >>> load_yaml("t.yaml", "1: yes\\n2: 2024-05-01\\n3: TRUE\\n").value
        {1: 'yes', 2: '2024-05-01', 3: True}
        >>> load_yaml("t.yaml", "a: 1\\na: 2\\n")
        Traceback (most recent call last):
        ...
        rules_run.diagnostics.DataError: t.yaml:2:1: error: duplicate key 'a' (first given at line 1)
            a: 2
            ^
    """
    shown = str(path)
    if text is None:
        text = _read(path, shown)
    # a text once read without a mistake reads the same again (under the same limits)
    key = cache.digest(cache.code_fingerprint(), shown, text, ",".join(map(str, current())))
    doc = cache.read("yaml", key, key)
    if isinstance(doc, YamlDocument):
        return doc
    from rules_run.data.yaml_parse import parse   # PyYAML only when a text is parsed

    doc = parse(shown, text)
    cache.write("yaml", key, key, doc)
    return doc


def _read(path: str | Path, shown: str) -> str:
    try:
        return read_text(path)
    except PathRefused as exc:
        raise DataError([DiagnosticBag().add(exc.message, code="refused-file",
                                             hint=exc.hint)]) from None
    except UnicodeDecodeError as exc:
        message = f"{shown!r} is not UTF-8 text ({exc.reason})"
        raise DataError([DiagnosticBag().add(message, code="bad-encoding")]) from None
    except OSError as exc:
        message = f"cannot read {shown!r}: {exc.strerror or type(exc).__name__}"
        raise DataError([DiagnosticBag().add(message, code="no-file")]) from None
