"""A cache on disk for what is slow to build and always the same: the grammar's parser
tables, checked rulesets, the compiled code of their rules.

It lives in ``$RULES_RUN_CACHE`` if set (``off`` turns it off), else in
``$XDG_CACHE_HOME/rules-run``, else ``~/.cache/rules-run``. An entry is a file holding the
key it was written under and a pickle; it is read only when the key matches, so any change
of what went into it (the files of the ruleset, the interpreter's own code, its version, the
grammar, the working directory that paths are shown from) means a new entry. A file that
cannot be read (corrupt, cut short, from another Python) counts as missing and is written
again; a cache that cannot be written is skipped. Entries are written to a temporary file
and renamed, so processes sharing the cache never read half an entry.

An instance of a record class (:mod:`rules_run.slotted`: a syntax tree's node, a span) is
written as a call of its class with its fields' values when its ``__init__`` takes them all
by position and does nothing more than set them (no converter, no keyword-only field, no
post-init hook): read back through ``__init__``, it costs half of a ``__setstate__`` (a
warm start unpickles tens of thousands of them).
"""

from __future__ import annotations

import functools
import gc
import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "code_fingerprint", "digest", "read", "write"]

ENV = "RULES_RUN_CACHE"
_MAGIC = b"rules-run cache 1\n"


def cache_dir() -> Path | None:
    """The cache's folder, or None when ``$RULES_RUN_CACHE`` is ``off``."""
    chosen = os.environ.get(ENV)
    if chosen:
        return None if chosen == "off" else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "rules-run")


@functools.cache
def code_fingerprint() -> str:
    """A digest of what the interpreter is: its version, Python's, and the text of its own
    modules, grammar and schemas (a change to any of them makes every entry stale).

    The text is read only when a file's size or time of change is new: the digest found
    for the files as they stood is itself kept in the cache, under their names, sizes and
    times (as Python trusts them for its ``.pyc`` files)."""
    from rules_run import __version__

    files = _code_files()
    stamp = digest(f"{__version__} {sys.version}", *(
        f"{name}\0{stat.st_size}\0{stat.st_mtime_ns}"
        for name, path in files for stat in (os.stat(path),)))
    found = read("fingerprint", stamp, stamp)
    if isinstance(found, str):
        return found
    summed = hashlib.sha256(f"{__version__} {sys.version}".encode())
    for name, path in files:
        summed.update(name.encode() + b"\0")
        with open(path, "rb") as f:
            summed.update(f.read())
    write("fingerprint", stamp, stamp, summed.hexdigest())
    return summed.hexdigest()


def _code_files() -> list[tuple[str, str]]:
    """The interpreter's own modules, grammar and schemas: (name, path), in a fixed order
    (paths as text: a warm start stats each of them, and a ``Path`` per file cost more than
    the stat)."""
    from rules_run.paths import GRAMMAR_DIR, SCHEMAS_DIR

    here = os.path.dirname(os.path.realpath(__file__))
    found = []
    for folder, suffix in ((here, ".py"), (str(GRAMMAR_DIR), ""), (str(SCHEMAS_DIR), "")):
        named = []
        for root, dirs, names in os.walk(folder):   # faster than Path.rglob
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            rel = os.path.relpath(root, folder).replace(os.sep, "/")
            named += [(name if rel == "." else f"{rel}/{name}", os.path.join(root, name))
                      for name in names if name.endswith(suffix)]
        found += sorted(named)
    return found


def _entry(kind: str, name: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    return folder / kind / (hashlib.sha256(name.encode()).hexdigest()[:32] + ".pickle")


def read(kind: str, name: str, key: str,
         persistent_load: Callable[[Any], Any] | None = None) -> Any | None:
    """The value cached as ``kind``/``name`` under ``key``, or None (missing, stale,
    unreadable). ``persistent_load`` resolves the references :func:`write`'s
    ``persistent_id`` left out of the pickle."""
    path = _entry(kind, name)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            if f.readline() != _MAGIC or f.readline().rstrip(b"\n") != key.encode():
                return None
            unpickler = pickle.Unpickler(f)
            if persistent_load is not None:
                unpickler.persistent_load = persistent_load  # type: ignore[method-assign]
            # The cyclic collector would walk the growing graph again and again, and find
            # nothing in it to free: it waits, and what is alive then (what the entry
            # holds, kept for the rest of the process) goes to its permanent generation,
            # left to reference counting, so that later collections skip it too.
            paused = gc.isenabled()
            gc.disable()
            try:
                return unpickler.load()
            finally:
                if paused:
                    gc.freeze()
                    gc.enable()
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a corrupt entry is a miss, never a failure
        return None


_BY_INIT: dict[type, tuple[str, ...] | None] = {}
"""Per class: the fields to call its ``__init__`` with when pickled, or None (pickled as
usual); see :class:`_Pickler`."""


def _init_fields(cls: type) -> tuple[str, ...] | None:
    """The field names, in ``__init__``'s order, by which an instance of ``cls`` is
    rebuilt by calling it; None when it is not a record class of :mod:`rules_run.slotted`
    whose ``__init__`` takes every field by position and does nothing more than set them
    (a keyword-only field, a converter, a field ``__init__`` does not take, a post-init
    hook)."""
    own = cls.__dict__.get("__slotted__")
    if own is None or hasattr(cls, "__attrs_post_init__") or any(
            f.kw_only or not f.init or f.converter is not None for f in own):
        return None
    return tuple(f.name for f in own)


class _Pickler(pickle.Pickler):
    """A pickler that writes record instances as calls of their class (see the module's
    docstring)."""

    def reducer_override(self, obj: Any) -> Any:
        """``(cls, values)`` for an instance :func:`_init_fields` allows, else the usual."""
        cls = type(obj)
        try:
            names = _BY_INIT[cls]
        except KeyError:
            names = _BY_INIT[cls] = _init_fields(cls)
        except TypeError:   # an unhashable class object: pickled as usual
            return NotImplemented
        if names is None:
            return NotImplemented
        return cls, tuple([getattr(obj, n) for n in names])


def write(kind: str, name: str, key: str, value: Any,
          persistent_id: Callable[[Any], Any] | None = None) -> None:
    """Cache ``value`` as ``kind``/``name`` under ``key`` (quietly nothing if the cache
    cannot be written). ``persistent_id`` names objects to leave out (see :func:`read`)."""
    path = _entry(kind, name)
    if path is None:
        return
    try:
        import tempfile   # only when an entry is written: a warm start writes none

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_MAGIC + key.encode() + b"\n")
                pickler = _Pickler(f, protocol=pickle.HIGHEST_PROTOCOL)
                if persistent_id is not None:
                    pickler.persistent_id = persistent_id  # type: ignore[method-assign]
                pickler.dump(value)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return


def digest(*parts: str) -> str:
    """One key from several texts."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
