"""Turn a battle's events into the battle report ``rules-run`` prints.

The words are the ruleset's (``report:`` in its index.yaml, :class:`Words`): what a player
calls each roll, test, status and phase, a phrase for each log statement, the decisions
worth telling. The engine adds what every report needs: the dice, the score a test needs,
the modifiers and the rules behind them, the re-rolls and who gave them, the damage.

Every event is one line at most (the rolls inside a volley of attacks are summarised by the
volley's line: its needs; they stay in the JSON Lines log). ``explain`` adds the citation
of the rule behind each line (and the cited line itself from the user's copy of the
source, given ``sources``); ``decisions`` (or ``explain``) tells every decision made.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rules_run.engine.driver import BattleResult
from rules_run.lang import ast
from rules_run.runtime.events import (
    Align,
    Arrive,
    Attach,
    AutomaticTest,
    BattleStart,
    Casualties,
    Decision,
    Destroyed,
    Detach,
    Engage,
    Event,
    Expire,
    Heal,
    LeftTable,
    Log,
    Marker,
    Phase,
    Result,
    Returned,
    Roll,
    RollOff,
    Round,
    Score,
    SetAside,
    Status,
    StraightMove,
    TerrainChange,
    Test,
    Trigger,
    Turn,
    Unknown,
    Volley,
    Wheel,
    Win,
)

__all__ = ["Words", "narrate", "summary_table", "cited_lines"]

_FIELD = re.compile(r"\{([^{}?]*)(?:\?([^{}|]*)\|([^{}]*))?\}|\[([^\[\]|]*)\|([^\[\]]*)\]")
"""``{field}``, ``{field?yes|no}``, and ``[singular|plural]``: the verb for the field
before it."""


class Words:
    """How a ruleset's report names things: its ``report:`` words, and the battle's own
    names for its units, objectives, terrain and sides."""

    def __init__(self, report: Mapping[str, Mapping[str, str]] | None = None,
                 entities: Mapping[str, str] | None = None,
                 singular: Iterable[str] = (),
                 counted: Mapping[str, str] | None = None) -> None:
        report = report or {}
        self.names = dict(report.get("names", {}))
        self.rolls = dict(report.get("rolls", {}))
        self.rerolls = dict(report.get("rerolls", {}))
        self.decisions = dict(report.get("decisions", {}))
        self.messages = dict(report.get("messages", {}))
        self.entities = dict(entities or {})
        self.singular = set(singular)
        """Units of one model at the start: told with a singular verb."""
        self.counted = dict(counted or {})
        """Rolls that count dice showing some faces, by name: the faces (``4+``)."""

    @classmethod
    def of(cls, ruleset: Any, battle: Any) -> Words:
        """The words for a battle under a ruleset."""
        field = battle.doc.value.get("battlefield") or {}
        words = cls.named(ruleset.report, battle.sides,
                          [*(field.get("terrain") or ()), *(field.get("objectives") or ())],
                          [(u.id, u.name, u.starting_models) for u in battle.units])
        words.counted = {name: _faces_counted(d.dice) for name, d in ruleset.decls.items()
                         if isinstance(getattr(d, "dice", None), ast.CountedDice)
                         and d.dice.counting}
        return words

    @classmethod
    def named(cls, report: Mapping[str, Mapping[str, str]] | None, sides: Iterable[str],
              places: Iterable[Mapping[str, Any]],
              units: Iterable[tuple[str, str, int]]) -> Words:
        """The words for sides, places (terrain and objectives: ``id`` and ``name``) and
        units (id, name, models at the start; a unit of one model takes a singular verb)."""
        entities = {str(side): str(side).capitalize() for side in sides}
        for item in places:
            entities[str(item["id"])] = str(item.get("name") or _plain(str(item["id"])))
        units = list(units)
        entities.update({str(uid): str(name) for uid, name, _ in units})
        return cls(report, entities, [str(uid) for uid, _, models in units if models == 1])

    def name(self, value: Any) -> str:
        """A value as the report shows it: a unit, objective or side by its name, a
        declaration by its display name, ``yes``/``no``, numbers as written."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None:
            return "none"
        if isinstance(value, float):
            return f"{value:g}"
        if isinstance(value, (list, tuple)):
            return ", ".join(self.name(v) for v in value)
        if isinstance(value, dict):   # a record, by its fields: "total 7, ones 1"
            return ", ".join(f"{_plain(str(k))} {self.name(v)}" for k, v in value.items())
        text = str(value)
        if text in self.entities:
            return self.entities[text]
        if text in self.names:
            return self.names[text]
        return _plain(text)

    def verb(self, unit: str | None, singular: str, plural: str) -> str:
        """``moves`` for a single model, ``move`` for a unit of many."""
        return singular if unit in self.singular else plural

    def phrase(self, template: str, values: Mapping[str, Any]) -> str:
        """Fill ``{field}`` and ``{field?yes words|no words}`` from ``values``;
        ``[takes|take]`` is the verb for the field just before it: the first word for a
        unit of one model, the second for any other."""
        last: list[Any] = [None]

        def fill(m: re.Match) -> str:
            key, yes, no, one, many = m.groups()
            if key is None:
                return one if last[0] in self.singular else many
            value = values.get(key)
            last[0] = value
            if yes is not None:
                return yes if value else no
            return self.name(value)
        return _FIELD.sub(fill, template)


