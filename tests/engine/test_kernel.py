"""The combat kernel (engine/kernel.py): snapshots, the reduced state key, and the exact odds
of a combat fought to its end against a calculation written here by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from rules_run import open_battle
from rules_run.chance import RandomChance
from rules_run.cli.odds import _print_combat
from rules_run.cli.odds import main as odds_main
from rules_run.diagnostics import UsageError
from rules_run.engine import state as state_module
from rules_run.engine.driver import run_battle
from rules_run.engine.kernel import combat_odds, sample_combat

DUEL = Path("rulesets/wfb8/battles/duel.yaml")


def small_duel(tmp_path: Path, models: int, rounds: int = 1) -> Path:
    """The reference duel with ``models`` models a side and ``rounds`` game rounds."""
    text = DUEL.read_text().replace("models: 20", f"models: {models}").replace(
        "rounds: 6", f"rounds: {rounds}")
    path = tmp_path / f"duel_{models}.yaml"
    path.write_text(text)
    return path


# ---------------------------------------------------------------- the hand calculation
# The wfb8 duel's combat as benchmarks/bench_battles.py's plain simulation describes it: the
# Orcs charge in their first turn and always reach (4" away, M4 + the higher of 2D6); each
# player turn the Halberdiers (I3) strike, front rank and one supporting rank of five plus
# the champion's extra attack, each an unsaved wound 1/2 * 1/2 * 2/3 = 1/6; then the Orcs
# that are left, 5/24 each (1/2 * 1/2 * 5/6); combat result: wounds, +1 the Orcs' charge in
# the first turn, +1 outnumbering, +1 standard (the Halberdiers' while a model besides the
# champion lives), ranks of five behind the first at 10+ models (at most +3); a draw goes
# to the side with a musician when the other has none (the Halberdiers' musician is their
# third model); the loser breaks on 2D6 above Ld 7 less the margin, unmodified when
# Steadfast (more models, 10 or more). The combat ends when a unit breaks or is wiped out.

def _binomial(n: int, p):
    return {k: comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def _holds(penalty: int, one):
    return one * sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= 7 - penalty) / 36


def _attacks(models: int, champion: int) -> int:
    return min(models, 5) + min(max(models - 5, 0), 5) + champion


def _ranks(models: int) -> int:
    return min(3, models // 5 - 1) if models >= 10 else 0


def hand_duel(h: int, o: int, turns: int, one=Fraction(1)):
    """P(the Halberdiers break or are wiped out), P(the Orcs do), over ``turns`` player
    turns from the Orcs' charge: exact Fractions, or floats with ``one=1.0``."""
    memo: dict = {}

    def win(h: int, o: int, turn: int):
        if turn == turns:
            return one * 0, one * 0
        if (h, o, turn) in memo:
            return memo[h, o, turn]
        orcs = empire = one * 0
        for d1, p1 in _binomial(_attacks(h, 1), one / 6).items():
            o2 = max(0, o - d1)
            if o2 == 0:
                empire += p1
                continue
            for d2, p2 in _binomial(_attacks(o2, 0), one * 5 / 24).items():
                p, h2 = p1 * p2, max(0, h - d2)
                if h2 == 0:
                    orcs += p
                    continue
                sh = d1 + (h2 > o2) + (h2 > 1) + _ranks(h2)
                so = d2 + (turn == 0) + (o2 > h2) + 1 + _ranks(o2)
                if sh == so:
                    sh, so = sh + (h2 > 2 and o2 <= 1), so + (o2 > 1 and h2 <= 2)
                hold = one
                if sh != so:
                    loser, winner = (h2, o2) if so > sh else (o2, h2)
                    hold = _holds(0 if loser > winner and loser >= 10 else abs(sh - so), one)
                    if so > sh:
                        orcs += p * (1 - hold)
                    else:
                        empire += p * (1 - hold)
                a, b = win(h2, o2, turn + 1)
                orcs, empire = orcs + p * hold * a, empire + p * hold * b
        memo[h, o, turn] = orcs, empire
        return orcs, empire

    return win(h, o, 0)


def test_the_hand_calculation_gives_the_issues_value_for_the_whole_duel() -> None:
    orcs, empire = hand_duel(20, 20, 12, one=1.0)
    assert abs(orcs - 0.655756) < 1e-6
    assert abs(empire - 0.344243) < 1e-6


@pytest.fixture(scope="module")
def one_a_side(tmp_path_factory):
    """The duel with one model a side, one game round: its battle and its combat's odds
    (worked out once for the tests that read them)."""
    _, runtime, battle = open_battle("wfb8", str(small_duel(tmp_path_factory.mktemp("k"), 1)))
    return runtime, battle, combat_odds(runtime, battle, "halberdiers", "orcs",
                                        until="fleeing")


