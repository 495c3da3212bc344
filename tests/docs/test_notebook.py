"""docs/tutorial-notebook.md is a notebook session: run its ``>>>`` lines and compare."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "tutorial-notebook.md"


def test_the_notebook_tutorial_runs_as_shown(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```pycon\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, DOC.name, str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 15
