"""A test's own ``reroll passed|failed if COND``: exact odds, scripted dice, and a rule's
opposite re-roll cancelling it (000 L15)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.kit import kit_battle

from rules_run.chance import ScriptedChance, enumerate_exact
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.state import BattleState

RULES = '''ruleset rr "Own re-roll kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
status doubting @ L15
    reroll passed second_chance if unit == bearer
test second_chance(unit: unit, lucky: bool) @ L13
    dice D6
    need 4
    reroll failed if lucky
test steady(unit: unit, rerolled: bool = false) @ L13
    dice D6
    need 4
    reroll passed if rerolled
'''

BATTLE = '''edition: rr
seed: 1
game: {rounds: 1}
units:
  - {id: a, side: red, characteristics: {W: 1}, models: 1, position: {x: 10, y: 10, facing: 0}}
  - {id: b, side: blue, characteristics: {W: 1}, models: 1, position: {x: 10, y: 40, facing: 180}}
'''


def test_own_re_rolls_weigh_exactly_and_cancel_a_rule_s_opposite_one(tmp_path: Path) -> None:
    runtime, battle = kit_battle(tmp_path, "rr", RULES, BATTLE)
    state = BattleState(runtime, battle, [], {})
    a, b = state.units

    def passed(name: str, **args) -> Fraction:
        return enumerate_exact(lambda ch: runtime.invoke(
            name, runtime.env(ch, battle.options, [], state), dict(args)).passed).probability(True)

    assert passed("second_chance", unit=a, lucky=False) == Fraction(1, 2)
    assert passed("second_chance", unit=a, lucky=True) == Fraction(3, 4)     # 1/2 + 1/2 x 1/2
    assert passed("steady", unit=a, rerolled=True) == Fraction(1, 4)         # 1/2 x 1/2
    assert passed("steady", unit=a) == Fraction(1, 2)
    # a status's rule re-rolls b's passes: the two re-rolls cancel
    BUILTINS["apply"](state, runtime.env(None, battle.options, [], state), None, "doubting", b)
    assert passed("second_chance", unit=b, lucky=True) == Fraction(1, 2)
    # scripted: a 2 fails, its re-roll 5 passes
    events: list = []
    env = runtime.env(ScriptedChance({"second_chance": [2, 5]}), battle.options, events, state)
    assert runtime.invoke("second_chance", env, {"unit": a, "lucky": True}).passed
    assert [(e.dice, e.rerolled_by) for e in events if e.kind == "test"] == [
        ([5], ["second_chance"])]
