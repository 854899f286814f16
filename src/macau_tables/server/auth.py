"""Accounts of people, their roles, passwords (argon2) and bearer tokens that expire.

A permission per operation (:data:`PERMISSIONS`): each endpoint names one, and only the
roles listed may call it (403 otherwise). Tokens are 256-bit random strings; only their
SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Connection

from macau_tables.core.rng import new_server_seed
from macau_tables.games.contract import Actor, check_name
from macau_tables.server import store
from macau_tables.server.errors import ApiError, forbidden
from macau_tables.server.logins import check_password


class StaffRole(StrEnum):
    PLAYER = "player"
    DEALER = "dealer"
    CASHIER = "cashier"
    SUPERVISOR = "supervisor"
    AUDITOR = "auditor"
    ADMINISTRATOR = "administrator"  # staff accounts; no money, no table


#: the roles whose accounts an administrator creates and a second administrator approves
STAFF = frozenset(
    {
        StaffRole.DEALER,
        StaffRole.CASHIER,
        StaffRole.SUPERVISOR,
        StaffRole.AUDITOR,
        StaffRole.ADMINISTRATOR,
    }
)


R = StaffRole
ALL = frozenset(R)

#: operation → the roles allowed to perform it. Every endpoint names one of these.
PERMISSIONS: dict[str, frozenset[StaffRole]] = {
    "me": ALL,
    "logout": ALL,
    "games.list": ALL,
    "tables.list": ALL,
    "tables.read": ALL,
    "tables.view": ALL,
    "tables.events": ALL,
    "tables.watch": ALL,
    "tables.command": frozenset({R.PLAYER, R.DEALER, R.SUPERVISOR}),
    "tables.create": frozenset({R.SUPERVISOR}),
    "tables.control": frozenset({R.SUPERVISOR}),
    "wallet.read": frozenset({R.PLAYER}),
    "accounts.read": frozenset({R.CASHIER, R.SUPERVISOR, R.AUDITOR}),
    "cashier.deposit": frozenset({R.CASHIER}),
    "cashier.withdraw": frozenset({R.CASHIER}),
    # players' accounts: a supervisor or an administrator; staff accounts: an administrator,
    # approved by a second administrator before they can log in (server/controls.py)
    "users.create": frozenset({R.SUPERVISOR, R.ADMINISTRATOR}),
    "users.approve": frozenset({R.ADMINISTRATOR}),
    "users.list": frozenset({R.SUPERVISOR, R.AUDITOR, R.ADMINISTRATOR}),
    # an account disabled, enabled again or given a new password: asked by an
    # administrator, approved by a second one (``users.approve``)
    "users.request": frozenset({R.ADMINISTRATOR}),
    # the cage's float: a fill asked for by one person, approved by another
    "cage.read": frozenset({R.CASHIER, R.SUPERVISOR, R.AUDITOR, R.ADMINISTRATOR}),
    "cage.fill": frozenset({R.SUPERVISOR, R.ADMINISTRATOR}),
    "cage.decide": frozenset({R.SUPERVISOR, R.ADMINISTRATOR}),
    # accounts whose cached balance did not match their postings
    "frozen.read": frozenset({R.CASHIER, R.SUPERVISOR, R.AUDITOR}),
    "frozen.resolve": frozenset({R.SUPERVISOR}),
    "audit.ledger": frozenset({R.SUPERVISOR, R.AUDITOR}),
    "audit.journal": frozenset({R.SUPERVISOR, R.AUDITOR}),
    "audit.log": frozenset({R.SUPERVISOR, R.AUDITOR}),
    # the dealer's part: live tables' console and a waiting player's default
    "dealer.console": frozenset({R.DEALER, R.SUPERVISOR}),
    "dealer.default": frozenset({R.DEALER, R.SUPERVISOR}),
    # meters and the gaming-day close (server/api/meters.py)
    "meters.read": frozenset({R.SUPERVISOR, R.AUDITOR}),
    "meters.close": frozenset({R.SUPERVISOR}),
    # recall and verifiable rounds (server/api/recall.py)
    "recall.table": frozenset({R.DEALER, R.SUPERVISOR, R.AUDITOR}),
    "recall.player": frozenset({R.PLAYER, R.SUPERVISOR, R.AUDITOR}),
    "tables.export": frozenset({R.PLAYER, R.SUPERVISOR, R.AUDITOR}),
    # --- the supervisor: requests and approvals, limits, disputes -----------------------
    "supervisor.request": frozenset({R.SUPERVISOR}),
    "supervisor.decide": frozenset({R.SUPERVISOR}),
    "supervisor.read": frozenset({R.SUPERVISOR, R.AUDITOR}),
    "supervisor.limits": frozenset({R.SUPERVISOR}),
    "supervisor.freeze": frozenset({R.SUPERVISOR}),
    # the server's own figures: its commands' latency (server/latency.py)
    "server.stats": frozenset({R.SUPERVISOR, R.AUDITOR}),
}


@dataclass(frozen=True)
class User:
    name: str
    role: StaffRole

    def actor(self) -> Actor:
        """Who this user is at a table (players by name; the dealer; a supervisor)."""
        if self.role is R.PLAYER:
            return Actor.player(self.name)
        if self.role is R.DEALER:
            return Actor.DEALER
        if self.role is R.SUPERVISOR:
            return Actor.supervisor(self.name)
        raise forbidden(f"a {self.role} does not act at tables")

    def viewer(self) -> object:
        from macau_tables.core.visibility import Viewer

        if self.role is R.PLAYER:
            return Viewer.player(self.name)
        if self.role is R.DEALER:
            return Viewer.DEALER
        if self.role in (R.SUPERVISOR, R.AUDITOR):
            return Viewer.SUPERVISOR
        return Viewer.PUBLIC


def require(user: User, permission: str) -> None:
    if user.role not in PERMISSIONS[permission]:
        raise forbidden(f"{permission} is not allowed for role {user.role}")


class Passwords:
    """argon2id hashes (argon2-cffi). ``fast`` lowers the cost for tests only."""

    def __init__(self, *, fast: bool = False) -> None:
        self._ph = (
            PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
            if fast
            else PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
        )
        #: what a login of an unknown (or inactive) name is verified against: the same
        #: work as a wrong password, so that the time taken does not tell names apart
        self.dummy = self._ph.hash(new_server_seed().hex())

    def hash(self, password: str) -> str:
        return self._ph.hash(password)

    def verify(self, hashed: str, password: str) -> bool:
        try:
            return self._ph.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return new_server_seed().hex()


def create_user(
    conn: Connection,
    passwords: Passwords,
    name: str,
    role: StaffRole,
    password: str,
    *,
    created_by: str = "system",
    approved: bool = True,
) -> None:
    """A new account; one not ``approved`` cannot log in until a second person approves it
    (``controls.approve_user``)."""
    try:
        check_name(name, "user name")
    except ValueError as exc:
        raise ApiError(422, "invalid_input", str(exc), "SRV-NAME") from exc
    check_password(name, password)  # (the policy: server/logins.py)
    exists = conn.execute(sa.select(store.users_t.c.name).where(store.users_t.c.name == name))
    if exists.first() is not None:
        raise ApiError(409, "conflict", f"user {name!r} exists", "SRV-NAME")
    conn.execute(
        store.users_t.insert().values(
            name=name,
            role=role.value,
            password_hash=passwords.hash(password),
            active=True,
            created_at=(now := store.now_ms()),
            created_by=created_by,
            approved_by=created_by if approved else None,
            approved_at=now if approved else None,
        )
    )


def get_user(conn: Connection, name: str) -> tuple[User, str] | None:
    row = conn.execute(
        sa.select(
            store.users_t.c.role,
            store.users_t.c.password_hash,
            store.users_t.c.active,
            store.users_t.c.approved_at,
        ).where(store.users_t.c.name == name)
    ).first()
    if row is None or not row[2] or row[3] is None:  # (not approved yet: not usable)
        return None
    return User(name, StaffRole(row[0])), str(row[1])
