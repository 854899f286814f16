"""A throwaway PostgreSQL 15 cluster for the server suite (started once per session)."""

from __future__ import annotations

from typing import Any

import pytest


def postgres_url(request: Any) -> str:
    pytest.skip("PostgreSQL not wired yet")
