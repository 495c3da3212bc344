"""Tests for rules_run.chance.source: seeded, scripted and exactly enumerated chance."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from rules_run.chance import (
    D3,
    D6,
    Chance,
    Dist,
    KeepLowest,
    Pool,
    RandomChance,
    ScriptedChance,
    derive_seed,
    enumerate_exact,
    monte_carlo,
    sample,
)
from rules_run.chance.source import ReplayChance
from rules_run.diagnostics import ChanceError
from helpers.special_dice import ARTILLERY_DIE, SCATTER_DIE

ROOT = Path(__file__).resolve().parents[2]


# -- game procedures ---------------------------------------------------------------------------


def d6(chance: Chance, tag: str) -> int:
    return chance.roll((D6,), tag)[0]  # type: ignore[return-value]


def hit_then_wound(chance: Chance) -> bool:
    """Hit on 4+, then wound on 5+."""
    return d6(chance, "to_hit") >= 4 and d6(chance, "to_wound") >= 5


def hit_rerolling_failures(chance: Chance) -> bool:
    """Hit on 4+, re-rolling a failed hit once."""
    if d6(chance, "to_hit") >= 4:
        return True
    return d6(chance, "re-roll to_hit") >= 4


def rolls_a_double(chance: Chance) -> bool:
    a, b = chance.roll((D6, D6), "leadership")
    return a == b


def attack(chance: Chance) -> int:
    """Hit 4+, wound 4+, armour save 5+ (fails on 1-4), ward save 5+; 1 wound through."""
    if d6(chance, "to_hit") < 4 or d6(chance, "to_wound") < 4:
        return 0
    if d6(chance, "armour") >= 5 or d6(chance, "ward") >= 5:
        return 0
    return 1


def cold_blooded_break_test(chance: Chance) -> bool:
    """Pass on lowest 2 of 3D6 <= 7."""
    expr = KeepLowest(2, Pool(3, D6))
    return expr.value(chance.roll(expr.dice(), "break")) <= 7


def stone_thrower(chance: Chance) -> str:
    """Scatter die: a hit lands; otherwise artillery die distance, a misfire wrecks it."""
    if chance.roll((SCATTER_DIE,), "scatter")[0] == "hit":
        return "on target"
    distance = chance.roll((ARTILLERY_DIE,), "distance")[0]
    if distance == "misfire":
        return "misfire"
    return "near" if distance <= 4 else "far"  # type: ignore[operator]


def random_target_damage(chance: Chance) -> int:
    """Pick one of three targets at random; the second takes D3 damage, the others 1."""
    target = chance.choose(3, "target")
    if target == 1:
        return D3.value(chance.roll(D3.dice(), "damage"))
    return 1


def wounds_from_two_attacks(chance: Chance) -> int:
    return attack(chance) + attack(chance)


# -- exact enumeration -------------------------------------------------------------------------


def test_hit_on_4_then_wound_on_5_is_one_sixth() -> None:
    assert enumerate_exact(hit_then_wound).probability(True) == Fraction(1, 6)


def test_rerolling_a_failed_4_plus_once_is_three_quarters() -> None:
    assert enumerate_exact(hit_rerolling_failures).probability(True) == Fraction(3, 4)


def test_two_d6_double_is_one_sixth() -> None:
    assert enumerate_exact(rolls_a_double) == Dist.from_weights({False: 5, True: 1})


def test_random_choice_is_uniform() -> None:
    assert enumerate_exact(lambda c: c.choose(4, "pick")) == Dist.uniform(range(4))
    damage = enumerate_exact(random_target_damage)
    assert damage.probability(1) == Fraction(2, 3) + Fraction(1, 3) * Fraction(1, 3)
    assert damage.probability(3) == Fraction(1, 9)


def test_attack_sequence_and_independent_attacks() -> None:
    one = enumerate_exact(attack)
    assert one.probability(1) == Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3) * Fraction(2, 3)
    assert enumerate_exact(wounds_from_two_attacks) == one.repeat_sum(2)


def test_stone_thrower_symbols() -> None:
    d = enumerate_exact(stone_thrower)
    assert d.probability("on target") == Fraction(1, 3)
    assert d.probability("misfire") == Fraction(2, 3) * Fraction(1, 6)
    assert d.probability("near") == Fraction(2, 3) * Fraction(2, 6)


def test_procedure_without_chance_is_certain() -> None:
    assert enumerate_exact(lambda c: "nothing rolled") == Dist.certain("nothing rolled")
    assert enumerate_exact(lambda c: c.roll((), "none")) == Dist.certain(())


def test_replay_chance_is_exact_and_others_are_not() -> None:
    seen: list[bool] = []

    def procedure(chance: Chance) -> int:
        seen.append(chance.exact)
        return d6(chance, "x")

    enumerate_exact(procedure)
    assert seen and all(seen)
    assert RandomChance(1).exact is False
    assert ScriptedChance([1]).exact is False


def test_a_known_distribution_is_one_branch_point_weighted_by_its_probabilities() -> None:
    step = Dist.from_weights({"hit": 2, "miss": 4})
    runs = 0

    def procedure(chance: Chance) -> tuple:
        nonlocal runs
        runs += 1
        assert isinstance(chance, ReplayChance)
        return (chance.draw(step, "hit roll"), d6(chance, "wound") >= 4)

    d = enumerate_exact(procedure)
    assert d.probability(("hit", True)) == Fraction(1, 3) * Fraction(1, 2)
    assert d.probability(("miss", False)) == Fraction(2, 3) * Fraction(1, 2)
    assert runs == 2 * 6


def test_each_run_ends_in_a_leaf() -> None:
    runs = 0

    def procedure(chance: Chance) -> int:
        nonlocal runs
        runs += 1
        return d6(chance, "a") + d6(chance, "b")

    enumerate_exact(procedure)
    assert runs == 36


def test_order_within_one_roll_is_not_kept_unless_asked() -> None:
    def first_beats_second(chance: Chance) -> bool:
        a, b = chance.roll((D6, D6), "x")
        return a > b  # type: ignore[operator]

    # Multisets come back sorted, so a rule that reads the order is wrong by design...
    assert enumerate_exact(first_beats_second).probability(True) == 0
    # ... unless the enumeration is told to branch on ordered rolls.
    assert enumerate_exact(first_beats_second, ordered=True).probability(True) == Fraction(15, 36)
    assert enumerate_exact(rolls_a_double, ordered=True) == enumerate_exact(rolls_a_double)


def test_enumeration_limit_is_a_chance_error() -> None:
    def many(chance: Chance) -> int:
        return sum(d6(chance, "x") for _ in range(10))

    with pytest.raises(ChanceError) as info:
        enumerate_exact(many, limit=1000)
    assert str(info.value) == (
        "error: exact enumeration needs more than 1000 outcomes; estimate it with monte_carlo, "
        "split the procedure and combine Dists (bind, repeat_sum), or raise limit="
    )


def test_limit_holds_even_if_the_procedure_swallows_errors() -> None:
    def stubborn(chance: Chance) -> int:
        try:
            return sum(d6(chance, "x") for _ in range(10))
        except Exception:
            return -1

    with pytest.raises(ChanceError, match="needs more than 100 outcomes"):
        enumerate_exact(stubborn, limit=100)


def test_a_procedure_that_is_not_deterministic_is_caught() -> None:
    calls = 0

    def flaky(chance: Chance) -> int:
        nonlocal calls
        calls += 1
        if calls > 1:
            chance.roll((D6, D6), "extra")
        return d6(chance, "x")

    with pytest.raises(ChanceError, match="not deterministic: chance call #1 \\('extra'\\)"):
        enumerate_exact(flaky)


def test_a_procedure_that_stops_early_on_replay_is_caught() -> None:
    calls = 0

    def shrinking(chance: Chance) -> int:
        nonlocal calls
        calls += 1
        if calls == 1:
            return d6(chance, "a") + d6(chance, "b")
        return 0

    with pytest.raises(ChanceError, match="not deterministic: it stopped after 0 chance calls"):
        enumerate_exact(shrinking)


def test_bad_choose_is_a_chance_error() -> None:
    with pytest.raises(ChanceError, match="among 0 options"):
        enumerate_exact(lambda c: c.choose(0, "empty"))
    with pytest.raises(ChanceError, match="among 0 options"):
        RandomChance(1).choose(0, "empty")


def test_chance_sources_satisfy_the_protocol() -> None:
    assert isinstance(RandomChance(1), Chance)
    assert isinstance(ScriptedChance([]), Chance)
    assert isinstance(ReplayChance([], 10, False), Chance)


# -- Monte Carlo agrees with exact -------------------------------------------------------------

PROCEDURES: list[tuple[Callable[[Chance], object], int]] = [
    (hit_then_wound, 11),
    (hit_rerolling_failures, 12),
    (rolls_a_double, 13),
    (attack, 14),
    (cold_blooded_break_test, 15),
    (stone_thrower, 16),
    (random_target_damage, 17),
    (wounds_from_two_attacks, 18),
]

N_SAMPLES = 20_000


def within_four_sigma(estimate: Dist[object], exact: Dist[object], n: int) -> list[str]:
    """Outcomes whose estimated probability is more than 4 sigma from the exact one."""
    misses = []
    for outcome in set(exact.support()) | set(estimate.support()):
        p = exact.probability(outcome)
        sigma = math.sqrt(p * (1 - p) / n)
        gap = abs(float(estimate.probability(outcome) - p))
        if gap > 4 * sigma:
            got = float(estimate.probability(outcome))
            misses.append(f"{outcome!r}: estimate {got:.4f}, exact {float(p):.4f}")
    return misses


@pytest.mark.parametrize(
    ("procedure", "seed"), PROCEDURES, ids=lambda v: getattr(v, "__name__", str(v))
)
def test_monte_carlo_agrees_with_exact(procedure: Callable[[Chance], object], seed: int) -> None:
    exact = enumerate_exact(procedure)
    estimate = monte_carlo(procedure, N_SAMPLES, seed)
    assert within_four_sigma(estimate, exact, N_SAMPLES) == []


def test_the_four_sigma_check_catches_a_wrong_answer() -> None:
    # Sampling the re-roll procedure against the exact odds without the re-roll must fail.
    exact = enumerate_exact(lambda c: d6(c, "to_hit") >= 4)
    estimate = monte_carlo(hit_rerolling_failures, N_SAMPLES, 3)
    assert within_four_sigma(estimate, exact, N_SAMPLES) != []


def test_monte_carlo_is_reproducible() -> None:
    assert monte_carlo(attack, 500, 9) == monte_carlo(attack, 500, 9)
    with pytest.raises(ChanceError):
        monte_carlo(attack, 0, 9)


# -- determinism -------------------------------------------------------------------------------


def roll_list(seed: int) -> list[tuple[object, ...]]:
    chance = RandomChance(seed)
    out: list[tuple[object, ...]] = []
    for i in range(30):
        out.append(chance.roll((D6,) * (1 + i % 3), f"roll {i}"))
        out.append((chance.choose(5, "pick"),))
        out.append(chance.roll((ARTILLERY_DIE, SCATTER_DIE), "special"))
    return out


def test_same_seed_same_rolls() -> None:
    assert roll_list(42) == roll_list(42)
    assert roll_list(42) != roll_list(43)


def test_random_chance_pinned_first_rolls() -> None:
    # Pinned so that a change of generator or drawing method fails loudly.
    chance = RandomChance(2024)
    assert [chance.roll((D6,), "x")[0] for _ in range(10)] == PINNED_D6_ROLLS


PINNED_D6_ROLLS = [4, 2, 6, 5, 3, 2, 6, 4, 6, 3]


def test_random_chance_does_not_touch_the_global_generator() -> None:
    import random

    random.seed(5)
    expected = random.random()
    random.seed(5)
    RandomChance(3).roll((D6, D6), "x")
    assert random.random() == expected


def test_random_chance_rejects_bad_seeds() -> None:
    for bad in (-1, 1.5, "7", True):
        with pytest.raises(ChanceError, match="a seed must be a whole number >= 0"):
            RandomChance(bad)  # type: ignore[arg-type]


def test_derive_seed_pinned_values() -> None:
    # Pinned: SHA-256 of the JSON text [master, *path], first 8 bytes big-endian.
    assert derive_seed(7) == PINNED_SEEDS["7"]
    assert derive_seed(7, "run", 0) == PINNED_SEEDS["7/run/0"]
    assert derive_seed(7, "run", 1) == PINNED_SEEDS["7/run/1"]
    assert derive_seed(0, "battle", "turn", 3) == PINNED_SEEDS["0/battle/turn/3"]


PINNED_SEEDS = {
    "7": 6386101225662851816,
    "7/run/0": 208943116014222745,
    "7/run/1": 10243296949776435740,
    "0/battle/turn/3": 3472076203505911408,
}


def test_derive_seed_separates_paths() -> None:
    assert derive_seed(7, 1) != derive_seed(7, "1")
    assert derive_seed(7, "a", "b") != derive_seed(7, "ab")
    assert len({derive_seed(7, "run", i) for i in range(1000)}) == 1000
    with pytest.raises(ChanceError):
        derive_seed(7, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ChanceError):
        derive_seed("7")  # type: ignore[arg-type]


_CHILD = """
import json
from rules_run.chance import D6, Die, RandomChance, derive_seed
ARTILLERY_DIE = Die((2, 4, 6, 8, 10, "misfire"), "artillery die")
seeds = [derive_seed(7, "run", i) for i in range(5)] + [derive_seed(1, "orcs", "break test")]
chance = RandomChance(derive_seed(7, "battle"))
rolls = [list(chance.roll((D6, D6, ARTILLERY_DIE), "tag " + str(i))) for i in range(20)]
print(json.dumps({"seeds": seeds, "rolls": rolls}))
"""


@pytest.mark.parametrize("hash_seed", ["0", "12345"])
def test_seeds_and_rolls_do_not_depend_on_the_hash_seed(hash_seed: str) -> None:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    chance = RandomChance(derive_seed(7, "battle"))
    expected = {
        "seeds": [derive_seed(7, "run", i) for i in range(5)]
        + [derive_seed(1, "orcs", "break test")],
        "rolls": [list(chance.roll((D6, D6, ARTILLERY_DIE), "tag " + str(i))) for i in range(20)],
    }
    assert json.loads(done.stdout) == json.loads(json.dumps(expected))


# -- scripted dice -----------------------------------------------------------------------------


def test_scripted_list_is_used_in_order_across_rolls() -> None:
    s = ScriptedChance([3, 4, 5, 6])
    assert s.roll((D6,), "to_hit") == (3,)
    assert s.roll((D6, D6), "to_wound") == (4, 5)
    assert s.remaining() == [6]
    assert not s.used_all()
    assert s.roll((D6,), "save") == (6,)
    assert s.remaining() == []
    assert s.used_all()


def test_scripted_per_tag_lists_with_fallback() -> None:
    s = ScriptedChance({"to_hit": [6, 1], "to_wound": [5], "*": [2, 3]})
    assert s.roll((D6,), "to_wound") == (5,)
    assert s.roll((D6,), "to_hit") == (6,)
    assert s.roll((D6,), "save") == (2,)
    assert s.roll((D6,), "ward") == (3,)
    assert s.remaining() == {"to_hit": [1]}
    assert s.roll((D6,), "to_hit") == (1,)
    assert s.remaining() == {}
    assert s.used_all()


def test_scripted_symbols_and_choices() -> None:
    s = ScriptedChance(["hit", "misfire", 2])
    assert s.roll((SCATTER_DIE,), "scatter") == ("hit",)
    assert s.roll((ARTILLERY_DIE,), "distance") == ("misfire",)
    assert s.choose(3, "target") == 2


def test_scripted_dice_running_out_names_the_roll() -> None:
    s = ScriptedChance([4])
    s.roll((D6,), "to_hit")
    with pytest.raises(ChanceError) as info:
        s.roll((D6,), "to_hit")
    assert str(info.value) == (
        "error: scripted dice ran out at roll 'to_hit' (needed 1 die, 0 left); "
        "add more to 'dice:' in the battle file"
    )


def test_scripted_dice_running_out_counts_dice_and_consumes_nothing() -> None:
    s = ScriptedChance({"break": [3], "*": []})
    with pytest.raises(ChanceError) as info:
        s.roll((D6, D6), "break")
    assert str(info.value) == (
        "error: scripted dice ran out at roll 'break' (needed 2 dice, 1 left); "
        "add more to 'dice: break' in the battle file"
    )
    assert s.remaining() == {"break": [3]}
    with pytest.raises(ChanceError) as info:
        s.roll((D6,), "panic")
    assert str(info.value) == (
        "error: scripted dice ran out at roll 'panic' (needed 1 die, 0 left); "
        "add more to 'dice: *' in the battle file"
    )


def test_scripted_tag_without_a_list() -> None:
    s = ScriptedChance({"to_hit": [4]})
    with pytest.raises(ChanceError) as info:
        s.roll((D6,), "to_wound")
    assert str(info.value) == (
        "error: scripted dice have no list for roll 'to_wound' (needed 1 die); "
        "add 'to_wound' or '*' to 'dice:' in the battle file"
    )


def test_scripted_bad_face_names_roll_die_and_face() -> None:
    s = ScriptedChance([7])
    with pytest.raises(ChanceError) as info:
        s.roll((D6,), "to_hit")
    assert str(info.value) == (
        "error: scripted face 7 at roll 'to_hit' is not a face of the D6 (1, 2, 3, 4, 5, 6); "
        "fix 'dice:' in the battle file"
    )
    assert s.remaining() == [7]
    s = ScriptedChance({"distance": [3]})
    with pytest.raises(ChanceError) as info:
        s.roll((ARTILLERY_DIE,), "distance")
    assert str(info.value) == (
        "error: scripted face 3 at roll 'distance' is not a face of the artillery die "
        "(2, 4, 6, 8, 10, 'misfire'); fix 'dice: distance' in the battle file"
    )


def test_scripted_choice_out_of_range() -> None:
    with pytest.raises(ChanceError) as info:
        ScriptedChance([3]).choose(3, "target")
    assert str(info.value) == (
        "error: scripted choice 3 at 'target' is not an option index 0 to 2; "
        "fix 'dice:' in the battle file"
    )


@pytest.mark.parametrize("script", [[1.5], [True], "123", {"x": 4}, {1: [2]}])
def test_malformed_scripts_are_chance_errors(script: object) -> None:
    with pytest.raises(ChanceError):
        ScriptedChance(script)  # type: ignore[arg-type]


def test_scripted_run_of_a_procedure_and_sample() -> None:
    s = ScriptedChance({"to_hit": [2], "re-roll to_hit": [5]})
    assert sample(hit_rerolling_failures, s) is True
    assert s.used_all()
