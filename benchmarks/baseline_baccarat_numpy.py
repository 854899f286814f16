"""The baseline for the baccarat kernel: an afternoon's vectorised numpy script.

What a competent analyst writes without numba: a batch of 8-deck shoes shuffled at once
(``Generator.permuted``, row by row), then every shoe of the batch dealt in lock-step —
each step deals one hand in every shoe still in play, with the BA-9 drawing rules as lookup
tables built from the engine's ``player_draws`` / ``banker_draws`` — and the outcomes
tallied with ``bincount``. Same procedure as the kernel (burn as many cards as decks, cut
card 14 from the end, one more hand after it comes out: BA-2.1, BA-3.1), same counts
(Banker / Player / Tie, the pairs).

``python benchmarks/baseline_baccarat_numpy.py --rounds 20000000 [--seed 1]`` prints the
counts and the time; ``benchmarks/bench_sim_baccarat.py`` and ``bench_startup.py`` run it in
the same run as the kernel. Single process, as such a script is.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from macau_tables.games.baccarat import BaccaratRules, banker_draws, player_draws

DECKS = 8
SHOES_PER_BATCH = 4_000


def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    value = np.array([min(r, 10) % 10 for r in range(1, 14)] * 4, dtype=np.int8)  # BA-5
    rank = np.array(list(range(1, 14)) * 4, dtype=np.int8)
    pdraw = np.array([[player_draws(p, b) for b in range(10)] for p in range(10)])
    bdraw = np.array(
        [
            [[banker_draws(b, p, None if t == 10 else t) for t in range(11)] for p in range(10)]
            for b in range(10)
        ]
    )
    return value, rank, pdraw, bdraw


def simulate(rounds: int, seed: int) -> dict[str, int]:
    """``rounds`` hands from whole 8-deck shoes; counts of each outcome and pair."""
    rules = BaccaratRules()
    value, rank, pdraw, bdraw = _tables()
    gen = np.random.default_rng(seed)
    n_cards = 52 * DECKS
    cut_index = n_cards - rules.cut_from_end
    base = np.tile(np.arange(52, dtype=np.int8), DECKS)
    counts = {"banker": 0, "player": 0, "tie": 0, "player_pair": 0, "banker_pair": 0}
    done = 0
    steps = np.arange(6)
    while done < rounds:
        shoes = gen.permuted(np.tile(base, (SHOES_PER_BATCH, 1)), axis=1).ravel()
        pos = np.arange(SHOES_PER_BATCH) * n_cards + DECKS  # BA-2.1: burn as many as decks
        end = pos - DECKS + cut_index  # flat index of the first card behind the cut card
        left = np.full(SHOES_PER_BATCH, -1)  # hands left once the cut card is out
        while pos.size and done < rounds:
            c = shoes[pos[:, None] + steps]
            v = value[c]
            pt = (v[:, 0] + v[:, 2]) % 10
            bt = (v[:, 1] + v[:, 3]) % 10
            p_draws = pdraw[pt, bt]
            third = np.where(p_draws, v[:, 4], 10)
            b_draws = bdraw[bt, pt, third]
            pf = np.where(p_draws, (pt + v[:, 4]) % 10, pt)
            b3 = np.where(p_draws, v[:, 5], v[:, 4])
            bf = np.where(b_draws, (bt + b3) % 10, bt)
            take = min(pos.size, rounds - done)
            diff = (bf - pf)[:take]  # > 0 banker, < 0 player, 0 tie
            r = rank[c[:take, :4]]
            n_banker = int(np.count_nonzero(diff > 0))
            n_tie = int(np.count_nonzero(diff == 0))
            counts["banker"] += n_banker
            counts["tie"] += n_tie
            counts["player"] += take - n_banker - n_tie
            counts["player_pair"] += int(np.count_nonzero(r[:, 0] == r[:, 2]))
            counts["banker_pair"] += int(np.count_nonzero(r[:, 1] == r[:, 3]))
            done += take
            pos = pos + 4 + p_draws + b_draws
            cut_out = (pos - 1 >= end) & (left < 0)
            left[cut_out] = 2  # BA-3.1: this hand, and one more
            left[left > 0] -= 1
            keep = left != 0
            pos, end, left = pos[keep], end[keep], left[keep]
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    counts = simulate(args.rounds, args.seed)
    seconds = time.perf_counter() - start
    n = sum(counts[k] for k in ("banker", "player", "tie"))
    shares = ", ".join(f"{k} {counts[k] / n:.4%}" for k in counts)
    print(f"numpy baseline: {n:,} hands in {seconds:.2f} s ({n / seconds:,.0f} hands/s); {shares}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
