"""Every refusal as a JSON body ``{error, rule, message}`` with a 4xx status.

Server rules (``SRV-…``) are the server's own, documented in docs/server.md; a game's rule
ID (``CR-2.3``, ``BA-9.3``, …) comes from the engine's typed error.
"""

from __future__ import annotations

import re
from typing import Any

from macau_tables.core.errors import (
    HoldError,
    InsufficientFunds,
    InvalidInput,
    JournalError,
    LedgerMismatch,
    MacauTablesError,
    RuleViolation,
)


class ApiError(Exception):
    """A refusal: HTTP ``status``, a snake_case ``error``, the ``rule`` and a message."""

    def __init__(self, status: int, error: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.status, self.error, self.message, self.rule = status, error, message, rule

    def body(self) -> dict[str, Any]:
        return {"error": self.error, "rule": self.rule, "message": self.message}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def from_domain(exc: MacauTablesError) -> ApiError:
    """The API error for a typed error of the engines or the ledger."""
    if isinstance(exc, InvalidInput):
        status = 422
    elif isinstance(
        exc, RuleViolation | HoldError | InsufficientFunds | JournalError | LedgerMismatch
    ):
        status = 409
    else:
        status = 400
    return ApiError(status, _snake(type(exc).__name__), exc.message, exc.rule)


def not_found(what: str, rule: str = "SRV-404") -> ApiError:
    return ApiError(404, "not_found", what, rule)


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message, "SRV-ROLE")
