"""A wfb3 battle state built from a few units, to run the ruleset's declarations in (the
wfb3 magic and psychology tests)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from helpers import wfb8_world

__all__ = ["World", "u"]

EDITION = "wfb3"


class World(wfb8_world.World):
    """A wfb3 battle state from a few units."""

    def __init__(self, tmp_path: Path, units: list[dict], **extra: Any) -> None:
        super().__init__(tmp_path, units, EDITION, **extra)

    def passes(self, test: str, **args: Any) -> Fraction:
        """The exact chance that ``test`` passes with ``args``."""
        return self.exact(test, **args).probability(True)


def u(uid: str, side: str, x: float, y: float, profile: str, facing: float = 0,
      **spec: Any) -> dict:
    """A unit of a battle file: ``profile`` (folder/name of the ruleset's units) at
    (``x``, ``y``), ten models in five files unless ``spec`` says otherwise."""
    spec.setdefault("models", 10)
    spec.setdefault("files", 5)
    return {"id": uid, "side": side, "profile": profile,
            "position": {"x": x, "y": y, "facing": facing}, **spec}
