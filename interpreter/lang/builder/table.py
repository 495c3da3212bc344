"""The grammar rules whose callback only builds a node from its children, as a table.

Each entry names a grammar rule and says what it builds, from *readers* (small functions of
the builder and the rule's children: ``text(0)`` is the first child as text). The makers
turn an entry into the callback :class:`~rules_run.lang.builder.core.AstBuilder` installs:

- ``node(Cls, r1, r2, k=r3)``: ``Cls(span, r1, r2, k=r3)``, the span the rule's own;
- ``part(tag, r)``: a :class:`~rules_run.lang.builder.core.Part` the parent picks out;
- ``clause(key, r)``: a :class:`~rules_run.lang.builder.core.Clause` of a roll or battle;
- ``value(r)``: what the reader reads, passed up as it is;
- ``effect(Cls, k=r)``: a rule effect, with the condition and citation every effect has;
- ``characteristic(op, i, j)``: a characteristic effect (``set``, ``add``, ...);
- ``each_name(build, i, what)``: ``build`` once for each name from the ``i``-th child on.

Rules that do more (check what they read, gather clauses, fold or pick) are written out in
the other modules of :mod:`rules_run.lang.builder`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token
from lark.tree import Meta

from rules_run import slotted
from rules_run.lang import ast
from rules_run.lang import types as ty
from rules_run.lang.builder.core import (AstBuilder, BuildError, Callback, Clause, FacePick, Part,
                                         unquote)

__all__ = ["GENERATED"]

Reader = Callable[[AstBuilder, list[Any]], Any]
"""What a generated callback reads from the builder and the rule's children."""


# ---------------------------------------------------------------- readers
def at(i: int) -> Reader:
    """The ``i``-th child, as built."""
    return lambda b, c: c[i]


def text(i: int) -> Reader:
    """The ``i``-th child as text (a NAME, an operator)."""
    return lambda b, c: str(c[i])


def quoted(i: int) -> Reader:
    """The ``i``-th child, a quoted string, without its quotes."""
    return lambda b, c: unquote(c[i])


def integer(i: int) -> Reader:
    """The ``i``-th child as a whole number."""
    return lambda b, c: int(c[i])


def optional(i: int) -> Reader:
    """The ``i``-th child, or None when the rule has fewer (an optional last part)."""
    return lambda b, c: c[i] if len(c) > i else None


def rest(i: int) -> Reader:
    """The children from the ``i``-th on, as a tuple."""
    return lambda b, c: tuple(c[i:])


def body(i: int) -> Reader:
    """The block (or the one statement) among the children from the ``i``-th on."""
    return lambda b, c: b.body(c[i:])


def const(v: object) -> Reader:
    """Always ``v`` (a node's fixed field: ``"or"``, ``True``, ``"int"``)."""
    return lambda b, c: v


def tuple_of(*readers: Reader) -> Reader:
    """What each reader reads, as a tuple."""
    return lambda b, c: tuple(r(b, c) for r in readers)


def first_of(cls: type) -> Reader:
    """The first child that is a ``cls`` node (the grammar puts one there)."""
    return lambda b, c: next(x for x in c if isinstance(x, cls))


def maybe(cls: type) -> Reader:
    """The first child that is a ``cls`` node, or None."""
    return lambda b, c: next((x for x in c if isinstance(x, cls)), None)


def tagged(tag: str, default: object = None) -> Reader:
    """The value of the :class:`Part` tagged ``tag`` among the children, or ``default``."""
    return lambda b, c: b.part(c, tag, default)


def any_tagged(tag: str) -> Reader:
    """Whether a :class:`Part` tagged ``tag`` holds a true value."""
    return lambda b, c: any(b.parts(c, tag))


def last_is(word: str) -> Reader:
    """Whether the last child is the word ``word``."""
    return lambda b, c: str(c[-1]) == word


def token_span(i: int) -> Reader:
    """Where the ``i``-th child, a token, is."""
    return lambda b, c: b.tspan(c[i])


def field(i: int, name: str) -> Reader:
    """The attribute ``name`` of the ``i``-th child."""
    return lambda b, c: getattr(c[i], name)


def everything(b: AstBuilder, c: list[Any]) -> tuple[Any, ...]:
    """Every child, as a tuple."""
    return tuple(c)


