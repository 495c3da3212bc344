"""The front door: open an edition and a battle, ready to fight.

Every way in opens a battle here: the library (:mod:`rules_run.api`), the commands
(:mod:`rules_run.cli.common` adds a battle file ``-`` read from standard input), the
worker processes of a statistics run (:mod:`rules_run.engine.stats`) and the language
server (:mod:`rules_run.editor.workspace`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from rules_run.data.yaml_loader import YamlDocument
from rules_run.diagnostics import DataError, Diagnostic, DiagnosticBag, UsageError
from rules_run.editions.loader import load_edition, load_ruleset
from rules_run.editions.registry import find_edition
from rules_run.editions.ruleset import Ruleset
from rules_run.engine import setup
from rules_run.lang.compiler import Runtime, compile_ruleset
from rules_run.paths import PathRefused, shown

__all__ = ["Battle", "open_battle"]


class Battle(NamedTuple):
    """A battle ready to fight: the ruleset, its compiled runtime and the battle's units.
    Unpacks as ``ruleset, runtime, battle``."""

    ruleset: Ruleset
    runtime: Runtime
    battle: setup.Battle


def open_battle(edition: str | Path | None = None, battle: str | Path | None = None,
                options: Mapping[str, Any] | None = None, *, text: str | None = None
                ) -> Battle:
    """Load a ruleset and a battle.

    Args:
        edition: an edition id or alias, or a ruleset folder; None: the battle file's
            ``edition:``.
        battle: a battle file; None: the edition's bundled battle.
        options: ruleset options (readings of ambiguous rules) over the battle file's.
        text: the battle file's text, when you have it rather than a file (``battle``
            then only names it in messages).

    Raises:
        UsageError: no edition given or named; the edition bundles no battle.
        InterpreterError: a broken ruleset or battle file (every problem, located).
    """
    problems: list[Diagnostic] = []   # the schema's, reported with what the ruleset finds
    name = None if battle is None else str(battle)
    doc: YamlDocument | None
    if text is not None:
        doc = setup.read_battle(name or "<battle>", problems, text)
    else:
        doc = setup.read_battle(name, problems) if name else None
    if edition is not None:
        ruleset = load_edition(edition)
    elif doc is not None and (named := setup.battle_edition(doc)) is not None:
        ruleset = load_ruleset(_battle_edition_folder(doc, named))
    else:
        raise UsageError("which edition? give --edition E, or name it in the battle file "
                         "('edition: <id>')")
    if doc is None:
        if ruleset.default_battle is None:
            raise UsageError(f"the edition {ruleset.id!r} bundles no battle; give a battle file")
        doc = setup.read_battle(shown(ruleset.default_battle))
    runtime = compile_ruleset(ruleset)
    fight = setup.load_battle(doc, ruleset, runtime, dict(options) if options else None,
                              problems)
    return Battle(ruleset, runtime, fight)


def _battle_edition_folder(doc: YamlDocument, name: str) -> Path:
    """The ruleset folder a battle file's ``edition:`` names: an id, or a folder relative
    to the battle file (inside its folder or the bundled rulesets).

    Raises:
        DataError: located at ``edition:``.
    """
    try:
        return find_edition(name, named_in=Path(doc.path).parent)
    except PathRefused as refused:
        message, hint = refused.message, refused.hint
    except UsageError as err:
        message, hint = err.diagnostics[0].message, err.diagnostics[0].hint
    bag = DiagnosticBag()
    bag.remember_source(doc.path, doc.text)
    bag.add(f"edition: {message}", doc.span(("edition",)), code="unknown-edition", hint=hint)
    raise DataError(bag.items)
