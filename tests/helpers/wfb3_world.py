"""wfb3 battle states built from a few units, to run the ruleset's declarations in: any
units, with terrain or not (the magic, psychology and terrain tests), or two facing each
other (the weapons and special rules tests)."""

from __future__ import annotations

from fractions import Fraction
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from helpers import wfb8_world

from rules_run.chance import enumerate_exact

__all__ = ["ARMOURED", "Duel", "World", "u"]

EDITION = "wfb3"
F = Fraction


def u(uid: str, side: str, x: float, y: float, profile: str = "humans/human",
      facing: float | None = None, **spec: Any) -> dict:
    """A unit of a battle file: ``profile`` (folder/name of the ruleset's units) at
    (``x``, ``y``), ten models in five files unless ``spec`` says otherwise, facing up the
    table (side a) or down it (any other side) unless ``facing`` says otherwise."""
    spec.setdefault("models", 10)
    spec.setdefault("files", 5)
    face = facing if facing is not None else (0 if side == "a" else 180)
    return {"id": uid, "side": side, "profile": profile,
            "position": {"x": x, "y": y, "facing": face}, **spec}


class World(wfb8_world.World):
    """A wfb3 battle state from a few units, on a 72" x 48" table with the given terrain
    pieces (a piece's `at` is its centre)."""

    def __init__(self, tmp_path: Path, units: list[dict], terrain: Sequence[dict] = (),
                 **extra: Any) -> None:
        if terrain:
            extra["battlefield"] = {"width": 72, "depth": 48, "terrain": list(terrain)}
        super().__init__(tmp_path, units, EDITION, **extra)

    def passes(self, test: str, **args: Any) -> Fraction:
        """The exact chance that ``test`` passes with ``args``, in this battle state (its
        positions and terrain)."""
        rt, bound = self.runtime, self._args(args)
        return enumerate_exact(lambda ch: bool(rt.invoke(test, rt.env(ch, self.battle.options, [], self.state),
                                                         dict(bound)).passed)).probability(True)

    def status(self, unit_id: str, *names: str, **args: Any) -> None:
        """The unit gains the statuses, each with these arguments (with their effects, as
        the battle applies them)."""
        thing = self.unit(unit_id)
        for name in names:
            thing.gain_status(name, None, self.runtime.status_instance(name, args))


class Duel(World):
    """A wfb3 battle state: unit a (side a) facing unit b (side b) 2" away, or as given
    (the weapons and special rules tests)."""

    def __init__(self, tmp_path: Path, a: dict | None = None, b: dict | None = None,
                 **extra: Any) -> None:
        units = [u("a", "a", 36, 10, **(a or {})), u("b", "b", 36, 14, facing=180, **(b or {}))]
        super().__init__(tmp_path, units, **extra)

    def engage(self) -> None:
        """Units a and b fight each other."""
        a, b = self.unit("a"), self.unit("b")
        a.engaged.append(b)
        b.engaged.append(a)

    def value(self, unit_id: str, name: str) -> Any:
        return self.runtime.characteristic(self.env(), self.unit(unit_id), name)

    def damage(self, sequence: str = "melee_attack", attacker: str = "a", target: str = "b",
               **extra: Any) -> Fraction:
        """The exact chance that one attack of the sequence deals a wound."""
        rt = self.runtime
        seq = rt.sequences[sequence]
        names = [p.name for p in seq.decl.params]
        args = dict(zip(names, (self.unit(attacker), self.unit(target))), **extra)
        dist = seq.exact(lambda ch: rt.env(ch, self.battle.options, [], self.state), args)
        return sum((p for o, p in dist.items() if o.damage > 0), F(0))

    def volley(self, inches: float, shooter: str = "a", target: str = "b") -> tuple[Any, Fraction]:
        """The shooter's weapon and the chance that one of its shots at `inches` wounds."""
        pairs = self.call("shooting_attacks", attacker=shooter, target=target, inches=inches)
        weapon = pairs[0][0]
        return weapon, self.damage("shooting_attack", shooter, target, weapon=weapon, inches=inches)


ARMOURED = {"equipment": ["heavy_armour", "shield"]}
