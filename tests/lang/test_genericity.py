"""Rules are data: the interpreter never names anything only a ruleset declares.

The rule, read from the loaded bundled rulesets rather than from a list of names:

- **Declared names**: an edition id, and the name of every declaration (characteristic, roll,
  test, sequence, action, decision, policy, phase, status, counter, option, die, keyword,
  table, rule). Checked as identifiers (longer than one letter: ``S``, ``T`` are ordinary type
  variables too) and as string literals.
- **Names inside declarations**: the parameters of declarations and rules, the choices of
  options, the symbol faces of dice, and the keys, text key values and text cells of tables
  (not a cell of dice: ``D6`` is the language's notation).
  Checked as string literals: interpreter code could bind a ruleset's parameter or name its
  value only through text (``{"charging": ...}``, ``args["shooter"]``); an identifier of the
  same spelling (a local ``margin``, a field ``effect``) is the interpreter's own variable.
  One-letter parameters (``a``, ``x``) are the rules' mathematical variables, not words.

A word the interpreter defines itself is generic, not the ruleset's, even when a ruleset
uses it as a name too: the language's keywords and rule names (``grammar/rules.lark``), its builtins, unit
properties, events, readings and the texts builtins take (:mod:`rules_run.lang.builtins`),
its type names (:mod:`rules_run.lang.types`), the fields of its syntax tree and entities
(:mod:`rules_run.lang.ast`, :mod:`rules_run.runtime.entities`) and the property names of its
own formats (``schemas/*.schema.json``). :data:`GENERIC` lists the few words that are the
interpreter's own otherwise, each with its reason.
"""

from __future__ import annotations

import ast as pyast
import inspect
import io
import json
import keyword
import re
import tokenize
from pathlib import Path

import attrs

from rules_run.editions.loader import load_ruleset
from rules_run.editions.registry import bundled_editions
from rules_run.lang import ast, builtins, types
from rules_run.runtime import entities

ROOT = Path(__file__).resolve().parents[2]

GENERIC: dict[str, str] = {
    "winner": "a battle's result: the side that won (the event log, rules-run --json)",
    "margin": "rules-diff's victory-point margin between the two rulesets",
    "seq": "the event log's sequence number of an event",
    "inches": "the event log's length of a move (every distance is in inches)",
    "middle": "an SVG text-anchor value of the charts",
    "character": "a column of a position in the language-server protocol",
}
"""Words a ruleset also uses as a parameter name that the interpreter gives its own, generic
meaning, and why."""


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


def inner_names() -> dict[str, str]:
    """Every parameter, option choice, die face and table key or text value -> where from."""
    names: dict[str, str] = {}
    for edition_id, folder in bundled_editions().items():
        ruleset = load_ruleset(folder)
        for name, decl in [*ruleset.decls.items(), *ruleset.rules.items()]:
            for p in decl.params:
                if len(p.name) > 1:
                    names.setdefault(p.name, f"parameter of {decl.kind} {name} ({edition_id})")
            if isinstance(decl, ast.OptionDecl):
                for choice in decl.choices:
                    names.setdefault(str(choice), f"choice of option {name} ({edition_id})")
            if isinstance(decl, ast.DieDecl):
                for face in decl.faces:
                    if isinstance(face, str):
                        names.setdefault(face, f"face of die {name} ({edition_id})")
        for name, table in ruleset.tables.items():
            # a cell of dice (D6) is written in the language's own notation, not a word
            texts = [*table.keys, *(v for values in table.key_values for v in values),
                     *(c for k, c in table.cells.items() if k not in table.dice_cells)]
            for text in texts:
                if isinstance(text, str):
                    names.setdefault(text, f"key or value of table {name} ({edition_id})")
    return names


def interpreter_vocabulary() -> set[str]:
    """The words the interpreter defines itself (see the module docstring), besides
    :data:`GENERIC`."""
    grammar = (ROOT / "grammar" / "rules.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', grammar))
    # the grammar's rule names and aliases (the AST builder's callbacks are keyed by them)
    words |= set(re.findall(r"^[?!]?([a-z_][a-z0-9_]*)\s*:", grammar, re.M))
    words |= set(re.findall(r"->\s*([a-z_][a-z0-9_]*)", grammar))
    words |= (set(builtins.BUILTIN_FUNCTIONS) | set(builtins.BUILTIN_NAMES)
              | set(builtins.UNIT_PROPERTIES) | set(builtins.EVENTS) | set(builtins.READINGS))
    words |= {text for b in builtins.BUILTIN_FUNCTIONS.values()
              for _, texts in b.choices for text in texts}
    words |= set(types.NUMBERS) | set(types.TEXTS)
    for module in (ast, entities):
        for cls in vars(module).values():
            if inspect.isclass(cls) and attrs.has(cls):
                words |= {a.name for a in attrs.fields(cls)}

    def properties(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    words.update(value)
                properties(value)
        elif isinstance(node, list):
            for value in node:
                properties(value)

    for schema in sorted((ROOT / "schemas").glob("*.schema.json")):
        properties(json.loads(schema.read_text(encoding="utf-8")))
    return words


def interpreter_words() -> list[tuple[str, str, int, str]]:
    """(word, file, line, 'identifier' | 'string') for every identifier and string literal."""
    out = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
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


def test_the_interpreter_binds_no_parameter_and_names_no_value_of_a_ruleset() -> None:
    inner = inner_names()
    assert "charging" in inner and "shooter" in inner, "the bundled rulesets did not load"
    generic = interpreter_vocabulary() | set(GENERIC)
    offenders = [
        f"{file}:{line}: string {word!r} is a {inner[word]}"
        for word, file, line, kind in interpreter_words()
        if kind == "string" and word in inner and word not in generic
    ]
    assert offenders == []


def test_each_generic_word_is_needed() -> None:
    """An allowance is dead when no ruleset uses the word or the interpreter no longer
    writes it (or defines it elsewhere in its vocabulary): drop it."""
    inner = inner_names()
    written = {word for word, _, _, kind in interpreter_words() if kind == "string"}
    own = interpreter_vocabulary()
    assert [w for w in GENERIC if w not in inner or w not in written or w in own] == []
