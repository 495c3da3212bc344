"""How long the bundled rule files are, and how much of them is procedural.

    python benchmarks/rule_lines.py [--base REV] [RULESET ...]

For each ruleset (default: wfb8 and aos4) it counts, over its ``*.rules`` files, the lines
of code (neither blank nor a comment), the share of them inside ``action`` and ``phase``
bodies (procedural code), and the ``while`` loops. With ``--base REV`` it prints the same
for the files as they were at that git revision, the change in code lines, and the change
over the declarations found at both (same kind and name: a like-for-like measure, leaving
out the rules added or dropped since REV). It reads files only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROCEDURAL = ("action", "phase")


@dataclass
class Count:
    """The line counts of one ruleset's rule files."""

    code: int = 0
    procedural: int = 0
    loops: int = 0

    def add(self, text: str) -> None:
        """Count the lines of one rule file."""
        inside = False
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            self.code += 1
            if not raw[0].isspace():
                inside = line.split(" ", 1)[0] in PROCEDURAL
            if inside:
                self.procedural += 1
            if line.startswith("while "):
                self.loops += 1


def declarations(files: dict[str, str]) -> dict[tuple[str, str], int]:
    """The code lines of each top-level declaration, by its kind and name (the first two
    words of its first line)."""
    lines: dict[tuple[str, str], int] = {}
    current = ("", "")
    for text in files.values():
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not raw[0].isspace():
                words = line.replace(":", " ").replace("(", " ").split()
                current = (words[0], words[1] if len(words) > 1 else "")
            lines[current] = lines.get(current, 0) + 1
    return lines


def same_declarations(now: dict[str, str], base: dict[str, str]) -> tuple[int, int]:
    """The code lines, now and at the base, of the declarations found at both."""
    a, b = declarations(now), declarations(base)
    both = a.keys() & b.keys()
    return sum(a[k] for k in both), sum(b[k] for k in both)


def files_now(ruleset: str) -> dict[str, str]:
    """The ruleset's rule files in the working tree."""
    folder = ROOT / "rulesets" / ruleset
    return {str(p.relative_to(ROOT)): p.read_text() for p in sorted(folder.glob("*.rules"))}


def files_at(rev: str, ruleset: str) -> dict[str, str]:
    """The ruleset's rule files at a git revision."""
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, f"rulesets/{ruleset}/"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    return {
        name: subprocess.run(
            ["git", "show", f"{rev}:{name}"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for name in names
        if name.endswith(".rules")
    }


def count(files: dict[str, str]) -> Count:
    """The counts over a set of rule files."""
    total = Count()
    for text in files.values():
        total.add(text)
    return total


def show(label: str, c: Count) -> str:
    """One line of the report."""
    share = 100 * c.procedural / c.code if c.code else 0.0
    return f"{label:<28} {c.code:6d} code lines  {share:5.1f}% procedural  {c.loops:3d} while loops"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", default=["wfb8", "aos4"])
    parser.add_argument("--base", help="a git revision to compare with")
    args = parser.parse_args()
    now_all, base_all = Count(), Count()
    same_now = same_base = 0
    for ruleset in args.rulesets:
        now = count(files_now(ruleset))
        print(show(f"{ruleset} (now)", now))
        for field in ("code", "procedural", "loops"):
            setattr(now_all, field, getattr(now_all, field) + getattr(now, field))
        if args.base:
            base = count(files_at(args.base, ruleset))
            print(show(f"{ruleset} ({args.base})", base))
            kept_now, kept_base = same_declarations(files_now(ruleset), files_at(args.base, ruleset))
            print(f"{ruleset + ' (at both)':<28} {kept_now:6d} code lines, {kept_base} at "
                  f"{args.base}: {100 * (kept_now - kept_base) / kept_base:+.1f}%")
            same_now, same_base = same_now + kept_now, same_base + kept_base
            for field in ("code", "procedural", "loops"):
                setattr(base_all, field, getattr(base_all, field) + getattr(base, field))
    print(show("all (now)", now_all))
    if args.base and base_all.code:
        print(show(f"all ({args.base})", base_all))
        change = 100 * (now_all.code - base_all.code) / base_all.code
        print(f"code lines: {change:+.1f}% against {args.base}")
        print(f"declarations at both: {same_now} code lines against {same_base}, "
              f"{100 * (same_now - same_base) / same_base:+.1f}%")


if __name__ == "__main__":
    main()
