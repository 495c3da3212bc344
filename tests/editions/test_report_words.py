"""A ruleset's report words: checked against its declarations, inherited by its patches."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.diagnostics import DataError
from rules_run.editions.loader import load_edition, load_ruleset

PATCH_RULES = '''ruleset my-patch "A patch with words of its own" extends wfb8
    source "000_c4300f58fce5f1da.txt"

override test panic_test(unit: unit, modifier: int = 0, rerolled: bool = false) @ L508-L520
    dice 2D6
    pass if result <= clamp(unit.Ld + modifier, 0, 10)
    reroll failed if rerolled
'''


def _patch(tmp_path: Path, words: str) -> Path:
    folder = tmp_path / "my-patch"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [patch.rules]\n"
                                       "report: report.yaml\n", encoding="utf-8")
    (folder / "patch.rules").write_text(PATCH_RULES, encoding="utf-8")
    (folder / "report.yaml").write_text(words, encoding="utf-8")
    return folder


def test_a_patch_inherits_its_bases_words_and_replaces_some(tmp_path):
    folder = _patch(tmp_path, 'kind: report\nnames:\n  panic_test: Panic! test\n')
    words = load_ruleset(folder).report
    assert words["names"]["panic_test"] == "Panic! test"
    assert words["names"]["break_test"] == load_edition("wfb8").report["names"]["break_test"]
    assert words["messages"] == load_edition("wfb8").report["messages"]


def test_unknown_names_and_placeholders_are_located_errors(tmp_path):
    folder = _patch(tmp_path, 'kind: report\n'
                              'names:\n  brake_test: Break test\n'
                              'rolls:\n  panic_test: "{unit} panic at {modifer}"\n'
                              'messages:\n  holds: "{1} hold"\n  hold fast: "{1} hold fast"\n'
                              '  rallies: "{2} rally"\n')
    with pytest.raises(DataError) as caught:
        load_ruleset(folder)
    text = caught.value.render()
    assert "report.yaml:3:3: error: names: 'brake_test' is not a declaration of the ruleset" \
        in text and "did you mean 'break_test'" in text
    assert ("report.yaml:5:15: error: rolls.panic_test: the phrase names {modifer}, which it "
            "is not given") in text and "did you mean 'modifier'" in text
    assert "report.yaml:8:3: error: messages: 'hold fast' is not a log message of the ruleset" \
        in text
    assert "messages.rallies: the phrase names {2}, which it is not given" in text
    assert "hint: it is given: {1}" in text
    assert "messages: 'holds'" not in text                      # a message the rules log


def test_a_re_roll_phrase_names_a_test_with_a_re_roll_of_its_own(tmp_path):
    # the words tell who gives a test's own re-roll (reroll failed if ...): a test without
    # one would never show them
    folder = _patch(tmp_path, 'kind: report\nrerolls:\n  stupidity_test: the champion\n')
    with pytest.raises(DataError) as caught:
        load_ruleset(folder)
    text = caught.value.render()
    assert ("report.yaml:3:3: error: rerolls: 'stupidity_test' is not a test of the ruleset "
            "with a re-roll of its own") in text
    assert "did you mean 'restraint_test'" in text
