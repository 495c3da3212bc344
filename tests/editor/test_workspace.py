"""The language server's answers, asked directly (without the protocol)."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest
from helpers.editor_kit import BROKEN_PATCH, ROOT, check_json, position

from rules_run.editions.loader import load_ruleset
from rules_run.editor.workspace import Workspace

CORE = ROOT / "rulesets" / "wfb8" / "core.rules"


def found(by_path: dict) -> list[tuple]:
    return sorted((path, d.span.line, d.span.column, d.severity.value, d.code, d.message)
                  for path, ds in by_path.items() for d in ds)


def test_a_broken_patch_gets_what_rules_check_reports(patch: Path, capsys) -> None:
    expected = check_json(patch, capsys)
    assert [e[4] for e in expected] == ["patch-override-missing", "unknown-characteristic"]
    got = Workspace().check(patch / "house.rules", battles=True)
    assert found(got) == expected
    hints = [d.hint for ds in got.values() for d in ds]
    assert hints == ["did you mean 'to_wound' or 'to_wound_missile'?", "did you mean 'Ld'?"]


def test_an_unsaved_edit_is_checked_and_a_fix_clears_the_file(patch: Path) -> None:
    work = Workspace()
    house = patch / "house.rules"
    work.check(house)
    fixed = BROKEN_PATCH.replace("to_woud", "to_wound").replace("u.Ldd", "u.Ld")
    work.set_text(house, fixed)
    try:
        assert work.check(house) == {os.path.abspath(house): []}
        work.set_text(house, fixed.replace("u.Ld", "u.Lx"))
        (diagnostic,) = work.check(house)[os.path.abspath(house)]
        assert (diagnostic.code, diagnostic.span.line) == ("unknown-characteristic",
                                                           position(house, "u.Ldd")[0])
    finally:
        work.close(house)
    assert house.read_text(encoding="utf-8") == BROKEN_PATCH   # nothing was saved


def test_an_error_in_the_base_shows_in_the_base_file_and_at_the_extends(tmp_path: Path) -> None:
    base, patch = tmp_path / "base", tmp_path / "top"
    for folder, text in ((base, 'ruleset base "Base"\n\ntest t(u: unit) @ "not in seed: a test"\n'
                                '    dice D6\n    need nothing_here\n'),
                         (patch, 'ruleset top "Top" extends base\n\nadd status shaken @ "not in seed: a test"\n')):
        folder.mkdir()
        (folder / "index.yaml").write_text("kind: ruleset\nrules: [main.rules]\n",
                                           encoding="utf-8")
        (folder / "main.rules").write_text(text, encoding="utf-8")
    got = Workspace().check(patch / "main.rules")
    assert [d.code for d in got[os.path.abspath(patch / "main.rules")]] == ["bad-base"]
    assert [(d.code, d.span.line) for d in got[os.path.abspath(base / "main.rules")]] == [
        ("undefined-name", 5)]


def test_hover_on_a_test_gives_its_signature_and_its_citation(patch: Path) -> None:
    house = patch / "house.rules"
    text = Workspace().hover(str(house), *position(house, "to_hit(a, t)"))
    assert text is not None
    cite = load_ruleset(ROOT / "rulesets" / "wfb8").cite("to_hit")
    assert cite == "000_c4300f58fce5f1da.txt L418"
    assert "test to_hit(attacker: unit, target: unit)" in text
    assert f"*declared in wfb8*: cites `{cite}`" in text


def test_hover_shows_the_doc_comment_and_the_cited_lines_from_a_sources_folder(
        patch: Path, tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    sources.mkdir()
    # the user's own copy of the source: here, made-up lines
    (sources / "000_c4300f58fce5f1da.txt").write_text(
        "".join(f"made-up line {n}\n" for n in range(1, 500)), encoding="utf-8")
    house = patch / "house.rules"
    work = Workspace(sources)
    text = work.hover(str(patch / "house.rules"), *position(house, "steady_nerve"))
    assert text is not None and "> L450: made-up line 450" in text
    core_text = Workspace(sources).hover(str(CORE), *position(CORE, "to_wound(attacker"))
    assert core_text is not None
    assert "> L420: made-up line 420" in core_text
    assert Workspace().hover(str(CORE), *position(CORE, "to_wound(attacker")).count(">") == 0


def test_hover_gives_the_exact_pass_chance_of_a_test_without_parameters(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [main.rules]\nlibrary: [lucky, "
                                       "pair]\n", encoding="utf-8")
    # Lucky: 5+ on a D6, re-rolling a 1 is not declared: 2/6 = 1/3.
    # Pair: the total of 2D6 is at least 11: 3/36 = 1/12.
    (folder / "main.rules").write_text(
        'ruleset tiny "Tiny"\n\n# Lucky: a plain 5+.\ntest lucky() @ "not in seed: a test"\n    dice D6\n'
        '    need 5\n\ntest pair() @ "not in seed: a test"\n    dice 2D6\n    need 11\n', encoding="utf-8")
    rules = folder / "main.rules"
    work = Workspace()
    lucky = work.hover(str(rules), *position(rules, "lucky"))
    assert lucky is not None
    assert "Lucky: a plain 5+." in lucky
    assert f"chance {Fraction(1, 3)} (33.33%)" in lucky
    pair = work.hover(str(rules), *position(rules, "pair"))
    assert pair is not None and f"chance {Fraction(1, 12)} (8.33%)" in pair


def test_definition_jumps_from_a_patch_into_the_base_ruleset(patch: Path) -> None:
    house = patch / "house.rules"
    (span,) = Workspace().definition(str(house), *position(house, "to_hit(a, t)"))
    line, column = position(CORE, "to_hit(attacker")
    assert (os.path.abspath(span.path), span.line, span.column) == (str(CORE), line, column)


def test_definition_of_an_override_lists_the_patch_then_the_base(tmp_path: Path) -> None:
    # The house rule overrides one clause of to_wound (``override test to_wound @ L420``,
    # no parameters): on its name, and on a use of it, the patch comes first, then the base.
    house = ROOT / "rulesets" / "examples" / "wfb8-house-rules" / "house.rules"
    line, column = position(house, "override test to_wound")
    expected = [(str(house), line), (str(CORE), position(CORE, "to_wound(attacker")[0])]
    on_name = Workspace().definition(str(house), line, column + len("override test "))
    assert [(os.path.abspath(s.path), s.line) for s in on_name] == expected
    on_use = Workspace().definition(str(house), *position(house, "to_wound(attacker"))
    assert [(os.path.abspath(s.path), s.line) for s in on_use] == expected


def test_references_find_uses_across_files_and_unit_data() -> None:
    special = ROOT / "rulesets" / "wfb8" / "special_rules.rules"
    refs = Workspace().references(str(special), *position(special, '"Stubborn"'))
    places = {(Path(s.path).name) for s in refs}
    assert {"special_rules.rules", "battle.rules", "empire.yaml"} <= places
    battle_rules = ROOT / "rulesets" / "wfb8" / "battle.rules"
    uses = [s for s in refs if os.path.abspath(s.path) == str(battle_rules)]
    lines = battle_rules.read_text(encoding="utf-8").splitlines()
    assert uses and all(lines[s.line - 1][s.column - 1:s.end_column - 1] == "Stubborn"
                        for s in uses)


def test_completion_offers_rule_names_in_a_battle_file(battle: Path) -> None:
    line, column = position(battle, "Stu]")
    labels = {c.label: c.kind for c in Workspace().completion(str(battle), line, column + 3)}
    assert labels["Stubborn"] == "rule"
    assert labels["WS"] == "characteristic"
    profiles = Workspace().completion(str(battle), *position(battle, "empire/halberdier"))
    assert "empire/halberdier" in {c.label for c in profiles}


def test_completion_in_a_rule_file(patch: Path) -> None:
    house = patch / "house.rules"
    line, column = position(house, "to_hit(a, t)")
    labels = {c.label: c.kind for c in Workspace().completion(str(house), line, column + 4)}
    assert labels["to_hit"] == "test" and labels["to_hit_missile"] == "test"
    assert "to_wound" not in labels
    line, column = position(house, "u.Ldd")
    after_dot = {c.label for c in Workspace().completion(str(house), line, column + 2)}
    assert {"Ld", "WS", "models"} <= after_dot
    keywords = {c.label for c in Workspace().completion(str(house), line + 1, 1)}
    assert {"override", "sequence", "to_hit"} <= keywords


def test_document_symbols_outline_a_rule_file(patch: Path) -> None:
    symbols = Workspace().symbols(str(patch / "house.rules"))
    assert [(s.name, s.kind, s.detail) for s in symbols] == [
        ("broken-patch", "ruleset", "extends wfb8"), ("to_woud", "test", "override"),
        ("steady_nerve", "test", "add"), ("lucky_blow", "action", "add")]
    line, column = position(patch / "house.rules", "steady_nerve")
    assert (symbols[2].name_span.line, symbols[2].name_span.column) == (line, column)


@pytest.mark.parametrize("name", ["core.rules", "special_rules.rules"])
def test_every_declaration_is_its_own_definition(name: str) -> None:
    path = ROOT / "rulesets" / "wfb8" / name
    work = Workspace()
    for symbol in work.symbols(str(path)):
        if symbol.kind == "ruleset":
            continue
        spans = work.definition(str(path), symbol.name_span.line, symbol.name_span.column)
        assert spans, symbol
        assert (spans[0].line, spans[0].column) == (symbol.name_span.line,
                                                    symbol.name_span.column), symbol


def test_a_case_is_a_symbol_and_its_action_name_leads_to_the_action() -> None:
    magic = ROOT / "rulesets" / "wfb8" / "magic.rules"
    work = Workspace()
    fireball = next(s for s in work.symbols(str(magic)) if s.kind == "case")
    assert fireball.name == 'spell_effect "fireball"'
    line, column = position(magic, 'spell_effect "fireball"')
    assert (fireball.name_span.line, fireball.name_span.column) == (line, column)
    (action,) = work.definition(str(magic), line, column)
    assert (action.line, action.column) == position(magic, "spell_effect(s: text")
    uses = {s.line for s in work.references(str(magic), line, column, declaration=False)}
    assert line in uses and position(magic, "spell_effect(s, w")[0] in uses
