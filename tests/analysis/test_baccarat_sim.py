"""The baccarat simulation kernel against the readable engine and the exact odds.

- Engine comparison: the engine's own shuffles (the shoe its committed seed orders), and
  its continuous shuffler's picks, fed to the kernel: the same cards hand by hand, the same
  burns (BA-2.1 / BA-R1), demonstration hands (BA-2.2), hands per shoe (BA-3.1), winners
  (BA-11, BA-12), pairs (BA-13), and the same settlement of every BA-13 bet (BA-17, BA-18,
  BA-R7) as the engine's ``HandSettled`` rows.
- Distribution: millions of simulated hands within 4 sigma of the exact PAR.
- Determinism: same seed and chunk → same hands; other chunks → other streams.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pytest

from macau_tables.analysis.baccarat import baccarat_par
from macau_tables.analysis.kernels import baccarat_core
from macau_tables.analysis.kernels import baccarat_sim as sim
from macau_tables.analysis.kernels.rng import bitgen_address, generator
from macau_tables.analysis.par import ParSheet
from macau_tables.analysis.simresult import ChunkResult
from macau_tables.core.errors import BetNotAllowed, InvalidInput
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import (
    BaccaratPhase,
    BaccaratTable,
    BetKind,
    Card,
    CardsBurned,
    HandResult,
    HandSettled,
    ThirdCardDealt,
    banker_draws,
    full_set,
    play_out,
    player_draws,
    total,
)

STAKE = Money.of(100)
OUTCOME_CODE = {"P": sim.PLAYER_WINS, "B": sim.BANKER_WINS, "T": sim.TIE}


# --- the engine, played and recorded -----------------------------------------------------------


@dataclass
class EngineRun:
    shoes: list[list[Card]] = field(default_factory=list)  # each shoe's order
    burns: list[int] = field(default_factory=list)  # cards burned at each shoe's start
    hands: list[HandResult] = field(default_factory=list)  # demonstrations included
    settled: Counter[tuple[str, str, Fraction]] = field(default_factory=Counter)
    cut_on_third_card: int = 0  # hands whose third card brought the cut card out
    draws: list[tuple[int, int]] = field(default_factory=list)  # machine: (n, pick < n)


def machine_picks(run: EngineRun, decks: int) -> None:
    """The continuous shuffler's picks: each card of a hand is ``sorted(full set less the
    hand's cards)[j]``; ``j`` read back from the cards the engine dealt (the first index of
    that card, the same card whichever copy)."""
    for h in run.hands:
        pool = Counter(full_set(decks))
        order = [h.player_cards[0], h.banker_cards[0], h.player_cards[1], h.banker_cards[1]]
        order += list(h.player_cards[2:]) + list(h.banker_cards[2:])
        for card in order:
            cards = sorted(pool.elements())
            run.draws.append((len(cards), cards.index(card)))
            pool[card] -= 1


def _bet_every_kind(t: BaccaratTable) -> None:
    """One unit on each BA-13 bet (Player/Banker bets left on after a tie stay, BA-12)."""
    on = {b.kind for b in t.bets}
    for kind in BetKind:
        if kind not in on:
            t.place_bet("alice", kind, STAKE)


def _record_settlement(run: EngineRun, ev: HandSettled) -> None:
    for row in ev.results:
        if row["result"] == "win":
            net = Fraction(row["won"] - row["commission"], row["stake"])
        else:
            net = Fraction(-1 if row["result"] == "lose" else 0)
        run.settled[(row["bet"], row["result"], net)] += 1


def play_engine(
    options: Mapping[str, object], seed: str, shoes: int = 0, hands: int = 0
) -> EngineRun:
    """Play ``shoes`` whole shoes (or, on a continuous shuffler, ``hands`` hands) with the
    engine, betting every kind each hand, and record what happened."""
    rules, _ = sim.rules_from_options(options)
    run = EngineRun()
    rng = Rng.seeded(seed)
    t = BaccaratTable(rules)
    t.sit("alice", Money.of(10_000_000), seat=1)

    def hand() -> None:
        if t.phase is BaccaratPhase.BETTING:
            _bet_every_kind(t)
        events = t.play_hand(rng)
        run.cut_on_third_card += sum(
            isinstance(e, ThirdCardDealt) and e.cut_card_out for e in events
        )
        (settled,) = [e for e in events if isinstance(e, HandSettled)]
        _record_settlement(run, settled)
        run.hands.append(t.results[-1])

    if rules.continuous_shuffler:
        t.start_shoe(rng)
        for _ in range(hands):
            hand()
        machine_picks(run, rules.decks)
        return run
    for _ in range(shoes):
        events = t.start_shoe(rng)
        burned = events[-1]
        assert isinstance(burned, CardsBurned)
        run.shoes.append(list(t.shoe))
        run.burns.append(burned.count)
        while t.phase is not BaccaratPhase.SHUFFLE:
            hand()
    return run


def _codes(cards: tuple[Card, ...]) -> list[int]:
    return [sim.card_code(c) for c in cards] + [-1] * (3 - len(cards))


def kernel_settlement(result: ChunkResult) -> Counter[tuple[str, str, Fraction]]:
    """The kernel's counts as the engine's (bet, result, net) rows ("win on 6" is a win)."""
    out: Counter[tuple[str, str, Fraction]] = Counter()
    for bet, labels in result.counts.items():
        for label, n in labels.items():
            if n:
                res = "win" if label in (sim.WIN, sim.WIN_SIX) else label
                out[(bet, res, result.nets[bet][label])] += n
    return out


def assert_same_hands(run: EngineRun, trace: sim.Trace) -> None:
    assert len(trace.outcome) == len(run.hands)
    for i, h in enumerate(run.hands):
        assert trace.player[i].tolist() == _codes(h.player_cards), f"hand {i}"  # BA-7.1, BA-9
        assert trace.banker[i].tolist() == _codes(h.banker_cards), f"hand {i}"
        assert trace.outcome[i] == OUTCOME_CODE[h.outcome], f"hand {i}"  # BA-11, BA-12
        assert bool(trace.demonstration[i]) == h.demonstration  # BA-2.2
        assert trace.shoe[i] == h.shoe


# --- identical to the engine on identical cards ------------------------------------------------

SHOE_RULES = [
    pytest.param({}, id="defaults-8-decks"),
    pytest.param({"burn": "first_card", "last_hand": "last"}, id="first-card-burn-last"),
    pytest.param(
        {"decks": 6, "burn": "first_card", "demonstration_hands": 3, "cut_from_end": 20},
        id="6-decks-3-demos",
    ),
    pytest.param(
        {"decks": 7, "last_hand": "last", "demonstration_hands": 1, "cut_from_end": 312},
        id="7-decks-deepest-cut",
    ),
    pytest.param(
        {"no_commission": True, "demonstration_hands": 2, "burn": "first_card", "series": True},
        id="no-commission",
    ),
    pytest.param({"decks": 12, "commission": "1/25", "cut_from_end": 12}, id="12-decks-4pct"),
]


@pytest.mark.parametrize("options", SHOE_RULES)
def test_ba_2_1_ba_3_1_shoes_play_as_the_engine_plays_them(options: dict[str, object]) -> None:
    """BA-2.1 burn, BA-2.2 demonstrations, BA-3.1 last hand, BA-7.1/BA-9 cards, BA-11/12/13
    results, BA-17/18/R7 payouts: kernel == engine, hand by hand, on the engine's shoes."""
    run = play_engine(options, seed=f"sim-{sorted(options.items())}", shoes=3)
    result, trace = sim.run_shoes([sim.shoe_codes(s) for s in run.shoes], options)
    assert trace.burns.tolist() == run.burns  # BA-2.1 / BA-R1
    per_shoe = Counter(h.shoe for h in run.hands if not h.demonstration)
    assert trace.hands.tolist() == [per_shoe[i + 1] for i in range(len(run.shoes))]  # BA-3.1
    assert_same_hands(run, trace)
    assert result.rounds == sum(per_shoe.values())  # demonstration hands are not rounds
    assert kernel_settlement(result) == run.settled
    if options.get("series"):
        played = [h for h in run.hands if not h.demonstration]
        s = result.series
        assert s["outcome"].tolist() == [OUTCOME_CODE[h.outcome] for h in played]
        assert s["shoe"].tolist() == [h.shoe for h in played]
        assert s["player_pair"].tolist() == [
            h.player_cards[0].rank == h.player_cards[1].rank for h in played
        ]
        assert s["banker_pair"].tolist() == [
            h.banker_cards[0].rank == h.banker_cards[1].rank for h in played
        ]
        assert s["banker_six"].tolist() == [
            h.outcome == "B" and total(h.banker_cards) == 6 for h in played
        ]


