"""``rules-odds``: the exact distribution of what one unit's attacks do to another."""

from __future__ import annotations

import argparse
import difflib
import functools
import sys

from fractions import Fraction
from typing import Any

from rules_run import slotted
from rules_run.chance import Dist
from rules_run.cli.common import (
    add_battle_argument,
    add_edition_argument,
    add_common_arguments,
    add_option_argument,
    add_version_argument,
    at_least,
    editions_text,
    load_context,
    options_from,
    parse_option,
    print_json,
    progress_bar,
    run_command,
)
from rules_run.diagnostics import CommandLineError, escaped
from rules_run.engine.charts import damage_panel, write_chart
from rules_run.engine.kernel import CombatEnd, CombatOdds, UnitEnd, combat_odds
from rules_run.engine.odds import Odds, compute_odds
from rules_run.limits import limit, too_many

__all__ = ["main", "build_parser", "odds", "combat", "settings_from"]

EXAMPLES = """\
examples:
  rules-odds --edition EDITION BATTLE.yaml --attacker U --target V
  rules-odds -e EDITION BATTLE.yaml --attacker U --target V --mode MODE --set PARAM=VALUE
  (--MODE is short for --mode MODE: --shooting)
  rules-odds -e EDITION BATTLE.yaml --attacker U --attacker W --target V   side by side
  rules-odds -e EDITION BATTLE.yaml --attacker U --target V --attacks 1 --exact
  rules-odds -e EDITION BATTLE.yaml --attacker U --target V --plot odds.svg
  rules-odds -e EDITION BATTLE.yaml --attacker U --target V --samples 100000 --json
  rules-odds -e EDITION BATTLE.yaml --combat U V --until STATUS    a combat to its end
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-odds",
        description="Exact odds of one unit's attacks on another, from the ruleset's own "
        "attack sequence: per step (hits, wounds, ...), the damage and the models removed, "
        "as a table of 'exactly k' and 'at least k' for every k with any chance.",
        epilog=EXAMPLES + editions_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_version_argument(parser)
    add_edition_argument(parser)
    add_battle_argument(parser, "battle file with both units (default: the edition's bundled one)")
    parser.add_argument("--attacker", action="append", metavar="U",
                        help="id of the attacking unit; repeat to compare several side by side")
    parser.add_argument("--target", metavar="V", help="id of the target unit")
    parser.add_argument("--combat", nargs=2, metavar=("U", "V"),
                        help="instead: the exact odds of how the combat of units U and V "
                        "ends, fought by the battle's rules until one is out of play, they "
                        "no longer fight, or the battle is over")
    parser.add_argument("--until", metavar="STATUS",
                        help="with --combat: the combat also ends when either unit has "
                        "this status (the ruleset's, e.g. the one a broken unit gets)")
    parser.add_argument("--mode", metavar="NAME",
                        help="which of the ruleset's attack modes ('attacks:' in its "
                        "index.yaml; default: the first it lists)")
    parser.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                        dest="settings",
                        help="give a parameter the mode lets a user set (its 'set:'), "
                        "as PARAM=true or PARAM=3; repeatable")
    parser.add_argument("--attacks", type=at_least(1), metavar="N",
                        help="fix the number of attacks (default: the attacker's full allocation)")
    parser.add_argument("--samples", type=at_least(1), metavar="N",
                        help="add a Monte Carlo estimate from N samples beside the exact odds")
    parser.add_argument("--seed", type=at_least(0), default=1,
                        help="seed for --samples (default 1)")
    parser.add_argument("--exact", action="store_true",
                        help="add the exact fraction beside each percentage")
    parser.add_argument("--plot", metavar="FILE",
                        help="also write a chart of the damage: 'exactly k' bars and the "
                        "'at least k' curve (FILE.svg needs nothing; FILE.png needs matplotlib)")
    parser.add_argument("--json", action="store_true", help="print JSON for tools")
    add_option_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    _mode_flag(parser, args, rest)
    if args.combat is not None:
        if args.attacker or args.target or args.mode or args.settings or args.attacks:
            parser.error("--combat takes no --attacker, --target, --mode, --set or --attacks")
        return run_command(lambda: combat(
            edition=args.edition, battle=args.battle, units=tuple(args.combat),
            until=args.until, samples=args.samples, seed=args.seed, as_json=args.json,
            exact=args.exact, options=options_from(args.option)), args)
    if not args.attacker or not args.target:
        parser.error("give --attacker and --target (or --combat U V)")
    if args.until is not None:
        parser.error("--until goes with --combat")
    return run_command(lambda: odds(
        edition=args.edition, battle=args.battle, attacker=args.attacker, target=args.target,
        mode=args.mode, settings=settings_from(args.settings), attacks=args.attacks,
        samples=args.samples, seed=args.seed, as_json=args.json, exact=args.exact,
        plot=args.plot, options=options_from(args.option),
    ), args)


def _mode_flag(parser: argparse.ArgumentParser, args: argparse.Namespace,
               rest: list[str]) -> None:
    """``--NAME`` for ``--mode NAME`` (``--shooting``): one word left over that is no option
    of the command is read as an attack mode, which the ruleset then checks; a near miss of
    an option is an unrecognised argument with a did-you-mean."""
    if not rest:
        return
    word = rest[0]
    options = [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
    near = difflib.get_close_matches(word, options, n=1, cutoff=0.75)
    if (len(rest) > 1 or not word.startswith("--") or "=" in word or len(word) < 3
            or word.startswith("---") or near):
        hint = f"; did you mean {near[0]}?" if near else ""
        parser.error(f"unrecognized arguments: {' '.join(rest)}{hint}")
    if args.mode is not None:
        parser.error(f"{word} and --mode {args.mode}: give one attack mode")
    args.mode = word[2:]


def odds(*, edition: str | None, battle: str | None, attacker: str | list[str], target: str,
         mode: str | None = None, settings: dict[str, Any] | None = None,
         attacks: int | None = None,
         samples: int | None = None, seed: int = 1, as_json: bool = False, exact: bool = False,
         plot: str | None = None, options: dict[str, Any] | None = None) -> int:
    """Compute and print the odds; return the exit code."""
    if attacks is not None and attacks < 1:
        raise CommandLineError(f"--attacks must be at least 1, got {attacks}")
    if attacks is not None and attacks > limit("odds_attacks"):
        raise CommandLineError("--attacks: " + too_many("odds_attacks", "attacks", attacks))
    if samples is not None and samples < 1:
        raise CommandLineError(f"--samples must be at least 1, got {samples}")
    ruleset, runtime, fight = load_context(edition, battle, options)
    names = [attacker] if isinstance(attacker, str) else list(attacker)
    found = []
    for name in names:
        with progress_bar(samples or 0, f"samples of {name}",
                          quiet=as_json) as bar:
            found.append(compute_odds(runtime, fight, name, target, mode=mode,
                                      settings=settings, attacks=attacks,
                                      samples=samples or 0, seed=seed, progress=bar))
    if plot is not None:
        write_chart([damage_panel(found)], plot)
    if as_json:
        data = [_json(ruleset, o, samples or 0) for o in found]
        print_json(data[0] if len(data) == 1 else {"edition": ruleset.id, "target": target,
                                                    "attackers": data}, sort_keys=False)
    else:
        for o in found:
            _print_text(ruleset, o, samples or 0, exact)
        _print_table(found, exact)
        if plot is not None:
            print(f"chart written to {plot}")
    return 0


def combat(*, edition: str | None, battle: str | None, units: tuple[str, str],
           until: str | None = None, samples: int | None = None, seed: int = 1,
           as_json: bool = False, exact: bool = False,
           options: dict[str, Any] | None = None) -> int:
    """Work out and print how the combat of two units ends; return the exit code."""
    ruleset, runtime, fight = load_context(edition, battle, options)
    with progress_bar(samples or 0, "combats", quiet=as_json) as bar:
        found = combat_odds(runtime, fight, units[0], units[1], until=until,
                            samples=samples or 0, seed=seed, progress=bar)
    if as_json:
        print_json(_combat_json(ruleset, found, until, samples or 0), sort_keys=False)
    else:
        _print_combat(ruleset, found, until, samples or 0, exact)
    return 0


def _unit_end(end: UnitEnd) -> str:
    """``in play (fleeing)``, ``destroyed``."""
    return end.state + (f" ({', '.join(end.statuses)})" if end.statuses else "")


def _combat_rows(found: CombatOdds) -> list[tuple[str, Dist]]:
    """(what, its distribution): how the combat ends, then each unit's end."""
    rows: list[tuple[str, Dist]] = [("ends by", found.ends.map(_how))]
    for i, u in enumerate(found.units):
        rows.append((u.id, found.ends.map(functools.partial(_end_of, i=i))))
    return rows


