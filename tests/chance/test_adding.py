"""Pools that grow (:class:`rules_run.chance.Adding`): each die showing some faces adds a die."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from rules_run.chance import D6, Adding, Die, Pool, RandomChance, ScriptedChance
from rules_run.diagnostics import ChanceError


def test_each_six_adds_a_die_that_adds_none() -> None:
    grows = Adding(Pool(2, D6), (6,), D6)
    # the pool's 6 adds one die; that die's 6 adds nothing: 6 + 2 + 6 = 14
    assert grows.roll(ScriptedChance([6, 2, 6]), "cast") == 14
    assert grows.roll(ScriptedChance([3, 2]), "cast") == 5


def test_one_die_each_six_adds_a_die_exactly() -> None:
    dist = Adding(Pool(1, D6), (6,), D6).exact()
    # 1-5: 1/6 each; 6 then k: 7..12, 1/36 each
    assert [dist.probability(v) for v in (1, 5, 6, 7, 12)] == [F(1, 6), F(1, 6), 0, F(1, 36),
                                                              F(1, 36)]
    assert sum(p for _, p in dist.items()) == 1


def test_two_dice_growing_exactly() -> None:
    dist = Adding(Pool(2, D6), (5, 6), Die.standard(3)).exact()
    # a total of 2: two 1s (1/36); the largest, 6 + 6 + 3 + 3 = 18: (1/36) * (1/9)
    assert dist.probability(2) == F(1, 36)
    assert dist.probability(18) == F(1, 324)
    # the mean: 7 dice pips, plus each die's 1/3 chance of adding a D3 (mean 2): 7 + 2 * 2/3
    assert sum(v * p for v, p in dist.items()) == F(7) + F(4, 3)


def test_sampling_agrees_with_the_exact_mean_within_4_sigma() -> None:
    grows = Adding(Pool(3, D6), (6,), D6)
    dist = grows.exact()
    mean = sum(v * p for v, p in dist.items())
    var = sum((v - mean) ** 2 * p for v, p in dist.items())
    n = 20000
    chance = RandomChance(7)
    got = sum(grows.roll(chance, "cast") for _ in range(n)) / n
    assert abs(got - float(mean)) < 4 * math.sqrt(float(var) / n)
    # three dice of mean 7/2; each adds a D6 (7/2) with 1/6: half a die more on average
    assert mean == F(21, 2) + F(1, 2) * F(7, 2)


def test_a_face_the_die_lacks_is_refused() -> None:
    with pytest.raises(ChanceError, match="a D6 has no face 7 to add dice on"):
        Adding(Pool(2, D6), (7,), D6)
