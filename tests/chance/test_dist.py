"""Tests for rules_run.chance.dist: exact distributions."""

from __future__ import annotations

import itertools
import math
import pickle
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_run.chance import Dist, binomial

D6 = Dist.uniform(range(1, 7))


def brute_sum(d: Dist[int], n: int) -> Dist[int]:
    """The n-fold sum by enumerating every ordered tuple of outcomes."""
    weights: dict[int, Fraction] = {}
    for combo in itertools.product(d.items(), repeat=n):
        total = sum(o for o, _ in combo)
        p = Fraction(1)
        for _, q in combo:
            p *= q
        weights[total] = weights.get(total, Fraction(0)) + p
    return Dist.from_weights(weights)


small_int_dists = st.dictionaries(
    st.integers(min_value=-3, max_value=6), st.integers(min_value=0, max_value=5), min_size=1
).filter(lambda w: sum(w.values()) > 0).map(Dist.from_weights)


# -- construction ----------------------------------------------------------------------------


def test_certain_has_one_outcome_with_probability_one() -> None:
    assert Dist.certain("pass").items() == (("pass", Fraction(1)),)


def test_uniform_counts_repeats_as_weight() -> None:
    d = Dist.uniform(["hit", "arrow", "arrow"])
    assert d.probability("arrow") == Fraction(2, 3)
    assert d.probability("hit") == Fraction(1, 3)


def test_from_weights_normalises_and_drops_zero_weights() -> None:
    d = Dist.from_weights({1: 2, 2: 6, 3: 0})
    assert d.items() == ((1, Fraction(1, 4)), (2, Fraction(3, 4)))
    assert 3 not in d.support()


def test_from_weights_accepts_pairs_and_adds_repeats() -> None:
    pairs: list[tuple[int, int | Fraction]] = [(0, Fraction(1, 3)), (1, 1), (0, Fraction(2, 3))]
    d = Dist.from_weights(pairs)
    assert d == Dist.uniform([0, 1])


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ({1: -1, 2: 2}, "weight -1 of outcome 1 is negative"),
        ({1: 0.5}, "weight 0.5 of outcome 1 is not exact"),
        ({1: True}, "weight True of outcome 1 is not exact"),
        ({1: 0, 2: 0}, "at least one outcome with a positive weight"),
        ({}, "at least one outcome with a positive weight"),
        ([(1, 2, 3)], "expected (outcome, weight) pairs"),
    ],
)
def test_from_weights_rejects_bad_weights(weights: object, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Dist.from_weights(weights)  # type: ignore[arg-type]


def test_uniform_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one outcome"):
        Dist.uniform([])


def test_dist_cannot_be_built_directly_or_changed() -> None:
    with pytest.raises(TypeError):
        Dist()
    with pytest.raises(AttributeError):
        setattr(D6, "_pairs", ())


def test_outcomes_are_sorted_numbers_before_symbols() -> None:
    d = Dist.uniform(["misfire", 10, 2, 4])
    assert d.support() == (2, 4, 10, "misfire")


def test_uncomparable_outcomes_still_get_a_stable_order() -> None:
    a = Dist.uniform([(1, "a"), ("b", 2)])
    b = Dist.uniform([("b", 2), (1, "a")])
    assert a.support() == b.support()


# -- equality ----------------------------------------------------------------------------------


def test_equality_is_structural_and_returns_a_bool() -> None:
    assert (D6 == Dist.uniform([6, 5, 4, 3, 2, 1])) is True
    assert (D6 == Dist.uniform(range(1, 6))) is False
    assert D6 != Dist.from_weights({1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1})
    assert hash(D6) == hash(Dist.uniform([6, 5, 4, 3, 2, 1]))
    assert D6 != {1: Fraction(1, 6)}


# -- reading -----------------------------------------------------------------------------------


def test_probabilities_of_a_d6() -> None:
    assert D6.probability(4) == Fraction(1, 6)
    assert D6.probability(0) == 0
    assert D6.p_at_least(4) == Fraction(1, 2)
    assert D6.p_at_least(7) == 0
    assert D6.p_at_most(1) == Fraction(1, 6)
    assert D6.probability_where(lambda v: v in (1, 6)) == Fraction(1, 3)
    assert (D6.min(), D6.max(), len(D6)) == (1, 6, 6)
    assert list(D6) == [1, 2, 3, 4, 5, 6]


def test_mean_and_variance_are_exact() -> None:
    assert D6.mean() == Fraction(7, 2)
    assert D6.variance() == Fraction(35, 12)
    assert D6.plus(D6).variance() == Fraction(35, 6)


def test_mean_of_symbols_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="'arrow' is not a number"):
        Dist.uniform(["hit", "arrow"]).mean()


