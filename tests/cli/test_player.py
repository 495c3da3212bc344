"""What a player sees from the commands: odds tables, charts, progress, --version, '-'."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from fractions import Fraction
from pathlib import Path

import pytest

from rules_run.cli import odds, run

ROOT = Path(__file__).resolve().parents[2]
AOS4_DUEL = str(ROOT / "rulesets" / "aos4" / "battles" / "duel.yaml")
WFB8_DUEL = str(ROOT / "rulesets" / "wfb8" / "battles" / "duel.yaml")


def test_odds_prints_exactly_and_at_least_to_the_last_k_as_percentages(capsys):
    assert odds.main(["-e", "aos4", AOS4_DUEL, "--attacker", "liberators",
                      "--target", "clanrats"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("damage:\n"):out.index("models removed:")].splitlines()
    assert table[1].split() == ["k", "exactly", "at", "least"]
    ks = [int(line.split()[0]) for line in table[2:]]
    assert ks == list(range(0, 23))                 # 11 attacks of 2 damage: up to 22
    assert table[2].split()[2] == "100.00%"         # at least 0
    assert all(line.split()[1].endswith("%") for line in table[2:])


def test_odds_json_keys_are_numbers_in_order_and_fractions_are_exact(capsys):
    odds.main(["-e", "wfb8", WFB8_DUEL, "--attacker", "orcs", "--target", "halberdiers",
               "--attacks", "2", "--json"])
    data = json.loads(capsys.readouterr().out)
    damage = next(s for s in data["steps"] if s["name"] == "damage")
    # one attack does damage with chance 5/24 (hit, wound, then the failed save)
    p = Fraction(5, 24)
    assert [row["k"] for row in damage["table"]] == [0, 1, 2]
    assert [Fraction(row["exactly_exact"]) for row in damage["table"]] == [
        (1 - p) ** 2, 2 * p * (1 - p), p ** 2]
    assert list(data["exact"]) == ["0", "1", "2"]


def test_two_attackers_side_by_side_with_exact_fractions(capsys):
    odds.main(["-e", "wfb8", WFB8_DUEL, "--attacker", "orcs", "--attacker", "halberdiers",
               "--target", "halberdiers", "--attacks", "2", "--exact"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines()
               if line.startswith("    2 ") and "25/576" in line)
    assert row.split() == ["2", "4.34%", "4.34%", "25/576", "25/576",
                           "11.11%", "11.11%", "1/9", "1/9"]


def test_odds_plot_svg_has_a_bar_per_k_with_its_value(tmp_path, capsys):
    chart = tmp_path / "odds.svg"
    odds.main(["-e", "wfb8", WFB8_DUEL, "--attacker", "orcs", "--target", "halberdiers",
               "--attacks", "2", "--plot", str(chart)])
    svg = chart.read_text(encoding="utf-8")
    values = re.findall(r'class="bar"[^>]*data-value="([^"]+)"', svg)
    assert [round(float(v), 4) for v in values] == [0.6267, 0.3299, 0.0434]
    assert ">62.7%<" in svg and svg.count('class="curve"') == 1
    first = svg
    odds.main(["-e", "wfb8", WFB8_DUEL, "--attacker", "orcs", "--target", "halberdiers",
               "--attacks", "2", "--plot", str(chart)])
    assert chart.read_text(encoding="utf-8") == first     # deterministic


def test_odds_plot_png_through_matplotlib(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    chart = tmp_path / "odds.png"
    odds.main(["-e", "wfb8", WFB8_DUEL, "--attacker", "orcs", "--target", "halberdiers",
               "--attacks", "2", "--plot", str(chart)])
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_runs_plot_shows_win_rates_survivors_and_victory_points(tmp_path, capsys):
    chart = tmp_path / "runs.svg"
    assert run.main(["-e", "wfb8", WFB8_DUEL, "--runs", "20", "--workers", "1", "--json",
                     "--plot", str(chart)]) == 0
    stats = json.loads(capsys.readouterr().out)
    svg = chart.read_text(encoding="utf-8")
    rates = [float(v) for v in re.findall(r'data-value="([^"]+)"', svg)][:3]
    assert sorted(rates) == sorted(o["rate"] for o in stats["outcomes"].values())
    for title in ("Outcomes of 20 battles", "Survivors per unit (mean)",
                  "Victory points per side (mean)"):
        assert title in svg


def test_every_command_has_version(capsys):
    from rules_run import __version__
    from rules_run.cli import check, diff

    for main in (run.main, check.main, odds.main, diff.main):
        with pytest.raises(SystemExit) as done:
            main(["--version"])
        assert done.value.code == 0
        assert capsys.readouterr().out.strip().endswith(__version__)


def test_log_dash_prints_the_event_log_and_a_dash_battle_reads_standard_input():
    text = Path(WFB8_DUEL).read_text(encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", "wfb8", "-",
                          "--log", "-"], input=text, capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["kind"] == "header" and lines[0]["battle"] == "<stdin>"
    assert lines[-1]["kind"] == "result"
    assert not (ROOT / "-").exists()


def test_explain_shows_the_cited_line_from_the_users_sources(tmp_path, monkeypatch, capsys):
    fake = ["line %d of my copy" % n for n in range(1, 1000)]
    (tmp_path / "000_c4300f58fce5f1da.txt").write_text("\n".join(fake), encoding="utf-8")
    monkeypatch.setenv("RULES_RUN_SOURCES", str(tmp_path))
    run.main(["-e", "wfb8", WFB8_DUEL, "--explain"])
    out = capsys.readouterr().out
    assert "        | L418: line 418 of my copy" in out


def _under_a_terminal(args: list[str]) -> str:
    """Run a command with standard error on a pseudo-terminal; what the terminal got."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    done = subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.DEVNULL,
                            stderr=follower, cwd=ROOT)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    done.wait()
    os.close(leader)
    return seen.decode("utf-8", "replace")


