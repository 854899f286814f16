"""Journals of the Pai Gow / Taiwan terminal game that an earlier release wrote still replay
and verify: each file of data/tiles_cli/ (scripts/tile_journal_fixtures.py, kept as written)
is checked as `macau-tables verify` checks it — the chain, the seeds against their
commitments, and a replay through today's rules that re-derives every event, the
settlement's included, and reproduces the chain to its head.

``round-*.json`` hold one round each in the round machine's ``tiles.*`` events (as
``play --journal`` wrote a file per round, and as ``paigow settle`` computed one);
``play-*.json`` a table's journal as ``play --journal`` writes it now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macau_tables.cli.verify import verify_journal
from macau_tables.core.journal import Journal

DATA = Path(__file__).parent / "data" / "tiles_cli"
FILES = sorted(DATA.glob("*.json"))


def test_the_fixtures_are_there() -> None:
    names = {p.stem for p in FILES}
    assert {"round-paigow-example", "round-taiwan-four-2", "play-taiwan-places4"} <= names
    assert sum(n.startswith("round-") for n in names) >= 15
    assert sum(n.startswith("play-") for n in names) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_terminal_games_journal_an_earlier_release_wrote_verifies(path: Path) -> None:
    report = verify_journal(path)
    assert report["chain"] == "ok"
    journal = Journal.load(path)
    if report["seeds"]["unrevealed"]:  # a woodpile still in play: replayed up to its seed
        assert report["replay"] == "partial"
        assert 0 < report["replayed"] < len(journal)
    else:
        assert report["replay"] == "ok"
    assert report["reproduced"] is True
    assert report["head"] == journal.head
    assert report["entries"] == len(journal)
    kinds = {e.event.kind for e in journal.entries}
    prefix = "tiles." if path.stem.startswith("round-") else "tiletable."
    assert any(k.startswith(prefix) for k in kinds)
    game = json.loads(path.read_text(encoding="utf-8"))["game"]
    assert game in ("paigow", "taiwan")


@pytest.mark.parametrize(
    "path", [p for p in FILES if p.stem.startswith("round-")], ids=lambda p: p.stem
)
def test_a_tampered_settlement_of_an_old_round_does_not_verify(path: Path, tmp_path: Path) -> None:
    """The replay re-derives the settlement: a payout changed (the chain recomputed, as a
    forger who knows the format would) is found."""
    from macau_tables.core.errors import MacauTablesError
    from tests.games.tiletable_helpers import rechained

    journal = Journal.load(path)
    last = len(journal) - 1
    ev = journal.events[last].to_json()
    data = ev["data"]
    assert isinstance(data, dict) and ev["kind"] == "tiles.settled"
    results = [dict(r) for r in data["results"]]  # type: ignore[union-attr]
    results[0]["net"] = int(results[0]["net"]) + 1
    forged = rechained(journal, {last: {"results": results}})
    out = tmp_path / "forged.json"
    forged.dump(out)
    with pytest.raises(MacauTablesError):
        verify_journal(out)


CHECKPOINTED = Path(__file__).parent / "data" / "checkpointed"


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_a_checkpoint_of_the_round_machines_layout_is_taken_only_as_its_states_digest(
    game: str,
) -> None:
    """The checkpoints of data/checkpointed/ are digests of a table's state when it held its
    rounds as the round machine kept them: a replay takes each only because it is the digest
    of that layout of the very state replayed (``legacy_digest``), never today's layout's; a
    checkpoint whose digest is another (the chain recomputed) does not replay."""
    from macau_tables.core.errors import ReplayMismatch
    from macau_tables.core.journal import Journal
    from macau_tables.games import contract
    from macau_tables.games import tiles as tiletable
    from macau_tables.games.contract import Checkpoint
    from macau_tables.server.games import binding
    from tests.games.tiletable_helpers import rechained

    data = json.loads((CHECKPOINTED / f"{game}.json").read_text(encoding="utf-8"))
    journal = Journal.from_json(data["journal"])
    seeds = {label: bytes.fromhex(v) for label, v in data["seeds"].items()}
    first = next(i for i, ev in enumerate(journal.events) if isinstance(ev, Checkpoint))
    head = Journal.from_json({**data["journal"], "entries": data["journal"]["entries"][:first]})
    table = contract.replay(head, binding(game).open, seeds)
    assert isinstance(table, tiletable.TileTable)
    recorded = journal.events[first]
    assert isinstance(recorded, Checkpoint)
    assert recorded.state == tiletable.legacy_digest(table)
    assert recorded.state != contract.checkpoint_event(table.snapshot_state()).state
    forged = rechained(journal, {first: {"state": "0" * 64}})
    with pytest.raises(ReplayMismatch):
        contract.replay(forged, binding(game).open, seeds)


TILE_CHECKPOINTED = sorted((Path(__file__).parent / "data" / "tile_checkpointed").glob("*.json"))


@pytest.mark.parametrize("path", TILE_CHECKPOINTED, ids=[p.stem for p in TILE_CHECKPOINTED])
def test_a_tile_table_checkpointed_at_every_step_an_earlier_release_wrote_replays(
    path: Path,
) -> None:
    """data/tile_checkpointed/ (scripts/tile_checkpoint_fixtures.py, kept as written): tile
    tables checkpointed after every step — the bank kept and passed, co-bank, a
    rearrangement, a 4-place woodpile's two rounds, physical woodpiles keyed in and a keyed
    deal corrected, a void deal, a supervisor's void, limits waiting for the round's end.
    Replayed by today's engine, every event is re-derived, every checkpoint's digest with it
    (the state in the layout of its day), and the chain ends at the same head."""
    from macau_tables.core.journal import Journal
    from macau_tables.games import contract
    from macau_tables.server.games import binding

    data = json.loads(path.read_text(encoding="utf-8"))
    journal = Journal.from_json(data["journal"])
    kinds = [e.event.kind for e in journal.entries]
    assert kinds.count("table.checkpoint") >= 20
    seeds = {label: bytes.fromhex(v) for label, v in data["seeds"].items()}
    table = contract.replay(journal, binding(data["game"]).open, seeds)
    assert table.journal.head == journal.head
    assert len(table.journal) == len(journal)
