"""Highlighting: the Pygments lexer (an entry point) and the TextMate grammar in editors/
lex every bundled rule file and every rules snippet of the docs without an error token,
and know the grammar's words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers.editor_kit import ROOT

pygments_lexers = pytest.importorskip("pygments.lexers")
from pygments.token import Error, Keyword, Name, String  # noqa: E402

from rules_run.editor.lexer import (  # noqa: E402
    CONSTANT_WORDS,
    DECLARATION_WORDS,
    OTHER_WORDS,
    TYPE_WORDS,
    RulesLexer,
)
from rules_run.editor.workspace import keywords  # noqa: E402

RULE_FILES = sorted(ROOT.glob("rulesets/**/*.rules")) + sorted(ROOT.glob("tests/**/*.rules"))
BUNDLED = [p for p in RULE_FILES if p.is_relative_to(ROOT / "rulesets")]
DOCS = sorted(ROOT.glob("docs/*.md")) + [ROOT / "README.md"] + sorted(
    ROOT.glob("rulesets/*/README.md"))
TEXTMATE = json.loads((ROOT / "editors" / "vscode" / "syntaxes" / "rules.tmLanguage.json")
                      .read_text(encoding="utf-8"))


def _snippets() -> list[tuple[str, str, str]]:
    """Every ```rules and ```rules-error block of the docs: where, its tag, its text."""
    found = []
    for doc in DOCS:
        for i, m in enumerate(re.finditer(r"^```(rules(?:-error)?)\n(.*?)^```", doc.read_text(
                encoding="utf-8"), re.S | re.M)):
            found.append((f"{doc.relative_to(ROOT)}#{i + 1}", m.group(1), m.group(2)))
    return found


SNIPPETS = _snippets()


def test_the_lexer_is_registered_as_an_entry_point() -> None:
    assert isinstance(pygments_lexers.get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(pygments_lexers.get_lexer_for_filename("core.rules"), RulesLexer)


def test_the_lexer_knows_every_word_of_the_grammar() -> None:
    lists = DECLARATION_WORDS + TYPE_WORDS + CONSTANT_WORDS + OTHER_WORDS
    assert len(lists) == len(set(lists))
    assert sorted(lists) == keywords()


def test_there_are_rule_files_and_snippets_to_lex() -> None:
    assert len(BUNDLED) >= 10
    assert len(SNIPPETS) >= 40


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_rule_file_lexes_without_an_error_token(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    errors = [value for token, value in RulesLexer().get_tokens(text) if token in Error]
    assert errors == []


@pytest.mark.parametrize("where, tag, snippet", SNIPPETS, ids=[w for w, _, _ in SNIPPETS])
def test_every_rules_snippet_of_the_docs_is_highlighted(where: str, tag: str,
                                                        snippet: str) -> None:
    lexer = pygments_lexers.get_lexer_by_name(tag)   # what the fence asks for
    tokens = list(lexer.get_tokens(snippet))
    assert [v for t, v in tokens if t in Error] == []


def test_the_lexer_tells_words_apart() -> None:
    tokens = [(t, v) for t, v in RulesLexer().get_tokens(
        'test break_test(u: unit) @ 004 L450-L454\n    need u.Ld  # note\n'
        '    if u has "Stubborn" then 2D6 else 4+\n') if v.strip()]
    assert tokens[:4] == [(Keyword.Declaration, "test"), (Name, "break_test"),
                          (tokens[2][0], "("), (Name, "u")]
    assert (Keyword.Type, "unit") in tokens and (Name.Label, "004") in tokens
    assert (Name.Label, "L450-L454") in tokens and (String.Double, '"Stubborn"') in tokens
    numbers = [v for t, v in tokens if str(t).startswith("Token.Literal.Number")]
    assert numbers == ["2D6", "4+"]


# ---------------------------------------------------------------- the TextMate grammar
def _textmate_scopes(line: str) -> list[tuple[str, str]]:
    """Tokenize one line as a TextMate engine would with this grammar's flat list of
    ``match`` rules: at each position the first rule that matches there wins."""
    rules = [(re.compile(p["match"]), p.get("name") or "captures") for p in
             TEXTMATE["patterns"]]
    out, at = [], 0
    while at < len(line):
        if line[at].isspace():
            at += 1
            continue
        best = None
        for pattern, scope in rules:
            m = pattern.search(line, at)
            if m and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                best = (m, scope)
            if m and m.start() == at and m.end() > at:
                break
        assert best is not None, line[at:]
        m, scope = best
        if m.start() > at:   # nothing matches here: only whitespace may be skipped
            gap = line[at:m.start()]
            assert not gap.strip(), f"nothing matches {gap!r}"
        out.append((scope, m.group()))
        at = m.end()
    return out


def test_the_textmate_grammar_knows_the_lexers_words() -> None:
    alternatives = {p["name"]: set(p["match"].removeprefix(r"\b(?:").removesuffix(r")\b")
                                   .split("|"))
                    for p in TEXTMATE["patterns"] if p.get("match", "").startswith(r"\b(?:")}
    assert alternatives["storage.type.declaration.rules"] == set(DECLARATION_WORDS)
    assert alternatives["storage.type.rules"] == set(TYPE_WORDS)
    assert alternatives["constant.language.rules"] == set(CONSTANT_WORDS)
    assert alternatives["keyword.other.rules"] == set(OTHER_WORDS)


def test_the_textmate_grammar_marks_a_stray_character_illegal() -> None:
    assert ("invalid.illegal.rules", "$") in _textmate_scopes("    need 4 $")
    assert _textmate_scopes('rule "Fear" @ L12  # x') == [
        ("storage.type.declaration.rules", "rule"), ("string.quoted.double.rules", '"Fear"'),
        ("punctuation.definition.citation.rules", "@"), ("entity.name.label.line.rules", "L12"),
        ("comment.line.number-sign.rules", "# x")]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_bundled_rule_file_has_no_illegal_textmate_token(path: Path) -> None:
    illegal = [(number, value) for number, line in
               enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
               for scope, value in _textmate_scopes(line) if scope.startswith("invalid")]
    assert illegal == []
