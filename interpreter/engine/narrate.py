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
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rules_run.engine.driver import BattleResult

__all__ = ["Words", "narrate", "summary_table", "cited_lines"]

_FIELD = re.compile(r"\{([^{}?]*)(?:\?([^{}|]*)\|([^{}]*))?\}|\[([^\[\]|]*)\|([^\[\]]*)\]")
"""``{field}``, ``{field?yes|no}``, and ``[singular|plural]``: the verb for the field
before it."""


class Words:
    """How a ruleset's report names things: its ``report:`` words, and the battle's own
    names for its units, objectives, terrain and sides."""

    def __init__(self, report: Mapping[str, Mapping[str, str]] | None = None,
                 entities: Mapping[str, str] | None = None,
                 singular: Iterable[str] = ()) -> None:
        report = report or {}
        self.names = dict(report.get("names", {}))
        self.rolls = dict(report.get("rolls", {}))
        self.rerolls = dict(report.get("rerolls", {}))
        self.decisions = dict(report.get("decisions", {}))
        self.messages = dict(report.get("messages", {}))
        self.entities = dict(entities or {})
        self.singular = set(singular)
        """Units of one model at the start: told with a singular verb."""

    @classmethod
    def of(cls, ruleset: Any, battle: Any) -> Words:
        """The words for a battle under a ruleset."""
        field = battle.doc.value.get("battlefield") or {}
        return cls.named(ruleset.report, battle.sides,
                         [*(field.get("terrain") or ()), *(field.get("objectives") or ())],
                         [(u.id, u.name, u.starting_models) for u in battle.units])

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


def _plain(text: str) -> str:
    """A snake_case id as words: ``flee_distance`` -> ``flee distance``."""
    return text.replace("_", " ")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _need_text(e: dict) -> str:
    if e.get("need") is not None:
        return f", needing {e['need']}+"
    target = e.get("target")
    if target:
        op, x = target
        words = {"<=": f"{x} or less", ">=": f"{x} or more", "<": f"less than {x}",
                 ">": f"more than {x}"}[op]
        return f", needing {words}"
    return ""


def _head(e: dict, w: Words) -> str:
    """Who rolls what: the ruleset's phrase for the roll, else the unit and the roll's name."""
    units = e.get("units") or []
    template = w.rolls.get(e["rule"])
    if template is not None:
        values = dict(e.get("args") or {})
        values.update(unit=units[0] if units else None, other=units[1] if len(units) > 1
                      else None)
        return w.phrase(template, values)
    who = f"{w.name(units[0])}: " if units else ""
    return who + _cap(w.name(e["rule"]))


def _roll_line(e: dict, w: Words, again: bool) -> str:
    head = _head(e, w)
    if e.get("automatic"):
        return f"    {head}: {'passed' if e['result'] == 'pass' else 'failed'} automatically " \
               f"({e['automatic']})"
    if not e.get("dice"):
        return f"    {head}: not rolled, it cannot pass → fails"
    dice = "+".join(str(d) for d in e.get("dice", []))
    mods = "".join(f" {m['amount']:+d} ({m['source']})" for m in e.get("modifiers", []))
    total = e.get("value")
    shown = f" = {w.name(total)}" if (mods or len(e["dice"]) > 1) and total is not None else ""
    result = {"pass": " → passes", "fail": " → fails"}.get(e.get("result") or "", "")
    cause = ""
    if e.get("rerolled"):
        by = e.get("rerolled_by")
        cause = f" (after a re-roll: {', '.join(by)})" if by else " (after a re-roll)"
    elif again:
        cause = f" (a re-roll: {w.rerolls[e['rule']]})"
    return f"    {head}: rolled {dice}{mods}{shown}{_need_text(e)}{result}{cause}"


def _volley(e: dict, needs: list[dict], w: Words) -> str:
    shown, previous_save = [], None
    for name, n, stops in e.get("steps", []):
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
        if t["rule"] == needs[0]["rule"]:
            start = i
        places.setdefault(t["rule"], []).append(i - start)
        if t.get("need") is not None:
            by_rule.setdefault(t["rule"], [])
            if t["need"] not in by_rule[t["rule"]]:
                by_rule[t["rule"]].append(t["need"])
    order = sorted(by_rule, key=lambda r: sum(places[r]) / len(places[r]))
    need = "; ".join(f"{w.name(rule)} {'/'.join(f'{n}+' for n in sorted(by_rule[rule]))}"
                     for rule in order)
    weapon = f" with {w.name(e['weapon'])}" if e.get("weapon") else ""
    verb = w.verb(e["attacker"], "attacks", "attack")
    return (f"    {w.name(e['attacker'])} {verb} {w.name(e['target'])}{weapon}: "
            f"{e['attacks']} attack{'s' if e['attacks'] != 1 else ''}"
            + (f" ({need})" if need else "") + f", {', '.join(shown)} → {e['damage']} damage")


