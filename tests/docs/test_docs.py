"""The docs stay true: every example in docs/language.md and the patch tutorial is run.

How the code blocks of the two documents are read (both documents state it too):

- A ```` ```rules ```` block that starts with a ``ruleset`` header is a whole rule file. It
  is loaded as a ruleset of its own, in a folder named after its id that also holds wfb8's
  tables, and must check clean.
- Any other ```` ```rules ```` block of docs/language.md is a group of declarations. It is
  loaded inside a patch over wfb8, where a declaration without ``add``, ``override``,
  ``define`` or ``remove`` is read as ``define``, and must check clean.
- A ```` ```rules-error ```` block is a whole rule file with mistakes. It is saved as
  ``<id>/<id>.rules`` (with a manifest) for the ```` ```console ```` blocks after it.
- A ```` ```console ```` block holds ``$ command`` lines, each followed by what the command
  prints (standard output, then standard error). Each command is run in-process and its
  output compared. ``rules-check`` and ``rules-odds`` stand for
  ``python -m rules_run.cli.check`` and ``python -m rules_run.cli.odds``.
- In the tutorial, an HTML comment right before a block says what the block is:
  ``<!-- file: PATH -->`` is the whole of PATH at that point of the tutorial,
  ``<!-- append: PATH -->`` is added at the end of PATH, and ``<!-- try: PATH -->`` is added
  for the next console block only (a deliberate mistake). The console blocks run in a
  scratch folder holding those files, and at the end every PATH must be the file of that
  name in the repository.
- ``<!-- same-as: PATH -->`` before a block (in either document): the block is the file PATH
  of the repository, less its comment lines. ``<!-- excerpt-of: PATH -->``: the block is
  a part of that file, word for word.
- Blocks tagged ``text``, ``yaml`` or ``sh`` without a marker are not checked.

Set ``RULES_RUN_UPDATE_DOCS=1`` to rewrite the outputs shown in console blocks from the
real commands instead of comparing them; review the diff before committing it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules_run.cli import check, odds
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import clear_cache, load_ruleset
from rules_run.lang.builtins import BUILTIN_FUNCTIONS, BUILTIN_NAMES, EVENTS, UNIT_PROPERTIES
from rules_run.lang.parser import parse_rules

ROOT = Path(__file__).resolve().parents[2]
LANGUAGE = ROOT / "docs" / "language.md"
TUTORIAL = ROOT / "docs" / "tutorial-write-a-patch.md"
EXAMPLE = ROOT / "rulesets" / "examples" / "wfb8-house-rules"
WFB8 = ROOT / "rulesets" / "wfb8"
UPDATE = os.environ.get("RULES_RUN_UPDATE_DOCS") == "1"

COMMANDS: dict[str, Callable[[list[str]], int]] = {
    "rules-check": check.main,
    "rules-odds": odds.main,
}

WRAPPER_HEADER = (
    'ruleset docs_example "The examples of docs/language.md, over wfb8" extends wfb8\n'
    '    source "000_c4300f58fce5f1da.txt"\n'
    '    source "004_a56105ac0032614f.txt"\n'
    "\n"
)
"""The header of the patch that language.md's declaration blocks are checked in."""

PATCH_OPS = ("add ", "override ", "define ", "remove ")


# ---------------------------------------------------------------- reading the docs


@dataclass(frozen=True)
class Block:
    """One fenced code block of a document."""

    doc: Path
    index: int
    """Its position among the document's blocks."""
    lang: str
    text: str
    start: int
    """0-based line of the opening fence."""
    end: int
    """0-based line of the closing fence."""
    marker: tuple[str, str] | None
    """``(op, path)`` from an HTML comment right before it: file, append, try, same-as or
    excerpt-of."""

    @property
    def where(self) -> str:
        return f"{self.doc.name}:{self.start + 1}"


_FENCE = re.compile(r"^```(\S*)\s*$")
_MARKER = re.compile(r"^<!--\s*(file|append|try|same-as|excerpt-of):\s*(\S+)\s*-->\s*$")