# -- transforming ------------------------------------------------------------------------------


def test_map_merges_outcomes() -> None:
    assert D6.map(lambda v: v >= 5) == Dist.from_weights({True: 1, False: 2})


def test_bind_mixes_distributions() -> None:
    # D3 dice, then that many coin flips counting heads.
    d3 = Dist.uniform([1, 2, 3])
    heads = d3.bind(lambda n: binomial(n, Fraction(1, 2)))
    assert heads.probability(3) == Fraction(1, 3) * Fraction(1, 8)
    none_of = Fraction(1, 2) + Fraction(1, 4) + Fraction(1, 8)
    assert heads.probability(0) == Fraction(1, 3) * none_of


def test_two_d6_sum() -> None:
    two = D6.plus(D6)
    assert two.probability(7) == Fraction(1, 6)
    assert two.probability(2) == Fraction(1, 36)
    assert two.support() == tuple(range(2, 13))


def test_combine_gives_the_highest_of_two() -> None:
    assert D6.combine(D6, max).probability(6) == Fraction(11, 36)


def test_repeat_sum_of_zero_is_certain_zero() -> None:
    assert D6.repeat_sum(0) == Dist.certain(0)
    with pytest.raises(ValueError):
        D6.repeat_sum(-1)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_repeat_sum_of_d6_matches_direct_enumeration(n: int) -> None:
    assert D6.repeat_sum(n) == brute_sum(D6, n)


@settings(max_examples=60, deadline=None)
@given(small_int_dists, st.integers(min_value=0, max_value=4))
def test_repeat_sum_matches_direct_enumeration(d: Dist[int], n: int) -> None:
    expected = brute_sum(d, n) if n else Dist.certain(0)
    assert d.repeat_sum(n) == expected


def test_repeat_sum_of_forty_bernoulli_is_binomial() -> None:
    p = Fraction(1, 9)
    bern = Dist.from_weights({0: 1 - p, 1: p})
    assert bern.repeat_sum(40) == binomial(40, p)


def test_cap_folds_the_top() -> None:
    assert D6.cap(4) == Dist.from_weights({1: 1, 2: 1, 3: 1, 4: 3})


# -- binomial and thinning ---------------------------------------------------------------------


def test_binomial_by_hand() -> None:
    b = binomial(3, Fraction(1, 2))
    assert b == Dist.from_weights({0: 1, 1: 3, 2: 3, 3: 1})
    b = binomial(2, Fraction(1, 6))
    assert b.probability(0) == Fraction(25, 36)
    assert b.probability(1) == Fraction(10, 36)
    assert b.probability(2) == Fraction(1, 36)
    assert binomial(0, Fraction(1, 3)) == Dist.certain(0)
    assert binomial(5, 0) == Dist.certain(0)
    assert binomial(5, 1) == Dist.certain(5)


@pytest.mark.parametrize(("n", "p"), [(-1, Fraction(1, 2)), (2, Fraction(3, 2)), (2, 0.5)])
def test_binomial_rejects_bad_arguments(n: int, p: Fraction) -> None:
    with pytest.raises(ValueError):
        binomial(n, p)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=0, max_value=6),
    st.fractions(min_value=0, max_value=1, max_denominator=12),
)
def test_binomial_matches_enumerated_trials(n: int, p: Fraction) -> None:
    trial = Dist.from_weights({0: 1 - p, 1: p}) if 0 < p < 1 else Dist.certain(int(p))
    expected = brute_sum(trial, n) if n else Dist.certain(0)
    assert binomial(n, p) == expected


def test_thin_by_hand() -> None:
    # Two hits half the time, none otherwise; each wounds on a 5+ (1/3).
    hits = Dist.uniform([0, 2])
    wounds = hits.thin(Fraction(1, 3))
    assert wounds.probability(2) == Fraction(1, 2) * Fraction(1, 9)
    assert wounds.probability(1) == Fraction(1, 2) * Fraction(4, 9)
    assert wounds.probability(0) == Fraction(1, 2) + Fraction(1, 2) * Fraction(4, 9)


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(st.integers(0, 5), st.integers(1, 4), min_size=1).map(Dist.from_weights),
    st.fractions(min_value=0, max_value=1, max_denominator=6),
    st.fractions(min_value=0, max_value=1, max_denominator=6),
)
def test_thinning_twice_is_thinning_by_the_product(d: Dist[int], p: Fraction, q: Fraction) -> None:
    assert d.thin(p).thin(q) == d.thin(p * q)
    assert d.thin(p) == d.bind(lambda k: binomial(k, p))
    assert d.thin(p).mean() == d.mean() * p


