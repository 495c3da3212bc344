"""Spacing between models (issue #14: gaps between bases, skirmishers, coherency): a unit's
models stand ``space_models(u, inches)`` apart, and its footprint and the models' bases
follow. wfb8's seed states no gap (its Special Rules chapter, where Skirmishers would be,
is missing); 40k5's 2" coherency and wfb3's skirmishers are to use it.

Ten models on 1" bases in five files, centred at (36, 10) facing up the table: closed up
they cover x 33.5..38.5 and y 9..11, their bases' centres x 34, 35, ... 38 at y 10.5 and
9.5; 1" apart, x 31.5..40.5 (5 + 4 gaps) and y 8.5..11.5 (2 + 1), the centres x 32, 34,
... 40 at y 11 and 9.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.wfb8_world import World, unit

from rules_run.diagnostics import BattleError
from rules_run.engine.builtins.shapes import model_bases

INCH = {"w": 25.4, "d": 25.4}


def builtin(w: World, name: str, *args):
    return w.state.builtin(w.env(), name, list(args), None)


def world(tmp_path: Path) -> World:
    return World(tmp_path, [unit("men", "empire", 36, 10, base=INCH),
                            unit("orcs", "orcs", 36, 20, 180, base=INCH)])


def centres(w: World, uid: str) -> list[tuple[float, float]]:
    return [(round(p.x, 6), round(p.y, 6)) for p, _ in model_bases(w.state, w.unit(uid))]


def test_spaced_models_spread_the_footprint_and_the_bases(tmp_path: Path) -> None:
    w = world(tmp_path)
    men = w.unit("men")
    assert centres(w, "men")[:5] == [(34, 10.5), (35, 10.5), (36, 10.5), (37, 10.5),
                                     (38, 10.5)]
    assert builtin(w, "space_models", men, 1) is True
    assert builtin(w, "space_models", men, 1) is False
    assert builtin(w, "spacing", men) == 1
    spread = w.state.footprint(men)
    assert (spread.width, spread.depth) == pytest.approx((9, 3))
    assert centres(w, "men") == [(x, 11) for x in (32, 34, 36, 38, 40)] + [
        (x, 9) for x in (32, 34, 36, 38, 40)]
    # the gap to the Orcs (y 19..21) shrinks by the half inch the block grew forward
    assert builtin(w, "distance", men, w.unit("orcs")) == pytest.approx(7.5)
    builtin(w, "space_models", men, 0)
    assert builtin(w, "distance", men, w.unit("orcs")) == pytest.approx(8)


def test_a_template_over_spaced_models_touches_fewer_of_them(tmp_path: Path) -> None:
    # a 2.8" template at (36, 10) reaches 1.4": closed up, the three middle bases of each
    # rank (x 34.5..37.5, 0.5" away at most); 1" apart, only the middle one of each (the
    # next, x 33.5..34.5 at y 10.5..11.5, is 1.58" away)
    w = world(tmp_path)
    men = w.unit("men")
    template = builtin(w, "place_marker", men, 2.8)
    assert builtin(w, "models_under", men, template) == 6
    builtin(w, "space_models", men, 1)
    assert builtin(w, "models_under", men, template) == 2
    assert builtin(w, "files_under", men, template) == 1


def test_a_spacing_below_0_is_a_located_error(tmp_path: Path) -> None:
    w = world(tmp_path)
    with pytest.raises(BattleError, match=r"a spacing must be a number of inches, 0 or more, "
                                          r"got -1"):
        builtin(w, "space_models", w.unit("men"), -1)
