"""Exact odds of an attack: one declared sequence, enumerated, then convolved over N attacks.

The ruleset's manifest names its attack modes (``attacks:`` in ``index.yaml``): for each,
the sequence that resolves one attack, the action that counts the attacks, and which of
their parameters take the attacker, the target, each weapon and the values a user may set.
Everything else is the ruleset's own declarations, run by the same compiled code as a
battle, with an enumerating chance source instead of a random one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

from rules_run import slotted
from rules_run.chance import Dist, RandomChance, derive_seed, enumerate_exact
from rules_run.diagnostics import Diagnostic, UsageError, did_you_mean
from rules_run.editions.loader import SETTING_TYPES
from rules_run.limits import limit, too_many
from rules_run.runtime.compiled import Runtime
from rules_run.runtime.entities import Unit, Weapon, wounds_per_model

__all__ = ["AttackPlan", "AttackOdds", "TallyCounts", "attack_mode", "battle_unit", "plan_attacks",
           "attack_odds", "sample_attacks", "Odds", "compute_odds"]


@slotted.frozen
class AttackPlan:
    """What to enumerate: a sequence, its arguments, and how many such attacks."""

    sequence: str
    args: dict[str, Any] = slotted.slot(hash=False)
    attacks: int | Dist[int]
    """How many: a number, or its distribution when counting them rolls dice (a random
    Attacks characteristic, ``D3``)."""
    label: str
    """The mode's name, and the weapon when there is one."""


@slotted.frozen
class AttackOdds:
    """The exact outcome of a number of identical attacks."""

    plan: AttackPlan
    steps: tuple[str, ...]
    """The sequence's step names, in order."""
    per_attack: Dist
    """One attack's joint outcome (a :class:`SequenceOutcome`)."""
    past: tuple[Dist, ...]
    """For each step, the distribution of how many attacks got past it, over all attacks."""
    damage: Dist
    """Total damage over all attacks."""
    models_removed: Dist
    """Models removed by that damage (wounds per model from the ``as wounds`` characteristic)."""
    tallies: Dist | None = None
    """The joint distribution of the sequence's tallies over all attacks (a
    :class:`TallyCounts`, in the order the sequence declares them); None without tallies."""


class TallyCounts(tuple):
    """The counts of a sequence's tallies, added up tally by tally (so distributions of
    them convolve as numbers do: ``0 + counts`` is ``counts``).

    Examples:
        >>> TallyCounts((1, 0)) + TallyCounts((0, 2)), 0 + TallyCounts((1, 1))
        ((1, 2), (1, 1))
    """

    def __add__(self, other: object) -> TallyCounts:
        if not isinstance(other, tuple):
            return NotImplemented
        return TallyCounts(a + b for a, b in zip(self, other))

    def __radd__(self, other: object) -> TallyCounts:
        if other == 0:
            return self
        return NotImplemented


def attack_mode(runtime: Runtime, mode: str | None) -> tuple[str, Mapping[str, Any]]:
    """The mode's name and its ``attacks:`` entry; None is the manifest's first mode.

    Raises:
        UsageError: the ruleset declares no such mode (with a did-you-mean), or none at all.
    """
    modes = runtime.ruleset.attack_modes
    if not modes:
        raise UsageError(f"the ruleset {runtime.ruleset.id!r} declares no attack modes "
                         "('attacks:' in its index.yaml)")
    name = next(iter(modes)) if mode is None else mode
    if name not in modes:
        hint = did_you_mean(name, modes) or "its modes: " + ", ".join(modes)
        raise UsageError(f"--mode {name}: the ruleset {runtime.ruleset.id!r} declares no "
                         f"{name!r} attacks; {hint}")
    return name, modes[name]


