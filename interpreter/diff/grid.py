"""The grid of synthetic inputs a declaration is compared over, and what it depends on.

The grid is built from what the declaration reads. For a unit (or weapon) parameter it
varies each characteristic the declaration's expressions read from it (``attacker.S``,
followed through the declarations it calls) over its declared range (a ``need`` over 2+ to
6+ and none); each rule or keyword it tests for (``x has "..."``), status (``x is ...``),
command model (``"..." in x.command``) and equipment value (``item_values(x, "...")``) is
toggled on and off. An ``int`` parameter takes its default ±3, or 0 up to the dice's
highest total (at least 6); a ``bool`` both values. A changed rule that modifies one of the
rolls involved is also toggled on each unit and weapon parameter.

A grid larger than the cap is cut down deterministically (:func:`select_cells`): every
combination of the numbers the changed declarations read with everything else at its
default, then one other input off its default, then two, ..., the last layer that fits
only in part sampled with a fixed seed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules_run import slotted
from rules_run.chance import derive_seed
from rules_run.diagnostics import InterpreterError
from rules_run.diff.structure import decl_of
from rules_run.editions.ruleset import Ruleset
from rules_run.lang import ast
from rules_run.lang.cases import cases_of
from rules_run.lang.reuse import reusing
from rules_run.lang.walk import walk
from rules_run.runtime.compiled import Runtime
from rules_run.runtime.dice import dice_of

__all__ = ["Dim", "Read", "GridBuilder", "Closure", "Reads", "select_cells",
           "characteristic_values", "value_text", "BEARER_TYPES"]

BEARER_TYPES = ("unit", "model", "weapon")
"""Parameter types that get a synthetic unit (or weapon) in a grid."""
_BEARERS = BEARER_TYPES
_NEEDS: tuple[Any, ...] = (2, 3, 4, 5, 6, None)
_DICE_VALUES: tuple[Any, ...] = (1, 2, "D3", "D6")
_EVAL_ERRORS = (InterpreterError, TypeError, ValueError, KeyError, AttributeError, IndexError,
                ZeroDivisionError, RecursionError)
"""What a declaration may raise on synthetic inputs (a battle builtin, a missing value)."""


# ---------------------------------------------------------------- what a declaration reads


@slotted.frozen
class Read:
    """One thing a declaration reads from one of its parameters."""

    param: str
    what: str
    """``characteristic``, ``has``, ``status``, ``member`` or ``equipment``."""
    name: str
    prop: str | None
    """For ``member``: the property (``command``, ``keywords``)."""
    via: str
    """The declaration whose own text reads it."""


_CALLABLE = (ast.RollDecl, ast.SequenceDecl, ast.ActionDecl)


class Reads:
    """Reads of each declaration, followed through the calls it makes (memoised)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.memo: dict[str, tuple[Read, ...]] = {}
        self.cases = cases_of(rs.decls)
        """The cases of each action split by a parameter: what it runs too."""

    def of(self, name: str) -> tuple[Read, ...]:
        if name in self.memo:
            return self.memo[name]
        self.memo[name] = ()  # a recursive call reads nothing more
        decl = self.rs.decls.get(name)
        if not isinstance(decl, _CALLABLE):
            return ()
        params = {p.name for p in decl.params}
        out: dict[Read, None] = {}
        for own in (decl, *self.cases.get(name, ())):   # a case's reads are its own
            for node in walk(own):
                for read in self._node(node, params, own.name):
                    out[read] = None
        self.memo[name] = tuple(out)
        return self.memo[name]

    def _node(self, node: object, params: set[str], via: str) -> Iterable[Read]:
        def param_of(e: object) -> str | None:
            return e.name if isinstance(e, ast.Name) and e.name in params else None

        if isinstance(node, ast.Attribute):
            p = param_of(node.target)
            if p is not None:
                yield Read(p, "characteristic", node.name, None, via)
        elif isinstance(node, ast.Has):
            p = param_of(node.subject)
            if p is not None:
                yield Read(p, "has", node.rule, None, via)
        elif isinstance(node, ast.IsStatus):
            p = param_of(node.subject)
            if p is not None:
                yield Read(p, "status", node.status, None, via)
        elif isinstance(node, ast.Member):
            coll = node.collection
            if (isinstance(node.item, ast.Literal) and node.item.kind == "text"
                    and isinstance(coll, ast.Attribute)):
                p = param_of(coll.target)
                if p is not None:
                    yield Read(p, "member", str(node.item.value), coll.name, via)
        elif isinstance(node, ast.Call):
            yield from self._call(node, params, param_of, via)

    def _call(self, node: ast.Call, params, param_of, via: str) -> Iterable[Read]:
        args = node.args
        text = [a.value for a in args[1:2] if isinstance(a, ast.Literal) and a.kind == "text"]
        p = param_of(args[0]) if args else None
        if node.name == "item_values" and p and text:
            yield Read(p, "equipment", str(text[0]), None, via)
            return
        if node.name == "param" and p and text:
            yield Read(p, "has", str(text[0]), None, via)
            return
        if node.name == "command_value" and p and text:
            yield Read(p, "member", str(text[0]), "command", via)
            return
        callee = self.rs.decls.get(node.name)
        if not isinstance(callee, _CALLABLE):
            return
        mapping: dict[str, str] = {}
        for param, arg in zip(callee.params, args):
            q = param_of(arg)
            if q is not None:
                mapping[param.name] = q
        for key, arg in node.kwargs:
            q = param_of(arg)
            if q is not None:
                mapping[key] = q
        for read in self.of(node.name):
            if read.param in mapping:
                yield slotted.evolve(read, param=mapping[read.param])


