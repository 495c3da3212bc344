"""The aos4 family's battle (Age of Sigmar 4th edition, seed 002): rounds, phases, commands,
movement, shooting, charges, alternating combat, terrain and objectives, in all three
versions, and the season differences that change what happens.

``Lnnn`` is a line of ``../shared/seeds/002_71a3a79b74c3f40d.txt``; ``WE-nn`` a worked
example of the digest's §11.A. The small battles of the season differences are bundled in
``rulesets/aos4/battles/seasons/`` (each says what it shows); the worked examples build
theirs here. Checks on single rules run the ruleset's actions against a battle state
(``state_of``) instead of a whole battle.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.aos4_probe import Probe, battle_file

from rules_run import open_battle
from rules_run.engine.builtins import BUILTINS
from rules_run.engine.driver import run_battle
from rules_run.runtime.entities import Weapon

ROOT = Path(__file__).resolve().parents[2]
EDITIONS = ("aos4", "aos4-gh2025", "aos4-gh2026")
BATTLE = "rulesets/aos4/battles/battle.yaml"
DUEL = "rulesets/aos4/battles/duel.yaml"
SEASONS = "rulesets/aos4/battles/seasons"


# ============================================================== helpers


def fight(edition: str, path: str | Path, *, seed: int | None = None,
          options: dict[str, Any] | None = None, scripted: Any = None):
    """One battle under an edition, with every event kept."""
    _, runtime, battle = open_battle(edition, str(path), options)
    return run_battle(runtime, battle, seed=seed, scripted=scripted)


def logged(result, message: str) -> list[list[Any]]:
    """The values of every ``log`` line with that message, in order."""
    return [e.values for e in result.events if e.kind == "log" and e.message == message]


def volleys(result) -> list[tuple[str, str, str]]:
    """(attacker, target, sequence) of every volley of attacks, in order."""
    return [(e.attacker, e.target, e.sequence) for e in result.events
            if e.kind == "attacks"]


def units_of(result) -> dict[str, Any]:
    return {u.id: u for u in result.units}


def fighters_by_phase(result) -> list[list[str]]:
    """For each combat phase, the units that fought, in the order they fought."""
    phases: list[list[str]] = []
    for e in result.events:
        if e.kind == "phase" and e.phase == "combat_phase":
            phases.append([])
        elif e.kind == "status" and e.status == "fought" and e.change == "gains":
            phases[-1].append(e.unit)
    return phases


# ============================================================== the bundled battle


@pytest.mark.parametrize("edition", EDITIONS)
def test_each_version_plays_the_bundled_battle_to_the_end(edition: str) -> None:
    result = fight(edition, BATTLE)
    assert result.events[-1].kind == "result"
    assert result.rounds == 4 or "end condition" in result.reason
    assert result.winner in ("order", "chaos", None)
    assert set(result.victory_points) == {"order", "chaos"}


@pytest.mark.parametrize("edition", EDITIONS)
def test_rules_run_prints_the_winner_or_a_draw(edition: str) -> None:
    out = subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", edition],
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    assert "Battle under " + edition in out
    assert "Winner: " in out or "Result: a draw" in out


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_log_has_commands_shooting_charges_and_alternating_combat(edition: str) -> None:
    result = fight(edition, BATTLE)
    commands = {values[0] for values in logged(result, "command")}
    assert {"All-out Attack", "All-out Defence"} <= commands
    assert commands & {"Covering Fire", "At the Double", "Magical Intervention"}
    assert any(sequence == "volley" for _, _, sequence in volleys(result))
    assert logged(result, "the charge succeeds")
    sides = {u.id: u.side for u in result.units}
    alternating = [p for p in fighters_by_phase(result)
                   if any(sides[a] != sides[b] for a, b in zip(p, p[1:]))]
    assert alternating, "no combat phase where the sides took turns to fight"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_same_seed_gives_the_same_battle(edition: str) -> None:
    a = fight(edition, BATTLE, seed=21)
    b = fight(edition, BATTLE, seed=21)
    c = fight(edition, BATTLE, seed=22)
    assert a.events == b.events and a.victory_points == b.victory_points
    assert a.events != c.events


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_reference_duel_still_runs(edition: str) -> None:
    result = fight(edition, DUEL, seed=4)
    assert result.events[-1].kind == "result"
    assert {u.id for u in result.units} == {"liberators", "clanrats"}


def test_a_statistics_run_of_the_bundled_battle_finishes() -> None:
    _, runtime, battle = open_battle("aos4-gh2026", BATTLE)
    results = [run_battle(runtime, battle, seed=i, keep_events=False) for i in range(5)]
    assert all(r.winner in ("order", "chaos", None) for r in results)


# ============================================================== the battle round


ROUNDS = """
edition: aos4
game: {{rounds: 2, first: order}}
sides: [order, chaos]
policies: {{order: holding, chaos: holding}}
battlefield:
  objectives:
    - {{id: stone, at: {{x: 30, y: 10}}}}
units:
  - {{id: knight_questor, side: order, profile: order/knight_questor, models: 1,
     position: {{x: 10, y: 5}}}}
  - {{id: liberators, side: order, profile: order/liberators, models: 5, position: {{x: 30, y: 10}}}}
  - {{id: clanrats, side: chaos, profile: chaos/clanrats, models: 10, position: {{x: 30, y: 40, facing: 180}}}}
dice:
  priority_roll: {priority}
