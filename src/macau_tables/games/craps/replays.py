"""Craps replay: a journal's table re-run operation by operation, and the rounds marked."""

from __future__ import annotations

from collections.abc import Mapping

from macau_tables.core.journal import Journal, register_replayer
from macau_tables.games.contract import mark_rounds
from macau_tables.games.contract import replay as contract_replay
from macau_tables.games.craps.events import (
    BetIncreased,
    BetPlaced,
    BetTakenDown,
    DiceThrown,
    RollSettled,
    ThrowVoided,
)
from macau_tables.games.craps.rules import GAME
from macau_tables.games.craps.table import CrapsTable

__all__ = [
    "open_for_replay",
    "replay",
]


def open_for_replay(journal: Journal, seeds: Mapping[str, bytes]) -> CrapsTable:
    """The table of ``journal``'s opening event, knowing the seeds ``seeds`` (by
    commitment) and the commitments the journal publishes (for :func:`replay`)."""
    return CrapsTable.open_journal(journal, seeds)


def replay(journal: Journal, seeds: Mapping[str, bytes] | None = None) -> CrapsTable:
    """Re-run the journal's operations (:func:`contract.replay`) and demand the very events
    it holds; dice thrown by a shooter are re-derived from his seed once it is revealed."""
    table = contract_replay(journal, open_for_replay, seeds)
    assert isinstance(table, CrapsTable)
    return table


def _replay(journal: Journal) -> object:
    return replay(journal)


register_replayer(GAME, _replay)

# A round is a roll (recall, contract.rounds): the bets made, increased or taken down
# before it (CR-2 … CR-9, CR-R6), its throw (CR-1; a void throw is thrown again, CR-R1), and
# the settlement of every bet the roll decides.
mark_rounds(
    play=(BetPlaced, BetIncreased, BetTakenDown, DiceThrown, ThrowVoided),
    settle=(RollSettled,),
)
