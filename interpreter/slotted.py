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

__all__ = ["frozen", "define", "slot", "Field", "FrozenError", "fields", "has", "evolve", "asdict",
           "NOTHING"]

Record = TypeVar("Record", bound=type)

NOTHING: Any = object()
"""The default of a field that has none (replaced by ``attrs.NOTHING`` in attrs' view)."""


class FrozenError(AttributeError):
    """A field of a frozen record was set or deleted."""


class Field:
    """One field of a record class: its name, default (:data:`NOTHING` if none) or
    ``factory`` (called for each instance), whether ``__init__`` takes it (``init``; a field
    it does not take is set by its default, or by ``__attrs_post_init__``) and under which
    name (``alias``: the name without a leading ``_``, as attrs has it), by keyword only,
    ``converter`` (applied to the given value), whether it is compared, hashed (``hash``:
    None as compared) and shown, its metadata, and whether the class has it from a base
    (``inherited``)."""

    __slots__ = ("name", "default", "kw_only", "eq", "repr", "metadata", "inherited",
                 "factory", "init", "hash", "converter", "alias")

    def __init__(self, name: str, default: Any = NOTHING, kw_only: bool = False,
                 eq: bool = True, repr: bool = True,
                 metadata: Mapping[str, Any] | None = None, inherited: bool = False,
                 factory: Callable[[], Any] | None = None, init: bool = True,
                 hash: bool | None = None, converter: Callable[[Any], Any] | None = None,
                 alias: str | None = None) -> None:
        self.name = name
        self.default = default
        self.kw_only = kw_only
        self.eq = eq
        self.repr = repr
        self.metadata = metadata or {}
        self.inherited = inherited
        self.factory = factory
        self.init = init
        self.hash = hash
        self.converter = converter
        self.alias = alias or name.lstrip("_")

    def named(self, name: str, kw_only: bool) -> Field:
        """These options as the field ``name`` (``kw_only`` also when the class says so)."""
        return Field(name, self.default, self.kw_only or kw_only, self.eq, self.repr,
                     self.metadata, False, self.factory, self.init, self.hash,
                     self.converter, self.alias if self.alias else None)

    @property
    def hashed(self) -> bool:
        """Whether the field is part of the hash (as it is of equality, unless told)."""
        return self.eq if self.hash is None else self.hash

    @property
    def has_default(self) -> bool:
        """Whether the field has a default or a factory."""
        return self.default is not NOTHING or self.factory is not None

    def passed_down(self) -> Field:
        """The field as a subclass has it."""
        if self.inherited:
            return self
        down = self.named(self.name, self.kw_only)
        down.inherited = True
        return down


def _slot(*, default: Any = NOTHING, factory: Callable[[], Any] | None = None,
          init: bool = True, kw_only: bool = False, eq: bool = True, hash: bool | None = None,
          repr: bool = True, converter: Callable[[Any], Any] | None = None,
          alias: str | None = None, metadata: Mapping[str, Any] | None = None) -> Any:
    """A field's options, written as its default in the class body (``attrs.field``)."""
    return Field("", default, kw_only, eq, repr, metadata, False, factory, init, hash,
                 converter, alias or "")


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


