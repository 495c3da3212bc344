"""Exact odds of an attack: one declared sequence, enumerated, then convolved over N attacks.

The ruleset's manifest says which sequence resolves a melee or a shooting attack and which
action counts the attacks (``attacks:`` in ``index.yaml``); everything else is the ruleset's
own declarations, run by the same compiled code as a battle, with an enumerating chance
source instead of a random one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from interpreter.chance import Dist, RandomChance
from interpreter.diagnostics import UsageError
from interpreter.engine.entities import Unit, Weapon, wounds_per_model
from interpreter.lang.compiler import Runtime

__all__ = ["AttackPlan", "AttackOdds", "plan_attacks", "attack_odds", "sample_attacks"]


@attrs.frozen
class AttackPlan:
    """What to enumerate: a sequence, its arguments, and how many such attacks."""

    sequence: str
    args: dict[str, Any] = attrs.field(hash=False)
    attacks: int
    label: str
    """``melee`` or ``shooting``, and the weapon when there is one."""


@attrs.frozen
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


def _mode_spec(runtime: Runtime, mode: str) -> dict[str, str]:
    manifest_attacks = runtime.ruleset.attack_modes
    spec = manifest_attacks.get(mode)
    if spec is None:
        raise UsageError(
            f"the ruleset {runtime.ruleset.id!r} declares no {mode} attacks in its index.yaml "
            f"('attacks: {mode}: ...'); it declares: " + (", ".join(manifest_attacks) or "none")
        )
    return spec


def _bind(runtime: Runtime, name: str, context: dict[str, Any]) -> dict[str, Any]:
    """The arguments of a declaration, taken by name from ``context``."""
    decl = runtime.decls[name]
    args = {}
    for p in decl.params:
        if p.name in context:
            args[p.name] = context[p.name]
        elif p.default is None:
            raise UsageError(
                f"{decl.kind} {name!r} needs {p.name!r}, which rules-odds cannot give "
                f"(it gives: {', '.join(context)})"
            )
    return args


def plan_attacks(runtime: Runtime, attacker: Unit, target: Unit, *, mode: str = "melee",
                 attacks: int | None = None, charging: bool = False,
                 options: dict[str, Any] | None = None) -> list[AttackPlan]:
    """The attacks ``attacker`` makes at ``target``, grouped by weapon.

    With ``attacks`` the count is fixed (one group per weapon the attacker carries, each
    with that count); otherwise the ruleset's counting action gives the groups: a number,
    or ``[weapon, count]`` pairs, so the ruleset decides which weapons fit the mode.
    """
    spec = _mode_spec(runtime, mode)
    sequence = spec["sequence"]
    context = {"attacker": attacker, "shooter": attacker, "target": target,
               "charging": charging}
    groups: list[tuple[Weapon | None, int]]
    if "count" in spec and attacks is None:
        env = runtime.env(RandomChance(0), options)
        counted = runtime.invoke(spec["count"], env, _bind(runtime, spec["count"], context))
        groups = _groups(counted)
    else:
        weapons: list[Weapon | None] = list(attacker.weapons) or [None]
        groups = [(w, attacks if attacks is not None else 1) for w in weapons]
    plans = []
    for weapon, count in groups:
        ctx = dict(context, weapon=weapon)
        label = mode + (f" ({weapon.name})" if weapon is not None else "")
        plans.append(AttackPlan(sequence, _bind(runtime, sequence, ctx), int(count), label))
    return plans


def _groups(counted: Any) -> list[tuple[Weapon | None, int]]:
    if isinstance(counted, int):
        return [(None, counted)]
    return [(w, int(n)) for w, n in counted]


def attack_odds(runtime: Runtime, plan: AttackPlan, target: Unit,
                options: dict[str, Any] | None = None) -> AttackOdds:
    """Enumerate one attack exactly, then convolve it over the plan's attacks."""
    seq = runtime.sequences[plan.sequence]
    per_attack = seq.exact(lambda chance: runtime.env(chance, options), dict(plan.args))
    n = plan.attacks
    past = tuple(per_attack.map(lambda o, i=i: o.past[i]).repeat_sum(n)
                 for i in range(len(seq.step_names)))
    damage = per_attack.map(lambda o: o.damage).repeat_sum(n)
    wounds = wounds_per_model(runtime, target)
    carried = target.damage
    removed = damage.map(lambda d: min(target.models, (carried + d) // wounds))
    return AttackOdds(plan, tuple(seq.step_names), per_attack, past, damage, removed)


def sample_attacks(runtime: Runtime, plan: AttackPlan, samples: int, seed: int,
                   options: dict[str, Any] | None = None) -> Dist:
    """A Monte Carlo estimate of the total damage of the plan's attacks (exact counts / n)."""
    seq = runtime.sequences[plan.sequence]
    chance = RandomChance(seed)
    env = runtime.env(chance, options)
    counts: dict[int, int] = {}
    for _ in range(samples):
        total = 0
        for _ in range(plan.attacks):
            total += seq.run(env, dict(plan.args)).damage
        counts[total] = counts.get(total, 0) + 1
    return Dist.from_weights({k: Fraction(v, samples) for k, v in counts.items()})
