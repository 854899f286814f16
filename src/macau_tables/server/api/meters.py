"""The meters endpoints: per table and per gaming day, and the close.

``GET /tables/{id}/meters?day=``, ``GET /meters?day=`` (every table and the totals) —
supervisors and auditors; ``POST /meters/close {day}`` — supervisors. The figures and their
reconciliation are :mod:`macau_tables.server.meters`'; the PAR prices are computed off the
event loop and off every table's write path, cached per rule set.

(No ``from __future__ import annotations`` here: FastAPI reads the endpoints' annotations,
whose ``Depends(allowed(...))`` names this module's closure.)
"""

import asyncio
from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy.engine import Connection

from macau_tables.server import meters as M
from macau_tables.server import store
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User
from macau_tables.server.errors import ApiError
from macau_tables.server.floor import Floor

T = TypeVar("T")


class CloseBody(BaseModel):
    """``{"day": "YYYY-MM-DD"}``: the gaming day to close."""

    model_config = ConfigDict(extra="forbid")
    day: str


def gaming_day(floor: Floor) -> M.GamingDay:
    s = floor.settings
    return M.GamingDay.parse(s.gaming_day_start, s.gaming_day_utc_offset_minutes)


async def day_report(
    floor: Floor, day: date, *, only: str | None = None, with_theoretical: bool = True
) -> dict[str, Any]:
    """Every table's meters for ``day`` (live, from the database) and the totals; ``only``:
    that table's alone."""
    gd = gaming_day(floor)
    start, end = gd.window(day)
    ids = sorted(floor.tables) if only is None else [only]
    games = {t: floor.tables[t].game.name for t in ids}

    def read(conn: Connection) -> list[M.DayData]:
        return [M.read_day(conn, t, games[t], start, end) for t in ids]

    loop = asyncio.get_running_loop()
    datas = await loop.run_in_executor(None, lambda: snapshot_read(floor, read))
    tables = await loop.run_in_executor(
        None, lambda: [M.table_meters(d, with_theoretical=with_theoretical) for d in datas]
    )
    return {
        "day": day.isoformat(),
        "window": {"start": gd.iso(start), "end": gd.iso(end)},
        "over": end <= M.now_ms(),
        "closed": None,
        "reconciled": all(t["reconciliation"]["ok"] for t in tables),
        "tables": tables,
        "totals": M.totals(tables),
    }


def snapshot_read(floor: Floor, fn: Callable[[Connection], T]) -> T:
    """``fn`` in one read transaction that sees one snapshot for all its statements: the
    journal and the ledger of a day must be read at the same instant, or a command that
    commits in between would show as a mismatch (PostgreSQL's default READ COMMITTED takes a
    snapshot per statement; SQLite's read transaction is one snapshot already)."""
    db = floor.db
    with db.reader.connect() as conn:
        if db.dialect == "postgresql":
            conn.execution_options(isolation_level="REPEATABLE READ")
        with conn.begin():
            return fn(conn)


def _day(floor: Floor, day: str | None) -> date:
    if day is None:
        return gaming_day(floor).day_of(M.now_ms())
    return M.parse_day(day)


def router(d: Deps) -> APIRouter:
    """The meters endpoints (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    floor, allowed, perm = d.floor, d.allowed, d.perm

    async def report(day: date, only: str | None = None) -> dict[str, Any]:
        stored = await floor.db.read(lambda c: M.closed_report(c, day))
        return stored if stored is not None else await day_report(floor, day, only=only)

    @r.get("/meters", tags=["meters"], **perm("meters.read"))
    async def floor_meters(
        user: Annotated[User, Depends(allowed("meters.read"))],
        day: Annotated[str | None, Query(max_length=10)] = None,
    ) -> dict[str, Any]:
        """Every table's meters for a gaming day (default: the current one) and the floor's
        totals: drop, cash-out, win, commission, handle, hold, theoretical win and hold, and
        whether the journal and the ledger agree. A closed day reads as it was closed."""
        return await report(_day(floor, day))

    @r.get("/tables/{table_id}/meters", tags=["meters"], **perm("meters.read"))
    async def table_meters(
        table_id: str,
        user: Annotated[User, Depends(allowed("meters.read"))],
        day: Annotated[str | None, Query(max_length=10)] = None,
    ) -> dict[str, Any]:
        """One table's meters for a gaming day (see ``GET /meters``)."""
        floor.table(table_id)  # 404 for an unknown table
        the_day = _day(floor, day)
        rep = await report(the_day, only=table_id)
        for t in rep["tables"]:
            if t["table_id"] == table_id:
                return {"day": rep["day"], "window": rep["window"], "closed": rep["closed"], **t}
        raise ApiError(
            404,
            "not_found",
            f"table {table_id!r} was not on the floor when {the_day} closed",
            "SRV-TABLE",
        )

    @r.post("/meters/close", tags=["meters"], **perm("meters.close"))
    async def close_day(
        body: CloseBody, user: Annotated[User, Depends(allowed("meters.close"))]
    ) -> dict[str, Any]:
        """Close a gaming day once it is over: its figures are stored (later reads return
        them as they were) and the close is audit-logged. Closing it again returns the same
        figures. Refused while the day is not over, or if its meters do not reconcile."""
        day = M.parse_day(body.day)
        stored = await floor.db.read(lambda c: M.closed_report(c, day))
        if stored is not None:
            return stored
        gd = gaming_day(floor)
        _, end = gd.window(day)
        if end > M.now_ms():
            raise ApiError(
                409,
                "day_not_over",
                f"gaming day {day} runs until {gd.iso(end)}: it cannot be closed yet",
                "SRV-DAY",
            )
        rep = await day_report(floor, day)
        if not rep["reconciled"]:
            bad = [
                f"{t['table_id']}: {m}"
                for t in rep["tables"]
                for m in t["reconciliation"]["mismatches"]
            ]
            raise ApiError(
                409,
                "meters_do_not_reconcile",
                f"gaming day {day} does not reconcile: {'; '.join(bad[:5])}",
                "SRV-METERS",
            )
        rep["closed"] = {"at": M.now_ms(), "by": user.name}

        def unit(conn: Connection) -> dict[str, Any]:
            again = M.closed_report(conn, day)
            if again is not None:  # another supervisor closed it meanwhile
                return again
            M.store_close(conn, day, user.name, rep)
            return rep

        try:
            return await floor.db.write(unit)
        except Exception as exc:
            if not store.is_integrity_error(exc):
                raise
            found = await floor.db.read(lambda c: M.closed_report(c, day))
            if found is None:
                raise
            return found

    return r
