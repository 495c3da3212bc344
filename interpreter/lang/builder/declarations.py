"""The hand-written callbacks of declarations: the file and its patches, citations, simple
declarations, rolls and tests, sequences, procedures, the battle and rules.

Each reads more than it copies: it gathers clauses (refusing one given twice), picks
optional parts out, or fills defaults.
"""

from __future__ import annotations

from typing import Any

from lark import Token
from lark.tree import Meta

from rules_run import slotted
from rules_run.lang import ast
from rules_run.lang.builder.core import (
    AstBuilder,
    BuildError,
    Callback,
    Clause,
    Part,
    as_literal,
    clauses,
    unquote,
)

__all__ = ["CALLBACKS"]


# ---------------------------------------------------------------- file
def start(b: AstBuilder, meta: Meta, c: list[Any]) -> list[Any]:
    return [x for x in c if x is not None]


def header(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Header:
    return ast.Header(
        span=b.span(meta),
        id=str(c[0]),
        title=unquote(c[1]),
        extends=b.part(c, "extends"),
        cite=b.cite(c),
        sources=tuple(b.pick(c, ast.SourceDecl)),
    )


def patch_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> list[ast.PatchOp]:
    op, decls = c[0], c[1]
    decls = decls if isinstance(decls, list) else [decls]
    return [
        ast.PatchOp(span=b.span(meta), op=op, kind=d.kind, name=d.name,
                    decl=action_patch(b, meta, d) if op == "override" and isinstance(
                        d, ast.ActionDecl) and not d.listed else d, cite=d.cite)
        for d in decls
    ]


def action_patch(b: AstBuilder, meta: Meta, d: ast.ActionDecl) -> ast.ActionPatch:
    """``override action NAME`` without a parameter list: its lines are the ``let`` lines
    whose values change."""
    whole = f"to replace the action whole, give its parameters: override action {d.name}(...)"
    if d.limit is not None:
        raise BuildError(f"'override action {d.name}' without parameters changes its let "
                         "lines; a 'once per' limit belongs to a whole action", d.limit.span,
                         code="syntax", hint=whole)
    for stmt in d.body:
        if not isinstance(stmt, ast.Let):
            raise BuildError(f"'override action {d.name}' without parameters changes its let "
                             "lines: each line is 'let NAME = EXPR'", stmt.span, code="syntax",
                             hint=whole)
    names = [let.name for let in d.body if isinstance(let, ast.Let)]
    twice = next((let for i, let in enumerate(d.body) if isinstance(let, ast.Let)
                  and let.name in names[:i]), None)
    if twice is not None:
        assert isinstance(twice, ast.Let)
        raise BuildError(f"'override action {d.name}' gives 'let {twice.name}' twice",
                         twice.span, code="duplicate-clause")
    return ast.ActionPatch(span=b.span(meta), name=d.name, cite=d.cite,
                           lets=tuple(x for x in d.body if isinstance(x, ast.Let)))


def _step_changes(b: AstBuilder, meta: Meta, c: list[Any], name: str, what: str
                  ) -> ast.SequencePatch:
    """The steps (each named once), damage and each point that an override or a reusing
    sequence gives."""
    fields = clauses(c, what)
    steps = tuple(b.pick(c, ast.Step))
    seen: set[str] = set()
    for s in steps:
        if s.name in seen:
            raise BuildError(f"{what} gives step {s.name!r} twice", s.span,
                             code="duplicate-clause")
        seen.add(s.name)
    return ast.SequencePatch(span=b.span(meta), name=name, cite=b.cite(c), steps=steps,
                             damage=fields.get("damage"), per_point=_per_point(b, c, what))


def sequence_patch_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PatchOp:
    op, name = c[0], str(c[1])
    what = f"override sequence {name!r}"
    if op != "override":
        raise BuildError(f"'{op}' takes a whole declaration; 'override sequence {name}' "
                         "changes clauses", b.span(meta), code="syntax")
    decl = _step_changes(b, meta, c, name, what)
    return ast.PatchOp(span=b.span(meta), op=op, kind=decl.kind, name=name, decl=decl,
                       cite=decl.cite)


def clause_patch_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PatchOp:
    op, kind, name = c[0], c[1], str(c[2])
    if op != "override":
        raise BuildError(f"'{op}' takes a whole declaration; 'override {kind} {name}' "
                         "changes clauses", b.span(meta), code="syntax")
    decl = clause_changes(b, meta, c, kind, name, f"override {kind} {name!r}")
    return ast.PatchOp(span=b.span(meta), op=op, kind=decl.kind, name=name, decl=decl,
                       cite=decl.cite)


def clause_changes(b: AstBuilder, meta: Meta, c: list[Any], kind: str, name: str,
                   what: str) -> ast.ClausePatch:
    """The roll clauses among ``c`` as the changes they make to a roll's own (an ``override
    test``'s, or a reusing test's to its base's)."""
    fields = clauses(c, what, repeatable=("natural", "mark", "remove_natural"))
    removed = fields.pop("remove_natural")
    keys = {"natural": "naturals", "mark": "marks"}
    changes = tuple((keys.get(k, k), v) for k, v in fields.items() if v != ())
    return ast.ClausePatch(span=b.span(meta), name=name, cite=b.cite(c),
                           is_test=kind == "test", changes=changes, removed=removed)


def remove_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PatchOp:
    return ast.PatchOp(span=b.span(meta), op=ast.PatchVerb.REMOVE, kind=c[0],
                       name=unquote(c[1]), decl=None, cite=b.cite(c))


# ---------------------------------------------------------------- citations
def citation(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Cite:
    if isinstance(c[0], ast.Cite):
        return slotted.evolve(c[0], span=b.span(meta))
    return ast.Cite(span=b.span(meta), note=unquote(c[0]))


def cite_lines(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Cite:
    source = None
    ranges = []
    for token in c:
        if token.type == "SEED":
            source = str(token)
        else:
            ranges.append(str(token))
    return ast.Cite(span=b.span(meta), source=source, ranges=tuple(ranges))


# ---------------------------------------------------------------- simple declarations
def char_item(b: AstBuilder, meta: Meta, c: list[Any]) -> tuple[Any, ...]:
    type_ = next((x for x in c[1:] if isinstance(x, str) and not isinstance(x, Token)), "int")
    role = next((str(x) for x in c[1:] if isinstance(x, Token) and x.type == "ROLE"), None)
    return (str(c[0]), type_, role, b.tspan(c[0]), b.part(c, "floor"))


def characteristics_decl(b: AstBuilder, meta: Meta,
                         c: list[Any]) -> list[ast.CharacteristicDecl]:
    low, high = b.part(c, "range", (None, None))
    cite = b.cite(c)
    return [
        ast.CharacteristicDecl(span=span, name=name, cite=cite, entity=str(c[0]), type=type_,
                               low=low, high=high, role=role, floor=floor)
        for name, type_, role, span, floor in (x for x in c if isinstance(x, tuple))
    ]


def table_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.TableDecl:
    names = b.names(c)
    file = next(unquote(x) for x in c if isinstance(x, Token) and x.type == "STRING")
    return ast.TableDecl(span=b.span(meta), name=names[0], cite=b.cite(c),
                         keys=tuple(names[1:]), file=file)


def die_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DieDecl:
    faces = tuple(int(x) if x.type == "INT" else str(x) for x in c[1:] if isinstance(x, Token))
    return ast.DieDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c), faces=faces)


def option_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.OptionDecl:
    name = str(c[0])
    kind, detail = c[1]
    bounds = c[2].value if isinstance(c[2], Part) else None
    if bounds is not None:
        c = [*c[:2], *c[3:]]
    default = as_literal(c[2], b)
    doc = ""
    rest = c[3:]
    if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
        doc = unquote(rest[0])
    default_value = default.value if isinstance(default, ast.Literal) else default
    if isinstance(default, ast.Name):
        default_value = default.name
    return ast.OptionDecl(
        span=b.span(meta), name=name, cite=b.cite(c),
        type="choice" if kind == "choice" else detail,
        choices=detail if kind == "choice" else (),
        default=default_value, doc=doc,
        low=bounds[0] if bounds else None, high=bounds[1] if bounds else None,
    )


def status_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.StatusDecl:
    return ast.StatusDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c),
                          until=b.part(c, "until"), quiet=b.flag(c, "STATUS_QUIET"),
                          params=b.param_list(c), effects=b.effects(c),
                          ignored_again=b.part(c, "reapplied") == "ignored")


