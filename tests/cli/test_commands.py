"""The commands as a user meets them: installed scripts, --help, exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
COMMANDS = ["rules-run", "rules-check", "rules-odds", "rules-replay", "rules-lsp"]


def script(name: str) -> Path:
    path = BIN / name
    if not path.exists():
        pytest.skip(f"{name} is not installed next to {sys.executable}")
    return path


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help(name: str, tmp_path: Path) -> None:
    done = subprocess.run([script(name), "--help"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0
    assert "usage:" in done.stdout and "examples:" in done.stdout


def test_the_installed_package_runs_a_bundled_battle_from_an_empty_folder(tmp_path: Path) -> None:
    done = subprocess.run([script("rules-run"), "--edition", "wfb8", "--seed", "3", "--json"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["edition"] == "wfb8" and result["rounds"] >= 1
    assert "winner" in result


@pytest.mark.parametrize(("args", "message"), [
    (["rules-run", "--edition", "wfb9"], "unknown edition 'wfb9'"),
    (["rules-run", "-e", "wfb8", "no-such-battle.yaml"], "no-such-battle.yaml"),
    (["rules-run", "-e", "wfb8", "--option", "charge_rol=sum"], "did you mean 'charge_roll'?"),
    (["rules-odds", "-e", "wfb8", "rulesets/wfb8/battles/duel.yaml", "--attacker", "orc",
      "--target", "halberdiers"], "did you mean 'orcs'?"),
    (["rules-odds", "-e", "aos4", "rulesets/aos4/battles/battle.yaml", "--attacker",
      "liberators", "--target", "grey_seer", "--mode", "shooting"],
     "'liberators' makes no shooting"),
    (["rules-check", "no-such-folder"], "no such file or folder"),
    (["rules-replay", "no-such-log.jsonl", "-o", "x.html"],
     "cannot read the event log no-such-log.jsonl"),
])
def test_mistakes_give_a_message_and_exit_1_never_a_traceback(args, message, tmp_path) -> None:
    done = subprocess.run([script(args[0]), *args[1:]], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_rules_check_shows_warnings_and_still_exits_0(capsys: pytest.CaptureFixture) -> None:
    from rules_run.cli.check import main

    case = ROOT / "tests" / "lang" / "broken" / "unused-but-for-an-unused-action" / "tiny"
    assert main([str(case)]) == 0
    err = capsys.readouterr().err
    assert "core.rules:22:1: warning: roll 'pursuit_roll' is declared but never used" in err
    assert err.endswith("2 warnings\n")
    assert main([str(case), "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert result["ok"] and [w["code"] for w in result["warnings"]] == ["unused", "unused"]


ENDLESS = """ruleset endless "A turn that plays a turn"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
battle @ L1
    rounds 1
    round:
        play_turn(active_side)
    turn:
        play_turn(active_side)
    score:
        pass
"""


def test_rules_calling_each_other_without_end_give_a_message_not_a_traceback(
        tmp_path: Path) -> None:
    # no action, roll or trigger is in the loop to name: the message says what happened
    folder = tmp_path / "endless"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [endless.rules]\n")
    (folder / "endless.rules").write_text(ENDLESS)
    (tmp_path / "battle.yaml").write_text(
        "edition: endless\nduel: {distance: 10}\nunits:\n"
        "  - {id: a, side: red, characteristics: {W: 1}, models: 5}\n"
        "  - {id: b, side: blue, characteristics: {W: 1}, models: 5}\n")
    done = subprocess.run([script("rules-run"), "--edition", "./endless", "battle.yaml"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (
        1, "error: the rules call each other without end, deeper than can be run\n")


def test_runs_of_a_battle_whose_edition_is_a_patch_folder(capsys: pytest.CaptureFixture) -> None:
    # the battle names its edition by folder; --runs used to look that folder's id up as a
    # bundled edition and fail
    from rules_run.cli.run import main

    battle = ROOT / "rulesets" / "examples" / "wfb8-house-rules" / "battles" / "shield_wall.yaml"
    assert main([str(battle), "--runs", "3", "--workers", "1", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["edition"] == "wfb8-house-rules"
    assert sum(o["count"] for o in stats["outcomes"].values()) == 3


def test_an_attack_mode_may_be_given_as_a_flag(capsys: pytest.CaptureFixture) -> None:
    # --shooting is --mode shooting (the 40k5 issue's command); a near miss of an option is an
    # unrecognised argument with a did-you-mean, a mode the ruleset lacks its own error
    from rules_run.cli.odds import main as odds_main
    duel = str(Path(__file__).resolve().parents[2] / "rulesets/40k5/battles/duel.yaml")
    base = ["-e", "40k5", duel, "--target", "boyz", "--json"]
    assert odds_main([*base, "--attacker", "marines", "--mode", "shooting"]) == 0
    by_mode = capsys.readouterr().out
    assert odds_main([*base, "--attacker", "marines", "--shooting"]) == 0
    assert capsys.readouterr().out == by_mode
    assert odds_main([*base, "--attacker", "marines", "--shootin"]) == 1
    assert capsys.readouterr().err.strip() == ("error: --mode shootin: the ruleset '40k5' declares "
                                              "no 'shootin' attacks; did you mean 'shooting'?")
    with pytest.raises(SystemExit):
        odds_main([*base, "--atacker", "marines"])
    assert capsys.readouterr().err.strip().endswith(
        "error: unrecognized arguments: --atacker marines; did you mean --attacker?")
    with pytest.raises(SystemExit):
        odds_main([*base, "--attacker", "marines", "--melee", "--mode", "shooting"])
    assert "--melee and --mode shooting: give one attack mode" in capsys.readouterr().err