@pytest.mark.parametrize("last_hand", ["one_more", "last"])
def test_ba_3_1_cut_card_coming_out_on_a_third_card(last_hand: str) -> None:
    """BA-3.1: the cut card placed so that a third card is the first card behind it; the hand
    it came out in is the last, or one more follows — as the engine does."""
    shoe = play_engine({}, seed="third-card-cut", shoes=1)
    cards = shoe.shoes[0]
    _, trace = sim.run_shoes(sim.shoe_codes(cards), {})
    # the shoe position of the first third card dealt after card 200
    pos, target = 8, None
    for p, b in zip(trace.player.tolist(), trace.banker.tolist(), strict=True):
        pos += 4
        for third in (p[2], b[2]):
            if third >= 0:
                if pos >= 200 and target is None:
                    target = pos
                pos += 1
    assert target is not None
    options = {"cut_from_end": len(cards) - target, "last_hand": last_hand}
    run = play_engine(options, seed="third-card-cut", shoes=1)
    assert run.shoes[0] == cards  # same shuffle: the cut card goes in after it
    assert run.cut_on_third_card == 1
    result, trace = sim.run_shoes(sim.shoe_codes(cards), options)
    assert_same_hands(run, trace)
    assert kernel_settlement(result) == run.settled


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"continuous_shuffler": True}, id="8-decks"),
        pytest.param(
            {"continuous_shuffler": True, "decks": 6, "no_commission": True}, id="6-decks-nc"
        ),
    ],
)
def test_ba_r4_continuous_shuffler_deals_as_the_engines_machine(options: dict[str, object]) -> None:
    """BA-2.3 / BA-7.2 / BA-R4: each card is ``sorted(full set minus this hand's cards)[j]``;
    the engine's picks, fed to the kernel, give the same hands."""
    run = play_engine(options, seed=f"csm-{sorted(options.items())}", hands=250)
    rules, _ = sim.rules_from_options(options)
    n_cards = 52 * rules.decks
    rows: list[list[int]] = []
    for n, j in run.draws:
        k = n_cards - n  # cards already in the hand
        if k == 0:
            rows.append([0] * 6)
        rows[-1][k] = j
    assert len(rows) == len(run.hands)
    result, trace = sim.run_continuous(np.array(rows), options)
    assert_same_hands(run, trace)
    assert kernel_settlement(result) == run.settled


