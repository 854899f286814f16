"""Money: the caller's wallet, an account's balance, the cage's deposits and withdrawals.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi.responses import JSONResponse

from macau_tables.games.contract import accounts as acc
from macau_tables.server import schemas as S
from macau_tables.server import store
from macau_tables.server.api.deps import Deps, idem_key, reply
from macau_tables.server.auth import User
from macau_tables.server.errors import not_found


def router(d: Deps) -> APIRouter:
    """The cashier routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor, allowed, perm = d.floor, d.allowed, d.perm

    # --- money ----------------------------------------------------------------------------

    @r.get("/wallet", tags=["money"], **perm("wallet.read"))
    async def wallet(user: Annotated[User, Depends(allowed("wallet.read"))]) -> dict[str, Any]:
        """The caller's wallet and his chips at each table."""
        name = user.name

        def read(conn: Any) -> dict[str, Any]:
            stacks = {
                a: b
                for a, b in store.balances_like(conn, "stack:").items()
                if a.endswith(":" + name)
            }
            return {"wallet": store.balance(conn, acc.wallet(name)), "stacks": stacks}

        return await the_floor.db.read(read)

    @r.get(
        "/accounts/{account}",
        response_model=S.BalanceReply,
        tags=["money"],
        **perm("accounts.read"),
    )
    async def account_balance(
        account: str, user: Annotated[User, Depends(allowed("accounts.read"))]
    ) -> dict[str, Any]:
        def read(conn: Any) -> dict[str, Any] | None:
            row = conn.execute(
                store.accounts_t.select().where(store.accounts_t.c.name == account)
            ).first()
            return {"account": account, "balance": int(row.balance)} if row else None

        found = await the_floor.db.read(read)
        if found is None:
            raise not_found(f"no account {account!r}", "SRV-ACCOUNT")
        return found

    for direction in ("deposit", "withdraw"):

        def make_cashier(direction: str = direction) -> None:
            @r.post(
                f"/cashier/{direction}",
                response_model=S.BalanceReply,
                tags=["money"],
                name=f"cashier_{direction}",
                **perm(f"cashier.{direction}"),
            )
            async def cashier(
                body: S.CashierBody,
                user: Annotated[User, Depends(allowed(f"cashier.{direction}"))],
                idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
            ) -> JSONResponse:
                key = idem_key(idempotency_key)
                answer = await the_floor.cashier(
                    direction,
                    user.name,
                    body.player,
                    body.amount,
                    body.memo,
                    key,
                    store.request_hash("POST", f"/cashier/{direction}", body.model_dump()),
                )
                return reply(answer)

            cashier.__doc__ = (
                "The cage pays into a player's wallet (from its float: a fill first when it "
                "does not cover it)."
                if direction == "deposit"
                else "A player's wallet pays out to the cage."
            )

        make_cashier()

    return r