def _how(end: CombatEnd) -> str:
    """How the combat ended."""
    return end.how


def _end_of(end: CombatEnd, i: int) -> str:
    """How the ``i``-th unit ended the combat, in words."""
    return _unit_end(end.units[i])


def _models_of(end: CombatEnd, i: int) -> int:
    """The ``i``-th unit's models left."""
    return end.units[i].models


def _print_combat(ruleset, found: CombatOdds, until: str | None, samples: int,
                  exact: bool) -> None:
    a, b = found.units
    print(escaped(f"Combat of {a.name} ({a.id}) and {b.name} ({b.id}) under {ruleset.id}, "
                  f"fought to its end{f' (or {until})' if until else ''}: exact over "
                  f"{found.nodes} states, {found.leaves} branches"))
    sampled = dict(_combat_rows(slotted.evolve(found, ends=found.sampled))) if (
        found.sampled is not None) else {}
    for what, dist in _combat_rows(found):
        print(f"{what}:")
        for value, p in sorted(dist.items(), key=lambda vp: (-vp[1], str(vp[0]))):
            line = f"  {escaped(str(value)):<32}{_pct(p):>9}"
            if what in sampled:
                line += f"{_pct(sampled[what].probability(value)):>9} sampled"
            print(line + (f"  {p}" if exact else ""))
    for i, u in enumerate(found.units):
        models = found.ends.map(functools.partial(_models_of, i=i))
        print(f"models of {u.id} left (mean {float(models.mean()):.3f}):")
        print(f"  {'k':>3}{'exactly':>9}{'at least':>10}")
        for k in range(0, models.max() + 1):
            print(f"  {k:>3}{_pct(models.probability(k)):>9}{_pct(models.p_at_least_float(k)):>10}"
                  + (f"  {models.probability(k)}" if exact else ""))
    if samples:
        print(f"sampled: {samples} combats")


