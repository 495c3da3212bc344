"""Every battle file a bundled ruleset ships is listed in its manifest (so rules-check checks
it and the benchmark times it), and every listed one exists."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
MANIFESTS = sorted(p for p in RULESETS.rglob("index.yaml") if (p.parent / "battles").is_dir())


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda p: p.parent.name)
def test_the_manifest_lists_exactly_the_battle_files(manifest: Path) -> None:
    listed = yaml.safe_load(manifest.read_text(encoding="utf-8")).get("battles") or []
    shipped = sorted(str(p.relative_to(manifest.parent))
                     for p in (manifest.parent / "battles").rglob("*.yaml"))
    assert sorted(listed) == shipped
