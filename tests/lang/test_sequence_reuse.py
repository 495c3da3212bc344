"""Sequences built from another's steps (``sequence volley is strike`` with the steps that
change) and rule hooks on several steps (``on six of attack.hit, shot.hit: ...``): exact
odds against hand computation, patches over either, and the located diagnostics."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from rules_run.chance import enumerate_exact
from rules_run.diagnostics import InterpreterError
from rules_run.editions.loader import load_ruleset
from rules_run.engine.builtins import BUILTINS
from rules_run.runtime.compiled import compile_ruleset

from .test_rolls import HEADER, unit

BASE = '''
test hit(a: unit) @ L1
    dice D6
    need 4
    natural 6 is six
test aim(a: unit) @ L1
    dice D6
    need 2
    natural 6 is six
test wound(a: unit, t: unit) @ L1
    dice D6
    need 4
test save(t: unit) @ L1
    dice D6
    need 5
test ward(t: unit) @ L1
    dice D6
    need 6
sequence attack(a: unit, t: unit) @ L1
    step hit: hit(a) stops on fail
    step wound: wound(a, t) stops on fail
    step save: save(t) stops on pass
    damage 1
    each point: ward(t) removes on pass
'''

HIT, AIM, WOUND, SAVE_FAILS, WARD_FAILS = F(1, 2), F(5, 6), F(1, 2), F(2, 3), F(5, 6)


def folder(tmp_path: Path, name: str, text: str) -> Path:
    """A ruleset folder ``name`` with one rule file of ``text``."""
    where = tmp_path / name
    where.mkdir(parents=True)
    (where / "index.yaml").write_text(f"kind: ruleset\nrules: [{name}.rules]\n")
    (where / f"{name}.rules").write_text(text)
    return where


def kit(tmp_path: Path, rules: str, patch: str | None = None):
    """The kit with ``rules`` after BASE, and a patch over it of ``patch`` lines if given."""
    path = folder(tmp_path, "kit", HEADER + BASE + rules)
    if patch is not None:
        path = folder(tmp_path, "kit-house", 'ruleset kit-house "House" extends kit\n'
                      '    source "000_c4300f58fce5f1da.txt"\n' + patch)
    return compile_ruleset(load_ruleset(path), builtins=BUILTINS)


def mean_damage(rt, sequence: str, **args) -> F:
    """The exact mean damage of one chain of ``sequence`` by unit ``a`` at unit ``t``."""
    names = {"a": unit(rt, "a"), "t": unit(rt, "t")}
    bound = {k: names[v] for k, v in (args or {"a": "a", "t": "t"}).items()}
    seq = rt.sequences[sequence]
    return enumerate_exact(lambda ch: seq.run(rt.env(ch), bound)).map(
        lambda o: o.damage).mean()


def test_a_reusing_sequence_takes_the_base_steps_with_its_changes(tmp_path) -> None:
    rt = kit(tmp_path, "sequence shot is attack @ L1\n    step hit: aim(a) stops on fail\n")
    assert [s.name for s in rt.decls["shot"].steps] == ["hit", "wound", "save"]
    # as pure as its base: a battle enumerates it exactly, as it does the base
    assert rt.sequences["shot"].pure and rt.sequences["attack"].pure
    assert mean_damage(rt, "shot") == AIM * WOUND * SAVE_FAILS * WARD_FAILS
    # the base is as it was
    assert mean_damage(rt, "attack") == HIT * WOUND * SAVE_FAILS * WARD_FAILS


def test_its_own_parameters_are_passed_to_the_base(tmp_path) -> None:
    rt = kit(tmp_path, "sequence shot(s: unit, v: unit) is attack(s, v) @ L1\n    damage 2\n")
    assert mean_damage(rt, "shot", s="a", v="t") == 2 * HIT * WOUND * SAVE_FAILS * WARD_FAILS


def test_without_changes_it_is_the_base_under_another_name(tmp_path) -> None:
    rt = kit(tmp_path, "sequence same is attack @ L1\n")
    assert mean_damage(rt, "same") == mean_damage(rt, "attack")


def test_a_patch_over_the_base_changes_the_reusing_sequence(tmp_path) -> None:
    rt = kit(tmp_path, "sequence shot is attack @ L1\n    step hit: aim(a) stops on fail\n",
             "override sequence attack @ L1\n    step save: ward(t) stops on pass\n")
    # the save is the ward in both now; the shot keeps its own hit
    assert mean_damage(rt, "attack") == HIT * WOUND * WARD_FAILS * WARD_FAILS
    assert mean_damage(rt, "shot") == AIM * WOUND * WARD_FAILS * WARD_FAILS


def test_a_patch_over_the_reusing_sequence_keeps_its_own_changes(tmp_path) -> None:
    rt = kit(tmp_path, "sequence shot is attack @ L1\n    step hit: aim(a) stops on fail\n",
             "override sequence shot @ L1\n    damage 3\n")
    assert mean_damage(rt, "shot") == 3 * AIM * WOUND * SAVE_FAILS * WARD_FAILS


def test_a_reusing_sequence_may_give_its_own_each_point(tmp_path) -> None:
    # a save of 5+ against each point (1/3 removed) in place of the ward of 6+ (1/6)
    rt = kit(tmp_path, "sequence warded is attack @ L1\n    each point: save(t) removes on pass\n")
    assert [s.name for s in rt.decls["warded"].steps] == ["hit", "wound", "save"]
    assert mean_damage(rt, "warded") == HIT * WOUND * SAVE_FAILS * SAVE_FAILS
    assert mean_damage(rt, "attack") == HIT * WOUND * SAVE_FAILS * WARD_FAILS


def test_an_override_changes_each_point_and_a_reusing_sequence_keeps_its_own(tmp_path) -> None:
    rt = kit(tmp_path, "sequence warded is attack @ L1\n    each point: save(t) removes on pass\n"
             "sequence shot is attack @ L1\n    step hit: aim(a) stops on fail\n",
             "override sequence attack @ L1\n    each point: hit(t) removes on pass\n")
    # the patch's each point (a 4+ removes: 1/2) reaches the shot, not the warded attack
    assert mean_damage(rt, "attack") == HIT * WOUND * SAVE_FAILS * F(1, 2)
    assert mean_damage(rt, "shot") == AIM * WOUND * SAVE_FAILS * F(1, 2)
    assert mean_damage(rt, "warded") == HIT * WOUND * SAVE_FAILS * SAVE_FAILS


def test_a_hook_on_several_steps_hooks_each(tmp_path) -> None:
    shot = "sequence shot is attack @ L1\n    step hit: aim(a) stops on fail\n"
    one = kit(tmp_path / "one", shot + 'rule "Venom" @ L1\n'
              "    on six of attack.hit, shot.hit if bearer == a: skip wound\n")
    two = kit(tmp_path / "two", shot + 'rule "Venom" @ L1\n'
              "    on six of attack.hit if bearer == a: skip wound\n"
              "    on six of shot.hit if bearer == a: skip wound\n")
    assert [e.sequence for e in one.ruleset.rules["Venom"].effects] == ["attack", "shot"]
    for rt in (one, two):
        venom = {"a": unit(rt, "a", rules=["Venom"]), "t": unit(rt, "t")}
        for name, hit in (("attack", HIT), ("shot", AIM)):
            got = enumerate_exact(lambda ch: rt.sequences[name].run(rt.env(ch), venom)).map(
                lambda o: o.damage).mean()
            # a 6 to hit (1/6) skips the wound roll
            assert got == (F(1, 6) + (hit - F(1, 6)) * WOUND) * SAVE_FAILS * WARD_FAILS


@pytest.mark.parametrize(("rules", "expected"), [
    ("sequence shot is atack @ L1\n",
     (28, 18, "unknown-reuse", "sequence 'shot' reuses 'atack', which is no sequence",
      "did you mean 'attack'?")),
    ("sequence shot is hit @ L1\n",
     (28, 18, "unknown-reuse", "sequence 'shot' reuses 'hit', which is no sequence (it is "
      "declared with 'test')", None)),
    ("sequence shot is attack @ L1\n    step hitt: aim(a) stops on fail\n",
     (29, 5, "unknown-step", "sequence 'shot' reuses 'attack', which has no step 'hitt' to "
      "change", "did you mean 'hit'?")),
    ("sequence shot is attack @ L1\n    step hit: aim(a) stops on fail\n"
     "    step hit: hit(a) stops on fail\n",
     (30, 5, "duplicate-clause", "sequence 'shot' gives step 'hit' twice", None)),
    ("sequence warded is attack @ L1\n    each point: save(t) removes on pass\n"
     "    each point: ward(t) removes on pass\n",
     (30, 5, "duplicate-clause", "sequence 'warded' gives 'each point' twice", None)),
    ("sequence one is two @ L1\nsequence two is one @ L1\n",
     (28, 17, "reuse-cycle", "sequence 'one' reuses itself: one -> two -> one", None)),
    ("sequence shot(s: unit) is attack(s) @ L1\n",
     (28, 27, "wrong-arity", "sequence 'attack' needs 't'", "it takes (a, t)")),
])
def test_a_reuse_that_cannot_apply_is_located(tmp_path, monkeypatch, rules, expected) -> None:
    monkeypatch.chdir(tmp_path)
    folder(tmp_path, "kit", HEADER + BASE + rules)
    with pytest.raises(InterpreterError) as err:
        load_ruleset(Path("kit"))
    assert [(d.span.line, d.span.column, d.code, d.message, d.hint)
            for d in err.value.diagnostics][:1] == [expected]