def _combat_json(ruleset, found: CombatOdds, until: str | None, samples: int) -> dict:
    out: dict[str, Any] = {
        "edition": ruleset.id,
        "combat": [u.id for u in found.units],
        "until": until,
        "states": found.nodes,
        "branches": found.leaves,
        "left_out": list(found.left_out),
        "in_full": list(found.in_full),
        "ends": [{"how": e.how,
                  "units": {u.unit: {"state": u.state, "statuses": list(u.statuses),
                                     "models": u.models} for u in e.units},
                  "probability": float(p), "exact": str(p)}
                 for e, p in sorted(found.ends.items(), key=lambda ep: ep[0])],
        "rows": {what: {str(v): {"probability": float(p), "exact": str(p)}
                        for v, p in sorted(d.items(), key=lambda vp: str(vp[0]))}
                 for what, d in _combat_rows(found)},
        "models": {u.id: _table_json(found.ends.map(functools.partial(_models_of, i=i)))
                   for i, u in enumerate(found.units)},
    }
    if found.sampled is not None:
        out["samples"] = {"n": samples, "rows": {
            what: {str(v): float(p) for v, p in sorted(d.items(), key=lambda vp: str(vp[0]))}
            for what, d in _combat_rows(slotted.evolve(found, ends=found.sampled))}}
    return out


def settings_from(values: list[str]) -> dict[str, Any]:
    """The ``--set PARAM=VALUE`` values as a dict (values read as ``--option`` reads them).

    Raises:
        CommandLineError: a value without ``=``.
    """
    for text in values:
        key, sep, _ = text.partition("=")
        if not sep or not key:
            raise CommandLineError(f"--set takes PARAM=VALUE, got {text!r}")
    return dict(parse_option(v) for v in values)


def _pct(p: Fraction | float) -> str:
    """A percentage; a chance too small to show at two decimals is ``<0.01%``, never 0."""
    if type(p) is float:
        return "<0.01%" if 0 < p < 1 / 20000 else f"{p:.2%}"
    return "<0.01%" if 0 < p < Fraction(1, 20000) else f"{float(p):.2%}"


def _table_json(d: Dist) -> list[dict[str, Any]]:
    """Every k from 0 to the most: exactly and at least, as numbers and exact fractions."""
    rows = []
    for k in range(0, d.max() + 1):
        exactly, at_least = d.probability(k), d.p_at_least(k)   # each fraction made once
        rows.append({"k": k, "exactly": float(exactly), "at_least": float(at_least),
                     "exactly_exact": str(exactly), "at_least_exact": str(at_least)})
    return rows


def _json(ruleset, o: Odds, samples: int) -> dict:
    damage = o.damage
    out = {
        "edition": ruleset.id,
        "attacker": o.attacker.id,
        "target": o.target.id,
        "attacks": [{"label": p.label, "count": _count_json(p.attacks), "sequence": p.sequence}
                    for p in o.plans],
        "distribution": {k: float(v) for k, v in sorted(damage.items())},
        "exact": {k: str(v) for k, v in sorted(damage.items())},
        "mean": float(damage.mean()),
        "mean_exact": str(damage.mean()),
        "steps": [
            {"name": name, "mean": float(d.mean()), "mean_exact": str(d.mean()),
             "at_least": {k: d.p_at_least_float(k) for k in range(1, d.max() + 1)},
             "table": _table_json(d)}
            for name, d in o.rows
        ],
    }
    if o.joint is not None:
        out["tallies"] = {
            "names": list(o.tallies),
            "joint": [{"counts": dict(zip(o.tallies, counts)), "probability": float(p),
                       "exact": str(p)} for counts, p in o.joint.items()],
        }
    if o.sampled is not None:
        out["samples"] = {"n": samples, "mean": float(o.sampled.mean()),
                          "distribution": {k: float(v) for k, v in sorted(o.sampled.items())}}
        if o.sampled_tallies:
            out["samples"]["tallies"] = {
                name: {"mean": float(d.mean()),
                       "distribution": {k: float(v) for k, v in sorted(d.items())}}
                for name, d in zip(o.tallies, o.sampled_tallies)}
    return out


