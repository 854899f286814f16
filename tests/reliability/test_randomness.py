"""Chi-square tests of the games' chance results, drawn the way the engines draw them.

Every sample comes from the production path: :class:`~macau_tables.core.rng.Rng` on its
seeded HMAC_DRBG, one generator per chance event as the tables derive them
(``Rng.for_event(seed, table, label)``), through the function the engine calls:

* a baccarat shoe: ``Rng.for_event(seed, table, "shoe:<n>").shuffle(cards)`` — here a
  6-card deck, so that both every card's position and the whole permutation (720 cells)
  are tested;
* a craps throw: ``Rng.for_event(seed, table, "throw:<n>").dice(2)`` — the 36 pairs;
* the tile games' dice: ``Rng.for_event(seed, table, "woodpile:<n>:dice:<round>:<try>")
  .dice(4)`` — the 1,296 throws of four dice, their total, and the first seat the total
  picks (PG-1.3: the count from the banker, ``(total - 1) % places``), against the exact
  distributions (the first seat is not uniform, by the rules);
* the woodpile: :func:`macau_tables.games.tiles.woodpile_order` — which of the eight
  stacks each of the 32 tiles is built into, and each tile's position.

The seed is fixed, so every run draws the same samples: a test cannot flake, and changing
the generator, the rejection sampling, the shuffle or the labels re-draws them all.

Significance: each statistic's p-value must lie in ``(ALPHA / 2, 1 - ALPHA / 2)`` with
``ALPHA = 1e-4`` (two-sided: a result too even is as suspect as one too uneven). Over the
family of ``FAMILY`` statistics of fair draws below, the chance that a fair generator
fails one, for a new seed, is at most ``FAMILY * ALPHA`` (Bonferroni).

Each test has a negative control: the same statistic on a known-bad sampler at the same
sample size must give ``p < ALPHA`` — the naive shuffle (swap position ``i`` with any of
the ``n``, ``n**n`` equally likely paths onto ``n!`` permutations), Sattolo's off-by-one
(``below(i)`` for ``below(i + 1)``), and dice by plain modulo of six random bits. The
controls draw their bits from numpy's PCG64 (fixed seed), vectorised: they show what the
statistic detects at this sample size, not a property of ``core.rng``.

Sample sizes: the DRBG is pure Python (three HMAC-SHA-256 a draw, about 8 µs of CPU), so
10**6 shuffles would take about a minute; the sizes below take about 24 s of CPU for the
file, and the controls show what they detect (the smallest biases caught half the time are
in ``docs/reliability.md``, "Sample sizes and power").
``python -m tests.reliability.test_randomness`` prints every statistic.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest

from macau_tables.core.rng import Rng
from macau_tables.games.tiles import woodpile_order
from macau_tables.tiles.tile import FULL_SET

ALPHA = 1e-4
SEED = bytes.fromhex("5eed" * 16)  # a 32-byte server seed, fixed
TABLE = "reliability"

N_SHOES = 100_000  # 6-card shuffles
DECK = 6
N_THROWS = 100_000  # craps throws of two dice
N_TILE_THROWS = 100_000  # tile throws of four dice
N_WOODPILES = 20_000  # 32-tile woodpiles
PLACES = (4, 8)  # Taiwan Pai Kao's 4-place second round, and 8 places


# --- the chi-square distribution ------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """``P(X >= x)`` for ``X ~ chi-square(df)``: the regularized upper incomplete gamma
    ``Q(df / 2, x / 2)``, by its series below ``a + 1`` and Lentz's continued fraction
    above (Numerical Recipes 6.2)."""
    a, z = df / 2, x / 2
    if z <= 0:
        return 1.0
    log_front = -z + a * math.log(z) - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        ap = a
        for _ in range(100_000):
            ap += 1
            term *= z / ap
            total += term
            if term < total * 1e-16:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = d if abs(d) > tiny else tiny
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(log_front) * h


@dataclass(frozen=True)
class Chi2:
    """One statistic: its value, degrees of freedom and upper-tail p-value."""

    name: str
    stat: float
    df: int

    @property
    def p(self) -> float:
        return chi2_sf(self.stat, self.df)

    def __str__(self) -> str:
        return f"{self.name}: chi2 = {self.stat:.1f} on {self.df} df, p = {self.p:.3g}"


def multinomial(name: str, counts: np.ndarray, probs: np.ndarray) -> Chi2:
    """Pearson's statistic of ``counts`` against cell probabilities ``probs``."""
    counts = np.asarray(counts, dtype=float).ravel()
    probs = np.asarray(probs, dtype=float).ravel()
    assert counts.shape == probs.shape and abs(probs.sum() - 1) < 1e-12
    expected = counts.sum() * probs
    return Chi2(name, float(((counts - expected) ** 2 / expected).sum()), counts.size - 1)


