"""Dice with a counted number (``levels D6``) and counting faces (``count 5+ in 3D6``): scripted,
exact (binomial odds worked by hand) and sampled (Monte Carlo within 4 sigma), and the
diagnostics for their misuse."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from rules_run.chance import (
    D6,
    CountFaces,
    DiceExpr,
    Pool,
    RandomChance,
    ScriptedChance,
    enumerate_exact,
)
from rules_run.diagnostics import BattleError, DiagnosticBag
from rules_run.lang.parser import parse_rules

from .test_checker import check
from .test_rolls import kit, unit

COUNTS = '''
roll hits(n: int) @ L1
    dice count 5+ in n D6
test sixes(n: int) @ L1
    dice count 6 in (n + 1) D6
    need 2
test lucky(n: int, u: unit) @ L1
    dice count 6 in n D6
    need 1
rule "Again" @ L1
    reroll failed lucky
'''


def exact(rt, name, **args):
    def run(chance):
        out = rt.invoke(name, rt.env(chance), dict(args))
        return out if isinstance(out, int) else out.passed
    return enumerate_exact(run)


def test_scripted_dice_count_the_faces_that_show(tmp_path) -> None:
    rt = kit(tmp_path, COUNTS)
    assert rt.invoke("hits", rt.env(ScriptedChance([5, 1, 6])), {"n": 3}) == 2
    result = rt.invoke("sixes", rt.env(ScriptedChance([6, 2, 6])), {"n": 2})
    assert (result.natural, result.passed, result.faces) == (2, True, (6, 2, 6))


def test_counting_is_binomial_exactly(tmp_path) -> None:
    rt = kit(tmp_path, COUNTS)
    # each die shows 5 or 6 with 1/3: C(4, k) (1/3)^k (2/3)^(4-k)
    dist = exact(rt, "hits", n=4)
    assert [dist.probability(k) for k in range(5)] == [F(16, 81), F(32, 81), F(24, 81),
                                                       F(8, 81), F(1, 81)]
    # no dice: nothing is rolled, the count is 0
    assert exact(rt, "hits", n=0).probability(0) == 1
    # at least two 6s on 3D6: 3 * 5/216 + 1/216
    assert exact(rt, "sixes", n=2).probability(True) == F(2, 27)


def test_the_chance_layer_agrees_with_enumerating_multisets() -> None:
    counted = CountFaces(Pool(5, D6), (5, 6))
    assert counted.exact() == DiceExpr.exact(counted)
    assert counted.text() == "count 5+ in 5D6" and counted.bounds() == (0, 5)


def test_a_rerolled_count_rolls_every_die_again(tmp_path) -> None:
    rt = kit(tmp_path, COUNTS)
    again = unit(rt, rules=("Again",))
    # no 6 on 2D6 twice running: (25/36)^2
    assert exact(rt, "lucky", n=2, u=again).probability(True) == 1 - F(25, 36) ** 2
    assert exact(rt, "lucky", n=2, u=unit(rt)).probability(True) == F(11, 36)
    chance = ScriptedChance([1, 2, 6, 3])
    result = rt.invoke("lucky", rt.env(chance), {"n": 2, "u": again})
    assert (result.passed, result.faces, chance.remaining()) == (True, (6, 3), [])


def test_monte_carlo_agrees_with_exact_within_4_sigma(tmp_path) -> None:
    rt = kit(tmp_path, COUNTS)
    dist = exact(rt, "hits", n=6)
    n = 4000
    env = rt.env(RandomChance(23))
    total = sum(rt.invoke("hits", env, {"n": 6}) for _ in range(n))
    mean, var = float(dist.mean()), float(dist.variance())
    assert mean == 2.0
    assert abs(total / n - mean) <= 4 * math.sqrt(var / n)


def test_a_negative_number_of_dice_is_located(tmp_path) -> None:
    rt = kit(tmp_path, COUNTS)
    with pytest.raises(BattleError) as err:
        rt.invoke("hits", rt.env(RandomChance(1)), {"n": -1})
    (d,) = err.value.diagnostics
    assert (d.code, d.message) == ("bad-dice", "roll 'hits' is to roll -1 dice; the number of "
                                   "dice must be a whole number, 0 or more")
    assert (d.span.line, d.span.column) == (6, 22)


@pytest.mark.parametrize(("dice", "column", "message"), [
    ("n 2D6", 12, "a counted number of dice takes one die: write 'n D6', not 'n 2D6'"),
    ("n D6x5", 12, "a counted number of dice takes one die: write 'n D6', not 'n D6x5'"),
    ("count 7 in 3D6", 16, "a D6 has no face 7 to count; its faces are 1 to 6"),
    ("count 4+ in 2D3", 16, "a D3 has no face 4 to count; its faces are 1 to 3"),
    ("count 6 in count 5 in 3D6", 21,
     "only a pool of dice is counted, as in 'count 6 in 3D6', not a count"),
    ("count 6 in highest of 3D6", 21,
     "only a pool of dice is counted, as in 'count 6 in 3D6', not 'highest of 3D6'"),
])
def test_misused_counts_are_syntax_errors(dice: str, column: int, message: str) -> None:
    bag = DiagnosticBag()
    parse_rules(f"roll r(n: int) @ L1\n    dice {dice}\n", "x.rules", bag)
    assert [(d.code, d.span.line, d.span.column, d.message) for d in bag.items] == [
        ("bad-dice", 2, column, message)]


def test_the_number_of_dice_must_be_a_whole_number() -> None:
    assert check('''roll r(u: unit) @ L1
    dice count 6 in u D6
roll q(x: text) @ L1
    dice x D6
''') == [(2, "wrong-type", "the number of dice must be an int, got unit"),
         (4, "wrong-type", "the number of dice must be an int, got text")]
