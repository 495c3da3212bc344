"""Re-checking after an edit: the parser, the loader and the checker keep what they found
for text that did not change, and what they report is what a cold load reports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules_run import buffers
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import clear_cache, load_ruleset
from rules_run.lang.check_declarations import DeclarationChecker
from rules_run.lang.check_effects import EffectChecker

ROOT = Path(__file__).resolve().parents[2]
WFB8 = ROOT / "rulesets" / "wfb8"
BATTLE = WFB8 / "battle.rules"
CORE = WFB8 / "core.rules"


def _report(folder: Path) -> list[str]:
    try:
        ruleset = load_ruleset(folder)
    except InterpreterError as err:
        return [d.render() for d in err.diagnostics]
    return [d.render() for d in ruleset.warnings]


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    buffers.set_buffer(path, text.replace(old, new))


@pytest.fixture
def unsaved():
    yield
    for path in (BATTLE, CORE):
        buffers.drop_buffer(path)
    clear_cache()


BREAK_TEST = "test break_test(unit: unit, lost_by: int, steadfast: bool = false, rerolled: bool = false)"

EDITS = [
    # a name misspelt inside one action
    [(BATTLE, "ordered by distance(u, e)][0]", "ordered by distance(u, ee)][0]")],
    # a test loses its other parameters: its callers in another file are wrong now
    [(CORE, BREAK_TEST, "test break_test(unit: unit)")],
    # lines added above everything (every declaration below moves) and a mistake
    [(CORE, "test break_test(", "# a new comment\n\ntest break_test("),
     (BATTLE, "ordered by distance(u, e)][0]", "ordered by distance(u, ee)][0]")],
]


@pytest.mark.parametrize("edits", EDITS, ids=["in-a-body", "a-signature", "moved"])
def test_an_incremental_check_reports_what_a_cold_one_does(edits, unsaved) -> None:
    assert _report(WFB8) == []          # warm: everything checked once
    for path, old, new in edits:
        _edit(path, old, new)
    incremental = _report(WFB8)
    assert incremental                  # every edit makes a mistake
    clear_cache()
    assert _report(WFB8) == incremental
    for path in (BATTLE, CORE):         # undone: clean again, from the caches
        buffers.drop_buffer(path)
    assert _report(WFB8) == []


def test_an_edit_checks_again_only_the_declarations_it_touches(unsaved, monkeypatch) -> None:
    # what is kept in memory is measured here: the disk cache (which an earlier test may
    # have filled) would hand back the checked ruleset without parsing or checking it
    monkeypatch.setenv("RULES_RUN_CACHE", "off")
    clear_cache()
    _report(WFB8)
    ran: list[str] = []
    for owner, kind in ((DeclarationChecker, "ActionDecl"), (DeclarationChecker, "RollDecl"),
                        (DeclarationChecker, "SequenceDecl"), (DeclarationChecker, "PhaseDecl"),
                        (EffectChecker, "RuleDecl")):
        method = getattr(owner, f"check_{kind}")

        def counting(self, decl, method=method):
            ran.append(decl.name)
            return method(self, decl)

        monkeypatch.setattr(owner, f"check_{kind}", counting)
    _report(WFB8)
    assert ran == []   # nothing changed: nothing checked again
    ran.clear()
    _edit(BATTLE, "ordered by distance(u, e)][0]", "ordered by distance(u,  e)][0]")
    assert _report(WFB8) == []
    assert "nearest" in ran
    everything = len(load_ruleset(WFB8).decls) + len(load_ruleset(WFB8).rules)
    assert len(ran) < everything / 10, ran
    ran.clear()
    _edit(CORE, BREAK_TEST, BREAK_TEST.replace("steadfast: bool = false", "steadfast: bool = true"))
    assert _report(WFB8) == []
    callers = {n for n, d in load_ruleset(WFB8).decls.items() if n != "break_test"
               and re.search(r"(?<![a-z_])break_test\(", _text_of(d))}
    assert callers and callers | {"break_test"} <= set(ran)
    assert len(ran) < everything / 5, ran


def _text_of(decl) -> str:
    lines = Path(decl.span.path).read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[decl.span.line - 1:decl.span.end_line])
