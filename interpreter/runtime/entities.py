"""The things rules talk about at run time: units, weapons, and the rules they carry.

A *bearer* is anything that can carry rules (a unit, a weapon): rules attach to it as
:class:`RuleInstance` values (a rule declaration plus its arguments, as in
``Armour Piercing (1)``). Characteristics are read through the ruleset's runtime, which
applies the characteristic effects of the rules a bearer carries.

They sit in the runtime (below the engine): compiled rules read them, and the engine places,
moves and changes them in a battle.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeGuard, TypeVar

from rules_run import slotted
from rules_run.lang import ast
from rules_run.space import MM_PER_INCH, Pose

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = [
    "RuleInstance", "StatusWith", "TurnKey", "Bearer", "Weapon", "Part", "Group", "Unit",
    "DEFAULT_BASE_MM", "placed", "wounds_per_model", "event_id",
]

DEFAULT_BASE_MM = (20.0, 20.0)
"""A model's base when neither the unit data nor the battle file gives one."""


@slotted.frozen
class RuleInstance:
    """One rule as carried by a bearer: ``Ward Save (5+)`` is Ward Save with value 5."""

    rule: ast.RuleDecl
    args: Mapping[str, Any]
    """Parameter name -> value (int, dice expression, words)."""
    text: str
    """As written in the data (``Ward Save (5+)``)."""


class StatusWith(str):
    """A status's name with the arguments it is applied with (``enfeebled(2)``): text, as
    every status's name is, that also carries ``args``."""

    __slots__ = ("args",)
    args: Mapping[str, Any]

    def __new__(cls, name: str, args: Mapping[str, Any]) -> StatusWith:
        made = super().__new__(cls, name)
        made.args = args
        return made


@slotted.frozen
class TurnKey:
    """When a status lasting ``until end of its next turn`` (or ``of next turn``) wears off:
    at the end of a player turn numbered above ``after``, of ``side`` (None: any side)."""

    side: str | None
    """The side whose turn it waits for; None: the next turn to start, whoever's."""
    after: int
    """The number of the player turn it was applied in (0: before the first)."""

    def ends(self, side: str | None, turn: int) -> bool:
        """Whether it wears off at the end of turn number ``turn``, of ``side``."""
        return turn > self.after and (self.side is None or self.side == side)



_Kept = TypeVar("_Kept", bound=tuple)


def still_kept(kept: _Kept | None, owner: Any, items: list) -> TypeGuard[_Kept]:
    """Whether an answer kept as ``(owner, items, len(items), answer...)`` still holds: it
    was worked out for the same owner (a runtime, or None) from this same list at this same
    length. The lists it watches are replaced or appended to when they change, never
    changed in place otherwise (the attributes of :attr:`Bearer.KEPT`)."""
    return (kept is not None and kept[1] is items and kept[2] == len(items)
            and kept[0] is owner)

class Bearer:
    """Something that carries rules, keywords and statuses."""

    kind = "thing"

    def __init__(self, rules: list[RuleInstance] | None = None,
                 keywords: set[str] | None = None) -> None:
        self.rules: list[RuleInstance] = rules or []
        self.keywords: set[str] = keywords or set()
        self.statuses: dict[str, str | TurnKey | None] = {}
        """Status name -> when it wears off (``turn``, ``phase``, ..., a :class:`TurnKey`;
        None: until removed)."""
        self.status_rules: dict[str, RuleInstance] = {}
        """Status name -> the rule its effects make, carried (in ``rules``) while it lasts."""
        self._rule_names: tuple[None, list[RuleInstance], int, frozenset[str]] | None = None
        """(None, ``rules``, its length, their names and texts): kept while that list and its
        length stay (:func:`still_kept`)."""
        self._in_play: tuple[Any, list[RuleInstance], int, list[RuleInstance]] | None = None
        """(runtime, ``rules``, its length, the rules in play they give): kept by
        :meth:`Runtime.rules_in_play` while no condition of the battle decides them."""
        self._played: tuple[Any, list[RuleInstance], int, frozenset[str],
                            frozenset[str]] | None = None
        """(runtime, a list of rules in play, its length, their names and texts, the
        characteristics their effects and the global rules' change): kept by
        :meth:`Runtime.in_play_facts` while that list and its length stay."""

    def gain_status(self, name: str, until: str | TurnKey | None,
                    inst: RuleInstance | None = None) -> bool:
        """Have the status until ``until``, carrying ``inst`` (its effects) while it lasts;
        whether it is new."""
        fresh = name not in self.statuses
        self.statuses[name] = until
        old = self.status_rules.pop(name, None)
        if old is not None:
            self.rules = [r for r in self.rules if r is not old]
        if inst is not None:
            self.status_rules[name] = inst
            self.rules = [*self.rules, inst]
        return fresh

    def lose_status(self, name: str) -> bool:
        """No longer have the status (nor the rule of its effects); whether it had it."""
        if name not in self.statuses:
            return False
        del self.statuses[name]
        old = self.status_rules.pop(name, None)
        if old is not None:
            self.rules = [r for r in self.rules if r is not old]
        return True

    KEPT = frozenset({"_rule_names", "_in_play", "_played", "_items_modify"})
    """The attributes that keep answers worked out from the bearer's rules (and a unit's
    items): what a battle's state key leaves out."""

    def has_rule(self, name: str) -> bool:
        """Carries a rule of that name (or keyword)."""
        if name in self.keywords:
            return True
        rules, known = self.rules, self._rule_names
        if still_kept(known, None, rules):
            return name in known[3]
        names = frozenset(n for r in rules for n in (r.rule.name, r.text))
        self._rule_names = (None, rules, len(rules), names)
        return name in names

    def rule_instances(self, name: str) -> list[RuleInstance]:
        """The instances of a rule this bearer carries."""
        return [r for r in self.rules if r.rule.name == name]

    def copied(self) -> Self:
        """A shallow copy with its own statuses and rules (they change in a battle); the
        rest is shared."""
        twin = copy.copy(self)
        twin.statuses = dict(self.statuses)
        twin.status_rules = dict(self.status_rules)
        twin.rules = list(self.rules)
        return twin


