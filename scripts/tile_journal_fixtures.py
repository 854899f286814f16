#!/usr/bin/env python3
"""Write tests/games/data/tiles_cli/: journals of the Pai Gow / Taiwan terminal game as the
code of their day wrote them, kept as written (tests/games/test_tile_journal_fixtures.py:
a release must still replay and verify the journals an earlier one wrote).

- ``round-*.json``: one round of the round machine each, its ``tiles.*`` events, as
  ``play paigow|taiwan --journal`` wrote a file per round before the terminal game drove
  the table (and as ``paigow settle`` computed one from its facts): staged rounds that
  reach every event and option of that vocabulary, and seeded random ones.
- ``play-*.json``: the table's journal (``tiletable.*`` events) as ``play --journal``
  writes it, from seeded sessions with scripted input.

Run from the project root: ``PYTHONPATH=src:. python scripts/tile_journal_fixtures.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.cli.settle_schema import load_facts, settle_facts
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.paigow import PAIGOW
from macau_tables.games.taiwan import TAIWAN
from macau_tables.games.tilegame import (
    HOUSE,
    Phase,
    Regulation,
    Round,
    RoundOptions,
    woodpile_for,
)
from macau_tables.tiles import Tile, parse_tiles
from macau_tables.tiles.strategies import strategy

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
OUT = ROOT / "tests" / "games" / "data" / "tiles_cli"

STRONG = ("6-6", "4-5", "1-1", "3-6")
MID = ("1-5", "3-4", "1-6", "2-5")
WEAK = ("1-3", "3-3", "5-5", "4-6")
TW_BANKER = ("6-6", "4-5", "4-4", "5-6")
TW_WIN = ("2-2", "2-2", "3-3", "3-3")
TW_LOSE = ("1-3", "1-6", "5-5", "4-6")


def m(major: int) -> Money:
    return Money.of(major)


def t(*names: str) -> list[Tile]:
    return list(parse_tiles(list(names)))


def opened(
    reg: Regulation,
    people: Sequence[str],
    *,
    banker: str = "bank",
    seat: int = 1,
    capital: int = 1000,
    house: int = 0,
    options: RoundOptions | None = None,
    places: int = 8,
    carried: Round | None = None,
    round_no: int = 1,
) -> Round:
    wallets = {p: m(5000) for p in people}
    if banker != HOUSE:
        wallets[banker] = m(capital + 100)
    return Round.open(
        reg, banker=banker, banker_seat=seat, banker_capital=m(capital),
        house_capital=m(house), wallets=wallets, options=options, places=places,
        carried=carried, round_no=round_no,
    )  # fmt: skip


def set_house_way(rnd: Round) -> None:
    way = strategy("house-way")
    for seat in rnd.active_seats():
        holder = rnd.holder(seat)
        assert holder is not None
        rnd.set_seat(holder, seat, way.choose(rnd.hands[seat], rnd.regulation.tiles).front.tiles)
    banker = rnd.hands[rnd.banker_seat]
    rnd.set_banker(rnd.banker_authority(), way.choose(banker, rnd.regulation.tiles).front.tiles)


def pg_full() -> Round:
    """PG-3.1 / PG-3.4 the house's larger co-bank sets the banker's tiles; PG-3.2 a
    co-banker; PG-7.1 several bettors on a seat, PG-7.5 the dealer holds a seat; PG-2.1
    two seats and the banker rearrange; PG-1.5 a cocked die; PG-2.2 one tile exposed,
    PG-2.3 two in a player's stack (the seat out); PG-5.1 a setting changed before the
    banker; PG-7.2 compensation."""
    rnd = opened(PAIGOW, ["ann", "bob", "cy", "dee", "cob"], seat=3, capital=300, house=800)
    dice = (2, 3, 1, 5)
    seat5, seat7 = ("1-1", "2-3", "4-6", "5-6"), ("2-2", "2-6", "4-4", "1-4")
    hands = {3: MID, 4: STRONG, 5: seat5, 6: WEAK, 7: seat7}
    rnd.shuffle_tiles(woodpile_for(rnd, {s: t(*h) for s, h in hands.items()}, dice))
    rnd.join_bank("cob", m(200))
    for person, seat, amount in (
        ("ann", 4, 120), ("bob", 5, 80), ("cy", 5, 30), ("ann", 6, 40), ("dee", 7, 60),
        ("cy", 4, 20), ("bob", 8, 25),
    ):  # fmt: skip
        rnd.place_bet(person, seat, m(amount))
    rnd.rearrange("ann", (1, 0, 2, 3, 4, 5, 6, 7))
    rnd.rearrange("cy", (0, 1, 2, 3, 4, 5, 6, 7))
    rnd.rearrange("bank", (0, 1, 2, 3, 4, 5, 6, 7))
    rnd.shake_dice((6, 2, 2, 1), valid=False)
    rnd.shake_dice(dice)
    rnd.report_exposed(8, 1)
    rnd.report_exposed(7, 2)
    rnd.set_seat("cy", 4, rnd.hands[4][:2])
    set_house_way(rnd)
    rnd.settle()
    return rnd


def pg_void_deal() -> Round:
    """PG-2.3 / PG-R3: two tiles exposed in the banker's stack void the deal: the tiles
    are shuffled again and the dice shaken again, the bets as they were; PG-R4 cover and
    PG-R4a the house after the banker."""
    opts = RoundOptions(settlement="cover", house_layer="after_banker")
    rnd = opened(PAIGOW, ["ann", "bob"], seat=2, capital=100, house=100, options=opts)
    rnd.shuffle(Rng.seeded("fixture", "pg-void-1"))
    rnd.place_bet("ann", 4, m(150))
    rnd.place_bet("bob", 7, m(90))
    rnd.shake_dice((3, 3, 1, 1))
    rnd.report_exposed(2, 2)
    rnd.shuffle(Rng.seeded("fixture", "pg-void-2"))
    rnd.shake_dice((4, 1, 5, 2))
    set_house_way(rnd)
    rnd.settle()
    return rnd


def pg_house_banks() -> Round:
    """PG-R6 gap fill: the house banks (its capital is the banker's); PG-R5 no commission
    on the house's own share; the per-bet option of the bank's commission."""
    opts = RoundOptions(bank_commission="per_bet", player_commission="bet", min_bet=500)
    rnd = opened(PAIGOW, ["ann", "bob", "cy"], banker=HOUSE, seat=5, capital=2000, options=opts)
    rnd.shuffle(Rng.seeded("fixture", "pg-house"))
    for person, seat, amount in (("ann", 1, 100), ("bob", 2, 300), ("cy", 8, 50)):
        rnd.place_bet(person, seat, m(amount))
    rnd.shake(Rng.seeded("fixture", "pg-house-dice"))
    set_house_way(rnd)
    rnd.settle()
    return rnd


def tw_layers() -> Round:
    """TW-R3 the bank's commission per bet, falling on the layers in proportion; TW-5c
    within the capital; TW-5e a co-banker after the banker; TW-6b / TW-R1 the dealer
    re-sets a back that is not the highest; TW-2f two people rearrange; TW-R6 one player
    holds two places; TW-4 exposed tiles void nothing."""
    rnd = opened(TAIWAN, ["a", "b", "c", "cob"], capital=100, house=100)
    dice = (1, 2, 3, 4)
    hands = {1: TW_BANKER, 2: TW_LOSE, 3: TW_WIN, 4: ("1-1", "3-6", "2-6", "1-2")}
    rnd.shuffle_tiles(woodpile_for(rnd, {s: t(*h) for s, h in hands.items()}, dice))
    rnd.join_bank("cob", m(100))
    for person, seat, amount in (("a", 2, 150), ("b", 3, 400), ("a", 4, 60), ("c", 4, 20)):
        rnd.place_bet(person, seat, m(amount))
    rnd.rearrange("a", tuple(range(8)))
    rnd.rearrange("b", tuple(range(8)))
    rnd.shake_dice(dice)
    rnd.report_exposed(1, 2)
    rnd.set_seat("a", 2, t("1-3", "4-6"))
    rnd.set_seat("b", 3, t("2-2", "3-3"))  # not the forced setting: re-set
    rnd.set_seat("a", 4, t("1-1", "3-6"))
    rnd.set_banker("bank", t("4-4", "5-6"))
    rnd.settle()
    return rnd


def tw_four_places() -> tuple[Round, Round]:
    """TW-2d / TW-R2: a 4-place woodpile serves two rounds; the second deals the other four
    stacks, the first round's tiles face up; the net option of the bank's commission."""
    opts = RoundOptions(bank_commission="net", one_seat_per_holder=True)
    first = opened(TAIWAN, ["a", "b"], seat=2, capital=500, places=4, options=opts)
    first.shuffle(Rng.seeded("fixture", "tw-four"))
    first.place_bet("a", 3, m(100))
    first.place_bet("b", 4, m(70))
    first.place_bet("a", 1, m(30))
    first.shake_dice((5, 5, 2, 1))
    set_house_way(first)
    first.settle()
    second = opened(
        TAIWAN, ["a", "b"], seat=2, capital=500, places=4, options=opts, carried=first,
        round_no=2,
    )  # fmt: skip
    second.place_bet("b", 1, m(40))
    second.place_bet("a", 4, m(90))
    second.shake_dice((1, 1, 2, 6))
    set_house_way(second)
    second.settle()
    return first, second


def random_round(i: int) -> Round:
    """A round drawn from a seeded source: either regulation, any banker seat, capitals,
    co-bankers, bettors and options; seats set by the house way or one of the others."""
    rng = Rng.seeded("fixture", f"random-{i}")
    reg = (PAIGOW, TAIWAN)[rng.below(2)]
    places = reg.places[rng.below(len(reg.places))]
    opts = RoundOptions(
        settlement=("running", "cover")[rng.below(2)],
        house_layer=("proportional", "after_banker")[rng.below(2)],
        bank_commission=(None, "net", "per_bet")[rng.below(3)],
    )
    people = ["p1", "p2", "p3", "p4", "p5"]
    rnd = opened(
        reg, people, seat=1 + rng.below(places), capital=100 * (1 + rng.below(10)),
        house=(0, 0, 50, 200)[rng.below(4)], options=opts, places=places,
    )  # fmt: skip
    rnd.shuffle(rng)
    for _ in range(rng.below(3)):
        person, capital = people[rng.below(5)], m(50 * (1 + rng.below(4)))
        if rnd.can_join_bank(person, capital):
            rnd.join_bank(person, capital)
    for _ in range(1 + rng.below(10)):
        person, seat = people[rng.below(5)], 1 + rng.below(places)
        amount = Money(50 * (1 + rng.below(200)))
        if rnd.can_place_bet(person, seat, amount):
            rnd.place_bet(person, seat, amount)
    rnd.shake(rng)
    way = strategy("house-way")
    for seat in rnd.active_seats():
        holder = rnd.holder(seat)
        assert holder is not None
        tiles = rnd.hands[seat]
        pick = rng.below(4)
        way_front = way.choose(tiles, reg.tiles).front.tiles
        front = way_front if pick == 3 else (tiles[0], tiles[pick + 1])
        rnd.set_seat(holder, seat, front)
    banker = rnd.hands[rnd.banker_seat]
    rnd.set_banker(rnd.banker_authority(), way.choose(banker, reg.tiles).front.tiles)
    rnd.settle()
    return rnd


def _cobank_example() -> Round:
    """The Taiwan example with a co-banker (tests/cli/test_cli_paigow.py's)."""
    facts = load_facts(EXAMPLES / "taiwan-round.json", "taiwan")
    facts = facts.model_copy(
        update={
            "banker_capital": m(100),
            "cobankers": [("cob", m(100))],
            "bets": [("a", 2, m(150))],
            "tiles": {k: v for k, v in (facts.tiles or {}).items() if k in ("1", "2")},
            "settings": {"1": tuple(t("4-4", "5-6")), "2": tuple(t("1-3", "4-6"))},
        }
    )
    return settle_facts(facts)


PLAYS: dict[str, list[str]] = {
    "play-paigow-seed7": ["play", "paigow", "--seed", "7"],
    "play-taiwan-seed7": ["play", "taiwan", "--seed", "7"],
    "play-paigow-seed3": ["play", "paigow", "--seed", "3"],
    "play-taiwan-places4": ["play", "taiwan", "--seed", "3", "--places", "4"],
}
SCRIPTS = {
    "play-paigow-seed7": "50\n1\n20\nh\nabc\n-5\n0.001\n100\nh\nh\nq\n",
    "play-taiwan-seed7": "50\n1\n20\nh\nabc\n-5\n0.001\n100\nh\nh\nq\n",
    "play-paigow-seed3": "0\n0\n100\nh\n1\n\nq\n",
    "play-taiwan-places4": "40\nh\n30\nh\n20\n1\n25\nh\n0\n\n60\nh\nq\n",
}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    rounds: dict[str, Round] = {
        "round-paigow-example": settle_facts(load_facts(EXAMPLES / "paigow-round.json", "paigow")),
        "round-taiwan-example": settle_facts(load_facts(EXAMPLES / "taiwan-round.json", "taiwan")),
        "round-taiwan-cobank": _cobank_example(),
        "round-paigow-full": pg_full(),
        "round-paigow-void-deal": pg_void_deal(),
        "round-paigow-house-banks": pg_house_banks(),
        "round-taiwan-layers": tw_layers(),
    }
    first, second = tw_four_places()
    rounds["round-taiwan-four-1"] = first
    rounds["round-taiwan-four-2"] = second
    for i in range(8):
        rounds[f"round-random-{i}"] = random_round(i)
    for name, rnd in rounds.items():
        assert rnd.phase is Phase.SETTLED, name
        rnd.journal.dump(out / f"{name}.json")
        print(f"{name}: {len(rnd.journal)} entries", file=sys.stderr)
    runner = CliRunner()
    for name, args in PLAYS.items():
        path = out / f"{name}.json"
        path.unlink(missing_ok=True)
        result = runner.invoke(app, [*args, "--journal", str(path)], input=SCRIPTS[name])
        assert result.exit_code == 0, result.output
        print(f"{name}: written", file=sys.stderr)


if __name__ == "__main__":
    main()
