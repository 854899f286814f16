"""The app (FastAPI): the floor's lifespan, the error handlers, the routers of
``server/api/`` (one a concern) and the middleware. OpenAPI at ``/docs``; docs/server.md.

Thin by design (STYLE §9): each endpoint authenticates, checks its permission
(:data:`macau_tables.server.auth.PERMISSIONS`), and hands over to the floor or the table's
actor. Every refusal is ``{error, rule, message}`` with a 4xx status.
"""

import contextlib
import functools
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.rng import random_hex
from macau_tables.server import schemas as S
from macau_tables.server.api import audit as api_audit
from macau_tables.server.api import auth as api_auth
from macau_tables.server.api import cashier as api_cashier
from macau_tables.server.api import controls as api_controls
from macau_tables.server.api import dealer as api_dealer
from macau_tables.server.api import floor as api_floor
from macau_tables.server.api import meters as api_meters
from macau_tables.server.api import people as api_people
from macau_tables.server.api import recall as api_recall
from macau_tables.server.api import socket as api_socket
from macau_tables.server.api import supervisor as api_supervisor
from macau_tables.server.api import tables as api_tables
from macau_tables.server.api.deps import Deps
from macau_tables.server.cluster import ForwardMiddleware
from macau_tables.server.db import is_database_error
from macau_tables.server.errors import ApiError, from_domain
from macau_tables.server.fastpath import BodyLimits, CommandFastPath
from macau_tables.server.floor import Floor
from macau_tables.server.logins import Throttled
from macau_tables.server.session import (
    SECURITY_HEADERS,
    SecurityHeaders,
    redact_logs,
)
from macau_tables.server.settings import Settings

log = logging.getLogger("macau_tables.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": S.ErrorBody} for code in (400, 401, 403, 404, 409, 422)
}


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

    # --- the routes, one router a concern (server/api/) ------------------------------------
    deps = Deps(the_floor)
    for concern in (
        api_auth,
        api_floor,
        api_tables,
        api_supervisor,  # void, correct, limits, freeze
        api_controls,  # staff approvals, fills, frozen accounts
        api_cashier,
        api_people,
        api_audit,
        api_meters,  # meters and the close
        api_socket,
        api_dealer,
        api_recall,  # recall, export
    ):
        app.include_router(concern.router(deps))

    # --- the middleware, innermost first ------------------------------------------------------
    # the hot path: POST /tables/{id}/commands and GET /tables/{id}/view answered without
    # FastAPI's per-request machinery, by the same steps as their routes (server/fastpath.py)
    app.state.fast_path = {
        "authenticate": the_floor.authenticate,
        "handle": functools.partial(api_tables.run_command, the_floor),
        "latencies": deps.latencies,
        "view": functools.partial(api_tables.view_content, the_floor),
    }
    # every other request's body: its size and depth (inside the fast path: added first)
    app.add_middleware(BodyLimits)
    if fast_path:
        app.add_middleware(CommandFastPath, **app.state.fast_path)
    # several processes (cluster.py): a request for a table another process owns goes to
    # its owner before anything else (the fast path included) looks at it
    app.add_middleware(ForwardMiddleware, floor=the_floor)
    # every answer's security headers (server/session.py): outermost of all, so the fast
    # path's and the forwarded answers have them too
    app.add_middleware(SecurityHeaders)

    # --- the browser UI (src/macau_tables/web): its router, when installed ----------------
    # (not a StaticFiles mount of the directory: that would serve its Python sources)
    if WEB_DIR.is_dir():
        with contextlib.suppress(ImportError):  # the web extra (Jinja2) is not installed
            from macau_tables.web.routes import router as web_router

            app.include_router(web_router)

    return app
