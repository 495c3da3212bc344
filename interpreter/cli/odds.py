"""``rules-odds``: the exact distribution of what one unit's attacks do to another."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from interpreter.chance import Dist, derive_seed
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
from interpreter.diagnostics import (
    CommandLineError,
    Diagnostic,
    UsageError,
    did_you_mean,
    escaped,
)
from interpreter.engine.odds import attack_odds, plan_attacks, sample_attacks
from interpreter.limits import limit, too_many

__all__ = ["main", "build_parser", "odds"]

EXAMPLES = """\
examples:
  rules-odds --edition EDITION BATTLE.yaml --attacker U --target V
  rules-odds -e EDITION BATTLE.yaml --attacker U --target V --attacks 1 --json
  rules-odds -e EDITION BATTLE.yaml --attacker U --target V --samples 100000
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-odds",
        description="Exact odds of one unit's attacks on another, from the ruleset's own "
        "attack sequence: per step (hits, wounds, ...), the damage and the models removed.",
        epilog=EXAMPLES + editions_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_edition_argument(parser)
    add_battle_argument(parser, "battle file with both units (default: the edition's bundled one)")
    parser.add_argument("--attacker", required=True, metavar="U", help="id of the attacking unit")
    parser.add_argument("--target", required=True, metavar="V", help="id of the target unit")
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument("--shooting", action="store_true", help="missile attacks instead of melee")
    parser.add_argument("--charging", action="store_true",
                        help="the attacker charged this turn (charge effects apply)")
    parser.add_argument("--attacks", type=at_least(1), metavar="N",
                        help="fix the number of attacks (default: the attacker's full allocation)")
    parser.add_argument("--samples", type=at_least(1), metavar="N",
                        help="add a Monte Carlo estimate from N samples beside the exact odds")
    parser.add_argument("--seed", type=at_least(0), default=1,
                        help="seed for --samples (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON for tools")
    add_option_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_command(lambda: odds(
        edition=args.edition, battle=args.battle, attacker=args.attacker, target=args.target,
        shooting=args.shooting, charging=args.charging, attacks=args.attacks,
        samples=args.samples, seed=args.seed, as_json=args.json,
        options=options_from(args.option),
    ), args)


def _unit(battle, unit_id: str, role: str):
    unit = battle.unit(unit_id)
    if unit is None:
        ids = [u.id for u in battle.units]
        hint = did_you_mean(unit_id, ids) or "units: " + ", ".join(ids)
        raise UsageError(f"--{role} {unit_id!r} is not a unit of the battle; {hint}")
    return unit


def odds(*, edition: str | None, battle: str | None, attacker: str, target: str,
         shooting: bool = False, charging: bool = False, attacks: int | None = None,
         samples: int | None = None, seed: int = 1, as_json: bool = False,
         options: dict[str, Any] | None = None) -> int:
    """Compute and print the odds; return the exit code."""
    if attacks is not None and attacks < 1:
        raise CommandLineError(f"--attacks must be at least 1, got {attacks}")
    if attacks is not None and attacks > limit("odds_attacks"):
        raise CommandLineError("--attacks: " + too_many("odds_attacks", "attacks", attacks))
    if samples is not None and samples < 1:
        raise CommandLineError(f"--samples must be at least 1, got {samples}")
    ruleset, runtime, fight = load_context(edition, battle, options)
    a, t = _unit(fight, attacker, "attacker"), _unit(fight, target, "target")
    mode = "shooting" if shooting else "melee"
    plans = plan_attacks(runtime, a, t, mode=mode, attacks=attacks, charging=charging,
                         options=fight.options)
    if not plans:
        raise UsageError(f"{attacker!r} makes no {mode} attacks: the ruleset counts none for it")
    most = sum(p.attacks if isinstance(p.attacks, int) else p.attacks.max() for p in plans)
    if most > limit("odds_attacks"):
        counter = ruleset.attack_modes.get(mode, {}).get("count")
        where = ruleset.decls[counter].span if counter in ruleset.decls else None
        raise UsageError([Diagnostic(
            f"{counter or 'the count'} gives {attacker!r} up to {most} attacks: "
            + too_many("odds_attacks", "attacks to work out exactly"), where,
            code="too-many-attacks", hint="or fix the count with --attacks N")])
    results = [attack_odds(runtime, plan, t, fight.options) for plan in plans]
    steps = results[0].steps
    past = [_sum(r.past[i] for r in results) for i in range(len(steps))]
    damage = _sum(r.damage for r in results)
    removed = _removed(runtime, t, damage)
    sampled = None
    if samples:
        sampled = _sum(sample_attacks(runtime, p, samples, derive_seed(seed, "odds", i),
                                      fight.options) for i, p in enumerate(plans))
    seq = runtime.sequences[plans[0].sequence]
    rows = [(f"{name} {'failed' if stops_on_pass else 'passed'}", d)
            for (name, _, stops_on_pass, _), d in zip(seq.steps, past)]
    rows += [("damage", damage), ("models removed", removed)]
    if as_json:
        print_json(_json(ruleset, a, t, plans, rows, damage, sampled, samples))
    else:
        _print_text(ruleset, a, t, plans, rows, damage, sampled, samples)
    return 0


