"""A wfb8 battle state from a few units, and a caller of the generic builtins on it (tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rules_run.chance import RandomChance
from rules_run import open_battle
from rules_run.engine.state import BattleState
from rules_run.runtime.events import Event

__all__ = ["build"]


def build(tmp_path: Path, units: list[dict], battlefield: dict | None = None):
    """The state, a function calling a builtin by name (a unit's id stands for the unit),
    and the events it records."""
    doc: dict[str, Any] = {"edition": "wfb8", "seed": 1, "units": units}
    if battlefield is not None:
        doc["battlefield"] = battlefield
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("wfb8", str(path))
    state = BattleState(runtime, battle, [], {})
    events: list[Event] = []
    env = runtime.env(RandomChance(1), battle.options, events, state)

    def b(name: str, *args: Any) -> Any:
        args = tuple(next(x for x in state.units if x.id == a) if isinstance(a, str)
                     and any(x.id == a for x in state.units) else a for a in args)
        return state.builtin(env, name, list(args), None)
    return state, b, events
