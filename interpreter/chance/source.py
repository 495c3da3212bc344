"""Chance sources: where the faces of a roll come from.

One declaration, two kinds of chance. A game procedure is a plain function that receives a
:class:`Chance` and asks it for rolls and random choices. The same function runs

- **sampled**, with :class:`RandomChance` (a seeded generator) or :class:`ScriptedChance`
  (dice from a battle file, for tests), or
- **exactly enumerated**, with :func:`enumerate_exact`, which replays the procedure once per
  combination of answers and weighs each result, so exact probabilities come from the very same
  code path as sampling.

A procedure must be *deterministic given its chance answers*: no other randomness, no state
carried between calls, the same sequence of ``roll``/``choose`` calls whenever it receives the
same answers. :func:`enumerate_exact` detects a procedure that asks for different dice on
replay. Rules must not depend on the order of dice within one roll (see
:mod:`rules_run.chance.dice`).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar, runtime_checkable

from rules_run.chance.die import Die, FaceValue, ordered_outcomes, outcome_counts
from rules_run.chance.dist import Dist
from rules_run.diagnostics import ChanceError

__all__ = [
    "Chance",
    "RandomChance",
    "ScriptedChance",
    "ReplayChance",
    "derive_seed",
    "enumerate_exact",
    "sample",
    "monte_carlo",
]

Out = TypeVar("Out")

_ENUMERATE_LIMIT = 1_000_000


@runtime_checkable
class Chance(Protocol):
    """What a game procedure asks for its dice and random choices."""

    @property
    def exact(self) -> bool:
        """True while the procedure is being enumerated exactly (see :func:`enumerate_exact`)."""
        ...

    def roll(self, dice: tuple[Die, ...], tag: str) -> tuple[FaceValue, ...]:
        """Roll ``dice`` together (one roll) and return one face per die.

        Args:
            dice: the physical dice, e.g. ``(D6, D6)``; a dice expression's ``dice()``.
            tag: what the roll is for (``"to_hit"``); scripted dice and errors use it.

        Returns:
            The faces, one per die. Identical dice may come back in any order.
        """
        ...

    def choose(self, n: int, tag: str) -> int:
        """A uniformly random index in ``range(n)``: a random selection among ``n`` options."""
        ...


def _dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def _check_options(n: int, tag: str) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ChanceError(f"cannot choose at {tag!r} among {n!r} options; need at least 1")


# -- seeds and sampling --------------------------------------------------------------------------


def derive_seed(master: int, *path: int | str) -> int:
    """A stable seed for one part of a run, derived from the battle's master seed.

    The seed is the first 8 bytes (big-endian) of SHA-256 over the JSON text of
    ``[master, *path]``: the same in every process, Python version and ``PYTHONHASHSEED``, so
    run ``i`` of a batch gets ``derive_seed(seed, "run", i)`` however the batch is split among
    worker processes. ``1`` and ``"1"`` in the path give different seeds.

    Raises:
        ChanceError: the master seed is not a whole number, or a path part is not an int or str.

    Examples:
        >>> derive_seed(7, "run", 0) == derive_seed(7, "run", 0) != derive_seed(7, "run", 1)
        True
        >>> 0 <= derive_seed(7) < 2**64
        True
    """
    if isinstance(master, bool) or not isinstance(master, int):
        raise ChanceError(f"a seed must be a whole number, got {master!r}")
    for part in path:
        if isinstance(part, bool) or not isinstance(part, (int, str)):
            raise ChanceError(f"a seed path part must be an int or a str, got {part!r}")
    payload = json.dumps([master, *path], separators=(",", ":"), ensure_ascii=True)
    return int.from_bytes(hashlib.sha256(payload.encode("ascii")).digest()[:8], "big")


class RandomChance:
    """Sampled chance from a seeded generator of its own (never the global ``random``).

    The same seed gives the same faces in every process and Python run (Mersenne Twister
    seeded with an int; no ``hash()`` of strings is involved). Faces are drawn with
    ``random.Random.choice``, exactly uniform over a die's sides.

    Examples:
        >>> from rules_run.chance.die import D6
        >>> a, b = RandomChance(7), RandomChance(7)
        >>> [a.roll((D6, D6), "x") for _ in range(3)] == [b.roll((D6, D6), "x") for _ in range(3)]
        True
        >>> RandomChance(7).exact
        False
    """

    __slots__ = ("seed", "rng", "_choice")

    exact = False
    """Sampling, not enumerating."""

    def __init__(self, seed: int) -> None:
        """Start a generator.

        Args:
            seed: a whole number >= 0 (``random.Random`` would treat ``-5`` and ``5`` alike).

        Raises:
            ChanceError: the seed is not a whole number >= 0.
        """
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ChanceError(f"a seed must be a whole number >= 0, got {seed!r}")
        self.seed: int = seed
        """The seed it started from."""
        self.rng: random.Random = random.Random(seed)
        """The generator, for :meth:`Dist.sample` and other draws that share this stream."""
        self._choice = self.rng.choice

    def roll(self, dice: tuple[Die, ...], tag: str) -> tuple[FaceValue, ...]:
        """Roll ``dice``: one face per die, in the order given."""
        choice = self._choice
        if len(dice) == 1:
            return (choice(dice[0].faces),)
        return tuple([choice(d.faces) for d in dice])

    def choose(self, n: int, tag: str) -> int:
        """A uniformly random index in ``range(n)``."""
        if n == 1:
            return 0
        _check_options(n, tag)
        return self.rng.randrange(n)

    def __repr__(self) -> str:
        return f"RandomChance({self.seed!r})"


class ScriptedChance:
    """Chance from a script of faces, as a battle file's ``dice:`` gives them (for tests).

    The script is either one list, used in order one die face at a time across all rolls, or
    a mapping from roll tag to its own list; a ``"*"`` list serves the tags without one. A
    ``choose(n, tag)`` consumes one value too, read as a 0-based index.

    Examples:
        >>> from rules_run.chance.die import D6
        >>> s = ScriptedChance({"to_hit": [4, 2], "*": [6]})
        >>> s.roll((D6, D6), "to_hit"), s.roll((D6,), "to_wound")
        ((4, 2), (6,))
        >>> s.remaining()
        {}
        >>> s.roll((D6,), "save")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rules_run.diagnostics.ChanceError: error: scripted dice ran out at roll 'save' ...
    """

    __slots__ = ("_lists", "_positions", "_by_tag")

    exact = False
    """Scripted dice are one sampled run, not an enumeration."""

    def __init__(self, script: Sequence[FaceValue] | Mapping[str, Sequence[FaceValue]]) -> None:
        """Take a script.

        Raises:
            ChanceError: the script is not a list of faces or a mapping of tag to such a list.
        """
        lists: dict[str | None, list[FaceValue]] = {}
        if isinstance(script, Mapping):
            self._by_tag = True
            for tag, faces in script.items():
                if not isinstance(tag, str):
                    raise ChanceError(f"scripted dice tags must be names, got {tag!r}")
                lists[tag] = self._checked_list(faces, f"'dice: {tag}'")
        else:
            self._by_tag = False
            lists[None] = self._checked_list(script, "'dice:'")
        self._lists = lists
        self._positions: dict[str | None, int] = dict.fromkeys(lists, 0)

    @staticmethod
    def _checked_list(faces: object, where: str) -> list[FaceValue]:
        if isinstance(faces, (str, bytes)) or not isinstance(faces, Sequence):
            raise ChanceError(f"{where} must be a list of faces, got {faces!r}")
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, (int, str)):
                raise ChanceError(f"{where} holds {face!r}; a face is a whole number or a symbol")
        return list(faces)

    def _where(self, key: str | None) -> str:
        return "'dice:'" if key is None else f"'dice: {key}'"

    def _take(self, count: int, tag: str, what: str, needed: str) -> tuple[str | None, int]:
        """The list key and position holding the next ``count`` values for ``tag``."""
        if not self._by_tag:
            key: str | None = None
        elif tag in self._lists:
            key = tag
        elif "*" in self._lists:
            key = "*"
        else:
            raise ChanceError(
                f"scripted dice have no list for {what} {tag!r} (needed {needed}); "
                f"add {tag!r} or '*' to 'dice:' in the battle file"
            )
        pos = self._positions[key]
        left = len(self._lists[key]) - pos
        if left < count:
            raise ChanceError(
                f"scripted dice ran out at {what} {tag!r} (needed {needed}, {left} left); "
                f"add more to {self._where(key)} in the battle file"
            )
        return key, pos

    def roll(self, dice: tuple[Die, ...], tag: str) -> tuple[FaceValue, ...]:
        """The next ``len(dice)`` scripted faces for ``tag``.

        Raises:
            ChanceError: the script ran out, or a scripted face is not a face of its die.
        """
        n = len(dice)
        key, pos = self._take(n, tag, "roll", f"{n} {_dice_word(n)}")
        faces = tuple(self._lists[key][pos : pos + n])
        for die, face in zip(dice, faces):
            if face not in die.face_set:
                valid = ", ".join(repr(f) for f in die.distinct)
                raise ChanceError(
                    f"scripted face {face!r} at roll {tag!r} is not a face of the {die.name} "
                    f"({valid}); fix {self._where(key)} in the battle file"
                )
        self._positions[key] = pos + n
        return faces

    def choose(self, n: int, tag: str) -> int:
        """The next scripted value for ``tag``, read as an index in ``range(n)``.

        Raises:
            ChanceError: the script ran out, or the value is not an index in ``range(n)``.
        """
        _check_options(n, tag)
        key, pos = self._take(1, tag, "choice", "1 value")
        value = self._lists[key][pos]
        if isinstance(value, str) or not 0 <= value < n:
            raise ChanceError(
                f"scripted choice {value!r} at {tag!r} is not an option index 0 to {n - 1}; "
                f"fix {self._where(key)} in the battle file"
            )
        self._positions[key] = pos + 1
        return value

    def remaining(self) -> list[FaceValue] | dict[str, list[FaceValue]]:
        """What the script still holds: a list, or a mapping of tag to its non-empty rest.

        Examples:
            >>> ScriptedChance([1, 2]).remaining()
            [1, 2]
        """
        if not self._by_tag:
            return self._lists[None][self._positions[None] :]
        rest: dict[str, list[FaceValue]] = {}
        for key, faces in self._lists.items():
            left = faces[self._positions[key] :]
            if left and key is not None:
                rest[key] = left
        return rest

    def used_all(self) -> bool:
        """True when every scripted value has been used."""
        return all(pos == len(self._lists[k]) for k, pos in self._positions.items())

    def __repr__(self) -> str:
        return f"ScriptedChance({self.remaining()!r})"


def sample(procedure: Callable[[Chance], Out], chance: Chance) -> Out:
    """Run ``procedure`` once with ``chance``: one sampled result.

    Examples:
        >>> from rules_run.chance.die import D6
        >>> sample(lambda c: c.roll((D6,), "x")[0] >= 4, ScriptedChance([4]))
        True
    """
    return procedure(chance)


def monte_carlo(procedure: Callable[[Chance], Out], n: int, seed: int) -> Dist[Out]:
    """Estimate the distribution of ``procedure`` from ``n`` samples (counts / n, exactly).

    All samples share one stream, ``RandomChance(seed)``: cheaper than a generator per
    sample, and the same ``(n, seed)`` always gives the same estimate. (A batch of battles split
    among processes should seed each run with :func:`derive_seed` instead.)

    Raises:
        ChanceError: ``n`` is not a whole number >= 1.

    Examples:
        >>> from rules_run.chance.die import D6
        >>> est = monte_carlo(lambda c: c.roll((D6,), "x")[0] >= 4, 1000, seed=1)
        >>> abs(est.probability(True) - Fraction(1, 2)) < Fraction(1, 10)
        True
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ChanceError(f"monte_carlo needs at least 1 sample, got {n!r}")
    chance = RandomChance(seed)
    counts: dict[Any, int] = {}
    for _ in range(n):
        v = procedure(chance)
        counts[v] = counts.get(v, 0) + 1
    return Dist._from_int_weights(counts)


