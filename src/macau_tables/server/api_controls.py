"""The money controls' API (server/controls.py): staff accounts approved by a second
administrator, the cage's float and its fills, frozen accounts and their resolution.

* ``POST /users/{name}/approve`` — a second administrator approves a staff account.
* ``GET /cage`` — the cage's balance and its fills; ``POST /cage/fills`` — a supervisor or
  an administrator asks for a fill; ``POST /cage/fills/{fid}/approve`` · ``reject`` —
  another person (a supervisor or an administrator) decides it.
* ``GET /frozen-accounts`` — accounts frozen because their cached balance did not match
  their postings; ``POST /frozen-accounts/{account}/resolve`` — a supervisor resolves one.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)
"""

import functools
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path
from pydantic import Field
from sqlalchemy.engine import Connection

from macau_tables.core.ledger import CAGE
from macau_tables.server import controls, store
from macau_tables.server.auth import User
from macau_tables.server.floor import Floor
from macau_tables.server.schemas import MAX_AMOUNT, MAX_ID, Control, Strict

Allowed = Callable[[str], Callable[[User], Awaitable[User]]]
Perm = Callable[[str], dict[str, Any]]


class FillBody(Strict):
    """A fill of the cage from the vault (integer avos), with its reason."""

    amount: int = Field(gt=0, le=MAX_AMOUNT, description="integer avos")
    reason: str = Field(min_length=1, max_length=500)


def install(app: FastAPI, floor: Floor, allowed: Allowed, perm: Perm) -> None:
    """Add the money controls' endpoints to ``app`` (called once by ``create_app``)."""

    @app.post("/users/{name}/approve", tags=["people"], **perm("users.approve"))
    async def approve_user(
        name: Annotated[str, Path(max_length=64)],
        body: Control,
        user: Annotated[User, Depends(allowed("users.approve"))],
    ) -> dict[str, Any]:
        """Approve a staff account another administrator created: it can log in now."""
        return await floor.db.write(lambda c: controls.approve_user(c, name, body.reason, user))

    @app.get("/cage", tags=["money"], **perm("cage.read"))
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

    @app.post("/cage/fills", tags=["money"], **perm("cage.fill"))
    async def request_fill(
        body: FillBody, user: Annotated[User, Depends(allowed("cage.fill"))]
    ) -> dict[str, Any]:
        """Ask for a fill of the cage; another person approves it."""
        return await floor.db.write(
            lambda c: controls.request_fill(c, body.amount, body.reason, user)
        )

    for verb, decision in (("approve", "approved"), ("reject", "rejected")):

        def make(verb: str = verb, decision: str = decision) -> None:
            @app.post(
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

            decide.__doc__ = f"{verb.capitalize()} another person's fill of the cage."

        make()

    def _decide(conn: Connection, fid: int, decision: str, reason: str, user: User) -> Any:
        return controls.decide_fill(conn, floor.accounts, fid, decision, reason, user)

    @app.get("/frozen-accounts", tags=["money"], **perm("frozen.read"))
    async def frozen(
        user: Annotated[User, Depends(allowed("frozen.read"))],
    ) -> list[dict[str, Any]]:
        """Accounts frozen because their cached balance did not match their postings
        (newest first), resolved or not."""
        return await floor.db.read(controls.frozen_list)

    @app.post("/frozen-accounts/{account}/resolve", tags=["money"], **perm("frozen.resolve"))
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
