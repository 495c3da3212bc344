"""A corpus of broken inputs, each with the exact diagnostics it must produce.

Every folder of ``tests/lang/broken/`` is one situation, named after it: the broken input (one
rule file, a ruleset folder, or a battle file) with, as far as possible, one mistake, and
``expected.yaml``, which says how to load the input and lists every diagnostic in the order
reported. An entry gives the file (as the diagnostic shows it: relative to the case folder),
the line and column, the code and the exact message; ``hint`` and ``expected`` are checked
when the entry gives them. A case must end in an :class:`InterpreterError` of the named
class, never in a traceback; or, with ``error: none``, a ruleset must load and the entries
are its warnings (a mistake that runs, such as a declaration nothing uses).

    load: rules | ruleset | battle
    path: the rule file, the ruleset folder or the battle file, relative to the case folder
    edition: (battle) the ruleset folder the battle is checked against
    error: LanguageError | PatchError | DataError | none
    diagnostics:
      - {file: broken.rules, line: 2, column: 16, code: syntax, message: "...", hint: "..."}

Rulesets in the corpus are found relative to each other (a patch's ``extends base`` is the
folder ``base`` beside it), so the test runs inside the case folder.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules_run.data.yaml_loader import load_yaml
from rules_run.diagnostics import Diagnostic, InterpreterError, Severity
from rules_run.editions.loader import load_ruleset
from rules_run.lang.parser import parse_rules

CORPUS = Path(__file__).resolve().parent / "broken"
CASES = sorted(p for p in CORPUS.iterdir() if p.is_dir())
LOADS = ("rules", "ruleset", "battle")


def expectation(case: Path) -> dict[str, Any]:
    """The case's expected.yaml (duplicate keys in it are an error, as anywhere)."""
    return load_yaml(case / "expected.yaml").value


def load(spec: dict[str, Any]) -> Any:
    """Load the case's input the way a command would; the case folder is the working directory."""
    if spec["load"] == "rules":
        path = Path(spec["path"])
        return parse_rules(path.read_text(encoding="utf-8"), spec["path"])
    if spec["load"] == "ruleset":
        return load_ruleset(spec["path"])
    from rules_run import open_battle

    return open_battle(spec["edition"], spec["path"])


def diagnostics(spec: dict[str, Any]) -> list[Diagnostic]:
    """What loading the case reports: its error's diagnostics, or its ruleset's warnings."""
    if spec["error"] == "none":
        warnings = list(load(spec).warnings)
        assert all(w.severity is Severity.WARNING for w in warnings)
        return warnings
    with pytest.raises(InterpreterError) as raised:
        load(spec)
    assert type(raised.value).__name__ == spec["error"]
    return raised.value.diagnostics


def observed(diagnostic: Diagnostic, wanted: dict[str, Any]) -> dict[str, Any]:
    """The diagnostic in the shape of an expected.yaml entry (hint and expected if asked for)."""
    span = diagnostic.span
    out: dict[str, Any] = {
        "file": span.path if span else None,
        "line": span.line if span else None,
        "column": span.column if span else None,
        "code": diagnostic.code,
        "message": diagnostic.message,
    }
    if "hint" in wanted:
        out["hint"] = diagnostic.hint
    if "expected" in wanted:
        out["expected"] = list(diagnostic.expected)
    return out


def test_the_corpus_is_large_and_every_case_says_what_it_expects() -> None:
    assert len(CASES) >= 40
    for case in CASES:
        spec = expectation(case)
        assert spec["load"] in LOADS, case.name
        assert spec["error"] != "none" or spec["load"] == "ruleset", case.name
        assert (case / spec["path"]).exists(), case.name
        assert spec["diagnostics"], case.name
        about = (case / "expected.yaml").read_text(encoding="utf-8").splitlines()[0]
        assert about.startswith("# "), f"{case.name}: expected.yaml starts with what it is about"


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_broken_input_reports_exactly(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = expectation(case)
    monkeypatch.chdir(case)
    wanted = spec["diagnostics"]
    got = diagnostics(spec)
    padded = wanted + [{}] * (len(got) - len(wanted))
    assert [observed(d, w) for d, w in zip(got, padded)] == wanted


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_diagnostic_points_at_its_line_and_renders(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = expectation(case)
    monkeypatch.chdir(case)
    for diagnostic in diagnostics(spec):
        span = diagnostic.span
        assert span is not None, diagnostic.message
        lines = Path(span.path).read_text(encoding="utf-8").splitlines()
        assert 1 <= span.line <= len(lines)
        assert 1 <= span.column <= len(lines[span.line - 1].expandtabs(4)) + 1
        text = diagnostic.render()
        assert text.startswith(
            f"{span.path}:{span.line}:{span.column}: {diagnostic.severity.value}: ")
        if diagnostic.line_text is not None:
            assert diagnostic.line_text == lines[span.line - 1]
            assert "^" in text.splitlines()[2]
        assert diagnostic.to_json()["code"] == diagnostic.code
