"""Logins: the throttle on wrong passwords, and the password policy.

**The throttle.** Every wrong password (or unknown name) counts against the account's
name and against the client's address. A key's first ``free - 1`` failures cost
nothing; its ``n``-th failure from the ``free``-th on closes it for ``base * 2**(n -
free)`` seconds (1 s, 2 s, 4 s …), at most ``cap``: a login during that time is refused
with 429 ``SRV-THROTTLE`` and a ``Retry-After`` header, even with the right password (so
guessing goes no faster). Attempts still being verified count too (a burst sent at once
is no faster than one after another), at an address only once it has failed. A
right password resets the account's count, not the address's (an address that guesses
at many accounts is slowed down whatever one of its own logins does). A key with no
failure for ``forget`` seconds starts again from nothing. The state is in memory, per
server process: a restart, or another process of a ``--workers`` server, starts afresh.
The clock is the server's monotonic clock, injectable (``LoginThrottle(clock=…)``).

**The policy** (:func:`check_password`): at least :data:`MIN_LENGTH` characters, not the
user's name, and none of the common passwords of ``common_passwords.txt`` (lower-cased,
compared lower-cased).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from macau_tables.server import schemas as S
from macau_tables.server.errors import ApiError

#: a password has at least this many characters
MIN_LENGTH = 10
COMMON = Path(__file__).with_name("common_passwords.txt")


class Throttled(ApiError):
    """429 ``SRV-THROTTLE``: too many wrong passwords; retry after ``retry_after`` s."""

    def __init__(self, what: str, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(
            429,
            "too_many_attempts",
            f"too many failed logins {what}; retry in {self.retry_after} s",
            "SRV-THROTTLE",
        )

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


@dataclass
class _Count:
    failures: int = 0
    inflight: int = 0
    closed_until: float = 0.0
    last: float = 0.0


@dataclass(frozen=True)
class Rule:
    """The ``n``-th failure from the ``free``-th on closes for ``base * 2**(n - free)`` s
    (at most ``cap``); ``forget``: a key's count is dropped after so long without one."""

    free: int
    base: float = 1.0
    cap: float = 900.0
    forget: float = 3600.0


#: a name: its 5th failure closes it for 1 s, the 6th for 2 s, 4 s … up to 15 min
ACCOUNT = Rule(free=5)
#: an address (many people may share one): from its 20th failure, the same back-off
ADDRESS = Rule(free=20)
#: the keys kept at most (the oldest forgotten beyond: memory is bounded)
MAX_KEYS = 100_000


class LoginThrottle:
    """Failed logins per account name and per client address (module docstring)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        account: Rule = ACCOUNT,
        address: Rule = ADDRESS,
    ) -> None:
        self.clock = clock
        self.rules = {"account": account, "address": address}
        self._counts: dict[tuple[str, str], _Count] = {}

    def begin(self, name: str, address: str) -> None:
        """Before a password is verified: raises :class:`Throttled` while the account or
        the address is closed, or has as many attempts in flight as it has free failures
        left (at least one): at an account always, at an address once it has failed
        (many people's logins may come at once from one address); else the attempt is in
        flight until :meth:`end`."""
        now = self.clock()
        keys = (("account", name, "for this account"), ("address", address, "from this address"))
        for kind, key, what in keys:
            count = self._get(kind, key, now)
            if count is None:
                continue
            if count.closed_until > now:
                raise Throttled(what, count.closed_until - now)
            counts_in_flight = kind == "account" or count.failures > 0
            at_once = max(1, self.rules[kind].free - count.failures)
            if counts_in_flight and count.inflight >= at_once:
                raise Throttled(what, self.rules[kind].base)
        for kind, key, _ in keys:
            count = self._get(kind, key, now) or self._new(kind, key)
            count.inflight += 1
            count.last = now

    def end(self, name: str, address: str, *, ok: bool) -> None:
        """After :meth:`begin`: the password was right (``ok``) or wrong."""
        now = self.clock()
        for kind, key in (("account", name), ("address", address)):
            count = self._counts.get((kind, key))
            if count is None:
                continue
            count.inflight = max(0, count.inflight - 1)
            if ok:
                if kind == "account":  # (the right password: the account starts afresh)
                    count.failures, count.closed_until = 0, 0.0
                if not count.failures and not count.inflight:  # (nothing left to keep)
                    del self._counts[(kind, key)]
                continue
            rule = self.rules[kind]
            count.failures += 1
            count.last = now
            over = count.failures - rule.free  # (0: the last free failure)
            if over >= 0:
                count.closed_until = now + min(rule.cap, rule.base * 2 ** min(over, 30))

    def _get(self, kind: str, key: str, now: float) -> _Count | None:
        count = self._counts.get((kind, key))
        forgotten = count is not None and now - count.last > self.rules[kind].forget
        if count is not None and forgotten and not count.inflight:
            del self._counts[(kind, key)]
            return None
        return count

    def _new(self, kind: str, key: str) -> _Count:
        if len(self._counts) >= MAX_KEYS:  # (dicts keep their order: the oldest first)
            del self._counts[next(iter(self._counts))]
        count = self._counts[(kind, key)] = _Count()
        return count


@functools.cache
def common_passwords() -> frozenset[str]:
    lines = COMMON.read_text(encoding="utf-8").splitlines()
    return frozenset(s.strip().lower() for s in lines if s.strip() and not s.startswith("#"))


def check_password(name: str, password: str) -> None:
    """422 ``SRV-PASSWORD`` unless ``password`` follows the policy (module docstring)."""
    problem = None
    if len(password) < MIN_LENGTH:
        problem = f"a password has at least {MIN_LENGTH} characters"
    elif password.lower() == name.lower():
        problem = "a password is not the user's name"
    elif password.lower() in common_passwords():
        problem = "this password is on the list of common passwords"
    if problem is not None:
        raise ApiError(422, "weak_password", problem, "SRV-PASSWORD")


class PasswordChange(BaseModel):
    """``POST /auth/password``: one's own password, the old then the new."""

    model_config = ConfigDict(extra="forbid")
    old_password: str = Field(max_length=200)
    new_password: str = Field(max_length=200)


class LoginBody(S.Login):
    """``POST /auth/login``. ``session``: ``"bearer"`` (API clients: the token in the
    answer) or ``"cookie"`` (the browser's pages: the token only in the ``HttpOnly``
    session cookie, never in the answer; server/session.py)."""

    session: Literal["bearer", "cookie"] = "bearer"


class SessionReply(BaseModel):
    """``POST /auth/login`` with ``session: "cookie"``: who, and until when."""

    name: str
    role: str
    expires_at: int = Field(description="epoch milliseconds")
