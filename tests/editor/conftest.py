"""Fixtures of the editor tests: a broken patch of wfb8 and a battle file, written fresh
for each test."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.editor_kit import BATTLE, BROKEN_PATCH

@pytest.fixture
def patch(tmp_path: Path) -> Path:
    """The broken patch's folder."""
    folder = tmp_path / "broken-patch"
    folder.mkdir()
    (folder / "index.yaml").write_text(
        "kind: ruleset\ndescription: \"A broken patch\"\nrules:\n  - house.rules\n"
        "library: [steady_nerve, lucky_blow]\n",
        encoding="utf-8")
    (folder / "house.rules").write_text(BROKEN_PATCH, encoding="utf-8")
    return folder


@pytest.fixture
def battle(tmp_path: Path) -> Path:
    path = tmp_path / "duel.yaml"
    path.write_text(BATTLE, encoding="utf-8")
    return path
