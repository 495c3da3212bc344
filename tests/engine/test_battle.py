"""Battles run from the declared turn structure: determinism, scripted dice and orders, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_run import open_battle
from rules_run.diagnostics import BattleError, ChanceError
from rules_run.engine.driver import run_battle
from rules_run.engine.stats import RunSpec, run_many, summarise

ROOT = Path(__file__).resolve().parents[2]
DUEL = "rulesets/wfb8/battles/duel.yaml"
SCRIPTED = "tests/engine/battles/scripted_duel.yaml"


@pytest.fixture(scope="module")
def duel():
    return open_battle("wfb8", DUEL)


def test_the_duel_is_fought_to_the_end(duel) -> None:
    _, runtime, battle = duel
    result = run_battle(runtime, battle, seed=3)
    assert 1 <= result.rounds <= 6
    assert {u.id for u in result.units} == {"halberdiers", "orcs"}
    kinds = {e.kind for e in result.events}
    assert {"battle", "round", "turn", "phase", "decision", "test", "attacks",
            "result"} <= kinds
    assert result.winner in ("orcs", "empire", None)


def test_the_same_seed_gives_the_same_events_and_another_seed_does_not(duel) -> None:
    _, runtime, battle = duel
    a = run_battle(runtime, battle, seed=11).events
    b = run_battle(runtime, battle, seed=11).events
    c = run_battle(runtime, battle, seed=12).events
    assert a == b
    assert a != c


def _state(unit) -> tuple:
    return (unit.id, unit.models, dict(unit.statuses), unit.pose, list(unit.engaged),
            unit.on_table, unit.destroyed)


def test_a_battle_leaves_its_units_untouched(duel) -> None:
    _, runtime, battle = duel
    before = [_state(u) for u in battle.units]
    result = run_battle(runtime, battle, seed=5)
    assert any(u.models < u.starting_models for u in result.units)   # the copies did fight
    assert [_state(u) for u in battle.units] == before


def test_a_fresh_copy_keeps_its_place_but_is_in_no_combat_and_attached_to_nothing(duel
                                                                               ) -> None:
    _, _, battle = duel
    a, b = (u.fresh() for u in battle.units)
    a.engaged.append(b)
    a.leader = b
    b.followers.append(a)
    a.statuses["steady"] = None
    twin = a.fresh()
    assert (twin.engaged, twin.leader, twin.followers) == ([], None, [])
    assert a.engaged == [b] and a.leader is b
    twin.statuses["shaken"] = None
    assert a.statuses == {"steady": None}
    assert twin.pose == a.pose and twin.models == a.models


def _log(tmp_path: Path, name: str) -> bytes:
    out = tmp_path / name
    subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", "wfb8", DUEL,
                    "--seed", "9", "--log", str(out)], cwd=ROOT, check=True,
                   capture_output=True, env={"PYTHONHASHSEED": name[-1], "PATH": ""})
    return out.read_bytes()


def test_the_event_log_is_byte_identical_in_two_processes(tmp_path: Path) -> None:
    first, second = _log(tmp_path, "a1"), _log(tmp_path, "b2")
    assert first == second
    header = json.loads(first.splitlines()[0])
    assert header["log_version"] == 2 and header["seed"] == 9


def test_statistics_do_not_depend_on_the_number_of_workers() -> None:
    spec = RunSpec("wfb8", DUEL, {}, 1)
    assert run_many(spec, 60, workers=2) == run_many(spec, 60, workers=1)


def test_scripted_dice_decide_the_battle() -> None:
    _, runtime, battle = open_battle("wfb8", SCRIPTED)
    result = run_battle(runtime, battle)
    attacks = [e for e in result.events if e.kind == "attacks"]
    # 11 hits, 4 wounds, 2 unsaved (the 6s save); then the Orcs strike back and miss
    assert attacks[0].attacker == "halberdiers"
    assert attacks[0].steps[:3] == [["hit", 11, False], ["wound", 4, False],
                                       ["save", 2, True]]
    assert attacks[0].damage == 2
    assert attacks[1].damage == 0
    # caught by the pursuit: 2 Wounds per point of Unit Strength (20) destroy them (L470)
    assert result.winner == "empire"
    orcs = next(u for u in result.units if u.id == "orcs")
    assert orcs.status == "destroyed"
    # 130 for the Orcs destroyed, +25 for their standard bearer removed by the pursuit (L1125)
    assert result.victory_points == {"orcs": 0, "empire": 155}


def test_running_out_of_scripted_dice_names_the_roll(duel) -> None:
    _, runtime, battle = duel
    with pytest.raises(ChanceError, match="charge_distance"):
        run_battle(runtime, battle, scripted={"to_hit": [4]})


def test_a_scripted_order_overrides_the_policy(duel) -> None:
    _, runtime, battle = duel
    battle.doc.value.setdefault("orders", [])
    orders = [{"round": 1, "side": "orcs", "unit": "orcs", "decision": "charge",
               "choose": None}]
    import attrs

    doc = attrs.evolve(battle.doc, value=dict(battle.doc.value, orders=orders))
    result = run_battle(runtime, attrs.evolve(battle, doc=doc), seed=2)
    first = next(e for e in result.events if e.kind == "decision")
    assert first.decision == "charge" and first.choice is None
    assert first.why == "scripted order"


def test_statistics_runs_and_narrated_runs_agree(duel) -> None:
    """Statistics runs draw attacks from exact distributions; narrated runs roll every die.

    Both must give the same outcome distribution: the Orcs' win rate over 400 battles each
    agrees within 4 standard errors.
    """
    _, runtime, battle = duel
    n = 400
    fast = sum(run_battle(runtime, battle, seed=i, keep_events=False).winner == "orcs"
               for i in range(n))
    slow = sum(run_battle(runtime, battle, seed=10_000 + i, keep_events=True).winner == "orcs"
               for i in range(n))
    p = (fast + slow) / (2 * n)
    sigma = (2 * p * (1 - p) / n) ** 0.5
    assert abs(fast / n - slow / n) <= 4 * sigma


def test_the_orcs_win_the_reference_duel_more_often() -> None:
    stats = summarise(run_many(RunSpec("wfb8", DUEL, {}, 1), 300))
    assert stats["outcomes"]["orcs"]["rate"] > stats["outcomes"]["empire"]["rate"]
    assert stats["outcomes"]["orcs"]["low"] > stats["outcomes"]["empire"]["high"]


def test_a_ruleset_without_a_battle_declaration_cannot_run_battles(tmp_path: Path) -> None:
    from rules_run.runtime.compiled import Runtime

    _, runtime, battle = open_battle("wfb8", DUEL)

    class NoBattle(Runtime):
        def __init__(self, base):
            self.__dict__.update(base.__dict__)
            self.battle_decl = None

    with pytest.raises(BattleError, match="declares no 'battle'"):
        run_battle(NoBattle(runtime), battle)


def test_quiet_statuses_stay_in_the_event_log_but_not_in_the_narration(duel) -> None:
    from rules_run.engine.narrate import narrate

    _, runtime, battle = duel
    events = run_battle(runtime, battle, seed=3).events
    quiet = [e for e in events if e.kind == "status" and e.quiet]
    loud = [e for e in events if e.kind == "status" and not e.quiet]
    assert {e.status for e in quiet} >= {"fought"}          # `status fought ... quiet`
    assert {e.status for e in loud} >= {"charged"}
    text = "\n".join(narrate(events))
    assert "now fought" not in text and "now charged" in text


def test_the_narrated_log_hides_empty_phases_and_groups_like_rolls() -> None:
    from rules_run.engine.narrate import Words, narrate
    from rules_run.runtime.events import Phase, Roll, StraightMove, Turn

    def roll(die, units=("u",), need=None, result=None):
        return Roll(rule="power_die", units=list(units), dice=[die], natural=die, value=die,
                    modifiers=[], need=need, result=result, rerolled=False, marks=[],
                    cite="L1")

    events = [
        Turn(side="red"),
        Phase(phase="movement", within=None),
        Phase(phase="charges", within="movement"),                       # empty: hidden
        Phase(phase="moves", within="movement"),
        StraightMove(unit="u", inches=4, toward="v", placed={}),
        Phase(phase="magic", within=None),
        roll(3), roll(5), roll(1),
        roll(6, units=("w",)),                                             # another unit's
        roll(2, need=4, result="fail"),                                    # a test-like roll
        Phase(phase="shooting", within=None),                             # empty: hidden
        Turn(side="blue"),
        Phase(phase="movement", within=None),                             # empty: hidden
    ]
    words = Words({"names": {"power_die": "power dice"}}, {"u": "Swordsmen", "w": "Wolves",
                                                            "v": "Goblins", "red": "Red",
                                                            "blue": "Blue"})
    assert list(narrate(events, words)) == [
        "-- Turn of Red --",
        "  [Movement]",
        "  [Moves]",
        '    Swordsmen move 4" toward Goblins',
        "  [Magic]",
        "    Swordsmen: Power dice ×3: rolled 3, 5, 1",
        "    Wolves: Power dice: rolled 6",
        "    Swordsmen: Power dice: rolled 2, needing 4+ → fails",
        "-- Turn of Blue --",
    ]
    assert list(narrate(events[5:6] + [roll(4), roll(4)], words, explain=True)) == [
        "  [Magic]", "    Swordsmen: Power dice ×2: rolled 4, 4   [L1]"]


def test_the_narrated_log_tells_heals_returned_models_and_a_sides_decisions() -> None:
    from rules_run.engine.narrate import Words, narrate
    from rules_run.runtime.events import Decision, Heal, Returned, Score, Win

    events = [
        Heal(unit="u", points=2, wounds=3),
        Returned(unit="u", models=1, models_left=5, wounds=5, placed={}),
        Returned(unit="u", models=2, models_left=7, wounds=7, placed={}),
        Decision(decision="gambit", unit=None, side="red", options=["storm", "hold"],
                 choice="storm", why="default"),
        Score(side="red", points=0, total=5),                              # nothing scored
        Score(side="red", points=3, total=8),
        Win(winner="red", reason="the banner is taken"),
        Win(winner=None, reason="both armies broke"),
    ]
    words = Words({"decisions": {"gambit": "{side} pick the gambit {choice}"}},
                  {"u": "Swordsmen", "red": "Red"}, singular=["u"])
    assert list(narrate(events, words)) == [
        "    Swordsmen heals 2 damage",
        "    Swordsmen gets back 1 slain model (5 now)",
        "    Swordsmen gets back 2 slain models (7 now)",
        "    Red pick the gambit storm",
        "    Red score 3 (total 8)",
        "    Red win the battle: the banner is taken",
        "    the battle is a draw: both armies broke",
    ]
    assert list(narrate(events[3:4], words, decisions=True)) == [
        "    Red: gambit: storm (decided by default)"]


def test_default_workers_one_per_cpu_but_not_for_a_short_batch(monkeypatch) -> None:
    import os

    from rules_run.engine import stats

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert [stats.default_workers(n) for n in (1, 49, 50, 120, 399, 400, 10_000)] == [
        1, 1, 1, 2, 7, 8, 8]
