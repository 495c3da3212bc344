"""Slotted record classes that are cheap to define: the syntax tree's nodes and the event
records, made by the hundred when the interpreter is imported.

:func:`frozen` and :func:`define` take a class written as for ``attrs.frozen`` and
``attrs.define`` (annotated fields, defaults, :func:`slot` for a keyword-only field or one
left out of equality and ``repr``) and make the same class: slots, an ``__init__`` taking the
fields in order (a subclass's after its bases', a field declared again taking its new
place), equality by the fields' values (only with an instance of the same class), a hash
from them when frozen (none when not), a ``repr`` naming them, pickling, and for attrs' own
functions (``attrs.fields``, ``attrs.has``, ``attrs.evolve``, ``attrs.asdict``) the same
``attrs.Attribute`` list attrs would give, built when first asked for.

What costs when attrs defines a class is compiling the methods it writes for it. Here the
methods' text depends only on the fields' names and kinds, so their code is kept in the disk
cache (:mod:`rules_run.cache`) by that text and Python's version: a process compiles only the
methods it has not met before (a class added or changed), and adds them to what the cache
holds (so processes that define different classes, a command and the language server, do
not take turns writing it).

A new class follows with one line: ``@slotted.frozen`` (a node) or
``@slotted.define(kw_only=True)`` (an event) above it.
"""

from __future__ import annotations

import atexit
import marshal
import sys
from collections.abc import Callable, Mapping
from types import CodeType, MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar, overload

__all__ = ["frozen", "define", "slot", "Field", "FrozenError", "fields", "NOTHING"]

Record = TypeVar("Record", bound=type)

NOTHING: Any = object()
"""The default of a field that has none (replaced by ``attrs.NOTHING`` in attrs' view)."""


class FrozenError(AttributeError):
    """A field of a frozen record was set or deleted."""


class Field:
    """One field of a record class: its name, default (:data:`NOTHING` if none), whether
    it is keyword-only, compared and shown, its metadata, and whether the class has it from
    a base (``inherited``)."""

    __slots__ = ("name", "default", "kw_only", "eq", "repr", "metadata", "inherited")

    def __init__(self, name: str, default: Any = NOTHING, kw_only: bool = False,
                 eq: bool = True, repr: bool = True,
                 metadata: Mapping[str, Any] | None = None, inherited: bool = False) -> None:
        self.name = name
        self.default = default
        self.kw_only = kw_only
        self.eq = eq
        self.repr = repr
        self.metadata = metadata or {}
        self.inherited = inherited

    def passed_down(self) -> Field:
        """The field as a subclass has it."""
        if self.inherited:
            return self
        return Field(self.name, self.default, self.kw_only, self.eq, self.repr,
                     self.metadata, True)


def _slot(*, default: Any = NOTHING, kw_only: bool = False, eq: bool = True,
          repr: bool = True, metadata: Mapping[str, Any] | None = None) -> Any:
    """A field's options, written as its default in the class body (``attrs.field``)."""
    return Field("", default, kw_only, eq, repr, metadata)


def fields(cls: type) -> tuple[Field, ...]:
    """The fields of a record class, in the order declared (a base's first)."""
    found: tuple[Field, ...] = cls.__dict__["__slotted__"]
    return found


# ---------------------------------------------------------------- the methods' code

_CODES: dict[str, CodeType] | None = None
"""The methods' code by their text: read from the disk cache when first needed, and what
this process compiled."""
_KEY = sys.version   # the code of one Python is for that Python only


def _code(source: str) -> CodeType:
    """``source`` compiled, from the disk cache when it has it."""
    global _CODES
    if _CODES is None:
        from rules_run import cache

        stored = cache.read("classes", "methods", _KEY)
        try:
            codes = marshal.loads(stored) if isinstance(stored, bytes) else {}
        except (ValueError, EOFError, TypeError):
            codes = {}
        _CODES = codes if isinstance(codes, dict) else {}
    found = _CODES.get(source)
    if found is None:
        found = _CODES[source] = compile(source, "<slotted methods>", "exec")
        if not _compiled:
            atexit.register(_keep)
        _compiled.append(source)
    return found


_compiled: list[str] = []
"""The texts this process compiled itself."""


def _keep() -> None:
    """At exit: keep the code the disk cache had and what this process compiled (called only
    when it compiled some)."""
    from rules_run import cache

    cache.write("classes", "methods", _KEY, marshal.dumps(_CODES))


def _methods(names: tuple[str, ...], kw: tuple[str, ...], defaults: tuple[str, ...],
             compared: tuple[str, ...], frozen: bool) -> str:
    """The text of ``__init__``, ``__eq__`` (and ``__hash__`` when frozen) for these
    fields: positional ``names``, keyword-only ``kw``, those with a default (``_d_<name>``
    in the globals) and those compared."""
    def param(n: str) -> str:
        return f"{n}=_d_{n}" if n in defaults else n

    given = [*map(param, names), *(["*", *map(param, kw)] if kw else [])]
    params = "".join(f", {p}" for p in given)
    lines = [f"def __init__(self{params}):"]
    if frozen:
        lines.append("    _set = _setattr.__get__(self)")
        lines += [f"    _set({n!r}, {n})" for n in names + kw]
    else:
        lines += [f"    self.{n} = {n}" for n in names + kw]
    if not names + kw:
        lines.append("    pass")
    mine = "".join(f"self.{n}, " for n in compared)
    theirs = "".join(f"other.{n}, " for n in compared)
    lines += ["def __eq__(self, other):",
              "    if other.__class__ is not self.__class__:",
              "        return NotImplemented",
              f"    return ({mine}) == ({theirs})"]
    if frozen:
        lines += ["def __hash__(self):", f"    return hash((_name, {mine}))"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- shared methods

def _repr(self: Any) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}"
                      for f in type(self).__dict__["__slotted__"] if f.repr)
    return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({shown})"   # as attrs names it


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenError(f"{type(self).__name__} is frozen: {name!r} cannot be set")


