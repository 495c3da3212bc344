"""wfb8 spells that lay a template or a line on the table (000 L1259, L1265, L1341, L1343),
and the Dwellers Below's Strength test on every model (L1297):
fixed positions, scripted scatter, the models hit counted by hand.

The targets are blocks of 18 Halberdiers on 1" bases, six files of three ranks: a unit
centred at (36, 10) covers x 33..39 and y 8.5..11.5, its ranks' bases y 10.5..11.5 (front),
9.5..10.5 and 8.5..9.5. The small (3") template centred on it touches twelve of them (the
four middle files of each rank: tests/editions/test_wfb8_war_machines.py counts them). A
line from a Wizard at (36, y) toward it runs down x = 36 and crosses a rank wherever it
passes over that rank's bases.

Unless a test says otherwise every die is a 6 ("*"): each Strength 4 or 10 hit wounds
(T3), no save stands (light armour has none against S4 or more) and a one-Wound model hit
is slain, so the models slain are the models hit; a D3 is a 3 and a Panic test passes.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.wfb8_world import World, one, pos, unit

INCH = {"w": 25.4, "d": 25.4}


def block(uid: str, side: str, x: float, y: float, facing: float = 0) -> dict:
    return unit(uid, side, x, y, facing, models=18, files=6, base=INCH)


def world(tmp_path: Path, wizard: dict, *more: dict) -> World:
    return World(tmp_path, [one("wizard", "orcs", "empire/battle_wizard", wizard,
                                values={"wizard_level": 2, "lore": "fire"}),
                            block("a", "empire", 36, 10), *more])


def cast(w: World, spell: str, result: int, script: dict) -> None:
    dice = {"D3": [3] * 6, "panic_test": [1] * 20, **script, "*": [6] * 80}
    w.call("resolve_spell", dice, s=spell, w="wizard", target="a", result=result)


def slain(w: World, uid: str) -> int:
    return 18 - w.unit(uid).models


def slain_by(tmp_path: Path, wizard: dict, spell: str, result: int, script: dict | None = None
             ) -> int:
    """The models of ``a`` slain when the Wizard at ``wizard`` casts ``spell`` at it with a
    casting result of ``result`` (in a fresh battle)."""
    w = world(tmp_path, wizard)
    cast(w, spell, result, script or {})
    return slain(w, "a")


def test_flame_storm_on_target_hits_the_twelve_models_under_the_small_template(
        tmp_path: Path) -> None:
    w = world(tmp_path, pos(36, 30, 180))
    cast(w, "flame_storm", 12, {"scatter_roll": ["hit"]})
    assert slain(w, "a") == 12
    assert [e.change for e in w.events if e.kind == "marker"] == ["placed", "removed"]


def test_flame_storm_scatters_d6_onto_the_unit_beside_its_target(tmp_path: Path) -> None:
    # b (x 43..49) stands 10" right of a: the template scatters 6" along 90°, its centre to
    # (42, 10), reaching x 43.5: b's first file, its three bases 1, 1.12 and 1.12 away.
    w = world(tmp_path, pos(36, 30, 180), block("b", "empire", 46, 10))
    cast(w, "flame_storm", 12, {"scatter_roll": ["arrow"], "scatter_direction": [90],
                                "D6": [6]})
    assert (slain(w, "a"), slain(w, "b")) == (0, 3)


def test_flame_storm_boosted_uses_the_large_template_and_scatters_2d6(tmp_path: Path) -> None:
    # 16+ (L1265): the 5" template on target reaches 2.5" from (36, 10): every base, the
    # outer files' too (x 33..34 and 38..39: 2" away in the middle rank, 2.06" in the
    # others), 18 models; the small one (above) missed those six.
    w = world(tmp_path, pos(36, 30, 180))
    cast(w, "flame_storm", 16, {"scatter_roll": ["hit"]})
    assert slain(w, "a") == 18


def test_pit_of_shades_each_model_under_it_tests_initiative_or_falls(tmp_path: Path) -> None:
    # twelve under the template; Initiative 3: the faces 1, 2, 3 pass, nine 4s fail (L1343)
    w = world(tmp_path, pos(36, 30, 180))
    cast(w, "pit_of_shades", 13, {"scatter_roll": ["hit"], "characteristic_test": [1, 2, 3] + [4] * 9})
    assert slain(w, "a") == 9


def test_a_model_falls_into_the_pit_half_the_time_a_third_with_magic_resistance(
        tmp_path: Path) -> None:
    # Initiative 3: fails on 4, 5 or 6 (1/2); Magic Resistance (2), a 5+ ward, saves 1/3 of
    # those: 1/2 * 2/3 = 1/3. No armour save is taken. The Dwellers Below test Strength
    # (L1297) the same way: Strength 3, the same odds.
    def fall(w: World, score: int) -> Fraction:
        rt = w.runtime
        seq = rt.sequences["slain_unless"]
        args = {"source": w.unit("wizard"), "target": w.unit("a"), "score": score}
        return seq.exact(lambda ch: rt.env(ch, w.battle.options), args).map(
            lambda o: o.damage).probability(1)

    w = world(tmp_path, pos(36, 30, 180))
    assert fall(w, 3) == Fraction(1, 2)
    assert fall(w, 5) == Fraction(1, 6)
    assert fall(w, 1) == Fraction(5, 6)
    r = World(tmp_path, [one("wizard", "orcs", "empire/battle_wizard", pos(36, 30, 180)),
                         block("a", "empire", 36, 10) | {"rules": ["Magic Resistance (2)"]}])
    assert fall(r, 3) == Fraction(1, 3)


def test_the_dwellers_below_test_every_model_of_the_target(tmp_path: Path) -> None:
    # 18 models, Strength 4 with their halberds: the faces 1, 2, 3 pass, the 5s (15) fail
    # (L1297)
    w = world(tmp_path, pos(36, 30, 180))
    cast(w, "dwellers_below", 15, {"characteristic_test": [1, 2, 3] + [5] * 15})
    assert slain(w, "a") == 15


def test_the_penumbral_pendulum_hits_one_model_a_rank_along_its_line(tmp_path: Path) -> None:
    # from (36, 30) down the table 24" to y 6: all three ranks crossed, three models hit;
    # the Initiative tests fail on 6s (L1341)
    assert slain_by(tmp_path, pos(36, 30, 180), "penumbral_pendulum", 10) == 3
    # one model passes its Initiative test
    assert slain_by(tmp_path, pos(36, 30, 180), "penumbral_pendulum", 10,
                    {"characteristic_test": [6, 2, 6]}) == 2


def test_a_line_from_the_flank_hits_one_model_a_file(tmp_path: Path) -> None:
    # the Wizard at (50, 10) stands in a's flank: the line, to x 26, crosses its six files
    # (L853); from (60, 10) it stops at x 36, over four of them (x 39 to 36, touching the
    # fourth's edge)
    assert slain_by(tmp_path, pos(50, 10, 270), "penumbral_pendulum", 10) == 6
    assert slain_by(tmp_path, pos(60, 10, 270), "penumbral_pendulum", 10) == 4


def test_the_burning_head_runs_18_inches_36_boosted(tmp_path: Path) -> None:
    # from (36, 30): 18" ends at y 12, 0.5" short of the front rank (y 10.5..11.5)
    assert slain_by(tmp_path, pos(36, 30, 180), "burning_head", 8) == 0
    # from (36, 29): to y 11, over the front rank only: one model
    assert slain_by(tmp_path, pos(36, 29, 180), "burning_head", 8) == 1
    # 13+ (L1259): 36", through all three ranks
    assert slain_by(tmp_path, pos(36, 29, 180), "burning_head", 13) == 3


def test_piercing_bolts_roll_a_d3_for_each_rank_as_one_roll(tmp_path: Path) -> None:
    # L1261: D3 hits for each rank, the incomplete one too: 18 models in six files, three
    # ranks, 3D3 (sum 3 to 9); scripted 1, 2, 3: six hits, all slain
    w = world(tmp_path, pos(36, 30, 180))
    cast(w, "piercing_bolts", 8, {"piercing_bolts_hits": [1, 2, 3]})
    assert slain(w, "a") == 6
    assert w.exact("piercing_bolts_hits", ranks=3).probability(9) == Fraction(1, 27)
