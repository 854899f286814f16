"""Sessions and betting systems, on hand-made outcome series worked by hand, on
random series (the numba loop against the readable :func:`play`), and craps decisions
against the readable craps engine."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.analysis.sessions import (
    AfterStreak,
    Always,
    BaccaratBets,
    CrapsBets,
    Custom,
    DAlembert,
    Fibonacci,
    Flat,
    History,
    Martingale,
    Paroli,
    Player,
    Rounds,
    TileBets,
    fibonacci,
    play,
    run_sessions,
    system,
)
from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import Money
from macau_tables.games.craps import CrapsTable

P, B, T = 0, 1, 2  # series["outcome"]: 0 player, 1 banker, 2 tie
# Betting Player: lose lose lose win lose win win push win lose
HANDS = [B, B, B, P, B, P, P, T, P, B]


def bacc(outcome: list[int], **extra: list[bool]) -> dict[str, np.ndarray]:
    s = {"outcome": np.array(outcome, dtype=np.int8)}
    for k, v in extra.items():
        s[k] = np.array(v, dtype=np.bool_)
    return s


def stakes_and_path(rounds: Rounds, player: Player) -> tuple[list[int], list[Fraction]]:
    """The stakes the readable session placed (read back through a Custom spy) and the
    bankroll path; the fast loop's path must be the same."""
    seen: list[int] = []
    inner = player.system

    def spy(h: History) -> int:
        s = inner.stake(level[0], h.base, h)
        seen.append(min(s, player.max_bet))
        return s

    level = [inner.start()]

    def track(h: History) -> int:
        if h.nets:  # move the level after the last decision, as play() does
            last = h.nets[-1]
            level[0] = inner.next(level[0], (last > 0) - (last < 0))
        return spy(h)

    spied = Player(player.bankroll, player.bet, Custom(track), player.stop_loss,
                   player.stop_win, player.session_rounds, player.table_max)  # fmt: skip
    session = play(rounds, spied, 0)
    fast = run_sessions(rounds, player, 1, keep=1)
    readable = play(rounds, player, 0)
    assert readable.path == session.path
    assert fast.paths[0][: len(readable.path)] == readable.path
    assert fast.finals[0] == readable.final and fast.ends[0] == readable.end
    return seen[: len(readable.path) - 1], list(readable.path)


PLAYER_BET = BaccaratBets(Always("player"))


