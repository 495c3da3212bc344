"""Declarations of the rules language (all but rules), the header, patches and a parsed file."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

from rules_run import slotted

from rules_run.diagnostics import Span
from rules_run.lang.ast.expressions import (Call, CellDice, Cite, CountedDice, DiceLit, Expr,
                                             Literal, Param)
from rules_run.lang.ast.statements import Let, Stmt
from rules_run.lang.ast.words import HookKind, PatchVerb

__all__ = [
    "Decl", "SourceDecl", "Header", "CharacteristicDecl", "TableDecl", "DieDecl", "OptionDecl",
    "StatusDecl", "CounterDecl", "RecordDecl", "KeywordDecl", "Natural", "RerollNeeding",
    "RerollResult",
    "RollDecl", "ClausePatch",
    "HookEffect", "Hook", "Step", "PerPoint", "SequenceDecl", "SequencePatch", "OncePer",
    "ActionDecl", "ActionPatch", "CaseDecl", "DecisionDecl",
    "PolicyDecl", "PhaseDecl", "BattleDecl", "PatchOp", "RulesFile"
]


# ---------------------------------------------------------------- declarations


@slotted.frozen
class Decl:
    """Base of every declaration: a named thing with a citation."""

    KIND: ClassVar[str] = ""
    span: Span
    name: str
    cite: Cite | None

    @property
    def kind(self) -> str:
        """The declaration kind, as written in ``remove <kind> <name>``."""
        return self.KIND

    @property
    def params(self) -> tuple[Param, ...]:
        """The declared parameters: none, unless the kind takes some (a roll, a rule, ...)."""
        return ()


@slotted.frozen
class SourceDecl:
    """``source "000_c4300f58fce5f1da.txt"``: a seed file the ruleset cites."""

    span: Span
    file: str


@slotted.frozen
class Header:
    """``ruleset <id> "<title>" [extends <id>]`` and its sources."""

    span: Span
    id: str
    title: str
    extends: str | None
    cite: Cite | None
    sources: tuple[SourceDecl, ...] = ()


@slotted.frozen
class CharacteristicDecl(Decl):
    """One characteristic of a profile kind (model, weapon)."""

    KIND: ClassVar[str] = "characteristics"
    entity: str = "model"
    type: str = "int"
    low: int | None = None
    high: int | None = None
    role: str | None = None
    """What the engine uses it for: ``wounds`` (each model's wounds), ``move`` (inches)."""
    floor: int | None = None
    """``minimum N``: rule effects and equipment never take the value below N (nor below
    the unmodified value, where that is lower)."""

    def range_problem(self, value: object) -> str | None:
        """Why a number a profile gives this characteristic is outside its declared range
        (``range LO..HI``), or None (also for a value that is not a number, such as dice)."""
        if type(value) not in (int, float):
            return None
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        if low <= value <= high:  # type: ignore[operator]
            return None
        low_text = "" if self.low is None else self.low
        high_text = "" if self.high is None else self.high
        return f"{self.name} {value!r} is outside its declared range {low_text}..{high_text}"


@slotted.frozen
class TableDecl(Decl):
    KIND: ClassVar[str] = "table"
    keys: tuple[str, ...] = ()
    file: str = ""


@slotted.frozen
class DieDecl(Decl):
    KIND: ClassVar[str] = "die"
    faces: tuple[int | str, ...] = ()


@slotted.frozen
class OptionDecl(Decl):
    """A reading of an ambiguous rule, selectable in battle files."""

    KIND: ClassVar[str] = "option"
    type: str = "int"
    choices: tuple[str, ...] = ()
    default: object = None
    doc: str = ""
    low: int | None = None
    """The smallest value a number option takes (``range LO..HI``), if bounded."""
    high: int | None = None
    """The largest, if bounded."""


@slotted.frozen
class StatusDecl(Decl):
    KIND: ClassVar[str] = "status"
    until: str | None = None
    """``phase``, ``turn``, ``round``, ``battle``, ``its next turn`` (the end of the next turn
    of the side of the unit that has it), ``next turn`` (of the next turn to start): when it
    wears off by itself."""
    quiet: bool = False
    """Bookkeeping: the narrated log leaves its changes out (the event log keeps them)."""
    params: tuple[Param, ...] = ()
    """What ``apply(NAME(args), x)`` gives it: its effects read them."""
    effects: tuple[Any, ...] = ()
    """The rule effects (:class:`~rules_run.lang.ast.effects.Effect`) that apply to the unit
    while it has the status, with ``bearer`` that unit."""
    ignored_again: bool = False
    """``reapplied ignored``: applying it while it lasts changes nothing (by default the new
    duration and arguments replace the old)."""
    condition: Expr | None = None
    """``status NAME while COND``: a unit has it exactly while ``COND`` (with ``bearer`` the
    unit) is true, worked out whenever it is read; it is never applied or cleared."""


@slotted.frozen
class CounterDecl(Decl):
    KIND: ClassVar[str] = "counter"
    keys: tuple[str, ...] = ("unit",)
    """What it is kept per, as written: ``battle`` (one number), or the type of each key in
    order (``side``, ``unit``, ``text``, ...)."""
    key_spans: tuple[Span, ...] = ()
    """Where each of :attr:`keys` is written (for the checker's messages)."""
    initial: Expr | None = None
    period: str | None = None
    """``until end of phase|turn|round``: each such period starts from the initial value
    again (None: the values last the whole battle)."""
    holds: str = "int"
    """``holds TYPE``: the type of its values (a type, or ``record:NAME``,
    :mod:`rules_run.lang.types`); a number by default."""
    holds_span: Span | None = None

    @property
    def key_types(self) -> tuple[str, ...]:
        """The type of each key a read gives after the counter's name (none ``of battle``)."""
        return tuple(k for k in self.keys if k != "battle")


@slotted.frozen
class RecordDecl(Decl):
    """A small value with named fields: ``record Cast(total: int, ones: int)``."""

    KIND: ClassVar[str] = "record"
    params: tuple[Param, ...] = ()
    """Its fields, in order, as a call's parameters (a call builds one)."""


@slotted.frozen
class KeywordDecl(Decl):
    KIND: ClassVar[str] = "keyword"


@slotted.frozen
class Natural:
    """``natural 6 passes`` / ``natural 1 fails`` / ``natural 6 is critical``."""

    span: Span
    values: tuple[int, ...]
    effect: str
    """``fails``, ``passes`` or ``mark``."""
    mark: str | None = None

    def text(self) -> str:
        """As written: ``natural 6 passes``, ``natural 6 is six``."""
        said = f"is {self.mark}" if self.mark is not None else self.effect
        return f"natural {', '.join(str(v) for v in self.values)} {said}"


@slotted.frozen
class RerollNeeding:
    """``reroll natural 1 needing 6 [if COND]``: a test's own re-roll of those unmodified
    totals, which passes on its own need (used when no rule's re-roll is)."""

    span: Span
    values: tuple[int, ...]
    """The unmodified totals that are re-rolled."""
    need: Expr
    """The re-roll's need, worked out before the dice are rolled again."""
    condition: Expr | None = None
    """When the test has this re-roll at all (read before rolling; None: always)."""


@slotted.frozen
class RerollResult:
    """``reroll passed|failed if COND``: a test's own re-roll of a passed (failed) result
    when ``COND`` holds, read before rolling; as a rule's re-roll of it is."""

    span: Span
    which: str
    """``passed`` or ``failed``."""
    condition: Expr


@slotted.frozen
class RollDecl(Decl):
    """A roll (a value) or a test (a roll with a pass condition)."""

    KIND: ClassVar[str] = "roll"
    is_test: bool = False
    params: tuple[Param, ...] = ()
    dice: DiceLit | CountedDice | CellDice | None = None
    need: Expr | None = None
    pass_if: Expr | None = None
    naturals: tuple[Natural, ...] = ()
    cap: tuple[int | None, int | None] = (None, None)
    value: Expr | None = None
    beyond: tuple[int, Expr] | None = None
    reroll: str = "all dice"
    """How a granted re-roll applies to a many-dice roll: ``all dice``, ``one die``, ``never``."""
    marks: tuple[tuple[str, Expr], ...] = ()
    """``mark NAME if COND``: marks set by a condition on ``dice``, ``natural``, ``result``."""
    modifier: Expr | None = None
    """``modifier EXPR``: the roll's own modifier, capped with the rules' modifiers."""
    failing_marks: tuple[tuple[str, Span], ...] = ()
    """``marked NAME fails``: a result with that mark fails (as ``natural N fails`` does)."""
    reroll_needing: RerollNeeding | None = None
    reroll_result: RerollResult | None = None
    """``reroll passed|failed if COND``."""
    """``reroll natural N needing EXPR``: the test's own re-roll with its own need."""
    reuses: Call | None = None
    """``test NAME is BASE(args)``: the roll whose clauses this one takes, its parameters
    bound to ``args`` (:mod:`rules_run.lang.reuse` fills the clauses in after patches)."""
    changes: ClausePatch | None = None
    """The clauses a reusing roll gives under it, changing its base's (``natural 2
    passes``), as an ``override`` of its clauses does; a patch's override adds to them."""

    @property
    def kind(self) -> str:
        return "test" if self.is_test else "roll"


@slotted.frozen
class ClausePatch(Decl):
    """``override test NAME`` with clauses: the roll of that name with these clauses in place
    of its own; its parameters, and every clause not given, stay."""

    is_test: bool = False
    changes: tuple[tuple[str, Any], ...] = ()
    """(RollDecl field, value) for each clause given; ``naturals`` and ``marks`` are added."""
    removed: tuple[Natural, ...] = ()
    """``remove natural ...``: natural clauses taken away (matched by what they say)."""

    @property
    def kind(self) -> str:
        return "test" if self.is_test else "roll"

    def missing(self, base: RollDecl) -> list[Natural]:
        """The removed natural clauses that ``base`` does not have."""
        have = {(n.values, n.effect, n.mark) for n in base.naturals}
        return [n for n in self.removed if (n.values, n.effect, n.mark) not in have]

    def applied_to(self, base: RollDecl) -> RollDecl:
        """``base`` with these clauses changed, cited and located as this patch. A roll
        that reuses another keeps them among its own changes too, which it makes again when
        its base's clauses are taken again (after a patch's)."""
        if base.reuses is not None:
            own = base.changes
            base = slotted.evolve(base, changes=self if own is None else slotted.evolve(
                own, changes=own.changes + self.changes, removed=own.removed + self.removed))
        gone = {(n.values, n.effect, n.mark) for n in self.removed}
        naturals = tuple(n for n in base.naturals if (n.values, n.effect, n.mark) not in gone)
        fields: dict[str, Any] = {"naturals": naturals}
        for key, value in self.changes:
            fields[key] = fields.get(key, getattr(base, key)) + value if key in (
                "naturals", "marks") else value
        return slotted.evolve(base, span=self.span, cite=self.cite, **fields)


@slotted.frozen
class HookEffect:
    span: Span
    kind: HookKind
    arg: Expr | str | None = None


@slotted.frozen
class Hook:
    """``on critical [if cond]: chains 2`` on a sequence step."""

    span: Span
    mark: str
    condition: Expr | None
    effect: HookEffect
    cite: Cite | None = None


@slotted.frozen
class Step:
    """``step NAME: TEST(args) stops on fail|pass`` with its hooks; later steps, the hooks
    of later steps and ``damage`` read its result by ``NAME`` (``wound.six``)."""

    span: Span
    name: str
    call: Call
    stop_on: str
    """``fail``: the chain ends when the test fails; ``pass``: when it passes (saves)."""
    hooks: tuple[Hook, ...] = ()


@slotted.frozen
class PerPoint:
    """``each point: ward(target) removes on pass``: a test per damage point."""

    span: Span
    call: Call
    removes_on: str


@slotted.frozen
class SequenceDecl(Decl):
    KIND: ClassVar[str] = "sequence"
    params: tuple[Param, ...] = ()
    steps: tuple[Step, ...] = ()
    damage: Expr | None = None
    per_point: PerPoint | None = None
    tallies: tuple[str, ...] = ()
    """``tally NAME, ...``: outcomes the sequence counts besides damage (``count NAME``)."""
    reuses: Call | None = None
    """``sequence volley is strike``: the sequence whose clauses it takes (filled in by
    :func:`rules_run.lang.reuse.resolve_reuses`, after patches), with these arguments."""
    changes: SequencePatch | None = None
    """The steps (and damage) it gives in place of its base's."""


@slotted.frozen
class SequencePatch(Decl):
    """``override sequence NAME`` with steps, a ``damage`` or an ``each point`` clause: the
    sequence of that name with each step given in place of its step of that name (where it
    stands), and the damage and each point given in place of its own; its parameters and
    every other clause stay."""

    KIND: ClassVar[str] = "sequence"
    steps: tuple[Step, ...] = ()
    damage: Expr | None = None
    per_point: PerPoint | None = None

    def missing(self, base: SequenceDecl) -> list[Step]:
        """The steps given that ``base`` does not have."""
        have = {s.name for s in base.steps}
        return [s for s in self.steps if s.name not in have]

    def applied_to(self, base: SequenceDecl) -> SequenceDecl:
        """``base`` with these clauses in place of its own, cited and located as this patch.
        A sequence that reuses another keeps these among its own changes too, which it
        keeps when its base's steps are taken again (after a patch's)."""
        given = {s.name: s for s in self.steps}
        changes = base.changes
        if base.reuses is not None and changes is not None:
            changes = slotted.evolve(changes, steps=tuple(
                given.pop(s.name, s) for s in changes.steps) + tuple(given.values()),
                damage=changes.damage if self.damage is None else self.damage,
                per_point=changes.per_point if self.per_point is None else self.per_point)
            given = {s.name: s for s in self.steps}
        return slotted.evolve(base, span=self.span, cite=self.cite, changes=changes,
                            steps=tuple(given.get(s.name, s) for s in base.steps),
                            damage=base.damage if self.damage is None else self.damage,
                            per_point=base.per_point if self.per_point is None
                            else self.per_point)


@slotted.frozen
class OncePer:
    """``once per phase per u, command``: an action runs at most once in each period for
    each value of its keys."""

    span: Span
    period: str
    """``phase``, ``turn``, ``round`` or ``battle``."""
    keys: tuple[Expr, ...] = ()
    """What the limit is counted for, over the action's parameters (none: once in all)."""

    def text(self) -> str:
        """As written, without the keys: ``once per phase``."""
        return f"once per {self.period}"


@slotted.frozen
class ActionDecl(Decl):
    KIND: ClassVar[str] = "action"
    params: tuple[Param, ...] = ()
    body: tuple[Stmt, ...] = ()
    limit: OncePer | None = None
    """``once per ...``: how often it may run (None: without limit)."""
    by: str | None = None
    """``by s``: the parameter whose value picks one of its :class:`CaseDecl` bodies (its
    own body runs for every other value); None: not split."""
    by_span: Span | None = None
    """Where :attr:`by` names the parameter."""
    listed: bool = slotted.slot(default=True, eq=False, repr=False)
    """Whether it was written with a parameter list (``()`` for none): ``override action
    NAME`` without one changes ``let`` lines (:class:`ActionPatch`)."""


@slotted.frozen
class ActionPatch(Decl):
    """``override action NAME`` (no parameter list) with ``let`` lines: the action of that
    name with the value of each of its ``let`` lines of those names (at any depth of its
    body) in place of its own; every other statement stays where it is."""

    KIND: ClassVar[str] = "action"
    lets: tuple[Let, ...] = ()

    @staticmethod
    def bound(base: ActionDecl) -> dict[str, list[Let]]:
        """Every ``let`` of ``base``'s body, by the name it binds, in the order written."""
        found: dict[str, list[Let]] = {}
        _with_lets(base.body, {}, found)
        return found

    def applied_to(self, base: ActionDecl) -> ActionDecl:
        """``base`` with these values in its ``let`` lines, cited and located as this patch."""
        given = {let.name: let for let in self.lets}
        return slotted.evolve(base, span=self.span, cite=self.cite,
                            body=_with_lets(base.body, given))


@slotted.frozen
class CaseDecl(Decl):
    """``case resolve_spell "fireball" @ L1253``: the body of the action ``resolve_spell``
    (split ``by`` a parameter) when that parameter has one of these values. Its name, the
    key it is declared, patched and cited under, is the action's and the values as written
    (:meth:`key`)."""

    KIND: ClassVar[str] = "case"
    action: str = slotted.slot(kw_only=True)
    action_span: Span | None = None
    """Where the action is named."""
    values: tuple[Literal, ...] = ()
    """The values, as literals (text or whole numbers), in the order written."""
    body: tuple[Stmt, ...] = ()

    @staticmethod
    def key(action: str, values: tuple[Literal, ...]) -> str:
        """``resolve_spell "fireball"``, ``spell_effect "dispirit", "enthuse"``."""
        return f"{action} " + ", ".join(CaseDecl.value_text(v) for v in values)

    @staticmethod
    def value_text(value: Literal) -> str:
        """A value as written: ``"fireball"``, ``3``."""
        return f'"{value.value}"' if value.kind == "text" else str(value.value)


def _with_lets(node: Any, given: Mapping[str, Let],
               found: dict[str, list[Let]] | None = None) -> Any:
    """``node`` with every ``let`` of a name in ``given`` replaced by that ``let``; each
    ``let`` met is put in ``found``, when given."""
    if isinstance(node, tuple):
        return tuple(_with_lets(n, given, found) for n in node)
    if isinstance(node, Let):
        if found is not None:
            found.setdefault(node.name, []).append(node)
        return given.get(node.name, node)
    if not isinstance(node, Stmt):
        return node   # an expression holds no statement
    return slotted.evolve(node, **{f.name: _with_lets(getattr(node, f.name), given, found)
                                 for f in slotted.fields(type(node)) if f.name != "span"})


@slotted.frozen
class DecisionDecl(Decl):
    KIND: ClassVar[str] = "decision"
    params: tuple[Param, ...] = ()
    options: Expr = slotted.slot(kw_only=True)
    default: str | None = None


@slotted.frozen
class PolicyDecl(Decl):
    KIND: ClassVar[str] = "policy"
    choices: tuple[tuple[str, Expr], ...] = ()
    """(decision, choice) in order; ``for a, b: choose X`` gives one for each decision."""
    choice_spans: tuple[Span, ...] = ()
    """Where the decision of each of :attr:`choices` is named."""
    is_default: bool = False
    """``policy <name> is default``: sides without a policy of their own play by it."""
    extends: str | None = None
    """``policy <name> extends <base>``: for a decision it does not choose for, the base's
    choice (and so on up the chain)."""

    def choices_for(self, decision: str, decls: Mapping[str, Decl]) -> tuple[Expr, ...]:
        """The choices for ``decision`` of the nearest policy up the chain that has one."""
        policy: Decl | None = self
        seen: set[str] = set()
        while isinstance(policy, PolicyDecl) and policy.name not in seen:
            seen.add(policy.name)
            found = tuple(e for d, e in policy.choices if d == decision)
            if found:
                return found
            policy = decls.get(policy.extends) if policy.extends else None
        return ()


@slotted.frozen
class PhaseDecl(Decl):
    KIND: ClassVar[str] = "phase"
    params: tuple[Param, ...] = ()
    parent: str | None = None
    body: tuple[Stmt, ...] = ()


@slotted.frozen
class BattleDecl(Decl):
    """The turn tree's root: setup, number of rounds, a round, a turn, the end, the score."""

    KIND: ClassVar[str] = "battle"
    setup: tuple[Stmt, ...] = ()
    rounds: Expr | None = None
    round: tuple[Stmt, ...] = ()
    turn: tuple[Stmt, ...] = ()
    end: tuple[Expr, ...] = ()
    score: tuple[Stmt, ...] = ()


# ---------------------------------------------------------------- files and patches


@slotted.frozen
class PatchOp:
    """``override``/``add``/``define`` a declaration, or ``remove`` one."""

    span: Span
    op: PatchVerb
    kind: str
    name: str
    decl: Decl | None
    """None for ``remove``."""
    cite: Cite | None = None


@slotted.frozen
class RulesFile:
    """One parsed ``.rules`` file."""

    path: str
    header: Header | None
    items: tuple[Decl | PatchOp, ...]
    unparsed: tuple[str | None, ...] = ()
    """The name each declaration that does not parse seems to declare (read from its first
    line; None where that cannot be told, or for the header and a line of characteristics,
    which declare several)."""
