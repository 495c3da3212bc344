"""Rolls, tests and sequences as the compiler runs them, checked exactly against hand
computation, and Monte Carlo against exact (4 sigma, fixed seeds)."""

from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from rules_run.chance import Dist, RandomChance, ScriptedChance, enumerate_exact
from rules_run.diagnostics import BattleError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset
from rules_run.runtime.entities import Unit

HEADER = '''ruleset kit "Roll kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: WS, S, T, Ld, W as wounds range 0..10 @ L1
'''


def kit(tmp_path: Path, rules: str):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(HEADER + rules)
    runtime = compile_ruleset(load_ruleset(folder), builtins=BUILTINS)
    return runtime


def unit(runtime, uid="u", rules=(), **profile) -> Unit:
    base = {"WS": 3, "S": 3, "T": 3, "Ld": 7, "W": 1}
    base.update(profile)
    return Unit(uid, uid, "side", base, 10, rules=[runtime.bind_rule(r) for r in rules])


def p_pass(runtime, name, **args) -> F:
    return enumerate_exact(
        lambda ch: runtime.invoke(name, runtime.env(ch), dict(args)).passed
    ).probability(True)


def test_need_and_natural_rules(tmp_path) -> None:
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need a.WS
    natural 1 fails
    natural 6 passes
''')
    assert p_pass(rt, "hit", a=unit(rt, WS=4)) == F(1, 2)
    assert p_pass(rt, "hit", a=unit(rt, WS=1)) == F(5, 6)    # a natural 1 still fails
    assert p_pass(rt, "hit", a=unit(rt, WS=9)) == F(1, 6)    # a natural 6 still passes


def test_modifiers_are_summed_then_capped(tmp_path) -> None:
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need 4
    modifiers capped -1..1
rule "Blessed" @ L1
    modify hit by 1 if a == bearer
rule "Very Blessed" @ L1
    modify hit by 2 if a == bearer
''')
    plain = unit(rt)
    blessed = unit(rt, rules=["Blessed", "Very Blessed"])   # +3, capped at +1
    assert p_pass(rt, "hit", a=plain) == F(1, 2)
    assert p_pass(rt, "hit", a=blessed) == F(2, 3)


def test_stacking_max_takes_the_best_source(tmp_path) -> None:
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need 6
rule "Aim" (n: int) @ L1
    modify hit by n if a == bearer stacking max
''')
    a = unit(rt, rules=["Aim (1)", "Aim (2)"])
    assert p_pass(rt, "hit", a=a) == F(1, 2)   # +2, not +3


def test_a_failed_roll_is_rerolled_once_whatever_the_sources(tmp_path) -> None:
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need 4
rule "Hatred" @ L1
    reroll failed hit if a == bearer
rule "Favour" @ L1
    reroll failed hit if a == bearer
''')
    assert p_pass(rt, "hit", a=unit(rt, rules=["Hatred"])) == F(3, 4)
    assert p_pass(rt, "hit", a=unit(rt, rules=["Hatred", "Favour"])) == F(3, 4)


def test_granted_and_forced_rerolls_cancel(tmp_path) -> None:
    # 000 L15: a re-roll granted and a forced re-roll of successes cancel each other
    rt = kit(tmp_path, '''
test hit(a: unit, t: unit) @ L1
    dice D6
    need 4
rule "Hatred" @ L1
    reroll failed hit if a == bearer
rule "Dodge" @ L1
    reroll passed hit if t == bearer
''')
    assert p_pass(rt, "hit", a=unit(rt, rules=["Hatred"]),
                  t=unit(rt, "t", rules=["Dodge"])) == F(1, 2)
    assert p_pass(rt, "hit", a=unit(rt), t=unit(rt, "t", rules=["Dodge"])) == F(1, 4)


def test_rerolling_2d6_rerolls_every_die_or_one(tmp_path) -> None:
    rt = kit(tmp_path, '''
test ld_all(u: unit) @ L13
    dice 2D6
    pass if result <= u.Ld
test ld_one(u: unit) @ L13
    dice 2D6
    pass if result <= u.Ld
    reroll one die
rule "Standard" @ L1
    reroll failed ld_all if u == bearer
    reroll failed ld_one if u == bearer
''')
    u = unit(rt, rules=["Standard"], Ld=7)
    p7 = F(21, 36)
    assert p_pass(rt, "ld_all", u=u) == p7 + (1 - p7) * p7
    # one die: the higher die of a failed roll is rolled again
    expected = F(0)
    for a in range(1, 7):
        for b in range(1, 7):
            if a + b <= 7:
                expected += F(1, 36)
            else:
                keep = min(a, b)
                expected += F(1, 36) * F(sum(1 for c in range(1, 7) if keep + c <= 7), 6)
    assert p_pass(rt, "ld_one", u=u) == expected