def present(b: AstBuilder, c: list[Any]) -> tuple[Any, ...]:
    """Every child but the empty ones (an optional item left out), as a tuple."""
    return tuple(x for x in c if x is not None)


def texts(b: AstBuilder, c: list[Any]) -> tuple[str, ...]:
    """Every child as text."""
    return tuple(str(x) for x in c)


def joined(b: AstBuilder, c: list[Any]) -> str:
    """Every child as text, joined by spaces (``each unit``, ``all dice``)."""
    return " ".join(str(x) for x in c)


def statements(b: AstBuilder, c: list[Any]) -> tuple[ast.Stmt, ...]:
    """The children that are statements (the lines of a block)."""
    return tuple(x for x in c if isinstance(x, ast.Stmt))


def names(b: AstBuilder, c: list[Any]) -> tuple[str, ...]:
    """The NAME tokens among the children, as text."""
    return tuple(b.names(c))


def decimal(i: int) -> Reader:
    """The ``i``-th child as a decimal number."""
    return lambda b, c: float(c[i])


def word(kind: type[ast.Word], i: int) -> Reader:
    """The ``i``-th child as a word of the closed set ``kind`` (``override``: a verb)."""
    return lambda b, c: kind(str(c[i]))


def need(i: int) -> Reader:
    """The ``i``-th child, a score such as ``4+``, as its number."""
    return lambda b, c: int(str(c[i])[:-1])


# ---------------------------------------------------------------- makers
def node(cls: type, *readers: Reader, **named: Reader) -> Callback:
    """A callback building ``cls(span, *readers, **named)``."""
    def build(b: AstBuilder, meta: Meta, c: list[Any]) -> Any:
        return cls(b.span(meta), *(r(b, c) for r in readers),
                   **{k: r(b, c) for k, r in named.items()})
    return build


def part(tag: str, reader: Reader) -> Callback:
    """A callback handing up a :class:`Part` tagged ``tag``."""
    return lambda b, meta, c: Part(tag, reader(b, c))


def clause(key: str, reader: Reader) -> Callback:
    """A callback handing up a :class:`Clause` keyed ``key``."""
    return lambda b, meta, c: Clause(key, reader(b, c), b.span(meta))


def value(reader: Reader) -> Callback:
    """A callback handing up what ``reader`` reads."""
    return lambda b, meta, c: reader(b, c)


def effect(cls: type, **named: Reader) -> Callback:
    """A callback building the rule effect ``cls``: its span, its ``when`` condition and its
    citation, and the fields ``named`` reads."""
    def build(b: AstBuilder, meta: Meta, c: list[Any]) -> Any:
        return cls(span=b.span(meta), condition=b.part(c, "condition"), cite=b.cite(c),
                   **{k: r(b, c) for k, r in named.items()})
    return build


def characteristic(op: str, name_at: int, amount_at: int) -> Callback:
    """A callback building the characteristic effect ``op`` (``set``, ``add``, ...): the
    characteristic's name and the amount are the children at ``name_at`` and ``amount_at``."""
    return effect(ast.CharacteristicEffect, op=const(op), characteristic=text(name_at),
                  amount=at(amount_at), stacking=maybe(ast.Stacking), during=tagged("during"),
                  floor=tagged("floor"), round_up=any_tagged("round_up"))


def each_name(build: Callback, at: int, what: str, kind: str = "NAME") -> Callback:
    """``build`` once for each of the names (tokens of type ``kind``) from the ``at``-th
    child on (``add 1 to S, T``, ``modify to_hit, to_hit_missile need by 1``, ``grant "A",
    "B"``): each effect is the line written with that name alone. One name: the effect is the
    line; several: each is located at its name, and a name given twice is a
    ``duplicate-clause`` error (``what`` says what the names are)."""
    def build_each(b: AstBuilder, meta: Meta, c: list[Any]) -> Any:
        end = at
        while end < len(c) and isinstance(c[end], Token) and c[end].type == kind:
            end += 1
        named = c[at:end]
        if len(named) == 1:
            return build(b, meta, c)
        seen: set[str] = set()
        for token in named:
            name = unquote(token) if kind == "STRING" else str(token)
            if name in seen:
                raise BuildError(f"{what} {name!r} is named twice", b.tspan(token),
                                 code="duplicate-clause",
                                 hint="name each once: the effect would apply twice to it")
            seen.add(name)
        return tuple(slotted.evolve(build(b, meta, [*c[:at], token, *c[end:]]),
                                    span=b.tspan(token)) for token in named)
    return build_each


