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
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_run.diagnostics import (
    CommandLineError,
    DataError,
    DiagnosticBag,
    InterpreterError,
    UsageError,
    escaped,
)

if TYPE_CHECKING:
    from rules_run.engine.front import Battle

__all__ = [
    "run_command", "parse_option", "print_json", "add_edition_argument", "add_option_argument",
    "add_executor_argument",
    "options_from", "editions_text", "add_battle_argument", "add_sources_argument",
    "sources_folder", "SOURCES_ENV", "add_version_argument", "Progress", "progress_bar",
    "add_common_arguments", "at_least", "EXIT_OK", "EXIT_ERROR", "EXIT_USAGE",
    "EXIT_INTERNAL",
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
    from rules_run.limits import help_text

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
    from rules_run.limits import ENV

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
            import traceback

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
    from rules_run.limits import ENV, parse_limits, set_limits

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


def print_json(data: Any, sort_keys: bool = True) -> None:
    """Print JSON with sorted keys, so equal results print byte-identical text (or, with
    ``sort_keys=False``, in the data's own order, which must then be deterministic: numeric
    keys in numeric order)."""
    print(json.dumps(data, indent=2, sort_keys=sort_keys))


def add_version_argument(parser: argparse.ArgumentParser) -> None:
    """``--version``: the package's version."""
    from rules_run import __version__

    parser.add_argument("--version", action="version",
                        version=f"{parser.prog} (rules-run) {__version__}")


class Progress:
    """Progress with rate and ETA on standard error, only when it is a terminal and the
    output is not JSON: tqdm's bar when tqdm is installed (the ``progress`` extra), else
    one plain line. Called with (done, total) or (done, total, what); a new ``what``
    starts a new bar."""

    def __init__(self, what: str, quiet: bool = False) -> None:
        self.what = what
        self.shown = not quiet and sys.stderr.isatty()
        self.bar: Any = None
        self.started = 0.0

    def __call__(self, done: int, total: int, what: str | None = None) -> None:
        if not self.shown:
            return
        if what is not None and what != self.what:
            self.close()
            self.what = what
        if self.bar is None:
            self._open(total)
        if self.bar is not True:
            self.bar.update(done - self.bar.n)
            return
        elapsed = max(time.monotonic() - self.started, 1e-9)
        rate = done / elapsed
        eta = (total - done) / rate if rate else 0.0
        sys.stderr.write(f"\r{self.what}: {done}/{total} ({rate:.1f}/s, ETA {eta:.0f}s)  ")
        sys.stderr.flush()

    def _open(self, total: int) -> None:
        try:
            from tqdm import tqdm
        except ImportError:
            self.bar, self.started = True, time.monotonic()
            return
        self.bar = tqdm(total=total, desc=self.what, unit=" " + self.what.split()[0],
                        file=sys.stderr,
                        leave=False, dynamic_ncols=True)

    def close(self) -> None:
        if self.bar is True:
            sys.stderr.write("\n")
        elif self.bar is not None:
            self.bar.close()
        self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress_bar(total: int, what: str, quiet: bool = False) -> Progress:
    """A :class:`Progress` for ``total`` steps of ``what`` (none when ``total`` is 0)."""
    return Progress(what, quiet=quiet or total <= 0)


def add_edition_argument(parser: argparse.ArgumentParser, required: bool = False) -> None:
    """``--edition E``: a bundled edition id (or alias), or a ruleset folder."""
    parser.add_argument(
        "--edition", "-e", required=required, metavar="E",
        help="edition id (see the list below) or a path to a ruleset folder",
    )


def add_battle_argument(parser: argparse.ArgumentParser, help: str) -> None:
    """The optional battle file; without it, the edition's bundled battle is used."""
    parser.add_argument("battle", nargs="?", metavar="BATTLE.yaml", help=help)


SOURCES_ENV = "RULES_RUN_SOURCES"
"""The environment variable naming the folder of the user's own copies of the sources."""


def add_sources_argument(parser: argparse.ArgumentParser) -> None:
    """``--sources DIR``: where the user keeps the source files the rulesets cite."""
    parser.add_argument(
        "--sources", metavar="DIR",
        help="a folder with your own copies of the source files the rulesets cite "
        f"(000_....txt); --explain then shows each cited line (default: ${SOURCES_ENV})",
    )


def sources_folder(given: str | None) -> Path | None:
    """The sources folder: ``--sources``, else ``$RULES_RUN_SOURCES``, else None.

    Raises:
        UsageError: the folder named does not exist.
    """
    name = given or os.environ.get(SOURCES_ENV)
    if not name:
        return None
    folder = Path(name).expanduser()
    if not folder.is_dir():
        how = "--sources" if given else f"${SOURCES_ENV}"
        raise UsageError(f"{how} names {name!r}, which is not a folder")
    return folder


def editions_text() -> str:
    """The end of a command's help: the bundled editions (read from rulesets/)."""
    from rules_run.editions.registry import bundled_editions

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


_STDIN: list[str] = []


def standard_input() -> str:
    """Standard input's text, read once (a battle file given as ``-``; worker processes
    forked later see the same text)."""
    from rules_run.limits import limit, too_many

    if not _STDIN:
        text = sys.stdin.read(limit("file_size") + 1)
        if len(text) > limit("file_size"):
            raise DataError([DiagnosticBag().add(
                too_many("file_size", "characters on standard input"), code="refused-file")])
        _STDIN.append(text)
    return _STDIN[0]


def load_context(edition: str | None, battle_path: str | None,
                 options: dict[str, Any] | None = None) -> Battle:
    """:func:`~rules_run.engine.front.open_battle` for a command: a battle file ``-`` is
    read from standard input.

    Raises:
        InterpreterError: an unknown edition, a broken ruleset or battle file.
    """
    from rules_run.engine.front import open_battle

    if battle_path == "-":
        return open_battle(edition, "<stdin>", options, text=standard_input())
    return open_battle(edition, battle_path, options)
