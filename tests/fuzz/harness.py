"""The fuzz harness: generated and mutated inputs thrown at the four commands.

A :class:`Case` is a command line and the files it reads (written into a fresh folder, the
working directory of the run). Hypothesis strategies build cases over the grammar of rule
files, YAML tables, unit and battle files, and command lines, and mutate the bundled files
(a copy of the tests' tiny ruleset, the wfb8 duel, the example patch). :func:`run_case` runs
one in this process and :func:`verdict` says what went wrong, if anything: a traceback (an
exception out of ``main``, or the internal-error exit 70), a hang (past the time limit),
an exit code other than 0 or 1 (2 only for a case whose command line is the thing fuzzed),
or an exit 1 without an ``error:`` message.

``tests/fuzz/test_fuzz.py`` runs a bounded number of cases in CI; ``tests/fuzz/fuzz_long.py``
runs the same harness for as long as asked, each case in a worker process with a memory cap,
and prints what it found.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import time
import traceback
from pathlib import Path
from typing import Any

import attrs
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "lang" / "fixtures" / "tiny"
WFB8_DUEL = ROOT / "rulesets" / "wfb8" / "battles" / "duel.yaml"
HOUSE = ROOT / "rulesets" / "examples" / "wfb8-house-rules"

TIME_LIMIT = 10.0
"""Seconds a case may take."""

KINDS = ("rules", "tables", "units", "battles", "command lines")


@attrs.frozen
class Case:
    """One input: which kind, the command line, and the files written before it runs."""

    kind: str
    argv: tuple[str, ...]
    """The command and its arguments (``rules-check``, ``tiny``)."""
    files: tuple[tuple[str, str], ...] = ()
    """(path, text) pairs, relative to the case's folder."""
    copies: tuple[tuple[str, str], ...] = ()
    """(folder of the repository, name in the case's folder) to copy first."""


@attrs.frozen
class Outcome:
    case: Case
    code: int | None
    """The exit code; None when the case raised or hung."""
    out: str
    err: str
    seconds: float
    problem: str | None
    """``traceback``, ``hang``, ``bad exit``, ``no message``; None when all is well."""


class _Hang(BaseException):
    """Raised by the alarm: the case ran past its time."""


def _main(command: str):
    from rules_run.cli import check, diff, odds, run

    return {"rules-check": check.main, "rules-run": run.main, "rules-odds": odds.main,
            "rules-diff": diff.main}[command]


def warm_up() -> None:
    """Load and compile the bundled rulesets the cases use, as a long-running process would
    have them, so a case's time is its own."""
    from rules_run.editions.loader import load_edition
    from rules_run.lang.compiler import compile_ruleset

    for edition in ("wfb8", "aos4"):
        compile_ruleset(load_edition(edition))


def run_case(case: Case, workdir: Path, time_limit: float = TIME_LIMIT) -> Outcome:
    """Run ``case`` in a new folder below ``workdir``, in this process."""
    folder = Path(workdir)
    folder.mkdir(parents=True, exist_ok=True)
    for source, name in case.copies:
        shutil.copytree(ROOT / source, folder / name, symlinks=True)
    for rel, text in case.files:
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    code: int | None = None
    problem = None

    def alarm(signum, frame):
        raise _Hang

    previous = signal.signal(signal.SIGALRM, alarm)
    start = time.perf_counter()
    try:
        os.chdir(folder)
        signal.setitimer(signal.ITIMER_REAL, time_limit)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = _main(case.argv[0])(list(case.argv[1:]))
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
    except _Hang:
        problem = "hang"
    except BaseException:  # noqa: BLE001 - anything out of main is the bug we look for
        err.write(traceback.format_exc())
        problem = "traceback"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        os.chdir(here)
    seconds = time.perf_counter() - start
    outcome = Outcome(case, code, out.getvalue(), err.getvalue(), seconds, problem)
    return attrs.evolve(outcome, problem=problem or verdict(outcome))


