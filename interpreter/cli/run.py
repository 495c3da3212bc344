"""``rules-run``: fight a battle once with a narrated log, or many times for statistics."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rules_run.cli.common import (
    add_battle_argument,
    add_sources_argument,
    add_version_argument,
    add_edition_argument,
    add_common_arguments,
    add_executor_argument,
    add_option_argument,
    at_least,
    editions_text,
    load_context,
    options_from,
    print_json,
    progress_bar,
    run_command,
    sources_folder,
)
from rules_run.cli.replay import check_output
from rules_run.diagnostics import CommandLineError, escaped

__all__ = ["main", "build_parser", "run_once", "run_batch"]

EXAMPLES = """\
examples:
  rules-run --edition EDITION                        the edition's bundled battle, narrated
  rules-run -e EDITION BATTLE.yaml --seed 7 --explain
  rules-run -e EDITION BATTLE.yaml --log events.jsonl  every event as JSON Lines
  rules-run -e EDITION BATTLE.yaml --replay replay.html  step through the table in a browser
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
                        help="add the citation of the rule behind each line (and the cited "
                        "line itself, from your copy of the source: see --sources)")
    parser.add_argument("--summary", action="store_true",
                        help="print the result and the table of units only")
    parser.add_argument("--decisions", action="store_true",
                        help="tell every decision made (by default: those the ruleset's "
                        "report names)")
    add_sources_argument(parser)
    parser.add_argument("--json", action="store_true",
                        help="print the result (or, with --runs, the statistics) as JSON")
    parser.add_argument("--log", metavar="FILE",
                        help="write every event as JSON Lines (see docs/event-log.md); "
                        "'-' prints them instead of the report")
    parser.add_argument("--replay", metavar="FILE.html|FILE.svg",
                        help="draw the battle: a page stepping through it, or the table as "
                        "an SVG picture (see rules-replay)")
    parser.add_argument("--replay-turn", type=int, metavar="N",
                        help="with --replay: the end of battle round N (0: the set-up)")
    parser.add_argument("--runs", type=at_least(1), metavar="N",
                        help="run N battles (seeds derived from --seed) and print statistics")
    parser.add_argument("--workers", type=at_least(1), metavar="K",
                        help="spread --runs over K processes (same results as one; default: "
                        "one per CPU, at most one per 50 battles)")
    parser.add_argument("--plot", metavar="FILE",
                        help="with --runs, also write a chart: win rates, survivors per unit, "
                        "victory points (FILE.svg needs nothing; FILE.png needs matplotlib)")
    add_executor_argument(parser)
    add_option_argument(parser)
    add_version_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    options = None

    def body() -> int:
        nonlocal options
        options = options_from(args.option)
        if args.executor and not args.runs:
            raise CommandLineError("--executor says where --runs battles are fought; give --runs")
        if args.runs:
            if args.log or args.explain or args.replay or args.summary or args.decisions:
                raise CommandLineError("--log, --replay, --explain, --summary and --decisions "
                                       "describe one battle; drop --runs")
            return run_batch(args.edition, args.battle, options, args.seed, args.runs,
                             args.workers, args.json, plot=args.plot, executor=args.executor)
        if args.plot:
            raise CommandLineError("--plot draws the statistics of many battles: add --runs N")
        if args.replay_turn is not None and not args.replay:
            raise CommandLineError("--replay-turn N goes with --replay FILE")
        replay = None
        if args.replay:
            replay = (args.replay, check_output(args.replay, "--replay"), args.replay_turn)
        return run_once(args.edition, args.battle, options, args.seed, args.explain,
                        args.json, args.log, replay, summary=args.summary,
                        decisions=args.decisions, sources=sources_folder(args.sources))

    return run_command(body, args)


def run_once(edition: str | None, battle_path: str | None, options: dict[str, Any],
             seed: int | None, explain: bool, as_json: bool, log: str | None,
             replay: tuple[str, str, int | None] | None = None, *,
             summary: bool = False, decisions: bool = False, sources: Path | None = None
             ) -> int:
    """Fight one battle; print the result and the battle report (or JSON); write the event
    log; draw the replay (``replay``: the file, its kind and the round, as ``rules-replay``
    takes them) from the same log."""
    from rules_run.engine.driver import LOG_VERSION, run_battle
    from rules_run.engine.narrate import Words, narrate, summary_table

    if log:
        _check_log(log)
    ruleset, runtime, battle = load_context(edition, battle_path, options)
    used_seed = battle.seed if seed is None else seed
    result = run_battle(runtime, battle, seed=used_seed, keep_events=True)
    header = {"kind": "header", "log_version": LOG_VERSION, "edition": ruleset.id,
              "battle": str(battle.doc.path), "seed": used_seed}
    lines = [json.dumps(e, sort_keys=True) + "\n"
             for e in [header, *(e.to_json() for e in result.events or [])]]
    if log:
        if log == "-":
            # the event log is the output: nothing else is printed
            sys.stdout.writelines(lines)
            return 0
        try:
            with open(log, "w", encoding="utf-8") as out:
                out.writelines(lines)
        except OSError as err:
            raise CommandLineError(f"--log {log!r}: cannot write it: "
                                   f"{err.strerror or type(err).__name__}") from None
    if replay is not None:
        from rules_run.cli.replay import write_replay
        from rules_run.replay.steps import parse_log, replay_of

        path, kind, turn = replay
        source = log or "the battle's events"
        write_replay(replay_of(parse_log("".join(lines), source), source), path, kind, turn)
    if as_json:
        data = result.to_json()
        data.update({"edition": ruleset.id, "seed": used_seed})
        print_json(data)
        return 0
    words = Words.of(ruleset, battle)
    for line in summary_table(result, words):
        print(escaped(line, lines=True))
    if summary:
        return 0
    print()
    for line in narrate(result.events or [], words, explain=explain, decisions=decisions,
                        sources=sources):
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
              seed: int | None, runs: int, workers: int | None, as_json: bool, *,
              plot: str | None = None, executor: str | None = None) -> int:
    """Fight ``runs`` battles and print their statistics (on Dask, each task carries the
    ruleset's and the battle's files: :mod:`rules_run.editions.bundle`)."""
    from rules_run.engine.stats import RunSpec, default_workers, run_many, summarise

    if workers is None:
        workers = default_workers(runs)
    if runs < 1 or workers < 1:
        raise CommandLineError("--runs and --workers must be at least 1")
    opened = load_context(edition, battle_path, options)
    ruleset, battle = opened.ruleset, opened.battle
    used_seed = battle.seed if seed is None else seed
    bundle = None
    if executor is not None and executor.startswith("dask"):
        from rules_run.editions.bundle import pack

        bundle = pack([ruleset], battle_path or ruleset.default_battle)
    spec = RunSpec(edition, battle_path, options, used_seed, bundle)
    with progress_bar(runs, "battles", quiet=as_json) as bar:
        results = run_many(spec, runs, workers, bar, executor, opened)
    stats = summarise(results)
    stats.update({"edition": ruleset.id, "seed": used_seed})
    if plot is not None:
        from rules_run.engine.charts import stats_panels, write_chart

        write_chart(stats_panels(stats, {u.id: u.name for u in battle.units}), plot)
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
    if plot is not None:
        print(f"chart written to {plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
