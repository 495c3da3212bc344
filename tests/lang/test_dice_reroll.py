"""Dice of a plain roll re-rolled by a rule (``reroll lowest die of charge if ...``): which
dice, each at most once, a whole re-roll refused after one die was (aos4 002 L854, FAQ
L857-L858); exact odds against a hand count of every ordered roll, scripted dice, Monte
Carlo within 4 sigma, the events, and the diagnostics for their misuse."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

from rules_run.chance import Dist, RandomChance, ScriptedChance, enumerate_exact
from rules_run.runtime.events import Roll

from .test_checker import check
from .test_rolls import kit, unit

RULES = '''
roll charge(u: unit) @ L1
    dice 2D6
roll pool(u: unit) @ L1
    dice count 4+ in 3D6
roll steady(u: unit) @ L1
    dice 2D6
    reroll never
rule "One die" @ L2
    reroll lowest die of charge if bearer == u and natural < 7
rule "Whole roll" @ L2
    reroll all dice of charge if bearer == u and natural < 8
rule "High die" @ L2
    reroll highest die of charge if bearer == u and natural > 9
rule "Ones" @ L2
    reroll dice showing 1 of pool if bearer == u
    reroll dice showing 1 of charge if bearer == u
rule "Low dice" @ L2
    reroll dice showing 1, 2, 3 of pool if bearer == u
rule "Steady" @ L2
    reroll all dice of steady if bearer == u
'''


def dist(rt, name: str, u) -> Dist:
    return enumerate_exact(lambda ch: rt.invoke(name, rt.env(ch), {"u": u}))


def scripted(rt, name: str, u, faces: list[int]):
    """The roll with these dice, every one of them used; and its event."""
    chance = ScriptedChance(faces)
    events: list = []
    env = rt.env(chance)
    env.events = events
    value = rt.invoke(name, env, {"u": u})
    assert chance.used_all(), chance.remaining()
    (event,) = [e for e in events if isinstance(e, Roll)]
    return value, event


def test_the_lowest_die_is_rolled_again_when_the_condition_holds(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    by_hand: dict[int, int] = {}
    for a, b, again in itertools.product(range(1, 7), repeat=3):
        total = a + b if a + b >= 7 else max(a, b) + again
        by_hand[total] = by_hand.get(total, 0) + 1
    one = unit(rt, rules=("One die",))
    assert dist(rt, "charge", one) == Dist.from_weights(by_hand)
    assert dist(rt, "charge", one).mean() == F(565, 72)
    value, event = scripted(rt, "charge", one, [1, 3, 5])
    assert value == 8
    assert (event.first_dice, event.dice, event.rerolled_by) == ([1, 3], [5, 3], ["One die"])
    # the condition reads the dice before the re-roll: 7 stands
    assert scripted(rt, "charge", one, [3, 4])[0] == 7


def test_a_die_is_rerolled_at_most_once_so_the_whole_roll_is_refused(tmp_path) -> None:
    """FAQ L857-L858: one die of a 2D6 re-rolled, then no re-roll of the whole 2D6."""
    rt = kit(tmp_path, RULES)
    both = unit(rt, rules=("One die", "Whole roll"))
    value, event = scripted(rt, "charge", both, [1, 3, 4])
    assert value == 7
    assert event.rerolled_by == ["One die"] and event.reroll_refused == ["Whole roll"]
    # below 7 one die is rolled again and the whole roll refused; a 7 is rolled again whole
    by_hand: dict[int, int] = {}
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        total = max(a, b) + c if a + b < 7 else c + d if a + b == 7 else a + b
        by_hand[total] = by_hand.get(total, 0) + 1
    assert dist(rt, "charge", both) == Dist.from_weights(by_hand)
    # alone, the whole roll is rolled again
    whole = unit(rt, rules=("Whole roll",))
    value, event = scripted(rt, "charge", whole, [1, 3, 5, 6])
    assert (value, event.first_dice, event.reroll_refused) == (11, [1, 3], None)
    # below 8 (21 of 36) the second roll stands: mean 7 x 21/36 + sum of 8..12 / 36
    assert dist(rt, "charge", whole).mean() == F(7 * 21, 36) + F(8 * 5 + 9 * 4 + 10 * 3 + 11 * 2
                                                                 + 12, 36)


def test_the_highest_die_and_dice_showing_faces(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    assert scripted(rt, "charge", unit(rt, rules=("High die",)), [6, 5, 2])[0] == 7
    ones = unit(rt, rules=("Ones",))
    # each 1 of three dice rolled again, once: a 1 rolled again stays
    value, event = scripted(rt, "pool", ones, [1, 5, 1, 1, 4])
    assert (value, event.dice) == (2, [1, 5, 4])
    # a 4+ needs a first 4+, or a 1 and then a 4+: 1/2 + 1/6 x 1/2 = 7/12 a die
    assert dist(rt, "pool", ones) == Dist.from_weights(
        {k: math.comb(3, k) * 7 ** k * 5 ** (3 - k) for k in range(4)})
    low = unit(rt, rules=("Low dice",))
    assert dist(rt, "pool", low).mean() == 3 * F(3, 4)
    # no die shows a 1: nothing is re-rolled
    value, event = scripted(rt, "charge", ones, [2, 3])
    assert (value, event.rerolled, event.first_dice) == (5, False, None)


def test_reroll_never_stops_them(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    assert scripted(rt, "steady", unit(rt, rules=("Steady",)), [1, 1])[0] == 2


def test_monte_carlo_agrees_with_exact_within_4_sigma(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    both = unit(rt, rules=("One die", "Whole roll"))
    exact = dist(rt, "charge", both)
    n = 4000
    env = rt.env(RandomChance(7))
    total = sum(rt.invoke("charge", env, {"u": both}) for _ in range(n))
    mean, var = float(exact.mean()), float(exact.variance())
    assert abs(total / n - mean) <= 4 * math.sqrt(var / n)


def test_misused_dice_rerolls_are_located() -> None:
    assert check('''roll charge(u: unit) @ L1
    dice 2D6
roll power(n: int) @ L1
    dice n D6 each 6 adds D6
test hit(u: unit) @ L1
    dice D6
    need 4
rule "Keen" @ L2
    reroll lowest die of hit
    reroll lowest die of chrage
    reroll dice showing 7 of charge
    reroll dice showing 1 of power
    reroll all dice of power
    reroll all dice of charge if result > 3
''') == [
        (9, "reroll-of-test", "reroll lowest die of 'hit': 'hit' is a test, whose result a "
                              "rule re-rolls when it fails or passes"),
        (10, "unknown-name", "reroll lowest die of names 'chrage', which is not a roll"),
        (11, "bad-dice", "reroll dice showing ... of 'charge': a D6 has no face 7; its faces "
                         "are 1 to 6"),
        (12, "bad-reroll", "reroll dice showing ... of 'power': a pool that grows is rolled "
                           "again whole, not die by die (the dice it adds hang on its faces)"),
        (14, "undefined-name", "undefined name 'result'"),
    ]


def test_the_report_tells_the_dice_first_rolled_and_the_refused_reroll(tmp_path) -> None:
    from rules_run.engine.narrate import Words, narrate
    rt = kit(tmp_path, RULES)
    both = unit(rt, rules=("One die", "Whole roll"))
    _, event = scripted(rt, "charge", both, [1, 3, 4])
    assert list(narrate([event], Words(None, {"u": "Swordsmen"}))) == [
        "    Swordsmen: Charge: rolled 1+3, re-rolled (One die) to 4+3 = 7 (Whole roll "
        "refused: a die is re-rolled at most once)"]


def test_a_pool_that_grew_is_rolled_again_whole(tmp_path) -> None:
    rt = kit(tmp_path, '''
roll power(u: unit) @ L1
    dice 2D6 each 6 adds D6
rule "Again" @ L2
    reroll all dice of power if bearer == u and natural < 8
''')
    again = unit(rt, rules=("Again",))
    # 6 and 1 add a 2 (9 stands); 1 and 2 (3) are rolled again: 6 and 4 add a 5
    assert scripted(rt, "power", again, [6, 1, 2])[0] == 9
    value, event = scripted(rt, "power", again, [1, 2, 6, 4, 5])
    assert (value, event.first_dice, event.dice) == (15, [1, 2], [6, 4, 5])
