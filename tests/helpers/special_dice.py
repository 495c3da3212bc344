"""Two special dice with symbol faces, as a ruleset's ``die`` declarations give them (wfb8's
artillery and scatter dice, 000 L5): the kernel names none, so the chance tests build them."""

from __future__ import annotations

from rules_run.chance import Die

__all__ = ["ARTILLERY_DIE", "SCATTER_DIE"]

ARTILLERY_DIE = Die((2, 4, 6, 8, 10, "misfire"), "artillery die")
"""2, 4, 6, 8, 10 and a misfire symbol."""

SCATTER_DIE = Die(("hit", "hit", "arrow", "arrow", "arrow", "arrow"), "scatter die")
"""Two 'hit' sides and four 'arrow' sides."""