"""


def test_we13_a_tied_priority_roll_lets_last_rounds_first_player_decide(tmp_path: Path) -> None:
    # Round 2, priority roll 3 against 3; order took the first turn in round 1 (L39, L866).
    result = fight("aos4", battle_file(tmp_path, ROUNDS.format(priority="[3, 3]")))
    assert logged(result, "priority roll") == [["order", 3, "chaos", 3]]
    assert logged(result, "a tie: the player who took the first turn last round decides") == [
        ["order"]]
    # the player decides (a decision parameter typed side), not one of their units
    choice = [e for e in result.events if e.kind == "decision"
              and e.decision == "turn_choice"]
    assert [(c.side, c.unit, c.choice) for c in choice] == [("order", None, "first")]
    assert logged(result, "first turn") == [["order"], ["order"]]


def test_the_priority_winner_decides_who_goes_first(tmp_path: Path) -> None:
    result = fight("aos4", battle_file(tmp_path, ROUNDS.format(priority="[2, 5]")))
    assert logged(result, "priority roll") == [["order", 2, "chaos", 5]]
    assert logged(result, "first turn") == [["order"], ["chaos"]]
    turns = [e.side for e in result.events if e.kind == "turn"]
    assert turns == ["order", "chaos", "chaos", "order"]


def test_we14_we15_the_underdog_gets_an_extra_command_point(tmp_path: Path) -> None:
    # Round 1: 0 against 0 victory points, no underdog, 4 command points each (L142, L868).
    # The Liberators hold the objective and score 2 at the end of the order turn; in round 2
    # chaos has fewer victory points: the underdog, with 5 command points.
    result = fight("aos4", battle_file(tmp_path, ROUNDS.format(priority="[4, 2]")))
    assert logged(result, "command points") == [["order", 4, "chaos", 4],
                                                ["order", 4, "chaos", 5]]
    assert logged(result, "underdog") == [["chaos"]]
    assert logged(result, "gains control of")[0][:2] == ["order", "stone"]


def test_command_points_carry_over_only_with_the_option(tmp_path: Path) -> None:
    path = battle_file(tmp_path, ROUNDS.format(priority="[4, 2]"))
    result = fight("aos4", path, options={"cp_carry_over": True})
    # nobody spent any (the holding policy): 4 + 4 and 4 + 5
    assert logged(result, "command points")[1] == ["order", 8, "chaos", 9]


def test_we45_no_tactical_gambit_after_choosing_a_double_turn(tmp_path: Path) -> None:
    # Chaos went second in round 1, wins the priority roll and goes first in round 2: it
    # cannot use the Tactical Gambit that turn (L1529).
    result = fight("aos4", battle_file(tmp_path, ROUNDS.format(priority="[2, 5]")))
    assert logged(result, "takes the double turn") == [["chaos"]]
    assert logged(result, "no Tactical Gambit: went second last round and chose to go first") == [
        ["chaos"]]
    asked = [(e.round, e.side) for e in result.events
             if e.kind == "decision" and e.decision == "gambit"]
    assert (2, "chaos") not in asked and (2, "order") in asked


def test_we42_seizing_the_initiative_makes_the_opponent_the_underdog() -> None:
    # 2025-26: a player who takes the double turn while not behind by 11 or more victory
    # points makes the opponent the underdog (L406); behind by 11, the usual rule holds.
    for behind, dog in ((10, "order"), (11, "chaos")):
        probe = Probe("aos4-gh2025", BATTLE)
        BUILTINS["score_points"](probe.state, probe.env, None, "order", behind)
        probe("double_turn_taken", side="chaos")
        assert probe("underdog") == dog
    # the original rules have no such thing: the fewer victory points make the underdog
    probe = Probe("aos4", BATTLE)
    BUILTINS["score_points"](probe.state, probe.env, None, "order", 10)
    probe("double_turn_taken", side="chaos")
    assert probe("underdog") == "chaos"


# ============================================================== commands


def test_a_command_costs_one_point_and_is_used_once_per_phase_by_an_army() -> None:
    probe = Probe("aos4", BATTLE)
    probe.next_phase()
    probe.set_counter("command_points", "order", 4)
    assert probe("can_command", u="liberators", command="All-out Attack")
    probe("use_command", u="liberators", command="All-out Attack")
    assert BUILTINS["counter"](probe.state, probe.env, None, "command_points", "order") == 3
    assert not probe("can_command", u="liberators", command="All-out Attack")
    assert not probe("can_command", u="judicators", command="All-out Attack")  # the army's
    assert probe("can_command", u="judicators", command="All-out Defence")
    probe.state.phases += 1   # the next phase begins
    assert probe("can_command", u="liberators", command="All-out Attack")


def test_with_command_limit_unit_each_unit_may_use_a_command_once_per_phase() -> None:
    probe = Probe("aos4", BATTLE, options={"command_limit": "unit"})
    probe.next_phase()
    probe.set_counter("command_points", "order", 1)
    probe("use_command", u="liberators", command="Covering Fire")
    assert not probe("can_command", u="judicators", command="Covering Fire")  # no points left
    probe.set_counter("command_points", "order", 1)
    assert probe("can_command", u="judicators", command="Covering Fire")
    assert not probe("can_command", u="liberators", command="Covering Fire")  # Rules of One


def test_all_out_attack_and_defence_change_hit_and_save_rolls_for_one_attack() -> None:
    # All-out Attack: +1 to hit for that ATTACK ability, -1 to its own saves for the rest of
    # the turn (L769); All-out Defence: +1 to save until the ability is resolved (L1542).
    probe = Probe("aos4", BATTLE)
    lib, hounds = probe.unit["liberators"], probe.unit["warhounds"]
    BUILTINS["apply"](probe.state, probe.env, None, "all_out_attacking", lib)
    BUILTINS["apply"](probe.state, probe.env, None, "exposed", lib)
    BUILTINS["apply"](probe.state, probe.env, None, "all_out_defending", hounds)
    assert roll_modifiers(probe, "battle_hit_roll", attacker="liberators", target="warhounds",
                          shooting=False) == [(1, "all_out_attacking")]
    assert roll_modifiers(probe, "save_roll", target="warhounds", by="liberators") == [
        (1, "all_out_defending")]
    assert roll_modifiers(probe, "save_roll", target="liberators", by="warhounds") == [
        (-1, "exposed")]


def roll_modifiers(probe: Probe, roll: str, *, by: str | None = None,
                   **args: Any) -> list[tuple[int, str]]:
    """The rules' modifiers of one hit roll (``situation`` 0) or save roll against a weapon
    of ``attacker`` (or ``by``), as (amount, source)."""
    owner = args.get("attacker", by)
    w = probe("melee_weapons", u=owner)[0]
    extra = {"situation": 0} if roll == "battle_hit_roll" else {}
    before = len(probe.env.events)
    probe(roll, weapon=w, **args, **extra)
    (event,) = [e for e in probe.env.events[before:] if getattr(e, "rule", None) == roll]
    return [(m["amount"], m["source"]) for m in event.modifiers]


def test_at_the_double_replaces_the_run_roll_with_6() -> None:
    # L455: 6 instead of the run roll: no run roll is made; the unit moves Move + 6.
    probe = Probe("aos4", BATTLE, dice={})
    probe.next_phase()
    probe.set_counter("command_points", "order", 4)
    probe("run_move", u="knight_questor")
    assert ["At the Double", "knight_questor", "command points left", 3] in probe.logged(
        "command")
    moves = [e for e in probe.env.events if e.kind == "move"]
    assert moves and moves[0].inches <= 11
    assert not [e for e in probe.env.events if getattr(e, "rule", None) == "run_roll"]


def test_redeploy_moves_a_unit_d6_inches_in_the_enemy_movement_phase() -> None:
    orders = [{"decision": "redeploy", "choose": "liberators"}]
    probe = Probe("aos4", BATTLE, dice={"redeploy_roll": [4]}, active="chaos", orders=orders)
    probe.next_phase()
    probe.set_counter("command_points", "order", 4)
    probe("redeploy_step")
    assert ["Redeploy", "liberators", "command points left", 3] in probe.logged("command")
    move = [e for e in probe.env.events if e.kind == "move"][0]
    assert move.unit == "liberators" and move.toward == "west_stone"
    assert 0 < move.inches <= 4


RALLY = """
edition: aos4
units:
  - {{id: clanrats, side: chaos, profile: chaos/clanrats, models: {clanrats}, command: {command},
     position: {{x: 30, y: 30}}}}
  - {{id: liberators, side: order, profile: order/liberators, models: 5, position: {{x: 30, y: 5}}}}
