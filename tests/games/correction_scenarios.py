"""A scenario a game for the supervisor's corrections and voids, which the kernel writes once
(``games.kernel.Table``: ``correct_round``, ``void_round``) and the parametrised suite of
``test_kernel_corrections.py`` checks over the four games.

A scenario knows its game's table and its rounds: the players seated with chips, the bets
of a round, an outcome the dealer keys in (a baccarat deal and its third cards, the dice of
a craps throw, a tile deal's dice and hands), the round played out by the rules, and what
the players and the cage see (``state``: stacks, holds, ledger, the round's result — hold
ids aside, since a re-issued hold is renamed). Each also draws the cases of the suite's
invariants (hypothesis strategies, with the examples that once found a fault) and checks
what its own rules make of a void or a correction beside what every game shares.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import MOP, Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import (
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
    KeyedShoe,
    full_set,
    replay_baccarat,
)
from macau_tables.games.contract import Actor, Command
from macau_tables.games.craps import CrapsRules, CrapsTable
from macau_tables.games.craps import replay as replay_craps
from macau_tables.games.tiles import HandsKeyed, TilePhase, TileTable
from macau_tables.games.tiles import replay as replay_tiles
from macau_tables.tiles import FULL_SET
from tests.games.test_tiletable_keyed import _finish, _hands, _to_betting
from tests.games.tiletable_helpers import (
    bet_own_seats,
    funded_ledger,
    play_round,
    seated,
    step_default,
)

#: the requesting supervisor and the one who approves (two supervisors: one asks)
SAM, ANN = Actor.supervisor("sam"), Actor.supervisor("ann_sup")
D = Actor.DEALER


def run(t: Any, actor: Actor, op: str, rng: Rng | None = None, **args: Any) -> Any:
    return t.execute(Command(actor, op, args), rng)


def correct(t: Any, of_seq: int, by: Actor = ANN, **args: Any) -> Any:
    """A supervisor's correction of the keyed-in event at ``of_seq`` (requested by sam)."""
    return run(
        t, by, "correct_round", of_seq=of_seq, args=args, reason="video", request=1,
        requested_by="sam",
    )  # fmt: skip


def void(t: Any, by: Actor = ANN) -> Any:
    """A supervisor's void of the last round (requested by sam)."""
    return run(t, by, "void_round", reason="video", request=2, requested_by="sam")


def hypothesis(
    strategy: st.SearchStrategy[Any], examples: Sequence[Any], max_examples: int
) -> Callable[[Callable[[Any], None]], Callable[[], None]]:
    """Run a check over ``strategy``'s cases (and the ``examples`` first)."""

    def wrap(check: Callable[[Any], None]) -> Callable[[], None]:
        test = given(strategy)(check)
        for case in examples:
            test = example(case)(test)
        return settings(max_examples=max_examples, deadline=None)(test)  # type: ignore[no-any-return]

    return wrap


