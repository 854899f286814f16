"""A floor from before the administrator (SQLite and PostgreSQL): the migration keeps its
accounts working (approved as of their creation, a token still valid), the role's CHECK
takes the administrator, and ``db administrators`` gives the floor its first two — once:
after that, administrators are hired like any staff."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from macau_tables.core.errors import InvalidInput
from macau_tables.server import run, store
from macau_tables.server.app import create_app
from macau_tables.server.auth import Passwords, token_hash
from macau_tables.server.db import Database, alembic_config
from macau_tables.server.floor import Floor
from tests.server import pg
from tests.server.conftest import make_settings


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "old.db")
    return pg.new_database(migrated=False)


def test_an_older_floor_upgrades_and_gets_its_first_two_administrators(empty_url: str) -> None:
    from alembic import command

    db = Database(empty_url)
    try:
        with db.writer.begin() as conn:  # the schema as it was before the administrator
            cfg = alembic_config(db)
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "0009")
        hashed = Passwords(fast=True).hash("old-password")

        def old_rows(c: sa.Connection) -> None:
            c.execute(
                sa.text(
                    "INSERT INTO users (name, role, password_hash, active, created_at) "
                    "VALUES ('olga', 'supervisor', :h, :t, 1000)"
                ),
                {"h": hashed, "t": True},
            )
            c.execute(
                sa.text("INSERT INTO tokens VALUES (:h, 'olga', 99999999999999)"),
                {"h": token_hash("olga-token")},
            )

        db.write_sync(old_rows)
    finally:
        db.close()

    made = run.first_administrators(empty_url, ["ann", "ben"])
    assert sorted(made) == ["ann", "ben"]
    with pytest.raises(InvalidInput, match="has administrators"):
        run.first_administrators(empty_url, ["cat", "dan"])
    floor = Floor(make_settings(empty_url, demo=False))
    with TestClient(create_app(floor=floor)) as client:
        olga = {"Authorization": "Bearer olga-token"}
        assert client.get("/me", headers=olga).json()["role"] == "supervisor"
        assert (
            client.post(
                "/auth/login", json={"name": "olga", "password": "old-password"}
            ).status_code
            == 200
        )

        def login(name: str, password: str) -> dict[str, str]:
            r = client.post("/auth/login", json={"name": name, "password": password})
            assert r.status_code == 200, r.text
            return {"Authorization": f"Bearer {r.json()['token']}"}

        ann, ben = login("ann", made["ann"]), login("ben", made["ben"])
        body = {"name": "cal", "role": "cashier", "password": "cal-password"}
        assert client.post("/users", json=body, headers=ann).json()["approved"] is False
        r = client.post("/users/cal/approve", json={"reason": "hired"}, headers=ben)
        assert r.status_code == 200, r.text
        login("cal", "cal-password")
        users = {u["name"]: u for u in client.get("/users", headers=ann).json()}
        assert users["olga"]["approved"] and users["cal"]["approved_by"] == "ben"
        rows = floor.db.read_sync(
            lambda c: c.execute(sa.select(store.users_t.c.name, store.users_t.c.approved_at)).all()
        )
        assert dict(rows)["olga"] == 1000  # approved as of its creation
