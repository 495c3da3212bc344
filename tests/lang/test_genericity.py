"""Rules are data: the interpreter never names an edition, a characteristic or a rule.

Collects every name the bundled rulesets declare and fails if one appears in
``interpreter/`` as an identifier or a string literal. One-letter names (``S``, ``T``) are
checked in string literals only: as identifiers they are ordinary type variables.
"""

from __future__ import annotations

import ast as pyast
import io
import tokenize
from pathlib import Path

from rules_run.editions.loader import load_ruleset
from rules_run.editions.registry import bundled_editions

ROOT = Path(__file__).resolve().parents[2]


def declared_names() -> dict[str, str]:
    """Every declared name -> where it comes from."""
    names: dict[str, str] = {}
    for edition_id, folder in bundled_editions().items():
        names[edition_id] = "edition id"
        ruleset = load_ruleset(folder)
        for name, decl in ruleset.decls.items():
            if decl.kind != "battle":  # the turn tree's root is syntax, not a declared name
                names[name] = f"{decl.kind} of {edition_id}"
        for name in ruleset.rules:
            names[name] = f"rule of {edition_id}"
        for name in ruleset.tables:
            names[name] = f"table of {edition_id}"
    return names


def interpreter_words() -> list[tuple[str, str, int, str]]:
    """(word, file, line, 'identifier' | 'string') for every identifier and string literal."""
    out = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME:
                out.append((tok.string, str(path.relative_to(ROOT)), tok.start[0], "identifier"))
            elif tok.type == tokenize.STRING:
                try:
                    value = pyast.literal_eval(tok.string)
                except (ValueError, SyntaxError):
                    continue
                if isinstance(value, str):
                    out.append((value, str(path.relative_to(ROOT)), tok.start[0], "string"))
    return out


def test_the_interpreter_names_nothing_a_ruleset_declares() -> None:
    names = declared_names()
    assert "wfb8" in names and "WS" in names, "the bundled rulesets did not load"
    offenders = [
        f"{file}:{line}: {kind} {word!r} is a {names[word]}"
        for word, file, line, kind in interpreter_words()
        if word in names and (kind == "string" or len(word) > 1)
    ]
    assert offenders == []
