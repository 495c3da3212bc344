"""A loop that re-reads its condition (``for each x in xs where c while k``): ``where`` picks
the items before the loop runs, ``while`` is read again before each item (after the body
changed the locals) and ends the loop at the first item for which it does not hold; a
``while`` that reads nothing the loop changes is a located error."""

from __future__ import annotations

from rules_run.chance import ScriptedChance

from .test_checker import check, hints
from .test_rolls import kit

RULES = '''
action share_out(over: int, room: list) @ L1
    let given = []
    for each r in room where r > 0 while over > 0:
        let share = min(over, r)
        given = given + [share]
        over -= share
    return given
action picked_once(over: int, room: list) @ L1
    let given = []
    for each r in room where r > 0 and over > 0:
        given = given + [min(over, r)]
        over -= min(over, r)
    return given
action until_a_six(faces: list) @ L1
    let seen = []
    for each d in faces ordered by 0 - d while d < 6:
        seen = seen + [d]
    return seen
action sixes_first(n: int) @ L1
    let rolled = []
    for each i in numbers(1, n) while count([x for each x in rolled where x == 6]) == 0:
        rolled = rolled + [D6]
    return rolled
'''


def invoke(rt, name: str, dice: list[int] | None = None, **args):
    return rt.invoke(name, rt.env(ScriptedChance(dice or [])), args)


def test_while_is_read_again_before_each_item(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    # 5 wounds over room of 3, 0 (left out by where), 4, 2: 3, then 2, then the loop ends
    assert invoke(rt, "share_out", over=5, room=[3, 0, 4, 2]) == [3, 2]
    assert invoke(rt, "share_out", over=0, room=[3, 4]) == []
    assert invoke(rt, "share_out", over=9, room=[3, 4]) == [3, 4]
    # a where is read once, before the loop: the body's change to `over` does not stop it
    assert invoke(rt, "picked_once", over=5, room=[3, 0, 4, 2]) == [3, 2, 0]


def test_while_reads_the_item_after_the_order(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    # sorted 6, 5, 2: the first item already fails, so nothing is kept
    assert invoke(rt, "until_a_six", faces=[2, 6, 5]) == []
    assert invoke(rt, "until_a_six", faces=[2, 4, 5]) == [5, 4, 2]


def test_while_stops_the_dice_the_body_would_roll(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    # the loop ends after the first 6: the scripted 4 after it is never rolled
    assert invoke(rt, "sixes_first", [2, 6, 4], n=3) == [2, 6]
    assert invoke(rt, "sixes_first", [1, 2, 3], n=3) == [1, 2, 3]


def test_a_while_the_loop_cannot_change_is_located() -> None:
    text = '''action spread(over: int, room: list) @ L1
    let given = []
    for each r in room while over > 0:
        given = given + [r]
    return given
'''
    assert check(text) == [(3, "fixed-while", "'while' of a 'for each' reads nothing the loop "
                                             "changes, so it would end the loop before its "
                                             "first item or never")]
    assert hints(text) == ["test it once with 'if' before the loop, or read the loop's 'r' or "
                           "a local its body changes"]


def test_a_while_must_be_a_truth() -> None:
    assert check('''action spread(room: list) @ L1
    for each r in room while count(room) + 1:
        log "spreads", r
''') == [(2, "wrong-type", "'while' of a 'for each' must be a bool, got int")]
