"""Simulation jobs: chunking, merging, workers, Dask, statistics — on a fake kernel
whose exact distribution is known, so every figure here can be checked by hand."""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import pytest

from macau_tables.analysis.kernels.rng import chunk_generator
from macau_tables.analysis.par import BetLine, Outcome, ParSheet
from macau_tables.analysis.simresult import ChunkResult, merge_all
from macau_tables.analysis.simulation import (
    FLAG_SIGMAS,
    Z95,
    ChunkTotals,
    Job,
    bet_stats,
    resolve_kernel,
    run,
)
from macau_tables.core.errors import InvalidInput

FAKE = "tests.analysis.test_simulation:fake_kernel"
LABELS = ("win", "lose", "push")
NETS = {"win": Fraction(1), "lose": Fraction(-1), "push": Fraction(0)}
P = (Fraction(9, 20), Fraction(9, 20), Fraction(1, 10))  # a fair coin with pushes


def fake_kernel(seed: int, chunk: int, rounds: int, options: Mapping[str, object]) -> ChunkResult:
    """One even-money bet "coin": win/lose 45% each, push 10% (``bias`` moves 'lose' to
    'win'), drawn only from chunk_generator(seed, chunk); series["outcome"] per round."""
    rng = chunk_generator(seed, chunk)
    bias = float(options.get("bias", 0.0))  # type: ignore[arg-type]
    u = rng.random(rounds)
    code = np.where(u < 0.45 + bias, 0, np.where(u < 0.9, 1, 2)).astype(np.int8)
    counts = {"coin": {lab: int((code == i).sum()) for i, lab in enumerate(LABELS)}}
    series = {"outcome": code} if options.get("series") else {}
    return ChunkResult("fake", rounds, counts, {"coin": dict(NETS)}, series)


def short_kernel(seed: int, chunk: int, rounds: int, options: Mapping[str, object]) -> ChunkResult:
    return fake_kernel(seed, chunk, rounds - 1, options)


def fake_par() -> ParSheet:
    line = BetLine(
        "coin", tuple(Outcome(lab, NETS[lab], p) for lab, p in zip(LABELS, P, strict=True))
    )
    return ParSheet("fake", "a fair coin with pushes", {}, (line,))


def job(rounds: int = 10_000, seed: int = 7, chunk: int = 1_000, **opts: object) -> Job:
    return Job("fake", rounds, seed, opts, chunk_rounds=chunk, kernel=FAKE)


# --- the job and its chunks -------------------------------------------------------------------


def test_chunks_are_fixed_by_rounds_and_chunk_size() -> None:
    j = job(rounds=2_500, chunk=1_000)
    assert j.n_chunks == 3
    assert j.chunks() == [(0, 1_000), (1, 1_000), (2, 500)]
    assert sum(n for _, n in j.chunks()) == j.rounds
    assert job(rounds=3_000, chunk=1_000).chunks()[-1] == (2, 1_000)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rounds": 0}, "rounds"),
        ({"seed": -1}, "seed"),
        ({"chunk_rounds": 0}, "chunk_rounds"),
    ],
)
def test_bad_jobs_raise(kwargs: dict[str, int], match: str) -> None:
    base: dict[str, object] = {"game": "fake", "rounds": 10, "seed": 1, "kernel": FAKE}
    with pytest.raises(InvalidInput, match=match):
        Job(**(base | kwargs))  # type: ignore[arg-type]


def test_unknown_game_and_bad_kernel_paths() -> None:
    with pytest.raises(InvalidInput, match="no game 'roulette'"):
        Job("roulette", 10, 1)
    with pytest.raises(InvalidInput, match="package.module:function"):
        resolve_kernel("no_colon")
    with pytest.raises(InvalidInput, match="no simulation kernel"):
        resolve_kernel("macau_tables.nothing_here:simulate_chunk")
    with pytest.raises(InvalidInput, match="workers"):
        run(job(), workers=0)
    with pytest.raises(InvalidInput, match="either"):
        run(job(), workers=2, cluster="tcp://127.0.0.1:1")


def test_a_kernel_that_plays_the_wrong_number_of_rounds_is_refused() -> None:
    bad = Job("fake", 100, 1, chunk_rounds=50, kernel="tests.analysis.test_simulation:short_kernel")
    with pytest.raises(InvalidInput, match="played 49 of 50"):
        run(bad, workers=1)