def read_blocks(doc: Path) -> list[Block]:
    """Every fenced block of ``doc``, with the marker comment before it (if any)."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    marker: tuple[str, str] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _MARKER.match(line)
        fence = _FENCE.match(line)
        if m:
            marker = (m.group(1), m.group(2))
        elif fence:
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != "```":
                j += 1
            assert j < len(lines), f"{doc.name}:{i + 1}: the code block is never closed"
            text = "".join(f"{x}\n" for x in lines[i + 1:j])
            blocks.append(Block(doc, len(blocks), fence.group(1), text, i, j, marker))
            marker = None
            i = j
        elif line.strip():
            marker = None
        i += 1
    return blocks


def blocks_of(doc: Path, lang: str) -> list[Block]:
    return [b for b in read_blocks(doc) if b.lang == lang]


def ids(blocks: list[Block]) -> list[str]:
    return [b.where for b in blocks]


def has_header(text: str) -> bool:
    """Whether a rule-file text starts with ``ruleset`` (comments and blank lines aside)."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("ruleset ")
    return False


def header_id(text: str) -> str:
    m = re.search(r"^ruleset\s+([A-Za-z0-9][A-Za-z0-9_-]*)", text, re.MULTILINE)
    assert m, "no ruleset header"
    return m.group(1)


def as_defines(text: str) -> str:
    """Declarations with ``define`` before each one that has no patch operation."""
    out = []
    for line in text.splitlines(keepends=True):
        starts = line[:1] not in ("", " ", "\n", "#")
        if starts and not line.startswith(PATCH_OPS):
            line = "define " + line
        out.append(line)
    return "".join(out)


# ---------------------------------------------------------------- rulesets and commands


def make_ruleset(parent: Path, text: str) -> Path:
    """A one-file ruleset folder for ``text`` (named after its id), with wfb8's tables."""
    rid = header_id(text)
    folder = parent / rid
    folder.mkdir(parents=True)
    (folder / "index.yaml").write_text(f"kind: ruleset\nrules: [{rid}.rules]\n",
                                       encoding="utf-8")
    (folder / f"{rid}.rules").write_text(text, encoding="utf-8")
    shutil.copytree(WFB8 / "tables", folder / "tables")
    return folder


def load_clean(folder: Path) -> None:
    clear_cache()
    try:
        load_ruleset(folder)
    except InterpreterError as err:
        pytest.fail(f"does not check clean:\n{err.render()}")


@dataclass(frozen=True)
class Run:
    command: str
    expected: str
    actual: str
    code: int
    """The exit code."""


def console_commands(text: str) -> list[tuple[str, str]]:
    """``(command, expected output)`` for each ``$ command`` of a console block."""
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            assert out, f"console output before any '$ command': {line!r}"
            out[-1][1].append(line)
    return [(cmd, "\n".join(lines)) for cmd, lines in out]