def machine_hand(picks: list[int], decks: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The engine's machine, readably: each card ``sorted(pool)[j]`` (as
    ``BaccaratTable._draw``), dealt by the engine's ``play_out`` (BA-7.1, BA-9)."""
    pool = Counter(full_set(decks))
    it = iter(picks)

    def draw() -> Card:
        card = sorted(pool.elements())[next(it)]
        pool[card] -= 1
        return card

    return play_out(draw)


def test_ba_r4_machine_cards_when_a_hand_repeats_a_card() -> None:
    """BA-R4 the machine's pick ``sorted(full set minus the hand's cards)[j]``, with the
    index aimed at the first few cards and at block borders, so that hands often hold two
    or three copies of one card: kernel == the engine's own ``play_out`` and pick."""
    decks = 6
    gen = generator(7)
    small = gen.integers(0, 14, size=(400, 6))  # the first aces and twos, again and again
    border = decks * gen.integers(1, 50, size=(400, 6)) + gen.integers(-3, 3, size=(400, 6))
    draws = np.clip(np.concatenate([small, border]), 0, 52 * decks - 6)
    _, trace = sim.run_continuous(draws, {"continuous_shuffler": True, "decks": decks})
    for i, row in enumerate(draws.tolist()):
        player, banker = machine_hand(row, decks)
        assert trace.player[i].tolist() == _codes(player), f"row {i}: {row}"
        assert trace.banker[i].tolist() == _codes(banker), f"row {i}: {row}"


