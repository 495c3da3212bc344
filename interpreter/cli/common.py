"""What every command shares: error reporting, options, exit codes.

Commands keep argparse here and do their work in a typed ``main``-style function. A
user's mistake is an :class:`InterpreterError`: its diagnostics go to standard error and
the exit code is 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from interpreter.diagnostics import InterpreterError, UsageError
from interpreter.paths import shown

__all__ = [
    "run_command", "parse_option", "print_json", "add_edition_argument", "add_option_argument",
    "add_executor_argument",
    "options_from", "editions_text", "add_battle_argument", "EXIT_OK", "EXIT_ERROR",
]

EXIT_OK = 0
EXIT_ERROR = 1


def run_command(body: Callable[[], int]) -> int:
    """Run a command's body, turning user errors into diagnostics and exit code 1."""
    try:
        return body()
    except InterpreterError as err:
        print(err.render(), file=sys.stderr)
        count = len([d for d in err.diagnostics if d.severity.value == "error"])
        if count > 1:
            print(f"{count} errors", file=sys.stderr)
        return EXIT_ERROR
    except RecursionError:
        # actions, rolls and triggers report this located (code too-deep); this is the
        # rest, such as a battle's turn block that plays a turn
        print("error: the rules call each other without end, deeper than can be run",
              file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def parse_option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from ``--option``; the value is read as YAML would (3, true, sum).

    Raises:
        UsageError: no ``=`` in the text.
    """
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise UsageError(f"--option takes KEY=VALUE, got {text!r}")
    value: Any = raw
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    else:
        try:
            value = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                value = raw
    return key.strip(), value


def print_json(data: Any) -> None:
    """Print JSON with sorted keys, so equal results print byte-identical text."""
    print(json.dumps(data, indent=2, sort_keys=True))


def add_edition_argument(parser: argparse.ArgumentParser, required: bool = False) -> None:
    """``--edition E``: a bundled edition id (or alias), or a ruleset folder."""
    parser.add_argument(
        "--edition", "-e", required=required, metavar="E",
        help="edition id (see the list below) or a path to a ruleset folder",
    )


def add_battle_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """The optional battle file; without it, the edition's bundled battle is used."""
    parser.add_argument("battle", nargs="?", metavar="BATTLE.yaml", help=help)


def editions_text() -> str:
    """The end of a command's help: the bundled editions (read from rulesets/)."""
    from interpreter.editions.registry import bundled_editions

    return "\nbundled editions: " + (", ".join(bundled_editions()) or "none") + "\n"


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option KEY=VALUE``, repeatable."""
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE",
        help="set a ruleset option (a reading of an ambiguous rule); repeatable",
    )


def add_executor_argument(parser: argparse.ArgumentParser) -> None:
    """``--executor process|dask[=ADDRESS]``: where ``--runs`` battles are fought."""
    parser.add_argument(
        "--executor", metavar="E",
        help="where --runs battles are fought: process (worker processes here, the "
        "default), dask (a local Dask cluster of --workers processes) or dask=ADDRESS "
        "(a running Dask scheduler, e.g. tcp://host:8786); needs rules-run[dask]",
    )


def options_from(values: Sequence[str]) -> dict[str, Any]:
    """The ``--option`` values as a dict."""
    return dict(parse_option(v) for v in values)


def load_context(edition: str | None, battle_path: str | None,
                 options: dict[str, Any] | None = None):
    """The ruleset, its compiled runtime and the battle a command works on.

    The edition comes from ``--edition``, else from the battle file's ``edition:``; with
    no battle file, the edition's bundled default battle is used.

    Raises:
        InterpreterError: an unknown edition, a broken ruleset or battle file.
    """
    from interpreter.editions.loader import load_edition
    from interpreter.engine.setup import battle_edition, load_battle, read_battle
    from interpreter.lang.compiler import compile_ruleset

    problems: list = []   # the schema's, reported with what the ruleset finds
    doc = read_battle(battle_path, problems) if battle_path else None
    name = edition or (battle_edition(doc) if doc is not None else None)
    if name is None:
        raise UsageError("which edition? give --edition E, or name it in the battle file "
                         "('edition: <id>')")
    ruleset = load_edition(name)
    if doc is None:
        if ruleset.default_battle is None:
            raise UsageError(f"the edition {ruleset.id!r} bundles no battle; give a battle file")
        doc = read_battle(shown(ruleset.default_battle))
    runtime = compile_ruleset(ruleset)
    battle = load_battle(doc, ruleset, runtime, options, problems)
    return ruleset, runtime, battle
