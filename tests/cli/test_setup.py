"""The README's set-up: an editable install that runs the checkout's own rulesets."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BATTLE = ROOT / "rulesets" / "wfb8" / "battles" / "battle.yaml"


def _sh_blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_the_readme_installs_editable_and_the_user_install_has_no_test_tools():
    setup, tests = _sh_blocks()[:2]
    assert "pip install -e . " in setup and "[test]" not in setup
    assert 'pip install -e ".[test]"' in tests and "python -m pytest" in tests
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(project["dependencies"])
    for tool in ("mypy", "types-", "pytest", "hypothesis"):
        assert tool not in core
    assert any(d.startswith("mypy") for d in project["optional-dependencies"]["test"])


def _rules_run() -> list[str]:
    script = shutil.which("rules-run", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "rules_run.cli.run"]


def test_an_edit_to_the_bundled_battle_shows_in_the_next_run(tmp_path):
    original = BATTLE.read_bytes()
    text = original.decode("utf-8")
    assert 'name: Halberdiers,' in text
    try:
        BATTLE.write_text(text.replace("name: Halberdiers,", 'name: "Halberdiers of Nuln",'),
                          encoding="utf-8")
        out = subprocess.run(_rules_run() + ["--edition", "wfb8", "--json"], cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
    finally:
        BATTLE.write_bytes(original)
    names = {u["id"]: u["name"] for u in json.loads(out)["units"]}
    assert names["halberdiers"] == "Halberdiers of Nuln"
