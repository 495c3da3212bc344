"""Patches and ``extends``: a patch builds a new ruleset and never changes its base.

Each test copies the tiny ruleset of ``tests/lang/fixtures/`` into a temporary folder and
writes patches beside it (``extends tiny`` finds the folder next to the patch).
"""

from __future__ import annotations

import copy
import os
import shutil
from pathlib import Path

import pytest

from rules_run.diagnostics import InterpreterError, PatchError, UsageError
from rules_run.editions.loader import load_ruleset
from rules_run.editions.registry import RULESETS_DIR, find_edition
from rules_run.editions.ruleset import Origin

FIXTURE = Path(__file__).resolve().parents[1] / "lang" / "fixtures" / "tiny"
SEED_000 = "000_c4300f58fce5f1da.txt"
SEED_004 = "004_0e3c1f4b9a7d2c55.txt"


@pytest.fixture
def world(tmp_path: Path) -> Path:
    """A folder holding a copy of the tiny ruleset."""
    shutil.copytree(FIXTURE, tmp_path / "tiny")
    return tmp_path


def write_patch(world: Path, name: str, body: str, *, extends: str = "tiny",
                sources: tuple[str, ...] = (SEED_004,)) -> Path:
    folder = world / name
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [patch.rules]\n", encoding="utf-8")
    header = f'ruleset {name} "{name}" extends {extends}\n'
    header += "".join(f'    source "{s}"\n' for s in sources)
    (folder / "patch.rules").write_text(header + "\n" + body, encoding="utf-8")
    return folder


PATCH = """override rule "Stubborn" @ L30
    pass leadership if unit == bearer and modifier > -3
add status shaken @ 000 L12
remove rule "Frenzy" @ L31
define status fleeing until end of turn @ L32
define status steady @ L33
"""


def test_a_patch_is_a_new_ruleset_and_its_base_is_unchanged(world: Path) -> None:
    base = load_ruleset(world / "tiny")
    before = {name: copy.deepcopy(dict(getattr(base, name)))
              for name in ("decls", "rules", "origins", "units", "equipment")}
    identities = {name: dict(getattr(base, name)) for name in ("decls", "rules", "tables")}
    patched = load_ruleset(write_patch(world, "patch", PATCH))
    assert patched is not base and patched.base is base
    for name, value in before.items():
        assert dict(getattr(base, name)) == value, name
    for name, value in identities.items():
        assert all(getattr(base, name)[k] is v for k, v in value.items()), name
        assert list(getattr(base, name)) == list(value), name
    assert base.patches == () and base.chain == ("tiny",)
    # and the base, loaded again, is the very same object (the patch did not rebuild it)
    assert load_ruleset(world / "tiny") is base


def test_what_each_operation_does(world: Path) -> None:
    base = load_ruleset(world / "tiny")
    patched = load_ruleset(write_patch(world, "patch", PATCH))
    # override replaces the rule
    assert patched.rules["Stubborn"] is not base.rules["Stubborn"]
    assert patched.rules["Stubborn"].span.path.endswith("patch.rules")
    # add brings a new declaration, remove takes one away
    assert patched.decls["shaken"].kind == "status" and "shaken" not in base.decls
    assert "Frenzy" not in patched.rules and "Frenzy" in base.rules
    # define replaces what is there, and adds what is not
    assert (patched.decls["fleeing"].until, base.decls["fleeing"].until) == ("turn", None)
    assert "steady" in patched.decls
    # everything else is the base's own object
    assert patched.decls["to_hit"] is base.decls["to_hit"]
    assert patched.tables["to_hit_chart"] is base.tables["to_hit_chart"]
    assert patched.units.keys() == base.units.keys()