_MESSAGE = re.compile(r"^(\S.*:\d+:\d+: )?error: ", re.M)


def verdict(outcome: Outcome) -> str | None:
    """What is wrong with a finished run, or None."""
    code, err = outcome.code, outcome.err
    if code == 70 or "Traceback (most recent call last)" in err:
        return "traceback"
    if code == 2 and outcome.case.kind == "command lines":
        return None if "error:" in err else "no message"
    if code not in (0, 1):
        return "bad exit"
    if code == 1 and not _MESSAGE.search(err):
        return "no message"
    return None


# ---------------------------------------------------------------- vocabulary

_NAMES = ["attacker", "target", "unit", "u", "x", "WS", "S", "T", "W", "A", "Ld", "M",
          "to_hit", "to_wound", "leadership", "melee_attack", "melee_attacks", "fleeing",
          "charge_roll", "lambda", "class", "None", "def", "import", "__import__", "env",
          "vars", "self", "_f", "_t1", "_k0", "result", "bearer", "models", "Stubborn"]
_NUMBERS = ["0", "1", "3", "6", "-1", "10", "999999999999999", "9" * 40, "1000000000",
            "0.5", "1e308", "4+", "7+", "D6", "2D6", "1000D6", "1001D6", "D3+1", "D0",
            "D1000000", "3D6x5", "highest of 2D6", "lowest 2 of 3D6"]
_STRINGS = ['"Stubborn"', '"Frenzy"', '"x\x1b[2J"', '""', '"{x}"', '"Bane-{x}-{x}"',
            '"\\"', '"' + "a" * 300 + '"', '"tables/to_hit.yaml"', '"../../etc/passwd"',
            '"/etc/passwd"']