# -- exact enumeration by replay -----------------------------------------------------------------

# A pending branch: the answers to replay, the call each answers (a dice tuple for a roll, an
# int n for a choose), and the branch's weight as numerator / denominator.
_Pending = tuple[list[Any], list[Any], int, int]


class ReplayChance:
    """The chance :func:`enumerate_exact` hands the procedure (``exact`` is True).

    It replays a prefix of answers. At the first call beyond the prefix it answers with the
    first option and leaves every other option (with its weight) on the driver's stack, so
    each run of the procedure ends in one leaf. (Raising a signal at the branch point instead
    would cost one extra run per branch point, and a procedure that catches broad exceptions
    would swallow the signal.)
    """

    __slots__ = (
        "_answers", "_keys", "_replay", "_pos", "_num", "_den",
        "_stack", "_leaves", "_limit", "_options", "_ordered", "error", "draws",
    )

    exact = True
    """Enumerating."""

    def __init__(self, stack: list[_Pending], limit: int, ordered: bool,
                 draws: bool = False) -> None:
        self._stack = stack
        self.draws = draws
        """True when the procedure may enter a roll or a volley as one :meth:`draw` of its
        exact distribution (:func:`enumerate_exact`'s ``draws``)."""
        self._limit = limit
        self._ordered = ordered
        self._options: dict[Any, tuple[list[tuple[Any, int]], int]]
        self._options = {}
        self._leaves = 0
        self.error: ChanceError | None = None
        """The first error raised inside the procedure, in case the procedure swallowed it."""
        self._start([], [], 1, 1)

    def _start(self, answers: list[Any], keys: list[Any], num: int, den: int) -> None:
        self._answers, self._keys = answers, keys
        self._replay = len(answers)
        self._pos = 0
        self._num, self._den = num, den

    def _fail(self, message: str) -> ChanceError:
        error = ChanceError(message)
        if self.error is None:
            self.error = error
        return error

    def _replayed(self, key: Any, tag: str) -> Any:
        pos = self._pos
        self._pos = pos + 1
        if self._keys[pos] != key:
            raise self._fail(
                f"the procedure is not deterministic: chance call #{pos + 1} ({tag!r}) asked for "
                f"{_describe(key)}, but on an earlier run it asked for {_describe(self._keys[pos])}"
            )
        return self._answers[pos]

    def _branch(self, key: Any, options: list[tuple[Any, int]], total: int) -> Any:
        answers, keys, num, den = self._answers, self._keys, self._num, self._den
        den_next = den * total
        stack = self._stack
        if self._leaves + len(stack) + len(options) > self._limit:
            raise self._fail(
                f"exact enumeration needs more than {self._limit} outcomes; estimate it with "
                "monte_carlo, split the procedure and combine Dists (bind, repeat_sum), "
                "or raise limit="
            )
        # Each branch gets lists of its own: the running path appends to them in place.
        for answer, weight in options[1:]:
            stack.append((answers + [answer], keys + [key], num * weight, den_next))
        answer, weight = options[0]
        answers.append(answer)
        keys.append(key)
        self._pos += 1
        self._replay += 1
        self._num, self._den = num * weight, den_next
        return answer

    def roll(self, dice: tuple[Die, ...], tag: str) -> tuple[FaceValue, ...]:
        """Replay the recorded faces, or branch over every distinct result of ``dice``."""
        if self._pos < self._replay:
            return self._replayed(dice, tag)
        found = self._options.get(dice)
        if found is None:
            if self._ordered:
                pairs = ordered_outcomes(dice)
                total = 1
                for d in dice:
                    total *= len(d.faces)
                found = ([(f, int(p * total)) for f, p in pairs], total)
            else:
                found = outcome_counts(dice)
            self._options[dice] = found
        return self._branch(dice, found[0], found[1])

    def choose(self, n: int, tag: str) -> int:
        """Replay the recorded index, or branch over every index in ``range(n)``."""
        if self._pos < self._replay:
            return self._replayed(n, tag)
        _check_options(n, tag)
        if n == 1:
            return self._branch(n, [(0, 1)], 1)
        return self._branch(n, [(i, 1) for i in range(n)], n)

    def draw(self, dist: Dist[Any], tag: str) -> Any:
        """Replay the recorded outcome, or branch over every outcome of ``dist`` with its
        probability: a step whose distribution is already known enters the enumeration as
        one branch point (a sequence's steps do, :meth:`CompiledSequence.exact`)."""
        if self._pos < self._replay:
            return self._replayed(dist, tag)
        found = self._options.get(dist)
        if found is None:
            total, weights = dist._int_weights()
            found = self._options[dist] = ([(o, w) for o, w in weights.items()], total)
        return self._branch(dist, found[0], found[1])


    def draw_lazily(self, dist_of: Callable[[], Dist[Any]], tag: str) -> Any:
        """:meth:`draw` from the distribution ``dist_of()`` makes, made only where the draw
        branches: a draw being replayed gives back its recorded outcome without making the
        distribution again (so it is not checked against the earlier run's)."""
        pos = self._pos
        if pos < self._replay:
            self._pos = pos + 1
            return self._answers[pos]
        return self.draw(dist_of(), tag)


