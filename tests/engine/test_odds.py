"""Exact odds of the reference duels (issue acceptance values, computed by hand)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_run import open_battle
from rules_run.engine.odds import attack_odds, plan_attacks


@pytest.fixture(scope="module")
def wfb8_duel():
    return open_battle("wfb8", "rulesets/wfb8/battles/duel.yaml")


def one_attack(context, attacker: str, target: str):
    _, runtime, battle = context
    a, t = battle.unit(attacker), battle.unit(target)
    (plan,) = plan_attacks(runtime, a, t, attacks=1)
    return attack_odds(runtime, plan, t)


def test_an_orc_attack_on_the_halberdiers_is_an_unsaved_wound_5_in_24(wfb8_duel) -> None:
    # WS3 v WS3 hits on 4+ (1/2); S3 v T3 wounds on 4+ (1/2); light armour 6+ fails 5/6.
    odds = one_attack(wfb8_duel, "orcs", "halberdiers")
    assert odds.damage.probability(1) == Fraction(5, 24)
    assert odds.damage.mean() == Fraction(5, 24)


def test_a_halberdier_attack_on_the_orcs_is_an_unsaved_wound_1_in_6(wfb8_duel) -> None:
    # Halberd S4 v T4 wounds on 4+; the Orcs' 4+ save worsened by S4 to 5+ fails 2/3.
    odds = one_attack(wfb8_duel, "halberdiers", "orcs")
    assert odds.damage.probability(1) == Fraction(1, 6)


def test_halberdiers_make_eleven_attacks_five_wide_with_a_champion(wfb8_duel) -> None:
    _, runtime, battle = wfb8_duel
    (plan,) = plan_attacks(runtime, battle.unit("halberdiers"), battle.unit("orcs"))
    assert plan.attacks == 11  # 5 front, 5 supporting (L536), +1 champion (L715)
    odds = attack_odds(runtime, plan, battle.unit("orcs"))
    assert odds.damage.mean() == Fraction(11, 6)
    assert odds.damage.probability(0) == Fraction(5, 6) ** 11
