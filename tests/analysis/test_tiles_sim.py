"""The tile-game simulation kernel against the readable engine.

The kernel's tables come from the engine's code (strategies, ``compare_hand``,
``compare_seat``); these tests check that the numba core, fed the same woodpiles and dice as
a full round at the tile table, gives every seat the same result, for PG (8 places) and TW (8 and
4 places, TW-R2), and that the chunk simulation is deterministic and has the exact
distribution.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from macau_tables.analysis.kernels import tiles_sim
from macau_tables.analysis.kernels.rng import generator
from macau_tables.analysis.tiles import best_setting, paigow_par, taiwan_par
from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import JsonValue
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import TileTable
from macau_tables.games.tiles.facts import actor_of, deal, dealt_table
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.paigow import compare_seat as pg_compare_seat
from macau_tables.games.tiles.rounds import Regulation, SeatResult
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import FULL_SET, PG1985, Tile, parse_tiles
from macau_tables.tiles.strategies import strategy

CODE = {SeatResult.PLAYER.value: 1, SeatResult.BANKER.value: -1, SeatResult.PUSH.value: 0}


# --- the readable path: a full engine round ---------------------------------------------------


def _engine_round(
    reg: Regulation,
    *,
    dice: Sequence[int],
    order: Sequence[int],
    player_way: str,
    banker_way: str,
    places: int = 8,
    carried: TileTable | None = None,
) -> tuple[TileTable, list[int]]:
    """One round at a tile table with one unit bet per player seat, the woodpile ``order``
    dealt with ``dice`` (``carried``: the table of a first 4-place round, whose banker
    keeps the bank for the second round of the same woodpile); the seats' results in seat
    order."""
    bettors = {f"p{s}": s for s in range(2, places + 1)}
    pile = [FULL_SET[i] for i in order]
    if carried is None:
        t = dealt_table(
            reg.game, banker="bank", banker_seat=1, capital=Money.of(10_000),
            bets=[(p, s, Money.of(1)) for p, s in bettors.items()], dice=dice, woodpile=pile,
            places=places, chips={"bank": Money.of(10_000)} | {p: Money.of(10) for p in bettors},
        )  # fmt: skip
    else:
        t = carried
        seat, keep, least = t.bank_offer()
        assert (seat, keep) == (1, True)
        t.execute(Command(Actor.player("bank"), "open_bank", {"capital": least}))
        for person, seat in bettors.items():
            t.execute(Command(Actor.player(person), "place_bet", {"seat": seat, "amount": 100}))
        deal(t, dice, woodpile=pile)  # the woodpile's remaining stacks (TW-2d / TW-R2)
    rnd = t.round
    assert rnd is not None
    rules = reg.tiles
    for seat in rnd.active_seats():
        holder = rnd.holder(seat)
        assert holder is not None
        front = strategy(player_way).choose(rnd.hands[seat], rules).front.tiles
        t.execute(Command(actor_of(holder), "set_tiles", {"seat": seat, "front": _names(front)}))
    banker = strategy(banker_way).choose(rnd.hands[rnd.banker_seat], rules).front.tiles
    args = {"seat": rnd.banker_seat, "front": _names(banker)}
    t.execute(Command(actor_of(rnd.banker_authority()), "set_tiles", args))
    t.execute(Command(Actor.DEALER, "settle", {}))
    settled = t.last_settlement
    assert settled is not None
    by_seat = {int(r["seat"]): CODE[str(r["seat_result"])] for r in settled.results}
    return t, [by_seat[s] for s in range(2, places + 1)]


def _names(tiles: Sequence[Tile]) -> list[JsonValue]:
    return [str(t) for t in tiles]


def _deals(label: str, n: int) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """``n`` woodpile orders and ``n`` four-dice throws from the engine's own generator."""
    rng = Rng.seeded("tiles-sim", label)
    orders = [rng.permutation(32) for _ in range(n)]
    dice = [rng.dice(4) for _ in range(n)]
    return orders, dice


