"""Table cells that hold dice (a key's ``types: {hits: dice}``): rolled when a lookup reads
them and by a roll's ``dice TABLE[keys]``, scripted, exact (distributions worked by hand)
and sampled (Monte Carlo within 4 sigma, fixed seed); ``key_values``; the diagnostics of
their misuse."""

from __future__ import annotations

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from rules_run.chance import RandomChance, ScriptedChance, enumerate_exact
from rules_run.diagnostics import BattleError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset
from rules_run.runtime.entities import Unit

from .test_checker import check

HEADER = '''ruleset kit "Table dice kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: WS, S, T, Ld, W as wounds range 0..10 @ L1
table weapon_data(weapon, field) from "weapons.yaml" @ L1
'''

WEAPONS = '''kind: table
cite: "not in seed: illustrative"
keys:
  - {name: weapon, values: [axe, flail, club, stick, bow]}
  - {name: field, values: [damage, kind], types: {damage: dice}}
cells:
  - [D3+1, melee]
  - [2D6, melee]
  - [3, melee]
  - [null, melee]
  - [D3, shot]
'''

RULES = '''
roll damage_of(w: text) @ L1
    dice weapon_data[w, "damage"]
test wounding(w: text) @ L1
    dice weapon_data[w, "damage"]
    need 4
test hit(target: unit) @ L1
    dice D6
    need 4
sequence strike(target: unit, w: text) @ L1
    step hit: hit(target) stops on fail
    damage weapon_data[w, "damage"]
action twice(w: text) @ L1
    return weapon_data[w, "damage"] + weapon_data[w, "damage"]
action kinds() @ L1
    return key_values(weapon_data, "weapon")
roll kind_of(w: text) @ L1
    dice weapon_data[w, "kind"]
'''


def kit(tmp_path: Path, rules: str = RULES):
    folder = tmp_path / "kit"
    folder.mkdir()
    (folder / "index.yaml").write_text("kind: ruleset\nrules: [kit.rules]\n")
    (folder / "kit.rules").write_text(HEADER + rules)
    (folder / "weapons.yaml").write_text(WEAPONS)
    return compile_ruleset(load_ruleset(folder), builtins=BUILTINS)


def exact(rt, name, **args):
    def run(chance):
        out = rt.invoke(name, rt.env(chance), dict(args))
        return out if isinstance(out, int) else out.passed
    return enumerate_exact(run)


def target(rt) -> Unit:
    return Unit("u", "u", "side", {"WS": 3, "S": 3, "T": 3, "Ld": 7, "W": 1}, 10)


def test_a_roll_rolls_the_dice_of_a_cell(tmp_path: Path) -> None:
    rt = kit(tmp_path)
    # D3+1: a D3 of 3, plus 1 (scripted dice give a D3's face)
    assert rt.invoke("damage_of", rt.env(ScriptedChance({"damage_of": [3]})), {"w": "axe"}) == 4
    result = rt.invoke("wounding", rt.env(ScriptedChance([3, 4])), {"w": "flail"})
    assert (result.natural, result.passed, result.faces) == (7, True, (3, 4))


def test_a_cell_s_dice_are_enumerated_exactly(tmp_path: Path) -> None:
    rt = kit(tmp_path)
    # D3+1 is 2, 3 or 4, each 1/3
    assert [exact(rt, "damage_of", w="axe").probability(k) for k in (2, 3, 4)] == [F(1, 3)] * 3
    # 2D6 of 4+: 33/36
    assert exact(rt, "wounding", w="flail").probability(True) == F(33, 36)
    # a whole number rolls nothing and is itself; null rolls nothing and is 0
    assert exact(rt, "damage_of", w="club").probability(3) == 1
    assert exact(rt, "damage_of", w="stick").probability(0) == 1
    assert rt.invoke("damage_of", rt.env(ScriptedChance([])), {"w": "club"}) == 3


def test_a_lookup_rolls_a_dice_cell_each_time_it_is_read(tmp_path: Path) -> None:
    rt = kit(tmp_path)
    assert rt.invoke("twice", rt.env(ScriptedChance({"D3": [1, 3]})), {"w": "bow"}) == 1 + 3
    # D3 + D3: 2 in 1/9, 4 in 3/9, 6 in 1/9
    dist = exact(rt, "twice", w="bow")
    assert [dist.probability(k) for k in (2, 3, 4, 5, 6)] == [F(1, 9), F(2, 9), F(3, 9),
                                                               F(2, 9), F(1, 9)]


def test_a_sequence_s_damage_from_a_cell_is_exact(tmp_path: Path) -> None:
    # a hit on 4+ (1/2), then D3+1 damage: 0 in 1/2, 2, 3 and 4 in 1/6 each
    rt = kit(tmp_path)
    seq = rt.sequences["strike"]
    dist = seq.exact(lambda ch: rt.env(ch), {"target": target(rt), "w": "axe"}).map(
        lambda o: o.damage)
    assert [dist.probability(k) for k in (0, 2, 3, 4)] == [F(1, 2), F(1, 6), F(1, 6), F(1, 6)]


def test_sampled_dice_of_a_cell_agree_with_the_exact_mean(tmp_path: Path) -> None:
    # 2D6: mean 7, variance 35/6; 4000 rolls from seed 11 within 4 sigma of the mean
    rt = kit(tmp_path)
    chance = RandomChance(11)
    n = 4000
    total = sum(rt.invoke("damage_of", rt.env(chance), {"w": "flail"}) for _ in range(n))
    assert abs(total / n - 7) <= 4 * math.sqrt(35 / 6 / n)


def test_key_values_lists_a_key_s_values_in_the_file_s_order(tmp_path: Path) -> None:
    rt = kit(tmp_path)
    assert rt.invoke("kinds", rt.env(ScriptedChance([])), {}) == [
        "axe", "flail", "club", "stick", "bow"]


def test_a_roll_of_a_cell_that_holds_no_dice_stops_with_a_located_error(tmp_path) -> None:
    rt = kit(tmp_path)
    with pytest.raises(BattleError) as caught:
        rt.invoke("kind_of", rt.env(ScriptedChance([])), {"w": "axe"})
    [d] = caught.value.diagnostics
    assert (d.code, d.message) == (
        "bad-dice", "roll 'kind_of' rolls the cell ['axe', 'kind'] of table 'weapon_data', "
        "which holds 'melee', not dice")
    assert d.span.line == HEADER.count("\n") + RULES.splitlines().index(
        '    dice weapon_data[w, "kind"]') + 1


TABLE = 'table weapon_data(weapon, field) from "weapons.yaml" @ L1\n'


def test_the_checker_reports_dice_of_no_table_and_a_rule_setting_a_cell() -> None:
    assert check(TABLE + '''roll r(w: text) @ L1
    dice weapon_dat[w, "damage"]
rule "Heavy" @ L1
    roll r with weapon_data["axe", "damage"]
''') == [
        (3, "bad-dice", "dice from a table's cell: 'weapon_dat' is not a table"),
        (5, "bad-dice", "'roll r with': a rule sets dice written out (D6, 2D6), not a "
                         "table's cell"),
    ]


def test_the_checker_reports_key_values_of_an_unknown_key_or_no_table() -> None:
    assert check(TABLE + '''action a() @ L1
    return key_values(weapon_data, "weapons") + key_values(leadership, "unit")
''') == [
        (3, "unknown-key", "table 'weapon_data' has no key 'weapons' (its keys: weapon, field)"),
        (3, "not-a-table", "key_values reads a table, given by its name"),
    ]
