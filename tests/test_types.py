"""The interpreter type-checks: mypy, configured in pyproject.toml, finds no error in it."""

from __future__ import annotations

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]
"""The checkout: the package's own sources are checked, wherever it is installed from."""


def test_mypy_finds_no_error_in_the_interpreter() -> None:
    # The checkout's .mypy_cache (the one a plain `mypy` run uses) keeps reruns fast.
    stdout, stderr, status = api.run([
        "--config-file", str(ROOT / "pyproject.toml"),
        "--cache-dir", str(ROOT / ".mypy_cache"),
    ])
    assert status == 0, f"mypy found errors:\n{stdout}{stderr}"
