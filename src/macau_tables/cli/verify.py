"""`macau-tables verify JOURNAL.json`: check a journal offline — its hash chain, every
server seed against its commitment, and a replay through the rules.

Three files are understood: a journal written by ``play --journal``; a table's journal
exported by the server (``GET /tables/{id}/export`` as a supervisor or auditor); and a
player's excerpt of it (the same export as a player: the entries he may not see are
withheld, as their hashes only). See docs/operations.md, "For a player or a lab".
"""

from __future__ import annotations

import hashlib
import importlib
import json
import pkgutil
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

import macau_tables.games
from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.core.errors import (
    JournalError,
    JournalTampered,
    MacauTablesError,
    SeedNotRevealed,
)
from macau_tables.core.journal import (
    FORMAT,
    FORMAT_VERSION,
    Entry,
    Event,
    Journal,
    canonical_json,
    event_from_json,
    head_prefix,
    replay,
)
from macau_tables.core.rng import commitment as sha256_hex
from macau_tables.games.contract import SeedCommitted, SeedRevealed

EXCERPT = "macau-tables/journal-excerpt"


def load_game_modules() -> None:
    """Import every module of `macau_tables.games`, so that each registers its replayer."""
    for info in pkgutil.iter_modules(macau_tables.games.__path__):
        importlib.import_module(f"macau_tables.games.{info.name}")


# --- commitments -----------------------------------------------------------------------------


def check_commitments(entries: list[tuple[int, Event]]) -> dict[str, Any]:
    """Every revealed seed against the commitment published for its label before it.

    A reveal with no earlier commitment for its label, or a seed that does not hash
    (SHA-256) to it, is :class:`JournalTampered`. Commitments not revealed (the shoe,
    woodpile or shooter still in play) are listed, with the entry that committed them.
    """
    open_: dict[str, tuple[int, str]] = {}
    revealed = 0
    for seq, ev in entries:
        if isinstance(ev, SeedCommitted):
            if ev.label in open_:
                raise JournalTampered(
                    f"entry {seq}: {ev.label} is committed again before its seed was revealed "
                    f"(committed at entry {open_[ev.label][0]})"
                )
            open_[ev.label] = (seq, ev.commitment)
        elif isinstance(ev, SeedRevealed):
            if ev.label not in open_:
                raise JournalTampered(
                    f"entry {seq}: a seed is revealed for {ev.label}, never committed"
                )
            at, want = open_.pop(ev.label)
            try:
                seed = bytes.fromhex(ev.seed)
            except ValueError:
                raise JournalTampered(
                    f"entry {seq}: the seed revealed for {ev.label} is not hex"
                ) from None
            if sha256_hex(seed) != want:
                raise JournalTampered(
                    f"entry {seq}: the seed revealed for {ev.label} does not match its "
                    f"commitment (entry {at}): SHA-256 {sha256_hex(seed)[:16]}… ≠ {want[:16]}…"
                )
            revealed += 1
    return {
        "revealed": revealed,
        "unrevealed": [
            {"label": label, "entry": at, "commitment": c} for label, (at, c) in open_.items()
        ],
    }


# --- a whole journal ----------------------------------------------------------------------


def _replay(journal: Journal) -> tuple[object, int | None]:
    """Replay ``journal``; at a seed not revealed yet, replay what comes before it."""
    try:
        return replay(journal), None
    except SeedNotRevealed as exc:
        if exc.entry is None:
            raise
        stop = exc.entry
    prefix = Journal.from_json(
        {**journal.to_json(), "entries": [e.to_json() for e in journal.entries[:stop]]}
    )
    return replay(prefix), stop


def verify_journal(path: Path, expected_head: str | None = None) -> dict[str, object]:
    """Verify the chain and the commitments, replay the events, and check the replay
    re-creates the same chain (up to a seed not revealed yet, if any)."""
    load_game_modules()  # every event kind registered before the events are read
    obj = _read(path)
    if obj.get("format") == EXCERPT:
        return verify_excerpt(path, obj, expected_head)
    journal = Journal.from_json(obj)  # verifies the chain
    journal.verify(expected_head)
    seeds = check_commitments([(e.seq, e.event) for e in journal.entries])
    try:
        state, stop = _replay(journal)
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
    want = journal.head if stop is None else journal.entries[stop - 1].hash if stop else None
    if isinstance(replayed, Journal) and want is not None and replayed.head != want:
        raise JournalError(
            f"replay of {journal.game} does not reproduce the journal: "
            f"head {replayed.head[:12]}… ≠ {want[:12]}…"
        )
    return {
        "file": str(path),
        "game": journal.game,
        "entries": len(journal),
        "head": journal.head,
        "chain": "ok",
        "seeds": seeds,
        "replay": "ok" if stop is None else "partial",
        "replayed": len(journal) if stop is None else stop,
        "reproduced": isinstance(replayed, Journal),
    }


