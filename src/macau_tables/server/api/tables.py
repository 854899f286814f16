"""The tables: listing, opening, reading and viewing them, their commands (one path:
``run_command``, which the fast path calls too), and pausing, resuming, closing, unlocking.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response

from macau_tables.server import schemas as S
from macau_tables.server import store
from macau_tables.server.api.deps import Deps, idem_key, viewer
from macau_tables.server.auth import StaffRole, User
from macau_tables.server.cluster import FORWARDED
from macau_tables.server.errors import ApiError
from macau_tables.server.floor import Floor
from macau_tables.server.games import games


async def view_content(the_floor: Floor, table_id: str, user: User) -> bytes:
    """What ``user`` may see at the table now, as JSON (the view's route and the fast path)."""
    snap = await the_floor.table(table_id).snapshot(viewer(user))
    snap.pop("type")
    # rendered as the WebSocket's snapshot is, not through the response model (its
    # validation and serialization were a third of a polled view's cost); the model
    # documents it, and tests/server/test_views.py checks every game's view against it
    return store.render(snap)


async def run_command(
    the_floor: Floor,
    table_id: str,
    body: S.CommandBody,
    user: User,
    key: str | None,
    path: str,
) -> tuple[int, bytes]:
    """One command through the table's unit of work: its status and JSON (the route's
    and the fast path's one implementation)."""
    actor = the_floor.table(table_id)
    idem = idem_key(key)
    reply = await actor.command(
        user.actor(),
        body.op,
        dict(body.args),
        user=user.name,
        viewer=viewer(user),
        key=idem,
        req_hash=store.request_hash("POST", path, body.model_dump()),
        expect_seq=body.expect_seq,
    )
    return reply.status, reply.content()


async def command(
    the_floor: Floor, table_id: str, body: S.CommandBody, user: User, key: str | None, path: str
) -> Response:
    status, content = await run_command(the_floor, table_id, body, user, key, path)
    return Response(content, status_code=status, media_type="application/json")


#: what each of a table's controls does (its endpoint's description)
CONTROLS = {
    "pause": "The table takes no command but a player's `leave` until resumed; audit-logged "
    "with the reason.",
    "resume": "A paused table plays again.",
    "close": "Closes the table for good, once no player's money is on it (else 409 "
    "`SRV-CLOSE` names the chips, bets and bank still there).",
    "unlock": "Opens a locked table again once it verifies (the whole ledger's check runs "
    "first: 409 `SRV-LOCK` while it fails).",
}


def router(d: Deps) -> APIRouter:
    """The tables routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor, allowed, perm, current_token = d.floor, d.allowed, d.perm, d.current_token

    # --- games and tables -----------------------------------------------------------------

    @r.get("/games", tags=["tables"], **perm("games.list"))
    async def list_games(
        user: Annotated[User, Depends(allowed("games.list"))],
    ) -> list[dict[str, Any]]:
        return [
            {"name": g.name, "title": g.title or g.name, "seed_ops": sorted(g.seed_ops)}
            for g in games().values()
        ]

    @r.get("/tables", response_model=list[S.TableInfo], tags=["tables"], **perm("tables.list"))
    async def list_tables(
        request: Request,
        user: Annotated[User, Depends(allowed("tables.list"))],
        token: Annotated[str, Depends(current_token)],
    ) -> list[dict[str, Any]]:
        staff = user.role is not StaffRole.PLAYER  # (a lock's reason: TableActor.public_reason)
        mine = {t: a.info(staff) for t, a in the_floor.tables.items() if a.owned}
        cluster = the_floor.cluster
        if cluster is not None and FORWARDED not in request.headers:
            others = await cluster.remote_tables(f"Bearer {token}")  # (or the cookie's)
            for info in others:  # the owner's own answer; any table left: what is known here
                mine.setdefault(info["id"], info)
            for t, a in the_floor.tables.items():
                mine.setdefault(t, a.info(staff))
        return [mine[t] for t in sorted(mine)]

    @r.post("/tables", response_model=S.TableInfo, tags=["tables"], **perm("tables.create"))
    async def create_table(
        body: S.TableCreate, user: Annotated[User, Depends(allowed("tables.create"))]
    ) -> dict[str, Any]:
        """Open a new table of a game with its rule set's options, auto-dealt or live."""
        actor = await the_floor.create_table(
            body.id,
            body.game,
            body.options,
            betting_seconds=body.betting_seconds,
            action_seconds=body.action_seconds,
            dealer=body.dealer,
            player_timeouts=body.player_timeouts,
            user=user.name,
        )
        return actor.info()

    @r.get("/tables/{table_id}", response_model=S.TableInfo, tags=["tables"], **perm("tables.read"))
    async def table_info(
        table_id: str, user: Annotated[User, Depends(allowed("tables.read"))]
    ) -> dict[str, Any]:
        return the_floor.table(table_id).info(staff=user.role is not StaffRole.PLAYER)

    @r.get(
        "/tables/{table_id}/view",
        response_model=S.ViewReply,
        tags=["tables"],
        **perm("tables.view"),
    )
    async def table_view(
        table_id: str, user: Annotated[User, Depends(allowed("tables.view"))]
    ) -> Response:
        """What the caller may see at the table now (his projection), and what is pending."""
        return Response(
            await view_content(the_floor, table_id, user), media_type="application/json"
        )

    @r.get(
        "/tables/{table_id}/events",
        response_model=list[S.EventOut],
        tags=["tables"],
        **perm("tables.events"),
    )
    async def table_events(
        table_id: str,
        user: Annotated[User, Depends(allowed("tables.events"))],
        after: Annotated[int, Query(ge=-1)] = -1,
        limit: Annotated[int, Query(ge=1, le=5000)] = 500,
    ) -> list[dict[str, Any]]:
        """The table's events after ``after`` that the caller may see."""
        return await the_floor.table(table_id).events_for(viewer(user), after, limit)

    @r.post(
        "/tables/{table_id}/commands",
        response_model=S.CommandReply,
        tags=["tables"],
        **perm("tables.command"),
    )
    async def table_command(
        table_id: str,
        body: S.CommandBody,
        user: Annotated[User, Depends(allowed("tables.command"))],
        idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
    ) -> Response:
        """Run one operation of the table's engine as the caller (``{op, args}``).

        Players act by name; a dealer as the dealer; a supervisor by name. The engine
        validates the arguments and the rules; a refusal names the rule.
        """
        return await command(
            the_floor, table_id, body, user, idempotency_key, f"/tables/{table_id}/commands"
        )

    @r.post(
        "/tables/{table_id}/ops/{op}",
        response_model=S.CommandReply,
        tags=["tables"],
        **perm("tables.command"),
    )
    async def table_op(
        table_id: str,
        op: str,
        user: Annotated[User, Depends(allowed("tables.command"))],
        args: dict[str, Any] | None = None,
        idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
    ) -> Response:
        """The same as ``/commands`` with the operation in the path and its arguments as
        the body: ``POST /tables/craps-1/ops/bet {"kind": "pass", "amount": 1000}``."""
        try:
            body = S.CommandBody(op=op, args=args or {})
        except ValueError as exc:
            raise ApiError(422, "invalid_input", f"bad operation {op!r}", "SRV-INPUT") from exc
        return await command(
            the_floor, table_id, body, user, idempotency_key, f"/tables/{table_id}/commands"
        )

    for status, verb in (
        ("paused", "pause"),
        ("open", "resume"),
        ("closed", "close"),
        ("open", "unlock"),
    ):

        def make(status: str = status, verb: str = verb) -> None:
            @r.post(
                f"/tables/{{table_id}}/{verb}",
                response_model=S.TableInfo,
                tags=["supervisor"],
                name=f"table_{verb}",
                **perm("tables.control"),
            )
            async def control(
                table_id: str,
                body: S.Control,
                user: Annotated[User, Depends(allowed("tables.control"))],
            ) -> dict[str, Any]:
                actor = the_floor.table(table_id)
                if verb == "unlock" and actor.status != "locked":
                    raise ApiError(409, "not_locked", "the table is not locked", "SRV-LOCK")
                if verb == "resume" and actor.status == "locked":
                    raise ApiError(409, "table_locked", "unlock a locked table", "SRV-LOCK")
                await the_floor.set_status(actor, status, user.name, body.reason)
                return actor.info()

            control.__doc__ = CONTROLS[verb]

        make()

    return r
