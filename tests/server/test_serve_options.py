"""``macau-tables serve``'s options reach uvicorn: the access log is off unless asked for
(``--access-log``) — the journal and the ledger record every command, and a line per
request cost ~5 % of the loop's time under load."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from macau_tables.cli.app import app

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
    result = runner.invoke(app, ["serve", "--port", "8999", "--database-url", str(db), *flags])
    assert result.exit_code == 0, result.output
    assert seen["access_log"] is expected
    assert seen["port"] == 8999
