"""Lookup tables: to-hit and to-wound charts, damage tables, any n-dimensional chart.

A table file (``kind: table``, see ``schemas/table.schema.json``) names its keys in lookup
order, each with the values it takes, and gives the cells as nested lists in the same order:
the first key picks a row, the second an entry in that row, and so on. :func:`load_table`
checks the file against the schema, then checks that the nesting matches the keys exactly,
and returns a :class:`Table` whose every cell knows where it was written.

A key may type some of its values' cells (``types: {hits: dice}``): a cell under a value
typed ``dice`` holds dice written as data writes them (``D6``, ``2D6``, ``D3+1``, a whole
number, or null), listed in :attr:`Table.dice_cells`. This layer knows which cells those
are; the ruleset loader checks their text as dice, and the runtime rolls them when read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from rules_run import slotted
from rules_run.chance.dice import DiceExpr
from rules_run.data.schema import load_and_check
from rules_run.data.yaml_loader import DataPath, YamlDocument, path_text
from rules_run.diagnostics import DataError, DiagnosticBag, Span, did_you_mean

__all__ = ["CELL_TYPES", "Cell", "KeyValue", "Table", "TableKeyError", "load_table"]

KeyValue: TypeAlias = int | str
"""A value one of a table's keys takes: ``3`` (a characteristic), ``"charge"``."""

Cell: TypeAlias = int | str | DiceExpr | None
"""What a table gives: a number, a short symbol, or None for "impossible" (``-``). A dice
cell is text as this layer reads it, a dice literal once the ruleset loader has parsed it
(:func:`rules_run.editions.contents.read_dice_cells`), and dice as the runtime holds it
(:func:`rules_run.runtime.dice.dice_table`)."""

CELL_TYPES = ("dice",)
"""The types a key's ``types`` may give the cells under one of its values."""


class TableKeyError(KeyError):
    """A lookup with keys the table does not have (a value out of range, a wrong count)."""

    def __init__(self, message: str, *, table: str, keys: tuple[Any, ...]) -> None:
        super().__init__(message)
        self.message = message
        """What is wrong, naming the table, the key and its values."""
        self.table = table
        """The table's name."""
        self.keys = keys
        """The keys the lookup was given."""

    def __str__(self) -> str:
        return self.message


