"""Test session set-up: a private, empty table cache (macau_tables.analysis.tablecache).

Tests never read the user's cached tables: every table a test needs is built from the
current code in this session, and subprocesses (CLI tests) inherit the same directory."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="macau-tables-test-cache-")
os.environ["MACAU_TABLES_CACHE"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)
