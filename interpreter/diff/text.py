"""The readable report of a diff (``rules-diff`` without ``--json``)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from rules_run.diff.battles import Attribution, BattleDiff, Paired, metric_label
from rules_run.diff.behaviour import BehaviourDiff, DeclBehaviour
from rules_run.diff.report import DiffReport
from rules_run.diff.structure import SIDES, DeclChange, StructureDiff

__all__ = ["render"]

_RELATION = {
    "same": "A and B are the same ruleset",
    "patch": "B is a patch of A",
    "reverse patch": "A is a patch of B (give them the other way round to list the patch's "
                     "operations)",
    "unrelated": "neither extends the other",
}


def render(report: DiffReport, top: int = 5) -> list[str]:
    """The report as lines of text; ``top`` cells are shown per declaration."""
    lines = list(_header(report))
    lines += [""] + list(_structure(report.structure))
    if report.behaviour is not None:
        lines += [""] + list(_behaviour(report.behaviour, top))
    if report.battle is not None:
        lines += [""] + list(_battle(report.battle))
    if report.attribution is not None:
        lines += [""] + list(_attribution(report.attribution, report.battle))
    elif report.notes:
        lines += [""] + [f"note: {n}" for n in report.notes]
    return [line.rstrip() for line in lines]


def _header(report: DiffReport) -> Iterator[str]:
    a, b = report.a, report.b
    yield f"rules-diff: {a['id']} -> {b['id']}"
    width = max(len(a["id"]), len(b["id"]))
    yield f"  A  {a['id']:<{width}}  {a['title']} ({a['folder']})"
    yield f"  B  {b['id']:<{width}}  {b['title']} ({b['folder']})"
    relation = report.structure.relation
    chain = " -> ".join(b["chain"]) if relation == "patch" else None
    yield f"  {_RELATION[relation]}" + (f": {chain}" if chain else "")


# ---------------------------------------------------------------- structure


def _structure(s: StructureDiff) -> Iterator[str]:
    counts = s.counts()
    if s.empty:
        yield "Structure: no difference (every declaration, rule, table cell and unit profile " \
              "is the same)"
    else:
        yield (f"Structure: {counts['changed']} changed, {counts['added']} added, "
               f"{counts['removed']} removed")
    if s.patch is not None:
        yield f"  the patch's operations, in order ({len(s.patch)}):"
        for p in s.patch:
            patch = f"[{p.patch}] " if len({q.patch for q in s.patch}) > 1 else ""
            yield f"    {p.index}. {patch}{p.label()}  ({p.at})"
            yield f"       @ {p.cite or '(no citation)'}"
    for d in s.declarations:
        yield from _decl(d)
    for line in s.data:
        yield f"  data: {line}"


def _decl(d: DeclChange) -> Iterator[str]:
    name = f'"{d.name}"' if d.kind == "rule" else d.name
    what = ""
    if d.change == "changed":
        what = ": citation only" if d.citation_only else (
            ": " + "; ".join(d.details) if d.details else "")
    yield f"  {d.change} {d.kind} {name}{what}"
    for label, side in zip(SIDES, (d.a, d.b)):
        if side is None:
            yield f"    {label}  (none)"
            continue
        how = _HOW.get(side.op, side.op)
        where = f"  ({side.at})" if side.at else ""
        yield f"    {label}  {how} {side.ruleset}{where}"
        yield f"       @ {side.cite or '(no citation)'}"
    for cell in d.cells:
        yield f"      {cell.key_text()}: {_cell(cell.a)} -> {_cell(cell.b)}"
    for line in d.text_diff:
        yield f"      {line}"


_HOW = {"declare": "declared by", "add": "added by", "override": "overridden by",
        "define": "defined by", "remove": "removed by"}


def _cell(value: object) -> str:
    return "null" if value is None else str(value)


# ---------------------------------------------------------------- behaviour


def _f(x: Fraction | None) -> str:
    return "error" if x is None else f"{float(x):.4f}"


def _behaviour(b: BehaviourDiff, top: int) -> Iterator[str]:
    yield (f"Behaviour: exact odds over a grid of synthetic inputs (at most {b.cells_cap:,} "
           f"cells a declaration, {b.sequence_cells_cap:,} a sequence)")
    differing = [d for d in b.compared if d.cells]
    same = [d for d in b.compared if not d.cells and d.note is None]
    unevaluated = [d for d in b.compared if d.note is not None]
    if not b.compared and not b.not_comparable:
        yield "  nothing to compare: no roll, test, sequence or action depends on a change"
    for d in differing:
        yield from _compared(d, top)
    for d in same:
        both = d.evaluated - sum(n for _, n, _ in d.one_sided) - d.failed_both
        grid = d.grid_text() if len(d.dims) <= 4 else f"{len(d.dims)} inputs varied"
        if both == d.evaluated:
            yield f"  {d.kind} {d.signature}: no difference in {_count(d)} ({grid})"
        elif both == 0:
            yield (f"  {d.kind} {d.signature}: no cell of {_count(d)} evaluates under both "
                   f"({grid})")
        else:
            yield (f"  {d.kind} {d.signature}: no difference in the {both:,} of {_count(d)} "
                   f"that both evaluate ({grid})")
        yield from _one_sided(d)
    for d in unevaluated:
        yield f"  {d.kind} {d.name}: {d.note}"
    for kind, name, reason in b.not_comparable:
        yield f"  {kind} {name}: not comparable: {reason}"
    if b.unaffected:
        yield (f"  {b.unaffected} more roll{'s' if b.unaffected != 1 else ''}, tests, sequences "
               "and actions depend on nothing that changed")


def _one_sided(d: DeclBehaviour) -> Iterator[str]:
    for side, n, error in d.one_sided:
        other = SIDES[1] if side == SIDES[0] else SIDES[0]
        yield (f"    {n:,} cell{'s evaluate' if n != 1 else ' evaluates'} under {other} only; "
               f"under {side}: {error}")


def _count(d: DeclBehaviour) -> str:
    sampled = f" (chosen from {d.total:,})" if d.evaluated < d.total else ""
    return f"{d.evaluated:,} cell{'s' if d.evaluated != 1 else ''}{sampled}"


def _compared(d: DeclBehaviour, top: int) -> Iterator[str]:
    yield f"  {d.kind} {d.signature}: {len(d.cells):,} of {_count(d)} differ; {d.metric} A -> B"
    yield f"    grid: {d.grid_text()}"
    width = min(60, max(len(c.shown) for c in d.cells[:top]))
    for c in d.cells[:top]:
        if c.delta is None:
            a = c.a if isinstance(c.a, str) else "evaluates"
            b = c.b if isinstance(c.b, str) else "evaluates"
            yield f"      {c.shown:<{width}}  A: {a}; B: {b}"
            continue
        extra = "".join(f"   {label} {_f(x)} -> {_f(y)}" for _, label, x, y in c.extra)
        if d.metric == "distribution":
            yield f"      {c.shown:<{width}}  distributions differ (distance {_f(c.distance)})"
        else:
            yield (f"      {c.shown:<{width}}  {_f(c.a_value)} -> {_f(c.b_value)}  "
                   f"({float(c.delta):+.4f}){extra}")
    if len(d.cells) > top:
        yield f"      ... and {len(d.cells) - top:,} more (--top N shows more; --json lists all)"
    yield from _one_sided(d)


# ---------------------------------------------------------------- battles


def _is_rate(key: str) -> bool:
    return key.startswith("win:") or key == "draw"


def _value(key: str, x: float) -> str:
    return f"{x:.1%}" if _is_rate(key) else f"{x:.2f}"


def _delta(key: str, p: Paired) -> str:
    if _is_rate(key):
        return f"{p.mean * 100:+.1f} pts [{p.low * 100:+.1f}, {p.high * 100:+.1f}]"
    return f"{p.mean:+.2f} [{p.low:+.2f}, {p.high:+.2f}]"


def _interval(key: str, summary: dict, side: str) -> str:
    if key.startswith("win:") or key == "draw":
        o = summary["outcomes"]["draw" if key == "draw" else key[4:]]
        return f"{o['rate']:.1%} [{o['low']:.1%}, {o['high']:.1%}]"
    if key.startswith("survivors:"):
        s = summary["units"][key[10:]]["survivors"]
    else:
        s = summary["victory_points"][key[3:]]
    return f"{s['mean']:.2f} [{s['mean_low']:.2f}, {s['mean_high']:.2f}]"


def _battle(bd: BattleDiff) -> Iterator[str]:
    yield (f"Battle {bd.battle}: {bd.runs:,} runs under each ruleset, seed {bd.seed}; run i uses "
           "the same dice seed under both")
    rows = []
    for key, _, _, p in bd.differences:
        rows.append((metric_label(key), _interval(key, bd.a, "a"), _interval(key, bd.b, "b"),
                     _delta(key, p), "significant" if p.significant else "not significant"))
    header = ("", "A [95%]", "B [95%]", "B - A [95%]", "")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(5)]
    yield "  " + "  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip()
    for r in rows:
        yield "  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    yield f"  the winner differs in {bd.winner_changed:,} of {bd.runs:,} runs" + (
        ", for instance:" if bd.examples else "")
    for i, _, x, y in bd.examples:
        yield f"    run {i}: {_winner(x)} under A, {_winner(y)} under B"
    yield f"  test: {bd.test}"


def _winner(side: str | None) -> str:
    return "a draw" if side is None else f"won by {side}"


def _attribution(att: Attribution, bd: BattleDiff | None) -> Iterator[str]:
    yield ("Attribution: the patch's operations applied to A one at a time, in patch order; "
           "each row is")
    yield ("  the change from the ruleset before the operation to the ruleset after it, on "
           "the same seeds (±: 95%)")
    labels = [metric_label(m) for m in att.metrics]
    rows = [(s.label, [_short(m, s.delta(m)) for m in att.metrics]) for s in att.steps]
    rows.append(("total (B - A)", [_short(m, att.total.delta(m)) for m in att.metrics]))
    width = max(len(r[0]) for r in rows)
    col = max(16, *(len(c) for _, cs in rows for c in cs), *(len(x) for x in labels))
    yield "  " + " " * width + "  " + "  ".join(x.rjust(col) for x in labels)
    for label, cells in rows:
        yield "  " + label.ljust(width) + "  " + "  ".join(c.rjust(col) for c in cells)
    yield ("  Order matters: each operation is measured with those before it already applied, "
           "so another order")
    yield ("  can share the total differently. The steps add up to the total exactly (same "
           "seeds throughout).")
    if att.alone:
        yield "  each operation applied alone to A:"
        for s in att.alone:
            if not s.deltas:
                yield f"  {s.label.ljust(width)}  {s.note}"
                continue
            yield ("  " + s.label.ljust(width) + "  "
                   + "  ".join(_short(m, s.delta(m)).rjust(col) for m in att.metrics))
        if att.interaction:
            label = "interaction (total - sum alone)"
            yield ("  " + label.ljust(width) + "  "
                   + "  ".join(_plain(m, v).rjust(col) for m, v in att.interaction))
    for note in att.notes:
        yield f"  note: {note}"
    yield "  (* significant: the 95% interval of the paired difference leaves out 0)"


def _short(key: str, p: Paired) -> str:
    half = (p.high - p.low) / 2
    star = " *" if p.significant else "  "
    if _is_rate(key):
        return f"{p.mean * 100:+.1f} ±{half * 100:.1f} pts{star}"
    return f"{p.mean:+.2f} ±{half:.2f}{star}"


def _plain(key: str, v: float) -> str:
    return f"{v * 100:+.1f} pts  " if _is_rate(key) else f"{v:+.2f}  "
