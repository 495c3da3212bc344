"""Diagnostics of a whole ruleset: each mistake reported once (a clause that several tests
share is not reported for each), and the mistakes of every file at once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import load_ruleset
from rules_run.paths import RULESETS_DIR


def broken_copy(tmp_path: Path, name: str, edits: dict[str, tuple[str, str]]) -> Path:
    """A copy of bundled ruleset ``name`` under ``tmp_path`` with one text replaced (once)
    in each named file."""
    folder = tmp_path / name
    shutil.copytree(RULESETS_DIR / name, folder)
    for file, (old, new) in edits.items():
        text = (folder / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, (file, old)
        (folder / file).write_text(text.replace(old, new), encoding="utf-8")
    return folder


def rendered(tmp_path: Path, folder: Path, monkeypatch) -> str:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InterpreterError) as caught:
        load_ruleset(folder.relative_to(tmp_path))
    return caught.value.render()


def test_a_mistake_in_a_reused_clause_is_reported_once(tmp_path, monkeypatch) -> None:
    # five tests reuse wfb3's `cool`: its broken clause is one mistake, not six
    folder = broken_copy(tmp_path, "wfb3", {
        "psychology.rules": ('result <= unit_value(unit, "Cl"', 'result <= unit_valu(unit, "Cl"'),
        "magic.rules": ("            cast_spell(w,", "            cast_spel(w,"),
    })
    assert rendered(tmp_path, folder, monkeypatch) == """\
wfb3/psychology.rules:107:23: error: unknown function 'unit_valu'
        pass if result <= unit_valu(unit, "Cl", use) - (if unit is unformed then 1 else 0)
                          ^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'unit_value', 'rout_value' or 'item_values'?
wfb3/magic.rules:175:13: error: unknown function 'cast_spel'
                cast_spel(w, choice, decide(spell_target, w, choice))
                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'cast_spell' or 'all_spells'?"""


def test_syntax_errors_of_every_file_and_the_names_of_the_files_that_parse(
        tmp_path, monkeypatch) -> None:
    # two files that do not parse, and a mistake in each of two that do: all four are told;
    # the uses of the two declarations that do not parse are not (they would be unknown)
    folder = broken_copy(tmp_path, "wfb3", {
        "psychology.rules": ('result <= unit_value(unit, "Cl"', 'result <= unit_valu(unit, "Cl"'),
        "magic.rules": ("            cast_spell(w,", "            cast_spel(w,"),
        "battle.rules": ("missile_tested until end of turn quiet", "missile_tested until end quiet"),
        "rules.rules": ('rule "Lose Face" ', 'rule "Lose Face" ('),
    })
    assert rendered(tmp_path, folder, monkeypatch) == """\
wfb3/battle.rules:19:33: error: unexpected 'quiet'
    status missile_tested until end quiet                                     @ L543
                                    ^
  expected: 'of'
wfb3/rules.rules:21:71: error: unexpected '@'
    rule "Lose Face" (                                                    @ L707-L709
                                                                          ^
  expected: ')', a name
wfb3/psychology.rules:107:23: error: unknown function 'unit_valu'
        pass if result <= unit_valu(unit, "Cl", use) - (if unit is unformed then 1 else 0)
                          ^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'unit_value', 'rout_value' or 'item_values'?
wfb3/magic.rules:175:13: error: unknown function 'cast_spel'
                cast_spel(w, choice, decide(spell_target, w, choice))
                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'cast_spell' or 'all_spells'?
note: the declarations that parse were checked without 'Lose Face' and 'missile_tested' \
(not parsed): 2 uses of them not reported; tables, units and battles are checked once every \
rule file parses"""


SMALL = '''ruleset kit "Kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: WS, Ld range 0..10 @ L1
action steady(u: unit) @ L2
    return u.Ld
'''


def small(tmp_path: Path, *files: str) -> Path:
    """A ruleset ``kit`` of the rule files given (the first after :data:`SMALL`)."""
    folder = tmp_path / "kit"
    folder.mkdir()
    names = [f"f{i}.rules" for i in range(len(files))]
    (folder / "index.yaml").write_text(f"kind: ruleset\nrules: [{', '.join(names)}]\n",
                                       encoding="utf-8")
    for i, (name, text) in enumerate(zip(names, files)):
        (folder / name).write_text((SMALL if i == 0 else "") + text, encoding="utf-8")
    return folder


def test_a_declaration_whose_name_cannot_be_read_hides_every_unknown_name(
        tmp_path, monkeypatch) -> None:
    folder = small(tmp_path, "action broken(u: unit) @ L3\n    return u.WS +\n",
                   "))) @ L4\naction calls(u: unit) @ L5\n    return brokn(u) + steadyy(u)\n"
                   "action typed(u: unit) @ L6\n    return u.Ld + \"a\"\n")
    # the declaration in f1.rules that does not parse could be any name: no unknown name
    # is told (brokn, steadyy), the other mistakes are
    assert rendered(tmp_path, folder, monkeypatch).splitlines()[-4:] == [
        "kit/f1.rules:5:12: error: cannot add text to int",
        '        return u.Ld + "a"',
        "               ^^^^^^^^^^",
        "note: the declarations that parse were checked without 'broken' and a declaration "
        "whose name cannot be read (not parsed): 2 uses of unknown names not reported; tables, "
        "units and battles are checked once every rule file parses"]


def test_without_its_header_a_ruleset_is_not_checked_further(tmp_path, monkeypatch) -> None:
    folder = small(tmp_path, "", "action calls(u: unit) @ L5\n    return brokn(u)\n")
    (folder / "f0.rules").write_text(SMALL.replace('"Kit"', '"Kit'), encoding="utf-8")
    text = rendered(tmp_path, folder, monkeypatch).splitlines()
    assert (text[0], text[-1]) == (
        "kit/f0.rules:1:13: error: unterminated string",
        "note: the ruleset's header does not parse: the declarations are checked once it does "
        "(it says what they extend and cite)")