@slotted.frozen
class Table:
    """A loaded lookup table.

    Examples:
        >>> table = load_table("t.yaml", "chart", text='''
        ... kind: table
        ... cite: "not in seed: example"
        ... keys:
        ...   - {name: power, values: [3, 4]}
        ...   - {name: guard, values: [3, 4]}
        ... cells:
        ...   - [4, 5]
        ...   - [3, 4]
        ... ''')
        >>> table.lookup(4, 3)
        3
        >>> table.cell_span((4, 3)).text()
        't.yaml:9:6'
        >>> table.lookup(4, 7)
        Traceback (most recent call last):
        ...
        rules_run.data.tables.TableKeyError: guard 7 is not in table 'chart' (values 3, 4)
    """

    name: str
    """The table's name in the ruleset (``to_hit_melee``)."""
    keys: tuple[str, ...]
    """The keys' names, in lookup order."""
    key_values: tuple[tuple[KeyValue, ...], ...]
    """For each key, the values it takes, in the order the cells list them."""
    cells: Mapping[tuple[KeyValue, ...], Cell] = slotted.slot(repr=False, hash=False)
    """Every cell, by its full key tuple (a 1-tuple for a one-key table)."""
    cite: str
    """Where the table comes from."""
    path: str
    """The file it was loaded from."""
    description: str | None = None
    """What the table gives."""
    dice_cells: frozenset[tuple[KeyValue, ...]] = frozenset()
    """The cells typed ``dice`` by a key's ``types`` (their text is dice: ``D3+1``)."""
    value_cites: tuple[Mapping[KeyValue, str], ...] = ()
    """For each key, the citation its ``cites`` gives the cells under each value it names."""
    _cell_spans: Mapping[tuple[KeyValue, ...], Span] = slotted.slot(
        factory=dict, repr=False, eq=False, alias="cell_spans"
    )

    def lookup(self, *keys: KeyValue) -> Cell:
        """The cell at ``keys``, one value per key in lookup order.

        Raises:
            TableKeyError: a key value the table does not list, or the wrong number of keys.
        """
        cell = self.cells.get(keys, _ABSENT)
        if cell is _ABSENT or bool in map(type, keys):
            # bool is an int in Python, but never a key value: _check says so
            self._check(keys)
        return self.cells[keys]

    def cite_of(self, keys: Sequence[KeyValue]) -> str | None:
        """The citation of the cell at ``keys``: the first key's ``cites`` names its value
        with (None: only the table's)."""
        for cites, key in zip(self.value_cites, keys):
            if key in cites:
                return cites[key]
        return None

    def cell_span(self, keys: Sequence[KeyValue]) -> Span:
        """Where the cell at ``keys`` is written.

        Raises:
            TableKeyError: as :meth:`lookup`.
        """
        keys = tuple(keys)
        self._check(keys)
        return self._cell_spans[keys]

    def _check(self, keys: tuple[Any, ...]) -> None:
        if len(keys) != len(self.keys):
            raise TableKeyError(
                f"table {self.name!r} takes {len(self.keys)} "
                f"key{'' if len(self.keys) == 1 else 's'} ({', '.join(self.keys)}), "
                f"got {len(keys)}",
                table=self.name,
                keys=keys,
            )
        for name, values, key in zip(self.keys, self.key_values, keys):
            # bool is an int in Python, but never a key value.
            if isinstance(key, bool) or key not in values:
                raise TableKeyError(
                    f"{name} {key!r} is not in table {self.name!r} ({_values_text(values)})",
                    table=self.name,
                    keys=keys,
                )


_ABSENT = object()


def load_table(path: str | Path, name: str, *, text: str | None = None) -> Table:
    """Load and check a table file.

    Args:
        path: the table file.
        name: the table's name in the ruleset, for messages.
        text: the file's text, when the caller has it already (then ``path`` is not read).

    Returns:
        The table.

    Raises:
        DataError: the file cannot be loaded, breaks ``table.schema.json``, lists a key or a
            key value twice, or its cells do not nest exactly as its keys say. Every such
            mistake is reported, each located.
    """
    doc = load_and_check(path, "table", text=text)
    builder = _TableBuilder(doc)
    builder.check_keys()
    builder.check_types()
    builder.walk(doc.value["cells"], ("cells",), 0, ())
    builder.bag.raise_if_errors(DataError)
    return Table(
        name=name,
        keys=builder.names,
        key_values=builder.values,
        cells=builder.cells,
        cite=doc.value["cite"],
        path=doc.path,
        description=doc.value.get("description"),
        dice_cells=frozenset(builder.dice),
        value_cites=tuple(dict(k.get("cites", {})) for k in doc.value["keys"]),
        cell_spans=builder.spans,
    )


