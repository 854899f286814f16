"""The money controls' API (server/controls.py): staff accounts approved by a second
administrator, the cage's float and its fills, frozen accounts and their resolution.

* ``POST /users/{name}/approve`` — a second administrator approves a staff account.
* ``POST /users/{name}/requests`` — an administrator asks to disable another person's
  account, to enable it again or to give it a new password (the policy of
  server/logins.py); ``GET /users/requests``; ``POST /users/requests/{rid}/approve`` ·
  ``reject`` — a second administrator decides.
* ``GET /cage`` — the cage's balance and its fills; ``POST /cage/fills`` — a supervisor or
  an administrator asks for a fill; ``POST /cage/fills/{fid}/approve`` · ``reject`` —
  another person (a supervisor or an administrator) decides it.
* ``GET /frozen-accounts`` — accounts frozen because their cached balance did not match
  their postings; ``POST /frozen-accounts/{account}/resolve`` — a supervisor resolves one.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)
"""

import asyncio
import functools
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from pydantic import Field
from sqlalchemy.engine import Connection

from macau_tables.core.ledger import CAGE
from macau_tables.server import controls, store
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User
from macau_tables.server.errors import ApiError
from macau_tables.server.logins import check_password
from macau_tables.server.schemas import MAX_AMOUNT, MAX_ID, Control, Strict


class FillBody(Strict):
    """A fill of the cage from the vault (integer avos), with its reason."""

    amount: int = Field(gt=0, le=MAX_AMOUNT, description="integer avos")
    reason: str = Field(min_length=1, max_length=500)


class AccountRequestBody(Strict):
    """An account request; ``password`` only with the action ``password``."""

    action: Literal["disable", "enable", "password"]
    reason: str = Field(min_length=1, max_length=500)
    password: str | None = Field(default=None, min_length=1, max_length=200)


def router(d: Deps) -> APIRouter:
    """The money controls' endpoints (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    floor, allowed, perm = d.floor, d.allowed, d.perm

    @r.post("/users/{name}/approve", tags=["people"], **perm("users.approve"))
    async def approve_user(
        name: Annotated[str, Path(max_length=64)],
        body: Control,
        user: Annotated[User, Depends(allowed("users.approve"))],
    ) -> dict[str, Any]:
        """Approve a staff account another administrator created: it can log in now."""
        return await floor.db.write(lambda c: controls.approve_user(c, name, body.reason, user))

    @r.post("/users/{name}/requests", tags=["people"], **perm("users.request"))
    async def account_request(
        name: Annotated[str, Path(max_length=64)],
        body: AccountRequestBody,
        user: Annotated[User, Depends(allowed("users.request"))],
    ) -> dict[str, Any]:
        """Ask for another's account disabled, enabled or given a new password."""
        hashed = None
        if body.action == "password":
            if body.password is None:
                raise ApiError(
                    422, "invalid_input", "a password request names the password", "SRV-INPUT"
                )
            check_password(name, body.password)  # (422 SRV-PASSWORD)
            loop = asyncio.get_running_loop()
            hashed = await loop.run_in_executor(None, floor.passwords.hash, body.password)
        elif body.password is not None:
            raise ApiError(
                422, "invalid_input", f"a request to {body.action} names no password", "SRV-INPUT"
            )
        return await floor.db.write(
            lambda c: controls.request_account(c, name, body.action, body.reason, user, hashed)
        )

    @r.get("/users/requests", tags=["people"], **perm("users.list"))
    async def account_requests(
        user: Annotated[User, Depends(allowed("users.list"))],
        state: Annotated[Literal["pending", "approved", "rejected"] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[dict[str, Any]]:
        """Account requests, newest first."""
        return await floor.db.read(lambda c: controls.account_requests(c, state, limit))

    for verb, decision in (("approve", "approved"), ("reject", "rejected")):

        def make_account(verb: str = verb, decision: str = decision) -> None:
            @r.post(
                f"/users/requests/{{rid}}/{verb}",
                tags=["people"],
                name=f"account_request_{verb}",
                description=f"{verb.capitalize()} another administrator's account request.",
                **perm("users.approve"),
            )
            async def decide_account(
                rid: Annotated[int, Path(ge=1, le=MAX_ID)],
                body: Control,
                user: Annotated[User, Depends(allowed("users.approve"))],
            ) -> dict[str, Any]:
                out = await floor.db.write(
                    lambda c: controls.decide_account(c, rid, decision, body.reason, user)
                )
                if decision == "approved":
                    floor.forget_sessions(out["name"])
                return out

        make_account()

    @r.get("/cage", tags=["money"], **perm("cage.read"))
    async def cage(user: Annotated[User, Depends(allowed("cage.read"))]) -> dict[str, Any]:
        """The cage's balance (its float: deposits draw on it) and its latest fills."""

        def read(conn: Connection) -> dict[str, Any]:
            return {
                "account": CAGE,
                "balance": store.balance(conn, CAGE),
                "frozen": CAGE in floor.accounts.frozen,
                "fills": controls.fills(conn),
            }

        return await floor.db.read(read)

    @r.post("/cage/fills", tags=["money"], **perm("cage.fill"))
    async def request_fill(
        body: FillBody, user: Annotated[User, Depends(allowed("cage.fill"))]
    ) -> dict[str, Any]:
        """Ask for a fill of the cage; another person approves it."""
        return await floor.db.write(
            lambda c: controls.request_fill(c, body.amount, body.reason, user)
        )

    for verb, decision in (("approve", "approved"), ("reject", "rejected")):

        def make(verb: str = verb, decision: str = decision) -> None:
            @r.post(
                f"/cage/fills/{{fid}}/{verb}",
                tags=["money"],
                name=f"fill_{verb}",
                **perm("cage.decide"),
            )
            async def decide(
                fid: Annotated[int, Path(ge=1, le=MAX_ID)],
                body: Control,
                user: Annotated[User, Depends(allowed("cage.decide"))],
            ) -> dict[str, Any]:
                unit = functools.partial(
                    _decide, fid=fid, decision=decision, reason=body.reason, user=user
                )
                return await floor.db.write(unit)

            decide.__doc__ = (
                "Another person than the requester approves a fill: vault → cage posted in "
                "the same transaction as the decision."
                if verb == "approve"
                else "Another person than the requester rejects a fill."
            )

        make()

    def _decide(conn: Connection, fid: int, decision: str, reason: str, user: User) -> Any:
        return controls.decide_fill(conn, floor.accounts, fid, decision, reason, user)

    @r.get("/frozen-accounts", tags=["money"], **perm("frozen.read"))
    async def frozen(
        user: Annotated[User, Depends(allowed("frozen.read"))],
    ) -> list[dict[str, Any]]:
        """Accounts frozen because their cached balance did not match their postings
        (newest first), resolved or not."""
        return await floor.db.read(controls.frozen_list)

    @r.post("/frozen-accounts/{account}/resolve", tags=["money"], **perm("frozen.resolve"))
    async def resolve(
        account: Annotated[str, Path(max_length=200)],
        body: Control,
        user: Annotated[User, Depends(allowed("frozen.resolve"))],
    ) -> dict[str, Any]:
        """Resolve a frozen account: its cached balance set to what its postings sum to
        (audit-logged with both), and its money paths open again. Unlock the tables after
        (each unlock runs the whole ledger's check again)."""
        out = await floor.db.write(lambda c: controls.resolve_frozen(c, account, body.reason, user))
        floor.accounts.frozen = await floor.db.read(lambda c: frozenset(store.frozen_accounts(c)))
        return out

    return r
