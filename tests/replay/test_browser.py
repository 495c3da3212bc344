"""Every bundled battle's replay page, opened in a real headless Chromium.

For each battle the test writes the event log and the page with ``rules-run --log --replay``,
opens the page, steps through the whole battle with the right arrow key, and at every step reads
back from the page's DOM which units are drawn, where and how they are turned, and what
their tooltips say. It checks them against the event log, read here on its own: the units on
the table after the step's event (those the battle began with, less those destroyed, gone
off the table or set aside, plus those that arrived), each where the last event that placed
it put it (after a move, a charge, a wheel or an align too). It also checks that every move,
charge, wheel, align, marker, casualty, ... of the log is a step, that the buttons, the slider
and Home/End go where they say, and takes a screenshot.

Chromium and its driver are Debian's ``chromium`` and ``chromium-driver`` (.ci/run installs
them). Without them the tests are skipped, except under CI (``CI=true``), where they fail.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
from pathlib import Path

import pytest

from rules_run.cli import run

ROOT = Path(__file__).resolve().parents[2]
BATTLES = sorted(p.relative_to(ROOT).as_posix()
                 for p in (ROOT / "rulesets").glob("**/battles/**/*.yaml"))
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1500,950")
MOVES = {"move", "engage", "wheel", "align"}
"""The kinds of event that move or turn their unit (each places it: its new place is checked
at its step)."""
STEPS = {"battle", *MOVES, "casualties", "destroyed", "left_table", "set_aside", "arrive",
         "attach", "detach", "returned", "heal", "attacks", "marker", "result"}
"""The kinds of event docs/cli.md says are steps (with the statuses the log tells and the
events with a shape)."""

PRESS = """
document.dispatchEvent(new KeyboardEvent('keydown', {key: arguments[0], bubbles: true}));
"""
"""A key pressed on the page (the real key presses of the keys test take a round trip more
each)."""

READ = """
const units = [...document.querySelectorAll('#units g.unit')]
  .filter(g => g.style.display !== 'none')
  .map(g => [g.dataset.unit, g.getAttribute('transform'),
             g.querySelector('.body').getAttribute('transform'),
             g.querySelector('title').textContent,
             g.querySelectorAll('.body .base').length]);
return {step: Number(document.body.dataset.step), seq: Number(document.body.dataset.seq),
        units: units, log: document.querySelector('#log .current .line-of-step').textContent,
        last: Number(document.getElementById('slider').max)};
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        selenium = False
    else:
        selenium = True
    if not selenium or chromium is None or driver is None:
        missing = ("the selenium package" if not selenium else
                   "chromium" if chromium is None else "chromedriver")
        message = f"{missing} is not installed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium')}")
    session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
    yield session
    session.quit()


def _expected(events: list[dict], seq: int) -> dict[str, dict]:
    """The units on the table after event ``seq``: id -> place, models, statuses."""
    table: dict[str, dict] = {}
    everyone: dict[str, dict] = {}
    for e in events:
        if e.get("seq", 0) > seq:
            break
        kind = e["kind"]
        if kind == "battle":
            everyone = {u["id"]: {"models": u["models"], "statuses": set(u["statuses"])}
                        for u in e["units"]}
            table = dict(everyone)
        for uid, place in (e.get("placed") or {}).items():
            everyone[uid].update(place)
        if kind in ("destroyed", "set_aside"):
            table.pop(e["unit"], None)
        elif kind == "left_table":
            for uid in [e["unit"], *e["followers"]]:
                table.pop(uid, None)
        elif kind == "arrive":
            table[e["unit"]] = everyone[e["unit"]]
        elif kind in ("casualties", "returned"):
            everyone[e["unit"]]["models"] = e["models_left"]
        elif kind == "status" and e["unit"] in everyone:
            statuses = everyone[e["unit"]]["statuses"]
            (statuses.add if e["change"] == "gains" else statuses.discard)(e["status"])
        elif kind == "expire":
            for uid, names in e["statuses"].items():
                everyone[uid]["statuses"].difference_update(names)
    return table


