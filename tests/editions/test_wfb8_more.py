"""wfb8: challenges, combat reforms and redirected charges, fought with scripted dice and
exact outcomes (seed 000_c4300f58fce5f1da.txt L134, L444, L456-L462, L723, L779-L791)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from helpers.wfb8_world import one, pos

from rules_run.chance.source import ScriptedChance
from rules_run import open_battle
from rules_run.engine.driver import run_battle
from rules_run.engine.state import BattleState
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.events import Event


def padded(dice: dict) -> dict:
    """Each tagged roll goes on with 1s after its own faces; "*" serves the others."""
    out = {tag: list(faces) + [1] * 400 for tag, faces in dice.items()}
    out.setdefault("*", [1] * 2000)
    return out


class Arena:
    """A battle state in the empire's Close Combat phase, with scripted dice and orders."""

    def __init__(self, tmp_path: Path, units: list[dict], dice: dict,
                 orders: list[dict] | None = None, options: dict | None = None) -> None:
        doc = {"edition": "wfb8", "seed": 1, "units": units, "options": options or {}}
        path = tmp_path / "arena.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        _, runtime, battle = open_battle("wfb8", str(path))
        self.runtime = runtime
        self.state = BattleState(runtime, battle, [dict(o) for o in orders or []], {})
        self.state.round = 1
        self.state.active_side = "empire"
        self.events: list[Event] = []
        self.env = runtime.env(ScriptedChance(padded(dice)), battle.options, self.events,
                               self.state)
        self.get = {u.id: u for u in self.state.units}

    def call(self, name: str, **args: Any) -> Any:
        bound = {k: self.get.get(v, v) if isinstance(v, str) else v for k, v in args.items()}
        return self.runtime.invoke(name, self.env, bound)

    def engage(self, a: str, b: str) -> None:
        BUILTINS["engage"](self.state, self.env, None, self.get[a], self.get[b])

    def arc(self, a: str, b: str) -> str:
        """The arc of b that a is in."""
        return BUILTINS["arc"](self.state, self.env, None, self.get[a], self.get[b])

    def logs(self, message: str) -> list[list]:
        return [e.values for e in self.events
                if e.kind == "log" and e.message == message]

    def attacks(self, attacker: str) -> list[Event]:
        return [e for e in self.events if e.kind == "attacks" and e.attacker == attacker]


# ============================================================== challenges (L779-L791)


def two_blocks_and_characters() -> list[dict]:
    return [one("men", "empire", "empire/halberdier", pos(36, 20), models=20, files=5,
                command=["champion", "standard", "musician"]),
            one("general", "empire", "empire/general", pos(46, 20), values={"general": True}),
            one("orcs", "orcs", "orcs/orc_boy", pos(36, 30, 180), models=20, files=5,
                command=["champion", "standard", "musician"]),
            one("boss", "orcs", "orcs/orc_big_boss", pos(46, 30, 180))]


def test_a_challenge_between_characters_counts_overkill_up_to_three(tmp_path: Path) -> None:
    # L779: the empire, whose turn it is, issues first; the Big Boss is the only enemy
    # character in contact with the General, and a lone character cannot refuse (L785).
    # The General (A 8 here) strikes at I5: 8 hits, 8 wounds (5+ against T5), 8 failed saves
    # on a 2-Wound Boss: 2 Wounds kill him, 6 more are overkill, counted up to +3 (L444, L789).
    dice = {"to_hit": [6] * 8, "to_wound": [6] * 8}
    arena = Arena(tmp_path, two_blocks_and_characters(), dice)
    arena.engage("men", "orcs")
    arena.engage("general", "boss")
    arena.engage("boss", "men")
    arena.get["general"].profile["A"] = 8
    arena.call("fight_combat", a="men", b="orcs")
    assert arena.logs("issues a challenge") == [["general"]]
    assert arena.logs("accepts the challenge") == [["boss", "general"]]
    duel = arena.attacks("general")
    assert [(d.target, d.attacks, d.damage) for d in duel] == [("boss", 8, 8)]
    assert arena.logs("overkill") == [["general", 6, 3]]
    assert arena.state.counters[("wounds_caused", "general")] == 5
    assert arena.get["boss"].models == 0
    # the Boss never struck (slain at I5, before his I3), the challenge is over
    assert arena.attacks("boss") == []
    assert arena.logs("the challenge is over") == [["boss"], ["general"]]
    assert "duelling" not in arena.get["general"].statuses


