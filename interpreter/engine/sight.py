"""Range, line of sight and cover: generic builtins for shooting and visibility.

A mixin of :class:`interpreter.engine.state.BattleState`: each ``_b_<name>`` method is the
builtin ``<name>`` of the rules language (signatures in :mod:`interpreter.lang.builtins`).
"""

from __future__ import annotations

__all__ = ["SightMixin"]


class SightMixin:
    """What a unit can see and shoot at across the battlefield's terrain."""
