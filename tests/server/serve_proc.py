"""``macau-tables serve`` as a real process on a free loopback port (tests' and benchmarks'
helper): started on a database in a directory, waited for until ``/health`` answers, its
demo credentials read from its output, stopped — and started again on the same database."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.pg import free_port

ROOT = Path(__file__).resolve().parents[2]


class Serve:
    """One ``serve`` process (``args``: more options, e.g. ``--betting-seconds 0.5``); its
    output goes to ``<directory>/serve.log``."""

    def __init__(self, directory: Path, *args: str) -> None:
        self.directory = directory
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = directory / "serve.log"
        self.cmd = [sys.executable, "-c", "from macau_tables.cli.app import main; main()"]
        self.cmd += ["serve", "--port", str(self.port)]
        self.cmd += ["--database-url", str(directory / "floor.db"), *args]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> dict[str, Any]:
        """Start it and wait until it answers; ``/health``'s answer."""
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.cmd, cwd=self.directory, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        for _ in range(600):
            try:
                r = httpx.get(self.url + "/health", timeout=1)
                if r.status_code == 200:
                    health: dict[str, Any] = r.json()
                    return health
            except httpx.TransportError:
                pass
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            time.sleep(0.1)
        raise AssertionError(f"serve did not answer: {self.log.read_text()[-3000:]}")

    def checked(self, timeout: float = 60.0) -> dict[str, Any]:
        """``/health`` once the start-up's background checks (the ledger, the chains and
        money before the tables' snapshots) are done."""
        deadline = time.monotonic() + timeout
        while True:
            health: dict[str, Any] = httpx.get(self.url + "/health", timeout=5).json()
            if not health["chains_pending"] and not health["ledger_pending"]:
                return health
            assert time.monotonic() < deadline, health
            time.sleep(0.1)

    def creds(self) -> dict[str, str]:
        """The demo accounts' passwords it printed on its first start."""
        return dict(re.findall(r"^ {4}(\w+)\s+(\S+)$", self.log.read_text(), re.M))

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
