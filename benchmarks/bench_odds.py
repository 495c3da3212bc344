"""rules-odds speed: 40 attacks of a 4-step sequence, exact and with 100,000 samples,
beside a plain-Python loop doing the same sampling; and the whole ``rules-odds --attacks N``
(N = 1000, 3000: text and --json, the ruleset already loaded; 3000 with the limit
raised), CPU time, median of 5.
Prints; asserts nothing.

The sequence is wfb8's melee attack of the reference duel (Orc Boyz on Halberdiers: hit,
wound, armour save, ward; the regeneration step is impossible for them and not rolled).

    python benchmarks/bench_odds.py
"""

from __future__ import annotations

import contextlib
import io
import random
import statistics
import time

from rules_run import open_battle
from rules_run.cli.odds import odds as rules_odds
from rules_run.engine.odds import attack_odds, plan_attacks, sample_attacks
from rules_run.limits import set_limits

ATTACKS = 40
SAMPLES = 100_000


def plain_python(samples: int, attacks: int, seed: int) -> float:
    """The same attack written directly: hit 4+, wound 4+, light armour 6+ (no ward)."""
    rng = random.Random(seed)
    total = 0
    for _ in range(samples):
        for _ in range(attacks):
            if rng.randint(1, 6) >= 4 and rng.randint(1, 6) >= 4 and rng.randint(1, 6) < 6:
                total += 1
    return total / samples


def main() -> None:
    set_limits({"odds_attacks": 3000})   # 3000 attacks are past the default limit
    _, runtime, battle = open_battle("wfb8", "rulesets/wfb8/battles/duel.yaml")
    orcs, halberdiers = battle.unit("orcs"), battle.unit("halberdiers")
    (plan,) = plan_attacks(runtime, orcs, halberdiers, attacks=ATTACKS)
    t = time.perf_counter()
    odds = attack_odds(runtime, plan, halberdiers)
    exact = time.perf_counter() - t
    print(f"exact, {ATTACKS} attacks:            {1000 * exact:8.1f} ms   "
          f"mean damage {float(odds.damage.mean()):.4f}")
    n = SAMPLES // ATTACKS
    t = time.perf_counter()
    sampled = sample_attacks(runtime, plan, n, seed=1)
    dt = time.perf_counter() - t
    print(f"sampled, {n * ATTACKS:,} attacks:     {1000 * dt:8.1f} ms   "
          f"mean damage {float(sampled.mean()):.4f}  ({n * ATTACKS / dt:,.0f} attacks/s)")
    t = time.perf_counter()
    mean = plain_python(n, ATTACKS, 1)
    dt_plain = time.perf_counter() - t
    print(f"plain Python, {n * ATTACKS:,} attacks: {1000 * dt_plain:8.1f} ms   "
          f"mean damage {mean:.4f}  ({n * ATTACKS / dt_plain:,.0f} attacks/s)")
    print(f"rules-odds sampling runs at {dt_plain / dt:.2f}x the plain loop's speed")
    for n in (1000, 3000):
        for as_json in (False, True):
            cpu = []
            for _ in range(5):
                t = time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):
                    rules_odds(edition="wfb8", battle="rulesets/wfb8/battles/duel.yaml",
                               attacker="halberdiers", target="orcs", attacks=n,
                               as_json=as_json)
                cpu.append(time.process_time() - t)
            print(f"rules-odds --attacks {n}{' --json' if as_json else ''}: "
                  f"{1000 * statistics.median(cpu):8.1f} ms CPU")


if __name__ == "__main__":
    main()
