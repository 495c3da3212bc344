"""The abstract syntax tree of the rules language.

Every node is immutable (``attrs.frozen``) and carries the :class:`Span` it was parsed from,
so diagnostics, logs and diffs can point at the rule text. Grammar rules are snake_case and
node classes CamelCase (``roll_decl`` → :class:`RollDecl`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, ClassVar

import attrs

from rules_run.diagnostics import Span

# ---------------------------------------------------------------- common


@attrs.frozen
class Cite:
    """Where a declaration comes from: seed lines, or a "not in seed: ..." note."""

    span: Span
    source: str | None = None
    """The seed's number (``004``); None for the ruleset's default source."""
    ranges: tuple[str, ...] = ()
    """Line ranges as written: ``L450``, ``L418-L422``."""
    note: str | None = None
    """The text of a quoted citation (``not in seed: standard published value``)."""

    def text(self, sources: tuple[str, ...] = ()) -> str:
        """The citation as a reader sees it: ``000_c43....txt L450`` or the note.

        ``sources`` are the seed files the ruleset declares; the first is the default.
        """
        if self.note is not None:
            return self.note
        file = find_source(self.source, sources)
        prefix = f"{file} " if file else (f"{self.source} " if self.source else "")
        return prefix + ", ".join(self.ranges)


def find_source(number: str | None, sources: tuple[str, ...]) -> str | None:
    """The seed file a citation means: the one named by its number, else the default."""
    if number is None:
        return sources[0] if sources else None
    return next((s for s in sources if s.startswith(number + "_") or s == number), None)


@attrs.frozen
class Param:
    """A declared parameter: ``attacker: unit``, ``n: int = 1``."""

    span: Span
    name: str
    type: str = "any"
    default: Expr | None = None


# ---------------------------------------------------------------- expressions


@attrs.frozen
class Expr:
    """Base of every expression node."""

    span: Span


@attrs.frozen
class Literal(Expr):
    """An int, decimal, string, need (``4+``), bool or none."""

    value: int | float | str | None
    kind: str = "int"
    """One of int, number, text, need, bool, none."""


@attrs.frozen
class Name(Expr):
    """A name: a parameter, a local, an option, a table, a builtin constant."""

    name: str


@attrs.frozen
class DiceLit(Expr):
    """Dice rolled when the expression is evaluated: ``2D6``, ``highest of 2D6``, ``D6x5``."""

    count: int
    sides: int
    times: int = 1
    keep: str | None = None
    """None (sum), ``highest`` or ``lowest``."""
    keep_count: int = 1
    plus: int = 0
    die_name: str | None = None
    """A special die declared with ``die`` (its faces are data), instead of count/sides."""

    def text(self) -> str:
        """Canonical notation."""
        if self.die_name:
            core = self.die_name
        else:
            core = f"{self.count if self.count != 1 else ''}D{self.sides}"
            if self.times != 1:
                core += f"x{self.times}"
            if self.keep:
                k = f"{self.keep_count} " if self.keep_count != 1 else ""
                core = f"{self.keep} {k}of {core}"
        if self.plus:
            core += f"{self.plus:+d}"
        return core


@attrs.frozen
class CountedDice(Expr):
    """A roll's dice counted: a number worked out before rolling (``levels D6``), the faces
    counted (``count 5+ in 3D6``), or both."""

    pool: DiceLit
    """The dice: a plain pool (its count is unused when ``number`` is given)."""
    number: Expr | None = None
    """How many dice, worked out before they are rolled."""
    counting: tuple[int, ...] = ()
    """The faces counted: the value is how many dice show one of them (none: the sum)."""
    plus: int = 0


@attrs.frozen
class Attribute(Expr):
    """``unit.WS``, ``weapon.Damage``, ``result.critical``."""

    target: Expr
    name: str


@attrs.frozen
class Lookup(Expr):
    """A table lookup: ``to_hit_melee[attacker.WS, target.WS]``."""

    target: Expr
    keys: tuple[Expr, ...]


@attrs.frozen
class Call(Expr):
    """A call of a builtin, a roll, a test, an action or a decision."""

    name: str
    args: tuple[Expr, ...] = ()
    kwargs: tuple[tuple[str, Expr], ...] = ()


@attrs.frozen
class BinOp(Expr):
    """``a + b``, ``a * b``, ``a // b``."""

    op: str
    left: Expr
    right: Expr