@pytest.mark.parametrize(
    ("player_way", "banker_way"),
    [("house-way", "house-way"), ("max-back", "house-way"), ("house-way", "max-back")],
)
def test_pg_rounds_match_the_engine_seat_by_seat(player_way: str, banker_way: str) -> None:
    """PG-1.2 / PG-1.4 / PG-R1 dealing, PG-5 settings, PG-6.1 … PG-6.4 comparison: the
    kernel gives every seat of every round the engine's result."""
    orders, dice = _deals(f"pg {player_way} {banker_way}", 60)
    expected = [
        _engine_round(PAIGOW, dice=d, order=o, player_way=player_way, banker_way=banker_way)[1]
        for o, d in zip(orders, dice, strict=True)
    ]
    got = tiles_sim.play_orders(
        orders,
        [sum(d) for d in dice],
        {"game": "paigow", "player_strategy": player_way, "banker_strategy": banker_way},
    )
    assert got.shape == (60, 7)
    assert got.tolist() == expected
    assert {c for row in expected for c in row} == {-1, 0, 1}  # all three results occur


@pytest.mark.parametrize("banker_way", ["house-way", "max-back"])
def test_tw_6b_6c_rounds_match_the_engine_seat_by_seat(banker_way: str) -> None:
    """TW 8 places: the players set by house way in the engine and the dealer re-sets them
    to the forced setting (TW-6b / TW-R1); the kernel plays the forced setting; TW-6c
    compares. Every seat's result is the engine's."""
    orders, dice = _deals(f"tw8 {banker_way}", 60)
    expected = []
    resets = 0
    for o, d in zip(orders, dice, strict=True):
        t, res = _engine_round(
            TAIWAN, dice=d, order=o, player_way="house-way", banker_way=banker_way
        )
        result = t.last_result()
        assert result is not None
        resets += len(result.resets)
        expected.append(res)
    got = tiles_sim.play_orders(
        orders, [sum(d) for d in dice], {"game": "taiwan", "banker_strategy": banker_way}
    )
    assert got.tolist() == expected
    assert resets > 0  # the re-set path was exercised


def test_tw_2d_r2_four_place_shoes_match_the_engine() -> None:
    """TW-2d / TW-R2: a woodpile serves two 4-place rounds, the second dealing the four
    remaining stacks after its own dice (TW-2b: a count on the banker still deals him the
    first stack; only the settlement order changes)."""
    orders, dice = _deals("tw4", 80)  # 40 shoes, 80 rounds
    shoes = orders[:40]
    expected = []
    for k, o in enumerate(shoes):
        first, res1 = _engine_round(
            TAIWAN, dice=dice[2 * k], order=o, player_way="max-back",
            banker_way="house-way", places=4,
        )  # fmt: skip
        _, res2 = _engine_round(
            TAIWAN, dice=dice[2 * k + 1], order=o, player_way="max-back",
            banker_way="house-way", places=4, carried=first,
        )  # fmt: skip
        expected += [res1, res2]
    got = tiles_sim.play_orders(shoes, [sum(d) for d in dice], {"game": "taiwan", "places": 4})
    assert got.shape == (80, 3)
    assert got.tolist() == expected


def test_odd_four_place_rounds_use_a_last_half_shoe() -> None:
    """3 rounds at 4 places need two woodpiles; the third round is the first of shoe 2."""
    orders, dice = _deals("tw4 odd", 4)
    totals = [sum(d) for d in dice[:3]]
    opts = {"game": "taiwan", "places": 4}
    got = tiles_sim.play_orders(orders[:2], totals, opts)
    again = tiles_sim.play_orders(orders[1:2], totals[2:], opts)
    assert got[2].tolist() == again[0].tolist()
    with pytest.raises(InvalidInput, match="PG-1.4"):
        tiles_sim.play_orders(orders[:1], totals, opts)


# --- the tables --------------------------------------------------------------------------------


def test_t_1_hand_index_is_a_bijection_onto_the_35960_hands() -> None:
    seen = {tiles_sim.hand_index(c) for c in itertools.combinations(range(32), 4)}
    assert seen == set(range(35_960))
    with pytest.raises(InvalidInput, match="T-1"):
        tiles_sim.hand_index([0, 0, 1, 2])