def _broke(end, i: int) -> bool:
    unit = end.units[i]
    return unit.state != "in play" or "fleeing" in unit.statuses


def test_a_small_duels_combat_is_exactly_the_hand_calculation(one_a_side) -> None:
    found = one_a_side[2]
    orcs, empire = hand_duel(1, 1, 2)
    assert found.ends.probability_where(lambda e: _broke(e, 0)) == orcs
    assert found.ends.probability_where(lambda e: _broke(e, 1)) == empire
    # the rest: the one round is over with both still fighting
    assert found.ends.probability_where(lambda e: e.how == "battle over") == 1 - orcs - empire
    # counters set in every turn before they are read are left out of the key
    assert {"phase_models", "wounds_caused", "round_outcome"} <= set(found.left_out)
    # the hand calculation's fractions, for one model a side (the Halberdiers' champion
    # strikes twice, the Orc once)
    assert orcs == Fraction(98809775, 161243136) and empire == Fraction(197197, 559872)


def test_monte_carlo_of_the_same_combat_agrees_within_4_sigma(one_a_side) -> None:
    runtime, battle, _ = one_a_side
    n = 300
    sampled = sample_combat(runtime, battle, "halberdiers", "orcs", n, 7, until="fleeing")
    p = float(hand_duel(1, 1, 2)[0])
    estimate = float(sampled.probability_where(lambda e: _broke(e, 0)))
    assert abs(estimate - p) <= 4 * (p * (1 - p) / n) ** 0.5


def test_a_mid_size_duels_combat_is_exactly_the_hand_calculation(tmp_path) -> None:
    # three models a side over three game rounds: the volleys' many totals, the Break tests
    # as passed or failed, the broken unit's flight roll never drawn (the combat is over as
    # it flees), the charge roll drawn in full (its value is read)
    _, runtime, battle = open_battle("wfb8", str(small_duel(tmp_path, 3, rounds=3)))
    found = combat_odds(runtime, battle, "halberdiers", "orcs", until="fleeing")
    orcs, empire = hand_duel(3, 3, 6)
    assert found.ends.probability_where(lambda e: _broke(e, 0)) == orcs
    assert found.ends.probability_where(lambda e: _broke(e, 1)) == empire
    assert found.in_full == ("charge_distance",)
    # the replays of a step took pure calls from their trail (and the odds are still exact)
    assert found.shared > 0


def test_a_combat_fought_past_the_break_reads_the_flight_roll_and_agrees(tmp_path) -> None:
    # without --until the pursuit compares its roll with the flight's: that roll is read,
    # so it is drawn in full, and the odds that a unit broke (or fell) are the same
    _, runtime, battle = open_battle("wfb8", str(small_duel(tmp_path, 1)))
    found = combat_odds(runtime, battle, "halberdiers", "orcs")
    orcs, empire = hand_duel(1, 1, 2)
    assert found.ends.probability_where(lambda e: _broke(e, 0)) == orcs
    assert found.ends.probability_where(lambda e: _broke(e, 1)) == empire
    assert "flee_distance" in found.in_full
    assert {e.how for e in found.ends.support()} == {"out of play", "apart", "battle over"}


def test_monte_carlo_of_a_combat_fought_past_the_break_agrees_within_4_sigma(
        tmp_path) -> None:
    # each way it ends (how, and whether each unit is in play): the exact odds against 300
    # combats fought with seeded dice
    _, runtime, battle = open_battle("wfb8", str(small_duel(tmp_path, 1)))
    exact = combat_odds(runtime, battle, "halberdiers", "orcs").ends
    n = 300
    sampled = sample_combat(runtime, battle, "halberdiers", "orcs", n, 3)

    def kind(e):
        return (e.how, e.units[0].state, e.units[1].state)

    for k in {kind(e) for e in exact.support()} | {kind(e) for e in sampled.support()}:
        p = float(exact.probability_where(lambda e: kind(e) == k))
        q = float(sampled.probability_where(lambda e: kind(e) == k))
        assert abs(q - p) <= 4 * max((p * (1 - p) / n) ** 0.5, 1 / n), k


