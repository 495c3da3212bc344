"""Cold and warm (cached) load time of each bundled ruleset. Prints; asserts nothing.

Cold: a fresh process's first load (parse, patches, check, tables, unit data, compile).
Warm: the same load again, answered from the in-process cache.

    python benchmarks/bench_load.py
"""

from __future__ import annotations

import time

from interpreter.editions.loader import clear_cache, load_ruleset
from interpreter.editions.registry import bundled_editions
from interpreter.lang.compiler import compile_ruleset
from interpreter.lang.parser import grammar_parser


def main() -> None:
    t = time.perf_counter()
    grammar_parser()
    print(f"grammar: built the parser in {1000 * (time.perf_counter() - t):.1f} ms (once per process)")
    print(f"{'ruleset':<16}{'cold (ms)':>12}{'compile (ms)':>14}{'warm (ms)':>12}")
    for edition_id, folder in bundled_editions().items():
        clear_cache()
        t0 = time.perf_counter()
        ruleset = load_ruleset(folder)
        t1 = time.perf_counter()
        compile_ruleset(ruleset)
        t2 = time.perf_counter()
        for _ in range(20):
            load_ruleset(folder)
        t3 = time.perf_counter()
        print(f"{edition_id:<16}{1000 * (t1 - t0):>12.1f}{1000 * (t2 - t1):>14.1f}"
              f"{1000 * (t3 - t2) / 20:>12.2f}")


if __name__ == "__main__":
    main()
