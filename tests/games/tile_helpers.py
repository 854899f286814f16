"""Helpers to stage Pai Gow / Taiwan Pai Kao rounds with chosen tiles."""

from __future__ import annotations

from collections.abc import Sequence

from macau_tables.core.money import Money
from macau_tables.games import tileround
from macau_tables.games.tilegame import Regulation, Round, RoundOptions, woodpile_for
from macau_tables.tiles import Tile, parse_tiles


def m(major: int) -> Money:
    return Money.of(major)


def woodpile(
    rnd: Round | tileround.TileRound, hands: dict[int, Sequence[str]], dice: Sequence[int]
) -> list[Tile]:
    """A 32-tile order that deals ``hands`` (seat -> four tiles) with these ``dice``."""
    parsed = {s: parse_tiles(list(ts)) for s, ts in hands.items()}
    if isinstance(rnd, tileround.TileRound):
        return tileround.woodpile_for(rnd, parsed, dice)
    return woodpile_for(rnd, parsed, dice)


def staged(
    regulation: Regulation,
    *,
    hands: dict[int, Sequence[str]],
    bets: Sequence[tuple[str, int, int]],
    banker: str = "bank",
    banker_seat: int = 1,
    capital: int = 1000,
    house: int = 0,
    dice: Sequence[int] = (1, 2, 3, 4),  # total 10: seat 2 first when the banker is 1
    options: RoundOptions | None = None,
    wallets: dict[str, int] | None = None,
    places: int = 8,
    cobank: Sequence[tuple[str, int]] = (),
) -> Round:
    """Open, shuffle, bet and shake: a round waiting for its settings."""
    people = {banker} | {p for p, _s, _a in bets} | {p for p, _c in cobank}
    funds = {p: m(100_000) for p in people}
    funds.update({p: m(v) for p, v in (wallets or {}).items()})
    rnd = Round.open(
        regulation,
        banker=banker,
        banker_seat=banker_seat,
        banker_capital=m(capital),
        house_capital=m(house),
        wallets=funds,
        options=options,
        places=places,
    )
    rnd.shuffle_tiles(woodpile(rnd, hands, dice))
    for person, amount in cobank:
        rnd.join_bank(person, m(amount))
    for person, seat, amount in bets:
        rnd.place_bet(person, seat, m(amount))
    rnd.shake_dice(dice)
    return rnd


def tiles(*texts: str) -> list[Tile]:
    return list(parse_tiles(list(texts)))
