"""rules-replay and rules-run --replay without a browser: the steps cut from a log, the
files written (byte for byte the same from the same log, self-contained, small), the
pictures of one round, shapes, and every broken input told as a located error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules_run.cli import replay, run
from rules_run.replay.steps import load

ROOT = Path(__file__).resolve().parents[2]
BATTLE = str(ROOT / "rulesets" / "wfb8" / "battles" / "battle.yaml")
DUEL = str(ROOT / "rulesets" / "wfb8" / "battles" / "duel.yaml")


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = run.main(list(argv))
    return code, capsys.readouterr().err


def _replay(capsys, *argv: str) -> tuple[int, str]:
    code = replay.main(list(argv))
    return code, capsys.readouterr().err


@pytest.fixture(scope="module")
def battle_log(tmp_path_factory) -> Path:
    """The wfb8 pitched battle's log (seed 5) and its page, written by rules-run."""
    folder = tmp_path_factory.mktemp("battle")
    assert run.main([BATTLE, "--log", str(folder / "events.jsonl"),
                     "--replay", str(folder / "run.html")]) == 0
    return folder / "events.jsonl"


def test_the_same_log_gives_the_same_bytes_and_rules_run_draws_what_rules_replay_does(
        battle_log, tmp_path, capsys) -> None:
    for name in ("a.html", "b.html", "a.svg", "b.svg"):
        assert _replay(capsys, str(battle_log), "-o", str(tmp_path / name), "--turn", "2"
                       if name.endswith("svg") else "0") == (0, "")
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()
    assert _replay(capsys, str(battle_log), "-o", str(tmp_path / "c.html")) == (0, "")
    assert (tmp_path / "c.html").read_bytes() == (battle_log.parent / "run.html").read_bytes()
    assert _run(capsys, BATTLE, "--replay", str(tmp_path / "run.svg"), "--replay-turn", "2"
                ) == (0, "")
    assert (tmp_path / "run.svg").read_bytes() == (tmp_path / "a.svg").read_bytes()


def test_the_page_is_self_contained_and_under_two_megabytes(battle_log) -> None:
    page = (battle_log.parent / "run.html").read_text(encoding="utf-8")
    assert len(page.encode("utf-8")) < 2_000_000
    assert "Content-Security-Policy\" content=\"default-src 'none';" in page
    # nothing to fetch: no link, no script or image from elsewhere; the only address is the
    # SVG namespace's name
    assert "<link" not in page and " src=" not in page and "href=" not in page
    assert set(re.findall(r"https?://[^\s\"']+", page)) == {"http://www.w3.org/2000/svg"}


def test_every_move_charge_flight_and_casualty_is_a_step(battle_log) -> None:
    events = [json.loads(line) for line in battle_log.read_text().splitlines()]
    steps = load(battle_log).steps
    by_seq = {s.seq: s for s in steps}
    for e in events[1:]:
        if e["kind"] in ("move", "engage", "wheel", "align", "marker", "casualties",
                         "destroyed"):
            assert e["seq"] in by_seq, e
    # the Boar Boyz' charge into the Handgunners' flank: an arrow from where they stood to
    # where the log puts them
    charge = next(e for e in events if e["kind"] == "engage" and e["unit"] == "boar_boyz"
                  and e["target"] == "handgunners")
    before = next(s for s in reversed(steps) if s.seq < charge["seq"])
    was = next(p for p in before.units if p.id == "boar_boyz")
    now = charge["placed"]["boar_boyz"]
    (mark,) = by_seq[charge["seq"]].marks
    assert mark.kind == "engage" and mark.points == ((was.x, was.y), (now["x"], now["y"]))
    # told as rules-run's report tells it: the units by their names
    assert by_seq[charge["seq"]].lines[-1] == "    Boar Boyz engage Handgunners in the flank"
    # then they turn flush against the Handgunners' flank: a step of its own, an arrow too
    # when they moved, with the turn's side
    align = next(e for e in events if e["kind"] == "align" and e["seq"] > charge["seq"]
                 and e["unit"] == "boar_boyz")
    step = by_seq[align["seq"]]
    assert step.lines[-1].startswith("    Boar Boyz align")
    assert step.lines[-1].endswith(" with Handgunners (flank)")
    assert step.side == "orcs"
    assert {(p.x, p.y, p.facing) for p in step.units if p.id == "boar_boyz"} == {
        (align["placed"]["boar_boyz"]["x"], align["placed"]["boar_boyz"]["y"],
         align["placed"]["boar_boyz"]["facing"])}
    assert steps[-1].lines[-1] == "    Empire wins: victory points after 6 rounds"
    # the second Orc mob, caught fleeing, is gone from the next step on
    caught = next(e for e in events if e["kind"] == "destroyed" and e["unit"] == "big_mob")
    assert "big_mob" not in {p.id for p in by_seq[caught["seq"]].units}
    assert "big_mob" in {p.id for p in steps[steps.index(by_seq[caught["seq"]]) - 1].units}


