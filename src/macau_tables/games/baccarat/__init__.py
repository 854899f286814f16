"""Baccarat (百家樂) — Macau statutory rules 《百家樂法定規章》 (seed 004).

Read beside ``../shared/rules/baccarat.md``: the sections below follow the articles in order
(BA-1 … BA-18) and each rule is implemented once, citing its ID; the options the statute
leaves to the house are the Readings BA-R1 … BA-R7, gathered in :class:`BaccaratRules`.

:class:`BaccaratTable` is a live table over shoes and follows the table contract
(:mod:`macau_tables.games.contract`): operations ``verify_x`` / ``can_x`` / ``x`` name their
:class:`~macau_tables.games.contract.Actor` and emit events; :meth:`BaccaratTable.apply` is
the only place state changes; :meth:`BaccaratTable.pending` says who may act; each viewer
sees :meth:`BaccaratTable.view`; replay re-runs the operations and demands the same events.

Information model: a shoe is committed (``SeedCommitted``) and its order derived from the
server seed with ``Rng.for_event(seed, table_id, "shoe:<n>")``; the order is in no event and
no view. Cards are dealt face down (an event without the card) and become public when they
are revealed (BA-7.1 Player first; BA-16 the squeeze by the seated player with the largest
bet on the side, the dealer on a time-out); burned cards stay face down (BA-2.1, BA-8) but
for the first card turned under BA-2.1's second method; the seed is revealed when the shoe
ends (BA-3.1, BA-3.2).

The engine is pure: no I/O, no clock, no randomness of its own (chance enters as an
:class:`~macau_tables.core.rng.Rng` or a revealed seed) and owns no ledger: the events that
move money carry their :class:`~macau_tables.core.ledger.Movement`.
"""

from __future__ import annotations

from macau_tables.core.snapshot import snapshot_home
from macau_tables.games.baccarat import cards, events, hand, replays, roads, rules, table
from macau_tables.games.baccarat.cards import (
    MAX_DECKS,
    MIN_DECKS,
    MIN_SEATS,
    RANKS,
    SUITS,
    Card,
    Composition,
    KeyedShoe,
    composition,
    fresh_composition,
    full_set,
    parse_cards,
    rank_probabilities,
    value_probabilities,
)
from macau_tables.games.baccarat.events import (
    BetChanged,
    BetPlaced,
    CardExposed,
    CardsBurned,
    CardsDealt,
    CardsKeyed,
    CardsRevealed,
    ChipsBought,
    CutCardPlaced,
    DealingErrorCorrected,
    HandSettled,
    HandVoided,
    PlayerJoined,
    PlayerLeft,
    ShoeEnded,
    ShoeLoaded,
    ShoeOpened,
    ShoeShuffled,
    ThirdCardDealt,
)
from macau_tables.games.baccarat.hand import (
    ALL_VALUES,
    BANKER_DRAWS_AGAINST,
    BANKER_DRAWS_WHEN_PLAYER_STOOD,
    NATURALS,
    NO_COMMISSION_BANKER_SIX,
    PAYS,
    PLAYER_DRAWS_ON,
    PLAYER_STANDS_ON,
    Bet,
    BetResult,
    BetSettlement,
    HandOutcome,
    HandResult,
    banker_draws,
    is_pair,
    outcome,
    play_out,
    player_draws,
    total,
)
from macau_tables.games.baccarat.replays import (
    open_table,
    replay_baccarat,
)
from macau_tables.games.baccarat.rules import (
    GAME,
    MIN_CUT_FROM_END,
    TIE_FULL,
    TIE_INCREASE_ONLY,
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BetKind,
    BetLimit,
    BurnMode,
    LastHand,
    Side,
    TieChoice,
)
from macau_tables.games.baccarat.table import (
    BET_OPERATIONS,
    DEALER,
    SERVER_SEED_BYTES,
    SYSTEM,
    BaccaratTable,
    Hand,
    Step,
)

__all__ = [
    "ALL_VALUES",
    "BANKER_DRAWS_AGAINST",
    "BANKER_DRAWS_WHEN_PLAYER_STOOD",
    "BET_OPERATIONS",
    "DEALER",
    "GAME",
    "MAX_DECKS",
    "MIN_CUT_FROM_END",
    "MIN_DECKS",
    "MIN_SEATS",
    "NATURALS",
    "NO_COMMISSION_BANKER_SIX",
    "PAYS",
    "PLAYER_DRAWS_ON",
    "PLAYER_STANDS_ON",
    "RANKS",
    "SERVER_SEED_BYTES",
    "SUITS",
    "SYSTEM",
    "TIE_FULL",
    "TIE_INCREASE_ONLY",
    "BaccaratBetKind",
    "BaccaratPhase",
    "BaccaratRules",
    "BaccaratTable",
    "Bet",
    "BetChanged",
    "BetKind",
    "BetLimit",
    "BetPlaced",
    "BetResult",
    "BetSettlement",
    "BurnMode",
    "Card",
    "CardExposed",
    "CardsBurned",
    "CardsDealt",
    "CardsKeyed",
    "CardsRevealed",
    "ChipsBought",
    "Composition",
    "CutCardPlaced",
    "DealingErrorCorrected",
    "Hand",
    "HandOutcome",
    "HandResult",
    "HandSettled",
    "HandVoided",
    "KeyedShoe",
    "LastHand",
    "PlayerJoined",
    "PlayerLeft",
    "ShoeEnded",
    "ShoeLoaded",
    "ShoeOpened",
    "ShoeShuffled",
    "Side",
    "Step",
    "ThirdCardDealt",
    "TieChoice",
    "banker_draws",
    "composition",
    "fresh_composition",
    "full_set",
    "is_pair",
    "open_table",
    "outcome",
    "parse_cards",
    "play_out",
    "player_draws",
    "rank_probabilities",
    "replay_baccarat",
    "total",
    "value_probabilities",
]

# The game was one module, ``macau_tables.games.baccarat``: its snapshots (and the digests of
# the checkpoints journalled) name its classes so; every module of the package keeps that name.
for _module in (cards, rules, hand, events, table, replays, roads):
    snapshot_home(_module.__name__, __name__)