def _effect_targets(effect: ast.Effect, decls: Mapping[str, ast.Decl]) -> tuple[str, ...]:
    if isinstance(effect, ast.Modify):
        return (effect.roll,)
    if isinstance(effect, (ast.RerollEffect, ast.DiceReroll)):
        return (effect.roll,)
    if isinstance(effect, ast.AutoResult):
        return reusing(decls, effect.test) if effect.every else (effect.test,)
    if isinstance(effect, ast.MarkEffect):
        return (effect.roll,)
    if isinstance(effect, ast.RuleHook):
        return (effect.sequence,)
    if isinstance(effect, ast.CharacteristicEffect):
        return (effect.characteristic,)
    return ()


class Closure:
    """Everything a declaration depends on: calls, tables, options, characteristics, and
    the rules that modify its rolls. Keys as :attr:`Ruleset.origins` has them."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.targeting: dict[str, list[str]] = {}
        for rule in rs.rules.values():
            for effect in rule.effects:
                for target in _effect_targets(effect, rs.decls):
                    self.targeting.setdefault(target, []).append(f"rule:{rule.name}")
        self.memo: dict[str, frozenset[str]] = {}
        self.direct_memo: dict[str, frozenset[str]] = {}
        self.cases = {action: [c.name for c in cases]
                      for action, cases in cases_of(rs.decls).items()}
        """The keys of the cases of each action split by a parameter (it depends on them)."""

    def direct(self, key: str) -> frozenset[str]:
        """What a declaration's own text names (not through the declarations it calls)."""
        if key in self.direct_memo:
            return self.direct_memo[key]
        decl = decl_of(self.rs, key)
        out: set[str] = set()
        if decl is not None:
            for node in walk(decl):
                if isinstance(node, ast.Name) and node.name in self.rs.decls:
                    out.add(node.name)
                elif isinstance(node, ast.Call) and node.name in self.rs.decls:
                    out.add(node.name)
                elif isinstance(node, ast.Attribute) and node.name in self.rs.decls:
                    out.add(node.name)
                elif isinstance(node, ast.DiceLit) and node.die_name:
                    out.add(node.die_name)
                elif isinstance(node, ast.Has):
                    if node.rule in self.rs.rules:
                        out.add(f"rule:{node.rule}")
                    elif node.rule in self.rs.decls:
                        out.add(node.rule)
                elif isinstance(node, ast.IsStatus) and node.status in self.rs.decls:
                    out.add(node.status)
            if not key.startswith("rule:"):
                out.update(self.targeting.get(key, ()))
                out.update(self.cases.get(key, ()))
        self.direct_memo[key] = frozenset(out)
        return self.direct_memo[key]

    def of(self, key: str) -> frozenset[str]:
        if key in self.memo:
            return self.memo[key]
        seen: set[str] = set()
        todo = [key]
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            todo.extend(self.direct(k) - seen)
        self.memo[key] = frozenset(seen)
        return self.memo[key]


