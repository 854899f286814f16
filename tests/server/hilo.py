"""A test double of a table engine: "Hi-Lo", the smallest game that exercises the contract.

Players join with a buy-in (wallet → stack), the dealer shuffles (a committed server seed),
players bet (a hold: stack → wagers) and may withdraw a bet while betting is open, the
dealer deals each bettor a face-down card (private to its holder), each bettor reveals his
card (required; on a time-out the rules reveal it: ``HL-3``), then the house card is drawn
and the round settles in one event, as the four games' rounds do (one transaction, every
hold closed): higher wins even money from the house, equal pushes, lower loses. The seed
is revealed at the end of the round. Rule IDs ``HL-n`` are this double's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from macau_tables.core.errors import BetNotAllowed, InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.journal import Event, Journal, JsonValue, event
from macau_tables.core.ledger import Movement
from macau_tables.core.money import MOP
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Audience, Viewer, ViewerRole
from macau_tables.games.contract import (
    Actor,
    Command,
    Pending,
    Role,
    SeedCommitted,
    SeedRevealed,
    TableOpened,
    TimedOut,
    accounts,
    json_args,
    movement,
)

GAME = "hilo"
MAX_AMOUNT = 10**12
#: what a settled bet returns to its player's stack, in stakes: even money, the stake, none
PAYS = {"win": 2, "push": 1, "lose": 0}


def _amount(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(f"{what} must be an integer number of avos", rule="HL-1")
    if value <= 0 or value > MAX_AMOUNT:
        raise InvalidInput(f"{what} must be between 1 and {MAX_AMOUNT} avos", rule="HL-1")
    return value


@event
@dataclass(frozen=True, slots=True)
class Joined(Event):
    kind: ClassVar[str] = "hilo.joined"
    table_id: str
    player: str
    amount: int

    def movement(self) -> Movement:
        return movement(
            MOP,
            [
                (accounts.wallet(self.player), -self.amount),
                (accounts.stack(self.table_id, self.player), self.amount),
            ],
            memo=f"buy-in {self.player}",
        )

    def audience(self) -> Audience:
        return Audience.private(self.player)


@event
@dataclass(frozen=True, slots=True)
class Left(Event):
    kind: ClassVar[str] = "hilo.left"
    table_id: str
    player: str
    amount: int

    def movement(self) -> Movement:
        return movement(
            MOP,
            [
                (accounts.stack(self.table_id, self.player), -self.amount),
                (accounts.wallet(self.player), self.amount),
            ],
            memo=f"cash-out {self.player}",
        )

    def audience(self) -> Audience:
        return Audience.private(self.player)


@event
@dataclass(frozen=True, slots=True)
class Seated(Event):
    """Public: who sits (never his stack)."""

    kind: ClassVar[str] = "hilo.seated"
    player: str
    seated: bool


@event
@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    kind: ClassVar[str] = "hilo.bet_placed"
    table_id: str
    bet_id: str
    player: str
    amount: int

    def movement(self) -> Movement:
        return movement(
            MOP,
            [
                (accounts.stack(self.table_id, self.player), -self.amount),
                (accounts.wagers(self.table_id), self.amount),
            ],
            opens=[self.bet_id],
        )


@event
@dataclass(frozen=True, slots=True)
class BetWithdrawn(Event):
    kind: ClassVar[str] = "hilo.bet_withdrawn"
    table_id: str
    bet_id: str
    player: str
    amount: int

    def movement(self) -> Movement:
        return movement(
            MOP,
            [
                (accounts.wagers(self.table_id), -self.amount),
                (accounts.stack(self.table_id, self.player), self.amount),
            ],
            closes=[self.bet_id],
        )


@event
@dataclass(frozen=True, slots=True)
class CardDealt(Event):
    """Face down: only its holder (and the staff) see it."""

    kind: ClassVar[str] = "hilo.card_dealt"
    player: str
    card: int

    def audience(self) -> Audience:
        return Audience.private(self.player)


@event
@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    kind: ClassVar[str] = "hilo.card_revealed"
    player: str
    card: int


@event
@dataclass(frozen=True, slots=True)
class HouseCard(Event):
    kind: ClassVar[str] = "hilo.house_card"
    card: int


@event
@dataclass(frozen=True, slots=True)
class RoundSettled(Event):
    """Every bet of the round settled against the house card: one event, one transaction
    (its postings merged by account), every hold closed — as the four games settle a round
    (not an event for each bet: what a round costs is a real game's)."""

    kind: ClassVar[str] = "hilo.round_settled"
    table_id: str
    house: int
    results: tuple[dict[str, Any], ...]  # {bet_id, player, amount, result}, in bet order

    def movement(self) -> Movement:
        t = self.table_id
        wagers, house = accounts.wagers(t), accounts.house(t)
        pairs: list[tuple[str, int]] = []
        for r in self.results:  # the stake leaves the wagers; the house pays or keeps it
            a, back = r["amount"], PAYS[r["result"]] * r["amount"]
            pairs += [(wagers, -a), (accounts.stack(t, r["player"]), back), (house, a - back)]
        return movement(
            MOP, pairs, closes=[r["bet_id"] for r in self.results], memo=f"{t} round settled"
        )


@dataclass
class _Bet:
    bet_id: str
    player: str
    amount: int


@dataclass
class HiLoTable:
    """The Hi-Lo table engine (see the module docstring)."""

    game: ClassVar[str] = GAME
    _table_id: str
    min_bet: int = 100
    max_bet: int = 1_000_000
    seeds: Mapping[str, bytes] = field(default_factory=dict)
    phase: str = "idle"  # idle | betting | reveal
    round: int = 0
    stacks: dict[str, int] = field(default_factory=dict)
    bets: dict[str, _Bet] = field(default_factory=dict)
    cards: dict[str, int] = field(default_factory=dict)
    revealed: dict[str, int] = field(default_factory=dict)
    house: int | None = None
    next_bet: int = 0
    seed: bytes | None = None
    label: str = ""
    _journal: Journal = field(default_factory=lambda: Journal(GAME))

    @classmethod
    def create(cls, table_id: str, options: Mapping[str, Any]) -> HiLoTable:
        extra = sorted(set(options) - {"min_bet", "max_bet"})
        if extra:
            raise InvalidInput(f"hilo: unknown option(s) {extra}")
        t = cls(table_id)
        rules = {"min_bet": t.min_bet, "max_bet": t.max_bet, **dict(options)}
        t._emit([TableOpened(GAME, table_id, rules)])
        return t

    @classmethod
    def open(cls, journal: Journal, seeds: Mapping[str, bytes]) -> HiLoTable:
        first = journal.events[0]
        if not isinstance(first, TableOpened) or first.game != GAME:
            raise InvalidInput("a hilo journal starts with table.opened")
        t = cls(first.table_id, seeds=seeds)
        t._emit([first])
        return t

    @property
    def table_id(self) -> str:
        return self._table_id

    @property
    def journal(self) -> Journal:
        return self._journal

    # --- state ---------------------------------------------------------------------------

    def record(self, ev: Event) -> None:
        self._emit([ev])

    def apply(self, ev: Event) -> None:
        match ev:
            case TableOpened(rules=rules):
                self.min_bet, self.max_bet = int(rules["min_bet"]), int(rules["max_bet"])
            case Joined(player=p, amount=a):
                self.stacks[p] = self.stacks.get(p, 0) + a
            case Left(player=p, amount=a):
                self.stacks[p] -= a
                if not self.stacks[p]:
                    del self.stacks[p]
            case Seated():
                pass
            case SeedCommitted(label=label):
                self.phase, self.label = "betting", label
                self.round += 1
            case BetPlaced(bet_id=b, player=p, amount=a):
                self.bets[b] = _Bet(b, p, a)
                self.stacks[p] -= a
                self.next_bet += 1
            case BetWithdrawn(bet_id=b, player=p, amount=a):
                del self.bets[b]
                self.stacks[p] += a
            case CardDealt(player=p, card=c):
                self.cards[p] = c
                self.phase = "reveal"
            case CardRevealed(player=p, card=c):
                self.revealed[p] = c
            case HouseCard(card=c):
                self.house = c
            case RoundSettled(results=results):
                for r in results:
                    del self.bets[r["bet_id"]]
                    self.stacks[r["player"]] += PAYS[r["result"]] * r["amount"]
            case SeedRevealed():
                self.phase, self.seed, self.house = "idle", None, None
                self.cards.clear()
                self.revealed.clear()
            case TimedOut():
                pass
            case _:
                raise InvalidInput(f"hilo cannot apply {ev.kind}")

    def _emit(self, events: list[Event]) -> tuple[Event, ...]:
        for ev in events:
            self.apply(ev)
            self._journal.append(ev)
        return tuple(events)

    # --- operations ----------------------------------------------------------------------

    def verify_join(self, actor: Actor, amount: int) -> None:
        if actor.role is not Role.PLAYER:
            raise RuleViolation("only a player joins", rule="HL-0")
        if actor.name in self.stacks:
            raise RuleViolation(f"{actor.name} is already seated", rule="HL-0")
        if len(self.stacks) >= 10:
            raise RuleViolation("the table has 10 seats", rule="HL-0")
        _amount(amount, "buy-in")

    def join(self, actor: Actor, amount: int) -> tuple[Event, ...]:
        self.verify_join(actor, amount)
        return self._emit([Joined(self.table_id, actor.name, amount), Seated(actor.name, True)])

    def verify_leave(self, actor: Actor) -> None:
        if actor.name not in self.stacks:
            raise RuleViolation(f"{actor.name} is not seated", rule="HL-0")
        if any(b.player == actor.name for b in self.bets.values()):
            raise OutOfOrder("bets in play: leave after the round", rule="HL-5")

    def leave(self, actor: Actor) -> tuple[Event, ...]:
        self.verify_leave(actor)
        return self._emit(
            [Left(self.table_id, actor.name, self.stacks[actor.name]), Seated(actor.name, False)]
        )

    def verify_shuffle(self, actor: Actor, seed: str) -> bytes:
        if actor.role is not Role.DEALER:
            raise RuleViolation("the dealer shuffles", rule="HL-2")
        if self.phase != "idle":
            raise OutOfOrder("a round is under way", rule="HL-2")
        try:
            raw = bytes.fromhex(seed)
        except (ValueError, TypeError) as exc:
            raise InvalidInput("seed must be 64 hex digits", rule="HL-2") from exc
        if len(raw) != 32:
            raise InvalidInput("seed must be 64 hex digits", rule="HL-2")
        return raw

    def shuffle(self, actor: Actor, seed: str) -> tuple[Event, ...]:
        raw = self.verify_shuffle(actor, seed)
        self.seed = raw
        return self._emit([SeedCommitted(f"round-{self.round + 1}", commitment(raw))])

    def verify_bet(self, actor: Actor, amount: int) -> None:
        if actor.name not in self.stacks:
            raise RuleViolation(f"{actor.name} is not seated", rule="HL-0")
        if self.phase != "betting":
            raise BetNotAllowed("betting is closed", rule="HL-1")
        _amount(amount, "a bet")
        if not self.min_bet <= amount <= self.max_bet:
            raise BetNotAllowed(
                f"a bet is between {self.min_bet} and {self.max_bet} avos", rule="HL-1"
            )
        if amount > self.stacks[actor.name]:
            raise BetNotAllowed("the bet exceeds your chips at the table", rule="HL-1")

    def bet(self, actor: Actor, amount: int) -> tuple[Event, ...]:
        self.verify_bet(actor, amount)
        bet_id = f"b{self.next_bet}"
        return self._emit([BetPlaced(self.table_id, bet_id, actor.name, amount)])

    def verify_withdraw(self, actor: Actor, bet_id: str) -> _Bet:
        bet = self.bets.get(bet_id)
        if bet is None or bet.player != actor.name:
            raise RuleViolation(f"{actor.name} has no bet {bet_id!r}", rule="HL-1")
        if self.phase != "betting":
            raise BetNotAllowed("bets are down: no withdrawal after the deal", rule="HL-1")
        return bet

    def withdraw(self, actor: Actor, bet_id: str) -> tuple[Event, ...]:
        bet = self.verify_withdraw(actor, bet_id)
        return self._emit([BetWithdrawn(self.table_id, bet_id, bet.player, bet.amount)])

    def verify_deal(self, actor: Actor) -> None:
        if actor.role is not Role.DEALER:
            raise RuleViolation("the dealer deals", rule="HL-2")
        if self.phase != "betting":
            raise OutOfOrder("deal after betting", rule="HL-2")
        if not self.bets:
            raise OutOfOrder("no bets: nothing to deal", rule="HL-2")

    def deal(self, actor: Actor) -> tuple[Event, ...]:
        self.verify_deal(actor)
        assert self.seed is not None
        rng = Rng.for_event(self.seed, self.table_id, self.label)
        players = sorted({b.player for b in self.bets.values()})
        return self._emit([CardDealt(p, 1 + rng.below(13)) for p in players])

    def verify_reveal(self, actor: Actor) -> None:
        if self.phase != "reveal" or actor.name not in self.cards:
            raise OutOfOrder(f"{actor.name} has no card to reveal", rule="HL-3")
        if actor.name in self.revealed:
            raise OutOfOrder(f"{actor.name} already revealed", rule="HL-3")

    def reveal(self, actor: Actor) -> tuple[Event, ...]:
        self.verify_reveal(actor)
        out: list[Event] = [CardRevealed(actor.name, self.cards[actor.name])]
        self._emit(out)
        if len(self.revealed) == len(self.cards):
            out += self._settle()
        return tuple(out)

    def _settle(self) -> list[Event]:
        assert self.seed is not None
        rng = Rng.for_event(self.seed, self.table_id, self.label + "/house")
        house = 1 + rng.below(13)
        evs: list[Event] = [HouseCard(house)]
        rows: list[dict[str, Any]] = []
        for bet in sorted(self.bets.values(), key=lambda b: int(b.bet_id[1:])):
            card = self.cards[bet.player]
            result = "win" if card > house else "push" if card == house else "lose"
            rows.append(
                {"bet_id": bet.bet_id, "player": bet.player, "amount": bet.amount, "result": result}
            )
        evs.append(RoundSettled(self.table_id, house, tuple(rows)))
        evs.append(SeedRevealed(self.label, self.seed.hex()))
        return list(self._emit(evs))

    def verify_time_out(self, actor: Actor, who: str, op: str) -> Actor:
        if actor.role is not Role.SYSTEM:
            raise RuleViolation("only the table's clock times out", rule="HL-3")
        target = Actor.parse(who)
        if op != "reveal":
            raise InvalidInput(f"no default {op!r}", rule="HL-3")
        self.verify_reveal(target)
        return target

    def time_out(self, actor: Actor, who: str, op: str) -> tuple[Event, ...]:
        target = self.verify_time_out(actor, who, op)
        first = self._emit([TimedOut(who, op, "HL-3")])
        return first + self.reveal(target)

    # --- the contract --------------------------------------------------------------------

    def execute(self, command: Command, rng: Rng | None = None) -> tuple[Event, ...]:
        del rng
        a, op, args = command.actor, command.op, command.args
        if op in ("sit", "join"):  # (the four games' name for it, and its old one)
            json_args(args, ["amount"], op)
            return self.join(a, args.get("amount"))  # type: ignore[arg-type]
        if op == "leave":
            json_args(args, [], op)
            return self.leave(a)
        if op == "shuffle":
            json_args(args, ["seed"], op)
            return self.shuffle(a, args.get("seed"))  # type: ignore[arg-type]
        if op == "bet":
            json_args(args, ["amount"], op)
            return self.bet(a, args.get("amount"))  # type: ignore[arg-type]
        if op == "withdraw":
            json_args(args, ["bet_id"], op)
            return self.withdraw(a, str(args.get("bet_id")))
        if op == "deal":
            json_args(args, [], op)
            return self.deal(a)
        if op == "reveal":
            json_args(args, [], op)
            return self.reveal(a)
        if op == "time_out":
            json_args(args, ["actor", "op"], op)
            return self.time_out(a, str(args.get("actor")), str(args.get("op")))
        raise InvalidInput(f"hilo has no operation {op!r}", rule="HL-0")

    def pending(self) -> tuple[Pending, ...]:
        if self.phase == "idle":
            return (Pending(Actor.DEALER, ("shuffle",), None, "HL-2"),)
        if self.phase == "betting":
            players = tuple(
                Pending(Actor.player(p), ("bet", "withdraw", "leave"), None, "HL-1", False)
                for p in sorted(self.stacks)
            )
            return (*players, Pending(Actor.DEALER, ("deal",), None, "HL-2"))
        return tuple(
            Pending(Actor.player(p), ("reveal",), "reveal", "HL-3")
            for p in sorted(self.cards)
            if p not in self.revealed
        )

    def view(self, viewer: Viewer) -> dict[str, JsonValue]:
        me = viewer.name if viewer.role is ViewerRole.PLAYER else None
        staff = viewer.role in (ViewerRole.DEALER, ViewerRole.SUPERVISOR)
        cards: dict[str, JsonValue] = {}
        for p, c in self.cards.items():
            shown = p in self.revealed or p == me or staff
            cards[p] = c if shown else None
        out: dict[str, JsonValue] = {
            "game": GAME,
            "table_id": self.table_id,
            "phase": self.phase,
            "round": self.round,
            "limits": {"min": self.min_bet, "max": self.max_bet},
            "players": sorted(self.stacks),
            "bets": [
                {"bet_id": b.bet_id, "player": b.player, "amount": b.amount}
                for b in self.bets.values()
            ],
            "cards": cards,
            "house": self.house,
        }
        if me is not None and me in self.stacks:
            out["my_stack"] = self.stacks[me]
        return out

    def command_of(self, ev: Event) -> Command | None:
        match ev:
            case Joined(player=p, amount=a):
                return Command(Actor.player(p), "join", {"amount": a})
            case Left(player=p):
                return Command(Actor.player(p), "leave")
            case SeedCommitted(commitment=c):
                seed = self.seeds.get(c)
                if seed is None:
                    raise InvalidInput(f"no seed known for commitment {c[:12]}…")
                return Command(Actor.DEALER, "shuffle", {"seed": seed.hex()})
            case BetPlaced(player=p, amount=a):
                return Command(Actor.player(p), "bet", {"amount": a})
            case BetWithdrawn(player=p, bet_id=b):
                return Command(Actor.player(p), "withdraw", {"bet_id": b})
            case CardDealt():
                return Command(Actor.DEALER, "deal")
            case CardRevealed(player=p):
                return Command(Actor.player(p), "reveal")
            case TimedOut(actor=who, op=op):
                return Command(Actor.SYSTEM, "time_out", {"actor": who, "op": op})
        return None
