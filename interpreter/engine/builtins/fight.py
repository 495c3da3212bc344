"""Attacks: the ``fight`` builtin, which resolves a declared sequence once per attack.

A statistics run (no events kept) draws each attack's damage from the sequence's exact
distribution instead of rolling every step (:func:`_fight_sampled`); the combat kernel's
enumeration (a chance with ``draws``) takes a whole volley's total as one branch point
(:func:`_volley_dist`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from rules_run.chance import Dist
from rules_run.engine.builtins.registry import builtin, fail
from rules_run.lang.builtins import UNIT_PROPERTIES
from rules_run.limits import limit, too_many
from rules_run.runtime.effects import bearers
from rules_run.runtime.entities import Unit, Weapon
from rules_run.runtime.env import Tallied
from rules_run.runtime.events import Volley

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__ = ["chance_key"]

_PROPERTIES = frozenset(UNIT_PROPERTIES)


@builtin("fight")
def fight(state, env, span, sequence, attacker, target, attacks=1, **named):
    """Resolve ``attacks`` attacks of a sequence; return the total damage (with the
    volley's tallies, ``v.glancing``, when the sequence declares some: a :class:`Tallied`).

    The attacker and the target fill the sequence's first two parameters; named
    arguments fill the parameters of those names; the rest take their defaults.
    """
    seq = state.runtime.sequences.get(sequence)
    if seq is None:
        raise fail(f"fight(): {sequence!r} is not a sequence", span)
    if isinstance(attacks, int) and attacks > limit("attacks"):
        raise fail(f"fight({sequence}, ...): " + too_many(
            "attacks", "attacks in one volley", attacks), span, "too-many-attacks")
    params = seq.decl.params
    args = dict(zip((p.name for p in params), (attacker, target)))
    args.update(named)
    for p in params:
        if p.name not in args:
            if p.default is None:
                raise fail(f"fight(): sequence {sequence!r} needs {p.name!r}", span)
            args[p.name] = seq.defaults[p.name](env, {})
    if env.events is None and seq.pure and hasattr(env.chance, "rng"):
        return _fight_sampled(state, env, seq, args, attacker, target, int(attacks or 0))
    if (env.events is None and seq.pure and not seq.tallies
            and getattr(env.chance, "draws", False)):
        # the combat kernel (engine/kernel.py): the volley's total as one branch point
        return env.chance.draw_lazily(lambda: _volley_dist(
            state, env, seq, args, attacker, target, int(attacks or 0)), sequence)
    total = 0
    past = [0] * len(seq.step_names)
    counted = [0] * len(seq.tallies)
    state.attacking = True
    try:
        for _ in range(int(attacks or 0)):
            outcome = seq.run(env, args)
            total += outcome.damage
            for i, n in enumerate(outcome.past):
                past[i] += n
            for i, n in enumerate(outcome.tallies):
                counted[i] += n
    finally:
        state.attacking = False
    weapon = next((v.name for v in args.values() if isinstance(v, Weapon)), None)
    tallies = dict(zip(seq.tallies, counted)) if seq.tallies else None
    env.emit(Volley, attacker=attacker.id, target=target.id, sequence=sequence,
             attacks=int(attacks or 0), damage=total, in_contact=target in attacker.engaged,
             weapon=weapon,
             steps=[[name, n, stops] for (name, _, stops, _), n in zip(seq.steps, past)],
             tallies=tallies, cite=state.runtime.ruleset.cite(sequence))
    return total if tallies is None else Tallied(total, tallies)


def _fight_sampled(state: BattleState, env, seq, args, attacker, target, attacks: int) -> int:
    """Statistics runs: draw each attack's damage (and tallies) from its exact distribution.

    The distribution is enumerated from the same sequence (so it is the one the dice
    would give), cached per ruleset for the attacker's and target's current state, and
    sampled with the battle's own seeded generator: one draw per attack instead of a
    roll per step. A narrated run never comes here: its
    log keeps every die.
    """
    if attacks <= 0:
        return 0 if not seq.tallies else Tallied(0, dict.fromkeys(seq.tallies, 0))
    dist = _attack_dist(state, env, seq, args, attacker, target)
    rng = env.chance.rng
    if not seq.tallies:
        return sum(dist.sample(rng) for _ in range(attacks))
    drawn = [dist.sample(rng) for _ in range(attacks)]
    return Tallied(sum(d[0] for d in drawn),
                   {name: sum(d[i + 1] for d in drawn) for i, name in enumerate(seq.tallies)})


def _volley_dist(state: BattleState, env, seq, args, attacker, target, attacks: int):
    """The exact distribution of a volley's total damage (a sequence without tallies): one
    attack's (:func:`_attack_dist`) summed over ``attacks``."""
    if attacks <= 0:
        return Dist.certain(0)
    return _summed(_attack_dist(state, env, seq, args, attacker, target), attacks)


@functools.lru_cache(maxsize=4096)
def _summed(one: Dist, attacks: int) -> Dist:
    """The total of ``attacks`` independent attacks of the distribution ``one``."""
    return one.repeat_sum(attacks)


def _attack_dist(state: BattleState, env, seq, args, attacker, target):
    """One attack's exact outcome (its damage, then its tallies), enumerated from the
    sequence and cached per ruleset for the attacker's and target's current state."""
    runtime = state.runtime
    key, held = chance_key(runtime, env, seq.name, seq, (attacker, target), args)
    cache = runtime.fight_cache
    dist = cache.get(key)
    if dist is None:
        runtime.held = held   # the rules its live grants give now, through the enumeration
        try:
            dist = seq.exact(lambda chance: runtime.env(chance, env.options), dict(args)).map(
                (lambda outcome: (outcome.damage, *outcome.tallies)) if seq.tallies
                else (lambda outcome: outcome.damage))
        finally:
            runtime.held = {}
        cache[key] = dist
    return dist


def chance_key(runtime: Any, env, name: str, reads: Any, units: tuple[Unit, ...],
               args: dict) -> tuple[tuple, dict]:
    """What the chances of a pure roll or sequence ``name`` (``reads``: what it reads, as
    :func:`~rules_run.runtime.sequences.purity` finds) with arguments ``args`` depend on,
    as a hashable key: each of ``units`` by :func:`_snapshot`, the other arguments by
    :func:`_key_of`, the options, and the rules the bearers among the arguments hold now
    (given back too, by bearer id, for the enumeration to use)."""
    extra = tuple(sorted((k, _key_of(v)) for k, v in args.items()
                         if all(v is not u for u in units)))
    bearing = bearers(args) if runtime.live_grants else []
    held = runtime.rules_now(env, bearing)
    return (name, *(_snapshot(u, reads) for u in units), extra,
            tuple(sorted(env.options.items())),
            tuple(tuple(r.text for r in held[id(b)]) for b in bearing)), held


def _snapshot(unit: Unit, seq: Any) -> tuple:
    """Everything about a unit an attack's chances can depend on, as a hashable key.

    Its characteristics, rules and values always count; a generic property (``models``,
    ``files``, ...) or a status counts only when the attack reads it.
    """
    return (unit.id, tuple(sorted(unit.profile.items(), key=lambda kv: kv[0])),
            tuple(sorted(s for s in unit.statuses if s in seq.statuses)),
            tuple(r.text for r in unit.rules), tuple(sorted(unit.values.items())),
            tuple(sorted(unit.idle)),
            tuple(_frozen(getattr(unit, name, None)) for name in sorted(seq.reads & _PROPERTIES)))


def _frozen(value: Any) -> Any:
    """A property's value as a key: a set (``keywords``) as a frozenset."""
    return frozenset(value) if isinstance(value, set) else value


def _key_of(value: Any) -> Any:
    """A hashable stand-in for an argument of an attack (a unit or weapon by name)."""
    if isinstance(value, Unit):
        return ("unit", value.id)
    if isinstance(value, Weapon):
        return ("weapon", value.name, getattr(value.owner, "id", None),
                tuple(r.text for r in value.rules), tuple(sorted(value.profile.items(), key=str)))
    return value


