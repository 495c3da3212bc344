"""docs/tutorial-first-battle.md shows real output: re-run each command and compare.

A block may elide lines with a line "..."; the pieces around it must appear, in order.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tutorial-first-battle.md"
COMMANDS = {"rules-run": "interpreter.cli.run", "rules-check": "interpreter.cli.check",
            "rules-odds": "interpreter.cli.odds"}


def blocks() -> list[tuple[str, str]]:
    out = []
    for body in re.findall(r"```text\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        first, _, rest = body.partition("\n")
        if first.startswith("$ "):
            out.append((first[2:], rest.rstrip("\n")))
    return out


@pytest.mark.parametrize(("command", "expected"), blocks(), ids=lambda v: str(v)[:40])
def test_the_tutorial_shows_what_the_command_prints(command: str, expected: str) -> None:
    program, *args = command.split()
    done = subprocess.run([sys.executable, "-m", COMMANDS[program], *args], cwd=ROOT,
                          capture_output=True, text=True)
    actual = (done.stdout + done.stderr).rstrip("\n")
    position = 0
    for piece in expected.split("\n...\n"):
        piece = piece.strip("\n").removeprefix("...\n").removesuffix("\n...")
        found = actual.find(piece, position)
        assert found >= 0, f"not in the output of {command!r}:\n{piece}\n--- got ---\n{actual}"
        position = found + len(piece)


def test_the_tutorial_has_its_commands() -> None:
    assert len(blocks()) >= 6
