"""A wfb8 (or patched wfb8) battle state built from a few units, to run the ruleset's declarations in (tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rules_run.chance import RandomChance, ScriptedChance, enumerate_exact
from rules_run import open_battle
from rules_run.engine.state import BattleState
from rules_run.runtime.events import Event

__all__ = ["World", "one", "pos", "unit"]


class World:
    """A battle state from a small battle file, to run the ruleset's declarations in."""

    def __init__(self, tmp_path: Path, units: list[dict], edition: str = "wfb8",
                 **extra: Any) -> None:
        doc = {"edition": edition, "seed": 1, "game": {"rounds": 1}, "units": units}
        doc.update(extra)
        path = tmp_path / "battle.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        _, self.runtime, self.battle = open_battle(edition, str(path))
        orders = [dict(o) for o in extra.get("orders", [])]
        self.state = BattleState(self.runtime, self.battle, orders, {})
        self.state.round = 1
        self.state.active_side = self.battle.units[0].side
        self.events: list[Event] = []
        self.chance: Any = RandomChance(1)

    def unit(self, unit_id: str):
        return next(u for u in self.state.units if u.id == unit_id)

    def env(self, dice: Any = None):
        if dice is not None:
            self.chance = ScriptedChance(dice)
        return self.runtime.env(self.chance, self.battle.options, self.events, self.state)

    def _args(self, args: dict) -> dict:
        ids = {u.id for u in self.state.units}
        return {k: self.unit(v) if isinstance(v, str) and v in ids else v for k, v in args.items()}

    def call(self, name: str, dice: Any = None, /, **args: Any) -> Any:
        return self.runtime.invoke(name, self.env(dice), self._args(args))

    def exact(self, name: str, **args: Any):
        """Exact distribution of a roll, test (passed or not) or pure action."""
        rt, bound = self.runtime, self._args(args)

        def run(chance):
            out = rt.invoke(name, rt.env(chance, self.battle.options), dict(bound))
            if getattr(out, "passed", None) is not None:
                return out.passed
            return getattr(out, "value", out)
        return enumerate_exact(run)

    def attack(self, sequence: str, attacker: str, target: str, options: dict | None = None):
        """One attack's exact outcome (a Dist of SequenceOutcome)."""
        rt = self.runtime
        seq = rt.sequences[sequence]
        names = [p.name for p in seq.decl.params]
        opts = dict(self.battle.options, **(options or {}))
        args = dict(zip(names, (self.unit(attacker), self.unit(target))))
        return seq.exact(lambda ch: rt.env(ch, opts), args)

    def logs(self, message: str) -> list[list]:
        return [e.values for e in self.events if e.kind == "log" and e.message == message]

    def tests(self, rule: str) -> list[Event]:
        return [e for e in self.events if e.kind == "test" and e.rule == rule]


def unit(uid: str, side: str, x: float, y: float, facing: float = 0, **spec: Any) -> dict:
    spec = dict(spec)
    spec.setdefault("profile", "empire/halberdier")
    spec.setdefault("models", 10)
    spec.setdefault("files", 5)
    return {"id": uid, "side": side, "position": {"x": x, "y": y, "facing": facing}, **spec}


def pos(x: float, y: float, facing: float = 0) -> dict:
    """A battle-file position."""
    return {"x": x, "y": y, "facing": facing}


def one(uid: str, side: str, profile: str, where: dict, **spec: Any) -> dict:
    """A battle-file unit of a profile at a position (one model unless ``models`` says)."""
    return {"id": uid, "side": side, "profile": profile, "models": spec.pop("models", 1),
            "position": where, **spec}
