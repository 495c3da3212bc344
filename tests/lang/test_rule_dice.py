"""Dice set by a rule (``roll charge with lowest 2 of 3D6``): chosen before rolling, so exact
odds hold (checked against a hand count of every ordered roll) and Monte Carlo agrees; the
diagnostics for their misuse."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

from rules_run.chance import Dist, RandomChance, ScriptedChance, enumerate_exact

from .test_checker import check
from .test_rolls import kit, unit

RULES = '''
roll charge(u: unit) @ L1
    dice 2D6
rule "Steady" @ L2
    roll charge with lowest 2 of 3D6 if bearer == u and u.Ld >= 8
'''


def dist(rt, u) -> Dist:
    return enumerate_exact(lambda ch: rt.invoke("charge", rt.env(ch), {"u": u}))


def test_a_rule_sets_the_dice_before_they_are_rolled(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    by_hand: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        total = sum(sorted(faces)[:2])
        by_hand[total] = by_hand.get(total, 0) + 1
    steady = unit(rt, rules=("Steady",), Ld=8)
    assert dist(rt, steady) == Dist.from_weights(by_hand)
    # the condition fails: the roll's own 2D6
    assert dist(rt, unit(rt, rules=("Steady",), Ld=7)).probability(12) == F(1, 36)
    result = rt.invoke("charge", rt.env(ScriptedChance([6, 2, 5])), {"u": steady})
    assert result == 7


def test_monte_carlo_agrees_with_exact_within_4_sigma(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    steady = unit(rt, rules=("Steady",), Ld=9)
    exact = dist(rt, steady)
    n = 4000
    env = rt.env(RandomChance(5))
    total = sum(rt.invoke("charge", env, {"u": steady}) for _ in range(n))
    mean, var = float(exact.mean()), float(exact.variance())
    assert abs(total / n - mean) <= 4 * math.sqrt(var / n)


def test_misused_rule_dice_are_located() -> None:
    assert check('''roll charge(u: unit) @ L1
    dice 2D6
rule "Steady" @ L2
    roll chrage with 3D6
    roll charge with n D6
''') == [
        (4, "unknown-name", "roll ... with names 'chrage', which is not a roll or test"),
        (5, "bad-dice", "'roll charge with': the number of dice a rule sets is a whole number"),
    ]
