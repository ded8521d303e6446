"""The suite's settings: the project's own, with keys made for this run.

DEBUG is off in the suite, as in production, so every process needs real keys; the ones
made here go into the environment, so the processes that tests start share them. The cache
is the real Redis, as in production.
"""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from scheduler_site.keys import fresh_keys

for _name, _value in fresh_keys().items():
    os.environ.setdefault(_name, _value)
# The rate limit's shared state: the real Redis that scripts/ensure_redis.sh starts.
os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/15")
# Callbacks at once: their own tests set the delay where they test it.
os.environ.setdefault("CALLBACK_DELAY_SECONDS", "0")

from scheduler_site.settings import *  # noqa: E402,F403

# SQLite's test database goes in a folder of this run's own, not into the checkout: two
# runs at once from one checkout would share (and destroy) one file. The processes the
# tests start inherit the folder through the environment, and open the file by its name.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    if "SCHEDULER_TEST_SQLITE_DIR" not in os.environ:
        os.environ["SCHEDULER_TEST_SQLITE_DIR"] = tempfile.mkdtemp(prefix="scheduler-tests-")
        atexit.register(shutil.rmtree, os.environ["SCHEDULER_TEST_SQLITE_DIR"], True)
    _folder = Path(os.environ["SCHEDULER_TEST_SQLITE_DIR"])
    DATABASES["default"]["TEST"] = {"NAME": str(_folder / "test-db.sqlite3")}  # noqa: F405
