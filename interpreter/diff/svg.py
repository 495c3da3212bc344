"""A chart of a diff as a hand-written SVG file (no plotting library needed).

Three panels: the battle's outcome rates under A and under B with their 95% intervals; the
distribution of the victory-point margin under both, overlaid; and, for a patch, how much
each operation moves the first side's win rate, with the total.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from rules_run.diff.battles import Paired, metric_label
from rules_run.diff.report import DiffReport

__all__ = ["svg_text", "write_svg"]

COLOUR_A = "#4c72b0"
COLOUR_B = "#dd8452"
WIDTH = 760
_FONT = 'font-family="sans-serif" font-size="12"'


def _text(x: float, y: float, s: str, anchor: str = "start", size: int = 12,
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
            f'font-weight="{weight}">{escape(s)}</text>')


def _rect(x: float, y: float, w: float, h: float, fill: str, opacity: float = 1.0) -> str:
    if w < 0:
        x, w = x + w, -w
    if h < 0:
        y, h = y + h, -h
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0.5):.1f}" height="{h:.1f}" '
            f'fill="{fill}" fill-opacity="{opacity}"/>')


def _line(x1: float, y1: float, x2: float, y2: float, colour: str = "#333",
          dash: str | None = None) -> str:
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
            f'stroke="{colour}" stroke-width="1"{extra}/>')


def _outcomes(report: DiffReport, top: float) -> tuple[list[str], float]:
    bd = report.battle
    assert bd is not None
    out = [_text(20, top + 16, f"Outcomes of {bd.battle} ({bd.runs} runs each, seed {bd.seed}; "
                 "95% intervals)", weight="bold")]
    names = list(bd.a["outcomes"])
    left, right, base, height = 60, WIDTH - 20, top + 190, 150
    out.append(_line(left, base, right, base))
    for pct in (0, 25, 50, 75, 100):
        y = base - height * pct / 100
        out.append(_line(left, y, right, y, "#ddd"))
        out.append(_text(left - 6, y + 4, f"{pct}%", "end"))
    slot = (right - left) / max(1, len(names))
    bar = min(50.0, slot / 3)
    for i, name in enumerate(names):
        cx = left + slot * (i + 0.5)
        for j, (summary, colour) in enumerate(((bd.a, COLOUR_A), (bd.b, COLOUR_B))):
            o = summary["outcomes"][name]
            x = cx - bar + j * bar
            out.append(_rect(x + 2, base, bar - 4, -height * o["rate"], colour))
            mid = x + bar / 2
            out.append(_line(mid, base - height * o["low"], mid, base - height * o["high"]))
            out.append(_text(mid, base - height * o["rate"] - 4 if o["high"] - o["rate"] < 0.05
                             else base - height * o["high"] - 4, f"{o['rate']:.0%}", "middle",
                             10))
        out.append(_text(cx, base + 16, "draws" if name == "draw" else f"won by {name}",
                         "middle"))
    return out, base + 30


def _margins(report: DiffReport, top: float) -> tuple[list[str], float]:
    bd = report.battle
    assert bd is not None
    if not bd.margins:
        return [], top
    s0, s1 = bd.sides[0], bd.sides[1]
    out = [_text(20, top + 16, f"Victory points of {s0} minus {s1}, per run (A and B overlaid)",
                 weight="bold")]
    left, right, base, height = 60, WIDTH - 20, top + 170, 130
    lo = min(m for m, _, _ in bd.margins)
    hi = max(m for m, _, _ in bd.margins)
    bins = 24
    span = (hi - lo) or 1
    counts = [[0, 0] for _ in range(bins)]
    for m, x, y in bd.margins:
        k = min(bins - 1, int((m - lo) / span * bins))
        counts[k][0] += x
        counts[k][1] += y
    peak = max(1, max(max(c) for c in counts))
    w = (right - left) / bins
    out.append(_line(left, base, right, base))
    for k, (x, y) in enumerate(counts):
        out.append(_rect(left + k * w + 1, base, w - 2, -height * x / peak, COLOUR_A, 0.55))
        out.append(_rect(left + k * w + 1, base, w - 2, -height * y / peak, COLOUR_B, 0.55))
    if lo <= 0 <= hi:
        zero = left + (0 - lo) / span * (right - left)
        out.append(_line(zero, base - height - 5, zero, base + 4, "#333", "4 3"))
    out.append(_text(left, base + 16, f"{lo:g}", "start"))
    out.append(_text(right, base + 16, f"{hi:g}", "end"))
    out.append(_text(left - 6, base - height + 4, f"{peak}", "end", 10))
    return out, base + 30


def _bars(title: str, rows: Sequence[tuple[str, Paired, bool]], top: float
          ) -> tuple[list[str], float]:
    out = [_text(20, top + 16, title, weight="bold")]
    label_w, right = 300, WIDTH - 70
    row_h = 26
    y0 = top + 30
    limit = max([abs(p.low) for _, p, _ in rows] + [abs(p.high) for _, p, _ in rows] + [1e-9])
    centre = label_w + (right - label_w) / 2
    scale = (right - label_w) / 2 / limit
    out.append(_line(centre, y0 - 4, centre, y0 + row_h * len(rows)))
    for i, (label, p, total) in enumerate(rows):
        y = y0 + i * row_h
        short = label if len(label) <= 46 else label[:45] + "…"
        out.append(_text(label_w - 8, y + 15, short, "end", weight="bold" if total else "normal"))
        out.append(_rect(centre, y + 4, p.mean * scale, 14, "#555" if total else COLOUR_B))
        out.append(_line(centre + p.low * scale, y + 11, centre + p.high * scale, y + 11))
        out.append(_text(WIDTH - 12, y + 15, f"{p.mean * 100:+.1f}", "end", 11,
                         "bold" if total else "normal"))
    return out, y0 + row_h * len(rows) + 10


def svg_text(report: DiffReport) -> str:
    """The chart as SVG text."""
    parts: list[str] = []
    y = 0.0
    if report.battle is not None:
        chunk, y = _outcomes(report, y)
        parts += chunk
        names = (f"A: {report.a['id']}", f"B: {report.b['id']}")
        x = WIDTH - 20 - sum(30 + 6.5 * len(n) for n in names)
        for name, colour in zip(names, (COLOUR_A, COLOUR_B)):
            parts.append(_rect(x, 30, 10, 10, colour))
            parts.append(_text(x + 14, 39, name, size=11))
            x += 30 + 6.5 * len(name)
        chunk, y = _margins(report, y)
        parts += chunk
    att = report.attribution
    if att is not None:
        key = att.metrics[0]
        rows = [(s.label, s.delta(key), False) for s in att.steps]
        rows.append(("total (B - A)", att.total.delta(key), True))
        chunk, y = _bars(f"Attribution: how each operation moves the rate '{metric_label(key)}' "
                         "(percentage points, 95% intervals)", rows, y)
        parts += chunk
    height = int(y + 10)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" {_FONT}>\n'
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def write_svg(report: DiffReport, path: str | Path) -> None:
    """Write the chart to ``path``."""
    Path(path).write_text(svg_text(report), encoding="utf-8")
