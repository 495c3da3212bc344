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
    change = rr.compare("EDITION", "PATCH_FOLDER")    # what a patch changes, .to_json()

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

Subpackages and modules, lowest layer first (each imports only from its own layer and
lower ones; tests/test_layers.py holds the order):
    diagnostics, limits, paths, buffers, cache: located errors, limits, file reading
    chance: dice, exact distributions, seeded, scripted and enumerated chance
    space: battlefield geometry
    data: YAML loading with locations, JSON Schema validation
    lang: parse and check rule files (AST with source spans, checker, compiler)
    editions: the ruleset registry, ``extends`` and patches
    engine: battle state, the turn driver, decisions, triggers, the event log, charts;
        ``engine.front`` opens an edition and a battle (every command's first step)
    diff, replay: rules-diff; the replay pages of an event log
    api: the functions and results named here
    cli: the ``rules-run``, ``rules-check``, ``rules-odds``, ``rules-diff`` and
        ``rules-replay`` commands
    editor: the ``rules-lsp`` language server and the Pygments lexer (optional extras)
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules_run.api import (
        AttackOdds,
        BattleReport,
        Distribution,
        ManyBattles,
        attack_odds,
        compare,
        run_battle,
        run_many,
    )
    from rules_run.diagnostics import (
        BattleError,
        DataError,
        InterpreterError,
        LanguageError,
        PatchError,
        UsageError,
    )
    from rules_run.editions.loader import load_edition
    from rules_run.engine.front import Battle, open_battle

__version__ = "0.1.0"

_HOMES = {
    "load_edition": "rules_run.editions.loader",
    "open_battle": "rules_run.engine.front", "Battle": "rules_run.engine.front",
    **dict.fromkeys(("run_battle", "run_many", "attack_odds", "compare", "BattleReport",
                     "ManyBattles", "AttackOdds", "Distribution"), "rules_run.api"),
    **dict.fromkeys(("InterpreterError", "LanguageError", "DataError", "PatchError",
                     "BattleError", "UsageError"), "rules_run.diagnostics"),
}
"""Each public name and the module that defines it."""

__all__ = [
    "load_edition", "open_battle", "Battle", "run_battle", "run_many", "attack_odds",
    "compare", "BattleReport", "ManyBattles", "AttackOdds", "Distribution",
    "InterpreterError", "LanguageError", "DataError", "PatchError", "BattleError",
    "UsageError", "__version__",
]
"""The public names: :data:`_HOMES`'s and the version (tests/test_layers.py checks it)."""


def __getattr__(name: str) -> Any:
    """The public names, imported on first use (``import rules_run`` stays light and
    never imports a subpackage before it is asked for)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rules_run' has no attribute {name!r}")
    return getattr(import_module(home), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
