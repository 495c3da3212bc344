"""Every traceback of issue #12 is a located error now, control characters are printed
escaped, and the exit codes follow one scheme: 0 ok, 1 the input is wrong, 2 the command
line is wrong, 70 an internal error (the traceback only with --debug)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.safety import DUEL as UNITS
from helpers.safety import check, command, copy_tiny, errors, odds, run, with_rules

DUEL = "edition: ..\n" + UNITS


def test_a_5000_digit_integer_in_a_rule_file(tmp_path, capsys) -> None:
    with_rules(tmp_path, "\naction big() @ L1\n    return " + "9" * 5000 + "\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert errors(err) == ["tiny/core.rules:39:12: error: 999999999999... (5000 digits) is too "
                           "large a number; a number has at most 15 digits"]


def test_a_5000_digit_integer_in_yaml(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    army = folder / "units" / "army.yaml"
    army.write_text(army.read_text().replace("{M: 4,", "{M: " + "9" * 5000 + ",", 1))
    code, _, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert errors(err) == ["tiny/units/army.yaml:8:18: error: 999999999999... (5000 digits) is "
                           "too large a number; a whole number has at most 15 digits"]


def test_a_placeholder_used_twice_in_a_rule_name(tmp_path, capsys) -> None:
    with_rules(tmp_path, '\nrule "Bane-{x}-{x}" (x: keyword)  @ L1\n')
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == ["tiny/core.rules:38:1: error: rule 'Bane-{x}-{x}': the placeholder "
                           "{x} is used twice; a parameter is named once"]


def test_placeholders_side_by_side_are_refused(tmp_path, capsys) -> None:
    with_rules(tmp_path, '\nrule "Bane-{x}{y}" (x: keyword, y: keyword)  @ L1\n')
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == ["tiny/core.rules:38:1: error: rule 'Bane-{x}{y}': two placeholders "
                           "side by side; put text between them, so a reference says where "
                           "one ends"]


def test_a_parameter_named_like_a_python_keyword_compiles(tmp_path) -> None:
    from rules_run.chance import RandomChance
    from rules_run.diagnostics import BattleError
    from rules_run.editions.loader import load_ruleset
    from rules_run.engine.builtins import BUILTINS
    from rules_run.runtime.compiled import compile_ruleset

    folder = with_rules(tmp_path, """
sequence strike(attacker: unit, target: unit, lambda: int = 0)   @ L1
    step hit: to_hit(attacker, target) stops on fail
    damage 1 + lambda

action blow(a: unit, b: unit)  @ L1
    let class = 2
    return fight(strike, a, b, class, lambda=class)