def _methods(ordered: tuple[Field, ...], frozen: bool, post_init: bool, order: bool) -> str:
    """The text of ``__init__``, ``__eq__`` (and ``__hash__`` when frozen, the four
    orderings with ``order``) for these fields: in the globals, a default is ``_d_<name>``,
    a factory ``_f_<name>``, a converter ``_c_<name>``, a frozen record's slot's setter
    ``_s_<name>``, and ``_N`` the mark of a factory's value not given; ``post_init``: ``__init__`` ends by calling ``__attrs_post_init__``.
    The text depends only on the fields' names and kinds (it is the key of its code)."""
    def param(f: Field) -> str:
        if f.factory is not None:
            return f"{f.alias}=_N"
        return f"{f.alias}=_d_{f.name}" if f.default is not NOTHING else f.alias

    def value(f: Field) -> str:
        if not f.init:
            given = f"_f_{f.name}()" if f.factory is not None else f"_d_{f.name}"
        elif f.factory is not None:
            given = f"(_f_{f.name}() if {f.alias} is _N else {f.alias})"
        else:
            given = f.alias
        return f"_c_{f.name}({given})" if f.converter is not None else given

    taken = [f for f in ordered if f.init]
    given = [*map(param, [f for f in taken if not f.kw_only])]
    kw = [param(f) for f in taken if f.kw_only]
    params = "".join(f", {p}" for p in given + (["*", *kw] if kw else []))
    lines = [f"def __init__(self{params}):"]
    setting = [f for f in ordered if f.init or f.has_default]
    if frozen:   # through each slot's own setter (the class's __setattr__ refuses)
        lines += [f"    _s_{f.name}(self, {value(f)})" for f in setting]
    else:
        lines += [f"    self.{f.name} = {value(f)}" for f in setting]
    if post_init:
        lines.append("    self.__attrs_post_init__()")
    elif not setting:
        lines.append("    pass")
    mine = "".join(f"self.{f.name}, " for f in ordered if f.eq)
    theirs = "".join(f"other.{f.name}, " for f in ordered if f.eq)
    lines += ["def __eq__(self, other):",
              "    if other.__class__ is not self.__class__:",
              "        return NotImplemented",
              f"    return ({mine}) == ({theirs})"]
    if frozen:
        hashed = "".join(f"self.{f.name}, " for f in ordered if f.hashed)
        lines += ["def __hash__(self):", f"    return hash((_name, {hashed}))"]
    for method, op in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">=")) if order else ():
        lines += [f"def __{method}__(self, other):",
                  "    if other.__class__ is not self.__class__:",
                  "        return NotImplemented",
                  f"    return ({mine}) {op} ({theirs})"]
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
            name=f.name, default=(attrs.Factory(f.factory) if f.factory is not None
                                  else attrs.NOTHING if f.default is NOTHING else f.default),
            validator=None, repr=f.repr, cmp=None, hash=f.hash, init=f.init,
            inherited=f.inherited,
            metadata=MappingProxyType(dict(f.metadata)), type=None, converter=f.converter,
            kw_only=f.kw_only, eq=f.eq, eq_key=None, order=False, order_key=None,
            on_setattr=None, alias=f.alias)
            for f in cls.__dict__["__slotted__"])
        type.__setattr__(cls, "__attrs_attrs__", found)
        return found


