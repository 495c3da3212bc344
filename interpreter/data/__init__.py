"""YAML data with locations, checked against JSON Schemas.

Every YAML file of a ruleset (tables, unit data, equipment, the manifest) and every battle
file is loaded by :func:`load_yaml` into plain Python data plus a location index, checked
against ``schemas/<kind>.schema.json`` by :func:`check`, and reported with located
diagnostics (:class:`rules_run.diagnostics.DataError`) that name every mistake at once.
Loaded objects are immutable and keep their file and line.
"""

from __future__ import annotations

from rules_run.data.schema import check, load_and_check, validate
from rules_run.data.tables import Cell, KeyValue, Table, TableKeyError, load_table
from rules_run.data.yaml_loader import DataPath, Key, YamlDocument, load_yaml, path_text

__all__ = [
    "load_yaml",
    "YamlDocument",
    "DataPath",
    "Key",
    "path_text",
    "validate",
    "check",
    "load_and_check",
    "Table",
    "TableKeyError",
    "Cell",
    "KeyValue",
    "load_table",
]
