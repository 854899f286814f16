"""Test-wide set-up.

* A private, empty table cache (macau_tables.analysis.tablecache): tests never read the
  user's cached tables; every table a test needs is built from the current code in this
  session, and subprocesses (CLI tests) inherit the same directory.
* Hypothesis's timing checks (the per-example deadline and the "generation is slow" health
  check) measure the machine, not the code: on a loaded 2-core CI machine they fail tests
  whose properties hold. They are off for the whole suite; every other health check stays.
  Performance is measured by `make bench`, never by a test's clock.
* `make check` (the development loop) sets MACAU_TABLES_TESTS=check: every property runs
  with fewer examples, and the tests marked `slow` (whole simulations, exhaustive
  enumerations through the CLI) are left to `make test`, which runs everything in full.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

_CACHE = tempfile.mkdtemp(prefix="macau-tables-test-cache-")
os.environ["MACAU_TABLES_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

settings.register_profile(
    "macau-tables", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("check", parent=settings.get_profile("macau-tables"), max_examples=12)
settings.load_profile(
    "check" if os.environ.get("MACAU_TABLES_TESTS") == "check" else "macau-tables"
)
