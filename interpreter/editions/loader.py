"""Load a ruleset folder: manifest, rule files, ``extends``, patches, tables and unit data.

Loading is cached per folder (and invalidated when any file in it changes, on disk or in an
editor's buffer: :mod:`rules_run.buffers`), so a command that runs ten thousand battles
parses and checks each ruleset once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn

from rules_run.buffers import generation, read_text
from rules_run import cache
from rules_run.data.schema import validate
from rules_run.data.tables import load_table
from rules_run.data.yaml_loader import YamlDocument, load_yaml, path_text
from rules_run.diagnostics import (
    DataError,
    DiagnosticBag,
    InterpreterError,
    LanguageError,
    PatchError,
    Span,
    did_you_mean,
)
from rules_run.editions.registry import MANIFEST, find_edition
from rules_run.editions.ruleset import Origin, Ruleset
from rules_run.lang import ast
from rules_run.lang.checker import (
    check_declarations,
    forget_checked,
    report_unused,
    rule_reference_problem,
)
from rules_run.lang.parser import forget_parsed, parse_file
from rules_run.lang.reuse import resolve_reuses
from rules_run.lang.walk import walk
from rules_run.limits import current as current_limits
from rules_run.paths import PathRefused, named_path, shown

__all__ = ["load_ruleset", "load_edition", "clear_cache", "apply_patch_op"]

_CACHE: dict[Path, tuple[tuple[tuple[str, int, int, int], ...], Ruleset]] = {}


def clear_cache() -> None:
    """Forget every loaded ruleset, data file, parsed chunk and checked declaration (the
    benchmarks use it to time a cold load)."""
    _CACHE.clear()
    _DATA_CACHE.clear()
    forget_parsed()
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
    content = cache.content_hash(folder)
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
    base_fingerprint, ruleset = entry
    if bases and bases[0].fingerprint != base_fingerprint:
        return None
    return ruleset




_DATA_CACHE: dict[tuple, Any] = {}
"""(what, file, its text) -> what was made of it: YAML files are read and checked once per
text, so re-checking a ruleset after an edit to one file reads only that file again."""
_DATA_CACHE_SIZE = 2_000


def _by_text(what: tuple, path: Path, make: Callable[[str | None], Any]) -> Any:
    """``make(text)`` for ``path``'s text, remembered for that text. ``make(None)`` (which
    reads the file and reports why it cannot) when the file cannot be read."""
    try:
        text = read_text(path)
    except (OSError, UnicodeError):
        return make(None)
    key = (what, shown(path), text)
    if key not in _DATA_CACHE:
        if len(_DATA_CACHE) >= _DATA_CACHE_SIZE:
            _DATA_CACHE.clear()
        _DATA_CACHE[key] = make(text)
    return _DATA_CACHE[key]


def _raise(bag: DiagnosticBag) -> None:
    """Raise :func:`_fail`'s error if ``bag`` holds an error."""
    if bag.errors:
        _fail(bag)


def _fail(bag: DiagnosticBag) -> NoReturn:
    """Raise the error that fits ``bag``'s errors: a PatchError for a patch's, a DataError
    when all are in YAML files, else a LanguageError."""
    errors = bag.errors
    codes = {d.code for d in errors}
    if any(c.startswith("patch-") for c in codes):
        raise PatchError(bag.items)
    if all(d.span is not None and d.span.path.endswith((".yaml", ".yml")) for d in errors):
        raise DataError(bag.items)
    raise LanguageError(bag.items)