def _faces_counted(dice: ast.CountedDice) -> str:
    """The faces a counted roll counts, as written: ``4+`` (up to the die's highest), or
    ``5, 6``."""
    faces = dice.counting
    if len(faces) > 1 and faces == tuple(range(faces[0], dice.pool.sides + 1)) or (
            len(faces) == 1 and faces[0] == dice.pool.sides > 2):
        return f"{faces[0]}+" if faces[0] < dice.pool.sides else str(faces[0])
    return ", ".join(str(f) for f in faces)


def _plain(text: str) -> str:
    """A snake_case id as words: ``flee_distance`` -> ``flee distance``."""
    return text.replace("_", " ")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _need_text(e: Roll) -> str:
    if e.need is not None:
        return f", needing {e.need}+"
    if e.target:
        op, x = e.target
        words = {"<=": f"{x} or less", ">=": f"{x} or more", "<": f"less than {x}",
                 ">": f"more than {x}"}[op]
        lowest = len(e.dice) + sum(m["amount"] for m in e.modifiers)
        if op in ("<=", "<") and isinstance(x, int) and all(
                isinstance(d, int) for d in e.dice) and e.natural == sum(e.dice) and (
                x < lowest if op == "<=" else x <= lowest):
            # a score a modifier took below any roll: say so, not just the number
            dice = "die" if len(e.dice) == 1 else "dice"
            return f", needing {words} (no roll of {len(e.dice)} {dice} is that low)"
        return f", needing {words}"
    return ""


def _head(e: Roll | AutomaticTest, w: Words) -> str:
    """Who rolls what: the ruleset's phrase for the roll, else the unit and the roll's name."""
    units = e.units if isinstance(e, Roll) else []
    template = w.rolls.get(e.rule)
    if template is not None:
        values = dict((e.args if isinstance(e, Roll) else None) or {})
        values.update(unit=units[0] if units else None, other=units[1] if len(units) > 1
                      else None)
        return w.phrase(template, values)
    who = f"{w.name(units[0])}: " if units else ""
    return who + _cap(w.name(e.rule))


