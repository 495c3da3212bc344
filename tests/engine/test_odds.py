"""Exact odds of the reference duels (issue acceptance values, computed by hand)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from rules_run import open_battle
from rules_run.diagnostics import InterpreterError, UsageError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.odds import attack_odds, compute_odds, plan_attacks


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


# ---------------------------------------------------------------- attack modes are data

FIXTURE = Path(__file__).resolve().parents[1] / "lang" / "fixtures" / "tiny"
TINY_MODE = ("  melee: {sequence: melee_attack, count: melee_attacks, attacker: attacker, "
             "target: target}\n")


def tiny_with(tmp_path: Path, attacks: str, rules: str = "") -> Path:
    """The tiny ruleset with its ``attacks:`` entries replaced (and rules added)."""
    folder = tmp_path / "tiny"
    shutil.copytree(FIXTURE, folder)
    index = folder / "index.yaml"
    index.write_text(index.read_text(encoding="utf-8").replace(TINY_MODE, attacks),
                     encoding="utf-8")
    if rules:
        core = folder / "core.rules"
        core.write_text(core.read_text(encoding="utf-8") + rules, encoding="utf-8")
    return folder


STRIKE = '''
sequence strike(striker: unit, victim: unit, bonus: int = 0)                  @ L418
    step hit: to_hit(striker, victim) stops on fail
    damage 1 + bonus

action blows(by: unit, at: unit)                                              @ L414
    return 2
'''


def test_a_mode_is_any_name_the_manifest_gives_with_its_own_parameters(tmp_path) -> None:
    folder = tiny_with(tmp_path, "  strike: {sequence: strike, count: blows, "
                       "attacker: [striker, by], target: [victim, at], set: [bonus]}\n", STRIKE)
    battle = open_battle(str(folder), str(folder / "battles" / "duel.yaml"))
    a, t = battle.battle.units[0].id, battle.battle.units[1].id
    plain = compute_odds(battle.runtime, battle.battle, a, t)
    assert [p.label for p in plain.plans] == ["strike"]
    assert plain.plans[0].attacks == 2
    bonus = compute_odds(battle.runtime, battle.battle, a, t, mode="strike",
                         settings={"bonus": 2})
    assert bonus.damage.mean() == 3 * plain.damage.mean()


@pytest.mark.parametrize(("mode", "settings", "message"), [
    ("strik", {}, "--mode strik: the ruleset 'tiny' declares no 'strik' attacks; "
                  "did you mean 'strike'?"),
    (None, {"bonu": 1}, "--set bonu: the strike attacks of 'tiny' have no parameter 'bonu' "
                        "to set; did you mean 'bonus'?"),
    (None, {"bonus": True}, "--set bonus=True: 'bonus' takes a value of type int, not True"),
])
def test_an_unknown_mode_or_setting_is_refused_with_a_hint(tmp_path, mode, settings,
                                                            message) -> None:
    folder = tiny_with(tmp_path, "  strike: {sequence: strike, count: blows, "
                       "attacker: [striker, by], target: [victim, at], set: [bonus]}\n", STRIKE)
    battle = open_battle(str(folder), str(folder / "battles" / "duel.yaml"))
    a, t = battle.battle.units[0].id, battle.battle.units[1].id
    with pytest.raises(UsageError) as err:
        compute_odds(battle.runtime, battle.battle, a, t, mode=mode, settings=settings)
    assert str(err.value) == "error: " + message


@pytest.mark.parametrize(("entry", "message"), [
    ("  strike: {sequence: strike, count: blows, attacker: [striker, bi], "
     "target: [victim, at]}\n",
     "index.yaml:14:64: error: attacks.strike.attacker names 'bi', which is not a parameter "
     "of 'strike' or 'blows'"),
    ("  strike: {sequence: strike, count: blows, attacker: striker, target: [victim, at]}\n",
     "index.yaml:14:11: error: action 'blows' needs 'by', which attacks.strike does not give"),
    ("  strike: {sequence: strike, attacker: striker, target: victim, set: [victim]}\n",
     "index.yaml:14:71: error: attacks.strike.set names 'victim', a parameter of type unit: "
     "a setting is of type bool, int, number, text"),
])
def test_a_mode_naming_parameters_wrongly_is_a_located_error(tmp_path, entry, message) -> None:
    folder = tiny_with(tmp_path, entry, STRIKE)
    with pytest.raises(InterpreterError) as err:
        load_ruleset(folder)
    assert message in str(err.value)
