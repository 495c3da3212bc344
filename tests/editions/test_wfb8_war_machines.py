"""wfb8 war machines in battle (000 L801-L877): templates and markers laid on fixed
positions, scattered by scripted dice, the models hit counted by hand.

The targets are blocks of 18 Halberdiers on 1" bases, six files of three ranks: a unit
centred at (36, 10) covers x 33..39 and y 8.5..11.5, its ranks' bases y 10.5..11.5 (front),
9.5..10.5 and 8.5..9.5, its files' x 33..34, 34..35, ... 38..39. The stone thrower's 3"
template (L863) centred on it reaches 1.5" from (36, 10): in the middle rank the four bases
of x 34..38 (nearest edges 1, 0, 0 and 1 away; x 33..34 and 38..39 are 2 away), in the
front and rear ranks the same four (1.12, 0.5, 0.5 and 1.12 away): 12 models, two of whose
bases meet under the hole at (36, 10).

Every D6 of the hits' own rolls is scripted as a 6 ("*"), so each hit wounds (a 6 against
T3) and no save stands (light armour has no save against S4 or more), and a Multiple Wounds
(D6) hit slays its one-Wound model: the models slain are the models hit.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from rules_run.chance import enumerate_exact
from helpers.wfb8_world import World, unit

INCH = {"w": 25.4, "d": 25.4}


def block(uid: str, side: str, x: float, y: float, facing: float = 0) -> dict:
    return unit(uid, side, x, y, facing, models=18, files=6, base=INCH)


def machine(uid: str, profile: str, x: float, y: float, facing: float = 180) -> dict:
    return unit(uid, "orcs", x, y, facing, profile=profile, models=3, files=3)


def world(tmp_path: Path, *more: dict) -> World:
    return World(tmp_path, [machine("lobber", "orcs/rock_lobber", 36, 40),
                            block("a", "empire", 36, 10), *more])


def attacks(w: World, target: str) -> list[int]:
    """The hits each volley made at the target, in order."""
    return [e.attacks for e in w.events if e.kind == "attacks" and e.target == target]


def fire(w: World, script: dict) -> None:
    w.call("fire_machine", dict(script, **{"*": [6] * 60}), m="lobber", target="a",
           kind="stone_thrower")


def test_a_stone_thrower_on_target_hits_twelve_models_one_under_the_hole(tmp_path: Path) -> None:
    w = world(tmp_path)
    # L865: a Hit! lands on target; the artillery die (4) is ignored
    fire(w, {"artillery_roll": [4], "scatter_roll": ["hit"], "random_pick": [0]})
    # L867: 11 low-Strength hits on those partly under, the high-Strength one under the hole
    assert attacks(w, "a") == [11, 1]
    assert w.unit("a").models == 18 - 12
    assert [e.change for e in w.events if e.kind == "marker"] == [
        "placed", "placed", "removed", "removed"]


def test_a_scattering_template_drifts_onto_the_unit_beside_its_target(tmp_path: Path) -> None:
    # b stands 10" to the right of a: the template scatters 10" along the arrow at 90° (+x)
    w = world(tmp_path, block("b", "empire", 46, 10))
    fire(w, {"artillery_roll": [10], "scatter_roll": ["arrow"], "scatter_direction": [90],
             "random_pick": [0]})
    assert attacks(w, "a") == []
    assert attacks(w, "b") == [11, 1]
    assert (w.unit("a").models, w.unit("b").models) == (18, 6)


def test_a_misfire_fires_nothing(tmp_path: Path) -> None:
    w = world(tmp_path)
    fire(w, {"artillery_roll": ["misfire"]})
    assert w.logs("misfires") == [["lobber"]]
    assert attacks(w, "a") == [] and not [e for e in w.events if e.kind == "marker"]


def test_the_chance_a_template_drifts_onto_a_unit_is_enumerated_exactly(tmp_path: Path) -> None:
    # The template on a scatters only with an arrow (2/3), and reaches b (its first file at
    # x 43..44) only along 90° (1/12), and then only 6" or more (its centre 36 + d, its edge
    # 37.5 + d >= 43): 6" touches b's first file (the three bases 1" away, or 1.12"), 8" its
    # first three files less the far corners (3 + 3 + 3 = 9), 10" twelve models. The
    # artillery die gives each distance 1/6 (L5).
    w = world(tmp_path, block("b", "empire", 46, 10))
    rt, state = w.runtime, w.state

    def shot(chance) -> int:
        env = rt.env(chance, w.battle.options, None, state)
        art = rt.invoke("artillery_roll", env, {})
        if art == "misfire":
            return 0
        m = state.builtin(env, "place_marker", [w.unit("a"), 3], None)
        if rt.invoke("scatter_roll", env, {}) == "arrow":
            state.builtin(env, "move_marker", [m, rt.invoke("scatter_direction", env, {}), art],
                          None)
        under = state.builtin(env, "models_under", [w.unit("b"), m], None)
        state.builtin(env, "remove_marker", [m], None)
        return under

    dist = enumerate_exact(shot)
    each = Fraction(2, 3) * Fraction(1, 12) * Fraction(1, 6)
    assert dict(dist.items()) == {0: 1 - 3 * each, 3: each, 9: each, 12: each}


def test_a_cannonball_hits_under_its_marker_then_one_model_a_rank_as_it_bounces(
        tmp_path: Path) -> None:
    # Blocks of 15 on 1" bases, five files of three ranks: o at (36, 10) (its ranks' bases
    # y 10.5..11.5, 9.5..10.5 and 8.5..9.5), p behind it at (36, 4) (y 4.5..5.5, 3.5..4.5
    # and 2.5..3.5). The cannon stands at (36, 40): the marker lands on o's centre (a Hit!),
    # inside one base of its middle rank (the direct hit, L849, L855); the ball bounces 6"
    # on down the line from the cannon, to (36, 4): through o's middle and rear ranks (one
    # more model: the middle rank was struck already) and p's front and middle ranks (L853).
    w = World(tmp_path, [
        unit("cannon", "empire", 36, 40, 180, profile="empire/great_cannon", models=3, files=3),
        unit("o", "orcs", 36, 10, models=15, files=5, base=INCH, profile="orcs/orc_boy"),
        unit("p", "orcs", 36, 4, models=15, files=5, base=INCH, profile="orcs/orc_boy")])
    w.call("fire_machine", {"artillery_roll": [6, 6], "scatter_roll": ["hit"], "*": [6] * 60},
           m="cannon", target="o", kind="great_cannon")
    assert (attacks(w, "o"), attacks(w, "p")) == ([1, 1], [1, 1])
    assert (w.unit("o").models, w.unit("p").models) == (13, 13)


def test_a_monster_the_bouncing_ball_does_not_slay_stops_it(tmp_path: Path) -> None:
    # The marker lands on q's centre at (36, 14) (q: 15 on 1" bases, y 12.5..15.5); the ball
    # bounces 10" on, to (36, 4): q's rear rank, the Trolls' one rank at (36, 10) (40 mm
    # bases, y 9.2..10.8), then p's three ranks (y 4.5..7.5). Every die a 6: the Troll's
    # wound is regenerated (4+), so the ball stops there (L853) and p is not hit, though
    # the line crosses it.
    w = World(tmp_path, [
        unit("cannon", "empire", 36, 40, 180, profile="empire/great_cannon", models=3, files=3),
        unit("q", "orcs", 36, 14, models=15, files=5, base=INCH, profile="orcs/orc_boy"),
        unit("o", "orcs", 36, 10, models=3, files=3, profile="orcs/troll"),
        unit("p", "orcs", 36, 6, models=15, files=5, base=INCH, profile="orcs/orc_boy")])
    w.call("fire_machine", {"artillery_roll": [6, 10], "scatter_roll": ["hit"], "*": [6] * 60},
           m="cannon", target="q", kind="great_cannon")
    assert (attacks(w, "q"), attacks(w, "o"), attacks(w, "p")) == ([1, 1], [1], [])
    assert (w.unit("q").models, w.unit("o").models, w.unit("p").models) == (13, 3, 15)