def test_engine_tables_are_the_engines_rules() -> None:
    """BA-5 values, BA-R1 burn counts, BA-13 ranks, in the kernel's code order."""
    for code in range(52):
        card = sim.code_card(code)
        assert sim.card_code(card) == code
        assert sim.VALUE[code] == card.value
        assert sim.BURN_COUNT[code] == card.burn_count
        assert sim.RANK[code] == card.rank
    assert sorted(full_set(1)) == [sim.code_card(c) for c in range(52)]  # the engine's order


def test_ba_9_hand_table_is_the_engines_drawing_rules_and_comparison() -> None:
    """The shoe kernel decides a hand by one look-up: every (player total, banker
    total, next value, value after) against the engine's BA-9 rules played out by hand,
    BA-11 / BA-12 the higher total wins, BA-R7 a Banker win on 6."""
    table = sim.HAND_TABLE
    assert table.shape == (10, 10, 10, 10) and table.dtype == np.uint8
    for pt in range(10):
        for bt in range(10):
            for v in range(10):
                for w in range(10):
                    p_draw = player_draws(pt, bt)
                    pf = (pt + v) % 10 if p_draw else pt
                    b_draw = banker_draws(bt, pt, v if p_draw else None)
                    bf = (bt + (w if p_draw else v)) % 10 if b_draw else bt
                    outcome = 2 if pf == bf else (0 if pf > bf else 1)
                    six = outcome == 1 and bf == 6
                    want = outcome * 8 + six * 4 + p_draw * 1 + b_draw * 2
                    assert table[pt, bt, v, w] == want, (pt, bt, v, w)
    assert sim.VALUE_U8.tolist() == sim.VALUE.tolist()
    assert sim.RANK_U8.tolist() == sim.RANK.tolist()


def test_seeded_figures_are_those_of_the_first_native_kernel() -> None:
    """The random stream and the hands did not change with the kernel's speed-ups:
    counts recorded from the kernel before the hand table, same seed, chunk and rules."""
    got = sim.simulate_chunk(7, 0, 200_000, {}).counts
    assert got["banker"] == {sim.WIN: 91_748, sim.LOSE: 89_153, sim.PUSH: 19_099}
    assert got["player_pair"][sim.WIN] == 15_112
    assert got["banker_pair"][sim.WIN] == 14_896
    demos = {"decks": 12, "cut_from_end": 12, "demonstration_hands": 3}
    got = sim.simulate_chunk(7, 3, 200_000, demos).counts
    assert got["banker"] == {sim.WIN: 91_604, sim.LOSE: 89_349, sim.PUSH: 19_047}
    assert got["player_pair"][sim.WIN] == 15_234
    assert got["banker_pair"][sim.WIN] == 14_951


# --- distribution: within 4 sigma of the exact PAR ---------------------------------------------

# 8 decks, one hand off the top: Banker, Player, Tie out of all ordered deals (published
# anchors, the brief's cross-check of the exact sheet used below).
BANKER_8, PLAYER_8, TIE_8 = 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216
DEALS_8 = 4_998_398_275_503_360


def exact_par(options: Mapping[str, object]) -> ParSheet:
    """The exact one-hand PAR sheet of the table the options describe (analysis.baccarat)."""
    rules, _ = sim.rules_from_options(options)
    return baccarat_par(rules)


def test_the_exact_sheet_is_the_anchors() -> None:
    par = exact_par({})
    assert par.total == DEALS_8
    banker = {o.label: o.count for o in par.line("banker").outcomes}
    assert banker == {"win": BANKER_8, "lose": PLAYER_8, "push": TIE_8}


def assert_within_4_sigma(result: ChunkResult, par: ParSheet) -> None:
    """mean = Σ count·net / Σ count within 4 · std_dev / sqrt(decisions) of the exact EV, for
    every bet, with the sheet's own labels and nets."""
    assert tuple(result.counts) == tuple(line.name for line in par.lines)
    for line in par.lines:
        n = result.decisions(line.name)
        assert n == result.rounds  # every hand decides every bet (a push is a decision)
        assert result.nets[line.name] == {o.label: o.net for o in line.outcomes}
        sigma = line.std_dev / math.sqrt(n)
        z = float(result.mean(line.name) - line.expected_return) / sigma
        assert abs(z) < 4, f"{line.name}: z = {z:.2f}"


