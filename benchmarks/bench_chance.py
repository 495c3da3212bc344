"""Timings for rules_run.chance; prints, never asserts.

Run from the repository root: ``python benchmarks/bench_chance.py``.

1. Exact: one attack (hit 4+, wound 4+, armour save fails on 1-4, ward 5+) enumerated with
   ``enumerate_exact``, then 40 attacks by ``repeat_sum(40)``.
2. Sampled: 100,000 attacks through ``RandomChance``, beside a plain-Python loop with
   ``random.randint`` doing the same.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules_run.chance import D6, Chance, RandomChance, enumerate_exact  # noqa: E402

ONE_D6 = (D6,)
ATTACKS = 40
SAMPLES = 100_000


def attack(chance: Chance) -> int:
    """One attack: 1 wound through, or 0."""
    roll = chance.roll
    if roll(ONE_D6, "to_hit")[0] < 4:  # type: ignore[operator]
        return 0
    if roll(ONE_D6, "to_wound")[0] < 4:  # type: ignore[operator]
        return 0
    if roll(ONE_D6, "armour")[0] >= 5:  # type: ignore[operator]
        return 0
    if roll(ONE_D6, "ward")[0] >= 5:  # type: ignore[operator]
        return 0
    return 1


def plain_attack(rng: random.Random) -> int:
    randint = rng.randint
    if randint(1, 6) < 4:
        return 0
    if randint(1, 6) < 4:
        return 0
    if randint(1, 6) >= 5:
        return 0
    if randint(1, 6) >= 5:
        return 0
    return 1


def timed(label: str, f: Callable[[], Any], repeat: int = 5) -> Any:
    best = float("inf")
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - start)
    print(f"{label:<58} {best * 1e3:10.3f} ms  (best of {repeat})")
    return result


def main() -> None:
    print(f"Python {sys.version.split()[0]}")
    one = timed("exact: enumerate_exact(attack)", lambda: enumerate_exact(attack))
    many = timed(f"exact: per-attack Dist.repeat_sum({ATTACKS})", lambda: one.repeat_sum(ATTACKS))
    timed(
        f"exact: enumerate + repeat_sum({ATTACKS})",
        lambda: enumerate_exact(attack).repeat_sum(ATTACKS),
    )
    print(f"  P(wound per attack) = {one.probability(1)}; "
          f"mean wounds from {ATTACKS} = {many.mean()}")

    def sampled() -> int:
        chance = RandomChance(1)
        return sum(attack(chance) for _ in range(SAMPLES))

    def plain() -> int:
        rng = random.Random(1)
        return sum(plain_attack(rng) for _ in range(SAMPLES))

    got = timed(f"sampled: {SAMPLES:,} attacks via RandomChance", sampled, repeat=3)
    ref = timed(f"sampled: {SAMPLES:,} attacks via random.randint loop", plain, repeat=3)
    print(f"  wounds: RandomChance {got / SAMPLES:.4f}, randint {ref / SAMPLES:.4f}, "
          f"exact {float(one.probability(1)):.4f}")

    chance = RandomChance(2)
    timed("single RandomChance.roll((D6,)) x 1,000,000",
          lambda: [chance.roll(ONE_D6, "x") for _ in range(1_000_000)], repeat=3)


if __name__ == "__main__":
    main()