def _count_json(count: int | Dist[int]) -> Any:
    """A count of attacks as JSON: the number, or its distribution and mean."""
    if isinstance(count, int):
        return count
    return {"distribution": {k: float(v) for k, v in sorted(count.items())},
            "exact": {k: str(v) for k, v in sorted(count.items())}, "mean": float(count.mean())}


def _count_text(count: int | Dist[int]) -> str:
    """``12``, or ``3-9 (mean 6.00)`` for a count that rolls dice."""
    if isinstance(count, int):
        return str(count)
    return f"{count.min()}-{count.max()} (mean {float(count.mean()):.2f})"


def _print_text(ruleset, o: Odds, samples: int, exact: bool) -> None:
    a, t, plans = o.attacker, o.target, o.plans
    counts = [p.attacks for p in plans]
    total = (str(sum(counts)) if all(isinstance(c, int) for c in counts) else
             f"mean {sum(float(c) if isinstance(c, int) else float(c.mean()) for c in counts):.2f}")
    print(escaped(f"{a.name} ({a.id}) attack {t.name} ({t.id}) under {ruleset.id}: "
                  + ", ".join(f"{_count_text(p.attacks)} × {p.label}" for p in plans)
                  + f" ({total} attack{'' if total == '1' else 's'}), sequence "
                  f"{plans[0].sequence}"))
    print(f"  {'':<18}{'mean':>9}{'most':>6}" + (f"  {'mean (exact)'}" if exact else ""))
    for name, d in o.rows:
        print(f"  {name:<18}{float(d.mean()):>9.3f}{d.max():>6}"
              + (f"  {d.mean()}" if exact else ""))
    if o.sampled is not None:
        print(f"  {'damage (sampled)':<18}{float(o.sampled.mean()):>9.3f}"
              f"{o.sampled.max():>6}   from {samples} samples")
        for name, d in zip(o.tallies, o.sampled_tallies):
            print(f"  {name + ' (sampled)':<18}{float(d.mean()):>9.3f}{d.max():>6}"
                  f"   from {samples} samples")


def _print_table(found: list[Odds], exact: bool) -> None:
    """Damage and models removed, then each tally: exactly k and at least k, every attacker
    side by side; the exact fractions' columns as wide as their longest fraction."""
    names = found[0].tallies if all(o.tallies == found[0].tallies for o in found) else ()
    tallies = [-2 - len(names) + i for i in range(len(names))]
    for row in (-2, -1, *tallies):
        what = found[0].rows[row][0]
        dists = [o.rows[row][1] for o in found]
        top = max(d.max() for d in dists)
        widths = []   # each attacker's exact columns: a space, then the longest fraction
        for d in dists:
            if not exact:
                widths.append((0, 0))
                continue
            exactly = max(len(str(d.probability(k))) for k in range(top + 1))
            at_least = max(len(str(d.p_at_least(k))) for k in range(top + 1))
            widths.append((max(exactly, 7) + 2, max(at_least, 8) + 2))
        cols = [f"{'exactly':>9}{'at least':>10}" + (f"{'exactly':>{wx}}{'at least':>{wa}}"
                                                     if exact else "") for wx, wa in widths]
        print(f"{what}:" + "".join(f"  {o.attacker.name[:19 + wx + wa - 2]:<{19 + wx + wa}}"
                                   for o, (wx, wa) in zip(found, widths))
              if len(found) > 1 else f"{what}:")
        print(f"  {'k':>3}" + "".join(f" {c}" for c in cols))
        for k in range(0, top + 1):
            cells = []
            for d, (wx, wa) in zip(dists, widths):
                cell = f"{_pct(d.probability_float(k)):>9}{_pct(d.p_at_least_float(k)):>10}"
                if exact:
                    cell += f"{str(d.probability(k)):>{wx}}{str(d.p_at_least(k)):>{wa}}"
                cells.append(cell)
            print(f"  {k:>3}" + "".join(f" {c}" for c in cells))


if __name__ == "__main__":
    sys.exit(main())