def test_a_need_above_six_rolls_a_six_then_another_die(tmp_path) -> None:
    # 000 L362: 7+ -> a 6 then 4+, 8+ -> 6 then 5+, 9+ -> 6 then 6+, 10+ impossible
    rt = kit(tmp_path, '''
test shot(a: unit, m: int) @ L362
    dice D6
    need 4 - m
    beyond 6 need (if need <= 9 then need - 3 else none)
''')
    a = unit(rt)
    assert p_pass(rt, "shot", a=a, m=0) == F(1, 2)
    assert p_pass(rt, "shot", a=a, m=-3) == F(1, 6) * F(1, 2)
    assert p_pass(rt, "shot", a=a, m=-5) == F(1, 36)
    assert p_pass(rt, "shot", a=a, m=-6) == 0


def test_an_automatic_pass_is_not_rolled(tmp_path) -> None:
    rt = kit(tmp_path, '''
test panic(u: unit) @ L1
    dice 2D6
    pass if result <= u.Ld
rule "Fearless" @ L1
    pass panic if u == bearer
''')
    u = unit(rt, rules=["Fearless"])
    chance = ScriptedChance([])
    assert rt.invoke("panic", rt.env(chance), {"u": u}).passed is True


def test_a_roll_whose_effects_roll_it_again_is_located(tmp_path) -> None:
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need 4
rule "Echo" is global @ "not in seed: a broken house rule"
    modify hit by if hit(a) then 1 else 0
''')
    with pytest.raises(BattleError) as err:
        rt.invoke("hit", rt.env(RandomChance(1)), {"a": unit(rt)})
    (d,) = err.value.diagnostics
    assert (d.code, d.message) == ("too-deep", "'hit' was rolled within itself too deeply: "
                                   "rules that roll it again without end")
    assert (d.span.line, d.span.column) == (5, 1)


def test_d3_is_a_d6_halved_rounding_up(tmp_path) -> None:
    rt = kit(tmp_path, '''
roll r() @ L3
    dice D3
''')
    dist = enumerate_exact(lambda ch: rt.invoke("r", rt.env(ch), {}))
    assert dist.probability(1) == dist.probability(2) == dist.probability(3) == F(1, 3)


SEQUENCE = '''
test hit(a: unit, t: unit) @ L1
    dice D6
    need 4
    natural 6 is critical
test wound(a: unit, t: unit) @ L1
    dice D6
    need 4
test save(t: unit) @ L1
    dice D6
    need 5
test ward(t: unit) @ L1
    dice D6
    need param(t, "Ward")
sequence attack(a: unit, t: unit) @ L1
    step hit: hit(a, t) stops on fail
    step wound: wound(a, t) stops on fail
    step save: save(t) stops on pass
    damage if a has "Big" then 2 else 1
    each point: ward(t) removes on pass
rule "Ward" (value: need) @ L1
rule "Big" @ L1
rule "Two Hits" @ L1
    on critical of attack.hit if a == bearer: chains 2
rule "Auto Wound" @ L1
    on critical of attack.hit if a == bearer: skip wound
rule "Mortal" @ L1
    on critical of attack.hit if a == bearer: end with damage 3
rule "Keen" @ L1
    mark critical on hit if natural >= 5 and a == bearer
rule "Lucky" @ L1
    mark lucky on wound if dice == [6] and a == bearer
    on lucky of attack.wound if a == bearer: end with damage 2
