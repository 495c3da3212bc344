"""Loading YAML: plain values, the location index, and located errors for broken files."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from rules_run.data.yaml_loader import load_yaml, path_text
from rules_run.diagnostics import DataError, Span


def errors_of(text: str) -> list[tuple[int, int, str, str]]:
    """``(line, column, code, message)`` of every diagnostic loading ``text`` gives."""
    with pytest.raises(DataError) as caught:
        load_yaml("f.yaml", text)
    return [
        (d.span.line, d.span.column, d.code, d.message) if d.span else (0, 0, d.code, d.message)
        for d in caught.value.diagnostics
    ]


# --- plain values ------------------------------------------------------------------------


def test_yes_no_on_off_stay_strings() -> None:
    doc = load_yaml("f.yaml", "a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: n\n")
    assert doc.value == {"a": "yes", "b": "No", "c": "on", "d": "OFF", "e": "y", "f": "n"}


def test_true_and_false_in_any_case_are_booleans() -> None:
    doc = load_yaml("f.yaml", "[true, True, TRUE, tRuE, false, FALSE]")
    assert doc.value == [True, True, True, True, False, False]
    assert all(type(v) is bool for v in doc.value)


def test_dates_and_times_stay_strings() -> None:
    doc = load_yaml("f.yaml", "d: 2024-05-01\nt: 2024-05-01T10:00:00Z\nclock: 12:30\n")
    assert doc.value == {"d": "2024-05-01", "t": "2024-05-01T10:00:00Z", "clock": "12:30"}


def test_ints_stay_ints_and_floats_stay_floats() -> None:
    doc = load_yaml("f.yaml", "[12, -3, +4, 007, 1.5, .5, 2e3, 6.]")
    assert doc.value == [12, -3, 4, 7, 1.5, 0.5, 2000.0, 6.0]
    assert [type(v) for v in doc.value] == [int] * 4 + [float] * 4


def test_other_number_spellings_stay_strings() -> None:
    doc = load_yaml("f.yaml", "[0x1F, 0o17, 1_000, .inf, .NaN]")
    assert doc.value == ["0x1F", "0o17", "1_000", ".inf", ".NaN"]


def test_null_spellings() -> None:
    doc = load_yaml("f.yaml", "a: null\nb: ~\nc:\nd: NULL\ne: 'null'\n")
    assert doc.value == {"a": None, "b": None, "c": None, "d": None, "e": "null"}


def test_int_keys_are_kept_as_ints() -> None:
    doc = load_yaml("f.yaml", "1: 4+\n2: 5+\n'3': 6+\n")
    assert doc.value == {1: "4+", 2: "5+", "3": "6+"}


def test_values_are_plain_python_types() -> None:
    doc = load_yaml("f.yaml", "a: {b: [1, x, 1.5, true, null]}\n")
    assert type(doc.value) is dict and type(doc.value["a"]) is dict
    assert [type(v) for v in doc.value["a"]["b"]] == [int, str, float, bool, type(None)]


def test_standard_tags_are_allowed() -> None:
    doc = load_yaml("f.yaml", "a: !!str 12\nb: !!int '7'\nc: !!map {x: 1}\n")
    assert doc.value == {"a": "12", "b": 7, "c": {"x": 1}}


def test_aliases_are_allowed_and_copied() -> None:
    doc = load_yaml("f.yaml", "a: &p {WS: 3}\nb: *p\n")
    assert doc.value == {"a": {"WS": 3}, "b": {"WS": 3}}
    assert doc.value["a"] is not doc.value["b"]


def test_empty_document_is_none() -> None:
    doc = load_yaml("f.yaml", "# nothing here\n")
    assert doc.value is None
    assert doc.span(("anything",)) == Span("f.yaml", 1, 1)


def test_text_given_means_the_file_is_not_read(tmp_path: Path) -> None:
    missing = tmp_path / "not-there.yaml"
    assert load_yaml(missing, "a: 1\n").path == str(missing)


def test_reads_the_file(tmp_path: Path) -> None:
    file = tmp_path / "units.yaml"
    file.write_text("\ufeffa: 1\n", encoding="utf-8")  # a byte-order mark is allowed
    doc = load_yaml(file)
    assert doc.value == {"a": 1}
    assert doc.span(("a",)).path == str(file)


# --- spans -------------------------------------------------------------------------------

NESTED = """\
units:
  - id: halberdiers
    profile:
      WS: 3
      BS: [3, 4]
  - id: orcs