def test_progress_shows_rate_and_eta_on_a_terminal_only():
    pytest.importorskip("tqdm")
    shown = _under_a_terminal(["rules_run.cli.run", "-e", "wfb8", WFB8_DUEL, "--runs", "30",
                               "--workers", "1"])
    assert "battles" in shown and "/30" in shown
    assert re.search(r"battles/s|s/ battles|s/battles", shown)      # the rate
    assert "<" in shown                                 # tqdm's elapsed<remaining (ETA)
    quiet = _under_a_terminal(["rules_run.cli.run", "-e", "wfb8", WFB8_DUEL, "--runs", "30",
                               "--workers", "1", "--json"])
    assert quiet == ""
    piped = subprocess.run([sys.executable, "-m", "rules_run.cli.run", "-e", "wfb8",
                            WFB8_DUEL, "--runs", "30", "--workers", "1"], cwd=ROOT,
                           capture_output=True, text=True)
    assert piped.stderr == ""


def test_the_chart_docs_cli_shows_is_what_the_command_draws(tmp_path, capsys):
    chart = tmp_path / "odds.svg"
    odds.main(["-e", "wfb8", WFB8_DUEL, "--attacker", "orcs", "--attacker", "halberdiers",
               "--target", "halberdiers", "--attacks", "3", "--plot", str(chart)])
    shown = ROOT / "docs" / "examples" / "odds-duel.svg"
    assert chart.read_text(encoding="utf-8") == shown.read_text(encoding="utf-8")
    assert "](examples/odds-duel.svg)" in (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def test_rules_diff_takes_options_before_the_battle_file(capsys):
    from rules_run.cli import diff

    assert diff.main(["wfb8", str(ROOT / "rulesets" / "examples" / "wfb8-no-steadfast"),
                      "--runs", "10", "--no-behaviour", "--no-attribution", "--workers", "1",
                      "--json", WFB8_DUEL]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["battle"]["runs"] == 10


def test_rules_diff_reports_no_exception_text(capsys):
    from rules_run.cli import diff

    assert diff.main(["aos4", "aos4-gh2025", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Error:" not in out and "object has no attribute" not in out
    assert ("action start_battle_round: not evaluated on synthetic inputs: round_number needs "
            "a battle; it cannot run in an odds calculation") in out


def test_summary_prints_the_result_and_the_units_only(capsys):
    assert run.main(["-e", "wfb8", "--seed", "7", "--summary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Winner: Orcs — victory points after 6 rounds")
    assert lines[2].split() == ["unit", "side", "models", "status"]
    assert len(lines) == 3 + 15                        # the bundled battle's 15 units


def test_odds_samples_show_progress_on_a_terminal():
    pytest.importorskip("tqdm")
    shown = _under_a_terminal(["rules_run.cli.odds", "-e", "wfb8", WFB8_DUEL, "--attacker",
                               "orcs", "--target", "halberdiers", "--attacks", "1",
                               "--samples", "3000"])
    assert "samples of orcs" in shown and "/3000" in shown