# ---------------------------------------------------------------- the grid


@slotted.frozen
class Dim:
    """One dimension of a grid: a parameter, or one thing read from a parameter."""

    label: str
    """``attacker.S``, ``lost_by``, ``target has "Ward Save (4+)"``, ``target equipment``."""
    param: str
    kind: str
    """``value`` (the parameter itself), ``characteristic``, ``keyword``, ``rule``,
    ``status``, ``command`` or ``equipment``."""
    name: str | None
    """The characteristic, rule reference, keyword, status or command model (None for a
    parameter's own value or equipment)."""
    values: tuple[Any, ...]
    """Plain values: ints, None, dice as text, bools, item ids."""
    default: int
    """Index of the value used when this dimension is not varied."""
    type: str | None = None
    """The value type: ``int``, ``need``, ``dice``, ``bool`` (None for toggles)."""
    focus: bool = False
    """Read by a declaration that changed: always varied fully when the grid is cut down."""

    def show(self, index: int) -> str:
        """How one of its values is shown: ``attacker.S=4``; a toggle by its label when on
        (``target has "Brave"``) and not at all when off."""
        value = self.values[index]
        if self.kind in ("keyword", "rule", "status", "command"):
            return self.label if value else ""
        if self.kind == "equipment":
            return f"{self.label}={value}" if value is not None else ""
        return f"{self.label}={value_text(value, self.type)}"

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "param": self.param, "kind": self.kind, "name": self.name,
                "type": self.type, "values": list(self.values), "focus": self.focus}


def value_text(value: Any, kind: str | None) -> str:
    """A grid value as a reader sees it: ``4+`` for a need, ``none``, ``true``, ``D3``."""
    if value is None:
        return "none"
    if kind == "need" and isinstance(value, int) and not isinstance(value, bool):
        return f"{value}+"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _mid(values: Sequence[Any]) -> int:
    return (len(values) - 1) // 2


def characteristic_values(decl: ast.CharacteristicDecl) -> tuple[tuple[Any, ...], int, str]:
    """Values to try, the default index, and a display kind."""
    if decl.type == "need":
        return _NEEDS, _NEEDS.index(4), "need"
    if decl.type == "dice":
        return _DICE_VALUES, 0, "dice"
    lo = decl.low if decl.low is not None else 0
    hi = decl.high if decl.high is not None else lo + 6
    if lo < 1 <= hi:
        lo = 1  # 0 is "cannot" (no attacks, no Strength): not a value rules are written for
    values = tuple(range(lo, hi + 1))
    return values, _mid(values), "int"


def _rule_text(rule: ast.RuleDecl) -> str | None:
    """A reference with representative arguments (``Ward Save (4+)``), or None."""
    args = []
    for p in rule.params:
        if p.default is not None:
            break
        sample = {"need": "4+", "int": "1", "number": "1", "dice": "D3"}.get(p.type)
        if sample is None:
            return None
        args.append(sample)
    return f"{rule.name} ({', '.join(args)})" if args else rule.name


def _dice_max(decl: ast.Decl, runtime: Runtime) -> int:
    if isinstance(decl, ast.RollDecl) and isinstance(decl.dice, (ast.DiceLit, ast.CountedDice)):
        try:
            expr = dice_of(decl.dice, runtime.dice_decls)
            if expr.is_numeric():
                return int(expr.bounds()[1])
        except (InterpreterError, KeyError, TypeError, ValueError):
            pass
    return 6