def _roll_line(e: Roll | AutomaticTest, w: Words) -> str:
    head = _head(e, w)
    if isinstance(e, AutomaticTest):
        return f"    {head}: {'passed' if e.result == 'pass' else 'failed'} automatically " \
               f"({e.automatic})"
    if not e.dice:
        return f"    {head}: not rolled, it cannot pass → fails"
    mods = "".join(f" {m['amount']:+d} ({m['source']})" for m in e.modifiers)
    total = e.value
    faces = w.counted.get(e.rule)
    counted = faces is not None and isinstance(e.natural, int)
    if counted:
        # a count of the dice showing some faces: the faces, then the count
        n = e.natural
        count = (f"{'no' if n == 0 else n} {'die' if n <= 1 else 'dice'} "
                 f"{'shows' if n <= 1 else 'show'} {faces}")
        dice = " ".join(str(d) for d in e.dice) + ": " + count
        shown = f" = {w.name(total)}" if mods and total is not None else ""
    else:
        dice = "+".join(str(d) for d in e.dice)
        shown = f" = {w.name(total)}" if (mods or len(e.dice) > 1) and total is not None else ""
    if isinstance(total, dict):   # a record: what the dice give, beside them
        shown = f" ({w.name(total)})"
    # who re-rolled: the rules, and a test's own re-roll by the report's word for it
    by = ", ".join(w.rerolls.get(r, w.name(r)) if r == e.rule else r
                   for r in e.rerolled_by or ())
    if e.first_dice:   # the dice first thrown, then re-rolled
        first = (" " if counted else "+").join(str(d) for d in e.first_dice)
        dice = f"{first}, re-rolled ({by}) to {dice}" if by else f"{first}, re-rolled to {dice}"
    result = {"pass": " → passes", "fail": " → fails"}.get(e.result or "", "")
    cause = ""
    if e.rerolled and not e.first_dice:
        cause = f" (after a re-roll: {by})" if by else " (after a re-roll)"
    if e.reroll_refused:
        cause += f" ({', '.join(e.reroll_refused)} refused: a die is re-rolled at most once)"
    if e.dice_by:
        cause += f" (dice set by {e.dice_by})"
    return f"    {head}: rolled {dice}{mods}{shown}{_need_text(e)}{result}{cause}"


def _volley(e: Volley, needs: list[Roll | AutomaticTest], w: Words) -> str:
    shown, previous_save = [], None
    for name, n, stops in e.steps:
        # a save-like step right after another that changed nothing (the target has no
        # such save) is left out
        if not (stops and n == previous_save):
            shown.append(f"{n} {w.name(name)} {'failed' if stops else 'passed'}")
        previous_save = n if stops else None
    by_rule: dict[str, list[int]] = {}
    places: dict[str, list[int]] = {}
    """Each roll's places after the volley's first roll was last made: the rolls are told
    in the order of the sequence's steps (on average), whatever the first attack skipped."""
    start = 0
    for i, t in enumerate(needs):
        if t.rule == needs[0].rule:
            start = i
        places.setdefault(t.rule, []).append(i - start)
        need = t.need if isinstance(t, Roll) else None
        if need is not None:
            by_rule.setdefault(t.rule, [])
            if need not in by_rule[t.rule]:
                by_rule[t.rule].append(need)
    order = sorted(by_rule, key=lambda r: sum(places[r]) / len(places[r]))
    needed = "; ".join(f"{w.name(rule)} {'/'.join(f'{n}+' for n in sorted(by_rule[rule]))}"
                     for rule in order)
    weapon = f" with {w.name(e.weapon)}" if e.weapon else ""
    verb = w.verb(e.attacker, "attacks", "attack")
    return (f"    {w.name(e.attacker)} {verb} {w.name(e.target)}{weapon}: "
            f"{e.attacks} attack{'s' if e.attacks != 1 else ''}"
            + (f" ({needed})" if needed else "") + f", {', '.join(shown)} → {e.damage} damage"
            + "".join(f", {n} {w.name(tally)}" for tally, n in (e.tallies or {}).items()))


def _does(w: Words, unit: str | None, singular: str, plural: str, rest: str) -> str:
    """A line saying what a unit does, its verb as its size needs (``moves``/``move``)."""
    return f"    {w.name(unit)} {w.verb(unit, singular, plural)} {rest}"