@pytest.mark.parametrize(
    ("options", "hands"),
    [
        pytest.param({}, 3_000_000, id="8-decks"),
        pytest.param({"no_commission": True}, 2_000_000, id="8-decks-no-commission"),
        pytest.param({"decks": 6, "burn": "first_card", "last_hand": "last"}, 1_000_000, id="6"),
    ],
)
def test_shoes_within_4_sigma_of_the_exact_par(options: dict[str, object], hands: int) -> None:
    """Millions of hands from whole shoes (BA-2.1 … BA-3.1): Banker (BA-18, or BA-R7 with
    its "win on 6"), Player, Tie and the pairs agree with the exact one-hand PAR of a full
    shoe (the cut-card effect is far below sigma)."""
    result = sim.simulate_chunk(2024, 0, hands, options)
    assert_within_4_sigma(result, exact_par(options))


def test_ba_r4_continuous_shuffler_within_4_sigma_of_the_exact_par() -> None:
    """BA-R4: every hand off the top of 8 full decks, so exactly the full-shoe odds."""
    options = {"continuous_shuffler": True, "no_commission": True}
    result = sim.simulate_chunk(2024, 1, 2_000_000, options)
    assert_within_4_sigma(result, exact_par(options))


# --- determinism, series, chunks --------------------------------------------------------------

MODES = [pytest.param({}, id="shoe"), pytest.param({"continuous_shuffler": True}, id="machine")]


@pytest.mark.parametrize("options", MODES)
def test_same_seed_same_hands_other_chunk_other_stream(options: dict[str, object]) -> None:
    opts = options | {"series": True}
    a = sim.simulate_chunk(11, 3, 40_000, opts)
    b = sim.simulate_chunk(11, 3, 40_000, opts)
    assert a.counts == b.counts
    for key in a.series:
        assert np.array_equal(a.series[key], b.series[key])
    other_chunk = sim.simulate_chunk(11, 4, 40_000, opts)
    other_seed = sim.simulate_chunk(12, 3, 40_000, opts)
    for other in (other_chunk, other_seed):
        assert not np.array_equal(a.series["outcome"], other.series["outcome"])
    # a chunk's first hands do not depend on how many it plays
    short = sim.simulate_chunk(11, 3, 1_234, opts)
    for key in a.series:
        assert np.array_equal(short.series[key], a.series[key][:1_234])


@pytest.mark.parametrize("options", MODES)
def test_series_agree_with_the_counts(options: dict[str, object]) -> None:
    """``series`` (outcome, banker_six, pairs, shoe) carry the same hands as the counts."""
    r = sim.simulate_chunk(5, 0, 30_000, options | {"series": True, "no_commission": True})
    s = r.series
    assert all(len(v) == r.rounds == 30_000 for v in s.values())
    out = s["outcome"]
    assert s["outcome"].dtype == np.int8
    six = int(s["banker_six"].sum())
    assert r.counts["banker"] == {
        sim.WIN: int((out == 1).sum()) - six,
        sim.WIN_SIX: six,
        sim.LOSE: int((out == 0).sum()),
        sim.PUSH: int((out == 2).sum()),
    }
    assert not (s["banker_six"] & (out != 1)).any()
    assert r.counts["player_pair"][sim.WIN] == int(s["player_pair"].sum())
    assert r.counts["banker_pair"][sim.WIN] == int(s["banker_pair"].sum())
    shoe = s["shoe"]
    assert shoe[0] == 1 and (np.diff(shoe) >= 0).all() and (np.diff(shoe) <= 1).all()
    if not options:  # ~80 hands a shoe (BA-3.1)
        assert 300 < shoe[-1] < 450
    no_series = sim.simulate_chunk(5, 0, 30_000, options | {"no_commission": True})
    assert no_series.series == {} and no_series.counts == r.counts


def test_chunks_merge_and_rounds_are_exact() -> None:
    a = sim.simulate_chunk(1, 0, 1_000, {})
    b = sim.simulate_chunk(1, 1, 777, {})
    assert (a.rounds, b.rounds) == (1_000, 777)
    merged = a.merge(b)
    assert merged.rounds == 1_777
    assert merged.decisions("tie") == 1_777
    empty = sim.simulate_chunk(1, 0, 0, {"series": True})
    assert empty.rounds == 0 and all(v == 0 for c in empty.counts.values() for v in c.values())


