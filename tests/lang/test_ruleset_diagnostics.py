"""Diagnostics of a whole ruleset: each mistake reported once (a clause that several tests
share is not reported for each), and the mistakes of every file at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import load_ruleset
from rules_run.paths import RULESETS_DIR


def broken_copy(tmp_path: Path, name: str, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of bundled ruleset ``name`` under ``tmp_path`` with one text replaced (once)
    in each named file."""
    folder = tmp_path / name
    shutil.copytree(RULESETS_DIR / name, folder)
    for file, (old, new) in edits.items():
        text = (folder / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        (folder / file).write_text(text.replace(old, new), encoding="utf-8")
    return folder


def rendered(tmp_path: Path, folder: Path, monkeypatch) -> str:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InterpreterError) as caught:
        load_ruleset(folder.relative_to(tmp_path))
    return caught.value.render()


def test_a_mistake_in_a_reused_clause_is_reported_once(tmp_path, monkeypatch) -> None:
    # five tests reuse wfb3's `cool`: its broken clause is one mistake, not six
    folder = broken_copy(tmp_path, "wfb3", {
        "psychology.rules": ('result <= unit_value(unit, "Cl"', 'result <= unit_valu(unit, "Cl"'),
        "magic.rules": ("            cast_spell(w,", "            cast_spel(w,"),
    })
    assert rendered(tmp_path, folder, monkeypatch) == """\
wfb3/psychology.rules:94:23: error: unknown function 'unit_valu'
        pass if result <= unit_valu(unit, "Cl", use) - (if unit is unformed then 1 else 0)
                          ^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'unit_value', 'rout_value' or 'item_values'?
wfb3/magic.rules:175:13: error: unknown function 'cast_spel'
                cast_spel(w, choice, decide(spell_target, w, choice))
                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'cast_spell' or 'all_spells'?"""