def _describe(key: Any) -> str:
    if isinstance(key, int):
        return f"a choice among {key}"
    return "a roll of " + (", ".join(d.name for d in key) or "no dice")


def enumerate_exact(
    procedure: Callable[[Chance], Out], *, limit: int = _ENUMERATE_LIMIT, ordered: bool = False,
    draws: bool = False,
) -> Dist[Out]:
    """The exact distribution of ``procedure``'s result, by replaying it over every answer.

    The procedure runs once per leaf of its chance tree. Each run replays a recorded prefix of
    answers; at the first roll beyond it, every distinct result of the dice (multisets, see
    :func:`~rules_run.chance.die.outcomes`) becomes a branch weighted by its probability, and
    likewise each index of a ``choose``. Results are accumulated exactly.

    The procedure must be deterministic given its chance answers, and its result hashable.

    Args:
        procedure: the game procedure; it receives a :class:`Chance` whose ``exact`` is True.
        limit: the most leaves to explore before giving up.
        ordered: branch on ordered rolls (36 for 2D6) instead of multisets (21), for a
            procedure that depends on the order of dice within one roll.
        draws: tell the procedure (``chance.draws``) that a roll or a volley whose exact
            distribution it can work out may enter as one branch point of that distribution
            (:meth:`ReplayChance.draw`) rather than die by die; the combat kernel sets it.

    Raises:
        ChanceError: the procedure needs more than ``limit`` leaves, or asked for different
            dice when replayed the same answers.

    Examples:
        >>> from rules_run.chance.die import D6
        >>> def hit_and_wound(chance):
        ...     if chance.roll((D6,), "to_hit")[0] < 4:
        ...         return False
        ...     return chance.roll((D6,), "to_wound")[0] >= 5
        >>> enumerate_exact(hit_and_wound).probability(True)
        Fraction(1, 6)
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ChanceError(f"limit must be a whole number >= 1, got {limit!r}")
    stack: list[_Pending] = []
    chance = ReplayChance(stack, limit, ordered, draws)
    by_den: dict[int, dict[Any, int]] = {}
    leaves = 0
    while True:
        result = procedure(chance)
        if chance.error is not None:
            raise chance.error
        if chance._pos < chance._replay:
            raise ChanceError(
                f"the procedure is not deterministic: it stopped after {chance._pos} chance "
                f"calls, but on an earlier run it went on to call #{chance._pos + 1}"
            )
        leaves += 1
        chance._leaves = leaves
        bucket = by_den.get(chance._den)
        if bucket is None:
            bucket = by_den[chance._den] = {}
        bucket[result] = bucket.get(result, 0) + chance._num
        if not stack:
            break
        chance._start(*stack.pop())
    probabilities: dict[Any, Fraction] = {}
    for den, bucket in by_den.items():
        for result, num in bucket.items():
            probabilities[result] = probabilities.get(result, Fraction(0)) + Fraction(num, den)
    return Dist._new_raw({o: p for o, p in probabilities.items() if p})