GENERATED: dict[str, Callback] = {
    # the file and its patches
    "extends": part("extends", text(0)),
    "source_decl": node(ast.SourceDecl, quoted(0)),
    "patch_op": value(word(ast.PatchVerb, 0)),
    "kind": value(text(0)),
    "removed_natural": clause("remove_natural", field(0, "value")),
    # simple declarations
    "type_name": value(text(0)),
    "floor": part("floor", integer(0)),
    "char_range": part("range", tuple_of(integer(0), integer(1))),
    "option_scalar": value(tuple_of(const("scalar"), at(0))),
    "option_choice": value(tuple_of(const("choice"), texts)),
    "duration": part("until", text(0)),
    "its_next_turn": part("until", const("its next turn")),
    "next_turn": part("until", const("next turn")),
    "reapplied": part("reapplied", text(1)),
    "limit_period": value(text(0)),
    "scope": part("scope", tuple_of(text(0), token_span(0))),
    "counter_period": part("period", text(0)),
    "counter_holds": lambda b, meta, c: Part("holds", (
        ty.record_of(str(c[0])) if isinstance(c[0], Token) else str(c[0]), b.span(meta))),
    # rolls and tests
    "params": part("params", present),
    "roll_kind": value(text(0)),
    "dice_clause": clause("dice", at(0)),
    "need_clause": clause("need", at(0)),
    "pass_clause": clause("pass_if", at(0)),
    "natural_fails": value(const(("fails", None))),
    "natural_passes": value(const(("passes", None))),
    "natural_mark": value(tuple_of(const("mark"), text(0))),
    "cap_both": clause("cap", tuple_of(integer(0), integer(1))),
    "cap_most": clause("cap", tuple_of(const(None), integer(0))),
    "cap_least": clause("cap", tuple_of(integer(0), const(None))),
    "value_clause": clause("value", at(0)),
    "beyond_clause": clause("beyond", tuple_of(integer(0), at(1))),
    "reroll_scope": value(joined),
    "reroll_clause": clause("reroll", at(0)),
    "mark_clause": clause("mark", tuple_of(text(0), at(1))),
    "marked_clause": clause("marked", tuple_of(text(0), token_span(0))),
    "modifier_clause": clause("modifier", at(0)),
    # dice
    "dice_named": node(ast.DiceLit, const(1), const(0), die_name=text(0)),
    "face_pick": node(FacePick, texts),
    # sequences
    "hook_chains": node(ast.HookEffect, const(ast.HookKind.CHAINS), at(0)),
    "hook_skip": node(ast.HookEffect, const(ast.HookKind.SKIP), text(0)),
    "hook_end_damage": node(ast.HookEffect, const(ast.HookKind.END_DAMAGE), at(0)),
    "hook_pass": node(ast.HookEffect, const(ast.HookKind.PASS)),
    "hook_fail": node(ast.HookEffect, const(ast.HookKind.FAIL)),
    "hook_count": node(ast.HookEffect, const(ast.HookKind.COUNT), text(0)),
    "stop_on": part("stop_on", text(0)),
    "damage_clause": clause("damage", at(0)),
    "tally_clause": clause("tally", texts),
    # procedures and the battle
    "block": part("block", statements),
    "decision_default": part("default", text(0)),
    "policy_rule": part("policy_rule", rest(0)),
    "battle_setup": clause("setup", body(0)),
    "battle_rounds": clause("rounds", at(0)),
    "battle_round": clause("round", body(0)),
    "battle_turn": clause("turn", body(0)),
    "battle_end": clause("end", at(0)),
    "battle_score": clause("score", body(0)),
    # rules
    "condition": part("condition", at(0)),
    "stack_add": node(ast.Stacking, const(ast.StackingPolicy.ADD)),
    "stack_max": node(ast.Stacking, const(ast.StackingPolicy.MAX)),
    "stack_min": node(ast.Stacking, const(ast.StackingPolicy.MIN)),
    "stack_boolean": node(ast.Stacking, const(ast.StackingPolicy.BOOLEAN)),
    "stack_exclusive": node(ast.Stacking, const(ast.StackingPolicy.EXCLUSIVE)),
    "stack_capped": node(ast.Stacking, const(ast.StackingPolicy.CAPPED), integer(0)),
    "stacking": value(at(0)),
    "modify_part": part("part", text(0)),
    "despite": part("despite", quoted(0)),
    "during": part("during", text(0)),
    "reroll_which": value(text(0)),
    "auto_result": value(text(0)),
    "modify_effect": each_name(effect(ast.Modify, roll=text(0), part=tagged("part", "result"),
                                      amount=first_of(ast.Expr), stacking=maybe(ast.Stacking),
                                      despite=tagged("despite")), 0, "the roll"),
    "set_characteristic": characteristic("set", 0, 1),
    "add_characteristic": each_name(characteristic("add", 1, 0), 1, "the characteristic"),
    "multiply_characteristic": characteristic("multiply", 0, 1),
    "divide_characteristic": characteristic("divide", 0, 1),
    "rounding": part("round_up", last_is("up")),
    "shield_effect": effect(ast.Shield, names=names),
    "dice_effect": effect(ast.DiceEffect, roll=text(0), dice=at(1)),
    "reroll_effect": effect(ast.RerollEffect, which=at(0), roll=text(1)),
    "pick_all": part("pick", const(("all", None))),
    "pick_lowest": part("pick", const(("lowest", None))),
    "pick_highest": part("pick", const(("highest", None))),
    "pick_showing": part("pick", tuple_of(const("showing"), at(0))),
    "grant_effect": each_name(effect(ast.Grant, rule=quoted(0)), 0, "the rule", "STRING"),
    "trigger_effect": effect(ast.Trigger, event=text(0), body=body(0)),
    "auto_effect": effect(ast.AutoResult, result=at(0), test=text(1)),
    "auto_every_effect": effect(ast.AutoResult, result=at(0), test=text(1), every=const(True)),
    "mark_effect": effect(ast.MarkEffect, mark=text(0), roll=text(1)),
    "note_effect": effect(ast.NotSimulated, reason=quoted(0)),
    # statements
    "let_stmt": node(ast.Let, text(0), at(1)),
    "call_stmt": node(ast.CallStmt, at(0)),
    "return_stmt": node(ast.Return, optional(0)),
    "emit_stmt": node(ast.Log, quoted(0), rest(1)),
    "pass_stmt": node(ast.Pass),
    "stop_stmt": node(ast.Stop, quoted(0)),
    "elif_clause": part("branch", tuple_of(at(0), body(1))),
    "else_clause": part("else", body(0)),
    "for_where": part("where", at(0)),
    "for_order": part("order_by", at(0)),
    "for_while": part("while", at(0)),
    "while_stmt": node(ast.While, at(0), body(1)),
    "activation_order": part("order", joined),
    "activation_where": part("where", at(0)),
    # expressions
    "int_lit": node(ast.Literal, integer(0), const("int")),
    "decimal_lit": node(ast.Literal, decimal(0), const("number")),
    "string_lit": node(ast.Literal, quoted(0), const("text")),
    "need_lit": node(ast.Literal, need(0), const("need")),
    "true_lit": node(ast.Literal, const(True), const("bool")),
    "false_lit": node(ast.Literal, const(False), const("bool")),
    "none_lit": node(ast.Literal, const(None), const("none")),
    "name": node(ast.Name, text(0)),
    "list_lit": node(ast.ListLit, present),
    "comprehension": node(ast.Comprehension, at(0), text(1), at(2), where=tagged("where"),
                          order=tagged("order_by")),
    "attribute": node(ast.Attribute, at(0), text(1)),
    "lookup": node(ast.Lookup, at(0), rest(1)),
    "keyword_arg": part("keyword", tuple_of(text(0), at(1))),
    "binop": node(ast.BinOp, text(1), at(0), at(2)),
    "compare": node(ast.Compare, text(1), at(0), at(2)),
    "or_expr": node(ast.BoolOp, const("or"), everything),
    "and_expr": node(ast.BoolOp, const("and"), everything),
    "not_": node(ast.Not, at(0)),
    "cond_expr": node(ast.CondExpr, at(0), at(1), at(2)),
    "has": node(ast.Has, at(0), quoted(1)),
    "is_status": node(ast.IsStatus, at(0), text(1)),
    "is_not_status": node(ast.IsStatus, at(0), text(1), negated=const(True)),
    "member": node(ast.Member, at(0), at(1)),
}
"""The generated callbacks, by grammar rule."""