class Scenario:
    """What the suite asks of a game (see the module docstring)."""

    game: ClassVar[str]
    #: how many cases hypothesis draws for each invariant (a tile round is slow)
    max_examples: ClassVar[int] = 40
    #: the cases of "a corrected round leaves the table as if the right outcome was keyed"
    corrections: st.SearchStrategy[Any]
    correction_examples: Sequence[Any] = ()
    #: the cases of "a voided round refunds every bet of it"
    voids: st.SearchStrategy[Any]
    void_examples: Sequence[Any] = ()

    def table(self) -> Any:
        """A table with its players seated with chips, ready for a round."""
        raise NotImplementedError

    def keyed_round(self, t: Any) -> tuple[int, dict[str, Any]]:
        """A round's bets and keyed-in outcome, played out: the seq of the key-in, and
        corrected arguments the rules would take for it."""
        raise NotImplementedError

    def start_next(self, t: Any) -> None:
        """The next round begins (its first bet): the last round is closed to corrections."""
        raise NotImplementedError

    def close_to_void(self, t: Any) -> None:
        """What after a round leaves it no longer the one a void takes back."""
        raise NotImplementedError

    def state(self, t: Any) -> dict[str, Any]:
        raise NotImplementedError

    def stacks(self, t: Any) -> dict[str, int]:
        raise NotImplementedError

    def ledger(self, t: Any) -> Ledger:
        raise NotImplementedError

    def layout_holds(self, t: Any) -> frozenset[str]:
        """The holds of the bets on the layout: the only ones the ledger has open."""
        raise NotImplementedError

    def replays(self, t: Any) -> None:
        """Replay re-runs the journal (corrections and voids included): the same table."""
        raise NotImplementedError

    def corrected(self, case: Any) -> tuple[Any, Any]:
        """A table keyed wrong and corrected, and the table keyed right, at the same point."""
        raise NotImplementedError

    def play_on(self, case: Any, tables: Sequence[Any]) -> None:
        """The round after, the same at each table."""
        raise NotImplementedError

    def voided(self, case: Any) -> tuple[Any, dict[str, int]]:
        """A round played as far as ``case`` says and voided: the table, and the stacks
        before the round (the game's own checks of the void made)."""
        raise NotImplementedError

    def plays_on(self, t: Any) -> None:
        """A round after a void, by the rules (ids and holds new)."""
        raise NotImplementedError

    def bad_corrections(self) -> tuple[Any, int, list[tuple[dict[str, Any], str | None]]]:
        """A table, its keyed-in event and corrections the rules refuse (``InvalidInput``
        naming the rule, where one is named)."""
        raise NotImplementedError

    def settled(self, t: Any) -> dict[str, int]:
        """A round played to its settlement: the stacks before its bets."""
        raise NotImplementedError

    def settled_voided(self, t: Any, events: Sequence[Any]) -> None:
        """The game's own checks of a settled round's void (``events``: the void's)."""


# --- Baccarat: the cards of a deal (BA-7.1) and its third cards (BA-9), keyed in ----------

BUY_IN = 100_000
MAIN, SIDE = 20_000, 10_000  # BA-13: the table minimum is MOP 100
CARD = st.sampled_from([str(c) for c in full_set(1)])
HAND = st.lists(CARD, min_size=4, max_size=4)
EXTRA = st.lists(CARD, min_size=2, max_size=2)
TENS = [f"{r}{s}" for r in "TJQK" for s in "cdhs"]


