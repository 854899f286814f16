"""Money controls: separation of duties, the cage's float, frozen accounts.

* **Staff accounts** (dealer, cashier, supervisor, auditor, administrator) are created by an
  administrator and cannot log in until a *second* administrator approves them. Players'
  accounts are created by a supervisor or an administrator and can play at once.
* **Two people**: whoever approves a two-person action (a staff account, a void or a
  correction, a fill of the cage) is a different person from the one who asked, and his
  own account was approved at or before the moment the request was recorded — an account
  made after the request (by anyone) cannot approve it (:func:`check_approver`).
* **The cage's float**: a deposit to a player cannot take the cage below zero; money comes
  into the cage from the vault (``vault:main``) by a *fill*, asked for by a supervisor or
  an administrator and approved by another (:func:`request_fill`, :func:`decide_fill`),
  posted to the ledger and audit-logged.
* **Frozen accounts**: an account whose cached balance does not equal the sum of its
  postings (the ledger's check at start-up, in the background, or at a table's unlock) is
  frozen: no movement may name it (``store.post``, 409 ``SRV-FROZEN``) until a supervisor
  resolves it with a reason — the cached balance set back to what its postings sum to,
  audit-logged with both figures (:func:`resolve_frozen`).

Refusals are 4xx naming ``SRV-DUTY`` (separation of duties), ``SRV-FUNDS``, ``SRV-FROZEN``,
``SRV-FILL`` or ``SRV-DECIDED``; nothing is written on a refusal.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.ledger import CAGE, GUARDED, Movement, Transaction
from macau_tables.core.money import MOP, Money
from macau_tables.server import store
from macau_tables.server.auth import STAFF, Passwords, StaffRole, User, create_user
from macau_tables.server.errors import ApiError, not_found

#: where a fill's money comes from: the casino's main bank, outside the cage (it goes
#: negative by what the cage received)
VAULT = "vault:main"


def duty(message: str, status: int = 403) -> ApiError:
    return ApiError(status, "separation_of_duties", message, "SRV-DUTY")


def check_approver(
    conn: Connection, approver: str, requester: str, requested_at: int, what: str
) -> None:
    """``approver`` may approve ``requester``'s request of ``requested_at`` (epoch ms): he is
    another person, and his account is active and was approved at or before then."""
    if approver == requester:
        raise duty(f"{what}: a second person approves it, not the one who asked")
    u = store.users_t.c
    row = conn.execute(sa.select(u.active, u.approved_at).where(u.name == approver)).first()
    if row is None or not row.active or row.approved_at is None or row.approved_at > requested_at:
        raise duty(
            f"{what}: its approver's account must have been approved before it was asked for"
        )


# --- staff accounts -----------------------------------------------------------------------


def add_user(
    conn: Connection, passwords: Passwords, name: str, role: StaffRole, password: str, by: User
) -> bool:
    """A new account by ``by``; return whether it can log in now (a player's) or waits for a
    second administrator's approval (staff)."""
    staff = role in STAFF
    if staff and by.role is not StaffRole.ADMINISTRATOR:
        raise duty(f"a {role} account is created by an administrator, not a {by.role}")
    create_user(conn, passwords, name, role, password, created_by=by.name, approved=not staff)
    store.audit(conn, by.name, "create_user", name, "", {"role": role.value, "pending": staff})
    return not staff


def first_administrators(
    conn: Connection, passwords: Passwords, names: list[str]
) -> dict[str, str]:
    """Two administrators, approved, by ``system`` (``macau-tables db administrators``):
    only on a floor that has none — after that, administrators are hired like any staff.
    Their passwords (random) are returned once."""
    from macau_tables.core.rng import new_server_seed

    if len(set(names)) != 2:
        raise ApiError(422, "invalid_input", "name two different administrators", "SRV-NAME")
    u = store.users_t.c
    if conn.execute(sa.select(u.name).where(u.role == StaffRole.ADMINISTRATOR.value)).first():
        raise duty(
            "this floor has administrators: a new one is created by one and approved by "
            "another (POST /users, POST /users/{name}/approve)",
            409,
        )
    out = {}
    for name in names:
        out[name] = new_server_seed().hex()[:16]
        create_user(conn, passwords, name, StaffRole.ADMINISTRATOR, out[name])
        store.audit(
            conn,
            "system",
            "create_user",
            name,
            "the floor's first administrators",
            {"role": "administrator"},
        )
    return out


def approve_user(conn: Connection, name: str, reason: str, by: User) -> dict[str, Any]:
    """A second administrator approves a staff account another created."""
    u = store.users_t.c
    row = conn.execute(
        sa.select(u.role, u.created_by, u.created_at, u.approved_at).where(u.name == name)
    ).first()
    if row is None:
        raise not_found(f"no user {name!r}", "SRV-USER")
    if row.approved_at is not None:
        raise ApiError(409, "approved", f"user {name!r} is approved already", "SRV-DECIDED")
    creator = str(row.created_by or "")
    check_approver(conn, by.name, creator, int(row.created_at), f"the account {name!r}")
    now = store.now_ms()
    done = conn.execute(
        store.users_t.update()
        .where(u.name == name, u.approved_at.is_(None))
        .values(approved_by=by.name, approved_at=now)
    ).rowcount
    if done != 1:  # approved meanwhile
        raise ApiError(409, "approved", f"user {name!r} is approved already", "SRV-DECIDED")
    store.audit(
        conn, by.name, "approve_user", name, reason, {"role": row.role, "created_by": creator}
    )
    return {"name": name, "role": row.role, "approved_by": by.name, "approved_at": now}


# --- account requests: disable, enable, a new password -----------------------------------

#: what an administrator may ask about another person's account (a second one approves)
ACCOUNT_ACTIONS = ("disable", "enable", "password")


def _account_refusal(message: str, status: int = 409) -> ApiError:
    return ApiError(status, "account_request", message, "SRV-USER")


def _active_administrators(conn: Connection) -> set[str]:
    u = store.users_t.c
    rows = conn.execute(
        sa.select(u.name).where(
            u.role == StaffRole.ADMINISTRATOR.value, u.active, u.approved_at.is_not(None)
        )
    )
    return {str(n) for (n,) in rows}


def _check_account_action(
    conn: Connection, name: str, action: str, active: bool, role: str
) -> None:
    """The account can take ``action`` now: disable an active one, enable a disabled one; an
    administrator is disabled only while two others stay active to approve what one asks."""
    if action == "disable" and not active:
        raise _account_refusal(f"the account {name!r} is disabled already")
    if action == "enable" and active:
        raise _account_refusal(f"the account {name!r} is active already")
    if action == "disable" and role == StaffRole.ADMINISTRATOR.value:
        others = _active_administrators(conn) - {name}
        if len(others) < 2:
            raise duty(
                f"disabling {name!r} would leave {len(others)} active administrator(s): two "
                "are needed, one to ask and one to approve",
                409,
            )


def request_account(
    conn: Connection, name: str, action: str, reason: str, by: User, password_hash: str | None
) -> dict[str, Any]:
    """An administrator asks for ``action`` on another person's account (``password``: its
    new password's hash, the policy checked by the caller); a second administrator decides
    (:func:`decide_account`). Audit-logged; nothing changes until then."""
    u = store.users_t.c
    row = conn.execute(sa.select(u.role, u.active).where(u.name == name)).first()
    if row is None:
        raise not_found(f"no user {name!r}", "SRV-USER")
    if name == by.name:
        raise duty(
            "an account request is about another person's account (your own password: "
            "POST /auth/password)"
        )
    if action not in ACCOUNT_ACTIONS:
        raise ApiError(422, "invalid_input", f"action is one of {ACCOUNT_ACTIONS}", "SRV-INPUT")
    if (action == "password") != (password_hash is not None):
        raise ApiError(
            422, "invalid_input", "a password request, and only it, names the password",
            "SRV-INPUT",
        )  # fmt: skip
    _check_account_action(conn, name, action, bool(row.active), str(row.role))
    r = store.account_requests_t.c
    waiting = conn.execute(
        sa.select(r.id).where(r.name == name, r.action == action, r.decision.is_(None))
    ).first()
    if waiting is not None:
        raise _account_refusal(
            f"request {int(waiting.id)} to {action} {name!r} waits for its decision already"
        )
    rid = conn.execute(
        store.account_requests_t.insert().values(
            name=name,
            action=action,
            reason=reason,
            password_hash=password_hash,
            requested_by=by.name,
            requested_at=store.now_ms(),
        )
    ).inserted_primary_key
    assert rid is not None
    store.audit(conn, by.name, f"request:{action}_user", name, reason, {"request": int(rid[0])})
    return account_request_json(account_request_row(conn, int(rid[0])))


def account_request_row(conn: Connection, rid: int, *, lock: bool = False) -> Any:
    q = sa.select(store.account_requests_t).where(store.account_requests_t.c.id == rid)
    if lock and conn.dialect.name != "sqlite":
        q = q.with_for_update()
    return conn.execute(q).first()


def account_request_json(row: Any) -> dict[str, Any]:
    """A request as the API shows it (never the password's hash)."""
    return {
        "id": int(row.id),
        "name": row.name,
        "action": row.action,
        "reason": row.reason,
        "requested_by": row.requested_by,
        "requested_at": int(row.requested_at),
        "state": row.decision or "pending",
        "decided_by": row.decided_by,
        "decided_at": row.decided_at,
        "decision_reason": row.decision_reason,
    }


def account_requests(
    conn: Connection, state: str | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    """Account requests, newest first (``state``: pending, approved or rejected)."""
    r = store.account_requests_t
    q = sa.select(r).order_by(r.c.id.desc()).limit(limit)
    if state == "pending":
        q = q.where(r.c.decision.is_(None))
    elif state is not None:
        q = q.where(r.c.decision == state)
    return [account_request_json(row) for row in conn.execute(q)]


def decide_account(
    conn: Connection, rid: int, decision: str, reason: str, by: User
) -> dict[str, Any]:
    """A second administrator approves (the account is disabled, enabled or given its new
    password now, its sessions ended for the first and the last) or rejects a request."""
    row = account_request_row(conn, rid, lock=True)
    if row is None:
        raise not_found(f"no account request {rid}", "SRV-USER")
    if row.decision is not None:
        raise ApiError(
            409, "decided", f"account request {rid} was {row.decision} already", "SRV-DECIDED"
        )
    check_approver(conn, by.name, row.requested_by, int(row.requested_at), f"account request {rid}")
    u = store.users_t.c
    if decision == "approved":
        user = conn.execute(sa.select(u.role, u.active).where(u.name == row.name)).first()
        if user is None:  # (accounts are never deleted)
            raise not_found(f"no user {row.name!r}", "SRV-USER")
        _check_account_action(conn, row.name, row.action, bool(user.active), str(user.role))
        change: dict[str, Any] = {
            "disable": {"active": False},
            "enable": {"active": True},
            "password": {"password_hash": row.password_hash},
        }[row.action]
        conn.execute(store.users_t.update().where(u.name == row.name).values(**change))
        if row.action in ("disable", "password"):  # its sessions end with the old state
            conn.execute(store.tokens_t.delete().where(store.tokens_t.c.user_name == row.name))
    done = conn.execute(
        store.account_requests_t.update()
        .where(store.account_requests_t.c.id == rid, store.account_requests_t.c.decision.is_(None))
        .values(
            decision=decision,
            decided_by=by.name,
            decided_at=store.now_ms(),
            decision_reason=reason,
            password_hash=None,
        )
    ).rowcount
    if done != 1:  # decided meanwhile
        raise ApiError(409, "decided", f"account request {rid} was decided", "SRV-DECIDED")
    verb = "approve" if decision == "approved" else "reject"
    store.audit(
        conn,
        by.name,
        f"{verb}:{row.action}_user",
        row.name,
        reason,
        {"request": rid, "requested_by": row.requested_by},
    )
    return account_request_json(account_request_row(conn, rid))


# --- the cage's float and its fills --------------------------------------------------------


def cage_refusal(conn: Connection, amount: int) -> ApiError | None:
    """The refusal of a deposit of ``amount`` the cage does not hold (None: it does)."""
    row = store.run(conn, "balance", {"name": CAGE}).first()
    cage = int(row[0]) if row else 0
    if cage >= amount:
        return None
    return ApiError(
        409,
        "insufficient_funds",
        f"the cage holds {Money(cage, MOP)}; this deposit needs {Money(amount, MOP)}: "
        "a fill of the cage first (POST /cage/fills, approved by a second person)",
        "SRV-FUNDS",
    )


def _fill_json(row: Any) -> dict[str, Any]:
    return {
        "id": int(row.id),
        "amount": int(row.amount),
        "reason": row.reason,
        "requested_by": row.requested_by,
        "requested_at": int(row.requested_at),
        "state": row.decision or "pending",
        "decided_by": row.decided_by,
        "decided_at": row.decided_at,
        "decision_reason": row.decision_reason,
        "tx_id": row.tx_id,
    }


def fill_row(conn: Connection, fid: int, *, lock: bool = False) -> Any:
    q = sa.select(store.cage_fills_t).where(store.cage_fills_t.c.id == fid)
    if lock and conn.dialect.name != "sqlite":
        q = q.with_for_update()
    return conn.execute(q).first()


def request_fill(conn: Connection, amount: int, reason: str, by: User) -> dict[str, Any]:
    fid = conn.execute(
        store.cage_fills_t.insert().values(
            amount=amount, reason=reason, requested_by=by.name, requested_at=store.now_ms()
        )
    ).inserted_primary_key
    assert fid is not None
    store.audit(
        conn, by.name, "request:fill", CAGE, reason, {"fill": int(fid[0]), "amount": amount}
    )
    return _fill_json(fill_row(conn, int(fid[0])))


def decide_fill(
    conn: Connection,
    accounts: store.Accounts,
    fid: int,
    decision: str,
    reason: str,
    by: User,
) -> dict[str, Any]:
    """A second person approves (the vault pays the cage, in the same transaction) or
    rejects a fill."""
    row = fill_row(conn, fid, lock=True)
    if row is None:
        raise not_found(f"no fill {fid}", "SRV-FILL")
    if row.decision is not None:
        raise ApiError(409, "decided", f"fill {fid} was {row.decision} already", "SRV-DECIDED")
    check_approver(conn, by.name, row.requested_by, int(row.requested_at), f"fill {fid}")
    tx_id = None
    if decision == "approved":
        tx = Transaction.transfer(
            VAULT, CAGE, Money(int(row.amount), MOP), f"fill {fid}: {row.reason}"
        )
        tx_id = store.post(conn, accounts, Movement(tx), by_user=by.name)
    conn.execute(
        store.cage_fills_t.update()
        .where(store.cage_fills_t.c.id == fid)
        .values(
            decision=decision,
            decided_by=by.name,
            decided_at=store.now_ms(),
            decision_reason=reason,
            tx_id=tx_id,
        )
    )
    verb = "approve" if decision == "approved" else "reject"
    store.audit(
        conn,
        by.name,
        f"{verb}:fill",
        CAGE,
        reason,
        {"fill": fid, "amount": int(row.amount), "requested_by": row.requested_by, "tx": tx_id},
    )
    return _fill_json(fill_row(conn, fid))


def fills(conn: Connection, limit: int = 100) -> list[dict[str, Any]]:
    f = store.cage_fills_t
    return [_fill_json(r) for r in conn.execute(sa.select(f).order_by(f.c.id.desc()).limit(limit))]


def demo_fill(conn: Connection, accounts: store.Accounts, amount: int) -> None:
    """The demo floor's opening float (a new floor, by the system, audit-logged)."""
    tx = Transaction.transfer(VAULT, CAGE, Money(amount, MOP), "demo fill: the cage's float")
    tx_id = store.post(conn, accounts, Movement(tx), by_user="system")
    store.audit(conn, "system", "fill", CAGE, "the demo floor's opening float", {"tx": tx_id})


# --- frozen accounts -----------------------------------------------------------------------


def _mismatches(conn: Connection, account: str | None = None) -> list[tuple[str, int, int]]:
    p, a = store.postings_t, store.accounts_t
    sums = sa.select(p.c.account, sa.func.sum(p.c.amount).label("total"))
    if account is not None:
        sums = sums.where(p.c.account == account)
    sub = sums.group_by(p.c.account).subquery()
    q = (
        sa.select(a.c.name, a.c.balance, sa.func.coalesce(sub.c.total, 0))
        .select_from(a.outerjoin(sub, sub.c.account == a.c.name))
        .where(a.c.balance != sa.func.coalesce(sub.c.total, 0))
    )
    if account is not None:
        q = q.where(a.c.name == account)
    return [(str(n), int(c), int(t)) for n, c, t in conn.execute(q)]


def freeze_mismatched(conn: Connection) -> frozenset[str]:
    """Freeze every account whose cached balance differs from its postings (not frozen
    already); return every account frozen and not resolved."""
    frozen = store.frozen_accounts(conn)
    for name, cached, posted in _mismatches(conn):
        if name in frozen:
            continue
        reason = f"money: {name} caches {cached} but its postings sum to {posted}"
        conn.execute(
            store.frozen_accounts_t.insert().values(
                account=name, reason=reason, cached=cached, posted=posted, frozen_at=store.now_ms()
            )
        )
        store.audit(
            conn, "system", "freeze_account", name, reason, {"cached": cached, "posted": posted}
        )
        frozen.add(name)
    return frozenset(frozen)


def frozen_list(conn: Connection) -> list[dict[str, Any]]:
    f = store.frozen_accounts_t
    rows = conn.execute(sa.select(f).order_by(f.c.id.desc()).limit(200))
    return [
        {
            "account": r.account,
            "reason": r.reason,
            "cached": int(r.cached),
            "posted": int(r.posted),
            "frozen_at": int(r.frozen_at),
            "resolved_by": r.resolved_by,
            "resolution": r.resolution,
            "resolved_at": r.resolved_at,
        }
        for r in rows
    ]


def resolve_frozen(conn: Connection, account: str, reason: str, by: User) -> dict[str, Any]:
    """A supervisor resolves a frozen account: its cached balance becomes what its postings
    sum to (the postings are the record; the cache was wrong), audit-logged with both."""
    f = store.frozen_accounts_t.c
    row = conn.execute(
        sa.select(store.frozen_accounts_t).where(f.account == account, f.resolved_at.is_(None))
    ).first()
    if row is None:
        raise ApiError(409, "not_frozen", f"{account} is not frozen", "SRV-FROZEN")
    store.lock_accounts(conn, [account])
    found = _mismatches(conn, account)
    cached, posted = (found[0][1], found[0][2]) if found else (None, None)
    if posted is not None and posted < 0 and account.startswith(GUARDED):
        raise ApiError(
            409,
            "negative_postings",
            f"{account}'s postings sum to {posted}, below zero: more left it than came in; "
            "this needs an investigation, not a resolution",
            "SRV-FROZEN",
        )
    if posted is not None:
        conn.execute(
            store.accounts_t.update()
            .where(store.accounts_t.c.name == account)
            .values(balance=posted)
        )
    now = store.now_ms()
    conn.execute(
        store.frozen_accounts_t.update()
        .where(f.id == row.id)
        .values(resolved_by=by.name, resolution=reason, resolved_at=now)
    )
    store.audit(
        conn, by.name, "resolve_account", account, reason,
        {"cached": cached, "posted": posted, "frozen": row.reason},
    )  # fmt: skip
    return {"account": account, "balance": posted, "was": cached, "resolved_by": by.name}