class _TableBuilder:
    """Checks a schema-valid table document's keys and cells, collecting the cells."""

    def __init__(self, doc: YamlDocument) -> None:
        self.doc = doc
        self.bag = DiagnosticBag()
        self.bag.remember_source(doc.path, doc.text)
        keys = doc.value["keys"]
        self.names: tuple[str, ...] = tuple(key["name"] for key in keys)
        self.values: tuple[tuple[KeyValue, ...], ...] = tuple(tuple(k["values"]) for k in keys)
        self.cells: dict[tuple[KeyValue, ...], Cell] = {}
        self.spans: dict[tuple[KeyValue, ...], Span] = {}
        self.typed: list[dict[KeyValue, str]] = [dict(k.get("types", {})) for k in keys]
        """For each key, the cell type its ``types`` gives each value it names."""
        self.dice: set[tuple[KeyValue, ...]] = set()

    def check_types(self) -> None:
        """Report a ``types`` (or ``cites``) entry naming a value its key does not take."""
        for index, (name, values, key) in enumerate(zip(self.names, self.values,
                                                        self.doc.value["keys"])):
            for field in ("types", "cites"):
                for value in key.get(field, {}):
                    if value in values:
                        continue
                    hint = did_you_mean(str(value), [str(v) for v in values])
                    self.bag.add(
                        f"{field} names {value!r}, which is not a value of key {name!r} "
                        f"({_values_text(values)})",
                        self.doc.key_span(("keys", index, field, value)),
                        code="unknown-value",
                        hint=hint,
                    )

    def check_keys(self) -> None:
        """Report key names, and values of one key, given twice."""
        names: dict[tuple[type, Any], DataPath] = {}
        for index, (name, values) in enumerate(zip(self.names, self.values)):
            self._report_repeat(names, name, ("keys", index, "name"), "key name")
            seen: dict[tuple[type, Any], DataPath] = {}
            for position, value in enumerate(values):
                path = ("keys", index, "values", position)
                self._report_repeat(seen, value, path, f"{name} value")

    def _report_repeat(
        self, first: dict[tuple[type, Any], DataPath], item: Any, path: DataPath, what: str
    ) -> None:
        """Remember where ``item`` was first given in ``first``; report it if it was already."""
        seen = first.setdefault((type(item), item), path)
        if seen != path:
            earlier = self.doc.span(seen)
            self.bag.add(
                f"duplicate {what} {item!r} "
                f"(first given at line {earlier.line}, column {earlier.column})",
                self.doc.span(path),
                code="duplicate-value",
            )

    def walk(self, node: Any, path: DataPath, depth: int, prefix: tuple[KeyValue, ...]) -> None:
        """Check that ``node`` nests as the keys from ``depth`` on say, and keep its cells."""
        span = self.doc.span(path)
        if depth == len(self.names):
            if isinstance(node, list):
                self.bag.add(
                    f"{self._where(path)} should be a single cell, not a list: the table has "
                    f"{len(self.names)} key{'' if len(self.names) == 1 else 's'} "
                    f"({', '.join(self.names)})",
                    span,
                    code="bad-shape",
                )
            else:
                self.cells[prefix] = node
                self.spans[prefix] = span
                if any(typed.get(v) == "dice" for typed, v in zip(self.typed, prefix)):
                    self.dice.add(prefix)
            return
        name, values = self.names[depth], self.values[depth]
        if not isinstance(node, list):
            self.bag.add(
                f"{self._where(path)} should be a list of {len(values)} entries, one for each "
                f"value of {name}; got {'null' if node is None else repr(node)}",
                span,
                code="bad-shape",
            )
            return
        if len(node) != len(values):
            self.bag.add(
                f"{self._where(path)} has {len(node)} entries; {name} has {len(values)} values",
                span if depth else self.doc.key_span(path),
                code="bad-shape",
            )
        for index, (value, child) in enumerate(zip(values, node)):
            self.walk(child, path + (index,), depth + 1, prefix + (value,))

    def _where(self, path: DataPath) -> str:
        """``cells``, ``row 3 of cells`` (1-based, as people count rows), or ``cells[2][4]``."""
        indices = path[1:]
        if len(indices) == 1 and isinstance(indices[0], int):
            noun = "row" if len(self.names) > 1 else "entry"
            return f"{noun} {indices[0] + 1} of cells"
        return path_text(path)


def _values_text(values: Sequence[KeyValue]) -> str:
    """``values 1..10`` for a run of integers, else the values listed.

    Examples:
        >>> _values_text([1, 2, 3, 4])
        'values 1..4'
        >>> _values_text(["charge", "flee"])
        "values 'charge', 'flee'"
    """
    ints = [v for v in values if isinstance(v, int)]
    if len(ints) == len(values) >= 3 and ints == list(range(ints[0], ints[0] + len(ints))):
        return f"values {ints[0]}..{ints[-1]}"
    return "values " + ", ".join(repr(v) for v in values)
