"""The hand-written callbacks of dice: pools, kept dice, counted dice and their checks.

The grammar reads ``3D6``, ``highest 2 of 3D6`` or ``count 6 in 3D6`` as it reads any
words; these refuse what rolls no dice or counts faces a die does not have.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token
from lark.tree import Meta

from rules_run import slotted
from rules_run.lang import ast
from rules_run.lang.builder.core import AstBuilder, BuildError, Callback, FacePick

__all__ = ["CALLBACKS", "DICE_RE"]

DICE_RE = re.compile(r"([0-9]*)D([0-9]+)(?:x([0-9]+))?")
"""A DICE token: count, sides and multiplier (the grammar's DICE terminal, in groups)."""


def dice_parts(b: AstBuilder, token: Token) -> tuple[int, int, int]:
    """A DICE token's count, sides and multiplier (``2D6x5``: 2, 6, 5).

    Raises:
        BuildError: when it rolls no dice (``0D6``, ``D1``).
    """
    m = DICE_RE.fullmatch(str(token))
    assert m is not None
    count = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    times = int(m.group(3)) if m.group(3) else 1
    if count < 1 or sides < 2:
        raise BuildError(f"{str(token)!r} rolls no dice", b.tspan(token), code="bad-dice")
    return count, sides, times


def dice_pool(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DiceLit:
    count, sides, times = dice_parts(b, c[0])
    return ast.DiceLit(b.span(meta), count, sides, times)


def _keeping(which: str) -> Callback:
    """The callback of ``highest [n] of`` / ``lowest [n] of`` a pool."""
    def keep(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DiceLit:
        keep_count = int(c[0]) if len(c) == 2 else 1
        count, sides, times = dice_parts(b, c[-1])
        if keep_count > count:
            raise BuildError(f"cannot keep the {which} {keep_count} of {count} dice",
                             b.span(meta), code="bad-dice")
        return ast.DiceLit(b.span(meta), count, sides, times, which, keep_count)
    return keep


def dice_counted(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.CountedDice:
    number, token = c
    count, sides, times = dice_parts(b, token)
    if count != 1 or times != 1 or str(token)[0].isdigit():
        raise BuildError(f"a counted number of dice takes one die: write 'n D{sides}', "
                         f"not 'n {token}'", b.tspan(token), code="bad-dice")
    return ast.CountedDice(b.span(meta), ast.DiceLit(b.tspan(token), 1, sides), number)


def dice_count(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.CountedDice:
    pick: FacePick = c[0]
    counted = c[1]
    if isinstance(counted, ast.DiceLit):
        counted = ast.CountedDice(counted.span, counted)
    pool = counted.pool
    if pool.keep or pool.times != 1 or pool.die_name or counted.counting:
        what = "a count" if counted.counting else f"'{pool.text()}'"
        raise BuildError(f"only a pool of dice is counted, as in 'count 6 in 3D6', not "
                         f"{what}", counted.span, code="bad-dice")
    return slotted.evolve(counted, counting=_picked(b, pick, pool.sides), span=b.span(meta))


def _picked(b: AstBuilder, pick: FacePick, sides: int) -> tuple[int, ...]:
    """The faces of a D``sides`` that ``pick`` names (``6``, ``5, 6``, ``5+``).

    Raises:
        BuildError: when the die has no such face.
    """
    if pick.faces[0].endswith("+"):
        lowest = int(pick.faces[0][:-1])
        faces = tuple(range(lowest, sides + 1))
    else:
        faces = tuple(sorted({int(f) for f in pick.faces}))
        lowest = faces[0]
    # a D3 shows 1 to 3 (compiler: a D6 read halved)
    missing = [f for f in faces or (lowest,) if not 1 <= f <= sides]
    if missing or not faces:
        raise BuildError(f"a D{sides} has no face {missing[0] if missing else lowest}"
                         f" to count; its faces are 1 to {sides}", pick.span,
                         code="bad-dice")
    return faces


def dice_adding(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.CountedDice:
    """``power D6 each 6 adds D6``: a pool whose dice showing those faces add a die each."""
    grows, pick, added = c
    if isinstance(grows, ast.DiceLit):
        grows = ast.CountedDice(grows.span, grows)
    pool = grows.pool
    if pool.keep or pool.times != 1 or pool.die_name or grows.counting or pool.plus:
        raise BuildError(f"only a pool of dice grows, as in '2D6 each 6 adds D6', not "
                         f"'{pool.text() if not grows.counting else 'a count'}'", grows.span,
                         code="bad-dice")
    if not isinstance(added, ast.DiceLit) or (added.die_name is None and (
            added.count != 1 or added.keep or added.times != 1 or added.plus)):
        raise BuildError("each face adds one die, as in 'each 6 adds D6'", b.span(meta),
                         code="bad-dice")
    return slotted.evolve(grows, adding=_picked(b, pick, pool.sides), added=added,
                        span=b.span(meta))


def dice_cell(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.CellDice:
    """``spell_data[s, "hits"]``: a roll's dice read from a table's cell (the checker holds
    the name against the tables)."""
    name, *keys = c
    target = ast.Name(b.tspan(name), str(name))
    return ast.CellDice(b.span(meta), ast.Lookup(b.span(meta), target, tuple(keys)))


def dice_plus(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DiceLit:
    base, op, amount = c
    plus = int(amount) if str(op) == "+" else -int(amount)
    return slotted.evolve(base, plus=base.plus + plus, span=b.span(meta))


def dice_reroll_effect(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DiceReroll:
    """``reroll lowest die of charge_roll``, ``reroll dice showing 1, 2 of NAME``,
    ``reroll dice showing 5+ of NAME``: which dice of a plain roll are rolled again (the
    checker holds the faces against the roll's dice)."""
    pick, picked = b.part(c, "pick")
    faces: tuple[int, ...] = ()
    or_more = False
    if isinstance(picked, FacePick):
        or_more = picked.faces[0].endswith("+")
        faces = (int(picked.faces[0][:-1]),) if or_more else tuple(
            sorted({int(f) for f in picked.faces}))
    name = next(str(t) for t in c if isinstance(t, Token) and t.type == "NAME")
    return ast.DiceReroll(span=b.span(meta), condition=b.part(c, "condition"), cite=b.cite(c),
                          pick=pick, roll=name, faces=faces, or_more=or_more)


CALLBACKS: dict[str, Callback] = {
    "dice_pool": dice_pool,
    "dice_atom": dice_pool,
    "dice_highest": _keeping("highest"),
    "dice_lowest": _keeping("lowest"),
    "dice_counted": dice_counted,
    "dice_count": dice_count,
    "dice_adding": dice_adding,
    "dice_plus": dice_plus,
    "dice_cell": dice_cell,
    "dice_reroll_effect": dice_reroll_effect,
}
"""The hand-written dice callbacks, by grammar rule."""
