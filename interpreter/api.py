"""The library (named by :mod:`rules_run`): what the commands do, as functions that return
results a notebook shows as a table and a chart. A battle is opened by
:func:`rules_run.engine.front.open_battle`, the front door every command uses too.

See :mod:`rules_run` for the conventions; docs/tutorial-notebook.md for a walk through.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_run import slotted
from rules_run.engine.charts import Panel, damage_panel, stats_panels, svg_text, write_chart
from rules_run.engine.driver import BattleResult
from rules_run.engine.front import Battle, open_battle
from rules_run.engine.odds import Odds

if TYPE_CHECKING:
    from rules_run.chance import Dist
    from rules_run.diff.report import DiffReport

__all__ = ["run_battle", "run_many", "attack_odds", "compare", "BattleReport", "ManyBattles",
           "AttackOdds", "Distribution"]


def _table_html(rows: Sequence[Mapping[str, Any]], caption: str = "") -> str:
    """A list of records as an HTML table (what a notebook shows)."""
    if not rows:
        return f"<p>{html.escape(caption)}: nothing</p>"
    keys = list(rows[0])
    head = "".join(f"<th>{html.escape(str(k))}</th>" for k in keys)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(r.get(k)))}</td>" for k in keys)
                   + "</tr>" for r in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else ("" if value is None else str(value))


def _opened(battle: Battle | str | Path | None, edition: str | Path | None = None) -> Battle:
    return battle if isinstance(battle, Battle) else open_battle(edition, battle)


@slotted.frozen
class BattleReport:
    """One battle fought: the result, every event, and the report a player reads."""

    result: BattleResult
    opened: Battle = slotted.slot(repr=False)
    seed: int

    @property
    def winner(self) -> str | None:
        return self.result.winner

    def lines(self, explain: bool = False, decisions: bool = False) -> list[str]:
        """The result, the table of units and the battle report, as ``rules-run`` prints."""
        from rules_run.engine.narrate import Words, narrate, summary_table

        words = Words.of(self.opened.ruleset, self.opened.battle)
        return (summary_table(self.result, words) + [""]
                + list(narrate(self.result.events or [], words, explain=explain,
                               decisions=decisions)))

    def to_records(self) -> list[dict[str, Any]]:
        """Every unit at the end, one dict each (``pandas.DataFrame(report.to_records())``)."""
        return [slotted.asdict(u) for u in self.result.units]

    def _repr_html_(self) -> str:
        head = (f"winner: {self.winner}" if self.winner else "a draw") + f" ({self.result.reason})"
        return _table_html(self.to_records(), head)

    def __str__(self) -> str:
        return "\n".join(self.lines())


class _Charted:
    """A result with a chart: shown in a notebook (``_repr_svg_``), saved as ``--plot`` saves."""

    def panels(self) -> list[Panel]:
        raise NotImplementedError

    def _repr_svg_(self) -> str:
        return svg_text(self.panels())

    def save_chart(self, path: str | Path) -> None:
        """Write the chart: SVG for ``*.svg``, PNG (matplotlib) for ``*.png``."""
        write_chart(self.panels(), path)


@slotted.frozen
class Distribution(_Charted):
    """How often each value of one column of many battles came up."""

    column: str
    counts: tuple[tuple[Any, int], ...]
    """(value, runs), values in order."""

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per value: its runs, their share, and the share at least that value."""
        n = sum(c for _, c in self.counts)
        out, left = [], n
        for value, count in self.counts:
            out.append({self.column: value, "runs": count, "share": count / n,
                        "at_least": left / n})
            left -= count
        return out

    def panels(self) -> list[Panel]:
        rows = self.to_records()
        return [Panel(f"{self.column} over {sum(c for _, c in self.counts)} battles: exactly "
                      "(bars), at least (line)", tuple(str(r[self.column]) for r in rows),
                      (("share", tuple(r["share"] for r in rows)),),
                      (("at least", tuple(r["at_least"] for r in rows)),))]

    def _repr_html_(self) -> str:
        return _table_html(self.to_records(), self.column)


@slotted.frozen
class ManyBattles(_Charted):
    """Many battles fought: each run's result and the statistics ``rules-run --runs`` prints."""

    results: list[dict[str, Any]] = slotted.slot(repr=False)
    stats: dict[str, Any]
    names: dict[str, str] = slotted.slot(repr=False)

    def to_records(self) -> list[dict[str, Any]]:
        """One flat dict per run: its number, winner, rounds, each side's victory points
        (``vp_<side>``) and each unit's models left (``models_<unit>``)."""
        out = []
        for i, r in enumerate(self.results):
            row: dict[str, Any] = {"run": i, "winner": r["winner"], "rounds": r["rounds"]}
            row.update({f"vp_{side}": v for side, v in r["victory_points"].items()})
            row.update({f"models_{u['id']}": u["models"] for u in r["units"]})
            out.append(row)
        return out

    def outcomes(self) -> list[dict[str, Any]]:
        """The win and draw rates with their 95% intervals, one dict per outcome."""
        return [{"outcome": k, **v} for k, v in self.stats["outcomes"].items()]

    def distribution(self, column: str) -> Distribution:
        """How often each value of a column of :meth:`to_records` came up (a unit's
        ``models_<unit>``, a side's ``vp_<side>``, ``rounds``, ``winner``)."""
        records = self.to_records()
        if records and column not in records[0]:
            from rules_run.diagnostics import UsageError, did_you_mean

            raise UsageError(f"no column {column!r}; "
                             + (did_you_mean(column, list(records[0]))
                                or "columns: " + ", ".join(records[0])))
        counts: dict[Any, int] = {}
        for r in records:
            counts[r[column]] = counts.get(r[column], 0) + 1
        # values in order; none (a draw's winner) last
        return Distribution(column, tuple(sorted(counts.items(),
                                                 key=lambda kv: (kv[0] is None, kv[0] or 0))))

    def panels(self) -> list[Panel]:
        return stats_panels(self.stats, self.names)

    def _repr_html_(self) -> str:
        return _table_html(self.outcomes(), f"{self.stats['runs']} battles")