def test_what_the_kernel_leaves_undrawn_cannot_be_read() -> None:
    # a test drawn passed or failed gives its truth and name, nothing else; a value left
    # undrawn gives nothing at all: each read asks for that roll to be drawn in full
    from rules_run.engine.kernel import _Refine, _Steered, _Unread, _UnreadRoll
    steered = _Steered("break_test", False)
    assert not steered and steered.passed is False and steered.name == "break_test"
    assert steered == _Steered("break_test", False) != _Steered("break_test", True)
    unread = _UnreadRoll("flee_distance")
    reads = [lambda: steered.value, lambda: steered.marks, lambda: unread.natural,
             lambda: bool(unread), lambda: unread.value + 1, lambda: 1 + unread.value,
             lambda: unread.value >= 3, lambda: 3 < unread.value,
             lambda: unread.value == 3, lambda: hash(unread.value),
             lambda: float(unread.value), lambda: [1, 2][unread.value],
             lambda: bool(unread.value), lambda: unread.value.id,
             lambda: str(_Unread("x")), lambda: -unread.value]
    for read in reads:
        with pytest.raises(_Refine):
            read()


def test_a_turn_block_that_is_not_phase_calls_is_not_split_at_its_phases() -> None:
    import attrs as attrs_

    from rules_run.engine.kernel import _phases_split
    _, runtime, _ = open_battle("wfb8", str(DUEL))
    assert _phases_split(runtime)
    turn = runtime.battle_decl.turn
    # the call of an action (wfb8's last statement) moved between two phases: replaying the
    # turn up to a later phase would run it on a state the node then replaces
    moved = (turn[0], turn[-1], *turn[1:-1])
    fake = type("Runtime", (), {"battle_decl": attrs_.evolve(runtime.battle_decl, turn=moved),
                                "decls": runtime.decls})()
    assert not _phases_split(fake)


def test_a_replay_takes_a_pure_call_from_the_play_with_the_same_answers() -> None:
    from rules_run.engine.kernel import _Trail
    trail = _Trail()
    ran: list = []

    def inner(env, x):
        ran.append(("inner", x))
        return x

    def outer(env, args):
        ran.append(("outer", args["x"]))
        return shared_inner(env, args["x"]) * 10

    shared_inner, shared_outer = trail.wrap("inner", inner), trail.wrap("outer", outer)

    def play(answers):
        trail.begin()
        got = [shared_outer(None, {"x": 1})]
        for a in answers:
            trail.answered(a)
            got.append(shared_inner(None, 2))
        return got

    assert play([3]) == [10, 2]   # off: every call runs
    assert len(ran) == 3
    trail.on, ran[:] = True, []
    assert play([3]) == [10, 2] and len(ran) == 3   # the first play runs them all
    assert play([3]) == [10, 2] and ran[3:] == []   # a replay takes them (not the inner one)
    assert play([4]) == [10, 2] and ran[3:] == [("inner", 2)]   # another answer: runs
    assert play([4.0]) == [10, 2] and ran[4:] == [("inner", 2)]   # equal, of another kind
    assert play([[4]]) == [10, 2] and ran[5:] == [("inner", 2)]   # unhashable: not shared
    assert trail.shared == 5   # the outer call at the start of each replay, one inner


def test_the_builtins_a_shared_call_may_use_change_nothing() -> None:
    # each is a builtin (pure, or a battle's); counter() sets a counter it reads first
    from rules_run.engine.builtins.registry import BUILTINS
    from rules_run.engine.kernel import READING
    from rules_run.runtime.builtins import PURE_NAMES
    assert READING - PURE_NAMES <= set(BUILTINS)
    assert "counter" not in READING and "apply" not in READING and "decide" not in READING


# ---------------------------------------------------------------- snapshots and keys
def test_a_state_key_does_not_depend_on_the_order_things_were_added() -> None:
    from rules_run.engine.state import _frozen
    assert _frozen({("b", 1): 2, ("a", 2): 1}) == _frozen({("a", 2): 1, ("b", 1): 2})
    assert _frozen({1, "x", (2, None)}) == _frozen({(2, None), "x", 1})   # by their text
    assert _frozen({"k": [1, {2, 3}]}) == (("k", (1, (2, 3))),)


def test_restoring_a_snapshot_plays_the_battle_on_alike() -> None:
    _, runtime, battle = open_battle("wfb8", str(DUEL))
    from rules_run.engine.driver import battle_state, begin_battle, start_round
    state = battle_state(runtime, battle)
    env, _ = begin_battle(state, RandomChance(3), None)
    start_round(state, env, 1)
    state.play_turn(env, state.sides[0])
    before, key = state.snapshot(), state.state_key()
    env.chance = RandomChance(11)
    state.play_turn(env, state.sides[1])
    after = state.state_key()
    assert after != key
    state.restore(before)
    assert state.state_key() == key
    env.chance = RandomChance(11)
    state.play_turn(env, state.sides[1])
    assert state.state_key() == after