@pytest.mark.parametrize(
    ("sys", "stakes"),
    [
        (Flat(), [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
        (Martingale(), [1, 2, 4, 8, 1, 2, 1, 1, 1, 1]),
        (Paroli(3), [1, 1, 1, 1, 2, 1, 2, 4, 4, 1]),
        (DAlembert(), [1, 2, 3, 4, 3, 4, 3, 2, 2, 1]),
        (Fibonacci(), [1, 1, 2, 3, 1, 2, 1, 1, 1, 1]),
    ],
)
def test_each_system_bets_what_it_says_on_a_hand_made_series(
    sys: object, stakes: list[int]
) -> None:
    """BA-11/BA-12/BA-17: Player even money, a tie pushes; the stakes worked by hand."""
    rounds = PLAYER_BET.compile(bacc(HANDS))
    player = Player(100, 1, sys, session_rounds=10)  # type: ignore[arg-type]
    seen, path = stakes_and_path(rounds, player)
    assert seen == stakes
    signs = {B: -1, P: 1, T: 0}
    expected = [Fraction(100)]
    for s, h in zip(stakes, HANDS, strict=True):
        expected.append(expected[-1] + s * signs[h])
    assert path == expected


def test_martingale_is_capped_at_the_table_maximum() -> None:
    rounds = PLAYER_BET.compile(bacc([B] * 6 + [P]))
    seen, _ = stakes_and_path(rounds, Player(1000, 1, Martingale(), session_rounds=7, table_max=8))
    assert seen == [1, 2, 4, 8, 8, 8, 8]


def test_fibonacci_numbers() -> None:
    assert [fibonacci(i) for i in range(8)] == [1, 1, 2, 3, 5, 8, 13, 21]


def test_ruin_is_when_the_bankroll_cannot_cover_the_next_bet() -> None:
    rounds = PLAYER_BET.compile(bacc([B] * 10))
    for method in ("fast", "readable"):
        rep = run_sessions(rounds, Player(10, 1, Martingale(), session_rounds=10), method=method)
        # stakes 1, 2, 4 lost (7): 3 left, the next stake 8 cannot be covered
        assert rep.ends == ("ruin",) and rep.finals == (Fraction(3),) and rep.played == (3,)
        assert rep.risk_of_ruin == 1


def test_stop_loss_and_stop_win() -> None:
    rounds = PLAYER_BET.compile(bacc([B] * 10 + [P] * 10))
    for method in ("fast", "readable"):
        lose = run_sessions(
            rounds, Player(100, 2, stop_loss=5, session_rounds=10), 1, method=method
        )
        assert (lose.ends, lose.finals, lose.played) == (("stop_loss",), (Fraction(94),), (3,))
        assert lose.p("stop_loss") == 1 and lose.risk_of_ruin == 1
        # second window: ten Player wins, flat 2 with a stop-win of 7: stops at +8
        win = run_sessions(rounds, Player(100, 2, stop_win=7, session_rounds=10), method=method)
        assert win.ends == ("completed", "stop_win") and win.finals[1] == 108
        assert win.played == (10, 4) and win.p("stop_win") == Fraction(1, 2)


def test_banker_commission_is_exact() -> None:
    """BA-18: a Banker win nets 19/20; BA-R7 (no commission): 1, but 1/2 on a six."""
    series = bacc([B, B, P, T], banker_six=[False, True, False, False])
    for method in ("fast", "readable"):
        rep = run_sessions(BaccaratBets().compile(series), Player(100, 10, session_rounds=4),
                           method=method, keep=1)  # fmt: skip
        assert rep.paths[0] == (100, Fraction(219, 2), 119, 109, 109)
        nc = BaccaratBets(no_commission=True).compile(series)
        rep = run_sessions(nc, Player(100, 10, session_rounds=4), method=method, keep=1)
        assert rep.paths[0] == (100, 110, 115, 105, 105)


def test_tie_and_pair_bets_pay_ba17() -> None:
    series = bacc([T, P, B], player_pair=[False, True, False], banker_pair=[True, True, False])
    tie = run_sessions(
        BaccaratBets(Always("tie")).compile(series), Player(100, 1, session_rounds=3)
    )
    assert tie.finals == (Fraction(106),)  # +8 -1 -1
    pp = BaccaratBets(Always("player_pair")).compile(series)
    assert run_sessions(pp, Player(100, 1, session_rounds=3)).finals == (Fraction(109),)
    bp = BaccaratBets(Always("banker_pair")).compile(series)
    assert run_sessions(bp, Player(100, 1, session_rounds=3)).finals == (Fraction(121),)


def test_banker_after_two_players_skips_ties() -> None:
    outcome = np.array([P, P, B, P, T, P, B, B, P, P, P], dtype=np.int8)
    sel = AfterStreak("banker", "player", 2)
    assert sel.mask(outcome).tolist() == [
        False, False, True, False, False, False, True, False, False, False, True,
    ]  # fmt: skip
    rounds = BaccaratBets(sel).compile({"outcome": outcome})
    rep = run_sessions(rounds, Player(100, 20, session_rounds=11), keep=1)
    # bets on hands 2 (Banker wins, +19), 6 (Banker wins, +19), 10 (Player wins, -20)
    assert rep.finals == (Fraction(118),)
    assert rep.paths[0] == (100, 100, 100, 119, 119, 119, 119, 138, 138, 138, 138, 118)


def test_custom_system_sees_the_history_and_may_sit_out() -> None:
    calls: list[tuple[int, Fraction, int]] = []

    def fn(h: History) -> int:
        calls.append((h.round, h.bankroll, len(h.nets)))
        return 0 if h.round == 1 else 3

    rounds = PLAYER_BET.compile(bacc([P, P, B]))
    s = play(rounds, Player(50, 1, Custom(fn), session_rounds=3))
    assert calls == [(0, 50, 0), (1, 53, 1), (2, 53, 1)]
    assert s.final == 50 and s.path == (50, 53, 53, 50)
    with pytest.raises(InvalidInput, match="plain Python"):
        run_sessions(rounds, Player(50, 1, Custom(fn), session_rounds=3), method="fast")


def test_report_percentiles_and_means() -> None:
    rounds = PLAYER_BET.compile(bacc([P, B, B, B, P, P, P, P]))
    rep = run_sessions(rounds, Player(10, 1, session_rounds=2))
    assert rep.finals == (10, 8, 12, 12)
    assert rep.mean_final == Fraction(21, 2) and rep.mean_rounds == 2
    assert [rep.percentile(q) for q in (0, 25, 50, 75, 100)] == [8, 8, 10, 12, 12]
    assert rep.to_json()["sessions"] == 4 and rep.p("completed") == 1


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: Player(0, 1), "bankroll"),
        (lambda: Player(10, 0), "bet"),
        (lambda: Player(10, 5, table_max=4), "table maximum"),
        (lambda: Player(10, 1, stop_loss=0), "stop_loss"),
        (lambda: Always("dragon"), "BA-13"),
        (lambda: CrapsBets(bigs=(7,)), "CR-9"),
        (lambda: CrapsBets(line="come"), "line"),  # type: ignore[arg-type]
        (lambda: system("labouchere"), "no betting system"),
        (lambda: TileBets(game="mahjong"), "tile games"),  # type: ignore[arg-type]
    ],
)
def test_bad_input_raises(make: object, match: str) -> None:
    with pytest.raises(InvalidInput, match=match):
        make()  # type: ignore[operator]