def test_pg_6_1_6_2_and_tw_6c_tables() -> None:
    """PG: a copy and 0 against 0 in front go to the banker (PG-6.1 / PG-6.2) — no 0 code;
    one hand each is a push (PG-6.4). TW: an equal pair lets the other decide (TW-6c)."""
    pg = tiles_sim.compare_tables("paigow")
    ranks = range(1, pg.front.shape[0])
    assert all(pg.front[r, r] == -1 and pg.back[r, r] == -1 for r in ranks)
    assert 0 not in pg.front[1:, 1:] and 0 not in pg.back[1:, 1:]
    # the front and back tables differ exactly on 0-point fronts (PG-6.2)
    assert (pg.front[1:, 1:] != pg.back[1:, 1:]).any()
    assert pg.seat[2, 2] == 1 and pg.seat[0, 0] == -1
    assert pg.seat[2, 0] == pg.seat[0, 2] == 0
    tw = tiles_sim.compare_tables("taiwan")
    assert all(tw.front[r, r] == 0 for r in range(1, tw.front.shape[0]))
    assert (tw.front == tw.back).all()  # TW-9a: no special front rule
    assert tw.seat.tolist() == [[-1, -1, 0], [-1, 0, 1], [0, 1, 1]]


# --- the distribution ---------------------------------------------------------------------------


def test_pg_house_way_distribution_given_a_banker_hand_within_4_sigma() -> None:
    """Exact, from the readable path: the banker (house way) holds 6-6 4-5 2-2 1-4; every one
    of the C(28, 4) = 20,475 player hands is set by house way and compared (PG-6). The
    kernel, dealt that banker hand and the 28 other tiles shuffled, agrees within 4 sigma."""
    banker_tiles = [Tile(6, 6), Tile(4, 5), Tile(2, 2), Tile(1, 4)]
    way = strategy("house-way")
    banker = way.choose(banker_tiles, PG1985)
    rest = list(range(32))
    for t in banker_tiles:
        rest.remove(FULL_SET.index(t))
    tally = {1: 0, -1: 0, 0: 0}
    memo: dict[tuple[Tile, ...], int] = {}
    for combo in itertools.combinations(rest, 4):
        tiles = tuple(sorted(FULL_SET[i] for i in combo))
        if tiles not in memo:
            res = pg_compare_seat(way.choose(tiles, PG1985), banker)
            memo[tiles] = CODE[res.value]
        tally[memo[tiles]] += 1
    total = sum(tally.values())
    assert total == 20_475
    exact = {code: Fraction(n, total) for code, n in tally.items()}

    rounds = 30_000
    gen = generator(20240607)
    pile = np.empty((rounds, 32), dtype=np.int64)
    pile[:, :4] = [FULL_SET.index(t) for t in banker_tiles]  # the banker's stack
    pile[:, 4:] = gen.permuted(np.tile(np.array(rest), (rounds, 1)), axis=1)
    totals = np.full(rounds, 9)  # (9 - 1) mod 8 = 0: the banker takes the first stack
    got = tiles_sim.play_orders(pile, totals, {"game": "paigow"})
    n = got.size
    for code in (1, -1):
        p = float(exact[code])
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs((got == code).sum() / n - p) < 4 * sigma, (code, p)


def _cluster_z(seat_results: np.ndarray, code: int, p: Fraction, per: int = 1) -> float:
    """z of the share of seat results equal to ``code`` against the exact ``p``, the standard
    error taken over woodpiles of ``per`` rounds: the seats of one round share the banker's
    hand and the rounds of one woodpile its tiles, so seat results are not independent;
    woodpiles are."""
    hits = (seat_results == code).reshape(-1, per * seat_results.shape[1])
    share = hits.mean(axis=1)
    se = share.std(ddof=1) / np.sqrt(share.size)
    return float((share.mean() - float(p)) / se)


def test_pg_chunk_matches_the_exact_par_within_4_sigma() -> None:
    """House way against house way (PG): P(win), P(loss) of a player seat over 200,000
    simulated rounds against :func:`analysis.tiles.paigow_par`, exact over all deals; the
    line's name, labels and nets are the PAR line's."""
    par = paigow_par("house-way", "house-way")
    line = par.lines[0]
    r = tiles_sim.simulate_chunk(7, 0, 200_000, {"game": "paigow", "series": True})
    assert list(r.counts) == [line.name]
    assert r.nets[line.name] == {o.label: o.net for o in line.outcomes}
    assert r.decisions(line.name) == 7 * 200_000
    s = r.series["seat_result"]
    assert (s == 1).sum() == r.counts[line.name]["win"]
    for code, label in ((1, "win"), (-1, "loss")):
        assert abs(_cluster_z(s, code, line.probability(label))) < 4, label


