"""``macau-tables serve``'s access log is off unless asked for (``--access-log``) — the
journal and the ledger record every command, and a line per request cost ~5 % of the
loop's time under load. ``--no-fast-path`` (the simpler path the benchmarks compare with)
reaches the app."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.server.fastpath import CommandFastPath
from tests.server.pg import free_port
from tests.server.serve_proc import Serve

runner = CliRunner()


@pytest.mark.parametrize(("flags", "expected"), [([], False), (["--access-log"], True)])
def test_the_access_log_is_off_unless_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], expected: bool
) -> None:
    seen: dict[str, Any] = {}

    def fake_run(server: uvicorn.Server, sockets: list[Any]) -> None:  # (not started)
        seen["access_log"] = server.config.access_log
        seen["port"] = sockets[0].getsockname()[1]

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda _s: None)  # (not this process's)
    db = tmp_path / "floor.db"
    port = free_port()
    args = ["serve", "--port", str(port), "--database-url", str(db), *flags]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen["access_log"] is expected
    assert seen["port"] == port


@pytest.mark.parametrize(("flags", "expected"), [([], True), (["--no-fast-path"], False)])
def test_the_fast_path_is_on_unless_turned_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], expected: bool
) -> None:
    seen: dict[str, Any] = {}

    def fake_run(server: uvicorn.Server, sockets: list[Any]) -> None:  # (not started)
        stack = [m.cls for m in server.config.app.user_middleware]
        seen["fast"] = CommandFastPath in stack

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda _s: None)
    args = ["serve", "--port", str(free_port()), "--database-url", str(tmp_path / "f.db")]
    result = runner.invoke(app, [*args, *flags])
    assert result.exit_code == 0, result.output
    assert seen["fast"] is expected


@pytest.mark.parametrize("flags", [[], ["--access-log"]])
def test_the_server_writes_the_access_log_when_asked(tmp_path: Path, flags: list[str]) -> None:
    server = Serve(tmp_path, *flags)
    try:
        server.start()
        assert httpx.get(server.url + "/tables/paigow-1/view").status_code == 401
        assert httpx.get(server.url + "/health").status_code == 200
    finally:
        server.stop()
    log = server.log.read_text()
    lines = [
        '"GET /tables/paigow-1/view HTTP/1.1" 401 Unauthorized',
        '"GET /health HTTP/1.1" 200 OK',
    ]
    for line in lines:
        assert (line in log) is bool(flags), log[-2000:]


@pytest.mark.parametrize(
    ("flags", "every", "check", "hours"),
    [
        ([], 1000, "background", 24.0),
        (
            ["--checkpoint-every", "250", "--chain-check", "startup", "--idempotency-hours", "0"],
            250,
            "startup",
            0.0,
        ),
        (["--idempotency-hours", "1.5"], 1000, "background", 1.5),
    ],
)
def test_the_snapshot_and_retention_options_reach_the_floor(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    flags: list[str],
    every: int,
    check: str,
    hours: float,
) -> None:
    """``--checkpoint-every``, ``--chain-check`` and ``--idempotency-hours`` are the floor's
    settings (each is passed on, none accepted and ignored)."""
    seen: dict[str, Any] = {}

    def fake_run(server: uvicorn.Server, sockets: list[Any]) -> None:  # (not started)
        seen["settings"] = server.config.app.state.floor.settings

    monkeypatch.setattr(uvicorn.Server, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda _s: None)  # (not this process's)
    args = ["serve", "--port", str(free_port()), "--database-url", str(tmp_path / "floor.db")]
    args += flags
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen["settings"].checkpoint_every == every
    assert seen["settings"].chain_check == check
    assert seen["settings"].idempotency_hours == hours
