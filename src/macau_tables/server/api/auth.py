"""Logging in and out, sessions, one's own password and identity.

(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.)"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from macau_tables.server import schemas as S
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User, new_token
from macau_tables.server.logins import LoginBody, PasswordChange, SessionReply
from macau_tables.server.session import (
    clear_session,
    set_session,
)


def router(d: Deps) -> APIRouter:
    """The auth routes (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    the_floor, allowed, perm, current_token = d.floor, d.allowed, d.perm, d.current_token

    # --- auth -----------------------------------------------------------------------------

    @r.post("/auth/login", response_model=S.TokenReply | SessionReply, tags=["auth"])
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

    @r.post("/auth/logout", tags=["auth"], **perm("logout"))
    async def logout(
        user: Annotated[User, Depends(allowed("logout"))],
        token: Annotated[str, Depends(current_token)],
    ) -> JSONResponse:
        await the_floor.logout(token)
        response = JSONResponse({"ok": True})
        clear_session(response)
        return response

    @r.post("/auth/password", tags=["auth"], **perm("me"))
    async def change_password(
        body: PasswordChange, request: Request, user: Annotated[User, Depends(allowed("me"))]
    ) -> dict[str, Any]:
        """Change one's own password (the old one, then the new one, which follows the
        password policy: 422 ``SRV-PASSWORD``). Wrong old passwords are throttled as
        logins are."""
        address = request.client.host if request.client is not None else ""
        await the_floor.change_password(user.name, body.old_password, body.new_password, address)
        return {"ok": True}

    @r.get("/me", tags=["auth"], **perm("me"))
    async def me(user: Annotated[User, Depends(allowed("me"))]) -> dict[str, Any]:
        return {"name": user.name, "role": user.role.value}

    return r