"""


def rallied(tmp_path: Path, unit: str, damage: int, dice: list[int], *, clanrats: int = 10,
            command: str = "[champion]") -> Probe:
    """``unit`` takes ``damage`` points, then uses Rally with these rally rolls."""
    path = battle_file(tmp_path, RALLY.format(clanrats=clanrats, command=command))
    probe = Probe("aos4", path, dice={"rally_points": dice})
    probe.next_phase()
    u = probe.unit[unit]
    probe.set_counter("command_points", u.side, 1)
    probe("allocate_damage", u=unit, points=damage)
    probe("rally_unit", u=unit)
    return probe


@pytest.mark.parametrize("musician, rolls", [(False, 6), (True, 7)])
def test_we33_we34_rally_makes_six_rally_rolls_seven_with_a_musician(
        tmp_path: Path, musician: bool, rolls: int) -> None:
    # Six rally rolls, one point for each 4+ (L1155); a musician adds one (L1169).
    command = "[champion, musician]" if musician else "[champion]"
    probe = rallied(tmp_path, "clanrats", 5, [4, 5, 6, 1, 2, 3, 4][:rolls], command=command)
    made = [e for e in probe.env.events if getattr(e, "rule", None) == "rally_points"]
    assert [len(e.dice) for e in made] == [rolls]   # one roll of all the rally dice
    assert probe.logged("rally points") == [["clanrats", 4 if musician else 3]]
    # Health 1: each point returns a slain model (L1158)
    assert probe.unit["clanrats"].models == 5 + (4 if musician else 3)


def test_we33_rally_points_return_a_slain_model_and_heal(tmp_path: Path) -> None:
    # WE-33 (L1155-L1158): Liberators (Health 2) that started with 5 models have 4 and 1
    # damage point allocated; rally rolls 4,5,6,1,2,3 give 3 points: 2 return a model, set up
    # with no damage (L229), and 1 heals the damage point (Heal (1), L178): 5 models, 0 damage.
    probe = rallied(tmp_path, "liberators", 3, [4, 5, 6, 1, 2, 3])
    lib = probe.unit["liberators"]
    assert probe.logged("rally points") == [["liberators", 3]]
    assert [e.models for e in probe.events("returned", unit="liberators")] == [1]
    assert [e.points for e in probe.events("heal", unit="liberators")] == [1]
    assert (lib.models, lib.damage) == (5, 0)


@pytest.mark.parametrize("damage, dice, models, left", [
    (1, [4, 4, 1, 1, 1, 1], 5, 0),  # none slain: 2 points, 1 heals the point, 1 is wasted
    (4, [4, 1, 1, 1, 1, 1], 3, 0),  # 2 slain, none damaged: 1 point buys no model (Health 2)
    (5, [4, 4, 4, 1, 1, 1], 4, 0),  # 2 slain, 1 damage, 3 points: a model for 2, 1 heals
    (5, [4, 4, 1, 1, 1, 1], 4, 1),  # the same with 2 points: the model, the damage stays
])
def test_rally_points_buy_models_first_then_heal(
        tmp_path: Path, damage: int, dice: list[int], models: int, left: int) -> None:
    probe = rallied(tmp_path, "liberators", damage, dice)
    lib = probe.unit["liberators"]
    assert (lib.models, lib.damage) == (models, left)


def test_we35_rally_returns_no_model_beyond_the_units_own_size(tmp_path: Path) -> None:
    # WE-35 (FAQ L1184-L1185): a replacement unit set up with half of 10 Clanrats is a new
    # unit of 5; with 3 left, 6 rally points return 2 models, not 6.
    probe = rallied(tmp_path, "clanrats", 2, [4, 4, 4, 4, 4, 4], clanrats=5)
    assert probe.logged("rally points") == [["clanrats", 6]]
    assert [e.models for e in probe.events("returned", unit="clanrats")] == [2]
    assert probe.unit["clanrats"].models == 5


MAGIC = """
edition: aos4
game: {{rounds: 1, first: order}}
sides: [order, chaos]
policies: {{order: holding, chaos: holding}}
units:
  - {{id: knight_incantor, side: order, profile: order/knight_incantor, models: 1, position: {{x: 30, y: 5}}}}
  - {{id: liberators, side: order, profile: order/liberators, models: 5, position: {{x: 30, y: 9}}}}
  - {{id: grey_seer, side: chaos, profile: chaos/grey_seer, models: 1, position: {{x: 30, y: 30, facing: 180}}}}
  - {{id: clanrats, side: chaos, profile: chaos/clanrats, models: 10, position: {{x: 30, y: 26, facing: 180}}}}
orders:
{orders}
dice:
{dice}
"""


def magic(tmp_path: Path, orders: list[str], dice: dict[str, list[int]]):
    text = MAGIC.format(orders="\n".join(f"  - {o}" for o in orders),
                        dice="\n".join(f"  {k}: {v}" for k, v in dice.items()))
    return fight("aos4", battle_file(tmp_path, text))


SHIELD_ORDERS = ["{round: 1, side: order, decision: mystic_shield, choose: liberators}",
                 "{round: 1, side: chaos, decision: mystic_shield, choose: clanrats}",
                 "{round: 1, side: order, decision: unbind, choose: unbind}"]


def test_we22_we24_a_miscast_and_an_unbinding_roll_that_only_ties(tmp_path: Path) -> None:
    # Order: casting roll 1+1, a miscast: the spell fails and the WIZARD takes D3 mortal
    # damage (a scripted D3 is its value: 2) (L792). Chaos: casting roll 4+4 = 8 against 6; the Knight-
    # Incantor's unbinding roll 4+4 does not exceed 8 (L823): the Clanrats have WARD (6+).
    result = magic(tmp_path, SHIELD_ORDERS, {"casting_roll": [1, 1, 4, 4],
                                            "miscast_damage": [2], "unbinding_roll": [4, 4]})
    assert logged(result, "miscast") == [["knight_incantor"]]
    hurt = [e for e in result.events if e.kind == "casualties"]
    assert [(e.unit, e.damage) for e in hurt] == [("knight_incantor", 2)]
    assert logged(result, "Mystic Shield: WARD (6+) this turn") == [["clanrats"]]
    assert not logged(result, "the spell is unbound")


def test_we24_an_unbinding_roll_that_exceeds_the_casting_roll_unbinds(tmp_path: Path) -> None:
    result = magic(tmp_path, SHIELD_ORDERS, {"casting_roll": [2, 4, 4, 4],
                                            "unbinding_roll": [4, 5]})
    # order's 6 is cast (chaos has no unbind order: the holding policy lets it through)
    assert logged(result, "Mystic Shield: WARD (6+) this turn") == [["liberators"]]
    assert logged(result, "the spell is unbound") == [["knight_incantor", "grey_seer"]]


def test_we25_a_failed_casting_roll_allows_no_unbinding(tmp_path: Path) -> None:
    result = magic(tmp_path, SHIELD_ORDERS, {"casting_roll": [2, 3, 2, 3]})
    assert logged(result, "the spell fails") == [["knight_incantor"], ["grey_seer"]]
    assert not [e for e in result.events if e.kind == "decision" and e.decision == "unbind"]


def test_magical_intervention_casts_in_the_enemy_hero_phase_at_minus_1(tmp_path: Path) -> None:
    # L1295-L1299: in the order hero phase the Grey Seer casts, -1 to the casting roll: a 6
    # no longer reaches the casting value 6; a 7 does.
    orders = ["{round: 1, side: chaos, decision: magical_intervention, choose: grey_seer}",
              "{round: 1, side: chaos, decision: mystic_shield, choose: clanrats}"]
    for dice, cast in (([3, 3], False), ([3, 4], True)):
        result = magic(tmp_path, orders, {"casting_roll": dice})
        assert ["Magical Intervention", "grey_seer", "command points left", 3] in logged(
            result, "command")
        roll = [e for e in result.events if getattr(e, "rule", None) == "casting_roll"][0]
        assert roll.need == 7 and roll.round == 1 and roll.side == "order"
        assert bool(logged(result, "Mystic Shield: WARD (6+) this turn")) == cast


BANISH = """
edition: aos4
game: {{rounds: 1, first: order}}
sides: [order, chaos]
policies: {{order: holding, chaos: holding}}
units:
  - {{id: knight_incantor, side: order, profile: order/knight_incantor, models: 1,
     rules: ["WIZARD ({level})"], position: {{x: 30, y: 5}}}}
  - {{id: liberators, side: order, profile: order/liberators, models: 5, position: {{x: 30, y: 9}}}}
  - {{id: phantasm, side: chaos, profile: chaos/warp_phantasm, models: 1, values: {{banishment: 7}},
     position: {{x: 30, y: 30, facing: 180}}}}
orders:
  - {{round: 1, side: order, decision: mystic_shield, choose: liberators}}
"""


def banishing(tmp_path: Path, edition: str, level: int, casting: list[int], *,
              whole_phase: bool = True) -> Probe:
    """The order hero phase of BANISH: the Knight-Incantor, a WIZARD (level), casts Mystic
    Shield on the Liberators with that casting roll, then may banish the Warp Phantasm 25"
    away (banishment value 7) with a roll of 4 + 4. ``whole_phase=False`` runs the two
    abilities only, so the phase's statuses are still on when the test looks."""
    path = battle_file(tmp_path, BANISH.format(level=level), f"banish_{edition}_{level}.yaml")
    probe = Probe(edition, path, dice={"casting_roll": casting, "banishment_roll": [4, 4],
                                       "miscast_damage": [1], "*": [1]})
    if whole_phase:
        probe("hero_phase")
    else:
        probe.next_phase()
        probe("cast_mystic_shield", w="knight_incantor", penalty=0)
        probe("banish_manifestation", w="knight_incantor")
    return probe


