"""Baccarat replay: a journal's table re-run operation by operation, and the rounds marked."""

from __future__ import annotations

from collections.abc import Mapping

from macau_tables.core.journal import (
    Journal,
    register_replayer,
)
from macau_tables.games import contract
from macau_tables.games.baccarat.events import (
    BetChanged,
    BetPlaced,
    CardExposed,
    CardsDealt,
    CardsRevealed,
    DealingErrorCorrected,
    HandSettled,
    HandVoided,
    ThirdCardDealt,
)
from macau_tables.games.baccarat.rules import GAME
from macau_tables.games.baccarat.table import BaccaratTable

__all__ = [
    "open_table",
    "replay_baccarat",
]


# ==========================================================================================
# Replay: re-run the operations, demand the same events
# ==========================================================================================


def open_table(journal: Journal, seeds: Mapping[str, bytes] | None = None) -> BaccaratTable:
    """The table a journal opens (its ``TableOpened``: game, table id, rules)."""
    return BaccaratTable.open_journal(journal, seeds)


def replay_baccarat(journal: Journal, seeds: Mapping[str, bytes] | None = None) -> BaccaratTable:
    """Re-run a journal's operations and demand its very events (``contract.replay``)."""
    table = contract.replay(journal, open_table, seeds)
    assert isinstance(table, BaccaratTable)
    return table


register_replayer(GAME, replay_baccarat)

# A round is a hand (recall, contract.rounds): its bets (BA-13), the deal (BA-7) and the
# squeeze (BA-16), the third cards (BA-9); it ends settled (BA-11, BA-17) or void (BA-10).
contract.mark_rounds(
    play=(
        BetPlaced,
        BetChanged,
        CardExposed,
        CardsDealt,
        CardsRevealed,
        ThirdCardDealt,
        DealingErrorCorrected,
    ),
    settle=(HandSettled,),
    void=(HandVoided,),
)
