"""Integer-weight kernels of :class:`~rules_run.chance.dist.Dist`: the order of outcomes, the
convolution of two weight tables and the n-th power of one (the sum of n draws).

Weights are ints over a common denominator (the way icepool keeps ``int`` counts), turned
into fractions once, by the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["sorted_outcomes", "convolve", "power", "POWER_SPAN"]


def sorted_outcomes(outcomes: Iterable[Any]) -> list[Any]:
    """Outcomes in their natural order when comparable, else grouped by type, else by repr.

    Mixed ``int`` and ``str`` outcomes (a die with faces ``2, 4, ..., 'blank'``) sort
    numbers first, then strings.
    """
    items = list(outcomes)
    try:
        return sorted(items)
    except TypeError:
        pass
    try:
        return sorted(items, key=lambda v: (type(v).__name__, v))
    except TypeError:
        return sorted(items, key=lambda v: (type(v).__name__, repr(v)))


def convolve(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
    """Int weights of the sum of independent draws from ``a`` and ``b``."""
    out: dict[Any, int] = {}
    get = out.get
    for x, wx in a.items():
        for y, wy in b.items():
            s = x + y
            out[s] = get(s, 0) + wx * wy
    return out


POWER_SPAN = 64
"""Outcomes at most this far apart make :meth:`Dist.repeat_sum` use :func:`power`."""


def power(weights: Mapping[int, int], n: int) -> dict[int, int]:
    """Int weights of the sum of ``n`` >= 1 independent draws from int-valued ``weights``.

    The weights are the coefficients of a polynomial P (outcome o at x**(o - lowest)); the
    sum's are those of P**n, by J. C. P. Miller's recurrence: with a_0 != 0 and q_0 = a_0**n,
    ``k * a_0 * q_k = sum over i = 1..min(k, m) of ((n + 1) * i - k) * a_i * q_(k-i)``, an exact
    division of integers. About n * m**2 products for outcomes m apart, where repeated
    squaring needs (n * m)**2.

    Examples:
        >>> power({0: 1, 1: 1}, 3)
        {0: 1, 1: 3, 2: 3, 3: 1}
        >>> power({2: 1, 4: 1}, 2)
        {4: 1, 6: 2, 8: 1}
    """
    low = min(weights)
    m = max(weights) - low
    a = [weights.get(low + i, 0) for i in range(m + 1)]
    q = [a[0] ** n]
    for k in range(1, n * m + 1):
        total = 0
        for i in range(1, min(k, m) + 1):
            if a[i]:
                total += ((n + 1) * i - k) * a[i] * q[k - i]
        q.append(total // (k * a[0]))
    return {n * low + k: w for k, w in enumerate(q) if w}
