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
from macau_tables.games.baccarat import (
    bets,
    cards,
    dealing,
    events,
    hand,
    history,
    replays,
    roads,
    rules,
    state,
    table,
    views,
)
from macau_tables.games.baccarat.bets import (
    check_added,
    check_amount,
    check_change,
    check_differential,
    check_leave,
    check_spot,
    check_tie_change,
    differential,
    merged,
    side_kind,
    spot_holds,
    squeeze_holders,
)
from macau_tables.games.baccarat.cards import (
    MAX_DECKS,
    MIN_DECKS,
    MIN_SEATS,
    RANKS,
    SUITS,
    Card,
    Composition,
    KeyedShoe,
    check_keyed,
    composition,
    fresh_composition,
    full_set,
    parse_cards,
    rank_probabilities,
    unseen,
    value_probabilities,
)
from macau_tables.games.baccarat.dealing import (
    DEALER,
    SYSTEM,
    advance,
    after_hand,
    deal,
    machine_card,
    reveal,
    settle,
    third_card_due,
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
    voided,
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
    Hand,
    HandOutcome,
    HandResult,
    Step,
    banker_draws,
    holder_due,
    is_pair,
    next_step,
    outcome,
    play_out,
    player_draws,
    settle_bet,
    total,
)
from macau_tables.games.baccarat.history import (
    command_of,
    effective,
    void_span,
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
    check_cut,
    with_limits,
)
from macau_tables.games.baccarat.state import (
    apply,
)
from macau_tables.games.baccarat.table import (
    SERVER_SEED_BYTES,
    BaccaratTable,
)
from macau_tables.games.baccarat.views import (
    BET_OPERATIONS,
    pending,
    road_maps,
    shoe_results,
    shoe_roads,
    snapshot,
    view,
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
    "advance",
    "after_hand",
    "apply",
    "banker_draws",
    "check_added",
    "check_amount",
    "check_change",
    "check_cut",
    "check_differential",
    "check_keyed",
    "check_leave",
    "check_spot",
    "check_tie_change",
    "command_of",
    "composition",
    "deal",
    "differential",
    "effective",
    "fresh_composition",
    "full_set",
    "holder_due",
    "is_pair",
    "machine_card",
    "merged",
    "next_step",
    "open_table",
    "outcome",
    "parse_cards",
    "pending",
    "play_out",
    "player_draws",
    "rank_probabilities",
    "replay_baccarat",
    "reveal",
    "road_maps",
    "settle",
    "settle_bet",
    "shoe_results",
    "shoe_roads",
    "side_kind",
    "snapshot",
    "spot_holds",
    "squeeze_holders",
    "third_card_due",
    "total",
    "unseen",
    "value_probabilities",
    "view",
    "void_span",
    "voided",
    "with_limits",
]

# The game was one module, ``macau_tables.games.baccarat``: its snapshots (and the digests of the
# checkpoints journalled) name its classes so; every module of the package keeps that name.
for _module in (
    cards,
    rules,
    roads,
    hand,
    bets,
    events,
    state,
    dealing,
    history,
    views,
    table,
    replays,
):
    snapshot_home(_module.__name__, __name__)