def test_origins_and_citations_per_declaration(world: Path) -> None:
    patched = load_ruleset(write_patch(world, "patch", PATCH))
    assert patched.origins["rule:Stubborn"] == Origin("patch", f"{SEED_004} L30", "override")
    # a numbered citation names the base's seed, which the patch may cite too
    assert patched.origins["shaken"] == Origin("patch", f"{SEED_000} L12", "add")
    assert patched.origins["rule:Frenzy"] == Origin("patch", f"{SEED_004} L31", "remove")
    assert patched.origins["fleeing"] == Origin("patch", f"{SEED_004} L32", "define")
    assert patched.origins["steady"] == Origin("patch", f"{SEED_004} L33", "define")
    # what the patch leaves alone keeps the base's origin and citation
    assert patched.origins["to_hit"] == Origin("tiny", f"{SEED_000} L418", "declare")
    assert patched.cite("rule:Stubborn") == f"{SEED_004} L30"
    assert patched.cite("to_hit") == f"{SEED_000} L418"


def test_the_patch_records_its_operations_in_file_order(world: Path) -> None:
    patched = load_ruleset(write_patch(world, "patch", PATCH))
    assert patched.chain == ("tiny", "patch")
    ((patch_id, ops),) = patched.patches
    assert patch_id == "patch"
    assert [(op.op, op.kind, op.name) for op in ops] == [
        ("override", "rule", "Stubborn"), ("add", "status", "shaken"),
        ("remove", "rule", "Frenzy"), ("define", "status", "fleeing"),
        ("define", "status", "steady"),
    ]


def test_a_patch_cites_its_own_seed_first_then_its_bases(world: Path) -> None:
    patched = load_ruleset(write_patch(world, "patch", PATCH))
    assert patched.sources == (SEED_004, SEED_000)
    # without a source of its own, an unnumbered citation means the base's seed
    plain = load_ruleset(write_patch(world, "plain", "add status shaken @ L12\n", sources=()))
    assert plain.sources == (SEED_000,)
    assert plain.origins["shaken"].cite == f"{SEED_000} L12"


def test_inherited_citations_are_not_checked_against_the_patchs_sources(world: Path) -> None:
    # Regression: the base's "@ L418" once failed in a patch that declares no source of its
    # own ("a line citation needs a source"), once for every declaration of the base.
    patched = load_ruleset(write_patch(world, "plain", "add status shaken @ L12\n", sources=()))
    assert patched.decls["to_hit"].cite.ranges == ("L418",)


def test_an_extends_chain(world: Path) -> None:
    first = write_patch(world, "first", 'add rule "Hatred" @ L40\nadd status shaken @ L41\n')
    second = write_patch(world, "second", 'override rule "Hatred" @ L50\n'
                                          "remove status shaken @ L51\n", extends="first")
    tip = load_ruleset(second)
    middle = load_ruleset(first)
    assert tip.chain == ("tiny", "first", "second")
    assert tip.base is middle and middle.base is load_ruleset(world / "tiny")
    assert [pid for pid, _ in tip.patches] == ["first", "second"]
    assert tip.origins["rule:Hatred"].ruleset == "second"
    assert middle.origins["rule:Hatred"].ruleset == "first"
    assert "shaken" in middle.decls and "shaken" not in tip.decls


def test_operations_that_do_not_fit_are_all_reported(world: Path) -> None:
    folder = write_patch(world, "patch", 'add status fleeing @ L1\noverride rule "Hatred" @ L2\n'
                                         "remove table nothing @ L3\n")
    with pytest.raises(PatchError) as raised:
        load_ruleset(folder)
    assert [d.code for d in raised.value.diagnostics] == [
        "patch-add-existing", "patch-override-missing", "patch-remove-missing"]


# ---------------------------------------------------------------- finding the base


