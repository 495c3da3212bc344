"""A battle state to run single actions and tests of the aos4 rulesets against (tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from rules_run.chance import RandomChance, ScriptedChance
from rules_run import open_battle
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.state import BattleState
from rules_run.runtime.events import Event

__all__ = ["Probe", "battle_file"]


class Probe:
    """A battle state to run single actions and tests of the ruleset against."""

    def __init__(self, edition: str, path: str | Path, *, dice: Any = None,
                 active: str = "order", orders: list[dict] | None = None,
                 options: dict[str, Any] | None = None) -> None:
        _, self.runtime, battle = open_battle(edition, str(path), options)
        battle = attrs.evolve(battle, units=[u.fresh() for u in battle.units])
        self.state = BattleState(self.runtime, battle, list(orders or []), {})
        self.state.active_side = active
        self.state.round = 1
        self.chance = ScriptedChance(dice) if dice is not None else RandomChance(0)
        self.env = self.runtime.env(self.chance, battle.options, [], self.state)
        self.unit = {u.id: u for u in self.state.units}

    def __call__(self, name: str, **args: Any) -> Any:
        args = {k: self.unit.get(v, v) if isinstance(v, str) else v for k, v in args.items()}
        return self.runtime.invoke(name, self.env, args)

    def next_phase(self) -> None:
        """A new phase begins: the battle's count of phases moves on, which ``once per
        phase`` limits and counters ``until end of phase`` read."""
        self.state.phases += 1

    def logged(self, message: str) -> list[list[Any]]:
        return [e.values for e in self.env.events
                if e.kind == "log" and e.message == message]

    def events(self, kind: str, **match: Any) -> list[Event]:
        return [e for e in self.env.events
                if e.kind == kind and all(getattr(e, k, None) == v for k, v in match.items())]

    def counter(self, name: str, *keys: Any) -> Any:
        key = (name, *(getattr(k, "id", k) for k in keys))
        return self.state.counters.get(key, 0)

    def set_counter(self, name: str, *keys_and_value: Any) -> Any:
        keys = [self.unit.get(k, k) if isinstance(k, str) else k for k in keys_and_value[:-1]]
        return BUILTINS["set_counter"](self.state, self.env, None, name, *keys,
                                       keys_and_value[-1])


def battle_file(tmp_path: Path, text: str, name: str = "battle.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
