"""Check a loaded YAML document against a JSON Schema, in words its author can act on.

The schemas live in ``schemas/<name>.schema.json`` (JSON Schema 2020-12) and refer to each
other by ``$id`` (``https://rules-run.dev/schemas/<name>.schema.json``); each is read once.
Every error is reported, sorted by place, each located on the key or value it is about:

========================  ==================================================  ================
schema keyword            message                                             code
========================  ==================================================  ================
``additionalProperties``  ``unknown key 'profil' in units.halberdier``        ``unknown-key``
``required``              ``missing key 'models' in units[1]``                ``missing-key``
``type``                  ``seed: expected an integer, got 'abc' (string)``   ``bad-type``
``enum``, ``const``       ``kind: 'tabel' is not 'table'``                    ``bad-value``
``pattern``               ``profile.A: expected a dice expression ...``       ``bad-value``
========================  ==================================================  ================

A ``pattern`` says what it expects through the custom keyword ``x-expected`` next to it,
as in ``"x-expected": "a dice expression such as D6, 2D6, D3+1 or 3"``; so can any schema
whose alternatives (``anyOf``, ``oneOf``) should be summed up in one phrase. For
alternatives, the message comes from the one alternative the value's type fits, so a
misspelt dice expression is reported as that, not as "is not valid under any of the given
schemas".
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rules_run import cache, slotted
from rules_run.data.yaml_loader import DataPath, YamlDocument, load_yaml, path_text
from rules_run.diagnostics import DataError, Diagnostic, DiagnosticBag, Span, did_you_mean
from rules_run.paths import SCHEMAS_DIR

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = ["validate", "check", "load_and_check"]

_SUFFIX = ".schema.json"

_TYPE_NOUNS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "null",
}

_BOUNDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "more than",
    "exclusiveMaximum": "less than",
}

_SIZES = {
    "minItems": ("at least", "item"),
    "maxItems": ("at most", "item"),
    "minProperties": ("at least", "key"),
    "maxProperties": ("at most", "key"),
    "minLength": ("at least", "character"),
    "maxLength": ("at most", "character"),
}


@slotted.frozen
class _Problem:
    """One diagnostic to be, before it is sorted and de-duplicated."""

    message: str
    span: Span
    code: str
    hint: str | None = None


def validate(doc: YamlDocument, schema: str) -> list[Diagnostic]:
    """Every way ``doc`` breaks the schema ``schema``, located and sorted by place.

    Args:
        doc: a loaded YAML document.
        schema: a schema's name: ``"table"`` for ``schemas/table.schema.json``.

    Returns:
        The diagnostics, empty when the document is valid. When ``kind`` is wrong, that is
        the only one: every other message would be noise.

    Raises:
        ValueError: there is no schema of that name (a mistake in the calling code).

    Examples:
        >>> doc = load_yaml("b.yaml", "units:\\n  - {id: a, side: x, models: many}\\n")
        >>> for d in validate(doc, "battle"):
        ...     print(d.render())
        b.yaml:2:5: error: missing key 'profile' or 'characteristics' in units[0]
              - {id: a, side: x, models: many}
                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        b.yaml:2:30: error: units[0].models: expected an integer, got 'many' (string)
              - {id: a, side: x, models: many}
                                         ^^^^
    """
    # a text once found valid is valid (jsonschema, slow to import, is then not needed)
    entry = cache.digest(cache.code_fingerprint(), schema, doc.text)
    if cache.read("valid", entry, entry) is True:
        return []
    errors = list(_validator(schema).iter_errors(doc.value))
    wrong_kind = [e for e in errors if e.validator == "const" and list(e.absolute_path) == ["kind"]]
    problems: dict[tuple[int, int, str, str], _Problem] = {}
    for error in wrong_kind or errors:
        for problem in _explain(error, doc):
            key = (problem.span.line, problem.span.column, problem.message, problem.code)
            problems.setdefault(key, problem)
    bag = DiagnosticBag()
    bag.remember_source(doc.path, doc.text)
    for key in sorted(problems):
        problem = problems[key]
        bag.add(problem.message, problem.span, code=problem.code, hint=problem.hint)
    if not bag.items:
        cache.write("valid", entry, entry, True)
    return bag.items


def check(doc: YamlDocument, schema: str) -> None:
    """Raise if ``doc`` breaks the schema ``schema``.

    Raises:
        DataError: carrying every diagnostic :func:`validate` finds.
    """
    diagnostics = validate(doc, schema)
    if diagnostics:
        raise DataError(diagnostics)


def load_and_check(path: str | Path, schema: str, *, text: str | None = None) -> YamlDocument:
    """Load a YAML file (see :func:`load_yaml`) and check it against the schema ``schema``.

    Raises:
        DataError: the file cannot be loaded, or breaks the schema.
    """
    doc = load_yaml(path, text)
    check(doc, schema)
    return doc


@functools.cache
def _schemas() -> dict[str, dict[str, Any]]:
    """Every schema, by name, read once."""
    return {
        file.name.removesuffix(_SUFFIX): json.loads(file.read_text(encoding="utf-8"))
        for file in sorted(SCHEMAS_DIR.glob("*" + _SUFFIX))
    }


@functools.cache
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    schemas = _schemas()
    if name not in schemas:
        hint = did_you_mean(name, schemas) or "the schemas are " + ", ".join(sorted(schemas))
        raise ValueError(f"no schema {name!r} in {str(SCHEMAS_DIR)!r}; {hint}")
    registry: Registry[Any] = Registry().with_resources(
        (schema["$id"], DRAFT202012.create_resource(schema)) for schema in schemas.values()
    )
    return Draft202012Validator(schemas[name], registry=registry)


def _schema(error: ValidationError) -> Mapping[str, Any]:
    """The subschema whose keyword ``error`` breaks.

    A JSON Schema may also be ``true`` or ``false``; the project's schemas use those only as
    keyword values (``additionalProperties: false``), whose errors belong to the mapping.
    """
    schema = error.schema
    assert isinstance(schema, Mapping), f"boolean subschema at {list(error.schema_path)}"
    return schema


def _instance(error: ValidationError) -> Any:
    """The part of the document ``error`` is about.

    jsonschema sets it, like :func:`_keyword_value`, on every error ``iter_errors`` yields;
    its type stubs also allow the "unset" placeholder of an error made by hand.
    """
    return error.instance


def _keyword_value(error: ValidationError) -> Any:
    """The value of the keyword ``error`` breaks (the ``enum`` list, the ``minimum``, ...)."""
    return error.validator_value


def _explain(error: ValidationError, doc: YamlDocument) -> Iterator[_Problem]:
    """The problems one schema error stands for, in the user's words."""
    path: DataPath = tuple(error.absolute_path)
    if _about_a_key(error):
        # The key is the instance; the mapping it is a key of is at ``path``.
        key = _instance(error)
        yield _Problem(
            f"bad key {key!r} {_where(path)}: expected {_expected(_schema(error))}",
            doc.key_span(path + (key,)),
            "bad-value",
        )
    elif error.validator in ("anyOf", "oneOf") and error.context:
        yield from _explain_alternatives(error, doc, path)
    elif error.validator == "additionalProperties":
        yield from _unknown_keys(error, doc, path)
    elif error.validator == "required":
        properties = _schema(error).get("properties", {})
        for name in _keyword_value(error):
            if name not in _instance(error):
                description = properties.get(name, {}).get("description")
                yield _Problem(
                    f"missing key {name!r} {_where(path)}",
                    doc.span(path),
                    "missing-key",
                    f"{name}: {description}" if description else None,
                )
    elif error.validator == "uniqueItems":
        yield from _duplicate_items(error, doc, path)
    else:
        yield _value_problem(error, doc, path)


