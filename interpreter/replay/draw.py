"""The table of a replay step as SVG, to scale: one user unit is one inch.

The table's y runs up the table (a unit facing 0 faces +y), SVG's runs down the page, so a
point (x, y) of the table is drawn at (x, depth - y), and a unit facing f is turned by f
degrees (clockwise on the page: 90 faces +x, to the right). A unit is its footprint: its
models' bases, ``files`` wide, rank behind rank, the last rank centred; its front edge drawn
thick, a notch at its front and the 45° lines from its front corners that bound its front
arc. Everything is written with fixed decimals, so one step gives one text.
"""

from __future__ import annotations

from html import escape
from typing import Any

from rules_run.replay.steps import Mark, Placed, Replay, Step, UnitInfo

__all__ = ["MARK_COLOURS", "SIDE_COLOURS", "STYLE", "footprint", "marks_svg", "num",
           "side_colour", "table_svg", "tooltip", "unit_svg"]

SIDE_COLOURS = ("#2f6db5", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085")
"""The sides' colours, in the order the battle gives its sides."""
_TERRAIN_COLOURS = ("#cfe3bd", "#e6d7ad", "#d3d3d3", "#c6dbe9", "#e9cfe1", "#dfe6c1")
"""Terrain fills, by the order in which each type of piece first appears."""
PX_PER_INCH = 12
"""How large a static picture is: pixels per inch of table."""
_ARC = 3.0
"""How long the front arc's lines are drawn, in inches."""
_MARGIN = 3.0
"""Inches around the table for the rulers (and, in a picture, the caption)."""

MARK_COLOURS = {"move": "#333333", "move_away": "#c8960c", "engage": "#bb0000",
                "shot": "#e67e22"}
"""The colour of each kind of mark: an arrow for a move, a move away (a flight) and a move
into contact (a charge); a line for attacks between units not in contact (shooting)."""

STYLE = "".join(
    [".table{fill:#f4f1e6;stroke:#555;stroke-width:.08}",
     ".grid{stroke:#ddd6c3;stroke-width:.04}",
     ".ruler{font:.9px sans-serif;fill:#666}",
     ".terrain rect{stroke:#7a7a6a;stroke-width:.06}",
     ".terrain text{font:italic .8px sans-serif;fill:#555}",
     ".objective circle{fill:#fff;stroke:#333;stroke-width:.08}",
     ".objective text{font:.8px sans-serif;fill:#333}",
     ".unit .fp{fill-opacity:.15;stroke-width:.06}",
     ".unit .base{fill-opacity:.55;stroke:#fff;stroke-width:.03}",
     ".unit .front{stroke-width:.16}",
     ".unit .arc{fill:none;stroke-width:.04;stroke-dasharray:.3 .2;opacity:.7}",
     ".unit .label{font:bold .8px sans-serif;text-anchor:middle;fill:#111;"
     "paint-order:stroke;stroke:#fff;stroke-width:.12}",
     ".mark{fill:none;stroke-width:.14}",
     ".mark-move_away{stroke-dasharray:.5 .25}",
     ".mark-engage{stroke-width:.2}",
     ".mark-shot{stroke-dasharray:.2 .2}",
     ".mark-shape{fill:#9b59b6;fill-opacity:.25;stroke:#6c3483;stroke-width:.08}",
     ".caption{font:1.2px sans-serif;fill:#222}"]
    + [f".mark-{kind}{{stroke:{c}}}" for kind, c in MARK_COLOURS.items()]
    + [f".side-{i} .fp,.side-{i} .base,.side-{i} .nose{{fill:{c}}}"
       f".side-{i} .fp,.side-{i} .front,.side-{i} .arc{{stroke:{c}}}"
       for i, c in enumerate(SIDE_COLOURS)])
"""The picture's style sheet (the HTML page uses the same)."""

_ARROWS = ("move", "move_away", "engage")
_DEFS = "<defs>" + "".join(
    f'<marker id="arrow-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="4" '
    f'markerHeight="4" orient="auto"><path d="M0 0L10 5L0 10z" '
    f'fill="{MARK_COLOURS[kind]}"/></marker>' for kind in _ARROWS) + "</defs>"


def side_colour(replay: Replay, side: str) -> int:
    """Which of :data:`SIDE_COLOURS` (and of the style's ``side-N`` classes) a side has."""
    return (replay.sides.index(side) if side in replay.sides else 0) % len(SIDE_COLOURS)


def num(value: float) -> str:
    """A number as the picture writes it: at most three decimals, no trailing zeros.

    Examples:
        >>> num(12.0), num(0.78740), num(-0.0004)
        ('12', '0.787', '0')
    """
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def footprint(p: Placed) -> str:
    """A unit's footprint, centred on (0, 0), its front up the page (-y)."""
    w, d = p.files * p.base_width, p.ranks * p.base_depth
    x0, y0 = -w / 2, -d / 2
    parts = [f'<rect class="fp" x="{num(x0)}" y="{num(y0)}" width="{num(w)}" '
             f'height="{num(d)}"/>']
    left = p.models
    for rank in range(p.ranks):
        n = min(p.files, left)
        left -= n
        offset = x0 + (p.files - n) * p.base_width / 2
        y = y0 + rank * p.base_depth
        parts.extend(f'<rect class="base" x="{num(offset + i * p.base_width)}" y="{num(y)}" '
                     f'width="{num(p.base_width)}" height="{num(p.base_depth)}"/>'
                     for i in range(n))
    notch = min(0.5, w / 4)
    parts.append(f'<path class="arc" d="M{num(x0)} {num(y0)}l{num(-_ARC)} {num(-_ARC)}'
                 f'M{num(-x0)} {num(y0)}l{num(_ARC)} {num(-_ARC)}"/>')
    parts.append(f'<line class="front" x1="{num(x0)}" y1="{num(y0)}" x2="{num(-x0)}" '
                 f'y2="{num(y0)}"/>')
    parts.append(f'<path class="nose" d="M{num(-notch)} {num(y0)}L0 {num(y0 - notch)}'
                 f'L{num(notch)} {num(y0)}z"/>')
    return "".join(parts)


def tooltip(info: UnitInfo, p: Placed) -> str:
    """What a unit's tooltip says: its name, side, models and wounds left, statuses."""
    statuses = ", ".join(p.statuses) if p.statuses else "none"
    return (f"{info.name} ({info.id}), {info.side}: {p.models} of {info.models} models, "
            f"{p.wounds} of {info.wounds} wounds; statuses: {statuses}")


def translate(p: Placed, depth: float) -> str:
    """Where a unit's group is drawn (its centre on the page)."""
    return f"translate({num(p.x)} {num(depth - p.y)})"


def rotate(p: Placed) -> str:
    """How a unit's footprint is turned."""
    return f"rotate({num(p.facing)})"


def unit_svg(replay: Replay, info: UnitInfo, p: Placed | None) -> str:
    """A unit's group: its footprint turned to its facing, its label upright, its tooltip.
    ``None``: a unit not on the table now (drawn hidden, for a page to show later)."""
    side = side_colour(replay, info.side)
    if p is None:
        return (f'<g class="unit side-{side}" data-unit="{escape(info.id)}" '
                f'style="display:none"><title></title><g class="body"></g>'
                f'<text class="label" y="0.3">{escape(info.id)}</text></g>')
    return (f'<g class="unit side-{side}" data-unit="{escape(info.id)}" '
            f'transform="{translate(p, replay.depth)}"><title>{escape(tooltip(info, p))}'
            f'</title><g class="body" transform="{rotate(p)}">{footprint(p)}</g>'
            f'<text class="label" y="0.3">{escape(info.id)}</text></g>')


def marks_svg(marks: tuple[Mark, ...] | list[Mark], depth: float) -> str:
    """The arrows, lines and shapes of some steps."""
    parts = []
    for m in marks:
        if m.kind == "shape" and m.shape is not None:
            parts.append(_shape(m.shape, depth))
            continue
        (x1, y1), (x2, y2) = m.points
        end = f' marker-end="url(#arrow-{m.kind})"' if m.kind in _ARROWS else ""
        parts.append(f'<line class="mark mark-{m.kind}" x1="{num(x1)}" y1="{num(depth - y1)}" '
                     f'x2="{num(x2)}" y2="{num(depth - y2)}"{end}/>')
    return "".join(parts)


def _shape(shape: dict[str, Any], depth: float) -> str:
    """A template or marker: a ``circle`` (x, y, radius) or a ``polygon`` (points)."""
    title = f"<title>{escape(str(shape['label']))}</title>" if shape.get("label") else ""
    if shape.get("kind") == "circle":
        return (f'<circle class="mark-shape" cx="{num(float(shape["x"]))}" '
                f'cy="{num(depth - float(shape["y"]))}" r="{num(float(shape["radius"]))}">'
                f"{title}</circle>")
    points = " ".join(f"{num(float(x))},{num(depth - float(y))}" for x, y in shape["points"])
    return f'<polygon class="mark-shape" points="{points}">{title}</polygon>'


def _ground(replay: Replay) -> str:
    """The table, a grid every 6", rulers every 12", the terrain (named above its upper left
    corner) and the objectives."""
    w, d = replay.width, replay.depth
    parts = [f'<rect class="table" x="0" y="0" width="{num(w)}" height="{num(d)}"/>']
    grid = [f"M{num(x)} 0V{num(d)}" for x in range(6, int(w), 6) if x < w]
    grid += [f"M0 {num(d - y)}H{num(w)}" for y in range(6, int(d), 6) if y < d]
    parts.append(f'<path class="grid" d="{"".join(grid)}"/>')
    parts.extend(f'<text class="ruler" x="{x}" y="{num(d + 1.2)}" text-anchor="middle">'
                 f'{x}"</text>' for x in range(0, int(w) + 1, 12))
    parts.extend(f'<text class="ruler" x="-0.4" y="{num(d - y + 0.3)}" text-anchor="end">'
                 f'{y}"</text>' for y in range(0, int(d) + 1, 12))
    kinds: list[str] = []
    for t in replay.terrain:
        if t["type"] not in kinds:
            kinds.append(t["type"])
        fill = _TERRAIN_COLOURS[kinds.index(t["type"]) % len(_TERRAIN_COLOURS)]
        x0, y0 = t["x"] - t["width"] / 2, d - t["y"] - t["depth"] / 2
        effects = ", ".join(t.get("effects") or ()) or "no effects"
        parts.append(f'<g class="terrain" data-terrain="{escape(t["id"])}">'
                     f'<title>{escape(t["name"])} ({escape(t["type"])}): {escape(effects)}'
                     f'</title><rect x="{num(x0)}" y="{num(y0)}" width="{num(t["width"])}" '
                     f'height="{num(t["depth"])}" style="fill:{fill}"/>'
                     f'<text x="{num(x0 + 0.2)}" y="{num(y0 - 0.25)}">{escape(t["name"])}'
                     "</text></g>")
    for o in replay.objectives:
        cx, cy = num(o["x"]), num(d - o["y"])
        parts.append(f'<g class="objective" data-objective="{escape(o["id"])}">'
                     f'<title>{escape(o["name"])}</title><circle cx="{cx}" cy="{cy}" r="0.8"/>'
                     f'<text x="{num(o["x"] + 1)}" y="{num(d - o["y"] - 0.9)}">'
                     f'{escape(o["name"])}</text></g>')
    return "".join(parts)


def table_svg(replay: Replay, step: Step, marks: list[Mark] | tuple[Mark, ...],
              caption: str | None = None) -> str:
    """The whole picture of the table at a step, with the marks given.

    With a ``caption``, a picture on its own: the caption above the table, a size in pixels,
    only the units on the table. Without, the page's table: every unit of the battle, those
    not on the table at this step hidden, for the page to show when they are."""
    w, d, m = replay.width, replay.depth, _MARGIN
    top = m + (2.0 if caption is not None else 0.0)
    box = f"{num(-m)} {num(-top)} {num(w + 2 * m)} {num(d + m + top)}"
    size = ""
    if caption is not None:
        size = (f' width="{num((w + 2 * m) * PX_PER_INCH)}" '
                f'height="{num((d + m + top) * PX_PER_INCH)}"')
    shown = {p.id: p for p in step.units}
    units = "".join(unit_svg(replay, info, shown.get(info.id)) for info in replay.units
                    if caption is None or info.id in shown)
    head = (f'<text class="caption" x="0" y="{num(-m)}">{escape(caption)}</text>'
            if caption is not None else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}"{size} '
            f'font-family="sans-serif"><style>{STYLE}</style>{_DEFS}{head}{_ground(replay)}'
            f'<g id="units">{units}</g><g id="marks">{marks_svg(marks, d)}</g></svg>')
