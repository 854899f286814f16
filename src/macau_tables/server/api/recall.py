"""Recall and export: the auditor's day. See docs/operations.md.

* ``GET /tables/{id}/recall?limit=10&before=N`` — a table's last rounds (staff);
* ``GET /players/{name}/recall?limit=10`` — a player's last rounds at every table (the
  player himself, supervisors, auditors);
* ``GET /tables/{id}/export`` — the table's journal for ``macau-tables verify``: whole for
  supervisors and auditors; for a player, the excerpt he may see (``server.recall``).

Thin (STYLE §9): the rounds and views come from the engines (``contract.rounds``,
``contract.Replay``, ``view``), the money from the ledger; the CPU work runs off the event
loop.
"""

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from macau_tables.core.visibility import Viewer
from macau_tables.server import recall as R
from macau_tables.server import store
from macau_tables.server.api.deps import Deps, viewer
from macau_tables.server.auth import StaffRole, User, get_user
from macau_tables.server.errors import ApiError, forbidden, not_found
from macau_tables.server.schemas import MAX_ID


def router(d: Deps) -> APIRouter:
    """The recall and export endpoints (an APIRouter)."""
    r = APIRouter()
    floor, allowed, perm = d.floor, d.allowed, d.perm

    async def record(table_id: str) -> R.TableRecord:
        actor = floor.table(table_id)
        return await floor.db.read(
            lambda c: R.load_record(c, table_id, actor.game.name, actor.header)
        )

    async def off_loop(fn: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn)

    @r.get("/tables/{table_id}/recall", tags=["recall"], **perm("recall.table"))
    async def table_recall(
        table_id: str,
        user: Annotated[User, Depends(allowed("recall.table"))],
        limit: Annotated[int, Query(ge=1, le=R.RECALL_LIMIT)] = R.RECALL_LIMIT,
        before: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    ) -> dict[str, Any]:
        """The table's last ``limit`` rounds (settled, voided, under way), oldest first,
        each step by step with the view the caller may see; ``before`` pages back (the
        rounds numbered below it)."""
        actor = floor.table(table_id)
        seen_as = viewer(user)
        result: dict[str, Any] = await floor.db.read(
            lambda c: R.table_recall(
                c, table_id, actor.game, actor.header, seen_as, limit, before, actor.checked()
            )
        )
        return result

    @r.get("/players/{name}/recall", tags=["recall"], **perm("recall.player"))
    async def player_recall(
        name: str,
        user: Annotated[User, Depends(allowed("recall.player"))],
        limit: Annotated[int, Query(ge=1, le=R.RECALL_LIMIT)] = R.RECALL_LIMIT,
        as_player: Annotated[bool, Query()] = False,
    ) -> dict[str, Any]:
        """A player's last ``limit`` rounds at any table, oldest first. A player may recall
        only his own, and sees them as he saw them; staff see them whole, or as the player
        saw them with ``as_player=true`` (a complaint)."""
        if user.role is StaffRole.PLAYER and user.name != name:
            raise forbidden("a player recalls his own rounds only")
        found = await floor.db.read(lambda c: get_user(c, name))
        if found is None or found[0].role is not StaffRole.PLAYER:
            raise not_found(f"no player {name!r}", "SRV-PLAYER")
        seen_as = (
            Viewer.player(name) if user.role is StaffRole.PLAYER or as_player else viewer(user)
        )
        stacks = await floor.db.read(lambda c: store.balances_like(c, "stack:"))
        played = {acc.split(":")[1] for acc in stacks if acc.endswith(":" + name)}
        tables = {
            t: (floor.table(t).game, floor.table(t).header, floor.table(t).checked())
            for t in played & set(floor.tables)
        }
        result: dict[str, Any] = await floor.db.read(
            lambda c: R.player_recall(c, name, tables, seen_as, limit)
        )
        return result

    @r.get("/tables/{table_id}/export", tags=["recall"], **perm("tables.export"))
    async def table_export(
        table_id: str, user: Annotated[User, Depends(allowed("tables.export"))]
    ) -> dict[str, Any]:
        """The table's journal in the ``macau-tables verify`` format. Supervisors and
        auditors get it whole. A player gets the excerpt up to the last revealed seed: the
        entries he may see in full, the others as their hashes only (``withheld``), so the
        chain and the commitments check without showing what his view hides."""
        rec = await record(table_id)
        if user.role in (StaffRole.SUPERVISOR, StaffRole.AUDITOR):
            return rec.journal.to_json()
        if user.role is not StaffRole.PLAYER:
            raise ApiError(403, "forbidden", "export is for auditors and players", "SRV-ROLE")
        excerpt: dict[str, Any] = await off_loop(
            lambda: R.player_excerpt(rec, Viewer.player(user.name))
        )
        return excerpt

    return r