def test_a_picture_shows_the_table_at_the_end_of_a_round_with_its_moves(
        battle_log, tmp_path, capsys) -> None:
    pictures = {}
    for n in ("1", "2"):
        out = tmp_path / f"round{n}.svg"
        assert _replay(capsys, str(battle_log), "-o", str(out), "--turn", n) == (0, "")
        pictures[n] = out.read_text(encoding="utf-8")
    # the second Orc mob is caught and destroyed in round 2
    assert 'data-unit="big_mob"' in pictures["1"]
    assert 'data-unit="big_mob"' not in pictures["2"]
    assert "the table at the end of round 2 of 6, with its moves" in pictures["2"]
    events = [json.loads(line) for line in battle_log.read_text().splitlines()]
    charges = [e for e in events if e["kind"] == "engage" and e["round"] == 2]
    assert pictures["2"].count('class="mark mark-engage"') == len(charges) > 0
    assert pictures["2"].startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="-3 -5 78 56" '
                                    'width="936" height="672"')


def test_a_shape_in_an_event_is_drawn(battle_log, tmp_path, capsys) -> None:
    lines = battle_log.read_text().splitlines()
    marker = {"kind": "log", "message": "a marker", "values": [], "at": "rules.rules:1:1",
              "seq": 10**6, "round": 6, "side": None, "phase": None,
              "shape": {"kind": "circle", "x": 10, "y": 8, "radius": 2.5, "label": "a blast"}}
    template = dict(marker, shape={"kind": "polygon", "points": [[0, 0], [4, 0], [2, 3]]})
    log = tmp_path / "shapes.jsonl"
    log.write_text("\n".join(lines[:-1] + [json.dumps(marker), json.dumps(template),
                                            lines[-1]]) + "\n")
    out = tmp_path / "end.svg"
    assert _replay(capsys, str(log), "-o", str(out)) == (0, "")
    picture = out.read_text(encoding="utf-8")
    # the table is 48" deep: y 8 is drawn at 40, the triangle's corners at 48, 48 and 45
    assert ('<circle class="mark-shape" cx="10" cy="40" r="2.5"><title>a blast</title>'
            "</circle>") in picture
    assert '<polygon class="mark-shape" points="0,48 4,48 2,45">' in picture


def test_an_event_without_a_field_of_its_kind_is_told_at_its_line(battle_log, tmp_path,
                                                                  capsys) -> None:
    """The replay tells each event as its record (rules_run.runtime.events): an event that
    lacks a field its kind always has is an error at its line, not a traceback."""
    lines = battle_log.read_text().splitlines()
    broken = {"kind": "log", "values": [], "at": "rules.rules:1:1", "seq": 10**6,
              "round": 6, "side": None, "phase": None}
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join(lines[:-1] + [json.dumps(broken), lines[-1]]) + "\n")
    code, err = _replay(capsys, str(log), "-o", str(tmp_path / "x.svg"))
    assert code == 1
    assert (f"broken.jsonl:{len(lines)}:1: error: a 'log' event the replay cannot read "
            "(KeyError: 'message')") in err


