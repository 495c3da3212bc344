"""Tests for rules_run.chance.die and .dice: dice values, dice expressions, roll outcomes."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules_run.chance as chance_pkg
from rules_run.chance import (
    D3,
    D6,
    Constant,
    DiceExpr,
    Die,
    Dist,
    Face,
    Halved,
    KeepHighest,
    KeepLowest,
    Plus,
    Pool,
    RandomChance,
    ScriptedChance,
    Times,
    enumerate_exact,
    ordered_outcomes,
    outcomes,
)
from rules_run.diagnostics import ChanceError
from helpers.special_dice import ARTILLERY_DIE, SCATTER_DIE

# -- hand-computed distributions ---------------------------------------------------------------


def test_d3_is_a_d6_halved_rounding_up() -> None:
    assert D3.exact() == Dist.uniform([1, 2, 3])
    assert [D3.value((face,)) for face in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert D3.text() == "D3"
    assert D3.bounds() == (1, 3)


def test_two_d6() -> None:
    two = Pool(2, D6).exact()
    assert two.probability(7) == Fraction(1, 6)
    assert two.probability(12) == Fraction(1, 36)
    assert two.probability(2) == Fraction(1, 36)
    assert two.mean() == 7


def test_highest_of_two_d6() -> None:
    best = KeepHighest(1, Pool(2, D6)).exact()
    assert best.probability(6) == Fraction(11, 36)
    assert best.probability(1) == Fraction(1, 36)
    assert best.probability(3) == Fraction(5, 36)


def test_lowest_two_of_three_d6_mean() -> None:
    # E[min of 3D6] = sum_k P(min >= k) = (216+125+64+27+8+1)/216 = 441/216; E[max] = 7 - 441/216;
    # E[middle] = 21/2 - E[min] - E[max] = 756/216. Lowest two = (441 + 756)/216 = 133/24.
    cold_blooded = KeepLowest(2, Pool(3, D6))
    assert cold_blooded.exact().mean() == Fraction(133, 24)
    assert cold_blooded.exact().probability(2) == Fraction(16, 216)  # 1,1,x with x any: 1 + 3*5
    assert cold_blooded.text() == "lowest 2 of 3D6"


def test_d6_times_five() -> None:
    d = Times(Pool(1, D6), 5)
    assert d.exact() == Dist.uniform([5, 10, 15, 20, 25, 30])
    assert d.exact().support() == (5, 10, 15, 20, 25, 30)
    assert d.text() == "D6x5"
    assert d.bounds() == (5, 30)


def test_d3_plus_one() -> None:
    d = Plus(D3, 1)
    assert d.exact() == Dist.uniform([2, 3, 4])
    assert d.text() == "D3+1"
    assert Plus(Pool(1, D6), -1).text() == "D6-1"
    assert Plus(Pool(1, D6), -1).exact().support() == (0, 1, 2, 3, 4, 5)


def test_artillery_die() -> None:
    art = Face(ARTILLERY_DIE)
    d = art.exact()
    assert d.probability("misfire") == Fraction(1, 6)
    assert d.probability(10) == Fraction(1, 6)
    assert d.probability(1) == 0
    assert d.support() == (2, 4, 6, 8, 10, "misfire")
    assert art.text() == "artillery die"
    assert not art.is_numeric()


def test_scatter_die_faces_are_weighted_by_how_often_they_appear() -> None:
    d = Face(SCATTER_DIE).exact()
    assert d.probability("hit") == Fraction(1, 3)
    assert d.probability("arrow") == Fraction(2, 3)
    assert SCATTER_DIE.distinct == ("hit", "arrow")
    assert SCATTER_DIE.counts == (2, 4)


def test_constant_rolls_no_dice() -> None:
    assert Constant(2).dice() == ()
    assert Constant(2).exact() == Dist.certain(2)
    assert Constant(2).value(()) == 2


def test_pool_of_zero_dice_is_zero() -> None:
    assert Pool(0, D6).exact() == Dist.certain(0)
    assert Pool(0, D6).dice() == ()


# -- text and repr -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (Pool(2, D6), "2D6"),
        (Pool(1, D6), "D6"),
        (KeepHighest(1, Pool(2, D6)), "highest of 2D6"),
        (KeepHighest(2, Pool(3, D6)), "highest 2 of 3D6"),
        (KeepLowest(1, Pool(2, D6)), "lowest of 2D6"),
        (KeepLowest(2, Pool(3, D6)), "lowest 2 of 3D6"),
        (Times(Pool(1, D6), 5), "D6x5"),
        (Plus(D3, 1), "D3+1"),
        (D3, "D3"),
        (Halved(Pool(2, D6)), "half of 2D6"),
        (Times(Plus(D3, 1), 2), "(D3+1)x2"),
        (Plus(KeepHighest(1, Pool(2, D6)), 1), "(highest of 2D6)+1"),
        (Face(ARTILLERY_DIE), "artillery die"),
        (Pool(3, Die.standard(10)), "3D10"),
        (Constant(3), "3"),
    ],
)
def test_text_is_canonical_notation(expr: DiceExpr, text: str) -> None:
    assert expr.text() == text
    assert str(expr) == text


@pytest.mark.parametrize(
    "expr",
    [
        Pool(2, D6),
        D3,
        Plus(D3, 1),
        Times(Pool(1, D6), 5),
        KeepLowest(2, Pool(3, D6)),
        KeepHighest(1, Pool(2, Die.standard(8))),
        Face(ARTILLERY_DIE),
        Face(SCATTER_DIE),
        Face(Die((1, 1, 2), "lopsided")),
        Constant(-2),
    ],
)
def test_repr_round_trips(expr: DiceExpr) -> None:
    namespace = {name: getattr(chance_pkg, name) for name in chance_pkg.__all__}
    assert eval(repr(expr), namespace) == expr


def test_die_repr_names_the_standard_dice() -> None:
    assert repr(D6) == "D6"
    assert repr(Die.standard(8)) == "Die.standard(8)"
    assert repr(Die(("a", "b"), "coin")) == "Die(('a', 'b'), 'coin')"


# -- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Pool(1, ARTILLERY_DIE), "'artillery die' has the symbol face 'misfire'"),
        (lambda: Pool(-1, D6), "the number of dice must be at least 0, got -1"),
        (lambda: KeepHighest(3, Pool(2, D6)), "cannot keep 3 dice of '2D6'"),
        (lambda: KeepLowest(0, Pool(2, D6)), "at least 1, got 0"),
        (lambda: KeepHighest(1, D3), "needs a pool of dice"),  # type: ignore[arg-type]
        (lambda: Plus(Face(SCATTER_DIE), 1), "'scatter die' can roll a symbol"),
        (
            lambda: Times(Pool(1, D6), 1.5),  # type: ignore[arg-type]
            "a multiplier must be a whole number",
        ),
        (lambda: Die((), "D0"), "die 'D0' has no faces"),
        (lambda: Die((1, True), "odd"), "die 'odd' has face True"),
        (lambda: Die((1, 2.5), "odd"), "die 'odd' has face 2.5"),  # type: ignore[arg-type]
        (lambda: Die.standard(0), "at least one side"),
    ],
)
def test_impossible_dice_are_chance_errors(build: object, message: str) -> None:
    with pytest.raises(ChanceError) as info:
        build()  # type: ignore[operator]
    assert message in str(info.value)


def test_dice_are_hashable_values() -> None:
    assert Pool(2, D6) == Pool(2, Die.standard(6))
    assert hash(Pool(2, D6)) == hash(Pool(2, Die.standard(6)))
    assert Pool(2, D6) != cast(object, KeepHighest(2, Pool(2, D6)))
    assert len({D3, Halved(Pool(1, D6)), Plus(D3, 0)}) == 2


def test_value_checks_the_number_of_faces() -> None:
    with pytest.raises(ValueError):
        Pool(2, D6).value((3,))


def test_roll_reads_faces_from_any_chance() -> None:
    assert KeepHighest(1, Pool(2, D6)).roll(ScriptedChance([2, 5]), "x") == 5
    assert Face(ARTILLERY_DIE).roll(ScriptedChance(["misfire"]), "x") == "misfire"


# -- outcomes ----------------------------------------------------------------------------------


def test_two_d6_has_21_unordered_outcomes() -> None:
    rolls = outcomes((D6, D6))
    assert len(rolls) == 21
    assert sum(p for _, p in rolls) == 1
    weights = dict(rolls)
    assert weights[(1, 1)] == Fraction(1, 36)
    assert weights[(3, 5)] == Fraction(2, 36)
    assert all(faces[0] <= faces[1] for faces, _ in rolls)  # type: ignore[operator]


def test_three_d6_multiset_weights_are_multinomial() -> None:
    weights = dict(outcomes((D6, D6, D6)))
    assert len(weights) == 56
    assert weights[(2, 2, 2)] == Fraction(1, 216)
    assert weights[(1, 1, 4)] == Fraction(3, 216)
    assert weights[(1, 2, 3)] == Fraction(6, 216)


def test_different_dice_keep_their_positions() -> None:
    rolls = dict(outcomes((ARTILLERY_DIE, D6, SCATTER_DIE, D6)))
    assert rolls[("misfire", 1, "hit", 1)] == Fraction(2, 6**4)
    assert rolls[(4, 2, "arrow", 5)] == Fraction(2 * 4, 6**4)
    assert (4, 5, "arrow", 2) not in rolls  # the two D6 come back sorted
    assert sum(rolls.values()) == 1


def test_ordered_outcomes_of_two_d6() -> None:
    rolls = ordered_outcomes((D6, D6))
    assert len(rolls) == 36
    assert all(p == Fraction(1, 36) for _, p in rolls)
    assert ordered_outcomes(()) == [((), Fraction(1))]
    assert outcomes(()) == [((), Fraction(1))]


DICE = (D6, Die.standard(3), Die((1, 1, 2), "lopsided"), SCATTER_DIE, ARTILLERY_DIE)


def _canonical(dice: tuple[Die, ...], faces: tuple[object, ...]) -> tuple[object, ...]:
    """Sort the faces of identical dice into the die's face order, keeping positions."""
    out = list(faces)
    for die in set(dice):
        where = [i for i, d in enumerate(dice) if d == die]
        ordered = sorted((faces[i] for i in where), key=die.distinct.index)
        for i, f in zip(where, ordered):
            out[i] = f
    return tuple(out)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DICE), min_size=0, max_size=4).map(tuple))