# --- a player's excerpt ---------------------------------------------------------------------


def verify_excerpt(path: Path, obj: dict[str, Any], expected_head: str | None) -> dict[str, object]:
    """A player's excerpt: every link of the chain, the hash of every entry shown, the
    revealed seeds against their commitments. Withheld entries hide their event, so the
    excerpt cannot be replayed: a lab replays the whole export."""
    if obj.get("version") != 1:
        raise JournalError(f"excerpt version {obj.get('version')!r} is not supported")
    game, header, raw = obj.get("game"), obj.get("header"), obj.get("entries")
    if not isinstance(game, str) or not isinstance(header, dict) or not isinstance(raw, list):
        raise JournalError("an excerpt needs a string 'game', an object 'header' and 'entries'")
    prev = hashlib.sha256(
        canonical_json(
            {"format": FORMAT, "version": FORMAT_VERSION, "game": game, "header": header}
        )
    ).hexdigest()
    shown: list[tuple[int, Event]] = []
    withheld = 0
    for i, e in enumerate(raw):
        if not isinstance(e, dict) or e.get("seq") != i:
            raise JournalTampered(f"entry {i}: missing, or its seq is not {i}")
        if e.get("prev_hash") != prev:
            raise JournalTampered(
                f"entry {i}: prev_hash does not match (previous entry changed or missing)"
            )
        h = e.get("hash")
        if not isinstance(h, str):
            raise JournalTampered(f"entry {i}: no hash")
        if e.get("withheld") is True:
            withheld += 1
        else:
            ev_raw = e.get("event")
            if not isinstance(ev_raw, dict):
                raise JournalError(f"entry {i}: needs an event object")
            ev = event_from_json(ev_raw)
            if Entry.compute_hash(i, ev, prev) != h:
                raise JournalTampered(f"entry {i}: hash does not match its content")
            shown.append((i, ev))
        prev = h
    if expected_head is not None and not prev.startswith(head_prefix(expected_head)):
        raise JournalTampered("the excerpt's chain does not end at the expected head")
    return {
        "file": str(path),
        "game": game,
        "entries": len(raw),
        "withheld": withheld,
        "head": prev,
        "chain": "ok",
        "seeds": check_commitments(shown),
        "replay": "not possible: a player's excerpt withholds entries; a lab replays the export",
        "replayed": 0,
        "reproduced": False,
    }


def _read(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise JournalError(f"{path}: not JSON ({exc})") from exc
    if not isinstance(obj, dict):
        raise JournalError(f"{path}: not a journal object")
    return obj


def _summary(report: dict[str, Any]) -> str:
    seeds = report["seeds"]
    pending = seeds["unrevealed"]
    parts = [f"{report['file']}: {report['game']}, {report['entries']} events, chain intact"]
    if report.get("withheld"):
        parts.append(f"{report['withheld']} withheld (not yours to see)")
    parts.append(f"{seeds['revealed']} seed(s) match their commitments")
    if pending:
        names = ", ".join(f"{p['label']} (entry {p['entry']})" for p in pending)
        parts.append(
            f"not revealed yet, still in play: {names} — what it decides is checked against "
            "the seed once revealed"
        )
    if report["replay"] == "ok":
        parts.append("replay ok")
    elif report["replay"] == "partial":
        parts.append(
            f"replay ok up to entry {report['replayed'] - 1}; entries {report['replayed']}… "
            "follow an unrevealed seed (export again once it is revealed)"
        )
    else:
        parts.append(str(report["replay"]))
    return "; ".join(parts) + f"; head {report['head']}"


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `verify` to the main app."""
    del play_app

    @app.command(
        "verify",
        epilog=(
            "Example: macau-tables verify baccarat-1.json --head 3f2a…  "
            "(exit 2, one line, if anything does not verify)"
        ),
    )
    @handle_errors
    def verify_cmd(
        journal: Annotated[
            Path, typer.Argument(help="A journal: a table's export, a player's excerpt, --journal.")
        ],
        head: Annotated[
            str | None,
            typer.Option("--head", help="The head hash published earlier, to anchor the chain."),
        ] = None,
        json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    ) -> None:
        """Check a journal's hash chain and server seeds, then replay it through the rules.

        The SHA-256 hash chain (to --head if given), every revealed server seed against its
        commitment, and a replay of the events through the rules (up to a seed not revealed
        yet). A table's export, a player's excerpt, or a --journal file of `play`."""
        report = verify_journal(journal, head)
        if json:
            print_json(report)
            return
        console.print("[green]ok[/green] " + escape(_summary(report)), highlight=False)
