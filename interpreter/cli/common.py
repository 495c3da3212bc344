"""What every command shares: error reporting, options, exit codes.

Commands keep argparse here and do their work in a typed ``main``-style function. The exit
codes are one scheme for every command:

- 0: done (warnings leave it 0);
- 1: the input is wrong (a ruleset, a table, a battle file; a name the command line gives
  that the input does not hold): its diagnostics go to standard error, never a traceback;
- 2: the command line is wrong in itself (an unknown option, a value it cannot take);
- 70: an internal error, a bug in rules-run: a short "please report" message, and the
  traceback only with ``--debug``;
- 130: interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any

from interpreter.diagnostics import (
    CommandLineError,
    DataError,
    DiagnosticBag,
    InterpreterError,
    UsageError,
    escaped,
)
from interpreter.paths import PathRefused, shown

__all__ = [
    "run_command", "parse_option", "print_json", "add_edition_argument", "add_option_argument",
    "options_from", "editions_text", "add_battle_argument", "add_common_arguments",
    "at_least", "EXIT_OK", "EXIT_ERROR", "EXIT_USAGE", "EXIT_INTERNAL",
]

EXIT_OK = 0
EXIT_ERROR = 1
"""The input is wrong."""
EXIT_USAGE = 2
"""The command line is wrong (argparse exits with it too)."""
EXIT_INTERNAL = 70
"""A bug in rules-run (EX_SOFTWARE)."""


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """``--limit NAME=N`` (repeatable) and ``--debug``, which every command takes."""
    from interpreter.limits import help_text

    parser.add_argument("--limit", action="append", default=[], metavar="NAME=N",
                        help="raise a limit (see below); repeatable")
    parser.add_argument("--debug", action="store_true",
                        help="on an internal error, print the traceback")
    parser.epilog = (parser.epilog or "") + "\n" + help_text()


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``minimum`` (else exit 2, naming the option)."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return convert


def run_command(body: Callable[[], int], args: argparse.Namespace | None = None) -> int:
    """Run a command's body under the exit-code scheme of the module docstring.

    ``args`` gives the command's ``--limit`` values (in force while the body runs) and
    ``--debug``.
    """
    from interpreter.limits import ENV

    debug = bool(getattr(args, "debug", False))
    before = os.environ.get(ENV)
    try:
        _set_limits(getattr(args, "limit", None) or [])
        return body()
    except CommandLineError as err:
        print(err.render(), file=sys.stderr)
        return EXIT_USAGE
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
    except Exception as exc:  # a bug: say so, briefly; the traceback is for --debug
        if debug:
            traceback.print_exc()
        print(f"internal error: {type(exc).__name__}: {escaped(str(exc))}\n"
              "This is a bug in rules-run, not a mistake in your input: please report it, "
              "with the command and the files it read" + ("" if debug else
              " (run it again with --debug for the traceback)") + ".", file=sys.stderr)
        return EXIT_INTERNAL
    finally:  # a command called in-process (tests, the fuzz harness) leaves no limit behind
        if before is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = before


def _set_limits(values: Sequence[str]) -> None:
    from interpreter.limits import ENV, parse_limits, set_limits

    try:
        parse_limits(os.environ.get(ENV, ""))
    except ValueError as err:
        raise CommandLineError(f"{ENV}: {err}") from None
    try:
        set_limits(parse_limits(",".join(values)))
    except ValueError as err:
        raise CommandLineError(f"--limit: {err}") from None


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
    from interpreter.editions.loader import load_edition, load_ruleset
    from interpreter.engine.setup import battle_edition, load_battle, read_battle
    from interpreter.lang.compiler import compile_ruleset

    problems: list = []   # the schema's, reported with what the ruleset finds
    doc = read_battle(battle_path, problems) if battle_path else None
    if edition is not None:
        ruleset = load_edition(edition)
    elif doc is not None and (named := battle_edition(doc)) is not None:
        ruleset = load_ruleset(_battle_edition_folder(doc, named))
    else:
        raise UsageError("which edition? give --edition E, or name it in the battle file "
                         "('edition: <id>')")
    if doc is None:
        if ruleset.default_battle is None:
            raise UsageError(f"the edition {ruleset.id!r} bundles no battle; give a battle file")
        doc = read_battle(shown(ruleset.default_battle))
    runtime = compile_ruleset(ruleset)
    battle = load_battle(doc, ruleset, runtime, options, problems)
    return ruleset, runtime, battle


def _battle_edition_folder(doc, name: str):
    """The ruleset folder a battle file's ``edition:`` names: an id, or a folder relative
    to the battle file (inside its folder or the bundled rulesets).

    Raises:
        DataError: located at ``edition:``.
    """
    from pathlib import Path

    from interpreter.editions.registry import find_edition

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
