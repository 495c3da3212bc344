"""The table of the battle's builtins, the decorator that fills it, and what they share.

Each builtin of the rules language that needs a battle is a plain function, registered
under its name by :func:`builtin` and called as ``fn(state, env, span, *args, **named)``:
``state`` is the :class:`~rules_run.engine.state.BattleState`, ``env`` the run's
environment, ``span`` where the call stands in the rules (for errors). Generated rule code
calls the functions of :data:`BUILTINS` directly. Their signatures, as the checker knows
them, are in :mod:`rules_run.lang.builtins`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from rules_run.diagnostics import BattleError, DiagnosticBag, Span
from rules_run.engine.entities import Unit

__all__ = ["BUILTINS", "builtin", "fail", "files_ranks", "name_of"]

BUILTINS: dict[str, Callable[..., Any]] = {}
"""Builtin name -> the function that runs it, ``fn(state, env, span, *args, **named)``
(filled by :func:`builtin` as the modules of :mod:`rules_run.engine.builtins` load)."""

F = TypeVar("F", bound=Callable[..., Any])


def builtin(name: str) -> Callable[[F], F]:
    """Register the decorated function as the builtin ``name`` (once: a second function of
    the same name is a programming error)."""
    def register(fn: F) -> F:
        assert name not in BUILTINS, f"two functions for the builtin {name!r}"
        BUILTINS[name] = fn
        return fn
    return register


def fail(message: str, span: Span | None, code: str = "battle") -> BattleError:
    """A battle error at ``span`` to raise: a builtin given what it cannot use."""
    return BattleError([DiagnosticBag().add(message, span, code=code)])


def files_ranks(unit: Unit) -> tuple[int, int]:
    """How many models wide and how many ranks deep the unit stands: ``files`` across (no
    more than its models), as many ranks as its models fill."""
    files = max(1, min(unit.files, unit.models or 1))
    return files, max(1, math.ceil((unit.models or 1) / files))


def name_of(value: Any) -> Any:
    """How a value is named in events and orders: a unit by its id, a declared thing by its
    name, a plain value as itself."""
    if isinstance(value, Unit):
        return value.id
    return getattr(value, "name", value) if not isinstance(value, (str, int, float, bool,
                                                                   type(None))) else value