""")
    runtime = compile_ruleset(load_ruleset(folder), builtins=BUILTINS)
    with pytest.raises(BattleError) as raised:   # no SyntaxError: the call compiled
        runtime.invoke("blow", runtime.env(RandomChance(1)), {"a": None, "b": None})
    (d,) = raised.value.diagnostics
    assert (d.span.line, d.message) == (44, "fight() needs a battle; it cannot run in an odds "
                                            "calculation")


@pytest.mark.parametrize(("args", "message"), [
    (["--samples", "-1"], "rules-odds: error: argument --samples: must be at least 1, got -1"),
    (["--samples", "0"], "rules-odds: error: argument --samples: must be at least 1, got 0"),
    (["--attacks", "0"], "rules-odds: error: argument --attacks: must be at least 1, got 0"),
    (["--seed", "x"], "rules-odds: error: argument --seed: expected a whole number, got 'x'"),
])
def test_odds_command_line_mistakes_exit_2(tmp_path, capsys, args, message) -> None:
    code, _, err = odds(capsys, tmp_path, "-e", "wfb8", "--attacker", "halberdiers",
                        "--target", "boyz", *args)
    assert code == 2
    assert err.splitlines()[-1] == message


@pytest.mark.parametrize(("args", "message"), [
    (["--runs", "0"], "rules-run: error: argument --runs: must be at least 1, got 0"),
    (["--workers", "0", "--runs", "5"],
     "rules-run: error: argument --workers: must be at least 1, got 0"),
    (["--log", "."], "error: --log '.' is a folder; give a file name, such as 'events.jsonl'"),
    (["--log", "missing/events.jsonl"],
     "error: --log 'missing/events.jsonl': the folder 'missing' does not exist"),
    (["--runs", "3", "--explain"], "error: --log, --replay, --explain, --summary and --decisions describe one battle; drop --runs"),
    (["--bogus"], "rules-run: error: unrecognized arguments: --bogus"),
])
def test_run_command_line_mistakes_exit_2(tmp_path, capsys, args, message) -> None:
    code, out, err = run(capsys, tmp_path, "-e", "wfb8", *args)
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == message


def test_a_profile_value_outside_its_declared_range(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    army = folder / "units" / "army.yaml"
    army.write_text(army.read_text().replace("W: 1, A: 1", "W: -1, A: 1", 1))
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == ["tiny/units/army.yaml:8:43: error: W -1 is outside its declared "
                           "range 0..10"]


def test_a_battle_characteristic_outside_its_range(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    (folder / "battles" / "b.yaml").write_text(
        DUEL.replace("files: 5}", "files: 5, characteristics: {WS: 99}}", 1))
    code, _, err = check(capsys, tmp_path, "tiny/battles/b.yaml")
    assert errors(err) == ["tiny/battles/b.yaml:6:99: error: WS 99 is outside its declared "
                           "range 0..10"]


@pytest.mark.parametrize(("yaml", "where", "message"), [
    ("duel: {distance: 1e308}", "4:18", "duel.distance: expected at most 10000, got 1e+308"),
    ("battlefield: {width: 1e300, depth: 48}", "4:22",
     "battlefield.width: expected at most 10000, got 1e+300"),
])
def test_absurd_numbers_in_a_battle_are_refused(tmp_path, capsys, yaml, where, message) -> None:
    folder = copy_tiny(tmp_path)
    (folder / "battles" / "b.yaml").write_text(DUEL.replace("duel: {distance: 4}", yaml))
    code, _, err = check(capsys, tmp_path, "tiny/battles/b.yaml")
    assert code == 1
    assert errors(err) == [f"tiny/battles/b.yaml:{where}: error: {message}"]


def test_control_characters_are_printed_escaped(tmp_path, capsys) -> None:
    folder = with_rules(tmp_path, '\nrule "Evil\x1b[2J\x07"  @ L1\n')
    army = folder / "units" / "army.yaml"
    army.write_text(army.read_text().replace('rules: ["Stubborn"]', 'rules: ["Bad\\e[31m"]'))
    code, out, err = check(capsys, tmp_path, "tiny", "--coverage")
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "tiny/units/army.yaml:10:13: error: 'Bad\\x1b[31m' is not a rule name" in err
    army.write_text(army.read_text().replace('rules: ["Bad\\e[31m"]', 'rules: ["Stubborn"]'))
    code, out, err = check(capsys, tmp_path, "tiny", "--coverage")
    assert code == 0
    assert "  Evil\\x1b[2J\\x07  declared only " in out   # escaped, then aligned


def test_an_internal_error_exits_70_and_asks_for_a_report(tmp_path, capsys,
                                                          monkeypatch) -> None:
    from rules_run.cli import check as check_module

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(check_module, "check_paths", broken)
    code, out, err = command(check_module.main, capsys, tmp_path, "x.rules")
    assert (code, out) == (70, "")
    assert err == ("internal error: ZeroDivisionError: a bug\nThis is a bug in rules-run, not a "
                   "mistake in your input: please report it, with the command and the files it "
                   "read (run it again with --debug for the traceback).\n")
    code, out, err = command(check_module.main, capsys, tmp_path, "x.rules", "--debug")
    assert code == 70
    assert err.startswith("Traceback (most recent call last):")
    assert err.endswith("please report it, with the command and the files it read.\n")


def test_rules_diff_takes_the_same_scheme(tmp_path, capsys) -> None:
    from rules_run.cli.diff import main

    code, _, err = command(main, capsys, tmp_path, "wfb8", "wfb8", "--runs", "0")
    assert code == 2 and "argument --runs: must be at least 1, got 0" in err
    code, _, err = command(main, capsys, tmp_path, "wfb8", "wfb9")
    assert code == 1 and "error: unknown edition 'wfb9'" in err


def test_a_unit_name_with_escapes_reaches_the_terminal_escaped(tmp_path, capsys) -> None:
    duel = (Path(__file__).resolve().parents[2] / "rulesets" / "wfb8" / "battles" / "duel.yaml")
    (tmp_path / "duel.yaml").write_text(duel.read_text().replace(
        "- {id: orcs, side: orcs,", '- {id: orcs, name: "Orc\\e[2J\\a", side: orcs,'))
    code, out, err = odds(capsys, tmp_path, "duel.yaml", "--attacker", "halberdiers",
                          "--target", "orcs", "--attacks", "1")
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "attack Orc\\x1b[2J\\x07 (orcs) under wfb8" in out