'''


def mean_damage(rt, a, t) -> F:
    seq = rt.sequences["attack"]
    whole = enumerate_exact(lambda ch: seq.run(rt.env(ch), {"a": a, "t": t}))
    # enumerating chain by chain, each step's roll once, changes nothing: neither the damage
    # nor how many got past each step
    assert seq.exact(rt.env, {"a": a, "t": t}) == whole
    return whole.map(lambda o: o.damage).mean()


@pytest.mark.parametrize(("rules", "target_rules", "expected"), [
    ((), (), F(1, 2) * F(1, 2) * F(2, 3)),
    (("Big",), (), 2 * F(1, 2) * F(1, 2) * F(2, 3)),
    # crit (1/6) gives two hits, each wounding on 4+ and getting through on 2/3
    (("Two Hits",), (), F(2, 6) * F(1, 3) + F(1, 6) * 2 * F(1, 3)),
    # crit skips the wound roll
    (("Auto Wound",), (), F(2, 6) * F(1, 3) + F(1, 6) * F(2, 3)),
    # crit ends the attack with 3 damage, no wound or save
    (("Mortal",), (), F(2, 6) * F(1, 3) + F(1, 6) * 3),
    # a 5+ ward removes each damage point on 5+
    (("Big",), ("Ward (5+)",), 2 * F(1, 2) * F(1, 2) * F(2, 3) * F(2, 3)),
    (("Mortal",), ("Ward (6+)",), (F(2, 6) * F(1, 3) + F(1, 6) * 3) * F(5, 6)),
    # a rule widens the critical hit to 5+: a 4 is one hit, a 5 or a 6 two
    (("Two Hits", "Keen"), (), F(1, 6) * F(1, 3) + F(2, 6) * 2 * F(1, 3)),
    (("Mortal", "Keen"), (), F(1, 6) * F(1, 3) + F(2, 6) * 3),
    # Keen is the attacker's: carried by the target it widens nothing
    (("Two Hits",), ("Keen",), F(2, 6) * F(1, 3) + F(1, 6) * 2 * F(1, 3)),
    # a mark only a rule gives, read by a hook of the same rule: a wound roll of 6 ends
    # the attack with 2 damage, no save
    (("Lucky",), (), F(1, 2) * (F(1, 6) * 2 + F(2, 6) * F(2, 3))),
])
def test_sequence_hooks_and_wards_exactly(tmp_path, rules, target_rules, expected) -> None:
    rt = kit(tmp_path, SEQUENCE)
    a = unit(rt, "a", rules=rules)
    t = unit(rt, "t", rules=target_rules)
    assert mean_damage(rt, a, t) == expected


CONFIGS = [
    ((), ()), (("Big",), ()), (("Two Hits",), ()), (("Auto Wound",), ()), (("Mortal",), ()),
    (("Big",), ("Ward (5+)",)), (("Mortal",), ("Ward (6+)",)), (("Two Hits", "Big"), ()),
    (("Two Hits",), ("Ward (4+)",)), (("Auto Wound", "Big"), ("Ward (6+)",)),
    (("Mortal", "Big"), ()), (("Two Hits", "Auto Wound"), ()),
    (("Mortal", "Two Hits"), ("Ward (5+)",)), ((), ("Ward (2+)",)), (("Big",), ("Ward (3+)",)),
    (("Two Hits", "Big"), ("Ward (5+)",)), (("Auto Wound",), ("Ward (4+)",)),
    (("Mortal",), ("Ward (3+)",)), (("Two Hits", "Mortal", "Big"), ()),
    (("Two Hits", "Auto Wound", "Big"), ("Ward (6+)",)),
    (("Two Hits", "Keen"), ("Ward (5+)",)), (("Keen", "Lucky", "Big"), ()),
]


def test_a_step_no_chain_reaches_is_never_rolled(tmp_path) -> None:
    # the save divides by zero, but nothing ever wounds: enumerating the attack must not
    # roll the save (running it would not either)
    rules = SEQUENCE.replace("    need 5\n", "    need 5 / (t.S - t.S)\n").replace(
        "test wound(a: unit, t: unit) @ L1\n    dice D6\n    need 4",
        "test wound(a: unit, t: unit) @ L1\n    dice D6\n    need 7")
    assert rules.count("/ (t.S - t.S)") == rules.count("need 7") == 1
    rt = kit(tmp_path, rules)
    a, t = unit(rt, "a"), unit(rt, "t")
    exact = rt.sequences["attack"].exact(rt.env, {"a": a, "t": t})
    assert exact.map(lambda o: o.damage) == Dist.certain(0)
    assert exact.map(lambda o: o.past[0]).probability(1) == F(1, 2)


@pytest.mark.parametrize(("rules", "target_rules"), CONFIGS)
def test_monte_carlo_agrees_with_exact_within_4_sigma(tmp_path, rules, target_rules) -> None:
    rt = kit(tmp_path, SEQUENCE)
    a, t = unit(rt, "a", rules=rules), unit(rt, "t", rules=target_rules)
    exact = rt.sequences["attack"].exact(rt.env, {"a": a, "t": t}).map(lambda o: o.damage)
    n = 4000
    env = rt.env(RandomChance(17))
    total = sum(rt.sequences["attack"].run(env, {"a": a, "t": t}).damage for _ in range(n))
    mean, var = float(exact.mean()), float(exact.variance())
    assert abs(total / n - mean) <= 4 * math.sqrt(var / n) + 1e-12


def test_a_global_rule_applies_to_every_roll_without_a_bearer(tmp_path) -> None:
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need 4
rule "Fog" is global @ "not in seed: a house rule"
    modify hit by -1
    add 1 to T
''')
    a = unit(rt, T=3)
    assert p_pass(rt, "hit", a=a) == F(1, 3)
    assert rt.characteristic(None, a, "T") == 4