def _decision(e: Decision, w: Words, every: bool) -> str | None:
    template = w.decisions.get(e.decision)
    if template is None and not every:
        return None
    choice = e.choice
    if template is not None and not every:
        if choice is None:
            return None   # nothing chosen (no charge declared): nothing to tell
        return "    " + _cap(w.phrase(template, {"unit": e.unit, "side": e.side,
                                                 "choice": choice}))
    decider = e.unit or e.side
    who = f"{w.name(decider)}: " if decider else ""
    return f"    {who}{w.name(e.decision)}: {w.name(choice)} (decided by {_plain(e.why)})"


def _casualties(e: Casualties, w: Words) -> str:
    slain, each, lost = e.slain, e.wounds_each, e.wounds_lost
    if slain:
        line = _does(w, e.unit, "loses", "lose",
                     f"{slain} model{'s' if slain != 1 else ''} ({e.models_left} left")
    else:
        line = _does(w, e.unit, "takes", "take",
                     f"{e.damage} wound{'s' if e.damage != 1 else ''}, no model falls "
                     f"({e.models_left} left")
    if each > 1 and lost:
        line += f"; one has {each - lost} of {each} wounds"
    return line + ")"


def _status(e: Status, w: Words) -> str | None:
    if e.quiet:
        return None
    now = "now" if e.change == "gains" else "no longer"
    return f"    {w.name(e.unit)}: {now} {w.name(e.status)}"


def _move(e: StraightMove, w: Words) -> str:
    on = f" ({e.on_until_clear:g}\" of it on until clear)" if e.on_until_clear else ""
    if e.heading is not None:
        return _does(w, e.unit, "moves", "move", f"{e.inches:g}\" along heading "
                     f"{e.heading:g}{on}")
    how, other = ("toward", e.toward) if e.toward is not None else ("away from", e.away_from)
    return _does(w, e.unit, "moves", "move", f"{e.inches:g}\" {how} {w.name(other)}{on}")


def _marker(e: Marker, w: Words) -> str:
    """A marker placed, moved, stretched or removed."""
    if e.change == "removed":
        return f"    {_cap(w.name(e.marker))} removed"
    (x, y), to, (start, end) = e.at or [], e.to or [], e.diameters or []
    where = f"({x:g}, {y:g})"
    if to != e.at:
        where += f" to ({to[0]:g}, {to[1]:g})"
    size = (f", {start:g}\" across" if start == end else f", {start:g}\" to {end:g}\" across"
            ) if end else ""
    verb = {"placed": "placed at", "moved": "moved to", "stretched": "stretched from"}
    return f"    {_cap(w.name(e.marker))} {verb[e.change]} {where}{size}"


def _terrain(e: TerrainChange, w: Words) -> str:
    """A terrain piece added, moved or removed during the battle."""
    if e.change == "removed":
        return f"    {_cap(w.name(e.piece))} leaves the table"
    (x, y), (width, depth) = e.at or [0, 0], e.size or [0, 0]
    verb = "is added at" if e.change == "added" else "moves to"
    return f"    {_cap(w.name(e.piece))} {verb} ({x:g}, {y:g}), {width:g}\" x {depth:g}\""


def _log(e: Log, w: Words) -> str:
    template = w.messages.get(e.message)
    if template is not None:
        values = {str(i): v for i, v in enumerate(e.values, 1)}
        return "    " + _cap(w.phrase(template, values))
    told = "; ".join(w.name(v) for v in e.values)
    return f"    {_cap(e.message)}: {told}" if e.values else f"    {_cap(e.message)}"


