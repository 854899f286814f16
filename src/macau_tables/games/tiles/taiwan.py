"""Taiwan Pai Kao (台灣牌九) — Portaria 15/90/M, in article order
(see ../shared/rules/taiwan-paikao-1990.md).

Where the regulation works like Pai Gow, the shared round of :mod:`.rounds` and its
settlement in :mod:`.settlement` implement it once, citing both texts (the table that plays
them: :mod:`.table`). What differs is here, visibly:

- Art. 1–2 (equipment, procedure): TW-1, TW-2a, TW-2c, TW-2e, TW-2f, TW-2g, TW-2h — as PG,
  ``TileRound``. **TW-2b**: when the count lands on the banker, the seat on his right
  is the first seat — ``TileRound.settlement_order``. **TW-2d**: 8 or 4 places, the house's
  choice per round; with 4, the next round deals the remaining 4 stacks and the used tiles
  lie face up — :data:`PLACES` and ``TileRound.open(carried=…)`` (TW-R2).
- Art. 2: **TW-2f** counts people (two players rearrange), not seats as PG-2.1 does —
  :data:`TAIWAN` ``rearrange_limit="people"``.
- Art. 3 (places): TW-3a … TW-3c — ``TileRound.place_bet``, ``TileRound.holder``. **TW-R6**: the
  largest bettor holds every place where his bet is the largest (no PG-7.5) —
  :data:`TAIWAN` ``one_seat_per_holder=False``, option ``one_seat_per_holder`` for a
  house that applies PG-7.5's limit. **TW-R5**: no
  counterpart of PG-3.4, the banker sets his own tiles whatever the house's co-bank (TW-3c
  庄家則不在此限) — ``TileRound.banker_authority``, option ``larger_stake_sets_banker``.
- Art. 4: **TW-4 / TW-R4** exposed tiles never void anything — :func:`exposed_effect`.
- Art. 5 (the banker): TW-5a, TW-5b (**TW-R7**: a declined bank goes to a person who bet),
  TW-5d — ``rounds.Rotation`` and ``TileTable.bank_candidate``; TW-5c —
  ``TileRound.open`` and ``settlement._settle_bets`` (commission included, TW-R3);
  **TW-5e** co-bankers after the banker and barred from other places —
  ``TileRound.join_bank`` / ``TileRound.place_bet`` (:data:`TAIWAN`
  ``cobanker_may_bet=False``).
- Art. 6 (winning): TW-6a — ``TileRound.set_banker``; **TW-6b / TW-R1** the players' forced
  setting and the dealer's re-set — :func:`forced_setting`, ``settlement.settle``;
  **TW-6c / TW-9a** no banker advantage — :func:`compare_seat`.
- Art. 7: TW-7a, **TW-7b** (no 地九王) — the tiles package, rule set ``tw1990``.
- Art. 8: **TW-8** 5% of every win — :data:`COMMISSION`, each winning bet on its own
  (``player_commission_default="bet"``); TW-R3 the bank charged on each bet it wins, taken
  as it collects it, inside the running balance, each bet's commission falling on the
  layers in proportion to what each took of it — ``settlement._settle_bets``,
  ``_bank_parts`` and ``_share_bank_result``.
- Refusals cite this text: :data:`CITE` maps the articles the shared mechanics cite by
  Pai Gow's numbering to this regulation's.
- Art. 9: **TW-9b** Gee Joon never converts — the tiles package, ``tw1990``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from types import MappingProxyType

from macau_tables.core import snapshot
from macau_tables.core.snapshot import snapshot_constant
from macau_tables.games.tiles.rounds import ExposedEffect, Regulation, SeatResult
from macau_tables.tiles import TW1990, Comparison, Hand, Setting, Tile, TileRules
from macau_tables.tiles.strategies import forced_setting as _forced

#: this module was ``macau_tables.games.taiwan``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.taiwan")

GAME = "taiwan"

#: TW-2d / TW-3a: the casino deals to 8 or 4 places each round.
PLACES = (8, 4)

# --- Art. 4 — exposed tiles ----------------------------------------------------------------


def exposed_effect(count: int, is_banker_stack: bool) -> ExposedEffect:
    """TW-4 / TW-R4: tiles turned face up by accident stay valid; the round goes on."""
    del count, is_banker_stack
    return ExposedEffect.PLAY_ON


# --- Art. 6 — setting and winning ----------------------------------------------------------


def forced_setting(tiles: Sequence[Tile], rules: TileRules = TW1990) -> Setting:
    """TW-6b / TW-R1: each player must make the back the highest two-tile hand of the four
    tiles; of two settings with an equal back, the one with the higher front."""
    return _forced(tiles, rules)


def compare_hand(player: Hand, banker: Hand) -> Comparison:
    """TW-6c / TW-9a: hands compare by T-2 alone; the banker has no advantage on a copy."""
    return player.compare(banker)


def compare_seat(player: Setting, banker: Setting) -> SeatResult:
    """TW-6c: the banker wins if both his pairs beat the player's, the player if both of
    his do; **if one pair is equal, the other decides**; one each, or both equal: a push."""
    front = compare_hand(player.front, banker.front)
    back = compare_hand(player.back, banker.back)
    results = {front, back} - {Comparison.EQUAL}
    if results == {Comparison.HIGHER}:
        return SeatResult.PLAYER
    if results == {Comparison.LOWER}:
        return SeatResult.BANKER
    return SeatResult.PUSH


# --- Art. 8 — commission -------------------------------------------------------------------

#: TW-8: the casino takes 5% of every win ("5% de todas as apostas ganhas").
COMMISSION = Fraction(5, 100)

# --- the articles of this text where the shared mechanics cite Pai Gow's --------------------

#: A Taiwan round's refusal cites the Taiwan text (the round cites Pai Gow's numbering).
CITE = {
    "PG-1.1": "TW-2a",  # the dealer shuffles first
    "PG-1.2": "TW-2b",  # four dice, shaken once per deal
    "PG-1.4": "TW-3a",  # 8 or 4 places, the banker's included
    "PG-1.5": "TW-2e",  # a cocked die: shaken again
    "PG-2.1": "TW-2f",  # rearranging: players then the banker, two players at most
    "PG-R2": "TW-2f",
    "PG-2.2": "TW-4",  # exposed tiles
    "PG-3.2": "TW-5e",  # betting on the banker's place is co-banking
    "PG-3.3": "TW-5e",
    "PG-3.4": "TW-R5",
    "PG-4.1": "TW-5a",  # two rounds at a time
    "PG-4.3": "TW-5b",
    "PG-4.4": "TW-5c",  # the capital on the table
    "PG-4.5": "TW-5c",  # never more than the capital
    "PG-4.6": "TW-2g",  # bets before the dice
    "PG-4.7": "TW-2g",  # none accepted, withdrawn or moved after
    "PG-4.9": "TW-5d",  # capital may grow, never shrink
    "PG-5.1": "TW-6a",  # each place sets its four tiles
    "PG-7.4": "TW-3c",  # one holder per place
    "PG-7.5": "TW-R6",  # no counterpart: a holder of several places (the option's limit)
    "PG-8.1": "TW-6a",  # the banker sets after the players
    "PG-8.2": "TW-6a",
    "PG-8.3": "TW-6b",  # the dealer opens the players' tiles
}

TAIWAN = Regulation(
    game=GAME,
    title="Taiwan Pai Kao, Portaria 15/90/M",
    tiles=TW1990,
    commission=COMMISSION,
    places=PLACES,
    compare_seat=compare_seat,
    exposed_effect=exposed_effect,
    cobanker_may_bet=False,  # TW-5e
    forced_setting=forced_setting,  # TW-6b
    bank_commission_default="per_bet",  # TW-R3
    records_compensation=False,  # no compensation rule in TW
    places_rule="TW-2d",
    banker_last_rule="TW-6a",
    player_commission_default="bet",  # TW-8: "5% de todas as apostas ganhas"
    rearrange_limit="people",  # TW-2f: 閒家只限兩人
    larger_stake_sets_banker=False,  # TW-R5: no PG-3.4 (TW-3c 庄家則不在此限)
    void_deal_rule="TW-4",  # never reached: TW-4 voids nothing
    one_seat_per_holder=False,  # TW-R6: no PG-7.5 (TW-3b, TW-3c)
    cite=MappingProxyType(CITE),
)


# a table snapshot names the regulation rather than writing its functions
snapshot_constant("macau_tables.games.taiwan:TAIWAN", TAIWAN)
