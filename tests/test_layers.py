"""Layers flow one way: every import in ``interpreter/`` goes down (or sideways), never up,
and no two packages import each other, even through others.

The order, lowest first (docs/architecture.md)::

    foundation (diagnostics, limits, paths, buffers, cache, slotted)
    < chance, space, data < lang < editions < runtime < engine < diff, replay < api
    < cli, editor

A unit is a subpackage of ``rules_run`` (``engine``) or a top-level module (``api``,
``diagnostics``). Every import counts: at the top of a module, inside a function, under
``TYPE_CHECKING``. Units of one layer may import each other, but not in a cycle. The face,
``rules_run/__init__.py``, may name anything (lazily: it imports nothing of the package
when it is imported), and anything may import it (its ``__version__``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "interpreter"
PACKAGE = "rules_run"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("diagnostics", "limits", "paths", "buffers", "cache", "slotted"),
    ("chance", "space", "data"),
    ("lang",),
    ("editions",),
    ("runtime",),
    ("engine",),
    ("diff", "replay"),
    ("api",),
    ("cli", "editor"),
)
"""The layers, lowest first; a unit may import units of its own layer or lower ones."""

RANK = {unit: rank for rank, units in enumerate(LAYERS) for unit in units}
FACE = ""
"""The unit of ``rules_run/__init__.py``."""

def module_name(path: Path) -> str:
    """The module a file of ``interpreter/`` installs as (``rules_run.engine.stats``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def unit_of(module: str) -> str:
    """``rules_run.engine.stats`` -> ``engine``; ``rules_run`` -> the face."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else FACE


def imports(path: Path) -> Iterator[tuple[str, int, bool]]:
    """(module imported, line, whether at the module's top level outside ``TYPE_CHECKING``)
    for every import of the package in ``path``; ``from rules_run import x`` imports
    ``rules_run.x`` when ``x`` is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    eager: set[int] = set()
    for node in tree.body:   # the top level, outside `if TYPE_CHECKING:`
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            eager.add(id(node))
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" \
        else module_name(path)
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                names.append(sub if _is_module(sub) else base)
        for name in names:
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                yield name, node.lineno, id(node) in eager


def _is_module(name: str) -> bool:
    rel = Path(*name.split(".")[1:])
    return (ROOT / rel).is_dir() or (ROOT / rel).with_suffix(".py").is_file()


def edges() -> list[tuple[str, str, str, str, int]]:
    """(importing unit, imported unit, module imported, file under interpreter/, line) for
    every import of one unit by another, the face's left out."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        here = unit_of(module_name(path))
        if here == FACE:
            continue
        for name, line, _ in imports(path):
            there = unit_of(name)
            if there not in (here, FACE):
                out.append((here, there, name, path.relative_to(ROOT).as_posix(), line))
    return out


def test_every_unit_has_a_layer() -> None:
    units = {unit_of(module_name(p)) for p in ROOT.rglob("*.py")} - {FACE}
    assert sorted(units - set(RANK)) == [], "give each new unit a layer in LAYERS"


def test_no_import_goes_up_a_layer() -> None:
    unknown = sorted(_against_flow())
    assert unknown == [], "imports from a lower layer to a higher one:\n" + "\n".join(
        f"  interpreter/{f}:{line} ({here}) imports {mod} ({there})"
        for f, mod, line, here, there in unknown)


def _against_flow() -> list[tuple[str, str, int, str, str]]:
    """(file, module imported, line, its unit, the module's unit) of each import up a
    layer."""
    return [(file, name, line, here, there) for here, there, name, file, line in edges()
            if RANK[there] > RANK[here]]


def test_no_cycle_between_units() -> None:
    """No two units import each other, directly or through others."""
    graph: dict[str, set[str]] = {}
    for here, there, _, _, _ in edges():
        graph.setdefault(here, set()).add(there)
    cycles = _cycles(graph)
    assert cycles == [], "import cycles between units: " + "; ".join(
        " -> ".join(c + [c[0]]) for c in cycles)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one unit (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_face_imports_nothing_of_the_package_when_imported() -> None:
    """``import rules_run`` stays light: the face names the API lazily."""
    eager = [(name, line) for name, line, top in imports(ROOT / "__init__.py") if top]
    assert eager == []


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}}, []),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, [["a", "b", "c"]]),
])
def test_cycles_are_found(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert _cycles(graph) == expected


def test_the_face_names_each_public_name_once_where_it_is_defined() -> None:
    import importlib

    import rules_run

    homes = rules_run._HOMES
    assert sorted(rules_run.__all__) == sorted([*homes, "__version__"])
    for name, home in homes.items():
        module = importlib.import_module(home)
        value = getattr(rules_run, name)
        assert getattr(value, "__module__", home) == home, name
        assert getattr(module, name) is value


def test_a_statistics_run_opens_its_battle_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine never climbs to the commands to open a battle again: the library opens it
    once (the front door), and the runs, here and in forked workers, fight that one."""
    import rules_run as rr
    from rules_run.engine import front

    opened = rr.open_battle("wfb8", "rulesets/wfb8/battles/duel.yaml")

    def refused(*args: object, **kw: object) -> None:
        raise AssertionError("the battle was opened again")

    monkeypatch.setattr(front, "open_battle", refused)
    one = rr.run_many(opened, runs=6, seed=3)
    two = rr.run_many(opened, runs=6, seed=3, workers=2)
    assert one.results == two.results
