"""A list built from another in an order (``[e for each e in xs where c ordered by k]``):
the items kept, sorted by their key then by their place, the key and the condition read
with the item; keys that cannot be ordered are a located error; the checker reads the key
in the comprehension's scope."""

from __future__ import annotations

import pytest

from rules_run.chance import ScriptedChance
from rules_run.diagnostics import BattleError

from .test_checker import check
from .test_rolls import HEADER, kit

RULES = '''
action by_size(xs: list) @ L1
    return [x * 10 for each x in xs where x != 2 ordered by 0 - x]
action unordered(xs: list) @ L1
    return [x for each x in xs ordered by x]
action dice_in_order() @ L1
    return [d for each d in [D6, D6, D6] ordered by d]
'''


def invoke(rt, name: str, dice: list[int] | None = None, **args):
    return rt.invoke(name, rt.env(ScriptedChance(dice or [])), args)


def test_items_kept_and_sorted_by_key_then_place(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    # 2 left out; 4, 3, then the two 1s in their places
    assert invoke(rt, "by_size", xs=[1, 2, 3, 4, 1]) == [40, 30, 10, 10]
    assert invoke(rt, "by_size", xs=[]) == []
    assert invoke(rt, "dice_in_order", [5, 2, 4]) == [2, 4, 5]


def test_keys_that_cannot_be_ordered_are_located(tmp_path) -> None:
    rt = kit(tmp_path, RULES)
    with pytest.raises(BattleError) as caught:
        invoke(rt, "unordered", xs=[1, None])
    (d,) = caught.value.diagnostics
    line = (HEADER + RULES).splitlines().index("    return [x for each x in xs ordered by x]") + 1
    assert (d.code, d.span.line, d.span.column) == ("bad-operands", line, 43)
    assert d.message == "'ordered by' gave values that cannot be put in order: 1, none"


def test_the_key_is_checked_with_the_item_in_scope() -> None:
    assert check('''action nearest(xs: list) @ L1
    return [x for each x in xs ordered by distance(x, y)]
''') == [(2, "undefined-name", "undefined name 'y'")]