_OPERATORS = ["+", "-", "*", "/", "//", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in"]
_WORDS = ["if", "then", "else", "not", "let", "return", "for", "each", "in", "where",
          "while", ":", "(", ")", "[", "]", ",", ".", "@", "L1", "L5-L3", "\n", "\n    ",
          "\t", "#", "roll", "test", "sequence", "action", "rule", "option", "status",
          "table", "step", "stops", "on", "fail", "pass", "damage", "dice", "need",
          "natural", "is", "modify", "by", "add", "to", "override", "remove", "define",
          "fight", "min", "max", "sum", "clamp", "none", "true", "false", "\x00", "\u2603"]
TOKENS = _NAMES + _NUMBERS + _STRINGS + _OPERATORS + _WORDS

_YAML_BITS = ["&a", "*a", "*b", "<<: *a", "!!python/object:os.system", "!!int x", "~", "null",
              "yes", "No", "1e999", "9" * 30, "-5", "0x1F", "{", "}", "[", "]", "- ", ": ",
              "'", '"', "\t", "---\n", "\n  ", "\n", "#", "%YAML 1.1", "|", ">", "?",
              "\x00", "\ufeff", "\x1b[2J", "../../etc/passwd", "/dev/zero", "1:30"]


# ---------------------------------------------------------------- strategies

def expressions(depth: int = 4) -> st.SearchStrategy[str]:
    """Rule expressions, from the grammar: literals and names, combined by its operators,
    conditionals, calls, attributes, lookups, lists and comprehensions."""
    atoms = st.sampled_from(_NAMES + _NUMBERS + _STRINGS + ["true", "false", "none"])
    return st.recursive(atoms, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(_OPERATORS), inner).map(" ".join),
        st.tuples(inner, inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
        st.tuples(st.sampled_from(_NAMES), st.lists(inner, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(st.sampled_from(_NAMES), st.sampled_from(_NAMES), inner).map(
            lambda t: f"{t[0]}({t[1]}={t[2]})"),
        st.tuples(inner, st.sampled_from(_NAMES)).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, st.sampled_from(_NAMES), inner).map(
            lambda t: f"[{t[0]} for each {t[1]} in {t[2]}]"),
        inner.map(lambda e: f"not ({e})"),
        inner.map(lambda e: f"-{e}"),
    ), max_leaves=depth * 3)


_PARAMS = st.lists(st.tuples(st.sampled_from(_NAMES), st.sampled_from(
    ["int", "unit", "dice", "need", "text", "bool", "keyword", "list", "weapon"])),
    max_size=3).map(lambda ps: ", ".join(f"{n}: {t}" for n, t in ps))
_CITE = st.sampled_from(["@ L1", "@ L418", '@ "not in seed: fuzz"', "", "@ 999 L1", "@ L9-L2"])


@st.composite
def declarations(draw) -> str:
    """One declaration of any kind, with generated names, parameters and expressions."""
    e = expressions()
    name = draw(st.sampled_from(_NAMES + ["fuzz", "Fuzz Rule"]))
    params = draw(_PARAMS)
    cite = draw(_CITE)
    body = draw(st.lists(st.one_of(
        e.map(lambda x: f"return {x}"),
        st.tuples(st.sampled_from(_NAMES), e).map(lambda t: f"let {t[0]} = {t[1]}"),
        st.tuples(e, e).map(lambda t: f"if {t[0]}:\n        return {t[1]}"),
        st.tuples(st.sampled_from(_NAMES), e).map(lambda t: f"for each {t[0]} in {t[1]}:\n"
                                                             "        return 1"),
        e.map(lambda x: f"while {x}:\n        let y = 1"),
    ), min_size=1, max_size=3))
    template = draw(st.sampled_from([
        "action {n}({p}) {c}\n    {b}\n",
        "roll {n}({p}) {c}\n    dice {d}\n",
        "test {n}({p}) {c}\n    dice {d}\n    need {x}\n",
        "sequence {n}({p}) {c}\n    step hit: to_hit(attacker, target) stops on fail\n"
        "    damage {x}\n",
        'rule "{r}" ({p}) {c}\n    modify to_wound by {x} if attacker == bearer\n',
        'rule "{r}" {c}\n    add {x} to A if bearer is not fleeing\n',
        "option {n}: int = {x} \"fuzz\" range {x}..{x} {c}\n",
        "status {n} {c}\n",
        "characteristics model: {n} range {x}..{x} {c}\n",
        'table {n}(a, b) from {s} {c}\n',
        "die {n}: {x}, {x} {c}\n",
    ]))
    return template.format(
        n=name, p=params, c=cite, b="\n    ".join(body), x=draw(e),
        d=draw(st.sampled_from(_NUMBERS)),
        r=draw(st.sampled_from(["Fuzz", "Anti-{x}", "Bane-{x}-{x}", "{a}{b}", "x\x1b[31m",
                                "-".join(f"{{p{i}}}" for i in range(12))])),
        s=draw(st.sampled_from(_STRINGS)),
    )


@st.composite
def mutated(draw, text: str, bits: list[str]) -> str:
    """``text`` after one to four random edits: a range deleted, a line duplicated, a
    token or a snippet inserted, a number replaced."""
    for _ in range(draw(st.integers(1, 4))):
        n = len(text)
        at = draw(st.integers(0, max(0, n)))
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "number", "swap"]))
        if op == "delete" and n:
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif op == "duplicate":
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i] * draw(st.integers(1, 3)))
            text = "".join(lines)
        elif op == "insert":
            text = text[:at] + draw(st.sampled_from(bits)) + text[at:]
        elif op == "number":
            text = re.sub(r"\d+", lambda m: draw(st.sampled_from(
                ["0", "-1", "1000000000", "9" * 30, "1e308", m.group(0)])), text, count=1)
        else:
            lines = text.splitlines(keepends=True)
            if len(lines) > 1:
                i = draw(st.integers(0, len(lines) - 2))
                lines[i], lines[i + 1] = lines[i + 1], lines[i]
                text = "".join(lines)
    return text


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _yaml_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                        st.booleans(), st.none(), st.text(max_size=12),
                        st.sampled_from(_NAMES + _NUMBERS))
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(_NAMES + ["id", "side", "profile", "models", "kind",
                                                  "keys", "rows", "values", "name"]),
                        inner, max_size=4)), max_leaves=12)


