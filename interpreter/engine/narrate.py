"""Turn a battle's events into the readable log ``rules-run`` prints.

Every event is one line at most (the rolls inside a volley of attacks are summarised by the
volley's line; they stay in the JSON Lines log). ``explain`` adds the citation of the rule
behind each line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from interpreter.engine.driver import BattleResult

__all__ = ["narrate", "summary_table"]


def _values(values: list[Any]) -> str:
    return ", ".join(str(v) for v in values)


def _marker_line(e: dict) -> str:
    """A marker placed, moved, stretched or removed."""
    if e["change"] == "removed":
        return f"    {e['marker']} removed"
    x, y = e["at"]
    where = f"({x:g}, {y:g})"
    start, end = e["diameters"]
    if e["to"] != e["at"]:
        where += f" to ({e['to'][0]:g}, {e['to'][1]:g})"
    size = (f", {start:g}\" across" if start == end else f", {start:g}\" to {end:g}\" across"
            ) if end else ""
    verb = {"placed": "placed at", "moved": "moved to", "stretched": "stretched from"}
    return f"    {e['marker']} {verb[e['change']]} {where}{size}"


def _line(e: dict) -> str | None:
    kind = e["kind"]
    if kind == "battle":
        return (f"Battle under {e['edition']}: {e['rounds']} rounds, sides "
                + ", ".join(e["sides"]))
    if kind == "round":
        return f"\n=== Round {e['round']} ==="
    if kind == "turn":
        return f"-- turn: {e['side']} --"
    if kind == "phase":
        return f"  [{e['phase']}]"
    if kind in ("roll", "test"):
        if e.get("in_attack"):
            return None
        who = f"{'/'.join(e.get('units') or [])} " if e.get("units") else ""
        if e.get("automatic"):
            return f"    {who}{e['rule']}: passes automatically ({e['automatic']})"
        if not e.get("dice"):
            return f"    {who}{e['rule']}: impossible, not rolled → {e['result']}"
        dice = "+".join(str(d) for d in e.get("dice", []))
        mods = "".join(f" {m['amount']:+d} ({m['source']})" for m in e.get("modifiers", []))
        need = f" vs {e['need']}" if e.get("need") is not None else ""
        result = f" → {e['result']}" if e.get("result") else ""
        rerolled = " (re-rolled)" if e.get("rerolled") else ""
        value = f" = {e['value']}" if e.get("value") is not None and kind == "roll" else ""
        return f"    {who}{e['rule']}: rolled {dice}{mods}{value}{need}{result}{rerolled}"
    if kind == "decision":
        decider = e.get("unit") or e.get("side")
        who = f" ({decider})" if decider else ""
        choice = e["choice"] if e["choice"] is not None else "none"
        return f"    decision {e['decision']}{who}: {choice} — {e['why']}"
    if kind == "attacks":
        shown, previous_save = [], None
        for name, n, stops in e.get("steps", []):
            # a save-like step right after another that changed nothing (the target has no
            # such save) is left out
            if not (stops and n == previous_save):
                shown.append(f"{n} {name} {'failed' if stops else 'passed'}")
            previous_save = n if stops else None
        steps = ", ".join(shown)
        return (f"    {e['attacker']} attack {e['target']}: {e['attacks']} attacks, {steps}"
                f" → {e['damage']} damage")
    if kind == "casualties":
        return (f"    {e['unit']} lose {e['slain']} model{'s' if e['slain'] != 1 else ''} "
                f"({e['models_left']} left)")
    if kind == "win":
        return (f"    {e['winner']} wins the battle: {e['reason']}" if e["winner"] is not None
                else f"    the battle is a draw: {e['reason']}")
    if kind == "heal":
        return f"    {e['unit']} heals {e['points']} damage"
    if kind == "returned":
        return (f"    {e['unit']} gets back {e['models']} slain model"
                f"{'s' if e['models'] != 1 else ''} ({e['models_left']} now)")
    if kind == "destroyed":
        return f"    {e['unit']} is destroyed"
    if kind == "left_table":
        return f"    {e['unit']} leaves the table"
    if kind == "attach":
        return f"    {e['unit']} joins {e['to']}"
    if kind == "detach":
        return f"    {e['unit']} leaves {e['to']}"
    if kind == "set_aside":
        return f"    {e['unit']} waits off the table"
    if kind == "arrive":
        return f"    {e['unit']} arrives on the table"
    if kind == "status":
        if e.get("quiet"):
            return None
        return f"    {e['unit']} {e['change']} {e['status']}"
    if kind == "engage":
        return f"    {e['unit']} engages {e['target']} ({e['arc']})"
    if kind == "move":
        other = e.get("toward") or e.get("away_from")
        how = "toward" if "toward" in e else "away from"
        on = f" ({e['on_until_clear']:g}\" of it on until clear)" if e.get("on_until_clear") else ""
        return f"    {e['unit']} moves {e['inches']:g}\" {how} {other}{on}"
    if kind == "marker":
        return _marker_line(e)
    if kind == "wheel":
        return f"    {e['unit']} wheels {e['degrees']:g}° ({e['inches']:g}\")"
    if kind == "align":
        return f"    {e['unit']} aligns its {e['side']} with {e['to']} ({e['arc']})"
    if kind == "log":
        return f"    {e['message']}: {_values(e['values'])}" if e["values"] else \
            f"    {e['message']}"
    if kind == "score":
        if not e["points"]:
            return None
        return f"    {e['side']} scores {e['points']} (total {e['total']})"
    if kind == "roll_off":
        return f"    roll-off {e['sides'][0]} {e['rolls'][0]} v {e['sides'][1]} {e['rolls'][1]}"
    if kind == "trigger":
        return f"    {e['unit']}: {e['rule']} ({e['event']})"
    if kind == "result":
        return None
    return f"    {kind}: {e}"


def _plain_roll(e: dict) -> tuple | None:
    """What makes a roll one of a run of like rolls (the same roll for the same units, with
    no modifiers, need or result: dice thrown for their score), or None."""
    if (e["kind"] != "roll" or e.get("in_attack") or not e.get("dice") or e.get("modifiers")
            or e.get("need") is not None or e.get("result") or e.get("rerolled")
            or e.get("value") != e.get("natural")):
        return None
    return (e["rule"], tuple(e.get("units") or ()), e.get("cite"))


def _roll_run(run: list[dict]) -> str:
    who = "/".join(run[0].get("units") or [])
    who = f"{who} " if who else ""
    scores = ", ".join("+".join(str(d) for d in e["dice"]) for e in run)
    return f"    {who}{run[0]['rule']} ×{len(run)}: rolled {scores}"


def narrate(events: Iterable[dict], explain: bool = False) -> Iterator[str]:
    """The readable lines of a battle's events. A run of like rolls (power dice, say) takes
    one line; a phase heading shows only when something is told in the phase."""
    run: list[dict] = []
    headings: list[tuple[str, str]] = []
    """Phase headings not shown yet: (phase, line), outermost first."""

    def cited(line: str, e: dict) -> str:
        return f"{line}   [{e['cite']}]" if explain and e.get("cite") else line

    def told(line: str) -> Iterator[str]:
        yield from (heading for _, heading in headings)
        headings.clear()
        yield line

    for e in [*events, None]:
        key = _plain_roll(e) if e is not None else None
        if run and (key is None or key != _plain_roll(run[0])):
            yield from told(cited(_roll_run(run) if len(run) > 1 else _line(run[0]) or "",
                                  run[0]))
            run = []
        if e is None:
            break
        if key is not None:
            run.append(e)
            continue
        line = _line(e)
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


def summary_table(result: BattleResult) -> list[str]:
    """The closing lines: the winner and a table of every unit."""
    vp = ", ".join(f"{side} {points}" for side, points in result.victory_points.items())
    head = (f"Winner: {result.winner}" if result.winner else "Result: a draw")
    lines = [f"\n{head} — {result.reason}; victory points: {vp}", ""]
    width = max(len(u.id) for u in result.units)
    lines.append(f"  {'unit':<{width}}  {'side':<10} {'models':>12}  status")
    for u in result.units:
        lines.append(f"  {u.id:<{width}}  {u.side:<10} {f'{u.models}/{u.starting_models}':>12}"
                     f"  {u.status}")
    return lines
