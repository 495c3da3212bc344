"""Parts of a model (``part(u, "mount")``) and groups of a unit's models (``groups(u)``):
built from the unit data and the battle file, read by rules, and losing models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules_run import open_battle
from rules_run.diagnostics import InterpreterError
from rules_run.engine.driver import run_battle

RULES = '''ruleset mixed "Groups and parts kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, A, W as wounds, Sv: need range 0..10 @ L1
characteristics weapon: Attacks, Strength @ L1

rule "Bite" @ L1
    add 1 to S
rule "Drilled" @ L1
status spooked until end of phase @ L1

test save(g: any) @ L1
    dice D6
    need g.Sv

# every group's models with each weapon they carry, as "group: shots"
action volley(u: unit) @ L1
    return [[g.name, sum([g.models * w.Attacks for each w in weapons(g)])] for each g in groups(u)]

# wounds given to each group in turn, saved with the group's own save
action allocate(u: unit, wounds: int) @ L1
    let slain = 0
    for each g in groups(u):
        for each i in [1, 2]:
            if wounds > 0:
                wounds -= 1
                if not save(g):
                    slain += inflict(g, 1)
    return slain

phase report @ L1
    let u = unit_named("guard")
    let m = part(unit_named("riders"), "mount")
    log "volley", volley(u)
    log "mount", m.name, m.S, m.A, m.W, m has "Bite", unit_named("riders") has "Bite"
    log "parts", [p.id for each p in parts(unit_named("riders"))], part(u, "mount") == none
    log "drilled", [g has "Drilled" for each g in groups(u)]
    log "slain", allocate(u, 4), [g.models for each g in groups(u)], u.models
    log "more", inflict(u, 2), [g.models for each g in groups(u)], u.models
    apply(spooked, m)
    log "spooked", m is spooked, unit_named("riders") is spooked

# which group loses models first: the side decides, else the rifles
decision casualty_group(u: unit) options groups(u) @ L1
    default rifles

phase losses @ L1
    let u = unit_named("guard")
    log "lost", inflict(decide(casualty_group, u), 1), groups(u)[0], [g.models for each g in groups(u)]
    log "back", return_models(u, 4), [g.models for each g in groups(u)], u.models
    let m = part(unit_named("riders"), "mount")
    log "hooves", [[w.name, w.Attacks, w.owner == m] for each w in weapons(m)], count(weapons(unit_named("riders")))

phase later @ L1
    log "later", part(unit_named("riders"), "mount") is spooked

battle @ L1
    rounds 1
    round:
        for each s in sides():
            play_turn(s)
    turn:
        if active_side == "red":
            report()
            later()
        else:
            losses()
'''

UNITS = '''kind: units
cite: "L1"
units:
  guardsman:
    name: Guardsman
    cite: "L1"
    profile: {S: 3, A: 1, W: 1, Sv: 3}
    weapons:
      lasgun: {profile: {Attacks: 1, Strength: 3}}
      plasma: {profile: {Attacks: 2, Strength: 7}}
    groups:
      - {name: rifles, weapons: [lasgun]}
      - {name: plasma, models: 2, weapons: [plasma], profile: {Sv: 5}, rules: ["Drilled"]}
  rider:
    name: Rider
    cite: "L1"
    profile: {S: 3, A: 1, W: 1, Sv: 4}
    parts:
      rider: {name: Rider, profile: {S: 3, A: 1}}
      mount:
        name: Horse
        profile: {S: 3, A: 2}
        rules: ["Bite"]
        weapons: {hooves: {profile: {Attacks: 2, Strength: 3}}}
'''

BATTLE = '''edition: mixed
seed: 1
duel: {distance: 10}
units:
  - {id: guard, side: red, profile: guardsman/guardsman, models: 5}
  - {id: riders, side: blue, profile: guardsman/rider, models: 3}
'''


def kit(tmp_path: Path, rules: str = RULES, units: str = UNITS, battle: str = BATTLE) -> Any:
    """The kit ruleset (its rules and unit data) and a battle under it, opened."""
    folder = tmp_path / "mixed"
    folder.mkdir(exist_ok=True)
    (folder / "index.yaml").write_text(
        "kind: ruleset\nrules: [mixed.rules]\nunits: [units/guardsman.yaml]\n")
    (folder / "mixed.rules").write_text(rules)
    (folder / "units").mkdir(exist_ok=True)
    (folder / "units" / "guardsman.yaml").write_text(units)
    (tmp_path / "battle.yaml").write_text(battle)
    return open_battle(str(folder), str(tmp_path / "battle.yaml"))


def logs(tmp_path: Path, dice: list[int], battle: str = BATTLE) -> dict[str, list]:
    opened = kit(tmp_path, battle=battle)
    result = run_battle(opened.runtime, opened.battle, scripted=dice)
    return {e.message: e.values for e in result.events if e.kind == "log"}


def test_a_group_weapon_is_carried_by_its_group_s_models_only(tmp_path) -> None:
    # 3 rifles (the rest of 5) with a lasgun of 1 attack, 2 plasma gunners with 2 each
    assert logs(tmp_path, [6] * 4)["volley"] == [[["rifles", 3], ["plasma", 4]]]


def test_a_mixed_unit_saves_each_group_at_its_own_save(tmp_path) -> None:
    # two wounds on the rifles (Sv 3+): a 3 saves, a 2 does not; two on the plasma
    # gunners (Sv 5+): a 4 does not save, a 6 does. One model of each group is slain.
    seen = logs(tmp_path, [3, 2, 4, 6])
    assert seen["slain"] == [2, [2, 1], 3]


def test_a_unit_s_casualties_come_off_its_first_group_with_models(tmp_path) -> None:
    # after the saves (rifles 2, plasma 1): two more casualties take both rifles
    assert logs(tmp_path, [3, 2, 4, 6])["more"] == [2, [0, 1], 1]
    # all saved: the rifles (3) lose both
    assert logs(tmp_path, [6, 6, 6, 6])["more"] == [2, [1, 2], 3]


def test_a_group_carries_its_own_rules_and_reads_the_rest_of_its_unit(tmp_path) -> None:
    assert logs(tmp_path, [6] * 4)["drilled"] == [[False, True]]


def test_a_part_has_its_own_profile_and_rules(tmp_path) -> None:
    seen = logs(tmp_path, [6] * 4)
    # the horse's S3 with its own Bite (+1); its W is the unit's; the unit has no Bite
    assert seen["mount"] == ["Horse", 4, 2, 1, True, False]
    assert seen["parts"] == [["rider", "mount"], True]


def test_a_part_s_status_is_its_own_and_wears_off(tmp_path) -> None:
    opened = kit(tmp_path)
    result = run_battle(opened.runtime, opened.battle, scripted=[6] * 4)
    seen = {e.message: e.values for e in result.events if e.kind == "log"}
    assert (seen["spooked"], seen["later"]) == ([True, False], [False])
    assert [(e.unit, e.change) for e in result.events if e.kind == "status"] == [
        ("riders.mount", "gains")]
    assert [e.statuses for e in result.events if e.kind == "expire"] == [
        {"riders.mount": ["spooked"]}]


def test_which_group_loses_models_is_a_decision_with_a_default(tmp_path) -> None:
    # after the report (rifles 1, plasma 2 left with all saves passed): the default takes
    # a rifle; an order takes a plasma gunner
    assert logs(tmp_path, [6] * 4)["lost"] == [1, "guard.rifles", [0, 2]]
    ordered = BATTLE + ("orders:\n  - {side: red, unit: guard, decision: casualty_group, "
                        "choose: plasma}\n")
    assert logs(tmp_path, [6] * 4, ordered)["lost"] == [1, "guard.rifles", [1, 1]]


def test_models_that_come_back_fill_the_groups_in_data_order(tmp_path) -> None:
    # 2 of 5 left (rifles 0, plasma 2) after the default loss: 3 of the 4 come back (up to
    # the unit's 5), all to the rifles (their 3)
    assert logs(tmp_path, [6] * 4)["back"] == [3, [3, 2], 5]


def test_a_part_carries_weapons_of_its_own(tmp_path) -> None:
    assert logs(tmp_path, [6] * 4)["hooves"] == [[["hooves", 2, True]], 0]


def test_a_battle_file_gives_its_own_groups(tmp_path) -> None:
    battle = BATTLE.replace(
        "models: 5}", "models: 4, groups: [{name: a, models: 1, weapons: [plasma]}, "
                      "{name: b, models: 3, weapons: [lasgun, plasma]}]}")
    assert logs(tmp_path, [6] * 4, battle)["volley"] == [[["a", 2], ["b", 9]]]


def problems(tmp_path: Path, **files: str) -> str:
    with pytest.raises(InterpreterError) as err:
        kit(tmp_path, **files)
    return str(err.value)


def test_a_rule_naming_a_part_no_unit_has_is_a_located_error(tmp_path) -> None:
    text = problems(tmp_path, rules=RULES.replace('"mount")\n', '"mont")\n', 1))
    assert ('mixed.rules:32:40: error: no unit in the ruleset\'s data has a part \'mont\'\n'
            in text)
    assert "did you mean 'mount'?" in text


@pytest.mark.parametrize(("groups", "message"), [
    ("[{models: 2}, {models: 2}]",
     "battle.yaml:5:77: error: the groups' models add up to 4, the unit has 5"),
    ("[{models: 5, weapons: [lasgun]}, {weapons: [plasma]}]",
     "battle.yaml:5:77: error: the groups with a number have 5 models, leaving none of the "
     "unit's 5 to groups[1]"),
    ("[{weapons: [lasgun]}, {weapons: [plasma]}]",
     "battle.yaml:5:99: error: groups[1]: only one group may leave out its models "
     "(groups[0] takes the rest)"),
    ("[{models: 5, weapons: [lasgn]}]",
     "battle.yaml:5:100: error: groups[0]: the profile has no weapon 'lasgn'"),
    ("[{models: 5, profile: {Sx: 4}}]",
     "battle.yaml:5:100: error: groups[0]: unknown characteristic 'Sx'"),
])
def test_groups_that_do_not_fit_the_unit_are_located_errors(tmp_path, groups, message) -> None:
    battle = BATTLE.replace("models: 5}", f"models: 5, groups: {groups}}}")
    assert message in problems(tmp_path, battle=battle)


def test_a_profile_s_group_naming_a_weapon_it_lacks_is_a_located_error(tmp_path) -> None:
    text = problems(tmp_path, units=UNITS.replace("weapons: [plasma]", "weapons: [plasm]"))
    assert ("guardsman.yaml:13:45: error: groups[1]: the profile has no weapon 'plasm'"
            in text)
