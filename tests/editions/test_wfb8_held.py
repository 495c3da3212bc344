"""wfb8's combat statuses hold while where the units stand says so (L428-L442, L492)."""

from __future__ import annotations

from pathlib import Path

from rules_run.engine.builtins import BUILTINS

from .test_wfb8_more import Arena, flank


def test_disruption_ends_when_the_flanker_drops_below_unit_strength_10(tmp_path: Path) -> None:
    # L430: the ten Orc Boyz on the Halberdiers' flank disrupt them while the result of the
    # combat they fight is worked out: no rank bonus (20 models five wide: three extra ranks). One Orc
    # falls, Unit Strength 9: the disruption ends and the ranks count again, with nothing
    # applied or cleared.
    arena = Arena(tmp_path, flank(), {})
    arena.engage("orcs", "men")
    assert arena.arc("orcs", "men") == "flank"
    assert arena.call("rank_bonus", u="men") == 3          # no combat result this phase
    for side in ("men", "orcs"):
        BUILTINS["apply"](arena.state, arena.env, None, "in_result", arena.get[side])
    assert arena.call("rank_bonus", u="men") == 0
    assert arena.call("extra_ranks", u="men") == 0
    BUILTINS["inflict"](arena.state, arena.env, None, arena.get["orcs"], 1)
    assert arena.get["orcs"].models == 9
    assert arena.call("rank_bonus", u="men") == 3
    assert "disrupted" not in arena.get["men"].statuses
