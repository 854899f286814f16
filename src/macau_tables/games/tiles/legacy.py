"""The round machine's journals: the ``tiles.*`` events a Pai Gow / Taiwan Pai Kao round was
journalled in before the tile table (:mod:`macau_tables.games.tiles.table`) became the one
engine, read and verified by today's rules.

``play paigow|taiwan --journal`` wrote each round as such a journal (one round a file), and a
table's state held its rounds with one inside. Nothing writes them any more; what was
written still replays and verifies:

- the nine event kinds, as they were (:class:`RoundOpened` … :class:`RoundSettled`), so the
  journals load;
- :func:`replay_round`: a round's journal re-run through today's round
  (:class:`~macau_tables.games.tiles.rounds.TileRound`) and settlement
  (:func:`~macau_tables.games.tiles.settlement.settle`), every event re-derived — the settlement
  computed again — so that ``macau-tables verify`` finds the same chain, or the first
  difference;
- :func:`encoded_round` / :func:`renamed`: a round as a table's snapshot wrote it then, for
  the checkpoints of the journals a table wrote with its rounds in that layout
  (:func:`macau_tables.games.tiles.table.legacy_digest`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from macau_tables.core import snapshot
from macau_tables.core.errors import BetNotAllowed, InvalidInput, RuleViolation
from macau_tables.core.journal import Event, Journal, event_type
from macau_tables.core.ledger import Transaction
from macau_tables.core.money import Money, currency_by_code
from macau_tables.games.tiles.rounds import HOUSE, Phase, Regulation, RoundOptions, TileRound
from macau_tables.games.tiles.settlement import Settlement, settle
from macau_tables.tiles import Tile

#: this module was ``macau_tables.games.tilegame``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tilegame")

__all__ = [
    "BetPlaced",
    "CoBankJoined",
    "DiceShaken",
    "OldRound",
    "RoundOpened",
    "RoundSettled",
    "SeatSet",
    "StacksRearranged",
    "TilesExposed",
    "TilesShuffled",
    "encoded_round",
    "renamed",
    "replay_round",
    "settled_event",
]

# --- events --------------------------------------------------------------------------------


@event_type
class RoundOpened(Event):
    """PG-4.4 / TW-5c: the banker's capital on the table, the dealing announced."""

    kind: ClassVar[str] = "tiles.round_opened"
    game: str
    round_no: int
    places: int
    banker: str
    banker_seat: int
    banker_capital: int
    house_capital: int
    currency: str
    wallets: tuple[tuple[str, int], ...]
    options: dict[str, Any]
    pile: tuple[int, ...]  # stack indices still on the table (TW-R2 second round: 4 of 8)
    tiles: tuple[str, ...]  # the woodpile carried over from a first 4-place round, else ()
    exposed: tuple[str, ...]  # tiles face up from the first 4-place round (TW-2d)


@event_type
class TilesShuffled(Event):
    """PG-1.1 / TW-2a: the 32 tiles in woodpile order, stack i = tiles[4i:4i+4]."""

    kind: ClassVar[str] = "tiles.shuffled"
    tiles: tuple[str, ...]


@event_type
class CoBankJoined(Event):
    """PG-3.2 / TW-5e: a player joins the bank with capital, after the banker."""

    kind: ClassVar[str] = "tiles.cobank_joined"
    person: str
    capital: int


@event_type
class BetPlaced(Event):
    """PG-4.6 / TW-2g: a bet on a seat, before the dice."""

    kind: ClassVar[str] = "tiles.bet_placed"
    person: str
    seat: int
    amount: int


@event_type
class StacksRearranged(Event):
    """PG-2.1 / PG-R2 / TW-2f: a permutation of the stacks' order, before the dice."""

    kind: ClassVar[str] = "tiles.stacks_rearranged"
    person: str
    order: tuple[int, ...]


@event_type
class DiceShaken(Event):
    """PG-1.2 / TW-2b: four dice; ``valid`` False for a cocked die or one out (PG-1.5)."""

    kind: ClassVar[str] = "tiles.dice_shaken"
    dice: tuple[int, ...]
    valid: bool


@event_type
class TilesExposed(Event):
    """PG-2.2 / PG-2.3 / TW-4: tiles turned face up by accident in the deal."""

    kind: ClassVar[str] = "tiles.exposed"
    seat: int
    count: int


@event_type
class SeatSet(Event):
    """PG-5.1 / TW-6a: a seat's holder (or the banker's authority) sets the four tiles."""

    kind: ClassVar[str] = "tiles.seat_set"
    person: str
    seat: int
    front: tuple[str, ...]
    back: tuple[str, ...]


@event_type
class RoundSettled(Event):
    """PG-6, PG-R4, PG-R5 / TW-6c, TW-8: results, payouts and the postings."""

    kind: ClassVar[str] = "tiles.settled"
    results: tuple[dict[str, Any], ...]
    bank_shares: tuple[tuple[str, int], ...]
    commissions: tuple[tuple[str, int], ...]
    resets: tuple[int, ...]  # TW-6b: seats the dealer re-set
    compensation: tuple[dict[str, Any], ...]  # PG-7.2 / PG-R8
    postings: tuple[tuple[str, int], ...]


