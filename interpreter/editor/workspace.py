"""What the language server knows, without the protocol: the files open in an editor, the
rulesets they belong to, and the answers to an editor's questions (diagnostics, hover,
definitions, references, completion, outline).

Positions are 1-based lines and columns, as diagnostics give them; paths are as the
checker shows them (relative to the working directory) or absolute, and every answer is
keyed by absolute path. The server (:mod:`rules_run.editor.server`) converts to and from
the protocol's 0-based positions and URIs.

What is re-done after an edit: the ruleset the file belongs to is loaded again, which
re-parses only the chunks of rule files that changed, re-reads only the YAML files that
changed and re-checks only the declarations that changed or read one that did (the
parser's, the loader's and the checker's caches). Its bundled battles are checked when a
file is opened or saved, not on every keystroke (they need the ruleset compiled).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from rules_run import buffers, slotted
from rules_run.buffers import read_text
from rules_run.data.yaml_loader import load_yaml
from rules_run.diagnostics import Diagnostic, DiagnosticBag, InterpreterError, Span
from rules_run.editions.loader import load_ruleset
from rules_run.editions.patching import apply_patch_op
from rules_run.editions.registry import MANIFEST, find_edition
from rules_run.editions.ruleset import Origin, Ruleset
from rules_run.editor.index import Index, rule_key
from rules_run.lang import ast
from rules_run.lang.builtins import BUILTIN_FUNCTIONS, BUILTIN_NAMES, UNIT_PROPERTIES
from rules_run.lang.parser import grammar_parser, parse_rules
from rules_run.paths import shown

__all__ = ["Workspace", "Completion", "Symbol", "SOURCES_VARIABLE"]

SOURCES_VARIABLE = "RULES_RUN_SOURCES"
"""The environment variable naming the folder of the user's own copy of the sources (the
seed files citations name); hover then shows the cited lines."""

_DATA_KINDS = frozenset({"ruleset", "units", "equipment", "table"})
_LINES = re.compile(r"L(\d+)(?:-L(\d+))?")
_CITED_LINES_SHOWN = 8


@slotted.frozen
class Completion:
    """One completion candidate."""

    label: str
    kind: str
    """What it is: a declaration kind (``test``, ``rule``, ...), ``keyword``, ``builtin``,
    ``property``, ``profile`` or ``equipment``."""
    detail: str = ""


@slotted.frozen
class Symbol:
    """One entry of a rule file's outline."""

    name: str
    kind: str
    """The declaration kind, or ``ruleset`` for the header."""
    span: Span
    """The whole declaration."""
    name_span: Span
    """Its name."""
    detail: str = ""
    """How a patch applies it (``override``, ...), else empty."""


def _absolute(path: str | os.PathLike) -> str:
    return os.path.abspath(path)