def test_we07_a_wizard_2_casts_and_banishes_and_a_third_ability_is_refused(
        tmp_path: Path) -> None:
    # L1714 (the original module): a WIZARD (2) uses 1 SPELL and 1 BANISH in its hero phase;
    # its power level is then used up. Banishment: 8 against 7 (L1511).
    probe = banishing(tmp_path, "aos4", 2, [4, 4])
    assert probe.logged("Mystic Shield: WARD (6+) this turn") == [["liberators"]]
    assert probe.logged("banished") == [["phantasm"]]
    assert probe.unit["phantasm"].destroyed
    assert probe("magic_left", w="knight_incantor") == 0
    assert probe("may_use_magic", w="knight_incantor", kind="banish") is False


@pytest.mark.parametrize(("edition", "banished"), [
    ("aos4", False), ("aos4-gh2025", True), ("aos4-gh2026", True)])
def test_a_wizard_1_banishes_after_its_spell_only_from_2025_26(
        tmp_path: Path, edition: str, banished: bool) -> None:
    # L1714: the original power level counts SPELL and BANISH abilities together; from
    # 2025-26 a WIZARD's casting power level counts its spells only (L1475, L210)
    probe = banishing(tmp_path, edition, 1, [4, 4])
    assert probe.logged("Mystic Shield: WARD (6+) this turn") == [["liberators"]]
    assert bool(probe.logged("banished")) is banished


@pytest.mark.parametrize("edition", EDITIONS)
def test_we23_after_a_miscast_a_wizard_may_still_banish_but_cast_no_spell(
        tmp_path: Path, edition: str) -> None:
    # FAQ L1383-L1384: a WIZARD (2) miscasts (1 + 1, L792) and still banishes; it may use no
    # more spells that phase, though its power level has one ability left in the seasons
    probe = banishing(tmp_path, edition, 2, [1, 1], whole_phase=False)
    assert probe.logged("miscast") == [["knight_incantor"]]
    assert probe.logged("banished") == [["phantasm"]]
    assert probe("may_use_magic", w="knight_incantor", kind="spell") is False
    assert probe("magic_left", w="knight_incantor") == (0 if edition == "aos4" else 1)


def test_mystic_shield_gives_a_ward_of_6_for_the_turn() -> None:
    probe = Probe("aos4", BATTLE, dice={"battle_ward_roll": [6, 5]})
    lib = probe.unit["liberators"]
    assert probe.runtime.invoke("battle_ward_roll", probe.env, {"target": lib}).passed is False
    BUILTINS["apply"](probe.state, probe.env, None, "shielded", lib)
    assert probe.runtime.invoke("battle_ward_roll", probe.env, {"target": lib}).passed
    assert not probe.runtime.invoke("battle_ward_roll", probe.env, {"target": lib}).passed
    # a WARD (5+) is better than the shield's 6+: the lowest applies (L788)
    probe = Probe("aos4", BATTLE, dice={"battle_ward_roll": [5]})
    seer = probe.unit["grey_seer"]
    BUILTINS["apply"](probe.state, probe.env, None, "shielded", seer)
    assert probe.runtime.invoke("battle_ward_roll", probe.env, {"target": seer}).passed


# ============================================================== movement and charges


def two_units(tmp_path: Path, gap: float) -> Path:
    """Liberators (front edge at y = 10.79) and one Clanrat ``gap`` inches in front."""
    return battle_file(tmp_path, f"""
edition: aos4
units:
  - {{id: liberators, side: order, profile: order/liberators, models: 5, position: {{x: 30, y: 10}}}}
  - {{id: clanrat, side: chaos, profile: chaos/clanrats, models: 1,
     position: {{x: 30, y: {10.7874 + gap + 0.4921:.4f}, facing: 180}}}}
""", name=f"gap{gap}.yaml")


@pytest.mark.parametrize("gap, charges", [(8.4, True), (8.6, False)])
def test_we11_a_charge_roll_of_3_and_5_reaches_8_and_a_half_inches(
        tmp_path: Path, gap: float, charges: bool) -> None:
    # 2D6 summed (L849): 8; the unit must end within 1/2" of the enemy (L709), else it stays
    # where it is (L135).
    probe = Probe("aos4", two_units(tmp_path, gap), dice={"charge_roll": [3, 5]})
    assert abs(BUILTINS["distance"](probe.state, probe.env, None, probe.unit["liberators"],
                                       probe.unit["clanrat"]) - gap) < 1e-3
    probe("charge_at", u="liberators", t="clanrat")
    assert probe.unit["liberators"].statuses.get("charged") == ("turn" if charges else None)
    assert bool(probe.logged("the charge succeeds")) == charges
    assert bool([e for e in probe.env.events if e.kind == "move"]) is False


def test_a_normal_move_stops_outside_the_enemys_combat_range(tmp_path: Path) -> None:
    probe = Probe("aos4", two_units(tmp_path, 6.0))
    moved = probe("normal_move", u="liberators", allowance=5)
    assert moved == pytest.approx(2.9, abs=1e-3)
    assert not probe("in_combat", u="liberators")


def test_we21_retreating_3_inches_straight_away_leaves_combat(tmp_path: Path) -> None:
    # FAQ L613-L614: a model in base contact that retreats 3" directly away is not in combat.
    probe = Probe("aos4", two_units(tmp_path, 1.0))
    lib, rat = probe.unit["liberators"], probe.unit["clanrat"]
    BUILTINS["engage"](probe.state, probe.env, None, lib, rat)
    assert probe("in_combat", u="liberators")
    BUILTINS["move_away"](probe.state, probe.env, None, lib, rat, 3)
    assert BUILTINS["distance"](probe.state, probe.env, None, lib, rat) == pytest.approx(3)
    assert not probe("in_combat", u="liberators")


def test_a_retreat_costs_d3_mortal_damage(tmp_path: Path) -> None:
    probe = Probe("aos4", two_units(tmp_path, 1.0), dice={"retreat_damage": [3]})
    probe("retreat", u="liberators")
    hurt = [e for e in probe.env.events if e.kind == "casualties"]
    assert [(e.unit, e.damage, e.slain) for e in hurt] == [("liberators", 3, 1)]
    assert not probe("in_combat", u="liberators")


# ============================================================== shooting and Guarded Hero


def test_we46_a_guarded_infantry_hero_beyond_12_inches_cannot_be_shot() -> None:
    # The Grey Seer is 12.6" from the Judicators and within 3" of the Clanrats (L1125,
    # errata L1139-L1146); the -1 to hit stays for attacks that may target it (L1124, L1137).
    path = f"{SEASONS}/covering_fire_guarded.yaml"
    probe = Probe("aos4", path, active="order")
    assert probe("guarded", u="grey_seer")
    assert not probe("targetable", shooter="judicators", target="grey_seer")
    assert probe("targetable", shooter="judicators", target="clanrats")
    assert probe("guarded_modifier", target="grey_seer", shooting=True) == -1
    assert probe("guarded_modifier", target="grey_seer", shooting=False) == 0
    BUILTINS["destroy"](probe.state, probe.env, None, probe.unit["clanrats"])
    assert not probe("guarded", u="grey_seer")
    assert probe("targetable", shooter="judicators", target="grey_seer")


def test_a_unit_in_combat_cannot_shoot_without_shoot_in_combat(tmp_path: Path) -> None:
    path = battle_file(tmp_path, """
edition: aos4
units:
  - {id: judicators, side: order, profile: order/judicators, models: 5, position: {x: 30, y: 10}}
  - {id: clanrats, side: chaos, profile: chaos/clanrats, models: 5, position: {x: 30, y: 12.5, facing: 180}}
""")
    probe = Probe("aos4", path)
    assert probe("in_combat", u="judicators")
    assert probe("shooting_targets", u="judicators") == []


