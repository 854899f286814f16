"""A throwaway PostgreSQL 15 cluster for the server suite.

Started once per test session on a free loopback port, as the ``postgres`` user (``initdb``
and ``pg_ctl`` refuse root), in a temporary data directory with a private socket directory,
``fsync`` left on; stopped and removed at the end. Each test gets a new database: a copy
of one the migrations built once per session (``CREATE DATABASE … TEMPLATE``, ~0.1 s,
where building the schema again took ~0.2 s more at every test), or an empty one.

A session that was killed (an xdist worker ended before its ``atexit`` finished, a ``kill``)
leaves its directory behind, and a cluster's directory holds hundreds of megabytes: each
start first removes the directories of clusters no longer running (:func:`sweep`).
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

BIN = Path("/usr/lib/postgresql/15/bin")
_cluster: dict[str, Any] = {}
_names = itertools.count()
_template: list[str] = []  # the session's migrated database, once made


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*cmd: str) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return list(cmd)


PREFIX = "macau-pg-"

#: a directory this recent may be a cluster still being made (before ``postmaster.pid``)
SWEEP_AFTER = 600.0


def _running(data: Path) -> bool:
    """Whether the postmaster named in ``data/postmaster.pid`` is alive."""
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (alive, another user's)
        pass
    return True


def sweep(tmp: Path, now: float, older_than: float = SWEEP_AFTER) -> list[Path]:
    """Remove the cluster directories under ``tmp`` whose postmaster is not running and
    that are older than ``older_than`` seconds; return them."""
    gone = []
    for root in tmp.glob(PREFIX + "*"):
        try:
            age = now - root.stat().st_mtime
        except OSError:
            continue
        if root.is_dir() and age > older_than and not _running(root / "data"):
            shutil.rmtree(root, ignore_errors=True)
            gone.append(root)
    return gone


def _start() -> dict[str, Any]:
    if not (BIN / "initdb").exists():
        pytest.fail("PostgreSQL 15 is missing: `make test` installs Debian's postgresql")
    sweep(Path(tempfile.gettempdir()), time.time())
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    data, sock = root / "data", root / "sock"
    sock.mkdir()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        shutil.chown(sock, "postgres", "postgres")
    port = free_port()
    subprocess.run(
        _as_postgres(
            str(BIN / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "--no-sync",
            "-E",
            "UTF8",
        ),
        check=True,
        capture_output=True,
    )
    opts = (
        f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={sock} "
        "-c max_connections=200 -c shared_buffers=32MB "
        # more settings for a measurement (e.g. pg_stat_statements): a benchmark's option
        + os.environ.get("MACAU_TEST_PG_OPTIONS", "")
    )
    subprocess.run(
        _as_postgres(
            str(BIN / "pg_ctl"), "-D", str(data), "-o", opts, "-w", "-l", str(root / "log"), "start"
        ),
        check=True,
        capture_output=True,
    )
    info = {"root": root, "data": data, "port": port}
    atexit.register(_stop, info)
    return info


def _stop(info: dict[str, Any]) -> None:
    subprocess.run(
        _as_postgres(str(BIN / "pg_ctl"), "-D", str(info["data"]), "-m", "immediate", "-w", "stop"),
        capture_output=True,
        check=False,
    )
    shutil.rmtree(info["root"], ignore_errors=True)


def stop() -> None:
    """Stop and remove the session's cluster, if one was started: at the end of the test
    session (tests/server/conftest.py), while the session still runs — an xdist worker's
    ``atexit`` handlers were cut short, leaving the directory half removed."""
    if _cluster:
        info = dict(_cluster)
        _cluster.clear()
        _template.clear()
        atexit.unregister(_stop)
        _stop(info)


def cluster() -> dict[str, Any]:
    if not _cluster:
        _cluster.update(_start())
    return _cluster


def admin() -> Any:
    """An autocommit connection to the cluster's ``postgres`` database (psycopg)."""
    import psycopg

    info = cluster()
    return psycopg.connect(
        f"host=127.0.0.1 port={info['port']} user=postgres dbname=postgres", autocommit=True
    )


def new_database(migrated: bool = False) -> str:
    """A fresh database on the session's cluster; its SQLAlchemy URL. Empty, or
    ``migrated``: a copy of the session's database with every migration applied (what
    ``serve`` would build on the empty one; the copy's start applies none)."""
    name = f"floor_{os.getpid()}_{next(_names)}"
    template = _migrated() if migrated else None
    with admin() as conn:
        if template is None:
            conn.execute(f'CREATE DATABASE "{name}"')
        else:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return f"postgresql+psycopg://postgres@127.0.0.1:{cluster()['port']}/{name}"


def _migrated() -> str:
    if not _template:
        from macau_tables.server.db import Database, upgrade

        url = new_database()
        db = Database(url)
        try:
            assert upgrade(db), "the migrations built nothing"
        finally:
            db.close()
        _template.append(url.rsplit("/", 1)[1])
    return _template[0]


def postgres_url(request: Any) -> str:
    del request
    return new_database(migrated=True)