def _a(word: str) -> str:
    """``a test``, ``an action``."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"


SETTING_TYPES: dict[str, type | tuple[type, ...]] = {
    "bool": bool, "int": int, "number": (int, float), "text": str}
"""The parameter types an attack mode may let a user ``set``, and the values each takes."""

_ROLE_LISTS = ("attacker", "target", "set")
"""The keys of an attack mode that take a name or a list of names."""


def _names(value: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """A name or a list of names, as a tuple."""
    return (value,) if isinstance(value, str) else tuple(value)


def _origin_key(kind: str, name: str) -> str:
    """The key :attr:`Ruleset.origins` uses: the name, or ``rule:<name>`` for a rule."""
    return f"rule:{name}" if kind == "rule" else name


def apply_patch_op(op: ast.PatchOp, decls: dict[str, ast.Decl], rules: dict[str, ast.RuleDecl],
                   origins: dict[str, Origin], ruleset_id: str, sources: tuple[str, ...]) -> None:
    """Apply one patch operation in place: ``add``, ``override`` or ``define`` put the
    operation's declaration under its name, ``remove`` takes the name away; ``origins``
    records that the patch ``ruleset_id`` did it, with the operation's citation as
    ``sources`` (the patch's) resolve it.

    It does not check that the operation fits what it applies to (``add`` something new,
    ``override`` or ``remove`` something there, of the same kind): the loader checks that
    before it applies each operation of a patch; rules-diff applies operations to the
    patch's base a few at a time (:mod:`rules_run.diff.steps`).
    """
    if op.decl is None:
        (rules if op.kind == "rule" else decls).pop(op.name, None)
    elif isinstance(op.decl, ast.RuleDecl):
        rules[op.name] = op.decl
    elif isinstance(op.decl, ast.ClausePatch):
        base = decls[op.name]
        assert isinstance(base, ast.RollDecl), "the loader checks the kind first"
        decls[op.name] = op.decl.applied_to(base)
    else:
        decls[op.name] = op.decl
    origins[_origin_key(op.kind, op.name)] = Origin(
        ruleset_id, op.cite.text(sources) if op.cite else "", op.op
    )


class _Builder:
    def __init__(self, folder: Path, stack: tuple[Path, ...], content: str) -> None:
        self.folder = folder
        self.stack = stack
        self.content = content
        """The digest of the folder's files (:func:`rules_run.cache.content_hash`)."""
        self.bag = DiagnosticBag()
        self.removed: dict[str, ast.PatchOp] = {}
        """This patch's ``remove`` operations, by key (``rule:<name>`` for rules)."""

    def named(self, rel: str, span: Span | None) -> Path | None:
        """The file at ``rel``, relative to the ruleset folder (:func:`named_path`), or
        None when it leads outside (reported at ``span``)."""
        try:
            return named_path(rel, self.folder, "the ruleset folder")
        except PathRefused as refused:
            self.bag.add(refused.message, span, code="refused-path", hint=refused.hint)
            return None

    def yaml(self, path: Path, schema: str) -> YamlDocument | None:
        def check(text: str | None) -> tuple[YamlDocument | None, list]:
            try:
                doc = load_yaml(shown(path), text)
            except DataError as err:
                return None, err.diagnostics
            return doc, validate(doc, schema)

        doc, problems = _by_text(("yaml", schema), path, check)
        self.bag.extend(problems)
        if doc is None:
            return None
        self.bag.remember_source(doc.path, doc.text)
        return None if problems else doc

    # ------------------------------------------------------------ build
    def build(self) -> Ruleset:
        # only here: lark, which it needs, is slow to import, and a ruleset in the disk
        # cache is never parsed
        from rules_run.lang.parser import parse_file

        manifest_path = self.folder / MANIFEST
        manifest = self.yaml(manifest_path, "manifest")
        if manifest is None:
            _fail(self.bag)
        files = [self.named(f, manifest.span(("rules", i)))
                 for i, f in enumerate(manifest.value["rules"])]
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
        _raise(self.bag)
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
            _fail(self.bag)
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
                    self.apply(item, decls, rules, origins, header.id, sources)
                elif base is not None:
                    self.bag.add(
                        f"a patch must say what it does with {item.kind} {item.name!r}",
                        item.span, code="patch-missing-op",
                        hint="start the line with add, override or define",
                    )
                else:
                    self.declare(item, decls, rules, origins, header.id, sources)
        resolve_reuses(decls, self.bag)
        inherited = {key for key, origin in origins.items() if origin.ruleset != header.id}
        attack_modes = self.attack_modes(manifest, decls, base)
        library = self.library(manifest, decls, base)
        usage = check_declarations(
            decls, rules, sources, self.bag, inherited=inherited,
            entry_points={spec[key] for spec in attack_modes.values()
                          for key in ("sequence", "count") if spec.get(key)} | library)
        tables = self.tables(decls, origins, header.id, base)
        units = dict(base.units) if base else {}
        equipment = dict(base.equipment) if base else {}
        self.unit_data(manifest, units, equipment)
        self.check_unit_data(units, equipment, decls, rules)
        found: list[Path] = []
        for i, rel in enumerate(manifest.value.get("battles", [])):
            battle = self.named(rel, manifest.span(("battles", i)))
            if battle is not None and not battle.exists():
                self.bag.add(f"battle file {rel!r} does not exist",
                             manifest.span(("battles", i)), code="no-file")
            elif battle is not None:
                found.append(battle)
        battles = tuple(found)
        default_battle = manifest.value.get("default_battle")
        default_path: Path | None
        if default_battle:
            default_path = self.named(default_battle, manifest.span(("default_battle",)))
            if default_path is not None and not default_path.exists():
                self.bag.add(f"default battle {default_battle!r} does not exist",
                             manifest.span(("default_battle",)), code="no-file")
        else:
            default_path = battles[0] if battles else (base.default_battle if base else None)
        report = self.report(manifest, decls, rules, base)
        _raise(self.bag)
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
            library=library,
            report=report,
            base=base,
            usage=usage,
            warnings=tuple(self.bag.items),
            fingerprint=cache.digest(self.content, base.fingerprint if base else ""),
        )

    def library(self, manifest: YamlDocument, decls, base) -> frozenset[str]:
        names = set(base.library) if base else set()
        for i, name in enumerate(manifest.value.get("library") or ()):
            if name not in decls:
                self.bag.add(f"library names {name!r}, which is not declared",
                             manifest.span(("library", i)), code="unknown-name",
                             hint=did_you_mean(name, list(decls)))
            names.add(name)
        return frozenset(names)

    def report(self, manifest: YamlDocument, decls, rules, base) -> dict[str, dict[str, str]]:
        """The battle report's words: the base's, then this ruleset's ``report:`` file,
        each entry checked against what the ruleset declares."""
        out: dict[str, dict[str, str]] = {k: dict(v) for k, v in base.report.items()
                                          } if base else {}
        rel = manifest.value.get("report")
        if rel is None:
            return out
        if not (self.folder / rel).is_file():
            self.bag.add(f"report file {rel!r} does not exist", manifest.span(("report",)),
                         code="no-file")
            return out
        doc = self.yaml(self.folder / rel, "report")
        if doc is None:
            return out
        logs: dict[str, int] = {}
        words: set[str] = set()
        """The words the rules write as text ("fireball"): names may name them too."""
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
                    what, choices = "log message", list(logs)
                else:
                    decl = decls.get(key)
                    wanted = kinds.get(section)
                    known = (decl is not None and (wanted is None or decl.kind in wanted)
                             or wanted is None and key in words)
                    what = ("declaration" if wanted is None else " or ".join(wanted))
                    choices = [n for n, d in decls.items() if wanted is None or d.kind in wanted]
                    allowed = ({p.name for p in getattr(decl, "params", ())}
                               | {"unit", "other", "side", "choice"})
                if not known:
                    self.bag.add(f"{section}: {key!r} is not a {what} of the ruleset",
                                 doc.key_span(where), code="unknown-name",
                                 hint=did_you_mean(key, choices))
                    continue
                for field in _placeholders(phrase):
                    if field not in allowed:
                        self.bag.add(
                            f"{section}.{key}: the phrase names {{{field}}}, which it is not "
                            "given", doc.span(where), code="unknown-placeholder",
                            hint=did_you_mean(field, sorted(allowed))
                            or "it is given: " + ", ".join("{" + a + "}" for a in sorted(allowed)))
                out.setdefault(section, {})[key] = phrase
        return out

    def attack_modes(self, manifest: YamlDocument, decls, base) -> dict:
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
            modes[mode] = {key: (_names(value) if key in _ROLE_LISTS else value)
                           for key, value in spec.items()}
            self.attack_roles(manifest, mode, modes[mode], decls)
        return modes

    def attack_roles(self, manifest: YamlDocument, mode: str, spec: dict, decls) -> None:
        """Each parameter a mode names is one of its sequence's or count's, a parameter it
        ``set``s is of a type a command line can give, and every parameter without a default
        is given (by the attacker, the target, the weapon or a setting)."""
        called = [decls[spec[key]] for key in ("sequence", "count")
                  if isinstance(decls.get(spec.get(key)), (ast.SequenceDecl, ast.ActionDecl))]
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
            _raise(self.bag)
        if folder == self.folder or folder in self.stack:
            chain = " -> ".join(p.name for p in self.stack + (self.folder, folder))
            self.bag.add(f"'extends' makes a cycle: {chain}", header.span, code="extends-cycle")
            _raise(self.bag)
        try:
            return _load(folder, self.stack + (self.folder,))
        except InterpreterError as err:
            self.bag.add(
                f"the base ruleset {header.extends!r} does not load (its errors follow)",
                header.span, code="bad-base",
            )
            self.bag.extend(err.diagnostics)
            _raise(self.bag)
        return None  # unreachable: _raise raised

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
            _fail(self.bag)

    # ------------------------------------------------------------ declarations and patches
    def declare(self, d, decls, rules, origins, ruleset_id, sources) -> None:
        space = rules if d.kind == "rule" else decls
        existing = space.get(d.name)
        if existing is not None:
            first = (f"line {existing.span.line}" if existing.span.path == d.span.path
                     else existing.span.text())
            self.bag.add(
                f"{d.kind} {d.name!r} is declared twice (first at {first})",
                d.span, code="duplicate-declaration",
                hint="remove one, or give them different names",
            )
            return
        space[d.name] = d
        origins[_origin_key(d.kind, d.name)] = Origin(
            ruleset_id, d.cite.text(sources) if d.cite else "", "declare"
        )

    def apply(self, op: ast.PatchOp, decls, rules, origins, ruleset_id, sources) -> None:
        space = rules if op.kind == "rule" else decls
        existing = space.get(op.name)
        what = f"{op.kind} {op.name!r}"
        if existing is not None and existing.kind != op.kind:
            self.bag.add(
                f"{op.op}: {op.name!r} is {_a(existing.kind)}, not {_a(op.kind)}",
                op.span, code="patch-wrong-kind",
                hint=f"{op.name!r} is declared at {existing.span.text()}",
            )
            return
        if op.op == "add" and existing is not None:
            self.bag.add(
                f"add: {what} already exists (declared at {existing.span.text()})",
                op.span, code="patch-add-existing",
                hint="use 'override' to replace it, or 'define' to add or replace",
            )
            return
        if op.op in ("override", "remove") and existing is None:
            same_kind = [n for n, d in space.items() if d.kind == op.kind]
            self.bag.add(
                f"{op.op}: there is no {what} to {op.op}",
                op.span, code=f"patch-{op.op}-missing",
                hint=did_you_mean(op.name, same_kind) or
                ("use 'add' for something new" if op.op == "override" else None),
            )
            return
        if op.op == "remove":
            self.removed[_origin_key(op.kind, op.name)] = op
        if (isinstance(op.decl, ast.ClausePatch) and isinstance(existing, ast.RollDecl)
                and existing.reuses is not None):
            self.bag.add(f"override: {what} reuses {existing.reuses.name!r}, so its clauses are "
                         "that declaration's", op.span, code="patch-clause-missing",
                         hint=f"change the clauses of {existing.reuses.name!r}, or override "
                         f"{op.name!r} whole")
            return
        if isinstance(op.decl, ast.ClausePatch) and isinstance(existing, ast.RollDecl):
            for n in op.decl.missing(existing):
                self.bag.add(f"override: {what} has no clause '{n.text()}' to remove", n.span,
                             code="patch-clause-missing",
                             hint="its natural clauses: " + (
                                 "; ".join(m.text() for m in existing.naturals) or "none"))
        apply_patch_op(op, decls, rules, origins, ruleset_id, sources)

    # ------------------------------------------------------------ data
    def tables(self, decls, origins, ruleset_id, base) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, d in decls.items():
            if not isinstance(d, ast.TableDecl):
                continue
            if base is not None and origins[name].ruleset != ruleset_id and name in base.tables:
                out[name] = base.tables[name]
                continue
            path = self.named(d.file, d.span)
            if path is None:
                continue
            if not path.exists():
                self.bag.add(f"table {name!r} reads {d.file!r}, which does not exist",
                             d.span, code="no-file",
                             hint="the file is named relative to the ruleset folder "
                             f"{shown(self.folder)!r}")
                continue
            def read(text: str | None, name: str = name, path: Path = path):
                try:
                    return load_table(shown(path), name, text=text), []
                except DataError as err:
                    return None, err.diagnostics

            table, problems = _by_text(("table", name), path, read)
            if table is None:
                self.bag.extend(problems)
                continue
            if tuple(table.keys) != d.keys:
                self.bag.add(
                    f"table {name!r} is declared with keys ({', '.join(d.keys)}) but "
                    f"{d.file!r} has keys ({', '.join(table.keys)})",
                    d.span, code="table-keys",
                )
            out[name] = table
        return out

    def unit_data(self, manifest: YamlDocument, units: dict, equipment: dict) -> None:
        for key, schema, target in (("units", "units", units), ("equipment", "equipment",
                                                                  equipment)):
            for i, rel in enumerate(manifest.value.get(key, [])):
                path = self.named(rel, manifest.span((key, i)))
                if path is None:
                    continue
                if not path.exists():
                    self.bag.add(f"{key} file {rel!r} does not exist",
                                 manifest.span((key, i)), code="no-file")
                    continue
                doc = self.yaml(path, schema)
                if doc is None:
                    continue
                if key == "units":
                    stem = Path(rel).stem
                    for pid, profile in doc.value["units"].items():
                        target[f"{stem}/{pid}"] = _Located(profile, doc, ("units", pid))
                else:
                    for item_id, item in doc.value["items"].items():
                        if item_id in target:
                            self.bag.add(f"equipment {item_id!r} is defined twice",
                                         doc.key_span(("items", item_id)),
                                         code="duplicate-declaration")
                        target[item_id] = _Located(item, doc, ("items", item_id))

    def check_unit_data(self, units, equipment, decls, rules) -> None:
        declared = {n: d for n, d in decls.items() if isinstance(d, ast.CharacteristicDecl)}
        characteristics = list(declared)
        # Data a patch inherits is checked again: the patch may have removed or changed a
        # rule, a characteristic or an equipment item it names. (Nothing is marked on the
        # shared objects: the base ruleset is never changed.)
        for located in list(units.values()) + list(equipment.values()):
            if not isinstance(located, _Located):
                continue
            self.bag.remember_source(located.doc.path, located.doc.text)
            self.check_rule_refs(located, rules, decls)
            for path, profile in located.profiles():
                for name, value in profile.items():
                    problem = (declared[name].range_problem(value)
                               if name in declared and path[-1] != "modifies" else None)
                    if problem is not None:
                        self.bag.add(problem, located.doc.span(path + (name,)),
                                     code="out-of-range")
                    if name not in characteristics:
                        self.bag.add(
                            f"unknown characteristic {name!r} in {path_text(path)}",
                            located.doc.key_span(path + (name,)),
                            code="unknown-characteristic",
                            hint=did_you_mean(name, characteristics)
                            or "the characteristics are " + ", ".join(characteristics),
                        )
            for i, item in enumerate(located.value.get("equipment", [])):
                if item not in equipment:
                    self.bag.add(
                        f"unknown equipment {item!r}",
                        located.doc.span(located.path + ("equipment", i)),
                        code="unknown-equipment",
                        hint=did_you_mean(item, equipment),
                    )

    def check_rule_refs(self, located: _Located, rules, decls) -> None:
        def removed(name: str) -> str | None:
            removal = self.removed.get(f"rule:{name}")
            return f"the patch removes it at {removal.span.text()}" if removal else None

        for path, text in located.rule_refs():
            problem = rule_reference_problem(text, rules, removed)
            if problem is not None:
                code, message, hint = problem
                self.bag.add(message, located.doc.span(path), code=code, hint=hint)


