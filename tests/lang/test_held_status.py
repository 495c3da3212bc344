"""A status held while a condition holds (``status NAME while C``): its condition is a
truth, and it is never applied, cleared or given by ``during`` (located errors)."""

from __future__ import annotations

from .test_checker import check, hints

HELD = '''status crowded while count(engaged_with(bearer)) > 1 @ L1
'''


def test_a_held_status_with_a_truth_checks_clean() -> None:
    assert check(HELD + '''action crowded_now(u: unit) @ L1
    return u is crowded or u is not crowded
''') == []


def test_its_condition_must_be_a_truth() -> None:
    assert check('''status crowded while count(engaged_with(bearer)) @ L1
''') == [(1, "wrong-type", "status 'crowded': 'while C': C must be a bool, got int")]


def test_it_cannot_be_applied_cleared_or_given_for_a_block() -> None:
    text = HELD + '''action jostle(u: unit) @ L1
    apply(crowded, u)
    clear(crowded, u)
    during crowded on u:
        log "jostles", u
'''
    assert check(text) == [
        (3, "held-status", "status 'crowded' holds while its condition holds: apply() cannot "
                           "give or take it away"),
        (4, "held-status", "status 'crowded' holds while its condition holds: clear() cannot "
                           "give or take it away"),
        (5, "held-status", "status 'crowded' holds while its condition holds: 'during' cannot "
                           "give or take it away")]
    assert hints(text)[0] == ("change what its condition reads, or declare a status without "
                              "'while' to apply() it")