@attrs.frozen
class Compare(Expr):
    """``a <= b`` and friends."""

    op: str
    left: Expr
    right: Expr


@attrs.frozen
class BoolOp(Expr):
    """``a and b and c`` / ``a or b``."""

    op: str
    operands: tuple[Expr, ...]


@attrs.frozen
class Not(Expr):
    operand: Expr


@attrs.frozen
class Neg(Expr):
    operand: Expr


@attrs.frozen
class CondExpr(Expr):
    """``if c then a else b``."""

    condition: Expr
    then: Expr
    otherwise: Expr


@attrs.frozen
class Has(Expr):
    """``unit has "Brave"``: the subject carries that rule (or keyword)."""

    subject: Expr
    rule: str


@attrs.frozen
class IsStatus(Expr):
    """``unit is fleeing`` / ``unit is not fleeing``."""

    subject: Expr
    status: str
    negated: bool = False


@attrs.frozen
class Member(Expr):
    """``x in collection``."""

    item: Expr
    collection: Expr


@attrs.frozen
class ListLit(Expr):
    items: tuple[Expr, ...]


@attrs.frozen
class Comprehension(Expr):
    """``[e for each x in items where c]``: a list built from another."""

    item: Expr
    var: str
    iterable: Expr
    where: Expr | None = None


# ---------------------------------------------------------------- statements


@attrs.frozen
class Stmt:
    span: Span


@attrs.frozen
class Let(Stmt):
    name: str
    value: Expr


@attrs.frozen
class Assign(Stmt):
    """``x = e``, ``x += e``, ``unit.flag = e``."""

    target: Name | Attribute
    op: str
    value: Expr


@attrs.frozen
class CallStmt(Stmt):
    call: Call


@attrs.frozen
class Return(Stmt):
    value: Expr | None


@attrs.frozen
class Log(Stmt):
    message: str
    args: tuple[Expr, ...]


@attrs.frozen
class Pass(Stmt):
    pass


@attrs.frozen
class Stop(Stmt):
    """Stop the battle with a message (a situation the rules do not cover)."""

    message: str


@attrs.frozen
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...] = ()


@attrs.frozen
class ForEach(Stmt):
    var: str
    iterable: Expr
    where: Expr | None
    order: Expr | None
    body: tuple[Stmt, ...]


@attrs.frozen
class While(Stmt):
    condition: Expr
    body: tuple[Stmt, ...]


@attrs.frozen
class Activate(Stmt):
    """Units act one at a time: ``activate u in units alternately starting with s: ...``."""

    var: str
    units: Expr
    order: str
    """``alternately`` (sides take turns picking) or ``by side`` (one side, then the other)."""
    start: Expr
    picker: str | None
    """The decision that picks the next unit; None picks in listed order."""
    body: tuple[Stmt, ...]
    where: Expr | None = None
    """``where C``: a unit is handed out only while ``C`` holds for it (checked at each pick)."""


# ---------------------------------------------------------------- declarations


@attrs.frozen
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


@attrs.frozen
class SourceDecl:
    """``source "000_c4300f58fce5f1da.txt"``: a seed file the ruleset cites."""

    span: Span
    file: str


@attrs.frozen
class Header:
    """``ruleset <id> "<title>" [extends <id>]`` and its sources."""

    span: Span
    id: str
    title: str
    extends: str | None
    cite: Cite | None
    sources: tuple[SourceDecl, ...] = ()


@attrs.frozen
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


@attrs.frozen
class TableDecl(Decl):
    KIND: ClassVar[str] = "table"
    keys: tuple[str, ...] = ()
    file: str = ""


@attrs.frozen
class DieDecl(Decl):
    KIND: ClassVar[str] = "die"
    faces: tuple[int | str, ...] = ()


@attrs.frozen
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


