"""A Pai Gow / Taiwan Pai Kao round at a tile table from its stated facts: who banks with
what capital, the co-bankers, the bets, the dice and the tiles as dealt.

A supervisor recomputes a disputed round from its facts (``paigow settle``); a test stages
a round with chosen tiles. Either way the round is played at a
:class:`~macau_tables.games.tiles.table.TileTable`, the server's table, through its
operations: the banker is offered the bank first (``first_bank``), each person sits and buys
the chips he stakes, the dealer builds a physical woodpile and keys in the banker's dice
and every seat's four tiles as dealt (PG-1.4 / TW-2c, T-1), and tiles exposed in the deal
are reported (PG-2.2, PG-2.3, TW-4). The rules refuse what they refuse at any table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macau_tables.core import snapshot
from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.money import Money
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles.replays import open_table
from macau_tables.games.tiles.rounds import DEALER, HOUSE, Phase, RoundOptions, woodpile_for
from macau_tables.games.tiles.rules import TileTableRules
from macau_tables.games.tiles.table import TileTable
from macau_tables.tiles import Tile

#: this module was ``macau_tables.games.tilefacts``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tilefacts")

__all__ = ["actor_of", "deal", "dealt_table", "opened_table", "report_exposed", "seated_table"]

#: the chips a person buys who stakes nothing (a table seats nobody without chips)
_SPARE = 1


def actor_of(person: str) -> Actor:
    """Who acts for a participant of the round: the dealer for the house and for a seat
    nobody may hold (PG-3.4 / PG-R10, PG-7.5 gap fill), else the player."""
    return Actor.DEALER if person in (HOUSE, DEALER) else Actor.player(person)


def seated_table(
    game: str,
    *,
    banker: str,
    banker_seat: int,
    chips: Mapping[str, Money],
    house_capital: Money | None = None,
    house_bank_capital: Money | None = None,
    places: int = 8,
    options: RoundOptions | None = None,
    seats: Mapping[str, int] | None = None,
) -> TileTable:
    """A table with everyone of ``chips`` seated and bought in, the bank offered first to
    ``banker_seat`` (``first_bank``), where ``banker`` sits (the seat stays free when the
    house banks). Each other person sits at the seat ``seats`` gives him if it is free,
    else at the first free one. ``house_bank_capital``: what the house banks with when no
    seat takes the bank (PG-R6 gap fill; the rules' default if None)."""
    if not 1 <= banker_seat <= places:
        raise InvalidInput(f"the banker's seat must be 1..{places}")
    currency = next(iter(chips.values())).currency if chips else Money.zero().currency
    rules = TileTableRules(
        game=game,  # type: ignore[arg-type]
        places=places,
        round=options or RoundOptions(),
        house_capital=house_capital.minor if house_capital is not None else 0,
        **({} if house_bank_capital is None else {"house_bank_capital": house_bank_capital.minor}),
        currency=currency.code,
        first_bank=banker_seat,
    )
    table = open_table(rules, "facts")
    seat_of: dict[str, int] = {} if banker == HOUSE else {banker: banker_seat}
    for person in chips:
        if person in seat_of:
            continue
        taken = set(seat_of.values()) | {banker_seat}
        seat = (seats or {}).get(person, 0)
        if not 1 <= seat <= places or seat in taken:
            seat = next((s for s in range(1, places + 1) if s not in taken), 0)
        if not seat:
            raise InvalidInput(
                f"a {places}-place table seats {places} people, the banker's seat among them: "
                f"{len(chips)} take part",
                rule=table.regulation.rule("PG-1.4"),
            )
        seat_of[person] = seat
    for person, seat in seat_of.items():
        who = actor_of(person)
        table.execute(Command(who, "sit", {"seat": seat}))
        amount = chips.get(person, Money.zero(currency))
        table.execute(Command(who, "buy_in", {"amount": max(amount.minor, _SPARE)}))
    return table


def opened_table(
    game: str,
    *,
    banker: str,
    banker_seat: int,
    capital: Money,
    chips: Mapping[str, Money],
    house_capital: Money | None = None,
    places: int = 8,
    options: RoundOptions | None = None,
    seats: Mapping[str, int] | None = None,
) -> TileTable:
    """:func:`seated_table` with the bank opened: the banker's ``capital`` on the table
    (PG-4.4 / TW-5c) and the house's co-bank (PG-3.1 / TW-5e); ``banker="house"``: the
    house banks with ``capital`` (PG-R6 gap fill). The table waits for the woodpile."""
    house = house_capital if house_capital is not None else Money.zero(capital.currency)
    house_banks = banker == HOUSE
    if house_banks and house.is_positive():
        raise InvalidInput("when the house banks, its capital is the banker's capital")
    table = seated_table(
        game, banker=banker, banker_seat=banker_seat, chips=chips,
        house_capital=None if house_banks else house,
        house_bank_capital=capital if house_banks else None, places=places,
        options=options, seats=seats,
    )  # fmt: skip
    if house_banks:
        table.execute(Command(Actor.DEALER, "house_banks", {}))
    else:
        table.execute(Command(Actor.player(banker), "open_bank", {"capital": capital.minor}))
    return table


def deal(
    table: TileTable,
    dice: Sequence[int],
    *,
    hands: Mapping[int, Sequence[Tile]] | None = None,
    woodpile: Sequence[Tile] | None = None,
    cocked: bool = False,
) -> tuple[Event, ...]:
    """The dealer keys in the banker's ``dice`` and, unless they are ``cocked`` (PG-1.5 /
    TW-2e: shaken again), every seat's four tiles as dealt from a physical woodpile
    (PG-1.4 / TW-2c): ``hands`` gives the tiles of seats (the others get the rest of the
    set), or ``woodpile`` the stacks in order (the woodpile the table knows, if neither)."""
    if cocked:
        return table.execute(Command(Actor.DEALER, "shake", {"dice": list(dice), "cocked": True}))
    rnd = table.round
    if rnd is None:
        raise InvalidInput("no round is dealt: the bank is not open")
    if hands is not None and rnd.phase is Phase.BETTING:
        pile = woodpile_for(rnd, hands, dice)
    else:
        pile = list(woodpile if woodpile is not None else rnd.tiles)
    keyed: dict[str, JsonValue] = {}
    if rnd.phase is Phase.BETTING:  # (else the table refuses the dice: PG-1.1, PG-1.2)
        keyed = {
            str(seat): [str(t) for t in pile[4 * stack : 4 * stack + 4]]
            for seat, stack in sorted(rnd.stacks_for(dice).items())
        }
    return table.execute(Command(Actor.DEALER, "shake", {"dice": list(dice), "hands": keyed}))


def report_exposed(table: TileTable, seat: int, count: int) -> tuple[Event, ...]:
    """The dealer reports ``count`` more of a seat's face-down tiles turned up in the deal
    (PG-2.2, PG-2.3 / PG-R3, TW-4)."""
    rnd = table.round
    if rnd is None or seat not in rnd.hands:
        raise InvalidInput(f"exposed: seat {seat} is not a seat of this deal")
    shown = table.view(Actor.DEALER.viewer()).get("exposed")
    already = shown.get(str(seat), []) if isinstance(shown, dict) else []
    assert isinstance(already, list)
    face_down = [str(t) for t in rnd.hands[seat]]
    for t in already:
        face_down.remove(str(t))
    if not 1 <= count <= len(face_down):
        raise InvalidInput(
            f"exposed: seat {seat} has {len(face_down)} face-down tiles, not {count} to turn up",
            rule=table.regulation.rule("PG-2.2"),
        )
    tiles: list[JsonValue] = list(face_down[:count])
    return table.execute(Command(Actor.DEALER, "report_exposed", {"seat": seat, "tiles": tiles}))


def dealt_table(
    game: str,
    *,
    banker: str,
    banker_seat: int,
    capital: Money,
    bets: Sequence[tuple[str, int, Money]],
    dice: Sequence[int],
    hands: Mapping[int, Sequence[Tile]] | None = None,
    woodpile: Sequence[Tile] | None = None,
    house_capital: Money | None = None,
    places: int = 8,
    options: RoundOptions | None = None,
    cobankers: Sequence[tuple[str, Money]] = (),
    exposed: Sequence[tuple[int, int]] = (),
    chips: Mapping[str, Money] | None = None,
) -> TileTable:
    """A table whose round is dealt as stated, waiting for its settings (or, when exposed
    tiles voided the deal, for the shuffle again: PG-2.3 / PG-R3).

    ``hands`` gives the four tiles of seats (the others get the rest of the set), or
    ``woodpile`` all 32 in stack order. ``chips``: what each person buys in (default:
    what he stakes); each sits at the seat of his first bet when it is free."""
    if (hands is None) == (woodpile is None):
        raise InvalidInput("give the tiles: the hands of seats, or the whole woodpile")
    stakes: dict[str, Money] = {} if banker == HOUSE else {banker: capital}
    for person, amount in [*cobankers, *((p, a) for p, _s, a in bets)]:
        stakes[person] = stakes.get(person, Money.zero(capital.currency)) + amount
    stakes.update(chips or {})
    seats: dict[str, int] = {}
    for person, seat, _amount in bets:
        seats.setdefault(person, seat)
    table = opened_table(
        game, banker=banker, banker_seat=banker_seat, capital=capital, chips=stakes,
        house_capital=house_capital, places=places, options=options, seats=seats,
    )  # fmt: skip
    table.execute(Command(Actor.DEALER, "build_woodpile", {}))
    for person, amount in cobankers:
        table.execute(Command(actor_of(person), "join_bank", {"capital": amount.minor}))
    for person, seat, amount in bets:
        args: dict[str, JsonValue] = {"seat": seat, "amount": amount.minor}
        table.execute(Command(actor_of(person), "place_bet", args))
    deal(table, dice, hands=hands, woodpile=woodpile)
    for seat, count in exposed:
        report_exposed(table, seat, count)
        if table.round is not None and table.round.deal_void:
            break  # PG-2.3 / PG-R3: the deal is void; nothing after it was dealt
    return table