def test_ba_18_ba_r7_nets_are_the_rule_sets_payouts() -> None:
    """BA-17 payouts; BA-18 Banker wins less the commission; BA-R7 1:1, 1:2 on a six."""
    default, _ = sim.rules_from_options({})
    assert sim.bet_nets(default)["banker"] == {"win": Fraction(19, 20), "lose": -1, "push": 0}
    four, _ = sim.rules_from_options({"commission": "1/25"})
    assert sim.bet_nets(four)["banker"]["win"] == Fraction(24, 25)
    nc, _ = sim.rules_from_options({"no_commission": True})
    assert sim.bet_nets(nc)["banker"] == {
        "win": 1,
        "win on 6": Fraction(1, 2),
        "lose": -1,
        "push": 0,
    }
    nets = sim.bet_nets(default)
    assert (nets["player"]["win"], nets["tie"]["win"], nets["player_pair"]["win"]) == (1, 8, 11)
    assert (
        tuple(nets)
        == sim.BET_NAMES
        == tuple(
            str(k)
            for k in (
                BetKind.BANKER,
                BetKind.PLAYER,
                BetKind.TIE,
                BetKind.BANKER_PAIR,
                BetKind.PLAYER_PAIR,
            )
        )
    )


# --- bad input: the engine's typed errors ------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "error", "rule"),
    [
        ({"decks": 5}, InvalidInput, "BA-1"),
        ({"decks": "8"}, InvalidInput, "BA-1"),
        ({"cut_from_end": 11}, BetNotAllowed, "BA-2.1"),
        ({"cut_from_end": 400}, InvalidInput, "BA-2.1"),
        ({"demonstration_hands": 4}, InvalidInput, "BA-2.2"),
        ({"burn": "half"}, InvalidInput, "BA-R1"),
        ({"last_hand": "two_more"}, InvalidInput, "BA-3.1"),
        ({"commission": 0.05}, InvalidInput, "BA-18"),
        ({"commission": "5%"}, InvalidInput, "BA-18"),
        ({"commission": "1"}, InvalidInput, "BA-18"),
        ({"continuous_shuffler": "yes"}, InvalidInput, "BA-2.3"),
        ({"no_commission": 1}, InvalidInput, "BA-R7"),
        ({"squeeze": True}, InvalidInput, None),
    ],
)
def test_bad_options_raise_typed_errors_naming_the_rule(
    options: dict[str, object], error: type[Exception], rule: str | None
) -> None:
    with pytest.raises(error) as info:
        sim.simulate_chunk(1, 0, 10, options)
    assert getattr(info.value, "rule", None) == rule


def test_bad_rounds_and_sequences_are_refused() -> None:
    with pytest.raises(InvalidInput):
        sim.simulate_chunk(1, 0, -1, {})
    shoe = sim.shoe_codes(full_set(8))
    with pytest.raises(InvalidInput) as info:
        sim.run_shoes(shoe[:-1], {})  # a card short (BA-1)
    assert info.value.rule == "BA-1"
    twice = shoe.copy()
    twice[0] = twice[1]
    with pytest.raises(InvalidInput):
        sim.run_shoes(twice, {})
    with pytest.raises(InvalidInput) as info:
        sim.run_continuous(np.full((1, 6), 416), {"continuous_shuffler": True})  # BA-R4 range
    assert info.value.rule == "BA-R4"
    with pytest.raises(InvalidInput):
        sim.run_shoes(shoe, {"continuous_shuffler": True})
    with pytest.raises(InvalidInput):
        sim.run_shoes(shoe, {}, rounds=1_000)  # one shoe is not 1,000 hands


def test_commission_text_and_fraction_are_exact() -> None:
    for given in ("1/20", "0.05", Fraction(1, 20)):
        rules, _ = sim.rules_from_options({"commission": given})
        assert rules.commission == Fraction(1, 20)


# --- the kernel's random stream: Lemire's bounded draws, Fisher-Yates on raw words -----------

LEMIRE_SIZES = (1, 6, 32, 52, 311, 416, 624)  # a die, a power of two, a deck, 6/8/12-deck shoes


def _lemire_ks(s: int) -> list[int]:
    """The smallest width that covers s, plus 12 and 16 (every input of each is checked)."""
    return sorted({max((s - 1).bit_length(), 1), 12, 16} - {k for k in (12, 16) if 2**k < s})


