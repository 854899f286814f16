"""The browser's session: its cookie, the CSRF proof, the security headers, and tokens
kept out of the log.

Two ways to present a token (docs/server.md, "Logging in"):

* ``Authorization: Bearer <token>`` — API clients (the bots, scripts). Never sent by a
  browser on its own, so no CSRF check is needed.
* the **session cookie** :data:`SESSION_COOKIE` — the browser's pages. ``POST
  /auth/login`` sets it (``HttpOnly``: the pages' scripts never see the token;
  ``SameSite=Strict``; ``Secure`` when the request came over https) with the
  :data:`CSRF_COOKIE` beside it (readable by the pages' scripts). A cookie-authenticated
  request of any method but GET, HEAD and OPTIONS must send that cookie's value back in
  the :data:`CSRF_HEADER` header (a double submit: another site can neither read the
  cookie nor set a custom header on a cross-site form), else 403 ``SRV-CSRF``. A
  WebSocket authenticated by the cookie must come from the page's own origin (``Origin``
  matches ``Host``), else it is refused the same way.

Every HTTP answer carries :data:`SECURITY_HEADERS` (:class:`SecurityHeaders`); the
interactive API docs (``/docs``,
``/redoc``, which load Swagger UI and ReDoc from their CDN with an inline script) get a
CSP that allows just that.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Mapping
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from macau_tables.server.errors import ApiError

SESSION_COOKIE = "mt_session"
CSRF_COOKIE = "mt_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: the pages: their own scripts only (no inline script, no eval), framed by nobody
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: /docs and /redoc: Swagger UI and ReDoc from their CDN, started by an inline script
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https:; "
    "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
_COMMON: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    *_COMMON,
)
DOCS_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", DOCS_CSP.encode()),
    *_COMMON,
)
_DOCS = ("/docs", "/redoc")
_OURS = frozenset(k for k, _ in SECURITY_HEADERS)


def security_headers(path: str) -> tuple[tuple[bytes, bytes], ...]:
    return DOCS_HEADERS if path.startswith(_DOCS) else SECURITY_HEADERS


class SecurityHeaders:
    """ASGI: the security headers on every HTTP answer (the outermost middleware, so the
    fast path's and the forwarded answers have them too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""))

        async def with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                headers = [(k, v) for k, v in msg.get("headers", []) if k.lower() not in _OURS]
                msg = {**msg, "headers": [*headers, *extra]}
            await send(msg)

        await self.app(scope, receive, with_headers)


# --- the cookie and the CSRF proof -----------------------------------------------------------


def cookie_of(cookie_header: str | None, name: str) -> str | None:
    """A cookie's value from a ``Cookie`` header (the first of that name)."""
    for part in (cookie_header or "").split(";"):
        key, sep, value = part.strip().partition("=")
        if sep and key == name:
            return value.strip().strip('"') or None
    return None


def credential(headers: Mapping[str, str], method: str) -> str:
    """The token a request presents: its bearer token, else its session cookie — then
    with the CSRF proof unless ``method`` is safe. 401 ``SRV-AUTH`` without either, 403
    ``SRV-CSRF`` for a cookie without its proof. ``headers``: lower-cased names."""
    auth = headers.get("authorization")
    if auth is not None:
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, "unauthorized", "a bearer token is required", "SRV-AUTH")
        return token.strip()
    cookies = headers.get("cookie")
    session = cookie_of(cookies, SESSION_COOKIE)
    if session is None:
        raise ApiError(401, "unauthorized", "a bearer token is required", "SRV-AUTH")
    if method.upper() not in SAFE_METHODS:
        check_csrf(cookie_of(cookies, CSRF_COOKIE), headers.get(CSRF_HEADER))
    return session


def check_csrf(cookie: str | None, header: str | None) -> None:
    if not cookie or not header or not hmac.compare_digest(cookie, header):
        raise ApiError(
            403,
            "csrf",
            f"a request authenticated by the session cookie sends the {CSRF_COOKIE} "
            f"cookie's value in the {CSRF_HEADER} header",
            "SRV-CSRF",
        )


def same_origin(headers: Mapping[str, str]) -> bool:
    """``Origin`` names the host the request was sent to (a browser's own page)."""
    origin, host = headers.get("origin"), headers.get("host")
    if not origin or not host:
        return False
    return re.sub(r"^[a-z]+://", "", origin.lower()).rstrip("/") == host.lower()


def scope_headers(scope: Scope) -> dict[str, str]:
    """An ASGI scope's headers, lower-cased names; of a repeated header, the first."""
    out: dict[str, str] = {}
    for k, v in scope["headers"]:
        out.setdefault(k.decode("latin-1").lower(), v.decode("latin-1"))
    return out


def set_session(response: Any, token: str, csrf: str, max_age: int, secure: bool) -> None:
    """The login's cookies on ``response`` (a Starlette response)."""
    response.set_cookie(
        SESSION_COOKIE, token, max_age=max_age, httponly=True, samesite="strict", secure=secure
    )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=max_age, httponly=False, samesite="strict", secure=secure
    )


def clear_session(response: Any) -> None:
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, samesite="strict")


# --- tokens out of the log -------------------------------------------------------------------

_TOKEN_IN_URL = re.compile(r"((?:^|[?&;\s])(?:token|access_token)=)[^&\s\"']+", re.I)


def redact(text: str) -> str:
    """``text`` with any ``token=…`` query parameter's value replaced by ``***``."""
    return _TOKEN_IN_URL.sub(r"\1***", text) if "token=" in text.lower() else text


class RedactTokens(logging.Filter):
    """A logging filter: a URL's ``token=…`` never reaches a log line (uvicorn logs every
    WebSocket's path with its query string, whatever the access log's setting)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


_REDACT = RedactTokens()


def redact_logs() -> None:
    """The filter on the loggers that write requests' paths (uvicorn's)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "macau_tables.server"):
        logger = logging.getLogger(name)
        if _REDACT not in logger.filters:
            logger.addFilter(_REDACT)
