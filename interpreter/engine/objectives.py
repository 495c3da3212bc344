"""Objectives and the control of ground: generic builtins for scoring by position.

A mixin of :class:`interpreter.engine.state.BattleState`: each ``_b_<name>`` method is the
builtin ``<name>`` of the rules language (signatures in :mod:`interpreter.lang.builtins`).
"""

from __future__ import annotations

__all__ = ["ObjectivesMixin"]


class ObjectivesMixin:
    """Objective markers from the battle file, and who controls them."""
