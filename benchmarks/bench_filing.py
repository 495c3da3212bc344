"""Battles per second like for like: the interpreter as it was when issue #18 was filed, on
its own rule files, against today's interpreter on the same rule files. Prints; asserts
nothing.

    python benchmarks/bench_filing.py [--rev REV] [--pairs P] [--runs N] [--work DIR]

The bundled rulesets have grown since #18 was filed (magic, war machines, terrain), so
today's battles/s of a bundled battle does not measure the interpreter against "today's
battles/s" of the issue. This script fixes the rules instead: it checks out REV (default
a783230, the commit #18 was filed at) into a git worktree with its own virtual environment,
takes REV's ``rulesets/`` for today's interpreter too, with the few edits :data:`PORT` lists
(the language since REV refuses what they change; none changes what a rule does), shows
whether both interpreters fight each battle alike (``--runs 20 --json`` byte for byte),
then times both in interleaved pairs: each timing is the CPU time of ``rules-run --runs N
--workers 1`` less that of ``--runs BASE`` (:data:`BASE`: start-up, the first battle's and
specialisation's one-off work left out), as a fresh process. ``--work DIR`` keeps the
worktree and environment there for the next run (made when missing).
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

from rules_run.engine.stats import SPECIALISE_FROM

ROOT = Path(__file__).resolve().parent.parent
FILED = "a783230"
"""The commit issue #18 was filed at."""

BATTLES = [("wfb8", "battle"), ("wfb8", "duel"), ("aos4", "battle"), ("aos4", "duel")]
"""(ruleset, battle) pairs timed: the two pitched battles the acceptance names, and the duels."""

PORT = [
    ("wfb8/index.yaml", "melee: {sequence: melee_attack, count: melee_attacks}",
     "melee: {sequence: melee_attack, count: melee_attacks, attacker: attacker, target: target}"),
    ("wfb8/index.yaml", "shooting: {sequence: shooting_attack, count: shots}",
     "shooting: {sequence: shooting_attack, count: shots, attacker: [shooter, attacker], "
     "target: target}"),
    ("aos4/index.yaml", "melee: {sequence: combat_attack, count: combat_attacks}",
     "melee: {sequence: combat_attack, count: combat_attacks, attacker: attacker, "
     "target: target, weapon: weapon, set: [charging]}"),
    ("aos4/index.yaml", "shooting: {sequence: shooting_attack, count: shooting_attacks}",
     "shooting: {sequence: shooting_attack, count: shooting_attacks, attacker: attacker, "
     "target: target, weapon: weapon, set: [charging]}"),
] + [(f"{ruleset}/index.yaml", "default_battle: battles/battle.yaml",
       "default_battle: battles/battle.yaml\ndefault_files: 5") for ruleset in ("wfb8", "aos4")
] + [(rel, f"counter {name} of battle", f"counter {name} of text") for rel, name in (
    ("wfb8/battle.rules", "wounds_on"), ("wfb8/magic.rules", "spell_cast_round"),
    ("wfb8/magic.rules", "forgotten"), ("aos4/battle.rules", "phase_clock"),
    ("aos4/battle.rules", "command_used_in"), ("aos4/battle.rules", "fight_clock"))]
"""(file under rulesets/, text, its replacement): an index's attacks now name the parameters
that take the attacker and the target; the files a unit stands in by default are the
manifest's ``default_files`` (REV's interpreter took 5 for every ruleset); a counter kept per
battle no longer takes a key, so the counters REV keyed by a text it builds are declared keyed
by a text."""


def prepare(rev: str, work: Path) -> tuple[Path, Path]:
    """REV's worktree with its environment, and REV's rulesets ported: (the old
    interpreter's ``rules-run``, the folder holding the ported ``rulesets/``)."""
    old, env, port = work / "old", work / "venv", work / "port"
    if not old.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old), rev],
                       check=True, capture_output=True)
    if not (env / "bin" / "rules-run").exists():
        subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
        subprocess.run([str(env / "bin" / "pip"), "install", "--quiet", "-e", str(old)],
                       check=True)
    if port.exists():
        shutil.rmtree(port)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "rulesets"], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(port, filter="data")
    for rel, text, new in PORT:
        path = port / "rulesets" / rel
        source = path.read_text(encoding="utf-8")
        if source.count(text) != 1:
            sys.exit(f"bench_filing: {rel} at {rev} does not hold {text!r} once: update PORT")
        path.write_text(source.replace(text, new), encoding="utf-8")
    return env / "bin" / "rules-run", port


BASE = SPECIALISE_FROM + 2
"""The runs of the timing subtracted from each: past ``SPECIALISE_FROM``, so that writing the
code specialised to the battle, paid once by today's interpreter, is in both timings and
falls out (with 2 runs it was counted against today's side alone)."""


def command(exe: list[str], ruleset: str, battle: str, runs: int) -> list[str]:
    return [*exe, "-e", f"rulesets/{ruleset}", f"rulesets/{ruleset}/battles/{battle}.yaml",
            "--workers", "1", "--json", "--runs", str(runs)]


def cpu(argv: list[str], cwd: Path) -> float:
    """The CPU seconds a command takes, run to its end."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def digest(argv: list[str], cwd: Path) -> str:
    out = subprocess.run(argv, cwd=cwd, capture_output=True, check=True).stdout
    return hashlib.sha256(out).hexdigest()[:12]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=FILED, help=f"the old interpreter (default {FILED})")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved timings per battle")
    parser.add_argument("--runs", type=int, default=0,
                        help="battles per timing (default: 152 pitched, 3002 duels; more than "
                             f"{BASE}, the runs whose timing is subtracted)")
    parser.add_argument("--work", type=Path, help="keep the worktree and environment here")
    args = parser.parse_args()
    if args.runs and args.runs <= BASE:
        parser.error(f"--runs must be more than {BASE}, the runs subtracted from each timing")
    work = args.work or Path(tempfile.mkdtemp(prefix="bench_filing-"))
    work.mkdir(parents=True, exist_ok=True)
    old_exe, port = prepare(args.rev, work)
    sides = {"then": ([str(old_exe)], work / "old"),
             "now": ([sys.executable, "-m", "rules_run.cli.run"], port)}
    print(f"interpreter at {args.rev} on its rulesets/ against today's on the same, ported "
          f"({len(PORT)} edits); CPU time, median of {args.pairs} interleaved pairs")
    print(f"{'battle':<26}{'same results':>14}{'then /s':>10}{'now /s':>10}{'now/then':>10}")
    try:
        for ruleset, battle in BATTLES:
            runs = args.runs or (3002 if battle == "duel" else 152)
            same = len({digest(command(exe, ruleset, battle, 20), cwd)
                        for exe, cwd in sides.values()}) == 1
            rates: dict[str, list[float]] = {k: [] for k in sides}
            for _ in range(args.pairs):
                for k, (exe, cwd) in sides.items():
                    spent = (cpu(command(exe, ruleset, battle, runs), cwd)
                             - cpu(command(exe, ruleset, battle, BASE), cwd))
                    rates[k].append((runs - BASE) / spent)
            then, now = (statistics.median(rates[k]) for k in sides)
            print(f"{ruleset + ' ' + battle:<26}{'yes' if same else 'no':>14}{then:>10.1f}"
                  f"{now:>10.1f}{now / then:>9.2f}x")
    finally:
        if args.work is None:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(work / "old")], capture_output=True)
            shutil.rmtree(work, ignore_errors=True)
    print("(the acceptance asks 4x for the two pitched battles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