class Baccarat(Scenario):
    game = "baccarat"
    max_examples = 60
    corrections = st.tuples(HAND, EXTRA, HAND, EXTRA, HAND, EXTRA)
    correction_examples = (  # a natural keyed, a tie the truth: the pushed bets' holds re-issued
        (
            ["9h", "2c", "Kd", "5s"], ["Ah", "Ah"], ["7h", "2c", "Kd", "5s"], ["Ah", "Ah"],
            ["2c", "3c", "4c", "5c"], ["6c", "7c"],
        ),
    )  # fmt: skip
    voids = st.tuples(HAND, EXTRA, st.booleans())

    def table(self, decks: int = 8) -> BaccaratTable:
        t = BaccaratTable(BaccaratRules(decks=decks), table_id="t")
        for seat, name in enumerate(("alice", "bob"), start=1):
            run(t, Actor.player(name), "sit", seat=seat, amount=BUY_IN)
        run(t, D, "open_shoe")
        run(t, D, "cut", from_end=14)
        return t

    @staticmethod
    def bets(t: BaccaratTable) -> None:
        """Player and Banker (BA-11), Tie (BA-12), a pair (BA-13)."""
        for name, main, side in (("alice", "player", "tie"), ("bob", "banker", "player_pair")):
            run(t, Actor.player(name), "place_bet", bet=main, amount=MAIN)
            run(t, Actor.player(name), "place_bet", bet=side, amount=SIDE)

    @staticmethod
    def deal(t: BaccaratTable, cards: list[str]) -> int:
        """The dealer keys in the deal's four cards (BA-7.1); the seq of the key-in."""
        seq = len(t.journal)
        run(t, D, "deal", cards=cards)
        return seq

    @staticmethod
    def draws(t: BaccaratTable, cards: list[str]) -> list[str]:
        """Each third card the rules ask for (BA-9), keyed in from ``cards``."""
        keyed: list[str] = []
        while t.third_card_due() is not None:
            keyed.append(cards[len(keyed)])
            run(t, D, "draw", card=keyed[-1])
        return keyed

    @classmethod
    def preload(cls, t: BaccaratTable, card: str, n: int) -> None:
        """Hands without bets that key ``card`` in ``n`` times (tens, each once, the rest)."""
        tens = iter(TENS)
        while n > 0:
            k = min(n, 4)
            n -= k
            cls.deal(t, [card] * k + [next(tens) for _ in range(4 - k)])
            cls.draws(t, [next(tens), next(tens)])

    def key_hand(
        self, t: BaccaratTable, cards: list[str], extra: list[str]
    ) -> tuple[int, list[str]]:
        self.bets(t)
        seq = self.deal(t, cards)
        return seq, self.draws(t, extra)

    def keyed_round(self, t: BaccaratTable) -> tuple[int, dict[str, Any]]:
        seq, _ = self.key_hand(t, ["9h", "2c", "Kd", "5s"], [])
        return seq, {"cards": ["4h", "2c", "Kd", "5s"]}

    def start_next(self, t: BaccaratTable) -> None:
        self.bets(t)

    def close_to_void(self, t: BaccaratTable) -> None:
        self.bets(t)  # BA-R3: the last hand settled, before the next bet

    def ledger(self, t: BaccaratTable) -> Ledger:
        led = Ledger()
        for name in ("alice", "bob"):
            led.post(Transaction.transfer(CAGE, f"player:{name}", Money(10**6, MOP)))
        return Ledger.project(t.journal.events, led)

    def state(self, t: BaccaratTable) -> dict[str, Any]:
        led = self.ledger(t)
        assert isinstance(t.shoe, KeyedShoe)
        return {
            "stacks": dict(t.stacks),
            "holds": sorted((b.player, str(b.kind), b.amount.minor, b.carried) for b in t.holds),
            "open_holds": len(led.open_holds),
            "balances": {a: m.minor for a, m in led.balances().items() if m.minor},
            "phase": t.phase,
            "hand": None if t.hand is None else (t.hand.player, t.hand.banker, t.hand.number),
            "results": [(r.player_cards, r.banker_cards, r.outcome) for r in t.results],
            "position": t.position,
            "keyed": t.shoe.keyed(),
            "due": t.third_card_due(),
        }

    def stacks(self, t: BaccaratTable) -> dict[str, int]:
        return dict(t.stacks)

    def layout_holds(self, t: BaccaratTable) -> frozenset[str]:
        return frozenset(b.id for b in t.holds)

    def replays(self, t: BaccaratTable) -> None:
        assert replay_baccarat(t.journal).snapshot() == t.snapshot()

    def corrected(self, case: Any) -> tuple[BaccaratTable, BaccaratTable]:
        """The dealer keyed ``wrong`` (and the third cards the rules asked for); the
        supervisor corrects the deal to ``fixed``: beside it, the table whose dealer keyed
        ``fixed`` and the same third cards as far as the rules take them; the corrected
        one then draws what is still due."""
        wrong, wrong_extra, fixed, fixed_extra, after, after_extra = case
        cards = wrong + wrong_extra + fixed + fixed_extra + after + after_extra
        assume(max(Counter(cards).values()) <= 8)
        t = self.table()
        seq, drawn = self.key_hand(t, wrong, wrong_extra)
        correct(t, seq, cards=fixed)
        right = self.table()
        self.bets(right)
        self.deal(right, fixed)
        kept = self.draws(right, drawn + fixed_extra)
        self.draws(t, kept[len(drawn) :] if len(kept) > len(drawn) else [])
        return t, right

    def play_on(self, case: Any, tables: Sequence[BaccaratTable]) -> None:
        for u in tables:
            self.key_hand(u, case[4], case[5])

    def voided(self, case: Any) -> tuple[BaccaratTable, dict[str, int]]:
        """Whatever the hand, dealt or settled: the void leaves its cards out of the shoe
        (BA-R3) and the table betting."""
        cards, extra, settled_first = case
        t = self.table()
        self.bets(t)
        run(t, D, "deal", cards=cards)
        if settled_first:
            self.draws(t, extra)
        assert isinstance(t.shoe, KeyedShoe)
        keyed = t.shoe.keyed()
        void(t)
        assert t.shoe.keyed() == keyed and t.holds == []
        assert t.phase is BaccaratPhase.BETTING
        return t, {"alice": BUY_IN, "bob": BUY_IN}

    def plays_on(self, t: BaccaratTable) -> None:
        self.key_hand(t, ["Tc", "Td", "Th", "Ts"], ["Jc", "Jd"])  # both draw (BA-9)

    def bad_corrections(self) -> tuple[BaccaratTable, int, list[tuple[dict[str, Any], str | None]]]:
        t = self.table(decks=6)
        self.preload(t, "As", 6)
        self.bets(t)
        wrong = self.deal(t, ["9h", "2d", "Kc", "6s"])
        return (
            t,
            wrong,
            [
                ({"cards": ["As", "2d", "Kc", "6s"]}, "BA-1"),  # six decks hold six As
                ({"cards": ["9h", "2d", "Kc"]}, None),  # BA-7.1: four cards
                ({"dice": [5, 6]}, None),
            ],
        )

    def settled(self) -> tuple[BaccaratTable, dict[str, int], Callable[[Sequence[Any]], None]]:
        """A six-deck shoe whose 9h are all dealt by the settled hand (Player 8, Banker 7:
        naturals): its void refunds every bet and keeps its cards out (BA-R3)."""
        t = self.table(decks=6)
        self.preload(t, "9h", 4)
        self.bets(t)
        self.deal(t, ["9h", "2c", "9h", "5s"])
        assert isinstance(t.shoe, KeyedShoe)
        keyed, position = t.shoe.keyed(), t.position

        def check(events: Sequence[Any]) -> None:
            assert isinstance(t.shoe, KeyedShoe)
            assert events[0].aliases == ()  # no bet stood beyond the hand
            assert t.results[-1].outcome == "V" and t.holds == []
            assert t.shoe.keyed() == keyed and t.position == position
            self.bets(t)
            with pytest.raises(InvalidInput) as exc:
                self.deal(t, ["9h", "3c", "Qd", "4s"])  # BA-R3: the voided hand's 9h stay out
            assert exc.value.rule == "BA-1"

        return t, {"alice": BUY_IN, "bob": BUY_IN}, check


