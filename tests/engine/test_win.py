"""``win(side, reason)``: a side wins whatever the victory points, and no further turn is
played."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.kit import kit_battle

from rules_run.diagnostics import BattleError
from rules_run.engine.driver import run_battle

RULES = '''ruleset wins "Win kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: W as wounds range 1..10 @ L1
option winner: text = "blue" @ L1
phase muster @ L1
    if round_number == 2 and active_side == "red":
        let first = win(if winner == "nobody" then nobody else winner, "the banner is taken")
        let second = win("red", "too late")
        log "calls", first, second
battle @ L1
    rounds 4
    round:
        for each s in sides():
            play_turn(s)
    turn:
        muster()
    score:
        score_points("red", 100)
'''

BATTLE = '''edition: wins
seed: 1
game: {rounds: 4, first: red}
duel: {distance: 10}
units:
  - {id: a, side: red, characteristics: {W: 1}, models: 5}
  - {id: b, side: blue, characteristics: {W: 1}, models: 5}
'''


def fight(tmp_path: Path, winner: str):
    runtime, battle = kit_battle(tmp_path, "wins", RULES,
                                 BATTLE + f"options: {{winner: {winner}}}\n")
    return run_battle(runtime, battle)


def test_a_named_winner_beats_the_victory_points_and_ends_the_battle(tmp_path) -> None:
    result = fight(tmp_path, "blue")
    assert (result.winner, result.rounds) == ("blue", 2)
    assert result.reason == "the banner is taken (round 2 of 4)"
    assert result.victory_points == {"red": 100, "blue": 0}
    turns = [(e.round, e.side) for e in result.events if e.kind == "turn"]
    assert turns == [(1, "red"), (1, "blue"), (2, "red")]     # blue's turn 2 is not played
    calls = [e.values for e in result.events if e.kind == "log"]
    assert calls == [[True, False]]                           # the first call decides


def test_nobody_wins_a_draw(tmp_path) -> None:
    result = fight(tmp_path, "nobody")
    assert (result.winner, result.reason) == (None, "a draw: the banner is taken (round 2 of 4)")


def test_a_side_not_in_the_battle_is_an_error(tmp_path) -> None:
    with pytest.raises(BattleError, match="win\\(\\): 'green' is not a side of this battle"):
        fight(tmp_path, "green")
