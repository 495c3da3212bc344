"""The wfb3 README's table of worked examples (rulesets/wfb3/README.md, "Worked examples as
tests") against the test files it names: each example a row lists appears in that file (as
``WE-nn`` or in a test's name, ``wenn``), and the examples listed, reproduced or not, are
the digest's 59 (its section 11, WE-01 ... WE-88), each once."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "rulesets" / "wfb3" / "README.md"

DIGEST = [  # the digest's section 11: 59 worked examples
    1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 20, 22, 23, 25, 26, 28, 29, 31, 32, 34, 35,
    37, 38, 40, 41, 43, 44, 46, 47, 49, 50, 52, 53, 55, 56, 58, 59, 61, 62, 64, 65, 67, 68,
    70, 71, 73, 74, 76, 77, 79, 80, 82, 83, 85, 86, 88]


def section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Worked examples as tests")
    return text[start:text.index("\n## ", start + 1)]


def table() -> dict[str, list[int]]:
    """The table's rows: file name -> the examples it lists."""
    rows: dict[str, list[int]] = {}
    for line in section().splitlines():
        m = re.fullmatch(r"\| (.*) \| `(test_wfb3\w*\.py)` \|", line)
        if m:
            rows[m.group(2)] = [int(n) for n in re.findall(r"WE-(\d\d)", m.group(1))]
    return rows


def not_reproduced() -> list[int]:
    part = section().split("Not reproduced, with the reason:", 1)[1]
    return [int(n) for n in re.findall(r"^- WE-(\d\d) \(L\d+", part, flags=re.M)]


def test_each_example_the_table_lists_is_in_the_file_it_names() -> None:
    rows = table()
    assert len(rows) == 7
    for name, examples in rows.items():
        text = (ROOT / "tests" / "editions" / name).read_text(encoding="utf-8")
        for n in examples:
            assert re.search(rf"(?i)(?<![0-9a-z])we-?{n:02d}(?![0-9])", text), (name, n)


def test_the_examples_listed_are_the_digests_59_each_once() -> None:
    listed = [n for examples in table().values() for n in examples]
    missing = not_reproduced()
    assert sorted(listed + missing) == DIGEST
    assert len(listed) == 56
    assert f"{len(listed)} are tests" in section()