def test_extends_does_not_depend_on_the_working_directory(world: Path, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # A folder called wfb8 in the working directory is not the wfb8 a patch extends.
    decoy = tmp_path / "elsewhere" / "wfb8"
    decoy.mkdir(parents=True)
    (decoy / "index.yaml").write_text("kind: nonsense\n", encoding="utf-8")
    folder = write_patch(world, "patch", "add status dazed @ L1\n", extends="wfb8")
    monkeypatch.chdir(decoy.parent)
    patched = load_ruleset(folder)
    assert patched.base.folder == (RULESETS_DIR / "wfb8").resolve()
    monkeypatch.chdir(world)
    assert load_ruleset(folder) is patched


def test_a_ruleset_beside_the_patch_comes_before_a_bundled_one(world: Path) -> None:
    shutil.copytree(world / "tiny", world / "wfb8")
    text = (world / "wfb8" / "core.rules").read_text(encoding="utf-8")
    (world / "wfb8" / "core.rules").write_text(text.replace("ruleset tiny", "ruleset wfb8"),
                                               encoding="utf-8")
    patched = load_ruleset(write_patch(world, "patch", "add status dazed @ L1\n",
                                       extends="wfb8"))
    assert patched.base.folder == (world / "wfb8").resolve()


def test_find_edition_by_id_alias_or_folder() -> None:
    wfb8 = RULESETS_DIR / "wfb8"
    assert find_edition("wfb8") == wfb8
    assert find_edition("WFB-X") == wfb8  # an alias, in any case
    assert find_edition(str(wfb8)) == wfb8.resolve()
    with pytest.raises(UsageError) as raised:
        find_edition(str(wfb8), folders=False)
    with pytest.raises(UsageError) as raised:
        find_edition("wfb9")
    (d,) = raised.value.diagnostics
    assert (d.code, d.message, d.hint) == ("unknown-edition", "unknown edition 'wfb9'",
                                           "did you mean 'wfb8' or 'wfb3'?")


# ---------------------------------------------------------------- the cache


def _touch(path: Path, text: str) -> None:
    """Rewrite a file so that its fingerprint surely changes (size and time)."""
    path.write_text(text, encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))


def test_loading_is_cached_until_a_file_changes(world: Path) -> None:
    folder = world / "tiny"
    first = load_ruleset(folder)
    assert load_ruleset(folder) is first
    assert load_ruleset(str(folder)) is first  # a path given as text is the same folder
    rules = folder / "core.rules"
    _touch(rules, rules.read_text(encoding="utf-8") + "status shaken @ L467\n")
    second = load_ruleset(folder)
    assert second is not first and "shaken" in second.decls and "shaken" not in first.decls
    assert load_ruleset(folder) is second


def test_a_change_to_the_base_reloads_the_patch(world: Path) -> None:
    patch_folder = write_patch(world, "patch", "add status dazed @ L1\n")
    patched = load_ruleset(patch_folder)
    rules = world / "tiny" / "core.rules"
    _touch(rules, rules.read_text(encoding="utf-8") + "status shaken @ L467\n")
    reloaded = load_ruleset(patch_folder)
    assert reloaded is not patched
    assert "shaken" in reloaded.decls and "shaken" not in patched.decls
    assert reloaded.base is load_ruleset(world / "tiny")


def test_a_broken_edit_is_reported_and_a_fixed_one_loads(world: Path) -> None:
    folder = world / "tiny"
    rules = folder / "core.rules"
    good = rules.read_text(encoding="utf-8")
    load_ruleset(folder)
    _touch(rules, good + "status shaken\n")
    with pytest.raises(InterpreterError) as raised:
        load_ruleset(folder)
    assert [d.code for d in raised.value.diagnostics] == ["missing-citation"]
    _touch(rules, good + "status shaken @ L467\n")
    assert "shaken" in load_ruleset(folder).decls


def test_the_manifests_library_keeps_declarations_from_the_unused_warning(world: Path) -> None:
    base = world / "tiny"
    (base / "core.rules").write_text((base / "core.rules").read_text(encoding="utf-8") + """
test nerve(unit: unit) @ L1
    dice 2D6
    pass if result <= unit.Ld
""", encoding="utf-8")
    unused = [w.message for w in load_ruleset(base).warnings]
    assert "test 'nerve' is declared but never used" in unused
    manifest = base / "index.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "library: [nerve]\n",
                        encoding="utf-8")
    kept = [w.message for w in load_ruleset(base).warnings]
    assert kept == [m for m in unused if "'nerve'" not in m]
    # a patch keeps its base's library
    patch = write_patch(world, "calm", "add status calm @ 000 L12\n")
    assert "nerve" in load_ruleset(patch).library
