"""The HTTP and WebSocket API (FastAPI). OpenAPI at ``/docs``; see docs/server.md.

Thin by design (STYLE §9): each endpoint authenticates, checks its permission
(:data:`macau_tables.server.auth.PERMISSIONS`), and hands over to the floor or the table's
actor. Every refusal is ``{error, rule, message}`` with a 4xx status.
"""

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.rng import random_hex
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import accounts as acc
from macau_tables.server import api_controls, api_dealer, api_recall, api_supervisor, store
from macau_tables.server import schemas as S
from macau_tables.server.api_meters import install as install_meters
from macau_tables.server.auth import PERMISSIONS, StaffRole, User, new_token, require
from macau_tables.server.checks import verify_ledger
from macau_tables.server.cluster import FORWARDED, ForwardMiddleware
from macau_tables.server.db import is_database_error
from macau_tables.server.errors import ApiError, from_domain, not_found
from macau_tables.server.fastpath import BodyLimits, CommandFastPath
from macau_tables.server.floor import Floor
from macau_tables.server.games import games
from macau_tables.server.latency import Latencies
from macau_tables.server.logins import LoginBody, PasswordChange, SessionReply, Throttled
from macau_tables.server.session import (
    SECURITY_HEADERS,
    SESSION_COOKIE,
    SecurityHeaders,
    clear_session,
    cookie_of,
    credential,
    redact_logs,
    same_origin,
    set_session,
)
from macau_tables.server.settings import Settings
from macau_tables.server.tables import Reply, Subscriber
from macau_tables.server.wire import MAX_WS_MESSAGE

log = logging.getLogger("macau_tables.server")

#: a WebSocket without the session cookie sends its token as its first message within this
#: many seconds (else it is closed, 4401)
WS_AUTH_TIMEOUT_S = 10.0
#: an open WebSocket's token is looked at again this often (and at its expiry): a logout
#: closes the viewer's sockets within this many seconds (close code 4401)
WS_TOKEN_RECHECK_S = 10.0

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": S.ErrorBody} for code in (400, 401, 403, 404, 409, 422)
}
_bearer = HTTPBearer(auto_error=False)


def _idem_key(key: str | None) -> str:
    if not key:
        raise ApiError(
            400,
            "idempotency_key_required",
            "money-moving requests need an Idempotency-Key header",
            "SRV-IDEM",
        )
    if len(key) > 200:
        raise ApiError(
            422, "invalid_input", "Idempotency-Key is at most 200 characters", "SRV-IDEM"
        )
    return key


def _reply(reply: Reply) -> JSONResponse:
    return JSONResponse(reply.body, status_code=reply.status)