def _numbers(transform: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?[\d.]+", transform)]


def _check_step(drawn: dict, events: list[dict], depth: float) -> None:
    expected = _expected(events, drawn["seq"])
    assert sorted(u[0] for u in drawn["units"]) == sorted(expected), drawn["seq"]
    for uid, translate, rotate, tip, bases in drawn["units"]:
        want = expected[uid]
        x, y = _numbers(translate)
        (facing,) = _numbers(rotate)
        assert math.isclose(x, want["x"], abs_tol=1e-3), (drawn["seq"], uid)
        assert math.isclose(y, depth - want["y"], abs_tol=1e-3), (drawn["seq"], uid)
        assert math.isclose(facing, want["facing"] % 360, abs_tol=1e-3), (drawn["seq"], uid)
        assert bases == want["models"], (drawn["seq"], uid)
        assert f": {want['models']} of " in tip, (drawn["seq"], uid, tip)
        statuses = ", ".join(sorted(want["statuses"])) or "none"
        assert tip.endswith(f"statuses: {statuses}"), (drawn["seq"], uid, tip)


def _step_seqs(events: list[dict]) -> list[int]:
    for e in events:
        if e["kind"] in MOVES:
            # a unit moved or turned is drawn where the event puts it (checked at its step)
            assert e["unit"] in e["placed"], e
    return [e["seq"] for e in events[1:] if e["kind"] in STEPS or "shape" in e
            or (e["kind"] == "status" and not e["quiet"])]


@pytest.mark.parametrize("battle", BATTLES)
def test_the_replay_shows_every_step_of_the_battle(battle, browser, tmp_path, capsys):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    log, page = tmp_path / "events.jsonl", tmp_path / "replay.html"
    assert run.main([str(ROOT / battle), "--log", str(log), "--replay", str(page)]) == 0
    capsys.readouterr()
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    depth = next(e for e in events if e["kind"] == "battle")["table"]["depth"]
    browser.get(page.as_uri())
    body = browser.find_element(By.TAG_NAME, "body")
    seqs = []
    drawn = browser.execute_script(READ)
    for k in range(drawn["last"] + 1):
        if k:
            drawn = browser.execute_script(PRESS + READ, "ArrowRight")
        assert drawn["step"] == k
        _check_step(drawn, events, depth)
        seqs.append(drawn["seq"])
    assert seqs == _step_seqs(events)
    # past the end the arrow stays on the last step; the result is told there
    body.send_keys(Keys.ARROW_RIGHT)
    assert browser.execute_script(READ)["step"] == drawn["last"]
    assert "wins: " in drawn["log"] or "a draw: " in drawn["log"]
    browser.save_screenshot(str(tmp_path / "replay.png"))
    assert (tmp_path / "replay.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_buttons_the_slider_and_the_keys_move_through_the_steps(browser, tmp_path, capsys):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    log, page = tmp_path / "events.jsonl", tmp_path / "replay.html"
    assert run.main([str(ROOT / "rulesets/wfb8/battles/battle.yaml"), "--log", str(log),
                     "--replay", str(page)]) == 0
    capsys.readouterr()
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    browser.get(page.as_uri())
    seqs = _step_seqs(events)
    rounds = {e["seq"]: e["round"] for e in events[1:]}

    def at() -> int:
        return browser.execute_script(READ)["step"]

    def click(name: str) -> int:
        browser.find_element(By.ID, name).click()
        return at()

    last = len(seqs) - 1
    assert at() == 0
    assert click("last") == last
    assert click("prev") == last - 1
    assert click("first") == 0
    assert click("next") == 1
    assert click("first") == 0
    # the next round: the first step of round 1, then of round 2
    first_of = {r: min(i for i, s in enumerate(seqs) if rounds[s] == r) for r in (1, 2)}
    assert click("forward") == first_of[1]
    assert click("forward") == first_of[2]
    assert click("back") == first_of[1]
    browser.execute_script("const s = document.getElementById('slider'); s.value = '40';"
                           "s.dispatchEvent(new Event('input'));")
    assert at() == 40
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.END)
    assert at() == last
    body.send_keys(Keys.HOME)
    assert at() == 0
    body.send_keys(Keys.PAGE_DOWN)
    assert at() == first_of[1]
    # the page loaded nothing: no request left the file
    assert browser.execute_script(
        "return performance.getEntriesByType('resource').length") == 0
