"""Per-battle specialisation (issue #18, :mod:`rules_run.runtime.specialise`): the ruleset's
code compiled against what a battle fixes gives the same battles, byte for byte, as the
code for any battle (narrated, logged and statistics runs of every bundled battle); a
``has`` the facts decide is written as false and the branches it decides are left out.
Statistics runs (``run_many``) fight specialised unless ``RULES_RUN_SPECIALISE=0``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules_run import open_battle
from rules_run.chance import ScriptedChance, derive_seed
from rules_run.editions.loader import load_edition, load_ruleset
from rules_run.editions.registry import bundled_editions
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle
from rules_run.engine.narrate import Words, narrate
from rules_run.engine.setup import MAKES_BEARERS, specialised as for_the_battle
from rules_run.engine import stats
from rules_run.engine.stats import RunSpec, run_many
from rules_run.runtime import specialise
from rules_run.runtime.compiled import Runtime, compile_ruleset
from rules_run.runtime.entities import RuleInstance, Unit
from rules_run.runtime.specialise import (
    SWITCH,
    Facts,
    battle_facts,
    carries,
    for_battle,
    specialised,
)


def _battles():
    for edition in bundled_editions():
        for battle in load_edition(edition).battles:
            yield pytest.param(edition, battle, id=f"{edition}:{battle.name}")


def _fought(edition: str, battle: Path, specialise: bool) -> list[str]:
    """One narrated battle (its report and its log) and two statistics runs, as text."""
    ruleset, runtime, fight = open_battle(edition, str(battle))
    if specialise:
        base, runtime = runtime, for_the_battle(runtime, fight)
        # fought as it is when its rules can make a bearer (add_terrain: wfb3's fanatics)
        assert (runtime.facts is None) == bool(base.codegen.calls & MAKES_BEARERS)
    result = run_battle(runtime, fight, seed=fight.seed, keep_events=True)
    out = list(narrate(result.events, Words.of(ruleset, fight), decisions=True))
    out += [json.dumps(e.to_json(), sort_keys=True) for e in result.events or []]
    for i in range(2):
        quiet = run_battle(runtime, fight, seed=derive_seed(1, "run", i), keep_events=False)
        out.append(json.dumps(quiet.to_json(), sort_keys=True))
    return out


@pytest.mark.parametrize("edition,battle", list(_battles()))
def test_every_bundled_battle_is_the_same_specialised(edition, battle):
    assert _fought(edition, battle, True) == _fought(edition, battle, False)


def test_statistics_runs_are_specialised_and_the_same(monkeypatch):
    duel = "rulesets/wfb8/battles/duel.yaml"
    spec = RunSpec("wfb8", duel, {}, 1)
    opened = open_battle("wfb8", duel)
    made: list[Runtime] = []
    original = specialise.specialised

    def spied(runtime: Runtime, facts: Facts) -> Runtime:
        made.append(original(runtime, facts))
        return made[-1]

    monkeypatch.setattr(specialise, "specialised", spied)
    monkeypatch.setenv(SWITCH, "0")
    plain = run_many(spec, 6, opened=opened)
    assert made == []
    monkeypatch.setenv(SWITCH, "1")
    assert run_many(spec, 6, opened=opened) == plain
    assert made == []   # fewer runs than SPECIALISE_FROM: writing the code would not pay
    monkeypatch.setattr(stats, "SPECIALISE_FROM", 6)
    assert run_many(spec, 6, opened=opened) == plain
    # made once, and fought by every chunk of the batch
    assert made and all(m is made[0] for m in made) and made[0].facts is not None


RULES = '''ruleset kit "Specialisation kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds, A range 0..10 @ L1
rule "Brave" @ L1
rule "Timid" @ L1
    add 1 to A @ L1
rule "Hardy" @ L1
    add 2 to W @ L1
rule "Lucky" @ L1
rule "Heroic" @ L1
    grant "Lucky" @ L1
status emboldened @ L1
    grant "Heroic" @ L1

action courage(u: unit) @ L1
    if u has "Timid":
        return "timid"
    elif u has "Brave" and not (u has "Timid"):
        return "brave"
    elif u has "Lucky" or u has "Timid":
        return "lucky"
    return "plain"

action either(u: unit) @ L1
    return [if u has "Timid" then 1 else 2, u has "Timid" or u has "Brave", u has "Timid" and u has "Brave"]

action nothing(u: unit) @ L1
    if u has "Timid":
        log "timid", u

phase rally @ L1
    for each u in all_units() where value_of(u, "banner") != none:
        apply(emboldened, u)
'''


@pytest.fixture
def kit(tmp_path: Path):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "kit.rules").write_text(RULES, encoding="utf-8")
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n", encoding="utf-8")
    ruleset = load_ruleset(folder)
    runtime = compile_ruleset(ruleset, builtins=BUILTINS)
    brave = Unit("b", "Brave ones", "A", {"W": 1}, 5,
                 rules=[RuleInstance(ruleset.rules["Brave"], {}, "Brave")])
    plain = Unit("p", "Plain ones", "B", {"W": 1}, 5, rules=[])
    return runtime, [brave, plain]


def test_the_facts_are_what_the_battle_and_the_grants_can_carry(kit):
    runtime, units = kit
    facts = battle_facts(runtime, units)
    # Brave (carried), Lucky and Heroic (granted, whatever the condition), the status
    assert {"Brave", "Lucky", "Heroic", "emboldened"} <= facts.carried
    assert "Timid" not in facts.carried


def test_a_has_the_facts_decide_is_false_and_its_branch_is_left_out(kit):
    runtime, units = kit
    fast = specialised(runtime, battle_facts(runtime, units))
    assert specialised(runtime, battle_facts(runtime, units)) is fast   # made once
    source = fast.actions["courage"].body.__rules_source__
    assert "Timid" not in source and "'timid'" not in source
    assert "'brave'" in source and "Brave" in source
    assert "Timid" in runtime.actions["courage"].body.__rules_source__
    assert "Timid" not in fast.actions["either"].body.__rules_source__
    # a block left with nothing to do passes
    assert "pass" in fast.actions["nothing"].body.__rules_source__
    for unit in units:
        for name in ("courage", "either", "nothing"):
            plain_env, fast_env = (rt.env(ScriptedChance([]), events=[])
                                   for rt in (runtime, fast))
            assert (fast.invoke(name, fast_env, {"u": unit})
                    == runtime.invoke(name, plain_env, {"u": unit}))
            assert fast_env.events == plain_env.events


def test_a_characteristic_no_carried_rule_changes_is_read_without_the_rules(kit):
    runtime, units = kit
    assert runtime.char_effect_names == {"A", "W"}
    fast = specialised(runtime, battle_facts(runtime, units))
    assert fast.char_effect_names == set()   # nothing of the battle is Timid or Hardy
    timid = Unit("t", "Timid ones", "B", {"W": 1, "A": 1}, 5,
                 rules=[RuleInstance(runtime.ruleset.rules["Timid"], {}, "Timid")])
    slow = specialised(runtime, battle_facts(runtime, [units[0], timid]))
    assert slow.char_effect_names == {"A"}
    for rt in (runtime, slow):
        assert rt.characteristic(rt.env(ScriptedChance([])), timid, "A") == 2
        assert rt.characteristic(rt.env(ScriptedChance([])), timid, "W") == 1


def test_a_rule_only_a_status_never_applied_grants_is_never_carried(kit):
    runtime, units = kit
    given = {"emboldened", "Heroic", "Lucky"}   # the status grants Heroic, which grants Lucky
    assert given <= battle_facts(runtime, units).carried   # whatever the battle does
    fast = specialised(runtime, battle_facts(runtime, units))   # no banner: never applied
    assert fast.facts is not None and fast.facts.carried.isdisjoint(given)
    assert "Brave" in fast.facts.carried
    assert "Lucky" not in fast.actions["courage"].body.__rules_source__
    banner = Unit("f", "Flag", "B", {"W": 1, "A": 1}, 5, values={"banner": 1})
    slow = specialised(runtime, battle_facts(runtime, [units[0], banner]))
    assert slow.facts is not None and given <= slow.facts.carried
    assert "Lucky" in slow.actions["courage"].body.__rules_source__


def test_specialisation_is_off_with_the_switch(kit, monkeypatch):
    runtime, units = kit
    monkeypatch.setenv(SWITCH, "0")
    assert for_battle(runtime, units) is runtime
    monkeypatch.setenv(SWITCH, "1")
    fast = for_battle(runtime, units)
    assert fast is not runtime and fast.facts is not None
    assert for_battle(fast, units) is fast   # a specialised runtime is not specialised again


def test_a_rule_no_grant_gives_is_the_bearers_own_test(kit):
    runtime, _ = kit
    assert runtime.live_granting   # a status grants: 'has' may read live grants
    source = runtime.actions["courage"].body.__rules_source__
    assert ".has_rule('Brave')" in source   # no grant gives Brave: the plain test
    assert ".has_rule('Lucky')" not in source   # a grant gives Lucky: the runtime's test


def test_a_status_with_arguments_and_the_terrain_count_as_carried(kit):
    runtime, units = kit
    facts = battle_facts(runtime, units, ["Timid"])
    assert "Timid" in facts.carried
    assert carries(battle_facts(runtime, units), "emboldened(2)")
    assert not carries(battle_facts(runtime, units), "Timid")


def test_a_battle_is_specialised_to_its_terrain_too():
    _, runtime, fight = open_battle("wfb8", "rulesets/wfb8/battles/shooting.yaml")
    fast = for_the_battle(runtime, fight)
    assert fast.facts is not None and {"Soft Cover", "Obstacle"} <= fast.facts.carried
    assert for_the_battle(runtime, fight) is fast
