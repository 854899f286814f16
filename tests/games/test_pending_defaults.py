"""Every default a table's ``pending()`` offers is a legal command (the contract: ``default``
is the operation the engine applies on a time-out, ``contract.time_out``).

Random legal play on the four tables — baccarat, craps, Pai Gow, Taiwan Pai Kao (the
rule-set options that change who sets what and how: TW-R1 ``bind_banker``, TW-R6
``one_seat_per_holder``, PG-3.4 the house's larger co-bank, TW-2d four places) — and at
every step each default offered, applied on a copy of the table, is accepted. A default
the engine refuses would leave a table waiting for ever on an actor the clock cannot
move (TW-R1 with ``bind_banker`` did: the banker's house way broke the forced setting).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import BaccaratTable
from macau_tables.games.contract import Actor, Command, TableEngine, time_out
from macau_tables.games.craps import CrapsTable
from macau_tables.games.tiles import TilePhase, TileTable, TileTableRules, open_table
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import RoundOptions
from macau_tables.games.tiles.taiwan import TAIWAN

PLAYERS = ("ann", "bob", "cy")
D = Actor.DEALER


def _baccarat() -> TableEngine:
    t = BaccaratTable(table_id="t1")
    for p in PLAYERS:
        t.execute(Command(Actor.player(p), "sit", {"amount": 100_000}))
    return t


def _craps() -> TableEngine:
    t = CrapsTable(table_id="t1")
    for p in PLAYERS:
        t.execute(Command(Actor.player(p), "sit", {"amount": 100_000}), Rng.seeded("sit", p))
    return t


def _tiles(game: str, places: int = 8, **opts: object) -> Callable[[], TableEngine]:
    def make() -> TableEngine:
        house = int(opts.pop("house_capital", 0))  # type: ignore[call-overload]
        rules = TileTableRules(
            game=game,  # type: ignore[arg-type]
            places=places,
            round=RoundOptions(**opts),  # type: ignore[arg-type]
            house_capital=house,
        )
        t = open_table(rules, "t1")
        for seat, p in enumerate(PLAYERS, start=1):
            t.execute(Command(Actor.player(p), "sit", {"seat": seat}))
            t.execute(Command(Actor.player(p), "buy_in", {"amount": 100_000}))
        return t

    return make


TABLES: dict[str, Callable[[], TableEngine]] = {
    "baccarat": _baccarat,
    "craps": _craps,
    "paigow": _tiles("paigow"),
    "paigow-house-sets-the-banker": lambda: _tiles("paigow", house_capital=90_000)(),
    "taiwan": _tiles("taiwan"),
    "taiwan-bind-banker": _tiles("taiwan", bind_banker=True),
    "taiwan-one-seat-per-holder": _tiles("taiwan", one_seat_per_holder=True),
    "taiwan-4-places": _tiles("taiwan", places=4, bind_banker=True),
}


def _moves(name: str, t: TableEngine, k: int, n: int) -> list[Command]:
    """The commands a player or the dealer might choose now (``k``, ``n``: drawn numbers
    for who and how much); the engine refuses those the rules do not allow."""
    who = Actor.player(PLAYERS[k % len(PLAYERS)])
    amount = 100 * (1 + n % 50)
    if name == "baccarat":
        bet = ("banker", "player", "tie")[n % 3]
        return [
            Command(D, "shuffle", {"seed": bytes([k % 256] * 32).hex()}),
            Command(who, "place_bet", {"bet": bet, "amount": amount * 10}),
            Command(who, "withdraw_bet", {"bet": bet}),
            Command(D, "deal", {}),
        ]
    if name == "craps":
        bet = ("pass", "dont_pass", "field", "come")[n % 4]
        return [
            Command(who, "place_bet", {"bet": bet, "amount": amount}),
            Command(who, "throw", {}),
        ]
    assert isinstance(t, TileTable)
    moves = [
        Command(D, "shuffle", {}),
        Command(who, "place_bet", {"seat": 1 + n % t.rules.places, "amount": amount}),
        Command(who, "join_bank", {"capital": amount}),
    ]
    seat = t.bank_candidate() if t.phase is TilePhase.BANK else None
    if seat is not None:  # the player offered the bank takes it (or declines)
        offered = Actor.player(t.seats()[seat])
        capital = max(t.bank_offer()[2], 1_000 * (1 + n % 60))
        moves[:0] = [Command(offered, "open_bank", {"capital": capital})] * 2
        moves.append(Command(offered, "decline_bank", {}))
    rnd = t.round
    if t.phase is TilePhase.BETTING and rnd is not None:
        moves.append(Command(who, "rearrange", {"order": list(reversed(rnd.stack_order))}))
        moves.append(Command(Actor.player(t.banker), "shake", {}))
    if t.phase is TilePhase.SETTING and rnd is not None:
        seat = sorted(rnd.hands)[n % len(rnd.hands)]
        two = [str(x) for x in rnd.hands[seat][:2]]
        moves.append(Command(D, "report_exposed", {"seat": seat, "tiles": two[: 1 + n % 2]}))
        for who_, s in t._setters():
            for option in t.allowed_settings(s):
                front = [str(x) for x in option.front.tiles]
                moves.append(Command(who_, "set_tiles", {"seat": s, "front": front}))
    return moves


def _every_default_is_accepted(t: TableEngine, step: int) -> int:
    """Apply each default ``pending()`` offers to its own copy of the table; return how
    many there were."""
    offered = [p for p in t.pending() if p.default is not None]
    for p in offered:
        trial = copy.deepcopy(t, {id(r): r for r in (t.rules, PAIGOW, TAIWAN)})  # frozen
        try:
            trial.execute(time_out(p), Rng.seeded("default", str(step)))
        except MacauTablesError as exc:  # pragma: no cover - the failure being looked for
            raise AssertionError(
                f"step {step}: the default {p.default!r} of {p.actor} ({p.rule}) is refused: {exc}"
            ) from exc
    return len(offered)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(sorted(TABLES)),
    choices=st.lists(
        st.tuples(st.integers(0, 9), st.integers(0, 2), st.integers(0, 999)),
        min_size=1,
        max_size=40,
    ),
)
def test_every_default_pending_offers_is_a_legal_command(
    name: str, choices: list[tuple[int, int, int]]
) -> None:
    t = TABLES[name]()
    rng = Rng.seeded("play", name)
    for step, (pick, k, n) in enumerate(choices):
        offered = _every_default_is_accepted(t, step)
        moves = _moves(name, t, k, n)
        move = moves[pick % len(moves)] if pick < 7 else None  # else: a time-out
        if move is not None:
            try:
                t.execute(move, rng)
                continue
            except MacauTablesError:
                pass  # not allowed now: a refused command changes nothing
        if offered:
            defaults = [p for p in t.pending() if p.default is not None]
            t.execute(time_out(defaults[n % len(defaults)]), rng)
    _every_default_is_accepted(t, len(choices))


def test_tw_r1_bind_banker_every_default_of_many_rounds_is_legal() -> None:
    """TW-R1 with ``bind_banker``: a Taiwan table run by its defaults alone, round after
    round with a player banking, never offers a default it refuses."""
    t = _tiles("taiwan", bind_banker=True)()
    assert isinstance(t, TileTable)
    rng = Rng.seeded("bind-banker-rounds")
    rounds = 0
    for step in range(160):
        _every_default_is_accepted(t, step)
        if t.phase is TilePhase.BANK:
            seat = t.bank_candidate()
            rounds += 1
            if seat is not None:
                who = Actor.player(t.seats()[seat])
                least = t.bank_offer()[2]
                if t.can_open_bank(who, Money(max(least, 20_000))):
                    t.execute(Command(who, "open_bank", {"capital": max(least, 20_000)}))
                    continue
        if t.phase is TilePhase.BETTING:
            for seat, p in t.seats().items():
                if t.can_place_bet(Actor.player(p), seat, Money(500)):
                    t.execute(Command(Actor.player(p), "place_bet", {"seat": seat, "amount": 500}))
        defaults = [p for p in t.pending() if p.default is not None]
        assert defaults, f"the table waits with no default in {t.phase}"
        t.execute(time_out(defaults[0]), rng)
    assert rounds > 6
