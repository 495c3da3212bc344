"""How long each part of rules-diff takes: structure, the behaviour grid (per declaration,
with cells per second), the battles with attribution, and the whole diff of wfb8 and t9a
on the Highborn battle as its test runs it (99 operations: one ruleset per step, each built,
checked and compiled). Prints wall and CPU seconds (CPU is what counts on a loaded
machine); asserts nothing.

    python benchmarks/bench_diff.py [RUNS] [WORKERS]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from rules_run.diff import behaviour_diff, diff_rulesets, structure_diff
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import clear_cache, load_edition

ROOT = Path(__file__).resolve().parents[1]
PAIRS = [
    ("wfb8", "rulesets/examples/wfb8-house-charge"),
    ("wfb8", "rulesets/examples/wfb8-no-steadfast"),
    ("wfb8", "rulesets/examples/wfb8-house-rules"),
    ("wfb8", "tests/diff/wfb8-one-cell"),
    ("aos4", "aos4-gh2026"),
]
BATTLE = "rulesets/wfb8/battles/duel.yaml"
T9A = ("wfb8", "rulesets/t9a", "rulesets/t9a/battles/highborn.yaml")
"""The largest patch bundled, as tests/editions/test_t9a_diff.py diffs it."""


def main(runs: int = 500, workers: int = 1) -> None:
    for a_ref, b_ref in PAIRS:
        clear_cache()
        t = time.perf_counter()
        try:
            a, b = load_edition(ROOT / a_ref if "/" in a_ref else a_ref), load_edition(
                ROOT / b_ref if "/" in b_ref else b_ref)
        except InterpreterError as err:  # a ruleset under construction: report, go on
            print(f"{a_ref} -> {b_ref}: does not load ({err})")
            continue
        load = time.perf_counter() - t
        t = time.perf_counter()
        structure = structure_diff(a, b)
        structure_s = time.perf_counter() - t
        t = time.perf_counter()
        behaviour = behaviour_diff(a, b, workers=workers)
        behaviour_s = time.perf_counter() - t
        cells = sum(d.evaluated for d in behaviour.compared)
        print(f"{a_ref} -> {b_ref}: load {load:.2f}s, structure {structure_s * 1000:.1f} ms "
              f"({len(structure.declarations)} changes), behaviour {behaviour_s:.2f}s for "
              f"{cells} cells in {len(behaviour.compared)} declarations "
              f"({cells / max(behaviour_s, 1e-9):.0f} cells/s, both rulesets)")
    t, cpu = time.perf_counter(), time.process_time()
    report = diff_rulesets("wfb8", str(ROOT / PAIRS[0][1]), str(ROOT / BATTLE), runs=runs,
                           seed=1, workers=workers, behaviour=False)
    elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
    assert report.attribution is not None
    states = 1 + len(report.attribution.steps) + sum(
        1 for s in report.attribution.alone if s.deltas and s.ops != (1,))
    print(f"battles: {runs} runs x {states} rulesets (A, each step, each operation alone) in "
          f"{elapsed:.2f}s ({cpu:.2f}s CPU in this process) with {workers} worker(s): "
          f"{runs * states / elapsed:.0f} battles/s")
    a_ref, b_ref, battle = T9A
    clear_cache()
    t, cpu = time.perf_counter(), time.process_time()
    report = diff_rulesets(a_ref, str(ROOT / b_ref), str(ROOT / battle), runs=4,
                           attribution_runs=2, seed=1, cells=40, sequence_cells=4)
    elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
    assert report.attribution is not None
    print(f"{a_ref} -> {b_ref} on {Path(battle).name} (4 runs, 2 per step, 40 cells): "
          f"{len(report.attribution.steps)} steps in {elapsed:.2f}s ({cpu:.2f}s CPU)")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
