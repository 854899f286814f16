"""What every route depends on: who is calling (the bearer token, or the session cookie
with its CSRF proof), the permission its endpoint names, an Idempotency-Key where money
moves. One :class:`Deps` a floor, made by ``create_app`` and given to every router.

(No ``from __future__ import annotations`` in the routers: FastAPI reads their endpoints'
annotations, whose ``Depends(allowed(...))`` are made here.)"""

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from macau_tables.core.visibility import Viewer
from macau_tables.server.auth import PERMISSIONS, User, require
from macau_tables.server.errors import ApiError
from macau_tables.server.floor import Floor
from macau_tables.server.latency import Latencies
from macau_tables.server.session import credential
from macau_tables.server.tables import Reply

__all__ = ["Deps", "idem_key", "reply", "viewer"]

_bearer = HTTPBearer(auto_error=False)


class Deps:
    """The floor the routes serve, and the dependencies that name the caller."""

    def __init__(self, floor: Floor) -> None:
        self.floor = floor
        #: each table command's time in this process (the fast path's; ``/server/latency``)
        self.latencies = Latencies()

        async def current_token(
            request: Request,
            creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
        ) -> str:
            """The bearer token, else the session cookie with its CSRF proof
            (server/session.py; ``creds`` only documents the bearer scheme in the OpenAPI
            schema)."""
            return credential(request.headers, request.method)

        async def current_user(token: Annotated[str, Depends(current_token)]) -> User:
            return await floor.authenticate(token)

        self.current_token = current_token
        self.current_user = current_user

    def allowed(self, permission: str) -> Callable[[User], Awaitable[User]]:
        """The caller, if his role has ``permission`` (403 ``SRV-ROLE`` otherwise)."""
        assert permission in PERMISSIONS
        current_user = self.current_user

        async def dep(user: Annotated[User, Depends(current_user)]) -> User:
            require(user, permission)
            return user

        return dep

    @staticmethod
    def perm(permission: str) -> dict[str, Any]:
        """An endpoint's permission in the OpenAPI document (``x-permission``)."""
        return {"openapi_extra": {"x-permission": permission}}


def idem_key(key: str | None) -> str:
    """A money-moving request's Idempotency-Key (400 without one, 422 over 200 chars)."""
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


def reply(r: Reply) -> JSONResponse:
    return JSONResponse(r.body, status_code=r.status)


def viewer(user: User) -> Viewer:
    v = user.viewer()
    assert isinstance(v, Viewer)
    return v
