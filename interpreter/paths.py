"""Where the grammar, the schemas and the bundled rulesets are.

An installed package carries them in ``interpreter/_data/``; a source checkout (or an
editable install) has them at the top of the repository.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["data_folder", "GRAMMAR_DIR", "SCHEMAS_DIR", "RULESETS_DIR"]

_HERE = Path(__file__).resolve().parent


def data_folder(name: str) -> Path:
    """Return the folder ``name`` (``grammar``, ``schemas`` or ``rulesets``)."""
    installed = _HERE / "_data" / name
    if installed.is_dir():
        return installed
    return _HERE.parent / name


GRAMMAR_DIR = data_folder("grammar")
SCHEMAS_DIR = data_folder("schemas")
RULESETS_DIR = data_folder("rulesets")
