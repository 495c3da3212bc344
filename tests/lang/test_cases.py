"""An action split by the value of a parameter (``action NAME(...) by P``) and its cases
(``case NAME VALUE, ... @ cite``): each case its own declaration, run when the argument
equals one of its values, the action's own body otherwise; patched one case at a time;
its misuses located (more in ``tests/lang/broken/case-misused``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules_run.chance import RandomChance, enumerate_exact
from rules_run.diagnostics import InterpreterError
from rules_run.diff import behaviour_diff, structure_diff
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.lang import ast
from rules_run.runtime.compiled import Runtime, compile_ruleset

BASE = '''ruleset kit "Code kit"
    source "000_c4300f58fce5f1da.txt"
characteristics model: S, W as wounds range 0..10 @ L1

roll d6() @ L2
    dice D6

action hits(kind: text, n: int) by kind @ L10
    return n

case hits "cannon" @ L11
    return n * 10

case hits "mortar", "stone" @ L12
    let many = d6() + n
    return many

action volley(n: int) by n @ L20
    return "some"

case volley 0 @ L21
    return "none"

case volley -1, 1 @ L22
    return "one"
'''


def folder(root: Path, name: str, rules: str) -> Path:
    out = root / name
    out.mkdir()
    (out / "index.yaml").write_text(f"kind: ruleset\nrules: [{name}.rules]\n")
    (out / f"{name}.rules").write_text(rules)
    return out


def runtime(path: Path) -> Runtime:
    return compile_ruleset(load_ruleset(path), builtins=BUILTINS)


def run(rt: Runtime, name: str, **args):
    return rt.invoke(name, rt.env(RandomChance(1)), dict(args))


def test_a_call_runs_the_case_of_its_value_else_the_actions_own_body(tmp_path) -> None:
    rt = runtime(folder(tmp_path, "kit", BASE))
    assert run(rt, "hits", kind="cannon", n=2) == 20
    assert run(rt, "hits", kind="bow", n=2) == 2
    assert [run(rt, "volley", n=n) for n in (-1, 0, 1, 2)] == ["one", "none", "one", "some"]
    # a case is an action's body: exact odds enumerate it
    dist = enumerate_exact(lambda chance: rt.invoke("hits", rt.env(chance),
                                                    {"kind": "stone", "n": 1}))
    assert dist.support() == (2, 3, 4, 5, 6, 7)


def test_each_case_is_a_declaration_named_by_its_action_and_values(tmp_path) -> None:
    rs = load_ruleset(folder(tmp_path, "kit", BASE))
    case = rs.decls['hits "mortar", "stone"']
    assert isinstance(case, ast.CaseDecl) and case.action == "hits"
    assert [v.value for v in case.values] == ["mortar", "stone"]
    assert rs.cite('volley -1, 1').endswith("L22")
    assert rs.decls["hits"].by == "kind"


def test_a_patch_adds_overrides_and_removes_one_case(tmp_path) -> None:
    folder(tmp_path, "kit", BASE)
    patch = folder(tmp_path, "errata", '''ruleset errata "One case changed" extends kit

override case hits "cannon" @ L30
    return n * 100

add case hits "bolt" @ L31
    return n + 1

remove case volley 0 @ L32
''')
    rs = load_ruleset(patch)
    assert rs.origins['hits "cannon"'].op == "override"
    rt = runtime(patch)
    assert run(rt, "hits", kind="cannon", n=2) == 200
    assert run(rt, "hits", kind="bolt", n=2) == 3
    assert run(rt, "hits", kind="mortar", n=0) in range(1, 7)
    assert run(rt, "volley", n=0) == "some"


def test_a_patch_giving_a_value_a_case_has_is_reported(tmp_path) -> None:
    at = load_ruleset(folder(tmp_path, "kit", BASE)).decls['hits "mortar", "stone"'].span
    patch = folder(tmp_path, "errata", '''ruleset errata "A case twice" extends kit

add case hits "stone" @ L30
    return 0

override case hits "mortar" @ L31
    return 0
''')
    with pytest.raises(InterpreterError) as raised:
        load_ruleset(patch)
    assert [(d.span.line, d.span.column, d.code, d.message, d.hint)
            for d in raised.value.diagnostics] == [
        (6, 1, "patch-override-missing",
         'override: there is no case \'hits "mortar"\' to override',
         f'the case is \'case hits "mortar", "stone"\' (at {at.text()}): override it with all '
         "its values"),
        (3, 15, "duplicate-case",
         f'action \'hits\' has a case for "stone" already (at {at.path}:{at.line}:21)',
         "give each value one case: remove it here or there"),
    ]


def test_rules_diff_attributes_a_changed_case_to_the_case(tmp_path) -> None:
    base = load_ruleset(folder(tmp_path, "kit", BASE))
    patch = load_ruleset(folder(tmp_path, "errata", '''ruleset errata "One case" extends kit

override case hits "cannon" @ L30
    return n * 100
'''))
    (change,) = structure_diff(base, patch).declarations
    assert (change.change, change.kind, change.key) == ("changed", "case", 'hits "cannon"')
    (compared,) = behaviour_diff(base, patch, only={"hits"}).compared
    assert compared.name == "hits" and compared.cells
    assert all(dict(c.inputs)["kind"] == "cannon" for c in compared.cells)


def test_an_added_case_acts_in_a_battle_without_being_named(tmp_path) -> None:
    from rules_run.diff.report import unreferenced

    base = load_ruleset(folder(tmp_path, "kit", BASE))
    patch = load_ruleset(folder(tmp_path, "errata", '''ruleset errata "One case more" extends kit

add case hits "bolt" @ L31
    return n + 1
'''))
    assert not unreferenced(patch, base, 'hits "bolt"', {})
