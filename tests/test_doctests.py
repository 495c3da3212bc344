"""The examples in the package's docstrings, run as doctests.

The source folder ``interpreter/`` installs as ``rules_run``; pytest's own doctest collection
would import the files a second time under the folder's name, so each module's examples run
here, from the installed package.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules_run

OPTIONAL = {"rules_run.editor.server"}
"""Modules that need an optional extra to import (pygls); their examples run when it is there."""


def _modules() -> list[str]:
    names = ["rules_run"]
    for info in pkgutil.walk_packages(rules_run.__path__, "rules_run."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    if name in OPTIONAL:
        module = pytest.importorskip(name)
    else:
        module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
