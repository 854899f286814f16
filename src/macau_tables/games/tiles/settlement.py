"""The settlement of a Pai Gow / Taiwan Pai Kao round: a pure function of the round dealt
and set (:class:`~macau_tables.games.tiles.rounds.TileRound`).

:func:`settle` turns every hand up and compares each seat with the banker (PG-6, TW-6c,
the dealer's TW-6b re-set first), settles the bets in settlement order within the bank's
capital (PG-4.5, PG-R4, TW-5c), shares the bank's result in layers (PG-R4a, TW-5e), takes
the commission (PG-4.2, PG-R5, TW-8, TW-R3), records what a holder owes (PG-7.2, PG-R8)
and writes the postings. It reads the round and changes nothing: the table journals what
it returns (:class:`macau_tables.games.tiles.table.RoundSettled`), and a replay computes the
very same.

The postings are in the round's accounts: a participant's :func:`~.rounds.wallet`, the
pot (:data:`~.rounds.POT`, nets to zero) and the house's commission; the table posts them
to its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from macau_tables.core import snapshot
from macau_tables.core.ledger import Posting, Transaction
from macau_tables.core.money import Money
from macau_tables.games.tiles.rounds import (
    HOUSE,
    HOUSE_COMMISSION,
    POT,
    Bet,
    SeatResult,
    TileRound,
    wallet,
)
from macau_tables.tiles import Setting
from macau_tables.tiles import settings as all_settings

#: this module was ``macau_tables.games.tilesettle``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tilesettle")

__all__ = [
    "BetResult",
    "Settlement",
    "settle",
]


@dataclass(frozen=True)
class BetResult:
    """One bet settled: ``action`` is the part that had action (PG-4.5, PG-R4)."""

    person: str
    seat: int
    amount: Money
    outcome: str  # "win", "lose", "push", "no_action"
    action: Money
    net: Money  # to the player, after commission
    commission: Money  # the player's commission on a win (PG-4.2, TW-8)
    bank_fee: Money | None = None  # TW-R3: taken from a bet the bank collects (per_bet)
    #: TW-R3: who of the bank took what of this bet (``take``) and the part of ``bank_fee``
    #: that falls on him (``fee``): (participant, take, fee), the house's part included.
    #: The settlement's working (what the table's ``RoundSettled`` records is each one's
    #: sum).
    bank_parts: tuple[tuple[str, Money, Money], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Settlement:
    """What :func:`settle` decides for a round.

    - ``settings``: every setting as turned up, the dealer's re-sets in (TW-6b);
      ``resets``: the seats he re-set, in settlement order;
    - ``seat_results``: each active seat against the banker (PG-6.3 / PG-6.4, TW-6c);
    - ``results``: every bet, in settlement order (each seat's in the order placed);
    - ``shares``: each bank participant's share of the result before his commission
      (PG-R4a), ``commissions`` what each pays (PG-R5 / TW-R3, never the house);
    - ``compensation``: PG-7.2 / PG-R8 records (no money moves for them);
    - ``bank_result``: the bank's result before commission (collected − paid);
    - ``postings``: zero-sum, in the round's accounts, merged per account in the order
      each first appears (``Transaction.of``).
    """

    settings: Mapping[int, Setting]
    resets: tuple[int, ...]
    seat_results: Mapping[int, SeatResult]
    results: tuple[BetResult, ...]
    shares: tuple[tuple[str, Money], ...]
    commissions: tuple[tuple[str, Money], ...]
    compensation: tuple[dict[str, Any], ...]
    bank_result: Money
    postings: tuple[Posting, ...]

    def seat_result(self, seat: int, seats_out: frozenset[int]) -> str:
        """A bet's seat as recorded: the seat's result, ``seat_out`` for a seat its exposed
        tiles took out (PG-2.3), ``push`` for a seat that took no part."""
        if seat in seats_out:
            return "seat_out"
        return self.seat_results.get(seat, SeatResult.PUSH).value

    def records(self, seats_out: frozenset[int]) -> tuple[dict[str, Any], ...]:
        """The bets as the journal records them (minor units)."""
        return tuple(
            {
                "person": r.person,
                "seat": r.seat,
                "amount": r.amount.minor,
                "outcome": r.outcome,
                "action": r.action.minor,
                "net": r.net.minor,
                "commission": r.commission.minor,
                "seat_result": self.seat_result(r.seat, seats_out),
            }
            for r in self.results
        )

    def bank_fees(self) -> Money:
        """TW-R3: the commission the house took out of the bets the bank collected."""
        zero = self.bank_result * 0
        return sum((r.bank_fee for r in self.results if r.bank_fee is not None), zero)

    def bank_net_result(self) -> Money:
        """The bank's result after every commission its participants pay: what the bank's
        wallets gain or lose in the round (PG-4.5 / TW-5c: never beyond the capital)."""
        zero = self.bank_result * 0
        shares = sum((s for _p, s in self.shares), zero)
        return shares - sum((c for _p, c in self.commissions), zero)


def settle(rnd: TileRound) -> Settlement:
    """Compare every seat with the banker and settle in settlement order (PG-6, PG-R4,
    PG-R5, TW-6b, TW-6c, TW-8, TW-R3); ``rnd`` as it is when the banker has set."""
    rnd.verify_settle()
    reg = rnd.regulation
    settings = dict(rnd.settings)
    resets: list[int] = []
    if reg.forced_setting is not None:
        # TW-6b / TW-R1: the dealer re-sets a player whose back is not the highest
        # possible, to the highest back (and, of two such, the higher front).
        for seat in rnd.active_seats():
            if not rnd.follows_forced(seat, settings[seat].front.tiles):
                settings[seat] = reg.forced_setting(rnd.hands[seat], reg.tiles)
                resets.append(seat)
    banker_setting = settings[rnd.banker_seat]
    seat_results = {
        seat: reg.compare_seat(settings[seat], banker_setting) for seat in rnd.active_seats()
    }
    results = _settle_bets(rnd, seat_results)
    shares, commissions = _share_bank_result(rnd, results)
    compensation = _compensation(rnd, seat_results, banker_setting, results)
    return Settlement(
        settings=settings,
        resets=tuple(resets),
        seat_results=seat_results,
        results=tuple(results),
        shares=tuple(shares),
        commissions=tuple(commissions),
        compensation=tuple(compensation),
        bank_result=_bank_result(rnd, results),
        postings=Transaction.of(_postings(results, shares, commissions)).postings,
    )


# --- PG-R4 / PG-4.5 / TW-5c: the bets within the bank's capital ------------------------------


def _bank_fee_in_balance(rnd: TileRound) -> bool:
    """TW-R3 (``per_bet``): the house takes its commission out of each bet the bank
    collects, inside the running balance. Never when the bank is the house's alone (no
    commission on the house's own share)."""
    mode = rnd.options.bank_commission or rnd.regulation.bank_commission_default
    return mode == "per_bet" and any(p != HOUSE for p, _ in rnd.bank_participants())


def _collectable(rnd: TileRound, room: Money) -> Money:
    """TW-5c with TW-R3: the most the bank may collect from one bet when its net gain may
    grow by ``room`` at most, the commission ``floor(a × r)`` coming out of it: the largest
    ``a`` with ``a − floor(a × r) ≤ room`` is ``floor(room / (1 − r))``."""
    r = rnd.regulation.commission
    return rnd.money(room.minor * r.denominator // (r.denominator - r.numerator))


def _bank_parts(
    rnd: TileRound, gross: Money, take: Money, fee: Money
) -> tuple[tuple[str, Money, Money], ...]:
    """TW-R3: who of the bank takes what of a bet it collects, and the part of the bet's
    commission that falls on each.

    The bank's running result before commission (``gross``) is shared in layers at every
    step as the round's result is (PG-R4a, TW-5e: banker first, then the co-bankers in the
    order they joined): what a layer takes of the bet is how much its share grows when the
    bank collects ``take``. The commission falls on the layers in proportion to what each
    took (TW-R3: 正庄先行 orders who takes, it does not shift the charge). Rounding: the
    bet's commission is already rounded down to the minor unit (PG-R5);
    :meth:`Money.allocate` splits it by largest remainder, ties to the earlier layer, so the
    parts sum exactly to what the house took (the postings balance) and each is within one
    minor unit of its exact share — never more than 5% of its take rounded up to the minor
    unit.
    """
    before = _layered(rnd, gross)
    after = _layered(rnd, gross + take)
    people = list(before)
    takes = [after[p] - before[p] for p in people]
    parts = fee.allocate([max(t.minor, 0) for t in takes])
    return tuple((p, t, f) for p, t, f in zip(people, takes, parts, strict=True) if t.is_positive())


def _collect(
    rnd: TileRound, gross: Money, want: Money, room: Money | None
) -> tuple[Money, Money, tuple[tuple[str, Money, Money], ...]]:
    """TW-R3 / TW-5c: what the bank collects of a losing bet (at most ``want``), the
    commission taken out of it and its parts (:func:`_bank_parts`). With ``room`` (the
    running balance), the bank's result net of the commission its participants pay grows
    by ``room`` at most: the house's own part of the commission is not charged (it stays
    with the house's share), so it makes no room for the bank to collect."""
    rate = rnd.regulation.commission
    take = want
    while True:
        fee = take.commission(rate)
        parts = _bank_parts(rnd, gross, take, fee) if take.is_positive() else ()
        charged = fee - rnd.money(sum(f.minor for p, _t, f in parts if p == HOUSE))
        if room is None or take - charged <= room:
            return take, fee, parts
        take = take - max(take - charged - room, rnd.money(1))


def _in_settlement_order(rnd: TileRound) -> list[Bet]:
    ordered: list[Bet] = []
    for seat in rnd.settlement_order():
        ordered.extend(b for b in rnd.bets if b.seat == seat)
    return ordered


def _settle_bets(rnd: TileRound, seat_results: Mapping[int, SeatResult]) -> list[BetResult]:
    """PG-R4: settle bets seat by seat in settlement order, each seat's bets in the order
    placed, within the bank's capital (PG-4.5, TW-5c): the running balance (default) or the
    cover (option).

    Commission (PG-4.2, TW-8): a player pays 4% / 5% of what he won, on his wins of the
    round together (``player_commission="round"``, PG's default: 「每局抽水」) or on each
    winning bet alone (``"bet"``, TW's default), rounded down (PG-R5). In ``per_bet`` bank
    mode (TW-R3) the house takes its 5% out of each bet the bank collects, as it collects
    it: the running balance is net of it, so the bank never wins or loses more than its
    capital, commission included (TW-5c); each bet records who of the bank took what of it
    and the part of the commission on each (:func:`_bank_parts`).
    """
    zero = rnd.money(0)
    capital = rnd.bank_capital
    bank_fee = _bank_fee_in_balance(rnd)
    ordered = _in_settlement_order(rnd)
    cover: dict[int, Money] = {}
    if rnd.options.settlement == "cover":
        left = capital
        for i, b in enumerate(ordered):
            if b.seat in seat_results:
                cover[i] = min(rnd.money(b.amount), left)
                left = left - cover[i]
    gross = zero  # the bank's running result before commission
    taken = zero  # the commission the house took out of it (TW-R3)
    charged = zero  # of which its participants pay (the house's own part is not charged)
    results: list[BetResult] = []
    for i, b in enumerate(ordered):
        amount = rnd.money(b.amount)
        res = seat_results.get(b.seat)
        if res is None or res is SeatResult.PUSH:
            outcome = "no_action" if res is None else "push"
            results.append(BetResult(b.person, b.seat, amount, outcome, zero, zero, zero))
            continue
        room: Money | None = None
        if rnd.options.settlement == "cover":
            action = cover[i]
        elif res is SeatResult.BANKER:  # the bank wins at most C (net)
            room = capital - (gross - charged)
            action = min(amount, _collectable(rnd, room) if bank_fee else room)
        else:  # the bank pays at most what it has
            action = min(amount, capital + gross - taken)
        fee = zero
        parts: tuple[tuple[str, Money, Money], ...] = ()
        if res is SeatResult.BANKER and bank_fee and action.is_positive():
            action, fee, parts = _collect(rnd, gross, action, room)
        if action.is_zero():
            results.append(BetResult(b.person, b.seat, amount, "no_action", zero, zero, zero))
        elif res is SeatResult.BANKER:
            gross, taken = gross + action, taken + fee
            charged = charged + fee - sum((f for p, _t, f in parts if p == HOUSE), zero)
            results.append(
                BetResult(b.person, b.seat, amount, "lose", action, -action, zero, fee, parts)
            )
        else:
            gross = gross - action
            results.append(BetResult(b.person, b.seat, amount, "win", action, action, zero))
    return _player_commissions(rnd, results)


def _player_commissions(rnd: TileRound, results: list[BetResult]) -> list[BetResult]:
    """PG-4.2 / TW-8 / PG-R5: the player's commission, rounded down. Base ``round``: a
    person's wins of the round together — each winning bet carries the part that brings the
    person's running total to ``floor(rate × wins so far)``, so the parts sum to the round's
    rounded commission; base ``bet``: each win on its own."""
    rate = rnd.regulation.commission
    base = rnd.options.player_commission or rnd.regulation.player_commission_default
    won: dict[str, Money] = {}
    out: list[BetResult] = []
    for r in results:
        if r.outcome != "win":
            out.append(r)
            continue
        if base == "bet":
            fee = r.action.commission(rate)
        else:
            before = won.get(r.person, rnd.money(0))
            won[r.person] = before + r.action
            fee = won[r.person].commission(rate) - before.commission(rate)
        out.append(replace(r, net=r.action - fee, commission=fee))
    return out


def _bank_result(rnd: TileRound, results: list[BetResult]) -> Money:
    return rnd.money(
        sum(r.action.minor for r in results if r.outcome == "lose")
        - sum(r.action.minor for r in results if r.outcome == "win")
    )


# --- PG-R4a / TW-5e / PG-R5 / TW-R3: the bank's layers and their commission ------------------


def _layers(rnd: TileRound) -> list[list[tuple[str, Money]]]:
    """PG-R4a / TW-5e: the core bank (banker + house, in proportion to capital, or the house
    after the banker), then each co-banking player in the order joined."""
    participants = rnd.bank_participants()
    core = [(p, c) for p, c in participants if p in (rnd.banker, HOUSE)]
    layers: list[list[tuple[str, Money]]] = []
    if rnd.options.house_layer == "after_banker":
        layers.extend([[x] for x in core])
    else:
        layers.append(core)
    layers.extend([[(p, rnd.money(c))] for p, c in rnd.cobankers])
    return layers


def _layered(rnd: TileRound, result: Money) -> dict[str, Money]:
    """A result shared in layers (banker first, 正庄先行): each layer takes it up to its
    capital. A gain beyond the whole capital (a gross result that only commission brings
    back within it, TW-R3) goes to the non-house participants in proportion to capital:
    every layer took its full part."""
    sign = -1 if result.is_negative() else 1
    left = abs(result)
    participants = rnd.bank_participants()
    shares: dict[str, Money] = {p: rnd.money(0) for p, _ in participants}
    for layer in _layers(rnd):
        cap = rnd.money(sum(c.minor for _, c in layer))
        take = min(left, cap)
        left = left - take
        parts = take.allocate([c.minor for _, c in layer])
        for (p, _), part in zip(layer, parts, strict=True):
            shares[p] = shares[p] + part * sign
    if left.is_positive():
        assert sign > 0, "PG-4.5: the bank never loses more than its capital"
        payers = [(p, c) for p, c in participants if p != HOUSE]
        for (p, _), part in zip(payers, left.allocate([c.minor for _, c in payers]), strict=True):
            shares[p] = shares[p] + part
    return shares


def _share_bank_result(
    rnd: TileRound, results: list[BetResult]
) -> tuple[list[tuple[str, Money]], list[tuple[str, Money]]]:
    """Each bank participant's share of the result (before his commission) and his
    commission; never commission on the house's own share (PG-R5, TW-R3).

    ``net`` (PG-R5): the result is shared in layers (PG-R4a), then each participant pays 4%
    of his net win. ``per_bet`` (TW-R3): the result before commission is shared in layers
    (PG-R4a, TW-5e) and each participant pays the parts of the commission that fell on
    him, bet by bet, in proportion to what he took of each bet the bank won
    (:func:`_bank_parts`): a layer that took nothing pays nothing. The house's part of it
    is no commission: it stays with the house's share. Nobody wins or loses more than his
    capital, commission included (TW-5c, :func:`_within_capital`).
    """
    rate = rnd.regulation.commission
    gross = _layered(rnd, _bank_result(rnd, results))
    if not _bank_fee_in_balance(rnd):
        fees = [
            (p, share.commission(rate))
            for p, share in gross.items()
            if p != HOUSE and share.is_positive()
        ]
        return list(gross.items()), fees
    paid = {p: rnd.money(0) for p in gross}
    for r in results:
        for p, _take, part in r.bank_parts:
            if p != HOUSE:
                paid[p] = paid[p] + part
    net = _within_capital(rnd, {p: share - paid[p] for p, share in gross.items()})
    shares = [(p, net[p] + paid[p]) for p in gross]
    return shares, [(p, fee) for p, fee in paid.items() if fee.is_positive()]


def _within_capital(rnd: TileRound, net: dict[str, Money]) -> dict[str, Money]:
    """TW-5c / TW-R3: no participant wins or loses more than his capital, commission
    included. A layer that paid commission on a win the bank then paid out, and whose share
    of a loss would take it past its capital with that commission, passes the part beyond
    its capital on to the others, in layer order (banker first, 正庄先行), each up to his own
    capital (likewise a win beyond a capital). The running balance keeps the bank's result
    net of commission within the whole capital, so they have room for it."""
    capital = dict(rnd.bank_participants())
    order = [p for layer in _layers(rnd) for p, _ in layer]
    out: dict[str, Money] = {}
    moved = rnd.money(0)
    for p in order:
        cap = capital[p]
        out[p] = max(-cap, min(cap, net[p]))
        moved = moved + net[p] - out[p]
    for p in order:
        if moved.is_zero():
            break
        cap = capital[p]
        step = min(moved, cap - out[p]) if moved.is_positive() else max(moved, -cap - out[p])
        out[p] = out[p] + step
        moved = moved - step
    assert moved.is_zero(), "TW-5c: the bank's result is within its capital"
    return out


# --- PG-7.2 / PG-R8: what a holder owes ------------------------------------------------------


def _compensation(
    rnd: TileRound,
    seat_results: dict[int, SeatResult],
    banker: Setting,
    results: list[BetResult],
) -> list[dict[str, Any]]:
    """PG-7.2 / PG-R8: a holder who lost (以致輸) where another setting would have won or
    pushed owes each other bettor of the seat — whatever his own outcome: a loss, or no
    action because the bank's capital ran out — what that bettor would have received had
    the seat been set the best such way — the round settled again with it (running balance,
    the bank's capital and commission included, PG-R4), so never more than the bank could
    have paid — less what he got. Recorded; the casino is not a party."""
    out: list[dict[str, Any]] = []
    reg = rnd.regulation
    if not reg.records_compensation:
        return out
    for seat, res in seat_results.items():
        if res is not SeatResult.BANKER:
            continue
        outcomes = {
            reg.compare_seat(alt, banker) for alt in all_settings(rnd.hands[seat], reg.tiles)
        }
        best = next((r for r in (SeatResult.PLAYER, SeatResult.PUSH) if r in outcomes), None)
        if best is None:
            continue
        again = _settle_bets(rnd, {**seat_results, seat: best})
        holder = rnd.setters[seat]
        for br, would in zip(results, again, strict=True):
            if br.seat != seat or br.person == holder:
                continue
            owed = would.net - br.net
            if owed.is_positive():
                out.append(
                    {
                        "seat": seat,
                        "holder": holder,
                        "bettor": br.person,
                        "better": best.value,
                        "owed": owed.minor,
                    }
                )
    return out


def _postings(
    results: list[BetResult],
    shares: list[tuple[str, Money]],
    commissions: list[tuple[str, Money]],
) -> list[Posting]:
    """Zero-sum postings: bets through the pot, the pot to the bank's participants,
    commission to the house."""
    posts: list[Posting] = []
    for r in results:
        if r.outcome == "lose":
            posts.append(Posting(wallet(r.person), -r.action))
            posts.append(Posting(POT, r.action))
        elif r.outcome == "win":
            posts.append(Posting(POT, -r.action))
            posts.append(Posting(wallet(r.person), r.action - r.commission))
            posts.append(Posting(HOUSE_COMMISSION, r.commission))
    for person, share in shares:
        posts.append(Posting(POT, -share))
        posts.append(Posting(wallet(person), share))
    for person, fee in commissions:
        posts.append(Posting(wallet(person), -fee))
        posts.append(Posting(HOUSE_COMMISSION, fee))
    return posts