def _frozen_delattr(self: Any, name: str) -> None:
    raise FrozenError(f"{type(self).__name__} is frozen: {name!r} cannot be deleted")


def _getstate(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, f.name) for f in type(self).__dict__["__slotted__"])


def _setstate(self: Any, state: tuple[Any, ...]) -> None:
    for f, value in zip(type(self).__dict__["__slotted__"], state):
        object.__setattr__(self, f.name, value)


class _AttrsView:
    """``__attrs_attrs__``: the fields as ``attrs.Attribute`` objects, made when first
    asked for (attrs' functions read them)."""

    def __get__(self, obj: Any, cls: type) -> tuple[Any, ...]:
        import attrs

        found: tuple[Any, ...] = tuple(attrs.Attribute(   # type: ignore[call-arg]
            name=f.name, default=attrs.NOTHING if f.default is NOTHING else f.default,
            validator=None, repr=f.repr, cmp=None, hash=None, init=True,
            inherited=f.inherited,
            metadata=MappingProxyType(dict(f.metadata)), type=None, converter=None,
            kw_only=f.kw_only, eq=f.eq, eq_key=None, order=False, order_key=None,
            on_setattr=None, alias=f.name)
            for f in cls.__dict__["__slotted__"])
        type.__setattr__(cls, "__attrs_attrs__", found)
        return found


def _is_class_var(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _make(cls: type, frozen: bool, kw_only: bool) -> type:
    """The record class written as ``cls``."""
    inherited: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get("__slotted__", ()):
            inherited.pop(f.name, None)
            inherited[f.name] = f.passed_down()
    own: dict[str, Field] = {}
    namespace = dict(cls.__dict__)
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_class_var(annotation):
            continue
        given = namespace.pop(name, NOTHING)
        f = (Field(name, given.default, given.kw_only or kw_only, given.eq, given.repr,
                   given.metadata) if isinstance(given, Field)
             else Field(name, given, kw_only))
        inherited.pop(name, None)
        own[name] = f
    ordered = tuple(inherited.values()) + tuple(own.values())
    names = tuple(f.name for f in ordered if not f.kw_only)
    kw = tuple(f.name for f in ordered if f.kw_only)
    defaults = tuple(f.name for f in ordered if f.default is not NOTHING)
    compared = tuple(f.name for f in ordered if f.eq)
    globals_: dict[str, Any] = {f"_d_{f.name}": f.default for f in ordered
                                if f.default is not NOTHING}
    globals_["_setattr"] = object.__setattr__
    globals_["_name"] = cls.__qualname__
    exec(_code(_methods(names, kw, defaults, compared, frozen)), globals_)
    slots_below = {s for base in cls.__mro__[1:] for s in base.__dict__.get("__slots__", ())}
    has_weakref = any("__weakref__" in base.__dict__ for base in cls.__mro__[1:])
    for key in ("__dict__", "__weakref__"):
        namespace.pop(key, None)
    namespace["__slots__"] = tuple(n for n in own if n not in slots_below) + (
        () if has_weakref else ("__weakref__",))
    namespace["__slotted__"] = ordered
    namespace["__attrs_attrs__"] = _AttrsView()
    namespace["__match_args__"] = names
    namespace["__init__"] = globals_["__init__"]
    namespace["__eq__"] = globals_["__eq__"]
    namespace["__hash__"] = globals_["__hash__"] if frozen else None
    namespace.setdefault("__repr__", _repr)
    namespace["__getstate__"] = _getstate
    namespace["__setstate__"] = _setstate
    if frozen:
        namespace["__setattr__"] = _frozen_setattr
        namespace["__delattr__"] = _frozen_delattr
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _frozen(cls: Record) -> Record:
    """An immutable record class (``attrs.frozen``): hashable by its fields' values."""
    return _make(cls, True, False)  # type: ignore[return-value]


@overload
def _define(cls: Record, *, kw_only: bool = False) -> Record: ...
@overload
def _define(cls: None = None, *, kw_only: bool = False) -> Callable[[Record], Record]: ...
def _define(cls: Any = None, *, kw_only: bool = False) -> Any:
    """A mutable record class (``attrs.define``), not hashable; ``kw_only``: every field
    is given by keyword."""
    if cls is None:
        return lambda c: _make(c, False, kw_only)
    return _make(cls, False, kw_only)


if TYPE_CHECKING:
    # a type checker reads the classes as the attrs classes they behave as (attrs' plugin
    # then knows their __init__, attrs.evolve and attrs.fields on them)
    from attrs import define, frozen
    from attrs import field as slot
else:
    frozen, define, slot = _frozen, _define, _slot