def normalise(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def run_console(block: Block, cwd: Path, capsys, monkeypatch) -> list[Run]:
    """Run each command of a console block in ``cwd``; what each printed."""
    monkeypatch.chdir(cwd)
    runs = []
    for command, expected in console_commands(block.text):
        argv = shlex.split(command)
        main = COMMANDS.get(argv[0])
        assert main is not None, f"{block.where}: no such command {argv[0]!r}"
        clear_cache()
        capsys.readouterr()
        code = main(argv[1:])
        out, err = capsys.readouterr()
        runs.append(Run(command, normalise(expected), normalise(out + err), code))
    return runs


def compare_or_update(block: Block, runs: list[Run]) -> None:
    """Assert the block shows what the commands print (or rewrite it, in update mode)."""
    if UPDATE:
        lines = block.doc.read_text(encoding="utf-8").splitlines()
        current = read_blocks(block.doc)[block.index]
        body = []
        for run in runs:
            body.append(f"$ {run.command}")
            body.extend(run.actual.splitlines())
        lines[current.start + 1:current.end] = body
        block.doc.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return
    for run in runs:
        failed = re.search(r"(^|: )error: ", run.actual, re.MULTILINE) is not None
        assert run.code == (1 if failed else 0), (
            f"{block.where}: `{run.command}` exits with {run.code}")
        assert run.actual == run.expected, (
            f"{block.where}: `{run.command}` prints something else than the doc shows "
            "(set RULES_RUN_UPDATE_DOCS=1 to rewrite it)\n"
            f"--- the doc\n{run.expected}\n--- the command\n{run.actual}"
        )


# ---------------------------------------------------------------- every rules block parses

RULES_BLOCKS = blocks_of(LANGUAGE, "rules") + blocks_of(TUTORIAL, "rules")


@pytest.mark.parametrize("block", RULES_BLOCKS, ids=ids(RULES_BLOCKS))
def test_rules_block_parses(block: Block) -> None:
    parse_rules(block.text, block.where)


# ---------------------------------------------------------------- docs/language.md

LANGUAGE_RULES = blocks_of(LANGUAGE, "rules")


@pytest.mark.parametrize("block", LANGUAGE_RULES, ids=ids(LANGUAGE_RULES))
def test_language_example_checks(block: Block, tmp_path: Path) -> None:
    if has_header(block.text):
        folder = make_ruleset(tmp_path, block.text)
    else:
        folder = make_ruleset(tmp_path, WRAPPER_HEADER + as_defines(block.text))
    load_clean(folder)


LANGUAGE_CONSOLES = blocks_of(LANGUAGE, "console")


@pytest.mark.parametrize("block", LANGUAGE_CONSOLES, ids=ids(LANGUAGE_CONSOLES))
def test_language_console_output(block: Block, tmp_path: Path, capsys, monkeypatch) -> None:
    before = [b for b in read_blocks(LANGUAGE)[:block.index] if b.lang == "rules-error"]
    assert before, f"{block.where}: a console block needs a rules-error block before it"
    make_ruleset(tmp_path, before[-1].text)
    compare_or_update(block, run_console(block, tmp_path, capsys, monkeypatch))


def test_language_error_examples_are_followed_by_their_output() -> None:
    blocks = read_blocks(LANGUAGE)
    for b in blocks:
        if b.lang == "rules-error":
            after = blocks[b.index + 1] if b.index + 1 < len(blocks) else None
            assert after is not None and after.lang == "console", (
                f"{b.where}: a rules-error block must be followed by the console block "
                "showing rules-check on it")


SAME_AS = [b for b in read_blocks(LANGUAGE) + read_blocks(TUTORIAL)
           if b.marker and b.marker[0] == "same-as"]


@pytest.mark.parametrize("block", SAME_AS, ids=ids(SAME_AS))
def test_block_shows_the_file_it_names(block: Block) -> None:
    assert block.marker is not None
    real = (ROOT / block.marker[1]).read_text(encoding="utf-8")
    uncommented = "".join(line for line in real.splitlines(keepends=True)
                          if not line.lstrip().startswith("#"))
    assert block.text == uncommented, f"{block.where} is not {block.marker[1]} any more"


EXCERPTS = [b for b in read_blocks(LANGUAGE) + read_blocks(TUTORIAL)
            if b.marker and b.marker[0] == "excerpt-of"]


@pytest.mark.parametrize("block", EXCERPTS, ids=ids(EXCERPTS))
def test_block_is_an_excerpt_of_the_file_it_names(block: Block) -> None:
    assert block.marker is not None
    real = (ROOT / block.marker[1]).read_text(encoding="utf-8")
    assert block.text in real, f"{block.where} is no longer a part of {block.marker[1]}"


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]


def test_language_lists_exactly_the_builtins() -> None:
    section = _section(LANGUAGE.read_text(encoding="utf-8"), "## 9. Builtins", "## 10.")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))
    declared = set(BUILTIN_FUNCTIONS) | set(BUILTIN_NAMES) | set(UNIT_PROPERTIES) | set(EVENTS)
    assert documented - declared == set(), "documented, but not in interpreter/lang/builtins.py"
    assert declared - documented == set(), "in interpreter/lang/builtins.py, but not documented"


def _grammar_alternatives(rule: str) -> list[str]:
    grammar = (ROOT / "grammar" / "rules.lark").read_text(encoding="utf-8")
    m = re.search(rf"^!?{rule}:(.*?)(?=^\S|\Z)", grammar, re.MULTILINE | re.DOTALL)
    assert m, f"no rule {rule!r} in the grammar"
    # the first quoted word of each alternative ("capped" "at" signed -> capped)
    body = re.sub(r"//[^\n]*", "", m.group(1))
    return [re.findall(r'"([a-z ]+)"', alt)[0] for alt in body.split("|")
            if re.search(r'"[a-z ]+"', alt)]


