"""``macau-tables serve``'s access log is off unless asked for (``--access-log``) — the
journal and the ledger record every command, and a line per request cost ~5 % of the
loop's time under load: uvicorn's with ``--no-front``, the front process's otherwise (it
sees every request)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from typer.testing import CliRunner

from macau_tables.cli.app import app
from tests.server.serve_proc import Serve

runner = CliRunner()


@pytest.mark.parametrize(("flags", "expected"), [([], False), (["--access-log"], True)])
def test_the_access_log_is_off_unless_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], expected: bool
) -> None:
    seen: dict[str, Any] = {}

    def fake_run(_app: Any, **kwargs: Any) -> None:  # (the server is not started)
        seen.update(kwargs)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda _s: None)  # (not this process's)
    db = tmp_path / "floor.db"
    args = ["serve", "--port", "8999", "--database-url", str(db), "--no-front", *flags]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen["access_log"] is expected
    assert seen["port"] == 8999


@pytest.mark.parametrize("flags", [[], ["--access-log"]])
def test_the_front_writes_the_access_log_when_asked(tmp_path: Path, flags: list[str]) -> None:
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

    def fake_run(app_: Any, **_kwargs: Any) -> None:  # (the server is not started)
        seen["settings"] = app_.state.floor.settings

    monkeypatch.setattr(uvicorn, "run", fake_run)
    monkeypatch.setattr(sys, "setswitchinterval", lambda _s: None)  # (not this process's)
    args = ["serve", "--database-url", str(tmp_path / "floor.db"), "--no-front", *flags]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert seen["settings"].checkpoint_every == every
    assert seen["settings"].chain_check == check
    assert seen["settings"].idempotency_hours == hours