def placement(name: str, orders: np.ndarray, groups: int) -> Chi2:
    """Which of ``groups`` equal runs of positions each item lands in, over shuffles.

    ``orders[s, pos]`` is the item at ``pos`` in shuffle ``s`` (``n`` items). Each item's row
    of the ``n x groups`` table is multinomial, but rows and columns have fixed totals: for
    uniform shuffles the table lives in the ``(n - 1)(groups - 1)``-dimensional space of
    zero row and column sums, where its covariance is a scalar (the shuffles' law is the
    same under relabelling items and reordering groups, which acts irreducibly there).
    Matching the trace gives Pearson's sum ``* (n - 1) / n ~ chi-square((n-1)(groups-1))``.
    """
    shuffles, n = orders.shape
    size = n // groups
    group_of = np.arange(n) // size
    codes = (orders.astype(np.int64) * groups + group_of).ravel()
    table = np.bincount(codes, minlength=n * groups).astype(float)
    expected = shuffles / groups
    pearson = float(((table - expected) ** 2 / expected).sum())
    return Chi2(name, pearson * (n - 1) / n, (n - 1) * (groups - 1))


def permutations_table(name: str, orders: np.ndarray) -> Chi2:
    """Every one of the ``n!`` permutations equally likely (``n!`` cells)."""
    n = orders.shape[1]
    cell = {
        sum(v * n**k for k, v in enumerate(p)): i
        for i, p in enumerate(itertools.permutations(range(n)))
    }
    codes = orders.astype(np.int64) @ (n ** np.arange(n))
    counts = np.bincount([cell[int(c)] for c in codes], minlength=len(cell))  # KeyError: no order
    return multinomial(name, counts, np.full(len(cell), 1 / len(cell)))


def four_dice_total() -> np.ndarray:
    """The exact law of the total of four fair dice, index 0 = total 0."""
    law = np.zeros(25)
    for throw in itertools.product(range(1, 7), repeat=4):
        law[sum(throw)] += 1
    return law / law.sum()


def first_seat(places: int) -> np.ndarray:
    """PG-1.3: the seat the dice pick, ``(total - 1) % places`` steps from the banker."""
    law = np.zeros(places)
    for total, p in enumerate(four_dice_total()):
        if p:
            law[(total - 1) % places] += p
    return law


# --- the samples, drawn as the engines draw them ----------------------------------------


@cache
def shoes() -> np.ndarray:
    cards = tuple(range(DECK))
    return np.array(
        [Rng.for_event(SEED, TABLE, f"shoe:{s}").shuffle(cards) for s in range(N_SHOES)],
        dtype=np.int8,
    )


@cache
def craps_throws() -> np.ndarray:
    return np.array(
        [Rng.for_event(SEED, TABLE, f"throw:{t}").dice(2) for t in range(N_THROWS)],
        dtype=np.int8,
    )


@cache
def tile_throws() -> np.ndarray:
    return np.array(
        [
            Rng.for_event(SEED, TABLE, f"woodpile:{t}:dice:1:1").dice(4)
            for t in range(N_TILE_THROWS)
        ],
        dtype=np.int8,
    )


@cache
def woodpiles() -> np.ndarray:
    return np.array(
        [woodpile_order(SEED, TABLE, f"woodpile:{w}") for w in range(N_WOODPILES)],
        dtype=np.int8,
    )