@attrs.frozen
class StatusDecl(Decl):
    KIND: ClassVar[str] = "status"
    until: str | None = None
    """``phase``, ``turn``, ``round``, ``battle``: when it wears off by itself."""
    quiet: bool = False
    """Bookkeeping: the narrated log leaves its changes out (the event log keeps them)."""


@attrs.frozen
class CounterDecl(Decl):
    KIND: ClassVar[str] = "counter"
    scope: str = "unit"
    initial: Expr | None = None


@attrs.frozen
class KeywordDecl(Decl):
    KIND: ClassVar[str] = "keyword"


@attrs.frozen
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


@attrs.frozen
class RollDecl(Decl):
    """A roll (a value) or a test (a roll with a pass condition)."""

    KIND: ClassVar[str] = "roll"
    is_test: bool = False
    params: tuple[Param, ...] = ()
    dice: DiceLit | CountedDice | None = None
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
    reuses: Call | None = None
    """``test NAME is BASE(args)``: the roll whose clauses this one takes, its parameters
    bound to ``args`` (:mod:`rules_run.lang.reuse` fills the clauses in after patches)."""

    @property
    def kind(self) -> str:
        return "test" if self.is_test else "roll"


@attrs.frozen
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
        """``base`` with these clauses changed, cited and located as this patch."""
        gone = {(n.values, n.effect, n.mark) for n in self.removed}
        naturals = tuple(n for n in base.naturals if (n.values, n.effect, n.mark) not in gone)
        fields: dict[str, Any] = {"naturals": naturals}
        for key, value in self.changes:
            fields[key] = fields.get(key, getattr(base, key)) + value if key in (
                "naturals", "marks") else value
        return attrs.evolve(base, span=self.span, cite=self.cite, **fields)


@attrs.frozen
class HookEffect:
    span: Span
    kind: str
    """``chains`` (the chain becomes N), ``skip`` (a later step), ``end_damage``, ``pass``, ``fail``."""
    arg: Expr | str | None = None


@attrs.frozen
class Hook:
    """``on critical [if cond]: chains 2`` on a sequence step."""

    span: Span
    mark: str
    condition: Expr | None
    effect: HookEffect
    cite: Cite | None = None


@attrs.frozen
class Step:
    span: Span
    name: str
    call: Call
    stop_on: str
    """``fail``: the chain ends when the test fails; ``pass``: when it passes (saves)."""
    hooks: tuple[Hook, ...] = ()


@attrs.frozen
class PerPoint:
    """``each point: ward(target) removes on pass``: a test per damage point."""

    span: Span
    call: Call
    removes_on: str


@attrs.frozen
class SequenceDecl(Decl):
    KIND: ClassVar[str] = "sequence"
    params: tuple[Param, ...] = ()
    steps: tuple[Step, ...] = ()
    damage: Expr | None = None
    per_point: PerPoint | None = None


@attrs.frozen
class ActionDecl(Decl):
    KIND: ClassVar[str] = "action"
    params: tuple[Param, ...] = ()
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class DecisionDecl(Decl):
    KIND: ClassVar[str] = "decision"
    params: tuple[Param, ...] = ()
    options: Expr = attrs.field(kw_only=True)
    default: str | None = None


@attrs.frozen
class PolicyDecl(Decl):
    KIND: ClassVar[str] = "policy"
    choices: tuple[tuple[str, Expr], ...] = ()
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


@attrs.frozen
class PhaseDecl(Decl):
    KIND: ClassVar[str] = "phase"
    params: tuple[Param, ...] = ()
    parent: str | None = None
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class BattleDecl(Decl):
    """The turn tree's root: setup, number of rounds, a round, a turn, the end, the score."""

    KIND: ClassVar[str] = "battle"
    setup: tuple[Stmt, ...] = ()
    rounds: Expr | None = None
    round: tuple[Stmt, ...] = ()
    turn: tuple[Stmt, ...] = ()
    end: tuple[Expr, ...] = ()
    score: tuple[Stmt, ...] = ()


@attrs.frozen
class Stacking:
    span: Span
    policy: str
    """``add``, ``max``, ``min``, ``boolean``, ``exclusive`` or ``capped``."""
    cap: int | None = None