class Workspace:
    """The editor's files and the rulesets they belong to."""

    def __init__(self, sources: str | os.PathLike | None = None) -> None:
        found = sources if sources is not None else os.environ.get(SOURCES_VARIABLE)
        self.sources = Path(found).expanduser() if found else None
        """The folder of the user's copy of the cited sources, if any."""
        self._good: dict[Path, Ruleset] = {}
        """The last ruleset each folder loaded without error (for navigation while the
        current text does not check; only these are compiled, for exact chances)."""
        self._indexes: dict[int, tuple[Ruleset, Index]] = {}
        self._published: dict[str, set[str]] = {}
        """What each check published diagnostics for: the paths to clear next time."""

    # ------------------------------------------------------------ documents
    def set_text(self, path: str | os.PathLike, text: str) -> None:
        """An editor opened or changed ``path``: read ``text`` for it from now on."""
        buffers.set_buffer(path, text)

    def close(self, path: str | os.PathLike) -> None:
        """An editor closed ``path``: read it from disk again."""
        buffers.drop_buffer(path)

    # ------------------------------------------------------------ what a file belongs to
    def folder_of(self, path: str | os.PathLike) -> Path | None:
        """The ruleset folder ``path`` is in (the nearest with an index.yaml), if any."""
        for parent in Path(_absolute(path)).parents:
            if (parent / MANIFEST).is_file():
                return parent
        return None

    def _yaml_kind(self, path: str) -> tuple[str | None, object]:
        """A YAML file's ``kind:`` and its ``edition:``, when it loads."""
        try:
            value = load_yaml(shown(path)).value
        except InterpreterError:
            return None, None
        if not isinstance(value, dict):
            return None, None
        return value.get("kind"), value.get("edition")

    def is_battle(self, path: str | os.PathLike) -> bool:
        """Whether ``path`` is a battle file (a YAML file of no data kind)."""
        if not str(path).endswith((".yaml", ".yml")) or Path(path).name == MANIFEST:
            return False
        kind, _ = self._yaml_kind(str(path))
        return kind not in _DATA_KINDS

    def ruleset_for(self, path: str | os.PathLike) -> Ruleset | None:
        """The ruleset a file works with: its folder's (a battle file: the edition it
        names). When the current text does not check, the last version that did, else a
        best-effort reading (:meth:`best_effort`), so that navigation still works."""
        folder = self._battle_folder(path) if self.is_battle(path) else self.folder_of(path)
        if folder is None:
            return None
        try:
            ruleset = load_ruleset(folder)
        except InterpreterError:
            return self._good.get(folder) or self.best_effort(folder)
        self._good[folder] = ruleset
        return ruleset

    def best_effort(self, folder: Path, depth: int = 0) -> Ruleset | None:
        """A ruleset that does not check, read as far as it goes: its base (loaded, or read
        the same way), then every declaration that parses, patch operations applied as
        written. For navigation only: nothing of it runs."""
        try:
            manifest = load_yaml(shown(folder / MANIFEST)).value
            names = [n for n in manifest.get("rules") or [] if isinstance(n, str)]
        except (InterpreterError, AttributeError):
            return None
        files = [parse_rules(read_text(folder / n), shown(folder / n), DiagnosticBag())
                 for n in names if (folder / n).is_file()]
        header = next((f.header for f in files if f.header is not None), None)
        if header is None:
            return None
        base = self._base_of(folder, header.extends, depth) if header.extends else None
        sources = tuple(dict.fromkeys([s.file for s in header.sources]
                                      + list(base.sources if base else ())))
        decls = dict(base.decls) if base else {}
        rules = dict(base.rules) if base else {}
        origins = dict(base.origins) if base else {}
        for item in (i for f in files for i in f.items):
            if isinstance(item, ast.PatchOp):
                apply_patch_op(item, decls, rules, origins, header.id, sources)
            else:
                key = rule_key(item.name) if isinstance(item, ast.RuleDecl) else item.name
                if key in origins and origins[key].ruleset == header.id:
                    continue   # declared twice: the first one counts, as for the loader
                if isinstance(item, ast.RuleDecl):
                    rules[item.name] = item
                else:
                    decls[item.name] = item
                origins[key] = Origin(header.id, item.cite.text(sources) if item.cite else "",
                                      "declare")
        return Ruleset(id=header.id, title=header.title, folder=folder,
                       chain=(base.chain if base else ()) + (header.id,), decls=decls,
                       rules=rules, origins=origins, patches=(), sources=sources,
                       tables={}, units=dict(base.units) if base else {},
                       equipment=dict(base.equipment) if base else {}, battles=(),
                       default_battle=None, base=base)

    def _base_of(self, folder: Path, extends: str, depth: int) -> Ruleset | None:
        sibling = folder.parent / extends
        try:
            found = sibling if (sibling / MANIFEST).is_file() else find_edition(
                extends, folders=False)
        except InterpreterError:
            return None
        try:
            return load_ruleset(found)
        except InterpreterError:
            return self.best_effort(found, depth + 1) if depth < 8 else None

    def _battle_folder(self, path: str | os.PathLike) -> Path | None:
        _, edition = self._yaml_kind(str(path))
        if isinstance(edition, str):
            try:
                return find_edition(edition)
            except InterpreterError:
                return None
        return self.folder_of(path)

    def index(self, ruleset: Ruleset) -> Index:
        """The names of ``ruleset`` (built once per loaded ruleset)."""
        cached = self._indexes.get(id(ruleset))
        if cached is None or cached[0] is not ruleset:
            self._indexes = {k: v for k, v in self._indexes.items()
                             if v[0].folder != ruleset.folder}
            cached = self._indexes[id(ruleset)] = (ruleset, Index(ruleset))
        return cached[1]

    # ------------------------------------------------------------ diagnostics
    def check(self, path: str | os.PathLike, *, battles: bool = False
              ) -> dict[str, list[Diagnostic]]:
        """Check what ``path`` belongs to: its ruleset (with its ``extends`` chain), or a
        battle file against its edition. With ``battles``, a ruleset's bundled battles
        are checked too, as rules-check does.

        Returns:
            Diagnostics by absolute path: every file with a problem, and an empty list for
            each file that had some at the last check of the same target and has none now.
        """
        absolute = _absolute(path)
        if self.is_battle(absolute):
            if self._yaml_kind(absolute)[1] is None and self.folder_of(absolute) is None:
                return {}   # no edition and in no ruleset: a YAML file of some other tool
            target, found = absolute, self._check_battle(absolute, None)
        else:
            folder = self.folder_of(absolute)
            if folder is None:
                return {}
            target, found = str(folder), self._check_ruleset(folder, battles)
        by_path: dict[str, list[Diagnostic]] = {}
        for d in found:
            where = _absolute(d.span.path) if d.span is not None else absolute
            by_path.setdefault(where, []).append(d)
        for stale in self._published.get(target, set()) - set(by_path):
            by_path[stale] = []
        self._published[target] = {p for p, ds in by_path.items() if ds}
        return by_path

    def _check_ruleset(self, folder: Path, battles: bool) -> list[Diagnostic]:
        try:
            ruleset = load_ruleset(folder)
        except InterpreterError as err:
            return list(err.diagnostics)
        self._good[folder] = ruleset
        found = list(ruleset.warnings)
        if battles:
            for battle in ruleset.battles:
                found.extend(self._check_battle(str(battle), str(ruleset.folder)))
        return found

    def _check_battle(self, path: str, edition: str | None) -> list[Diagnostic]:
        from rules_run.engine.front import open_battle

        if edition is None:
            _, named = self._yaml_kind(path)
            if not isinstance(named, str):
                folder = self.folder_of(path)
                edition = str(folder) if folder is not None else None
        try:
            open_battle(edition, shown(path))
        except InterpreterError as err:
            return list(err.diagnostics)
        return []

    # ------------------------------------------------------------ navigation
    def _key_at(self, path: str, line: int, column: int) -> tuple[Index, str] | None:
        ruleset = self.ruleset_for(path)
        if ruleset is None:
            return None
        index = self.index(ruleset)
        key = index.key_at(shown(path), line, column)
        return (index, key) if key is not None else None

    def definition(self, path: str, line: int, column: int) -> list[Span]:
        """Where the name at a position is declared: the declaration in force, then the
        ones it overrides down the ``extends`` chain."""
        found = self._key_at(path, line, column)
        return list(found[0].definitions.get(found[1], [])) if found else []

    def references(self, path: str, line: int, column: int, *,
                   declaration: bool = True) -> list[Span]:
        """Every use of the name at a position, in rule files and unit data (with its
        declarations first, when ``declaration``)."""
        found = self._key_at(path, line, column)
        if found is None:
            return []
        index, key = found
        return ((index.definitions.get(key, []) if declaration else [])
                + index.references.get(key, []))

    # ------------------------------------------------------------ hover
    def hover(self, path: str, line: int, column: int) -> str | None:
        """Markdown about the name at a position: its signature, doc comment, citation
        (and the cited lines, with a sources folder), and for a roll or test without
        parameters its exact outcome."""
        found = self._key_at(path, line, column)
        if found is None:
            return None
        index, key = found
        decl = index.declarations[key]
        ruleset = index.ruleset
        parts = ["```rules\n" + _signature(decl) + "\n```"]
        doc = _doc_comment(decl.span)
        if doc:
            parts.append(doc)
        origin = ruleset.origins.get(key)
        if origin is not None:
            how = {"declare": "declared in", "add": "added by", "override": "overridden by",
                   "define": "defined by"}.get(origin.op, origin.op)
            cite = f"cites `{origin.cite}`" if origin.cite else "cites nothing"
            parts.append(f"*{how} {origin.ruleset}*: {cite}")
            cited = self._cited_lines(origin.cite)
            if cited:
                parts.append(cited)
        if isinstance(decl, ast.RollDecl) and not decl.params and self._good.get(ruleset.folder) is ruleset:
            chance = _exact_outcome(ruleset, decl)
            if chance:
                parts.append(chance)
        return "\n\n".join(parts)

    def _cited_lines(self, cite: str) -> str | None:
        """The lines a citation (``000_c43...txt L418, L420-L421``, as a ruleset's origins
        give it) names, from the user's copy of the source, as a markdown quote."""
        m = re.match(r"\s*(\S+\.txt)\s+(.*)", cite)
        if self.sources is None or m is None or not (self.sources / m.group(1)).is_file():
            return None
        text = (self.sources / m.group(1)).read_text(encoding="utf-8",
                                                     errors="replace").splitlines()
        shown_lines: list[str] = []
        for a, b in _LINES.findall(m.group(2)):
            first, last = int(a), int(b or a)
            shown_lines.extend(f"> L{n}: {text[n - 1].strip()}" for n in
                               range(first, min(last, first + _CITED_LINES_SHOWN - 1) + 1)
                               if 0 < n <= len(text))
            if last >= first + _CITED_LINES_SHOWN:
                shown_lines.append(f"> (to L{last})")
        return "\n>\n".join(shown_lines) if shown_lines else None

    # ------------------------------------------------------------ completion
    def completion(self, path: str, line: int, column: int) -> list[Completion]:
        """What may be written at a position: in a rule file, declared names, keywords,
        builtins and characteristics (after ``.``), rule names (inside quotes); in YAML,
        rule names, characteristics, unit profiles (after ``profile:``) and equipment."""
        ruleset = self.ruleset_for(path)
        if ruleset is None:
            return []
        try:
            lines = read_text(path).splitlines()
        except (OSError, UnicodeError):
            return []
        text = lines[line - 1] if 1 <= line <= len(lines) else ""
        before = text[: column - 1]
        prefix = re.search(r"[A-Za-z0-9_]*$", before)
        start = prefix.group() if prefix else ""
        rules = [Completion(name, "rule", _first_line(rule.span)) for name, rule
                 in sorted(ruleset.rules.items())]
        characteristics = [Completion(d.name, "characteristic", f"{d.entity} {d.type}")
                           for d in ruleset.characteristics()]
        if str(path).endswith((".yaml", ".yml")):
            if re.search(r"profile:\s*\S*$", before):
                return [Completion(p, "profile", str(u.get("name", "")))
                        for p, u in sorted(ruleset.units.items())]
            if re.search(r"equipment:", before):
                return [Completion(e, "equipment", str(i.get("name", "")))
                        for e, i in sorted(ruleset.equipment.items())]
            return rules + characteristics
        if before.count('"') % 2 == 1:
            return rules
        if re.search(r"\.[A-Za-z0-9_]*$", before):
            return characteristics + [Completion(n, "property", doc)
                                      for n, doc in sorted(UNIT_PROPERTIES.items())]
        out = [Completion(n, d.kind, _first_line(d.span)) for n, d in sorted(ruleset.decls.items())
               if not isinstance(d, ast.CharacteristicDecl)]
        out += characteristics
        out += [Completion(n, "builtin", b.doc) for n, b in sorted(BUILTIN_FUNCTIONS.items())]
        out += [Completion(n, "builtin", doc) for n, doc in sorted(BUILTIN_NAMES.items())]
        out += [Completion(k, "keyword") for k in keywords()]
        return [c for c in out if c.label.startswith(start)]

    # ------------------------------------------------------------ outline
    def symbols(self, path: str) -> list[Symbol]:
        """The declarations of a rule file, in order (its header first)."""
        try:
            text = read_text(path)
        except (OSError, UnicodeError):
            return []
        parsed = parse_rules(text, shown(path), DiagnosticBag())
        lines = text.splitlines()
        out = []
        if parsed.header is not None:
            h = parsed.header
            out.append(Symbol(h.id, "ruleset", h.span, _find_in(lines, h.span, h.id, False),
                              f"extends {h.extends}" if h.extends else ""))
        for item in parsed.items:
            decl = item.decl if isinstance(item, ast.PatchOp) else item
            op = item.op if isinstance(item, ast.PatchOp) else ""
            span = decl.span if decl is not None else item.span
            kind = decl.kind if decl is not None else item.kind
            out.append(Symbol(item.name, kind, span,
                              _find_in(lines, span, item.name, kind == "rule"), op))
        return out


