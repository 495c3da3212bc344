"""``rules-run``: fight a battle once with a narrated log, or many times for statistics."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from interpreter.cli.common import (
    add_battle_argument,
    add_edition_argument,
    add_common_arguments,
    add_option_argument,
    at_least,
    editions_text,
    load_context,
    options_from,
    print_json,
    run_command,
)
from interpreter.diagnostics import CommandLineError, escaped

__all__ = ["main", "build_parser", "run_once", "run_batch"]

EXAMPLES = """\
examples:
  rules-run --edition EDITION                        the edition's bundled battle, narrated
  rules-run -e EDITION BATTLE.yaml --seed 7 --explain
  rules-run -e EDITION BATTLE.yaml --log events.jsonl  every event as JSON Lines
  rules-run -e EDITION BATTLE.yaml --runs 2000 --seed 1 --workers 2 --json
  rules-run -e EDITION BATTLE.yaml --option KEY=VALUE  a reading of an ambiguous rule
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-run",
        description="Run a battle under an edition's rules: once, with a readable log of "
        "every roll, test and decision, or many times for win rates and survivors.",
        epilog=EXAMPLES + editions_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_edition_argument(parser)
    add_battle_argument(parser, "the battle file (default: the edition's bundled battle)")
    parser.add_argument("--seed", type=at_least(0),
                        help="random seed (default: the battle file's)")
    parser.add_argument("--explain", action="store_true",
                        help="add the citation of the rule behind each line")
    parser.add_argument("--json", action="store_true",
                        help="print the result (or, with --runs, the statistics) as JSON")
    parser.add_argument("--log", metavar="FILE",
                        help="write every event as JSON Lines (see docs/event-log.md)")
    parser.add_argument("--runs", type=at_least(1), metavar="N",
                        help="run N battles (seeds derived from --seed) and print statistics")
    parser.add_argument("--workers", type=at_least(1), metavar="K",
                        help="spread --runs over K processes (same results as one; default: "
                        "one per CPU, at most one per 50 battles)")
    add_option_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    options = None

    def body() -> int:
        nonlocal options
        options = options_from(args.option)
        if args.runs:
            if args.log or args.explain:
                raise CommandLineError("--log and --explain describe one battle; drop --runs")
            return run_batch(args.edition, args.battle, options, args.seed, args.runs,
                             args.workers, args.json)
        return run_once(args.edition, args.battle, options, args.seed, args.explain,
                        args.json, args.log)

    return run_command(body, args)


def run_once(edition: str | None, battle_path: str | None, options: dict[str, Any],
             seed: int | None, explain: bool, as_json: bool, log: str | None) -> int:
    """Fight one battle; print the narrated log (or JSON); write the event log."""
    from interpreter.engine.driver import LOG_VERSION, run_battle
    from interpreter.engine.narrate import narrate, summary_table

    if log:
        _check_log(log)
    ruleset, runtime, battle = load_context(edition, battle_path, options)
    used_seed = battle.seed if seed is None else seed
    result = run_battle(runtime, battle, seed=used_seed, keep_events=True)
    if log:
        try:
            with open(log, "w", encoding="utf-8") as out:
                header = {"kind": "header", "log_version": LOG_VERSION, "edition": ruleset.id,
                          "battle": str(battle.doc.path), "seed": used_seed}
                out.write(json.dumps(header, sort_keys=True) + "\n")
                for event in result.events or []:
                    out.write(json.dumps(event, sort_keys=True) + "\n")
        except OSError as err:
            raise CommandLineError(f"--log {log!r}: cannot write it: "
                                   f"{err.strerror or type(err).__name__}") from None
    if as_json:
        data = result.to_json()
        data.update({"edition": ruleset.id, "seed": used_seed})
        print_json(data)
        return 0
    for line in narrate(result.events or [], explain):
        print(escaped(line, lines=True))
    for line in summary_table(result):
        print(escaped(line, lines=True))
    return 0


def _check_log(log: str) -> None:
    """Refuse a ``--log`` that cannot be written, before the battle is fought."""
    path = Path(log)
    if path.is_dir():
        raise CommandLineError(f"--log {log!r} is a folder; give a file name, such as "
                               f"{str(path / 'events.jsonl')!r}")
    if not path.parent.is_dir():
        raise CommandLineError(f"--log {log!r}: the folder {str(path.parent)!r} does not exist")


def run_batch(edition: str | None, battle_path: str | None, options: dict[str, Any],
              seed: int | None, runs: int, workers: int | None, as_json: bool) -> int:
    """Fight ``runs`` battles and print their statistics."""
    from interpreter.engine.stats import (
        RunSpec,
        default_workers,
        run_many,
        summarise,
        terminal_progress,
    )

    if workers is None:
        workers = default_workers(runs)
    if runs < 1 or workers < 1:
        raise CommandLineError("--runs and --workers must be at least 1")
    ruleset, _, battle = load_context(edition, battle_path, options)
    used_seed = battle.seed if seed is None else seed
    spec = RunSpec(edition or ruleset.id, battle_path, options, used_seed)
    results = run_many(spec, runs, workers, terminal_progress)
    stats = summarise(results)
    stats.update({"edition": ruleset.id, "seed": used_seed})
    if as_json:
        print_json(stats)
        return 0
    print(f"{runs} battles under {ruleset.id}, seed {used_seed}")
    for name, o in stats["outcomes"].items():
        label = "draws" if name == "draw" else f"{name} wins"
        print(f"  {label:<18} {o['rate']:7.1%}  (95% interval {o['low']:.1%} – {o['high']:.1%})")
    print("  survivors per unit (mean [95% interval of the mean]; 5%–50%–95% quantiles):")
    for uid, u in stats["units"].items():
        s = u["survivors"]
        print(f"    {uid:<16} {s['mean']:6.2f} [{s['mean_low']:.2f}, {s['mean_high']:.2f}] of "
              f"{u['starting_models']}; {s['q05']:g}–{s['median']:g}–{s['q95']:g}; "
              f"destroyed or fled {u['destroyed_rate']:.1%}")
    print("  victory points per side:")
    for side, v in stats["victory_points"].items():
        print(f"    {side:<16} {v['mean']:8.1f} [{v['mean_low']:.1f}, {v['mean_high']:.1f}]; "
              f"{v['q05']:g}–{v['median']:g}–{v['q95']:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