# --- merging ---------------------------------------------------------------------------------


def test_run_is_the_chunks_merged_in_chunk_order() -> None:
    j = job(rounds=2_500, chunk=1_000, series=True)
    res = run(j, workers=1)
    by_hand = [fake_kernel(7, i, n, {"series": True}) for i, n in j.chunks()]
    assert res.total.rounds == 2_500
    assert res.total.counts == merge_all(by_hand).counts
    expected = np.concatenate([r.series["outcome"] for r in by_hand])
    assert np.array_equal(res.total.series["outcome"], expected)
    assert [ct.rounds for ct in res.chunk_totals] == [1_000, 1_000, 500]
    assert res.chunk_totals[2] == ChunkTotals.of(by_hand[2])


def test_merge_sums_counts_and_refuses_conflicts() -> None:
    a = ChunkResult("g", 3, {"x": {"win": 2, "lose": 1}}, {"x": {"win": Fraction(1), "lose": -1}})
    b = ChunkResult("g", 2, {"x": {"win": 1}, "y": {"push": 2}}, {"x": {"win": Fraction(1)},
                    "y": {"push": Fraction(0)}})  # fmt: skip
    m = a.merge(b)
    assert (m.rounds, m.counts) == (5, {"x": {"win": 3, "lose": 1}, "y": {"push": 2}})
    assert m.mean("x") == Fraction(1, 2)
    with pytest.raises(InvalidInput, match="differs"):
        a.merge(ChunkResult("g", 1, {"x": {"win": 1}}, {"x": {"win": Fraction(19, 20)}}))
    with pytest.raises(InvalidInput, match="cannot merge"):
        a.merge(ChunkResult("h", 1, {}, {}))


def test_totals_do_not_depend_on_the_number_of_workers() -> None:
    j = job(rounds=20_000, chunk=1_500, series=True)
    one, two = run(j, workers=1), run(j, workers=2)
    assert one.total.counts == two.total.counts
    assert one.total.rounds == two.total.rounds == 20_000
    assert np.array_equal(one.total.series["outcome"], two.total.series["outcome"])
    assert one.chunk_totals == two.chunk_totals
    assert two.where == "2 local processes"


def test_the_seed_and_the_chunking_are_the_job_identity() -> None:
    base = run(job(seed=7, chunk=1_000), workers=1).total.counts
    assert run(job(seed=7, chunk=1_000), workers=1).total.counts == base
    assert run(job(seed=8, chunk=1_000), workers=1).total.counts != base
    assert run(job(seed=7, chunk=999), workers=1).total.counts != base


def test_progress_reports_rounds_done_up_to_the_total() -> None:
    seen: list[tuple[int, int]] = []
    run(job(rounds=2_500, chunk=1_000), workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1_000, 2_500), (2_000, 2_500), (2_500, 2_500)]
    seen.clear()
    run(job(rounds=2_500, chunk=1_000), workers=2, progress=lambda d, t: seen.append((d, t)))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (2_500, 2_500)


# --- statistics ------------------------------------------------------------------------------


def test_bet_stats_by_hand() -> None:
    """30 wins, 10 losses, 10 pushes: mean 20/50, sample variance Σ(x-m)²/(n-1)."""
    counts = {"win": 30, "lose": 10, "push": 10}
    s = bet_stats("coin", counts, NETS, fake_par())
    m = Fraction(2, 5)
    var = (30 * (1 - m) ** 2 + 10 * (-1 - m) ** 2 + 10 * m**2) / 49
    assert s.decisions == 50 and s.mean == m
    assert s.std_dev == pytest.approx(math.sqrt(var))
    assert s.ci_low == pytest.approx(0.4 - Z95 * math.sqrt(var / 50))
    assert s.ci_high == pytest.approx(0.4 + Z95 * math.sqrt(var / 50))
    assert s.exact_ev == 0 and s.exact_std_dev == pytest.approx(math.sqrt(0.9))
    assert s.z == pytest.approx(0.4 / (math.sqrt(0.9) / math.sqrt(50)))
    assert s.flagged == (abs(s.z) > FLAG_SIGMAS)  # 2.98 sigma: not flagged
    assert not s.flagged


