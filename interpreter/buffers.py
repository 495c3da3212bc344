"""The text of input files: what is on disk, or what an editor holds unsaved.

Every stage that reads a rule file or a YAML file reads it through :func:`read_text`. A
language server puts the text of each open buffer here (:func:`set_buffer`), so a check
sees what the user sees, before the file is saved; :func:`generation` tells a cache that a
buffer changed. Paths are compared absolute (relative to the working directory).
"""

from __future__ import annotations

import itertools
import os

from rules_run import paths

__all__ = ["read_text", "set_buffer", "drop_buffer", "generation"]

_BUFFERS: dict[str, tuple[int, str]] = {}
_EDITS = itertools.count(1)


def _key(path: os.PathLike | str) -> str:
    return os.path.abspath(path)


def read_text(path: os.PathLike | str) -> str:
    """The text of ``path``: its open buffer, else the file as
    :func:`rules_run.paths.read_text` reads an input file (UTF-8, a BOM dropped, within the
    ``file_size`` limit, regular files only).

    Raises:
        PathRefused: not a regular file, or too large.
        OSError: the file cannot be read.
        UnicodeDecodeError: the file is not UTF-8 text.
    """
    buffered = _BUFFERS.get(_key(path))
    if buffered is not None:
        return buffered[1]
    return paths.read_text(path)


def set_buffer(path: os.PathLike | str, text: str) -> None:
    """Read ``text`` for ``path`` from now on, instead of the file."""
    _BUFFERS[_key(path)] = (next(_EDITS), text)


def drop_buffer(path: os.PathLike | str) -> None:
    """Read ``path`` from disk again (its buffer was closed)."""
    _BUFFERS.pop(_key(path), None)


def generation(path: os.PathLike | str) -> int:
    """A number that changes whenever ``path``'s buffer changes; 0 when it has none.

    Examples:
        >>> generation("no/such/buffer.rules")
        0
        >>> set_buffer("no/such/buffer.rules", "x")
        >>> first = generation("no/such/buffer.rules")
        >>> set_buffer("no/such/buffer.rules", "y")
        >>> generation("no/such/buffer.rules") > first > 0
        True
        >>> drop_buffer("no/such/buffer.rules")
    """
    buffered = _BUFFERS.get(_key(path))
    return buffered[0] if buffered is not None else 0
