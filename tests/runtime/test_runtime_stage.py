"""The runtime stage: it reaches the engine only through its Protocols, and what is one
game's number (files per unit) comes from the ruleset."""

from __future__ import annotations

import ast
from pathlib import Path

import rules_run
from rules_run.editions.loader import load_edition

RUNTIME = Path(rules_run.__file__).parent / "runtime"
ROOT = Path(__file__).resolve().parents[2]


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def test_the_runtime_imports_nothing_from_the_engine_or_above() -> None:
    above = ("rules_run.engine", "rules_run.diff", "rules_run.replay", "rules_run.api",
             "rules_run.cli", "rules_run.editor")
    for path in sorted(RUNTIME.glob("*.py")):
        climbing = sorted(m for m in _imported(path) if m.startswith(above))
        assert not climbing, (path.name, climbing)


def test_files_per_unit_come_from_the_manifest_and_its_base() -> None:
    assert load_edition("wfb8").default_files == 5
    assert load_edition("aos4").default_files == 5
    # a season patch declares none: it keeps its base's
    assert load_edition("aos4-gh2025").default_files == 5


def test_a_unit_without_files_stands_as_wide_as_the_ruleset_says() -> None:
    duel = (ROOT / "rulesets/wfb8/battles/duel.yaml").read_text(encoding="utf-8")
    text = duel.replace("models: 20, files: 5", "models: 20").replace(
        "{id: orcs, side: orcs, profile: orcs/orc_boy, models: 20",
        "{id: orcs, side: orcs, profile: orcs/orc_boy, models: 3")
    _, _, fight = rules_run.open_battle("wfb8", "duel.yaml", text=text)
    files = {unit.id: unit.files for unit in fight.units}
    assert files == {"halberdiers": 5, "orcs": 3}
