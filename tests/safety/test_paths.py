"""No path outside a ruleset folder, the bundled rulesets or a battle file's own folder can be
read: not through a declaration (a table, a manifest entry), a symbolic link, or a battle
file's ``edition:``; a refusal is located and never shows the file it would have read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from helpers.safety import DUEL, SECRET, check, copy_tiny, run

@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file outside every ruleset, which nothing may show."""
    path = tmp_path / "secret.yaml"
    path.write_text(f"password: {SECRET}\n")
    return path


def retarget_table(folder: Path, path: str) -> None:
    rules = folder / "core.rules"
    rules.write_text(rules.read_text().replace('"tables/to_hit.yaml"', f'"{path}"'))


def test_a_table_path_leading_out_of_the_ruleset_is_refused(tmp_path, secret, capsys) -> None:
    folder = copy_tiny(tmp_path / "rulesets")
    retarget_table(folder, "../../secret.yaml")
    code, out, err = check(capsys, tmp_path, str(folder.relative_to(tmp_path)))
    assert code == 1
    assert err.splitlines()[0] == ("rulesets/tiny/core.rules:6:1: error: '../../secret.yaml' "
                                   "leads outside the ruleset folder 'rulesets/tiny'")
    assert ("hint: rules-run reads only files inside the ruleset folder and the bundled "
            "rulesets") in err
    assert SECRET not in out + err


def test_an_absolute_table_path_is_refused(tmp_path, secret, capsys) -> None:
    folder = copy_tiny(tmp_path)
    retarget_table(folder, str(secret))
    code, out, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert err.splitlines()[0] == f"tiny/core.rules:6:1: error: {str(secret)!r} is an absolute path"
    assert "hint: write a path relative to the ruleset folder 'tiny'" in err
    assert SECRET not in out + err


def test_a_symbolic_link_inside_the_ruleset_is_followed_before_the_check(
        tmp_path, secret, capsys) -> None:
    folder = copy_tiny(tmp_path)
    table = folder / "tables" / "to_hit.yaml"
    table.unlink()
    table.symlink_to(secret)
    code, out, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert err.splitlines()[0] == ("tiny/core.rules:6:1: error: 'tables/to_hit.yaml' leads "
                                   "outside the ruleset folder 'tiny' (through a symbolic link)")
    assert SECRET not in out + err


def test_a_link_that_stays_inside_the_ruleset_is_read(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    (folder / "tables" / "to_hit.yaml").rename(folder / "chart.yaml")
    (folder / "tables" / "to_hit.yaml").symlink_to("../chart.yaml")
    code, out, _ = check(capsys, tmp_path, "tiny")
    assert code == 0 and out.startswith("ok: tiny (ruleset tiny:")


@pytest.mark.parametrize(("linked", "line", "column"), [
    ("core.rules", 6, 5),           # the manifest's rules: entry
    ("units/army.yaml", 8, 5),      # its units: entry
])
def test_manifest_entries_through_links_are_refused(tmp_path, secret, capsys, linked, line,
                                                    column) -> None:
    folder = copy_tiny(tmp_path)
    (folder / linked).unlink()
    (folder / linked).symlink_to(secret)
    code, out, err = check(capsys, tmp_path, "tiny")
    assert code == 1
    assert err.splitlines()[0] == (f"tiny/index.yaml:{line}:{column}: error: {linked!r} leads "
                                   "outside the ruleset folder 'tiny' (through a symbolic link)")
    assert SECRET not in out + err


def test_edition_in_a_battle_file_is_relative_to_the_battle_file(tmp_path, capsys) -> None:
    copy_tiny(tmp_path / "games")
    (tmp_path / "games" / "duel.yaml").write_text("edition: tiny\n" + DUEL)
    (tmp_path / "elsewhere").mkdir()
    code, out, err = check(capsys, tmp_path / "elsewhere", "../games/duel.yaml")
    assert (code, err) == (0, "")
    assert out == "ok: ../games/duel.yaml (battle for tiny: 2 units, sides men, orcs)\n"


def test_a_battle_kept_in_its_ruleset_names_it_as_dotdot(tmp_path, capsys) -> None:
    folder = copy_tiny(tmp_path)
    (folder / "battles" / "mine.yaml").write_text("edition: ..\n" + DUEL)
    code, out, _ = check(capsys, tmp_path, "tiny/battles/mine.yaml")
    assert code == 0 and "(battle for tiny: 2 units" in out


@pytest.mark.parametrize(("edition", "message"), [
    ("../rulesets/tiny", "'../rulesets/tiny' leads outside the battle file's folder 'games'"),
    ("ABSOLUTE", "ABSOLUTE is an absolute path"),
])
def test_edition_may_not_name_a_folder_outside_the_battle_files(tmp_path, capsys, edition,
                                                                message) -> None:
    folder = copy_tiny(tmp_path / "rulesets")
    edition = edition.replace("ABSOLUTE", str(folder))
    message = message.replace("ABSOLUTE", repr(str(folder)))
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "duel.yaml").write_text(f"edition: {edition}\n" + DUEL)
    code, out, err = check(capsys, tmp_path, "games/duel.yaml")
    assert code == 1
    assert err.splitlines()[:3] == [
        f"games/duel.yaml:1:10: error: edition: {message}",
        f"    edition: {edition}",
        "             " + "^" * len(edition),
    ]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_not_read(tmp_path, capsys) -> None:
    code, out, err = run(capsys, tmp_path, "-e", "wfb8", "/dev/zero")
    assert code == 1
    assert err == f"error: {os.path.relpath('/dev/zero', tmp_path)!r} is not a regular file\n" \
                  "  hint: give a file of text\n"


def test_a_pipe_is_not_read(tmp_path, capsys) -> None:
    os.mkfifo(tmp_path / "battle.yaml")
    code, _, err = check(capsys, tmp_path, "battle.yaml", "-e", "wfb8")
    assert code == 1
    assert err.startswith("error: 'battle.yaml' is not a regular file\n")


def test_a_file_past_the_size_limit_is_not_read(tmp_path, capsys, monkeypatch) -> None:
    folder = copy_tiny(tmp_path)
    battle = folder / "battles" / "big.yaml"
    battle.write_text("edition: ..\n" + DUEL + "# padding\n" * 30_000)   # 300,000 bytes
    code, _, err = check(capsys, tmp_path, str(battle.relative_to(tmp_path)))
    assert code == 1
    assert err.startswith("error: more than 250000 bytes in 'tiny/battles/big.yaml'; raise the "
                          "limit with --limit file_size=N\n")
    code, out, _ = check(capsys, tmp_path, str(battle.relative_to(tmp_path)),
                         "--limit", "file_size=400000")
    assert code == 0 and "battle for tiny" in out


def test_extends_may_not_follow_a_link_out_of_the_folder_of_rulesets(tmp_path, capsys) -> None:
    base = copy_tiny(tmp_path / "elsewhere", "base")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "base").symlink_to(base)
    patch = tmp_path / "mine" / "patch"
    patch.mkdir()
    (patch / "index.yaml").write_text("kind: ruleset\nrules: [patch.rules]\n")
    (patch / "patch.rules").write_text('ruleset patch "A patch" extends base\n'
                                       '    source "000_c4300f58fce5f1da.txt"\n')
    code, out, err = check(capsys, tmp_path, "mine/patch")
    assert code == 1
    assert err.splitlines()[0] == ("mine/patch/patch.rules:1:1: error: 'extends': 'base' leads "
                                   "outside the folder the ruleset is in 'mine' (through a "
                                   "symbolic link)")
