"""Run the fuzz harness for longer than CI does, and print what it found.

    python tests/fuzz/fuzz_long.py --cases 10000 [--workers 2] [--seed 0] [--save DIR]

The cases come from the same Hypothesis strategies as ``tests/fuzz/test_fuzz.py`` (rule
files, tables, unit files, battle files, command lines; generated and mutated), drawn with a
fixed seed. Each runs in a worker process whose memory is capped; a case that takes longer
than the time limit is a hang (its worker is replaced). At the end it prints the cases tried
per kind and exit code, the tracebacks, hangs, bad exits and exits without a message, the
slowest case and the most memory a worker used; with ``--save`` every problem case is kept
(its files and command) for reproducing. Exits 1 when it found a problem.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz.harness import (  # noqa: E402
    KINDS,
    STRATEGIES,
    TIME_LIMIT,
    Case,
    Outcome,
    run_case,
    warm_up,
)

MEMORY_CAP = 2 * 1024 ** 3
"""Address space a worker may use (a runaway stops with MemoryError, a traceback)."""

MEMORY_LIMIT_MB = 500
"""What every input must stay under (the worker's peak resident memory)."""


def generate(n: int, seed: int) -> list[Case]:
    """``n`` cases, as evenly as the kinds allow, drawn from the strategies with ``seed``."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    cases: list[Case] = []
    per_kind = -(-n // len(STRATEGIES))
    for i, make in enumerate(STRATEGIES.values()):
        @with_seed(seed * 100 + i)
        @settings(max_examples=per_kind, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(make())
        def collect(case: Case) -> None:
            cases.append(case)

        collect()
    return cases[:n]


def _worker(conn, workdir: str) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    warm_up()
    conn.send("ready")
    n = 0
    while True:
        case = conn.recv()
        if case is None:
            return
        n += 1
        outcome = run_case(case, Path(workdir) / f"{n}")
        shutil.rmtree(Path(workdir) / f"{n}", ignore_errors=True)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        conn.send((outcome, peak_mb))


class _Pool:
    """Worker processes, each fed one case at a time, replaced when a case hangs."""

    def __init__(self, size: int, workdir: Path) -> None:
        self.workdir = workdir
        self.slots = [self._start(i) for i in range(size)]
        self.starts = size

    def _start(self, i: int):
        parent, child = mp.Pipe()
        process = mp.Process(target=_worker, args=(child, str(self.workdir / f"w{i}-"
                                                              f"{time.monotonic_ns()}")),
                             daemon=True)
        process.start()
        parent.recv()   # warmed up: from now on a case's time is its own
        return [process, parent, None, 0.0]   # process, pipe, case, started

    def run(self, cases: list[Case], report) -> None:
        queue = list(reversed(cases))
        busy = 0
        while queue or busy:
            for i, slot in enumerate(self.slots):
                process, pipe, case, started = slot
                if case is None and queue:
                    slot[2], slot[3] = queue.pop(), time.monotonic()
                    pipe.send(slot[2])
                    busy += 1
                elif case is not None and pipe.poll():
                    try:
                        outcome, peak = pipe.recv()
                    except EOFError:   # the worker died (killed for memory, say)
                        outcome, peak = Outcome(case, None, "", "worker died", 0.0,
                                                "traceback"), 0.0
                        self.slots[i] = self._start(i)
                    slot[2] = None
                    busy -= 1
                    report(outcome, peak)
                elif case is not None and time.monotonic() - started > TIME_LIMIT + 5:
                    process.kill()   # stuck where the alarm cannot reach (C code)
                    report(Outcome(case, None, "", "killed", time.monotonic() - started,
                                   "hang"), 0.0)
                    self.slots[i] = self._start(i)
                    self.starts += 1
                    busy -= 1
            time.sleep(0.002)
        for process, pipe, _, _ in self.slots:
            pipe.send(None)
            process.join(5)


def _save(outcome: Outcome, folder: Path, i: int) -> None:
    case_dir = folder / f"{i:05d}-{outcome.problem.replace(' ', '-')}"
    case_dir.mkdir(parents=True)
    for rel, text in outcome.case.files:
        path = case_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    (case_dir / "COMMAND").write_text(
        " ".join(outcome.case.argv) + "\n# copies: " + repr(outcome.case.copies) + "\n"
        + outcome.err)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", type=Path, help="keep every problem case in this folder")
    args = parser.parse_args(argv)
    started = time.monotonic()
    cases = generate(args.cases, args.seed)
    print(f"{len(cases)} cases generated in {time.monotonic() - started:.0f} s", flush=True)
    counts: Counter = Counter()
    problems: list[Outcome] = []
    slowest: list[Outcome] = []
    peak = [0.0]

    def report(outcome: Outcome, peak_mb: float) -> None:
        counts[(outcome.case.kind, outcome.code)] += 1
        peak[0] = max(peak[0], peak_mb)
        if not slowest or outcome.seconds > slowest[0].seconds:
            slowest[:] = [outcome]
        if outcome.problem:
            problems.append(outcome)
            print(f"{outcome.problem}: {' '.join(outcome.case.argv)}\n"
                  + "\n".join("    " + line for line in outcome.err.splitlines()[-6:]),
                  flush=True)
            if args.save:
                _save(outcome, args.save, len(problems))
        done = sum(counts.values())
        if done % 500 == 0:
            print(f"... {done} cases, {len(problems)} problems, "
                  f"{time.monotonic() - started:.0f} s", flush=True)

    with tempfile.TemporaryDirectory() as workdir:
        _Pool(args.workers, Path(workdir)).run(cases, report)
    kinds = Counter()
    for (kind, _), n in counts.items():
        kinds[kind] += n
    print(f"\ncases tried: {sum(counts.values())} in {time.monotonic() - started:.0f} s")
    for kind in KINDS:
        codes = ", ".join(f"exit {c}: {n}" for (k, c), n in sorted(
            counts.items(), key=lambda kv: str(kv[0][1])) if k == kind)
        print(f"  {kind:<14} {kinds[kind]:>6}  ({codes})")
    by_problem = Counter(o.problem for o in problems)
    for problem in ("traceback", "hang", "bad exit", "no message"):
        print(f"{problem + 's' if problem != 'no message' else 'exits without a message'}: "
              f"{by_problem[problem]}")
    if slowest:
        print(f"slowest case: {slowest[0].seconds:.2f} s ({' '.join(slowest[0].case.argv)})")
    print(f"most memory a worker used: {peak[0]:.0f} MB (limit {MEMORY_LIMIT_MB} MB)")
    return 1 if problems or peak[0] >= MEMORY_LIMIT_MB else 0


if __name__ == "__main__":
    sys.exit(main())