def shoe_checks(orders: np.ndarray) -> list[Chi2]:
    return [
        placement("shoe: every card in every position", orders, DECK),
        permutations_table("shoe: every one of the 720 orders", orders),
    ]


def two_dice_checks(dice: np.ndarray) -> list[Chi2]:
    pairs = (dice[:, 0].astype(np.int64) - 1) * 6 + dice[:, 1] - 1
    return [
        multinomial("craps: the 36 pairs", np.bincount(pairs, minlength=36), np.full(36, 1 / 36))
    ]


def four_dice_checks(dice: np.ndarray) -> list[Chi2]:
    d = dice.astype(np.int64) - 1
    throws = ((d[:, 0] * 6 + d[:, 1]) * 6 + d[:, 2]) * 6 + d[:, 3]
    totals = dice.astype(np.int64).sum(axis=1)
    law = four_dice_total()
    checks = [
        multinomial(
            "tiles: the 1296 throws of four dice",
            np.bincount(throws, minlength=1296),
            np.full(1296, 1 / 1296),
        ),
        multinomial(
            "tiles: the total of four dice", np.bincount(totals, minlength=25)[4:], law[4:]
        ),
    ]
    for places in PLACES:
        seat = (totals - 1) % places
        checks.append(
            multinomial(
                f"tiles: the first seat at {places} places",
                np.bincount(seat, minlength=places),
                first_seat(places),
            )
        )
    return checks


def woodpile_checks(orders: np.ndarray) -> list[Chi2]:
    return [
        placement("woodpile: every tile in every stack", orders, 8),
        placement("woodpile: every tile in every position", orders, len(FULL_SET)),
    ]


#: the statistics of fair draws: shoe 2, craps 1, tile dice 2 + one per PLACES, woodpile 2
FAMILY = 2 + 1 + 2 + len(PLACES) + 2


def fair(check: Chi2) -> None:
    assert ALPHA / 2 < check.p < 1 - ALPHA / 2, str(check)


def unfair(check: Chi2) -> None:
    assert check.p < ALPHA or check.p > 1 - ALPHA, str(check)


# --- fair draws: the production path -----------------------------------------------------


