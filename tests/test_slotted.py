"""Record classes (:mod:`rules_run.slotted`): what attrs' classes gave (fields in order, a
field declared again, defaults, keyword-only fields, equality, hashing, ``repr``, frozen,
pickling, attrs' own functions), and methods compiled once: a second process defines its
classes from the code the disk cache keeps, and code kept for another Python is not used."""

from __future__ import annotations

import inspect
import pickle
from typing import ClassVar

import attrs
import pytest

from rules_run import slotted
from rules_run.lang import ast
from rules_run.runtime import events


@slotted.frozen
class Base:
    """A frozen record with a default."""

    NAME: ClassVar[str] = "base"
    span: int
    name: str = "x"


@slotted.frozen
class Child(Base):
    """A subclass: its fields after its base's, a keyword-only one, one left unequal."""

    items: tuple[int, ...] = ()
    needed: int = slotted.slot(kw_only=True)
    note: str = slotted.slot(default="", eq=False, repr=False)


@slotted.define(kw_only=True)
class Happened:
    """A mutable record given by keyword."""

    seq: int = 0
    round: int | None = None


@slotted.define(kw_only=True)
class Began(Happened):
    """A field declared again takes its new place (and loses its default)."""

    round: int | None
    what: str = "it"


def test_a_frozen_record_is_built_compared_hashed_and_shown_by_its_fields():
    c = Child(1, "a", (2,), needed=3, note="n")
    assert (c.span, c.name, c.items, c.needed, c.note) == (1, "a", (2,), 3, "n")
    assert c == Child(1, "a", (2,), needed=3, note="other")   # note is not compared
    assert c != Child(1, "a", (2,), needed=4)
    assert Base(1) == Base(1, "x") and Base(1) != Child(1, needed=0)   # another class
    assert hash(c) == hash(Child(1, "a", (2,), needed=3))
    assert repr(c) == "Child(span=1, name='a', items=(2,), needed=3)"
    assert list(inspect.signature(Child).parameters) == ["span", "name", "items", "note",
                                                           "needed"]
    assert Child.__match_args__ == ("span", "name", "items", "note")
    assert not hasattr(c, "__dict__") and Child.NAME == "base"
    with pytest.raises(slotted.FrozenError):
        c.name = "b"   # type: ignore[misc]
    with pytest.raises(TypeError):
        Child(1)   # type: ignore[call-arg]   # needed is required


def test_a_mutable_record_is_given_by_keyword_and_not_hashable():
    b = Began(round=2)
    assert [f.name for f in slotted.fields(Began)] == ["seq", "round", "what"]
    assert (b.seq, b.round, b.what) == (0, 2, "it")
    b.seq = 5
    assert b == Began(seq=5, round=2) and b != Began(seq=5, round=3)
    assert Began.__hash__ is None
    with pytest.raises(TypeError):
        Began(2)   # type: ignore[misc]
    with pytest.raises(TypeError):
        Began()   # type: ignore[call-arg]   # round, declared again, has no default


def test_attrs_functions_read_a_record_as_attrs_would():
    assert attrs.has(Child) and attrs.has(Base)
    names = [(a.name, a.kw_only, a.eq, a.inherited) for a in attrs.fields(Child)]
    assert names == [("span", False, True, True), ("name", False, True, True),
                     ("items", False, True, False), ("needed", True, True, False),
                     ("note", False, False, False)]
    assert attrs.fields(Base)[1].default == "x"
    assert attrs.fields(Began)[1].default is attrs.NOTHING
    c = Child(1, needed=2)
    assert attrs.evolve(c, name="b") == Child(1, "b", needed=2)
    assert attrs.asdict(Began(round=1)) == {"seq": 0, "round": 1, "what": "it"}


def test_a_record_pickles_and_copies():
    import copy

    c = Child(1, "a", (2,), needed=3, note="n")
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(c, protocol))
        assert back == c and back.note == "n"
    b = Began(seq=1, round=2)
    assert pickle.loads(pickle.dumps(b)) == b and copy.deepcopy(b) == b