class Weapon(Bearer):
    """A weapon profile carried by a unit's models."""

    kind = "weapon"

    def __init__(self, name: str, profile: Mapping[str, Any], rules: list[RuleInstance],
                 owner: Bearer | None = None) -> None:
        super().__init__(rules)
        self.name = name
        self.profile = dict(profile)
        self.owner = owner
        """Who carries it: a unit, or the part of its models that does (a mount's)."""

    def __repr__(self) -> str:
        return f"Weapon({self.name!r})"


class Part(Bearer):
    """A named part of each model of a unit (a rider and its mount, a crew and its machine):
    its own characteristics, rules, keywords and weapons, from the unit data's ``parts:``.

    A characteristic its profile does not give is its unit's. The rules of the unit do not
    reach it, nor its statuses: what the part carries is its own (``part(u, "mount")``)."""

    kind = "part"

    def __init__(self, id: str, name: str, profile: Mapping[str, Any],
                 rules: list[RuleInstance], keywords: set[str], weapons: list[Weapon],
                 owner: Unit | None = None) -> None:
        super().__init__(rules, keywords)
        self.id = id
        """The part's key in the data (``mount``): what rules name it by."""
        self.name = name
        """Its display name (``Warhorse``)."""
        self.profile = dict(profile)
        self.weapons = weapons
        self.owner = owner

    def fresh_for(self, unit: Unit) -> Part:
        """A copy belonging to ``unit`` (a unit's :meth:`Unit.fresh`): its own statuses, its
        weapons carried by the copy."""
        twin = self.copied()
        twin.owner = unit
        twin.weapons = [w.copied() for w in self.weapons]
        for w in twin.weapons:
            w.owner = twin
        return twin

    def __repr__(self) -> str:
        return f"Part({self.id!r})"


class Group(Bearer):
    """Some of a unit's models that differ from the rest (``groups:`` in the unit data or
    the battle file): how many they are, the weapons they carry, the characteristics they
    have of their own (a save of their own in a mixed unit) and their own rules.

    A characteristic its profile does not give is its unit's. The unit's models are the sum
    of its groups' (checked at set-up); casualties come off a group (``inflict(g, ...)``),
    or off the unit's groups in their data order."""

    kind = "group"

    def __init__(self, name: str, models: int, profile: Mapping[str, Any],
                 rules: list[RuleInstance], weapons: list[Weapon],
                 owner: Unit | None = None) -> None:
        super().__init__(rules)
        self.name = name
        self.models = models
        """Its models still alive."""
        self.starting_models = models
        self.profile = dict(profile)
        self.weapons = weapons
        self.owner = owner

    def fresh_for(self, unit: Unit) -> Group:
        """A copy belonging to ``unit`` (a unit's :meth:`Unit.fresh`): its own models and
        statuses."""
        twin = self.copied()
        twin.owner = unit
        return twin

    def __repr__(self) -> str:
        return f"Group({self.name!r})"


