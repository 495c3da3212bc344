"""Helpers for the safety tests: a copy of the tiny ruleset, and the commands run in-process."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

TINY = Path(__file__).resolve().parents[1] / "lang" / "fixtures" / "tiny"

SECRET = "hunter2-not-to-be-shown"
"""What a file outside every ruleset holds: no output may show it."""

DUEL = ("seed: 1\ngame: {rounds: 1, first: men}\nduel: {distance: 4}\nunits:\n"
        "  - {id: spearmen, side: men, profile: army/spearman, models: 10, files: 5}\n"
        "  - {id: orcs, side: orcs, profile: army/orc, models: 10, files: 5}\n")
"""A battle for the tiny ruleset, without its ``edition:``."""


def copy_tiny(parent: Path, name: str = "tiny") -> Path:
    """A copy of the tiny ruleset as ``parent/name`` (its header renamed to match)."""
    folder = parent / name
    shutil.copytree(TINY, folder)
    rules = folder / "core.rules"
    rules.write_text(rules.read_text().replace("ruleset tiny ", f"ruleset {name} "))
    return folder


def with_rules(parent: Path, text: str) -> Path:
    """A copy of the tiny ruleset with ``text`` added to its rule file."""
    folder = copy_tiny(parent)
    with open(folder / "core.rules", "a") as f:
        f.write(text)
    return folder


def errors(err: str) -> list[str]:
    """The error lines of what a command printed (not the source lines and carets)."""
    return [line for line in err.splitlines() if ": error: " in line or
            line.startswith("error: ")]


def command(main, capsys: pytest.CaptureFixture, cwd: Path, *args: str) -> tuple[int, str, str]:
    """Run a command's ``main`` in ``cwd``: its exit code, standard output and error."""
    capsys.readouterr()
    here = Path.cwd()
    try:
        import os

        os.chdir(cwd)
        try:
            code = main(list(args))
        except SystemExit as exc:   # argparse
            code = int(exc.code or 0)
    finally:
        os.chdir(here)
    out, err = capsys.readouterr()
    return code, out, err


def check(capsys, cwd: Path, *args: str) -> tuple[int, str, str]:
    """``rules-check ARGS`` in ``cwd``."""
    from rules_run.cli.check import main

    return command(main, capsys, cwd, *args)


def run(capsys, cwd: Path, *args: str) -> tuple[int, str, str]:
    """``rules-run ARGS`` in ``cwd``."""
    from rules_run.cli.run import main

    return command(main, capsys, cwd, *args)


def odds(capsys, cwd: Path, *args: str) -> tuple[int, str, str]:
    """``rules-odds ARGS`` in ``cwd``."""
    from rules_run.cli.odds import main

    return command(main, capsys, cwd, *args)