def test_thin_rejects_non_counts() -> None:
    with pytest.raises(ValueError, match="non-negative int outcomes"):
        Dist.uniform([-1, 1]).thin(Fraction(1, 2))


# -- sampling and output -----------------------------------------------------------------------


def test_sample_is_deterministic_and_follows_the_weights() -> None:
    d = Dist.from_weights({"a": 1, "b": 3})
    draws = [d.sample(random.Random(11)) for _ in range(3)]
    assert len(set(draws)) == 1
    rng = random.Random(5)
    n = 20_000
    count_b = sum(d.sample(rng) == "b" for _ in range(n))
    sigma = (0.75 * 0.25 / n) ** 0.5
    assert abs(count_b / n - 0.75) < 4 * sigma


def test_to_json_gives_exact_text_in_order() -> None:
    assert D6.map(lambda v: v >= 4).to_json() == {"False": "1/2", "True": "1/2"}
    assert Dist.certain(0).to_json() == {"0": "1"}
    assert list(D6.to_json()) == ["1", "2", "3", "4", "5", "6"]
    assert D6.to_floats()[3] == pytest.approx(1 / 6)


def test_repr_round_trips() -> None:
    symbols = Dist.uniform(["hit", "arrow", "arrow"])
    for d in (D6, D6.plus(D6), symbols, binomial(4, Fraction(2, 7))):
        assert eval(repr(d), {"Dist": Dist, "Fraction": Fraction}) == d


def test_pickle_round_trips() -> None:
    d = D6.repeat_sum(3)
    assert pickle.loads(pickle.dumps(d)) == d


def test_repeat_sum_of_a_thousand_is_the_binomial_by_hand() -> None:
    # 1000 attacks that each do 1 damage with 1/3 (and 2 with 1/6, for a span of 2)
    one = Dist.from_weights({0: 3, 1: 2, 2: 1})
    total = one.repeat_sum(1000)
    # P(0) = (1/2)^1000; P(2000) = (1/6)^1000; P(1) = 1000 * (1/3) * (1/2)^999
    assert total.probability(0) == Fraction(1, 2**1000)
    assert total.probability(2000) == Fraction(1, 6**1000)
    assert total.probability(1) == 1000 * Fraction(1, 3) * Fraction(1, 2**999)
    assert total.mean() == 1000 * one.mean()
    bern = Dist.from_weights({0: 1, 1: 1})
    assert bern.repeat_sum(1000).probability(500) == Fraction(math.comb(1000, 500), 2**1000)


def test_far_apart_outcomes_are_summed_by_squaring_the_same() -> None:
    d = Dist.from_weights({0: 1, 100: 2, 250: 3})     # more than 64 apart
    assert d.repeat_sum(3) == brute_sum(d, 3)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(-5, 30), st.integers(1, 9), min_size=1, max_size=8),
       st.integers(-7, 32))
def test_tails_and_mean_in_ints_equal_the_sums_of_fractions(weights, k) -> None:
    d = Dist.from_weights(weights)
    pairs = d.items()
    assert d.p_at_least(k) == sum((p for o, p in pairs if o >= k), Fraction(0))
    assert d.p_at_most(k) == sum((p for o, p in pairs if o <= k), Fraction(0))
    assert d.mean() == sum((o * p for o, p in pairs), Fraction(0))
    assert d.p_at_least_float(k) == float(d.p_at_least(k))


def test_a_sum_built_from_int_weights_reads_like_one_built_from_fractions() -> None:
    summed = Dist.from_weights({0: 1, 1: 2}).repeat_sum(3)
    by_hand = Dist.from_weights({0: Fraction(1, 27), 1: Fraction(6, 27), 2: Fraction(12, 27),
                                 3: Fraction(8, 27)})
    assert summed.items() == by_hand.items()
    assert summed.support() == (0, 1, 2, 3) and len(summed) == 4
    assert (summed.min(), summed.max()) == (0, 3)
    assert repr(summed) == repr(by_hand) == "Dist.from_weights({0: 1, 1: 6, 2: 12, 3: 8})"
    assert [summed.sample(random.Random(s)) for s in range(20)] == \
        [by_hand.sample(random.Random(s)) for s in range(20)]
    assert pickle.loads(pickle.dumps(summed)) == by_hand
