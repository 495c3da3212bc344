"""How the runtime reaches the battle: Protocols the engine fulfils, never an import of it.

The runtime sits below the engine (layers flow lang -> editions -> runtime -> engine). Code
it generates still calls into a battle (a builtin such as ``move_toward``, an ``activate``
statement, a trigger fired after a roll), so it names here what it needs of one, as
openfisca-core's ``types.py`` does: the engine's ``BattleState`` fulfils
:class:`BattleState` structurally, and the engine's table of builtins is handed to
:func:`rules_run.runtime.compiled.compile_ruleset` as :data:`Builtins`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from rules_run.diagnostics import Span

__all__ = ["Builtin", "Builtins", "BattleState"]

Builtin = Callable[..., Any]
"""A battle builtin, called as ``fn(state, env, span, *args, **named)``: the battle state
(:class:`BattleState`), the evaluation's ``Env``, the call's place in the rules, then the
call's own arguments (those the rules name by keyword as ``**named``)."""

Builtins = Mapping[str, Builtin]
"""The battle's builtins by name (the engine's registry); generated code calls them
directly."""


class BattleState(Protocol):
    """What the runtime asks of a battle's state (the engine's ``BattleState``)."""

    @property
    def round(self) -> int:
        """The battle round being played (0 before the first)."""

    @property
    def active_side(self) -> str | None:
        """The side whose turn it is, if any."""

    @property
    def phase(self) -> str | None:
        """The phase being played, if any."""

    @property
    def attacking(self) -> bool:
        """Whether attacks are being resolved (their rolls are summarised in narration)."""

    def fire(self, env: Any, event: str, args: dict[str, Any] | None = None) -> None:
        """Run the ``when <event>`` effects of the rules in play."""

    def use_once(self, period: str, key: tuple[Any, ...]) -> bool:
        """Mark an action ``once per period`` as run for ``key``; False if it had already
        run for it in this period."""

    def enter_phase(self, env: Any, name: str, body: Callable[[], Any]) -> Any:
        """Run a phase's ``body`` inside the phase ``name``; its value."""

    def activate(self, env: Any, vars: dict, var: str, units: Sequence[Any], order: str,
                 start: Any, picker: str | None, body: Callable[[Any, dict], Any],
                 may: Callable[[Any], bool] | None = None) -> None:
        """Run ``body`` for units one at a time (``activate``), sides taking turns."""

    def builtin(self, env: Any, name: str, args: list[Any], span: Span,
                named: dict[str, Any] | None = None) -> Any:
        """Run the battle builtin ``name`` (reports one not available in battles)."""
