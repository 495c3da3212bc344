"""A status held while a condition holds: worked out from its condition whenever it is read
in a battle, as given without one; the reachability analysis reads its condition."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import ScriptedChance
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset
from rules_run.runtime.entities import Unit
from rules_run.runtime.reach import reach
from rules_run.runtime.specialise import battle_facts, specialised

RULES = '''ruleset kit "Held kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 0..10 @ L1
counter crowds of unit = 0 @ L1

action crowd(u: unit) @ L1
    return count(engaged_with(u))

status crowded while crowd(bearer) > 0 @ L1

action crowded_now(u: unit) @ L1
    return u is crowded

phase fight @ L1
    for each u in all_units():
        if crowded_now(u):
            add_counter(crowds, u, 1)
'''


@pytest.fixture
def kit(tmp_path: Path):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "kit.rules").write_text(RULES, encoding="utf-8")
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n", encoding="utf-8")
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def _units() -> list[Unit]:
    return [Unit("a", "Adepts", "A", {"W": 1}, 5), Unit("b", "Brutes", "B", {"W": 1}, 5)]


def test_without_a_battle_it_is_as_given(kit) -> None:
    u = Unit("u", "u", "side", {"W": 1}, 5)
    env = kit.env(ScriptedChance([]))
    assert kit.invoke("crowded_now", env, {"u": u}) is False
    u.statuses["crowded"] = None
    assert kit.invoke("crowded_now", env, {"u": u}) is True


def test_reach_reads_its_condition_and_never_folds_it(kit) -> None:
    found = reach(kit, battle_facts(kit, _units()))
    # never applied, yet not folded to false; what its condition calls is reached
    assert "crowded" not in found.unapplied
    assert "crowd" in found.reached and "crowds" not in found.unwritten
    fast = specialised(kit, battle_facts(kit, _units()))
    assert "_held_crowded" in fast.actions["crowded_now"].body.__rules_source__
