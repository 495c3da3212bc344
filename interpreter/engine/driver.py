"""Run a battle: the ruleset's ``battle`` declaration, from set-up to the score.

The driver walks the declared turn tree: ``setup`` once; then for each battle round the
``round`` block (which calls ``play_turn(side)`` for each player turn, running the ``turn``
block and its phases); after each player turn the ``end if`` conditions; finally the
``score`` block. The side with the most victory points wins; equal points are a draw.
"""

from __future__ import annotations

import functools
from typing import Any

from rules_run import slotted
from rules_run.chance import RandomChance, ScriptedChance
from rules_run.diagnostics import BattleError, DiagnosticBag
from rules_run.engine.setup import Battle
from rules_run.engine.state import BattleState
from rules_run.runtime.env import Closure, Env
from rules_run.runtime.events import BattleStart, Event, Result, Round

__all__ = ["BattleResult", "UnitSummary", "run_battle", "battle_state", "begin_battle", "start_round",
           "end_round", "LOG_VERSION"]

LOG_VERSION = 2
"""Version of the event log format (docs/event-log.md); 2 added where units stand."""


@slotted.frozen
class UnitSummary:
    """How a unit ended the battle."""

    id: str
    name: str
    side: str
    models: int
    starting_models: int
    status: str
    """``fighting``, ``destroyed`` or ``left the table``."""


@slotted.frozen
class BattleResult:
    """The outcome of one battle."""

    winner: str | None
    """The winning side, or None for a draw."""
    reason: str
    """How it was decided, in words."""
    victory_points: dict[str, int]
    rounds: int
    units: tuple[UnitSummary, ...]
    events: list[Event] | None = None
    """Every event, when the run kept them."""

    def to_json(self) -> dict[str, Any]:
        """A plain dict (``--json``)."""
        return {
            "winner": self.winner,
            "reason": self.reason,
            "victory_points": dict(self.victory_points),
            "rounds": self.rounds,
            "units": [slotted.asdict(u) for u in self.units],
        }


def _holds(condition: Closure, env: Env) -> bool:
    """Whether one of the battle's ``end if`` conditions holds now."""
    return bool(condition(env, {}))


def run_battle(runtime: Any, battle: Battle, *, seed: int | None = None,
               keep_events: bool = True, scripted: Any = None) -> BattleResult:
    """Fight one battle.

    Args:
        runtime: the compiled ruleset.
        battle: the battle, with its units built; it is copied, never changed.
        seed: the random seed (default: the battle file's).
        keep_events: keep every event (a narrated run) or none (statistics runs).
        scripted: scripted dice (a list, or a mapping tag -> list) instead of random ones;
            by default the battle file's ``dice:``, if it gives any.

    Raises:
        BattleError: the ruleset has no ``battle`` declaration, or the battle cannot go on.
    """
    if runtime.battle_decl is None:
        raise BattleError([DiagnosticBag().add(
            f"the ruleset {runtime.ruleset.id!r} declares no 'battle' (its turn structure), "
            "so battles cannot be run with it yet", None, code="no-battle")])
    doc = battle.doc.value
    if scripted is None:
        scripted = doc.get("dice")
    chance = ScriptedChance(scripted) if scripted is not None else RandomChance(
        battle.seed if seed is None else seed)
    events: list[Event] | None = [] if keep_events else None
    state = battle_state(runtime, battle)
    env, rounds = begin_battle(state, chance, events)
    played = 0
    for number in range(1, rounds + 1):
        start_round(state, env, number)
        runtime.battle_blocks["round"](env, {})
        end_round(state, env)
        played = number
        if state.ended:
            break
    runtime.battle_blocks["score"](env, {})
    winner, reason = _winner(state, played, rounds)
    env.emit(Result, winner=winner, reason=reason, victory_points=dict(state.vp))
    units = tuple(
        UnitSummary(u.id, u.name, u.side, u.models, u.starting_models,
                    "destroyed" if u.destroyed else ("left the table" if not u.on_table
                                                     else "fighting"))
        for u in state.units
    )
    return BattleResult(winner, reason, dict(state.vp), played, units, events)


def battle_state(runtime: Any, battle: Battle,
                 state_class: type[BattleState] = BattleState) -> BattleState:
    """A new state (of ``state_class``) for the battle, with its own copies of the units."""
    battle = slotted.evolve(battle, units=[u.fresh() for u in battle.units])
    doc = battle.doc.value
    orders = [dict(o) for o in doc.get("orders") or []]
    return state_class(runtime, battle, orders, dict(doc.get("policies") or {}))


def begin_battle(state: BattleState, chance: Any, events: list[Event] | None
                 ) -> tuple[Env, int]:
    """Set a battle up to its first round: the env, the ``battle`` event, the ``setup``
    block, the start of the battle and the ``end if`` checks; returns the env and the
    rounds to play."""
    runtime, battle = state.runtime, state.battle
    env = runtime.env(chance, battle.options, events, state)
    rounds = _rounds(runtime, env, battle.doc.value)
    if events is not None:
        env.emit(BattleStart, edition=runtime.ruleset.id, rounds=rounds,
                 log_version=LOG_VERSION, sides=state.sides, **state.table(env))
    runtime.battle_blocks["setup"](env, {})
    state.fire(env, "start_of_battle")
    state.end_checks = [functools.partial(_holds, end, env) for end in runtime.battle_ends]
    return env, rounds


def start_round(state: BattleState, env: Env, number: int) -> None:
    """A battle round begins (before its ``round`` block)."""
    state.round = number
    env.emit(Round, round=number)
    state.fire(env, "start_of_round")


def end_round(state: BattleState, env: Env) -> None:
    """A battle round ends (after its ``round`` block): its end, and what lasts to it."""
    state.fire(env, "end_of_round")
    state.expire(env, "round")


def _rounds(runtime, env, doc) -> int:
    given = (doc.get("game") or {}).get("rounds")
    if given is not None:
        return int(given)
    if runtime.battle_rounds is not None:
        return int(runtime.battle_rounds(env, {}))
    return 1


def _winner(state: BattleState, played: int, rounds: int) -> tuple[str | None, str]:
    if state.won is not None:
        side, why = state.won
        return side, (f"{why} (round {played} of {rounds})" if side is not None
                      else f"a draw: {why} (round {played} of {rounds})")
    ranked = sorted(state.vp.items(), key=lambda kv: -kv[1])
    how = (f"after {played} of {rounds} rounds ({state.ended})" if state.ended
           else f"after {played} rounds")
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None, f"a draw on victory points {how}"
    return ranked[0][0], f"victory points {how}"
