"""Load a ruleset folder: manifest, rule files, ``extends``, patches, tables and unit data.

Loading is cached per folder (and invalidated when any file in it changes, on disk or in an
editor's buffer: :mod:`rules_run.buffers`), so a command that runs ten thousand battles
parses and checks each ruleset once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any, NoReturn
from pathlib import Path

from rules_run import cache
from rules_run.buffers import content_hash, generation
from rules_run.data.yaml_loader import YamlDocument
from rules_run.diagnostics import InterpreterError, Severity, Span, did_you_mean
from rules_run.editions.contents import (
    check_unit_data,
    read_tables,
    read_unit_data,
    report_words,
)
from rules_run.editions.patching import Declarations
from rules_run.editions.reading import FolderReader, fail, forget_read, raise_errors
from rules_run.editions.registry import MANIFEST, find_edition
from rules_run.editions.ruleset import Origin, Ruleset
from rules_run.lang import ast
from rules_run.lang.checker import check_declarations, forget_checked, report_unused
from rules_run.lang.reuse import resolve_reuses
from rules_run.limits import current as current_limits
from rules_run.paths import PathRefused, named_path, shown

__all__ = ["load_ruleset", "load_edition", "clear_cache"]

_CACHE: dict[Path, tuple[tuple[tuple[str, int, int, int], ...], Ruleset]] = {}


def clear_cache() -> None:
    """Forget every loaded ruleset, data file, parsed chunk and checked declaration (the
    benchmarks use it to time a cold load)."""
    _CACHE.clear()
    forget_read()
    if "rules_run.lang.parser" in sys.modules:   # nothing parsed if it was never imported
        sys.modules["rules_run.lang.parser"].forget_parsed()
    forget_checked()


def load_edition(name: str | Path) -> Ruleset:
    """Find (:func:`find_edition`) and load a ruleset by id, alias or folder."""
    return load_ruleset(find_edition(name))


def load_ruleset(folder: str | Path) -> Ruleset:
    """Load, resolve and check the ruleset in ``folder``.

    Raises:
        LanguageError, PatchError or DataError: with every problem found.
    """
    return _load(Path(folder).resolve(), ())


def _fingerprint(folder: Path) -> tuple[tuple[str, int, int, int], ...]:
    out = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for f in sorted(files):
            p = Path(root, f)
            try:
                st = p.stat()
            except OSError:  # a broken symbolic link: reported if the ruleset names it
                continue
            out.append((str(p), st.st_mtime_ns, st.st_size, generation(p)))
    return tuple(out)


def _load(folder: Path, stack: tuple[Path, ...]) -> Ruleset:
    fingerprint = _fingerprint(folder)
    cached = _CACHE.get(folder)
    if cached is not None and cached[0] == fingerprint:
        base = cached[1].base
        # a base that changed invalidates everything built on it
        if base is None or _load(base.folder, stack + (folder,)) is base:
            return cached[1]
    content = content_hash(folder)
    # spans hold paths as shown from the working directory: an entry is for one
    name = f"{folder}\0{os.getcwd()}"
    key = cache.digest(cache.code_fingerprint(), content, os.getcwd(),
                       ",".join(map(str, current_limits())))
    ruleset = _from_disk(name, key, stack + (folder,))
    if ruleset is None:
        ruleset = _Builder(folder, stack, content).build()
        base = ruleset.base
        cache.write("rulesets", name, key, (base.fingerprint if base else "", ruleset),
                    persistent_id=lambda obj: str(obj.folder) if base is not None and obj is base
                    else None)
    _CACHE[folder] = (fingerprint, ruleset)
    return ruleset


def _from_disk(name: str, key: str, stack: tuple[Path, ...]) -> Ruleset | None:
    """The ruleset the disk cache holds for ``name`` under ``key``, its base loaded (from
    memory, disk or files) in its place; None if there is none, or its base has changed."""
    bases: list[Ruleset] = []

    def base(folder: str) -> Ruleset:
        bases.append(_load(Path(folder), stack))
        return bases[-1]

    entry = cache.read("rulesets", name, key, persistent_load=base)
    if entry is None:
        return None
    base_fingerprint: str = entry[0]
    ruleset: Ruleset = entry[1]
    if bases and bases[0].fingerprint != base_fingerprint:
        return None
    return ruleset


SETTING_TYPES: dict[str, type | tuple[type, ...]] = {
    "bool": bool, "int": int, "number": (int, float), "text": str}
"""The parameter types an attack mode may let a user ``set``, and the values each takes."""

_ROLE_LISTS = ("attacker", "target", "set")
"""The keys of an attack mode that take a name or a list of names."""


def _names(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A name or a list of names, as a tuple."""
    return (value,) if isinstance(value, str) else tuple(value)


