"""rules-run: a declarative rules-as-data interpreter for tabletop wargames.

The interpreter knows generic concepts only (characteristic, table, roll, test, sequence,
phase, decision, status, modifier, trigger, battlefield). Every edition is data: rule files in
the rules language (``grammar/rules.lark``) plus YAML tables and unit data (``schemas/``).

The library (for scripts and notebooks; docs/tutorial-notebook.md walks through it)::

    import rules_run as rr
    fight = rr.open_battle("EDITION")                 # the edition's bundled battle
    report = rr.run_battle(fight, seed=7)             # one battle: print(report)
    many = rr.run_many(fight, runs=1000, seed=1)      # statistics, many.to_records()
    many.distribution("rounds")                       # a column's distribution, charted
    odds = rr.attack_odds(fight, ["U", "W"], "V")     # exact odds, odds.to_records()

Conventions:
    - An edition is named by its id, an alias or a ruleset folder; a battle by its file
      (None: the edition's bundled battle). Units are named by their ids in the battle.
    - The same inputs and seed give the same results, whatever the number of workers.
    - Probabilities are exact fractions (:class:`rules_run.chance.Dist`); records give
      floats and the fractions as text.
    - ``to_records()`` returns a list of plain dicts (``pandas.DataFrame(x.to_records())``;
      no pandas needed here); in a notebook, results show as a table (``_repr_html_``) and
      a chart (``_repr_svg_``, the charts ``--plot`` draws).
    - A mistake in a ruleset, a battle file or an argument raises an
      :class:`InterpreterError` (``LanguageError``, ``DataError``, ``PatchError``,
      ``BattleError``, ``UsageError``) whose ``render()`` is the located message the
      commands print; nothing here prints or exits.

Subpackages:
    lang: parse and check rule files (AST with source spans, checker, compiler)
    data: YAML loading with locations, JSON Schema validation
    editions: the ruleset registry, ``extends`` and patches
    chance: dice, exact distributions, seeded, scripted and enumerated chance
    engine: battle state, the turn driver, decisions, triggers, the event log, charts
    space: battlefield geometry
    diff: rules-diff
    cli: the ``rules-run``, ``rules-check``, ``rules-odds`` and ``rules-diff`` commands
    editor: the ``rules-lsp`` language server and the Pygments lexer (optional extras)
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

__all__ = [
    "load_edition", "open_battle", "run_battle", "run_many", "attack_odds", "diff",
    "Battle", "BattleReport", "ManyBattles", "AttackOdds", "Distribution",
    "InterpreterError", "LanguageError", "DataError", "PatchError", "BattleError",
    "UsageError", "__version__",
]

_ERRORS = {"InterpreterError", "LanguageError", "DataError", "PatchError", "BattleError",
           "UsageError"}


def __getattr__(name: str) -> Any:
    """The public names, imported on first use (``import rules_run`` stays light and
    never imports a subpackage before it is asked for)."""
    if name in _ERRORS:
        from rules_run import diagnostics

        return getattr(diagnostics, name)
    if name == "load_edition":
        from rules_run.editions.loader import load_edition

        return load_edition
    if name in __all__:
        from rules_run import api

        return getattr(api, name)
    raise AttributeError(f"module 'rules_run' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
