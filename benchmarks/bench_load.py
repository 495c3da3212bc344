"""Cold and warm (cached) load time of each bundled ruleset, a fresh command's start, and
what a second worker gives. Prints; asserts nothing.

Cold: a fresh process's first load (parse, patches, check, tables, unit data, compile).
Warm: the same load again, answered from the in-process cache.
Start: the CPU time of a whole fresh ``rules-run --edition wfb8 --runs 1`` process, with
the disk cache (:mod:`rules_run.cache`) off and with it warm, interleaved, the median of
PAIRS pairs (CPU time, so that other work on the machine counts little); then where a warm
start's time goes (Python itself, the interpreter's modules, reading the checked ruleset,
compiling it, opening the battle, compiling it for the battle, the battle, and a second
battle), each the median over PAIRS fresh processes.
Workers: the wall time of a whole ``rules-run --edition wfb8 --runs RUNS`` with
``--workers 1`` and with ``--workers 2`` (warm disk cache), interleaved, the median of
PAIRS pairs, and their ratio; it means something only where two cores are free (the
machine's load average is printed with it).

Fresh processes run as a user's would: with ``PYTHONDONTWRITEBYTECODE`` unset, so Python
reads the interpreter's modules from their ``.pyc`` files instead of compiling them.

    python benchmarks/bench_load.py [--pairs 5] [--runs 200] [--start-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from rules_run.editions.loader import clear_cache, load_ruleset
from rules_run.editions.registry import bundled_editions
from rules_run.engine.builtins import BUILTINS
from rules_run.lang.parser import grammar_parser
from rules_run.runtime.compiled import compile_ruleset


def main() -> None:
    os.environ["RULES_RUN_CACHE"] = "off"   # a cold load parses and checks
    t = time.perf_counter()
    grammar_parser()
    print(f"grammar: built the parser in {1000 * (time.perf_counter() - t):.1f} ms (once per process)")
    print(f"{'ruleset':<16}{'cold (ms)':>12}{'compile (ms)':>14}{'warm (ms)':>12}")
    for edition_id, folder in bundled_editions().items():
        clear_cache()
        t0 = time.perf_counter()
        ruleset = load_ruleset(folder)
        t1 = time.perf_counter()
        compile_ruleset(ruleset, builtins=BUILTINS)
        t2 = time.perf_counter()
        for _ in range(20):
            load_ruleset(folder)
        t3 = time.perf_counter()
        print(f"{edition_id:<16}{1000 * (t1 - t0):>12.1f}{1000 * (t2 - t1):>14.1f}"
              f"{1000 * (t3 - t2) / 20:>12.2f}")


PAIRS = 5
START = [sys.executable, "-m", "rules_run.cli.run", "--edition", "wfb8", "--runs", "1"]
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The environment of the fresh processes: a user's (modules read from ``.pyc`` files)."""


def start_cpu(cache: str) -> float:
    """CPU seconds (user and system) of one fresh ``START`` process with this cache."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(START, env={**USER_ENV, "RULES_RUN_CACHE": cache},
                   stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def start() -> None:
    with tempfile.TemporaryDirectory() as folder:
        start_cpu(folder)   # fills the cache
        cold, warm = [], []
        for _ in range(PAIRS):
            cold.append(start_cpu("off"))
            warm.append(start_cpu(folder))
    print(f"start: {' '.join(START[2:])}: CPU {statistics.median(cold):.3f} s with no disk "
          f"cache, {statistics.median(warm):.3f} s with a warm one (median of {PAIRS} pairs; "
          f"fastest warm {min(warm):.3f} s)")


def workers(runs: int) -> None:
    """``--workers 1`` against ``--workers 2`` on ``runs`` battles: wall seconds."""
    command = START[:-1] + [str(runs)]
    with tempfile.TemporaryDirectory() as folder:
        env = {**USER_ENV, "RULES_RUN_CACHE": folder}
        subprocess.run(command + ["--workers", "1"], env=env, stdout=subprocess.DEVNULL,
                       check=True)   # fills the cache
        found: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(PAIRS):
            for n in found:
                t = time.perf_counter()
                subprocess.run(command + ["--workers", str(n)], env=env,
                               stdout=subprocess.DEVNULL, check=True)
                found[n].append(time.perf_counter() - t)
    one, two = statistics.median(found[1]), statistics.median(found[2])
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"workers: {' '.join(command[2:])}: {one:.2f} s with --workers 1, {two:.2f} s with "
          f"--workers 2: {one / two:.2f}x (wall, median of {PAIRS} pairs; {cores} cores, "
          f"load average {os.getloadavg()[0]:.1f})")


PHASES = """
import resource, sys
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
t = [cpu()]
import rules_run.cli.run, rules_run.engine.front, rules_run.engine.stats, rules_run.engine.driver
t.append(cpu())
from rules_run.editions.loader import load_edition
ruleset = load_edition("wfb8")
t.append(cpu())
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset
compile_ruleset(ruleset, builtins=BUILTINS)
t.append(cpu())
from rules_run.engine.front import open_battle
_, runtime, battle = open_battle("wfb8")
t.append(cpu())
from rules_run.engine.setup import specialised
fighting = specialised(runtime, battle)
t.append(cpu())
from rules_run.engine.driver import run_battle
run_battle(fighting, battle, seed=1, keep_events=False)
t.append(cpu())
run_battle(fighting, battle, seed=2, keep_events=False)
t.append(cpu())
print(" ".join(map(str, t)))
"""
"""A fresh process's warm start in steps: CPU seconds after each (a second battle last,
to tell the first battle's one-time costs from a battle's own)."""

STEPS = ("python", "modules", "ruleset read", "compiled", "battle opened", "specialised",
         "battle fought", "second battle")


def phases() -> None:
    with tempfile.TemporaryDirectory() as folder:
        env = {**USER_ENV, "RULES_RUN_CACHE": folder}
        subprocess.run([sys.executable, "-c", PHASES], env=env, check=True,
                       stdout=subprocess.DEVNULL)   # fills the cache
        found = [list(map(float, subprocess.run(
            [sys.executable, "-c", PHASES], env=env, check=True, capture_output=True,
            text=True).stdout.split())) for _ in range(PAIRS)]
    steps = [statistics.median(t[0] if i == 0 else t[i] - t[i - 1] for t in found)
             for i in range(len(STEPS))]
    print("warm start, CPU ms per step (median of %d): " % PAIRS + ", ".join(
        f"{name} {1000 * ms:.0f}" for name, ms in zip(STEPS, steps)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=PAIRS, help="pairs (and samples) per figure")
    parser.add_argument("--runs", type=int, default=200,
                        help="battles of the --workers comparison (0: leave it out)")
    parser.add_argument("--start-only", action="store_true",
                        help="leave out the per-ruleset load table")
    args = parser.parse_args()
    PAIRS = args.pairs
    if not args.start_only:
        main()
    start()
    phases()
    if args.runs:
        workers(args.runs)