def keywords() -> list[str]:
    """The words of the rules language (from its grammar), sorted."""
    words = set()
    for terminal in grammar_parser().terminals:
        pattern = terminal.pattern
        if pattern.type == "str" and re.fullmatch(r"[a-z][a-z_]*", pattern.value):
            words.add(pattern.value)
    return sorted(words)


def _find_in(lines: list[str], within: Span, word: str, quoted: bool) -> Span:
    """The first ``word`` (or ``"word``) on ``within``'s first line, else ``within``."""
    if not 1 <= within.line <= len(lines):
        return within
    text = lines[within.line - 1]
    needle = f'"{word}' if quoted else word
    at = text.find(needle, within.column - 1)
    if at < 0:
        return within
    col = at + (2 if quoted else 1)
    return Span(within.path, within.line, col, within.line, col + len(word))


def _source_lines(span: Span) -> list[str]:
    try:
        return read_text(span.path).splitlines()
    except (OSError, UnicodeError):
        return []


def _first_line(span: Span) -> str:
    """The first line of a declaration, without its citation."""
    lines = _source_lines(span)
    if not 1 <= span.line <= len(lines):
        return ""
    return re.sub(r"\s+@\s.*$", "", lines[span.line - 1].strip()).rstrip()


def _signature(decl: ast.Decl) -> str:
    """How a declaration starts, without its citation: ``test to_wound(attacker: unit,
    target: unit)``; a characteristic as ``characteristic WS: model int 1..10``."""
    if isinstance(decl, ast.CharacteristicDecl):
        bounds = (f" {decl.low}..{decl.high}" if decl.low is not None or decl.high is not None
                  else "")
        role = f" as {decl.role}" if decl.role else ""
        return f"characteristic {decl.name}: {decl.entity} {decl.type}{bounds}{role}"
    return _first_line(decl.span) or f"{decl.kind} {decl.name}"