def test_a_mark_can_read_the_single_dice(tmp_path) -> None:
    # a miscast: two or more ones among the dice of a casting roll (002 L792 style)
    rt = kit(tmp_path, '''
test cast(a: unit) @ L1
    dice 2D6
    need 7
    mark miscast if count([d for each d in dice where d == 1]) >= 2
''')
    dist = enumerate_exact(lambda ch: "miscast" in rt.invoke("cast", rt.env(ch),
                                                              {"a": unit(rt)}).marks)
    assert dist.probability(True) == F(1, 36)


def test_a_rolls_own_modifier_is_capped_with_the_rules(tmp_path) -> None:
    # the save's own -2 (say, Rend 2) and a rule's +1 sum to -1, then cap at most +1
    rt = kit(tmp_path, '''
test save(t: unit, rend: int) @ L1
    dice D6
    need 4
    modifier 0 - rend
    modifiers at most 1
rule "Shield" @ L1
    modify save by 3 if t == bearer
''')
    assert p_pass(rt, "save", t=unit(rt), rend=2) == F(1, 6)          # needs 6: 4 - (-2)
    assert p_pass(rt, "save", t=unit(rt, rules=["Shield"]), rend=2) == F(2, 3)  # +1 net


def test_params_gives_every_instance_of_a_rule(tmp_path) -> None:
    rt = kit(tmp_path, '''
test ward(t: unit) @ L1
    dice D6
    need min(params(t, "Ward"))
rule "Ward" (value: need) @ L1
''')
    assert p_pass(rt, "ward", t=unit(rt, rules=["Ward (6+)", "Ward (5+)"])) == F(1, 3)


def test_a_characteristic_effect_during_a_sequence_sees_its_arguments(tmp_path) -> None:
    # "+1 Strength when charging": the rule reads the attack's own argument, and changes
    # nothing outside the attack
    rt = kit(tmp_path, '''
test hit(a: unit) @ L1
    dice D6
    need 4
test ward(t: unit) @ L1
    dice D6
    need 7 - t.S
sequence blow(a: unit, t: unit, charging: bool) @ L1
    step hit: hit(a) stops on fail
    damage a.S - 2
rule "Charge" @ L1
    add 1 to S during blow if charging
    add 2 to S during ward if t == bearer
''')
    a = unit(rt, "a", rules=["Charge"], S=3)
    env = rt.env(RandomChance(1))

    def damage(charging: bool):
        dist = rt.sequences["blow"].exact(rt.env, {"a": a, "t": a, "charging": charging})
        return dist.map(lambda o: o.damage)

    # a hit (1/2) does S - 2 damage: 1 point, or 2 when charging
    assert damage(False) == damage(False).from_weights({0: 1, 1: 1})
    assert damage(True) == damage(True).from_weights({0: 1, 2: 1})
    assert rt.characteristic(env, a, "S") == 3                 # outside the attack
    # during the ward the effect sees the test's argument: a bearer's S is 1 + 2, so it
    # needs 7 - 3 = 4; without the rule 7 - 1 = 6
    assert p_pass(rt, "ward", t=unit(rt, "t", rules=["Charge"], S=1)) == F(1, 2)
    assert p_pass(rt, "ward", t=unit(rt, "u", S=1)) == F(1, 6)


def order_kit(tmp_path: Path, rules: str):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text('''ruleset kit "Order kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: M, S minimum 1, W as wounds range 0..10 @ L1
characteristics weapon: A: dice minimum 1, AP minimum 0 @ L1
''' + rules)
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def test_set_then_multiply_and_divide_then_add(tmp_path) -> None:
    # the order of 001 L101-L103 (double Strength and +1: 4 x 2 + 1 = 9) and 002 L194 (set,
    # multiply or divide, then add), whatever order the rules come in
    rt = order_kit(tmp_path, '''
rule "Plus One" @ L1
    add 1 to S
rule "Double" @ L1
    multiply S by 2
rule "Set Four" @ L1
    set S to 4
rule "Halved" @ L1
    divide M by 2 rounding down
rule "Halved Up" @ L1
    divide M by 2 rounding up
''')

    def s(*rules, **profile):
        return rt.characteristic(None, unit(rt, rules=rules, **profile), "S")
    assert s("Plus One", "Double", S=4) == 9
    assert s("Double", "Plus One", S=4) == 9
    assert s("Plus One", "Double", "Set Four", S=2) == 9   # set first: 4 x 2 + 1
    assert rt.characteristic(None, unit(rt, rules=["Halved"], M=5), "M") == 2
    assert rt.characteristic(None, unit(rt, rules=["Halved Up"], M=5), "M") == 3