_LINES: dict[type[Event], Callable[[Any, Words], str | None]] = {
    BattleStart: lambda e, w: (f"Battle under {e.edition}: {e.rounds} rounds, "
                               + " against ".join(w.name(s) for s in e.sides)),
    Round: lambda e, w: f"\n=== Round {e.round} ===",
    Turn: lambda e, w: f"-- Turn of {w.name(e.side)} --",
    Phase: lambda e, w: f"  [{_cap(w.name(e.phase))}]",
    Casualties: _casualties,
    Win: lambda e, w: (f"    {w.name(e.winner)} win the battle: {e.reason}"
                       if e.winner is not None else f"    the battle is a draw: {e.reason}"),
    Heal: lambda e, w: _does(w, e.unit, "heals", "heal", f"{e.points} damage"),
    Returned: lambda e, w: _does(w, e.unit, "gets", "get", f"back {e.models} slain "
                                 f"model{'s' if e.models != 1 else ''} ({e.models_left} now)"),
    Destroyed: lambda e, w: _does(w, e.unit, "is", "are", "destroyed"),
    LeftTable: lambda e, w: _does(w, e.unit, "leaves", "leave", "the table" + (
        f" ({e.reason})" if e.reason else "")),
    Attach: lambda e, w: _does(w, e.unit, "joins", "join", w.name(e.to)),
    Detach: lambda e, w: _does(w, e.unit, "leaves", "leave", w.name(e.to)),
    SetAside: lambda e, w: _does(w, e.unit, "waits", "wait", "off the table"),
    Arrive: lambda e, w: _does(w, e.unit, "arrives", "arrive", "on the table"),
    Status: _status,
    Engage: lambda e, w: _does(w, e.unit, "engages", "engage",
                               f"{w.name(e.target)} in the {e.arc}"),
    StraightMove: _move,
    Marker: _marker,
    TerrainChange: _terrain,
    Wheel: lambda e, w: _does(w, e.unit, "wheels", "wheel",
                              f"{e.degrees:g}° ({e.inches:g}\")"),
    Align: lambda e, w: _does(w, e.unit, "aligns its", "align their",
                              f"{e.flush} with {w.name(e.to)} ({e.arc})"),
    Log: _log,
    Score: lambda e, w: (f"    {w.name(e.side)} score {e.points} (total {e.total})"
                         if e.points else None),
    RollOff: lambda e, w: (f"    roll-off: {w.name(e.sides[0])} {e.rolls[0]}, "
                           f"{w.name(e.sides[1])} {e.rolls[1]}"),
    Trigger: lambda e, w: (f"    {w.name(e.unit)}: " if e.unit is not None else "    ")
    + f"{e.rule} ({w.name(e.event)})",
    Result: lambda e, w: None,   # the summary table tells the result
    Expire: lambda e, w: None,   # statuses running out are not told
}
"""The line each kind of event is told in (None: nothing to tell), by the record's class;
rolls, tests, volleys and decisions are told by :func:`narrate` itself."""


def _line(e: Event, w: Words) -> str | None:
    """The line an event is told in, or None; a kind this version does not know (a newer
    log's) is told by its name."""
    tell = _LINES.get(type(e))
    if tell is not None:
        return tell(e, w)
    return f"    {_cap(w.name(e.name if isinstance(e, Unknown) else e.kind))}"


def _plain_roll(e: Event) -> tuple | None:
    """What makes a roll one of a run of like rolls (the same roll for the same units, with
    no modifiers, need or result: dice thrown for their score), or None."""
    if (not isinstance(e, Roll) or e.kind != "roll" or e.in_attack or not e.dice
            or e.modifiers or e.need is not None or e.result or e.rerolled
            or e.value != e.natural):
        return None
    return (e.rule, tuple(e.units), e.cite)


def _roll_run(run: list[Roll], w: Words) -> str:
    units = run[0].units
    who = f"{w.name(units[0])}: " if units else ""
    scores = ", ".join("+".join(str(d) for d in e.dice) for e in run)
    return f"    {who}{_cap(w.name(run[0].rule))} ×{len(run)}: rolled {scores}"


