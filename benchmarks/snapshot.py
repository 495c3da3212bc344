"""A byte-identical harness: every command's output for every bundled battle, in one folder.

    python benchmarks/snapshot.py OUT_DIR [--runs N] [--jobs K] [--only TEXT] [--skip TEXT]
    diff -r BEFORE_DIR AFTER_DIR        # no output: the change altered nothing

For every bundled battle (each ruleset's ``battles:``) it writes the narrated log, the log
with ``--explain``, the ``--log`` JSON Lines and ``rules-run --runs N --json``; for the
bundled duels ``rules-odds --json`` both ways (the unit's own attacks, and ``--attacks
1000``); for each bundled patch and its base ``rules-diff --json`` over the base's duel.
Each file holds the command's standard output, then its standard error and exit code, so a
changed diagnostic shows too. Commands run from the repository's root (the paths they print
are the same every time) as fresh processes, K at a time.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

DUELS = {
    "rulesets/wfb8/battles/duel.yaml": ("halberdiers", "orcs"),
    "rulesets/aos4/battles/duel.yaml": ("liberators", "clanrats"),
    "rulesets/40k5/battles/duel.yaml": ("marines", "boyz"),
}
"""The bundled duels and their two units, for rules-odds."""

PAIRS = [
    ("wfb8", "rulesets/examples/wfb8-house-charge", "rulesets/wfb8/battles/duel.yaml"),
    ("wfb8", "rulesets/examples/wfb8-house-rules", "rulesets/wfb8/battles/duel.yaml"),
    ("wfb8", "rulesets/examples/wfb8-no-steadfast", "rulesets/wfb8/battles/duel.yaml"),
    ("aos4", "aos4-gh2025", "rulesets/aos4/battles/duel.yaml"),
    ("aos4-gh2025", "aos4-gh2026", "rulesets/aos4/battles/duel.yaml"),
]
"""The bundled patches with their base, and the battle rules-diff fights them on."""


def bundled_battles() -> list[str]:
    """Every battle a bundled ruleset lists, as a path from the repository's root."""
    import yaml

    found = []
    for index in sorted((ROOT / "rulesets").rglob("index.yaml")):
        doc = yaml.safe_load(index.read_text(encoding="utf-8")) or {}
        for rel in doc.get("battles") or []:
            found.append((index.parent / rel).relative_to(ROOT).as_posix())
    return sorted(found)


def commands(runs: int) -> list[tuple[str, list[str]]]:
    """(file name, argv) for every output the snapshot holds."""
    out: list[tuple[str, list[str]]] = []
    for battle in bundled_battles():
        slug = battle.removeprefix("rulesets/").removesuffix(".yaml").replace("/", "__")
        run = ["rules_run.cli.run", battle]
        out += [
            (f"{slug}.narrated.txt", run),
            (f"{slug}.explain.txt", run + ["--explain"]),
            (f"{slug}.log.jsonl", run + ["--log", "/dev/stdout"]),
            (f"{slug}.runs.json", run + ["--runs", str(runs), "--workers", "1", "--json"]),
        ]
    for battle, (a, b) in DUELS.items():
        slug = battle.removeprefix("rulesets/").removesuffix(".yaml").replace("/", "__")
        for x, y in ((a, b), (b, a)):
            odds = ["rules_run.cli.odds", battle, "--attacker", x, "--target", y, "--json"]
            out += [(f"{slug}.odds.{x}.json", odds),
                    (f"{slug}.odds.{x}.1000.json", odds + ["--attacks", "1000"])]
    for a, b, battle in PAIRS:
        name = f"diff.{Path(a).name}.{Path(b).name}.json"
        out.append((name, ["rules_run.cli.diff", a, b, battle, "--runs", str(runs // 2),
                           "--workers", "1", "--json"]))
    return out


def capture(argv: list[str]) -> str:
    """A command's standard output, standard error and exit code, as one text."""
    done = subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8")
    return f"{done.stdout}\n--- stderr\n{done.stderr}\n--- exit {done.returncode}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="folder to write the outputs into (created)")
    parser.add_argument("--runs", type=int, default=200, help="battles per --runs output")
    parser.add_argument("--jobs", type=int, default=1, help="commands run at once")
    parser.add_argument("--only", metavar="TEXT", default="",
                        help="only the outputs whose file name holds TEXT")
    parser.add_argument("--skip", metavar="TEXT",
                        help="leave out the outputs whose file name holds TEXT")
    args = parser.parse_args(argv)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    todo = [(name, cmd) for name, cmd in commands(args.runs)
            if args.only in name and not (args.skip and args.skip in name)]

    def one(item: tuple[str, list[str]]) -> str:
        name, cmd = item
        (folder / name).write_text(capture(cmd), encoding="utf-8")
        return name

    with ThreadPoolExecutor(args.jobs) as pool:
        for i, name in enumerate(pool.map(one, todo), 1):
            print(f"[{i}/{len(todo)}] {name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
