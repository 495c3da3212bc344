"""Many battles: seeds derived per run, optional worker processes, summary statistics.

Run ``i`` of a batch always uses ``derive_seed(seed, "run", i)``, and results are put back
in run order, so the statistics are identical whatever the number of workers. The battles
are fought with the ruleset's code specialised to the battle
(:func:`rules_run.engine.setup.specialised`), made once per process and reused by every run,
from :data:`SPECIALISE_FROM` runs.
"""

from __future__ import annotations

import contextlib
import math
import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rules_run.chance import derive_seed
from rules_run.diagnostics import UsageError

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from rules_run.editions.bundle import Bundle
    from rules_run.engine.front import Battle

__all__ = ["RunSpec", "context", "default_workers", "open_executor", "run_many", "summarise",
           "wilson"]

Z95 = 1.959963984540054
"""The normal quantile for a two-sided 95% interval."""


class RunSpec:
    """What a worker needs to open the battle: plain values only (picklable).

    With a ``bundle`` (:mod:`rules_run.editions.bundle`: the ruleset's and the battle's
    files, with the ruleset's fingerprint) it is self-contained: the worker fights the
    battle from those files, checked, not from the edition and path named."""

    def __init__(self, edition: str | None, battle: str | None, options: dict[str, Any],
                 seed: int, bundle: Bundle | None = None) -> None:
        self.edition, self.battle, self.options, self.seed = edition, battle, options, seed
        self.bundle = bundle

    def key(self) -> tuple[Any, ...]:
        """What names the battle the spec opens (not the seed)."""
        return (self.edition, self.battle, tuple(sorted(self.options.items())), self.bundle)


_WORKER_CONTEXT: dict[tuple[Any, ...], Battle] = {}


def context(spec: RunSpec) -> Battle:
    """The battle of a spec (:func:`~rules_run.engine.front.open_battle`), opened once per
    process, or the one :func:`run_many` was given (worker processes forked from it share
    it)."""
    from rules_run.engine.front import open_battle

    key = spec.key()
    if key not in _WORKER_CONTEXT:
        edition, battle = spec.edition, spec.battle
        if spec.bundle is not None:
            from rules_run.editions.bundle import unpack   # shutil, tempfile: only for one

            folders, path = unpack(spec.bundle)
            edition, battle = str(folders[0]), str(path) if path else None
        _WORKER_CONTEXT[key] = open_battle(edition, battle, spec.options)
    return _WORKER_CONTEXT[key]


@contextlib.contextmanager
def _lent(spec: RunSpec, opened: Battle | None) -> Iterator[None]:
    """While it runs, ``opened`` is the battle :func:`context` gives for ``spec`` in this
    process and in the worker processes forked from it."""
    if opened is None:
        yield
        return
    key = spec.key()
    before = _WORKER_CONTEXT.get(key)
    _WORKER_CONTEXT[key] = opened
    try:
        yield
    finally:
        if before is None:
            del _WORKER_CONTEXT[key]
        else:
            _WORKER_CONTEXT[key] = before


SPECIALISE_FROM = 50
"""Runs from which a batch is fought with the code specialised to its battle
(:func:`rules_run.engine.setup.specialised`: the same results, byte for byte; writing the
code costs about as much as some battles, which fewer runs would not win back). It depends
on the number of runs only, so results never depend on it."""


def _run_chunk(spec: RunSpec, indices: list[int], specialise: bool = False
               ) -> list[tuple[int, dict[str, Any]]]:
    from rules_run.engine.driver import run_battle
    from rules_run.engine.setup import specialised

    _, runtime, battle = context(spec)
    if specialise:
        runtime = specialised(runtime, battle)   # made once per process and battle
    out = []
    for i in indices:
        result = run_battle(runtime, battle, seed=derive_seed(spec.seed, "run", i),
                            keep_events=False)
        out.append((i, result.to_json()))
    return out


RUNS_PER_WORKER = 50
"""Battles a worker process should have at least, to be worth starting."""


