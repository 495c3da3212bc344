"""The AST builder: lark's parse tree to :mod:`rules_run.lang.ast` nodes.

One callback per grammar rule. Most only build a node from their children; they are
generated from the table in :mod:`~rules_run.lang.builder.table` (as lark's
``ast_utils.create_transformer`` derives callbacks from AST classes, but by table, since a
node's fields are not its children in order). The rest are written out, by part of the
language: :mod:`~rules_run.lang.builder.declarations`, :mod:`~rules_run.lang.builder.dice`
and :mod:`~rules_run.lang.builder.statements`. A grammar rule has one callback: a name in
two tables is refused when the package loads.
"""

from __future__ import annotations

from rules_run.lang.builder import core, declarations, dice, statements, table
from rules_run.lang.builder.core import AstBuilder, BuildError, position

__all__ = ["AstBuilder", "BuildError", "position"]


def _callbacks() -> dict[str, core.Callback]:
    """Every table of callbacks, merged; a rule named twice is a mistake here."""
    merged: dict[str, core.Callback] = {}
    for callbacks in (table.GENERATED, declarations.CALLBACKS, dice.CALLBACKS,
                      statements.CALLBACKS):
        twice = merged.keys() & callbacks.keys()
        assert not twice, f"grammar rules with two callbacks: {sorted(twice)}"
        merged.update(callbacks)
    return merged


AstBuilder.install(_callbacks())
