"""``rules-replay``: draw a battle from its event log, as an HTML page or an SVG picture."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rules_run.cli.common import (
    add_common_arguments,
    add_version_argument,
    at_least,
    run_command,
)
from rules_run.diagnostics import CommandLineError, UsageError
from rules_run.paths import shown

if TYPE_CHECKING:
    from rules_run.replay.steps import Replay

__all__ = ["main", "build_parser", "write_replay", "check_output"]

EXAMPLES = """\
examples:
  rules-run -e EDITION BATTLE.yaml --log events.jsonl   write a battle's event log, then
  rules-replay events.jsonl -o replay.html               step through it in a browser
  rules-replay events.jsonl -o table.svg --turn 2        the table at the end of round 2
  rules-run -e EDITION BATTLE.yaml --replay replay.html  the same, in one go
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-replay",
        description="Draw a battle from its event log (rules-run --log): an HTML page that "
        "steps through it (the table to scale, its terrain, every unit's footprint and "
        "facing, arrows for moves, charges and flights, lines for shooting, the log beside "
        "it; no network needed), or the table at one moment as an SVG picture.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("log", metavar="EVENTS.jsonl", help="the event log (rules-run --log)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.html|FILE.svg",
                        help="where to write: a .html page or an .svg picture")
    parser.add_argument("--turn", type=at_least(0), metavar="N",
                        help="the end of battle round N (0: the set-up): where the page "
                        "opens, or what the picture shows (default: the end of the battle; "
                        "the page opens at the start)")
    add_version_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def body() -> int:
        from rules_run.replay.steps import load

        kind = check_output(args.output, "-o")
        write_replay(load(args.log), args.output, kind, args.turn)
        return 0

    return run_command(body, args)


def check_output(path: str, flag: str) -> str:
    """The kind of file to write (``html`` or ``svg``), from its name; checked before the
    log is read or the battle fought.

    Raises:
        CommandLineError: the name ends in neither, names a folder, or its folder does not
            exist (the command line is wrong in itself: exit 2).
    """
    where = Path(path)
    suffix = where.suffix.lower()
    if suffix in (".html", ".htm"):
        kind = "html"
    elif suffix == ".svg":
        kind = "svg"
    else:
        raise CommandLineError(f"{flag} {path}: write a .html page or an .svg picture "
                               f"(not {suffix or 'a file without a suffix'!r})")
    if where.is_dir():
        raise CommandLineError(f"{flag} {path} is a folder; give a file name, such as "
                               f"{(where / ('replay.' + kind)).as_posix()}")
    if not where.parent.is_dir():
        raise CommandLineError(f"{flag} {path}: the folder {where.parent.as_posix()} does not "
                               "exist")
    return kind


def write_replay(replay: Replay, path: str, kind: str, turn: int | None) -> None:
    """Write the page (``kind`` ``html``) or the picture (``svg``) of a replay.

    Raises:
        UsageError: no such round, or the file cannot be written.
    """
    from rules_run.replay.draw import table_svg
    from rules_run.replay.page import page_html

    at = replay.step_at_end_of(turn)
    if kind == "html":
        text = page_html(replay, 0 if turn is None else at)
    else:
        shown_round = replay.steps[at].round if turn is None else turn
        marks = [m for s in replay.steps if s.round == shown_round for m in s.marks]
        when = ("after the set-up" if shown_round == 0 else
                f"at the end of round {shown_round} of {replay.rounds}, with its moves")
        caption = f"{replay.battle} ({replay.edition}, seed {replay.seed}): the table {when}"
        text = table_svg(replay, replay.steps[at], marks, caption) + "\n"
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    except OSError as err:
        raise UsageError(f"cannot write {shown(path)}: {err.strerror or err}") from None


if __name__ == "__main__":
    sys.exit(main())
