"""One self-contained HTML page that steps through a battle.

The page holds the table drawn once (:func:`rules_run.replay.draw.table_svg`), every step as
data (each unit's place, footprint and tooltip, the step's arrows and lines as SVG, its log
lines), its style and its script inline: it loads nothing (its Content-Security-Policy lets
it load nothing) and works from a file. The same replay gives the same bytes.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from rules_run.replay import draw
from rules_run.replay.steps import Replay, Step

__all__ = ["page_html"]

_HERE = Path(__file__).resolve().parent
_SCRIPT = "page.js"

_PAGE_STYLE = (
    "body{margin:0;font:14px/1.35 sans-serif;color:#222;background:#fafaf7}"
    "header{padding:8px 14px;border-bottom:1px solid #ddd}"
    "header h1{font-size:17px;margin:0 0 2px}header p{margin:0;color:#555}"
    ".swatch{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;"
    "vertical-align:-1px;border-radius:2px}"
    "main{display:flex;gap:12px;padding:10px 14px;align-items:flex-start}"
    "#board{flex:1 1 auto;min-width:0}#board svg{width:100%;height:auto;display:block}"
    "aside{flex:0 0 440px;display:flex;flex-direction:column;gap:8px}"
    "#controls{display:flex;gap:4px;align-items:center;flex-wrap:wrap}"
    "#controls button{font-size:13px;padding:3px 7px}#slider{flex:1 1 160px}"
    "#counter{color:#555;min-width:96px}#title{font-weight:bold}"
    "#log{font:12px/1.4 monospace;white-space:pre-wrap;background:#fff;border:1px solid #ddd;"
    "padding:6px;height:420px;overflow-y:auto}#log .chunk{color:#999}"
    "#log .current{color:#222}#log .current .line-of-step{background:#fff3c4;font-weight:bold}"
    "#hover{min-height:36px;color:#333}#legend{color:#555;font-size:12px}"
    "#legend svg{vertical-align:middle}"
)


def page_html(replay: Replay, start: int) -> str:
    """The page of a replay, opening at step ``start``."""
    first = replay.steps[start]
    footprints: dict[str, int] = {}
    tooltips: dict[str, int] = {}
    infos = {u.id: u for u in replay.units}

    def index(table: dict[str, int], text: str) -> int:
        return table.setdefault(text, len(table))

    steps = []
    for step in replay.steps:
        units = [[p.id, draw.num(p.x), draw.num(replay.depth - p.y), draw.num(p.facing),
                  index(footprints, draw.footprint(p)),
                  index(tooltips, draw.tooltip(infos[p.id], p))] for p in step.units]
        steps.append({"seq": step.seq, "round": step.round, "title": _title(step),
                      "lines": list(step.lines), "units": units,
                      "marks": draw.marks_svg(step.marks, replay.depth)})
    data: dict[str, Any] = {"start": start, "steps": steps, "footprints": list(footprints),
                            "tooltips": list(tooltips)}
    payload = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("</", "<\\/")
    sides = "".join(f'<span class="swatch" style="background:'
                    f'{draw.SIDE_COLOURS[draw.side_colour(replay, side)]}"></span>{escape(side)}'
                    for side in replay.sides)
    script = (_HERE / _SCRIPT).read_text(encoding="utf-8")
    heading = (f"{escape(replay.battle)} — {escape(replay.edition)}, seed "
               f"{escape(str(replay.seed))}, {replay.rounds} rounds")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        f"<title>Replay: {escape(replay.battle)}</title><style>{_PAGE_STYLE}</style></head>\n"
        f"<body><header><h1>{heading}</h1><p>Sides:{sides}. Table {draw.num(replay.width)}\" "
        f"× {draw.num(replay.depth)}\", drawn to scale.</p></header>\n<main><div id=\"board\">"
        f"{draw.table_svg(replay, first, first.marks)}</div>\n<aside><div id=\"controls\">"
        + "".join(f'<button id="{b}" title="{t}" type="button">{label}</button>'
                  for b, t, label in _BUTTONS[:3])
        + f'<input id="slider" type="range" min="0" max="{len(replay.steps) - 1}" '
        f'value="{start}" aria-label="step">'
        + "".join(f'<button id="{b}" title="{t}" type="button">{label}</button>'
                  for b, t, label in _BUTTONS[3:])
        + "<span id=\"counter\"></span></div><div id=\"title\"></div><div id=\"log\"></div>"
        "<div id=\"hover\">Point at a unit for its models, wounds and statuses.</div>"
        f"<div id=\"legend\">{_legend()}</div></aside></main>\n"
        f"<script type=\"application/json\" id=\"replay-data\">{payload}</script>\n"
        f"<script>\n{script}</script>\n</body></html>\n")


_BUTTONS = (("first", "the start (Home)", "|◀"),
            ("back", "the round before (Page Up)", "◀◀"),
            ("prev", "the step before (←)", "◀"),
            ("next", "the next step (→)", "▶"),
            ("forward", "the next round (Page Down)", "▶▶"),
            ("last", "the end (End)", "▶|"))
"""The step buttons: id, tooltip (with the key that does the same), label."""


def _legend() -> str:
    words = {"move": "a move", "move_away": "a move away (a flight)",
             "engage": "into base contact (a charge, a pursuit)",
             "shot": "attacks between units not in contact (shooting)"}
    items = []
    for kind, colour in draw.MARK_COLOURS.items():
        dash = ' stroke-dasharray="4 2"' if kind in ("move_away", "shot") else ""
        items.append(f'<svg width="26" height="10"><line x1="1" y1="5" x2="25" y2="5" '
                     f'stroke="{colour}" stroke-width="2"{dash}/></svg> {words[kind]}')
    return ("Arrows and lines: " + "; ".join(items) + ". A unit's thick edge is its front; "
            "the dashed lines from its front corners bound its front arc. Keys: ← → step, "
            "Page Up/Down a round, Home/End.")


def _title(step: Step) -> str:
    if step.kind == "battle":
        return "The start: the table as set up"
    where = [f"round {step.round}"] if step.round else ["set-up"]
    if step.side:
        where.append(f"turn: {step.side}")
    if step.phase:
        where.append(step.phase)
    return " · ".join(where)