# --- Craps: the dice of a throw (CR-1), keyed in at a live table (CR-R1) ------------------

DIE = st.integers(1, 6)
ROLLS = st.lists(st.tuples(DIE, DIE), min_size=1, max_size=8)


class Craps(Scenario):
    game = "craps"
    corrections = st.tuples(ROLLS, st.tuples(DIE, DIE))
    correction_examples = (([(2, 2), (3, 4)], (5, 6)), ([(2, 2), (5, 6)], (3, 4)))
    voids = st.tuples(ROLLS, st.booleans())
    void_examples = (([(2, 2), (3, 4)], True),)

    def table(self) -> CrapsTable:
        t = CrapsTable((), CrapsRules(), table_id="t")
        for name in ("alice", "bob"):
            run(t, Actor.player(name), "sit", amount=100_000)
        return t

    @staticmethod
    def key(t: CrapsTable, d1: int, d2: int) -> int:
        """The dealer keys in the dice (CR-1); the seq of the throw."""
        seq = len(t.events)
        run(t, D, "throw_dice", Rng.system(), dice=[d1, d2])
        return seq

    @staticmethod
    def bets(t: CrapsTable) -> None:
        for name in ("alice", "bob"):
            p = Actor.player(name)
            if t.point is None:
                bet = "pass" if name == "alice" else "dont_pass"
                run(t, p, "place_bet", bet=bet, amount=1_000)
            run(t, p, "place_bet", bet="field", amount=500)

    def keyed_round(self, t: CrapsTable) -> tuple[int, dict[str, Any]]:
        self.bets(t)
        return self.key(t, 3, 3), {"dice": [1, 1]}

    def start_next(self, t: CrapsTable) -> None:
        run(t, Actor.player("alice"), "place_bet", bet="field", amount=500)

    def close_to_void(self, t: CrapsTable) -> None:
        run(t, Actor.player("alice"), "buy_in", amount=1_000)

    def ledger(self, t: CrapsTable) -> Ledger:
        led = Ledger()
        for name in ("alice", "bob"):
            led.post(Transaction.transfer(CAGE, f"player:{name}", Money(10**6, MOP)))
        return Ledger.project(t.events, led)

    def state(self, t: CrapsTable) -> dict[str, Any]:
        led = self.ledger(t)
        return {
            "stacks": {p: t.stack(p).minor for p in t.seats},
            "point": t.point,
            "shooter": t.shooter,
            "bets": sorted((b.player, b.kind, b.amount.minor, b.point) for b in t.bets),
            "money": {a: led.balance(a).minor for a in ("house:t", "wagers:t", "stack:t:alice")},
            "open_holds": len(led.open_holds),
        }

    def stacks(self, t: CrapsTable) -> dict[str, int]:
        return {p: t.stack(p).minor for p in t.seats}

    def layout_holds(self, t: CrapsTable) -> frozenset[str]:
        return frozenset(t.hold(b.id) for b in t.bets)

    def replays(self, t: CrapsTable) -> None:
        assert replay_craps(t.journal, dict(t.seed_vault())).snapshot() == t.snapshot()

    def corrected(self, case: Any) -> tuple[CrapsTable, CrapsTable]:
        """The rounds ``rolls``, the last keyed wrong and corrected to ``fixed``; beside
        it, the table where ``fixed`` was keyed."""
        rolls, fixed = case
        t, right = self.table(), self.table()
        seq = 0
        for i, (d1, d2) in enumerate(rolls):
            for x in (t, right):
                self.bets(x)
            seq = self.key(t, d1, d2)
            self.key(right, *(fixed if i == len(rolls) - 1 else (d1, d2)))
        correct(t, seq, dice=list(fixed))
        return t, right

    def play_on(self, case: Any, tables: Sequence[CrapsTable]) -> None:
        for u in tables:  # the next round settles the re-issued holds once
            self.bets(u)
            self.key(u, 3, 4)

    def voided(self, case: Any) -> tuple[CrapsTable, dict[str, int]]:
        """The last round voided, its bets and (if thrown) its roll: the table is the one
        without that round — state and money; counters move on (no id or hold reused)."""
        rolls, thrown = case
        t, right = self.table(), self.table()
        for d1, d2 in rolls[:-1]:
            for x in (t, right):
                self.bets(x)
                self.key(x, d1, d2)
        self.bets(t)
        if thrown:
            self.key(t, *rolls[-1])
        void(t)
        assert self.state(t) == self.state(right)
        return t, self.stacks(right)

    def plays_on(self, t: CrapsTable) -> None:
        self.bets(t)
        self.key(t, 3, 4)

    def bad_corrections(self) -> tuple[CrapsTable, int, list[tuple[dict[str, Any], str | None]]]:
        t = self.table()
        self.bets(t)
        seq = self.key(t, 3, 3)
        return t, seq, [({"amount": 5}, None), ({"dice": [7, 1]}, "CR-1")]

    def settled(self) -> tuple[CrapsTable, dict[str, int], Callable[[Sequence[Any]], None]]:
        """A point (4) on, the line bets standing; then the Field bets and a seven-out: the
        void leaves the table as it stood after the point was made — the earlier round's
        bets as they stood."""
        t = self.table()
        self.bets(t)
        self.key(t, 2, 2)
        before = self.state(t)
        self.bets(t)
        self.key(t, 3, 4)

        def check(events: Sequence[Any]) -> None:
            assert self.state(t) == before

        return t, before["stacks"], check