@slotted.frozen
class AttackOdds(_Charted):
    """The exact odds of one or more attackers' attacks on a target (as ``rules-odds``)."""

    odds: tuple[Odds, ...]

    def damage(self, i: int = 0) -> Dist[int]:
        """The distribution of the damage the ``i``-th attacker does
        (:class:`rules_run.chance.Dist`, exact fractions)."""
        return self.odds[i].damage

    def to_records(self) -> list[dict[str, Any]]:
        """One dict per attacker and k: the chance of exactly k and of at least k damage
        (floats; ``exactly_exact``, ``at_least_exact``: the fractions as text)."""
        out = []
        for o in self.odds:
            d = o.damage
            for k in range(0, d.max() + 1):
                out.append({"attacker": o.attacker.id, "k": k,
                            "exactly": float(d.probability(k)),
                            "at_least": float(d.p_at_least(k)),
                            "exactly_exact": str(d.probability(k)),
                            "at_least_exact": str(d.p_at_least(k))})
        return out

    def panels(self) -> list[Panel]:
        return [damage_panel(list(self.odds))]

    def _repr_html_(self) -> str:
        return _table_html(self.to_records(), f"damage to {self.odds[0].target.name}")


def run_battle(battle: Battle | str | Path | None = None, *, edition: str | Path | None = None,
               seed: int | None = None) -> BattleReport:
    """Fight one battle, keeping every event (default seed: the battle file's)."""
    from rules_run.engine.driver import run_battle as fight

    opened = _opened(battle, edition)
    used = opened.battle.seed if seed is None else seed
    return BattleReport(fight(opened.runtime, opened.battle, seed=used, keep_events=True),
                        opened, used)


def run_many(battle: Battle | str | Path | None = None, runs: int = 1000, *,
             edition: str | Path | None = None, seed: int | None = None,
             workers: int = 1, options: Mapping[str, Any] | None = None,
             progress: Callable[[int, int], None] | None = None) -> ManyBattles:
    """Fight ``runs`` battles (run ``i`` with the seed derived from ``seed`` and ``i``,
    so any number of ``workers`` gives the same results).

    ``battle`` is a battle file (with ``edition``) or None for the edition's bundled one;
    a :class:`Battle` already opened is fought under its own ruleset folder and file.
    """
    from rules_run.engine.stats import RunSpec
    from rules_run.engine.stats import run_many as many
    from rules_run.engine.stats import summarise

    if isinstance(battle, Battle):
        opened = battle
        path: str | None = str(battle.battle.doc.path)
        name: str | None = str(battle.ruleset.folder)
    else:
        opened = open_battle(edition, battle, options)
        path = None if battle is None else str(battle)
        name = None if edition is None else str(edition)
    used = opened.battle.seed if seed is None else seed
    spec = RunSpec(name or opened.ruleset.id, path, dict(options or {}), used)
    results = many(spec, runs, workers, progress, opened=opened)
    stats = summarise(results)
    stats.update({"edition": opened.ruleset.id, "seed": used})
    return ManyBattles(results, stats, {u.id: u.name for u in opened.battle.units})


def attack_odds(battle: Battle | str | Path | None, attackers: str | Sequence[str],
                target: str, *, edition: str | Path | None = None, mode: str | None = None,
                settings: Mapping[str, Any] | None = None,
                attacks: int | None = None) -> AttackOdds:
    """The exact odds of each attacker's attacks on ``target`` (unit ids of the battle), in
    the ruleset's attack ``mode`` (default: the first its ``attacks:`` lists), with
    ``settings`` for the parameters that mode lets a user set (``{"charging": True}``)."""
    from rules_run.engine.odds import compute_odds

    opened = _opened(battle, edition)
    names = [attackers] if isinstance(attackers, str) else list(attackers)
    return AttackOdds(tuple(compute_odds(opened.runtime, opened.battle, a, target,
                                         mode=mode, settings=settings,
                                         attacks=attacks) for a in names))


def compare(a: str | Path, b: str | Path, battle: str | Path | None = None, **how: Any
            ) -> DiffReport:
    """What changes between two rulesets (:func:`rules_run.diff.diff_rulesets`; the
    same keywords: ``runs``, ``seed``, ``workers``, ...): a report whose ``to_json()`` is
    ``rules-diff --json``. (Not ``diff``: that name is the subpackage's, which importing
    it puts on :mod:`rules_run`.)"""
    from rules_run.diff import diff_rulesets

    return diff_rulesets(str(a), str(b), None if battle is None else str(battle), **how)
