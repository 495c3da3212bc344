"""What one evaluation runs with (:class:`Env`), what rolls and sequences give back, and the
runtime's located errors.

Every compiled expression and statement is a function ``f(env, vars)``: ``env`` is the
:class:`Env` of one evaluation (its chance source, options, event log and battle state),
``vars`` the local names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ParamSpec

from rules_run import slotted
from rules_run.chance.die import FaceValue
from rules_run.diagnostics import BattleError, DiagnosticBag, Span
from rules_run.runtime.entities import Group, Part, Unit, Weapon, event_id
from rules_run.runtime.events import Event, Status
from rules_run.runtime.records import Record
from rules_run.runtime.types import BattleState

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["Closure", "Env", "RollResult", "SequenceOutcome", "StepResult", "Tallied", "fail",
           "held_event", "show", "tally_of"]

Closure = Callable[["Env", dict], Any]
"""A compiled expression or block: ``f(env, vars)``."""

P = ParamSpec("P")


@slotted.define
class Env:
    """What one evaluation runs with."""

    runtime: Runtime
    chance: Any
    """A :class:`rules_run.chance.Chance`: random, scripted or enumerating (None where no
    dice are rolled: a parameter's default)."""
    options: Mapping[str, Any]
    """Ruleset options in force (defaults overridden by the battle file or the CLI)."""
    events: list[Event] | None = None
    """Where the events go; None keeps logging off the hot path."""
    state: BattleState | None = None
    """The battle state, when there is a battle."""
    steps: int = 0
    """Statements run so far (a runaway loop stops at the runtime's cap)."""
    running: list[tuple[str, Mapping[str, Any]]] = slotted.slot(factory=list)
    """The rolls, tests and sequences running, innermost last, with their arguments (what
    a characteristic effect ``during`` one of them sees)."""
    held_seen: dict[tuple[str | None, str], bool] | None = None
    """Where events are kept: each unit's statuses held while a condition holds, as last
    read (:func:`held_event`)."""

    def emit(self, record: Callable[P, Event], *args: P.args, **fields: P.kwargs) -> None:
        """Keep an event, the record of its kind built from ``fields`` and stamped with
        where it happened; only when events are being kept (no record is built else)."""
        if self.events is None:
            return
        event = record(*args, **fields)
        state = self.state
        if state is None:
            event.stamp(len(self.events) + 1, None, None, None, False)
        else:
            event.stamp(len(self.events) + 1, state.round, state.active_side, state.phase,
                        bool(state.attacking))
        self.events.append(event)


def held_event(env: Env, unit: Any, decl: Any, value: Any) -> None:
    """Log a change of a status held while a condition holds (``status NAME while C``)
    when a read finds it other than the unit's last read did (not held before the first):
    it has no moment it is gained, so it is told when the rules find it changed. Only
    where events are kept; nothing else depends on it."""
    seen = env.held_seen
    if seen is None:
        seen = env.held_seen = {}
    key = (event_id(unit), decl.name)
    now = bool(value)
    if seen.get(key, False) != now:
        seen[key] = now
        env.emit(Status, unit=key[0], status=decl.name, change="gains" if now else "loses",
                 quiet=decl.quiet)


@slotted.frozen
class RollResult:
    """The outcome of one roll or test."""

    name: str
    value: Any
    """The final value: the modified total (or the declared ``value``)."""
    natural: FaceValue
    """The unmodified total of the dice (or the face of a single die with symbols)."""
    passed: bool | None
    """Whether a test passed; None for a roll."""
    marks: frozenset[str] = frozenset()
    """Marks from ``natural N is <mark>`` (``critical``)."""
    faces: tuple = ()
    need: int | None = None
    """The score needed, after modifiers to it (tests with ``need``)."""

    def __bool__(self) -> bool:
        return bool(self.passed) if self.passed is not None else bool(self.value)


@slotted.frozen
class StepResult:
    """What a sequence's chain reads of a step's result: whether it passed, and its marks."""

    passed: bool | None
    marks: frozenset[str]

    @classmethod
    def of(cls, result: RollResult) -> StepResult:
        return cls(result.passed, result.marks)


@slotted.frozen
class SequenceOutcome:
    """What one run of a sequence did: how many chains got past each step, the damage, and
    its tallies."""

    past: tuple[int, ...]
    """For each step in order, the number of chains that went on past it."""
    damage: int
    tallies: tuple[int, ...] = ()
    """For each tally the sequence declares (``tally glancing``), in order, its count."""


class Tallied(int):
    """What ``fight()`` gives for a sequence with tallies: the damage, a whole number as
    arithmetic reads it, carrying the volley's tallies by name (``v.glancing``).

    Examples:
        >>> v = Tallied(2, {"glancing": 1})
        >>> v + 1, tally_of(v, "glancing"), tally_of(3, "glancing")
        (3, 1, 0)
    """

    tallies: Mapping[str, int]

    def __new__(cls, damage: int, tallies: Mapping[str, int]) -> Tallied:
        made = super().__new__(cls, damage)
        made.tallies = dict(tallies)
        return made


def tally_of(value: Any, name: str) -> Any:
    """``value.name`` where ``name`` is a sequence's tally: the count ``fight()`` gave (0 from
    a volley of a sequence without it); read from a roll's result, whether it has that mark
    (a tally and a mark may share a name)."""
    tallies = getattr(value, "tallies", None)
    if tallies is not None:
        return tallies.get(name, 0)
    if isinstance(value, int) and not isinstance(value, bool):
        return 0
    return name in getattr(value, "marks", ())


def fail(message: str, span: Span | None, code: str = "runtime") -> BattleError:
    """A located error of a running battle or calculation (raised by the caller)."""
    bag = DiagnosticBag()
    return BattleError([bag.add(message, span, code=code)])


def show(value: Any) -> Any:
    """A value as the event log and error messages show it: a unit or weapon by its id or
    name, a part or a group of a unit's models as ``unit.part``, a roll's result by its
    value, a list item by item, anything else a rule holds (a terrain piece, a marker) by its
    id or name."""
    if isinstance(value, (Part, Group)):
        return event_id(value)
    if isinstance(value, (Unit, Weapon)):
        return getattr(value, "id", None) or value.name
    if isinstance(value, RollResult):
        return value.value
    if isinstance(value, Record):
        return {n: show(v) for n, v in zip(value.names, value.values)}
    if isinstance(value, (list, tuple)):
        return [show(v) for v in value]
    if value is None or isinstance(value, (str, int, float, dict)):
        return value
    # anything else a rule can hold (a terrain piece, a marker, a place): its id or name,
    # else its repr unless that is object's own (a memory address would make logs differ)
    named = getattr(value, "id", None) or getattr(value, "name", None)
    if named:
        return named
    own = getattr(type(value), "__repr__") is not getattr(object, "__repr__")
    return repr(value) if own else type(value).__name__