# --- Pai Gow and Taiwan Pai Kao: a woodpile's dice and hands, keyed in (PG-1.2, PG-1.4) ---

ORDER = [str(x) for x in FULL_SET]
PLAYERS = ("ann", "bob", "cy")
TILES = st.permutations(ORDER)
DICE = st.lists(st.integers(1, 6), min_size=4, max_size=4)


class Tiles(Scenario):
    max_examples = 15
    places: ClassVar[int]

    def __init__(self) -> None:
        self.corrections = st.tuples(DICE, TILES, DICE, TILES)
        self.voids = st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(0, 2**32))

    def table(self) -> TileTable:
        t = seated(self.game, places=self.places)
        _to_betting(t)
        return t

    def deal(self, t: TileTable, dice: list[int], tiles: list[str]) -> int:
        """The dealer keys in the banker's dice and every seat's tiles (PG-1.2, PG-1.4)."""
        seq = len(t.journal)
        run(t, D, "shake", dice=dice, hands=_hands(tiles, t.rules.places))
        assert isinstance(t.journal.events[seq], HandsKeyed)
        return seq

    def keyed_round(self, t: TileTable) -> tuple[int, dict[str, Any]]:
        seq = self.deal(t, [1, 2, 3, 4], ORDER[4:] + ORDER[:4])
        return seq, {"hands": _hands(ORDER, self.places)}

    def start_next(self, t: TileTable) -> None:
        _finish(t)
        _to_betting(t)

    def close_to_void(self, t: TileTable) -> None:
        _finish(t)
        run(t, Actor.player("cy"), "buy_in", amount=1_000)

    def ledger(self, t: TileTable) -> Ledger:
        return Ledger.project(t.journal.events, funded_ledger(PLAYERS))

    def state(self, t: TileTable) -> dict[str, Any]:
        led = self.ledger(t)
        last = t.last_settlement
        return {
            "stacks": self.stacks(t),
            "balances": {a: m.minor for a, m in led.balances().items() if m.minor},
            "open_holds": len(led.open_holds),
            "phase": t.phase,
            "last": None  # hold ids aside: a re-issued hold is renamed
            if last is None
            else [{k: v for k, v in r.items() if k != "bet_id"} for r in last.results],
        }

    def stacks(self, t: TileTable) -> dict[str, int]:
        return {p: t.stack(p).minor for p in PLAYERS}

    def layout_holds(self, t: TileTable) -> frozenset[str]:
        return frozenset()  # checked between rounds: no bet, no bank on the table

    def replays(self, t: TileTable) -> None:
        # the server's seeds of a woodpile still in use (a Taiwan woodpile serves two rounds)
        again = replay_tiles(Journal.from_json(t.journal.to_json()), dict(t.seed_vault()))
        assert again.journal.head == t.journal.head
        assert again.view(Viewer.SUPERVISOR) == t.view(Viewer.SUPERVISOR)

    def corrected(self, case: Any) -> tuple[TileTable, TileTable]:
        """Whatever was keyed and whatever was right (the settings the rules' defaults):
        beside the corrected table, the one keyed right the first time."""
        wrong_dice, wrong, dice, tiles = case
        t, right = self.table(), self.table()
        seq = self.deal(t, wrong_dice, wrong)
        _finish(t)
        self.deal(right, dice, tiles)
        _finish(right)
        correct(t, seq, dice=dice, hands=_hands(tiles, self.places))
        _finish(t)
        return t, right

    def play_on(self, case: Any, tables: Sequence[TileTable]) -> None:
        tiles = case[3]
        for u in tables:
            _to_betting(u)
            rest = list(ORDER)
            if self.places == 4:  # TW-2d: the second round from the same woodpile
                used = list(tiles[:16])
                rest = []
                for x in ORDER:
                    if x in used:
                        used.remove(x)
                    else:
                        rest.append(x)
            try:
                self.deal(u, [3, 4, 5, 6], rest)
            except MacauTablesError:
                raise AssertionError("the right woodpile refuses the right tiles") from None
            _finish(u)

    def voided(self, case: Any) -> tuple[TileTable, dict[str, int]]:
        """Seeded tables, rounds played by the rules' defaults, the last one stopped
        anywhere after its bank opened (or settled)."""
        rounds, steps, seed = case
        rng = Rng.seeded(f"void-{seed}")
        t = seated(self.game, places=self.places)
        for _ in range(rounds):
            play_round(t, rng, capital=50_000)
        stacks = self.stacks(t)
        seat, _keep, least = t.bank_offer()
        assert seat is not None
        capital = max(50_000, least)  # PG-4.9: a keeping banker never reduces his capital
        run(t, Actor.player(t.seats()[seat]), "open_bank", capital=capital)
        for _ in range(steps):
            if t.phase is TilePhase.BANK:
                break
            if t.phase is TilePhase.BETTING and t.can_place_bet(
                Actor.player("cy"), 3, Money(1_000)
            ):
                bet_own_seats(t)
            step_default(t, rng)
        void(t)
        assert t.phase is TilePhase.BANK
        return t, stacks

    def plays_on(self, t: TileTable) -> None:
        play_round(t, Rng.seeded("after the void"), capital=50_000)

    def bad_corrections(self) -> tuple[TileTable, int, list[tuple[dict[str, Any], str | None]]]:
        t = self.table()
        wrong = self.deal(t, [1, 2, 3, 4], ORDER[4:] + ORDER[:4])
        return (
            t,
            wrong,
            [
                ({"hands": _hands(["6-6"] * 3 + ORDER[3:], self.places)}, "T-1"),
                ({"dice": [0, 2, 3, 4]}, "PG-1.2" if self.game == "paigow" else None),
                ({"tiles": ORDER}, None),
            ],
        )

    def settled(self) -> tuple[TileTable, dict[str, int], Callable[[Sequence[Any]], None]]:
        """A round dealt and settled: its void refunds every bet and the bank's capital;
        the table is back at the bank, the next round numbered on."""
        t = self.table()
        bank_open = next(
            s for s, e in enumerate(t.journal.events) if e.kind == "tiletable.bank_opened"
        )
        self.deal(t, [1, 2, 3, 4], ORDER[4:8] + ORDER[:4] + ORDER[8:])
        _finish(t)
        rounds = t.round_no

        def check(events: Sequence[Any]) -> None:
            if self.places == 8:  # the woodpile ended at the settlement (one round)
                assert [e.kind for e in events] == ["table.round_voided"]
            assert events[0].from_seq == bank_open > 0
            assert t.phase is TilePhase.BANK
            _to_betting(t)  # the next round: new round number, bet and hold ids, woodpile
            assert t.round_no == rounds + 1
            self.deal(t, [1, 2, 3, 4], ORDER)
            _finish(t)
            assert self.ledger(t).open_holds == frozenset()  # each hold opened, closed once

        return t, dict.fromkeys(PLAYERS, 100_000), check


class PaiGow(Tiles):
    game = "paigow"
    places = 8
    correction_examples = ()


class Taiwan(Tiles):
    game = "taiwan"
    places = 4
    correction_examples = (([1, 1, 1, 1], ORDER, [6, 6, 6, 6], ORDER[::-1]),)
    void_examples = ((1, 0, 1),)  # the second round of a woodpile, voided settled


SCENARIOS: dict[str, Scenario] = {s.game: s for s in (Baccarat(), Craps(), PaiGow(), Taiwan())}
