"""The things rules talk about at run time: units, weapons, and the rules they carry.

A *bearer* is anything that can carry rules (a unit, a weapon): rules attach to it as
:class:`RuleInstance` values (a rule declaration plus its arguments, as in
``Armour Piercing (1)``). Characteristics are read through the ruleset's runtime, which
applies the characteristic effects of the rules a bearer carries.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import attrs

from interpreter.lang import ast

__all__ = ["RuleInstance", "Bearer", "Weapon", "Unit"]


@attrs.frozen
class RuleInstance:
    """One rule as carried by a bearer: ``Ward Save (5+)`` is Ward Save with value 5."""

    rule: ast.RuleDecl
    args: Mapping[str, Any]
    """Parameter name -> value (int, dice expression, words)."""
    text: str
    """As written in the data (``Ward Save (5+)``)."""


class Bearer:
    """Something that carries rules, keywords and statuses."""

    kind = "thing"

    def __init__(self, rules: list[RuleInstance] | None = None,
                 keywords: set[str] | None = None) -> None:
        self.rules: list[RuleInstance] = rules or []
        self.keywords: set[str] = keywords or set()
        self.statuses: dict[str, str | None] = {}
        """Status name -> when it wears off (``turn``, ``phase``, ...; None: until removed)."""

    def has_rule(self, name: str) -> bool:
        """Carries a rule of that name (or keyword)."""
        return name in self.keywords or any(r.rule.name == name or r.text == name
                                            for r in self.rules)

    def rule_instances(self, name: str) -> list[RuleInstance]:
        """The instances of a rule this bearer carries."""
        return [r for r in self.rules if r.rule.name == name]


class Weapon(Bearer):
    """A weapon profile carried by a unit's models."""

    kind = "weapon"

    def __init__(self, name: str, profile: Mapping[str, Any], rules: list[RuleInstance],
                 owner: Unit | None = None) -> None:
        super().__init__(rules)
        self.name = name
        self.profile = dict(profile)
        self.owner = owner

    def __repr__(self) -> str:
        return f"Weapon({self.name!r})"


class Unit(Bearer):
    """A unit in a battle (or in an odds calculation)."""

    kind = "unit"

    def __init__(
        self,
        id: str,
        name: str,
        side: str,
        profile: Mapping[str, Any],
        models: int,
        *,
        files: int | None = None,
        rules: list[RuleInstance] | None = None,
        keywords: set[str] | None = None,
        equipment: list[Mapping[str, Any]] | None = None,
        weapons: list[Weapon] | None = None,
        command: Mapping[str, Any] | None = None,
        values: Mapping[str, Any] | None = None,
        points: int = 0,
        type: str | None = None,
    ) -> None:
        super().__init__(rules, keywords)
        self.id = id
        self.name = name
        self.side = side
        self.profile: dict[str, Any] = dict(profile)
        self.models = models
        self.starting_models = models
        self.files = files or min(models, 5)
        self.equipment = list(equipment or [])
        self.weapons = list(weapons or [])
        for w in self.weapons:
            w.owner = self
        self.command = dict(command or {})
        self.values = dict(values or {})
        """Named values from the unit data and the battle file (the battle's win)."""
        self.points = points
        self.type = type
        """The troop type the unit data gives (``infantry``), if any."""
        self.damage = 0
        """Damage points on the current (next to die) model."""
        self.counters: dict[str, int] = {}

    def fresh(self) -> Unit:
        """A copy for a new battle: shared rules and data, its own changing state."""
        twin = copy.copy(self)
        twin.profile = dict(self.profile)
        twin.keywords = set(self.keywords)
        twin.statuses = dict(self.statuses)
        twin.counters = dict(self.counters)
        twin.values = dict(self.values)
        twin.rules = list(self.rules)
        return twin

    def __repr__(self) -> str:
        return f"Unit({self.id!r})"
