"""Monte Carlo simulation jobs: chunking, local workers, a Dask cluster, statistics.

A :class:`Job` is ``rounds`` rounds of one game under ``options``, cut into a fixed number of
chunks of ``chunk_rounds`` rounds (the last may be shorter). Chunk ``i`` is simulated by the
game kernel's ``simulate_chunk(seed, i, rounds_i, options)``, which draws only from
:func:`macau_tables.analysis.kernels.rng.chunk_generator` ``(seed, i)``; the chunks' results
are merged in chunk order. So a job's totals depend only on ``(seed, rounds, chunk_rounds,
options)``: never on how many workers ran the chunks, on which machines, or in what order
they finished.

:func:`run` runs the chunks in this process (``workers=1``), on ``K`` local processes
(:class:`concurrent.futures.ProcessPoolExecutor`) or, for a kernel that releases the GIL for
a whole chunk (its module sets ``NOGIL = True``: baccarat), ``K`` threads, or on a Dask
cluster (``cluster="tcp://HOST:PORT"``, the ``cluster`` extra, imported only then). Before
local workers start, :func:`run` calls the kernel module's ``prepare(options)`` if it has
one: the tile kernel builds (or reads from :mod:`~macau_tables.analysis.tablecache`) its
setting tables there, and every kernel loads its compiled code, once, in the parent; the
workers, forked from it, inherit both (threads share them). :meth:`SimResult.stats`
gives each bet line's estimated expected return with a 95% confidence interval and, against
the exact PAR sheet (:mod:`macau_tables.analysis.par`), the z-score
``(mean - exact EV) / (exact std_dev / sqrt(decisions))``, flagged when ``|z| > 4``.
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from macau_tables.analysis.par import ParSheet, frac_json
from macau_tables.analysis.simresult import ChunkResult, cross_key, merge_all
from macau_tables.core.errors import InvalidInput

#: the games a job can name, and the kernel (``module:function``) that simulates each
KERNELS: Mapping[str, str] = {
    "baccarat": "macau_tables.analysis.kernels.baccarat_sim:simulate_chunk",
    "craps": "macau_tables.analysis.kernels.craps_sim:simulate_chunk",
    "paigow": "macau_tables.analysis.kernels.tiles_sim:simulate_chunk",
    "taiwan": "macau_tables.analysis.kernels.tiles_sim:simulate_chunk",
}

#: default rounds per chunk: a chunk is a few tenths of a second of kernel time, so that
#: progress is smooth and many workers stay busy. Part of a job's identity: changing it
#: changes the totals (chunk i's stream is fixed, its length is not).
DEFAULT_CHUNK_ROUNDS: Mapping[str, int] = {
    "baccarat": 250_000,
    "craps": 1_000_000,
    "paigow": 50_000,
    "taiwan": 50_000,
}
FALLBACK_CHUNK_ROUNDS = 100_000

#: two-sided 95% normal quantile, and the PAR check's threshold in standard errors
Z95 = 1.959963984540054
FLAG_SIGMAS = 4.0

Kernel = Callable[[int, int, int, Mapping[str, object]], ChunkResult]
Progress = Callable[[int, int], None]  # (rounds done, rounds in the job)


def kernel_module(path: str) -> object:
    """The module of a ``"package.module:function"`` kernel (for its ``prepare`` and
    ``NOGIL``, see :func:`run`)."""
    return importlib.import_module(path.partition(":")[0])


def resolve_kernel(path: str) -> Kernel:
    """The function named by ``"package.module:function"``."""
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise InvalidInput(f"a kernel is 'package.module:function', not {path!r}")
    try:
        fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise InvalidInput(f"no simulation kernel {path!r}: {exc}") from exc
    if not callable(fn):
        raise InvalidInput(f"{path!r} is not callable")
    return fn  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Job:
    """``rounds`` rounds of ``game`` under ``options``, in chunks of ``chunk_rounds``.

    ``kernel`` (``"module:function"``) overrides the game's kernel (tests use a fake one).
    ``options`` go to the kernel unchanged; ``options["series"]`` asks for per-round
    outcome series (for :mod:`macau_tables.analysis.sessions`).
    """

    game: str
    rounds: int
    seed: int
    options: Mapping[str, object] = field(default_factory=dict)
    chunk_rounds: int | None = None  # None: DEFAULT_CHUNK_ROUNDS[game]
    kernel: str | None = None

    def __post_init__(self) -> None:
        if self.kernel is None and self.game not in KERNELS:
            raise InvalidInput(f"no game {self.game!r}: one of {', '.join(KERNELS)}")
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) or self.rounds < 1:
            raise InvalidInput(f"rounds must be a positive integer, not {self.rounds!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise InvalidInput(f"the seed is a non-negative integer, not {self.seed!r}")
        if self.chunk_rounds is not None and (
            not isinstance(self.chunk_rounds, int) or self.chunk_rounds < 1
        ):
            raise InvalidInput(f"chunk_rounds must be a positive integer, not {self.chunk_rounds}")

    @property
    def kernel_path(self) -> str:
        return self.kernel if self.kernel is not None else KERNELS[self.game]

    @property
    def rounds_per_chunk(self) -> int:
        if self.chunk_rounds is not None:
            return self.chunk_rounds
        return DEFAULT_CHUNK_ROUNDS.get(self.game, FALLBACK_CHUNK_ROUNDS)

    @property
    def n_chunks(self) -> int:
        return -(-self.rounds // self.rounds_per_chunk)

    def chunks(self) -> list[tuple[int, int]]:
        """``(chunk index, rounds)`` for every chunk: all full but possibly the last."""
        size = self.rounds_per_chunk
        return [(i, min(size, self.rounds - i * size)) for i in range(self.n_chunks)]

    def kernel_options(self) -> dict[str, object]:
        """The options the kernel receives (the tile kernel also gets ``game``)."""
        opts = dict(self.options)
        if self.kernel is None and self.game in ("paigow", "taiwan"):
            opts.setdefault("game", self.game)
        return opts

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rounds": self.rounds,
            "seed": self.seed,
            "chunk_rounds": self.rounds_per_chunk,
            "chunks": self.n_chunks,
            "options": {k: _jsonable(v) for k, v in self.options.items()},
        }


def _jsonable(v: object) -> object:
    if isinstance(v, Fraction):
        return frac_json(v)
    if isinstance(v, str | int | float | bool) or v is None:
        return v
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    return str(v)


def run_chunk(
    kernel: str, seed: int, chunk: int, rounds: int, options: Mapping[str, object]
) -> ChunkResult:
    """One chunk, wherever it runs (a worker process, a Dask worker, or here)."""
    result = resolve_kernel(kernel)(seed, chunk, rounds, options)
    if result.rounds != rounds:
        raise InvalidInput(f"chunk {chunk}: the kernel played {result.rounds} of {rounds} rounds")
    return result


# --- per-chunk totals (for convergence plots) ------------------------------------------------


@dataclass(frozen=True)
class ChunkTotals:
    """One chunk's rounds and, per bet line, (decisions, Σ net per unit) — small, exact."""

    rounds: int
    bets: Mapping[str, tuple[int, Fraction]]

    @classmethod
    def of(cls, r: ChunkResult) -> ChunkTotals:
        bets = {}
        for bet, labels in r.counts.items():
            n = sum(labels.values())
            total = sum((r.nets[bet][lab] * c for lab, c in labels.items()), Fraction(0))
            bets[bet] = (n, total)
        return cls(r.rounds, bets)