def test_more_sessions_than_the_series_holds_is_refused() -> None:
    rounds = PLAYER_BET.compile(bacc(HANDS))
    with pytest.raises(InvalidInput, match="need 20"):
        run_sessions(rounds, Player(10, 1, session_rounds=10), 2)
    with pytest.raises(InvalidInput, match="options"):
        BaccaratBets().compile({"total": np.zeros(3, np.int8)})


# --- random series: the numba loop equals the readable definition; money is conserved ---------


SYSTEMS = st.sampled_from([Flat(), Martingale(), Paroli(2), Paroli(3), DAlembert(), Fibonacci()])


@settings(max_examples=60, deadline=None)
@given(
    outcome=st.lists(st.integers(0, 2), min_size=12, max_size=60),
    sixes=st.lists(st.booleans(), min_size=60, max_size=60),
    bet=st.sampled_from(["banker", "player", "tie"]),
    no_commission=st.booleans(),
    streak=st.booleans(),
    sys=SYSTEMS,
    bankroll=st.integers(1, 300),
    base=st.integers(1, 7),
    stop_loss=st.none() | st.integers(1, 200),
    stop_win=st.none() | st.integers(1, 200),
    table_max=st.none() | st.integers(7, 64),
    length=st.integers(1, 12),
)
def test_fast_equals_readable_and_money_is_conserved(
    outcome: list[int], sixes: list[bool], bet: str, no_commission: bool, streak: bool,
    sys: object, bankroll: int, base: int, stop_loss: int | None, stop_win: int | None,
    table_max: int | None, length: int,
) -> None:  # fmt: skip
    n = len(outcome)
    series = bacc(outcome, banker_six=[s and o == B for s, o in zip(sixes, outcome, strict=False)])
    sel = AfterStreak(bet, "player", 1) if streak else Always(bet)
    rounds = BaccaratBets(sel, no_commission=no_commission).compile(series)
    player = Player(bankroll, base, sys, stop_loss, stop_win, length, table_max)  # type: ignore[arg-type]
    fast = run_sessions(rounds, player, keep=n)
    slow = run_sessions(rounds, player, method="readable", keep=n)
    assert fast == slow
    for i in range(fast.sessions):
        s = play(rounds, player, i * length)
        # money conserved: the final bankroll is the start plus what each bet paid
        assert s.final == bankroll + sum((rounds.net(r, k) for r, k in s.bets), Fraction(0))
        assert all(rounds.active[r] for r, _ in s.bets)
        assert s.final == fast.finals[i] and s.path == fast.paths[i][: len(s.path)]
        assert min(s.path) >= 0  # never below zero: every bet was covered
        if s.end == "ruin":
            assert s.rounds < length
        if s.end == "completed":
            assert s.rounds == length


# --- craps: decisions from dice, against the engine -------------------------------------------