def _sum(dists: Iterable[Dist[Any]]) -> Dist[Any]:
    """The sum of one or more independent distributions."""
    return functools.reduce(Dist.plus, dists)


def _removed(runtime, target, damage: Dist) -> Dist:
    name = runtime.role("wounds")
    per_model = max(1, int(runtime.characteristic(None, target, name) or 1)) if name else 1
    return damage.map(lambda d: min(target.models, (target.damage + d) // per_model))


def _fmt(p: Fraction) -> str:
    return f"{float(p):.4f}"


def _json(ruleset, a, t, plans, rows, damage: Dist, sampled, samples) -> dict:
    out = {
        "edition": ruleset.id,
        "attacker": a.id,
        "target": t.id,
        "attacks": [{"label": p.label, "count": _count_json(p.attacks), "sequence": p.sequence}
                    for p in plans],
        "distribution": {str(k): float(v) for k, v in damage.items()},
        "exact": {str(k): str(v) for k, v in damage.items()},
        "mean": float(damage.mean()),
        "mean_exact": str(damage.mean()),
        "steps": [
            {"name": name, "mean": float(d.mean()), "mean_exact": str(d.mean()),
             "at_least": {str(k): float(d.p_at_least(k)) for k in range(1, d.max() + 1)}}
            for name, d in rows
        ],
    }
    if sampled is not None:
        out["samples"] = {"n": samples, "mean": float(sampled.mean()),
                          "distribution": {str(k): float(v) for k, v in sampled.items()}}
    return out


def _count_json(count: int | Dist[int]) -> Any:
    """A count of attacks as JSON: the number, or its distribution and mean."""
    if isinstance(count, int):
        return count
    return {"distribution": {str(k): float(v) for k, v in count.items()},
            "exact": {str(k): str(v) for k, v in count.items()}, "mean": float(count.mean())}


def _count_text(count: int | Dist[int]) -> str:
    """``12``, or ``3-9 (mean 6.00)`` for a count that rolls dice."""
    if isinstance(count, int):
        return str(count)
    return f"{count.min()}-{count.max()} (mean {float(count.mean()):.2f})"


def _print_text(ruleset, a, t, plans, rows, damage: Dist, sampled, samples) -> None:
    counts = [p.attacks for p in plans]
    total = (str(sum(counts)) if all(isinstance(c, int) for c in counts) else
             f"mean {sum(float(c) if isinstance(c, int) else float(c.mean()) for c in counts):.2f}")
    print(escaped(f"{a.name} ({a.id}) attack {t.name} ({t.id}) under {ruleset.id}: "
                  + ", ".join(f"{_count_text(p.attacks)} × {p.label}" for p in plans)
                  + f" ({total} attack{'' if total == '1' else 's'}), sequence "
                  f"{plans[0].sequence}"))
    top = min(max(d.max() for _, d in rows), 10)
    ks = list(range(1, top + 1))
    header = f"  {'':<18}{'mean':>9}" + "".join(f"{'P(>=' + str(k) + ')':>9}" for k in ks)
    print(header)
    for name, d in rows:
        print(f"  {name:<18}{float(d.mean()):>9.3f}"
              + "".join(f"{_fmt(d.p_at_least(k)):>9}" for k in ks))
    if sampled is not None:
        print(f"  {'damage (sampled)':<18}{float(sampled.mean()):>9.3f}"
              + "".join(f"{_fmt(sampled.p_at_least(k)):>9}" for k in ks)
              + f"   from {samples} samples")
    print(f"exact damage: mean {damage.mean()} = {float(damage.mean()):.4f}; "
          + ", ".join(f"P({k})={v}" for k, v in list(damage.items())[:8])
          + (" ..." if len(damage.items()) > 8 else ""))


if __name__ == "__main__":
    sys.exit(main())