# --- statistics ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BetStats:
    """One bet line's estimate, its 95% interval, and the check against the exact PAR."""

    bet: str
    decisions: int
    mean: Fraction  # exact sample mean net per unit staked
    std_dev: float  # sample standard deviation of the net per decision
    ci_low: float
    ci_high: float
    exact_ev: Fraction | None = None
    exact_std_dev: float | None = None
    z: float | None = None
    problems: tuple[str, ...] = ()  # labels or nets that disagree with the PAR sheet

    @property
    def flagged(self) -> bool:
        """Outside 4 standard errors of the exact figure (or not matching the PAR's labels)."""
        return bool(self.problems) or (self.z is not None and abs(self.z) > FLAG_SIGMAS)

    def to_json(self) -> dict[str, Any]:
        return {
            "bet": self.bet,
            "decisions": self.decisions,
            "mean": float(self.mean),
            "mean_exact": frac_json(self.mean),
            "std_dev": self.std_dev,
            "ci95": [self.ci_low, self.ci_high],
            "exact_ev": None if self.exact_ev is None else float(self.exact_ev),
            "exact_ev_fraction": None if self.exact_ev is None else frac_json(self.exact_ev),
            "exact_std_dev": self.exact_std_dev,
            "z": self.z,
            "flagged": self.flagged,
            "problems": list(self.problems),
        }


