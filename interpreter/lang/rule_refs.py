"""Parameterised rule references, as written in unit data and rule files.

``Armour Piercing (1)``, ``Armour Piercing (+1)``, ``Multiple Wounds (D3)``,
``Multiple Wounds (2, Infantry)``, ``Ward Save (5+)``, ``Strider (Forest)``,
``Breath Weapon (Strength 4, Flaming Attacks)``.

A reference is a name, then optionally arguments in parentheses separated by commas. An
argument is a signed number, a score (``5+``), dice (``D3``, ``2D6``, ``D3+1``), or words,
optionally led by a label (``Strength 4``). A rule whose own name contains parentheses
(``Crit (2 Hits)``) is found by its whole name first, so both styles coexist.

A rule's name may also hold its parameters: ``Bane-{x} (+1)`` with parameter ``x`` is what
``Bane-RIVERFOLK (+1)`` names, with ``x`` = ``RIVERFOLK`` (:func:`resolve_rule`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import attrs

__all__ = ["RuleArg", "RuleRef", "RuleRefError", "parse_rule_ref", "resolve_rule",
           "template_params"]

_DICE = re.compile(r"^([0-9]*)D([0-9]+)(?:x([0-9]+))?([+-][0-9]+)?$")
_NEED = re.compile(r"^([0-9]+)\+$")
_SIGNED = re.compile(r"^[+-]?[0-9]+$")
_LABELLED = re.compile(r"^([A-Za-z][A-Za-z' -]*?)\s+([+-]?[0-9]+\+?|[0-9]*D[0-9]+(?:[+-][0-9]+)?)$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9'’ &/-]*$")


class RuleRefError(ValueError):
    """The text is not a rule reference; the message says why."""


@attrs.frozen
class RuleArg:
    """One argument of a rule reference."""

    kind: str
    """``int``, ``need``, ``dice`` or ``words``."""
    value: int | str
    """The number, the score, the dice text or the words."""
    label: str | None = None
    """A leading label, as in ``Strength 4``."""
    text: str = ""
    """The argument as written."""


@attrs.frozen
class RuleRef:
    """A parsed reference: the rule's name and its arguments."""

    name: str
    args: tuple[RuleArg, ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return self.text or self.name


def _arg(text: str) -> RuleArg:
    s = text.strip()
    if not s:
        raise RuleRefError("an argument is empty")
    if _SIGNED.match(s):
        return RuleArg("int", int(s), None, s)
    m = _NEED.match(s)
    if m:
        return RuleArg("need", int(m.group(1)), None, s)
    if _DICE.match(s):
        return RuleArg("dice", s, None, s)
    m = _LABELLED.match(s)
    if m:
        inner = _arg(m.group(2))
        return attrs.evolve(inner, label=m.group(1).strip(), text=s)
    if _NAME.match(s):
        return RuleArg("words", s, None, s)
    raise RuleRefError(
        f"cannot read the argument {s!r}: an argument is a number (1, +1), a score (5+), "
        "dice (D3, D6+1) or words (Forest), optionally after a label (Strength 4)"
    )


def parse_rule_ref(text: str) -> RuleRef:
    """Parse ``Name`` or ``Name (arg, arg)``.

    Examples:
        >>> parse_rule_ref("Ward Save (5+)").args[0].value
        5
        >>> r = parse_rule_ref("Breath Weapon (Strength 4, Flaming Attacks)")
        >>> (r.name, r.args[0].label, r.args[0].value, r.args[1].value)
        ('Breath Weapon', 'Strength', 4, 'Flaming Attacks')
        >>> parse_rule_ref("Multiple Wounds (D3)").args[0].kind
        'dice'
        >>> parse_rule_ref("Ward Save ()")
        Traceback (most recent call last):
        ...
        rules_run.lang.rule_refs.RuleRefError: 'Ward Save ()': an argument is empty
    """
    s = text.strip()
    if "(" not in s:
        if ")" in s or not _NAME.match(s):
            raise RuleRefError(f"{text!r} is not a rule name")
        return RuleRef(s, (), s)
    if not s.endswith(")") or s.count("(") != 1 or s.count(")") != 1:
        raise RuleRefError(
            f"{text!r} is not a rule reference; write Name or Name (argument, argument)"
        )
    name, _, rest = s.partition("(")
    name = name.strip()
    if not _NAME.match(name):
        raise RuleRefError(f"{text!r} does not start with a rule name")
    try:
        args = tuple(_arg(a) for a in rest[:-1].split(","))
    except RuleRefError as err:
        raise RuleRefError(f"{text!r}: {err}") from None
    return RuleRef(name, args, s)


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def template_params(name: str) -> list[str]:
    """The parameters a rule's name holds, in order (``Bane-{x} (+1)``: ``["x"]``)."""
    return _PLACEHOLDER.findall(name)


@functools.lru_cache(maxsize=None)
def _template(name: str) -> tuple[str, ...]:
    """The texts around the placeholders: text, text, ..., text (one more than them)."""
    return tuple(_PLACEHOLDER.split(name)[::2])


def _fill(text: str, name: str) -> list[str] | None:
    """The text each placeholder of the template ``name`` takes in ``text``, or None.

    Each placeholder takes the shortest text (at least one character) up to the next
    occurrence of the text after it; the last one takes what is left before the template's
    end. One pass, no backtracking: time grows with the text, never without end.

    Examples:
        >>> _fill("Bane-RIVERFOLK (+1)", "Bane-{x} (+1)")
        ['RIVERFOLK']
        >>> _fill("a-b-c", "{x}-{y}")
        ['a', 'b-c']
        >>> _fill("Bane (+1)", "Bane-{x} (+1)") is None
        True
    """
    texts = _template(name)
    first, *between, last = texts
    if not text.startswith(first) or not text.endswith(last) or \
            len(text) < len(first) + len(last) + len(between) + 1:
        return None
    at, end = len(first), len(text) - len(last)
    values = []
    for after in between:
        found = text.find(after, at + 1, end) if after else at + 1
        if found < 0:
            return None
        values.append(text[at:found])
        at = found + len(after)
    if at >= end:
        return None
    values.append(text[at:end])
    return values


def _match_template(text: str, name: str) -> tuple[RuleArg, ...] | None:
    """The arguments ``text`` gives a rule named by the template ``name``, or None."""
    found = _fill(text.strip(), name)
    if found is None:
        return None
    try:
        return tuple(_arg(value) for value in found)
    except RuleRefError:
        return None


def resolve_rule(text: str, rules: Mapping[str, Any]) -> tuple[Any, tuple[RuleArg, ...]]:
    """The rule a reference names, and its arguments: a rule of that whole name, else one
    whose name is a template the text fits, else ``Name (arguments)``.

    Examples:
        >>> class Rule:  # anything; a rule declaration in the interpreter
        ...     pass
        >>> ward, bane = Rule(), Rule()
        >>> rules = {"Ward Save": ward, "Bane-{x} (+1)": bane}
        >>> rule, args = resolve_rule("Bane-RIVERFOLK (+1)", rules)
        >>> rule is bane, args[0].value
        (True, 'RIVERFOLK')
        >>> resolve_rule("Ward Save (4+)", rules)[1][0].value
        4

    Raises:
        KeyError: no such rule. RuleRefError: not a rule reference.
    """
    if text in rules:
        return rules[text], ()
    for name, rule in rules.items():
        if "{" in name:
            args = _match_template(text, name)
            if args is not None:
                return rule, args
    ref = parse_rule_ref(text)
    return rules[ref.name], ref.args
