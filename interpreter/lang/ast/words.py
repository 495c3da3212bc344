"""The closed sets of words the rules language gives a node: each a :class:`Word` enum.

A ``Word`` is a ``str`` (an ``enum.StrEnum``): it equals, hashes, formats and serialises as
the word itself, and its ``repr`` is the word's, so messages, logs and diffs read as they
would with plain text. Making one from a word outside its set fails, which a plain string
would not.
"""

from __future__ import annotations

import enum

__all__ = ["HookKind", "PatchVerb", "StackingPolicy", "Word"]


class Word(enum.StrEnum):
    """A word of a closed set, standing for itself in text and in ``repr``."""

    def __repr__(self) -> str:
        return repr(self.value)


class StackingPolicy(Word):
    """How the amounts of one effect from several sources combine (``stacking max``)."""

    ADD = "add"
    MAX = "max"
    MIN = "min"
    BOOLEAN = "boolean"
    EXCLUSIVE = "exclusive"
    CAPPED = "capped"


class PatchVerb(Word):
    """What a patch does to a declaration of its base: ``override``, ``add``, ``define``
    (add, or override if it is there) or ``remove``."""

    OVERRIDE = "override"
    ADD = "add"
    DEFINE = "define"
    REMOVE = "remove"


class HookKind(Word):
    """What a hook on a sequence step does when its mark is rolled."""

    CHAINS = "chains"
    """The chain becomes N."""
    SKIP = "skip"
    """A later step is skipped."""
    END_DAMAGE = "end_damage"
    """The sequence ends, with N damage."""
    PASS = "pass"
    FAIL = "fail"
    COUNT = "count"
    """One more of a tally the sequence declares (``count glancing``)."""
