"""Tallies in a sequence (issue #14): glancing and penetrating hits of a 40k5-style volley.

The fixture ruleset (``fixtures/volley``) shoots at a vehicle (D6 + S against AV 12: a
glancing hit on equal, a penetrating hit above, 001 L783-L789) and at infantry (Rending: a
6 to wound ignores the save, read by the later save step, L391); a BS 6+ shooter re-rolls a
1 to hit on a need of its own (L280-L285). Every probability here is worked out by hand.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from rules_run import open_battle
from rules_run.chance import Dist
from rules_run.cli.odds import main as odds_main
from rules_run.engine.driver import run_battle
from rules_run.engine.odds import TallyCounts, attack_odds, compute_odds, plan_attacks, \
    sample_attacks

VOLLEY = Path(__file__).resolve().parent / "fixtures" / "volley"
BATTLE = VOLLEY / "battles" / "firing_line.yaml"
SAMPLES = 10_000

# one shot of BS4 S9 at AV12: hits on 3+ (2/3); D6 + 9 is 12 on a 3 (glancing, 1/6) and
# above 12 on a 4, 5 or 6 (penetrating, 1/2)
GLANCE, PENETRATE = Fraction(2, 3) * Fraction(1, 6), Fraction(2, 3) * Fraction(1, 2)


@pytest.fixture(scope="module")
def volley():
    return open_battle(VOLLEY, BATTLE)


def odds(volley, attacker: str, target: str, attacks: int, mode: str | None = None):
    _, runtime, battle = volley
    (plan,) = plan_attacks(runtime, battle.unit(attacker), battle.unit(target), mode=mode,
                           attacks=attacks)
    return runtime, plan, attack_odds(runtime, plan, battle.unit(target))


def within_four_sigma(estimate: Dist, exact: Dist, n: int) -> list[int]:
    """Outcomes whose sampled probability is more than 4 sigma from the exact one."""
    out = []
    for k in set(exact.support()) | set(estimate.support()):
        p = float(exact.probability(k))
        sigma = math.sqrt(max(p * (1 - p), 1e-12) / n)
        if abs(float(estimate.probability(k)) - p) > 4 * sigma:
            out.append(k)
    return out


# ---------------------------------------------------------------- exact distributions


def test_one_shot_glances_one_in_nine_and_penetrates_one_in_three(volley) -> None:
    _, _, one = odds(volley, "marines", "tank", 1)
    assert one.tallies == Dist.from_weights({TallyCounts((0, 0)): 1 - GLANCE - PENETRATE,
                                             TallyCounts((1, 0)): GLANCE,
                                             TallyCounts((0, 1)): PENETRATE})
    assert one.damage == Dist.certain(0)


def test_three_shots_give_the_multinomial_joint_and_binomial_marginals(volley) -> None:
    _, _, three = odds(volley, "marines", "tank", 3)
    assert three.tallies is not None
    neither = 1 - GLANCE - PENETRATE
    # one of each and one miss: 3!/(1!1!1!) orders
    assert three.tallies.probability(TallyCounts((1, 1))) == 6 * GLANCE * PENETRATE * neither
    assert three.tallies.probability(TallyCounts((0, 3))) == PENETRATE ** 3
    glancing = three.tallies.map(lambda c: c[0])
    assert glancing.probability(0) == Fraction(512, 729)            # (8/9)^3
    assert three.tallies.map(lambda c: c[1]).p_at_least(1) == Fraction(19, 27)  # 1 - (2/3)^3


def test_rules_odds_has_a_row_and_a_table_for_each_tally(volley) -> None:
    _, runtime, battle = volley
    found = compute_odds(runtime, battle, "marines", "tank", attacks=3)
    names = [name for name, _ in found.rows]
    assert names == ["hit passed", "penetrate passed", "glancing", "penetrating", "damage",
                     "models removed"]
    assert found.tallies == ("glancing", "penetrating")
    assert dict(found.rows)["penetrating"].mean() == 1


def test_the_sampled_tallies_agree_with_the_exact_ones_within_four_sigma(volley) -> None:
    runtime, plan, three = odds(volley, "marines", "tank", 3)
    assert three.tallies is not None
    for i, name in enumerate(("glancing", "penetrating")):
        exact = three.tallies.map(lambda c, i=i: c[i])
        sampled = sample_attacks(runtime, plan, SAMPLES, 11 + i, tally=name)
        assert within_four_sigma(sampled, exact, SAMPLES) == []


def test_the_four_sigma_check_tells_glancing_from_penetrating(volley) -> None:
    # the check could fail: the glancing samples are far from the penetrating odds
    runtime, plan, three = odds(volley, "marines", "tank", 3)
    assert three.tallies is not None
    sampled = sample_attacks(runtime, plan, SAMPLES, 5, tally="glancing")
    assert within_four_sigma(sampled, three.tallies.map(lambda c: c[1]), SAMPLES) != []


# ---------------------------------------------------------------- a later step reads marks


def test_rending_sixes_to_wound_skip_the_save_read_by_the_later_step(volley) -> None:
    # BS4 hits 2/3; S4 v T4 wounds on 4+; a 6 (1/6) rends, no save; a 4 or 5 (1/3) is
    # saved on 3+ (fails 1/3): 2/3 * (1/6 + 1/3 * 1/3) = 5/27
    _, _, rending = odds(volley, "rippers", "guards", 1, mode="infantry")
    assert rending.damage.probability(1) == Fraction(5, 27)
    # without Rending the 6 is saved as the others: 2/3 * 1/2 * 1/3
    _, _, marines = odds(volley, "marines", "guards", 1, mode="infantry")
    assert marines.damage.probability(1) == Fraction(2, 3) * Fraction(2, 3) * Fraction(1, 3)


def test_rending_sampled_agrees_with_exact(volley) -> None:
    runtime, plan, four = odds(volley, "rippers", "guards", 4, mode="infantry")
    sampled = sample_attacks(runtime, plan, SAMPLES, 3)
    assert within_four_sigma(sampled, four.damage, SAMPLES) == []


# ---------------------------------------------------------------- a re-roll's own need


def test_bs6_hits_on_2_and_rerolls_a_1_needing_6(volley) -> None:
    _, _, marksman = odds(volley, "marksmen", "tank", 1)
    assert marksman.past[0].probability(1) == Fraction(5, 6) + Fraction(1, 6) * Fraction(1, 6)


def test_a_rules_reroll_is_used_instead_with_the_first_need(volley) -> None:
    # Master-crafted: the 1 is re-rolled by the rule, needing 2+ again (001 L285)
    _, runtime, battle = volley
    veteran = battle.unit("marksmen")
    assert veteran is not None
    text = BATTLE.read_text(encoding="utf-8").replace("army/marksman", "army/veteran")
    opened = open_battle(VOLLEY, BATTLE, text=text)
    (plan,) = plan_attacks(opened.runtime, opened.battle.unit("marksmen"),
                           opened.battle.unit("tank"), attacks=1)
    hit = attack_odds(opened.runtime, plan, opened.battle.unit("tank")).past[0]
    assert hit.probability(1) == Fraction(5, 6) + Fraction(1, 6) * Fraction(5, 6)


def test_the_reroll_sampled_agrees_with_exact(volley) -> None:
    runtime, plan, marksman = odds(volley, "marksmen", "tank", 3)
    counts: dict[int, int] = {}
    _, _, battle = volley
    from rules_run.chance import RandomChance
    env = runtime.env(RandomChance(17), battle.options)
    seq = runtime.sequences[plan.sequence]
    for _ in range(SAMPLES):
        hits = sum(seq.run(env, dict(plan.args)).past[0] for _ in range(3))
        counts[hits] = counts.get(hits, 0) + 1
    sampled = Dist.from_weights({k: Fraction(v, SAMPLES) for k, v in counts.items()})
    assert within_four_sigma(sampled, marksman.past[0], SAMPLES) == []


# ---------------------------------------------------------------- in a battle


SCRIPTED = """
dice:
  to_hit: [3, 6, 1,   1, 6,   2]       # marines: hit, hit, miss; marksman: 1, re-rolled 6
  penetration: [3, 4,   6]             # 3 + 9 = 12 glances, 4 + 9 penetrates; 6 + 4 fails
