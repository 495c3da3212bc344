"""A warm start (issue #18): what a command builds on every start is read from the disk
cache instead (a YAML file once read, the exact volleys a statistics run worked out), and a
warm ``rules-run --runs`` imports neither Lark nor jsonschema nor PyYAML nor attrs (every
record class is a :mod:`rules_run.slotted` one), and compiles nothing; results stay the
same."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rules_run import cache
from rules_run.data.yaml_loader import load_yaml
from rules_run.diagnostics import DataError
from rules_run.editions import loader
from rules_run.engine.builtins import BUILTINS
from rules_run.paths import RULESETS_DIR
from rules_run.runtime import compiled
from rules_run.runtime.compiled import compile_ruleset

DUEL = str(RULESETS_DIR / "wfb8" / "battles" / "duel.yaml")


def test_a_yaml_file_read_once_is_read_from_the_cache(fresh_cache):
    text = "units:\n  - {id: a, models: 5}\n"
    first = load_yaml("b.yaml", text)
    (entry,) = (fresh_cache / "yaml").iterdir()
    again = load_yaml("b.yaml", text)
    assert again is not first and again == first
    assert again.span(("units", 0, "models")).text() == "b.yaml:2:21"
    # another name or text is another entry; a text with a mistake is never kept
    load_yaml("c.yaml", text)
    assert len(list((fresh_cache / "yaml").iterdir())) == 2
    for _ in range(2):
        with pytest.raises(DataError, match="duplicate key 'a'"):
            load_yaml("d.yaml", "a: 1\na: 2\n")
    assert len(list((fresh_cache / "yaml").iterdir())) == 2
    assert entry.exists()


def test_exact_volleys_worked_out_by_one_process_start_the_next_warm(fresh_cache):
    ruleset = loader.load_edition("wfb8")
    runtime = compile_ruleset(ruleset, builtins=BUILTINS)
    assert runtime.fight_cache == {}
    runtime.fight_cache[("a volley", 1)] = "its distribution"
    key = cache.digest(cache.code_fingerprint(), ruleset.fingerprint)
    compiled._keep_fights(runtime, ruleset.fingerprint, key, 0)
    compiled._RUNTIMES.clear()
    warm = compile_ruleset(ruleset, builtins=BUILTINS)
    assert warm is not runtime
    assert warm.fight_cache == {("a volley", 1): "its distribution"}


def test_a_warm_statistics_run_gives_the_same_results(fresh_cache):
    env = {**os.environ, cache.ENV: str(fresh_cache)}
    command = [sys.executable, "-m", "rules_run.cli.run", DUEL, "--runs", "20",
               "--workers", "1", "--json"]
    cold = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert list((fresh_cache / "fights").iterdir())   # the first process kept its volleys
    warm = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    assert json.loads(warm.stdout) == json.loads(cold.stdout)
    assert warm.stdout == cold.stdout


def test_a_warm_start_imports_no_lark_jsonschema_yaml_or_attrs_and_compiles_nothing(
        fresh_cache):
    # compiles nothing: neither the rules' generated functions nor the record classes'
    # methods (rules_run.slotted)
    env = {**os.environ, cache.ENV: str(fresh_cache)}
    code = ("import sys, contextlib, io\n"
            "from rules_run.cli.run import main\n"
            "from rules_run import slotted\n"
            "from rules_run.runtime import compiled\n"
            "sys.argv = ['rules-run', '--edition', 'wfb8', '--runs', '1']\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main()\n"
            "print(sorted(m for m in ('lark', 'jsonschema', 'yaml', 'attrs')\n"
            "             if m in sys.modules),\n"
            "      len(slotted._compiled) > 0,\n"
            "      [r[2].codegen.compiled > 0 for r in compiled._RUNTIMES.values()])\n")
    cold = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert cold.stdout.strip() == "['attrs', 'jsonschema', 'lark', 'yaml'] True [True]"
    warm = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True)
    assert warm.stdout.strip() == "[] False [False]"


def test_the_code_fingerprint_reads_the_files_only_when_they_changed(fresh_cache, tmp_path,
                                                                   monkeypatch):
    module = tmp_path / "a.py"
    module.write_text("x = 1\n")
    monkeypatch.setattr(cache, "_code_files", lambda: [("a.py", str(module))])
    fingerprint = cache.code_fingerprint.__wrapped__
    first = fingerprint()
    assert len(list((fresh_cache / "fingerprint").iterdir())) == 1
    reads = []
    opened = open
    monkeypatch.setattr(cache, "open", lambda path, mode="r": (
        reads.append(path) if path == str(module) else None) or opened(path, mode),
        raising=False)
    assert fingerprint() == first and reads == []   # same size and time: not read again
    os.utime(module, ns=(1, 1))                       # the same text at another time
    assert fingerprint() == first and reads == [str(module)]
    module.write_text("x = 2\n")                      # another text, of the same size
    assert fingerprint() != first
