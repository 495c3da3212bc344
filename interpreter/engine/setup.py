"""Read a battle file against a ruleset: validate it, and build its units.

Validation has two layers: the generic JSON Schema (``schemas/battle.schema.json``) and then
what only the ruleset can tell (its profiles, characteristics, equipment, rules, options and
decisions). Every problem is reported, located in the battle file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules_run import slotted
from rules_run.data.schema import validate
from rules_run.data.yaml_loader import YamlDocument, load_yaml
from rules_run.diagnostics import (
    DataError,
    Diagnostic,
    DiagnosticBag,
    UsageError,
    did_you_mean,
)
from rules_run.editions.ruleset import Ruleset
from rules_run.lang import ast
from rules_run.lang.rule_refs import RuleRefError
from rules_run.limits import limit, too_many
from rules_run.runtime.compiled import Runtime
from rules_run.runtime.entities import Group, Part, Unit, Weapon, use_items
from rules_run.runtime.specialise import for_battle

__all__ = ["Battle", "load_battle", "read_battle", "battle_edition", "specialised"]


@slotted.define
class Battle:
    """A validated battle file, with its units built for a ruleset."""

    doc: YamlDocument
    units: list[Unit]
    options: dict[str, Any]
    """Options in force: the ruleset's defaults, overridden by the battle file."""
    sides: list[str]
    seed: int

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with that id, or None."""
        return next((u for u in self.units if u.id == unit_id), None)


MAKES_BEARERS = frozenset({"add_terrain"})
"""The builtins that give a battle a new bearer of rules named only when it runs."""


def specialised(runtime: Runtime, battle: Battle) -> Runtime:
    """The runtime to fight ``battle`` with: compiled against what the battle fixes
    (:mod:`rules_run.runtime.specialise`: its units and its terrain's effects); the
    runtime itself when its rules can make a bearer during the battle (``add_terrain``), or
    when specialisation is off."""
    if runtime.codegen.calls & MAKES_BEARERS:
        return runtime
    field = battle.doc.value.get("battlefield") or {}
    texts = [str(t) for piece in field.get("terrain") or [] for t in piece.get("effects") or []]
    return for_battle(runtime, battle.units, texts)


def read_battle(path: str | Path, problems: list[Diagnostic] | None = None,
                text: str | None = None) -> YamlDocument:
    """Load and schema-check a battle file (no ruleset needed).

    Args:
        path: the battle file.
        problems: where to put what the schema finds instead of raising it, so that
            :func:`load_battle` reports it together with what the ruleset finds.
        text: the file's text, when it was read already (standard input); ``path`` then
            only names it.

    Raises:
        DataError: the YAML is malformed; or, without ``problems``, every schema problem.
    """
    doc = load_yaml(str(path), text)
    found = _past_limits(doc)
    if not any(d.code == "too-many-units" for d in found):  # too big to check it all
        found += validate(doc, "battle")
    if problems is None:
        if found:
            raise DataError(found)
    else:
        problems.extend(found)
    return doc


def _past_limits(doc: YamlDocument) -> list[Diagnostic]:
    """More units than the ``units`` limit, or a unit of more models than ``models``."""
    bag = DiagnosticBag()
    bag.remember_source(doc.path, doc.text)
    units = doc.value.get("units") if isinstance(doc.value, dict) else None
    if not isinstance(units, list):
        return []
    if len(units) > limit("units"):
        bag.add(too_many("units", "units in one battle", len(units)), doc.key_span(("units",)),
                code="too-many-units")
        return bag.items
    for i, unit in enumerate(units):
        models = unit.get("models") if isinstance(unit, dict) else None
        if type(models) is int and models > limit("models"):
            bag.add(f"units[{i}].models: " + too_many("models", "models in one unit", models),
                    doc.span(("units", i, "models")), code="too-many-models")
    return bag.items


def battle_edition(doc: YamlDocument) -> str | None:
    """The edition a battle file names, if any."""
    value = doc.value.get("edition") if isinstance(doc.value, dict) else None
    return value if isinstance(value, str) else None


def load_battle(doc: YamlDocument, ruleset: Ruleset, runtime: Runtime,
                options: dict[str, Any] | None = None,
                problems: Sequence[Diagnostic] = ()) -> Battle:
    """Check a battle against a ruleset and build its units.

    Args:
        doc: the battle file (schema-checked by :func:`read_battle`).
        ruleset: the ruleset it is fought under.
        runtime: the ruleset compiled (to bind rule arguments).
        options: options from the command line, overriding the file's.
        problems: what the schema found; when it is all inside unit entries, the other
            units and the rest of the file are still checked, and everything is reported.

    Raises:
        DataError: every problem, located in the battle file.
    """
    data = doc.value
    broken = _broken_units(doc, problems)
    if broken is None:
        raise DataError(list(problems))
    bag = DiagnosticBag()
    bag.remember_source(doc.path, doc.text)
    units: list[Unit] = []
    seen: dict[str, int] = {}
    characteristics = {d.name for d in ruleset.characteristics()}
    specs = [(i, spec) for i, spec in enumerate(data["units"]) if i not in broken]
    for i, spec in specs:
        where = ("units", i)
        if spec["id"] in seen:
            bag.add(f"unit id {spec['id']!r} is used twice (first by units[{seen[spec['id']]}])",
                    doc.span(where + ("id",)), code="duplicate-unit")
            continue
        seen[spec["id"]] = i
        unit = _build_unit(doc, where, spec, ruleset, runtime, characteristics, bag)
        if unit is not None:
            units.append(unit)
    sides = list(data.get("sides") or dict.fromkeys(u["side"] for _, u in specs))
    for i, spec in specs:
        if spec["side"] not in sides:
            bag.add(f"side {spec['side']!r} is not in 'sides'", doc.span(("units", i, "side")),
                    code="unknown-side", hint=did_you_mean(spec["side"], sides))
    first = (data.get("game") or {}).get("first")
    if first is not None and first not in sides:
        bag.add(f"'first' names {first!r}, which is not a side", doc.span(("game", "first")),
                code="unknown-side", hint=did_you_mean(first, sides))
    if "duel" in data and len(data["units"]) != 2:
        bag.add(f"'duel' places exactly two units; this battle has {len(data['units'])}",
                doc.key_span(("duel",)), code="duel-units")
    merged = _options(doc, ruleset, data.get("options") or {}, bag)
    merged.update(command_line_options(ruleset, options or {}))
    for side, policy in (data.get("policies") or {}).items():
        if side not in sides:
            bag.add(f"policy for {side!r}, which is not a side", doc.key_span(("policies", side)),
                    code="unknown-side", hint=did_you_mean(side, sides))
        if ruleset.decls.get(policy) is None or ruleset.decls[policy].kind != "policy":
            bag.add(f"unknown policy {policy!r}", doc.span(("policies", side)),
                    code="unknown-policy", hint=did_you_mean(policy, ruleset.of_kind("policy")))
    for i, order in enumerate(data.get("orders") or []):
        if "unit" in order and order["unit"] not in seen:
            bag.add(f"order names unit {order['unit']!r}, which is not in the battle",
                    doc.span(("orders", i, "unit")), code="unknown-unit",
                    hint=did_you_mean(order["unit"], seen))
        decision = order.get("decision")
        if decision is not None and ruleset.decls.get(decision) is None:
            bag.add(f"order names decision {decision!r}, which the ruleset does not declare",
                    doc.span(("orders", i, "decision")), code="unknown-decision",
                    hint=did_you_mean(decision, ruleset.of_kind("decision")))
    if problems or bag.errors:
        found = [*problems, *bag.items]
        found.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        raise DataError(found)
    return Battle(doc, units, merged, sides, int(data.get("seed", 0)))


def _broken_units(doc: YamlDocument, problems: Sequence[Diagnostic]) -> set[int] | None:
    """The unit entries that hold a schema problem; None when a problem lies elsewhere
    (then nothing else can be checked safely)."""
    units = doc.value.get("units") if isinstance(doc.value, dict) else None
    if not problems:
        return set()
    if not isinstance(units, list):
        return None
    spans = [doc.span(("units", i)) for i in range(len(units))]
    broken = set()
    for d in problems:
        if d.span is None:
            return None
        at = (d.span.line, d.span.column)
        inside = [i for i, s in enumerate(spans)
                  if (s.line, s.column) <= at <= (s.end_line or s.line, s.end_column or s.column)]
        if not inside:
            return None
        broken.update(inside)
    return broken


def _options(doc: YamlDocument, ruleset: Ruleset, given: dict, bag: DiagnosticBag) -> dict:
    declared = {n: d for n, d in ruleset.decls.items() if isinstance(d, ast.OptionDecl)}
    merged = {n: d.default for n, d in declared.items()}
    for name, value in given.items():
        decl = declared.get(name)
        if decl is None:
            bag.add(f"unknown option {name!r}", doc.key_span(("options", name)),
                    code="unknown-option", hint=did_you_mean(name, declared)
                    or ("this ruleset has no options" if not declared else None))
            continue
        problem = option_problem(decl, value)
        if problem:
            bag.add(problem, doc.span(("options", name)), code="bad-option",
                    hint=did_you_mean(str(value), decl.choices) if decl.choices else None)
            continue
        merged[name] = value
    return merged


def command_line_options(ruleset: Ruleset, options: dict[str, Any]) -> dict[str, Any]:
    """``--option`` values, checked against the ruleset's options.

    Raises:
        UsageError: an unknown option (with a did-you-mean) or a value it cannot take.
    """
    declared = {n: d for n, d in ruleset.decls.items() if isinstance(d, ast.OptionDecl)}
    for name, value in options.items():
        decl = declared.get(name)
        if decl is None:
            hint = did_you_mean(name, declared) or (
                "its options: " + ", ".join(declared) if declared else "it has no options")
            raise UsageError(f"--option {name}: the ruleset {ruleset.id!r} has no option "
                             f"{name!r}; {hint}")
        problem = option_problem(decl, value)
        if problem:
            raise UsageError(f"--option {name}={value}: {problem}")
    return dict(options)


def option_problem(decl: ast.OptionDecl, value: Any) -> str | None:
    """Why ``value`` is not a valid value of the option, or None."""
    if decl.choices:
        if value not in decl.choices:
            return (f"option {decl.name!r} is one of " + ", ".join(repr(c) for c in decl.choices)
                    + f"; got {value!r}")
        return None
    kinds = {"int": (int,), "number": (int, float), "bool": (bool,), "text": (str,)}
    expected = kinds.get(decl.type)
    if expected and (not isinstance(value, expected) or
                     (decl.type in ("int", "number") and isinstance(value, bool))):
        return f"option {decl.name!r} takes {decl.type} values; got {value!r}"
    return option_range_problem(decl, value)


def option_range_problem(decl: ast.OptionDecl, value: Any) -> str | None:
    """Why a number is outside the option's declared range, or None."""
    if (decl.low is not None and value < decl.low) or (
            decl.high is not None and value > decl.high):
        return f"option {decl.name!r} takes values {decl.low}..{decl.high}; got {value!r}"
    return None


def _build_unit(doc, where, spec, ruleset, runtime, characteristics, bag) -> Unit | None:
    profile_id = spec.get("profile")
    base: dict[str, Any] = {}
    if profile_id is not None:
        found = ruleset.units.get(profile_id)
        if found is None:
            bag.add(f"unknown profile {profile_id!r}", doc.span(where + ("profile",)),
                    code="unknown-profile", hint=did_you_mean(profile_id, ruleset.units))
            return None
        base = found
    profile = runtime.profile_values(base.get("profile") or {}, doc.span(where))
    declared = {d.name: d for d in ruleset.characteristics()}
    for name, value in (spec.get("characteristics") or {}).items():
        if name not in characteristics:
            bag.add(f"unknown characteristic {name!r}",
                    doc.key_span(where + ("characteristics", name)),
                    code="unknown-characteristic", hint=did_you_mean(name, characteristics))
        problem = declared[name].range_problem(value) if name in declared else None
        if problem is not None:
            bag.add(problem, doc.span(where + ("characteristics", name)), code="out-of-range")
        profile[name] = runtime.profile_values({name: value}, doc.span(where))[name]
    for name in characteristics:
        profile.setdefault(name, None)
    equipment, item_ids = [], []
    for j, item_id in enumerate(spec.get("equipment", base.get("equipment", [])) or []):
        item = ruleset.equipment.get(item_id)
        if item is None:
            bag.add(f"unknown equipment {item_id!r}", doc.span(where + ("equipment", j)),
                    code="unknown-equipment", hint=did_you_mean(item_id, ruleset.equipment))
            continue
        equipment.append(item)
        item_ids.append(item_id)
    rule_texts: list[tuple[int | None, str]] = [(None, t) for t in base.get("rules") or []]
    for i, item in enumerate(equipment):
        rule_texts.extend((i, t) for t in item.get("rules") or [])
    rule_texts.extend((None, t) for t in spec.get("rules") or [])
    rules, item_rules = [], []
    for j, (source, text) in enumerate(rule_texts):
        try:
            rules.append(runtime.bind_rule(text))
            item_rules.append((source, rules[-1]))
        except (KeyError, RuleRefError):
            in_spec = text in (spec.get("rules") or [])
            span = (doc.span(where + ("rules", (spec.get("rules") or []).index(text)))
                    if in_spec else doc.span(where))
            bag.add(f"unknown rule {text!r}", span, code="unknown-rule",
                    hint=did_you_mean(text.split("(")[0].strip(), ruleset.rules))
    command_spec = spec.get("command") or {}
    if isinstance(command_spec, list):
        command_spec = dict.fromkeys(command_spec, True)
    command = {}
    for name, value in command_spec.items():
        from_profile = (base.get("command") or {}).get(name)
        if from_profile is None and value is True:
            bag.add(f"the profile {profile_id!r} has no command model {name!r}",
                    doc.span(where + ("command",)), code="unknown-command",
                    hint=did_you_mean(name, base.get("command") or {}))
            continue
        command[name] = value if isinstance(value, dict) else (
            from_profile if isinstance(from_profile, dict) else {})
    keywords = set(base.get("keywords") or []) | set(spec.get("keywords") or [])
    values = dict(base.get("values") or {})
    values.update(spec.get("values") or {})
    unit = Unit(
        id=spec["id"],
        name=spec.get("name") or base.get("name") or spec["id"],
        side=spec["side"],
        profile=profile,
        models=spec["models"],
        files=spec.get("files") or (min(spec["models"], ruleset.default_files)
                                    if ruleset.default_files else None),
        rules=rules,
        keywords=keywords,
        equipment=equipment,
        command=command,
        values=values,
        type=base.get("type"),
        points=spec.get("points", 0),
        weapons=[
            Weapon(name, runtime.profile_values(w.get("profile") or {}, doc.span(where)),
                   [runtime.bind_rule(r) for r in w.get("rules") or []])
            for name, w in (base.get("weapons") or {}).items()
        ],
    )
    unit.item_ids = item_ids
    unit.item_rules = item_rules
    for name, part_spec in (base.get("parts") or {}).items():
        part = Part(name, part_spec.get("name") or name,
                    runtime.profile_values(part_spec.get("profile") or {}, doc.span(where)),
                    [runtime.bind_rule(r) for r in part_spec.get("rules") or []],
                    set(part_spec.get("keywords") or []), [], unit)
        part.weapons = [
            Weapon(w_name, runtime.profile_values(w.get("profile") or {}, doc.span(where)),
                   [runtime.bind_rule(r) for r in w.get("rules") or []], part)
            for w_name, w in (part_spec.get("weapons") or {}).items()]
        runtime.apply_grants(part)
        unit.parts[name] = part
    unit.groups = _groups(doc, where, spec, base, unit, ruleset, runtime, characteristics, bag)
    first: dict[str, int] = {}
    for i, item in enumerate(equipment):
        if item.get("alternative") is not None:
            first.setdefault(item["alternative"], i)
    use_items(runtime, unit, frozenset(
        i for i, item in enumerate(equipment)
        if item.get("alternative") is not None and first[item["alternative"]] != i))
    for weapon in unit.weapons:
        runtime.apply_grants(weapon)
    return unit


def _groups(doc, where, spec, base, unit: Unit, ruleset: Ruleset, runtime: Runtime,
            characteristics: set[str], bag: DiagnosticBag) -> list[Group]:
    """The unit's groups of models: the battle file's, else its profile's. Their models add
    up to the unit's; one group may leave its number out and take the rest."""
    given = "groups" in spec
    specs = spec.get("groups") if given else base.get("groups")
    if not specs:
        return []
    at = where + ("groups",) if given else where + ("models",)
    weapons = {w.name: w for w in unit.weapons}
    groups: list[Group] = []
    for i, g in enumerate(specs):
        here = at + (i,) if given else at
        chosen = []
        for j, name in enumerate(g.get("weapons") or []):
            if name not in weapons:
                bag.add(f"groups[{i}]: the profile has no weapon {name!r}",
                        doc.span(here + ("weapons", j)) if given else doc.span(here),
                        code="unknown-weapon", hint=did_you_mean(name, weapons)
                        or ("its weapons: " + ", ".join(weapons) if weapons
                            else "the profile has no weapons"))
            else:
                chosen.append(weapons[name])
        for name in g.get("profile") or {}:
            if name not in characteristics:
                bag.add(f"groups[{i}]: unknown characteristic {name!r}",
                        doc.key_span(here + ("profile", name)) if given else doc.span(here),
                        code="unknown-characteristic", hint=did_you_mean(name, characteristics))
        rules = []
        for j, text in enumerate(g.get("rules") or []):
            try:
                rules.append(runtime.bind_rule(text))
            except (KeyError, RuleRefError):
                bag.add(f"groups[{i}]: unknown rule {text!r}",
                        doc.span(here + ("rules", j)) if given else doc.span(here),
                        code="unknown-rule", hint=did_you_mean(text.split("(")[0].strip(),
                                                               ruleset.rules))
        profile = {k: v for k, v in runtime.profile_values(
            g.get("profile") or {}, doc.span(where)).items() if k in characteristics}
        groups.append(Group(g.get("name") or f"group{i + 1}", g.get("models") or 0, profile,
                            rules, chosen, unit))
    rest = [i for i, g in enumerate(specs) if "models" not in g]
    counted = sum(g.models for g in groups)
    if len(rest) > 1:
        bag.add(f"groups[{rest[1]}]: only one group may leave out its models (groups[{rest[0]}] "
                "takes the rest)", doc.span(at + (rest[1],)) if given else doc.span(at),
                code="group-models", hint="give this group's models")
    elif rest and counted >= unit.models:
        bag.add(f"the groups with a number have {counted} models, leaving none of the unit's "
                f"{unit.models} to groups[{rest[0]}]", doc.span(at), code="group-models",
                hint=f"give the groups fewer than {unit.models} models")
    elif rest:
        groups[rest[0]].models = groups[rest[0]].starting_models = unit.models - counted
    elif counted != unit.models:
        bag.add(f"the groups' models add up to {counted}, the unit has {unit.models}",
                doc.span(at), code="group-models",
                hint="make them add up, or leave one group's models out to take the rest")
    for group in groups:
        runtime.apply_grants(group)
    return groups
