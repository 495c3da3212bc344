"""A ruleset's files carried with a run, so a worker on another machine needs none of the
submitter's files and no working directory of theirs.

:func:`pack` takes the files of one or more rulesets (each with its bases: a patch's chain)
and of a battle file into a :class:`Bundle`, plain bytes with each ruleset's fingerprint.
:func:`unpack` writes them once per machine into a folder named by the bundle's digest (in
the system's temporary folder), side by side as the bundled rulesets are, so ``extends``
finds each base; loading them there must give the fingerprints packed, else it is an error.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from rules_run import cache, slotted
from rules_run.diagnostics import UsageError
from rules_run.editions.ruleset import Ruleset

__all__ = ["Bundle", "pack", "unpack"]


@slotted.frozen
class Bundle:
    """Files by path inside the bundle, and what loading them must give."""

    files: tuple[tuple[str, bytes], ...]
    """``(relative path, content)``: each ruleset under its folder's name, the battle as
    ``battle/<name>``."""
    rulesets: tuple[tuple[str, str], ...]
    """For each ruleset asked for, in order: its folder's name and its fingerprint."""
    battle: str | None
    """The battle file's path inside the bundle, if one was packed."""
    interpreter: str
    """The packing interpreter's :func:`~rules_run.cache.code_fingerprint`: a worker
    running other code could fight other battles, so it refuses the bundle."""

    def digest(self) -> str:
        """A digest of the bundle's files (the name of their folder on a worker)."""
        h = hashlib.sha256()
        for name, data in self.files:
            h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()


def _files_of(folder: Path) -> list[tuple[str, bytes]]:
    out = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for name in sorted(names):
            path = Path(root, name)
            out.append((f"{folder.name}/{path.relative_to(folder).as_posix()}",
                        path.read_bytes()))
    return out


def pack(rulesets: Sequence[Ruleset], battle: str | os.PathLike[str] | None) -> Bundle:
    """The files of ``rulesets`` (and their bases) and of the battle file.

    Raises:
        UsageError: two different rulesets of the bundle live in folders of the same name.
    """
    folders: dict[str, Path] = {}
    for ruleset in rulesets:
        for r in ruleset.lineage():
            seen = folders.setdefault(r.folder.name, r.folder)
            if seen != r.folder:
                raise UsageError(f"the rulesets in {str(seen)!r} and {str(r.folder)!r} have "
                                 "the same folder name; a run spec cannot carry both")
    files = [f for name in sorted(folders) for f in _files_of(folders[name])]
    inside = None
    if battle is not None:
        inside = f"battle/{Path(battle).name}"
        files.append((inside, Path(battle).read_bytes()))
    return Bundle(tuple(files), tuple((r.folder.name, r.fingerprint) for r in rulesets), inside,
                  cache.code_fingerprint())


def unpack(bundle: Bundle) -> tuple[list[Path], Path | None]:
    """The folders of the bundle's rulesets and its battle file, written on this machine
    (once: a folder named by the bundle's digest is reused), each ruleset checked.

    Raises:
        UsageError: this machine's interpreter is not the packer's, or a ruleset loaded
            from the bundle's files has another fingerprint than the one packed.
    """
    from rules_run.editions.loader import load_ruleset

    if bundle.interpreter != cache.code_fingerprint():
        raise UsageError("this worker's rules-run is not the one that sent the run spec "
                         "(install the same version on every worker)")
    root = Path(tempfile.gettempdir(), "rules-run-bundles", bundle.digest())
    if not root.is_dir():
        root.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=root.parent, prefix=".unpacking-"))
        for name, data in bundle.files:
            path = work / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        try:
            os.rename(work, root)
        except OSError:   # another process unpacked it first
            shutil.rmtree(work, ignore_errors=True)
    folders = [root / name for name, _ in bundle.rulesets]
    for folder, (name, fingerprint) in zip(folders, bundle.rulesets):
        loaded = load_ruleset(folder).fingerprint
        if loaded != fingerprint:
            raise UsageError(f"the run spec's ruleset {name!r} loads with fingerprint "
                             f"{loaded[:12]}, not the {fingerprint[:12]} it was sent with")
    return folders, (root / bundle.battle if bundle.battle else None)