def bet_stats(
    bet: str,
    counts: Mapping[str, int],
    nets: Mapping[str, Fraction],
    par: ParSheet | None,
    *,
    cross: Mapping[str, int] | None = None,
    rounds: int | None = None,
) -> BetStats:
    """The statistics of one bet line from its outcome counts (see the module docstring).

    With ``cross`` (the exact second moments of the per-round label counts, see
    :attr:`ChunkResult.cross`) and ``rounds``, the decisions of one round are treated as
    one cluster: the standard error comes from the variance of the per-round totals, which
    is right when a round's decisions are correlated (the seats of a tile round).
    """
    n = sum(counts.values())
    if n == 0:
        raise InvalidInput(f"no decisions for {bet!r}")
    total = sum((nets[lab] * c for lab, c in counts.items()), Fraction(0))
    mean = total / n
    ss = sum(((nets[lab] - mean) ** 2 * c for lab, c in counts.items()), Fraction(0))
    sd = math.sqrt(ss / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    if cross and rounds and rounds > 1:
        labels = list(counts)
        sum_sq = sum(
            (nets[a] * nets[b] * cross.get(cross_key(a, b), 0) * (1 if a == b else 2))
            for i, a in enumerate(labels)
            for b in labels[i:]
        )
        var_round = (Fraction(sum_sq) - total * total / rounds) / (rounds - 1)
        se = math.sqrt(max(var_round, Fraction(0)) * rounds) / n
    half = Z95 * se
    low, high = float(mean) - half, float(mean) + half
    if par is None:
        return BetStats(bet, n, mean, sd, low, high)
    names = {b.name for b in par.lines}
    if bet not in names:
        return BetStats(bet, n, mean, sd, low, high)  # no exact figure to check against
    line = par.line(bet)
    problems = []
    par_nets: dict[str, set[Fraction]] = {}
    for o in line.outcomes:
        par_nets.setdefault(o.label, set()).add(o.net)
    for lab, c in counts.items():
        if c and lab not in par_nets:
            problems.append(f"label {lab!r} is not in the PAR line")
        elif c and nets[lab] not in par_nets[lab]:
            problems.append(f"{lab} nets {nets[lab]}, the PAR says {sorted(par_nets[lab])}")
    ev, esd = line.expected_return, line.std_dev
    if cross and rounds and rounds > 1:
        # clustered: the exact σ/√n understates the error; compare with the observed one
        z = float(mean - ev) / se if se > 0 else (0.0 if mean == ev else math.inf)
    else:
        z = _z(mean, ev, esd, n)
    return BetStats(bet, n, mean, sd, low, high, ev, esd, z, tuple(problems))


def _z(mean: Fraction, ev: Fraction, sd: float, n: int) -> float:
    """Standard errors between the sample mean and the exact EV (a degenerate bet: 0 or inf)."""
    if sd > 0:
        return float(mean - ev) / (sd / math.sqrt(n))
    return 0.0 if mean == ev else math.inf


@dataclass
class SimResult:
    """A finished job: the merged counts, per-chunk totals in chunk order, and timing."""

    job: Job
    total: ChunkResult
    chunk_totals: list[ChunkTotals]
    seconds: float
    where: str

    @property
    def rounds_per_second(self) -> float:
        return self.total.rounds / self.seconds if self.seconds > 0 else math.inf

    def stats(self, par: ParSheet | None = None) -> list[BetStats]:
        """Each bet line's statistics, in the PAR sheet's order when one is given."""
        order = list(self.total.counts)
        if par is not None:
            names = [b.name for b in par.lines]
            order.sort(key=lambda b: names.index(b) if b in names else len(names))
        return [
            bet_stats(
                b,
                self.total.counts[b],
                self.total.nets[b],
                par,
                cross=self.total.cross.get(b),
                rounds=self.total.rounds,
            )
            for b in order
        ]

    def convergence(self, bet: str) -> tuple[list[int], list[float]]:
        """Cumulative rounds after each chunk, and the running mean net per unit of ``bet``."""
        rounds, means = [], []
        done, n, total = 0, 0, Fraction(0)
        for ct in self.chunk_totals:
            done += ct.rounds
            dn, dt = ct.bets.get(bet, (0, Fraction(0)))
            n, total = n + dn, total + dt
            if n:
                rounds.append(done)
                means.append(float(total / n))
        return rounds, means


def exact_par(game: str, options: Mapping[str, object]) -> ParSheet:
    """The exact PAR sheet a job of ``game`` under ``options`` is checked against.

    Baccarat: :func:`analysis.baccarat.baccarat_par` for the rules of the options, i.e. a hand
    off the top of a full shoe (BA-R4); hands dealt deep into a shoe differ slightly (card
    removal, the cut card), far below what 4 standard errors resolve at ordinary sizes.
    Craps: :func:`analysis.craps.craps_par`. Pai Gow / Taiwan Pai Kao:
    :func:`analysis.tiles.paigow_par` / ``taiwan_par`` for the options' strategies (a few
    seconds: every deal is counted).
    """
    opts = {k: v for k, v in options.items() if k != "series"}
    if game == "baccarat":
        from macau_tables.analysis.baccarat import baccarat_par
        from macau_tables.analysis.kernels.baccarat_sim import rules_from_options

        return baccarat_par(rules_from_options(opts)[0])
    if game == "craps":
        from macau_tables.analysis.craps import craps_par
        from macau_tables.games.craps import CrapsRules

        rules = opts.get("rules") or CrapsRules()
        if not isinstance(rules, CrapsRules):
            raise InvalidInput(f"rules: a CrapsRules, not {rules!r}")
        cap = opts.get("odds_cap")
        if cap == "winnings" or cap == "stake":
            rules = replace(rules, odds_cap=cap)
        elif cap is not None:
            raise InvalidInput(f"odds_cap is 'winnings' or 'stake', not {cap!r}", rule="CR-R2")
        return craps_par(rules)
    if game in ("paigow", "taiwan"):
        from macau_tables.analysis.kernels.tiles_sim import parse_options
        from macau_tables.analysis.tiles import paigow_par, taiwan_par

        t = parse_options({**opts, "game": game})
        if game == "paigow":
            return paigow_par(t.player_strategy, t.banker_strategy, t.commission)
        return taiwan_par(t.banker_strategy, t.commission)
    raise InvalidInput(f"no exact PAR sheet for {game!r}")


# --- running ---------------------------------------------------------------------------------


def default_workers() -> int:
    return os.cpu_count() or 1


def run(
    job: Job,
    *,
    workers: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
) -> SimResult:
    """Run every chunk of ``job`` and merge them in chunk order.

    ``workers``: 1 runs in this process; K > 1 on K local processes; None: one per core.
    ``cluster``: the address of a Dask scheduler (``"tcp://HOST:PORT"``); the workers need
    macau-tables installed. ``progress(rounds_done, rounds_total)`` is called as chunks end.
    """
    if cluster is not None and workers is not None:
        raise InvalidInput("give either workers or a cluster, not both")
    if workers is not None and (isinstance(workers, bool) or workers < 1):
        raise InvalidInput(f"workers must be at least 1, not {workers}")
    resolve_kernel(job.kernel_path)  # fail here, once, with a clear message
    start = time.perf_counter()
    module = kernel_module(job.kernel_path)
    prepare = getattr(module, "prepare", None)
    if cluster is None and callable(prepare):
        prepare(job.kernel_options())  # tables and compiled kernels: once, before workers
    if cluster is not None:
        results, where = _run_dask(job, cluster, progress), f"dask {cluster}"
    else:
        k = workers if workers is not None else default_workers()
        k = min(k, job.n_chunks)
        if k == 1:
            results, where = _run_here(job, progress), "in-process"
        elif getattr(module, "NOGIL", False) is True:
            pool: Executor = ThreadPoolExecutor(max_workers=k)
            results, where = _run_pool(job, k, progress, pool), f"{k} threads"
        else:
            pool = ProcessPoolExecutor(max_workers=k)
            results, where = _run_pool(job, k, progress, pool), f"{k} local processes"
    seconds = time.perf_counter() - start
    ordered = [results[i] for i in range(job.n_chunks)]
    totals = [ChunkTotals.of(r) for r in ordered]
    return SimResult(job, merge_all(ordered), totals, seconds, where)


def _args(job: Job) -> Iterator[tuple[str, int, int, int, dict[str, object]]]:
    opts = job.kernel_options()
    for i, n in job.chunks():
        yield job.kernel_path, job.seed, i, n, opts


def _run_here(job: Job, progress: Progress | None) -> dict[int, ChunkResult]:
    results, done = {}, 0
    for args in _args(job):
        results[args[2]] = r = run_chunk(*args)
        done += r.rounds
        if progress is not None:
            progress(done, job.rounds)
    return results


def _run_pool(
    job: Job, workers: int, progress: Progress | None, executor: Executor
) -> dict[int, ChunkResult]:
    """The chunks on ``executor``: local processes (forked after :func:`run` prepared the
    kernel's tables and compiled code, so they inherit them), or threads for a kernel that
    releases the GIL (``NOGIL``)."""
    results: dict[int, ChunkResult] = {}
    done = 0
    pending: dict[Future[ChunkResult], int] = {}
    todo = iter(_args(job))
    window = 4 * workers  # bounded: a billion-round job does not queue every chunk at once
    with executor as pool:
        for args in todo:
            pending[pool.submit(run_chunk, *args)] = args[2]
            if len(pending) >= window:
                break
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                i = pending.pop(fut)
                results[i] = fut.result()
                done += results[i].rounds
                if progress is not None:
                    progress(done, job.rounds)
                nxt = next(todo, None)
                if nxt is not None:
                    pending[pool.submit(run_chunk, *nxt)] = nxt[2]
    return results


def _run_dask(job: Job, address: str, progress: Progress | None) -> dict[int, ChunkResult]:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise InvalidInput(
            "--cluster needs dask.distributed: pip install 'macau-tables[cluster]'"
        ) from exc
    if not isinstance(address, str) or "://" not in address:
        raise InvalidInput(f"a cluster address is 'tcp://HOST:PORT', not {address!r}")
    results: dict[int, ChunkResult] = {}
    done = 0
    with Client(address, timeout="10s") as client:  # type: ignore[no-untyped-call]
        index = {}
        futures = []
        for args in _args(job):
            fut = client.submit(run_chunk, *args, pure=False)  # a fresh key per chunk
            index[fut.key] = args[2]
            futures.append(fut)
        for fut in as_completed(futures):  # type: ignore[no-untyped-call]
            i = index[fut.key]
            results[i] = fut.result()
            done += results[i].rounds
            if progress is not None:
                progress(done, job.rounds)
    return results