def _literal(expr: ast.Expr | None) -> Any:
    return expr.value if isinstance(expr, ast.Literal) else None


class GridBuilder:
    """Builds the grid of a declaration both rulesets have, from what either one reads."""

    def __init__(self, a: Ruleset, b: Ruleset, ra: Reads, rb: Reads, changed: set[str],
                 closure_a: Closure, closure_b: Closure) -> None:
        self.a, self.b, self.ra, self.rb = a, b, ra, rb
        self.changed = changed
        self.ca, self.cb = closure_a, closure_b

    def _lookup(self, name: str) -> Any:
        return self.b.decls.get(name) or self.a.decls.get(name)

    def _is_focus(self, via: str) -> bool:
        if via in self.changed:
            return True
        return bool((self.ca.direct(via) | self.cb.direct(via)) & self.changed)

    def dims(self, decl: ast.Decl, runtime: Runtime) -> list[Dim] | str:
        """The grid's dimensions, or why no grid can be built."""
        reads = list(dict.fromkeys([*self.ra.of(decl.name), *self.rb.of(decl.name)]))
        dims: dict[str, Dim] = {}

        def add(dim: Dim, focus: bool) -> None:
            old = dims.get(dim.label)
            if old is None:
                dims[dim.label] = slotted.evolve(dim, focus=focus)
            elif focus and not old.focus:
                dims[dim.label] = slotted.evolve(old, focus=True)

        bearers = []
        by = decl.by if isinstance(decl, ast.ActionDecl) else None
        cased = tuple(dict.fromkeys(v.value for r in (self.ra, self.rb)
                                    for case in r.cases.get(decl.name, ()) for v in case.values))
        """The values of its cases, in A or B, of an action split by a parameter."""
        for p in decl.params:
            if p.type in _BEARERS:
                bearers.append(p)
                self._bearer_dims(p, [r for r in reads if r.param == p.name], add)
            elif p.name == by and p.type != "int":   # each case's values, and none for its own
                add(Dim(p.name, p.name, "value", None, (*cased, None), len(cased), p.type), True)
            elif p.type == "int":
                d = _literal(p.default)
                values = (tuple(range(d - 3, d + 4)) if isinstance(d, int)
                          else tuple(range(0, max(6, _dice_max(decl, runtime)) + 1)))
                if p.name == by:
                    values = tuple(sorted({*values, *(v for v in cased if isinstance(v, int))}))
                add(Dim(p.name, p.name, "value", None, values,
                        values.index(d) if isinstance(d, int) else 0, "int"), True)
            elif p.type == "bool":
                d = _literal(p.default)
                add(Dim(p.name, p.name, "value", None, (False, True), 1 if d else 0, "bool"), True)
            elif p.type == "need":
                add(Dim(p.name, p.name, "value", None, _NEEDS, _NEEDS.index(4), "need"), True)
            elif p.type == "dice":
                add(Dim(p.name, p.name, "value", None, _DICE_VALUES, 0, "dice"), True)
            elif p.default is None:
                return (f"no synthetic value for parameter {p.name!r} of type {p.type!r} "
                        "(only unit, weapon, int, bool, need and dice are varied)")
        # changed rules that modify something this declaration runs: toggled on each bearer
        closure = self.ca.of(decl.name) | self.cb.of(decl.name)
        for key in sorted(k for k in closure & self.changed if k.startswith("rule:")):
            rule = self.b.rules.get(key[5:]) or self.a.rules.get(key[5:])
            text = _rule_text(rule) if rule is not None else None
            if text is None:
                continue
            for p in bearers:
                add(Dim(f'{p.name} has "{text}"', p.name, "rule", text, (False, True), 0), True)
        return list(dims.values())

    def _bearer_dims(self, p: ast.Param, reads: list[Read], add) -> None:
        entity = "weapon" if p.type == "weapon" else "model"
        equipment: dict[str, bool] = {}
        for r in reads:
            focus = self._is_focus(r.via)
            if r.what == "characteristic":
                c = self._lookup(r.name)
                if isinstance(c, ast.CharacteristicDecl) and c.entity == entity:
                    values, default, shown = characteristic_values(c)
                    add(Dim(f"{p.name}.{r.name}", p.name, "characteristic", r.name, values,
                            default, shown), focus)
            elif r.what == "has":
                rule = self.b.rules.get(r.name) or self.a.rules.get(r.name)
                declared = self._lookup(r.name)
                if rule is not None and not isinstance(declared, ast.KeywordDecl):
                    text = _rule_text(rule)
                    if text is not None:
                        add(Dim(f'{p.name} has "{text}"', p.name, "rule", text, (False, True),
                                0), focus)
                else:
                    add(Dim(f"{p.name} has {r.name}", p.name, "keyword", r.name,
                            (False, True), 0), focus)
            elif r.what == "status":
                add(Dim(f"{p.name} is {r.name}", p.name, "status", r.name, (False, True), 0),
                    focus)
            elif r.what == "member":
                kind = "command" if r.prop == "command" else "keyword"
                add(Dim(f"{p.name} with {r.name}", p.name, kind, r.name, (False, True), 0),
                    focus)
            elif r.what == "equipment":
                equipment[r.name] = equipment.get(r.name, False) or focus
        if equipment:
            items = sorted({
                item_id for rs in (self.a, self.b) for item_id, item in rs.equipment.items()
                if set((item.get("values") or {})) & set(equipment)
            })
            if items:
                add(Dim(f"{p.name} equipment", p.name, "equipment", None,
                        (None, *items), 0), any(equipment.values()))