def _label(items: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(items)


@slotted.frozen(repr=False)
class Rolled:
    """What the attrs classes of the interpreter use: a converter, a private field (given
    by its name without ``_``), a field left out of ``__init__`` set after it, one
    compared but not hashed, a factory, and the ``repr`` of its own."""

    faces: tuple[int, ...] = slotted.slot(converter=_label)
    _note: str = slotted.slot(default="", eq=False)
    args: dict[str, int] = slotted.slot(factory=dict, hash=False)
    total: int = slotted.slot(init=False, eq=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "total", sum(self.faces))

    def __repr__(self) -> str:
        return f"Rolled{self.faces}"


@slotted.frozen(order=True)
class Ranked:
    """Ordered by its fields' values, as ``attrs.frozen(order=True)``."""

    side: str
    models: int = 0


@slotted.define
class Growing:
    """A mutable record whose default is made for each instance."""

    seen: list[int] = slotted.slot(factory=list)


def test_converters_private_fields_factories_and_post_init_act_as_attrs_does():
    r = Rolled([1, 2], note="n")   # type: ignore[arg-type]
    assert (r.faces, r._note, r.args, r.total) == ((1, 2), "n", {}, 3)
    assert list(inspect.signature(Rolled).parameters) == ["faces", "note", "args"]
    assert r == Rolled((1, 2), args={}) and r != Rolled((1, 2), args={"a": 1})
    assert hash(r) == hash(Rolled((1, 2), args={"a": 1}))   # args is not hashed
    assert repr(r) == "Rolled(1, 2)"
    assert Growing().seen is not Growing().seen and Growing([1]).seen == [1]
    assert Ranked("a", 2) < Ranked("b") and Ranked("a", 2) >= Ranked("a", 1)
    assert sorted([Ranked("b"), Ranked("a", 3), Ranked("a", 1)]) == [
        Ranked("a", 1), Ranked("a", 3), Ranked("b")]
    assert Ranked("a").__lt__(Base(1)) is NotImplemented
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.total == 3 and back._note == "n"
    view = {a.name: (a.init, a.alias, a.hash) for a in attrs.fields(Rolled)}
    assert view == {"faces": (True, "faces", None), "_note": (True, "note", None),
                    "args": (True, "args", False), "total": (False, "total", None)}
    assert attrs.fields(Growing)[0].default == attrs.Factory(list)


def test_evolve_has_and_asdict_need_no_attrs():
    r = Rolled((1, 2), note="n")
    changed = slotted.evolve(r, faces=(4,), note="m")
    assert (changed.faces, changed._note, changed.total) == ((4,), "m", 4)
    assert slotted.evolve(Child(1, needed=2), name="b") == attrs.evolve(Child(1, needed=2),
                                                                         name="b")
    assert slotted.has(Child) and not slotted.has(int) and not slotted.has(Child(1, needed=2))
    nested = Growing([Ranked("a")])   # type: ignore[list-item]
    assert slotted.asdict(nested) == attrs.asdict(nested) == {
        "seen": [{"side": "a", "models": 0}]}
    with_dict = Rolled((1,), args={"k": 1})
    assert slotted.asdict(with_dict) == attrs.asdict(with_dict)


def test_nodes_and_events_are_records():
    assert slotted.fields(ast.Literal)[0].name == "span"
    assert events.KINDS["round"].keys == ("round",)
    assert events.KINDS["roll"].optional == {"args", "target", "rerolled_by", "first_dice",
                                             "reroll_refused", "dice_by"}


def _fresh_process_state(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a new process: nothing read from the disk cache, nothing compiled."""
    monkeypatch.setattr(slotted, "_CODES", None)
    monkeypatch.setattr(slotted, "_compiled", [])


def _define() -> type:
    @slotted.frozen
    class Shape:
        """A class a test defines as a process would at import."""

        span: int
        width: float = 1.0
        sides: tuple[int, ...] = ()

    return Shape


def test_a_second_process_defines_its_classes_without_compiling(fresh_cache, monkeypatch):
    _fresh_process_state(monkeypatch)
    _define()
    assert len(slotted._compiled) == 1   # new: compiled, kept at exit
    slotted._keep()
    _fresh_process_state(monkeypatch)

    def no_compile(*args: object) -> None:
        raise AssertionError("compiled again")

    monkeypatch.setattr(slotted, "compile", no_compile, raising=False)
    shape = _define()
    assert slotted._compiled == []
    assert shape(1, 2.0) == shape(1, 2.0, ()) and repr(shape(3)) == \
        "Shape(span=3, width=1.0, sides=())"


def test_code_kept_by_another_python_is_not_used(fresh_cache, monkeypatch):
    _fresh_process_state(monkeypatch)
    _define()
    slotted._keep()
    _fresh_process_state(monkeypatch)
    monkeypatch.setattr(slotted, "_KEY", "another Python's magic number")
    _define()
    assert len(slotted._compiled) == 1


def test_processes_defining_different_classes_add_to_what_is_kept(fresh_cache, monkeypatch):
    # a command, then a process that defines another class (the language server): the
    # command's classes are still kept for the next command
    _fresh_process_state(monkeypatch)
    _define()
    slotted._keep()
    _fresh_process_state(monkeypatch)

    @slotted.define(kw_only=True)
    class Other:
        """Another process's class."""

        seen: int = 0

    assert len(slotted._compiled) == 1
    slotted._keep()
    _fresh_process_state(monkeypatch)
    _define()
    assert slotted._compiled == []