def test_unordered_outcomes_are_ordered_outcomes_grouped(dice: tuple[Die, ...]) -> None:
    grouped: dict[tuple[object, ...], Fraction] = {}
    for faces, p in ordered_outcomes(dice):
        key = _canonical(dice, faces)
        grouped[key] = grouped.get(key, Fraction(0)) + p
    assert dict(outcomes(dice)) == grouped


# -- random dice expressions -------------------------------------------------------------------

NUMERIC_DICE = (D6, Die.standard(3), Die((1, 1, 2), "lopsided"), Die((0, 0, 1, 1, 2, 3), "odd die"))

pools = st.builds(Pool, st.integers(1, 4), st.sampled_from(NUMERIC_DICE))


@st.composite
def kept(draw: st.DrawFn) -> DiceExpr:
    pool = draw(pools)
    keep = draw(st.integers(1, pool.count))
    kind = draw(st.sampled_from([KeepHighest, KeepLowest]))
    return kind(keep, pool)


def _wrap(inner: st.SearchStrategy[DiceExpr]) -> st.SearchStrategy[DiceExpr]:
    return st.one_of(
        st.builds(Plus, inner, st.integers(-3, 3)),
        st.builds(Times, inner, st.integers(-2, 5)),
        st.builds(Halved, inner),
    )