def test_nobody_else_strikes_a_character_in_a_challenge(tmp_path: Path) -> None:
    # L787: the Halberdiers touch the Big Boss, but while he fights the General in a
    # challenge they strike the Orc Boyz instead; both characters survive (every blow
    # misses), so the challenge goes on into the next round (L791).
    arena = Arena(tmp_path, two_blocks_and_characters(), {})
    arena.engage("men", "boss")
    arena.engage("men", "orcs")
    arena.engage("general", "boss")
    arena.call("fight_combat", a="men", b="orcs")
    assert {d.target for d in arena.attacks("men")} == {"orcs"}
    assert {d.target for d in arena.attacks("boss")} == {"general"}
    assert {d.target for d in arena.attacks("general")} == {"boss"}
    assert "duelling" in arena.get["general"].statuses
    assert "duelling" in arena.get["boss"].statuses
    # next round: no new challenge is issued, the duel goes on
    arena.state.active_side = "orcs"
    for u in arena.state.units:
        u.statuses.pop("fought", None)
    arena.call("fight_combat", a="men", b="orcs")
    assert arena.logs("issues a challenge") == [["general"]]
    assert {d.target for d in arena.attacks("boss")} == {"general"}


def test_no_challenge_without_an_enemy_character_to_answer(tmp_path: Path) -> None:
    # L779: the General touches only the Orc Boyz, and the champions do not fight
    # challenges by default (the seed's challenges are between characters, L444).
    arena = Arena(tmp_path, two_blocks_and_characters(), {})
    arena.engage("men", "orcs")
    arena.engage("general", "orcs")
    arena.call("fight_combat", a="men", b="orcs")
    assert arena.logs("issues a challenge") == []


def champions() -> list[dict]:
    return [one("men", "empire", "empire/halberdier", pos(36, 20), models=20, files=5,
                command=["champion", "standard", "musician"]),
            one("orcs", "orcs", "orcs/orc_boy", pos(36, 30, 180), models=20, files=5,
                command=["champion", "standard", "musician"])]


def test_a_refused_challenge_keeps_the_refuser_out_of_the_fight(tmp_path: Path) -> None:
    # champions_challenge: the Sergeant challenges; the Orcs refuse; the empire names the
    # Boss, who retires and does not attack (L783): the Boyz strike with 5 front + 5
    # supporting Attacks, not 11.
    orders = [{"decision": "challenge", "choose": "men"},
              {"decision": "challenge_reply", "choose": "refuse"},
              {"decision": "retire_in_disgrace", "choose": "orcs"}]
    arena = Arena(tmp_path, champions(), {}, orders, {"champions_challenge": True})
    arena.engage("men", "orcs")
    arena.call("fight_combat", a="men", b="orcs")
    assert arena.logs("refuses the challenge") == [["orcs", "men"]]
    assert [d.attacks for d in arena.attacks("orcs")] == [10]
    assert [d.attacks for d in arena.attacks("men")] == [11]   # the Sergeant fights normally


