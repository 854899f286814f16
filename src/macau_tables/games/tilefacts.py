"""A Pai Gow / Taiwan Pai Kao round at a tile table from its stated facts: who banks with
what capital, the co-bankers, the bets, the dice and the tiles as dealt.

A supervisor recomputes a disputed round from its facts (``paigow settle``); a test stages
a round with chosen tiles. Either way the round is played at a
:class:`~macau_tables.games.tiletable.TileTable`, the server's table, through its
operations: the banker is offered the bank first (``first_bank``), each person sits and buys
the chips he stakes, the dealer builds a physical woodpile and keys in the banker's dice
and every seat's four tiles as dealt (PG-1.4 / TW-2c, T-1), and tiles exposed in the deal
are reported (PG-2.2, PG-2.3, TW-4). The rules refuse what they refuse at any table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import JsonValue
from macau_tables.core.money import Money
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tileround import DEALER, HOUSE, RoundOptions, woodpile_for
from macau_tables.games.tiletable import TileTable, TileTableRules, open_table
from macau_tables.tiles import Tile

__all__ = ["actor_of", "dealt_table"]

#: the chips a person buys who stakes nothing stated (a table lets nobody sit without chips)
_SPARE = 1


def actor_of(person: str) -> Actor:
    """Who acts for a participant of the round: the dealer for the house and for a seat
    nobody may hold (PG-3.4 / PG-R10, PG-7.5 gap fill), else the player."""
    return Actor.DEALER if person in (HOUSE, DEALER) else Actor.player(person)


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

    ``hands`` gives the four tiles of seats (the others get the rest of the set, in no
    stated order), or ``woodpile`` all 32 in stack order. ``chips``: what each person
    buys in (default: what he stakes); ``house_capital``: the house's co-bank of a player's
    bank (PG-3.1 / TW-5e); ``banker="house"``: the house banks (PG-R6 gap fill)."""
    if (hands is None) == (woodpile is None):
        raise InvalidInput("give the tiles: the hands of seats, or the whole woodpile")
    house = house_capital if house_capital is not None else Money.zero(capital.currency)
    house_banks = banker == HOUSE
    if house_banks and house.is_positive():
        raise InvalidInput("when the house banks, its capital is the banker's capital")
    if not 1 <= banker_seat <= places:
        raise InvalidInput(f"the banker's seat must be 1..{places}")
    rules = TileTableRules(
        game=game,  # type: ignore[arg-type]
        places=places,
        round=options or RoundOptions(),
        house_capital=0 if house_banks else house.minor,
        house_bank_capital=capital.minor if house_banks else 0,
        currency=capital.currency.code,
        first_bank=banker_seat,
    )
    table = open_table(rules, "facts")
    stakes: dict[str, Money] = {}
    if not house_banks:
        stakes[banker] = capital
    for person, amount in [*cobankers, *((p, a) for p, _s, a in bets)]:
        stakes[person] = stakes.get(person, Money.zero(capital.currency)) + amount
    stakes.update(chips or {})
    _seat_everyone(table, banker if not house_banks else None, banker_seat, stakes, bets)
    if house_banks:
        table.execute(Command(Actor.DEALER, "house_banks", {}))
    else:
        table.execute(Command(Actor.player(banker), "open_bank", {"capital": capital.minor}))
    table.execute(Command(Actor.DEALER, "build_woodpile", {}))
    for person, amount in cobankers:
        table.execute(Command(actor_of(person), "join_bank", {"capital": amount.minor}))
    for person, seat, amount in bets:
        args: dict[str, JsonValue] = {"seat": seat, "amount": amount.minor}
        table.execute(Command(actor_of(person), "place_bet", args))
    rnd = table.round
    assert rnd is not None
    pile = list(woodpile) if woodpile is not None else woodpile_for(rnd, hands or {}, dice)
    dealt = rnd.stacks_for(dice)
    keyed: dict[str, JsonValue] = {
        str(seat): [str(t) for t in pile[4 * stack : 4 * stack + 4]]
        for seat, stack in sorted(dealt.items())
    }
    table.execute(Command(Actor.DEALER, "shake", {"dice": list(dice), "hands": keyed}))
    for seat, count in exposed:
        _report_exposed(table, seat, count)
        if table.round is not None and table.round.deal_void:
            break  # PG-2.3 / PG-R3: the deal is void; nothing after it was dealt
    return table


def _seat_everyone(
    table: TileTable,
    banker: str | None,
    banker_seat: int,
    stakes: Mapping[str, Money],
    bets: Sequence[tuple[str, int, Money]],
) -> None:
    """The banker at his seat, everyone else at the seat of his first bet if it is free,
    else at the first free one (the banker's seat stays free when the house banks); each
    buys in what he stakes."""
    places = table.rules.places
    seat_of: dict[str, int] = {}
    if banker is not None:
        seat_of[banker] = banker_seat
    people = [p for p in stakes if p != banker]
    wanted = {p: next((s for q, s, _a in bets if q == p), 0) for p in people}
    for person in people:
        taken = set(seat_of.values()) | {banker_seat}
        seat = wanted[person]
        if not 1 <= seat <= places or seat in taken:
            seat = next((s for s in range(1, places + 1) if s not in taken), 0)
        if not seat:
            raise InvalidInput(
                f"a {places}-place table seats {places} people: {len(stakes)} take part"
                + (" (the house banks: its seat stays free)" if banker is None else ""),
                rule=table.regulation.rule("PG-1.4"),
            )
        seat_of[person] = seat
    for person, seat in seat_of.items():
        who = actor_of(person)
        table.execute(Command(who, "sit", {"seat": seat}))
        amount = stakes.get(person, Money.zero())
        chips = amount.minor if amount.is_positive() else _SPARE
        table.execute(Command(who, "buy_in", {"amount": chips}))


def _report_exposed(table: TileTable, seat: int, count: int) -> None:
    """The dealer reports ``count`` more of a seat's face-down tiles turned up in the deal."""
    rnd = table.round
    if rnd is None or seat not in rnd.hands:
        raise InvalidInput(f"exposed: seat {seat} is not a seat of this deal")
    view = table.view(Actor.DEALER.viewer())
    shown = view.get("exposed")
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
    table.execute(Command(Actor.DEALER, "report_exposed", {"seat": seat, "tiles": tiles}))