# ============================================================== terrain: the season differences


def test_cover_after_a_charge_differs_in_2026_27() -> None:
    # L485, L325: "unless the unit charged" (read as this battle round, the option's
    # default) against L151, L666: "charged this turn". The Liberators charged in the order
    # turn and are shot in the chaos turn with hit rolls of 3 against Hit 3+.
    path = f"{SEASONS}/cover_after_charge.yaml"
    outcome = {}
    for edition in EDITIONS:
        result = fight(edition, path)
        shots = [e for e in result.events if e.kind == "attacks"
                 and e.attacker == "judicators"][0]
        outcome[edition] = (shots.steps[0][1], units_of(result)["liberators"].models)
    assert outcome == {"aos4": (10, 0), "aos4-gh2025": (10, 0), "aos4-gh2026": (0, 5)}
    # the other reading of the bare "charged": this turn only, as 2026-27 words it
    turn = fight("aos4", path, options={"cover_after_charge": "turn"})
    assert units_of(turn)["liberators"].models == 5


def test_cover_behind_a_feature_differs_by_season() -> None:
    # L466, L1533 (any line from the attacking unit), L1260 (closest points, each attacking
    # model's combat range ignored), L132, L1002 (the attacking unit's combat range). The
    # Clanrats stand beyond a low ruin, not on it; every hit roll is a 3 (Hit 3+).
    path = f"{SEASONS}/behind_cover.yaml"
    outcome = {}
    for edition in EDITIONS:
        result = fight(edition, path)
        hits = {}
        for e in result.events:
            if e.kind == "attacks":
                hits.setdefault(e.attacker, []).append((e.attacks, e.steps[0][1]))
        outcome[edition] = (hits, units_of(result)["clanrats"].models)
    far = [(10, 0)]   # behind the ruin in every version: every shot at -1
    assert outcome == {
        "aos4": ({"far_judicators": far, "near_judicators": [(20, 20)]}, 0),
        "aos4-gh2025": ({"far_judicators": far, "near_judicators": [(10, 0), (10, 10)]}, 10),
        "aos4-gh2026": ({"far_judicators": far, "near_judicators": [(20, 20)]}, 0)}
    probe = Probe("aos4-gh2025", path)
    assert probe("cover_models", attacker="near_judicators", target="clanrats") == 5
    assert probe("cover_models", attacker="far_judicators", target="clanrats") == 5
    assert probe.state.builtin(probe.env, "models_wholly_on", [probe.unit["clanrats"], "ruin"],
                               None) == 0


def test_a_random_attacks_is_rolled_once_for_the_ability_and_split_by_models() -> None:
    # L215: a random Attacks is generated once per ATTACK ability. The near Judicators of
    # behind_cover.yaml (10 models, 5 of them hidden by the ruin in 2025-26) shoot with Attacks
    # D3; the one D3 rolls a 3 (3 attacks a model): 30 shots, the 15 of the hidden models at
    # -1. A second roll of the D3 would find no die in the script.
    probe = Probe("aos4-gh2025", f"{SEASONS}/behind_cover.yaml",
                  dice={"Attacks": [3], "battle_hit_roll": [3] * 30, "wound_roll": [1] * 15})
    unit = probe.unit["near_judicators"]
    bow = unit.weapons[0]
    unit.weapons = [Weapon(bow.name, {**bow.profile,
                                      **probe.runtime.profile_values({"Attacks": "D3"})},
                           bow.rules, unit)]
    probe("resolve_attacks", u="near_judicators", t="clanrats", ranged=True, covering=False)
    assert [(e.attacks, e.steps[0][1]) for e in probe.events("attacks")] == [(15, 0),
                                                                                (15, 15)]


def test_the_original_obscuring_hides_a_unit_behind_it(tmp_path: Path) -> None:
    # L538, L1533: behind or wholly on an Obscuring feature, a unit cannot be shot (original
    # rules); 2025-26 obscures only units within 1" of it (L377)
    path = battle_file(tmp_path, """
edition: aos4
game: {rounds: 1, first: order}
sides: [order, chaos]
battlefield:
  width: 60
  depth: 44
  terrain:
    - {id: wood, kind: wood, at: {x: 30, y: 28}, size: {w: 16, h: 4}, effects: [Obscuring]}
units:
  - {id: judicators, side: order, profile: order/judicators, models: 5, position: {x: 30, y: 15}}
  - {id: clanrats, side: chaos, profile: chaos/clanrats, models: 5, position: {x: 30, y: 34, facing: 180}}
  - {id: stormvermin, side: chaos, profile: chaos/stormvermin, models: 5, position: {x: 48, y: 34, facing: 180}}
""")
    probe = Probe("aos4", path, active="order")
    assert probe("shooting_blocked", shooter="judicators", target="clanrats")
    assert not probe("shooting_blocked", shooter="judicators", target="stormvermin")
    assert probe("shooting_targets", u="judicators") == [probe.unit["stormvermin"]]
    season = Probe("aos4-gh2025", path, active="order")
    assert not season("shooting_blocked", shooter="judicators", target="clanrats")


def test_cover_gives_minus_1_to_hit_to_a_unit_wholly_on_the_feature() -> None:
    # every attacking model's attacks get Cover's -1 (cover_models counts the models)
    probe = Probe("aos4", BATTLE)
    assert probe("cover_models", attacker="clanrats", target="judicators") == 20
    assert probe("cover_models", attacker="clanrats", target="liberators") == 0
    BUILTINS["apply"](probe.state, probe.env, None, "charged", probe.unit["judicators"])
    assert probe("cover_models", attacker="clanrats", target="judicators") == 0


def test_the_2026_27_wording_has_no_cover_option() -> None:
    from rules_run.diagnostics import UsageError
    with pytest.raises(UsageError, match="cover_after_charge"):
        open_battle("aos4-gh2026", BATTLE, {"cover_after_charge": "round"})


def test_obscuring_differs_in_each_version() -> None:
    # A WAR MACHINE within 1" of an Obscuring feature, not wholly on it, 16" from the
    # Judicators: L538 (original: only a unit wholly on or behind it is hidden), L377 (2025-
    # 26: obscured, seen only from its combat range, Range halved), L203, L670 (2026-27: not
    # a WAR MACHINE).
    path = f"{SEASONS}/obscuring.yaml"
    shots = {edition: set((a, t) for a, t, _ in volleys(fight(edition, path)))
             for edition in EDITIONS}
    both = {("judicators", "warp_cannon"), ("warp_cannon", "judicators")}
    assert shots == {"aos4": both, "aos4-gh2025": set(), "aos4-gh2026": both}


def test_wholly_on_an_obscuring_feature_hides_a_unit_in_the_original_rules(
        tmp_path: Path) -> None:
    text = (ROOT / SEASONS / "obscuring.yaml").read_text(encoding="utf-8")
    path = battle_file(tmp_path, text.replace("y: 32.9", "y: 36"))
    shots = {edition: {(a, t) for a, t, _ in volleys(fight(edition, path))}
             for edition in EDITIONS}
    assert ("judicators", "warp_cannon") not in shots["aos4"]
    assert ("judicators", "warp_cannon") not in shots["aos4-gh2025"]
    assert ("judicators", "warp_cannon") in shots["aos4-gh2026"]


