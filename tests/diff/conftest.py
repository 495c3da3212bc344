"""Shared paths and helpers of the rules-diff tests."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ONE_CELL = HERE / "wfb8-one-cell"
HOUSE_CHARGE = ROOT / "rulesets" / "examples" / "wfb8-house-charge"
NO_STEADFAST = ROOT / "rulesets" / "examples" / "wfb8-no-steadfast"
DUEL = ROOT / "rulesets" / "wfb8" / "battles" / "duel.yaml"


@pytest.fixture
def at_root(monkeypatch):
    """Run from the top of the repository (the paths reports show are relative to it)."""
    monkeypatch.chdir(ROOT)
    return ROOT