def _dump(value: Any) -> str:
    import yaml

    return yaml.safe_dump(value, allow_unicode=True, default_flow_style=None)


def tiny_case(kind: str, rel: str, text: str) -> Case:
    """A case that checks a copy of the tiny ruleset with one file replaced."""
    return Case(kind, ("rules-check", "tiny", "--coverage"), ((f"tiny/{rel}", text),),
                (("tests/lang/fixtures/tiny", "tiny"),))


def rule_cases() -> st.SearchStrategy[Case]:
    """Rule files: generated declarations added to the tiny ruleset, its rule file mutated,
    or the example patch of wfb8 mutated."""
    core = _read(TINY / "core.rules")
    house = _read(HOUSE / "house.rules")
    generated = st.lists(declarations(), min_size=1, max_size=3).map(
        lambda ds: tiny_case("rules", "core.rules", core + "\n" + "\n".join(ds)))
    tiny = mutated(core, TOKENS).map(lambda t: tiny_case("rules", "core.rules", t))
    patch = mutated(house, TOKENS).map(lambda t: Case(
        "rules", ("rules-check", "house"), (("house/house.rules", t),),
        (("rulesets/examples/wfb8-house-rules", "house"),)))
    # a patch of wfb8 is checked against all of wfb8: slower, so drawn less often
    return st.one_of(generated, generated, generated, tiny, tiny, tiny, patch)


def table_cases() -> st.SearchStrategy[Case]:
    """Tables: the tiny ruleset's table mutated, or replaced by generated YAML."""
    table = _read(TINY / "tables" / "to_hit.yaml")
    return st.one_of(
        mutated(table, _YAML_BITS + TOKENS).map(lambda t: tiny_case("tables",
                                                                    "tables/to_hit.yaml", t)),
        _yaml_values().map(lambda v: tiny_case("tables", "tables/to_hit.yaml", _dump(v))),
    )


def unit_cases() -> st.SearchStrategy[Case]:
    """Unit and equipment files of the tiny ruleset, mutated or generated."""
    army, gear = _read(TINY / "units" / "army.yaml"), _read(TINY / "units" / "equipment.yaml")
    return st.one_of(
        mutated(army, _YAML_BITS + TOKENS).map(lambda t: tiny_case("units", "units/army.yaml",
                                                                   t)),
        mutated(gear, _YAML_BITS + TOKENS).map(
            lambda t: tiny_case("units", "units/equipment.yaml", t)),
        _yaml_values().map(lambda v: tiny_case("units", "units/army.yaml",
                                               _dump({"kind": "units", "units": v}))),
    )