def test_we48_obscuring_halves_the_range_rounding_down(tmp_path: Path) -> None:
    # Every model within 1" of the feature: 15" and 9" ranged weapons become 7" and 4"
    # (L671; fractions rounded down, L368); the original Obscuring changes no Range (L538).
    path = battle_file(tmp_path, """
edition: aos4
battlefield:
  terrain:
    - {id: wood, kind: wood, at: {x: 30, y: 14}, size: {w: 10, h: 4}, effects: [Obscuring]}
units:
  - {id: judicators, side: order, profile: order/judicators, models: 5, position: {x: 30, y: 10.5}}
  - {id: clanrats, side: chaos, profile: chaos/clanrats, models: 5, position: {x: 30, y: 40, facing: 180}}
""")
    guns = [Weapon("gun", {"Range": r, "Attacks": 1, "Hit": 4, "Wound": 4, "Rend": 0,
                           "Damage": 1}, []) for r in (15, 9)]
    for edition, ranges in (("aos4", [15, 9]), ("aos4-gh2025", [7, 4]),
                            ("aos4-gh2026", [7, 4])):
        probe = Probe(edition, path)
        assert [probe("weapon_range", u="judicators", w=g) for g in guns] == ranges, edition


def test_covering_fire_picks_a_different_target_in_each_version() -> None:
    # L486 (nearest enemy unit), L326 (nearest eligible), L152 (and never a manifestation).
    def target(edition: str, name: str, options: dict | None = None) -> list:
        result = fight(edition, f"{SEASONS}/{name}.yaml", options=options)
        return logged(result, "Covering Fire at the closest target")

    assert target("aos4", "covering_fire_guarded") == []
    assert target("aos4-gh2025", "covering_fire_guarded") == [["judicators", "clanrats"]]
    assert target("aos4-gh2026", "covering_fire_guarded") == [["judicators", "clanrats"]]
    assert target("aos4", "covering_fire_manifestation") == [["judicators", "phantasm"]]
    assert target("aos4-gh2025", "covering_fire_manifestation") == [["judicators", "phantasm"]]
    assert target("aos4-gh2026", "covering_fire_manifestation") == [["judicators", "clanrats"]]
    # every module copy words it as 2026-27 does (L760, L1044, L1267, L1546)
    module = {"covering_fire_by": "module"}
    assert target("aos4", "covering_fire_manifestation", module) == [["judicators", "clanrats"]]
    assert target("aos4", "covering_fire_guarded", module) == [["judicators", "clanrats"]]


def test_covering_fire_shoots_at_minus_1_to_hit() -> None:
    result = fight("aos4-gh2025", f"{SEASONS}/covering_fire_guarded.yaml")
    volley = [e for e in result.events if e.kind == "attacks"][0]
    assert volley.round == 1 and volley.side == "chaos"  # the enemy shooting phase
    hits = [e for e in result.events if getattr(e, "rule", None) == "battle_hit_roll"
            and e.seq < volley.seq]
    # +1 All-out Attack and -1 Covering Fire: the situation modifier is 0 (L761, L769)
    probe = Probe("aos4-gh2025", f"{SEASONS}/covering_fire_guarded.yaml")
    BUILTINS["apply"](probe.state, probe.env, None, "covering_volley", probe.unit["judicators"])
    assert roll_modifiers(probe, "battle_hit_roll", attacker="judicators", target="clanrats",
                          shooting=True) == [(-1, "covering_volley")]
    assert hits


# ============================================================== combat order


def test_strike_first_units_fight_first_and_strike_last_units_last() -> None:
    # L1198: STRIKE-FIRST units in combat fight before all others, even on the enemy's
    # turn; STRIKE-LAST units after every unit without it. The alternation then continues
    # (FAQ L1207-L1208): chaos did not pick the last non-STRIKE-LAST unit and picks first.
    result = fight("aos4", f"{SEASONS}/strike_order.yaml")
    first = fighters_by_phase(result)[0]
    assert first == ["warhounds", "knight_questor", "stormvermin", "liberators"]


def test_with_the_other_reading_the_active_player_picks_the_first_strike_last_unit() -> None:
    result = fight("aos4", f"{SEASONS}/strike_order.yaml",
                   options={"strike_last_opener": "active_player"})
    assert fighters_by_phase(result)[0] == ["warhounds", "knight_questor", "liberators",
                                            "stormvermin"]


PICKS = """
edition: aos4
game: {rounds: 1, first: order}
sides: [order, chaos]
policies: {order: holding, chaos: holding}
units:
  - {id: liberators, side: order, profile: order/liberators, models: 5, position: {x: 30, y: 20}}
  - {id: clanrats, side: chaos, profile: chaos/clanrats, models: 10, files: 5,
     position: {x: 24, y: 23, facing: 180}}
  - {id: stormvermin, side: chaos, profile: chaos/stormvermin, models: 10, files: 5,
     position: {x: 36, y: 23, facing: 180}}
orders:
  - {decision: fight_pick, side: chaos, choose: stormvermin}
"""


def test_the_non_active_player_picks_its_own_units_to_fight(tmp_path: Path) -> None:
    # L915: the players alternate picking a unit to fight, the active player first. Order
    # picks the Liberators (its only unit); then chaos picks which of its two units fights
    # next: the choice is chaos's (its orders and policy), not the active player's.
    result = fight("aos4", battle_file(tmp_path, PICKS))
    picks = [(e.side, e.choice) for e in result.events
             if e.kind == "decision" and e.decision == "fight_pick"]
    assert picks[0] == ("chaos", "stormvermin")
    assert fighters_by_phase(result)[0] == ["liberators", "stormvermin", "clanrats"]


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_combat_order_is_the_same_in_every_season(edition: str) -> None:
    result = fight(edition, f"{SEASONS}/strike_order.yaml")
    assert fighters_by_phase(result)[0][0] == "warhounds"


# ============================================================== reserves

RESERVES = "rulesets/aos4/battles/reserves.yaml"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_reserve_arrives_at_the_end_of_its_movement_phase_and_does_not_move(
        edition: str) -> None:
    # L227: set up off the battlefield, then on it at the time its ability names (here round
    # 2, the battle file's value); set up outside the deployment phase, it makes no move in
    # that movement phase (L236).
    result = fight(edition, RESERVES)
    waiting = [e.unit for e in result.events if e.kind == "set_aside"]
    assert waiting == ["dracothian_guard", "stormvermin"]
    (arrival,) = [e for e in result.events if e.kind == "arrive"]
    assert (arrival.unit, arrival.round, arrival.side, arrival.phase) == (
        "dracothian_guard", 2, "order", "movement_phase")
    moved = [e for e in result.events if e.kind == "move" and e.unit == "dracothian_guard"]
    assert moved and all(e.seq > arrival.seq and e.round > 2 for e in moved)


@pytest.mark.parametrize("edition", EDITIONS)
def test_we40_a_unit_still_in_reserve_at_the_start_of_round_4_is_destroyed(
        edition: str) -> None:
    # WE-40 (L1192): the chaos player keeps the Stormvermin back in rounds 2 and 3.
    result = fight(edition, RESERVES)
    (gone,) = [e for e in result.events if e.kind == "destroyed" and e.unit == "stormvermin"]
    first_turn = [e for e in result.events if e.kind == "turn" and e.round == 4][0]
    assert gone.round == 4 and gone.seq < first_turn.seq
    assert logged(result, "still in reserve at the start of the fourth battle round") == [
        ["stormvermin"]]
    assert units_of(result)["stormvermin"].models == 0


def test_a_side_with_a_unit_in_reserve_is_still_in_the_battle() -> None:
    probe = Probe("aos4", RESERVES, active="chaos")
    probe("place_reserves")
    for u in ("grey_seer", "clanrats"):
        BUILTINS["destroy"](probe.state, probe.env, None, probe.unit[u])
    assert probe("wiped_out", side="chaos") is False
    BUILTINS["destroy"](probe.state, probe.env, None, probe.unit["stormvermin"])
    assert probe("wiped_out", side="chaos") is True


