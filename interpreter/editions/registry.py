"""Find a ruleset by id, alias or folder.

The bundled rulesets are the folders of ``rulesets/`` that hold an ``index.yaml``; their id
is the folder name. An author's ruleset (a patch under development, a house rule) is given
as a path to its folder instead.
"""

from __future__ import annotations

from pathlib import Path

from rules_run.diagnostics import Diagnostic, UsageError, did_you_mean
from rules_run.paths import RULESETS_DIR, named_path

__all__ = ["MANIFEST", "bundled_editions", "find_edition"]

MANIFEST = "index.yaml"


def bundled_editions() -> dict[str, Path]:
    """The bundled rulesets: id -> folder, sorted by id."""
    if not RULESETS_DIR.is_dir():
        return {}
    return {
        p.name: p
        for p in sorted(RULESETS_DIR.iterdir())
        if p.is_dir() and (p / MANIFEST).is_file()
    }


def _aliases(folder: Path) -> list[str]:
    # Aliases are read without the full loader: a broken manifest is reported when the
    # ruleset itself is loaded, not while looking for another one.
    from rules_run.data.yaml_loader import load_yaml
    from rules_run.diagnostics import DataError

    try:
        data = load_yaml(folder / MANIFEST).value
    except DataError:
        return []
    aliases = data.get("aliases", []) if isinstance(data, dict) else []
    return [a for a in aliases if isinstance(a, str)]


def find_edition(name: str | Path, *, folders: bool = True,
                 named_in: Path | None = None) -> Path:
    """The folder of the ruleset ``name``: a bundled id or alias (any case), or a folder.

    Args:
        name: an id, an alias, or (when ``folders``) a path to a ruleset folder.
        folders: whether a path is accepted. A ruleset's ``extends`` passes False, so what
            it means never depends on where the command runs.
        named_in: the folder of the file that names the edition (a battle file's
            ``edition:``): a path is then relative to it, and must stay inside it, the
            ruleset folder it is kept in, or the bundled rulesets
            (:func:`~rules_run.paths.named_path`). Without it (the
            command line's ``--edition``), a path is relative to the working directory.

    Raises:
        UsageError: nothing matches; the hint names the closest ids or lists them all.
        PathRefused: ``named_in`` is given and the path leads outside it.
    """
    text = str(name)
    path = Path(text)
    if folders and named_in is not None:
        # the ruleset the battle file is kept in (its battles/ folder, say) may be named too
        owner = next((p for p in (named_in, *named_in.resolve().parents)
                      if (p / MANIFEST).is_file()), None)
        path = named_path(text, named_in, "the battle file's folder", also=owner)
    if folders and (path / MANIFEST).is_file():
        return path.resolve()
    editions = bundled_editions()
    if text in editions:
        return editions[text]
    lowered = text.lower()
    for edition_id, folder in editions.items():
        if edition_id.lower() == lowered or lowered in (a.lower() for a in _aliases(folder)):
            return folder
    if folders and path.exists():
        message = f"{text!r} is not a ruleset folder (it has no {MANIFEST})"
    else:
        message = f"unknown edition {text!r}"
    hint = did_you_mean(text, editions) or (
        "the editions are " + ", ".join(editions) if editions else "no edition is bundled"
    )
    raise UsageError([Diagnostic(message, code="unknown-edition", hint=hint)])