def cited_lines(cite: str, sources: Path) -> list[str]:
    """The lines a citation names (``000_c43...txt L418, L420-L421``), read from the user's
    own copy of the source in the folder ``sources``; [] when the file is not there."""
    m = re.match(r"\s*(\S+\.txt)\s+(.*)", cite)
    if not m or not (sources / m.group(1)).is_file():
        return []
    text = (sources / m.group(1)).read_text(encoding="utf-8", errors="replace").splitlines()
    out: list[str] = []
    for a, b in re.findall(r"L(\d+)(?:-L(\d+))?", m.group(2)):
        lo, hi = int(a), int(b or a)
        out.extend(f"L{n}: {text[n - 1].strip()}" for n in range(lo, min(hi, lo + 2) + 1)
                   if 0 < n <= len(text))
    return out


def narrate(events: Iterable[Event], words: Words | None = None, explain: bool = False,
            decisions: bool = False, sources: Path | None = None) -> Iterator[str]:
    """The battle report's lines. A run of like rolls (power dice, say) takes one line; a
    phase heading shows only when something is told in the phase."""
    w = words or Words()
    run: list[Roll] = []
    needs: list[Roll | AutomaticTest] = []
    """The rolls inside the volley of attacks being resolved (told with its line)."""
    headings: list[tuple[str | None, str]] = []
    """Phase headings not shown yet: (phase, line), outermost first."""
    trigger: list[str] = []
    """The line of the trigger that ran last, not shown yet: shown before the next line told,
    dropped when another trigger, a phase, a turn or a round comes first (it told nothing)."""

    def cited(line: str, e: Event) -> str:
        cite = getattr(e, "cite", "")
        if not (explain and cite):
            return line
        quoted = cited_lines(cite, sources) if sources is not None else []
        return "\n".join([f"{line}   [{cite}]"] + [f"        | {q}" for q in quoted])

    def told(line: str) -> Iterator[str]:
        yield from (heading for _, heading in headings)
        headings.clear()
        yield from trigger
        trigger.clear()
        yield line

    for e in [*events, None]:
        if isinstance(e, Roll) and e.kind == "roll" and not e.dice:
            continue   # a roll of no dice (a counted roll of 0): nothing to tell
        key = _plain_roll(e) if e is not None else None
        if run and (key is None or key != _plain_roll(run[0])):
            first = run[0]
            yield from told(cited(_roll_run(run, w) if len(run) > 1
                                  else _roll_line(first, w), first))
            run = []
        if e is None:
            break
        if key is not None and isinstance(e, Roll):
            run.append(e)
            continue
        if e.in_attack:
            if isinstance(e, (Roll, AutomaticTest)):
                needs.append(e)
            continue
        if isinstance(e, (Roll, AutomaticTest)):
            line: str | None = _roll_line(e, w)
        elif isinstance(e, Volley):
            line = _volley(e, needs, w)
            needs = []
        elif isinstance(e, Decision):
            line = _decision(e, w, decisions or explain)
        else:
            line = _line(e, w)
        if line is None:
            continue
        if isinstance(e, Trigger):
            trigger[:] = [cited(line, e)]
        elif isinstance(e, Phase):
            # a phase begins: the phases pending inside its parent were empty
            trigger.clear()
            names = [name for name, _ in headings]
            del headings[names.index(e.within) + 1 if e.within in names else 0:]
            headings.append((e.phase, cited(line, e)))
        elif isinstance(e, (Round, Turn)):
            headings.clear()
            trigger.clear()
            yield cited(line, e)
        else:
            yield from told(cited(line, e))


def summary_table(result: BattleResult, words: Words | None = None) -> list[str]:
    """The result and a table of every unit (by name)."""
    w = words or Words()
    vp = ", ".join(f"{w.name(side)} {points}" for side, points in result.victory_points.items())
    head = (f"Winner: {w.name(result.winner)}" if result.winner else "Result: a draw")
    lines = [f"{head} — {result.reason}; victory points: {vp}", ""]
    width = max(len(u.name) for u in result.units)
    lines.append(f"  {'unit':<{width}}  {'side':<10} {'models':>12}  status")
    for u in result.units:
        lines.append(f"  {u.name:<{width}}  {w.name(u.side):<10} "
                     f"{f'{u.models}/{u.starting_models}':>12}  {u.status}")
    return lines