def test_an_accepted_challenge_between_champions(tmp_path: Path) -> None:
    # champions_challenge: the Sergeant (A2, I3) and the Boss (A2, I2) fight each other;
    # their units fight on without them (L787): 5 x 1 + 5 - 1 = 9 Attacks each. The
    # Sergeant's 2 blows both wound the 1-Wound Boss: he falls, 1 Wound of overkill (L789).
    orders = [{"decision": "challenge", "choose": "men"}]
    dice = {"to_hit": [6, 6], "to_wound": [6, 6]}
    arena = Arena(tmp_path, champions(), dice, orders, {"champions_challenge": True})
    arena.engage("men", "orcs")
    arena.call("fight_combat", a="men", b="orcs")
    assert arena.logs("accepts the challenge") == [["orcs", "men"]]
    blows = [(d.target, d.attacks) for d in arena.attacks("men")]
    assert blows == [("orcs", 2), ("orcs", 9)]          # the Sergeant's duel, then the unit
    assert arena.logs("the champion falls") == [["orcs"]]
    assert arena.logs("overkill") == [["men", 1, 1]]
    assert arena.get["orcs"].models == 19
    assert "champion_slain" in arena.get["orcs"].statuses
    assert not arena.call("command_present", u="orcs", role="champion")
    assert [d.attacks for d in arena.attacks("orcs")] == [10]  # no Boss left to strike


def test_the_reference_duel_has_no_challenge_by_default() -> None:
    from rules_run.engine.stats import RunSpec, run_many, summarise

    battles = Path(__file__).resolve().parents[2] / "rulesets" / "wfb8" / "battles"
    stats = summarise(run_many(RunSpec("wfb8", str(battles / "duel.yaml"), {}, 1), 100))
    assert stats["outcomes"]["orcs"]["rate"] > stats["outcomes"]["empire"]["rate"]


# ============================================================== combat reforms (L456-L462)


def flank() -> list[dict]:
    # the Orc Boyz face west, on the Halberdiers' right flank
    return [one("men", "empire", "empire/halberdier", pos(36, 20), models=20, files=5,
                command=["champion", "standard", "musician"]),
            one("orcs", "orcs", "orcs/orc_boy", pos(50, 18, 270), models=10, files=5)]


def test_the_winner_turns_to_face_an_enemy_on_its_flank(tmp_path: Path) -> None:
    # L458: the Halberdiers strike first (I3) with 4 + 1 Attacks along their flank and slay
    # one Orc; the Orcs miss. 1 + 3 ranks + standard + outnumber = 6 against the flank's 1:
    # the Orcs hold their Break test on Ld 7 - 5 (a 2), and the winners, engaged on the
    # flank only, turn to face them: the Orcs are now in their front arc.
    dice = {"to_hit": [6, 1, 1, 1, 1], "to_wound": [6], "break_test": [1, 1]}
    arena = Arena(tmp_path, flank(), dice)
    arena.state.active_side = "orcs"
    arena.engage("orcs", "men")
    assert arena.arc("orcs", "men") == "flank"
    arena.call("fight_combat", a="orcs", b="men")
    assert arena.logs("holds") == [["orcs"]]
    assert arena.logs("turns to face") == [["men", "orcs"]]
    assert arena.arc("orcs", "men") == "front"
    assert 80 < arena.get["men"].pose.facing < 100                  # east, at the Orcs
    assert arena.logs("combat result") == [["orcs", 1, "men", 6]]


def test_a_loser_reforms_only_after_a_leadership_test(tmp_path: Path) -> None:
    # L460, L723: the Halberdiers miss; the Orcs slay one: 1 + flank 1 + a rank 1 = 3
    # against standard 1 + outnumber 1 (the Halberdiers are Disrupted, no ranks, L430). The
    # Halberdiers hold (a 2 on Ld 6) and want to turn; the reform test is on Ld 7 - 1; the
    # first fails (6 + 6), the champion's re-roll fails too: they cannot reform.
    dice = {"to_hit": [1] * 5 + [6], "to_wound": [6], "break_test": [1, 1],
            "reform_test": [6, 6, 6, 6]}
    arena = Arena(tmp_path, flank(), dice)
    arena.state.active_side = "orcs"
    arena.engage("orcs", "men")
    arena.call("fight_combat", a="orcs", b="men")
    assert arena.logs("combat result") == [["orcs", 3, "men", 2]]
    assert arena.logs("holds") == [["men"]]
    [test] = [e for e in arena.events if e.kind == "test" and e.rule == "reform_test"]
    assert (test.first_dice, test.dice, test.rerolled_by) == ([6, 6], [6, 6], ["reform_test"])
    assert arena.logs("cannot reform") == [["men"]]
    assert arena.logs("turns to face") == []


