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
    """The API error for a typed error of the engines or the ledger: the rule the engine
    names, or — where no article of the rules names the case (a bet kind that does not
    exist, a negative amount, not this player's turn) — the server's rule for its kind."""
    if isinstance(exc, InvalidInput):
        status, rule = 422, "SRV-INPUT"
    elif isinstance(exc, InsufficientFunds):
        status, rule = 409, "SRV-FUNDS"
    elif isinstance(exc, HoldError):
        status, rule = 409, "SRV-HOLD"
    elif isinstance(exc, RuleViolation | JournalError | LedgerMismatch):
        status, rule = 409, "SRV-PLAY"
    else:
        status, rule = 400, "SRV-INPUT"
    return ApiError(status, _snake(type(exc).__name__), exc.message, exc.rule or rule)


def not_found(what: str, rule: str = "SRV-404") -> ApiError:
    return ApiError(404, "not_found", what, rule)


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message, "SRV-ROLE")