def _casualties(e: dict, w: Words) -> str:
    unit, slain = w.name(e["unit"]), e["slain"]
    each, lost = e.get("wounds_each", 1), e.get("wounds_lost", 0)
    if slain:
        line = (f"    {unit} {w.verb(e['unit'], 'loses', 'lose')} {slain} model"
                f"{'s' if slain != 1 else ''} ({e['models_left']} left")
    else:
        line = (f"    {unit} {w.verb(e['unit'], 'takes', 'take')} {e['damage']} "
                f"wound{'s' if e['damage'] != 1 else ''}, no model falls ("
                f"{e['models_left']} left")
    if each > 1 and lost:
        line += f"; one has {each - lost} of {each} wounds"
    return line + ")"


def _decision(e: dict, w: Words, every: bool) -> str | None:
    template = w.decisions.get(e["decision"])
    if template is None and not every:
        return None
    choice = e["choice"]
    if template is not None and not every:
        if choice is None:
            return None   # nothing chosen (no charge declared): nothing to tell
        return "    " + _cap(w.phrase(template, {"unit": e.get("unit"), "side": e.get("side"),
                                                 "choice": choice}))
    decider = e.get("unit") or e.get("side")
    who = f"{w.name(decider)}: " if decider else ""
    return (f"    {who}{w.name(e['decision'])}: {w.name(choice)} (decided by "
            f"{_plain(e['why'])})")


def _marker_line(e: dict, w: Words) -> str:
    """A marker placed, moved, stretched or removed."""
    if e["change"] == "removed":
        return f"    {_cap(w.name(e['marker']))} removed"
    x, y = e["at"]
    where = f"({x:g}, {y:g})"
    start, end = e["diameters"]
    if e["to"] != e["at"]:
        where += f" to ({e['to'][0]:g}, {e['to'][1]:g})"
    size = (f", {start:g}\" across" if start == end else f", {start:g}\" to {end:g}\" across"
            ) if end else ""
    verb = {"placed": "placed at", "moved": "moved to", "stretched": "stretched from"}
    return f"    {_cap(w.name(e['marker']))} {verb[e['change']]} {where}{size}"


def _line(e: dict, w: Words, every_decision: bool) -> str | None:
    kind = e["kind"]
    if kind == "battle":
        return (f"Battle under {e['edition']}: {e['rounds']} rounds, "
                + " against ".join(w.name(s) for s in e["sides"]))
    if kind == "round":
        return f"\n=== Round {e['round']} ==="
    if kind == "turn":
        return f"-- Turn of {w.name(e['side'])} --"
    if kind == "phase":
        return f"  [{_cap(w.name(e['phase']))}]"
    if kind == "decision":
        return _decision(e, w, every_decision)
    if kind == "casualties":
        return _casualties(e, w)
    if kind == "win":
        return (f"    {w.name(e['winner'])} win the battle: {e['reason']}"
                if e["winner"] is not None else f"    the battle is a draw: {e['reason']}")
    unit = w.name(e.get("unit"))
    if kind == "heal":
        return f"    {unit} {w.verb(e['unit'], 'heals', 'heal')} {e['points']} damage"
    if kind == "returned":
        return (f"    {unit} {w.verb(e['unit'], 'gets', 'get')} back {e['models']} slain "
                f"model{'s' if e['models'] != 1 else ''} ({e['models_left']} now)")
    if kind == "destroyed":
        return f"    {unit} {w.verb(e['unit'], 'is', 'are')} destroyed"
    if kind == "left_table":
        return f"    {unit} {w.verb(e['unit'], 'leaves', 'leave')} the table"
    if kind == "attach":
        return f"    {unit} {w.verb(e['unit'], 'joins', 'join')} {w.name(e['to'])}"
    if kind == "detach":
        return f"    {unit} {w.verb(e['unit'], 'leaves', 'leave')} {w.name(e['to'])}"
    if kind == "set_aside":
        return f"    {unit} {w.verb(e['unit'], 'waits', 'wait')} off the table"
    if kind == "arrive":
        return f"    {unit} {w.verb(e['unit'], 'arrives', 'arrive')} on the table"
    if kind == "status":
        if e.get("quiet"):
            return None
        now = "now" if e["change"] == "gains" else "no longer"
        return f"    {unit}: {now} {w.name(e['status'])}"
    if kind == "engage":
        return (f"    {unit} {w.verb(e['unit'], 'engages', 'engage')} {w.name(e['target'])} "
                f"in the {e['arc']}")
    if kind == "move":
        other = e.get("toward") or e.get("away_from")
        how = "toward" if "toward" in e else "away from"
        on = f" ({e['on_until_clear']:g}\" of it on until clear)" if e.get("on_until_clear") else ""
        return (f"    {unit} {w.verb(e['unit'], 'moves', 'move')} {e['inches']:g}\" {how} "
                f"{w.name(other)}{on}")
    if kind == "marker":
        return _marker_line(e, w)
    if kind == "wheel":
        return (f"    {unit} {w.verb(e['unit'], 'wheels', 'wheel')} {e['degrees']:g}° "
                f"({e['inches']:g}\")")
    if kind == "align":
        return (f"    {unit} {w.verb(e['unit'], 'aligns its', 'align their')} {e['flush']} with "
                f"{w.name(e['to'])} ({e['arc']})")
    if kind == "log":
        template = w.messages.get(e["message"])
        if template is not None:
            values = {str(i): v for i, v in enumerate(e["values"], 1)}
            return "    " + _cap(w.phrase(template, values))
        told = "; ".join(w.name(v) for v in e["values"])
        return f"    {_cap(e['message'])}: {told}" if e["values"] else f"    {_cap(e['message'])}"
    if kind == "score":
        if not e["points"]:
            return None
        return f"    {w.name(e['side'])} score {e['points']} (total {e['total']})"
    if kind == "roll_off":
        return (f"    roll-off: {w.name(e['sides'][0])} {e['rolls'][0]}, "
                f"{w.name(e['sides'][1])} {e['rolls'][1]}")
    if kind == "trigger":
        return f"    {unit}: {e['rule']} ({w.name(e['event'])})"
    if kind in ("result", "expire"):
        return None
    return f"    {_cap(w.name(kind))}"


