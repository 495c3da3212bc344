"""rules-run: a declarative rules-as-data interpreter for tabletop wargames.

The interpreter knows generic concepts only (characteristic, table, roll, test, sequence,
phase, decision, status, modifier, trigger, battlefield). Every edition is data: rule files in
the rules language (``grammar/rules.lark``) plus YAML tables and unit data (``schemas/``).

Subpackages:
    lang: parse and check rule files (AST with source spans, checker, compiler)
    data: YAML loading with locations, JSON Schema validation
    editions: the ruleset registry, ``extends`` and patches
    chance: dice, exact distributions, seeded, scripted and enumerated chance
    engine: battle state, the turn driver, decisions, triggers, the event log
    space: battlefield geometry
    cli: the ``rules-run``, ``rules-check``, ``rules-odds`` and ``rules-diff`` commands
    editor: the ``rules-lsp`` language server and the Pygments lexer (optional extras)
"""

__version__ = "0.1.0"
