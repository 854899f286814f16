"""`macau-tables serve`, `db upgrade` and `bots`: the table server.

The server packages (the ``server`` extra) are imported only when one of these commands
runs, so the engines and the rest of the CLI work without them.
"""

from __future__ import annotations

import enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from macau_tables.cli.common import handle_errors
from macau_tables.core.errors import InvalidInput

if TYPE_CHECKING:
    from macau_tables.server.checks import DatabaseCheck

db_app = typer.Typer(
    help="The server's database (SQLite file or PostgreSQL).",
    epilog="Examples: macau-tables db upgrade --database-url floor.db  ·  "
    "macau-tables db check --database-url floor.db  ·  "
    "macau-tables db backup floor-copy.db --database-url floor.db",
)


def _need_server() -> None:
    try:
        import fastapi  # noqa: F401
        import sqlalchemy  # noqa: F401
    except ImportError as exc:
        typer.echo(
            f"error: the server needs the 'server' extra ({exc.name} is missing): "
            "pip install 'macau-tables[server]'",
            err=True,
        )
        raise typer.Exit(2) from exc


def _report_check(
    check: DatabaseCheck, as_json: bool = False, copied: dict[str, Any] | None = None
) -> None:
    """A line for the ledger and one for each table (``as_json``: one JSON document, the
    backup's ``copied`` in it); exit 2 (one line on stderr) if anything does not verify."""
    import dataclasses

    from macau_tables.cli.common import fail, print_json

    if as_json:
        print_json({**(copied or {}), "ok": check.ok, **dataclasses.asdict(check)})
        if not check.ok:
            fail("the database does not verify")
        return

    if check.ledger:
        for reason in check.ledger:
            typer.echo(f"ledger: {reason}")
    else:
        typer.echo(
            f"ledger: {check.postings:,} postings sum to zero, per transaction too; every "
            "balance equals its postings"
        )
    for t in check.tables:
        verdict = t.problem or (
            "chain, money and rules verify" if t.replayed else "chain and money verify"
        )
        typer.echo(f"{t.table_id}  {t.game}  {t.status}  {t.entries:,} entries: {verdict}")
    if not check.ok:
        bad = len(check.ledger) + sum(t.problem is not None for t in check.tables)
        fail(f"{bad} problem(s): the database does not verify")


def _check_day_start(text: str) -> None:
    """``--gaming-day-start``: HH:MM, 00:00 to 23:59 (one line and exit 2 otherwise)."""
    import re

    from macau_tables.core.errors import InvalidInput

    m = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", text)
    if m is None:
        raise InvalidInput(f"--gaming-day-start {text!r}: a time HH:MM (Macau time)")


class ChainCheck(enum.StrEnum):
    """``serve --chain-check``."""

    background = "background"
    startup = "startup"


