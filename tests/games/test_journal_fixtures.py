"""Journals an earlier release wrote still replay and verify: each fixture in
data/checkpointed/ (scripts/journal_fixtures.py, kept as written) is a table of one game
through 12 rounds with checkpoints (each re-derives its state's digest on replay) and a
void; replayed by today's engines, every event is re-derived and the head is the same."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from macau_tables.core.errors import RuleViolation
from macau_tables.core.journal import Journal
from macau_tables.games import contract
from macau_tables.games.contract import Actor, Command
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


def test_a_replay_takes_only_a_superseded_citation_of_a_time_out() -> None:
    """A Pai Gow player's time-out cites PG-5.1; a journal written before cited PG-R10 for
    it, and its replay keeps that (SUPERSEDED_CITATIONS). Any other citation is refused."""
    game_binding = binding("paigow")
    data = json.loads((DATA / "paigow.json").read_text(encoding="utf-8"))
    entries = data["journal"]["entries"]
    first = next(i for i, e in enumerate(entries) if e["event"]["kind"] == "table.timed_out")
    recorded = entries[first]["event"]["data"]
    assert recorded["rule"] == "PG-R10"
    seeds = {label: bytes.fromhex(v) for label, v in data["seeds"].items()}

    def before() -> Any:
        head = Journal.from_json({**data["journal"], "entries": entries[:first]})
        return contract.replay(head, game_binding.open, seeds)

    args = {"actor": recorded["actor"], "op": recorded["op"]}
    now = before().execute(Command(Actor.SYSTEM, "time_out", args))
    assert now[0].to_json()["data"]["rule"] == "PG-5.1"
    old = before().execute(Command(Actor.SYSTEM, "time_out", {**args, "cited": "PG-R10"}))
    assert old[0].to_json()["data"]["rule"] == "PG-R10"
    with pytest.raises(RuleViolation):
        before().execute(Command(Actor.SYSTEM, "time_out", {**args, "cited": "PG-4.1"}))
