"""A battlefield of aos4 units in rows and terrain pieces, to call the sight builtins on
(tests of hand-computed geometry: the ruleset only supplies unit data)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import yaml

from rules_run.chance import RandomChance
from rules_run import open_battle
from rules_run.engine.state import BattleState

__all__ = ["INCH", "build", "piece", "row"]

INCH = 25.4
"""Millimetres: a base of INCH is 1" square."""


def build(tmp_path: Path, units: list[dict], terrain: list[dict]
          ) -> tuple[BattleState, dict[str, Any], Callable[..., Any]]:
    """The battle state of a 60" × 44" table, its units by id, and ``b(name, *args)``, which
    calls a builtin with unit ids standing for the units."""
    doc: dict[str, Any] = {"edition": "aos4", "seed": 1, "sides": ["a", "b"], "units": units,
                           "battlefield": {"width": 60, "depth": 44, "terrain": terrain}}
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("aos4", str(path))
    state = BattleState(runtime, battle, [], {})
    env = runtime.env(RandomChance(1), battle.options, [], state)
    ids = {u.id: u for u in state.units}

    def b(name: str, *args: Any) -> Any:
        return state.builtin(env, name, [ids.get(a, a) if isinstance(a, str) else a
                                         for a in args], None)
    return state, ids, b


def row(uid: str, x: float, y: float, models: int = 5, files: int | None = None,
        side: str = "a", facing: float = 0) -> dict:
    """A unit of 1" square bases centred at (x, y), ``files`` wide (all in one rank by
    default)."""
    return {"id": uid, "side": side, "profile": "order/liberators", "models": models,
            "files": models if files is None else files, "base": {"w": INCH, "d": INCH},
            "position": {"x": x, "y": y, "facing": facing}}


def piece(pid: str, x0: float, y0: float, x1: float, y1: float) -> dict:
    """A wall (a Cover piece) over x0..x1 and y0..y1."""
    return {"id": pid, "kind": "wall", "at": {"x": (x0 + x1) / 2, "y": (y0 + y1) / 2},
            "size": {"w": x1 - x0, "h": y1 - y0}, "effects": ["Cover"]}
