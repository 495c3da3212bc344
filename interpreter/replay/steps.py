"""A battle's event log, read and cut into the steps a replay shows.

A *step* is an event that changes the picture of the table or draws on it: the start (the
``battle`` event), every move (a charge, a flight, a pursuit, a reform that only turns), a
unit wheeled or aligned flush against another, every engagement, casualties, a unit
destroyed, leaving or coming back to the table, joining or leaving another, a status gained
or lost (those the narrated log tells), a volley of attacks (a line when the units are not in
contact), a marker or template laid, moved, stretched or taken off, an event that carries a
``shape``, and the result. Each step holds the table as it stands after its event, the
arrows and lines it draws, and the narrated log since the step before, told with the
battle's names for its units and sides (:func:`words_of`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from rules_run import slotted
from rules_run.diagnostics import DataError, DiagnosticBag, Span, UsageError
from rules_run.engine.driver import LOG_VERSION
from rules_run.engine.narrate import Words, narrate
from rules_run.paths import shown
from rules_run.runtime.events import Event, Result, from_json

__all__ = ["Mark", "Placed", "Replay", "Step", "UnitInfo", "load", "parse_log", "read_log",
           "replay_of", "words_of"]

STEP_KINDS = frozenset({"battle", "move", "engage", "casualties", "destroyed", "left_table",
                        "set_aside", "arrive", "attach", "detach", "returned", "heal",
                        "attacks", "result", "wheel", "align", "marker"})
"""The kinds of event that are always a step (a told ``status`` and a ``shape`` are too)."""

_PLACE_KEYS = ("x", "y", "facing", "files", "ranks", "base_width", "base_depth")


@slotted.frozen
class UnitInfo:
    """A unit of the battle as it began."""

    id: str
    name: str
    side: str
    models: int
    wounds: int


@slotted.frozen
class Placed:
    """A unit on the table at one step: where it stands, its footprint, what it has left."""

    id: str
    x: float
    y: float
    facing: float
    files: int
    ranks: int
    base_width: float
    base_depth: float
    models: int
    wounds: int
    statuses: tuple[str, ...]


@slotted.frozen
class Mark:
    """Something a step draws over the table: an arrow (``move``, ``move_away``,
    ``engage``), a line (``shot``: attacks between units not in contact) or a ``shape``."""

    kind: str
    points: tuple[tuple[float, float], ...] = ()
    """From where to where, in table inches."""
    shape: dict[str, Any] | None = None
    """The event's ``shape`` (docs/event-log.md)."""


@slotted.frozen
class Step:
    """One step of the replay."""

    seq: int
    """The ``seq`` of its event."""
    round: int
    side: str | None
    phase: str | None
    kind: str
    lines: tuple[str, ...]
    """The narrated log from the step before to this one (this step's event last)."""
    units: tuple[Placed, ...]
    """The units on the table after the event, in the battle's order."""
    marks: tuple[Mark, ...]


@slotted.frozen
class Replay:
    """A whole battle as steps."""

    source: str
    """The log file, as messages show it."""
    edition: str
    battle: str
    seed: Any
    width: float
    depth: float
    sides: tuple[str, ...]
    terrain: tuple[dict[str, Any], ...]
    objectives: tuple[dict[str, Any], ...]
    units: tuple[UnitInfo, ...]
    rounds: int
    steps: tuple[Step, ...]

    def step_at_end_of(self, round_: int | None) -> int:
        """The index of the last step of battle round ``round_`` (0: the set-up; None: the
        last step of the battle).

        Raises:
            UsageError: the battle has no such round.
        """
        if round_ is None:
            return len(self.steps) - 1
        last = max(s.round for s in self.steps)
        if not 0 <= round_ <= last:
            raise UsageError(f"round {round_} is not in the battle of {self.source}: it has "
                             f"rounds 0 (the set-up) to {last}")
        return max(i for i, s in enumerate(self.steps) if s.round <= round_)


