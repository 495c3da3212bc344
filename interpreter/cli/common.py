"""What every command shares: error reporting, options, exit codes.

Commands keep argparse here and do their work in a typed ``main``-style function. A
user's mistake is an :class:`InterpreterError`: its diagnostics go to standard error and
the exit code is 1, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from interpreter.diagnostics import InterpreterError, UsageError
from interpreter.paths import shown

__all__ = [
    "run_command", "parse_option", "print_json", "add_edition_argument", "add_option_argument",
    "add_executor_argument",
    "options_from", "editions_text", "add_battle_argument", "add_sources_argument",
    "sources_folder", "SOURCES_ENV", "add_version_argument", "Progress", "progress_bar",
    "EXIT_OK", "EXIT_ERROR",
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


def print_json(data: Any, sort_keys: bool = True) -> None:
    """Print JSON with sorted keys, so equal results print byte-identical text (or, with
    ``sort_keys=False``, in the data's own order, which must then be deterministic: numeric
    keys in numeric order)."""
    print(json.dumps(data, indent=2, sort_keys=sort_keys))


def add_version_argument(parser: argparse.ArgumentParser) -> None:
    """``--version``: the package's version."""
    from interpreter import __version__

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


_STDIN: list[str] = []


def standard_input() -> str:
    """Standard input's text, read once (a battle file given as ``-``; worker processes
    forked later see the same text)."""
    if not _STDIN:
        _STDIN.append(sys.stdin.read())
    return _STDIN[0]


def load_context(edition: str | None, battle_path: str | None,
                 options: dict[str, Any] | None = None):
    """:func:`interpreter.open_battle` for a command: a battle file ``-`` is read from
    standard input.

    Raises:
        InterpreterError: an unknown edition, a broken ruleset or battle file.
    """
    from interpreter.api import open_battle

    if battle_path == "-":
        return open_battle(edition, "<stdin>", options, text=standard_input())
    return open_battle(edition, battle_path, options)