def _settings(runtime: Runtime, mode: str, spec: Mapping[str, Any],
              given: Mapping[str, Any]) -> dict[str, Any]:
    """The values a user sets, checked against the mode's ``set`` parameters and their types.

    Raises:
        UsageError: a parameter the mode does not let a user set, or a value of another type.
    """
    allowed = spec.get("set", ())
    params = {p.name: p for key in ("sequence", "count") if key in spec
              for p in runtime.decls[spec[key]].params}
    for name, value in given.items():
        if name not in allowed:
            hint = did_you_mean(name, allowed) or (
                "they let a user set: " + ", ".join(allowed) if allowed
                else "they let a user set nothing")
            raise UsageError(f"--set {name}: the {mode} attacks of {runtime.ruleset.id!r} "
                             f"have no parameter {name!r} to set; {hint}")
        kind = params[name].type
        if not isinstance(value, SETTING_TYPES[kind]) or (kind != "bool"
                                                          and isinstance(value, bool)):
            raise UsageError(f"--set {name}={value}: {name!r} takes a value of type {kind}, "
                             f"not {value!r}")
    return dict(given)


def _bind(runtime: Runtime, name: str, context: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of a declaration, taken by name from ``context``, else its defaults."""
    decl = runtime.decls[name]
    args = {}
    for p in decl.params:
        if p.name in context:
            args[p.name] = context[p.name]
        elif p.default is not None:
            args[p.name] = runtime.constant(p.default)
        else:
            raise UsageError(
                f"{decl.kind} {name!r} needs {p.name!r}, which rules-odds cannot give "
                f"(it gives: {', '.join(context)})"
            )
    return args


def plan_attacks(runtime: Runtime, attacker: Unit, target: Unit, *, mode: str | None = None,
                 attacks: int | None = None, settings: Mapping[str, Any] | None = None,
                 options: dict[str, Any] | None = None) -> list[AttackPlan]:
    """The attacks ``attacker`` makes at ``target`` in ``mode`` (default: the manifest's
    first), grouped by weapon.

    The mode's ``attacks:`` entry says which parameters take the attacker, the target and
    each weapon; ``settings`` gives the parameters it lets a user ``set`` (the rest take their
    defaults). With ``attacks`` the count is fixed (one group per weapon the attacker
    carries, each with that count); otherwise the ruleset's counting action gives the
    groups: a number, or ``[weapon, count]`` pairs, so the ruleset decides which weapons fit
    the mode. The counting action is enumerated exactly: a count that rolls dice is a
    distribution.

    Raises:
        UsageError: an unknown mode or setting; or the counts of two weapons depend on the
            same dice, so their attacks cannot be added up as independent (give ``attacks``).
    """
    name, spec = attack_mode(runtime, mode)
    sequence = spec["sequence"]
    context = _settings(runtime, name, spec, settings or {})
    context.update({p: attacker for p in spec["attacker"]})
    context.update({p: target for p in spec["target"]})
    groups: list[tuple[Weapon | None, int | Dist[int]]]
    if "count" in spec and attacks is None:
        groups = _counted(runtime, spec["count"], _bind(runtime, spec["count"], context),
                          attacker, options)
    else:
        weapons: list[Weapon | None] = list(attacker.weapons) or [None]
        groups = [(w, attacks if attacks is not None else 1) for w in weapons]
    plans = []
    for weapon, count in groups:
        ctx = dict(context, **({spec["weapon"]: weapon} if "weapon" in spec else {}))
        label = name + (f" ({weapon.name})" if weapon is not None else "")
        plans.append(AttackPlan(sequence, _bind(runtime, sequence, ctx), count, label))
    return plans


def _counted(runtime: Runtime, action: str, args: dict[str, Any], attacker: Unit,
             options: dict[str, Any] | None) -> list[tuple[Weapon | None, int | Dist[int]]]:
    """Each weapon's count of attacks: a number, or its distribution when it rolls dice."""
    weapons = list(attacker.weapons)

    def by_weapon(chance) -> tuple[tuple[int, int], ...]:
        # weapons by their place on the unit (-1: no weapon), so outcomes sort the same way
        counted = runtime.invoke(action, runtime.env(chance, options), dict(args))
        if isinstance(counted, int):
            return ((-1, counted),)
        return tuple((weapons.index(w) if w is not None else -1, int(n)) for w, n in counted)

    def count_of(outcome: tuple[tuple[int, int], ...], place: int) -> int:
        return sum(n for j, n in outcome if j == place)

    joint = enumerate_exact(by_weapon)
    places = list(dict.fromkeys(i for outcome in joint.support() for i, _ in outcome))
    marginals: list[Dist[int]] = [joint.map(functools.partial(count_of, place=i))
                                  for i in places]
    apart: Dist[tuple[int, ...]] = Dist.certain(())
    for m in marginals:
        apart = apart.combine(m, lambda a, n: a + (n,))
    if joint.map(lambda o: tuple(count_of(o, i) for i in places)) != apart:
        raise UsageError(f"the attacks counted by {action!r} for {attacker.id!r} share dice "
                         "between weapons, so their odds cannot be added up: give --attacks")
    return [(weapons[i] if i >= 0 else None,
             m.support()[0] if len(m.support()) == 1 else m)
            for i, m in zip(places, marginals)]


def attack_odds(runtime: Runtime, plan: AttackPlan, target: Unit,
                options: dict[str, Any] | None = None) -> AttackOdds:
    """Enumerate one attack exactly, then convolve it over the plan's attacks."""
    seq = runtime.sequences[plan.sequence]
    per_attack = seq.exact(lambda chance: runtime.env(chance, options), dict(plan.args))
    n = plan.attacks

    def over_attacks(one: Dist) -> Dist:
        if isinstance(n, Dist):
            return n.bind(one.repeat_sum)
        return one.repeat_sum(n)

    past = tuple(over_attacks(per_attack.map(lambda o, i=i: o.past[i]))
                 for i in range(len(seq.step_names)))
    damage = over_attacks(per_attack.map(lambda o: o.damage))
    wounds = wounds_per_model(runtime, target)
    carried = target.damage
    removed = damage.map(lambda d: min(target.models, (carried + d) // wounds))
    tallies = None
    if seq.tallies:
        none = TallyCounts((0,) * len(seq.tallies))
        # no attacks at all sum to 0: no tally counted
        tallies = over_attacks(per_attack.map(lambda o: TallyCounts(o.tallies))).map(
            lambda c: c if isinstance(c, TallyCounts) else none)
    return AttackOdds(plan, tuple(seq.step_names), per_attack, past, damage, removed, tallies)


def sample_attacks(runtime: Runtime, plan: AttackPlan, samples: int, seed: int,
                   options: dict[str, Any] | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   tally: str | None = None) -> Dist:
    """A Monte Carlo estimate of the total damage of the plan's attacks (exact counts / n),
    or of one of its sequence's tallies (``tally``); ``progress`` is told (samples done,
    samples) every 1000 samples."""
    seq = runtime.sequences[plan.sequence]
    chance = RandomChance(seed)
    env = runtime.env(chance, options)
    counts: dict[int, int] = {}
    which = seq.tallies.index(tally) if tally is not None else None
    for i in range(samples):
        if progress is not None and (i % 1000 == 0 or i == samples - 1):
            progress(i + 1, samples)
        total = 0
        n = plan.attacks if isinstance(plan.attacks, int) else plan.attacks.sample(chance.rng)
        for _ in range(n):
            outcome = seq.run(env, dict(plan.args))
            total += outcome.damage if which is None else outcome.tallies[which]
        counts[total] = counts.get(total, 0) + 1
    return Dist.from_weights({k: Fraction(v, samples) for k, v in counts.items()})


def battle_unit(battle: Any, unit_id: str, flag: str) -> Any:
    """The battle's unit ``unit_id``, which the command-line ``flag`` named.

    Raises:
        UsageError: no such unit (with a did-you-mean, or the battle's units).
    """
    unit = battle.unit(unit_id)
    if unit is None:
        ids = [u.id for u in battle.units]
        hint = did_you_mean(unit_id, ids) or "units: " + ", ".join(ids)
        raise UsageError(f"{flag} {unit_id!r} is not a unit of the battle; {hint}")
    return unit


@slotted.frozen
class Odds:
    """What one attacker's attacks do to the target: each step, the damage, the models."""

    attacker: Any
    target: Any
    plans: list
    rows: list[tuple[str, Dist]]
    """(what, its distribution): each step of the sequence, each tally, then damage, models
    removed."""
    sampled: Dist | None = None
    tallies: tuple[str, ...] = ()
    """The sequence's tallies, in order (their rows come after the steps')."""
    joint: Dist | None = None
    """The joint distribution of the tallies (a :class:`TallyCounts`); None without tallies."""
    sampled_tallies: tuple[Dist, ...] = ()
    """With samples: each tally's Monte Carlo estimate, from the same samples as damage's."""

    @property
    def damage(self) -> Dist:
        """The distribution of the total damage."""
        return self.rows[-2][1]


def compute_odds(runtime, fight, attacker: str, target: str, *, mode: str | None = None,
                 settings: Mapping[str, Any] | None = None, attacks: int | None = None,
                 samples: int = 0, seed: int = 1, progress: Any = None) -> Odds:
    """The exact odds of one attacker's attacks on the target in ``mode`` (default: the
    manifest's first), with ``settings`` for the parameters the mode lets a user set (and
    ``samples`` draws)."""
    a, t = battle_unit(fight, attacker, "--attacker"), battle_unit(fight, target, "--target")
    name, spec = attack_mode(runtime, mode)
    plans = plan_attacks(runtime, a, t, mode=name, attacks=attacks, settings=settings,
                         options=fight.options)
    if not plans:
        raise UsageError(f"{attacker!r} makes no {name} attacks: the ruleset counts none for it")
    most = sum(p.attacks if isinstance(p.attacks, int) else p.attacks.max() for p in plans)
    if most > limit("odds_attacks"):
        ruleset = runtime.ruleset
        counter = spec.get("count")
        where = ruleset.decls[counter].span if counter in ruleset.decls else None
        raise UsageError([Diagnostic(
            f"{counter or 'the count'} gives {attacker!r} up to {most} attacks: "
            + too_many("odds_attacks", "attacks to work out exactly"), where,
            code="too-many-attacks", hint="or fix the count with --attacks N")])
    results = [attack_odds(runtime, plan, t, fight.options) for plan in plans]
    steps = results[0].steps
    past = [_sum(r.past[i] for r in results) for i in range(len(steps))]
    damage = _sum(r.damage for r in results)
    sampled = None
    seq = runtime.sequences[plans[0].sequence]
    sampled_tallies: tuple[Dist, ...] = ()
    if samples:
        sampled = _sum(sample_attacks(runtime, p, samples, derive_seed(seed, "odds", i),
                                      fight.options, progress=progress)
                       for i, p in enumerate(plans))
        # each tally from the same seeds, so from the same samples as the damage
        sampled_tallies = tuple(
            _sum(sample_attacks(runtime, p, samples, derive_seed(seed, "odds", i),
                                fight.options, tally=name) for i, p in enumerate(plans))
            for name in seq.tallies)
    rows = [(f"{name} {'failed' if stops_on_pass else 'passed'}", d)
            for (name, _, stops_on_pass, _), d in zip(seq.steps, past)]
    joint = _sum(r.tallies for r in results if r.tallies is not None) if seq.tallies else None
    if joint is not None:
        rows += [(name, joint.map(functools.partial(_count, i=i)))
                 for i, name in enumerate(seq.tallies)]
    rows += [("damage", damage), ("models removed", _removed(runtime, t, damage))]
    return Odds(a, t, plans, rows, sampled, tuple(seq.tallies), joint, sampled_tallies)


def _count(counts: TallyCounts, i: int) -> int:
    """The ``i``-th tally's count."""
    return int(counts[i])


def _sum(dists: Iterable[Dist[Any]]) -> Dist[Any]:
    """The sum of one or more independent distributions."""
    return functools.reduce(Dist.plus, dists)


def _removed(runtime: Runtime, target: Unit, damage: Dist) -> Dist:
    """The models that damage removes (with the damage the target carries already)."""
    per_model = wounds_per_model(runtime, target)
    return damage.map(lambda d: min(target.models, (target.damage + d) // per_model))
