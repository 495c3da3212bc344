"""Exact probability distributions: :class:`Dist`, :func:`binomial`.

A :class:`Dist` maps each outcome to its probability as a :class:`fractions.Fraction`. It is
immutable, its outcomes are kept sorted, and ``==`` compares whole distributions (same outcomes,
same probabilities); it never compares outcome by outcome. Comparisons against a number have
names instead: :meth:`Dist.p_at_least`, :meth:`Dist.p_at_most`, :meth:`Dist.probability_where`.

Heavy arithmetic (convolution, mixtures) runs on integer weights over a common denominator and
turns them into fractions once at the end, the way icepool keeps ``int`` counts: the storage
and every query that reads it are :class:`ExactWeights`, the half of :class:`Dist` that reads;
the int kernels are in :mod:`rules_run.chance.weights`.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar, cast

from rules_run.chance.weights import POWER_SPAN, convolve, power, sorted_outcomes

__all__ = ["Dist", "binomial"]

Out = TypeVar("Out", bound=Hashable, covariant=True)
"""The outcome type; a Dist is read-only, so ``Dist[bool]`` is a ``Dist[object]``."""
Out2 = TypeVar("Out2", bound=Hashable)
Out3 = TypeVar("Out3", bound=Hashable)

_ZERO = Fraction(0)
_ONE = Fraction(1)


def _check_weight(outcome: object, weight: object) -> int | Fraction:
    """A weight as an exact non-negative number, or ValueError."""
    if isinstance(weight, bool) or not isinstance(weight, (int, Fraction)):
        raise ValueError(
            f"weight {weight!r} of outcome {outcome!r} is not exact; use an int or a Fraction"
        )
    if weight < 0:
        raise ValueError(f"weight {weight!r} of outcome {outcome!r} is negative")
    return weight


def _as_probability(p: object, what: str) -> Fraction:
    """``p`` as a Fraction in [0, 1], or ValueError."""
    if isinstance(p, bool) or not isinstance(p, (int, Fraction)):
        raise ValueError(f"{what} {p!r} is not exact; use an int or a Fraction")
    q = Fraction(p)
    if not 0 <= q <= 1:
        raise ValueError(f"{what} {p!r} is not between 0 and 1")
    return q


class ExactWeights(Generic[Out]):
    """What a :class:`Dist` stores, and every query that reads it.

    The outcomes in order, with either their Fractions or their int weights over the least
    common denominator (each made from the other on first read), so sums, means and
    sampling run in ints. Only :class:`Dist` is ever built; this half holds the reading,
    :class:`Dist` the building and transforming.
    """

    __slots__ = ("_p", "_m", "_cumulative")

    _p: tuple[tuple[Out, Fraction], ...] | None
    """The ``(outcome, probability)`` pairs, or None until first read (:attr:`_pairs`)."""
    _m: dict[Any, Fraction] | None
    """The same as a dict, or None until first read (:attr:`_map`)."""
    _cumulative: tuple[list[Out], list[int], int, list[int] | None] | None
    """The outcomes in order, their running int weights over the least common denominator,
    that denominator, and the outcomes again when all are whole numbers (:meth:`_running`).
    A distribution built from int weights keeps only these, and makes its Fractions (slow
    for the huge denominators of a sum of many draws) when they are read."""

    # -- storage -----------------------------------------------------------------------------

    @property
    def _pairs(self) -> tuple[tuple[Out, Fraction], ...]:
        pairs = self._p
        if pairs is None:
            outcomes, bounds, total, _ = self._running()
            pairs = tuple((o, Fraction(b - a, total))
                          for o, a, b in zip(outcomes, [0, *bounds], bounds))
            object.__setattr__(self, "_p", pairs)
        return pairs

    @property
    def _map(self) -> dict[Any, Fraction]:
        found = self._m
        if found is None:
            found = dict(self._pairs)
            object.__setattr__(self, "_m", found)
        return found

    def _running(self) -> tuple[list[Out], list[int], int, list[int] | None]:
        """:attr:`_cumulative`, worked out on first use (sums and means in ints are exact
        and much faster than in Fractions)."""
        cumulative = self._cumulative
        if cumulative is None:
            pairs = self._pairs
            den = 1
            for _, p in pairs:
                den = den * p.denominator // math.gcd(den, p.denominator)
            running = 0
            bounds: list[int] = []
            for _, p in pairs:
                running += p.numerator * (den // p.denominator)
                bounds.append(running)
            outcomes = [o for o, _ in pairs]
            cumulative = (outcomes, bounds, running, _numbers(outcomes))
            object.__setattr__(self, "_cumulative", cumulative)
        return cumulative

    def _int_weights(self) -> tuple[int, dict[Out, int]]:
        """The least common denominator and each outcome's int numerator over it, in order."""
        outcomes, bounds, total, _ = self._running()
        return total, {o: b - a for o, a, b in zip(outcomes, [0, *bounds], bounds)}

    # -- reading -----------------------------------------------------------------------------

    def items(self) -> tuple[tuple[Out, Fraction], ...]:
        """``(outcome, probability)`` pairs in outcome order."""
        return self._pairs

    def support(self) -> tuple[Out, ...]:
        """The outcomes with a positive probability, in order.

        Examples:
            >>> Dist.uniform([3, 1, 2]).support()
            (1, 2, 3)
        """
        return tuple(self._running()[0])

    def __len__(self) -> int:
        """The number of distinct outcomes."""
        return len(self._running()[0])

    def __iter__(self) -> Iterator[Out]:
        """The outcomes, in order (like a mapping's keys)."""
        return iter(self._running()[0])

    def probability(self, outcome: object) -> Fraction:
        """The probability of exactly ``outcome`` (0 when it cannot happen).

        Examples:
            >>> Dist.uniform(range(1, 7)).probability(7)
            Fraction(0, 1)
        """
        return self._map.get(outcome, _ZERO)

    def probability_where(self, predicate: Callable[[Out], bool]) -> Fraction:
        """The probability that ``predicate(outcome)`` is true.

        Examples:
            >>> Dist.uniform(range(1, 7)).probability_where(lambda v: v % 2 == 0)
            Fraction(1, 2)
        """
        return sum((p for o, p in self._pairs if predicate(o)), _ZERO)

    def p_at_least(self, k: Any) -> Fraction:
        """P(outcome >= k): "on a 4+" is ``p_at_least(4)``.

        Examples:
            >>> Dist.uniform(range(1, 7)).p_at_least(4)
            Fraction(1, 2)
        """
        _, bounds, total, numbers = self._running()
        if numbers is not None and isinstance(k, (int, Fraction)):
            i = bisect.bisect_left(numbers, k)
            return Fraction(total - (bounds[i - 1] if i else 0), total)
        return sum((p for o, p in self._pairs if o >= k), _ZERO)

    def p_at_least_float(self, k: int) -> float:
        """``float(self.p_at_least(k))`` for whole-number outcomes, without reducing the
        fraction first (the same float: int division rounds correctly).

        Examples:
            >>> Dist.uniform(range(1, 7)).p_at_least_float(5)
            0.3333333333333333
        """
        _, bounds, total, numbers = self._running()
        if numbers is None:
            return float(self.p_at_least(k))
        i = bisect.bisect_left(numbers, k)
        return (total - (bounds[i - 1] if i else 0)) / total

    def probability_float(self, outcome: object) -> float:
        """``float(self.probability(outcome))``, without reducing the fraction first (the
        same float: int division rounds correctly).

        Examples:
            >>> Dist.uniform(range(1, 7)).probability_float(2)
            0.16666666666666666
        """
        _, bounds, total, numbers = self._running()
        if numbers is None or not isinstance(outcome, int):
            return float(self.probability(outcome))
        i = bisect.bisect_left(numbers, outcome)
        if i == len(numbers) or numbers[i] != outcome:
            return 0.0
        return (bounds[i] - (bounds[i - 1] if i else 0)) / total

    def p_at_most(self, k: Any) -> Fraction:
        """P(outcome <= k).

        Examples:
            >>> Dist.uniform(range(1, 7)).p_at_most(2)
            Fraction(1, 3)
        """
        _, bounds, total, numbers = self._running()
        if numbers is not None and isinstance(k, (int, Fraction)):
            i = bisect.bisect_right(numbers, k)
            return Fraction(bounds[i - 1] if i else 0, total)
        return sum((p for o, p in self._pairs if o <= k), _ZERO)

    def min(self) -> Out:
        """The smallest outcome (outcomes must be comparable)."""
        outcomes: list[Any] = self._running()[0]
        return cast(Out, min(outcomes))

    def max(self) -> Out:
        """The largest outcome (outcomes must be comparable)."""
        outcomes: list[Any] = self._running()[0]
        return cast(Out, max(outcomes))

    def mean(self) -> Fraction:
        """The expected value of numeric outcomes, exactly.

        Raises:
            TypeError: an outcome is not a number.

        Examples:
            >>> Dist.uniform(range(1, 7)).mean()
            Fraction(7, 2)
        """
        _, bounds, total, numbers = self._running()
        if numbers is not None:
            weights = [b - a for a, b in zip([0, *bounds], bounds)]
            return Fraction(sum(o * w for o, w in zip(numbers, weights)), total)
        return sum((self._number(o) * p for o, p in self._pairs), _ZERO)

    def variance(self) -> Fraction:
        """The variance of numeric outcomes, exactly.

        Examples:
            >>> Dist.uniform(range(1, 7)).variance()
            Fraction(35, 12)
        """
        mu = self.mean()
        return sum(((self._number(o) - mu) ** 2 * p for o, p in self._pairs), _ZERO)

    @staticmethod
    def _number(outcome: object) -> Fraction:
        if isinstance(outcome, (int, Fraction)):
            return Fraction(outcome)
        raise TypeError(f"outcome {outcome!r} is not a number; mean and variance need numbers")

    # -- sampling ----------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> Out:
        """One outcome drawn with its exact probability, using ``rng`` (never the global RNG).

        Examples:
            >>> Dist.certain("hit").sample(random.Random(1))
            'hit'
        """
        outcomes, bounds, total, _ = self._running()
        return outcomes[bisect.bisect_right(bounds, rng.randrange(total))]