def test_a_loser_that_passes_its_reform_test_turns(tmp_path: Path) -> None:
    dice = {"to_hit": [1] * 5 + [6], "to_wound": [6], "break_test": [1, 1],
            "reform_test": [1, 1]}
    arena = Arena(tmp_path, flank(), dice)
    arena.state.active_side = "orcs"
    arena.engage("orcs", "men")
    arena.call("fight_combat", a="orcs", b="men")
    assert arena.logs("turns to face") == [["men", "orcs"]]


# ============================================================== redirected charges (L134)


def test_a_charge_redirects_when_its_target_flees(tmp_path: Path) -> None:
    # L134: the Boyz charge the Halberdiers, who flee; the charge is redirected to the
    # Spearmen, who hold, and reaches them (4 + 6 = 10").
    doc = {"edition": "wfb8", "seed": 1, "game": {"rounds": 1, "first": "orcs"},
           "units": [one("orcs", "orcs", "orcs/orc_boy", pos(36, 24), models=10, files=5),
                     one("men", "empire", "empire/halberdier", pos(36, 32, 180), models=10,
                         files=5),
                     one("spears", "empire", "empire/spearman", pos(46, 32, 180), models=10,
                         files=5)],
           "orders": [{"decision": "charge", "unit": "orcs", "choose": "men"},
                      {"decision": "charge_reaction", "unit": "men", "choose": "flee"},
                      {"decision": "redirect", "unit": "orcs", "choose": "spears"},
                      {"decision": "charge_reaction", "unit": "spears", "choose": "hold"}]}
    path = tmp_path / "redirect.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("wfb8", str(path))
    result = run_battle(runtime, battle,
                        scripted=padded({"charge_distance": [6, 6], "flee_distance": [3, 3]}))
    said = [e.values for e in result.events
            if e.kind == "log" and e.message == "redirects the charge"]
    assert said == [["orcs", "men", "spears"]]
    engaged = [(e.unit, e.target) for e in result.events if e.kind == "engage"]
    assert engaged[0] == ("orcs", "spears")


def test_a_charge_redirects_only_once_a_turn(tmp_path: Path) -> None:
    # L134: the second target flees too; the charge may go back to the first, never to a
    # third unit.
    doc = {"edition": "wfb8", "seed": 1, "game": {"rounds": 1, "first": "orcs"},
           "units": [one("orcs", "orcs", "orcs/orc_boy", pos(36, 24), models=10, files=5),
                     one("men", "empire", "empire/halberdier", pos(36, 32, 180), models=10,
                         files=5),
                     one("spears", "empire", "empire/spearman", pos(46, 32, 180), models=10,
                         files=5),
                     one("more", "empire", "empire/spearman", pos(26, 32, 180), models=10,
                         files=5)],
           "orders": [{"decision": "charge", "unit": "orcs", "choose": "men"},
                      {"decision": "charge_reaction", "unit": "men", "choose": "flee"},
                      {"decision": "redirect", "unit": "orcs", "choose": "spears"},
                      {"decision": "charge_reaction", "unit": "spears", "choose": "flee"},
                      {"decision": "charge_back", "unit": "orcs", "choose": "men"}]}
    path = tmp_path / "redirect2.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    _, runtime, battle = open_battle("wfb8", str(path))
    result = run_battle(runtime, battle,
                        scripted=padded({"charge_distance": [6, 6], "flee_distance": [1, 1]}))
    logs = [(e.message, e.values) for e in result.events if e.kind == "log"]
    assert ("charges back at", ["orcs", "men"]) in logs
    redirects = [e for e in result.events if e.kind == "decision"
                 and e.decision == "redirect"]
    assert len(redirects) == 1