def _is_class_var(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _make(cls: type, frozen: bool, kw_only: bool, repr: bool = True,
          order: bool = False) -> type:
    """The record class written as ``cls`` (``repr``: give it one naming its fields, unless
    it has its own; ``order``: ``<`` and the others compare the fields' values in order)."""
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
        f = (given.named(name, kw_only) if isinstance(given, Field)
             else Field(name, given, kw_only))
        inherited.pop(name, None)
        own[name] = f
    ordered = tuple(inherited.values()) + tuple(own.values())
    globals_: dict[str, Any] = {f"_d_{f.name}": f.default for f in ordered
                                if f.default is not NOTHING}
    globals_.update((f"_f_{f.name}", f.factory) for f in ordered if f.factory is not None)
    globals_.update((f"_c_{f.name}", f.converter) for f in ordered if f.converter is not None)
    globals_["_N"] = NOTHING
    globals_["_name"] = cls.__qualname__
    post_init = hasattr(cls, "__attrs_post_init__")
    exec(_code(_methods(ordered, frozen, post_init, order)), globals_)
    slots_below = {s for base in cls.__mro__[1:] for s in base.__dict__.get("__slots__", ())}
    has_weakref = any("__weakref__" in base.__dict__ for base in cls.__mro__[1:])
    for key in ("__dict__", "__weakref__"):
        namespace.pop(key, None)
    namespace["__slots__"] = tuple(n for n in own if n not in slots_below) + (
        () if has_weakref else ("__weakref__",))
    namespace["__slotted__"] = ordered
    namespace["__attrs_attrs__"] = _AttrsView()
    namespace["__match_args__"] = tuple(f.name for f in ordered if f.init and not f.kw_only)
    namespace["__init__"] = globals_["__init__"]
    namespace["__eq__"] = globals_["__eq__"]
    namespace["__hash__"] = globals_["__hash__"] if frozen else None
    for method in ("__lt__", "__le__", "__gt__", "__ge__") if order else ():
        namespace[method] = globals_[method]
    if repr:
        namespace.setdefault("__repr__", _repr)
    namespace["__getstate__"] = _getstate
    namespace["__setstate__"] = _setstate
    if frozen:
        namespace["__setattr__"] = _frozen_setattr
        namespace["__delattr__"] = _frozen_delattr
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    for f in ordered if frozen else ():
        slot: Any = getattr(made, f.name, None)   # a slot of this class or of a base
        globals_[f"_s_{f.name}"] = (slot.__set__ if type(slot) is _SLOT
                                    else _setattr_of(f.name))
    return made


_SLOT: Any = type(Field.__dict__["name"])
"""The type of a slot's descriptor (``member_descriptor``)."""


def _setattr_of(name: str) -> Callable[[Any, Any], None]:
    """A setter of the attribute ``name`` past a frozen class's ``__setattr__`` (for a
    field that is not a slot of its own, as in a class below a base with a ``__dict__``)."""
    def set_(self: Any, value: Any) -> None:
        object.__setattr__(self, name, value)
    return set_


@overload
def _frozen(cls: Record, *, repr: bool = True, order: bool = False) -> Record: ...
@overload
def _frozen(cls: None = None, *, repr: bool = True, order: bool = False
            ) -> Callable[[Record], Record]: ...
def _frozen(cls: Any = None, *, repr: bool = True, order: bool = False) -> Any:
    """An immutable record class (``attrs.frozen``): hashable by its fields' values;
    ``repr=False``: the class keeps the ``repr`` it has (its own, or its base's);
    ``order``: ordered by its fields' values."""
    if cls is None:
        return lambda c: _make(c, True, False, repr, order)
    return _make(cls, True, False, repr, order)


@overload
def _define(cls: Record, *, kw_only: bool = False, repr: bool = True) -> Record: ...
@overload
def _define(cls: None = None, *, kw_only: bool = False, repr: bool = True
            ) -> Callable[[Record], Record]: ...
def _define(cls: Any = None, *, kw_only: bool = False, repr: bool = True) -> Any:
    """A mutable record class (``attrs.define``), not hashable; ``kw_only``: every field
    is given by keyword."""
    if cls is None:
        return lambda c: _make(c, False, kw_only, repr)
    return _make(cls, False, kw_only, repr)


def _has(cls: type) -> bool:
    """Whether ``cls`` is a record class (``attrs.has``)."""
    return isinstance(cls, type) and "__slotted__" in cls.__dict__


def _evolve(record: Any, **changes: Any) -> Any:
    """A copy of ``record`` with ``changes`` (``attrs.evolve``: by the names ``__init__``
    takes), made by its ``__init__`` from the fields it takes."""
    for f in type(record).__dict__["__slotted__"]:
        if f.init and f.alias not in changes:
            changes[f.alias] = getattr(record, f.name)
    return type(record)(**changes)


def _asdict(record: Any) -> dict[str, Any]:
    """The fields of ``record`` as a dict, each value as :func:`_plain` (``attrs.asdict``)."""
    return {f.name: _plain(getattr(record, f.name)) for f in type(record).__dict__["__slotted__"]}


def _plain(value: Any) -> Any:
    """A record as :func:`_asdict`; a tuple, list or set of the same kind, and a dict as a
    dict, of such values (as ``attrs.asdict`` gives them); anything else as it is."""
    kind = type(value)
    if _has(kind):
        return _asdict(value)
    if issubclass(kind, (tuple, list, set, frozenset)):
        items = [_plain(v) for v in value]
        try:
            return kind(items)
        except TypeError:   # a named tuple takes its items one by one
            return kind(*items)
    if issubclass(kind, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


if TYPE_CHECKING:
    # a type checker reads the classes as the attrs classes they behave as (attrs' plugin
    # then knows their __init__, attrs.evolve and attrs.fields on them)
    from attrs import asdict, define, evolve, frozen, has
    from attrs import field as slot
else:
    frozen, define, slot, has, evolve, asdict = _frozen, _define, _slot, _has, _evolve, _asdict
