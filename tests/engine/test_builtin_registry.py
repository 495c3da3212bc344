"""The battle's builtins and the checker's signatures name the same builtins: none declared
(lang/builtins.py) but not run, none run but not declared, and each takes the arguments its
signature says."""

from __future__ import annotations

import inspect

from rules_run.engine.builtins import BUILTINS
from rules_run.lang import compiler
from rules_run.lang.builtins import BUILTIN_FUNCTIONS


def test_every_declared_builtin_is_run_once_and_every_run_one_declared() -> None:
    battle = set(BUILTINS)
    pure = set(compiler._PURE_BUILTINS)
    local = set(compiler._LOCAL_BUILTINS)
    assert not (battle & pure) and not (battle & local) and not (pure & local)
    declared = set(BUILTIN_FUNCTIONS)
    assert declared - (battle | pure | local) == set(), "declared but not run"
    assert (battle | pure | local) - declared == set(), "run but not declared"


def test_each_battle_builtin_takes_the_arguments_its_signature_says() -> None:
    for name, run in BUILTINS.items():
        sig = BUILTIN_FUNCTIONS[name]
        params = list(inspect.signature(run).parameters.values())
        assert [p.name for p in params[:3]] == ["state", "env", "span"], name
        args = [p for p in params[3:] if p.kind is p.POSITIONAL_OR_KEYWORD]
        required = [p for p in args if p.default is p.empty]
        more = any(p.kind is p.VAR_POSITIONAL for p in params)
        named = any(p.kind is p.VAR_KEYWORD for p in params)
        assert len(required) == sig.min_args, name
        assert (None if more else len(args)) == sig.max_args, name
        assert named == sig.keywords, name