def _plain_roll(e: dict) -> tuple | None:
    """What makes a roll one of a run of like rolls (the same roll for the same units, with
    no modifiers, need or result: dice thrown for their score), or None."""
    if (e["kind"] != "roll" or e.get("in_attack") or not e.get("dice") or e.get("modifiers")
            or e.get("need") is not None or e.get("result") or e.get("rerolled")
            or e.get("value") != e.get("natural")):
        return None
    return (e["rule"], tuple(e.get("units") or ()), e.get("cite"))


def _roll_run(run: list[dict], w: Words) -> str:
    units = run[0].get("units") or []
    who = f"{w.name(units[0])}: " if units else ""
    scores = ", ".join("+".join(str(d) for d in e["dice"]) for e in run)
    return f"    {who}{_cap(w.name(run[0]['rule']))} ×{len(run)}: rolled {scores}"


def _same_test(e: dict, before: dict | None, w: Words) -> bool:
    """A re-roll the rules make themselves: a test the report says is re-rolled so
    (``rerolls:``), taken again right after it failed, for the same units."""
    return (before is not None and e["rule"] in w.rerolls and e["kind"] == "test"
            and before["kind"] == "test"
            and before.get("result") == "fail" and before["rule"] == e["rule"]
            and before.get("units") == e.get("units") and not e.get("in_attack"))


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


def narrate(events: Iterable[dict], words: Words | None = None, explain: bool = False,
            decisions: bool = False, sources: Path | None = None) -> Iterator[str]:
    """The battle report's lines. A run of like rolls (power dice, say) takes one line; a
    phase heading shows only when something is told in the phase."""
    w = words or Words()
    run: list[dict] = []
    needs: list[dict] = []
    """The rolls inside the volley of attacks being resolved (told with its line)."""
    previous: dict | None = None
    headings: list[tuple[str, str]] = []
    """Phase headings not shown yet: (phase, line), outermost first."""

    def cited(line: str, e: dict) -> str:
        if not (explain and e.get("cite")):
            return line
        quoted = cited_lines(e["cite"], sources) if sources is not None else []
        return "\n".join([f"{line}   [{e['cite']}]"] + [f"        | {q}" for q in quoted])

    def told(line: str) -> Iterator[str]:
        yield from (heading for _, heading in headings)
        headings.clear()
        yield line

    for e in [*events, None]:
        if e is not None and e["kind"] == "roll" and not e.get("dice") \
                and not e.get("automatic"):
            continue   # a roll of no dice (a counted roll of 0): nothing to tell
        key = _plain_roll(e) if e is not None else None
        if run and (key is None or key != _plain_roll(run[0])):
            first = run[0]
            yield from told(cited(_roll_run(run, w) if len(run) > 1
                                  else _roll_line(first, w, False), first))
            run = []
        if e is None:
            break
        if key is not None:
            run.append(e)
            previous = e
            continue
        if e.get("in_attack"):
            needs.append(e)
            continue
        if e["kind"] in ("roll", "test"):
            line: str | None = _roll_line(e, w, _same_test(e, previous, w))
        elif e["kind"] == "attacks":
            line = _volley(e, needs, w)
            needs = []
        else:
            line = _line(e, w, decisions or explain)
        if e["kind"] not in ("status", "decision", "phase"):
            previous = e
        if line is None:
            continue
        if e["kind"] == "phase":
            # a phase begins: the phases pending inside its parent were empty
            names = [name for name, _ in headings]
            within = e.get("within")
            del headings[names.index(within) + 1 if within in names else 0:]
            headings.append((e["phase"], cited(line, e)))
        elif e["kind"] in ("round", "turn"):
            headings.clear()
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
