"""Per-battle specialisation: a ruleset's code compiled against what one battle fixes.

Some facts about a battle cannot change while it runs. The code of every action, roll,
test and sequence is written again against those facts (:class:`Facts`), so a test the
facts decide costs nothing and the branch it guards is not written at all. The result is a
:class:`~rules_run.runtime.compiled.Runtime` like any other, made once per ruleset and set
of facts (kept in memory on the runtime it was made from, and its compiled code in the disk
cache). Statistics runs use it (:func:`rules_run.engine.stats.run_many`, through
:func:`rules_run.engine.setup.specialised`): writing the code again costs about as much as
a few battles, which a single battle would not win back.

What counts as fixed (the soundness rule): a fact is fixed only if no statement, builtin
or rule effect can change it while the battle runs, whatever the dice. The facts:

- **the rules and keywords anything of the battle can ever carry** (:attr:`Facts.carried`):
  the names and texts of the rules, and the keywords, of every unit of the battle (its
  parts, groups and weapons, and every item it has, in use or not) and of its terrain, of
  every rule any grant of the ruleset gives (whatever its condition: a grant may hold
  later), and every status (a status with effects is carried while it lasts; a text naming
  one with arguments, ``enfeebled(2)``, counts as the status). ``x has "NAME"`` is false
  for a name outside that set, whoever ``x`` is. A unit is never made during a battle
  (every unit is in the battle file); a battle whose rules can make a bearer from rule
  texts known only when it runs (a new terrain piece) is not specialised
  (:func:`rules_run.engine.setup.specialised`). What its bearers carry as they are set up
  is kept too (:attr:`Facts.own`): the code is written against that set narrowed by what
  the battle can reach (:attr:`rules_run.runtime.reach.Reach.narrowed`: a rule only a
  status it never applies would grant is never carried).
- **the named values its units have** (:attr:`Facts.values`): a unit's values and its
  items' come from its data and the battle file and never change; and **the sides with
  more than one unit** (:attr:`Facts.shared_sides`): a unit's side never changes.
- **what the battle can reach** (:mod:`rules_run.runtime.reach`, worked out from the two
  above over the whole ruleset): the counters no reachable code writes, the statuses no
  reachable code applies, and so each action's value where it is then constant; the
  actions and phases are written again without the branches, loops and calls these decide
  (:func:`folded`), before the code generator writes them.

- **the characteristics a rule effect can change** (:func:`changed_characteristics`):
  those of the effects of the rules the battle can carry (by the first fact; a status's
  only when reached code applies it, by the third) and of the global rules. Reading
  another characteristic skips the rules in play, as reading one no rule of the ruleset
  changes does.

A ``has`` so decided is written as ``False`` when its subject is a local name (reading it
does nothing; else the subject is still computed), and an ``if`` branch whose condition is
so decided is left out (:meth:`rules_run.runtime.codegen.CodeGen.decided`).

``RULES_RUN_SPECIALISE=0`` turns specialisation off (:func:`for_battle` then gives the
runtime it was given): the one way to compare a specialised battle with an unspecialised
one (they give byte-identical output: ``tests/runtime/test_specialise.py``).
"""

from __future__ import annotations

import marshal
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from rules_run import cache, slotted
from rules_run.lang import ast
from rules_run.runtime.entities import Bearer, Unit

if TYPE_CHECKING:
    from rules_run.editions.ruleset import Ruleset
    from rules_run.runtime.reach import Reach
    from rules_run.runtime.compiled import Runtime

__all__ = ["Facts", "battle_facts", "carries", "changed_characteristics", "enabled", "folded",
           "for_battle", "granted_names", "grants_given", "specialised"]

SWITCH = "RULES_RUN_SPECIALISE"
"""The environment variable that turns specialisation off (``0``)."""


@slotted.frozen
class Facts:
    """What one battle fixes, that its code is compiled against (see the module's rule)."""

    carried: frozenset[str]
    """Every rule name, rule text and keyword anything of the battle can ever carry."""
    values: frozenset[str] = frozenset()
    """Every key of the named values of the battle's units and of their items
    (``value_of``, ``item_values``): a key outside it has no value on any unit."""

    shared_sides: frozenset[str] | None = None
    """The sides with more than one unit (a unit's side never changes): ``friends(x)`` is
    empty when there is none (None: not known)."""

    own: frozenset[str] | None = None
    """The rule names, rule texts and keywords the battle's bearers and terrain carry as
    they are set up (None: not known): :mod:`rules_run.runtime.reach` narrows
    :attr:`carried` to these, what the grants of what is carried give, and the statuses
    reached code applies."""

    def key(self) -> str:
        """A text naming these facts, for the disk cache."""
        shared = "?" if self.shared_sides is None else ",".join(sorted(self.shared_sides))
        own = "?" if self.own is None else "\0".join(sorted(self.own))
        return cache.digest(*sorted(self.carried), "\0", *sorted(self.values), "\0", shared,
                            "\0", own)


def enabled() -> bool:
    """Whether specialisation is on (``RULES_RUN_SPECIALISE`` is not ``0``)."""
    return os.environ.get(SWITCH, "1") != "0"


def _bearers(units: Sequence[Unit]) -> Iterator[Bearer]:
    """Every bearer of these units: each unit, its parts and groups, and their weapons."""
    for unit in units:
        yield unit
        yield from unit.weapons
        for part in unit.parts.values():
            yield part
            yield from part.weapons
        for group in unit.groups:
            yield group
            yield from getattr(group, "weapons", ())