def _placeholders(phrase: str) -> list[str]:
    """The fields a report phrase names: ``{unit}``, ``{2}``, ``{flag?yes|no}``."""
    return [m.split("?", 1)[0] for m in re.findall(r"\{([^{}]*)\}", phrase)]


class _Located(dict):
    """A unit profile or equipment item, remembering the document it came from."""

    def __init__(self, value: dict, doc: YamlDocument, path: tuple) -> None:
        super().__init__(value)
        self.value = value
        self.doc = doc
        self.path = path

    def span(self, *path) -> Span:
        return self.doc.span(self.path + tuple(path))

    def profiles(self) -> Iterable[tuple[tuple, dict]]:
        """Every characteristic map inside (the profile, weapons', command's, parts')."""
        v = self.value
        if isinstance(v.get("profile"), dict):
            yield self.path + ("profile",), v["profile"]
        for group in ("weapons", "command", "parts"):
            for key, sub in (v.get(group) or {}).items():
                if isinstance(sub, dict) and isinstance(sub.get("profile"), dict):
                    yield self.path + (group, key, "profile"), sub["profile"]
        if isinstance(v.get("modifies"), dict):
            yield self.path + ("modifies",), v["modifies"]

    def rule_refs(self) -> Iterable[tuple[tuple, str]]:
        v = self.value
        for i, r in enumerate(v.get("rules", []) or []):
            yield self.path + ("rules", i), r
        for group in ("weapons", "parts"):
            for key, sub in (v.get(group) or {}).items():
                if isinstance(sub, dict):
                    for i, r in enumerate(sub.get("rules", []) or []):
                        yield self.path + (group, key, "rules", i), r
