"""Accounts: a player's or a staff member's, and the list of them.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from macau_tables.server import schemas as S
from macau_tables.server import store
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import StaffRole, User


def router(d: Deps) -> APIRouter:
    """The people routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor, allowed, perm = d.floor, d.allowed, d.perm

    # --- people -----------------------------------------------------------------------------

    @r.post("/users", tags=["people"], **perm("users.create"))
    async def add_user(
        body: S.UserCreate, user: Annotated[User, Depends(allowed("users.create"))]
    ) -> dict[str, Any]:
        """A player's account (a supervisor or an administrator; it plays at once), or a
        staff account (an administrator only; it logs in once a second administrator
        approves it: ``POST /users/{name}/approve``)."""
        active = await the_floor.add_user(body.name, StaffRole(body.role), body.password, user)
        return {"name": body.name, "role": body.role, "approved": active}

    @r.get("/users", tags=["people"], **perm("users.list"))
    async def list_users(
        user: Annotated[User, Depends(allowed("users.list"))],
    ) -> list[dict[str, Any]]:
        rows = await the_floor.db.read(
            lambda c: c.execute(store.users_t.select().order_by(store.users_t.c.name)).all()
        )
        return [
            {
                "name": r.name,
                "role": r.role,
                "active": bool(r.active),
                "created_by": r.created_by,
                "approved_by": r.approved_by,
                "approved": r.approved_at is not None,
            }
            for r in rows
        ]

    return r
