"""Which actions roll nothing (``purity(..., dice=False)``): the combat kernel shares the calls
of those between the branches of a step, so one that does roll must never be counted."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.kit import kit_battle

from rules_run.engine.kernel import _pure_actions

RULES = '''ruleset pure "Purity kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
rule "Multiple Wounds" (value: dice) @ L1
rule "Ward Save" (value: need) @ L1
rule "Mixed" (first: int, second: dice) @ L1
action wounds_of(u: unit) @ L1
    return param(u, "Multiple Wounds")
action ward_of(u: unit) @ L1
    return param(u, "Ward Save")
action first_of(u: unit) @ L1
    return param(u, "Mixed", 0)
action second_of(u: unit) @ L1
    return param(u, "Mixed", 1)
action any_of(u: unit, n: int) @ L1
    return param(u, "Mixed", n)
action written(u: unit) @ L1
    return D3 + u.W
action given(u: unit, d: dice) @ L1
    return d
action through(u: unit) @ L1
    return wounds_of(u) + 1
action steady(u: unit) @ L1
    return u.W + 1
battle @ L1
    rounds 1
    round:
        play_turn(active_side)
    turn:
        pass
    score:
        pass
'''

BATTLE = '''edition: pure
seed: 1
game: {rounds: 1, first: red}
units:
  - {id: r1, side: red, characteristics: {W: 1}, models: 5, position: {x: 10, y: 10}}
  - {id: b1, side: blue, characteristics: {W: 1}, models: 5, position: {x: 10, y: 40}}
'''


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    runtime, _ = kit_battle(Path(tmp_path_factory.mktemp("pure")), "pure", RULES, BATTLE)
    return set(_pure_actions(runtime))


def test_reading_a_rule_argument_that_is_dice_rolls(shared: set[str]) -> None:
    # a rule argument declared dice is rolled as it is read; a score, or a whole number, is not
    assert "wounds_of" not in shared and "through" not in shared
    assert {"ward_of", "first_of"} <= shared
    assert "second_of" not in shared
    # an argument picked by a worked-out index may be the dice one
    assert "any_of" not in shared


def test_dice_written_or_passed_in_roll(shared: set[str]) -> None:
    assert "written" not in shared and "given" not in shared
    assert "steady" in shared