def read_log(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """The events of a ``rules-run --log`` file with their line numbers, header first.

    Raises:
        UsageError: the file cannot be read.
        DataError: a line is not a JSON object, the header is missing, or the log was
            written by another log version (every problem at once).
    """
    where = shown(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise UsageError(f"cannot read the event log {where}: {reason}") from None
    return parse_log(text, where)


def parse_log(text: str, where: str) -> list[tuple[int, dict[str, Any]]]:
    """:func:`read_log` of a log's text; ``where`` names it in messages."""
    bag = DiagnosticBag()
    bag.remember_source(where, text)
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as err:
            bag.add(f"not JSON: {err.msg}", Span(where, number, err.colno), code="bad-log")
            continue
        if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
            bag.add("each line of an event log is a JSON object with a 'kind'",
                    Span(where, number), code="bad-log")
            continue
        events.append((number, event))
    bag.raise_if_errors(DataError)
    if not events or events[0][1]["kind"] != "header":
        number = events[0][0] if events else 1
        bag.add("this is not an event log: its first line is not the header (kind "
                "'header')", Span(where, number), code="bad-log",
                hint="write one with: rules-run BATTLE.yaml --log FILE")
    else:
        version = events[0][1].get("log_version")
        if version != LOG_VERSION:
            older = isinstance(version, int) and version < LOG_VERSION
            bag.add(f"this log was written by log version {version}; rules-replay reads "
                    f"version {LOG_VERSION}" + (", whose events carry where the units stand"
                                                if older else ""),
                    Span(where, events[0][0]), code="log-version",
                    hint=("write the log again with this rules-run: rules-run BATTLE.yaml "
                          "--log FILE" if older else
                          "use the rules-run that wrote it, or a newer rules-replay"))
        elif not any(e["kind"] == "battle" for _, e in events):
            bag.add("the log has no 'battle' event (was it cut short?)", Span(where, 1),
                    code="bad-log")
    bag.raise_if_errors(DataError)
    return events


def load(path: str | Path) -> Replay:
    """Read an event log and cut it into steps (:func:`read_log`, :func:`replay_of`)."""
    return replay_of(read_log(path), shown(path))


def replay_of(events: list[tuple[int, dict[str, Any]]], source: str) -> Replay:
    """The steps of a battle from its events (as :func:`read_log` returns them).

    Raises:
        DataError: an event lacks a field the replay needs (located at its line).
    """
    header = events[0][1]
    tracker = _Tracker()
    steps: list[Step] = []
    pending: list[Event] = []
    bag = DiagnosticBag()
    turn: str | None = None
    """Whose turn it is: the ``side`` of the events that name one of the battle's sides."""
    for number, event in events[1:]:
        try:
            marks = tracker.apply(event)
            record = from_json(event)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            bag.add(f"a {event['kind']!r} event the replay cannot read ({type(err).__name__}: "
                    f"{err})", Span(source, number), code="bad-log")
            continue
        side = event.get("side")
        if side is None or side in (tracker.battle.get("sides") or ()):
            turn = side
        pending.append(record)
        if _is_step(event):
            steps.append(Step(int(event.get("seq", 0)), int(event.get("round") or 0),
                              turn, event.get("phase"), event["kind"],
                              _told(pending, tracker.words), tracker.on_table(),
                              tuple(marks)))
            pending = []
    bag.raise_if_errors(DataError)
    battle = tracker.battle
    return Replay(source, str(header.get("edition")), str(header.get("battle")),
                  header.get("seed"), float(battle["table"]["width"]),
                  float(battle["table"]["depth"]), tuple(battle["sides"]),
                  tuple(battle.get("terrain") or ()), tuple(battle.get("objectives") or ()),
                  tuple(UnitInfo(u["id"], u["name"], u["side"], u["models"], u["wounds"])
                        for u in battle["units"]),
                  int(battle.get("rounds") or 0), tuple(steps))


def marker_shape(e: dict[str, Any]) -> dict[str, Any]:
    """A ``marker`` event's template as a shape: a circle, or the outline of a disc swept
    from ``at`` to ``to`` with its diameter changing from the first to the second."""
    (x0, y0), (x1, y1) = e["at"], e["to"]
    r0, r1 = (float(d) / 2 for d in e["diameters"])
    label = str(e["marker"])
    if math.dist((x0, y0), (x1, y1)) < 1e-9:
        return {"kind": "circle", "x": x0, "y": y0, "radius": max(r0, r1), "label": label}
    heading = math.atan2(y1 - y0, x1 - x0)
    points = []
    for (cx, cy, r, start) in ((x1, y1, r1, heading - math.pi / 2),
                               (x0, y0, r0, heading + math.pi / 2)):
        for i in range(17):
            a = start + math.pi * i / 16
            points.append([round(cx + r * math.cos(a), 3), round(cy + r * math.sin(a), 3)])
    return {"kind": "polygon", "points": points, "label": label}


def _is_step(event: dict[str, Any]) -> bool:
    kind = event["kind"]
    return (kind in STEP_KINDS or "shape" in event
            or (kind == "status" and not event.get("quiet")))


def words_of(battle: dict[str, Any]) -> Words:
    """The words the log's lines are told in, from its ``battle`` event: the names of its
    units, sides, terrain and objectives, as ``rules-run``'s report gives them
    (:meth:`Words.of`); units of one model at the start take a singular verb. The ruleset's
    own ``report:`` phrases are not in the log: those lines are told in the engine's words."""
    places = [item for group in ("terrain", "objectives") for item in battle.get(group) or ()
              if isinstance(item, dict) and "id" in item]
    return Words.named(None, battle.get("sides") or (), places,
                       [(u["id"], u["name"], u.get("models")) for u in battle.get("units") or ()])


def _told(events: list[Event], words: Words) -> tuple[str, ...]:
    """The narrated lines of some events, without blank lines; the result in words."""
    lines = [part for line in narrate(events, words) for part in line.split("\n")
             if part.strip()]
    last = events[-1]
    if isinstance(last, Result):
        lines.append(f"    {words.name(last.winner)} wins: {last.reason}"
                     if last.winner is not None else f"    a draw: {last.reason}")
    return tuple(lines)


def _change(unit: dict[str, Any], e: dict[str, Any]) -> None:
    """What an event about one unit changes in it: models, wounds, on the table, statuses."""
    kind = e["kind"]
    if kind in ("casualties", "returned"):
        unit["models"], unit["wounds"] = e["models_left"], e["wounds"]
    elif kind == "heal":
        unit["wounds"] = e["wounds"]
    elif kind in ("destroyed", "set_aside", "arrive"):
        unit["on"] = kind == "arrive"
    elif kind == "status":
        (unit["statuses"].add if e["change"] == "gains" else unit["statuses"].discard)(
            e["status"])


class _Tracker:
    """The table as the events change it: each unit's place and what it has left."""

    def __init__(self) -> None:
        self.battle: dict[str, Any] = {}
        self.order: list[str] = []
        self.units: dict[str, dict[str, Any]] = {}
        self.words = Words()
        """How the lines are told: the battle's names, once its event is read."""

    def on_table(self) -> tuple[Placed, ...]:
        out = []
        for uid in self.order:
            u = self.units[uid]
            if u["on"]:
                out.append(Placed(id=uid, models=u["models"], wounds=u["wounds"],
                                  statuses=tuple(sorted(u["statuses"])),
                                  **{k: u[k] for k in _PLACE_KEYS}))
        return tuple(out)

    def apply(self, e: dict[str, Any]) -> list[Mark]:
        """Change the table by one event; return what the event draws."""
        kind = e["kind"]
        if kind == "battle":
            self.battle = e
            self.words = words_of(e)
            for u in e["units"]:
                self.order.append(u["id"])
                self.units[u["id"]] = {"models": u["models"], "wounds": u["wounds"],
                                       "statuses": set(u.get("statuses") or ()), "on": True}
        unit = self.units.get(str(e.get("unit")))
        mover = unit if kind in ("move", "engage", "wheel", "align") else None
        start = (mover["x"], mover["y"]) if mover is not None and mover["on"] else None
        for uid, place in (e.get("placed") or {}).items():
            self.units[uid].update({k: place[k] for k in _PLACE_KEYS})
        marks = []
        if "shape" in e:
            marks.append(Mark("shape", shape=e["shape"]))
        elif kind == "marker" and e["change"] != "removed":
            marks.append(Mark("shape", shape=marker_shape(e)))
        if kind == "expire":
            for uid, names in e["statuses"].items():
                if uid in self.units:   # a part's or a group's (unit.part) is not drawn
                    self.units[uid]["statuses"].difference_update(names)
        elif kind == "left_table":
            for uid in [e["unit"], *(e.get("followers") or ())]:
                self.units[uid]["on"] = False
        elif unit is not None:
            _change(unit, e)
        if kind == "attacks" and not e.get("in_contact"):
            a, b = self.units.get(e["attacker"]), self.units.get(e["target"])
            if a is not None and b is not None and a["on"] and b["on"]:
                marks.append(Mark("shot", ((a["x"], a["y"]), (b["x"], b["y"]))))
        if start is not None and mover is not None:
            end = (mover["x"], mover["y"])
            if math.dist(start, end) > 1e-6:
                how = ("engage" if kind == "engage" else
                       "move_away" if "away_from" in e else "move")
                marks.append(Mark(how, (start, end)))
        return marks
