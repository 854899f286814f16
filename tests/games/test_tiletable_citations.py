"""A table's refusals cite its own regulation: a Pai Gow table the PG text, a Taiwan table
the TW text (``Regulation.rule``: taiwan.CITE), and where the Taiwan text has no
counterpart the Taiwan Reading that covers it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, TimedOut, time_out
from macau_tables.games.tiles import TilePhase, TileTable

from .tiletable_helpers import seated

ANN, BOB, CY = Actor.player("ann"), Actor.player("bob"), Actor.player("cy")
D = Actor.DEALER


def _betting(game: str) -> TileTable:
    """Ann banks; the dealer has shuffled; bets are open."""
    t = seated(game)
    t.execute(Command(ANN, "open_bank", {"capital": 50_000}))
    t.execute(Command(D, "shuffle", {}), Rng.seeded("cite", game))
    return t


def _setting(game: str) -> TileTable:
    """Bob's bet on seat 2, cy's smaller one there too; the dice are shaken."""
    t = _betting(game)
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 2_000}))
    t.execute(Command(CY, "place_bet", {"seat": 2, "amount": 1_000}))
    t.execute(Command(ANN, "shake", {}))
    return t


def _front(t: TileTable, seat: int) -> list[str]:
    rnd = t.round
    assert rnd is not None
    return [str(x) for x in rnd.hands[seat][:2]]


def _settle_ready(game: str) -> TileTable:
    t = _setting(game)
    rng = Rng.seeded("cite")
    while t.phase is not TilePhase.SETTLE:
        (p, *_) = [p for p in t.pending() if p.default is not None]
        t.execute(time_out(p), rng)
    return t


# (what is refused, how to reach it, the command, the Pai Gow ID, the Taiwan ID)
REFUSALS: list[tuple[str, Callable[[str], TileTable], Callable[[TileTable], Command], str, str]]
REFUSALS = [
    ("a seat that is not one of the table's", seated,
     lambda t: Command(Actor.player("dee"), "sit", {"seat": 9}), "PG-1.4", "TW-3a"),
    ("a seat another player has", seated,
     lambda t: Command(Actor.player("dee"), "sit", {"seat": 2}), "PG-7.4", "TW-3c"),
    ("a bet by the dealer", _betting,
     lambda t: Command(D, "place_bet", {"seat": 2, "amount": 100}), "PG-4.6", "TW-2g"),
    ("a bet above the player's chips", _betting,
     lambda t: Command(BOB, "place_bet", {"seat": 2, "amount": 100_001}), "PG-4.6", "TW-2g"),
    ("a bet after the dice", _setting,
     lambda t: Command(BOB, "place_bet", {"seat": 3, "amount": 100}), "PG-4.7", "TW-2g"),
    ("co-bank after the dice", _setting,
     lambda t: Command(CY, "join_bank", {"capital": 100}), "PG-4.7", "TW-2g"),
    ("a shuffle by a player", _betting,
     lambda t: Command(BOB, "shuffle", {}), "PG-1.1", "TW-2a"),
    ("a shuffle once the bets are open", _betting,
     lambda t: Command(D, "shuffle", {}), "PG-1.1", "TW-2a"),
    ("co-bank above the player's chips", _betting,
     lambda t: Command(CY, "join_bank", {"capital": 100_001}), "PG-3.2", "TW-5e"),
    ("exposed tiles reported by a player", _setting,
     lambda t: Command(BOB, "report_exposed", {"seat": 2, "tiles": _front(t, 2)[:1]}),
     "PG-2.2", "TW-4"),
    ("exposed tiles before the deal", _betting,
     lambda t: Command(D, "report_exposed", {"seat": 2, "tiles": ["6-6"]}), "PG-2.2", "TW-4"),
    ("a seat set by a bettor who does not hold it", _setting,
     lambda t: Command(CY, "set_tiles", {"seat": 2, "front": _front(t, 2)}), "PG-7.4", "TW-3c"),
    ("the banker's tiles set by a player", _setting,
     lambda t: Command(BOB, "set_tiles", {"seat": 1, "front": _front(t, 1)}), "PG-3.4", "TW-R5"),
    ("tiles set before the deal", _betting,
     lambda t: Command(BOB, "set_tiles", {"seat": 2, "front": ["6-6", "1-1"]}), "PG-5.1", "TW-6a"),
    ("the hands turned by a player", _settle_ready,
     lambda t: Command(BOB, "settle", {}), "PG-8.3", "TW-6b"),
    ("a settlement before the banker has set", _setting,
     lambda t: Command(D, "settle", {}), "PG-8.1", "TW-6a"),
    ("the bank taken in a round", _betting,
     lambda t: Command(BOB, "open_bank", {"capital": 100}), "PG-4.4", "TW-5c"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "reach", "command", "pg", "tw"), REFUSALS, ids=[r[0] for r in REFUSALS]
)
@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_tw_refusals_cite_the_taiwan_text_and_pg_refusals_the_pai_gow_text(
    game: str,
    what: str,
    reach: Callable[[str], TileTable],
    command: Callable[[TileTable], Command],
    pg: str,
    tw: str,
) -> None:
    """PG-1.4 / TW-3a, PG-7.4 / TW-3c, PG-4.6 / PG-4.7 / TW-2g, PG-1.1 / TW-2a, PG-3.2 /
    TW-5e, PG-2.2 / TW-4, PG-3.4 / TW-R5, PG-5.1 / PG-8.1 / TW-6a, PG-8.3 / TW-6b, PG-4.4 /
    TW-5c: each refusal names the rule of the table's own regulation."""
    t = reach(game)
    before = len(t.journal)
    with pytest.raises(MacauTablesError) as exc:
        t.execute(command(t), Rng.seeded("refused"))
    assert exc.value.rule == (pg if game == "paigow" else tw), what
    assert len(t.journal) == before


@pytest.mark.parametrize(("game", "rule"), [("paigow", "PG-5.1"), ("taiwan", "TW-6b")])
def test_pg_5_1_tw_6b_a_players_time_out_cites_a_players_rule(game: str, rule: str) -> None:
    """A holder who does not set: PG-5.1 (each seat's four tiles are split into two hands;
    the house way splits them for him) — not PG-R10, which is the banker's; TW-6b (the
    dealer sets the forced setting) in Taiwan."""
    t = _setting(game)
    (p,) = [p for p in t.pending() if p.default is not None]
    assert (p.actor, p.rule) == (BOB, rule)
    events = t.execute(time_out(p), Rng.seeded("t"))
    assert isinstance(events[0], TimedOut)
    assert events[0].rule == rule
    (banker,) = [p for p in t.pending() if p.default is not None]
    assert (banker.actor, banker.rule) == (ANN, "PG-R10" if game == "paigow" else "TW-R1")