def test_a_floor_holds_under_modifiers_only(tmp_path) -> None:
    # 002 L194: modifiers take a characteristic no lower than 1 (AP: 0); a per-effect
    # "minimum 2" floors what that effect leaves
    rt = order_kit(tmp_path, '''
rule "Weak" @ L1
    add -1 to S
    add -1 to A
    add -2 to AP
rule "Sapped" @ L1
    add -3 to S minimum 2
rule "Quartered" @ L1
    divide M by 4 rounding down minimum 1
''')
    from rules_run.runtime.entities import Weapon

    def s(rules, **profile):
        return rt.characteristic(None, unit(rt, rules=rules, **profile), "S")
    assert s(["Weak"], S=1) == 1          # 1 - 1 stops at 1
    assert s(["Weak"], S=0) == 0          # a value already below the floor stays
    assert s([], S=0) == 0
    assert s(["Sapped"], S=4) == 2
    assert rt.characteristic(None, unit(rt, rules=["Quartered"], M=3), "M") == 1
    blade = Weapon("blade", {"A": 1, "AP": 1}, [rt.bind_rule("Weak")])
    assert rt.characteristic(None, blade, "A") == 1
    assert rt.characteristic(None, blade, "AP") == 0


def test_a_random_characteristic_is_rolled_before_it_is_modified(tmp_path) -> None:
    # 002 L215: D3 attacks, doubled, then -1 (floored at 1): exact and sampled agree
    rt = order_kit(tmp_path, '''
rule "Frenzy" @ L1
    multiply A by 2
    add -3 to A
''')
    from rules_run.runtime.entities import Weapon
    claws = Weapon("claws", rt.profile_values({"A": "D3"}), [rt.bind_rule("Frenzy")])
    exact = enumerate_exact(lambda ch: rt.characteristic(rt.env(ch), claws, "A"))
    # 1 -> 2 - 3 -> 1 (floor), 2 -> 4 - 3 = 1, 3 -> 6 - 3 = 3
    assert exact == exact.from_weights({1: 2, 3: 1})
    assert rt.characteristic(rt.env(ScriptedChance({"A": [3]})), claws, "A") == 3


def test_an_effect_that_reads_its_own_characteristic_sees_it_before_the_effects(
        tmp_path) -> None:
    # set M to bearer.M // 2 once recursed without end; it reads M before any rule effect
    rt = order_kit(tmp_path, '''
rule "Mired" @ L1
    set M to bearer.M // 2
rule "Quick" @ L1
    add bearer.M to M
''')
    assert rt.characteristic(None, unit(rt, rules=["Mired"], M=7), "M") == 3
    assert rt.characteristic(None, unit(rt, rules=["Mired", "Quick"], M=6), "M") == 9


def test_a_test_fails_on_a_mark_of_its_dice(tmp_path) -> None:
    # 002 L526: two or more 1s on the dice are a miscast, and the spell fails whatever the
    # total; a rule's mark (5 and 5 here) fails it too
    rt = kit(tmp_path, '''
test cast(a: unit) @ L1
    dice 3D6
    need 3
    mark miscast if count([d for each d in dice where d == 1]) >= 2
    marked miscast fails
rule "Unstable" @ L1
    mark miscast on cast if count([d for each d in dice where d == 5]) >= 2 and a == bearer
''')
    # 3D6 always reach 3; two or more 1s: 3 * 5 + 1 = 16 of 216
    assert p_pass(rt, "cast", a=unit(rt)) == 1 - F(16, 216)
    assert p_pass(rt, "cast", a=unit(rt, rules=["Unstable"])) == 1 - F(32, 216)
    result = rt.invoke("cast", rt.env(ScriptedChance([1, 1, 6])), {"a": unit(rt)})
    assert (result.passed, result.value, "miscast" in result.marks) == (False, 8, True)
