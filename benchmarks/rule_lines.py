"""How long the bundled rule files are, and how much of them is procedural.

    python benchmarks/rule_lines.py [--base REV] [RULESET ...]

For each ruleset (default: wfb8 and aos4) it counts, over its ``*.rules`` files, the lines
of code (neither blank nor a comment), the share of them inside ``action``, ``case`` and
``phase`` bodies (procedural code), the ``while`` loops, and the tokens (names, numbers, strings,
operators; neither comments nor citations): lines measure how much there is to read, but
two statements joined on one line are one line fewer and no shorter, so the tokens say
whether a cut says less or only says it on fewer lines. With ``--base REV`` it prints the
same for the files as they were at that git revision, the change in code lines and tokens,
and the change over the declarations found at both (same kind and name: a like-for-like
measure, leaving out the rules added or dropped since REV). It reads files only; it
asserts nothing.
"""

from __future__ import annotations

import argparse
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROCEDURAL = ("action", "case", "phase")
TOKEN = re.compile(r'"[^"]*"|[A-Za-z_][A-Za-z_0-9]*|[0-9]+(?:\.[0-9]+)?|==|!=|<=|>=|//|[^\s\w]')
"""A token of a rule file's code."""
CITED = re.compile(r"\s+@\s.*$|\s#\s.*$")
"""A line's citation column or trailing comment."""
SPLIT_FROM = {"wfb8": {("action", "spell_effect"): ("action", "resolve_spell")}}
"""By ruleset, declarations split out of one that the base has, counted as that one for the
like-for-like measure (wfb8's spell effects were branches of resolve_spell), so that moving
code into a new declaration is not counted as a cut."""


def tokens(line: str) -> int:
    """The tokens of one line of code, its citation and trailing comment left out."""
    return len(TOKEN.findall(CITED.sub("", line)))


@dataclass
class Count:
    """The line counts of one ruleset's rule files."""

    code: int = 0
    procedural: int = 0
    loops: int = 0
    tokens: int = 0

    def add(self, text: str) -> None:
        """Count the lines of one rule file."""
        inside = False
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            self.code += 1
            self.tokens += tokens(line)
            if not raw[0].isspace():
                inside = line.split(" ", 1)[0] in PROCEDURAL
            if inside:
                self.procedural += 1
            if line.startswith("while "):
                self.loops += 1


def declarations(files: dict[str, str], split: dict[tuple[str, str], tuple[str, str]]
                 ) -> dict[tuple[str, str], tuple[int, int]]:
    """The code lines and tokens of each top-level declaration, by its kind and name (the
    first two words of its first line); a ``case`` of an action counts as the action's, and
one ``split`` names as the declaration it was split out of."""
    lines: dict[tuple[str, str], tuple[int, int]] = {}
    current = ("", "")
    for text in files.values():
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if not raw[0].isspace():
                words = line.replace(":", " ").replace("(", " ").split()
                current = (words[0], words[1] if len(words) > 1 else "")
                if current[0] == "case":
                    current = ("action", current[1])
                current = split.get(current, current)
            code, words = lines.get(current, (0, 0))
            lines[current] = (code + 1, words + tokens(line))
    return lines


def same_declarations(now: dict[str, str], base: dict[str, str], ruleset: str
                      ) -> tuple[Count, Count]:
    """The code lines and tokens, now and at the base, of the declarations found at both."""
    split = SPLIT_FROM.get(ruleset, {})
    a, b = declarations(now, split), declarations(base, split)
    both = a.keys() & b.keys()
    return (Count(code=sum(a[k][0] for k in both), tokens=sum(a[k][1] for k in both)),
            Count(code=sum(b[k][0] for k in both), tokens=sum(b[k][1] for k in both)))


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
    return (f"{label:<28} {c.code:6d} code lines {c.tokens:7d} tokens  {share:5.1f}% "
            f"procedural  {c.loops:3d} while loops")


def change(label: str, now: Count, base: Count, rev: str) -> str:
    """How the code lines and tokens changed against the base."""
    if not base.code:
        return f"{label:<28} {now.code:6d} code lines, none at {rev}"
    return (f"{label:<28} {now.code:6d} code lines against {base.code} at {rev} "
            f"({100 * (now.code - base.code) / base.code:+.1f}%), {now.tokens} tokens "
            f"against {base.tokens} ({100 * (now.tokens - base.tokens) / base.tokens:+.1f}%)")


FIELDS = ("code", "procedural", "loops", "tokens")


def add(total: Count, part: Count) -> None:
    """Add one count to a total."""
    for field in FIELDS:
        setattr(total, field, getattr(total, field) + getattr(part, field))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", default=["wfb8", "aos4"])
    parser.add_argument("--base", help="a git revision to compare with")
    args = parser.parse_args()
    now_all, base_all, same_now, same_base = Count(), Count(), Count(), Count()
    for ruleset in args.rulesets:
        now = count(files_now(ruleset))
        print(show(f"{ruleset} (now)", now))
        add(now_all, now)
        if args.base:
            base = count(files_at(args.base, ruleset))
            print(show(f"{ruleset} ({args.base})", base))
            kept_now, kept_base = same_declarations(files_now(ruleset), files_at(args.base, ruleset),
                                                    ruleset)
            print(change(f"{ruleset} (at both)", kept_now, kept_base, args.base))
            add(same_now, kept_now)
            add(same_base, kept_base)
            add(base_all, base)
    print(show("all (now)", now_all))
    if args.base and base_all.code:
        print(show(f"all ({args.base})", base_all))
        print(change("all", now_all, base_all, args.base))
        print(change("all (at both)", same_now, same_base, args.base))


if __name__ == "__main__":
    main()