"""


def test_fight_gives_the_tallies_the_rules_read_and_the_log_keeps() -> None:
    text = BATTLE.read_text(encoding="utf-8") + SCRIPTED
    opened = open_battle(VOLLEY, BATTLE, text=text)
    result = run_battle(opened.runtime, opened.battle, seed=1)
    volleys = [e for e in result.events if e.kind == "attacks"]
    assert [(e.attacker, e.tallies) for e in volleys] == [
        ("marines", {"glancing": 1, "penetrating": 1}),
        ("marksmen", {"glancing": 0, "penetrating": 0}),
        ("rippers", {"glancing": 0, "penetrating": 0}),
    ]
    assert volleys[1].steps == [["hit", 1, False], ["penetrate", 0, False]]
    logs = [e.values for e in result.events if e.kind == "log"]
    assert logs[0] == ["marines", 1, 1]
    assert volleys[0].to_json()["tallies"] == {"glancing": 1, "penetrating": 1}


def test_a_volley_without_tallies_has_no_tallies_field(volley) -> None:
    from rules_run.runtime.events import Volley
    e = Volley(attacker="a", target="b", sequence="s", attacks=1, damage=0, in_contact=False,
               weapon=None, steps=[])
    assert "tallies" not in e.to_json()


def test_statistics_runs_draw_the_tallies_from_their_exact_distribution(volley) -> None:
    # without events each volley is drawn from its exact distribution, tallies included:
    # the tank (W3, a wound per penetrating hit here) falls to the marines' 3 shots only
    # when all three penetrate, 1/27
    _, runtime, battle = volley
    runs = 2000
    fallen = sum(run_battle(runtime, battle, seed=i, keep_events=False).units[3].models == 0
                 for i in range(runs))
    p = 1 / 27
    assert abs(fallen / runs - p) < 4 * math.sqrt(p * (1 - p) / runs)


# ---------------------------------------------------------------- the command


def test_rules_odds_prints_each_tallys_distribution(capsys) -> None:
    assert odds_main(["-e", str(VOLLEY), str(BATTLE), "--attacker", "marines", "--target",
                      "tank", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "  glancing              0.333     3  1/3\n" in out
    # the exact columns as wide as their longest fraction
    assert ("penetrating:\n    k   exactly  at least  exactly  at least\n"
            "    0    29.63%   100.00%     8/27         1\n") in out


def test_rules_odds_json_gives_the_joint_distribution(capsys) -> None:
    assert odds_main(["-e", str(VOLLEY), str(BATTLE), "--attacker", "marines", "--target",
                      "tank", "--attacks", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tallies"]["names"] == ["glancing", "penetrating"]
    assert {json.dumps(j["counts"], sort_keys=True): j["exact"]
            for j in data["tallies"]["joint"]} == {
        '{"glancing": 0, "penetrating": 0}': "5/9",
        '{"glancing": 1, "penetrating": 0}': "1/9",
        '{"glancing": 0, "penetrating": 1}': "1/3"}
    steps = {s["name"]: s for s in data["steps"]}
    assert steps["glancing"]["mean_exact"] == "1/9"


def test_rules_odds_samples_the_tallies(capsys) -> None:
    assert odds_main(["-e", str(VOLLEY), str(BATTLE), "--attacker", "marines", "--target",
                      "tank", "--samples", "2000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["samples"]["tallies"]) == {"glancing", "penetrating"}
    # 3 shots: the mean of penetrating hits is 1; 4 sigma of 2000 samples is about 0.07
    assert abs(data["samples"]["tallies"]["penetrating"]["mean"] - 1) < 0.08