def test_tw_r2_four_place_chunk_matches_the_exact_par_within_4_sigma() -> None:
    """TW, 4 places (TW-2d / TW-R2): each round's deal is uniform, so over both rounds of a
    shoe a forced player's P(win), P(loss) are :func:`analysis.tiles.taiwan_par`'s."""
    line = taiwan_par("house-way").lines[0]
    r = tiles_sim.simulate_chunk(11, 3, 200_000, {"game": "taiwan", "places": 4, "series": True})
    assert list(r.counts) == [line.name]
    assert r.nets[line.name] == {o.label: o.net for o in line.outcomes}
    assert r.decisions(line.name) == 3 * 200_000
    for code, label in ((1, "win"), (-1, "loss")):
        z = _cluster_z(r.series["seat_result"], code, line.probability(label), per=2)
        assert abs(z) < 4, label


# --- the chunk: determinism, tallies, options --------------------------------------------------


def test_same_seed_same_results_and_chunks_differ() -> None:
    opts = {"game": "paigow", "series": True, "bank_line": True}
    a = tiles_sim.simulate_chunk(5, 2, 70_000, opts)  # more than one batch
    b = tiles_sim.simulate_chunk(5, 2, 70_000, opts)
    c = tiles_sim.simulate_chunk(5, 3, 70_000, opts)
    assert a.counts == b.counts
    assert (a.series["seat_result"] == b.series["seat_result"]).all()
    assert not (a.series["seat_result"] == c.series["seat_result"]).all()
    assert a.rounds == 70_000 and a.series["seat_result"].shape == (70_000, 7)
    # the counts are the tally of the series, and merging adds them
    again = tiles_sim.tally(a.series["seat_result"], opts)
    assert again.counts == a.counts and again.nets == a.nets
    merged = a.merge(c)
    assert merged.rounds == 140_000
    assert merged.decisions("bank") == 140_000


def test_cross_moments_are_the_per_round_second_moments_of_the_series() -> None:
    """The seats of a round share the banker's hand (PG-6.3): the result carries Σ over
    rounds of count_a · count_b so the statistics can treat a round as one cluster."""
    from macau_tables.analysis.simresult import cross_key

    r = tiles_sim.simulate_chunk(9, 0, 5_000, {"game": "paigow", "series": True})
    seats = r.series["seat_result"].astype(np.int64)
    per_round = {
        "win": (seats == 1).sum(axis=1),
        "loss": (seats == -1).sum(axis=1),
        "push": (seats == 0).sum(axis=1),
    }
    moments = r.cross["player house-way vs banker house-way"]
    for a in per_round:
        for b in per_round:
            assert moments[cross_key(a, b)] == int((per_round[a] * per_round[b]).sum())
    merged = r.merge(r)
    assert merged.cross["player house-way vs banker house-way"][cross_key("win", "loss")] == (
        2 * moments[cross_key("win", "loss")]
    )


def test_series_only_when_asked_and_zero_rounds() -> None:
    r = tiles_sim.simulate_chunk(1, 0, 100, {"game": "taiwan"})
    assert r.series == {} and r.rounds == 100
    assert r.decisions("forced player vs banker house-way") == 700
    empty = tiles_sim.simulate_chunk(1, 0, 0, {"game": "taiwan", "places": 4, "series": True})
    assert empty.rounds == 0 and empty.series["seat_result"].shape == (0, 3)


def test_pg_r5_and_tw_r3_bank_line() -> None:
    """The bank's net per round against one unit on every seat: PG-R5 charges the
    commission on the round's net win, TW-R3 (TW default) on each bet the bank wins."""
    results = np.array([[-1, -1, -1, 1, 0, 0, 0], [1, 1, 0, 0, 0, 0, -1]], dtype=np.int8)
    pg = tiles_sim.tally(results, {"game": "paigow", "bank_line": True})
    assert pg.counts["bank"] == {"won3_lost1": 1, "won1_lost2": 1}
    assert pg.nets["bank"] == {"won3_lost1": 2 * Fraction(24, 25), "won1_lost2": Fraction(-1)}
    assert pg.mean("bank") == (Fraction(48, 25) - 1) / 2
    tw = tiles_sim.tally(results, {"game": "taiwan", "bank_line": True})
    assert tw.nets["bank"]["won3_lost1"] == 3 * Fraction(19, 20) - 1
    assert tw.nets["bank"]["won1_lost2"] == Fraction(19, 20) - 2
    line = "forced player vs banker house-way"
    assert tw.counts[line] == {"win": 3, "loss": 4, "push": 7}
    assert tw.nets[line]["win"] == Fraction(19, 20)  # TW-8: 5%