@attrs.frozen
class Effect:
    span: Span
    condition: Expr | None
    cite: Cite | None


@attrs.frozen
class Modify(Effect):
    """``modify to_hit [need|result] by e``."""

    roll: str = ""
    part: str = "result"
    amount: Expr = attrs.field(kw_only=True)
    stacking: Stacking | None = None
    despite: str | None = None
    """``despite "RULE"``: it reaches a bearer that RULE makes unaffected by friendly gains."""


@attrs.frozen
class RerollEffect(Effect):
    """``reroll failed to_hit``."""

    which: str = "failed"
    roll: str = ""


@attrs.frozen
class DiceEffect(Effect):
    """``roll charge_distance with lowest 2 of 3D6``: the roll's dice, set by a rule."""

    roll: str = ""
    dice: DiceLit | CountedDice = attrs.field(kw_only=True)


@attrs.frozen
class RuleHook(Effect):
    """``on critical of attack.hit: chains 2``."""

    mark: str = ""
    sequence: str = ""
    step: str = ""
    effect: HookEffect = attrs.field(kw_only=True)


@attrs.frozen
class Grant(Effect):
    """``grant "Swiftstride"``."""

    rule: str = ""


@attrs.frozen
class Trigger(Effect):
    """``when <event> [if c]: statements``."""

    event: str = ""
    body: tuple[Stmt, ...] = ()


@attrs.frozen
class AutoResult(Effect):
    """``pass nerve`` / ``fail x``: the test is not rolled."""

    result: str = "pass"
    test: str = ""


@attrs.frozen
class CharacteristicEffect(Effect):
    """``set WS to 10`` / ``add 1 to S`` / ``multiply S by 2`` / ``divide M by 2 rounding
    down`` [``minimum 1``] [``during combat_attack``]."""

    op: str = "add"
    """``set``, ``multiply``, ``divide`` or ``add``: also the order they apply in."""
    characteristic: str = ""
    amount: Expr = attrs.field(kw_only=True)
    stacking: Stacking | None = None
    during: str | None = None
    """The roll, test or sequence it applies inside: its amount and condition then see that
    declaration's arguments (``charging``), and outside it the effect does nothing."""
    floor: int | None = None
    """``minimum N``: after this effect's stage the value is at least N."""
    round_up: bool = False
    """For ``divide``: ``rounding up`` (else ``rounding down``)."""


@attrs.frozen
class Shield(Effect):
    """``unaffected by friendly gains to hit_roll, Attacks``: modifiers from rules of the
    bearer's own side that help it are left off those rolls and characteristics."""

    names: tuple[str, ...] = ()
    """Rolls, tests and characteristics."""


@attrs.frozen
class MarkEffect(Effect):
    """``mark critical on hit_roll if natural >= 5``: the roll's result gets the mark when
    the condition holds. The condition is read after the dice are rolled: it sees the
    roll's arguments and ``natural``, ``result`` and ``dice``."""

    mark: str = ""
    roll: str = ""


@attrs.frozen
class NotSimulated(Effect):
    """``not simulated "why"``: the rule is catalogued but has no effect in simulation."""

    reason: str = ""


@attrs.frozen
class RuleDecl(Decl):
    """A special rule, command, spell or item effect, possibly parameterised."""

    KIND: ClassVar[str] = "rule"
    params: tuple[Param, ...] = ()
    effects: tuple[Effect, ...] = ()
    is_global: bool = False
    """``rule "..." is global``: it applies everywhere, carried by nobody (``bearer`` is
    none; a characteristic effect applies to every unit, with ``bearer`` that unit)."""


# ---------------------------------------------------------------- files and patches


@attrs.frozen
class PatchOp:
    """``override``/``add``/``define`` a declaration, or ``remove`` one."""

    span: Span
    op: str
    kind: str
    name: str
    decl: Decl | None
    """None for ``remove``."""
    cite: Cite | None = None


@attrs.frozen
class RulesFile:
    """One parsed ``.rules`` file."""

    path: str
    header: Header | None
    items: tuple[Decl | PatchOp, ...]
