"""The PostgreSQL harness removes what killed sessions left behind (tests/server/pg.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.server import pg


def _cluster_dir(tmp: Path, name: str, pid: int | None, age: float, now: float) -> Path:
    root = tmp / (pg.PREFIX + name)
    (root / "data" / "base").mkdir(parents=True)
    (root / "data" / "base" / "1").write_text("x" * 100)
    if pid is not None:
        (root / "data" / "postmaster.pid").write_text(f"{pid}\n/data\n")
    os.utime(root, (now - age, now - age))
    return root


def test_sweep_removes_only_old_clusters_whose_postmaster_is_gone(tmp_path: Path) -> None:
    now = 1_000_000.0
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a pid that no longer runs
    killed = _cluster_dir(tmp_path, "killed", dead.pid, 3600, now)
    no_pid = _cluster_dir(tmp_path, "nopid", None, 3600, now)
    alive = _cluster_dir(tmp_path, "alive", os.getpid(), 3600, now)
    young = _cluster_dir(tmp_path, "young", None, 5, now)  # being made: no pid file yet
    other = tmp_path / "not-ours"
    other.mkdir()
    os.utime(other, (now - 3600, now - 3600))

    gone = pg.sweep(tmp_path, now)

    assert sorted(gone) == sorted([killed, no_pid])
    assert not killed.exists() and not no_pid.exists()
    assert alive.exists() and young.exists() and other.exists()
