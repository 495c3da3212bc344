"""The rules-diff command: text, JSON, the chart, errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from rules_run.cli import diff

from .conftest import DUEL, HOUSE_CHARGE


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = diff.main([str(a) for a in argv])
    except SystemExit as exc:   # argparse
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_json_has_every_part(capsys, at_root) -> None:
    code, out, err = run(capsys, "wfb8", HOUSE_CHARGE, DUEL, "--runs", "20", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) == {"a", "b", "structure", "behaviour", "battle", "attribution", "notes"}
    assert data["a"]["id"] == "wfb8" and data["b"]["chain"] == ["wfb8", "wfb8-house-charge"]
    structure = data["structure"]
    assert structure["relation"] == "patch"
    assert structure["counts"] == {"added": 0, "removed": 0, "changed": 2}
    assert [(p["index"], p["op"], p["kind"], p["name"]) for p in structure["patch"]] == [
        (1, "override", "option", "charge_roll"),
        (2, "override", "table", "combat_result_chart")]
    for d in structure["declarations"]:
        assert set(d) >= {"change", "kind", "name", "a", "b", "details", "cells", "text_diff"}
        assert d["a"]["cite"] and d["b"]["cite"]
    behaviour = data["behaviour"]
    assert set(behaviour) == {"cells_cap", "sequence_cells_cap", "compared", "not_comparable",
                              "unaffected"}
    (bonus,) = [d for d in behaviour["compared"] if d["name"] == "combat_bonus"]
    assert bonus["cells_differing"] == len(bonus["cells"]) > 0
    cell = bonus["cells"][0]
    assert set(cell) >= {"inputs", "a", "b", "delta", "delta_exact", "distance"}
    battle = data["battle"]
    assert battle["runs"] == 20 and battle["seed"] == 1 and battle["sides"] == ["empire", "orcs"]
    assert "paired" in battle["test"]
    assert set(battle["differences"]) == {
        "win:empire", "win:orcs", "draw", "survivors:halberdiers", "survivors:orcs",
        "vp:empire", "vp:orcs"}
    assert set(battle["differences"]["draw"]) == {"a", "b", "mean", "low", "high", "z",
                                                  "significant"}
    attribution = data["attribution"]
    assert [s["ops"] for s in attribution["steps"]] == [[1], [2]]
    assert attribution["sum_of_steps"] == pytest.approx(
        {k: v["mean"] for k, v in attribution["total"]["deltas"].items()}, abs=1e-6)


def test_the_same_command_prints_the_same_report(capsys, at_root) -> None:
    first = run(capsys, "wfb8", HOUSE_CHARGE, DUEL, "--runs", "10", "--seed", "3",
                "--no-behaviour")
    second = run(capsys, "wfb8", HOUSE_CHARGE, DUEL, "--runs", "10", "--seed", "3",
                 "--no-behaviour")
    assert first == second and first[0] == 0
    assert "Attribution" in first[1] and "Order matters" in first[1]


def test_plot_writes_an_svg(capsys, at_root, tmp_path) -> None:
    chart = tmp_path / "diff.svg"
    code, out, _ = run(capsys, "wfb8", HOUSE_CHARGE, DUEL, "--runs", "20", "--no-behaviour",
                       "--plot", chart)
    assert code == 0 and f"chart written to {chart}" in out
    root = ET.parse(chart).getroot()
    assert root.tag.endswith("svg")
    texts = [t.text for t in root.iter() if t.tag.endswith("text")]
    assert any("Attribution" in (t or "") for t in texts)
    assert "1. override option charge_roll" in texts


@pytest.mark.parametrize("argv, message", [
    (["wfb8", "no-such-edition"], "error: unknown edition 'no-such-edition'"),
    (["wfb8", "wfb8", "missing.yaml"], "missing.yaml"),
])
def test_mistakes_are_diagnostics_with_exit_code_1(capsys, at_root, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["wfb8", "wfb8", "--plot", "chart.png"], "--plot writes SVG"),
    (["wfb8", "wfb8", "--plot", "chart.svg"], "give a battle file"),
    (["wfb8", "wfb8", str(DUEL), "--runs", "0"], "argument --runs: must be at least 1, got 0"),
])
def test_command_line_mistakes_exit_2(capsys, at_root, argv, message) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_a_battle_that_does_not_fit_b_is_located(capsys, at_root) -> None:
    code, _, err = run(capsys, "wfb8", "aos4", DUEL, "--runs", "5")
    assert code == 1
    lines = DUEL.read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, start=1) if "profile: empire/halberdier" in text)
    column = lines[line - 1].index("empire/halberdier") + 1
    assert f"duel.yaml:{line}:{column}: error: unknown profile 'empire/halberdier'" in err
    assert "note: while fighting" in err and "under B (aos4)" in err


def test_help_has_examples(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        diff.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "usage: rules-diff" in out and "examples:" in out and "--runs 2000 --seed 1" in out