def create_app(
    settings: Settings | None = None,
    floor: Floor | None = None,
    on_start: Callable[[Floor], None] | None = None,
    *,
    fast_path: bool = True,
    on_stop: Callable[[], Awaitable[None]] | None = None,
) -> FastAPI:
    """The app; its lifespan starts the floor (migrations, recovery, demo) and stops it.

    ``fast_path=False`` leaves ``POST /tables/{id}/commands`` to FastAPI's own route (the
    reference the fast path is tested against)."""
    the_floor = floor or Floor(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await the_floor.start()
        app.state.floor = the_floor
        redact_logs()  # (after uvicorn configured its loggers: no token in a log line)
        if on_start is not None:
            on_start(the_floor)
        yield
        if on_stop is not None:
            await on_stop()
        await the_floor.stop()

    app = FastAPI(
        title="macau-tables server",
        summary="Live tables of Pai Gow, Taiwan Pai Kao, Craps and Baccarat on a ledger.",
        version="1",
        lifespan=lifespan,
        responses=ERRORS,
        # FastAPI's native OpenTelemetry looks up the global providers at every request
        # (5 % of the server's CPU under load, with no provider set): on only when asked
        telemetry=None
        if os.environ.get("MACAU_TABLES_OTEL") == "1"
        else {"tracing": False, "metrics": False, "logs": False},
    )
    app.state.floor = the_floor

    # --- errors ---------------------------------------------------------------------------

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        headers = exc.headers() if isinstance(exc, Throttled) else None
        return JSONResponse(exc.body(), status_code=exc.status, headers=headers)

    @app.exception_handler(MacauTablesError)
    async def _domain_error(_: Request, exc: MacauTablesError) -> JSONResponse:
        err = from_domain(exc)
        return JSONResponse(err.body(), status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        msg = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
        return JSONResponse(
            {"error": "invalid_input", "rule": "SRV-INPUT", "message": msg}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        error = "not_found" if exc.status_code == 404 else "http_error"
        rule = "SRV-404" if exc.status_code == 404 else "SRV-INPUT"
        return JSONResponse(
            {"error": error, "rule": rule, "message": str(exc.detail)},
            status_code=exc.status_code,
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        """A database failure outside a table's command (past the retries of 40001 and
        40P01, a lost connection): its transaction rolled back — 503 ``SRV-DB``, as a
        table's command answers it (``TableActor._run``). Anything else is a bug, never an
        answer the API means: logged with an incident id, answered with the JSON error
        body all others have (not Starlette's plain text). Either way a command that was
        recorded answers as recorded when sent again with the same key."""
        if is_database_error(exc):
            log.warning("%s %s: the database failed: %s", request.method, request.url.path, exc)
            return JSONResponse(
                ApiError(
                    503,
                    "unavailable",
                    "the database failed; retry with the same Idempotency-Key "
                    "(a request that was recorded answers as recorded)",
                    "SRV-DB",
                ).body(),
                status_code=503,
            )
        incident = random_hex(4)  # (core.rng: the only randomness)
        log.error(
            "incident %s: %s %s failed", incident, request.method, request.url.path, exc_info=exc
        )
        return JSONResponse(
            {
                "error": "internal",
                "rule": "SRV-INTERNAL",
                "message": f"internal server error (incident {incident}, in the server's log)",
            },
            status_code=500,
            # (answered outside the middleware: the security headers added here)
            headers={k.decode(): v.decode() for k, v in SECURITY_HEADERS},
        )

    # --- who is calling -----------------------------------------------------------------

    async def current_token(
        request: Request,
        creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    ) -> str:
        """The bearer token, else the session cookie with its CSRF proof (server/session.py;
        ``creds`` only documents the bearer scheme in the OpenAPI schema)."""
        return credential(request.headers, request.method)

    async def current_user(token: Annotated[str, Depends(current_token)]) -> User:
        return await the_floor.authenticate(token)

    def allowed(permission: str) -> Callable[[User], Awaitable[User]]:
        assert permission in PERMISSIONS

        async def dep(user: Annotated[User, Depends(current_user)]) -> User:
            require(user, permission)
            return user

        return dep

    def perm(permission: str) -> dict[str, Any]:
        return {"openapi_extra": {"x-permission": permission}}

    # --- auth -----------------------------------------------------------------------------

    @app.post("/auth/login", response_model=S.TokenReply | SessionReply, tags=["auth"])
    async def login(body: LoginBody, request: Request) -> JSONResponse:
        """Exchange a name and password for a bearer token (it expires). With
        ``"session": "cookie"`` (the browser's pages) the token is set as the ``HttpOnly``
        session cookie instead, with its CSRF cookie, and is not in the answer
        (server/session.py). Failed logins are throttled per name and per client address
        (429 ``SRV-THROTTLE`` with ``Retry-After``)."""
        address = request.client.host if request.client is not None else ""
        reply = await the_floor.login(body.name, body.password, address)
        if body.session == "bearer":
            return JSONResponse(reply)
        token = reply.pop("token")
        response = JSONResponse(reply)
        secure = request.url.scheme == "https"
        max_age = the_floor.settings.token_seconds
        set_session(response, token, new_token(), max_age, secure)
        return response

    @app.post("/auth/logout", tags=["auth"], **perm("logout"))
    async def logout(
        user: Annotated[User, Depends(allowed("logout"))],
        token: Annotated[str, Depends(current_token)],
    ) -> JSONResponse:
        await the_floor.logout(token)
        response = JSONResponse({"ok": True})
        clear_session(response)
        return response

    @app.post("/auth/password", tags=["auth"], **perm("me"))
    async def change_password(
        body: PasswordChange, request: Request, user: Annotated[User, Depends(allowed("me"))]
    ) -> dict[str, Any]:
        """Change one's own password (the old one, then the new one, which follows the
        password policy: 422 ``SRV-PASSWORD``). Wrong old passwords are throttled as
        logins are."""
        address = request.client.host if request.client is not None else ""
        await the_floor.change_password(user.name, body.old_password, body.new_password, address)
        return {"ok": True}

    @app.get("/me", tags=["auth"], **perm("me"))
    async def me(user: Annotated[User, Depends(allowed("me"))]) -> dict[str, Any]:
        return {"name": user.name, "role": user.role.value}

    @app.get("/health", tags=["floor"])
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

    # --- games and tables -----------------------------------------------------------------

    @app.get("/games", tags=["tables"], **perm("games.list"))
    async def list_games(
        user: Annotated[User, Depends(allowed("games.list"))],
    ) -> list[dict[str, Any]]:
        return [
            {"name": g.name, "title": g.title or g.name, "seed_ops": sorted(g.seed_ops)}
            for g in games().values()
        ]

    @app.get("/tables", response_model=list[S.TableInfo], tags=["tables"], **perm("tables.list"))
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

    @app.post("/tables", response_model=S.TableInfo, tags=["tables"], **perm("tables.create"))
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

    @app.get(
        "/tables/{table_id}", response_model=S.TableInfo, tags=["tables"], **perm("tables.read")
    )
    async def table_info(
        table_id: str, user: Annotated[User, Depends(allowed("tables.read"))]
    ) -> dict[str, Any]:
        return the_floor.table(table_id).info(staff=user.role is not StaffRole.PLAYER)

    @app.get(
        "/tables/{table_id}/view",
        response_model=S.ViewReply,
        tags=["tables"],
        **perm("tables.view"),
    )
    async def table_view(
        table_id: str, user: Annotated[User, Depends(allowed("tables.view"))]
    ) -> Response:
        """What the caller may see at the table now (his projection), and what is pending."""
        return Response(await _view_content(table_id, user), media_type="application/json")

    @app.get(
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
        return await the_floor.table(table_id).events_for(_viewer(user), after, limit)

    async def _view_content(table_id: str, user: User) -> bytes:
        snap = await the_floor.table(table_id).snapshot(_viewer(user))
        snap.pop("type")
        # rendered as the WebSocket's snapshot is, not through the response model (its
        # validation and serialization were a third of a polled view's cost); the model
        # documents it, and tests/server/test_views.py checks every game's view against it
        return store.render(snap)

    async def _run_command(
        table_id: str,
        body: S.CommandBody,
        user: User,
        key: str | None,
        path: str,
        req_hash: str | None = None,
    ) -> tuple[int, bytes]:
        actor = the_floor.table(table_id)
        idem = _idem_key(key)
        reply = await actor.command(
            user.actor(),
            body.op,
            dict(body.args),
            user=user.name,
            viewer=_viewer(user),
            key=idem,
            req_hash=req_hash or store.request_hash("POST", path, body.model_dump()),
            expect_seq=body.expect_seq,
        )
        return reply.status, reply.content()

    async def _command(
        table_id: str, body: S.CommandBody, user: User, key: str | None, path: str
    ) -> Response:
        status, content = await _run_command(table_id, body, user, key, path)
        return Response(content, status_code=status, media_type="application/json")

    # the hot path: POST /tables/{id}/commands answered without FastAPI's per-request
    # machinery, by the same steps as table_command below (server/fastpath.py)
    latencies = Latencies()
    app.state.fast_path = {
        "authenticate": the_floor.authenticate,
        "handle": _run_command,
        "latencies": latencies,
        "view": _view_content,
    }
    # every other request's body: its size and depth (inside the fast path: added first)
    app.add_middleware(BodyLimits)
    if fast_path:
        app.add_middleware(CommandFastPath, **app.state.fast_path)

    @app.get("/server/latency", tags=["floor"], **perm("server.stats"))
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
            **latencies.report(),
            "group_commit": group.stats() if group else None,
            "memory": the_floor.memory(),
            "idempotency": {
                "hours": the_floor.settings.idempotency_hours,
                "pruned": the_floor.idempotency_pruned,
            },
        }

    # several processes (cluster.py): a request for a table another process owns goes to
    # its owner before anything else (the fast path included) looks at it: added last, so
    # it is the outermost of our middleware
    app.add_middleware(ForwardMiddleware, floor=the_floor)
    # every answer's security headers (server/session.py): outermost of all, so the fast
    # path's and the forwarded answers have them too
    app.add_middleware(SecurityHeaders)

    @app.post(
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
        return await _command(table_id, body, user, idempotency_key, f"/tables/{table_id}/commands")

    @app.post(
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
        return await _command(table_id, body, user, idempotency_key, f"/tables/{table_id}/commands")

    for status, verb in (
        ("paused", "pause"),
        ("open", "resume"),
        ("closed", "close"),
        ("open", "unlock"),
    ):

        def make(status: str = status, verb: str = verb) -> None:
            @app.post(
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

            control.__doc__ = f"{verb.capitalize()} a table (with a reason, in the audit log)."

        make()

    api_supervisor.install(app, the_floor, allowed, perm)  # void, correct, limits, freeze
    api_controls.install(app, the_floor, allowed, perm)  # staff approvals, fills, frozen

    # --- money ----------------------------------------------------------------------------

    @app.get("/wallet", tags=["money"], **perm("wallet.read"))
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

    @app.get(
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
            @app.post(
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
                key = _idem_key(idempotency_key)
                reply = await the_floor.cashier(
                    direction,
                    user.name,
                    body.player,
                    body.amount,
                    body.memo,
                    key,
                    store.request_hash("POST", f"/cashier/{direction}", body.model_dump()),
                )
                return _reply(reply)

            cashier.__doc__ = (
                "Move money between the cage and a player's wallet (integer avos)."
                if direction == "deposit"
                else "Pay a player out of his wallet into the cage (integer avos)."
            )

        make_cashier()

    # --- people -----------------------------------------------------------------------------

    @app.post("/users", tags=["people"], **perm("users.create"))
    async def add_user(
        body: S.UserCreate, user: Annotated[User, Depends(allowed("users.create"))]
    ) -> dict[str, Any]:
        """A player's account (a supervisor or an administrator; it plays at once), or a
        staff account (an administrator only; it logs in once a second administrator
        approves it: ``POST /users/{name}/approve``)."""
        active = await the_floor.add_user(body.name, StaffRole(body.role), body.password, user)
        return {"name": body.name, "role": body.role, "approved": active}

    @app.get("/users", tags=["people"], **perm("users.list"))
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

    # --- audit ------------------------------------------------------------------------------

    @app.get("/audit/ledger", tags=["audit"], **perm("audit.ledger"))
    async def audit_ledger(
        user: Annotated[User, Depends(allowed("audit.ledger"))],
    ) -> dict[str, Any]:
        """Check the ledger now: postings sum to zero, per transaction and in total, and
        each cached balance equals its postings."""
        problems = await the_floor.db.read(verify_ledger)
        return {"ok": not problems, "problems": [p.reason for p in problems]}

    @app.get("/audit/tables/{table_id}/journal", tags=["audit"], **perm("audit.journal"))
    async def audit_journal(
        table_id: str, user: Annotated[User, Depends(allowed("audit.journal"))]
    ) -> dict[str, Any]:
        """The table's whole journal (the ``macau-tables verify`` format)."""
        actor = the_floor.table(table_id)
        journal = await the_floor.db.read(
            lambda c: store.load_journal(c, table_id, actor.game.name, actor.header)
        )
        return journal.to_json()

    @app.get("/audit/log", tags=["audit"], **perm("audit.log"))
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

    install_meters(app, the_floor, allowed, perm)  # meters and the close

    @app.get("/schemas", tags=["floor"])
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

    # --- WebSocket --------------------------------------------------------------------------

    @app.websocket("/tables/{table_id}/ws")
    async def table_ws(ws: WebSocket, table_id: str, last_seq: int | None = None) -> None:
        """The table's live feed. Authenticated by the session cookie (a page of this
        origin), else by the first message ``{"type": "auth", "token": "…"}`` — never by
        the URL (a URL is logged: 4401 if it has a ``token``). docs/server.md."""
        await ws.accept()
        try:
            token = await _ws_token(ws)
            user = await the_floor.authenticate(token)
            require(user, "tables.watch")
            if the_floor.cluster is not None:  # a table another process created just now
                await the_floor.adopt([table_id])
            actor = the_floor.table(table_id)
        except ApiError as exc:
            with contextlib.suppress(Exception):  # (unless the client went away already)
                await ws.send_json({"type": "error", **exc.body()})
                await ws.close(code=4000 + exc.status)
            return
        sub = await actor.subscribe(_viewer(user), last_seq)
        receiver = asyncio.create_task(_drain(ws))
        session = asyncio.create_task(_session_ends(token))
        pump = asyncio.create_task(_pump(ws, sub))
        dropped = asyncio.create_task(sub.dropped.wait())
        try:
            done, _ = await asyncio.wait(
                {pump, receiver, session, dropped}, return_when=asyncio.FIRST_COMPLETED
            )
            pump.cancel()  # (before anything else is sent: one sender at a time)
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError):
                await pump
            if receiver in done:  # the client went away
                pass
            elif session in done:  # the token expired or was logged out: 4401, as at connect
                ended = session.exception()
                if not isinstance(ended, ApiError):
                    raise ended or RuntimeError("the session watch ended")
                await _close(ws, {"type": "error", **ended.body()}, 4000 + ended.status)
            elif pump in done and pump.exception() is not None:
                pass  # the client went away while a message was sent
            else:  # too slow (the queue overflowed, a send stuck or not), or shutting down
                await _close(
                    ws,
                    {
                        "type": "error",
                        "error": "overflow",
                        "rule": "SRV-WS",
                        "message": "reconnect with last_seq",
                    },
                    1013,
                )
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            actor.unsubscribe(sub)
            for task in (receiver, session, pump, dropped):
                task.cancel()

    async def _ws_token(ws: WebSocket) -> str:
        if "token" in ws.query_params:
            raise ApiError(
                401,
                "unauthorized",
                'a token never goes in the URL: send {"type": "auth", "token": …} first',
                "SRV-AUTH",
            )
        headers = {k.lower(): v for k, v in ws.headers.items()}
        cookie = cookie_of(headers.get("cookie"), SESSION_COOKIE)
        if cookie is not None:
            if not same_origin(headers):
                raise ApiError(
                    403, "csrf", "a cookie's WebSocket comes from a page of this origin", "SRV-CSRF"
                )
            return cookie
        try:
            first = await asyncio.wait_for(ws.receive_text(), WS_AUTH_TIMEOUT_S)
            msg = json.loads(first)
        except (TimeoutError, ValueError, KeyError, RuntimeError, WebSocketDisconnect):
            msg = None
        if not isinstance(msg, dict) or msg.get("type") != "auth" or not msg.get("token"):
            raise ApiError(
                401,
                "unauthorized",
                'authenticate with the first message {"type": "auth", "token": …} '
                "(or the session cookie)",
                "SRV-AUTH",
            )
        return str(msg["token"])

    async def _session_ends(token: str) -> None:
        """Returns never: raises the 401 once ``token`` has expired or was logged out —
        checked at its expiry and every ``WS_TOKEN_RECHECK_S`` (from the process's cache
        of tokens, which a logout here empties at once)."""
        while True:
            await the_floor.authenticate(token)
            expires = the_floor.token_expires_ms(token)
            left = WS_TOKEN_RECHECK_S if expires is None else (expires - store.now_ms()) / 1000
            await asyncio.sleep(min(WS_TOKEN_RECHECK_S, max(left, 0.0) + 0.001))

    api_dealer.install(app, the_floor, allowed, perm)
    api_recall.install(app, the_floor, allowed, perm)  # recall, export

    # --- the browser UI (src/macau_tables/web): its router, when installed ----------------
    # (not a StaticFiles mount of the directory: that would serve its Python sources)
    if WEB_DIR.is_dir():
        with contextlib.suppress(ImportError):  # the web extra (Jinja2) is not installed
            from macau_tables.web.routes import router as web_router

            app.include_router(web_router)

    return app


#: a socket that is dropped gets its last message and its close frame within this many
#: seconds each, or goes without them (a client that does not read)
WS_CLOSE_TIMEOUT_S = 1.0


async def _pump(ws: WebSocket, sub: Subscriber) -> None:
    """Send the subscriber's messages in their order; return at the queue's end (``None``)."""
    while (msg := await sub.queue.get()) is not None:
        await ws.send_json(msg)


async def _close(ws: WebSocket, last: dict[str, Any], code: int) -> None:
    """The last message and the close frame, each given up on after a while."""
    steps: tuple[Callable[[], Awaitable[None]], ...] = (
        lambda: ws.send_json(last),
        lambda: ws.close(code=code),
    )
    for step in steps:
        try:
            await asyncio.wait_for(step(), WS_CLOSE_TIMEOUT_S)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it disconnects; a message over
    ``wire.MAX_WS_MESSAGE`` bytes closes the socket (1009)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if len(msg.get("text") or msg.get("bytes") or b"") > MAX_WS_MESSAGE:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(ws.close(code=1009), WS_CLOSE_TIMEOUT_S)
                return


def _viewer(user: User) -> Viewer:
    v = user.viewer()
    assert isinstance(v, Viewer)
    return v