def _about_a_key(error: ValidationError) -> bool:
    """Whether ``error`` comes from a ``propertyNames`` schema, so is about a mapping key."""
    steps = list(error.absolute_schema_path)
    return any(
        step == "propertyNames" and (i == 0 or steps[i - 1] not in ("properties", "$defs"))
        for i, step in enumerate(steps)
    )


def _value_problem(error: ValidationError, doc: YamlDocument, path: DataPath) -> _Problem:
    """A problem with the value itself: its type, its spelling, its size."""
    value, schema, keyword = _instance(error), _schema(error), error.validator
    prefix = f"{path_text(path)}: " if path else ""
    code, hint = "bad-value", None
    if keyword == "type":
        message, code = f"expected {_expected(schema)}, got {_got(value)}", "bad-type"
    elif keyword == "enum":
        options = _keyword_value(error)
        message = f"{_show(value)} is not one of {', '.join(_show(o) for o in options)}"
        hint = _spelling_hint(value, options)
    elif keyword == "const":
        message = f"{_show(value)} is not {_show(_keyword_value(error))}"
        hint = _spelling_hint(value, [_keyword_value(error)])
    elif keyword == "pattern":
        message = f"expected {_expected(schema)}, got {_show(value)}"
        hint = None if "x-expected" in schema else schema.get("description")
    elif keyword in _BOUNDS:
        message = f"expected {_BOUNDS[keyword]} {_keyword_value(error)}, got {_show(value)}"
    elif keyword in _SIZES:
        words, unit = _SIZES[keyword]
        limit = _keyword_value(error)
        message = f"expected {words} {limit} {unit}{'' if limit == 1 else 's'}, got {len(value)}"
    else:
        message = error.message
    return _Problem(prefix + message, doc.span(path), code, hint)