def test_a_reserve_waits_until_its_round(tmp_path: Path) -> None:
    # From round 3 only: nothing arrives in rounds 1 and 2, the unit arrives in round 3, and
    # so is not destroyed in round 4.
    text = (ROOT / RESERVES).read_text(encoding="utf-8").replace(
        "reserve_arrival: 2}, position: {x: 8", "reserve_arrival: 3}, position: {x: 8").split(
        "orders:")[0]
    result = fight("aos4", battle_file(tmp_path, text))
    arrivals = {e.unit: e.round for e in result.events if e.kind == "arrive"}
    assert arrivals == {"dracothian_guard": 2, "stormvermin": 3}
    assert not logged(result, "still in reserve at the start of the fourth battle round")


# ============================================================== the attacks


def strike_once(probe: Probe, attacker: str, target: str, **named: Any) -> int:
    """One attack of the attacker's first melee weapon through the battle's ``strike``."""
    a = probe.unit[attacker]
    w = probe("melee_weapons", u=attacker)[0]
    return BUILTINS["fight"](probe.state, probe.env, None, "strike", a, probe.unit[target], 1, weapon=w,
                                **named)


def test_the_crit_abilities_act_in_the_battles_attacks() -> None:
    # Crit (2 Hits), L948: the Liberators' critical hit makes two wound rolls (6 and 1), one
    # save roll (1, failed): 1 damage point.
    probe = Probe("aos4", BATTLE, dice={"battle_hit_roll": [6], "wound_roll": [6, 1],
                                        "save_roll": [1]})
    assert strike_once(probe, "liberators", "clanrats") == 1
    # Crit (Mortal), L950: the Knight-Questor's critical hit inflicts its Damage 2 as mortal
    # damage at once, no wound or save roll; charging, with charge_bonus_on_mortal, still 2
    # (the Questor Sword has no Charge (+1 Damage)).
    for charging in (False, True):
        probe = Probe("aos4", BATTLE, dice={"battle_hit_roll": [6]})
        assert strike_once(probe, "knight_questor", "clanrats", charging=charging) == 2
        assert not [e for e in probe.env.events if getattr(e, "rule", None) == "wound_roll"]


@pytest.mark.parametrize("charging, damage", [(False, 2), (True, 3)])
def test_charge_plus_1_damage_reaches_the_battles_attacks(charging: bool, damage: int) -> None:
    # L470: the Dracothian Guard's Stormstrike Glaive (Damage 2) strikes for 3 after a charge.
    probe = Probe("aos4", BATTLE, dice={"battle_hit_roll": [4], "wound_roll": [4],
                                        "save_roll": [1]})
    assert strike_once(probe, "dracothian_guard", "clanrats", charging=charging) == damage


# ============================================================== objectives and victory points


CONTROL = """
edition: aos4
battlefield:
  objectives:
    - {id: stone, at: {x: 30, y: 22}}
units:
  - {id: rats_a, side: chaos, profile: chaos/clanrats, models: 10, files: 5,
     command: [standard_bearer], position: {x: 30, y: 24.5, facing: 180}}
  - {id: rats_b, side: order, profile: chaos/clanrats, models: 10, files: 5,
     position: {x: 30, y: 19.5}}
"""


def test_we36_a_control_score_counts_control_and_the_standard_bearer(tmp_path: Path) -> None:
    # 10 models with Control 1, all within 3" of the objective, with a standard bearer:
    # 11 (L1049, L1196).
    probe = Probe("aos4", battle_file(tmp_path, CONTROL), active="chaos")
    assert BUILTINS["models_within"](probe.state, probe.env, None, probe.unit["rats_a"], "stone",
                                        3.79) == 10
    assert probe("control_of", u="rats_a", o="stone") == 11
    assert probe("control_of", u="rats_b", o="stone") == 10
    assert BUILTINS["control_score"](probe.state, probe.env, None, "stone", "chaos", "Control", 3.79) == 10


def test_we37_control_stays_until_the_opponent_gains_it(tmp_path: Path) -> None:
    # 11 against 10: chaos gains control; then nobody contests: it stays chaos's (L1051).
    probe = Probe("aos4", battle_file(tmp_path, CONTROL), active="chaos")
    probe("determine_control")
    assert probe.logged("gains control of") == [["chaos", "stone", 11, 10]]
    assert BUILTINS["controller"](probe.state, probe.env, None, "stone") == "chaos"
    for unit in ("rats_a", "rats_b"):
        BUILTINS["destroy"](probe.state, probe.env, None, probe.unit[unit])
    probe("determine_control")
    assert BUILTINS["controller"](probe.state, probe.env, None, "stone") == "chaos"


def test_a_unit_contests_one_objective_only(tmp_path: Path) -> None:
    # L1059: a unit within range of two objectives counts for one (its player picks).
    path = battle_file(tmp_path, CONTROL.replace(
        "    - {id: stone, at: {x: 30, y: 22}}",
        "    - {id: stone, at: {x: 30, y: 22}}\n    - {id: well, at: {x: 31, y: 26}}"))
    probe = Probe("aos4", path, active="chaos")
    probe("pick_contests")
    assert probe("army_control", o="stone", side="chaos") == 11
    assert probe("army_control", o="well", side="chaos") == 0


def test_we43_a_completed_battle_tactic_scores_4() -> None:
    # Tactical Gambit, completed at the end of the turn: 4 victory points (L461, L1527).
    result = fight("aos4", f"{SEASONS}/cover_after_charge.yaml")
    assert logged(result, "Tactical Gambit")[0] == ["order", "Storm Forward"]
    assert logged(result, "battle tactic completed") == [["order", "Storm Forward"]]
    assert [(e.side, e.points) for e in result.events if e.kind == "score"] == [
        ("order", 4)]


def test_the_seasons_score_battle_tactics_from_a_card_in_order() -> None:
    # L300-L301: no Tactical Gambit; at most one tactic of the card per turn, in order.
    result = fight("aos4-gh2025", f"{SEASONS}/cover_after_charge.yaml")
    assert not logged(result, "Tactical Gambit")
    assert logged(result, "battle tactic completed") == [["order", "Storm Forward"]]


def test_objectives_score_at_the_end_of_the_turn_in_the_bundled_battle() -> None:
    result = fight("aos4", BATTLE)
    control = logged(result, "gains control of")
    assert control and {c[1] for c in control} <= {"west_stone", "east_stone"}
    assert any(e.kind == "score" and e.points % 2 == 0 for e in result.events)


def test_terrain_features_are_controlled_only_in_2026_27() -> None:
    # L146-L147: a unit may contest a terrain feature besides an objective.
    assert not logged(fight("aos4-gh2025", BATTLE), "terrain feature control")
    held = logged(fight("aos4-gh2026", BATTLE), "terrain feature control")
    assert ["ruins", "order"] in held


def test_move_to_never_comes_nearer_an_enemy_than_asked(tmp_path: Path) -> None:
    path = battle_file(tmp_path, """
edition: aos4
battlefield:
  objectives:
    - {id: stone, at: {x: 30, y: 20}}
units:
  - {id: liberators, side: order, profile: order/liberators, models: 5, position: {x: 30, y: 10}}
  - {id: clanrats, side: chaos, profile: chaos/clanrats, models: 5, position: {x: 30, y: 19, facing: 180}}
""")
    probe = Probe("aos4", path)
    moved = BUILTINS["move_to"](probe.state, probe.env, None, probe.unit["liberators"], "stone", 10, 3)
    gap = BUILTINS["distance"](probe.state, probe.env, None, probe.unit["liberators"],
                                  probe.unit["clanrats"])
    assert 0 < moved < 10 and 3 <= gap < 3.2


# ============================================================== the patches