def _doc_comment(span: Span) -> str:
    """The comment lines right above a declaration, without their ``#`` (up to a section
    rule such as ``# ------ magic``, which heads a group of declarations, not this one)."""
    lines = _source_lines(span)
    out: list[str] = []
    number = span.line - 1
    while number >= 1 and lines[number - 1].lstrip().startswith("#"):
        comment = lines[number - 1].lstrip()[1:].strip()
        if re.match(r"[-=]{4}", comment):
            break
        out.append(comment)
        number -= 1
    return " ".join(reversed(out)).strip()


def _exact_outcome(ruleset: Ruleset, decl: ast.RollDecl) -> str | None:
    """A test's exact pass chance, or a roll's exact distribution, as markdown."""
    from rules_run.chance import enumerate_exact
    from rules_run.engine.builtins import BUILTINS
    from rules_run.runtime.compiled import compile_ruleset

    try:
        runtime = compile_ruleset(ruleset, builtins=BUILTINS)
        roll = runtime.rolls[decl.name]
        if decl.is_test:
            dist = enumerate_exact(lambda ch: bool(roll.run(runtime.env(ch), {}).passed))
            p = dist.probability(True)
            return f"**passes** with chance {p} ({float(p):.2%}), exactly"
        values = enumerate_exact(lambda ch: roll.run(runtime.env(ch), {}).value)
    except (InterpreterError, RecursionError, TypeError):
        return None
    return "**outcomes** (exact): " + ", ".join(f"{v}: {p}" for v, p in values.items())
