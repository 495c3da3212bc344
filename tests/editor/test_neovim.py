"""rules-lsp in Neovim's built-in LSP client, set up as docs/editors.md says: the same
acceptance checks as test_server.py's pygls client, from a real editor. Skipped where
Neovim (0.7 or later) is not installed; .ci/run installs it."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.editor_kit import ROOT, check_json, position

NVIM = shutil.which("nvim")
SERVER = Path(sys.executable).parent / "rules-lsp"
WAIT_MS = 120_000   # a guard against a hang, not a timing


def _version() -> tuple[int, int]:
    assert NVIM is not None
    first = subprocess.run([NVIM, "--version"], capture_output=True, text=True).stdout
    found = re.match(r"NVIM v(\d+)\.(\d+)", first)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


pytestmark = pytest.mark.skipif(NVIM is None or _version() < (0, 7),
                                reason="needs Neovim 0.7 or later (apt-get install neovim)")


def test_neovim_gets_diagnostics_hover_definition_and_completion(
        patch: Path, battle: Path, tmp_path: Path, capsys) -> None:
    assert NVIM is not None
    expected = check_json(patch, capsys)
    house = patch / "house.rules"
    hover = position(house, "to_hit(a, t)")
    complete = position(battle, "Stu]")
    out = tmp_path / "out.json"
    cmd = [str(SERVER)] if SERVER.exists() else [sys.executable, "-m",
                                                  "rules_run.editor.server"]
    setup = {"cmd": cmd, "config": str(ROOT / "editors" / "nvim" / "rules-lsp.lua"),
             "patch": str(house), "battle": str(battle), "out": str(out), "wait_ms": WAIT_MS,
             "hover": [hover[0] - 1, hover[1] - 1], "complete": [complete[0] - 1,
                                                                 complete[1] + 2]}
    env = dict(os.environ, RULES_LSP_TEST=json.dumps(setup), HOME=str(tmp_path),
               XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run(
        [NVIM, "--headless", "--clean", "-n", "-c",
         f"luafile {ROOT / 'tests' / 'editor' / 'nvim_session.lua'}"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert out.exists(), done.stderr + done.stdout
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["errors"] == []
    assert got["filetype"] == "rules" and got["attached"] is True

    # the same diagnostics as rules-check --json
    assert sorted((str(house), d["line"] + 1, d["column"] + 1,
                   "error" if d["severity"] == 1 else "warning", d["code"],
                   d["message"].split("\n")[0]) for d in got["diagnostics"]) == expected

    # hover on a test gives its citation; definition jumps into the base ruleset
    assert "cites `000_c4300f58fce5f1da.txt L418`" in got["hover"]["contents"]["value"]
    core = ROOT / "rulesets" / "wfb8" / "core.rules"
    (location,) = got["definition"]
    line, column = position(core, "to_hit(attacker")
    assert location["uri"] == core.as_uri()
    assert (location["range"]["start"]["line"] + 1,
            location["range"]["start"]["character"] + 1) == (line, column)

    # completion of a rule name in a battle file
    assert got["battle_attached"] is True
    assert "Stubborn" in {item["label"] for item in got["completion"]["items"]}
