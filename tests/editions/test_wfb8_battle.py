"""Whole wfb8 battles: the bundled battle files, scripted-dice battles with exact outcomes,
victory points and the breaking point (seed 000_c4300f58fce5f1da.txt)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers.wfb8_world import one, pos

from rules_run.chance import RandomChance
from rules_run import open_battle
from rules_run.editions.loader import load_ruleset
from rules_run.engine.driver import run_battle
from rules_run.engine.state import BattleState

ROOT = Path(__file__).resolve().parents[2]
BATTLES = ROOT / "rulesets" / "wfb8" / "battles"


def scripted(tmp_path: Path, base: str, dice: dict, **changes: Any):
    """A bundled battle with changes, fought with scripted dice by roll tag ("*": the rest)."""
    doc = yaml.safe_load((BATTLES / base).read_text(encoding="utf-8"))
    doc.update(changes)
    path = tmp_path / base
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("wfb8", str(path))
    # after its own dice, every tagged roll goes on with 1s, as the untagged ones do
    padded = {tag: list(faces) + ([1] * 200 if tag != "*" else []) for tag, faces in dice.items()}
    return run_battle(runtime, battle, scripted=padded)


def logs(result, message: str) -> list[list]:
    return [e.values for e in result.events if e.kind == "log" and e.message == message]


# ============================================================== the bundled battles


def test_the_default_battle_is_a_pitched_battle() -> None:
    ruleset = load_ruleset(ROOT / "rulesets" / "wfb8")
    assert Path(ruleset.default_battle).name == "battle.yaml"
    _, _, battle = open_battle("wfb8", None)
    sides = {s: [u for u in battle.units if u.side == s] for s in battle.sides}
    for units in sides.values():
        assert len(units) >= 5
        assert sum(u.values.get("general") is True for u in units) == 1
        assert any(u.values.get("wizard_level") for u in units)
    assert any(u.values.get("battle_standard") is True for u in sides["empire"])
    assert battle.doc.value["battlefield"]["terrain"]


@pytest.fixture(scope="module")
def pitched():
    _, runtime, battle = open_battle("wfb8", None)
    return run_battle(runtime, battle)


def test_the_pitched_battle_plays_six_turns_of_every_phase(pitched) -> None:
    events = pitched.events
    assert pitched.rounds == 6
    kinds = {e.kind for e in events}
    assert {"move", "engage", "attacks", "casualties", "decision", "score"} <= kinds
    phases = {e.phase for e in events if e.kind == "phase"}
    assert {"movement_phase", "charge_subphase", "remaining_moves", "magic_phase", "shooting_phase",
            "close_combat_phase"} <= phases
    assert any(e.kind == "move" and e.phase == "remaining_moves" for e in events)
    assert logs(pitched, "casts")                                     # magic
    assert logs(pitched, "spell takes effect")
    assert any(e.kind == "attacks" and e.sequence == "shooting_attack"
               and e.phase == "shooting_phase" for e in events)    # shooting
    assert any(e.kind == "attacks" and e.sequence == "melee_attack" for e in events)
    assert any(e.kind == "engage" and e.arc == "flank" for e in events)   # a flank charge
    assert logs(pitched, "combat result")


def test_the_pitched_battle_explains_itself_with_seed_lines() -> None:
    done = subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", "wfb8", "--explain"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    cited = [line for line in done.stdout.splitlines() if "[000_c4300f58fce5f1da.txt L" in line]
    assert len(cited) > 100
    assert any("Charge roll" in line and "L142-L150" in line for line in cited)
    assert any("Winds of Magic:" in line and "L240" in line for line in cited)
    assert "Winner:" in done.stdout


def test_the_pitched_battle_is_the_same_for_the_same_seed() -> None:
    _, runtime, battle = open_battle("wfb8", None)
    assert run_battle(runtime, battle, seed=3).events == run_battle(runtime, battle, seed=3).events


def test_every_bundled_battle_runs(tmp_path: Path) -> None:
    for name in ("duel.yaml", "shooting.yaml", "battle.yaml", "characters.yaml"):
        _, runtime, battle = open_battle("wfb8", str(BATTLES / name))
        result = run_battle(runtime, battle, seed=2, keep_events=False)
        assert result.rounds >= 1


# ============================================================== scripted battles


S_AND_S = {
    # the boars charge; the Handgunners Stand & Shoot: the Marksman (BS4) hits on 5+
    # (-1 Stand & Shoot, -1 soft cover behind the hedge), the others on 6+
    "to_hit_missile": [6, 6, 6, 1, 1, 1, 1, 1, 1, 1],
    "to_wound_missile": [6, 6, 6],
    "armour_save": [1, 1, 1],
    # three of five boars fall (60%): a Panic test, failed, and they flee 6"
    "panic_test": [6, 6],
    "flee_distance": [3, 3],
    "*": [1] * 400,
}


def test_stand_and_shoot_panics_the_boar_charge(tmp_path: Path) -> None:
    # L122-L124, L370, L378, L514, L719
    result = scripted(tmp_path, "shooting.yaml", S_AND_S, game={"rounds": 1, "first": "orcs"})
    reaction = [e for e in result.events
                if e.kind == "decision" and e.decision == "charge_reaction"]
    assert reaction[0].choice == "stand_and_shoot"
    volleys = [e for e in result.events if e.kind == "attacks" and e.target == "boar_boyz"]
    assert [v.attacks for v in volleys[:2]] == [1, 9]              # the Marksman, then the rest
    needs = [e.need for e in result.events
             if e.kind == "test" and e.rule == "to_hit_missile"][:10]
    assert needs == [5] + [6] * 9
    boars = next(u for u in result.units if u.id == "boar_boyz")
    assert boars.models == 2
    assert logs(result, "panics") == [["boar_boyz"]]
    assert not [e for e in result.events if e.kind == "engage" and e.unit == "boar_boyz"]


def test_a_boar_charge_that_connects_strikes_impact_hits(tmp_path: Path) -> None:
    # L144, L560-L562: the volley misses; 7 + 4 = 11 reaches the Handgunners 10.2" away;
    # five Impact Hits at the boars' Strength 3, then the blows.
    dice = {"to_hit_missile": [1] * 10, "charge_distance": [4, 4], "wound_at": [6, 6, 6, 6, 6],
            "armour_save": [1] * 40, "*": [1] * 400}
    result = scripted(tmp_path, "shooting.yaml", dice, game={"rounds": 1, "first": "orcs"})
    assert [e.arc for e in result.events if e.kind == "engage"][:1] == ["front"]
    assert logs(result, "impact hits") == [["boar_boyz", "handgunners", 5]]
    first = next(e for e in result.events
                 if e.kind == "attacks" and e.sequence == "strength_hit")
    assert first.damage == 5
    gunners = next(e for e in result.events
                   if e.kind == "casualties" and e.unit == "handgunners")
    assert gunners.slain == 5


# ============================================================== victory points and breaking point


def world(tmp_path: Path, units: list[dict], **extra: Any):
    """A battle state at the end of round 6, to run the scoring actions in."""
    doc = {"edition": "wfb8", "seed": 1, "units": units}
    doc.update(extra)
    path = tmp_path / "b.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("wfb8", str(path))
    state = BattleState(runtime, battle, [], {})
    state.round = 6
    events: list[dict] = []
    env = runtime.env(RandomChance(1), battle.options, events, state)
    get = {u.id: u for u in state.units}

    def call(name: str, **args: Any) -> Any:
        bound = {k: get.get(v, v) if isinstance(v, str) else v for k, v in args.items()}
        return runtime.invoke(name, env, bound)
    return runtime, state, env, get, call, events


def test_victory_points_by_category(tmp_path: Path) -> None:
    # L1113-L1125: the highest category a unit qualifies for, plus the bonuses.
    units = [one(f"u{i}", "empire", "empire/halberdier", pos(8 + 8 * i, 10), models=20, files=5,
                 points=100, command=["standard"]) for i in range(5)]
    units += [one("general", "empire", "empire/general", pos(60, 4), points=100,
                  values={"general": True}),
              one("captain", "empire", "empire/captain", pos(66, 4), points=80,
                  values={"battle_standard": True}),
              one("orcs", "orcs", "orcs/orc_boy", pos(36, 40, 180), models=20)]
    runtime, state, env, get, call, _ = world(tmp_path, units)
    get["u0"].models = 0                                  # destroyed: 100%
    get["u1"].models = 12
    get["u1"].statuses["fleeing"] = None                  # fleeing, more than half: 50%
    get["u2"].models = 10
    get["u2"].statuses["fleeing"] = None                  # fleeing, half or less: 75%
    get["u3"].models = 10                                 # half or less: 50%
    get["u3"].statuses["standard_taken"] = None           # +25 (L1125)
    get["general"].damage = 2                             # 2 of 3 Wounds lost: 50%
    get["captain"].models = 0
    get["captain"].statuses["standard_taken"] = None      # the battle standard: +100
    ids = ("u0", "u1", "u2", "u3", "u4", "general", "captain")
    values = {u: call("vp_value", u=u) + call("vp_bonus", u=u) for u in ids}
    assert values == {"u0": 100, "u1": 50, "u2": 75, "u3": 75, "u4": 0, "general": 50,
                      "captain": 180}
    get["general"].models = 0
    assert call("vp_bonus", u="general") == 100           # L1123


def test_the_breaking_point_ends_the_battle_and_decides_it(tmp_path: Path) -> None:
    # L1181-L1187: 1,500 points break at 2; a standard and the General make 3; the General
    # slain leaves 1: the army breaks, the battle ends and its enemy wins.
    units = [one("general", "empire", "empire/general", pos(36, 4), points=200,
                 values={"general": True}),
             one("men", "empire", "empire/halberdier", pos(36, 12), models=20, files=5,
                 points=1300, command=["standard"]),
             one("orcs", "orcs", "orcs/orc_boy", pos(36, 40, 180), models=20, files=5, points=500,
                 command=["standard"]),
             one("boss", "orcs", "orcs/orc_big_boss", pos(36, 46, 180), points=100,
                 values={"general": True})]
    options = {"breaking_point_rule": True}
    runtime, state, env, get, call, events = world(tmp_path, units, options=options)
    ended = lambda: runtime.compile_expr(runtime.battle_decl.end[-1], {})(env, {})
    assert call("fortitude", side="empire") == 3 and not ended()
    get["general"].models = 0
    assert call("army_broken", side="empire") and ended()
    # the victory points would make the empire the winner; the breaking point decides
    get["orcs"].models = 0
    call("score_battle")
    assert state.vp["empire"] > state.vp["orcs"]
    assert state.won == ("orcs", "the enemy army reached its breaking point")
    assert [(e.winner, e.reason) for e in events if e.kind == "win"] == [
        ("orcs", "the enemy army reached its breaking point")]


def test_the_reference_duel_still_favours_the_orcs() -> None:
    from rules_run.engine.stats import RunSpec, run_many, summarise

    stats = summarise(run_many(RunSpec("wfb8", str(BATTLES / "duel.yaml"), {}, 1), 200))
    assert stats["outcomes"]["orcs"]["rate"] > stats["outcomes"]["empire"]["rate"]


def test_an_option_outside_its_declared_range_is_refused(tmp_path: Path) -> None:
    from rules_run.diagnostics import DataError, UsageError

    duel = (BATTLES / "duel.yaml").read_text(encoding="utf-8")
    path = tmp_path / "duel.yaml"
    path.write_text(duel + "options: {game_points: 200000}\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        open_battle("wfb8", str(path))
    assert [d.message for d in err.value.diagnostics] == [
        "option 'game_points' takes values 0..100000; got 200000"]
    with pytest.raises(UsageError, match="takes values 0..100000; got -1"):
        open_battle("wfb8", str(BATTLES / "duel.yaml"), {"game_points": -1})
