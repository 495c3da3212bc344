"""The types the checker infers for expressions, and what each operation accepts.

A type is a short string. The declared types of the language (``int``, ``unit``, ``side``,
...) are types, with ``model`` read as ``unit`` (a model parameter holds a unit) and ``need``
and ``dice`` as ``int`` (a score is a whole number; dice are rolled when read). Besides:

- ``any``: not known. Nothing that is ``any`` is ever reported.
- ``none``: only ``none``, which every operation accepts (it flows through expressions).
- ``list`` and ``list:T`` (a list of T), ``table``, ``result`` (what calling a test gives),
  ``outcome`` (what calling a sequence gives), ``step`` (an earlier step's result, read by
  a sequence's later steps).
- ``record:NAME``: a value of the record ``NAME`` (``Cast(total = 7)``).
- ``status``, ``counter``, ``decision``, ``sequence``, ``roll``, ``test``, ``action``,
  ``phase``: the name of such a declaration, which is text at run time.

The rules follow what the running does: an operation is wrong when it fails at run time
(``3 + "x"``) or gives ``none`` or ``false`` whatever the values (a unit's ``models`` read
from a number). ``true + 1`` runs, so ``bool`` counts as a number in arithmetic.
"""

from __future__ import annotations

__all__ = [
    "ANY", "NONE", "NUMBERS", "NAMES", "TEXTS", "declared", "list_of", "item_of", "join",
    "fits", "show", "shown_type", "shown_wanted", "article", "binop", "comparable", "iterable",
    "is_known", "record_of", "record_name",
]

ANY = "any"
NONE = "none"
NUMBERS = frozenset({"int", "number", "bool"})
"""Types arithmetic accepts."""
NAMES = frozenset({"status", "counter", "decision", "sequence", "roll", "test", "action",
                   "phase"})
"""A declaration's name used as a value (``apply(fleeing, u)``)."""
TEXTS = frozenset({"text", "side", "keyword", "rule"}) | NAMES
"""Types that are text at run time."""

_DECLARED = {"model": "unit", "need": "int", "dice": "int"}

_SHOWN = {
    "result": "test result",
    "outcome": "sequence outcome",
    "step": "step result",
}


def declared(type_name: str) -> str:
    """The type of a value declared ``type_name`` (a parameter, a characteristic).

    Examples:
        >>> declared("model"), declared("dice"), declared("side")
        ('unit', 'int', 'side')
    """
    return _DECLARED.get(type_name, type_name)


def list_of(item: str) -> str:
    """A list of ``item`` (a list of unknown things is just ``list``)."""
    return "list" if item in (ANY, NONE) else f"list:{item}"


def item_of(t: str) -> str:
    """What iterating a value of type ``t`` gives.

    Examples:
        >>> item_of("list:unit"), item_of("list"), item_of("any")
        ('unit', 'any', 'any')
    """
    return t[5:] if t.startswith("list:") else ANY


def record_of(name: str) -> str:
    """The type of a value of the record ``name``."""
    return f"record:{name}"


def record_name(t: str) -> str | None:
    """The record a value of type ``t`` is of (None: no record).

    Examples:
        >>> record_name(record_of("Cast")), record_name("unit")
        ('Cast', None)
    """
    return t[7:] if t.startswith("record:") else None


def is_known(t: str) -> bool:
    """Whether a value of type ``t`` can be wrong for an operation (``any`` and ``none``
    never are)."""
    return t not in (ANY, NONE)


def _family(t: str) -> str:
    if t in NUMBERS - {"bool"}:
        return "number"
    if t in TEXTS:
        return "text"
    if t.startswith("list"):
        return "list"
    return t


def join(a: str, b: str) -> str:
    """The type of a value that is either an ``a`` or a ``b``.

    Examples:
        >>> join("unit", "none"), join("int", "number"), join("side", "text")
        ('unit', 'number', 'text')
        >>> join("list:unit", "list:weapon"), join("unit", "int")
        ('list', 'any')
    """
    if a == b or b == NONE:
        return a
    if a == NONE:
        return b
    if ANY in (a, b):
        return ANY
    family = _family(a)
    if family == _family(b) and family in ("number", "text", "list"):
        return family
    return ANY


