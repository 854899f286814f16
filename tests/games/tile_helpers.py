"""Helpers to stage Pai Gow / Taiwan Pai Kao rounds with chosen tiles at a tile table: the
round's facts played through the table's operations (``games.tilefacts``), then the
settings and the settlement as commands, as at any table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.money import Money
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import TileTable
from macau_tables.games.tiles.facts import actor_of, dealt_table, opened_table
from macau_tables.games.tiles.rounds import HOUSE, Regulation, RoundOptions, TileRound, woodpile_for
from macau_tables.games.tiles.settlement import Settlement
from macau_tables.tiles import Tile, parse_tiles

D = Actor.DEALER


def m(major: int) -> Money:
    return Money.of(major)


def tiles(*texts: str) -> list[Tile]:
    return list(parse_tiles(list(texts)))


def woodpile(rnd: TileRound, hands: dict[int, Sequence[str]], dice: Sequence[int]) -> list[Tile]:
    """A 32-tile order that deals ``hands`` (seat -> four tiles) with these ``dice``."""
    return woodpile_for(rnd, {s: parse_tiles(list(ts)) for s, ts in hands.items()}, dice)


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
) -> TileTable:
    """A table whose round is open, its bets placed and its tiles dealt (``hands``: seat ->
    four tiles; MOP amounts): waiting for the settings. Everyone has MOP 100,000 of chips
    unless ``wallets`` says otherwise."""
    people = {banker} | {p for p, _s, _a in bets} | {p for p, _c in cobank}
    chips = {p: m(100_000) for p in people if p != HOUSE}
    chips.update({p: m(v) for p, v in (wallets or {}).items()})
    return dealt_table(
        regulation.game, banker=banker, banker_seat=banker_seat, capital=m(capital),
        bets=[(p, s, m(a)) for p, s, a in bets], dice=dice,
        hands={s: tiles(*h) for s, h in hands.items()}, house_capital=m(house),
        places=places, options=options, cobankers=[(p, m(c)) for p, c in cobank],
        chips=chips,
    )  # fmt: skip


def opened(
    regulation: Regulation,
    people: Mapping[str, int],
    *,
    banker: str = "b",
    banker_seat: int = 1,
    capital: int = 100,
    house: int = 0,
    places: int = 8,
    options: RoundOptions | None = None,
    woodpile_built: bool = True,
) -> TileTable:
    """A table where ``people`` (name -> MOP of chips, the banker's included) sit, the
    banker opens the bank with ``capital`` and the dealer builds a physical woodpile
    (``woodpile_built``): bets, co-bank and rearranging are open."""
    chips = {p: m(v) for p, v in people.items()}
    t = opened_table(
        regulation.game, banker=banker, banker_seat=banker_seat, capital=m(capital),
        chips=chips, house_capital=m(house), places=places, options=options,
    )  # fmt: skip
    if woodpile_built:
        t.execute(Command(D, "build_woodpile", {}))
    return t


def rnd_of(t: TileTable) -> TileRound:
    """The table's round in play."""
    rnd = t.round
    assert rnd is not None
    return rnd


def bet(t: TileTable, person: str, seat: int, amount: Money) -> tuple[Event, ...]:
    return t.execute(Command(actor_of(person), "place_bet", {"seat": seat, "amount": amount.minor}))


def join(t: TileTable, person: str, capital: Money) -> tuple[Event, ...]:
    return t.execute(Command(actor_of(person), "join_bank", {"capital": capital.minor}))


def rearrange(t: TileTable, person: str, order: Sequence[int]) -> tuple[Event, ...]:
    return t.execute(Command(actor_of(person), "rearrange", {"order": list(order)}))


def set_tiles(t: TileTable, person: str, seat: int, front: Sequence[Tile]) -> tuple[Event, ...]:
    """``person`` (the dealer for the house or for a seat nobody may hold) sets ``seat``
    with ``front`` as one hand (PG-5.1 / TW-6a; the banker's seat too, PG-8.1)."""
    names: list[JsonValue] = [str(x) for x in front]
    return t.execute(Command(actor_of(person), "set_tiles", {"seat": seat, "front": names}))


def set_all(
    t: TileTable, fronts: dict[int, tuple[str, str]], banker_front: tuple[str, str]
) -> None:
    """Each seat of ``fronts`` set by its holder, then the banker by his authority."""
    rnd = rnd_of(t)
    for seat, front in fronts.items():
        holder = rnd.holder(seat)
        assert holder is not None
        set_tiles(t, holder, seat, tiles(*front))
    set_tiles(t, rnd.banker_authority(), rnd.banker_seat, tiles(*banker_front))


def settle(t: TileTable) -> Settlement:
    """The dealer turns the hands and settles; the round's settlement."""
    t.execute(Command(D, "settle", {}))
    result = t.last_result()
    assert result is not None
    return result


def nets(result: Settlement) -> dict[str, int]:
    """Each account's change in the round's accounts (``player:<name>``, ``house:bank``,
    ``house:commission``)."""
    out: dict[str, int] = {}
    for p in result.postings:
        out[p.account] = out.get(p.account, 0) + p.amount.minor
    return out
