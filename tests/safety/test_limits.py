"""Declared limits, checked where a value enters: each is a located error naming the limit
and how to raise it (``--limit NAME=N`` or ``RULES_RUN_LIMITS``), and a raised limit lets
the input through."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers.safety import DUEL as UNITS
from helpers.safety import check, copy_tiny, errors, odds, run, with_rules
from rules_run.limits import ENV, LIMITS, limit, parse_limits

ROOT = Path(__file__).resolve().parents[2]

DUEL = "edition: ..\n" + UNITS


def test_dice_past_the_limit_are_refused_where_they_are_written(tmp_path, capsys) -> None:
    with_rules(tmp_path, "\naction many() @ L1\n    return 1000000000D6 + D1000000000\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert errors(err) == [
        "tiny/core.rules:39:12: error: more than 1000 dice in one roll (1000000000); raise the "
        "limit with --limit dice=N",
    ]  # the chunk stops at its first refused token


def test_a_die_with_too_many_faces_is_refused(tmp_path, capsys) -> None:
    with_rules(tmp_path, "\naction many() @ L1\n    return D1000000000\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == ["tiny/core.rules:39:12: error: more than 1000 faces on a die "
                           "(1000000000); raise the limit with --limit faces=N"]


def test_a_raised_limit_lets_the_dice_through(tmp_path, capsys, monkeypatch) -> None:
    with_rules(tmp_path, "\naction many() @ L1\n    return 2000D6\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert code == 1 and "more than 1000 dice in one roll (2000)" in err
    code, _, err = check(capsys, tmp_path, "tiny", "--limit", "dice=5000")
    assert code == 0, err
    monkeypatch.setenv(ENV, "dice=2000")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert code == 0, err


def test_2000_nested_ifs_are_a_located_error_not_a_recursion(tmp_path, capsys) -> None:
    deep = "1"
    for _ in range(2000):
        deep = f"if true then {deep} else 2"
    with_rules(tmp_path, f"\naction deep() @ L1\n    return {deep}\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert err.splitlines()[:4] == [
        "tiny/core.rules:39:12: error: more than 50 levels of nesting in one declaration; "
        "raise the limit with --limit depth=N",
        "        return if true then if true then if true then if true then if true then if "
        "true then if true the...",
        "               ^",
        "  hint: an expression inside an expression, or a sum of as many terms: split it with "
        "'let' or an action",
    ]


def test_a_long_sum_gets_the_nesting_limit_and_a_huge_one_the_file_size(tmp_path,
                                                                        capsys) -> None:
    with_rules(tmp_path, "\naction many() @ L1\n    return " + " + ".join(["1"] * 60) + "\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == ["tiny/core.rules:39:12: error: more than 50 levels of nesting in "
                           "one declaration; raise the limit with --limit depth=N"]
    assert "call each other" not in err
    (tmp_path / "tiny").rename(tmp_path / "old")
    with_rules(tmp_path, "\naction many() @ L1\n    return " + " + ".join(["1"] * 100_000) + "\n")
    code, _, err = check(capsys, tmp_path, "tiny")
    assert err.splitlines()[0] == ("error: more than 250000 bytes in 'tiny/core.rules'; raise "
                                   "the limit with --limit file_size=N")


def test_deep_yaml_is_a_located_error_about_yaml(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    (folder / "battles" / "deep.yaml").write_text(DUEL + "options: {x: " + "[" * 500 + "]" * 500
                                                  + "}\n")
    code, _, err = check(capsys, tmp_path, "tiny/battles/deep.yaml")
    assert code == 1
    assert errors(err) == ["tiny/battles/deep.yaml:8:62: error: more than 50 levels of lists "
                           "and mappings one inside another; raise the limit with --limit "
                           "depth=N"]


def test_units_past_the_limit_are_refused_before_the_battle_is_checked(tmp_path,
                                                                       capsys) -> None:
    folder = copy_tiny(tmp_path)
    units = "".join(f"  - {{id: u{i}, side: men, profile: army/orc, models: 1}}\n"
                    for i in range(501))
    (folder / "battles" / "crowd.yaml").write_text("edition: ..\nunits:\n" + units)
    code, _, err = check(capsys, tmp_path, "tiny/battles/crowd.yaml")
    assert errors(err) == ["tiny/battles/crowd.yaml:2:1: error: more than 500 units in one "
                           "battle (501); raise the limit with --limit units=N"]
    code, _, err = check(capsys, tmp_path, "tiny/battles/crowd.yaml", "--limit", "units=600")
    assert code == 0, err


def test_models_past_the_limit_name_the_limit(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    (folder / "battles" / "horde.yaml").write_text(DUEL.replace("models: 10", "models: 5000", 1))
    code, _, err = check(capsys, tmp_path, "tiny/battles/horde.yaml")
    assert ("tiny/battles/horde.yaml:6:63: error: units[0].models: more than 1000 models in "
            "one unit (5000); raise the limit with --limit models=N") in errors(err)
    code, _, err = check(capsys, tmp_path, "tiny/battles/horde.yaml", "--limit", "models=5000")
    assert code == 0, err


def test_a_rule_name_past_the_placeholder_limit_is_refused(tmp_path, capsys) -> None:
    names = ", ".join(f"p{i}: keyword" for i in range(12))
    template = "-".join(f"{{p{i}}}" for i in range(12))
    with_rules(tmp_path, f'\nrule "{template}" ({names})  @ L1\n')
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == [f"tiny/core.rules:38:1: error: rule {template!r}: more than 6 "
                           "placeholders in a rule name (12); raise the limit with --limit "
                           "placeholders=N"]


def test_matching_a_template_never_backtracks(tmp_path, capsys) -> None:
    # six placeholders against a 60-character reference that almost fits: a regular
    # expression of six lazy groups tries about 60^6 ways; the matcher makes one pass
    names = ", ".join(f"p{i}: keyword" for i in range(6))
    template = "-".join(f"{{p{i}}}" for i in range(6)) + "!"
    folder = with_rules(tmp_path, f'\nrule "{template}" ({names})  @ L1\n')
    army = folder / "units" / "army.yaml"
    army.write_text(army.read_text().replace('rules: ["Stubborn"]',
                                             'rules: ["Stubborn", "' + "a-" * 30 + '"]'))
    code, _, err = check(capsys, tmp_path, "tiny")
    assert errors(err) == [f"tiny/units/army.yaml:10:25: error: unknown rule {'a-' * 30!r}"]


def test_the_attacks_of_one_volley_are_limited_when_a_rule_computes_them(tmp_path,
                                                                         capsys) -> None:
    patch = tmp_path / "aos4-huge"
    patch.mkdir()
    (patch / "index.yaml").write_text("kind: ruleset\nrules: [huge.rules]\n")
    (patch / "huge.rules").write_text(
        'ruleset aos4-huge "A champion with a billion attacks" extends aos4\n'
        '    source "000_c4300f58fce5f1da.txt"\n\n'
        'override action champion_bonus(unit: unit, weapon: weapon)   @ "not in seed: a test"\n'
        "    return 1000000000\n")
    code, _, err = run(capsys, tmp_path, "-e", "aos4-huge")
    assert code == 1
    [line] = errors(err)
    assert line.endswith(": error: fight(volley, ...): more than 10000 attacks in one volley "
                         "(1000000010); raise the limit with --limit attacks=N")
    assert line.startswith("../") or "rulesets/aos4/battle.rules:" in line
    code, _, err = odds(capsys, tmp_path, "-e", "aos4-huge", "--attacker", "liberators",
                        "--target", "grey_seer")
    assert code == 1
    line = next(i for i, text in enumerate((ROOT / "rulesets/aos4/core.rules").read_text(
        encoding="utf-8").splitlines(), 1) if text.startswith("action combat_attacks"))
    assert errors(err)[0].endswith(
        f"rulesets/aos4/core.rules:{line}:1: error: combat_attacks gives 'liberators' up to "
        "1000000010 attacks: more than 1000 attacks to work out exactly; raise the limit with "
        "--limit odds_attacks=N")
    assert "  hint: or fix the count with --attacks N" in err


def test_odds_attacks_past_the_limit_on_the_command_line_exit_2(tmp_path, capsys) -> None:
    code, _, err = odds(capsys, tmp_path, "-e", "wfb8", "--attacker", "halberdiers",
                        "--target", "boyz", "--attacks", "3000")
    assert (code, err) == (2, "error: --attacks: more than 1000 attacks (3000); raise the "
                              "limit with --limit odds_attacks=N\n")


@pytest.mark.parametrize(("given", "message"), [
    ("dice", "--limit: limit dice takes a whole number from 1 to 10^12, got ''"),
    ("dise=5", "--limit: unknown limit 'dise'; did you mean 'dice'?"),
    ("dice=0", "--limit: limit dice takes a whole number from 1 to 10^12, got '0'"),
])
def test_a_wrong_limit_is_a_command_line_error(tmp_path, capsys, given, message) -> None:
    code, _, err = check(capsys, tmp_path, "x.rules", "--limit", given)
    assert (code, err) == (2, f"error: {message}\n")


def test_a_wrong_environment_variable_is_a_command_line_error(tmp_path, capsys,
                                                              monkeypatch) -> None:
    monkeypatch.setenv(ENV, "units=lots")
    code, _, err = check(capsys, tmp_path, "x.rules")
    assert (code, err) == (2, "error: RULES_RUN_LIMITS: limit units takes a whole number from "
                              "1 to 10^12, got 'lots'\n")


def test_every_limit_has_a_default_and_is_named_in_rules_check_help(capsys) -> None:
    from rules_run.cli.check import build_parser

    text = build_parser().format_help()
    for name, lim in LIMITS.items():
        assert limit(name) == lim.default
        assert f"  {name:<13} {lim.default:>9,}  {lim.what}" in text
    assert parse_limits("dice=5, units=7") == {"dice": 5, "units": 7}


def test_docs_cli_lists_every_limit_with_its_default() -> None:
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([\d,]+) \|", text, re.M))
    assert {k: int(v.replace(",", "")) for k, v in rows.items()} == {
        name: lim.default for name, lim in LIMITS.items()}


def test_a_depth_limit_raised_past_what_python_holds_is_still_a_located_error(
        tmp_path, capsys, monkeypatch) -> None:
    from rules_run.chance import RandomChance
    from rules_run.diagnostics import InterpreterError
    from rules_run.editions.loader import load_ruleset
    from rules_run.engine.builtins import BUILTINS
    from rules_run.runtime.compiled import compile_ruleset

    deep = "1"
    for _ in range(2000):
        deep = f"if true then {deep} else 2"
    with_rules(tmp_path, f"\naction deep() @ L1\n    return {deep}\n")
    code, _, err = check(capsys, tmp_path, "tiny", "--limit", "depth=100000")
    assert (code, errors(err)) == (1, ["tiny/core.rules:38:1: error: this declaration nests "
                                       "too deeply to be read; lower --limit depth"])
    (tmp_path / "tiny").rename(tmp_path / "old")
    folder = with_rules(tmp_path, "\naction deep(x: int) @ L1\n    return "
                        + "".join("(x * " for _ in range(95)) + "1" + ")" * 95 + "\n")
    monkeypatch.setenv(ENV, "depth=500")
    with pytest.raises(InterpreterError) as raised:   # Python's compiler refuses 200 brackets
        runtime = compile_ruleset(load_ruleset(folder), builtins=BUILTINS)
        runtime.invoke("deep", runtime.env(RandomChance(1)), {"x": 1})
    (d,) = raised.value.diagnostics
    assert d.span.path.endswith("tiny/core.rules")
    assert (d.span.line, d.span.column, d.code, d.message) == (
        39, 5, "too-deep", "this nests too deeply to be compiled (Python "
        "allows about 100 levels of brackets); split it with 'let', or lower --limit depth")
