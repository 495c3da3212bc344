"""Declared limits: how big an input, or a value the rules compute, may get.

A shared ruleset or battle file must never lock up the machine that runs it, so every size
that could grow without end is checked where it enters (a file read, a battle's units, the
dice of a roll, ...) against a limit named here. Going past one is a located error that
names the limit and says how to raise it: ``--limit NAME=N`` on any command, or the
environment variable ``RULES_RUN_LIMITS`` (``dice=5000,units=1000``), which ``--limit``
sets, so worker processes see the same limits.

Examples:
    >>> LIMITS["dice"].default
    1000
    >>> too_many("dice", "dice in one roll", 5000)
    'more than 1000 dice in one roll (5000); raise the limit with --limit dice=N'
"""

from __future__ import annotations

import os
import re

from rules_run import slotted

__all__ = ["Limit", "LIMITS", "ENV", "limit", "too_many", "set_limits", "parse_limits",
           "help_text"]

ENV = "RULES_RUN_LIMITS"
"""The environment variable holding limits raised from their defaults."""


@slotted.frozen
class Limit:
    """One declared limit."""

    name: str
    """What ``--limit`` calls it."""
    default: int
    what: str
    """What it counts, for ``--help`` and docs/cli.md."""


LIMITS: dict[str, Limit] = {limit.name: limit for limit in (
    Limit("file_size", 250_000, "bytes in one rule, table, unit or battle file"),
    Limit("depth", 50, "levels of nesting in a rule expression or a YAML file"),
    Limit("placeholders", 6, "placeholders in one rule-name template"),
    Limit("units", 500, "units in one battle"),
    Limit("models", 1000, "models in one unit"),
    Limit("dice", 1000, "dice in one roll"),
    Limit("faces", 1000, "faces on a die"),
    Limit("attacks", 10_000, "attacks in one volley"),
    Limit("odds_attacks", 1000, "attacks rules-odds works out exactly"),
    Limit("combat_states", 20_000, "player-turn and phase states rules-odds --combat works out"),
    Limit("combat_branches", 200_000, "branches of one player turn rules-odds --combat "
          "enumerates"),
)}
"""Every limit, by name, with its default."""

_parsed: tuple[str, dict[str, int]] = ("", {})


def parse_limits(text: str) -> dict[str, int]:
    """``dice=5000,units=1000`` as a dict.

    Raises:
        ValueError: an unknown name, or a value that is not a whole number >= 1 (the
            message says which).

    Examples:
        >>> parse_limits("dice=5000, units=1000")
        {'dice': 5000, 'units': 1000}
    """
    out: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, raw = item.partition("=")
        name = name.strip()
        if name not in LIMITS:
            from rules_run.diagnostics import did_you_mean

            hint = did_you_mean(name, LIMITS) or "the limits are " + ", ".join(LIMITS)
            raise ValueError(f"unknown limit {name!r}; {hint}")
        if not sep or not re.fullmatch(r"[0-9]{1,12}", raw.strip()) or int(raw) < 1:
            raise ValueError(f"limit {name} takes a whole number from 1 to 10^12, got {raw!r}")
        out[name] = int(raw)
    return out


def limit(name: str) -> int:
    """The limit ``name`` now: its default, or what ``RULES_RUN_LIMITS`` raises it to."""
    global _parsed
    text = os.environ.get(ENV, "")
    if text != _parsed[0]:
        try:
            values = parse_limits(text)
        except ValueError:
            values = {}  # the commands check the variable first and report it
        _parsed = (text, values)
    return _parsed[1].get(name, LIMITS[name].default)


def current() -> tuple[int, ...]:
    """Every limit's value now, in a fixed order: part of the key of whatever is cached
    after a check, so that a check under other limits is never answered from the cache."""
    return tuple(limit(name) for name in sorted(LIMITS))


def set_limits(values: dict[str, int]) -> None:
    """Raise (or lower) limits for this process and the processes it starts."""
    merged = {**parse_limits(os.environ.get(ENV, "")), **values}
    os.environ[ENV] = ",".join(f"{k}={v}" for k, v in sorted(merged.items()))


def too_many(name: str, what: str, value: int | None = None) -> str:
    """The message for a value past the limit ``name``: what it counts, and how to raise it."""
    given = f" ({value})" if value is not None else ""
    return f"more than {limit(name)} {what}{given}; raise the limit with --limit {name}=N"


def help_text() -> str:
    """The limits and their defaults, for a command's ``--help``."""
    lines = ["limits (raise one with --limit NAME=N, or RULES_RUN_LIMITS=NAME=N,...):"]
    for lim in LIMITS.values():
        lines.append(f"  {lim.name:<13} {lim.default:>9,}  {lim.what}")
    return "\n".join(lines) + "\n"
