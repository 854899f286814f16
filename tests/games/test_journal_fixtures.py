"""Journals an earlier release wrote still replay and verify: each fixture in
data/checkpointed/ (scripts/journal_fixtures.py, kept as written) is a table of one game
through 12 rounds with checkpoints (each re-derives its state's digest on replay) and a
void; replayed by today's engines, every event is re-derived and the head is the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macau_tables.core.journal import Journal
from macau_tables.games import contract
from macau_tables.server.games import binding

DATA = Path(__file__).parent / "data" / "checkpointed"
GAMES = ("baccarat", "craps", "paigow", "taiwan")


@pytest.mark.parametrize("game", GAMES)
def test_a_journal_an_earlier_release_wrote_replays_and_verifies(game: str) -> None:
    game_binding = binding(game)  # its event kinds, registered
    data = json.loads((DATA / f"{game}.json").read_text(encoding="utf-8"))
    journal = Journal.from_json(data["journal"])
    journal.verify()
    kinds = [e.event.kind for e in journal.entries]
    assert "table.checkpoint" in kinds
    seeds = {label: bytes.fromhex(v) for label, v in data["seeds"].items()}
    table = contract.replay(journal, game_binding.open, seeds)
    assert table.journal.head == journal.head
    assert len(table.journal) == len(journal)