def battle_cases() -> st.SearchStrategy[Case]:
    """Battle files: the wfb8 duel mutated and fought (or its odds worked out), the tiny
    duel mutated and checked, or a battle generated from the schema's keys."""
    duel, tiny_duel = _read(WFB8_DUEL), _read(TINY / "battles" / "duel.yaml")
    unit = st.fixed_dictionaries({
        "id": st.sampled_from(["a", "b", "halberdiers", "orcs", "Bad Id"]),
        "side": st.sampled_from(["empire", "orcs", "x"]),
        "profile": st.sampled_from(["empire/halberdier", "orcs/orc_boy", "nope", "../x"]),
        "models": st.one_of(st.integers(-2, 1200), st.sampled_from(["ten", 1.5])),
    }, optional={"files": st.integers(0, 30), "characteristics": st.dictionaries(
        st.sampled_from(["WS", "S", "T", "W", "A", "Ld", "Q"]), st.integers(-5, 99),
        max_size=3), "rules": st.lists(st.sampled_from(["Stubborn", "Hatred", "x\x1b"]),
                                       max_size=2)})
    generated = st.fixed_dictionaries({"units": st.lists(unit, min_size=0, max_size=3)}, optional={
        "edition": st.sampled_from(["wfb8", "wfb9", "..", "/etc", "../../rulesets/wfb8"]),
        "seed": st.integers(-3, 10**20), "duel": st.fixed_dictionaries(
            {"distance": st.one_of(st.floats(allow_nan=True), st.integers(-1, 50))}),
        "game": st.fixed_dictionaries({"rounds": st.integers(-1, 101)}),
        "options": st.dictionaries(st.sampled_from(["charge_roll", "x"]), _yaml_values(),
                                   max_size=2)})
    command = st.sampled_from([("rules-run", "-e", "wfb8", "battle.yaml"),
                               ("rules-check", "-e", "wfb8", "battle.yaml"),
                               ("rules-odds", "-e", "wfb8", "battle.yaml", "--attacker",
                                "halberdiers", "--target", "orcs")])
    return st.one_of(
        st.tuples(mutated(duel, _YAML_BITS + TOKENS), command).map(
            lambda t: Case("battles", t[1], (("battle.yaml", t[0]),))),
        mutated(tiny_duel, _YAML_BITS + TOKENS).map(
            lambda t: tiny_case("battles", "battles/duel.yaml", t)),
        st.tuples(generated.map(_dump), command).map(
            lambda t: Case("battles", t[1], (("battle.yaml", t[0]),))),
    )


_ARGUMENTS = {
    "rules-check": ["tiny", "tiny/core.rules", "battle.yaml", "missing", "/dev/zero", ".",
                    "--json", "--coverage", "-e", "wfb8", "--edition", "tiny"],
    "rules-run": ["battle.yaml", "--seed", "-1", "3", "--runs", "0", "2", "--workers", "1",
                  "--json", "--explain", "--log", ".", "log.jsonl", "missing/log.jsonl",
                  "-e", "wfb8", "aos4", "wfb9", "tiny", "--option", "charge_roll=sum",
                  "charge_roll", "x=1"],
    "rules-odds": ["battle.yaml", "-e", "wfb8", "--attacker", "--target", "halberdiers",
                   "orcs", "nobody", "--attacks", "0", "1", "3000", "-5", "x", "--samples",
                   "0", "-1", "20", "--seed", "--mode", "shooting", "melee", "--set",
                   "charging=true", "charging", "--json"],
    "rules-diff": ["wfb8", "wfb9", "tiny", "--runs", "0", "2", "--top", "-1", "--plot",
                   "out.png", "out.svg", "--cells", "0", "--no-attribution", "--json"],
}
_ALWAYS = ["--limit", "dice=5", "bogus=1", "units=x", "--debug", "--help", "--bogus", "", "-"]


def command_cases() -> st.SearchStrategy[Case]:
    """Command lines: a command and arguments drawn from its own options and values (kept
    small: a user asking for a million runs gets them, which is no hang)."""
    duel = _read(WFB8_DUEL)

    @st.composite
    def build(draw) -> Case:
        name = draw(st.sampled_from(sorted(_ARGUMENTS)))
        args = draw(st.lists(st.sampled_from(_ARGUMENTS[name] + _ALWAYS), max_size=8))
        if name == "rules-diff" and "--runs" not in args:
            args += ["--runs", "2", "--no-behaviour"]   # the grid and 1000 runs take long
        if name == "rules-run" and "--runs" in args:
            args += ["--workers", "1"]
        return Case("command lines", (name, *args), (("battle.yaml", duel),),
                    (("tests/lang/fixtures/tiny", "tiny"),))

    return build()


STRATEGIES = {"rules": rule_cases, "tables": table_cases, "units": unit_cases,
              "battles": battle_cases, "command lines": command_cases}


def all_cases() -> st.SearchStrategy[Case]:
    """A case of any kind."""
    return st.one_of(*(make() for make in STRATEGIES.values()))