def test_a_wheel_and_a_marker_are_steps(battle_log) -> None:
    """A unit turning (``wheel``) is drawn where the event puts it, with an arrow; a template
    laid (``marker``) is drawn as its shape, and taken off again with no shape."""
    lines = battle_log.read_text().splitlines()
    events = [json.loads(line) for line in lines]
    last = events[-1]
    knights = next(e for e in reversed(events) if "knights" in (e.get("placed") or {}))
    was = knights["placed"]["knights"]
    common = {"seq": last["seq"], "round": last["round"], "side": "empire", "phase": None}
    wheel = dict(common, kind="wheel", unit="knights", degrees=45, inches=3.1,
                 placed={"knights": dict(was, x=was["x"] + 1, facing=was["facing"] + 45)})
    laid = dict(common, kind="marker", marker="blast_template", change="placed",
                at=[10, 8], to=[10, 8], diameters=[5, 5])
    swept = dict(laid, change="stretched", to=[20, 8], diameters=[2, 4])
    gone = dict(common, kind="marker", marker="blast_template", change="removed")
    added = [wheel, laid, swept, gone]
    for n, e in enumerate(added, 1):
        e["seq"] += n - 1
    last["seq"] += len(added)
    log = battle_log.parent / "wheel.jsonl"
    log.write_text("\n".join(lines[:-1] + [json.dumps(e) for e in [*added, last]]) + "\n")
    steps = load(log).steps
    assert [s.kind for s in steps[-5:]] == ["wheel", "marker", "marker", "marker", "result"]
    turned, circle, disc, off = steps[-5:-1]
    (p,) = [p for p in turned.units if p.id == "knights"]
    assert (p.x, p.y, p.facing) == (was["x"] + 1, was["y"], was["facing"] + 45)
    assert [m.kind for m in turned.marks] == ["move"]
    assert turned.lines[-1] == "    Knights wheel 45° (3.1\")"
    assert [m.shape for m in circle.marks] == [
        {"kind": "circle", "x": 10, "y": 8, "radius": 2.5, "label": "blast_template"}]
    assert circle.lines[-1] == "    Blast template placed at (10, 8), 5\" across"
    assert [m.shape["kind"] for m in disc.marks if m.shape] == ["polygon"]
    assert off.marks == () and off.lines[-1] == "    Blast template removed"