def test_the_seasons_patch_the_battle_where_the_versions_differ() -> None:
    from rules_run.editions.loader import load_edition

    gh2026 = load_edition("aos4-gh2026")
    ops = {(patch, op.op, op.name) for patch, own in gh2026.patches for op in own}
    assert {("aos4-gh2025", "override", "obscured"),
            ("aos4-gh2025", "override", "weapon_range"),
            ("aos4-gh2025", "override", "covering_fire_target"),
            ("aos4-gh2025", "override", "underdog"),
            ("aos4-gh2025", "override", "complete_tactics"),
            ("aos4-gh2026", "override", "obscuring_exempt"),
            ("aos4-gh2026", "override", "loses_cover"),
            ("aos4-gh2026", "remove", "cover_after_charge"),
            ("aos4-gh2026", "override", "covering_fire_target"),
            ("aos4-gh2026", "override", "terrain_control")} <= ops
    for _, own in gh2026.patches:
        for op in own:
            assert op.cite is not None and op.cite.ranges, op.name
    assert gh2026.default_battle.name == "battle.yaml"


def test_a_place_the_battle_file_does_not_name_is_a_located_error(tmp_path: Path) -> None:
    from rules_run.diagnostics import BattleError

    probe = Probe("aos4", BATTLE)
    with pytest.raises(BattleError, match="no objective or terrain feature 'stones'"):
        BUILTINS["models_within"](probe.state, probe.env, None, probe.unit["liberators"], "stones", 3)
    with pytest.raises(BattleError, match="'Contrl' is not a characteristic"):
        BUILTINS["control_score"](probe.state, probe.env, None, "west_stone", "order", "Contrl", 3)
    assert BUILTINS["features"](probe.state, probe.env, None, "Obscuring") == ["warpwood"]
    assert BUILTINS["features"](probe.state, probe.env, None) == ["ruins", "warpwood"]
    assert BUILTINS["objectives"](probe.state, probe.env, None) == ["west_stone", "east_stone"]


def test_the_event_log_is_byte_identical_in_two_processes(tmp_path: Path) -> None:
    logs = []
    for hashseed in ("1", "2"):
        out = tmp_path / f"log{hashseed}.jsonl"
        subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", "aos4-gh2026",
                        "--seed", "9", "--log", str(out)], cwd=ROOT, check=True,
                       capture_output=True, env={"PYTHONHASHSEED": hashseed, "PATH": ""})
        logs.append(out.read_bytes())
    assert logs[0] == logs[1]


# ============================================================== visibility (reading 30)


def hidden_target(tmp_path: Path, *, screen: bool, wall: bool, clanrat_y: float = 22) -> Path:
    """Judicators (x 26.06..33.94, y 9.21..10.79) and one Clanrat facing them at x 30; between
    them, if asked, ten Liberators in one rank (x 22.1..37.9, wider than any line from the
    Judicators to the Clanrat can pass) and a 'Blocks Sight' wall (x 20..40, y 11.5..12.3)."""
    terrain = ("  terrain:\n    - {id: wall, kind: wall, at: {x: 30, y: 11.9}, "
               "size: {w: 20, h: 0.8}, effects: [\"Blocks Sight\"]}\n" if wall else "")
    screen_unit = ("  - {id: screen, side: order, profile: order/liberators, models: 10, files: 10,"
                   " position: {x: 30, y: 16}}\n" if screen else "")
    return battle_file(tmp_path, f"""
edition: aos4
battlefield:
  width: 60
  depth: 44
{terrain}units:
  - {{id: judicators, side: order, profile: order/judicators, models: 5, position: {{x: 30, y: 10}}}}
  - {{id: clanrat, side: chaos, profile: chaos/clanrats, models: 1,
     position: {{x: 30, y: {clanrat_y}, facing: 180}}}}
{screen_unit}""", name=f"hidden{screen}{wall}{clanrat_y}.yaml")


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_unit_hidden_behind_another_cannot_be_shot(tmp_path: Path, edition: str) -> None:
    # L689, L692: the target must be visible; a friendly unit blocks the line (L261, L676)
    path = hidden_target(tmp_path, screen=True, wall=False)
    probe = Probe(edition, path)
    assert not probe("sees", observer="judicators", target="clanrat")
    assert probe("shooting_targets", u="judicators") == []
    # with lines passing between other units' models, it can
    probe = Probe(edition, path, options={"units_block_sight": False})
    assert probe("shooting_targets", u="judicators") == [probe.unit["clanrat"]]
    # without the screen it can, and a terrain feature only blocks with "Blocks Sight"
    probe = Probe(edition, hidden_target(tmp_path, screen=False, wall=False))
    assert probe("shooting_targets", u="judicators") == [probe.unit["clanrat"]]
    probe = Probe(edition, hidden_target(tmp_path, screen=False, wall=True))
    assert probe("shooting_targets", u="judicators") == []


def test_a_hidden_unit_can_be_charged_unless_sight_is_asked_before_the_roll(
        tmp_path: Path) -> None:
    # FAQ L899-L900: visible where the charge finishes, which a charge in contact always is
    path = hidden_target(tmp_path, screen=True, wall=False)
    probe = Probe("aos4", path)
    assert probe("charge_targets", u="judicators") == [probe.unit["clanrat"]]
    probe = Probe("aos4", path, options={"charge_sight": "start"})
    assert probe("charge_targets", u="judicators") == []


def test_a_unit_is_in_combat_only_with_visible_enemies(tmp_path: Path) -> None:
    # the Clanrat 2" from the Judicators (L182: within 3" and visible); a 'Blocks Sight' wall
    # between them hides it, until they are in contact
    near = 10.7874 + 2 + 0.4921
    probe = Probe("aos4", hidden_target(tmp_path, screen=False, wall=False, clanrat_y=near))
    assert probe("in_combat", u="judicators")
    probe = Probe("aos4", hidden_target(tmp_path, screen=False, wall=True, clanrat_y=near))
    assert not probe("in_combat", u="judicators")
    assert probe("foes_in_combat", u="judicators") == []
    BUILTINS["engage"](probe.state, probe.env, None, probe.unit["clanrat"], probe.unit["judicators"])
    assert probe("in_combat", u="judicators")
    assert probe("foes_in_combat", u="judicators") == [probe.unit["clanrat"]]


def test_the_report_tells_a_rally_roll_by_its_faces_and_the_dice_that_count() -> None:
    # Rally (L1152-L1158): six dice, one rally point for each 4+; the report gives the faces
    # and how many show 4+, not a sum that is no sum ("5+1+1+1+5+2 = 2").
    from rules_run.engine.narrate import Words, narrate
    ruleset, runtime, battle = open_battle("aos4", BATTLE)
    result = run_battle(runtime, battle)
    lines = list(narrate(result.events or [], Words.of(ruleset, battle)))
    rallies = [line for line in lines if "rally: rolled" in line or "rallies: rolled" in line]
    assert rallies and all(line.endswith(" show 4+") or line.endswith(" shows 4+")
                           for line in rallies)
    assert "    Chaos Warhounds rally: rolled 5 1 1 1 5 2: 2 dice show 4+" in lines


def test_the_report_says_when_a_score_is_below_any_roll() -> None:
    # a Leadership-like test whose score a modifier took to 0: 2D6 never roll that low
    from rules_run.engine.narrate import Words, narrate
    from rules_run.runtime.events import Test
    event = Test(rule="break_test", units=["u"], dice=[3, 5], natural=8, modifiers=[],
                 need=None, value=8, result="fail", rerolled=False, marks=[],
                 target=["<=", 0])
    assert list(narrate([event], Words(None, {"u": "Clanrats"}))) == [
        "    Clanrats: Break test: rolled 3+5 = 8, needing 0 or less (no roll of 2 dice is "
        "that low) → fails"]
    reachable = Test(rule="break_test", units=["u"], dice=[3, 5], natural=8, modifiers=[],
                     need=None, value=8, result="fail", rerolled=False, marks=[],
                     target=["<=", 2])
    assert list(narrate([reachable], Words(None, {"u": "Clanrats"})))[0].endswith(
        "needing 2 or less → fails")
