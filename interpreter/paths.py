"""Where the grammar, the schemas and the bundled rulesets are, and the one place that
resolves a path a ruleset or a battle file names (input files are read by
:func:`rules_run.buffers.read_text`).

An installed package carries its data in ``rules_run/_data/``; a source checkout (or an
editable install) has it at the top of the repository.

A ruleset or battle file is shared between people, so what it names must never reach the
rest of the disk: :func:`named_path` accepts a relative path that stays (symbolic links
resolved) inside the folder of the file naming it or the bundled rulesets.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_folder", "shown", "named_path", "PathRefused", "GRAMMAR_DIR", "SCHEMAS_DIR",
           "RULESETS_DIR"]

_HERE = Path(__file__).resolve().parent


def data_folder(name: str) -> Path:
    """Return the folder ``name`` (``grammar``, ``schemas`` or ``rulesets``)."""
    installed = _HERE / "_data" / name
    if installed.is_dir():
        return installed
    return _HERE.parent / name


def shown(path: os.PathLike[str] | str) -> str:
    """A path as messages show it: relative to the working directory (``str(path)`` when
    it cannot be, e.g. on another drive)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


class PathRefused(ValueError):
    """A named path that may not be read, or a file that may not be read; the message says
    why, without anything from the file."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def named_path(name: str, folder: Path, what: str, also: Path | None = None) -> Path:
    """The path ``name`` that a file in (or for) ``folder`` names, checked.

    Args:
        name: the path as written (relative, ``/``-separated).
        folder: what it is relative to: the ruleset folder, or the battle file's folder.
        what: what ``folder`` is, for messages ("the ruleset folder").
        also: one more folder the path may lead into (the ruleset a battle file is kept in).

    Returns:
        The path, resolved (symbolic links followed). It may not exist.

    Raises:
        PathRefused: an absolute path, or one that leads (through ``..`` or a symbolic
            link) outside ``folder`` and the bundled rulesets.
    """
    if not name or Path(name).is_absolute() or name.startswith(("~", "\\")) or ":" in name[:3]:
        raise PathRefused(f"{name!r} is an absolute path",
                          f"write a path relative to {what} {shown(folder)!r}")
    base = folder.resolve()
    target = (base / name).resolve()
    roots = (base, RULESETS_DIR.resolve()) + ((also.resolve(),) if also else ())
    if not any(target.is_relative_to(root) for root in roots):
        link = "" if Path(os.path.normpath(base / name)) == target else " (through a symbolic link)"
        raise PathRefused(
            f"{name!r} leads outside {what} {shown(folder)!r}{link}",
            "rules-run reads only files inside " + what + " and the bundled rulesets",
        )
    return target


GRAMMAR_DIR = data_folder("grammar")
SCHEMAS_DIR = data_folder("schemas")
RULESETS_DIR = data_folder("rulesets")