# --- the round machine's journals, read by today's rules ---------------------------------------
#
# Before the terminal game drove the table, ``play --journal`` wrote each round as the round
# machine journalled it (the events above, ``tiles.*``), and a table kept such a round inside
# its state. Those journals are still read: :func:`replay_round` re-derives every event of
# one through today's round (:class:`TileRound`) and settlement (:func:`settle`), and
# :func:`legacy_digest` the digest a table's checkpoint had when its state held them.

_OLD = "macau_tables.games.tilegame"
#: what a table's snapshot named otherwise before its round was a :class:`TileRound`
_RENAMED = {snapshot.class_name(RoundOptions): f"{_OLD}:RoundOptions"}


@dataclass
class OldRound:
    """A round of the round machine rebuilt from its events through today's rules:
    ``journal`` the events it journals now (the same as recorded, if the recorded ones
    follow the rules), ``round`` where it stands, ``settlement`` once settled."""

    regulation: Regulation
    opened: RoundOpened
    round: TileRound
    journal: Journal
    wallets: dict[str, int]
    settlement: Settlement | None = None
    settled: RoundSettled | None = None

    @classmethod
    def start(
        cls, regulation: Regulation, opened: RoundOpened, carried: OldRound | None = None
    ) -> OldRound:
        """The round ``opened`` opens (PG-4.4 / TW-5c: the banker has the capital he puts
        up); ``carried``: the first 4-place round whose woodpile it goes on with (TW-2d)."""
        cur = currency_by_code(opened.currency)
        options = RoundOptions.from_json(dict(opened.options))
        wallets = dict(opened.wallets)
        rnd = TileRound.open(
            regulation, banker=opened.banker, banker_seat=opened.banker_seat,
            banker_capital=Money(opened.banker_capital, cur),
            house_capital=Money(opened.house_capital, cur), places=opened.places,
            round_no=opened.round_no, options=options,
            carried=None if carried is None else carried.round,
        )  # fmt: skip
        if opened.banker != HOUSE and wallets.get(opened.banker, 0) < opened.banker_capital:
            raise RuleViolation(
                f"{opened.banker} cannot put {rnd.money(opened.banker_capital)} on the table",
                rule=regulation.rule("PG-4.4"),
            )
        if carried is None and opened.tiles:  # a file of the second 4-place round (TW-R2)
            pile = tuple(opened.pile)
            rnd = replace(
                rnd, pile=pile, carried=tuple(opened.exposed),
                tiles=tuple(Tile.parse(t) for t in opened.tiles), stack_order=pile,
                phase=Phase.BETTING,
            )  # fmt: skip
        else:
            opened = RoundOpened(
                game=regulation.game, round_no=opened.round_no, places=opened.places,
                banker=opened.banker, banker_seat=opened.banker_seat,
                banker_capital=opened.banker_capital, house_capital=rnd.house_capital,
                currency=cur.code, wallets=tuple(sorted(wallets.items())),
                options=options.to_json(), pile=rnd.pile,
                tiles=tuple(str(t) for t in rnd.tiles) if carried is not None else (),
                exposed=rnd.carried,
            )  # fmt: skip
        journal = Journal(regulation.game, {"regulation": regulation.title})
        journal.append(opened)
        return cls(regulation, opened, rnd, journal, wallets)

    def _committed(self, person: str) -> int:
        rnd = self.round
        total = sum(b.amount for b in rnd.bets if b.person == person)
        total += sum(c for p, c in rnd.cobankers if p == person)
        return total + (rnd.banker_capital if person == rnd.banker else 0)

    def _verify_wallet(self, person: str, amount: int, rule: str) -> None:
        have = self.wallets.get(person, 0)
        if self._committed(person) + amount > have:
            m = self.round.money
            raise BetNotAllowed(
                f"{person} has {m(have)}, {m(self._committed(person))} of it already on the table",
                rule=self.regulation.rule(rule),
            )

    def apply(self, ev: Event) -> Event:
        """One recorded event, taken through today's rules; the event as they journal it."""
        rnd = self.round
        new: Event
        if isinstance(ev, TilesShuffled):
            rnd = rnd.shuffle_tiles([Tile.parse(t) for t in ev.tiles])
            new = TilesShuffled(tuple(str(t) for t in rnd.tiles))
        elif isinstance(ev, CoBankJoined):
            rnd.verify_join_bank(ev.person, rnd.money(ev.capital))
            self._verify_wallet(ev.person, ev.capital, "PG-3.3")
            rnd = rnd.join_bank(ev.person, rnd.money(ev.capital))
            new = CoBankJoined(ev.person, ev.capital)
        elif isinstance(ev, BetPlaced):
            rnd.verify_place_bet(ev.person, ev.seat, rnd.money(ev.amount))
            self._verify_wallet(ev.person, ev.amount, "PG-4.6")
            rnd = rnd.place_bet(ev.person, ev.seat, rnd.money(ev.amount))
            new = BetPlaced(ev.person, ev.seat, ev.amount)
        elif isinstance(ev, StacksRearranged):
            rnd = rnd.rearrange(ev.person, ev.order)
            new = StacksRearranged(ev.person, tuple(ev.order))
        elif isinstance(ev, DiceShaken):
            rnd = rnd.shake_dice(ev.dice, valid=ev.valid)
            new = DiceShaken(tuple(ev.dice), ev.valid)
        elif isinstance(ev, TilesExposed):
            rnd = rnd.report_exposed(ev.seat, ev.count)
            new = TilesExposed(ev.seat, ev.count)
        elif isinstance(ev, SeatSet):
            rnd = rnd.set_tiles(ev.person, ev.seat, [Tile.parse(t) for t in ev.front])
            setting = rnd.settings[ev.seat]
            front = tuple(str(t) for t in setting.front.tiles)
            new = SeatSet(ev.person, ev.seat, front, tuple(str(t) for t in setting.back.tiles))
        elif isinstance(ev, RoundSettled):
            self.settlement = result = settle(rnd)
            new = self.settled = settled_event(rnd, result)
        else:
            raise InvalidInput(f"unexpected event {ev.kind} in a tile round")
        self.round = rnd
        self.journal.append(new)
        return new

    @property
    def transaction(self) -> Transaction | None:
        """The settlement's postings as the round machine posted them (its accounts)."""
        if self.settlement is None:
            return None
        memo = f"{self.regulation.game} round {self.round.round_no}"
        return Transaction.of(self.settlement.postings, memo=memo)


