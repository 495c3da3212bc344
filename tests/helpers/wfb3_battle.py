"""Small wfb3 battle files for the probe (helpers.aos4_probe): the units written as battle-file
lines at fixed positions, side a facing up the table and side b down."""

from __future__ import annotations

from pathlib import Path

from helpers.aos4_probe import battle_file

__all__ = ["battle", "unit"]


def battle(tmp_path: Path, *units: str, terrain: str = "") -> str:
    """A battle file of the given units (side a faces up the table, side b down)."""
    field = f"battlefield: {{width: 72, depth: 48, terrain: [{terrain}]}}\n" if terrain else ""
    lines = "".join(f"  - {u}\n" for u in units)
    return str(battle_file(tmp_path, f"edition: wfb3\ngame: {{rounds: 2, first: a}}\n{field}units:\n{lines}"))


def unit(uid: str, side: str, profile: str, y: float, models: int = 10, files: int = 5,
         x: float = 36, extra: str = "") -> str:
    """One unit's battle-file line."""
    facing = 0 if side == "a" else 180
    return (f"{{id: {uid}, side: {side}, profile: {profile}, models: {models}, files: {files}, "
            f"position: {{x: {x}, y: {y}, facing: {facing}}}{extra}}}")
