"""wfb8 terrain variants (000 L913-L939) through the ruleset's declarations. The Halberdiers
(ten on 20 mm bases, five files: 3.94" x 1.57") stand centred at (36, 10), x 34.03..37.97
and y 9.21..10.79; each piece below lies over part of them or clear of them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from helpers.wfb8_world import World, unit


def piece(pid: str, x: float, y: float, effects: list[str], w: float = 4, h: float = 4) -> dict:
    return {"id": pid, "kind": "special", "name": pid, "at": {"x": x, "y": y},
            "size": {"w": w, "h": h}, "effects": effects}


def world(tmp_path: Path, *pieces: dict) -> World:
    return World(tmp_path, [unit("men", "empire", 36, 10)],
                 battlefield={"width": 72, "depth": 48, "terrain": list(pieces)})


def terrain(w: World) -> dict:
    return {p.id: p for p in w.state.builtin(w.env(), "terrain", [], None)}


def test_a_raging_torrent_fails_its_dangerous_terrain_test_on_a_2(tmp_path: Path) -> None:
    # L939: 1-2 fails in a Raging Torrent; elsewhere only a 1 does (L883): ten models roll
    # ten dice at once, and the faces 1, 2, 2, 3 fail three in the torrent, one on the scree
    w = world(tmp_path, piece("torrent", 36, 30, ["Dangerous Terrain", "River", "Raging Torrent"]),
              piece("scree", 50, 30, ["Hill", "Dangerous Terrain"]))
    t = terrain(w)
    faces = [1, 2, 2, 3, 4, 5, 6, 6, 5, 4]
    assert w.call("torrent_failures", list(faces), u="men", piece=t["torrent"]) == 3
    assert w.call("dangerous_failures", list(faces), u="men", piece=t["scree"]) == 1
    # exactly: each model fails 1 in 3 (torrent) or 1 in 6: binomial counts
    torrent = w.exact("torrent_failures", u="men", piece=t["torrent"])
    assert torrent.probability(0) == Fraction(2, 3) ** 10
    assert w.exact("dangerous_failures", u="men", piece=t["scree"]).probability(1) \
        == 10 * Fraction(1, 6) * Fraction(5, 6) ** 9


def test_an_ancient_forest_costs_an_inch_of_movement_to_a_unit_partly_in_it(
        tmp_path: Path) -> None:
    # the forest (x 36..40) covers the Halberdiers' right half: -1 Movement (L913)
    assert world(tmp_path, piece("old", 38, 10, ["Ancient Forest"])).call(
        "charge_base", u="men") == 3
    assert world(tmp_path, piece("old", 45, 10, ["Ancient Forest"])).call(
        "charge_base", u="men") == 4


def test_a_unit_in_a_river_does_not_march(tmp_path: Path) -> None:
    # a river (y 7..10) under their rear half: they move their Move instead (L927)
    w = world(tmp_path, piece("river", 36, 8.5, ["River"], w=20, h=3))
    w.call("march", u="men")
    assert "marched" not in w.unit("men").statuses


def test_a_wildwood_strikes_a_unit_in_it_on_a_4(tmp_path: Path) -> None:
    # L923: a 4+, then D6 (5) Strength 4 hits; every D6 of the hits a 6: five slain
    w = world(tmp_path, piece("wild", 36, 12, ["Wildwood"]))
    w.call("wildwood_attacks", {"wildwood_strikes": [4], "wildwood_hits": [5], "*": [6] * 20})
    assert w.logs("the wildwood attacks") == [["men"]]
    assert w.unit("men").models == 5


def test_a_boiling_flood_scalds_every_model_partly_in_it(tmp_path: Path) -> None:
    # the flood (x 30..36.25) reaches the bases of three files, x 34.03..36.39 (the third
    # spans 35.61..36.39, the fourth starts at 36.39): six models each take a Strength 4
    # hit, no armour (L935)
    w = world(tmp_path, piece("flood", 33.125, 10, ["Boiling Flood"], w=6.25, h=6))
    w.call("boiling_floods", {"*": [6] * 20})
    hits = [e.attacks for e in w.events if e.kind == "attacks"]
    assert hits == [6] and w.unit("men").models == 4


# ---------------------------------------------------------------- terrain that changes


def builtin(w: World, name: str, *args):
    return w.state.builtin(w.env(), name, list(args), None)


def test_terrain_added_during_a_battle_is_in_play_with_its_effects_until_removed(
        tmp_path: Path) -> None:
    # a 4" crater laid on the Halberdiers: it is terrain under them (sight, features, the
    # places), dangerous as its effect says, and leaves with remove_terrain
    w = world(tmp_path)
    men = w.unit("men")
    crater = builtin(w, "add_terrain", "crater", men, 4, 4, ["Dangerous Terrain"])
    assert [p.id for p in builtin(w, "terrain_touching", men)] == ["crater"]
    assert [p.id for p in builtin(w, "terrain_at", men)] == ["crater"]
    assert builtin(w, "features", "Dangerous Terrain") == ["crater"]
    assert crater.rules[0].rule.name == "Dangerous Terrain"
    builtin(w, "remove_terrain", "crater")
    assert builtin(w, "terrain_touching", men) == [] and builtin(w, "features") == []
    assert [(e.kind, e.piece, e.change) for e in w.events if e.kind == "terrain"] == [
        ("terrain", "crater", "added"), ("terrain", "crater", "removed")]


def test_a_moved_piece_takes_its_effects_and_leaves_the_units_behind(tmp_path: Path) -> None:
    w = world(tmp_path, piece("wood", 36, 10, ["Ancient Forest"], w=6, h=6))
    men = w.unit("men")
    assert w.call("charge_base", u="men") == 3
    builtin(w, "move_terrain", "wood", 90, 10)
    assert (men.pose.x, men.pose.y) == (36, 10)
    assert builtin(w, "terrain_touching", men) == []
    assert w.call("charge_base", u="men") == 4
    moved = [e for e in w.events if e.kind == "terrain"][-1]
    assert (moved.at, moved.size, moved.effects) == ([46, 10], [6, 6], ["Ancient Forest"])


def test_a_blood_forest_feeds_on_a_spell_cast_at_a_unit_in_it_then_walks(
        tmp_path: Path) -> None:
    # L917: D6 Strength 4 hits on every unit partly within it, then it moves 2D6" in a
    # random direction: 3 hits, every wound roll a 6 and no save (halberdiers in light
    # armour, S4); the forest walks 5 + 5 = 10" along 90°, off the Halberdiers
    from helpers.wfb8_world import one, pos
    w = World(tmp_path, [unit("men", "empire", 36, 10),
                         one("shaman", "orcs", "orcs/orc_shaman", pos(36, 30, 180),
                             values={"wizard_level": 1, "lore": "beasts"})],
              battlefield={"width": 72, "depth": 48,
                           "terrain": [piece("blood", 36, 10, ["Blood Forest"], w=6, h=6)]})
    w.call("resolve_spell", {"blood_forest_hits": [3], "scatter_direction": [90],
                             "blood_forest_walk": [5, 5], "panic_test": [1, 1], "*": [6] * 20},
           s="curse_of_anraheir", w="shaman", target="men", result=10)
    assert w.unit("men").models == 10 - 3
    assert w.logs("the blood forest feeds") == [["men"]]
    forest = terrain(w)["blood"]
    assert (forest.pose.x, forest.pose.y) == (46, 10)
    assert builtin(w, "terrain_touching", w.unit("men")) == []


def test_a_terrain_effect_the_ruleset_lacks_is_a_located_error(tmp_path: Path) -> None:
    import pytest
    from rules_run.diagnostics import BattleError
    w = world(tmp_path)
    with pytest.raises(BattleError, match="the ruleset has no rule 'Lava' for a terrain effect"):
        builtin(w, "add_terrain", "pool", w.unit("men"), 2, 2, ["Lava"])
    with pytest.raises(BattleError, match="a place 'pool' is on the table already"):
        builtin(w, "add_terrain", "pool", w.unit("men"), 2, 2, [])
        builtin(w, "add_terrain", "pool", w.unit("men"), 2, 2, [])
