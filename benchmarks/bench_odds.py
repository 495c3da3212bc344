"""rules-odds speed: 40 attacks of a 4-step sequence, exact and with 100,000 samples,
beside a plain-Python loop doing the same sampling; and the whole ``rules-odds --attacks N``
(N = 1000, 3000: text and --json, the ruleset already loaded; 3000 with the limit
raised), CPU time, median of 5.
Prints; asserts nothing.

The sequence is wfb8's melee attack of the reference duel (Orc Boyz on Halberdiers: hit,
wound, armour save, ward; the regeneration step is impossible for them and not rolled).

With ``--combat``, instead: ``rules-odds --combat halberdiers orcs --until fleeing`` on the
duel (``--models N`` a side, ``--rounds R`` game rounds to cut it down), CPU time, states and
branches, P(Orcs win) beside the exact calculation tests/engine/test_kernel.py writes by
hand, and the states and branches the hand calculation walks (for this duel and for the
whole one: the kernel's work is about its branches); with ``--samples N``, the same combat
fought N times with seeded dice, and how many standard deviations its estimate is from the
exact value.

    python benchmarks/bench_odds.py
    python benchmarks/bench_odds.py --combat [--models 20] [--rounds 6] [--samples 0]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rules_run import open_battle
from rules_run.cli.odds import odds as rules_odds
from rules_run.engine.kernel import combat_odds
from rules_run.engine.odds import attack_odds, plan_attacks, sample_attacks
from rules_run.limits import set_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.engine.test_kernel import DUEL, hand_duel  # noqa: E402

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


def hand_count(models: int, turns: int) -> tuple[int, int]:
    """The close-combat states and branches of the duel's combat as the hand calculation
    walks it (a state per models left a side and player turn; a branch per pair of volley
    totals, two where a side loses and takes a Break test): about the kernel's branches,
    which add a few for the charge and the turns' other phases."""
    from tests.engine.test_kernel import _attacks, _ranks
    seen: set[tuple[int, int, int]] = set()
    branches = 0
    todo = [(models, models, 0)]
    while todo:
        h, o, turn = todo.pop()
        if (h, o, turn) in seen or turn == turns:
            continue
        seen.add((h, o, turn))
        for d1 in range(_attacks(h, 1) + 1):
            o2 = max(0, o - d1)
            for d2 in range(_attacks(o2, 0) + 1 if o2 else 1):
                h2 = max(0, h - d2)
                if not (o2 and h2):
                    branches += 1
                    continue
                sh = d1 + (h2 > o2) + (h2 > 1) + _ranks(h2)
                so = d2 + (turn == 0) + (o2 > h2) + 1 + _ranks(o2)
                if sh == so:
                    sh, so = sh + (h2 > 2 and o2 <= 1), so + (o2 > 1 and h2 <= 2)
                branches += 2 if sh != so else 1
                todo.append((h2, o2, turn + 1))
    return len(seen), branches


def combat(models: int, rounds: int, samples: int) -> None:
    """The duel's combat to the first break, exact (and sampled), against the hand
    calculation."""
    text = DUEL.read_text().replace("models: 20", f"models: {models}").replace(
        "rounds: 6", f"rounds: {rounds}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "duel.yaml"
        path.write_text(text)
        _, runtime, battle = open_battle("wfb8", str(path))
        t = time.process_time()
        found = combat_odds(runtime, battle, "halberdiers", "orcs", until="fleeing",
                            samples=samples, seed=1)
        cpu = time.process_time() - t

    def broke(end) -> bool:
        unit = end.units[0]
        return unit.state != "in play" or "fleeing" in unit.statuses

    exact = float(found.ends.probability_where(broke))
    hand = hand_duel(models, models, 2 * rounds, one=1.0)[0]
    print(f"rules-odds --combat, {models} a side, {rounds} rounds: {cpu:8.2f} s CPU "
          f"(with {samples} samples), {found.nodes} states, {found.leaves} branches "
          f"({1000 * cpu / found.leaves:.2f} ms each, {found.shared} pure calls shared), "
          f"drawn in full: {', '.join(found.in_full) or 'none'}")
    print(f"P(Orcs win) = {exact:.7f}, by hand {hand:.7f}, difference {abs(exact - hand):.1e}")
    states, branches = hand_count(models, 2 * rounds)
    print(f"the hand calculation walks {states} close-combat states and {branches} branches; "
          f"the whole duel (20 a side, 6 rounds) {', '.join(map(str, hand_count(20, 12)))}")
    if found.sampled is not None:
        q = float(found.sampled.probability_where(broke))
        sigma = (exact * (1 - exact) / samples) ** 0.5
        print(f"Monte Carlo, {samples} combats: {q:.4f}, {(q - exact) / sigma:+.2f} sigma")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--combat", action="store_true", help="the duel's combat instead")
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--samples", type=int, default=0)
    args = parser.parse_args()
    if args.combat:
        combat(args.models, args.rounds, args.samples)
        return
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