def fits(actual: str, wanted: str) -> bool:
    """Whether a value of type ``actual`` is acceptable where ``wanted`` (a declared type,
    or several joined by ``|``) is asked for.

    Text fits every text-like type (a side, a status, ... are named by text) and each of
    them fits text; a number fits a number, but a ``bool`` does not.

    Examples:
        >>> fits("list:unit", "unit"), fits("int", "dice"), fits("text", "side")
        (False, True, True)
        >>> fits("status", "counter"), fits("counter", "text"), fits("weapon", "unit|weapon")
        (False, True, True)
    """
    if actual == wanted or not is_known(actual) or wanted == ANY:
        return True
    for w in wanted.split("|"):
        w = declared(w)
        if w == actual:
            return True
        if w in ("int", "number") and actual in ("int", "number"):
            return True
        if (w == "text" and actual in TEXTS) or (w in TEXTS and actual == "text"):
            return True
        if w == "list" and actual.startswith("list"):
            return True
    return False


def show(t: str) -> str:
    """A type as messages name it: ``int``, ``test result``, ``list``."""
    if t.startswith("list"):
        return "list"
    if t.startswith("record:"):
        return f"{t[7:]} record"
    return _SHOWN.get(t, t)


def shown_type(wanted: str) -> str:
    """A type of a signature as messages name it: ``unit or weapon``."""
    return " or ".join(show(w) for w in wanted.split("|"))


def shown_wanted(wanted: str) -> str:
    """What ``wanted`` (as in :func:`fits`) asks for, with articles: ``a unit or a weapon``,
    ``a unit, a weapon or a part``."""
    words = [article(show(declared(w))) for w in wanted.split("|")]
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def article(word: str) -> str:
    """``a unit``, ``an int``.

    Examples:
        >>> article("unit"), article("int"), article("test result")
        ('a unit', 'an int', 'a test result')
    """
    return f"an {word}" if word[:1] in "aeio" else f"a {word}"


_VERBS = {
    "+": ("add", "to"),
    "-": ("subtract", "from"),
    "*": ("multiply", "by"),
    "/": ("divide", "by"),
    "//": ("divide", "by"),
}


def binop(op: str, left: str, right: str) -> tuple[str, str | None]:
    """The type of ``left op right``, and why it is wrong (None when it is not).

    ``+`` adds numbers, joins texts and joins lists; ``*`` multiplies numbers (or repeats a
    text or a list); ``-``, ``/`` and ``//`` take numbers only.

    Examples:
        >>> binop("+", "int", "text")
        ('any', 'cannot add text to int')
        >>> binop("+", "list:unit", "list"), binop("-", "int", "bool"), binop("*", "any", "unit")
        (('list', None), ('int', None), ('any', None))
    """
    if not (is_known(left) and is_known(right)):
        return (NONE if NONE in (left, right) and ANY not in (left, right) else ANY), None
    if left in NUMBERS and right in NUMBERS:
        return ("int" if {left, right} <= {"int", "bool"} else "number"), None
    if op == "+" and _family(left) == _family(right) and _family(left) in ("text", "list"):
        return join(left, right) if left.startswith("list") else "text", None
    kinds = {"number" if t in NUMBERS else _family(t) for t in (left, right)}
    if op == "*" and kinds in ({"number", "text"}, {"number", "list"}):
        return (right if left in NUMBERS else left), None
    verb, preposition = _VERBS[op]
    # a + b adds b to a, a - b subtracts b from a; a * b multiplies a by b
    first, second = (right, left) if op in "+-" else (left, right)
    return ANY, f"cannot {verb} {show(first)} {preposition} {show(second)}"


def comparable(left: str, right: str) -> bool:
    """Whether ``<``, ``<=``, ``>`` and ``>=`` can order the two (numbers with numbers,
    texts with texts, lists with lists).

    Examples:
        >>> comparable("unit", "int"), comparable("int", "bool"), comparable("side", "text")
        (False, True, True)
    """
    if not (is_known(left) and is_known(right)):
        return True
    if left in NUMBERS and right in NUMBERS:
        return True
    return _family(left) == _family(right) and _family(left) in ("text", "list")


def iterable(t: str) -> bool:
    """Whether ``for each`` can go over a value of type ``t`` (a list)."""
    return not is_known(t) or t.startswith("list")