def settled_event(rnd: TileRound, result: Settlement) -> RoundSettled:
    """The round machine's record of a settlement (``tiles.settled``)."""
    return RoundSettled(
        results=result.records(rnd.seats_out),
        bank_shares=tuple((p, m.minor) for p, m in result.shares),
        commissions=tuple((p, m.minor) for p, m in result.commissions),
        resets=result.resets,
        compensation=tuple(result.compensation),
        postings=tuple((p.account, p.amount.minor) for p in result.postings),
    )


def replay_round(journal: Journal, regulation: Regulation) -> OldRound:
    """A round machine's journal (one round, ``tiles.*`` events) re-run through today's
    rules: every event re-derived (the settlement computed again), in a journal of its own
    that has the recorded one's head when they agree."""
    events = journal.events
    if not events or not isinstance(events[0], RoundOpened):
        raise InvalidInput("a round's journal starts with its opening")
    old = OldRound.start(regulation, events[0])
    for ev in events[1:]:
        old.apply(ev)
    return old


def _obj(name: str, fields: Mapping[str, Any]) -> Any:
    return {"o": [f"{_OLD}:{name}", dict(fields)]}


def encoded_round(old: OldRound | None) -> Any:
    """A round as the round machine's state wrote it in a snapshot."""
    if old is None:
        return None
    enc = snapshot.encode
    rnd, result = old.round, old.settlement
    money = rnd.money
    bets = [
        _obj("Bet", {"person": b.person, "seat": b.seat, "amount": enc(money(b.amount))})
        for b in rnd.bets
    ]
    results = [
        _obj(
            "BetResult",
            {
                "person": r.person,
                "seat": r.seat,
                "amount": enc(r.amount),
                "outcome": r.outcome,
                "action": enc(r.action),
                "net": enc(r.net),
                "commission": enc(r.commission),
                "bank_fee": enc(r.bank_fee),
            },
        )
        for r in (result.results if result is not None else ())
    ]
    fields = {
        "regulation": enc(old.regulation),
        "opened": enc(old.opened),
        "journal": enc(old.journal),
        "phase": {"e": [f"{_OLD}:Phase", "settled" if result is not None else rnd.phase.value]},
        "tiles": enc(rnd.tiles),
        "stack_order": enc(rnd.stack_order),
        "cobankers": enc([(p, money(c)) for p, c in rnd.cobankers]),
        "bets": {"l": bets},
        "rearranged_by": enc(list(rnd.rearranged_by)),
        "dice": enc(rnd.dice),
        "hands": enc(dict(rnd.hands)),
        "exposed": enc(dict(rnd.exposed)),
        "seats_out": enc(set(rnd.seats_out)),
        "settings_": enc(dict(result.settings if result is not None else rnd.settings)),
        "setters": enc(dict(rnd.setters)),
        "results": {"l": results},
        "settled": enc(old.settled),
        "transaction": enc(old.transaction),
        "void_deals": rnd.void_deals,
    }
    return _obj("Round", fields)


def renamed(value: Any) -> Any:
    """An encoded state with the classes :data:`_RENAMED` names under their names then."""
    if isinstance(value, list):
        return [renamed(v) for v in value]
    if not isinstance(value, dict):
        return value
    ((tag, body),) = value.items()
    if tag == "o":
        name, fields = body
        return {tag: [_RENAMED.get(name, name), {k: renamed(v) for k, v in fields.items()}]}
    if tag in ("e", "x", "lx", "tx"):
        name, rest = body
        return {tag: [_RENAMED.get(name, name), renamed(rest) if tag == "e" else rest]}
    if tag in ("c", "b", "q"):
        return value
    return {tag: renamed(body)}
