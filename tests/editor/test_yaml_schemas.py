"""Schemas wired in: every bundled YAML file names its schema for yaml-language-server in
its first line, and what that schema says (checked here with plain jsonschema, resolving
``$ref`` next to the schema file, as an editor does) agrees with rules-check."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from helpers.editor_kit import ROOT
from referencing import Registry, Resource

from rules_run.cli.check import main as rules_check

KIND_SCHEMAS = {"ruleset": "manifest", "units": "units", "equipment": "equipment",
                "table": "table", "report": "report"}
"""A YAML file's ``kind:`` and its schema; a file with no ``kind:`` is a battle."""
MODELINE = re.compile(r"# yaml-language-server: \$schema=(\S+)\n")
BUNDLED = sorted((ROOT / "rulesets").glob("**/*.yaml"))


def _schema_of(path: Path) -> Path:
    """The schema file the modeline names, resolved from the file's folder."""
    found = MODELINE.match(path.read_text(encoding="utf-8"))
    assert found, (f"{path.relative_to(ROOT)} must start with a modeline such as: "
                   "# yaml-language-server: $schema=../../schemas/units.schema.json")
    return (path.parent / found.group(1)).resolve()


def _editor_errors(path: Path, text: str | None = None) -> list[str]:
    """What a JSON Schema validator, reading the schema the modeline names, finds."""
    schema_path = _schema_of(path)
    schemas = {p.name: json.loads(p.read_text(encoding="utf-8"))
               for p in schema_path.parent.glob("*.schema.json")}
    registry: Registry = Registry().with_resources(
        (s["$id"], Resource.from_contents(s)) for s in schemas.values())
    validator = jsonschema.Draft202012Validator(schemas[schema_path.name], registry=registry)
    data = yaml.safe_load(text if text is not None else path.read_text(encoding="utf-8"))
    return [e.message for e in validator.iter_errors(data)]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_yaml_file_names_the_schema_of_its_kind(path: Path) -> None:
    kind = yaml.safe_load(path.read_text(encoding="utf-8")).get("kind")
    expected = ROOT / "schemas" / f"{KIND_SCHEMAS.get(kind, 'battle')}.schema.json"
    assert _schema_of(path) == expected
    assert _editor_errors(path) == []


def test_rules_check_finds_every_bundled_file_right(capsys) -> None:
    assert len(BUNDLED) >= 40
    capsys.readouterr()
    assert rules_check(["--json", str(ROOT / "rulesets")]) == 0
    checked = {str((ROOT / r["path"]).resolve()) if not Path(r["path"]).is_absolute()
               else r["path"] for r in json.loads(capsys.readouterr().out)["results"]}
    battles = [p for p in BUNDLED if "kind" not in yaml.safe_load(p.read_text(encoding="utf-8"))]
    assert battles and {str(p) for p in battles} <= checked


@pytest.mark.parametrize("relative", [
    "rulesets/wfb8/index.yaml", "rulesets/wfb8/units/empire.yaml",
    "rulesets/wfb8/units/equipment.yaml", "rulesets/wfb8/tables/to_wound.yaml",
    "rulesets/wfb8/battles/duel.yaml"])
def test_a_key_the_schema_does_not_allow_is_an_error_for_both(relative: str, tmp_path: Path,
                                                              capsys) -> None:
    """The same file with a stray top-level key: the editor's validator and rules-check
    both reject it."""
    source = ROOT / relative
    ruleset = source.relative_to(ROOT / "rulesets").parts[0]
    copy = tmp_path / "rulesets" / ruleset
    shutil.copytree(ROOT / "rulesets" / ruleset, copy)
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    broken = copy / source.relative_to(ROOT / "rulesets" / ruleset)
    broken.write_text(broken.read_text(encoding="utf-8") + "bogus_key: 1\n", encoding="utf-8")
    assert any("bogus_key" in m for m in _editor_errors(broken))
    capsys.readouterr()
    target = broken if "battles" in relative else copy
    assert rules_check(["--json", str(target)] + (["-e", str(copy)] if "battles" in relative
                                                   else [])) == 1
    out = json.loads(capsys.readouterr().out)
    messages = [d["message"] for r in out["results"] for d in r.get("diagnostics", [])]
    assert any("bogus_key" in m for m in messages), messages
