"""Statuses, counters, victory, chance and decisions: the generic builtins of the battle's
bookkeeping."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_run.diagnostics import Span
from rules_run.engine.builtins.registry import builtin, fail, name_of
from rules_run.lang import ast
from rules_run.runtime.entities import StatusWith, event_id
from rules_run.runtime.events import RollOff, Score, Status, Win

if TYPE_CHECKING:
    from rules_run.engine.state import BattleState

__all__: list[str] = []


def _status_decl(state: BattleState, status: str, span: Span) -> ast.StatusDecl:
    decl = state.runtime.decls.get(status)
    if not isinstance(decl, ast.StatusDecl):
        raise fail(f"{status!r} is not a status", span)
    return decl


@builtin("apply")
def apply(state, env, span, status, thing, until=None):
    args = status.args if isinstance(status, StatusWith) else {}
    status = str(status)
    decl = _status_decl(state, status, span)
    missing = [p.name for p in decl.params if p.name not in args and p.default is None]
    if missing:
        raise fail(f"status {status!r} needs {', '.join(map(repr, missing))} when it is "
                   f"applied: apply({status}({', '.join(missing)}), x)", span)
    fresh = status not in thing.statuses
    if not fresh and decl.ignored_again:
        return True   # `reapplied ignored`: it lasts as it was
    thing.gain_status(status, state.until(until or decl.until, thing),
                      state.runtime.status_instance(status, args))
    if fresh:
        if env.events is not None:   # (no event's fields worked out in a statistics run)
            env.emit(Status, unit=event_id(thing), status=status,
                     change="gains", quiet=decl.quiet)
        state.fire(env, status)
    return True


@builtin("clear")
def clear(state, env, span, status, thing):
    status = str(status)
    decl = _status_decl(state, status, span)
    if thing.lose_status(status) and env.events is not None:
        env.emit(Status, unit=event_id(thing), status=status,
                 change="loses", quiet=decl.quiet)
    return True


@builtin("used")
def used(state, env, span, name, *args):
    action = state.runtime.actions.get(name)
    if action is None or action.limit is None:
        raise fail(f"{name!r} is not an action declared 'once per ...'", span)
    vars = dict(zip([p.name for p in action.decl.params], args))
    for p in action.decl.params[len(args):]:
        if p.default is not None:
            vars[p.name] = state.runtime.constant(p.default)
    return state.once.get(action.limit_key(env, vars)) == state.period(action.limit.period)


def _counter_key(state: BattleState, env, name, keys, span):
    """The key of a counter's value for ``keys`` (its values' ids), first setting it to the
    counter's initial value. A counter ``until end of PERIOD`` keeps its values apart for
    each period (the period's number follows the name), and forgets earlier periods'."""
    key = (name, *[getattr(k, "id", k) for k in keys])   # a list: faster than a generator
    period = state.runtime.counter_periods.get(name)
    if period is not None:
        key = (name, state.period(period), *key[1:])
    if key in state.counters:   # checked when it was first set
        return key
    if period is not None:
        for old in [k for k in state.counters if k[0] == name and k[1] != key[1]]:
            del state.counters[old]
    decl = state.runtime.decls.get(name)
    if not isinstance(decl, ast.CounterDecl):
        raise fail(f"{name!r} is not a counter", span)
    wanted = decl.key_types
    if len(keys) != len(wanted):
        raise fail(f"counter {name!r} is kept per {', '.join(wanted) or 'battle'}: "
                   f"{len(keys)} key(s) given, it takes {len(wanted)}", span)
    initial = state.runtime.counter_initials.get(name)
    state.counters[key] = initial(env, {}) if initial is not None else 0
    return key


@builtin("counter")
def counter(state, env, span, name, *keys):
    # this runs thousands of times a battle: one and two keys (most counters) without a
    # loop, and a comprehension (a call of its own) only for more
    if len(keys) == 1:
        a, = keys
        ids: tuple = (getattr(a, "id", a),)
    elif len(keys) == 2:
        a, b = keys
        ids = (getattr(a, "id", a), getattr(b, "id", b))
    else:
        ids = tuple([getattr(k, "id", k) for k in keys])
    period = state.runtime.counter_periods.get(name)
    try:   # a counter read once is read again (its key as _counter_key makes it)
        return state.counters[(name, *ids) if period is None else
                              (name, state.period(period), *ids)]
    except KeyError:
        return state.counters[_counter_key(state, env, name, keys, span)]


@builtin("add_counter")
def add_counter(state, env, span, name, first, *rest):
    *keys, amount = (first, *rest)   # the keys, then the amount
    key = _counter_key(state, env, name, keys, span)
    state.counters[key] += amount
    return state.counters[key]


@builtin("set_counter")
def set_counter(state, env, span, name, first, *rest):
    *keys, value = (first, *rest)   # the keys, then the value
    key = _counter_key(state, env, name, keys, span)
    state.counters[key] = value
    return value


@builtin("counter_values")
def counter_values(state, env, span, name):
    decl = state.runtime.decls.get(name)
    if not isinstance(decl, ast.CounterDecl):
        raise fail(f"{name!r} is not a counter", span)
    counters = state.counters
    note = getattr(counters, "note_read", None)   # the combat kernel's watch
    if note is not None:
        note(name)
    period = state.runtime.counter_periods.get(name)
    keys = sorted(k for k in counters if k[0] == name and (
        period is None or k[1] == state.period(period)))
    initial = state.runtime.counter_initials.get(name)
    unset = initial(env, {}) if initial is not None else 0
    return [v for v in (counters[k] for k in keys) if v != unset]


@builtin("score_points")
def score_points(state, env, span, side, points):
    state.vp[side] = state.vp.get(side, 0) + int(points)
    env.emit(Score, side=side, points=int(points), total=state.vp[side])
    return state.vp[side]


@builtin("win")
def win(state, env, span, side, reason):
    if side is not None and side not in state.sides:
        raise fail(f"win(): {side!r} is not a side of this battle", span)
    if state.won is not None:
        return False
    state.won = (side, str(reason))
    state.ended = str(reason)
    env.emit(Win, winner=side, reason=str(reason))
    return True


@builtin("roll_off")
def roll_off(state, env, span, a, b, bonus_a=0, bonus_b=0):
    from rules_run.chance import D6

    while True:
        ra = env.chance.roll((D6,), "roll_off")[0] + bonus_a
        rb = env.chance.roll((D6,), "roll_off")[0] + bonus_b
        env.emit(RollOff, sides=[name_of(a), name_of(b)], rolls=[ra, rb])
        if ra != rb:
            return a if ra > rb else b


@builtin("random_pick")
def random_pick(state, env, span, options):
    if not options:
        raise fail("random_pick() of an empty list", span)
    return options[env.chance.choose(len(options), "random_pick")]


@builtin("decide")
def decide(state, env, span, decision, *args):
    return state.decide(env, span, decision, list(args))


@builtin("play_turn")
def play_turn(state, env, span, side):
    return state.play_turn(env, side)