def battle_facts(runtime: Runtime, units: Sequence[Unit], texts: Sequence[str] = ()) -> Facts:
    """The facts a battle with these units fixes (see the module's rule); ``texts``: the
    rules the battle's other bearers carry (its terrain's effects), as written."""
    carried: set[str] = set()
    values: set[str] = set()
    for unit in units:
        values.update(unit.values)
        for item in unit.all_equipment:
            values.update(item.get("values") or {})
    for text in texts:
        carried.add(text)
        try:
            carried.add(runtime.bind_rule(text).rule.name)
        except (KeyError, ValueError):   # RuleRefError is a ValueError
            pass   # the battle reports it, where its terrain is built
    for bearer in _bearers(units):
        carried.update(bearer.keywords)
        instances = [*bearer.rules, *(inst for _, inst in getattr(bearer, "item_rules", ()))]
        for inst in instances:
            carried.update((inst.rule.name, inst.text))
    own = frozenset(carried)
    carried.update(runtime.codegen.grantable())   # the ruleset's grants and statuses
    sides = [unit.side for unit in units]
    shared = frozenset(side for side in sides if sides.count(side) > 1)
    return Facts(frozenset(carried), frozenset(values), shared, own)


def carries(facts: Facts, rule: str) -> bool:
    """Whether something of the battle may carry ``rule`` (a name or a text) by the facts:
    a text naming a status with its arguments (``enfeebled(2)``) as the status."""
    return rule in facts.carried or rule.partition("(")[0].rstrip() in facts.carried


def grants_given(runtime: Runtime) -> dict[str, frozenset[str]]:
    """For each rule and status of the ruleset with grants, the names and texts of the rules
    they give (whatever their conditions)."""
    rules = [*runtime.ruleset.rules.values(), *(
        ast.status_rule(d) for d in runtime.decls.values() if isinstance(d, ast.StatusDecl))]
    out: dict[str, frozenset[str]] = {}
    for rule in rules:
        given = {name for effect in rule.effects if isinstance(effect, ast.Grant)
                 for name in (effect.rule, runtime.bind_rule(effect.rule).rule.name)}
        if given:
            out[rule.name] = frozenset(given)
    return out


def granted_names(runtime: Runtime, facts: Facts | None = None) -> frozenset[str]:
    """The names and texts of the rules the grants of a ruleset's rules and statuses give
    (whatever their conditions), and the statuses' names; with ``facts``, of the rules and
    statuses a battle of them can carry only (what it carries holds every rule a grant of
    theirs gives: the first fact)."""
    statuses = [d.name for d in runtime.decls.values() if isinstance(d, ast.StatusDecl)]
    out = {name for rule, given in grants_given(runtime).items()
           if facts is None or carries(facts, rule) for name in given}
    out.update(n for n in statuses if facts is None or carries(facts, n))
    return frozenset(out)


def specialised(runtime: Runtime, facts: Facts) -> Runtime:
    """The runtime's ruleset compiled against ``facts``: made once per runtime and facts
    (its code kept in the disk cache by the ruleset's fingerprint and the facts)."""
    from rules_run.runtime.compiled import Runtime

    made = runtime.specialisations.get(facts)
    if made is not None:
        return made
    fingerprint = runtime.ruleset.fingerprint
    name = cache.digest(fingerprint, facts.key()) if fingerprint else ""
    key = cache.digest(cache.code_fingerprint(), name)
    codes: dict[str, Any] = dict(runtime.codegen.codes)
    stored = cache.read("code", name, key) if name else None
    try:
        found = marshal.loads(stored) if isinstance(stored, bytes) else {}
    except (ValueError, EOFError, TypeError):
        found = {}
    if isinstance(found, dict):
        codes.update(found)
    ruleset, found = folded(runtime, facts)
    made = Runtime(ruleset, runtime.codegen.battle_builtins, codes, facts=found.narrowed)
    made.reach = found
    made.fight_cache = runtime.fight_cache   # a volley's distribution is the same in both
    made.char_effect_names = changed_characteristics(made, found.narrowed)
    if name and made.codegen.compiled:
        own = {k: v for k, v in made.codegen.codes.items() if k not in runtime.codegen.codes}
        cache.write("code", name, key, marshal.dumps(own))
    runtime.specialisations[facts] = made
    return made


def folded(runtime: Runtime, facts: Facts) -> tuple[Ruleset, Reach]:
    """The runtime's ruleset with the actions and phases a battle of these facts reaches
    written again without what it can never do (:func:`rules_run.runtime.reach.fold`; the
    ruleset itself when nothing changes), and what the battle reaches."""
    from rules_run.runtime.reach import fold, reach

    found = reach(runtime, facts)
    changed = fold(runtime, facts, found)
    if not changed:
        return runtime.ruleset, found
    return slotted.evolve(runtime.ruleset, decls={**runtime.ruleset.decls, **changed}), found


def changed_characteristics(runtime: Runtime, facts: Facts) -> set[str]:
    """The characteristics some rule effect can change in a battle of these facts: those of
    the effects of the rules something of the battle can carry (a status's while it has it,
    so only one reached code applies: facts narrowed by :mod:`rules_run.runtime.reach`)
    and of the global rules. Reading any other one skips the rules in play, which have no
    effect on it."""
    global_rules = {inst.rule.name for inst in runtime.global_rules}
    return {effect.characteristic for name, effects in runtime.char_effects.items()
            if name in global_rules or carries(facts, name) for effect, _, _ in effects}


def for_battle(runtime: Runtime, units: Sequence[Unit], texts: Sequence[str] = ()) -> Runtime:
    """The runtime to fight a battle of these units (and other bearers carrying the rules
    ``texts``) with: specialised to them (the same runtime when specialisation is off, or
    when ``runtime`` is specialised already)."""
    if runtime.facts is not None or not enabled():
        return runtime
    return specialised(runtime, battle_facts(runtime, units, texts))