@pytest.mark.parametrize(("s", "bits"), [(s, k) for s in LEMIRE_SIZES for k in _lemire_ks(s)])
def test_lemire_below_hits_every_outcome_exactly_equally_often(s: int, bits: int) -> None:
    """Every ``bits``-bit input: each of 0 … s-1 comes out exactly ``2**bits // s`` times and
    exactly ``2**bits mod s`` inputs are rejected — the kernel's draws are unbiased (the
    same check as core.rng's scale_below; the kernel runs it at 32 bits)."""
    out = sim.lemire_table(bits, s)
    kept = out[out >= 0]
    counts = np.bincount(kept, minlength=s)
    assert len(counts) == s
    assert set(counts.tolist()) == {2**bits // s}
    assert int((out < 0).sum()) == 2**bits % s
    assert int(out.min()) >= -1


def test_lemire_below_without_rejection_is_biased_the_same_test_fails() -> None:
    """The plain multiply-shift (no rejection) is what the test above catches."""
    bits, s = 12, 416
    x = np.arange(2**bits, dtype=np.int64)
    counts = np.bincount((x * s) >> bits, minlength=s)
    assert len(set(counts.tolist())) == 2


def _reference_draws(gen: np.random.Generator) -> Callable[[int], int]:
    """below(s) readably: 32-bit halves of the raw words (low first), Lemire with rejection."""
    halves: list[int] = []

    def below(s: int) -> int:
        while True:
            if not halves:
                word = int(gen.bit_generator.random_raw())
                halves.extend([word & 0xFFFFFFFF, word >> 32])
            m = halves.pop(0) * s
            if m % 2**32 >= (2**32 - s) % s:
                return m >> 32

    return below


def test_kernel_draws_are_lemire_on_the_raw_words() -> None:
    highs = np.array([416 - k % 6 for k in range(5_000)] + [2**32 - 1, 3, 2**31 + 1] * 50)
    got = sim.bounded_draws(generator(3), highs)
    below = _reference_draws(generator(3))
    assert got.tolist() == [below(int(h)) for h in highs]


def test_kernel_shoes_are_fisher_yates_on_the_raw_words() -> None:
    """BA-2.1 shuffles as core.rng's permutation: position i (last first) swaps with
    below(i + 1); the kernel's shoes are exactly that, draw for draw."""
    cards = np.sort(sim.shoe_codes(full_set(6)))
    got = sim.shuffled_shoes(generator(9), cards, 3)
    below = _reference_draws(generator(9))
    for row in got.tolist():
        want = cards.tolist()
        for i in range(len(want) - 1, 0, -1):
            j = below(i + 1)
            want[i], want[j] = want[j], want[i]
        assert row == want
        assert sorted(row) == cards.tolist()  # the same cards (BA-1)


def test_shuffle_takes_the_exact_path_for_halves_near_the_threshold() -> None:
    """The shuffle's two-draws-per-word shortcut accepts a half only when its low product is
    at least s; halves below (here: zeros, rejected whenever 2**32 mod s > 0, and small
    values) go through the exact threshold, and the draws stay those of the stream."""
    gen = generator(4)
    crafted = generator(5).integers(0, 2**64, size=256, dtype=np.uint64)
    crafted[::3] = 0  # both halves 0: rejected unless s divides 2**32
    crafted[1::7] = np.uint64(5) << np.uint64(32)  # a low half 0, a high half 5
    words = crafted.copy()
    used = np.zeros(1, dtype=np.int64)
    cards = np.arange(416, dtype=np.int8) % 52
    want = cards.tolist()
    baccarat_core._fisher_yates(bitgen_address(gen), words, used, cards)
    halves = [int(w) >> shift & 0xFFFFFFFF for w in crafted.tolist() for shift in (0, 32)]
    refill = _reference_draws(generator(4))

    def below(s: int) -> int:
        while halves:
            m = halves.pop(0) * s
            if m % 2**32 >= (2**32 - s) % s:
                return m >> 32
        return refill(s)

    for i in range(len(want) - 1, 0, -1):
        j = below(i + 1)
        want[i], want[j] = want[j], want[i]
    assert cards.tolist() == want
