"""What a ruleset folder holds besides its rules: tables, unit profiles and equipment, and
the battle report's words, each read (:class:`~rules_run.editions.reading.FolderReader`)
and checked against what the ruleset declares.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from rules_run import slotted
from rules_run.data.tables import Table, load_table
from rules_run.data.yaml_loader import YamlDocument, path_text
from rules_run.diagnostics import (
    DataError,
    Diagnostic,
    DiagnosticBag,
    LanguageError,
    Span,
    did_you_mean,
)
from rules_run.editions.reading import FolderReader, by_text
from rules_run.editions.ruleset import Origin, Ruleset
from rules_run.lang import ast
from rules_run.lang.rule_refs import rule_reference_problem
from rules_run.lang.walk import walk
from rules_run.paths import shown

__all__ = ["Located", "read_dice_cells", "read_tables", "read_unit_data", "check_unit_data",
           "report_words"]


def read_tables(reader: FolderReader, decls: Mapping[str, ast.Decl],
                origins: Mapping[str, Origin], ruleset_id: str, base: Ruleset | None
                ) -> dict[str, Table]:
    """The tables ``decls`` declare, loaded (a base's, kept by a patch, reused)."""
    out: dict[str, Table] = {}
    for name, d in decls.items():
        if not isinstance(d, ast.TableDecl):
            continue
        if base is not None and origins[name].ruleset != ruleset_id and name in base.tables:
            out[name] = base.tables[name]
            continue
        path = reader.named(d.file, d.span)
        if path is None:
            continue
        if not path.exists():
            reader.bag.add(f"table {name!r} reads {d.file!r}, which does not exist",
                           d.span, code="no-file",
                           hint="the file is named relative to the ruleset folder "
                           f"{shown(reader.folder)!r}")
            continue
        def read(text: str | None, name: str = name, path: Path = path
                 ) -> tuple[Any, list[Diagnostic]]:
            try:
                table = load_table(shown(path), name, text=text)
            except DataError as err:
                return None, err.diagnostics
            table, problems = read_dice_cells(table, text)
            return (None if problems else table), problems

        table, problems = by_text(("table", name), path, read)
        if table is None:
            reader.bag.extend(problems)
            continue
        if tuple(table.keys) != d.keys:
            reader.bag.add(
                f"table {name!r} is declared with keys ({', '.join(d.keys)}) but "
                f"{d.file!r} has keys ({', '.join(table.keys)})",
                d.span, code="table-keys",
            )
        out[name] = table
    return out


def read_dice_cells(table: Table, text: str | None) -> tuple[Table, list[Diagnostic]]:
    """``table`` with each cell typed ``dice`` read as dice (``D6``, ``2D6``, ``D3+1``,
    ``D6x2``: a dice literal; a whole number and null stay as they are), and a located
    error for each whose text is not dice; ``text``: the table file's, for the lines shown.
    The cells are parsed here, once, so that a run from the disk cache needs no parser."""
    if not table.dice_cells:
        return table, []
    bag = DiagnosticBag()
    if text is not None:
        bag.remember_source(table.path, text)
    cells: dict[Any, Any] = dict(table.cells)   # dice cells change type
    spans = {keys: table.cell_span(keys) for keys in table.dice_cells}
    for keys in sorted(spans, key=lambda k: (spans[k].line, spans[k].column)):
        cell = table.cells[keys]
        if not isinstance(cell, str):
            continue
        lit = _dice(cell, spans[keys])
        if lit is not None:
            cells[keys] = lit
            continue
        hint = (f"did you mean {cell.upper()!r}?" if _dice(cell.upper(), spans[keys])
                else "write dice as D6, 2D6, D3+1 or D6x2, a whole number, or null")
        bag.add(f"cell [{', '.join(map(str, keys))}] of table {table.name!r} holds dice, "
                f"but {cell!r} is not dice", spans[keys], code="bad-dice",
                hint=hint)
    return slotted.evolve(table, cells=cells), list(bag.items)


def _dice(text: str, where: Span) -> ast.DiceLit | None:
    """``text`` as standard dice (not a named die, nor counted by a name), or None."""
    from rules_run.lang.parser import parse_dice   # Lark only for a table with dice cells

    try:
        lit = parse_dice(text, where)
    except LanguageError:
        return None
    return lit if isinstance(lit, ast.DiceLit) and lit.die_name is None else None


def read_unit_data(reader: FolderReader, manifest: YamlDocument, units: dict[str, Any],
                   equipment: dict[str, Any]) -> None:
    """Put the unit profiles and equipment items of the manifest's files in ``units`` and
    ``equipment``."""
    for key, schema, target in (("units", "units", units), ("equipment", "equipment",
                                                              equipment)):
        for i, rel in enumerate(manifest.value.get(key, [])):
            path = reader.named(rel, manifest.span((key, i)))
            if path is None:
                continue
            if not path.exists():
                reader.bag.add(f"{key} file {rel!r} does not exist",
                               manifest.span((key, i)), code="no-file")
                continue
            doc = reader.yaml(path, schema)
            if doc is None:
                continue
            if key == "units":
                stem = Path(rel).stem
                for pid, profile in doc.value["units"].items():
                    target[f"{stem}/{pid}"] = Located(profile, doc, ("units", pid))
            else:
                for item_id, item in doc.value["items"].items():
                    if item_id in target:
                        reader.bag.add(f"equipment {item_id!r} is defined twice",
                                       doc.key_span(("items", item_id)),
                                       code="duplicate-declaration")
                    target[item_id] = Located(item, doc, ("items", item_id))


def check_unit_data(reader: FolderReader, units: Mapping[str, Any], equipment: Mapping[str, Any],
                    decls: Mapping[str, ast.Decl], rules: Mapping[str, ast.RuleDecl],
                    removed: Mapping[str, ast.PatchOp]) -> None:
    """Check that the unit data names only characteristics, equipment and rules the
    ruleset has (``removed``: what its patch removes, for the messages)."""
    declared = {n: d for n, d in decls.items() if isinstance(d, ast.CharacteristicDecl)}
    characteristics = list(declared)
    # Data a patch inherits is checked again: the patch may have removed or changed a
    # rule, a characteristic or an equipment item it names. (Nothing is marked on the
    # shared objects: the base ruleset is never changed.)
    for located in list(units.values()) + list(equipment.values()):
        if not isinstance(located, Located):
            continue
        reader.bag.remember_source(located.doc.path, located.doc.text)
        _check_rule_refs(reader, located, rules, removed)
        for path, profile in located.profiles():
            for name, value in profile.items():
                problem = (declared[name].range_problem(value)
                           if name in declared and path[-1] != "modifies" else None)
                if problem is not None:
                    reader.bag.add(problem, located.doc.span(path + (name,)),
                                   code="out-of-range")
                if name not in characteristics:
                    reader.bag.add(
                        f"unknown characteristic {name!r} in {path_text(path)}",
                        located.doc.key_span(path + (name,)),
                        code="unknown-characteristic",
                        hint=did_you_mean(name, characteristics)
                        or "the characteristics are " + ", ".join(characteristics),
                    )
        for i, item in enumerate(located.value.get("equipment", [])):
            if item not in equipment:
                reader.bag.add(
                    f"unknown equipment {item!r}",
                    located.doc.span(located.path + ("equipment", i)),
                    code="unknown-equipment",
                    hint=did_you_mean(item, equipment),
                )
        weapons = located.value.get("weapons") or {}
        for i, group in enumerate(located.value.get("groups") or []):
            for j, name in enumerate(group.get("weapons") or []):
                if name not in weapons:
                    reader.bag.add(
                        f"groups[{i}]: the profile has no weapon {name!r}",
                        located.doc.span(located.path + ("groups", i, "weapons", j)),
                        code="unknown-weapon", hint=did_you_mean(name, weapons)
                        or ("its weapons: " + ", ".join(weapons) if weapons
                            else "the profile has no weapons"))
    _check_part_names(reader, units, [*decls.values(), *rules.values()])


def _check_part_names(reader: FolderReader, units: Mapping[str, Any],
                      decls: Iterable[ast.Decl]) -> None:
    """Each part a rule names (``part(u, "mount")``) is a part of some unit in the data."""
    known = sorted({name for unit in units.values() for name in (unit.get("parts") or {})})
    for decl in decls:
        for node in walk(decl):
            if not (isinstance(node, ast.Call) and node.name == "part" and len(node.args) == 2):
                continue
            given = node.args[1]
            if (isinstance(given, ast.Literal) and given.kind == "text"
                    and given.value not in known):
                reader.bag.add(
                    f"no unit in the ruleset's data has a part {given.value!r}", given.span,
                    code="unknown-part", hint=did_you_mean(str(given.value), known)
                    or ("the parts in its data: " + ", ".join(known) if known
                        else "no unit in its data has parts"))


def _check_rule_refs(reader: FolderReader, located: Located, rules: Mapping[str, ast.RuleDecl],
                     removed: Mapping[str, ast.PatchOp]) -> None:
    def removal_of(name: str) -> str | None:
        removal = removed.get(f"rule:{name}")
        return f"the patch removes it at {removal.span.text()}" if removal else None

    for path, text in located.rule_refs():
        problem = rule_reference_problem(text, rules, removal_of)
        if problem is not None:
            code, message, hint = problem
            reader.bag.add(message, located.doc.span(path), code=code, hint=hint)


def report_words(reader: FolderReader, manifest: YamlDocument, decls: Mapping[str, ast.Decl],
                 rules: Mapping[str, ast.RuleDecl], base: Ruleset | None,
                 tables: Mapping[str, Table]) -> dict[str, dict[str, str]]:
    """The battle report's words: the base's, then this ruleset's ``report:`` file,
    each entry checked against what the ruleset declares (and the words its tables' keys
    take, such as a spell's name)."""
    out: dict[str, dict[str, str]] = {k: dict(v) for k, v in base.report.items()
                                      } if base else {}
    rel = manifest.value.get("report")
    if rel is None:
        return out
    if not (reader.folder / rel).is_file():
        reader.bag.add(f"report file {rel!r} does not exist", manifest.span(("report",)),
                       code="no-file")
        return out
    doc = reader.yaml(reader.folder / rel, "report")
    if doc is None:
        return out
    logs: dict[str, int] = {}
    words: set[str] = {str(v) for t in tables.values() for vs in t.key_values for v in vs}
    """The words the rules write as text ("fireball"), or a table's keys take: names may
    name them too."""
    for d in list(decls.values()) + list(rules.values()):
        for node in walk(d):
            if isinstance(node, ast.Log):
                logs[node.message] = max(logs.get(node.message, 0), len(node.args))
            elif isinstance(node, ast.Literal) and node.kind == "text":
                words.add(str(node.value))
    kinds = {"rolls": ("roll", "test"), "rerolls": ("test",), "decisions": ("decision",)}
    for section, entries in doc.value.items():
        if section == "kind":
            continue
        for key, phrase in entries.items():
            where = (section, key)
            if section == "messages":
                known = key in logs
                allowed = {str(i) for i in range(1, logs.get(key, 0) + 1)}
                what, choices = "log message of the ruleset", list(logs)
            else:
                decl = decls.get(key)
                wanted = kinds.get(section)

                def fits(d: ast.Decl) -> bool:
                    # the words for a test's own re-roll: only a test that has one
                    return (wanted is None or d.kind in wanted) and (
                        section != "rerolls" or getattr(d, "reroll_result", None) is not None)
                known = decl is not None and fits(decl) or wanted is None and key in words
                what = ("declaration of the ruleset" if wanted is None
                        else "test of the ruleset with a re-roll of its own"
                        if section == "rerolls" else " or ".join(wanted) + " of the ruleset")
                choices = [n for n, d in decls.items() if fits(d)]
                allowed = ({p.name for p in getattr(decl, "params", ())}
                           | {"unit", "other", "side", "choice"})
            if not known:
                reader.bag.add(f"{section}: {key!r} is not a {what}",
                               doc.key_span(where), code="unknown-name",
                               hint=did_you_mean(key, choices))
                continue
            for field in _placeholders(phrase):
                if field not in allowed:
                    reader.bag.add(
                        f"{section}.{key}: the phrase names {{{field}}}, which it is not "
                        "given", doc.span(where), code="unknown-placeholder",
                        hint=did_you_mean(field, sorted(allowed))
                        or "it is given: " + ", ".join("{" + a + "}" for a in sorted(allowed)))
            out.setdefault(section, {})[key] = phrase
    return out


def _placeholders(phrase: str) -> list[str]:
    """The fields a report phrase names: ``{unit}``, ``{2}``, ``{flag?yes|no}``."""
    return [m.split("?", 1)[0] for m in re.findall(r"\{([^{}]*)\}", phrase)]


class Located(dict[str, Any]):
    """A unit profile or equipment item, remembering the document it came from."""

    def __init__(self, value: dict[str, Any], doc: YamlDocument, path: tuple[Any, ...]
                 ) -> None:
        super().__init__(value)
        self.value = value
        self.doc = doc
        self.path = path

    def span(self, *path: Any) -> Span:
        return self.doc.span(self.path + tuple(path))

    def profiles(self) -> Iterable[tuple[tuple[Any, ...], dict[str, Any]]]:
        """Every characteristic map inside (the profile, weapons', command's, parts')."""
        v = self.value
        if isinstance(v.get("profile"), dict):
            yield self.path + ("profile",), v["profile"]
        for group in ("weapons", "command", "parts"):
            for key, sub in (v.get(group) or {}).items():
                if isinstance(sub, dict) and isinstance(sub.get("profile"), dict):
                    yield self.path + (group, key, "profile"), sub["profile"]
        for i, sub in enumerate(v.get("groups") or []):
            if isinstance(sub, dict) and isinstance(sub.get("profile"), dict):
                yield self.path + ("groups", i, "profile"), sub["profile"]
        if isinstance(v.get("modifies"), dict):
            yield self.path + ("modifies",), v["modifies"]

    def rule_refs(self) -> Iterable[tuple[tuple[Any, ...], str]]:
        """Every rule the item names, where it names it."""
        v = self.value
        for i, r in enumerate(v.get("rules", []) or []):
            yield self.path + ("rules", i), r
        for group in ("weapons", "parts"):
            for key, sub in (v.get(group) or {}).items():
                if isinstance(sub, dict):
                    for i, r in enumerate(sub.get("rules", []) or []):
                        yield self.path + (group, key, "rules", i), r
        for j, sub in enumerate(v.get("groups") or []):
            if isinstance(sub, dict):
                for i, r in enumerate(sub.get("rules", []) or []):
                    yield self.path + ("groups", j, "rules", i), r
