"""``macau-tables serve`` on an address other machines reach refuses (exit 2, one line
saying why and how to fix it) while the floor has demo accounts with the passwords printed
at their first start — or would create them. Driven through the CLI; the server itself
is never started (nothing listens: its start is replaced by a recorder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from macau_tables.cli.app import app as cli_app
from macau_tables.server import run, store
from macau_tables.server.app import create_app
from macau_tables.server.auth import Passwords
from macau_tables.server.floor import Floor
from tests.server.conftest import make_settings

PUBLIC = ["0.0.0.0", "::", "192.0.2.10", "casino.example"]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """What would have been served (the server's start replaced: nothing listens)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(run, "_serve_one", lambda *a, **kw: calls.append(a))
    return calls


def _serve(db: Path, host: str, *extra: str) -> Any:
    args = ["serve", "--host", host, "--port", "8999", "--database-url", str(db), *extra]
    return CliRunner().invoke(cli_app, args)


def _one_line(result: Any) -> str:
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def _demo_floor(db: Path) -> dict[str, str]:
    floor = Floor(make_settings(str(db)))
    with TestClient(create_app(floor=floor)):
        return dict(floor.demo_credentials)


@pytest.mark.parametrize("host", PUBLIC)
def test_a_new_floor_with_demo_accounts_is_refused_on_a_public_host(
    tmp_path: Path, host: str, started: list[tuple[Any, ...]]
) -> None:
    result = _serve(tmp_path / "floor.db", host)
    assert result.exit_code == 2, result.output
    line = _one_line(result)
    assert f"refusing to serve on {host}" in line and "--no-demo" in line
    assert started == []
    assert not (tmp_path / "floor.db").exists()  # refused before anything was created


def test_a_new_floor_without_demo_accounts_serves_on_a_public_host(
    tmp_path: Path, started: list[tuple[Any, ...]]
) -> None:
    result = _serve(tmp_path / "floor.db", "0.0.0.0", "--no-demo")
    assert result.exit_code == 0, result.output
    assert len(started) == 1
    assert started[0][0] == "0.0.0.0" and started[0][2].demo is False


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_loopback_is_never_refused(tmp_path: Path, host: str, started: list[Any]) -> None:
    result = _serve(tmp_path / "floor.db", host)
    assert result.exit_code == 0, result.output
    assert len(started) == 1


def test_a_floor_whose_demo_accounts_keep_their_passwords_is_refused(
    tmp_path: Path, started: list[Any]
) -> None:
    db = tmp_path / "floor.db"
    creds = _demo_floor(db)
    result = _serve(db, "0.0.0.0")
    assert result.exit_code == 2, result.output
    line = _one_line(result)
    assert "refusing to serve on 0.0.0.0" in line
    assert all(name in line for name in creds)
    assert "change their passwords" in line
    assert started == []
    # --no-demo does not make the accounts that exist any safer
    assert _serve(db, "0.0.0.0", "--no-demo").exit_code == 2


def _set(db: Path, names: list[str], **values: Any) -> None:
    engine = sa.create_engine(f"sqlite+pysqlite:///{db}")
    with engine.begin() as conn:
        for name in names:
            conn.execute(
                store.users_t.update().where(store.users_t.c.name == name).values(**values)
            )
    engine.dispose()


def test_changed_or_deactivated_demo_accounts_are_not_refused(
    tmp_path: Path, started: list[Any]
) -> None:
    db = tmp_path / "floor.db"
    names = list(_demo_floor(db))
    half = len(names) // 2
    new_hash = Passwords(fast=True).hash("a-password-nobody-printed")
    _set(db, names[:half], password_hash=new_hash)
    result = _serve(db, "0.0.0.0")  # the other half still keep theirs
    assert result.exit_code == 2
    line = _one_line(result)
    assert all(n not in line.split(":", 2)[-1] for n in names[:half]), line
    _set(db, names[half:], active=False)
    result = _serve(db, "0.0.0.0")
    assert result.exit_code == 0, result.output
    assert len(started) == 1