dice_exprs = st.recursive(
    st.one_of(pools, kept(), st.builds(Constant, st.integers(-2, 3))), _wrap, max_leaves=3
)


@settings(max_examples=80, deadline=None)
@given(dice_exprs)
def test_expr_exact_is_a_distribution_within_bounds(expr: DiceExpr) -> None:
    exact = expr.exact()
    assert sum(p for _, p in exact.items()) == 1
    lo, hi = expr.bounds()
    assert lo <= exact.min() and exact.max() <= hi  # type: ignore[operator]
    # The bounds are tight: both ends can happen.
    assert exact.min() == lo and exact.max() == hi


@settings(max_examples=80, deadline=None)
@given(dice_exprs)
def test_expr_value_of_every_roll_is_within_bounds(expr: DiceExpr) -> None:
    lo, hi = expr.bounds()
    for faces, _ in ordered_outcomes(expr.dice()):
        assert lo <= expr.value(faces) <= hi  # type: ignore[operator]


@settings(max_examples=80, deadline=None)
@given(dice_exprs, st.integers(0, 2**32))
def test_expr_sampled_values_are_within_bounds(expr: DiceExpr, seed: int) -> None:
    lo, hi = expr.bounds()
    chance = RandomChance(seed)
    for _ in range(20):
        assert lo <= expr.roll(chance, "x") <= hi  # type: ignore[operator]


@settings(max_examples=80, deadline=None)
@given(dice_exprs)
def test_expr_exact_equals_enumerating_its_roll(expr: DiceExpr) -> None:
    assert expr.exact() == enumerate_exact(lambda c: expr.value(c.roll(expr.dice(), "x")))


@settings(max_examples=40, deadline=None)
@given(dice_exprs)
def test_expr_exact_equals_brute_force_over_ordered_dice(expr: DiceExpr) -> None:
    weights: dict[object, Fraction] = {}
    for faces in itertools.product(*(d.faces for d in expr.dice())):
        v = expr.value(faces)
        weights[v] = weights.get(v, Fraction(0)) + 1
    assert expr.exact() == Dist.from_weights(weights)
