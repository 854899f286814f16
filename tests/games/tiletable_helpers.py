"""Helpers to drive a tile table (``games.tiletable``) through ``pending()`` and commands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macau_tables.core.journal import Journal, event_from_json
from macau_tables.core.ledger import Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, time_out
from macau_tables.games.tiles import TilePhase, TileTable, TileTableRules, open_table


def seated(
    game: str = "paigow",
    players: Sequence[str] = ("ann", "bob", "cy"),
    *,
    places: int = 8,
    buy_in: int = 100_000,
    **rules: object,
) -> TileTable:
    """A table with ``players`` at seats 1, 2, 3… each with ``buy_in`` avos of chips."""
    t = open_table(TileTableRules(game=game, places=places, **rules), "t1")  # type: ignore[arg-type]
    for seat, p in enumerate(players, start=1):
        t.execute(Command(Actor.player(p), "sit", {"seat": seat}))
        t.execute(Command(Actor.player(p), "buy_in", {"amount": buy_in}))
    return t


def funded_ledger(players: Sequence[str], amount: int = 100_000) -> Ledger:
    """A ledger whose wallets hold ``amount`` each (the cage → wallet deposits)."""
    led = Ledger()
    for p in players:
        led.post(Transaction.transfer("cage", f"player:{p}", Money(amount)))
    return led


def step_default(t: TileTable, rng: Rng) -> None:
    """Time out the first required pending actor (the rules' default)."""
    required = [p for p in t.pending() if p.default is not None]
    assert required, f"nothing to time out in {t.phase}"
    t.execute(time_out(required[0]), rng)


def bet_own_seats(t: TileTable, amount: int = 1_000) -> None:
    """Every seated player but the banker bets ``amount`` on his own seat."""
    for seat, p in t.seats().items():
        if t.can_place_bet(Actor.player(p), seat, Money(amount)):
            t.execute(Command(Actor.player(p), "place_bet", {"seat": seat, "amount": amount}))


def play_round(t: TileTable, rng: Rng, *, capital: int | None = None, bet: int = 1_000) -> None:
    """One round: the banker candidate opens (or the defaults decline), bets on own seats,
    every other step by time-out, until the table is back at the bank."""
    start = t.round_no if t.phase is TilePhase.BANK else t.round_no - 1
    for _ in range(100):
        if t.phase is TilePhase.BANK and t.round_no > start:
            return
        if t.phase is TilePhase.BANK and capital is not None:
            seat = t.bank_candidate()
            if seat is not None:
                who = Actor.player(t.seats()[seat])
                if t.can_open_bank(who, Money(capital)):
                    t.execute(Command(who, "open_bank", {"capital": capital}))
                    continue
        if t.phase is TilePhase.BETTING and bet:
            bet_own_seats(t, bet)
        step_default(t, rng)
    raise AssertionError("the round did not end")


def rechained(journal: Journal, edit: Mapping[int, dict[str, object]]) -> Journal:
    """A copy of ``journal`` with entry ``i``'s event data updated by ``edit[i]`` and the
    hash chain recomputed (a forger who rewrites the whole chain)."""
    out = Journal(journal.game, journal.header)
    for i, ev in enumerate(journal.events):
        raw = ev.to_json()
        if i in edit:
            data = dict(raw["data"])  # type: ignore[arg-type]
            data.update(edit[i])
            raw = {**raw, "data": data}
        out.append(event_from_json(raw))
    return out
