"""docs/tutorial-what-does-this-patch-change.md stays true: its commands are re-run.

How the page is read:

- A ```` ```console ```` block holds ``$ command`` lines, each followed by what it prints
  (standard output, then standard error). ``rules-diff`` and ``rules-check`` are run
  in-process from the top of the repository and their output compared.
- ``<!-- file: PATH -->`` right before a block says the block is the whole of PATH, which
  must be the file of that name in the repository.
- Other blocks are not checked.

Set ``RULES_RUN_UPDATE_DOCS=1`` to rewrite the outputs shown from the real commands instead
of comparing them; review the diff before committing it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from rules_run.cli import check, diff
from rules_run.editions.loader import clear_cache

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "tutorial-what-does-this-patch-change.md"
UPDATE = os.environ.get("RULES_RUN_UPDATE_DOCS") == "1"
COMMANDS = {"rules-diff": diff.main, "rules-check": check.main}
"""The commands a console block may run (in-process)."""
BLOCK = re.compile(r"(?:<!-- file: (?P<file>[^>]+?) -->\n)?```(?P<lang>[\w-]*)\n(?P<body>.*?)```",
                   re.DOTALL)


def _run(command: str) -> str:
    argv = shlex.split(command)
    main = COMMANDS[argv[0]]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(argv[1:])
    return out.getvalue() + err.getvalue()


def _console(body: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in body.splitlines(keepends=True):
        if line.startswith("$ "):
            pairs.append((line[2:].strip(), []))
        elif pairs:
            pairs[-1][1].append(line)
    return [(c, "".join(o)) for c, o in pairs]


def test_the_tutorial_shows_real_files_and_real_output(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    clear_cache()  # spans (and so the paths shown) are relative to where rulesets load
    text = PAGE.read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    assert any(b["lang"] == "console" for b in blocks)
    new_text, last = [], 0
    problems = []
    for block in blocks:
        if block["file"]:
            on_disk = (ROOT / block["file"]).read_text(encoding="utf-8")
            if block["body"] != on_disk:
                problems.append(f"the block before line {text[:block.start()].count(chr(10)) + 1}"
                                f" is not {block['file']}")
        if block["lang"] != "console":
            continue
        body = []
        for command, expected in _console(block["body"]):
            actual = _run(command)
            body.append(f"$ {command}\n{actual}")
            if actual != expected and not UPDATE:
                problems.append(f"{command!r} prints something else now:\n{actual}")
        start = block.start("body")
        new_text.append(text[last:start] + "".join(body))
        last = block.end("body")
    new_text.append(text[last:])
    if UPDATE:
        PAGE.write_text("".join(new_text), encoding="utf-8")
    assert problems == []


@pytest.mark.parametrize("line", [
    "rules-diff A B [BATTLE.yaml]",
])
def test_the_tutorial_names_the_command_line(line) -> None:
    assert line in PAGE.read_text(encoding="utf-8")