class Unit(Bearer):
    """A unit in a battle (or in an odds calculation).

    Besides what the data gives, a unit carries its battle state: where it stands, what it
    fights, whom it moves with, whether it is still in the battle. The engine sets and
    changes that state (:class:`rules_run.engine.state.BattleState`); a unit outside a
    battle keeps the starting values.
    """

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
        self.files = files or models
        """How many models wide it stands (without a number: one rank, as wide as the unit;
        the ruleset's ``default_files`` gives the usual width, ``engine.setup``)."""
        self.all_equipment = list(equipment or [])
        """Every item the unit carries, in data order (``equipment``: those in use)."""
        self.item_ids: list[str] = []
        """The ids of ``all_equipment``, when the unit was set up from data."""
        self.item_rules: list[tuple[int | None, RuleInstance]] = []
        """Each rule the unit was set up with and the index of the item that gave it (None:
        its profile or the battle file), to rebuild ``rules`` when it wields another item."""
        self.idle: frozenset[int] = frozenset()
        """Indexes of ``all_equipment`` not in use (the other items of an alternative)."""
        self.equipment = list(self.all_equipment)
        self._items_modify: tuple[None, list[Mapping[str, Any]], int,
                                  frozenset[str]] | None = None
        """(None, ``equipment``, its length, the characteristics its items change)."""
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
        self.parts: dict[str, Part] = {}
        """The parts of each of its models by name (rider, mount), from its data."""
        self.groups: list[Group] = []
        """Its groups of models, in data order (none: all its models are alike)."""
        # battle state
        self.wounds_each = 1
        """Damage points a model takes before it is slain (the ruleset's ``as wounds``)."""
        self.base_w = DEFAULT_BASE_MM[0] / MM_PER_INCH
        """A model's base across the front, in inches."""
        self.base_d = DEFAULT_BASE_MM[1] / MM_PER_INCH
        """A model's base front to back, in inches."""
        self.spacing = 0.0
        """Inches between neighbouring models' bases, across a rank and between ranks
        (``space_models``): 0 for a close-ranked block."""
        self.pose: Pose | None = None
        """Where it stands now and which way it faces (None: not placed)."""
        self.home: Pose | None = None
        """Where the battle file puts it: where a unit set aside arrives."""
        self.on_table = True
        """Still on the battlefield (False once it leaves it or is set aside)."""
        self.set_aside = False
        """Waiting off the table (reserves), to arrive later."""
        self.destroyed = False
        """Out of the battle for good: its last model slain, or destroyed outright."""
        self.engaged: list[Unit] = []
        """The units in base contact with it."""
        self.leader: Unit | None = None
        """The unit it is attached to (moves and fights with), or None."""
        self.followers: list[Unit] = []
        """The units attached to it."""

    def items_modify(self) -> frozenset[str]:
        """The characteristics its items in use change (their ``modifies:``), kept while
        ``equipment`` is the same list (``_items_modify``)."""
        equipment, kept = self.equipment, self._items_modify
        if still_kept(kept, None, equipment):
            return kept[3]
        names = frozenset(n for item in equipment for n in item.get("modifies") or ())
        self._items_modify = (None, equipment, len(equipment), names)
        return names

    @property
    def wounds(self) -> int:
        """Wounds (health) left on the unit: each model's, less the damage on the wounded
        one."""
        return max(0, self.models * self.wounds_each - self.damage)

    def fresh(self) -> Unit:
        """A copy for a new battle: shared rules and data, its own changing state.

        The copy is in no combat and attached to nothing: those links name units of
        another battle.
        """
        twin = self.copied()
        twin.profile = dict(self.profile)
        twin.keywords = set(self.keywords)
        twin.counters = dict(self.counters)
        twin.values = dict(self.values)
        twin.parts = {name: part.fresh_for(twin) for name, part in self.parts.items()}
        twin.groups = [group.fresh_for(twin) for group in self.groups]
        twin.engaged = []
        twin.leader = None
        twin.followers = []
        return twin

    def __repr__(self) -> str:
        return f"Unit({self.id!r})"


def use_items(runtime: Runtime, unit: Unit, idle: frozenset[int]) -> None:
    """Set which of a unit's items are not in use (``idle``): only the others give their
    characteristics, values and rules (and what those rules grant)."""
    unit.idle = idle
    unit.equipment = [item for i, item in enumerate(unit.all_equipment) if i not in idle]
    unit.rules = [inst for source, inst in unit.item_rules if source not in idle]
    runtime.apply_grants(unit)
    unit.rules.extend(unit.status_rules.values())   # its statuses' effects stay


def event_id(thing: Any) -> Any:
    """What events name a bearer by: a unit's id (a weapon's name); a part's or a group's
    unit's id and its own, ``riders.mount``."""
    if isinstance(thing, (Part, Group)) and thing.owner is not None:
        return f"{thing.owner.id}.{thing.id if isinstance(thing, Part) else thing.name}"
    return getattr(thing, "id", None)


def placed(unit: Unit) -> Pose:
    """Where a unit of a battle stands: the battle places every unit before it starts."""
    assert unit.pose is not None, f"{unit!r} is not placed"
    return unit.pose


def wounds_per_model(runtime: Runtime, unit: Unit) -> int:
    """Damage points a model of the unit takes before it is slain: its characteristic the
    ruleset declares ``as wounds`` (at least 1; 1 when the ruleset declares none)."""
    name = runtime.role("wounds")
    value = runtime.characteristic(None, unit, name) if name else 1
    return max(1, int(value or 1))