@pytest.mark.parametrize("kind", _grammar_alternatives("kind"))
def test_language_has_a_section_for_each_declaration_kind(kind: str) -> None:
    headings = [line for line in LANGUAGE.read_text(encoding="utf-8").splitlines()
                if line.startswith("#")]
    assert any(f"`{kind}`" in h for h in headings), f"no heading names `{kind}`"


@pytest.mark.parametrize("effect", ["modify", "reroll", "on", "grant", "when", "pass", "fail",
                                    "set", "add", "not simulated"])
def test_language_shows_each_rule_effect_in_a_checked_example(effect: str) -> None:
    pattern = re.compile(rf"^    {effect}\b", re.MULTILINE)
    assert any(pattern.search(b.text) for b in LANGUAGE_RULES if "rule \"" in b.text), (
        f"no checked rules example uses the effect {effect!r}")


@pytest.mark.parametrize("policy", _grammar_alternatives("stack_policy"))
def test_language_documents_each_stacking_policy(policy: str) -> None:
    section = _section(LANGUAGE.read_text(encoding="utf-8"), "### Stacking", "## 7.")
    assert f"| `{policy}" in section


# ---------------------------------------------------------------- the patch tutorial

TUTORIAL_BLOCKS = read_blocks(TUTORIAL)
TUTORIAL_CONSOLES = [b for b in TUTORIAL_BLOCKS if b.lang == "console"]


def replay_tutorial(upto: int | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """The tutorial's files after its blocks before index ``upto`` (all, when None).

    Returns the files as they stand, and the files as the next console block sees them
    (with the pending ``try`` blocks added).
    """
    files: dict[str, str] = {}
    trying: dict[str, str] = {}
    for b in read_blocks(TUTORIAL)[:upto]:
        if b.lang == "console":
            trying = {}
        if b.marker is None or b.marker[0] in ("same-as", "excerpt-of"):
            continue
        op, path = b.marker
        if op == "file":
            files[path] = b.text
        else:
            assert path in files, f"{b.where}: {op} to {path!r} before a 'file' block for it"
            added = files[path].rstrip("\n") + "\n\n" + b.text
            if op == "append":
                files[path] = added
            else:
                trying[path] = added
    return files, {**files, **trying}


def write_workspace(root: Path, files: dict[str, str]) -> None:
    """A scratch copy of the repository's view: the tutorial's files and wfb8's battles."""
    shutil.copytree(WFB8 / "battles", root / "rulesets" / "wfb8" / "battles")
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("block", TUTORIAL_CONSOLES, ids=ids(TUTORIAL_CONSOLES))
def test_tutorial_console_output(block: Block, tmp_path: Path, capsys, monkeypatch) -> None:
    _, seen = replay_tutorial(block.index)
    write_workspace(tmp_path, seen)
    compare_or_update(block, run_console(block, tmp_path, capsys, monkeypatch))


def test_tutorial_ends_with_the_example_folder() -> None:
    files, _ = replay_tutorial()
    assert files, "the tutorial shows no files"
    for path, text in files.items():
        real = ROOT / path
        assert real.is_file(), f"the tutorial writes {path}, which is not in the repository"
        assert real.read_text(encoding="utf-8") == text, (
            f"{path} differs from the tutorial's last version of it")
    shown = {str((ROOT / p).resolve()) for p in files}
    for p in sorted(EXAMPLE.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            assert str(p.resolve()) in shown, f"{p.relative_to(ROOT)} is not in the tutorial"


def test_tutorial_mistakes_are_not_in_the_example() -> None:
    tries = [b for b in TUTORIAL_BLOCKS if b.marker and b.marker[0] == "try"]
    assert tries, "the tutorial shows no deliberate mistake"
    for b in tries:
        assert b.text.strip() not in (ROOT / b.marker[1]).read_text(encoding="utf-8")


def test_example_patch_loads_clean() -> None:
    clear_cache()
    ruleset = load_ruleset(EXAMPLE)
    assert ruleset.id == EXAMPLE.name
    assert ruleset.chain == ("wfb8", EXAMPLE.name)
    (patch_id, ops), = [p for p in ruleset.patches if p[0] == EXAMPLE.name]
    assert [(op.op, op.kind) for op in ops], "the example patch changes nothing"
    for op in ops:
        assert ruleset.origins[op.name if op.kind != "rule" else f"rule:{op.name}"].ruleset \
            == EXAMPLE.name