def test_pg_1_1_shuffle_orders_are_the_engines_fisher_yates() -> None:
    """The woodpile from draws j: for i = 31 … 1 swap positions i and j (core.rng's
    permutation), so every row is a permutation of the 32 tiles."""
    gen = generator(99)
    swaps = gen.integers(0, np.arange(32, 1, -1), size=(500, 31)).astype(np.uint8)
    got = tiles_sim.shuffle_orders(swaps)
    for row, draws in zip(got, swaps, strict=True):
        pile = list(range(32))
        for k, j in enumerate(draws):
            i = 31 - k
            pile[i], pile[j] = pile[j], pile[i]
        assert row.tolist() == pile
    assert (np.sort(got, axis=1) == np.arange(32)).all()


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"game": "paigow", "places": 4}, "PG-1.4"),
        ({"game": "taiwan", "places": 6}, "TW-2d"),
        ({"game": "taiwan", "player_strategy": "house-way"}, "TW-6b"),
        ({"game": "paigow", "player_strategy": "forced"}, "PG-5.1"),
        ({"game": "paigow", "commission": 0.04}, "PG-4.2"),
        ({"game": "taiwan", "commission": Fraction(1)}, "TW-8"),
        ({"game": "paigow", "bank_commission": "gross"}, "PG-R5"),
    ],
)
def test_bad_options_name_the_rule(options: dict[str, object], rule: str) -> None:
    with pytest.raises(InvalidInput, match=rule):
        tiles_sim.simulate_chunk(1, 0, 10, options)


@pytest.mark.parametrize(
    "options",
    [
        {"game": "fan-tan"},
        {"player_strategy": "best"},
        {"banker_strategy": 3},
        {"series": "yes"},
        {"seats": 8},
    ],
)
def test_bad_options_raise_invalid_input(options: dict[str, object]) -> None:
    with pytest.raises(InvalidInput):
        tiles_sim.simulate_chunk(1, 0, 10, options)


def test_options_accepted_spellings() -> None:
    opts = tiles_sim.parse_options(
        {"game": "taiwan", "player_strategy": "max_back", "banker_strategy": "forced",
         "commission": "1/20"}
    )  # fmt: skip
    assert opts.player_strategy == "forced" and opts.banker_strategy == "max-back"
    assert opts.commission == Fraction(1, 20)
    assert opts.line_name == "forced player vs banker max-back"
    with pytest.raises(InvalidInput, match="rounds"):
        tiles_sim.simulate_chunk(1, 0, -1, {})
    with pytest.raises(InvalidInput, match="T-1"):
        tiles_sim.play_orders([[0] * 32], [9], {})
    with pytest.raises(InvalidInput, match="PG-1.2"):
        tiles_sim.play_orders([list(range(32))], [3], {})


def test_optimal_player_is_the_best_response_to_this_banker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``optimal`` (PG) sets as ``analysis.tiles.best_setting`` against the banker's strategy
    and commission of the options, what ``paigow_par``'s optimal player plays; its full
    table (tens of seconds) is not built here: the test checks what is asked for."""
    hands = [parse_tiles(["6-6 4-5 2-2 1-4"]), parse_tiles(["1-1 3-3 5-6 1-2"])]
    choose = tiles_sim.chooser(PG1985, "optimal", "max-back", Fraction(1, 20))
    for four in hands:
        want = best_setting(four, PG1985, vs="max-back", commission=Fraction(1, 20))
        got = choose(tuple(four))
        assert (got.front.value.key, got.back.value.key) == (
            want.front.value.key,
            want.back.value.key,
        )
    asked: list[tuple[object, ...]] = []
    monkeypatch.setattr(tiles_sim, "setting_table", lambda *args: asked.append(args))
    opts = tiles_sim.parse_options(
        {"player_strategy": "optimal", "banker_strategy": "max-back", "commission": "1/20"}
    )
    opts.player_table()
    assert asked == [(PG1985, "optimal", "max-back", Fraction(1, 20))]
    assert opts.line_name == "player optimal vs banker max-back"
    with pytest.raises(InvalidInput, match="banker's best response"):
        tiles_sim.parse_options({"banker_strategy": "optimal"})
    with pytest.raises(InvalidInput, match="TW-6b"):
        tiles_sim.parse_options({"game": "taiwan", "player_strategy": "optimal"})
