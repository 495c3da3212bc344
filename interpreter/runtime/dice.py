"""Dice literals of the rules (``2D6``, ``D3``, ``4D6 keep highest 2``, ``levels D6``) as the
chance layer's dice expressions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_run import slotted

from rules_run.chance import (
    D6,
    Adding,
    CountFaces,
    DiceExpr,
    Die,
    KeepHighest,
    KeepLowest,
    Plus,
    Pool,
    Times,
)
from rules_run.chance.dice import Face
from rules_run.data.tables import Table
from rules_run.lang import ast

__all__ = ["dice_of", "dice_table"]


def dice_table(table: Table) -> Table:
    """``table`` with each cell typed ``dice`` that the loader read as dice
    (:func:`rules_run.editions.contents.read_dice_cells`) as the chance layer's dice
    expression; a whole number or null stays as it is. A table without dice cells is itself."""
    if not table.dice_cells:
        return table
    cells: dict[Any, Any] = dict(table.cells)   # dice cells change type
    for keys in table.dice_cells:
        lit = cells[keys]
        if isinstance(lit, ast.DiceLit):
            cells[keys] = dice_of(lit)
    return slotted.evolve(table, cells=cells)


def dice_of(lit: ast.DiceLit | ast.CountedDice,
            dice_decls: Mapping[str, ast.DieDecl] | None = None) -> DiceExpr:
    """The chance-layer dice expression for a dice literal (``D3`` is a D6 halved up)."""
    if isinstance(lit, ast.CountedDice):
        return _counted_of(lit, dice_decls)
    if lit.die_name is not None:
        decl = (dice_decls or {})[lit.die_name]
        expr: DiceExpr = Face(Die(tuple(decl.faces), decl.name))
    elif lit.sides == 3:
        expr = _d3_pool(lit.count)
    else:
        die = D6 if lit.sides == 6 else Die.standard(lit.sides)
        pool = Pool(lit.count, die)
        if lit.keep == "highest":
            expr = KeepHighest(lit.keep_count, pool)
        elif lit.keep == "lowest":
            expr = KeepLowest(lit.keep_count, pool)
        else:
            expr = pool
    if lit.times != 1:
        expr = Times(expr, lit.times)
    if lit.plus:
        expr = Plus(expr, lit.plus)
    return expr


_D3_DIE = Die((1, 1, 2, 2, 3, 3), "D3")
"""A D3: a D6 read halved, rounding up (1-2 → 1, 3-4 → 2, 5-6 → 3). Modelled as a die with
those faces, so ``2D3`` is two such dice summed and scripted dice give the D3's value."""


def _d3_pool(count: int) -> DiceExpr:
    return Pool(count, _D3_DIE)


def _counted_of(counted: ast.CountedDice,
                dice_decls: Mapping[str, ast.DieDecl] | None) -> DiceExpr:
    """Counted dice whose number is known: a pool, how many of its dice show some faces, or
    a pool that grows by a die for each die showing some faces."""
    assert counted.number is None, "a counted number is worked out before rolling"
    pool = dice_of(counted.pool)
    assert isinstance(pool, Pool), "the parser counts a plain pool only"
    expr: DiceExpr = CountFaces(pool, counted.counting) if counted.counting else pool
    if counted.added is not None:
        added = dice_of(counted.added, dice_decls)
        assert isinstance(added, (Pool, Face)), "the parser adds one die a face"
        expr = Adding(pool, counted.adding, added.die)
    return Plus(expr, counted.plus) if counted.plus else expr
