"""How long rules-lsp takes to re-check after an edit: wfb8's largest rule file is opened,
checked once, then edited the ways typing does (a character within a line, a new line at
the top, which moves every declaration below, a new line in the middle); each edit is
re-checked as the server does on a change (the whole ruleset, from the parser's and the
loader's caches). Prints the median and the worst of REPEAT edits of each kind; asserts
nothing (tests never time anything).

    python benchmarks/bench_lsp.py [REPEAT]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from rules_run.editions.loader import clear_cache
from rules_run.editor.workspace import Workspace
from rules_run.paths import RULESETS_DIR

BUDGET_MS = 200


def _edits(text: str, n: int) -> dict[str, list[str]]:
    lines = text.splitlines(keepends=True)
    middle = len(lines) // 2
    return {
        "a character within a line": [text.replace("# ", f"# {'x' * (i + 1)} ", 1)
                                      for i in range(n)],
        "a new line at the top": [f"# edit {i}\n" + text for i in range(n)],
        "a new line in the middle": ["".join(lines[:middle] + [f"# edit {i}\n"]
                                             + lines[middle:]) for i in range(n)],
    }


def main(argv: list[str]) -> int:
    repeat = int(argv[0]) if argv else 20
    folder = RULESETS_DIR / "wfb8"
    path = max(folder.glob("*.rules"), key=lambda p: p.stat().st_size)
    text = path.read_text(encoding="utf-8")
    clear_cache()
    work = Workspace()
    t = time.perf_counter()
    first = work.check(path)
    cold = time.perf_counter() - t
    assert not any(first.values()), "wfb8 should check cleanly"
    print(f"{path.relative_to(RULESETS_DIR.parent)}: {len(text.splitlines())} lines, "
          f"{len(list(folder.glob('*.rules')))} rule files in the ruleset")
    print(f"  first check (cold): {cold * 1000:.0f} ms")
    worst_median = 0.0
    try:
        for what, versions in _edits(text, repeat).items():
            times = []
            for version in versions:
                work.set_text(path, version)
                t = time.perf_counter()
                work.check(path)
                times.append(time.perf_counter() - t)
            median = statistics.median(times) * 1000
            worst_median = max(worst_median, median)
            print(f"  re-check after {what}: median {median:.0f} ms, "
                  f"worst {max(times) * 1000:.0f} ms")
    finally:
        work.close(Path(path))
    verdict = "under" if worst_median < BUDGET_MS else "OVER"
    print(f"  {verdict} the {BUDGET_MS} ms budget (slowest median {worst_median:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