def _unknown_keys(error: ValidationError, doc: YamlDocument, path: DataPath) -> Iterator[_Problem]:
    allowed = list(_schema(error).get("properties", {}))
    patterns = list(_schema(error).get("patternProperties", {}))
    for key in _instance(error):
        if key in allowed or (isinstance(key, str) and any(re.search(p, key) for p in patterns)):
            continue
        hint = did_you_mean(str(key), allowed)
        if hint is None:
            hint = "allowed keys: " + ", ".join(allowed) if allowed else "no keys are allowed here"
        message = f"unknown key {key!r} {_where(path)}"
        yield _Problem(message, doc.key_span(path + (key,)), "unknown-key", hint)


def _duplicate_items(
    error: ValidationError, doc: YamlDocument, path: DataPath
) -> Iterator[_Problem]:
    items = _instance(error)
    for i, item in enumerate(items):
        first = next((j for j in range(i) if _same(items[j], item)), None)
        if first is not None:
            where = doc.span(path + (first,))
            yield _Problem(
                f"duplicate item {_show(item)} in {path_text(path) or 'the list'} "
                f"(first given at line {where.line}, column {where.column})",
                doc.span(path + (i,)),
                "bad-value",
            )


def _explain_alternatives(
    error: ValidationError, doc: YamlDocument, path: DataPath
) -> Iterator[_Problem]:
    """Explain why no alternative of an ``anyOf``/``oneOf`` accepts the value.

    An alternative "fits" when the value has its type (a string for a pattern, a mapping for
    an object). When exactly one fits, its own errors are the explanation; when none does,
    or the fitting ones all fail on the value as a whole, one message lists what would do.
    """
    groups = _branches(error)
    fitting = [group for group in groups if _fits(group)]
    if len(fitting) == 1:
        for inner in fitting[0]:
            yield from _explain(inner, doc)
        return
    fitting_errors = [e for group in fitting for e in group]
    if fitting_errors and not all(_at_top(e) for e in fitting_errors):
        from jsonschema.exceptions import best_match

        yield from _explain(best_match(fitting_errors), doc)
        return
    if fitting_errors and all(e.validator == "required" for e in fitting_errors):
        missing = [n for e in fitting_errors for n in _keyword_value(e) if n not in _instance(e)]
        yield _Problem(
            f"missing key {_join_or(repr(name) for name in missing)} {_where(path)}",
            doc.span(path),
            "missing-key",
        )
        return
    expected = _schema(error).get("x-expected") or _join_or(
        _describe(g) for g in fitting or groups
    )
    got = _show(_instance(error)) if fitting else _got(_instance(error))
    options = [o for group in groups for o in _options(group)]
    prefix = f"{path_text(path)}: " if path else ""
    yield _Problem(
        f"{prefix}expected {expected}, got {got}",
        doc.span(path),
        "bad-value" if fitting else "bad-type",
        _spelling_hint(_instance(error), options),
    )


