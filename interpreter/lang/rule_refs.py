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
from collections.abc import Callable, Mapping
from typing import Any

from rules_run import slotted
from rules_run.diagnostics import did_you_mean
from rules_run.lang import ast

__all__ = ["RuleArg", "RuleRef", "RuleRefError", "parse_rule_ref", "resolve_rule",
           "rule_arguments_problem", "rule_reference_problem", "template_params"]

_DICE = re.compile(r"^([0-9]*)D([0-9]+)(?:x([0-9]+))?([+-][0-9]+)?$")
_NEED = re.compile(r"^([0-9]+)\+$")
_SIGNED = re.compile(r"^[+-]?[0-9]+$")
_LABELLED = re.compile(r"^([A-Za-z][A-Za-z' -]*?)\s+([+-]?[0-9]+\+?|[0-9]*D[0-9]+(?:[+-][0-9]+)?)$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9'’ &/-]*$")


class RuleRefError(ValueError):
    """The text is not a rule reference; the message says why."""


@slotted.frozen
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


@slotted.frozen
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
        return slotted.evolve(inner, label=m.group(1).strip(), text=s)
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


_ARGUMENT_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "int": (("int",), "a whole number (1, +1, -2)"),
    "number": (("int",), "a number (1, 2)"),
    "need": (("need",), "a score (5+)"),
    "dice": (("dice", "int"), "dice or a number (D3, D6+1, 2)"),
    "keyword": (("words",), "a keyword (Infantry)"),
}
"""What a rule reference may pass for a parameter of each type: the argument kinds
(:class:`RuleArg.kind`) accepted, and what to call them. Other types accept any argument."""


def rule_reference_problem(text: str, rules: Mapping[str, ast.RuleDecl],
                           removed: Callable[[str], str | None] = lambda name: None
                           ) -> tuple[str, str, str | None] | None:
    """Why ``text`` names no rule of ``rules`` or does not fit its parameters, or None.

    Returns:
        ``(code, message, hint)``: an unknown rule (``unknown-rule``; the hint is what
        ``removed`` says of the name, else the closest names), text that is no reference
        (``bad-rule-reference``), or arguments that do not fit (see
        :func:`rule_arguments_problem`).
    """
    try:
        rule, args = resolve_rule(text, rules)
    except RuleRefError as err:
        # A rule whose own name has brackets ("Crit (2 Hits)") is looked up whole.
        close = did_you_mean(text, rules)
        if close is not None:
            return "unknown-rule", f"unknown rule {text!r}", close
        return "bad-rule-reference", str(err), None
    except KeyError:
        name = text.split("(")[0].strip()
        return ("unknown-rule", f"unknown rule {text!r}",
                removed(name) or did_you_mean(name, rules))
    return rule_arguments_problem(rule, text, args)


def rule_arguments_problem(
    rule: ast.RuleDecl, text: str, args: tuple[RuleArg, ...]
) -> tuple[str, str, str] | None:
    """Why the reference ``text`` does not fit the parameters of ``rule``, or None.

    Returns:
        ``(code, message, hint)``: a wrong number of arguments (``wrong-arity``), or an
        argument of the wrong kind (``bad-argument``).

    Examples:
        >>> from rules_run.diagnostics import Span
        >>> rule = ast.RuleDecl(Span("r.rules", 1), "Ward Save", None,
        ...                     params=(ast.Param(Span("r.rules", 1), "value", "need"),))
        >>> rule_arguments_problem(rule, "Ward Save (5+)", parse_rule_ref("Ward Save (5+)").args)
        >>> rule_arguments_problem(rule, "Ward Save (5)", parse_rule_ref("Ward Save (5)").args)[1]
        "'Ward Save (5)': the parameter 'value' of rule 'Ward Save' takes a score (5+), got '5'"
    """
    params = rule.params
    required = [p for p in params if p.default is None]
    example = f"{rule.name} ({', '.join(p.name for p in params)})" if params else rule.name
    if not len(required) <= len(args) <= len(params):
        takes = (f"{len(params)}" if len(required) == len(params)
                 else f"{len(required)} to {len(params)}")
        return (
            "wrong-arity",
            f"rule {rule.name!r} takes {takes} parameter{'' if takes == '1' else 's'}, "
            f"{text!r} gives {len(args)}",
            f"write {example!r}" if params else f"write {rule.name!r}, without arguments",
        )
    for param, arg in zip(params, args):
        kinds, words = _ARGUMENT_KINDS.get(param.type, ((), ""))
        if kinds and arg.kind not in kinds:
            return (
                "bad-argument",
                f"{text!r}: the parameter {param.name!r} of rule {rule.name!r} takes {words}, "
                f"got {arg.text!r}",
                f"rule {rule.name!r} takes ({', '.join(f'{p.name}: {p.type}' for p in params)})",
            )
    return None
