"""The disk cache: entries are read back only under their key, a corrupt entry is a miss,
a changed ruleset (or a changed base of a patch) is loaded afresh, and the grammar's parser
tables are cached under a key that is the same in every process."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


from rules_run import cache
from rules_run.editions import loader
from rules_run.engine.builtins import BUILTINS
from rules_run.paths import RULESETS_DIR
from rules_run.runtime.compiled import compile_ruleset


def test_an_entry_is_read_back_only_under_its_key(fresh_cache):
    cache.write("things", "a", "key-1", {"x": [1, 2]})
    assert cache.read("things", "a", "key-1") == {"x": [1, 2]}
    assert cache.read("things", "a", "key-2") is None
    assert cache.read("things", "b", "key-1") is None


def test_a_corrupt_entry_is_a_miss_and_is_written_again(fresh_cache):
    cache.write("things", "a", "k", [1, 2, 3])
    (entry,) = (fresh_cache / "things").iterdir()
    data = entry.read_bytes()
    entry.write_bytes(data[: len(data) - 3])        # cut short
    assert cache.read("things", "a", "k") is None
    entry.write_bytes(b"garbage\n")
    assert cache.read("things", "a", "k") is None
    cache.write("things", "a", "k", [1, 2, 3])
    assert cache.read("things", "a", "k") == [1, 2, 3]


def test_off_reads_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.cache_dir() is None
    cache.write("things", "a", "k", 1)
    assert cache.read("things", "a", "k") is None


def test_the_default_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv(cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "rules-run"


def test_a_ruleset_from_the_disk_cache_equals_the_one_built(fresh_cache):
    built = loader.load_edition("wfb8")
    assert compile_ruleset(built, builtins=BUILTINS).codegen.compiled > 0
    assert list((fresh_cache / "rulesets").iterdir())
    loader.clear_cache()
    again = loader.load_edition("wfb8")
    assert again is not built
    assert again.fingerprint == built.fingerprint
    assert again.decls == built.decls
    assert again.rules == built.rules
    assert again.units == built.units
    assert again.warnings == built.warnings
    # the compiled code came from the cache too: nothing was compiled again
    assert compile_ruleset(again, builtins=BUILTINS).codegen.compiled == 0


def test_a_changed_file_is_loaded_afresh(fresh_cache, tmp_path):
    folder = tmp_path / "wfb8"
    shutil.copytree(RULESETS_DIR / "wfb8", folder)
    first = loader.load_ruleset(folder)
    loader.clear_cache()
    units = folder / "units" / "empire.yaml"
    units.write_text(units.read_text(encoding="utf-8").replace("WS: 3", "WS: 4", 1),
                     encoding="utf-8")
    second = loader.load_ruleset(folder)
    assert second.fingerprint != first.fingerprint
    assert second.units != first.units


def _builds(monkeypatch) -> list:
    """The folders of the rulesets built from their files from now on (not read from the
    disk cache)."""
    built: list = []
    build = loader._Builder.build
    monkeypatch.setattr(loader._Builder, "build",
                        lambda self: built.append(self.folder) or build(self))
    return built


def test_an_edited_rule_file_is_built_and_compiled_afresh(fresh_cache, tmp_path, monkeypatch):
    folder = tmp_path / "wfb8"
    shutil.copytree(RULESETS_DIR / "wfb8", folder)
    compile_ruleset(loader.load_ruleset(folder), builtins=BUILTINS)
    loader.clear_cache()
    built = _builds(monkeypatch)
    warm = loader.load_ruleset(folder)
    assert built == [] and compile_ruleset(warm, builtins=BUILTINS).codegen.compiled == 0
    loader.clear_cache()
    rules = folder / "core.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    edited = loader.load_ruleset(folder)
    assert built == [folder]
    assert compile_ruleset(edited, builtins=BUILTINS).codegen.compiled > 0


def test_another_interpreter_version_builds_and_compiles_afresh(fresh_cache, monkeypatch):
    import rules_run

    compile_ruleset(loader.load_edition("wfb8"), builtins=BUILTINS)
    loader.clear_cache()
    built = _builds(monkeypatch)
    monkeypatch.setattr(rules_run, "__version__", "0.0.0+another")
    cache.code_fingerprint.cache_clear()
    try:
        again = loader.load_edition("wfb8")
        assert built == [again.folder]
        assert compile_ruleset(again, builtins=BUILTINS).codegen.compiled > 0
    finally:
        cache.code_fingerprint.cache_clear()


def test_a_patch_whose_base_changed_is_loaded_afresh(fresh_cache, tmp_path):
    shutil.copytree(RULESETS_DIR / "aos4", tmp_path / "aos4")
    shutil.copytree(RULESETS_DIR / "aos4-gh2025", tmp_path / "aos4-gh2025")
    first = loader.load_ruleset(tmp_path / "aos4-gh2025")
    assert first.base is not None and first.base.folder == tmp_path / "aos4"
    loader.clear_cache()
    again = loader.load_ruleset(tmp_path / "aos4-gh2025")
    # from the disk, with its base the very object the base's own load gives
    assert again.base is loader.load_ruleset(tmp_path / "aos4")
    assert again.fingerprint == first.fingerprint
    loader.clear_cache()
    readme = tmp_path / "aos4" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nchanged\n", encoding="utf-8")
    changed = loader.load_ruleset(tmp_path / "aos4-gh2025")
    assert changed.base is not None and changed.base.fingerprint != first.base.fingerprint
    assert changed.fingerprint != first.fingerprint


def test_the_grammar_cache_key_is_the_same_in_every_process(fresh_cache):
    code = "from rules_run.lang.parser import grammar_parser; grammar_parser()"
    env = {**os.environ, cache.ENV: str(fresh_cache)}
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    entry = fresh_cache / "grammar" / "rules.lark.pickle"
    first = entry.read_bytes().split(b"\n", 1)[0]
    # a second process finds its key in the file: it loads, it does not write again
    stamp = entry.stat().st_mtime_ns
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    assert entry.read_bytes().split(b"\n", 1)[0] == first
    assert entry.stat().st_mtime_ns == stamp


def test_record_instances_are_written_as_calls_of_their_class(fresh_cache):
    # a span and a syntax tree's node are rebuilt by their __init__ (cheaper to read than
    # a __setstate__); equal values, shared objects still shared
    import pickle
    import pickletools

    from rules_run.diagnostics import Span
    from rules_run.lang import ast

    span = Span("a.rules", 3, 5, 3, 9)
    name = ast.Name(span, "x")
    value = {"nodes": [name, ast.Literal(span, 4, "int")], "again": name}
    cache.write("things", "a", "k", value)
    back = cache.read("things", "a", "k")
    assert back == value
    assert back["again"] is back["nodes"][0]
    assert back["nodes"][0].span is back["nodes"][1].span
    (entry,) = (fresh_cache / "things").iterdir()
    with open(entry, "rb") as f:
        f.readline(), f.readline()
        ops = {op.name for op, _, _ in pickletools.genops(f.read())}
    assert "BUILD" not in ops   # no __setstate__ call: every instance came from __init__
    assert pickle.loads(pickle.dumps(span)) == span   # the ordinary pickling is untouched


def test_an_instance_init_does_more_with_is_pickled_as_usual(fresh_cache):
    # a post-init hook (dice work out their faces) or keyword-only fields (events): not
    # rebuilt through __init__
    from rules_run.runtime.events import Turn

    assert cache._init_fields(Turn) is None
    from rules_run.chance.dice import Pool

    assert cache._init_fields(Pool) is None
    from rules_run.diagnostics import Span

    assert cache._init_fields(Span) == ("path", "line", "column", "end_line", "end_column")
    turn = Turn(seq=2, round=1, side="a", phase=None)
    cache.write("things", "t", "k", [turn])
    assert cache.read("things", "t", "k") == [turn]


def test_an_entry_is_read_with_the_collector_paused(fresh_cache):
    # a warm start unpickles tens of thousands of objects: the cyclic collector, which
    # would walk them again and again, waits until the entry is read (and runs again then,
    # past them)
    import gc

    seen = []

    def load(name: str) -> str:
        seen.append(gc.isenabled())
        return name

    cache.write("things", "a", "k", ["x", "y"],
                persistent_id=lambda obj: obj if obj == "y" else None)
    assert gc.isenabled()
    assert cache.read("things", "a", "k", persistent_load=load) == ["x", "y"]
    assert seen == [False] and gc.isenabled()
    assert gc.get_freeze_count() > 0   # what was alive then is not walked again
    gc.disable()
    try:   # a collector the caller turned off stays off
        cache.read("things", "a", "k", persistent_load=load)
        assert not gc.isenabled()
    finally:
        gc.enable()

