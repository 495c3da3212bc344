"""Helpers shared by test modules (tests/ is on pytest's pythonpath)."""
