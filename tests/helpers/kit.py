"""A small ruleset written by a test into a folder, with a battle fought under it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules_run import open_battle

__all__ = ["kit_battle"]


def kit_battle(tmp_path: Path, name: str, rules: str, battle: str) -> tuple[Any, Any]:
    """Write ``rules`` as the ruleset ``name`` and ``battle`` as a battle file under
    ``tmp_path``; return the compiled runtime and the battle, ready for ``run_battle``."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "index.yaml").write_text(f"kind: ruleset\nrules: [{name}.rules]\n")
    (folder / f"{name}.rules").write_text(rules)
    (tmp_path / "battle.yaml").write_text(battle)
    _, runtime, fight = open_battle(str(folder), str(tmp_path / "battle.yaml"))
    return runtime, fight
