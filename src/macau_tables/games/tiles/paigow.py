"""Pai Gow (牌九) — Portaria 96/85/M, in article order (see ../shared/rules/paigow-1985.md).

The round's mechanics shared with Taiwan Pai Kao live in :mod:`.rounds` (the round,
``TileRound``) and :mod:`.settlement` (its settlement, ``settle``), the table that plays them
in :mod:`.table`; this module holds what is Pai Gow's own, and says for every article
where it is implemented.

- Art. 1 (equipment, the deal): PG-1.1 shuffle, PG-1.2 / PG-1.3 / PG-R1 the four dice and
  the seat count, PG-1.4 all 8 stacks dealt, PG-1.5 re-shake — ``TileRound``
  (``shuffle_tiles``, ``shake_dice``, ``first_steps``, ``dealing_order``); the woodpile's
  seed and the dice at the table — ``TileTable.shuffle`` / ``TileTable.shake``.
- Art. 2 (rearranging, exposed tiles): PG-2.1 / PG-R2 — ``TileRound.rearrange`` (two seats,
  several bettors of a seat counting once);
  PG-2.2 / PG-2.3 / PG-R3 — :func:`exposed_effect` below, ``TileRound.report_exposed``.
- Art. 3 (co-banking): PG-3.1 the house's co-bank — ``TileRound.open``; PG-3.2 / PG-3.3 —
  ``TileRound.join_bank``; PG-3.4 / PG-R10 setting authority —
  ``TileRound.banker_authority`` and :func:`banker_setting_by_house`.
- Art. 4 (the bank, bets, commission): PG-4.1 / PG-4.3 / PG-4.9 / PG-R6 / PG-R11 —
  ``rounds.Rotation`` and ``TileTable.bank_candidate`` / ``open_bank``; PG-4.2 the 4%
  of a person's wins of the round — :data:`COMMISSION`, ``settlement._player_commissions``;
  PG-4.4 — ``TileRound.open``, ``TileTable.open_bank``;
  PG-4.5 / PG-R4 / PG-R4a — ``settlement._settle_bets`` and ``_share_bank_result``;
  PG-4.6 / PG-4.7 / PG-4.8 — ``TileRound.place_bet``.
- Art. 5 (setting): PG-5.1 / PG-5.2 — ``TileRound.set_seat``; PG-5.3 / PG-5.4 / PG-5.5 /
  PG-R9 — the tiles package (T-2).
- Art. 6 (winning): PG-6.1 … PG-6.4 — :func:`compare_hand` and :func:`compare_seat` below.
- Art. 7 (several bettors): PG-7.1 / PG-R7 / PG-7.4 / PG-7.5 — ``TileRound.holder``;
  PG-7.2 / PG-R8 — ``settlement._compensation``; PG-7.3 tiles never leave the table: the
  engine has no operation that removes a tile.
- Art. 8 (order of revealing): PG-8.1 / PG-8.2 — ``TileRound.set_banker``; PG-8.3 only the
  dealer turns a set hand: the table reveals at ``TileTable.settle``, a dealer's operation.
- Art. 9: PG-9 the casino may replace a set: a new round starts from a new shuffle of a
  full set (``TileTable.shuffle``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from macau_tables.core import snapshot
from macau_tables.core.snapshot import snapshot_constant
from macau_tables.games.tiles.rounds import ExposedEffect, Regulation, SeatResult
from macau_tables.tiles import PG1985, Category, Comparison, Hand, Setting, Tile, TileRules
from macau_tables.tiles.strategies import strategy

#: this module was ``macau_tables.games.paigow``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.paigow")

GAME = "paigow"

# --- Art. 2 — exposed tiles ----------------------------------------------------------------


def exposed_effect(count: int, is_banker_stack: bool) -> ExposedEffect:
    """PG-2.2: one tile face up in the deal — the round goes on. PG-2.3 / PG-R3: two in a
    player seat's stack — that seat takes no part (its bets are returned); two in the
    banker's stack — the deal is void: reshuffle, shake again, bets stay."""
    if count < 2:
        return ExposedEffect.PLAY_ON
    return ExposedEffect.DEAL_VOID if is_banker_stack else ExposedEffect.SEAT_OUT


# --- Art. 3 — the banker's setting authority -----------------------------------------------


def banker_setting_by_house(tiles: Sequence[Tile], rules: TileRules = PG1985) -> Setting:
    """PG-R10: when the casino has the larger capital (PG-3.4), its house way sets."""
    return strategy("house-way").choose(tiles, rules)


# --- Art. 4 — commission -------------------------------------------------------------------

#: PG-4.2: the casino takes 4% of the amount won, each round (PG-R5: exact, rounded down).
COMMISSION = Fraction(4, 100)

# --- Art. 6 — winning ----------------------------------------------------------------------


def compare_hand(player: Hand, banker: Hand, *, front: bool) -> SeatResult:
    """One hand against the banker's.

    PG-6.1: equal points — the better combination (best tile) wins; a copy goes to the
    **banker**. PG-6.2: in front, the banker's 0 against the player's 0 goes to the banker
    whatever the tiles ("0" is a points hand worth 0; a pair, wong or gong is never 0).
    """
    pv, bv = player.value, banker.value
    if (
        front
        and pv.category is Category.POINTS
        and bv.category is Category.POINTS
        and pv.points == 0
        and bv.points == 0
    ):
        return SeatResult.BANKER
    c = player.compare(banker)
    return SeatResult.PLAYER if c is Comparison.HIGHER else SeatResult.BANKER


def compare_seat(player: Setting, banker: Setting) -> SeatResult:
    """PG-6.3: the banker wins if both his hands beat the player's, the player if both of
    his do; PG-6.4: one each is a push."""
    front = compare_hand(player.front, banker.front, front=True)
    back = compare_hand(player.back, banker.back, front=False)
    if front is back:
        return front
    return SeatResult.PUSH


# --- the regulation as data for the round machinery ----------------------------------------

PAIGOW = Regulation(
    game=GAME,
    title="Pai Gow, Portaria 96/85/M",
    tiles=PG1985,
    commission=COMMISSION,
    places=(8,),  # PG-1.4
    compare_seat=compare_seat,
    exposed_effect=exposed_effect,
    cobanker_may_bet=True,  # PG-3.3 forbids joining a co-banker's stake, not betting
    forced_setting=None,  # PG-5.1: each holder sets freely
    bank_commission_default="net",  # PG-R5
    records_compensation=True,  # PG-7.2
    places_rule="PG-1.4",
    banker_last_rule="PG-8.1",
)


# a table snapshot names the regulation rather than writing its functions
snapshot_constant("macau_tables.games.paigow:PAIGOW", PAIGOW)
