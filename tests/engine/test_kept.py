"""The battle state's caches of geometry (footprints, distances, outlines, sight, bases):
what they give is what the state computes afresh."""

from __future__ import annotations

import random

from rules_run.chance import RandomChance
from rules_run import open_battle
from rules_run.engine.state import BattleState
from rules_run.space import Pose

_KEPT = ("_footprints", "_gaps", "_outlines", "_terrain_under", "_in_range", "_between",
         "_bases", "_behind")
"""The battle state's caches of geometry (each a :class:`rules_run.engine.kept.Kept`)."""


def test_kept_answers_are_those_computed_afresh() -> None:
    # units move, turn, lose models and fall, at random: every answer the caches give is
    # the one the state computes with nothing kept
    _, runtime, battle = open_battle("wfb8", "rulesets/wfb8/battles/battle.yaml")
    state = BattleState(runtime, battle, [], {})
    env = runtime.env(RandomChance(1), battle.options, [], state)
    units = list(state.units)
    rng = random.Random(7)
    seen: set[tuple[str, bool]] = set()
    for _ in range(300):
        unit = rng.choice(units)
        change = rng.randrange(4)
        if change == 0:
            unit.pose = Pose(rng.uniform(0, state.width), rng.uniform(0, state.depth),
                             unit.pose.facing)
        elif change == 1:
            unit.pose = Pose(unit.pose.x, unit.pose.y, rng.choice([0.0, 90.0, 180.0,
                                                                   rng.uniform(0, 360)]))
        elif change == 2 and unit.models > 1:
            unit.models -= 1
        elif change == 3 and rng.random() < 0.1:
            unit.destroyed = True
        for _ in range(5):
            a, b = rng.sample(units, 2)
            for name, args in (("between", [a, b]), ("in_range", [a, b, rng.choice([6, 24])]),
                               ("terrain_at", [a]), ("distance", [a, b]),
                               ("models_within", [a, "wood", rng.choice([0, 3])]),
                               ("behind", [a, b, ["wood", "wall", "hill"], rng.choice([0, 3])]),
                               ("models_behind", [a, b, ["wood", "wall", "hill"],
                                                  rng.choice([0, 3]), rng.random() < 0.5])):
                answer = state.builtin(env, name, args, None)
                kept = {attr: getattr(state, attr).entries for attr in _KEPT}
                for attr in _KEPT:
                    getattr(state, attr).entries = {}
                assert state.builtin(env, name, args, None) == answer, (name, args)
                for attr, value in kept.items():
                    getattr(state, attr).entries = value
                seen.add((name, bool(answer)))
    # each builtin said yes (or something) and no (or nothing) along the way
    assert len(seen) == 14, seen
