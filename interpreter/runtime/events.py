"""Typed event records: one class per kind of event a battle logs (docs/event-log.md).

A record holds its kind's own fields and where it happened: ``seq`` (1, 2, 3, ... in the
order things happened), ``round``, ``side``, ``phase``, and ``in_attack`` (part of a volley
of attacks). :meth:`Event.to_json` gives the JSON object a ``--log`` file holds: ``kind``,
the kind's own fields in their order, then where it happened; :func:`from_json` builds the
record back from such an object (``rules-replay`` reads logs so).

A few kinds own one of the fields every event has: a ``round`` event's ``round`` is the
round it begins, a ``phase`` event's ``phase`` the phase it begins, a ``decision``'s and a
``score``'s ``side`` the side that decides or scores (not always the side whose turn it is).

>>> move = StraightMove(unit="knights", toward="orcs", inches=4.0, placed={}, seq=7,
...                     round=1, side="empire", phase="movement")
>>> move.to_json()
{'kind': 'move', 'unit': 'knights', 'toward': 'orcs', 'inches': 4.0, 'placed': {}, 'seq': 7, \
'round': 1, 'side': 'empire', 'phase': 'movement'}
>>> from_json(move.to_json()) == move
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules_run import slotted

__all__ = [
    "Event", "BattleStart", "Round", "Turn", "Phase", "Roll", "Test", "AutomaticTest",
    "Volley", "Casualties", "Destroyed", "LeftTable", "SetAside", "Arrive", "Attach", "Detach",
    "Decision", "Win", "Status", "Expire", "StraightMove", "Heal", "Returned", "Engage",
    "Marker", "TerrainChange", "Wheel", "Align", "RollOff", "Score", "Log", "Trigger", "Result", "Unknown",
    "KINDS", "from_json",
]

_OMITTED = "rules_run.omitted_when_none"
_WHERE = ("round", "side", "phase")
"""The fields every event has that a kind may own (see the module's docstring)."""

Placed = dict[str, dict[str, Any]]
"""Unit id -> where it stands and how big it is (docs/event-log.md, ``placed``)."""


def _maybe() -> Any:
    """A field only some events of the kind have: None when absent, and then left out of
    the JSON object."""
    return slotted.slot(default=None, metadata={_OMITTED: True})


@slotted.define(kw_only=True)
class Event:
    """What every event has: where it happened (docs/event-log.md, "Fields every event
    has")."""

    kind: ClassVar[str] = ""
    keys: ClassVar[tuple[str, ...]] = ()
    """The kind's own fields, in the order its JSON object gives them."""
    optional: ClassVar[frozenset[str]] = frozenset()
    """Own fields left out of the JSON object when None."""
    where: ClassVar[tuple[str, ...]] = _WHERE
    """The fields of where it happened that the kind does not own."""

    seq: int = 0
    round: int | None = None
    side: str | None = None
    phase: str | None = None
    in_attack: bool = False

    def stamp(self, seq: int, round: int | None, side: str | None, phase: str | None,
              in_attack: bool) -> None:
        """Say where it happened, as it is kept; a field the kind owns keeps its value."""
        self.seq = seq
        where = self.where
        if "round" in where:
            self.round = round
        if "side" in where:
            self.side = side
        if "phase" in where:
            self.phase = phase
        self.in_attack = in_attack

    def to_json(self) -> dict[str, Any]:
        """The event as the ``--log`` file holds it (docs/event-log.md)."""
        out: dict[str, Any] = {"kind": self.kind}
        for key in self.keys:
            value = getattr(self, key)
            if value is not None or key not in self.optional:
                out[key] = value
        out["seq"] = self.seq
        for key in self.where:
            out[key] = getattr(self, key)
        if self.in_attack:
            out["in_attack"] = True
        return out


@slotted.define(kw_only=True)
class BattleStart(Event):
    """The battle begins, the units where the battle file puts them."""

    kind: ClassVar[str] = "battle"
    edition: str
    rounds: int
    log_version: int
    sides: list[str]
    table: dict[str, float]
    terrain: list[dict[str, Any]]
    objectives: list[dict[str, Any]]
    units: list[dict[str, Any]]
    placed: Placed


@slotted.define(kw_only=True)
class Round(Event):
    """A battle round begins (``round`` is its number)."""

    kind: ClassVar[str] = "round"
    round: int | None


@slotted.define(kw_only=True)
class Turn(Event):
    """A player turn begins (``side`` is whose)."""

    kind: ClassVar[str] = "turn"


@slotted.define(kw_only=True)
class Phase(Event):
    """A declared phase begins (``phase`` is its name; ``within`` the phase it runs in)."""

    kind: ClassVar[str] = "phase"
    phase: str | None
    within: str | None
    cite: str = ""


@slotted.define(kw_only=True)
class Roll(Event):
    """One roll of dice."""

    kind: ClassVar[str] = "roll"
    rule: str
    units: list[str]
    cite: str = ""
    dice: list[Any]
    natural: Any
    modifiers: list[dict[str, Any]]
    need: int | None
    value: Any
    result: str | None
    rerolled: bool
    marks: list[str]
    args: dict[str, Any] | None = _maybe()
    target: list[Any] | None = _maybe()
    rerolled_by: list[str] | None = _maybe()
    first_dice: list[Any] | None = _maybe()
    """The faces thrown before a re-roll."""
    reroll_refused: list[str] | None = _maybe()
    """The rules whose re-roll was refused: a die is re-rolled at most once."""
    dice_by: str | None = _maybe()
    """The rule that set the dice (``roll NAME with DICE``)."""


@slotted.define(kw_only=True)
class Test(Roll):
    """One test: a roll that passes (``result`` ``pass``) or fails (``fail``)."""

    kind: ClassVar[str] = "test"


@slotted.define(kw_only=True)
class AutomaticTest(Event):
    """A test passed or failed without rolling (``automatic``: the rule that decided it)."""

    kind: ClassVar[str] = "test"
    rule: str
    cite: str = ""
    result: str
    automatic: str


@slotted.define(kw_only=True)
class Volley(Event):
    """A volley of attacks resolved with ``fight()``."""

    kind: ClassVar[str] = "attacks"
    attacker: str
    target: str
    sequence: str
    attacks: int
    damage: int
    in_contact: bool
    weapon: str | None
    steps: list[list[Any]]
    tallies: dict[str, int] | None = _maybe()
    """Each tally the sequence declares and its count (left out when it declares none)."""
    cite: str = ""


@slotted.define(kw_only=True)
class Casualties(Event):
    """Damage allocated one model at a time."""

    kind: ClassVar[str] = "casualties"
    unit: str
    damage: int
    slain: int
    models_left: int
    wounds: int
    wounds_each: int
    wounds_lost: int
    placed: Placed


@slotted.define(kw_only=True)
class Destroyed(Event):
    """A unit is removed from the battle."""

    kind: ClassVar[str] = "destroyed"
    unit: str


@slotted.define(kw_only=True)
class LeftTable(Event):
    """A unit moved off the battlefield, with the units attached to it."""

    kind: ClassVar[str] = "left_table"
    unit: str
    followers: list[str]
    reason: str | None = _maybe()
    """Why, when the engine knows (a move that reached the table edge)."""


@slotted.define(kw_only=True)
class SetAside(Event):
    """A unit waits off the table (reserves)."""

    kind: ClassVar[str] = "set_aside"
    unit: str


@slotted.define(kw_only=True)
class Arrive(Event):
    """A unit set aside arrives on the table."""

    kind: ClassVar[str] = "arrive"
    unit: str
    at: list[float]
    facing: float
    placed: Placed


@slotted.define(kw_only=True)
class Attach(Event):
    """A unit starts moving with another (a joined character)."""

    kind: ClassVar[str] = "attach"
    unit: str
    to: str
    placed: Placed


@slotted.define(kw_only=True)
class Detach(Event):
    """A unit stops moving with another."""

    kind: ClassVar[str] = "detach"
    unit: str
    to: str


@slotted.define(kw_only=True)
class Decision(Event):
    """A declared decision was made (``side``: the side deciding)."""

    kind: ClassVar[str] = "decision"
    decision: str
    side: str | None
    unit: str | None
    options: list[Any]
    choice: Any
    why: str
    cite: str = ""


@slotted.define(kw_only=True)
class Win(Event):
    """``win()`` decided the battle (``winner`` None: a draw)."""

    kind: ClassVar[str] = "win"
    winner: str | None
    reason: str


@slotted.define(kw_only=True)
class Status(Event):
    """A status was applied or cleared (``quiet``: bookkeeping the report leaves out)."""

    kind: ClassVar[str] = "status"
    unit: str | None
    status: str
    change: str
    quiet: bool


@slotted.define(kw_only=True)
class Expire(Event):
    """Statuses that last until the end of a period run out."""

    kind: ClassVar[str] = "expire"
    period: str
    statuses: dict[str, list[str]]


@slotted.define(kw_only=True)
class StraightMove(Event):
    """A straight move ``toward`` or ``away_from`` something, or along a ``heading`` (0
    inches: only a turn)."""

    kind: ClassVar[str] = "move"
    unit: str
    toward: str | None = _maybe()
    away_from: str | None = _maybe()
    heading: float | None = _maybe()
    inches: float
    on_until_clear: float | None = _maybe()
    placed: Placed


@slotted.define(kw_only=True)
class Heal(Event):
    """Damage points removed."""

    kind: ClassVar[str] = "heal"
    unit: str
    points: int
    wounds: int


@slotted.define(kw_only=True)
class Returned(Event):
    """Slain models came back."""

    kind: ClassVar[str] = "returned"
    unit: str
    models: int
    models_left: int
    wounds: int
    placed: Placed


@slotted.define(kw_only=True)
class Engage(Event):
    """Units were put in base contact (``arc``: where the unit moved to)."""

    kind: ClassVar[str] = "engage"
    unit: str
    target: str
    arc: str
    placed: Placed


@slotted.define(kw_only=True)
class Marker(Event):
    """A marker laid, moved, stretched, or removed (then with no ``at``, ``to``,
    ``diameters``)."""

    kind: ClassVar[str] = "marker"
    marker: str
    change: str
    at: list[float] | None = _maybe()
    to: list[float] | None = _maybe()
    diameters: list[float] | None = _maybe()


@slotted.define(kw_only=True)
class TerrainChange(Event):
    """A terrain piece added, moved or removed during the battle (then with no ``at``,
    ``size``, ``effects``, ``shape``); ``shape`` is its rectangle, for rules-replay."""

    kind: ClassVar[str] = "terrain"
    piece: str
    change: str
    at: list[float] | None = _maybe()
    size: list[float] | None = _maybe()
    effects: list[str] | None = _maybe()
    shape: dict[str, Any] | None = _maybe()


@slotted.define(kw_only=True)
class Wheel(Event):
    """A unit turned about a front corner."""

    kind: ClassVar[str] = "wheel"
    unit: str
    degrees: float
    inches: float
    placed: Placed


@slotted.define(kw_only=True)
class Align(Event):
    """A unit turned and moved flush against another."""

    kind: ClassVar[str] = "align"
    unit: str
    to: str
    flush: str
    arc: str
    placed: Placed


@slotted.define(kw_only=True)
class RollOff(Event):
    """A roll-off between two sides (ties are rolled again)."""

    kind: ClassVar[str] = "roll_off"
    sides: list[Any]
    rolls: list[int]


@slotted.define(kw_only=True)
class Score(Event):
    """Victory points scored (``side``: the side scoring)."""

    kind: ClassVar[str] = "score"
    side: str | None
    points: int
    total: int


@slotted.define(kw_only=True)
class Log(Event):
    """A ``log`` statement in the rules (``at``: its ``path:line:col``)."""

    kind: ClassVar[str] = "log"
    message: str
    values: list[Any]
    at: str
    cite: str = ""


@slotted.define(kw_only=True)
class Trigger(Event):
    """A rule's ``when <event>`` effect ran (``unit``: its bearer)."""

    kind: ClassVar[str] = "trigger"
    rule: str
    event: str
    unit: str | None
    cite: str = ""


@slotted.define(kw_only=True)
class Result(Event):
    """The battle is over."""

    kind: ClassVar[str] = "result"
    winner: str | None
    reason: str
    victory_points: dict[str, int]


@slotted.define(kw_only=True)
class Unknown(Event):
    """An event of a kind this version does not know (a newer log's), kept as it came."""

    name: str
    """Its kind."""
    fields: dict[str, Any]
    """The whole JSON object."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object it came as."""
        return dict(self.fields)


def _registered(*classes: type[Event]) -> dict[str, type[Event]]:
    """Each kind's class by its name, with the order and the optional ones of its fields
    worked out from its declaration."""
    for cls in classes:
        own = [f for f in slotted.fields(cls) if f.name not in (*_WHERE, "seq", "in_attack")
               or not f.inherited]
        cls.keys = tuple(f.name for f in own)
        cls.optional = frozenset(f.name for f in own if f.metadata.get(_OMITTED))
        cls.where = tuple(key for key in _WHERE if key not in cls.keys)
    return {cls.kind: cls for cls in classes if cls is not AutomaticTest}


KINDS: Mapping[str, type[Event]] = _registered(
    BattleStart, Round, Turn, Phase, Roll, Test, AutomaticTest, Volley, Casualties,
    Destroyed, LeftTable, SetAside, Arrive, Attach, Detach, Decision, Win, Status, Expire,
    StraightMove, Heal, Returned, Engage, Marker, TerrainChange, Wheel, Align, RollOff, Score,
    Log, Trigger, Result)
"""Each kind's record class by the kind's name (a ``test`` with ``automatic`` is an
:class:`AutomaticTest`)."""


def from_json(data: Mapping[str, Any]) -> Event:
    """The record of an event as a ``--log`` file holds it; fields its kind does not have
    are left out, a kind this version does not know is kept whole (:class:`Unknown`).

    Raises:
        KeyError: a field the kind always has is missing (the first such).
    """
    kind = data.get("kind")
    cls = AutomaticTest if kind == "test" and "automatic" in data else KINDS.get(str(kind))
    if cls is None:
        return Unknown(name=str(kind), fields=dict(data))
    fields = slotted.fields(cls)
    for field in fields:
        if field.default is slotted.NOTHING and field.name not in data:
            raise KeyError(field.name)
    return cls(**{f.name: data[f.name] for f in fields if f.name in data})
