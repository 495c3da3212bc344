"""``rules-check``: check rulesets, rule files and battle files; report every problem."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules_run.cli.common import (
    add_common_arguments,
    add_edition_argument,
    add_version_argument,
    editions_text,
    print_json,
    run_command,
)
from rules_run.diagnostics import Diagnostic, InterpreterError, UsageError, escaped
from rules_run.editions.loader import load_ruleset
from rules_run.editions.registry import MANIFEST

__all__ = ["main", "build_parser", "check_paths"]

EXAMPLES = """\
examples:
  rules-check rulesets                   every bundled ruleset and battle
  rules-check rulesets/EDITION           one ruleset (and its bundled battles)
  rules-check my_battle.yaml -e EDITION  a battle file against an edition
  rules-check --coverage rulesets/EDITION  the catalogue of its special rules
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rules-check",
        description="Check ruleset folders, rule files and battle files. Prints every "
        "problem as path:line:col: error: ... and every declaration nothing uses as "
        "path:line:col: warning: ...; exits 0 when there is no error, 1 otherwise.",
        epilog=EXAMPLES + editions_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a ruleset folder, a folder of rulesets, a .rules or a battle file")
    add_edition_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--coverage", action="store_true",
                        help="print each ruleset's catalogue of special rules and their status")
    add_version_argument(parser)
    add_common_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_command(lambda: check_paths(args.paths, args.edition, args.json, args.coverage),
                       args)


def _targets(path: Path) -> list[tuple[str, Path]]:
    """What to check at ``path``: ('ruleset', folder) and ('battle', file) pairs."""
    if path.is_dir():
        if (path / MANIFEST).is_file():
            return [("ruleset", path)]
        found = [("ruleset", p.parent) for p in sorted(path.glob(f"**/{MANIFEST}"))]
        if not found:
            raise UsageError(f"{str(path)!r} holds no ruleset (no {MANIFEST} in it or below)")
        return found
    if path.suffix == ".rules":
        folder = next((p for p in path.resolve().parents if (p / MANIFEST).is_file()), None)
        if folder is None:
            raise UsageError(f"{str(path)!r} is not inside a ruleset folder (no {MANIFEST} "
                             "above it)")
        return [("ruleset", folder)]
    if path.suffix in (".yaml", ".yml"):
        if path.name == MANIFEST:
            return [("ruleset", path.parent)]
        return [("battle", path)]
    if not path.exists():
        raise UsageError(f"no such file or folder: {str(path)!r}")
    raise UsageError(f"cannot check {str(path)!r}: give a ruleset folder, a .rules file or a "
                     "battle .yaml file")


def check_paths(paths: list[str], edition: str | None, as_json: bool, coverage: bool) -> int:
    """Check every path; print a line per item checked; return the exit code."""
    from rules_run.cli.common import load_context

    results: list[dict] = []
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for raw in paths:
        for kind, target in _targets(Path(raw)):
            try:
                if kind == "ruleset":
                    ruleset = load_ruleset(target)
                    summary = (f"ruleset {ruleset.id}: {len(ruleset.decls)} declarations, "
                               f"{len(ruleset.rules)} rules, {len(ruleset.tables)} tables")
                    results.append({"path": raw, "kind": kind, "ok": True, "id": ruleset.id,
                                    "summary": summary,
                                    "warnings": [d.to_json() for d in ruleset.warnings]})
                    warnings.extend(ruleset.warnings)
                    if not as_json:
                        print(escaped(f"ok: {_rel(target)} ({summary})"))
                        for warning in ruleset.warnings:
                            print(warning.render(), file=sys.stderr)
                    if coverage:
                        _print_coverage(ruleset, as_json, results[-1])
                    for battle in ruleset.battles:
                        # by folder, so a ruleset outside rulesets/ checks its own battles
                        _check_battle(str(_rel(battle)), str(ruleset.folder), results,
                                      problems, as_json, load_context)
                else:
                    _check_battle(str(target), edition, results, problems, as_json,
                                  load_context)
            except InterpreterError as err:
                problems.extend(err.diagnostics)
                results.append({"path": str(target), "kind": kind, "ok": False,
                                "diagnostics": [d.to_json() for d in err.diagnostics]})
                if not as_json:
                    print(err.render(), file=sys.stderr)
    if as_json:
        print_json({"ok": not problems, "results": results})
    elif problems or warnings:
        errors = [d for d in problems if d.severity.value == "error"]
        counts = [f"{len(errors)} error{'s' if len(errors) != 1 else ''}"] if problems else []
        if warnings:
            counts.append(f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''}")
        print(", ".join(counts), file=sys.stderr)
    return 1 if problems else 0


def _check_battle(path, edition, results, problems, as_json, load_context) -> None:
    try:
        ruleset, _, battle = load_context(edition, path, None)
    except InterpreterError as err:
        problems.extend(err.diagnostics)
        results.append({"path": path, "kind": "battle", "ok": False,
                        "diagnostics": [d.to_json() for d in err.diagnostics]})
        if not as_json:
            print(err.render(), file=sys.stderr)
        return
    summary = f"battle for {ruleset.id}: {len(battle.units)} units, sides {', '.join(battle.sides)}"
    results.append({"path": path, "kind": "battle", "ok": True, "summary": summary})
    if not as_json:
        print(escaped(f"ok: {path} ({summary})"))


def _rel(path: Path) -> Path:
    try:
        return path.resolve().relative_to(Path.cwd())
    except ValueError:
        return path


def _print_coverage(ruleset, as_json: bool, result: dict) -> None:
    from rules_run.lang import ast
    from rules_run.lang.walk import rule_names_used

    used = rule_names_used(list(ruleset.decls.values()) + list(ruleset.rules.values()))
    catalogue = []
    for name, rule in sorted(ruleset.rules.items()):
        notes = [e for e in rule.effects if isinstance(e, ast.NotSimulated)]
        if notes:
            status, detail = "not simulated", notes[0].reason
        elif rule.effects:
            status, detail = "implemented", f"{len(rule.effects)} effect(s)"
        elif name in used:
            status, detail = "implemented", "read by the ruleset's declarations"
        else:
            status, detail = "declared only", "no effect and nothing reads it yet"
        catalogue.append({"rule": name, "status": status, "detail": detail,
                          "cite": ruleset.cite(f"rule:{name}")})
    result["coverage"] = catalogue
    if as_json:
        return
    width = max((len(escaped(c["rule"])) for c in catalogue), default=4)
    for c in catalogue:
        print(f"  {escaped(c['rule']):<{width}}  {c['status']:<28}  {escaped(c['detail'])}  "
              f"[{escaped(c['cite'])}]")


if __name__ == "__main__":
    sys.exit(main())