class Dist(ExactWeights[Out]):
    """An immutable exact probability distribution over hashable outcomes.

    Build one with :meth:`certain`, :meth:`uniform` or :meth:`from_weights` (or from a dice
    expression's ``exact()``, or from :func:`~rules_run.chance.source.enumerate_exact`).
    Outcomes with probability 0 are never stored.

    Don't confuse :meth:`plus` (the sum of two *independent* rolls) with :meth:`map` applied
    to ``lambda v: v + v`` (the same roll counted twice); and ``==`` here is structural
    equality of two distributions, never a distribution of comparisons.

    Examples:
        >>> d = Dist.uniform([1, 2, 3])
        >>> d.probability(2)
        Fraction(1, 3)
        >>> d.plus(d)
        Dist.from_weights({2: 1, 3: 2, 4: 3, 5: 2, 6: 1})
        >>> d == Dist.from_weights({3: 1, 1: 1, 2: 1})
        True
    """


    __slots__ = ()

    def __init__(self) -> None:
        raise TypeError("use Dist.certain, Dist.uniform or Dist.from_weights to build a Dist")

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def _new_raw(cls, probabilities: Mapping[Out3, Fraction]) -> Dist[Out3]:
        """Trusted constructor: positive Fractions summing to 1, keyed by distinct outcomes."""
        self = cast("Dist[Out3]", object.__new__(cls))
        order = sorted_outcomes(probabilities)
        pairs = tuple((o, probabilities[o]) for o in order)
        object.__setattr__(self, "_p", pairs)
        object.__setattr__(self, "_m", dict(pairs))
        object.__setattr__(self, "_cumulative", None)
        return self

    @classmethod
    def _from_int_weights(cls, weights: Mapping[Out3, int]) -> Dist[Out3]:
        """Trusted constructor from non-negative int weights (zeros dropped), total > 0."""
        order = sorted_outcomes(o for o, w in weights.items() if w)
        # over their gcd, the weights' total is the least common denominator
        common = math.gcd(*(weights[o] for o in order))
        running = 0
        bounds: list[int] = []
        for o in order:
            running += weights[o] // common
            bounds.append(running)
        self = cast("Dist[Out3]", object.__new__(cls))
        object.__setattr__(self, "_p", None)
        object.__setattr__(self, "_m", None)
        object.__setattr__(self, "_cumulative", (order, bounds, running, _numbers(order)))
        return self

    @classmethod
    def certain(cls, outcome: Out3) -> Dist[Out3]:
        """The distribution that always gives ``outcome``.

        Examples:
            >>> Dist.certain(3).items()
            ((3, Fraction(1, 1)),)
        """
        return cls._new_raw({outcome: _ONE})

    @classmethod
    def uniform(cls, outcomes: Iterable[Out3]) -> Dist[Out3]:
        """Each listed outcome equally likely; an outcome listed twice is twice as likely.

        Raises:
            ValueError: ``outcomes`` is empty.

        Examples:
            >>> Dist.uniform(["hit", "hit", "arrow"]).probability("hit")
            Fraction(2, 3)
        """
        counts: dict[Out3, int] = {}
        for o in outcomes:
            counts[o] = counts.get(o, 0) + 1
        if not counts:
            raise ValueError("Dist.uniform needs at least one outcome")
        return cls._from_int_weights(counts)

    @classmethod
    def from_weights(
        cls, weights: Mapping[Out3, int | Fraction] | Iterable[tuple[Out3, int | Fraction]]
    ) -> Dist[Out3]:
        """A distribution from relative weights, normalised to sum to 1.

        Args:
            weights: a mapping outcome -> weight, or ``(outcome, weight)`` pairs (a repeated
                outcome adds up its weights). Weights are ints or Fractions, not floats.

        Raises:
            ValueError: a weight is negative or inexact, or every weight is zero.

        Examples:
            >>> Dist.from_weights({"fail": 2, "pass": 1, "never": 0})
            Dist.from_weights({'fail': 2, 'pass': 1})
            >>> Dist.from_weights([(1, Fraction(1, 2)), (1, Fraction(1, 4)), (2, Fraction(1, 4))])
            Dist.from_weights({1: 3, 2: 1})
            >>> Dist.from_weights({1: 0.5})
            Traceback (most recent call last):
            ...
            ValueError: weight 0.5 of outcome 1 is not exact; use an int or a Fraction
        """
        pairs: Iterable[tuple[Out3, int | Fraction]]
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[Out3, int | Fraction] = {}
        for pair in pairs:
            try:
                outcome, weight = pair
            except (TypeError, ValueError):
                raise ValueError(f"expected (outcome, weight) pairs, got {pair!r}") from None
            w = _check_weight(outcome, weight)
            merged[outcome] = merged.get(outcome, 0) + w
        total = sum(merged.values())
        if total == 0:
            raise ValueError("a Dist needs at least one outcome with a positive weight")
        return cls._new_raw({o: Fraction(w) / total for o, w in merged.items() if w})

    # -- transforming ------------------------------------------------------------------------

    def map(self, f: Callable[[Out], Out2]) -> Dist[Out2]:
        """The distribution of ``f(outcome)``; outcomes that map together add up.

        Examples:
            >>> Dist.uniform(range(1, 7)).map(lambda v: v >= 4)
            Dist.from_weights({False: 1, True: 1})
        """
        out: dict[Out2, int] = {}
        for o, w in self._int_weights()[1].items():
            v = f(o)
            out[v] = out.get(v, 0) + w
        return Dist._from_int_weights(out)

    def bind(self, f: Callable[[Out], Dist[Out2]]) -> Dist[Out2]:
        """The mixture: draw an outcome, then draw from ``f(outcome)``.

        Examples:
            >>> hits = Dist.uniform([0, 1])
            >>> hits.bind(lambda n: Dist.certain(0) if n == 0 else Dist.uniform([0, 1]))
            Dist.from_weights({0: 3, 1: 1})
        """
        out: dict[Out2, Fraction] = {}
        for o, p in self._pairs:
            for v, q in f(o)._pairs:
                out[v] = out.get(v, _ZERO) + p * q
        return Dist._new_raw(out)

    def combine(self, other: Dist[Out2], f: Callable[[Out, Out2], Any]) -> Dist[Any]:
        """The distribution of ``f(a, b)`` for independent draws ``a`` from self, ``b`` from other.

        Examples:
            >>> d6 = Dist.uniform(range(1, 7))
            >>> d6.combine(d6, max).probability(6)
            Fraction(11, 36)
        """
        _, a = self._int_weights()
        _, b = other._int_weights()
        out: dict[Any, int] = {}
        for x, wx in a.items():
            for y, wy in b.items():
                v = f(x, y)
                out[v] = out.get(v, 0) + wx * wy
        return Dist._from_int_weights(out)

    def plus(self, other: Dist[Any]) -> Dist[Any]:
        """The sum of two independent numeric draws (a convolution).

        Examples:
            >>> d6 = Dist.uniform(range(1, 7))
            >>> d6.plus(d6).probability(7)
            Fraction(1, 6)
        """
        _, a = self._int_weights()
        _, b = other._int_weights()
        return Dist._from_int_weights(convolve(a, b))

    def repeat_sum(self, n: int) -> Dist[Any]:
        """The sum of ``n`` independent draws: for whole-number outcomes a few apart, the
        n-th power of the generating polynomial by its recurrence
        (:func:`~rules_run.chance.weights.power`, linear in ``n``); else an n-fold
        convolution by repeated squaring.

        ``repeat_sum(0)`` is ``Dist.certain(0)``.

        Raises:
            ValueError: ``n`` is negative.

        Examples:
            >>> Dist.uniform(range(1, 7)).repeat_sum(2) == Dist.uniform(range(1, 7)).plus(
            ...     Dist.uniform(range(1, 7)))
            True
            >>> Dist.uniform([0, 1]).repeat_sum(3)
            Dist.from_weights({0: 1, 1: 3, 2: 3, 3: 1})
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"repeat_sum needs a count >= 0, got {n!r}")
        _, base = self._int_weights()
        if n and all(type(o) is int for o in base):
            ints = cast("dict[int, int]", base)
            if max(ints) - min(ints) <= POWER_SPAN:
                return Dist._from_int_weights(power(ints, n))
        result: dict[Any, int] = {0: 1}
        while n:
            if n & 1:
                result = convolve(result, base)
            n >>= 1
            if n:
                base = convolve(base, base)
        return Dist._from_int_weights(result)

    def cap(self, hi: Any) -> Dist[Any]:
        """Outcomes above ``hi`` become ``hi`` ("up to 3 wounds").

        Examples:
            >>> Dist.uniform(range(1, 7)).cap(3)
            Dist.from_weights({1: 1, 2: 1, 3: 4})
        """

        def capped(v: Any) -> Any:
            return v if v <= hi else hi

        return self.map(capped)

    def thin(self, p: Fraction | int) -> Dist[int]:
        """Keep each unit of a count independently with probability ``p``.

        Thinning hits by a wound roll: each of ``k`` hits survives with ``p``, so the result
        is ``binomial(k, p)`` mixed over the distribution of ``k``.

        Raises:
            ValueError: an outcome is not a non-negative int, or ``p`` is not in [0, 1].

        Examples:
            >>> Dist.uniform([0, 2]).thin(Fraction(1, 2))
            Dist.from_weights({0: 5, 1: 2, 2: 1})
        """
        q = _as_probability(p, "survival probability")
        for o in self._map:
            if isinstance(o, bool) or not isinstance(o, int) or o < 0:
                raise ValueError(f"thin needs non-negative int outcomes, got {o!r}")
        out: dict[int, Fraction] = {}
        for k, pk in self._pairs:
            for v, pv in binomial(k, q)._pairs:  # type: ignore[arg-type]
                out[v] = out.get(v, _ZERO) + pk * pv
        return Dist._new_raw(out)

    # -- equality, text ----------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._map == other._map

    def __hash__(self) -> int:
        return hash(frozenset(self._map.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Dist is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Dist is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Dist._new_raw, (dict(self._pairs),))

    def __repr__(self) -> str:
        _, weights = self._int_weights()
        body = ", ".join(f"{o!r}: {w}" for o, w in weights.items())
        return f"Dist.from_weights({{{body}}})"

    def to_json(self) -> dict[str, str]:
        """Outcome text -> exact probability text, e.g. ``{"1": "1/6", ...}``, in order.

        Two outcomes with the same ``str`` (``1`` and ``'1'``) would collide; avoid mixing them.

        Examples:
            >>> Dist.uniform([0, 1, 1]).to_json()
            {'0': '1/3', '1': '2/3'}
        """
        return {str(o): str(p) for o, p in self._pairs}

    def to_floats(self) -> dict[Out, float]:
        """Outcome -> probability as a float, for plotting and display only.

        Examples:
            >>> Dist.uniform([0, 1]).to_floats()
            {0: 0.5, 1: 0.5}
        """
        return {o: float(p) for o, p in self._pairs}


def _numbers(outcomes: list[Any]) -> list[int] | None:
    """The outcomes, when all are whole numbers (not bools), else None."""
    return outcomes if all(type(o) is int for o in outcomes) else None


def binomial(n: int, p: Fraction | int) -> Dist[int]:
    """The number of successes in ``n`` independent trials that each succeed with ``p``.

    Used for thinning: each of ``n`` hits wounds with ``p``.

    Raises:
        ValueError: ``n`` is negative or ``p`` is not an exact number in [0, 1].

    Examples:
        >>> binomial(2, Fraction(1, 2))
        Dist.from_weights({0: 1, 1: 2, 2: 1})
        >>> binomial(3, Fraction(1, 3)).probability(3)
        Fraction(1, 27)
        >>> binomial(4, 1)
        Dist.from_weights({4: 1})
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"binomial needs a count >= 0, got {n!r}")
    q = _as_probability(p, "success probability")
    a, b = q.numerator, q.denominator
    fail = b - a
    # C(n, k) * a^k * (b-a)^(n-k) over b^n; exact ints, normalised by the constructor.
    return Dist._from_int_weights(
        {k: math.comb(n, k) * a**k * fail ** (n - k) for k in range(n + 1)}
    )
