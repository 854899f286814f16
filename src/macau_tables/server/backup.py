"""A SQLite floor's online backup (``macau-tables db backup``): a copy of the database as
of one moment, taken while the server runs, then checked as a start-up would check it.

The copy is SQLite's online backup in one step (``sqlite3.Connection.backup`` with every
page at once): one read transaction on the source, so one committed state — never half a
command — and in WAL mode the server's writes go on meanwhile (only the WAL waits for the
copy's end to start over). It is written beside the target, synced, then
renamed, so the target is either absent or whole. Then :func:`checks.check_database`
runs on the copy: the ledger's sums and every table's chain and money. PostgreSQL has its
own tools (``pg_dump``, ``pg_basebackup``): check what they restore with
``macau-tables db check`` (docs/operations.md, "Backups").
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from macau_tables.core.errors import InvalidInput
from macau_tables.server.checks import DatabaseCheck, check_database
from macau_tables.server.db import database_error, sqlite_file


@dataclass
class Backup:
    source: Path
    target: Path
    size: int  # bytes of the copy
    seconds: float  # the copy's, without the check
    check: DatabaseCheck


def backup_sqlite(database_url: str | None, target: Path) -> Backup:
    """Copy the SQLite database at ``database_url`` to ``target`` (a new file) as of one
    moment, beside a running server or not, and check the copy."""
    source = sqlite_file(database_url)
    if source is None:
        raise InvalidInput(
            "db backup copies a SQLite file; back PostgreSQL up with pg_dump or "
            "pg_basebackup, then run 'macau-tables db check' on the restored copy "
            '(docs/operations.md, "Backups")'
        )
    if target.exists():
        raise InvalidInput(f"{target} exists: name a new file for the backup")
    if not target.parent.is_dir():
        raise InvalidInput(f"no directory {target.parent} for the backup")
    partial = target.with_name(target.name + ".partial")
    started = time.perf_counter()
    partial.unlink(missing_ok=True)  # (left by a copy that was killed)
    try:
        _copy(source, partial)
    except BaseException as exc:
        partial.unlink(missing_ok=True)
        if isinstance(exc, sqlite3.Error):  # a file that is not a database, a full disk
            raise database_error(exc) from exc
        raise
    _sync(partial)
    os.replace(partial, target)
    _sync(target.parent)
    seconds = time.perf_counter() - started
    return Backup(source, target, target.stat().st_size, seconds, check_database(str(target)))


def _copy(source: Path, target: Path) -> None:
    src = sqlite3.connect(f"file:{quote(str(source.resolve()))}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)  # every page in one step: one read transaction, one state
        finally:
            dst.close()
    finally:
        src.close()


def _sync(path: Path) -> None:
    """fsync a file or a directory (the rename), where the system allows it."""
    fd = os.open(path, os.O_RDONLY)
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