@pytest.mark.parametrize(("text", "told"), [
    # a log of an older version: what it is, what is needed, how to get it
    ('{"kind": "header", "log_version": 1, "seed": 2}\n{"kind": "battle"}\n',
     "events.jsonl:1:1: error: this log was written by log version 1; rules-replay reads "
     "version 2, whose events carry where the units stand\n"
     '    {"kind": "header", "log_version": 1, "seed": 2}\n'
     "    ^\n"
     "  hint: write the log again with this rules-run: rules-run BATTLE.yaml --log FILE\n"),
    ('{"kind": "header", "log_version": 3}\n',
     "events.jsonl:1:1: error: this log was written by log version 3; rules-replay reads "
     "version 2\n"
     '    {"kind": "header", "log_version": 3}\n'
     "    ^\n"
     "  hint: use the rules-run that wrote it, or a newer rules-replay\n"),
    # every line that is not an event, at once
    ('{"kind": "header", "log_version": 2}\nnot json\n{"kind": 3}\n{"kind": "battle", "x": }\n',
     "events.jsonl:2:1: error: not JSON: Expecting value\n"
     "    not json\n"
     "    ^\n"
     "events.jsonl:3:1: error: each line of an event log is a JSON object with a 'kind'\n"
     '    {"kind": 3}\n'
     "    ^\n"
     "events.jsonl:4:25: error: not JSON: Expecting value\n"
     '    {"kind": "battle", "x": }\n'
     "                            ^\n"
     "3 errors\n"),
    ('{"kind": "battle"}\n',
     "events.jsonl:1:1: error: this is not an event log: its first line is not the header "
     "(kind 'header')\n"
     '    {"kind": "battle"}\n'
     "    ^\n"
     "  hint: write one with: rules-run BATTLE.yaml --log FILE\n"),
])
def test_a_log_that_cannot_be_drawn_is_told_at_its_lines(text, told, tmp_path, capsys,
                                                        monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("events.jsonl").write_text(text)
    assert _replay(capsys, "events.jsonl", "-o", "x.html") == (1, told)
    assert not Path("x.html").exists()


@pytest.mark.parametrize(("argv", "code", "message"), [
    # the command line wrong in itself: exit 2, before the log is read
    (["-o", "x.png"], 2, "error: -o x.png: write a .html page or an .svg picture (not '.png')"),
    (["-o", "no/such/folder/x.svg"], 2,
     "error: -o no/such/folder/x.svg: the folder no/such/folder does not exist"),
    (["-o", "page.html"], 2,
     "error: -o page.html is a folder; give a file name, such as page.html/replay.html"),
    # a round the battle does not hold: the input is wrong, exit 1
    (["-o", "x.svg", "--turn", "9"], 1,
     "error: round 9 is not in the battle of duel.jsonl: it has rounds 0 (the set-up) to 2"),
])
def test_rules_replay_tells_what_it_cannot_do(argv, code, message, tmp_path, capsys,
                                              monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("page.html").mkdir()
    assert run.main([DUEL, "--log", "duel.jsonl"]) == 0
    capsys.readouterr()
    assert _replay(capsys, "duel.jsonl", *argv) == (code, message + "\n")
    assert _replay(capsys, "missing.jsonl", "-o", "x.svg") == (
        1, "error: cannot read the event log missing.jsonl: No such file or directory\n")
    assert not Path("x.png").exists() and not Path("x.svg").exists()


@pytest.mark.parametrize("argv", [
    ["events.jsonl", "-o", "x.svg", "--turn", "-1"],
    ["events.jsonl", "-o", "x.svg", "--turn", "x"],
    ["events.jsonl", "-o", "x.svg", "--no-such-option"],
    ["events.jsonl"],
])
def test_a_command_line_rules_replay_cannot_take_exits_2(argv, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        replay.main(argv)
    assert done.value.code == 2
    assert "usage: rules-replay" in capsys.readouterr().err


def test_a_limit_that_is_not_one_exits_2(tmp_path, capsys) -> None:
    code, err = _replay(capsys, str(tmp_path / "events.jsonl"), "-o", str(tmp_path / "x.svg"),
                        "--limit", "dice=x")
    assert code == 2 and err.startswith("error: --limit: "), err


@pytest.mark.parametrize(("argv", "message"), [
    # the command line wrong in itself: exit 2 (docs/cli.md, exit codes)
    (["--replay-turn", "2"], "error: --replay-turn N goes with --replay FILE"),
    (["--replay", "a.html", "--runs", "3"],
     "error: --log, --replay, --explain, --summary and --decisions describe one battle; "
     "drop --runs"),
    (["--replay", "a.pdf"], "error: --replay a.pdf: write a .html page or an .svg picture "
     "(not '.pdf')"),
    (["--replay", "no/such/folder/a.html"],
     "error: --replay no/such/folder/a.html: the folder no/such/folder does not exist"),
])
def test_rules_run_tells_what_replay_it_cannot_draw(argv, message, capsys) -> None:
    assert _run(capsys, "-e", "wfb8", *argv) == (2, message + "\n")


def test_the_help_says_what_it_draws(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        replay.main(["--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    usage = " ".join(text.split("\n\n")[0].split())
    assert usage == ("usage: rules-replay [-h] -o FILE.html|FILE.svg [--turn N] [--version] "
                     "[--limit NAME=N] [--debug] EVENTS.jsonl")
    assert "rules-replay events.jsonl -o table.svg --turn 2" in text
    assert "--limit NAME=N" in text and "--debug" in text


def test_the_version(capsys) -> None:
    from rules_run import __version__

    with pytest.raises(SystemExit) as done:
        replay.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"rules-replay (rules-run) {__version__}\n"
