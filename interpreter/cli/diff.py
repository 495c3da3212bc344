"""``rules-diff``: what changes between two rulesets, or between a ruleset and its patch."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rules_run.cli.common import (
    add_common_arguments,
    add_executor_argument,
    add_option_argument,
    add_version_argument,
    at_least,
    editions_text,
    options_from,
    print_json,
    Progress,
    run_command,
)
from rules_run.diagnostics import CommandLineError, UsageError, escaped
from rules_run.diff.structure import SIDES
from rules_run.engine.stats import default_workers

__all__ = ["main", "build_parser", "diff"]

EXAMPLES = """\
examples:
  rules-diff EDITION PATCH_FOLDER
        structure (the patch's operations, every changed declaration with both citations)
        and behaviour (exact odds of each affected roll, test and sequence over a grid)
  rules-diff EDITION OTHER_EDITION                 two editions, or two seasons of one
  rules-diff EDITION PATCH_FOLDER BATTLE.yaml --runs 2000 --seed 1
        battle outcomes under both, and how much each operation of the patch moves them
  rules-diff EDITION PATCH_FOLDER BATTLE.yaml --json        everything as JSON
  rules-diff EDITION PATCH_FOLDER BATTLE.yaml --plot diff.svg --workers 4
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-diff",
        description="Compare two rulesets (edition ids or ruleset folders): the "
        "declarations added, removed and changed, with both citations; the exact odds of "
        "every roll, test and sequence whose behaviour could differ, over a grid of inputs; "
        "and, with a battle file, the battle's outcomes under both, attributed to the "
        "patch's operations one at a time.",
        epilog=EXAMPLES + editions_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("a", metavar=SIDES[0],
                        help="the base: an edition id or a ruleset folder")
    parser.add_argument("b", metavar=SIDES[1], help="the other ruleset (often a patch of A)")
    parser.add_argument("battle", nargs="?", metavar="BATTLE.yaml",
                        help="a battle file to fight under A and under B")
    parser.add_argument("--runs", type=at_least(1), default=1000, metavar="N",
                        help="battles per ruleset (default 1000)")
    parser.add_argument("--seed", type=at_least(0),
                        help="master seed (default: the battle file's)")
    parser.add_argument("--workers", type=at_least(1), metavar="K",
                        help="spread the battles and the grid over K processes (same results "
                        "as one; default: one per CPU, at most one per 50 battles)")
    add_executor_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    parser.add_argument("--plot", metavar="FILE.svg",
                        help="also write an SVG chart: outcomes under A and B, and the "
                        "attribution (no extra dependency)")
    parser.add_argument("--top", type=at_least(0), default=5, metavar="N",
                        help="grid cells shown per declaration in the text report (default 5)")
    parser.add_argument("--cells", type=at_least(1), metavar="N",
                        help="most grid cells per roll, test or action (default 2000)")
    parser.add_argument("--sequence-cells", type=at_least(1), metavar="N",
                        help="most grid cells per sequence (default 100)")
    parser.add_argument("--no-behaviour", action="store_true",
                        help="skip the grid comparison of rolls, tests and sequences")
    parser.add_argument("--no-attribution", action="store_true",
                        help="run the battle under A and B only, not after each operation")
    parser.add_argument("--attribution-runs", type=at_least(1), metavar="N",
                        help="battles under each ruleset between A and B, the first N of "
                        "--runs (default 100)")
    add_option_argument(parser)
    add_version_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    # intermixed: the battle file may come after options (A B --runs N BATTLE.yaml)
    args = build_parser().parse_intermixed_args(argv)
    return run_command(lambda: diff(
        args.a, args.b, args.battle, runs=args.runs, seed=args.seed, workers=args.workers,
        as_json=args.json, plot=args.plot, top=args.top, cells=args.cells,
        sequence_cells=args.sequence_cells, behaviour=not args.no_behaviour,
        attribute=not args.no_attribution, options=options_from(args.option),
        executor=args.executor, attribution_runs=args.attribution_runs,
    ), args)


def diff(a: str, b: str, battle: str | None = None, *, runs: int = 1000,
         seed: int | None = None, workers: int | None = None, as_json: bool = False,
         plot: str | None = None, top: int = 5, cells: int | None = None,
         sequence_cells: int | None = None, behaviour: bool = True, attribute: bool = True,
         options: dict[str, Any] | None = None, executor: str | None = None,
         attribution_runs: int | None = None) -> int:
    """Compute and print the diff; return the exit code."""
    from rules_run.diff import (
        ATTRIBUTION_RUNS,
        DEFAULT_CELLS,
        DEFAULT_SEQUENCE_CELLS,
        diff_rulesets,
        render,
    )
    from rules_run.diff.svg import write_svg

    if plot is not None and not plot.lower().endswith(".svg"):
        raise CommandLineError(f"--plot writes SVG; name the file *.svg, got {plot!r}",)
    if plot is not None and battle is None:
        raise CommandLineError("--plot draws battle outcomes: give a battle file too")
    if top < 0:
        raise CommandLineError(f"--top must be 0 or more, got {top}")
    if workers is None:
        workers = default_workers(runs)
    with Progress("declarations", quiet=as_json) as bar:
        report = diff_rulesets(
            a, b, battle, runs=runs, seed=seed, workers=workers, options=options,
            cells=DEFAULT_CELLS if cells is None else cells,
            sequence_cells=DEFAULT_SEQUENCE_CELLS if sequence_cells is None else sequence_cells,
            behaviour=behaviour, attribute=attribute,
            progress=lambda what, done, total: bar(done, total, what), executor=executor,
            attribution_runs=ATTRIBUTION_RUNS if attribution_runs is None else attribution_runs,
        )
    if plot is not None:
        try:
            write_svg(report, plot)
        except OSError as err:
            raise UsageError(f"cannot write {plot!r}: {err.strerror}") from None
    if as_json:
        print_json(report.to_json())
    else:
        for line in render(report, top):
            print(escaped(line, lines=True))
        if plot is not None:
            print(f"chart written to {plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
