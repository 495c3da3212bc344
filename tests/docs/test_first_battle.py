"""docs/tutorial-first-battle.md shows real output: re-run each command and compare.

A block may elide lines with a line "..."; the pieces around it must appear, in order.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tutorial-first-battle.md"
COMMANDS = {"rules-run": "rules_run.cli.run", "rules-check": "rules_run.cli.check",
            "rules-odds": "rules_run.cli.odds"}


def blocks() -> list[tuple[str, str]]:
    out = []
    for body in re.findall(r"```text\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        first, _, rest = body.partition("\n")
        if first.startswith("$ "):
            out.append((first[2:], rest.rstrip("\n")))
    return out


def run(command: str) -> str:
    program, *args = command.split()
    done = subprocess.run([sys.executable, "-m", COMMANDS[program], *args], cwd=ROOT,
                          capture_output=True, text=True)
    return (done.stdout + done.stderr).rstrip("\n")


def regenerate() -> None:
    """``RULES_RUN_UPDATE_DOCS=1``: rewrite each block from the real output, keeping how many
    lines it shows before and after an elision ("...")."""
    text = DOC.read_text(encoding="utf-8")

    def fresh(match: re.Match) -> str:
        body = match.group(1)
        first, _, rest = body.partition("\n")
        if not first.startswith("$ "):
            return match.group(0)
        actual = run(first[2:]).splitlines()
        pieces = rest.rstrip("\n").split("\n...\n")
        if len(pieces) == 1:
            shown = actual
        else:
            head = pieces[0].count("\n") + 1
            tail = pieces[-1].count("\n") + 1
            shown = actual[:head] + ["..."] + actual[-tail:]
        return "```text\n" + first + "\n" + "\n".join(shown) + "\n```"

    DOC.write_text(re.sub(r"```text\n(.*?)```", fresh, text, flags=re.S), encoding="utf-8")


if os.environ.get("RULES_RUN_UPDATE_DOCS"):
    regenerate()


@pytest.mark.parametrize(("command", "expected"), blocks(), ids=lambda v: str(v)[:40])
def test_the_tutorial_shows_what_the_command_prints(command: str, expected: str) -> None:
    actual = run(command)
    position = 0
    for piece in expected.split("\n...\n"):
        piece = piece.strip("\n").removeprefix("...\n").removesuffix("\n...")
        found = actual.find(piece, position)
        assert found >= 0, f"not in the output of {command!r}:\n{piece}\n--- got ---\n{actual}"
        position = found + len(piece)


def test_the_tutorial_has_its_commands() -> None:
    assert len(blocks()) >= 6
