"""Where the grammar, the schemas and the bundled rulesets are.

An installed package carries them in ``interpreter/_data/``; a source checkout (or an
editable install) has them at the top of the repository.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_folder", "shown", "GRAMMAR_DIR", "SCHEMAS_DIR", "RULESETS_DIR"]

_HERE = Path(__file__).resolve().parent


def data_folder(name: str) -> Path:
    """Return the folder ``name`` (``grammar``, ``schemas`` or ``rulesets``)."""
    installed = _HERE / "_data" / name
    if installed.is_dir():
        return installed
    return _HERE.parent / name


def shown(path: os.PathLike | str) -> str:
    """A path as messages show it: relative to the working directory (``str(path)`` when
    it cannot be, e.g. on another drive)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


GRAMMAR_DIR = data_folder("grammar")
SCHEMAS_DIR = data_folder("schemas")
RULESETS_DIR = data_folder("rulesets")
