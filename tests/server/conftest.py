"""Fixtures of the server suite: a floor on SQLite (and PostgreSQL, see pg.py) with the
Hi-Lo test double, driven through the real HTTP API (FastAPI's TestClient)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor
from macau_tables.server.app import create_app
from macau_tables.server.floor import Floor
from macau_tables.server.settings import Settings
from macau_tables.server.tables import Reply, TableActor
from tests.server import pg
from tests.server.conftest_game import register_hilo
from tests.server.pg import postgres_url

HILO = register_hilo()
_keys = itertools.count()


def new_key() -> str:
    return f"k{next(_keys)}"


def player_command(
    actor: TableActor, who: str, op: str, args: dict[str, Any], key: str | None = None, **kw: Any
) -> Awaitable[Reply]:
    """``who``'s command at ``actor``'s table, as the API sends it (a new key by default)."""
    return actor.command(
        Actor.player(who), op, args, user=who, viewer=Viewer.player(who), key=key or new_key(), **kw
    )


@dataclass
class Srv:
    """A running app with its demo credentials and helpers to call it."""

    client: TestClient
    floor: Floor
    creds: dict[str, str]
    tokens: dict[str, str] = field(default_factory=dict)

    def headers(self, who: str, key: str | None = None) -> dict[str, str]:
        if who not in self.tokens:
            r = self.client.post("/auth/login", json={"name": who, "password": self.creds[who]})
            assert r.status_code == 200, r.text
            self.tokens[who] = r.json()["token"]
        h = {"Authorization": f"Bearer {self.tokens[who]}"}
        if key is not None:
            h["Idempotency-Key"] = key
        return h

    def cmd(
        self,
        who: str,
        table: str,
        op: str,
        args: dict[str, Any] | None = None,
        key: str | None = None,
        **extra: Any,
    ) -> Any:
        body = {"op": op, "args": args or {}, **extra}
        return self.client.post(
            f"/tables/{table}/commands", json=body, headers=self.headers(who, key or new_key())
        )

    def ok(self, who: str, table: str, op: str, args: dict[str, Any] | None = None) -> Any:
        r = self.cmd(who, table, op, args)
        assert r.status_code == 200, r.text
        return r.json()

    def step(self, table: str) -> bool:
        return bool(self.client.portal.call(self.floor.tables[table].step))  # type: ignore[union-attr]

    def deposit(self, player: str, amount: int) -> Any:
        r = self.client.post(
            "/cashier/deposit",
            json={"player": player, "amount": amount},
            headers=self.headers("cashier", new_key()),
        )
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "floor.db")
    return postgres_url(request)


def make_settings(url: str, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "database_url": url,
        "fast_passwords": True,
        "clocks": False,
        "demo_games": ("hilo",),
        "betting_seconds": 0.2,
        "action_seconds": 0.2,
        "dealer_seconds": 0.0,
    }
    base.update(kw)
    return Settings(**base)


@pytest.fixture
def srv(database_url: str) -> Iterator[Srv]:
    floor = Floor(make_settings(database_url))
    app = create_app(floor=floor)
    with TestClient(app) as client:
        yield Srv(client, floor, dict(floor.demo_credentials))


@pytest.fixture
def lite(tmp_path: Any) -> Iterator[Srv]:
    """A running app on SQLite only (a file in the test's directory)."""
    floor = Floor(make_settings(str(tmp_path / "floor.db")))
    with TestClient(create_app(floor=floor)) as client:
        yield Srv(client, floor, dict(floor.demo_credentials))


def wait_checked(srv: Srv) -> None:
    """Until the floor's background checks (the ledger, the history before the
    snapshots) are done."""
    deadline = time.monotonic() + 60
    while srv.floor.chains_pending() or srv.floor.ledger_pending():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The session's PostgreSQL cluster goes before the session ends (tests/server/pg.py)."""
    pg.stop()
