"""Charts of results: grouped bars with their values, and an optional cumulative curve.

One chart description, two renderers: SVG written by hand (no dependency, byte-identical
for equal data) and PNG through matplotlib (the ``png`` extra, imported only then).
``rules-odds --plot`` draws "exactly k" bars and the "at least k" curve; ``rules-run --runs
--plot`` draws win rates, survivors and victory points; the notebook API shows the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from rules_run import slotted
from rules_run.diagnostics import UsageError

__all__ = ["Panel", "svg_text", "write_chart", "damage_panel", "stats_panels", "COLOURS"]

COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860")
WIDTH = 760
PANEL_HEIGHT = 250


@slotted.frozen
class Panel:
    """One panel: bars for each category, one per series, each with its value written."""

    title: str
    categories: tuple[str, ...]
    series: tuple[tuple[str, tuple[float, ...]], ...]
    """(name, one value per category)."""
    curves: tuple[tuple[str, tuple[float, ...]], ...] = ()
    """Lines over the same categories (the cumulative "at least k"), on the same scale."""
    percent: bool = True
    """Values are probabilities, shown as percentages on a 0-100% scale."""

    def label(self, value: float) -> str:
        return f"{value:.1%}" if self.percent else f"{value:.2f}"


def _text(x: float, y: float, s: str, anchor: str = "middle", size: int = 11) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}">'
            f'{escape(s)}</text>')


def _panel_svg(p: Panel, top: float) -> list[str]:
    left, right = 60.0, WIDTH - 20.0
    base, height = top + PANEL_HEIGHT - 40, PANEL_HEIGHT - 90
    peak = 1.0 if p.percent else max([v for _, vs in p.series + p.curves for v in vs] + [1e-9])
    out = [_text(20, top + 20, p.title, "start", 13),
           f'<line x1="{left}" y1="{base:.1f}" x2="{right}" y2="{base:.1f}" stroke="#333"/>']
    for i, (name, _) in enumerate(p.series + p.curves):
        x = right - 150 * (len(p.series + p.curves) - i)
        out.append(f'<rect x="{x:.1f}" y="{top + 30:.1f}" width="10" height="10" '
                   f'fill="{COLOURS[i % len(COLOURS)]}"/>')
        out.append(_text(x + 14, top + 39, name, "start", 10))
    slot = (right - left) / max(1, len(p.categories))
    bar = slot * 0.8 / max(1, len(p.series))
    for c, category in enumerate(p.categories):
        x0 = left + slot * c + slot * 0.1
        for s, (_, values) in enumerate(p.series):
            v = values[c]
            h = height * v / peak
            x = x0 + s * bar
            out.append(f'<rect class="bar" x="{x:.1f}" y="{base - h:.1f}" width="{bar - 1:.1f}" '
                       f'height="{h:.1f}" fill="{COLOURS[s % len(COLOURS)]}" '
                       f'data-value="{v:.6g}"/>')
            out.append(_text(x + bar / 2, base - h - 3, p.label(v), size=9))
        out.append(_text(left + slot * (c + 0.5), base + 14, category))
    for j, (_, values) in enumerate(p.curves):
        colour = COLOURS[(len(p.series) + j) % len(COLOURS)]
        points = " ".join(f"{left + slot * (c + 0.5):.1f},{base - height * v / peak:.1f}"
                          for c, v in enumerate(values))
        out.append(f'<polyline class="curve" points="{points}" fill="none" '
                   f'stroke="{colour}" stroke-width="2"/>')
    return out


def svg_text(panels: Sequence[Panel]) -> str:
    """The panels, one under another, as SVG text (equal data give equal bytes)."""
    parts: list[str] = []
    for i, p in enumerate(panels):
        parts += _panel_svg(p, i * PANEL_HEIGHT)
    height = PANEL_HEIGHT * len(panels)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif">\n'
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>\n'
            + "\n".join(parts) + "\n</svg>\n")


def _png(panels: Sequence[Panel], path: Path) -> None:
    try:
        import matplotlib
    except ImportError:
        raise UsageError("a PNG chart needs matplotlib: pip install 'rules-run[png]' (or name "
                         "the file *.svg, which needs nothing)") from None
    matplotlib.use("Agg")
    from matplotlib import pyplot

    fig, axes = pyplot.subplots(len(panels), 1, figsize=(7.6, 2.5 * len(panels)),
                                squeeze=False)
    for ax, p in zip((a[0] for a in axes), panels):
        n = max(1, len(p.series))
        for s, (name, values) in enumerate(p.series):
            xs = [c + (s - (n - 1) / 2) * 0.8 / n for c in range(len(p.categories))]
            bars = ax.bar(xs, values, width=0.8 / n, label=name, color=COLOURS[s % 6])
            ax.bar_label(bars, labels=[p.label(v) for v in values], fontsize=7)
        for j, (name, values) in enumerate(p.curves):
            ax.plot(range(len(p.categories)), values, label=name,
                    color=COLOURS[(len(p.series) + j) % 6])
        ax.set_xticks(range(len(p.categories)), list(p.categories))
        ax.set_title(p.title, fontsize=10, loc="left")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    pyplot.close(fig)


def write_chart(panels: Sequence[Panel], path: str | Path) -> None:
    """Write the chart to ``path``: SVG for ``*.svg``, PNG (matplotlib) for ``*.png``.

    Raises:
        UsageError: another suffix, matplotlib missing for a PNG, or the file cannot be
            written.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"--plot writes SVG or PNG; name the file *.svg or *.png, got "
                         f"{str(path)!r}")
    try:
        if suffix == ".svg":
            target.write_text(svg_text(panels), encoding="utf-8")
        else:
            _png(panels, target)
    except OSError as err:
        raise UsageError(f"cannot write {str(path)!r}: {err.strerror}") from None


def damage_panel(found: Sequence[Any]) -> Panel:
    """The chart of the damage (:class:`rules_run.engine.odds.Odds`, one per attacker):
    each attacker's 'exactly k' bars and 'at least k' curve."""
    top = max(o.damage.max() for o in found)
    ks = range(0, top + 1)
    return Panel(
        f"Damage to {found[0].target.name}: exactly k (bars), at least k (lines)",
        tuple(str(k) for k in ks),
        tuple((f"{o.attacker.name}: exactly", tuple(float(o.damage.probability(k)) for k in ks))
              for o in found),
        tuple((f"{o.attacker.name}: at least",
               tuple(float(o.damage.p_at_least(k)) for k in ks)) for o in found))


def stats_panels(stats: Mapping[str, Any], names: Mapping[str, str]) -> list[Panel]:
    """The chart of many battles (:func:`rules_run.engine.stats.summarise`'s statistics;
    ``names``: unit id -> name): win rates, mean survivors per unit, mean victory points."""
    outcomes = stats["outcomes"]
    units = stats["units"]
    vps = stats["victory_points"]
    return [
        Panel(f"Outcomes of {stats['runs']} battles", tuple(
            "draws" if k == "draw" else f"{k} wins" for k in outcomes),
            (("rate", tuple(o["rate"] for o in outcomes.values())),)),
        Panel("Survivors per unit (mean)", tuple(names.get(k, k) for k in units),
              (("models left", tuple(u["survivors"]["mean"] for u in units.values())),
               ("starting models", tuple(float(u["starting_models"]) for u in units.values()))),
              percent=False),
        Panel("Victory points per side (mean)", tuple(vps),
              (("victory points", tuple(v["mean"] for v in vps.values())),), percent=False),
    ]