notes: |
  text
"""


def test_span_of_a_nested_value() -> None:
    doc = load_yaml("f.yaml", NESTED)
    assert doc.span(("units", 0, "profile", "WS")) == Span("f.yaml", 4, 11, 4, 12)
    assert doc.span(("units", 0, "profile", "BS", 1)) == Span("f.yaml", 5, 15, 5, 16)
    assert doc.span(("units", 1, "id")) == Span("f.yaml", 6, 9, 6, 13)


def test_span_of_a_key() -> None:
    doc = load_yaml("f.yaml", NESTED)
    assert doc.key_span(("units", 0, "profile", "WS")) == Span("f.yaml", 4, 7, 4, 9)
    assert doc.key_span(("units", 0, "profile")) == Span("f.yaml", 3, 5, 3, 12)


def test_key_span_of_a_list_item_is_the_item() -> None:
    doc = load_yaml("f.yaml", NESTED)
    assert doc.key_span(("units", 1)) == doc.span(("units", 1)) == Span("f.yaml", 6, 5, 6, 13)


def test_block_collection_ends_with_its_last_value() -> None:
    doc = load_yaml("f.yaml", NESTED)
    assert doc.span(("units", 0)) == Span("f.yaml", 2, 5, 5, 17)
    assert doc.span(("units",)) == Span("f.yaml", 2, 3, 6, 13)


def test_unknown_path_gives_the_nearest_ancestor() -> None:
    doc = load_yaml("f.yaml", NESTED)
    assert doc.span(("units", 0, "profile", "Ld")) == doc.span(("units", 0, "profile"))
    assert doc.key_span(("units", 7, "x")) == doc.key_span(("units",)) == Span("f.yaml", 1, 1, 1, 6)
    assert doc.span(("nowhere", 3)) == doc.span(())


def test_value_reached_through_an_alias_is_located_at_the_alias() -> None:
    doc = load_yaml("f.yaml", "a: &p {WS: 3}\nb: *p\n")
    assert doc.span(("b",)) == Span("f.yaml", 2, 4, 2, 6)
    assert doc.span(("b", "WS")) == Span("f.yaml", 1, 12, 1, 13)  # inside, the anchor's


def test_int_keys_are_found_by_int_paths() -> None:
    doc = load_yaml("f.yaml", "table:\n  1: 4+\n  2: 5+\n")
    assert doc.span(("table", 2)) == Span("f.yaml", 3, 6, 3, 8)
    assert doc.key_span(("table", 2)) == Span("f.yaml", 3, 3, 3, 4)


def test_path_text() -> None:
    assert path_text(("units", 0, "profile", "WS")) == "units[0].profile.WS"
    assert path_text(("table", 3)) == "table[3]"
    assert path_text(("rules", "Ward Save")) == "rules['Ward Save']"
    assert path_text((0, "x")) == "[0].x"


# --- broken files ------------------------------------------------------------------------

BROKEN = [
    pytest.param(
        "a: 1\nb:\n  c: 2\n  c: 3\na: 4\n",
        [
            (4, 3, "duplicate-key", "duplicate key 'c' (first given at line 3)"),
            (5, 1, "duplicate-key", "duplicate key 'a' (first given at line 1)"),
        ],
        id="two-duplicate-keys",
    ),
    pytest.param(
        "1: x\n2: y\n1: z\n",
        [(3, 1, "duplicate-key", "duplicate key 1 (first given at line 1)")],
        id="duplicate-int-key",
    ),
    pytest.param(
        "a: {x: 1, x: 2}\nb:\n  x: 1\n  x:\n    y: 1\n    y: 2\n",
        [
            (1, 11, "duplicate-key", "duplicate key 'x' (first given at line 1)"),
            (4, 3, "duplicate-key", "duplicate key 'x' (first given at line 3)"),
            (6, 5, "duplicate-key", "duplicate key 'y' (first given at line 5)"),
        ],
        id="duplicates-inside-a-duplicate",
    ),
    pytest.param(
        "name: Halberdier\nrules: Stubborn: yes\n",
        [(2, 16, "yaml-syntax", "mapping values are not allowed here")],
        id="colon-in-plain-value",
    ),
    pytest.param(
        "profile:\n\tWS: 3\n",
        [(2, 1, "yaml-syntax", "found character '\\t' that cannot start any token")],
        id="tab-indent",
    ),
    pytest.param(
        "cite: 'L450\nname: x\n",
        [(1, 7, "yaml-syntax", "reached the end of the file while scanning a quoted scalar")],
        id="unclosed-quote",
    ),
    pytest.param(
        "values: [1, 2, 3\n",
        [
            (
                1,
                9,
                "yaml-syntax",
                "expected ',' or ']', but got the end of the file while parsing a flow sequence",
            )
        ],
        id="unclosed-bracket",
    ),
    pytest.param(
        "units:\n  - a\n  b: 1\n",
        [(3, 3, "yaml-syntax", "expected the end of the indented block, but found another key")],
        id="key-among-list-items",
    ),
    pytest.param(
        "profile:\n    WS: 3\n  BS: 3\n",
        [
            (
                3,
                3,
                "yaml-syntax",
                "expected the end of the indented block, but found a mapping that starts here",
            )
        ],
        id="key-indented-less-than-its-siblings",
    ),
    pytest.param(
        "keywords:\n  - INFANTRY\n  ORDER\n",
        [(3, 3, "yaml-syntax", "could not find expected ':' while scanning a simple key")],
        id="list-item-without-dash",
    ),
    pytest.param(
        "a: 1\n---\nb: 2\n",
        [
            (
                2,
                1,
                "yaml-syntax",
                "expected a single document in the stream, but found another document",
            )
        ],
        id="two-documents",
    ),
    pytest.param(
        "a: *nowhere\n",
        [(1, 4, "yaml-syntax", "found undefined alias 'nowhere'")],
        id="undefined-alias",
    ),
    pytest.param(
        "a: !dice 2D6\nb: !!python/tuple [1, 2]\n",
        [
            (1, 4, "unknown-tag", "unknown tag '!dice'"),
            (2, 4, "unknown-tag", "unknown tag '!!python/tuple'"),
        ],
        id="unknown-tags",
    ),
    pytest.param(
        "a: !!int many\n", [(1, 4, "bad-value", "'many' is not a valid !!int")], id="bad-int-tag"
    ),
    pytest.param(
        # a position of 1e999 inches would read as infinity, and geometry with it is not exact
        "x: 1.0e+999\ny: -2e400\nz: 1e308\n",
        [(1, 4, "bad-value", "1.0e+999 is too large a number"),
         (2, 4, "bad-value", "-2e400 is too large a number")],
        id="infinite-float",
    ),
    pytest.param(
        "base: &b {WS: 3}\nelite:\n  <<: *b\n  BS: 4\n",
        [(3, 3, "merge-key", "merge keys ('<<') are not supported")],
        id="merge-key",
    ),
    pytest.param(
        "a: &x [1, *x]\n",
        [(1, 11, "recursive-alias", "this alias is used inside its own anchor")],
        id="recursive-alias",
    ),
    pytest.param(
        "? [1, 2]\n: x\n",
        [(1, 3, "bad-key", "a mapping key must be a plain value (a name or a number), not a list")],
        id="list-as-key",
    ),
    pytest.param(
        "a: b\x07\n",
        [
            (
                1,
                5,
                "yaml-syntax",
                "unacceptable character #x0007: special characters are not allowed",
            )
        ],
        id="control-character",
    ),
]


@pytest.mark.parametrize(("text", "expected"), BROKEN)
def test_broken_yaml(text: str, expected: list[tuple[int, int, str, str]]) -> None:
    assert errors_of(text) == expected


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    assert errors_of_file(missing) == [
        (None, "no-file", f"cannot read {str(missing)!r}: No such file or directory")
    ]


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    file = tmp_path / "latin1.yaml"
    file.write_bytes("name: Gardé\n".encode("latin-1"))
    [(span, code, message)] = errors_of_file(file)
    assert (span, code) == (None, "bad-encoding")
    assert message.startswith(f"{str(file)!r} is not UTF-8 text")


def errors_of_file(path: Path) -> list[tuple[Span | None, str, str]]:
    with pytest.raises(DataError) as caught:
        load_yaml(path)
    return [(d.span, d.code, d.message) for d in caught.value.diagnostics]


def test_alias_bomb_is_stopped() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 7)]
    [(line, column, code, message)] = errors_of("\n".join(lines) + "\n")
    assert code == "too-large"
    assert message == ("the document expands to more than 100000 values through aliases "
                       "(here: an alias of values holding aliases, and so on)")
    assert (line, column) == (5, 45)  # the alias in a4 that goes past the cap (a4 alone: 111,110)


def test_the_alias_cap_counts_values_reached_through_aliases_only(monkeypatch) -> None:
    from rules_run.data import yaml_parse

    monkeypatch.setattr(yaml_parse, "_MAX_ALIASED", 50)
    plain = "n: [" + ", ".join(["1"] * 1000) + "]\n"   # a big file: no alias in it
    assert len(load_yaml("big.yaml", plain).value["n"]) == 1000
    aliased = "a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9]\nb: [" + ", ".join(["*a"] * 6) + "]\n"
    [(line, column, code, _)] = errors_of(aliased)   # 6 aliases of 10 values each
    assert (line, column, code) == (2, 25, "too-large")  # the sixth alias: values 51-60


def test_render_shows_the_line_and_a_caret() -> None:
    with pytest.raises(DataError) as caught:
        load_yaml("units.yaml", "units:\n  halberdier: {WS: 3}\n  halberdier: {WS: 4}\n")
    assert caught.value.render() == (
        "units.yaml:3:3: error: duplicate key 'halberdier' (first given at line 2)\n"
        "      halberdier: {WS: 4}\n"
        "      ^^^^^^^^^^"
    )


def test_render_of_a_syntax_error_has_a_hint() -> None:
    with pytest.raises(DataError) as caught:
        load_yaml("b.yaml", "rules: Stubborn: yes\n")
    assert caught.value.render() == (
        "b.yaml:1:16: error: mapping values are not allowed here\n"
        "    rules: Stubborn: yes\n"
        "                   ^\n"
        "  hint: put quotes around a value that contains ': '"
    )


def test_error_is_never_a_yaml_exception() -> None:
    with pytest.raises(DataError) as caught:
        load_yaml("f.yaml", "[")
    assert not isinstance(caught.value, yaml.YAMLError)
    assert caught.value.__cause__ is None


def test_global_loaders_are_untouched() -> None:
    load_yaml("f.yaml", "a: 1\n")
    assert yaml.safe_load("a: yes") == {"a": True}


# --- properties --------------------------------------------------------------------------

RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "inf", "nan"}
words = st.text(string.ascii_lowercase, min_size=1, max_size=8).filter(
    lambda w: w not in RESERVED
)
scalars = st.one_of(st.integers(-1000, 1000), words, st.booleans())
data = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(words, inner, min_size=1, max_size=4)
    ),
    max_leaves=20,
)


def leaves(value: object, path: tuple[object, ...] = ()) -> list[tuple[tuple[object, ...], object]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in leaves(v, path + (k,))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in leaves(v, path + (i,))]
    return [(path, value)]


@given(data, st.booleans())
def test_every_leaf_span_covers_its_text(value: object, flow: bool) -> None:
    text = yaml.safe_dump(value, default_flow_style=flow, width=10_000)
    doc = load_yaml("p.yaml", text)
    assert doc.value == value
    lines = text.splitlines()
    for path, leaf in leaves(value):
        span = doc.span(path)
        assert span.end_line == span.line and span.end_column is not None
        written = lines[span.line - 1][span.column - 1 : span.end_column - 1]
        assert written == yaml.safe_dump(leaf).removesuffix("\n...\n").strip()