class _Builder:
    """Builds one ruleset from its folder's files: the rule files, ``extends`` (its
    base loaded first), its declarations or patch operations
    (:mod:`rules_run.editions.patching`), its data (:mod:`rules_run.editions.contents`),
    checked together."""

    def __init__(self, folder: Path, stack: tuple[Path, ...], content: str) -> None:
        self.folder = folder
        self.stack = stack
        self.content = content
        """The digest of the folder's files (:func:`rules_run.buffers.content_hash`)."""
        self.reader = FolderReader(folder)
        self.bag = self.reader.bag

    # ------------------------------------------------------------ build
    def build(self) -> Ruleset:
        manifest_path = self.folder / MANIFEST
        manifest = self.reader.yaml(manifest_path, "manifest")
        if manifest is None:
            fail(self.bag)
        files = [self.reader.named(f, manifest.span(("rules", i)))
                 for i, f in enumerate(manifest.value["rules"])]
        from rules_run.lang.parser import parse_file   # Lark only when a file is parsed

        parsed = []
        for i, f in enumerate(files):
            if f is None:
                continue
            if not f.exists():
                self.bag.add(
                    f"rule file {manifest.value['rules'][i]!r} does not exist",
                    manifest.span(("rules", i)),
                    code="no-file",
                )
                continue
            parsed.append(parse_file(shown(f), self.bag))
        # with syntax errors, the files (and declarations) that parse are still checked
        unparsed = [name for file in parsed for name in file.unparsed]
        if self.bag.errors and (len(parsed) < len(files) or not parsed
                                or parsed[0].header is None):
            if parsed and parsed[0].header is None and parsed[0].unparsed:
                self.bag.add("the ruleset's header does not parse: the declarations are "
                             "checked once it does (it says what they extend and cite)",
                             code="checked-despite-syntax", severity=Severity.NOTE)
            fail(self.bag)   # a file missing, or no header to check the others by
        header = parsed[0].header
        for later in parsed[1:]:
            if later.header is not None:
                self.bag.add(
                    "only the first rule file of a ruleset has a 'ruleset' header",
                    later.header.span, code="duplicate-header",
                    hint=f"the ruleset's header belongs in {parsed[0].path!r}; remove this one",
                )
        if header is None:
            # at the first declaration (declarations start at column 1), else the file's top
            line = parsed[0].items[0].span.line if parsed[0].items else 1
            self.bag.add(
                "the first rule file must start with: ruleset <id> \"<title>\"",
                Span(parsed[0].path, line, 1), code="missing-header",
                hint=f"add a first line such as: ruleset {self.folder.name} \"<title>\"",
            )
            fail(self.bag)
        if header.id != self.folder.name:
            self.bag.add(
                f"ruleset {header.id!r} is in the folder {self.folder.name!r}; the id must be "
                "the folder's name",
                header.span, code="wrong-id",
                hint=f"write 'ruleset {self.folder.name}', or rename the folder to {header.id!r}",
            )
        base = self.base(header)
        # A patch cites its own seeds first (an unnumbered @ L5 means its first source), and
        # can cite its base's by number.
        sources = tuple(dict.fromkeys(
            [s.file for s in header.sources] + (list(base.sources) if base else [])
        ))
        decls: dict[str, ast.Decl] = dict(base.decls) if base else {}
        rules: dict[str, ast.RuleDecl] = dict(base.rules) if base else {}
        origins: dict[str, Origin] = dict(base.origins) if base else {}
        own_ops: list[ast.PatchOp] = []
        declared = Declarations(decls, rules, origins, header.id, sources, self.bag)
        for file in parsed:
            for item in file.items:
                if isinstance(item, ast.PatchOp):
                    if base is None:
                        self.bag.add(
                            f"'{item.op}' is for patches: this ruleset extends nothing",
                            item.span, code="patch-without-base",
                            hint="write the declaration without it, or add 'extends <id>' "
                            "to the header",
                        )
                        continue
                    own_ops.append(item)
                    declared.apply(item)
                elif base is not None:
                    self.bag.add(
                        f"a patch must say what it does with {item.kind} {item.name!r}",
                        item.span, code="patch-missing-op",
                        hint="start the line with add, override or define",
                    )
                else:
                    declared.declare(item)
        inherited = {key for key, origin in origins.items() if origin.ruleset != header.id}
        if unparsed:
            self.check_despite_syntax(decls, rules, sources, inherited, unparsed)
        resolve_reuses(decls, self.bag)
        attack_modes = self.attack_modes(manifest, decls, base)
        library = self.library(manifest, decls, base)
        usage = check_declarations(
            decls, rules, sources, self.bag, inherited=inherited,
            entry_points={spec[key] for spec in attack_modes.values()
                          for key in ("sequence", "count") if spec.get(key)} | library)
        tables = read_tables(self.reader, decls, origins, header.id, base)
        units = dict(base.units) if base else {}
        equipment = dict(base.equipment) if base else {}
        read_unit_data(self.reader, manifest, units, equipment)
        check_unit_data(self.reader, units, equipment, decls, rules, declared.removed)
        found: list[Path] = []
        for i, rel in enumerate(manifest.value.get("battles", [])):
            battle = self.reader.named(rel, manifest.span(("battles", i)))
            if battle is not None and not battle.exists():
                self.bag.add(f"battle file {rel!r} does not exist",
                             manifest.span(("battles", i)), code="no-file")
            elif battle is not None:
                found.append(battle)
        battles = tuple(found)
        default_battle = manifest.value.get("default_battle")
        default_path: Path | None
        if default_battle:
            default_path = self.reader.named(default_battle, manifest.span(("default_battle",)))
            if default_path is not None and not default_path.exists():
                self.bag.add(f"default battle {default_battle!r} does not exist",
                             manifest.span(("default_battle",)), code="no-file")
        else:
            default_path = battles[0] if battles else (base.default_battle if base else None)
        report = report_words(self.reader, manifest, decls, rules, base, tables)
        raise_errors(self.bag)
        report_unused(decls, usage, self.bag, inherited=inherited,
                      base=base.usage if base else None, ops=own_ops)
        patches = (base.patches if base else ()) + (
            ((header.id, tuple(own_ops)),) if base is not None else ()
        )
        return Ruleset(
            id=header.id,
            title=header.title,
            folder=self.folder,
            chain=(base.chain if base else ()) + (header.id,),
            decls=decls,
            rules=rules,
            origins=origins,
            patches=patches,
            sources=sources,
            tables=tables,
            units=units,
            equipment=equipment,
            battles=battles,
            default_battle=default_path,
            attack_modes=attack_modes,
            default_files=manifest.value.get("default_files",
                                             base.default_files if base else None),
            library=library,
            report=report,
            base=base,
            usage=usage,
            warnings=tuple(self.bag.items),
            fingerprint=cache.digest(self.content, base.fingerprint if base else ""),
        )

    def check_despite_syntax(self, decls: dict[str, ast.Decl], rules: Mapping[str, ast.RuleDecl],
                             sources: tuple[str, ...], inherited: set[str],
                             unparsed: list[str | None]) -> NoReturn:
        """Some declarations do not parse: check the others, leaving out what their absence
        alone would cause (an unknown name that a declaration which does not parse seems to
        declare; every unknown name when one does not show its name, and a note says how
        many were left out), and fail. The data (tables, units, battles) waits until every
        rule file parses."""
        found = self.bag.scratch()
        resolve_reuses(decls, found)
        check_declarations(decls, rules, sources, found, inherited=inherited)
        names = sorted({name for name in unparsed if name is not None})
        unnamed = None in unparsed
        left_out = 0
        for d in found.items:
            unknown = d.code.startswith(("unknown-", "undefined-"))
            if unknown and (unnamed or any(repr(n) in d.message for n in names)):
                left_out += 1
            else:
                self.bag.extend([d])
        if left_out:
            missing = [repr(n) for n in names] + (
                ["a declaration whose name cannot be read"] if unnamed else [])
            what = (missing[0] if len(missing) == 1
                    else ", ".join(missing[:-1]) + f" and {missing[-1]}")
            self.bag.add(
                f"the declarations that parse were checked without {what} (not parsed): "
                f"{left_out} use{'s' if left_out != 1 else ''} of "
                f"{'unknown names' if unnamed else 'it' if len(names) == 1 else 'them'} "
                "not reported; tables, units and battles are checked once every rule file "
                "parses", code="checked-despite-syntax", severity=Severity.NOTE)
        fail(self.bag)

    def library(self, manifest: YamlDocument, decls: Mapping[str, ast.Decl],
                base: Ruleset | None) -> frozenset[str]:
        """The names ``library:`` keeps (with the base's), each checked declared."""
        names = set(base.library) if base else set()
        for i, name in enumerate(manifest.value.get("library") or ()):
            if name not in decls:
                self.bag.add(f"library names {name!r}, which is not declared",
                             manifest.span(("library", i)), code="unknown-name",
                             hint=did_you_mean(name, list(decls)))
            names.add(name)
        return frozenset(names)

    def attack_modes(self, manifest: YamlDocument, decls: Mapping[str, ast.Decl],
                     base: Ruleset | None) -> dict[str, Mapping[str, Any]]:
        """The ``attacks:`` modes, over the base's: each its ``sequence``, ``count``, the
        parameters given the attacker, the target and each weapon, and those a user may
        ``set`` (names normalised to tuples; checked against the declarations)."""
        modes = dict(base.attack_modes) if base else {}
        for mode, spec in (manifest.value.get("attacks") or {}).items():
            for key, kind in (("sequence", "sequence"), ("count", "action")):
                name = spec.get(key)
                if name is not None and getattr(decls.get(name), "kind", None) != kind:
                    self.bag.add(
                        f"attacks.{mode}.{key} names {name!r}, which is not a {kind}",
                        manifest.span(("attacks", mode, key)), code="unknown-name",
                        hint=did_you_mean(name, [n for n, d in decls.items() if d.kind == kind]),
                    )
            normal = {key: (_names(value) if key in _ROLE_LISTS else value)
                      for key, value in spec.items()}
            self.attack_roles(manifest, mode, normal, decls)
            modes[mode] = normal
        return modes

    def attack_roles(self, manifest: YamlDocument, mode: str, spec: Mapping[str, Any],
                     decls: Mapping[str, ast.Decl]) -> None:
        """Each parameter a mode names is one of its sequence's or count's, a parameter it
        ``set``s is of a type a command line can give, and every parameter without a default
        is given (by the attacker, the target, the weapon or a setting)."""
        called = [decl for key in ("sequence", "count")
                  if isinstance(decl := decls.get(spec.get(key, "")),
                                (ast.SequenceDecl, ast.ActionDecl))]
        if not called:  # its sequence is unknown: reported above
            return
        params = {p.name: p for d in called for p in d.params}
        for key in ("attacker", "target", "weapon", "set"):
            written = manifest.value["attacks"][mode].get(key)
            for i, name in enumerate(_names(spec.get(key, ()))):
                where = ("attacks", mode, key) + ((i,) if isinstance(written, list) else ())
                if name not in params:
                    self.bag.add(
                        f"attacks.{mode}.{key} names {name!r}, which is not a parameter of "
                        + " or ".join(repr(d.name) for d in called),
                        manifest.span(where), code="unknown-name",
                        hint=did_you_mean(name, params))
                elif key == "set" and params[name].type not in SETTING_TYPES:
                    self.bag.add(
                        f"attacks.{mode}.set names {name!r}, a parameter of type "
                        f"{params[name].type}: a setting is of type "
                        + ", ".join(SETTING_TYPES),
                        manifest.span(where), code="bad-setting")
        given = {n for key in ("attacker", "target", "weapon", "set")
                 for n in _names(spec.get(key, ()))}
        for d in called:
            for p in d.params:
                if p.default is None and p.name not in given:
                    self.bag.add(
                        f"{d.kind} {d.name!r} needs {p.name!r}, which attacks.{mode} does not "
                        "give", manifest.span(("attacks", mode)), code="unbound-parameter",
                        hint="name it as the mode's attacker, target or weapon, or in its set")

    def base(self, header: ast.Header) -> Ruleset | None:
        if header.extends is None:
            return None
        # A ruleset folder next to this one (a patch under development beside its base, as
        # the bundled rulesets sit side by side), else a bundled id or alias. Never a path
        # relative to the working directory: what 'extends' means must not depend on it.
        sibling = self.folder.parent / header.extends
        try:
            folder = (self.sibling(header) if (sibling / MANIFEST).is_file()
                      else find_edition(header.extends, folders=False))
        except InterpreterError as err:
            neighbours = [p.name for p in self.folder.parent.iterdir()
                          if p != self.folder and (p / MANIFEST).is_file()]
            self.bag.add(
                f"'extends' names {header.extends!r}, which is neither a bundled edition nor "
                f"a ruleset folder next to {self.folder.name!r}",
                header.span, code="unknown-edition",
                hint=did_you_mean(header.extends, neighbours) or err.diagnostics[0].hint,
            )
            raise_errors(self.bag)
        if folder == self.folder or folder in self.stack:
            chain = " -> ".join(p.name for p in self.stack + (self.folder, folder))
            self.bag.add(f"'extends' makes a cycle: {chain}", header.span, code="extends-cycle")
            raise_errors(self.bag)
        try:
            return _load(folder, self.stack + (self.folder,))
        except InterpreterError as err:
            self.bag.add(
                f"the base ruleset {header.extends!r} does not load (its errors follow)",
                header.span, code="bad-base",
            )
            self.bag.extend(err.diagnostics)
            raise_errors(self.bag)
        return None  # unreachable: raise_errors raised

    def sibling(self, header: ast.Header) -> Path:
        """The ruleset folder next to this one that ``extends`` names; a symbolic link
        there may not lead out of the folder both are in (nor of the bundled rulesets)."""
        assert header.extends is not None
        try:
            return named_path(header.extends, self.folder.parent,
                              "the folder the ruleset is in")
        except PathRefused as refused:
            self.bag.add(f"'extends': {refused.message}", header.span, code="refused-path",
                         hint=refused.hint)
            fail(self.bag)

