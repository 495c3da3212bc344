"""For the editor tests: a broken patch of wfb8, a battle file, positions found in a
file's text (never pinned line numbers), and what ``rules-check --json`` says."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rules_run.cli.check import main as rules_check

ROOT = Path(__file__).resolve().parents[2]

BROKEN_PATCH = '''\
ruleset broken-patch "A broken patch of wfb8" extends wfb8
    source "000_c4300f58fce5f1da.txt"

# A tougher chart, misspelt: the patch overrides what is not there.
override test to_woud(attacker: unit, target: unit)                 @ L420
    dice D6
    need 4

add test steady_nerve(u: unit)                                      @ L450
    dice 2D6
    need u.Ldd

add action lucky_blow(a: unit, t: unit)                             @ "not in seed: house rule"
    let hit = to_hit(a, t)
    log "{a.name} strikes {t.name}: {hit.passed}"
'''

BATTLE = '''\
edition: wfb8
title: "A duel with house rules"
units:
  - {id: halberdiers, side: empire, profile: empire/halberdier, models: 20, files: 5, rules: [Stu]}
  - {id: orcs, side: orcs, profile: orcs/orc_boy, models: 20, files: 5}
'''


def position(path: Path, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """The 1-based line and column of the ``occurrence``-th ``needle`` in ``path``."""
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        at = line.find(needle)
        while at >= 0:
            seen += 1
            if seen == occurrence:
                return number, at + 1
            at = line.find(needle, at + 1)
    raise AssertionError(f"{needle!r} is not in {path}")


def check_json(path: Path, capsys: pytest.CaptureFixture) -> list[tuple]:
    """What ``rules-check --json`` reports for ``path``: (absolute path, line, column,
    severity, code, message), sorted."""
    capsys.readouterr()
    rules_check(["--json", str(path)])
    out = json.loads(capsys.readouterr().out)
    found = []
    for result in out["results"]:
        for d in result.get("diagnostics", []) + result.get("warnings", []):
            found.append((os.path.abspath(d["path"]), d["line"], d["column"], d["severity"],
                          d["code"], d["message"]))
    return sorted(found)
