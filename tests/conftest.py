"""Every test run gets its own disk cache (:mod:`rules_run.cache`), empty at the start, so
no test reads an entry an earlier run or the user's commands left."""

import os
import tempfile

os.environ["RULES_RUN_CACHE"] = tempfile.mkdtemp(prefix="rules-run-test-cache-")