def _branches(error: ValidationError) -> list[list[ValidationError]]:
    """The errors of an ``anyOf``/``oneOf`` error, grouped by the alternative they are in."""
    groups: dict[Any, list[ValidationError]] = {}
    for inner in error.context or ():
        groups.setdefault(inner.relative_schema_path[0], []).append(inner)
    return list(groups.values())


def _at_top(error: ValidationError) -> bool:
    """Whether the error is about the value its alternative was tried on, not a part of it."""
    return not error.relative_path


def _fits(group: list[ValidationError]) -> bool:
    """Whether the value has the type (or form) of the alternative these errors are from."""
    for error in group:
        if not _at_top(error):
            continue
        if error.validator in ("type", "const", "enum"):
            return False
        if error.validator in ("anyOf", "oneOf") and not any(_fits(g) for g in _branches(error)):
            return False
    return True


def _describe(group: list[ValidationError]) -> str:
    """What the alternative these errors are from accepts, as a phrase."""
    error = next((e for e in group if _at_top(e)), group[0])
    schema = _schema(error)
    if "x-expected" in schema:
        return str(schema["x-expected"])
    if error.validator in ("anyOf", "oneOf") and error.context:
        return _join_or(_describe(g) for g in _branches(error))
    if "const" in schema:
        return _show(schema["const"])
    if "enum" in schema:
        return _join_or(_show(option) for option in schema["enum"])
    return _expected(schema)


def _options(group: list[ValidationError]) -> list[Any]:
    """The exact values an alternative accepts (its ``const`` or ``enum``), if any."""
    options: list[Any] = []
    for error in group:
        if _at_top(error):
            schema = _schema(error)
            options.extend(schema.get("enum", ()))
            if "const" in schema:
                options.append(schema["const"])
    return options


def _expected(schema: Mapping[str, Any]) -> str:
    """What ``schema`` accepts, as a phrase: its ``x-expected``, else its type."""
    if "x-expected" in schema:
        return str(schema["x-expected"])
    if "pattern" in schema:
        return f"a string matching {schema['pattern']!r}"
    types = schema.get("type", ())
    return _join_or(_TYPE_NOUNS[t] for t in ([types] if isinstance(types, str) else types))


def _spelling_hint(value: Any, options: Iterable[Any]) -> str | None:
    if not isinstance(value, str):
        return None
    return did_you_mean(value, [o for o in options if isinstance(o, str)])


def _where(path: DataPath) -> str:
    return f"in {path_text(path)}" if path else "at the top level"


def _show(value: Any) -> str:
    """A value as the user would write it in YAML (with quotes for strings)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _got(value: Any) -> str:
    """A value and its type, for "expected ..., got ..."."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, (list, dict)):
        return _show(value)
    kind = {bool: "boolean", int: "integer", float: "number", str: "string"}[type(value)]
    return f"{_show(value)} ({kind})"


def _same(a: Any, b: Any) -> bool:
    """Equality that, like JSON, tells ``true`` from ``1``."""
    return type(a) is type(b) and a == b


def _join_or(phrases: Iterable[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` (each phrase once).

    Examples:
        >>> _join_or(["an integer", "null", "an integer", "a dice expression"])
        'an integer, null or a dice expression'
    """
    unique = list(dict.fromkeys(phrases))
    if len(unique) <= 1:
        return "".join(unique)
    return ", ".join(unique[:-1]) + " or " + unique[-1]
