"""Every test run gets its own disk cache (:mod:`rules_run.cache`), empty at the start, so
no test reads an entry an earlier run or the user's commands left."""

import os
import tempfile

import pytest

os.environ["RULES_RUN_CACHE"] = tempfile.mkdtemp(prefix="rules-run-test-cache-")

from rules_run import cache  # noqa: E402  (after the cache folder is chosen)
from rules_run.editions import loader  # noqa: E402


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """An empty disk cache of the test's own (its folder), and no ruleset loaded before."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV, str(folder))
    loader.clear_cache()
    yield folder
    loader.clear_cache()
