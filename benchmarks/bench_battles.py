"""Battles per second in --runs mode for each bundled battle, and the wfb8 duel beside a
plain-Python simulation of the same duel. Prints; asserts nothing.

    python benchmarks/bench_battles.py [RUNS]
"""

from __future__ import annotations

import random
import sys
import time

from interpreter.chance import derive_seed
from interpreter.cli.common import load_context
from interpreter.editions.loader import load_ruleset
from interpreter.editions.registry import bundled_editions
from interpreter.engine.driver import run_battle


def battles_per_second(edition: str, battle: str, runs: int) -> tuple[float, float]:
    _, runtime, fight = load_context(edition, battle)
    t = time.perf_counter()
    run_battle(runtime, fight, seed=derive_seed(1, "run", 0), keep_events=False)
    first = time.perf_counter() - t
    t = time.perf_counter()
    for i in range(1, runs + 1):
        run_battle(runtime, fight, seed=derive_seed(1, "run", i), keep_events=False)
    return runs / (time.perf_counter() - t), first


def plain_duel(rng: random.Random) -> str:
    """The wfb8 reference duel written directly in Python, simplified: the Orcs' charge always
    connects, the Halberdiers strike first, combat result by wounds, ranks, outnumbering,
    standards and the charge, a Break test with Steadfast, then flight and pursuit. Unlike the
    ruleset it ends at the first broken unit (no rallying, Fear, first-round rules, ...), so it
    is a lower bound of the work the ruleset does."""
    halb, orcs = 20, 20
    for turn in range(12):
        charged_orcs = turn == 0
        front = min(halb, 5)
        attacks = front + min(halb - front, 5) + 1
        on_orcs = sum(1 for _ in range(attacks)
                      if rng.randint(1, 6) >= 4 and rng.randint(1, 6) >= 4
                      and rng.randint(1, 6) < 5)
        orcs -= on_orcs
        if orcs <= 0:
            return "empire"
        front = min(orcs, 5)
        attacks = front + min(orcs - front, 5)
        on_halb = sum(1 for _ in range(attacks)
                      if rng.randint(1, 6) >= 4 and rng.randint(1, 6) >= 4
                      and rng.randint(1, 6) < 6)
        halb -= on_halb
        if halb <= 0:
            return "orcs"
        score_h = on_orcs + min(3, halb // 5 - 1) + (1 if halb > orcs else 0) + 1
        score_o = on_halb + min(3, orcs // 5 - 1) + (1 if orcs > halb else 0) + 1 + (
            1 if charged_orcs else 0)
        if score_h == score_o:
            continue
        loser_is_orcs = score_h > score_o
        lost_by = abs(score_h - score_o)
        loser, winner = (orcs, halb) if loser_is_orcs else (halb, orcs)
        steadfast = loser > winner and loser >= 10
        if rng.randint(1, 6) + rng.randint(1, 6) <= (7 if steadfast else 7 - lost_by):
            continue
        flee = rng.randint(1, 6) + rng.randint(1, 6)
        rng.randint(1, 6) + rng.randint(1, 6) >= flee   # the pursuit roll
        return "empire" if loser_is_orcs else "orcs"
    return "draw"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    print(f"{'battle':<44}{'battles/s':>11}{'first (ms)':>12}")
    duel_rate = 0.0
    for edition_id, folder in bundled_editions().items():
        ruleset = load_ruleset(folder)
        for path in ruleset.battles:
            rel = str(path.relative_to(folder.parent.parent))
            try:
                rate, first = battles_per_second(edition_id, rel, runs)
            except Exception as err:  # a ruleset without a turn structure yet
                print(f"{rel:<44}  not runnable: {str(err).splitlines()[0]}")
                continue
            print(f"{rel:<44}{rate:>11.0f}{1000 * first:>12.1f}")
            if rel == "rulesets/wfb8/battles/duel.yaml":
                duel_rate = rate
    rng = random.Random(1)
    t = time.perf_counter()
    for _ in range(runs):
        plain_duel(rng)
    plain = runs / (time.perf_counter() - t)
    print(f"{'plain-Python wfb8 duel (simplified)':<44}{plain:>11.0f}")
    if duel_rate:
        print(f"rules-run runs the wfb8 duel at {duel_rate / plain:.3f}x plain Python's speed "
              "(the aim is at least 0.25x)")


if __name__ == "__main__":
    main()