def select_cells(dims: Sequence[Dim], cap: int, label: str) -> tuple[list[tuple[int, ...]], int]:
    """The cells to evaluate (index tuples, in grid order) and the grid's full size.

    A grid within the cap is taken whole. A larger one is filled in layers: first every
    combination of the numbers the changed declarations read (focus characteristics and
    parameters), everything else at its default; then the same with one other dimension
    off its default (a toggle on, a piece of equipment, another characteristic), then two,
    and so on. The layer that does not fit whole is sampled with a seed derived from
    ``label``, so the same grid always gives the same cells.
    """
    sizes = [len(d.values) for d in dims]
    total = math.prod(sizes)
    if total <= cap:
        return list(itertools.product(*[range(s) for s in sizes])), total
    rng = random.Random(derive_seed(0, "rules-diff grid", label))
    free = [i for i, d in enumerate(dims) if d.focus and d.kind in ("characteristic", "value")]
    others = [i for i in range(len(dims)) if i not in free]
    base = [d.default for d in dims]
    per_combo = math.prod(sizes[i] for i in free)
    chosen: set[tuple[int, ...]] = set()

    def off_default(i: int) -> list[int]:
        return [j for j in range(sizes[i]) if j != base[i]]

    def cells_of(combo: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
        axes = [range(sizes[i]) if i in free else
                (off_default(i) if i in combo else (base[i],)) for i in range(len(dims))]
        return itertools.product(*axes)

    for k in range(len(others) + 1):
        room = cap - len(chosen)
        combos, size = [], 0
        for combo in itertools.combinations(others, k):
            size += per_combo * math.prod(sizes[i] - 1 for i in combo)
            combos.append(combo)
            if size > room:
                break
        if size <= room:
            for combo in combos:
                chosen.update(cells_of(combo))
            continue
        # this layer does not fit whole: a seeded sample of it fills the rest
        tries = 0
        while len(chosen) < cap and tries < 50 * cap:
            tries += 1
            cell = [rng.randrange(sizes[i]) if i in free else base[i] for i in range(len(dims))]
            for i in rng.sample(others, k):
                cell[i] = rng.choice(off_default(i))
            chosen.add(tuple(cell))
        break
    return sorted(chosen), total
