"""The auditor's reads: the ledger's check, a table's whole journal, the audit log.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from macau_tables.server import store
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User
from macau_tables.server.checks import verify_ledger


def router(d: Deps) -> APIRouter:
    """The audit routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor, allowed, perm = d.floor, d.allowed, d.perm

    # --- audit ------------------------------------------------------------------------------

    @r.get("/audit/ledger", tags=["audit"], **perm("audit.ledger"))
    async def audit_ledger(
        user: Annotated[User, Depends(allowed("audit.ledger"))],
    ) -> dict[str, Any]:
        """Check the ledger now: postings sum to zero, per transaction and in total, and
        each cached balance equals its postings."""
        problems = await the_floor.db.read(verify_ledger)
        return {"ok": not problems, "problems": [p.reason for p in problems]}

    @r.get("/audit/tables/{table_id}/journal", tags=["audit"], **perm("audit.journal"))
    async def audit_journal(
        table_id: str, user: Annotated[User, Depends(allowed("audit.journal"))]
    ) -> dict[str, Any]:
        """The table's whole journal (the ``macau-tables verify`` format)."""
        actor = the_floor.table(table_id)
        journal = await the_floor.db.read(
            lambda c: store.load_journal(c, table_id, actor.game.name, actor.header)
        )
        return journal.to_json()

    @r.get("/audit/log", tags=["audit"], **perm("audit.log"))
    async def audit_log(
        user: Annotated[User, Depends(allowed("audit.log"))],
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[dict[str, Any]]:
        rows = await the_floor.db.read(
            lambda c: c.execute(
                store.audit_t.select().order_by(store.audit_t.c.id.desc()).limit(limit)
            ).all()
        )
        return [
            {
                "at": r.at,
                "user": r.user_name,
                "action": r.action,
                "target": r.target,
                "reason": r.reason,
                "data": json.loads(r.data or "{}"),
            }
            for r in rows
        ]

    return r
