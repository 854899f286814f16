"""``macau-tables serve`` and ``macau-tables db upgrade``: what the CLI calls."""

from __future__ import annotations

import sys

from macau_tables.server.db import Database, normalise_url, upgrade
from macau_tables.server.floor import Floor, Settings


def serve(
    host: str,
    port: int,
    database_url: str | None,
    *,
    betting_seconds: float = 15.0,
    action_seconds: float = 20.0,
    log_level: str = "info",
    settings: Settings | None = None,
    gaming_day_start: str = "06:00",
) -> None:
    """Run the server until interrupted (migrations and recovery first)."""
    import uvicorn

    from macau_tables.server.app import create_app

    settings = settings or Settings(
        database_url=database_url,
        betting_seconds=betting_seconds,
        action_seconds=action_seconds,
        gaming_day_start=gaming_day_start,
    )

    def announce(floor: Floor) -> None:
        out = sys.stdout
        rec = floor.recovery
        out.write(f"macau-tables: database {floor.db.url}\n")
        out.write(
            f"macau-tables: {rec.tables} table(s) verified"
            + (f", locked: {rec.locked}" if rec.locked else "")
            + (f", rounds finished on recovery: {rec.driven}" if rec.driven else "")
            + "\n"
        )
        if floor.demo_credentials:
            out.write("macau-tables: demo accounts (shown once; keep them):\n")
            for name, pw in floor.demo_credentials.items():
                out.write(f"    {name:<11} {pw}\n")
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        out.write(f"macau-tables: serving on http://{shown}:{port}/  (API docs: /docs)\n")
        out.flush()

    app = create_app(settings, on_start=announce)
    # The database thread releases the GIL at every SQLite call; with the default 5 ms
    # switch interval it then waits behind the event loop's HTTP work at each call (the
    # convoy effect). A short interval hands the GIL back quickly.
    sys.setswitchinterval(0.0002)
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws=_ws_protocol())


def _ws_protocol() -> str:
    """uvicorn's sans-I/O websockets protocol where it has one (its legacy one warns)."""
    from uvicorn.config import WS_PROTOCOLS

    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"


def db_upgrade(database_url: str | None) -> list[str]:
    """Apply pending migrations; a database that cannot be reached is a one-line error."""
    from sqlalchemy.exc import SQLAlchemyError

    from macau_tables.core.errors import MacauTablesError

    try:
        db = Database(database_url)
    except (SQLAlchemyError, ValueError) as exc:
        raise MacauTablesError(f"database: {exc}") from exc
    try:
        return upgrade(db)
    except SQLAlchemyError as exc:
        why = " ".join(str(getattr(exc, "orig", None) or exc).split())
        raise MacauTablesError(f"database: {why}") from exc
    finally:
        db.close()


__all__ = ["db_upgrade", "normalise_url", "serve"]