URL_HELP = "SQLAlchemy URL: a SQLite path (default ./macau-tables.db) or postgresql+psycopg://…"


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    del play_app
    app.add_typer(db_app, name="db")

    @app.command(
        "serve",
        epilog="Example: macau-tables serve --port 8000  ·  "
        "macau-tables serve --database-url postgresql+psycopg://casino@/floor --workers 2",
    )
    @handle_errors
    def serve_cmd(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port.", min=1, max=65535)] = 8000,
        database_url: Annotated[str | None, typer.Option(help=URL_HELP)] = None,
        betting_seconds: Annotated[
            float, typer.Option(help="Auto-dealer: length of a betting window.", min=0.1)
        ] = 15.0,
        action_seconds: Annotated[
            float, typer.Option(help="Auto-dealer: time a player has to act.", min=0.1)
        ] = 20.0,
        gaming_day_start: Annotated[
            str, typer.Option(help="Meters: gaming days begin at this Macau time (HH:MM).")
        ] = "06:00",
        workers: Annotated[
            int,
            typer.Option(
                help="Server processes sharing the port (PostgreSQL only): each owns a share "
                "of the tables and forwards the others' requests.",
                min=1,
            ),
        ] = 1,
        internal_host: Annotated[
            str,
            typer.Option(
                help="PostgreSQL: address of each process's internal port, where the other "
                "processes forward requests (one the others can reach).",
            ),
        ] = "127.0.0.1",
        access_log: Annotated[
            bool,
            typer.Option(
                help="A line per HTTP request on standard output (uvicorn's access log). Off "
                "by default: the tables' journals and the ledger record every command.",
            ),
        ] = False,
        checkpoint_every: Annotated[
            int,
            typer.Option(
                help="A table checkpoints its state every this many journal entries and "
                'starts from its latest snapshot (docs/server.md, "Snapshots"); 0: never.',
                min=0,
            ),
        ] = 1000,
        chain_check: Annotated[
            ChainCheck,
            typer.Option(
                help="When the history is checked — each table's entries before its snapshot "
                "(their chain, and their money against the ledger) and the ledger's own sums: "
                "'background' (the tables open at once; a worker process checks, and locks "
                "a table that does not verify) or 'startup' (before they open).",
                case_sensitive=False,
            ),
        ] = ChainCheck.background,
        idempotency_hours: Annotated[
            float,
            typer.Option(
                help="Hours an idempotency record (a money-moving request's key and first "
                "answer) is kept; then it is deleted, and the key is a new key again "
                '(docs/server.md, "Idempotency"). 0: kept for ever.',
                min=0,
            ),
        ] = 24.0,
        fast_path: Annotated[
            bool,
            typer.Option(
                help='Table commands answered by the fast path (docs/server.md, "Inside a '
                "command\"); --no-fast-path: by FastAPI's route alone, the simpler path "
                "the benchmarks compare it with.",
            ),
        ] = True,
        no_front: Annotated[
            bool,
            typer.Option(
                "--no-front",
                hidden=True,
                help="Accepted, and does nothing: the server is one process.",
            ),
        ] = False,
        demo: Annotated[
            bool,
            typer.Option(
                help="A new floor gets demo tables and accounts, their passwords printed "
                "once. While demo accounts keep those passwords, a --host other machines "
                "reach (not 127.0.0.1 / ::1 / localhost) is refused.",
            ),
        ] = True,
    ) -> None:
        """Run the live tables: FastAPI on uvicorn, on SQLite (default) or PostgreSQL.

        Applies pending migrations, verifies every table and the ledger, finishes
        interrupted rounds, and on first start creates demo tables and accounts (the
        passwords are printed once).
        """
        _need_server()
        from macau_tables.server.run import WORKERS_NEED_PG, is_postgresql, serve

        _check_day_start(gaming_day_start)
        if workers > 1 and not is_postgresql(database_url):
            raise InvalidInput(WORKERS_NEED_PG)
        serve(
            host,
            port,
            database_url,
            betting_seconds=betting_seconds,
            action_seconds=action_seconds,
            gaming_day_start=gaming_day_start,
            workers=workers,
            internal_host=internal_host,
            access_log=access_log,
            fast_path=fast_path,
            checkpoint_every=checkpoint_every,
            chain_check=chain_check.value,
            idempotency_hours=idempotency_hours,
            demo=demo,
        )

    @db_app.command("upgrade", epilog="Example: macau-tables db upgrade --database-url floor.db")
    @handle_errors
    def upgrade_cmd(
        database_url: Annotated[str | None, typer.Option(help=URL_HELP)] = None,
    ) -> None:
        """Apply the pending schema migrations (Alembic) and say which."""
        _need_server()
        from macau_tables.server.run import db_upgrade

        done = db_upgrade(database_url)
        typer.echo(f"applied {', '.join(done)}" if done else "the database is up to date")

    @db_app.command(
        "administrators",
        epilog="Example: macau-tables db administrators ann ben --database-url floor.db",
    )
    @handle_errors
    def administrators_cmd(
        first: Annotated[str, typer.Argument(help="The first administrator's name.")],
        second: Annotated[str, typer.Argument(help="The second's (another person).")],
        database_url: Annotated[str | None, typer.Option(help=URL_HELP)] = None,
    ) -> None:
        """Create a floor's first two administrators (one creates a staff account, the
        other approves it) on a floor that has none — one upgraded from before the role.
        Their random passwords are printed once. Refused once the floor has one."""
        _need_server()
        from macau_tables.server.run import first_administrators

        for name, password in first_administrators(database_url, [first, second]).items():
            typer.echo(f"{name}  {password}")

    @db_app.command(
        "check",
        epilog="Example: macau-tables db check --database-url floor.db  "
        "(exit 2 if anything does not verify)",
    )
    @handle_errors
    def check_cmd(
        database_url: Annotated[str | None, typer.Option(help=URL_HELP)] = None,
        replay: Annotated[
            bool,
            typer.Option(
                "--replay",
                help="Also re-run every table's whole journal through its game's rules "
                "(every event re-derived; 0.09–0.23 ms an entry by game).",
            ),
        ] = False,
        json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    ) -> None:
        """Verify a server's database: the ledger, and every table's chain and money.

        What a start-up checks, in one read snapshot — beside a running server, on a copy
        restored from a backup, or on a file sent to a lab: the postings sum to zero (in all
        and per transaction) and every balance equals its postings; each table's journal
        chains from its stored text to the head its row names; the money its events moved
        is the ledger's; with --replay, every event re-derived by the rules. Exit 2 if
        anything does not verify."""
        _need_server()
        from macau_tables.server.checks import check_database

        _report_check(check_database(database_url, replay=replay), json)

    @db_app.command(
        "backup",
        epilog="Example: macau-tables db backup floor-copy.db --database-url floor.db",
    )
    @handle_errors
    def backup_cmd(
        target: Annotated[Path, typer.Argument(help="The backup: a new file.")],
        database_url: Annotated[str | None, typer.Option(help=URL_HELP)] = None,
        json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    ) -> None:
        """Copy a SQLite floor to a new file as of one moment — the server may be running
        — then check the copy as `db check` does (exit 2 if it does not verify).

        To restore: stop the server, put the copy in the database's place (its -wal and
        -shm files removed), start it. PostgreSQL: pg_dump or pg_basebackup, then
        `db check` on the restored database."""
        _need_server()
        from macau_tables.server.backup import backup_sqlite

        done = backup_sqlite(database_url, target)
        copied = {
            "source": str(done.source),
            "target": str(done.target),
            "bytes": done.size,
            "seconds": round(done.seconds, 3),
        }
        if not json:
            typer.echo(
                f"copied {done.source} to {done.target}: {done.size / 1e6:,.1f} MB in "
                f"{done.seconds:.1f} s"
            )
        _report_check(done.check, json, copied)

    @app.command(
        "bots",
        epilog="Example: macau-tables bots --url http://127.0.0.1:8000 --players 8 --seconds 60 "
        "--supervisor supervisor:PW --cashier cashier:PW  (the demo accounts' passwords, "
        "printed once by serve; or MACAU_TABLES_SUPERVISOR / MACAU_TABLES_CASHIER)",
    )
    @handle_errors
    def bots_cmd(
        url: Annotated[str, typer.Option(help="The server's base URL.")] = "http://127.0.0.1:8000",
        players: Annotated[int, typer.Option(help="How many bot players.", min=1)] = 4,
        seconds: Annotated[float, typer.Option(help="How long to play.", min=0.1)] = 60.0,
        supervisor: Annotated[
            str,
            typer.Option(
                help="name:password of a supervisor (creates the bot players); required",
                envvar="MACAU_TABLES_SUPERVISOR",
                show_default=False,
            ),
        ] = "",
        cashier: Annotated[
            str,
            typer.Option(
                help="name:password of a cashier (funds the bot players); required",
                envvar="MACAU_TABLES_CASHIER",
                show_default=False,
            ),
        ] = "",
        seed: Annotated[str, typer.Option(help="Seed of the bots' choices.")] = "bots",
    ) -> None:
        """Bot players at every table of the server, playing with the engines' strategies.

        The bots are created (by the supervisor) and funded (by the cashier) on first use;
        they join tables, bet, act when the rules wait for them, and cash out at the end.
        """
        _need_server()
        from macau_tables.server.bots import run_bots

        report = run_bots(url, players, seconds, supervisor, cashier, seed)
        typer.echo(report.summary())
