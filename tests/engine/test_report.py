"""The battle report: a player's sentences in the ruleset's words, never a trace."""

from __future__ import annotations

import re

import pytest

from rules_run import open_battle
from rules_run.editions.loader import load_edition
from rules_run.editions.registry import bundled_editions
from rules_run.engine.driver import run_battle
from rules_run.engine.narrate import Words, narrate, summary_table

SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
BOOLEAN = re.compile(r"\b(True|False|None)\b")
TUPLE = re.compile(r": [A-Za-z][\w' ()-]*, -?\d+, [A-Za-z]")
"""What a log statement's values printed raw look like: ``combat result: bsb, 1, boyz, 3``."""


def _battles():
    for edition in bundled_editions():
        for battle in load_edition(edition).battles:
            yield pytest.param(edition, battle, id=f"{edition}:{battle.name}")


def _report(edition, battle, seed=None, **how):
    ruleset, runtime, fight = open_battle(edition, str(battle))
    result = run_battle(runtime, fight, seed=fight.seed if seed is None else seed,
                        keep_events=True)
    words = Words.of(ruleset, fight)
    told = narrate(result.events, words, **how)
    return result, summary_table(result, words) + list(told)


@pytest.mark.parametrize("edition,battle", list(_battles()))
def test_every_bundled_battle_narrates_without_trace_words(edition, battle):
    result, lines = _report(edition, battle, decisions=True)
    bad = [line for line in lines
           if SNAKE.search(line) or BOOLEAN.search(line) or TUPLE.search(line)]
    assert bad == []
    # every test line shows what it needed, every re-roll where it came from
    for line in lines:
        if "rolled" in line and ("passes" in line or "fails" in line):
            assert "needing" in line, line
        if "re-roll" in line:
            assert re.search(r"re-roll(ed)?(: | \(|, )\S", line), line


@pytest.mark.parametrize("edition,battle", list(_battles()))
def test_every_log_statement_of_a_bundled_battle_has_its_phrase(edition, battle):
    result, _ = _report(edition, battle)
    words = load_edition(edition).report["messages"]
    missing = {e.message for e in result.events if e.kind == "log"} - set(words)
    assert missing == set()


def _wfb8_lines(**how):
    return _report("wfb8", load_edition("wfb8").default_battle, seed=7, **how)[1]


def test_a_break_test_shows_its_target_and_steadfast_and_a_reroll_its_cause():
    lines = _wfb8_lines()
    # the Greatswords lost by 2 but are Steadfast: their own Leadership 8; the Battle
    # Standard Bearer lost by 2 with Leadership 9: 7 or less, and re-rolls the failure
    assert ("    Greatswords take a Break test (Steadfast): rolled 4+2 = 6,"
            " needing 8 or less → passes") in lines
    assert ("    Battle Standard Bearer takes a Break test: rolled 5+4, re-rolled (the Battle"
            " Standard) to 3+6 = 9, needing 7 or less → fails") in lines


def test_a_volley_shows_its_needs_and_a_wound_on_a_many_wound_model_shows():
    lines = _wfb8_lines()
    assert ("    Arrer Boyz attack Greatswords: 10 attacks (to hit 4+; to wound 4+; armour save"
            " 4+), 4 hit passed, 3 wound passed, 1 save failed → 1 damage") in lines
    # with seed 7 no Troll is wounded and survives; with seed 2 one is
    trolls = [line for line in _report("wfb8", load_edition("wfb8").default_battle, seed=2)[1]
              if re.match(r"    Trolls take \d+ wound", line)]
    assert trolls and all("of 3 wounds" in line for line in trolls)


def test_decisions_show_only_where_the_report_names_them_unless_asked():
    plain, every = _wfb8_lines(), _wfb8_lines(decisions=True)
    assert not any("decided by policy" in line for line in plain)
    assert "    Orc Boyz declare a charge against Halberdiers" in plain
    assert not any(line.endswith("a charge against none") for line in plain)
    assert "    Orc Big Boss: manoeuvre: advance (decided by policy aggressive)" in every
    assert len(every) > len(plain)


def test_aos4_volleys_name_their_weapon():
    lines = _report("aos4", load_edition("aos4").default_battle)[1]
    assert any(line.startswith("    Judicators attack Chaos Warhounds with skybolt bow: ")
               for line in lines)


def test_the_summary_comes_first_with_the_winner():
    lines = _wfb8_lines()
    assert lines[0].startswith("Winner: Orcs — victory points after 6 rounds")
    assert lines[2].split() == ["unit", "side", "models", "status"]


def test_a_unit_of_one_model_takes_the_singular_verb():
    lines = _wfb8_lines()
    assert ("    Battle Standard Bearer takes a Panic test: rolled 3+1 = 4, needing 9 or less"
            " → passes") in lines
    assert '    Orc Boyz move 8" toward Halberdiers' in lines
    assert '    Orc Big Boss moves 3.753" toward Greatswords' in lines
    assert '    Orc Big Boss wheels 7.595° (0.13")' in lines
    assert '    Black Orcs wheel -24.444° (2.1")' in lines


def test_held_statuses_are_told_as_the_combat_result_finds_them():
    lines = _wfb8_lines()
    # the Boar Boyz charged the Halberdiers' rear (L440) while the Orc Boyz fought their
    # front: the Halberdiers are Disrupted (L430) and the Boar Boyz on the rear, told as the
    # combat result reads them; a later combat result finds them no longer on a rear
    at = lines.index("    Halberdiers score 3, Orc Boyz score 14: combat result")
    assert lines[at - 2:at] == ["    Halberdiers: now Disrupted", "    Boar Boyz: now on rear"]
    assert "    Boar Boyz: no longer on rear" in lines[at:]
    # the quiet ones (outnumbering, on a flank, ...) are bookkeeping, never told
    assert not [line for line in lines if "outnumbering" in line or "on_flank" in line]
