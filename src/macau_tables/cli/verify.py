"""`macau-tables verify JOURNAL.json`: check a journal's hash chain and replay it."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Annotated

import typer

import macau_tables.games
from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.core.errors import JournalError, MacauTablesError
from macau_tables.core.journal import Journal, replay


def load_game_modules() -> None:
    """Import every module of `macau_tables.games`, so that each registers its replayer."""
    for info in pkgutil.iter_modules(macau_tables.games.__path__):
        importlib.import_module(f"macau_tables.games.{info.name}")


def verify_journal(path: Path, expected_head: str | None = None) -> dict[str, object]:
    """Verify the chain, replay the events, and check the replay re-creates the same chain."""
    load_game_modules()  # every event kind registered before the events are read
    journal = Journal.load(path)  # verifies the chain
    journal.verify(expected_head)
    try:
        state = replay(journal)
    except MacauTablesError:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, AssertionError) as exc:
        # Fields typed loosely (dict[str, Any]) pass the load-time check; what a replayer
        # then trips on is content this code never writes.
        raise JournalError(
            f"{journal.game}: the events cannot be replayed; they hold what no table writes "
            f"({type(exc).__name__}: {exc})"
        ) from exc
    replayed = getattr(state, "journal", None)
    if isinstance(replayed, Journal) and replayed.head != journal.head:
        raise JournalError(
            f"replay of {journal.game} does not reproduce the journal: "
            f"head {replayed.head[:12]}… ≠ {journal.head[:12]}…"
        )
    return {
        "file": str(path),
        "game": journal.game,
        "entries": len(journal),
        "head": journal.head,
        "chain": "ok",
        "replay": "ok",
        "reproduced": isinstance(replayed, Journal),
    }


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `verify` to the main app."""
    del play_app

    @app.command(
        "verify",
        epilog="Example: macau-tables verify round-0001.json --head 3f2a…  (exit 2 if tampered)",
    )
    @handle_errors
    def verify_cmd(
        journal: Annotated[Path, typer.Argument(help="A journal file written by a table.")],
        head: Annotated[
            str | None,
            typer.Option("--head", help="The head hash published earlier, to anchor the chain."),
        ] = None,
        json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    ) -> None:
        """Check a journal's SHA-256 hash chain, then replay its events to rebuild the game."""
        report = verify_journal(journal, head)
        if json:
            print_json(report)
            return
        console.print(
            f"[green]ok[/green] {report['file']}: {report['game']}, {report['entries']} "
            f"events, chain intact, replay ok; head {report['head']}"
        )
