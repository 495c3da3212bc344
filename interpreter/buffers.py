"""The text of input files: what is on disk, or what an editor holds unsaved.

Every stage that reads a rule file or a YAML file reads it through :func:`read_text`, the
one way input files are read: UTF-8, regular files only, within the ``file_size`` limit.
A language server puts the text of each open buffer here (:func:`set_buffer`), so a check
sees what the user sees, before the file is saved; :func:`generation` tells a cache that a
buffer changed. Paths are compared absolute (relative to the working directory).
"""

from __future__ import annotations

import hashlib
import itertools
import os
from pathlib import Path

from rules_run.limits import limit, too_many
from rules_run.paths import PathRefused, shown

__all__ = ["read_text", "set_buffer", "drop_buffer", "generation", "content_hash"]

_BUFFERS: dict[str, tuple[int, str]] = {}
_EDITS = itertools.count(1)


def _key(path: os.PathLike[str] | str) -> str:
    return os.path.abspath(path)


def read_text(path: os.PathLike[str] | str) -> str:
    """The text of ``path``: its open buffer, else the file's (UTF-8, a byte-order mark
    dropped).

    Raises:
        PathRefused: not a regular file (a device such as /dev/zero, a pipe, a folder), or
            larger than the ``file_size`` limit.
        OSError: the file cannot be read.
        UnicodeDecodeError: the file is not UTF-8 text.
    """
    buffered = _BUFFERS.get(_key(path))
    if buffered is not None:
        return buffered[1]
    p = Path(path)
    if p.exists() and not p.is_file():
        kind = "a folder" if p.is_dir() else "not a regular file"
        raise PathRefused(f"{shown(p)!r} is {kind}", "give a file of text")
    with p.open("rb") as f:
        data = f.read(limit("file_size") + 1)
    if len(data) > limit("file_size"):
        raise PathRefused(too_many("file_size", f"bytes in {shown(p)!r}"))
    return data.decode("utf-8-sig")


def set_buffer(path: os.PathLike[str] | str, text: str) -> None:
    """Read ``text`` for ``path`` from now on, instead of the file."""
    _BUFFERS[_key(path)] = (next(_EDITS), text)


def drop_buffer(path: os.PathLike[str] | str) -> None:
    """Read ``path`` from disk again (its buffer was closed)."""
    _BUFFERS.pop(_key(path), None)


def generation(path: os.PathLike[str] | str) -> int:
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


def content_hash(folder: Path) -> str:
    """A digest of every file below ``folder`` (names and bytes; hidden and ``__`` folders
    left out), in a fixed order; a file open in an editor's buffer counts with the buffer's
    text, so an unsaved edit is never answered from a cache (:mod:`rules_run.cache`)."""
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for name in sorted(files):
            path = Path(root, name)
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            data = (read_text(path).encode("utf-8") if generation(path)
                    else path.read_bytes())
            digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()
