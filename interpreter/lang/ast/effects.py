"""Rules and their effects: what a ``rule`` declaration changes, and how modifiers stack."""

from __future__ import annotations

from typing import ClassVar

from rules_run import slotted

from rules_run.diagnostics import Span
from rules_run.lang.ast.declarations import Decl, HookEffect, StatusDecl
from rules_run.lang.ast.expressions import Cite, CountedDice, DiceLit, Expr, Param
from rules_run.lang.ast.statements import Stmt
from rules_run.lang.ast.words import StackingPolicy

__all__ = [
    "Stacking", "Effect", "Modify", "RerollEffect", "DiceReroll", "DiceEffect", "RuleHook", "Grant",
    "Trigger", "AutoResult", "CharacteristicEffect", "Shield", "MarkEffect", "NotSimulated",
    "RuleDecl", "status_rule"
]


@slotted.frozen
class Stacking:
    span: Span
    policy: StackingPolicy
    cap: int | None = None


@slotted.frozen
class Effect:
    span: Span
    condition: Expr | None
    cite: Cite | None


@slotted.frozen
class Modify(Effect):
    """``modify to_hit [need|result] by e``."""

    roll: str = ""
    part: str = "result"
    amount: Expr = slotted.slot(kw_only=True)
    stacking: Stacking | None = None
    despite: str | None = None
    """``despite "RULE"``: it reaches a bearer that RULE makes unaffected by friendly gains."""


@slotted.frozen
class RerollEffect(Effect):
    """``reroll failed to_hit``."""

    which: str = "failed"
    roll: str = ""


@slotted.frozen
class DiceReroll(Effect):
    """``reroll lowest die of charge_roll if natural < 7``: some dice of a plain roll rolled
    again. ``pick`` is ``all`` (every die), ``lowest`` or ``highest`` (one die) or
    ``showing`` (each die showing one of ``faces``, or ``faces[0]`` or higher when
    ``or_more``). The condition is read after the dice are rolled, before modifiers: it sees
    the roll's arguments, ``natural`` and ``dice``. A die is re-rolled at most once."""

    pick: str = "all"
    roll: str = ""
    faces: tuple[int, ...] = ()
    or_more: bool = False


@slotted.frozen
class DiceEffect(Effect):
    """``roll charge_distance with lowest 2 of 3D6``: the roll's dice, set by a rule."""

    roll: str = ""
    dice: DiceLit | CountedDice = slotted.slot(kw_only=True)


@slotted.frozen
class RuleHook(Effect):
    """``on critical of attack.hit: chains 2``."""

    mark: str = ""
    sequence: str = ""
    step: str = ""
    effect: HookEffect = slotted.slot(kw_only=True)


@slotted.frozen
class Grant(Effect):
    """``grant "Swiftstride"``."""

    rule: str = ""


@slotted.frozen
class Trigger(Effect):
    """``when <event> [if c]: statements``."""

    event: str = ""
    body: tuple[Stmt, ...] = ()


@slotted.frozen
class AutoResult(Effect):
    """``pass nerve`` / ``fail x``: the test is not rolled."""

    result: str = "pass"
    test: str = ""
    every: bool = False
    """``pass every nerve``: the test and every test that reuses it
    (:func:`rules_run.lang.reuse.reusing`)."""


@slotted.frozen
class CharacteristicEffect(Effect):
    """``set WS to 10`` / ``add 1 to S`` / ``multiply S by 2`` / ``divide M by 2 rounding
    down`` [``minimum 1``] [``during combat_attack``]."""

    op: str = "add"
    """``set``, ``multiply``, ``divide`` or ``add``: also the order they apply in."""
    characteristic: str = ""
    amount: Expr = slotted.slot(kw_only=True)
    stacking: Stacking | None = None
    during: str | None = None
    """The roll, test or sequence it applies inside: its amount and condition then see that
    declaration's arguments (``charging``), and outside it the effect does nothing."""
    floor: int | None = None
    """``minimum N``: after this effect's stage the value is at least N."""
    round_up: bool = False
    """For ``divide``: ``rounding up`` (else ``rounding down``)."""


@slotted.frozen
class Shield(Effect):
    """``unaffected by friendly gains to hit_roll, Attacks``: modifiers from rules of the
    bearer's own side that help it are left off those rolls and characteristics."""

    names: tuple[str, ...] = ()
    """Rolls, tests and characteristics."""


@slotted.frozen
class MarkEffect(Effect):
    """``mark critical on hit_roll if natural >= 5``: the roll's result gets the mark when
    the condition holds. The condition is read after the dice are rolled: it sees the
    roll's arguments and ``natural``, ``result`` and ``dice``."""

    mark: str = ""
    roll: str = ""


@slotted.frozen
class NotSimulated(Effect):
    """``not simulated "why"``: the rule is catalogued but has no effect in simulation."""

    reason: str = ""


@slotted.frozen
class RuleDecl(Decl):
    """A special rule, command, spell or item effect, possibly parameterised."""

    KIND: ClassVar[str] = "rule"
    params: tuple[Param, ...] = ()
    effects: tuple[Effect, ...] = ()
    is_global: bool = False
    """``rule "..." is global``: it applies everywhere, carried by nobody (``bearer`` is
    none; a characteristic effect applies to every unit, with ``bearer`` that unit)."""


def status_rule(status: StatusDecl) -> RuleDecl:
    """The rule a unit carries while it has a status with effects: the status's name,
    parameters and effects."""
    return RuleDecl(span=status.span, name=status.name, cite=status.cite,
                    params=status.params, effects=status.effects)