def held_status_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.StatusDecl:
    return ast.StatusDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c),
                          quiet=b.flag(c, "STATUS_QUIET"),
                          condition=next(x for x in c if isinstance(x, ast.Expr)))


def counter_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.CounterDecl:
    holds, holds_span = b.part(c, "holds", ("int", None))
    return ast.CounterDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c),
                           keys=tuple(k for k, _ in b.parts(c, "scope")),
                           key_spans=tuple(where for _, where in b.parts(c, "scope")),
                           initial=next((x for x in c if isinstance(x, ast.Expr)), None),
                           period=b.part(c, "period"),
                           holds=holds, holds_span=holds_span)


def record_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.RecordDecl:
    return ast.RecordDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c),
                          params=b.param_list(c))


def keyword_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> list[ast.KeywordDecl]:
    cite = b.cite(c)
    return [ast.KeywordDecl(span=b.tspan(x), name=unquote(x), cite=cite)
            for x in c if isinstance(x, Token)]


# ---------------------------------------------------------------- rolls and tests
def param(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Param:
    type_ = "any"
    default = None
    for x in c[1:]:
        if isinstance(x, str) and not isinstance(x, Token):
            type_ = x
        else:
            default = as_literal(x, b)
    return ast.Param(b.span(meta), str(c[0]), type_, default)


def natural_clause(b: AstBuilder, meta: Meta, c: list[Any]) -> Clause:
    effect, mark = c[-1]
    natural = ast.Natural(b.span(meta), tuple(int(x) for x in c[:-1]), effect, mark)
    return Clause("natural", natural, b.span(meta))


def roll_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.RollDecl:
    kind, name = c[0], str(c[1])
    fields = clauses(c, f"{kind} {name!r}", repeatable=("natural", "mark", "marked"))
    return ast.RollDecl(
        span=b.span(meta),
        name=name,
        cite=b.cite(c),
        is_test=kind == "test",
        params=b.param_list(c),
        dice=fields.get("dice"),
        need=fields.get("need"),
        pass_if=fields.get("pass_if"),
        naturals=tuple(fields.get("natural", ())),
        cap=fields.get("cap", (None, None)),
        value=fields.get("value"),
        beyond=fields.get("beyond"),
        reroll=fields.get("reroll", "all dice"),
        marks=tuple(fields.get("mark", ())),
        modifier=fields.get("modifier"),
        failing_marks=tuple(fields.get("marked", ())),
        reroll_needing=fields.get("reroll_needing"),
        reroll_result=fields.get("reroll_result"),
    )


def own_reroll_clause(b: AstBuilder, meta: Meta, c: list[Any]) -> Clause:
    values = tuple(int(x) for x in c if isinstance(x, Token))
    exprs = [x for x in c if isinstance(x, ast.Expr)]
    return Clause("reroll_needing", ast.RerollNeeding(
        b.span(meta), values, exprs[0], exprs[1] if len(exprs) > 1 else None), b.span(meta))


def result_reroll_clause(b: AstBuilder, meta: Meta, c: list[Any]) -> Clause:
    return Clause("reroll_result", ast.RerollResult(b.span(meta), str(c[0]), c[1]),
                  b.span(meta))


def reuse_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.RollDecl:
    kind, name = c[0], str(c[1])
    base = next(x for x in c[2:] if isinstance(x, (ast.Call, Token)))
    if isinstance(base, Token):
        base = ast.Call(b.tspan(base), str(base))
    given = any(isinstance(x, Clause) for x in c)
    changes = clause_changes(b, meta, c, kind, name, f"{kind} {name!r}") if given else None
    return ast.RollDecl(span=b.span(meta), name=name, cite=b.cite(c), is_test=kind == "test",
                        params=b.param_list(c), reuses=base, changes=changes)


# ---------------------------------------------------------------- sequences
def hook(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Hook:
    effect = next(x for x in c if isinstance(x, ast.HookEffect))
    condition = next((x for x in c[1:] if isinstance(x, ast.Expr)), None)
    return ast.Hook(b.span(meta), str(c[0]), condition, effect, b.cite(c))


def hook_effect_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> tuple[ast.RuleHook, ...]:
    """A rule's hook, one :class:`~rules_run.lang.ast.RuleHook` for each step it names
    (``on critical of combat_attack.hit, volley.hit: chains 2``), in the order written."""
    effect = next(x for x in c if isinstance(x, ast.HookEffect))
    refs = [x.value for x in c if isinstance(x, Part) and x.tag == "step_ref"]
    names = [(seq, name) for seq, name, _ in refs]
    twice = next((r for i, r in enumerate(refs) if r[:2] in names[:i]), None)
    if twice is not None:
        raise BuildError(f"'on {c[0]} of ...' names step {twice[0]}.{twice[1]} twice",
                         twice[2], code="duplicate-clause",
                         hint="name each step once: the hook would fire twice on it")
    # one step: the hook is the line; several: each is located at the step it names
    return tuple(ast.RuleHook(span=b.span(meta) if len(refs) == 1 else span,
                              condition=b.part(c, "condition"), cite=b.cite(c),
                              mark=str(c[0]), sequence=seq, step=name, effect=effect)
                 for seq, name, span in refs)


def step_ref(b: AstBuilder, meta: Meta, c: list[Any]) -> Part:
    """``combat_attack.hit`` in a rule's hook: the sequence, the step, and where it is."""
    return Part("step_ref", (str(c[0]), str(c[1]), b.span(meta)))


def step(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.Step:
    return ast.Step(b.span(meta), str(c[0]), c[1], b.part(c, "stop_on"),
                    tuple(b.pick(c, ast.Hook)))


def per_point_clause(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PerPoint:
    return ast.PerPoint(b.span(meta), c[0], b.part(c, "stop_on"))


def _per_point(b: AstBuilder, c: list[Any], what: str) -> ast.PerPoint | None:
    """The one ``each point`` clause among ``c``, if any."""
    per_points = b.pick(c, ast.PerPoint)
    if len(per_points) > 1:
        raise BuildError(f"{what} gives 'each point' twice", per_points[1].span,
                         code="duplicate-clause")
    return per_points[0] if per_points else None


def sequence_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.SequenceDecl:
    fields = clauses(c, f"sequence {str(c[0])!r}")
    return ast.SequenceDecl(
        span=b.span(meta), name=str(c[0]), cite=b.cite(c), params=b.param_list(c),
        steps=tuple(b.pick(c, ast.Step)), damage=fields.get("damage"),
        per_point=_per_point(b, c, f"sequence {str(c[0])!r}"),
        tallies=tuple(fields.get("tally", ())),
    )


def sequence_reuse_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.SequenceDecl:
    """``sequence volley is strike`` with the steps (or damage) that change: the clauses
    are taken from the base when the ruleset is loaded (:mod:`rules_run.lang.reuse`)."""
    name = str(c[0])
    base = next(x for x in c[1:] if isinstance(x, (ast.Call, Token)))
    if isinstance(base, Token):
        base = ast.Call(b.tspan(base), str(base))
    changes = _step_changes(b, meta, c, name, f"sequence {name!r}")
    return ast.SequenceDecl(span=b.span(meta), name=name, cite=b.cite(c),
                            params=b.param_list(c), reuses=base, changes=changes)


# ---------------------------------------------------------------- procedures
def action_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.ActionDecl:
    by = b.part(c, "by")
    return ast.ActionDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c),
                          params=b.param_list(c), body=b.body(c),
                          limit=next((x for x in c if isinstance(x, ast.OncePer)), None),
                          by=str(by) if by is not None else None,
                          by_span=b.tspan(by) if by is not None else None,
                          listed=b.part(c, "params", None) is not None)


def split_by(b: AstBuilder, meta: Meta, c: list[Any]) -> Part:
    return Part("by", c[0])


def _case_values(b: AstBuilder, c: list[Any]) -> tuple[ast.Literal, ...]:
    """The literal values of a ``case`` (the tokens after the action's name)."""
    return tuple(literal for x in c[1:] if isinstance(x, Token)
                 if isinstance(literal := as_literal(x, b), ast.Literal))


def case_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.CaseDecl:
    values = _case_values(b, c)
    return ast.CaseDecl(span=b.span(meta), name=ast.CaseDecl.key(str(c[0]), values),
                        cite=b.cite(c), action=str(c[0]), action_span=b.tspan(c[0]),
                        values=values, body=b.body(c))


def remove_case_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PatchOp:
    return ast.PatchOp(span=b.span(meta), op=ast.PatchVerb.REMOVE, kind=ast.CaseDecl.KIND,
                       name=ast.CaseDecl.key(str(c[0]), _case_values(b, c)), decl=None,
                       cite=b.cite(c))


def once_per(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.OncePer:
    return ast.OncePer(b.span(meta), str(c[0]), tuple(x for x in c[1:] if isinstance(x, ast.Expr)))


def decision_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.DecisionDecl:
    return ast.DecisionDecl(
        span=b.span(meta), name=str(c[0]), cite=b.cite(c), params=b.param_list(c),
        options=next(x for x in c[1:] if isinstance(x, ast.Expr)),
        default=b.part(c, "default"),
    )


def policy_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PolicyDecl:
    return ast.PolicyDecl(span=b.span(meta), name=str(c[0]), cite=b.cite(c),
                          choices=tuple((str(name), line[-1])   # for a, b: choose ...
                                        for line in b.parts(c, "policy_rule")
                                        for name in line[:-1]),
                          choice_spans=tuple(b.tspan(name) for line in b.parts(c, "policy_rule")
                                             for name in line[:-1]),
                          is_default=b.flag(c, "POLICY_DEFAULT"))


def policy_extends_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PolicyDecl:
    names = b.names(c)
    return slotted.evolve(policy_decl(b, meta, c), name=names[0], extends=names[1])


def phase_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.PhaseDecl:
    names = b.names(c)
    return ast.PhaseDecl(span=b.span(meta), name=names[0], cite=b.cite(c), params=b.param_list(c),
                         parent=names[1] if len(names) > 1 else None, body=b.body(c))


def battle_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.BattleDecl:
    fields = clauses(c, "'battle'", repeatable=("end",))
    return ast.BattleDecl(span=b.span(meta), name="battle", cite=b.cite(c), **fields)


# ---------------------------------------------------------------- rules
def rule_decl(b: AstBuilder, meta: Meta, c: list[Any]) -> ast.RuleDecl:
    return ast.RuleDecl(span=b.span(meta), name=unquote(c[0]), cite=b.cite(c),
                        params=b.param_list(c), effects=b.effects(c),
                        is_global=b.flag(c, "RULE_GLOBAL"))


CALLBACKS: dict[str, Callback] = {f.__name__: f for f in (
    start, header, patch_decl, clause_patch_decl, sequence_patch_decl, remove_decl, citation, cite_lines, char_item,
    characteristics_decl, table_decl, die_decl, option_decl, status_decl, held_status_decl, counter_decl,
    record_decl,
    keyword_decl, param, natural_clause, roll_decl, own_reroll_clause, result_reroll_clause, reuse_decl, hook, hook_effect_decl, step_ref, step, per_point_clause,
    sequence_decl, sequence_reuse_decl, action_decl, split_by, case_decl, remove_case_decl, once_per, decision_decl, policy_decl, policy_extends_decl, phase_decl,
    battle_decl, rule_decl,
)}
"""The hand-written declaration callbacks, by grammar rule (the function's name)."""
