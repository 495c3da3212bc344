"""Chance: dice, exact distributions, and the sources a roll's faces come from.

One declaration, two kinds of chance: a game procedure receives a :class:`Chance` and runs
sampled (:class:`RandomChance`, :class:`ScriptedChance`) or exactly enumerated
(:func:`enumerate_exact`), and both agree.

Conventions:
    - Instances are immutable (:class:`Dist`, :class:`Die`, every :class:`DiceExpr`).
    - Probabilities are exact :class:`fractions.Fraction`; floats appear only in
      :meth:`Dist.to_floats`, for display.
    - ``==`` on a :class:`Dist` compares whole distributions; comparisons with a number have
      names (:meth:`Dist.p_at_least`, ...).
    - Rules must not depend on the order of dice within one roll.
    - User-facing mistakes (scripted dice ran out, an impossible dice expression) raise
      :class:`~rules_run.diagnostics.ChanceError`.
"""

from rules_run.chance.dice import (
    D3,
    Constant,
    CountFaces,
    Adding,
    DiceExpr,
    Face,
    Halved,
    KeepHighest,
    KeepLowest,
    Plus,
    Pool,
    Times,
)
from rules_run.chance.die import D6, Die, FaceValue, ordered_outcomes, outcomes
from rules_run.chance.dist import Dist, binomial
from rules_run.chance.source import (
    Chance,
    RandomChance,
    ScriptedChance,
    derive_seed,
    enumerate_exact,
    monte_carlo,
    sample,
)

__all__ = [
    "Dist",
    "binomial",
    "FaceValue",
    "Die",
    "D6",
    "D3",
    "DiceExpr",
    "Pool",
    "KeepHighest",
    "KeepLowest",
    "Times",
    "Plus",
    "Halved",
    "CountFaces",
    "Adding",
    "Constant",
    "Face",
    "outcomes",
    "ordered_outcomes",
    "Chance",
    "RandomChance",
    "ScriptedChance",
    "derive_seed",
    "enumerate_exact",
    "sample",
    "monte_carlo",
]