class _FirstAccess(dict):
    """Counters that note, for each counter name, whether a value was read before any of
    that counter's values was written."""

    def __init__(self, values, log: set[str]) -> None:
        super().__init__(values)
        self.written: set = set()
        self.log = log

    def __getitem__(self, key):
        if key not in self.written:
            self.log.add(key[0])
        return super().__getitem__(key)

    def __setitem__(self, key, value) -> None:
        self.written.add(key)
        super().__setitem__(key, value)

    def note_read(self, name: str) -> None:
        """Every value of a counter read at once (``counter_values``), as the kernel's
        watch is told."""
        if not any(k[0] == name for k in self.written):
            self.log.add(name)


def test_a_counter_the_key_leaves_out_is_never_read_before_it_is_written(
        one_a_side, monkeypatch) -> None:
    # what the kernel leaves out of the key for the duel
    left_out = set(one_a_side[2].left_out)
    # every player turn of whole duels, every read and write of the counters watched
    read_first: set[str] = set()
    turns = 0
    play = state_module.BattleState.play_turn

    def watched(self, env, side):
        nonlocal turns
        turns += 1
        self.counters = _FirstAccess(self.counters, read_first)
        try:
            return play(self, env, side)
        finally:
            self.counters = dict(self.counters)

    monkeypatch.setattr(state_module.BattleState, "play_turn", watched)
    _, runtime, battle = open_battle("wfb8", str(DUEL))
    for seed in range(30):
        run_battle(runtime, battle, seed=seed, keep_events=False)
    assert turns > 50
    assert read_first, "the check sees the counters that are read first"
    assert not read_first & left_out


# ---------------------------------------------------------------- the command
def test_the_command_prints_the_exact_odds_as_json(tmp_path, capsys, one_a_side) -> None:
    path = small_duel(tmp_path, 1)
    assert odds_main(["-e", "wfb8", str(path), "--combat", "halberdiers", "orcs", "--until",
                      "fleeing", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["combat"] == ["halberdiers", "orcs"] and out["until"] == "fleeing"
    assert out["states"] == one_a_side[2].nodes
    assert sum(Fraction(e["exact"]) for e in out["ends"]) == 1
    for what in ("ends by", "halberdiers", "orcs"):
        assert sum(Fraction(r["exact"]) for r in out["rows"][what].values()) == 1
    gone = out["models"]["orcs"][0]
    assert gone["k"] == 0 and Fraction(gone["exactly_exact"]) == hand_duel(1, 1, 2)[1]


def test_the_table_tells_each_end_and_the_models_left(one_a_side, capsys) -> None:
    runtime, _, found = one_a_side
    _print_combat(runtime.ruleset, found, "fleeing", 0, exact=True)
    text = capsys.readouterr().out
    assert text.startswith("Combat of Halberdier (halberdiers) and Orc Boy (orcs) under wfb8, "
                           "fought to its end (or fleeing): exact over ")
    assert "\nends by:\n  out of play  " in text
    assert "\n  in play (first_round, fleeing)  " in text
    assert "\nmodels of orcs left (mean 0.648):\n" in text
    assert "    0   35.22%   100.00%  197197/559872\n" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--combat", "halberdiers", "orks"],
     "error: --combat: 'orks' is not a unit of the battle; did you mean 'orcs'?"),
    (["--combat", "orcs", "orcs"], "error: --combat orcs orcs: a combat needs two different units"),
    (["--combat", "halberdiers", "orcs", "--until", "flee"],
     "error: --until flee: the ruleset 'wfb8' declares no status 'flee'; did you mean "
     "'fleeing' or 'leaden'?"),
    (["--combat", "halberdiers", "orcs", "--limit", "combat_branches=20"],
     "rulesets/wfb8/battles/duel.yaml:16:3: error: a player turn of the combat has more than "
     "20 branches to work out exactly; raise the limit with --limit combat_branches=N"),
    (["--combat", "halberdiers", "orcs", "--limit", "combat_states=1"],
     "rulesets/wfb8/battles/duel.yaml:16:3: error: the combat reaches more than 1 player-turn "
     "and phase states to work out exactly; raise the limit with --limit combat_states=N"),
])
def test_a_combat_that_cannot_be_worked_out_says_why(args, message, capsys) -> None:
    assert odds_main(["-e", "wfb8", str(DUEL), *args]) == 1
    assert message in capsys.readouterr().err


def test_combat_odds_refuses_a_unit_not_in_the_battle() -> None:
    _, runtime, battle = open_battle("wfb8", str(DUEL))
    with pytest.raises(UsageError, match="'nobody' is not a unit of the battle"):
        combat_odds(runtime, battle, "halberdiers", "nobody")