def default_workers(runs: int) -> int:
    """Worker processes for ``runs`` battles when none are asked for: one per CPU this
    process may use, but no more than one per :data:`RUNS_PER_WORKER` battles."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cpus or 1, runs // RUNS_PER_WORKER))


EXECUTORS = ("process", "dask")
"""What ``--executor`` takes: ``process`` (worker processes on this machine, the default)
or ``dask`` (a Dask cluster: ``dask=ADDRESS`` for a running scheduler, else a local one
of ``--workers`` processes)."""


@contextlib.contextmanager
def open_executor(name: str | None, workers: int) -> Iterator[Executor]:
    """The ``concurrent.futures`` executor ``--executor`` names (see :data:`EXECUTORS`).

    Raises:
        UsageError: an unknown executor, or ``dask`` without Dask installed.
    """
    kind, _, address = (name or "process").partition("=")
    if kind == "process" and not address:
        # imported here: a command that fights in one process never needs it
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool
        return
    if kind != "dask":
        raise UsageError(f"--executor takes process, dask or dask=ADDRESS, got {name!r}")
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--executor dask needs Dask: pip install 'rules-run[dask]'") from None
    client = (Client(address) if address else
              Client(n_workers=workers, threads_per_worker=1, dashboard_address=None))
    try:
        yield client.get_executor()
    finally:
        client.close()


def run_many(spec: RunSpec, runs: int, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             executor: str | None = None, opened: Battle | None = None
             ) -> list[dict[str, Any]]:
    """Run ``runs`` battles; their results (``BattleResult.to_json()``) in run order.

    With more than one worker, or an ``executor`` (:func:`open_executor`), chunks of runs
    go to worker processes; the results are the same. ``opened``: the spec's battle,
    opened already by the caller, so this process and the workers it forks fight it
    without opening it again."""
    chunk = max(1, min(100, runs // (workers * 8) or 1))
    chunks = [list(range(s, min(runs, s + chunk))) for s in range(0, runs, chunk)]
    results: dict[int, dict[str, Any]] = {}
    done = 0
    fast = runs >= SPECIALISE_FROM
    with _lent(spec, opened):
        if workers <= 1 and executor is None:
            for indices in chunks:
                for i, r in _run_chunk(spec, indices, fast):
                    results[i] = r
                done += len(indices)
                if progress:
                    progress(done, runs)
        else:
            with open_executor(executor, workers) as pool:
                futures = [pool.submit(_run_chunk, spec, indices, fast) for indices in chunks]
                for future in futures:
                    for i, r in future.result():
                        results[i] = r
                        done += 1
                    if progress:
                        progress(done, runs)
    return [results[i] for i in range(runs)]


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    Examples:
        >>> [round(x, 4) for x in wilson(50, 100)]
        [0.4038, 0.5962]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    k = (len(sorted_values) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def _spread(values: list[float]) -> dict[str, float]:
    s = sorted(values)
    n = len(s)
    mean = sum(s) / n if n else 0.0
    var = sum((v - mean) ** 2 for v in s) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n) if n else 0.0
    return {"mean": round(mean, 6), "mean_low": round(mean - half, 6),
            "mean_high": round(mean + half, 6),
            "q05": round(_quantile(s, 0.05), 6), "median": round(_quantile(s, 0.5), 6),
            "q95": round(_quantile(s, 0.95), 6)}


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Win and draw rates with 95% intervals; survivors and victory points per unit/side."""
    n = len(results)
    sides = list(results[0]["victory_points"]) if results else []
    outcomes: dict[str, Any] = {}
    for side in sides + [None]:
        wins = sum(1 for r in results if r["winner"] == side)
        low, high = wilson(wins, n)
        outcomes["draw" if side is None else side] = {
            "count": wins, "rate": round(wins / n, 6) if n else 0.0,
            "low": round(low, 6), "high": round(high, 6)}
    units: dict[str, Any] = {}
    for k, u in enumerate(results[0]["units"] if results else []):
        units[u["id"]] = {
            "side": u["side"],
            "starting_models": u["starting_models"],
            "survivors": _spread([r["units"][k]["models"] for r in results]),
            "destroyed_rate": round(sum(1 for r in results if r["units"][k]["status"] !=
                                        "fighting") / n, 6),
        }
    vps = {side: _spread([r["victory_points"][side] for r in results]) for side in sides}
    rounds = _spread([r["rounds"] for r in results])
    return {"runs": n, "outcomes": outcomes, "units": units, "victory_points": vps,
            "rounds": rounds}
