"""The floor's health, this server process's figures, the message schemas.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends

from macau_tables.server import schemas as S
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User


def router(d: Deps) -> APIRouter:
    """The floor routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor, allowed, perm = d.floor, d.allowed, d.perm

    @r.get("/health", tags=["floor"])
    async def health() -> dict[str, Any]:
        # (no login here: the reasons as anyone may read them, TableActor.public_reason)
        locked = {t: a.public_reason() for t, a in the_floor.tables.items() if a.status == "locked"}
        out: dict[str, Any] = {"ok": True, "tables": len(the_floor.tables), "locked": locked}
        # the tables whose chain before their snapshot is still being checked (they play)
        out["chains_pending"] = the_floor.chains_pending()
        # the ledger's own check, at start-up left to the background (tables play meanwhile)
        out["ledger_pending"] = the_floor.ledger_pending()
        if the_floor.cluster is not None:  # several processes: who runs which table
            cluster = the_floor.cluster
            out["process"] = {"id": cluster.owner, "url": cluster.url}
            out["owned"] = sorted(cluster.owned)
            out["leases"] = await cluster.leases()
        return out

    @r.get("/server/latency", tags=["floor"], **perm("server.stats"))
    async def server_latency(
        user: Annotated[User, Depends(allowed("server.stats"))],
    ) -> dict[str, Any]:
        """How long this server process took over the table commands since it started, per
        operation (``refused``: answered 4xx; ``error``: 5xx): counts in buckets 25 % apart
        and the p50 / p90 / p99 / max they imply (each "at most"), timed from the request
        parsed to the reply handed to the socket — the group commit's fsync included, the
        network and the wait in the socket before the server read the request not. Two
        readings subtracted give the counts between them (``bounds_ms``: the buckets).
        On SQLite, ``group_commit``: its batches, their units (commands and other writes)
        and grouped statements, the WAL's checkpoints (in their own thread), how many of
        them were awaited so that the WAL started over (and the milliseconds the batches
        waited for those), and the WAL's length in pages at the last one. ``memory``: the
        process's resident memory and the journal entries its tables hold in memory,
        which it grows with (docs/operations.md, "Memory"). ``idempotency``: how many
        hours a record is kept (0: for ever) and how many records this process deleted
        since it started (docs/operations.md, "Disk")."""
        group = the_floor.db.group
        return {
            **d.latencies.report(),
            "group_commit": group.stats() if group else None,
            "memory": the_floor.memory(),
            "idempotency": {
                "hours": the_floor.settings.idempotency_hours,
                "pruned": the_floor.idempotency_pruned,
            },
        }

    @r.get("/schemas", tags=["floor"])
    async def schemas() -> dict[str, Any]:
        """JSON Schema of every WebSocket message and of the REST bodies."""
        return {
            "websocket": {m.__name__: m.model_json_schema() for m in S.WS_MESSAGES},
            "rest": {
                m.__name__: m.model_json_schema()
                for m in (
                    S.CommandBody,
                    S.CommandReply,
                    S.ErrorBody,
                    S.TableInfo,
                    S.ViewReply,
                    S.CashierBody,
                    S.Login,
                    S.TokenReply,
                    S.DealerDefault,
                )
            },
        }

    return r