def test_the_chi_square_tail_matches_the_tables() -> None:
    """Critical values from the standard tables (and the exact 2-df tail ``exp(-x/2)``)."""
    for x, df, p in [
        (3.841459, 1, 0.05),
        (10.827566, 1, 0.001),
        (23.209251, 10, 0.01),
        (124.342113, 100, 0.05),
        (149.449252, 100, 0.001),
        (67.504807, 50, 0.05),
    ]:
        assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5), (x, df)
    for x in (0.5, 5.0, 40.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi2_sf(0.0, 7) == 1.0
    assert chi2_sf(1000.0, 7) < 1e-200


@pytest.mark.parametrize(("n", "groups"), [(6, 6), (32, 8)])
def test_the_placement_statistic_is_chi_square_with_its_df(n: int, groups: int) -> None:
    """``placement``'s scaling: over 400 runs of 2,000 uniform shuffles (numpy's, fixed
    seed), the scaled statistic has the chi-square's mean ``df`` and variance ``2 df``
    (within 4 standard errors); unscaled, the mean would be off by ``df / (n - 1)``."""
    gen = np.random.default_rng(n * 100 + groups)
    stats = np.array(
        [
            placement("calibration", np.argsort(gen.random((2000, n)), axis=1), groups).stat
            for _ in range(400)
        ]
    )
    df = (n - 1) * (groups - 1)
    assert abs(stats.mean() - df) < 4 * math.sqrt(2 * df / 400)
    assert abs(stats.var() - 2 * df) < 4 * 2 * df * math.sqrt(2 / 399) + 0.1 * df


def test_shoe_shuffles_put_every_card_anywhere_and_every_order_equally() -> None:
    for check in shoe_checks(shoes()):
        fair(check)


def test_craps_dice_give_the_36_pairs_equally() -> None:
    for check in two_dice_checks(craps_throws()):
        fair(check)


def test_tile_dice_and_the_first_seat_follow_the_exact_laws() -> None:
    for check in four_dice_checks(tile_throws()):
        fair(check)


def test_woodpiles_build_every_tile_into_every_stack_equally() -> None:
    for check in woodpile_checks(woodpiles()):
        fair(check)


# --- negative controls: the same statistics catch known-bad samplers ---------------------


def _pcg(label: str) -> np.random.Generator:
    return np.random.default_rng(int.from_bytes(label.encode(), "big"))


def naive_shuffle(shuffles: int, n: int, gen: np.random.Generator) -> np.ndarray:
    """``for i in range(n): swap(i, rand(n))``: ``n**n`` paths onto ``n!`` orders."""
    orders = np.tile(np.arange(n, dtype=np.int8), (shuffles, 1))
    rows = np.arange(shuffles)
    for i in range(n):
        j = gen.integers(0, n, shuffles)
        held = orders[rows, i].copy()
        orders[rows, i] = orders[rows, j]
        orders[rows, j] = held
    return orders


def sattolo_shuffle(shuffles: int, n: int, gen: np.random.Generator) -> np.ndarray:
    """Fisher–Yates off by one, ``j = below(i)``: only the ``(n-1)!`` cyclic orders."""
    orders = np.tile(np.arange(n, dtype=np.int8), (shuffles, 1))
    rows = np.arange(shuffles)
    for i in range(n - 1, 0, -1):
        j = gen.integers(0, i, shuffles)
        held = orders[rows, i].copy()
        orders[rows, i] = orders[rows, j]
        orders[rows, j] = held
    return orders


def modulo_dice(throws: int, count: int, gen: np.random.Generator) -> np.ndarray:
    """Six random bits ``% 6 + 1``: 64 = 10 * 6 + 4, so 1-4 come 11 times in 64, 5-6 ten."""
    return (gen.integers(0, 64, (throws, count)) % 6 + 1).astype(np.int8)


BAD: dict[str, Callable[[], list[Chi2]]] = {
    "naive shoe": lambda: shoe_checks(naive_shuffle(N_SHOES, DECK, _pcg("naive shoe"))),
    "sattolo shoe": lambda: shoe_checks(sattolo_shuffle(N_SHOES, DECK, _pcg("sattolo shoe"))),
    "modulo craps dice": lambda: two_dice_checks(modulo_dice(N_THROWS, 2, _pcg("craps"))),
    "modulo tile dice": lambda: four_dice_checks(modulo_dice(N_TILE_THROWS, 4, _pcg("tiles"))),
    "naive woodpile": lambda: woodpile_checks(
        naive_shuffle(N_WOODPILES, len(FULL_SET), _pcg("naive woodpile"))
    ),
}


@pytest.mark.parametrize("sampler", sorted(BAD))
def test_a_biased_sampler_fails(sampler: str) -> None:
    """Each control fails its family's first statistic (the one that sees every bias of
    its kind); the others are printed by ``python -m tests.reliability.test_randomness``."""
    unfair(BAD[sampler]()[0])


def test_a_too_even_sampler_fails() -> None:
    """Dice that go round the 36 pairs in turn: chi-square 0, p = 1, outside the band."""
    pairs = np.arange(N_THROWS) % 36
    dice = np.stack([pairs // 6 + 1, pairs % 6 + 1], axis=1)
    unfair(two_dice_checks(dice)[0])
    with pytest.raises(AssertionError):
        fair(two_dice_checks(dice)[0])


def _report() -> Iterator[str]:
    for title, draw, checks in [
        (f"{N_SHOES:,} shoes of {DECK} cards", shoes, shoe_checks),
        (f"{N_THROWS:,} craps throws", craps_throws, two_dice_checks),
        (f"{N_TILE_THROWS:,} tile throws of four dice", tile_throws, four_dice_checks),
        (f"{N_WOODPILES:,} woodpiles", woodpiles, woodpile_checks),
    ]:
        start = time.perf_counter()
        samples = draw()
        yield f"{title} ({time.perf_counter() - start:.1f} s to draw)"
        yield from (f"  {c}" for c in checks(samples))
    yield "negative controls"
    for name in sorted(BAD):
        yield from (f"  [{name}] {c}" for c in BAD[name]())


if __name__ == "__main__":
    for line in _report():
        print(line, flush=True)