def test_the_par_check_passes_an_honest_kernel_and_flags_a_biased_one() -> None:
    honest = run(job(rounds=200_000, chunk=50_000), workers=1).stats(fake_par())[0]
    assert honest.exact_ev == 0 and honest.z is not None and abs(honest.z) < FLAG_SIGMAS
    assert honest.ci_low < 0 < honest.ci_high
    biased = run(job(rounds=200_000, chunk=50_000, bias=0.01), workers=1).stats(fake_par())[0]
    assert biased.z is not None and biased.z > FLAG_SIGMAS and biased.flagged


def test_labels_or_nets_that_the_par_does_not_know_are_flagged() -> None:
    s = bet_stats("coin", {"win": 5, "jackpot": 1}, NETS | {"jackpot": Fraction(9)}, fake_par())
    assert s.flagged and "jackpot" in s.problems[0]
    s = bet_stats("coin", {"win": 5}, {"win": Fraction(2)}, fake_par())
    assert s.flagged and "nets 2" in s.problems[0]
    s = bet_stats("dice", {"win": 5}, NETS, fake_par())  # no such line: nothing to check
    assert not s.flagged and s.z is None and s.exact_ev is None


def test_convergence_is_the_running_mean_after_each_chunk() -> None:
    res = run(job(rounds=3_000, chunk=1_000), workers=1)
    rounds, means = res.convergence("coin")
    assert rounds == [1_000, 2_000, 3_000]
    assert means[-1] == pytest.approx(float(res.total.mean("coin")))
    first = res.chunk_totals[0].bets["coin"]
    assert means[0] == pytest.approx(float(first[1] / first[0]))


# --- Dask ------------------------------------------------------------------------------------


def test_a_dask_cluster_gives_the_same_totals_as_a_local_run() -> None:
    import distributed

    j = job(rounds=12_000, chunk=1_000, series=True)
    local = run(j, workers=1)
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        seen: list[int] = []
        remote = run(j, cluster=cluster.scheduler_address, progress=lambda d, t: seen.append(d))
    assert remote.total.counts == local.total.counts
    assert np.array_equal(remote.total.series["outcome"], local.total.series["outcome"])
    assert remote.where.startswith("dask tcp://")
    assert seen[-1] == 12_000


def test_without_dask_the_cluster_option_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(InvalidInput, match=r"macau-tables\[cluster\]"):
        run(job(), cluster="tcp://127.0.0.1:8786")


def test_correlated_decisions_widen_the_interval_by_rounds_as_clusters() -> None:
    """Two decisions per round that always agree carry the information of one: the
    clustered standard error is sqrt(2) times the naive one (independent decisions)."""
    from macau_tables.analysis.simresult import cross_key

    rounds = 1000  # 600 rounds both win, 400 both lose: 2 decisions each
    counts = {"win": 1200, "lose": 800}
    nets = {"win": Fraction(1), "lose": Fraction(-1)}
    naive = bet_stats("b", counts, nets, None)
    cross = {cross_key("win", "win"): 600 * 4, cross_key("lose", "lose"): 400 * 4}
    clustered = bet_stats("b", counts, nets, None, cross=cross, rounds=rounds)
    assert clustered.mean == naive.mean == Fraction(1, 5)
    ratio = (clustered.ci_high - clustered.ci_low) / (naive.ci_high - naive.ci_low)
    # sqrt(2), up to the degrees of freedom: naive n-1 = 1999, clustered R-1 = 999
    assert ratio == pytest.approx(math.sqrt(1999 / 999), rel=1e-9)
    # decisions that never share a round (each round one win and one loss) cancel out
    hedged = {
        cross_key("win", "lose"): 1000,
        cross_key("win", "win"): 1000,
        cross_key("lose", "lose"): 1000,
    }
    hedged_counts = {"win": 1000, "lose": 1000}
    h = bet_stats("b", hedged_counts, nets, None, cross=hedged, rounds=1000)
    assert h.ci_high - h.ci_low == pytest.approx(0.0, abs=1e-12)


def test_a_nogil_kernel_runs_on_threads_with_the_same_totals() -> None:
    """Baccarat's kernel releases the GIL for a whole chunk: two local workers are threads,
    and the totals are those of one worker (the job's identity is seed and chunking)."""
    j = Job("baccarat", 30_000, seed=5, chunk_rounds=4_000, options={"series": True})
    one, two = run(j, workers=1), run(j, workers=2)
    assert two.where == "2 threads"
    assert one.total.counts == two.total.counts
    assert np.array_equal(one.total.series["outcome"], two.total.series["outcome"])
    assert one.chunk_totals == two.chunk_totals