def engine_nets(dice: list[tuple[int, int]], bets: CrapsBets, stake: int) -> list[Fraction]:
    """Play the program on the readable CrapsTable and return the player's net per line
    decision (balance + layout, before the decision's come-out and after it ends)."""
    table = CrapsTable(["p"])
    table.buy_in("p", Money.of(1_000_000))

    def worth() -> Fraction:
        return Fraction(table.balance("p").minor + table.on_layout("p").minor, 100)

    nets: list[Fraction] = []
    start = worth()
    line_id: int | None = None
    big = {n: int(stake * bets.big_ratio) for n in bets.bigs}
    for d1, d2 in dice:
        if line_id is None:
            line_id = table.place_bet("p", bets.line, Money.of(stake))[0].bet_id
        mine = {b.kind: b for b in table.bets_of("p")}
        for n, units in big.items():
            if f"big{n}" not in mine and units:
                table.place_bet("p", f"big{n}", Money.of(units))
        flat = table.bet(line_id)
        if bets.odds == "max" and flat.point is not None and table.odds_on(line_id) is None:
            units = int(stake * bets.odds_multiplier(flat.point))
            kind = "pass_odds" if bets.line == "pass" else "dont_pass_odds"
            if units:
                table.place_bet("p", kind, Money.of(units), on=line_id)
        table.throw_dice(d1, d2)
        if line_id not in {b.id for b in table.bets_of("p")}:  # the line bet was decided
            for b in table.bets_of("p"):
                table.take_down("p", b.id)  # CR-R6: the Big bets come down with the decision
            nets.append(worth() - start)
            start = worth()
            line_id = None
    return nets


@settings(max_examples=25, deadline=None)
@given(
    dice=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), min_size=1, max_size=80),
    line=st.sampled_from(["pass", "dont_pass"]),
    odds=st.sampled_from(["max", "none"]),
    bigs=st.sampled_from([(), (6, 8), (5, 4, 10)]),
    stake=st.integers(1, 25),
)
def test_craps_decisions_pay_what_the_engine_pays(
    dice: list[tuple[int, int]], line: str, odds: str, bigs: tuple[int, ...], stake: int
) -> None:
    """CR-2.1/CR-2.2/CR-3.1/CR-3.2 line and odds, CR-9…CR-11 with CR-R4 unit payouts."""
    bets = CrapsBets(line, odds, bigs)  # type: ignore[arg-type]
    rounds = bets.compile({"total": np.array([a + b for a, b in dice], dtype=np.int8)})
    expected = engine_nets(dice, bets, stake)
    assert [rounds.net(k, stake) for k in range(len(rounds))] == expected


def test_dont_pass_bars_twelve_and_max_odds_pay_by_point() -> None:
    totals = np.array([12, 6, 8, 6, 11, 4, 7], dtype=np.int8)
    dont = CrapsBets("dont_pass", "max").compile({"total": totals})
    # 12: push (CR-3.1); point 6 made: lose 6 + lay 7 (7 * 5/6 <= 6, CR-R2); 11 loses;
    # point 4, then 7: win 6 + lay 12 at 1:2 = 6 (CR-3.2)
    assert [dont.net(k, 6) for k in range(len(dont))] == [0, -13, -6, 12]
    pas = CrapsBets("pass", "max", (6, 8)).compile({"total": totals})
    # 12 craps: -6, and Big 6/8 stay up undecided (taken down); 6 8 6: the point 6 made +6,
    # odds 5 at 6:5 +6, Big 6 wins twice (re-placed) +14, Big 8 once +7; 11: +6;
    # 4 then 7: -6 - odds 3 - Big 6 - Big 8
    assert [pas.net(k, 6) for k in range(len(pas))] == [-6, 33, 6, -21]
    assert pas.exposure(6) == 6 + 5 + 6 + 6


# --- the tile games --------------------------------------------------------------------------


def test_tile_seat_and_bank_nets() -> None:
    """PG-4.2 4% on a player win; PG-R5 the bank's commission on its round's net win;
    TW-R3 on each bet the bank wins."""
    seats = np.array([[1, -1, -1, 0, -1, 1, -1], [-1, -1, -1, -1, -1, -1, -1]], dtype=np.int8)
    series = {"seat_result": seats}
    seat = TileBets("paigow", "player", 0).compile(series)
    assert [seat.net(r, 10) for r in range(2)] == [Fraction(48, 5), -10]
    bank = TileBets("paigow", "banker").compile(series)
    # round 0: the bank beats 4 seats, loses 2: net +2 units x 10 less 4%
    assert [bank.net(r, 10) for r in range(2)] == [Fraction(96, 5), Fraction(336, 5)]
    assert bank.exposure(10) == 70
    tw = TileBets("taiwan", "banker").compile(series)
    assert [tw.net(r, 10) for r in range(2)] == [4 * Fraction(19, 2) - 20, 7 * Fraction(19, 2)]
    rep = run_sessions(bank, Player(100, 10, session_rounds=2))
    assert rep.finals == (100 + Fraction(96, 5) + Fraction(336, 5),)
    poor = run_sessions(bank, Player(69, 10, session_rounds=2))
    assert poor.ends == ("ruin",)
