"""A roll or test compiled (:class:`CompiledRoll`): its dice, the rule effects aimed at it
(modifiers, re-rolls, automatic results, marks, dice set by rules), need, pass conditions,
naturals and marks, and the roll and test events it emits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules_run import slotted
from rules_run.chance import D6, Adding, Constant, DiceExpr, Die, Dist, Pool, enumerate_exact
from rules_run.lang import ast
from rules_run.lang.walk import walk
from rules_run.limits import limit, too_many
from rules_run.runtime.dice import dice_of
from rules_run.runtime.effects import kept_off, rule_scope, stack
from rules_run.runtime.entities import Unit
from rules_run.runtime.env import Closure, Env, RollResult, fail
from rules_run.runtime.events import AutomaticTest, Roll, Test
from rules_run.runtime.operators import table_lookup_function
from rules_run.runtime.records import as_data
from rules_run.runtime.sequences import purity

if TYPE_CHECKING:
    from rules_run.runtime.compiled import Runtime

__all__ = ["CompiledRoll"]

_NO_DICE = Pool(0, D6)
"""A null cell of dice: rolls nothing, worth 0."""


class CompiledRoll:
    """A roll or test, ready to run."""

    def __init__(self, runtime: Runtime, decl: ast.RollDecl) -> None:
        self.runtime = runtime
        self.decl = decl
        self.name = decl.name
        types = {p.name: p.type for p in decl.params}
        self.params = frozenset(types)
        ctx = dict(types, result="int", natural="int")
        assert decl.dice is not None, "the checker requires dice (missing-dice)"
        number = decl.dice.number if isinstance(decl.dice, ast.CountedDice) else None
        self.number = runtime.compile_expr(number, types) if number is not None else None
        self.cell: tuple[Any, list[Closure]] | None = None
        """A table's cell of dice: its lookup and keys, worked out each time
        (:meth:`_cell_dice`)."""
        self.cell_cites: Any = None
        if isinstance(decl.dice, ast.CellDice):
            cell = decl.dice.lookup
            assert isinstance(cell.target, ast.Name), "the grammar reads a table's name"
            self.cell = (table_lookup_function(cell, runtime.tables[cell.target.name]),
                         [runtime.compile_expr(k, types) for k in cell.keys])
            self.cell_cites = runtime.tables[cell.target.name] if any(
                runtime.tables[cell.target.name].value_cites) else None
            """The table whose cells cite rows of their own (``cites``): the roll cites
            the row it rolls, else itself."""
        self.dice = (dice_of(decl.dice, runtime.dice_decls)
                     if number is None and not isinstance(decl.dice, ast.CellDice) else None)
        """The dice, unless their number or cell is worked out each time
        (:meth:`_counted_dice`, :meth:`_cell_dice`)."""
        self.counted: dict[int, DiceExpr] = {}
        """The dice for each counted number rolled so far (``levels D6``)."""
        self.need = runtime.compile_expr(decl.need, ctx) if decl.need is not None else None
        self.pass_if = (runtime.compile_expr(decl.pass_if, dict(ctx, dice="list"))
                        if decl.pass_if else None)
        self.target = _target(runtime, decl.pass_if, ctx)
        """``pass if result <= X``: the comparison and X compiled, for the event log."""
        self.value = (runtime.compile_expr(decl.value, dict(ctx, dice="list"))
                      if decl.value is not None else None)
        self.reads_dice = any(isinstance(n, ast.Name) and n.name == "dice"
                              for e in (decl.value, decl.pass_if) if e is not None
                              for n in walk(e))
        """Whether ``value`` or ``pass if`` reads the faces rolled (``dice``)."""
        self.beyond = (decl.beyond[0], runtime.compile_expr(decl.beyond[1], dict(ctx, need="int"))
                       ) if decl.beyond else None
        self.naturals = decl.naturals
        self.natural_can_pass = any(n.effect == "passes" for n in decl.naturals)
        self.mark_ifs = [(mark, runtime.compile_expr(cond, dict(ctx, dice="list", need="int")))
                         for mark, cond in decl.marks]
        self.own_modifier = (runtime.compile_expr(decl.modifier, types)
                             if decl.modifier is not None else None)
        own = decl.reroll_needing
        self.reroll_needing = (own.values, runtime.compile_expr(own.need, types),
                               runtime.compile_expr(own.condition, types)
                               if own.condition is not None else None) if own else None
        """``reroll natural N needing EXPR [if COND]``: the totals re-rolled, the re-roll's
        need and when the test has it."""
        own_result = decl.reroll_result
        self.reroll_result = (own_result.which == "passed", runtime.compile_expr(
            own_result.condition, types)) if own_result else None
        """``reroll passed|failed if COND``: whether it re-rolls a pass, and when."""
        self.lo, self.hi = decl.cap
        self.cite = runtime.ruleset.cite(decl.name)
        self._drawable: bool | None = None
        """Whether it may be drawn whole while enumerating (:meth:`drawn`); worked out on
        first use."""

    def finish(self) -> None:
        """Pick up the rule effects aimed at this roll (after every rule is indexed)."""
        self.modifiers = self.runtime.modifiers.get(self.name, [])
        self.rerolls = self.runtime.rerolls.get(self.name, [])
        self.rule_dice = self.runtime.rule_dice.get(self.name, {})
        self.autos = self.runtime.autos.get(self.name, [])
        marks = self.runtime.marks.get(self.name, [])
        self.has_effects = bool(self.modifiers or self.rerolls or self.autos or marks)
        self.shields = self.runtime.shields_naming(self.name)
        """rule name -> its ``unaffected by friendly gains`` conditions that name this roll."""
        self.by_rule: dict[str, tuple[list, list, list, list]] = {}
        """rule name -> its modifiers (with their index), re-rolls, automatic results and
        marks."""
        for i, (rname, eff, cond, amount) in enumerate(self.modifiers):
            self.by_rule.setdefault(rname, ([], [], [], []))[0].append((i, eff, cond, amount))
        for rname, reroll, cond in self.rerolls:
            self.by_rule.setdefault(rname, ([], [], [], []))[1].append((reroll, cond))
        for rname, auto, cond in self.autos:
            self.by_rule.setdefault(rname, ([], [], [], []))[2].append((auto, cond))
        for rname, mark, cond in marks:
            self.by_rule.setdefault(rname, ([], [], [], []))[3].append((mark, cond))

    def _effects(self, env: Env, vars: dict):
        """Modifiers (by part) with their sources, the re-roll asked for, an automatic result,
        and the marks rules may give (each with its condition, read after the roll)."""
        mods: dict[tuple[str, int], list] = {}
        sources: list[tuple[str, int, str]] = []
        reroll_failed = reroll_passed = False
        rerolled_by: list[str] = []
        dice_rerolls: list[tuple[ast.DiceReroll, Closure | None, dict, str]] = []
        auto = None
        marking: list[tuple[str, Closure | None, dict]] = []
        carried = self.runtime.carried(vars, env)
        unaffected = self.runtime.unaffected_bearers(env, self.shields, carried) if self.shields \
            else ()
        for bearer, inst in carried:
            effects = self.by_rule.get(inst.rule.name)
            if effects is None:
                continue
            modifiers, rerolls, autos, marks = effects
            evars = rule_scope(vars, inst, bearer)
            marking.extend((eff.mark, cond, evars) for eff, cond in marks)
            for i, eff, cond, amount in modifiers:
                if cond is None or cond(env, evars):
                    v = amount(env, evars)
                    if v and unaffected and (v > 0) == (eff.part == "result") and kept_off(
                            bearer, eff.despite, unaffected):
                        continue   # a friendly gain an argument is unaffected by
                    if v:
                        mods.setdefault((eff.part, i), []).append(v)
                        sources.append((eff.part, v, inst.text))
            for eff, cond in rerolls:
                if isinstance(eff, ast.DiceReroll):
                    # its condition reads the dice: it is asked once they are rolled
                    dice_rerolls.append((eff, cond, evars, inst.text))
                elif cond is None or cond(env, evars):
                    rerolled_by.append(inst.text)
                    if eff.which == "failed":
                        reroll_failed = True
                    else:
                        reroll_passed = True
            for eff, cond in autos:
                if cond is None or cond(env, evars):
                    auto = (eff.result == "pass", inst.text)
        totals = {"result": 0, "need": 0}
        for (part, i), amounts in mods.items():
            totals[part] += stack(amounts, self.modifiers[i][1].stacking)
        # a granted re-roll and a forced re-roll of successes cancel (000 L15)
        if reroll_failed and reroll_passed:
            reroll_failed = reroll_passed = False
        return (totals, sources, (reroll_failed, reroll_passed, rerolled_by, dice_rerolls),
                auto, marking)

    def run(self, env: Env, vars: dict) -> RollResult:
        """Roll (or test) with arguments ``vars``.

        Raises:
            BattleError: ``too-deep``, when the roll's effects roll it again without end.
        """
        if env.events is None and getattr(env.chance, "draws", False) and self.drawable():
            return env.chance.draw_lazily(lambda: self.exact(env, vars), self.name)
        env.running.append((self.name, vars))
        try:
            return self._run(env, vars)
        except RecursionError:
            if sum(1 for name, _ in env.running if name == self.name) < 2:
                raise
            raise fail(f"{self.name!r} was rolled within itself too deeply: rules that roll "
                       "it again without end", self.decl.span, "too-deep") from None
        finally:
            env.running.pop()

    def drawable(self) -> bool:
        """Whether, while enumerating with ``draws`` (the combat kernel), the roll may enter
        as one draw of its exact distribution: it and the rule effects that can reach it
        change nothing (the purity of a whole volley, ``CompiledSequence.pure``)."""
        if self._drawable is None:
            from rules_run.runtime.sequences import purity
            self._drawable = purity(self.runtime, self.decl)[0]
        return self._drawable

    def exact(self, env: Env, vars: dict) -> Dist[RollResult]:
        """The exact distribution of the result with these arguments now, as the rules can
        read it (``.passed``, ``.value``, ``.natural``, marks, the need): its faces, which
        only the battle report shows, are left out, so 2D6 against a need is at most 11
        outcomes, not 21."""
        def once(chance: Any) -> RollResult:
            r = self.run(slotted.evolve(env, chance=chance), vars)
            return RollResult(r.name, r.value, r.natural, r.passed, r.marks, (), r.need)
        return enumerate_exact(once)

    def _run(self, env: Env, vars: dict) -> RollResult:
        if self.has_effects:
            totals, sources, rerolls, auto, marking = self._effects(env, vars)
        else:
            totals, sources, rerolls, auto, marking = _NO_MODS, (), _NO_REROLLS, None, []
        reroll_failed, reroll_passed, rerolled_by, dice_rerolls = rerolls
        if self.reroll_result is not None and not dice_rerolls and self.reroll_result[1](
                env, vars):
            # the test's own, as a rule's: it and a rule's opposite re-roll cancel (000 L15)
            if (reroll_passed, reroll_failed) == (not self.reroll_result[0],
                                                  self.reroll_result[0]):
                reroll_failed = reroll_passed = False
            elif self.reroll_result[0]:
                reroll_passed = True
            else:
                reroll_failed = True
            rerolled_by = [*rerolled_by, self.name]
        if auto is not None:
            result = RollResult(self.name, None, 0, auto[0])
            env.emit(AutomaticTest, rule=self.name, cite=self.cite,
                     result="pass" if auto[0] else "fail", automatic=auto[1])
            return result
        modifier = totals["result"]
        if self.own_modifier is not None:
            modifier += self.own_modifier(env, vars) or 0
        if self.lo is not None and modifier < self.lo:
            modifier = self.lo
        if self.hi is not None and modifier > self.hi:
            modifier = self.hi
        dice, dice_by = self._dice_by_rules(env, vars) if self.rule_dice else (None, None)
        if dice is None:
            dice = (self.dice if self.dice is not None else self._cell_dice(env, vars)
                    if self.cell is not None else self._counted_dice(env, vars))
        result = self._roll_once(env, vars, dice, modifier, totals["need"], marking)
        rerolled = False
        first: tuple = ()
        refused: list[str] = []
        if dice_rerolls and self.decl.reroll != "never" and result.faces:
            faces, refused = self._dice_rerolled(env, result.faces, dice, dice_rerolls,
                                                 rerolled_by)
            if rerolled_by:
                first = result.faces
                result = self._roll_once(env, vars, dice, modifier, totals["need"], marking,
                                         faces)
                rerolled = True
        elif self.decl.is_test and self.decl.reroll != "never" and result.faces and (
                (reroll_failed and not result.passed) or (reroll_passed and result.passed)):
            # a die is re-rolled at most once, whatever the number of sources (000 L13)
            first = result.faces
            result = self._roll_once(env, vars, dice, modifier, totals["need"], marking,
                                     self._rerolled_faces(env, result, dice))
            rerolled = True
        elif self.reroll_needing is not None and result.faces:
            # the test's own re-roll, on a need of its own; a rule's re-roll is used instead
            # when there is one (001 L285)
            values, own_need, condition = self.reroll_needing
            if result.natural in values and (condition is None or condition(env, vars)):
                first = result.faces
                result = self._roll_once(env, vars, dice, modifier, totals["need"], marking,
                                         self._rerolled_faces(env, result, dice),
                                         own_need)
                rerolled = True
        if env.events is not None:
            env.emit(
                Test if self.decl.is_test else Roll,
                rule=self.name,
                units=[v.id for v in vars.values() if isinstance(v, Unit)],
                cite=self._row_cite(env, vars) if self.cell_cites else self.cite,
                dice=list(result.faces),
                natural=result.natural,
                modifiers=[{"amount": v, "source": s, "applies_to": p} for p, v, s in sources],
                need=result.need,
                value=as_data(result.value),
                result=None if result.passed is None else ("pass" if result.passed else "fail"),
                rerolled=rerolled,
                marks=sorted(result.marks),
                **self._described(env, vars, rerolled_by if rerolled else (), first, refused,
                                  dice_by),
            )
        return result

    def _described(self, env: Env, vars: dict, rerolled_by: Sequence[str],
                   first: Sequence = (), refused: Sequence[str] = (),
                   dice_by: str | None = None) -> dict[str, Any]:
        """What the battle report shows beside the dice: the arguments that are not units
        (``args``), the score a ``pass if result <= X`` test compares with (``target``, as
        ``[comparison, X]``), the rules that gave a re-roll (``rerolled_by``; a test's own
        re-roll by the test's name), the faces thrown before the re-roll (``first_dice``)
        and, for a plain roll's dice, the rules whose re-roll was refused, a die being
        re-rolled at most once (``reroll_refused``); the rule that set the dice
        (``dice_by``)."""
        out: dict[str, Any] = {}
        args = {k: v for k, v in vars.items()
                if k in self.params and isinstance(v, (bool, int, float, str))}
        if args:
            out["args"] = args
        if self.target is not None:
            out["target"] = [self.target[0], self.target[1](env, vars)]
        if rerolled_by:
            out["rerolled_by"] = list(dict.fromkeys(rerolled_by))
        if first:
            out["first_dice"] = list(first)
        if refused:
            out["reroll_refused"] = list(dict.fromkeys(refused))
        if dice_by is not None:
            out["dice_by"] = dice_by
        return out

    def _dice_rerolled(self, env: Env, faces: tuple, rolled: DiceExpr,
                       rerolls: list[tuple[ast.DiceReroll, Closure | None, dict, str]],
                       rerolled_by: list[str]) -> tuple[tuple, list[str]]:
        """A plain roll's dice after the rules' re-rolls (``reroll lowest die of NAME``), in
        the order the rules are carried, and the rules refused. Each condition reads the
        dice as they then are (``natural``, ``dice``: before modifiers, 002 L854); a die is
        re-rolled at most once, so a re-roll of every die is refused once one die was
        (FAQ 002 L857-L858), and one of the lowest or highest die picks among the others."""
        physical = rolled.dice()
        now = list(faces)
        done: set[int] = set()
        refused: list[str] = []
        for eff, cond, evars, text in rerolls:
            seen = {"natural": rolled.value(now), "dice": list(now)}
            if cond is not None and not cond(env, {**evars, **seen}):
                continue
            free = [i for i in range(len(now)) if i not in done]
            if eff.pick == "all":
                picked = free if len(free) == len(now) else []
            elif eff.pick in ("lowest", "highest"):
                pick = min if eff.pick == "lowest" else max
                picked = [pick(free, key=lambda i: now[i])] if free else []
            else:
                picked = [i for i in range(len(now)) if (now[i] >= eff.faces[0] if eff.or_more
                                                         else now[i] in eff.faces)]
                if all(i in done for i in picked):
                    if picked:
                        refused.append(text)
                    continue
                picked = [i for i in picked if i not in done]
            if not picked:
                refused.append(text)
                continue
            if isinstance(rolled, Adding):   # a pool that grows is rolled again whole
                now = list(_rolled(env, rolled, physical, self.name))
                picked = list(range(len(now)))
            else:
                new = env.chance.roll(tuple(physical[i] for i in picked), self.name)
                for i, face in zip(picked, new):
                    now[i] = face
            done.update(picked)
            rerolled_by.append(text)
        return tuple(now), refused

    def _dice_by_rules(self, env: Env, vars: dict) -> tuple[DiceExpr | None, str | None]:
        """The dice a rule in play sets for this roll (``roll NAME with DICE``), worked out
        before rolling, and that rule; the first such rule carried wins."""
        for bearer, inst in self.runtime.carried(vars, env):
            for cond, dice in self.rule_dice.get(inst.rule.name, ()):
                if cond is None or cond(env, rule_scope(vars, inst, bearer)):
                    return dice, inst.text
        return None, None

    def _cell_dice(self, env: Env, vars: dict) -> DiceExpr:
        """The dice a table's cell holds (``dice spell_data[s, "hits"]``), looked up now: a
        whole number rolls nothing and is worth itself, null rolls nothing and is worth 0."""
        assert self.cell is not None and isinstance(self.decl.dice, ast.CellDice)
        lookup, keys = self.cell
        key = tuple(k(env, vars) for k in keys)
        cell = lookup(key)
        if isinstance(cell, DiceExpr):
            return cell
        if cell is None:
            return _NO_DICE
        if isinstance(cell, int) and not isinstance(cell, bool):
            return Constant(cell)
        table = self.decl.dice.lookup.target
        assert isinstance(table, ast.Name)
        raise fail(f"{self.decl.kind} {self.name!r} rolls the cell {list(key)} of table "
                   f"{table.name!r}, which holds {cell!r}, not dice", self.decl.dice.span,
                   "bad-dice")

    def _row_cite(self, env: Env, vars: dict) -> str:
        """The citation of the row of the table's cell this roll rolled (its own when the
        row has none)."""
        assert self.cell is not None and self.cell_cites is not None
        cite = self.cell_cites.cite_of(tuple(k(env, vars) for k in self.cell[1]))
        return self.runtime.ruleset.data_cite(cite) if cite is not None else self.cite

    def _counted_dice(self, env: Env, vars: dict) -> DiceExpr:
        """The dice of a roll of a counted number of dice (``levels D6``), worked out now."""
        counted = self.decl.dice
        assert self.number is not None and isinstance(counted, ast.CountedDice)
        assert counted.number is not None
        n = self.number(env, vars)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise fail(f"{self.decl.kind} {self.name!r} is to roll {n!r} dice; the number of "
                       "dice must be a whole number, 0 or more", counted.number.span,
                       "bad-dice")
        if n > limit("dice"):
            raise fail(f"{self.decl.kind} {self.name!r}: "
                       + too_many("dice", "dice in one roll", n), counted.number.span,
                       "too-many-dice")
        dice = self.counted.get(n)
        if dice is None:
            lit = slotted.evolve(counted, pool=slotted.evolve(counted.pool, count=n), number=None)
            dice = self.counted[n] = dice_of(lit, self.runtime.dice_decls)
        return dice

    def _rerolled_faces(self, env: Env, result: RollResult, rolled: DiceExpr) -> tuple:
        """The faces after a re-roll: every die (``reroll all dice``, the default for
        many-dice rolls, 000 L13), or one die (``reroll one die``): the lowest when a high
        result passes (``need``), the highest when a low one does (``pass if``)."""
        physical = rolled.dice()
        if self.decl.reroll != "one die" or len(result.faces) == 1 or len(physical) < len(
                result.faces):   # a pool that grew is rolled again whole
            return _rolled(env, rolled, physical, self.name)
        faces = list(result.faces)
        pick = faces.index(min(faces) if self.need is not None else max(faces))
        faces[pick] = env.chance.roll((physical[pick],), self.name)[0]
        return tuple(faces)

    def _roll_once(self, env: Env, vars: dict, rolled: DiceExpr, modifier: int, need_mod: int,
                   marking: list[tuple[str, Closure | None, dict]],
                   faces: tuple | None = None, need_of: Closure | None = None) -> RollResult:
        """One throw of the dice (``faces`` when they are already thrown), its marks and its
        outcome against the need (``need_of``'s, for a re-roll on a need of its own)."""
        need = None
        if self.need is not None:
            # the score needed does not depend on the dice, so it is known before rolling;
            # an impossible need ("none": no save at all) is not rolled unless a natural
            # result could still pass it
            need = (need_of or self.need)(env, vars)
            if need is not None:
                need += need_mod
            elif not self.natural_can_pass:
                return RollResult(self.name, None, 0, False)
        if faces is None:
            faces = _rolled(env, rolled, rolled.dice(), self.name)
        natural = rolled.value(faces)
        total = natural + modifier if isinstance(natural, int) else natural
        vars = dict(vars)
        vars["natural"] = natural
        vars["result"] = total
        if self.reads_dice:
            vars["dice"] = list(faces)
        marks = frozenset(n.mark for n in self.naturals
                          if n.mark is not None and natural in n.values)
        if self.mark_ifs or marking:
            vars["dice"] = list(faces)
            # the natural score needed (the need less the result modifiers, as for beyond)
            vars["need"] = need - modifier if need is not None else None
            marks = marks | {mark for mark, cond in self.mark_ifs if cond(env, vars)}
            # a rule's mark: its condition sees the dice as the roll's own clauses do
            dice = {"natural": natural, "result": total, "dice": vars["dice"]}
            marks = marks | {mark for mark, cond, evars in marking
                             if cond is None or cond(env, {**evars, **dice})}
        passed: bool | None = None
        if self.decl.is_test:
            forced = None
            for n in self.naturals:
                if natural in n.values and n.effect in ("fails", "passes"):
                    forced = n.effect == "passes"
                    if not forced:
                        break
            if self.need is not None:
                if need is None:
                    passed = False
                elif (self.beyond is not None and isinstance(natural, int)
                      and need - modifier > self.beyond[0]):
                    passed = self._beyond(env, vars, rolled, natural, need - modifier)
                else:
                    passed = total >= need
            else:
                assert self.pass_if is not None, "the checker requires one (missing-pass)"
                passed = bool(self.pass_if(env, vars))
            if forced is not None:
                passed = forced
            if passed and marks and any(m in marks for m, _ in self.decl.failing_marks):
                passed = False
        value = self.value(env, vars) if self.value is not None else total
        return RollResult(self.name, value, natural, passed, marks, faces, need)

    def _beyond(self, env: Env, vars: dict, rolled: DiceExpr, natural: int, need: int) -> bool:
        """A need above the die (7+): roll the highest face, then another die (000 L362)."""
        assert self.beyond is not None, "only a roll with 'beyond' goes beyond"
        threshold, follow = self.beyond
        if natural < threshold:
            return False
        second = follow(env, dict(vars, need=need))
        if second is None:
            return False
        faces = env.chance.roll(rolled.dice(), self.name + ".beyond")
        return rolled.value(faces) >= second


def _rolled(env: Env, rolled: DiceExpr, physical: tuple[Die, ...], tag: str) -> tuple:
    """Roll ``physical`` (``rolled``'s dice), then the dice their faces add (a pool that
    grows, :meth:`DiceExpr.more`), as one roll named ``tag``."""
    # a counted number of none rolls nothing, so asks no chance source
    faces = env.chance.roll(physical, tag) if physical else ()
    added = rolled.more(faces)
    return faces + env.chance.roll(added, tag) if added else faces


_NO_MODS = {"result": 0, "need": 0}
_NO_REROLLS: tuple[bool, bool, list[str], list] = (False, False, [], [])


def _target(runtime: Runtime, pass_if: ast.Expr | None, ctx: dict[str, str]
            ) -> tuple[str, Closure] | None:
    """``pass if result <= X`` (or ``>=``, ``<``, ``>``) with an X that reads neither the
    dice nor any roll, and calls only actions that roll nothing and change nothing: the
    comparison and X compiled; else None. ``result * K >= X`` (K a positive whole number
    written in the rules) needs ``X / K`` rounded up, ``result * K <= X`` ``X // K``."""
    if not (isinstance(pass_if, ast.Compare) and pass_if.op in ("<=", ">=", "<", ">")):
        return None
    left, right = pass_if.left, pass_if.right
    if (isinstance(left, ast.BinOp) and left.op == "*" and isinstance(left.right, ast.Literal)
            and left.right.kind == "int" and isinstance(left.right.value, int)
            and left.right.value > 0 and pass_if.op in ("<=", ">=")):
        right = ast.BinOp(op="/" if pass_if.op == ">=" else "//", left=right,
                          right=left.right, span=right.span)
        left = left.left
    if not (isinstance(left, ast.Name) and left.name == "result"):
        return None
    for node in walk(right):
        if isinstance(node, ast.Name) and node.name in ("result", "natural", "dice"):
            return None
        if (isinstance(node, ast.Call) and node.name in runtime.decls
                and not purity(runtime, node, dice=False)[0]):
            return None
    return pass_if.op, runtime.compile_expr(right, ctx)


