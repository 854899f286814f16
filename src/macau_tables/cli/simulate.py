"""`macau-tables simulate baccarat|craps|paigow|taiwan`: Monte Carlo runs checked against the
exact PAR sheets, and player sessions with betting systems replayed on them.

Thin: it parses options, builds a :class:`~macau_tables.analysis.simulation.Job` (and, with
``--sessions``, a :class:`~macau_tables.analysis.sessions.Player` and a bet program), runs it
locally or on a Dask cluster, and renders the figures (table, ``--json``, ``--csv``,
``--plot``). Every rule lives in the engines and kernels.
"""

from __future__ import annotations

import csv
import importlib.util
import math
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer
from rich.table import Table

from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.core.errors import InvalidInput

if TYPE_CHECKING:
    from macau_tables.analysis import sessions as ss

simulate_app = typer.Typer(
    help="Monte Carlo simulation checked against the exact PAR sheets; player sessions "
    "with betting systems (flat, Martingale, Paroli, D'Alembert, Fibonacci).",
    epilog="Example: macau-tables simulate baccarat --rounds 2000000 --seed 7"
    "  ·  macau-tables simulate craps --sessions 1000 --system martingale --seed 1"
    "  ·  macau-tables simulate paigow --rounds 100000 --json",
    no_args_is_help=True,
)

#: rounds simulated when --rounds is not given
DEFAULT_ROUNDS = {"baccarat": 1_000_000, "craps": 1_000_000, "paigow": 100_000, "taiwan": 100_000}
#: rolls per Pass Line decision is 557/165 ≈ 3.38 on average; sessions ask for this many
ROLLS_PER_DECISION = 3.6
PATHS_PLOTTED = 20

# --- shared options ----------------------------------------------------------------------------

RoundsOpt = Annotated[
    int | None,
    typer.Option(
        "--rounds",
        help="Rounds to simulate: hands (baccarat), rolls (craps), rounds (tiles). "
        "Default 1,000,000 (baccarat, craps) or 100,000 (tiles); raised to fit --sessions. "
        "At most 10,000,000,000 a job (100,000,000 with --sessions): run more jobs, with "
        "other seeds, for more.",
    ),
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", help="Job seed (>= 0): same seed, same figures.")
]
ChunkOpt = Annotated[
    int | None,
    typer.Option("--chunk-rounds", help="Rounds per chunk (part of the job's identity)."),
]
WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", help="Local processes (1: this process). Default: every core."),
]
ClusterOpt = Annotated[
    str | None,
    typer.Option("--cluster", help="Run on a Dask scheduler tcp://HOST:PORT (cluster extra)."),
]
SessionsOpt = Annotated[
    int, typer.Option("--sessions", help="Player sessions to replay on the rounds (0: none).")
]
SessionRoundsOpt = Annotated[
    int,
    typer.Option(
        "--session-rounds", help="Rounds per session (craps: line decisions). Default 100."
    ),
]
BankrollOpt = Annotated[int, typer.Option("--bankroll", help="Session bankroll, whole units.")]
BetOpt = Annotated[int, typer.Option("--bet", help="Base bet, whole units (MOP).")]
SystemOpt = Annotated[
    str,
    typer.Option("--system", help="flat, martingale, paroli, dalembert or fibonacci."),
]
StopLossOpt = Annotated[
    int | None, typer.Option("--stop-loss", help="End a session after losing this much.")
]
StopWinOpt = Annotated[
    int | None, typer.Option("--stop-win", help="End a session after winning this much.")
]
TableMaxOpt = Annotated[
    int | None, typer.Option("--table-max", help="Largest stake (default 1000 × --bet).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON on stdout.")]
CsvOpt = Annotated[Path | None, typer.Option("--csv", help="Write the figures as CSV here.")]
PlotOpt = Annotated[
    Path | None,
    typer.Option("--plot", help="PNG: convergence of each bet's edge, session bankrolls."),
]
NoParOpt = Annotated[
    bool, typer.Option("--no-par", help="Skip the exact PAR sheet (and its 4-sigma check).")
]


@dataclass(frozen=True)
class Common:
    rounds: int | None
    seed: int | None
    chunk_rounds: int | None
    workers: int | None
    cluster: str | None
    sessions: int
    session_rounds: int
    bankroll: int
    bet: int
    system: str
    stop_loss: int | None
    stop_win: int | None
    table_max: int | None
    json: bool
    csv: Path | None
    plot: Path | None
    no_par: bool


def _seed(seed: int | None) -> int:
    if seed is None:
        from macau_tables.core.rng import Rng

        return Rng.system().below(2**63)
    if seed < 0:
        raise InvalidInput(f"--seed is a whole number >= 0, not {seed}")
    return seed


#: the largest job: ~25 min of baccarat on this 2-core machine; its chunk list stays small
MAX_ROUNDS = 10_000_000_000
#: sessions keep every round's outcome in memory (a few bytes a round)
MAX_SERIES_ROUNDS = 100_000_000
MAX_CHUNKS = 100_000


def _rounds(game: str, c: Common, chunk_rounds: int) -> int:
    rounds = c.rounds if c.rounds is not None else DEFAULT_ROUNDS[game]
    if rounds < 1:
        raise InvalidInput(f"--rounds must be at least 1, not {rounds}")
    if rounds > MAX_ROUNDS:
        raise InvalidInput(
            f"--rounds {rounds:,} is more than one job runs ({MAX_ROUNDS:,}); run several "
            "jobs with different seeds"
        )
    if c.sessions:
        need = c.sessions * c.session_rounds
        if game == "craps":
            need = math.ceil(need * ROLLS_PER_DECISION) + 1_000
        rounds = max(rounds, need)
        if rounds > MAX_SERIES_ROUNDS:
            raise InvalidInput(
                f"{rounds:,} rounds for the sessions: sessions keep every round in memory, at "
                f"most {MAX_SERIES_ROUNDS:,}; fewer --sessions or --session-rounds"
            )
    if -(-rounds // chunk_rounds) > MAX_CHUNKS:
        raise InvalidInput(
            f"{rounds:,} rounds in chunks of {chunk_rounds:,} is more than {MAX_CHUNKS:,} "
            "chunks; a larger --chunk-rounds"
        )
    return rounds


def _check_output(option: str, path: Path | None) -> None:
    """An output file can be written: checked before the simulation, not after it."""
    if path is None:
        return
    folder = path.parent
    if path.is_dir():
        raise InvalidInput(f"{option} {path} is a folder; give a file name")
    if not folder.is_dir():
        raise InvalidInput(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise InvalidInput(f"{option} {path}: the folder {folder} is not writable")


# --- running ------------------------------------------------------------------------------------


def _simulate(
    game: str,
    options: Mapping[str, object],
    program: Callable[[], Any],
    c: Common,
) -> None:
    from macau_tables.analysis.simulation import DEFAULT_CHUNK_ROUNDS, Job, exact_par, run

    _check_output("--csv", c.csv)
    _check_output("--plot", c.plot)
    if c.plot is not None and importlib.util.find_spec("matplotlib") is None:
        raise InvalidInput("--plot needs matplotlib: pip install 'macau-tables[report]'")
    if c.sessions < 0:
        raise InvalidInput(f"--sessions must be 0 or more, not {c.sessions}")
    player = None
    if c.sessions:  # the sessions module (and the craps rules it knows) only for sessions
        from macau_tables.analysis import sessions as ss

        player = ss.Player(
            c.bankroll, c.bet, ss.system(c.system), c.stop_loss, c.stop_win,
            c.session_rounds, c.table_max,
        )  # fmt: skip
    bets = program() if c.sessions else None  # check the program's options before running
    opts = dict(options)
    if c.sessions:
        opts["series"] = True
    chunk = c.chunk_rounds if c.chunk_rounds is not None else DEFAULT_CHUNK_ROUNDS[game]
    if chunk < 1:
        raise InvalidInput(f"--chunk-rounds must be at least 1, not {chunk}")
    job = Job(game, _rounds(game, c, chunk), _seed(c.seed), opts, c.chunk_rounds)
    quiet = c.json or not sys.stdout.isatty()
    result = _run_with_progress(job, c, quiet, run)
    par = None if c.no_par else exact_par(game, options)
    stats = result.stats(par)
    report = None
    if player is not None and bets is not None:
        rounds = bets.compile(result.total.series)
        fit = len(rounds) // player.session_rounds
        n = min(c.sessions, fit)
        keep = PATHS_PLOTTED if c.plot is not None else 0
        report = ss.run_sessions(rounds, player, n, keep=keep)
    if c.csv is not None:
        _write_csv(c.csv, stats, report)
    if c.plot is not None:
        _plot(c.plot, result, stats, report)
    if c.json:
        print_json(_json(result, par, stats, report, c))
    else:
        _print(result, par, stats, report, c)


def _run_with_progress(job: Any, c: Common, quiet: bool, run: Callable[..., Any]) -> Any:
    kwargs: dict[str, Any] = {"workers": c.workers, "cluster": c.cluster}
    if quiet:
        return run(job, **kwargs)
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        TaskProgressColumn(),
        TextColumn("{task.completed:,.0f}/{task.total:,.0f} rounds · {task.fields[rate]}"),
        TimeElapsedColumn(),
    )
    start = time.perf_counter()
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"simulating {job.game}", total=job.rounds, rate="…")

        def update(done: int, total: int) -> None:
            rate = done / max(time.perf_counter() - start, 1e-9)
            progress.update(task, completed=done, rate=f"{rate:,.0f} rounds/s")

        return run(job, progress=update, **kwargs)


# --- rendering ----------------------------------------------------------------------------------


def _pct(x: float | Fraction | None, places: int = 4) -> str:
    """A return per unit as a signed percentage without the sign ``%`` (the header has it)."""
    return "" if x is None else f"{float(x) * 100:+.{places}f}"


def _print(result: Any, par: Any, stats: list[Any], report: Any, c: Common) -> None:
    job = result.job
    chunk = min(job.rounds_per_chunk, job.rounds)
    title = (
        f"{job.game}: {result.total.rounds:,} rounds, seed {job.seed}, "
        f"{job.n_chunks} chunk{'s' if job.n_chunks > 1 else ''} of {chunk:,} — "
        f"{result.seconds:.2f} s, {result.rounds_per_second:,.0f} rounds/s ({result.where})"
    )
    table = Table(title=title, title_justify="left")
    table.add_column("bet")
    for col in ("decisions", "return %", "95% CI %", "exact %", "z"):
        table.add_column(col, justify="right", no_wrap=True)
    table.add_column("check", justify="right")
    for s in stats:
        if s.exact_ev is None:
            check = "" if par is None else "no exact line"
        else:
            check = "[red]OUTSIDE 4σ[/red]" if s.flagged else "ok"
        if s.problems:
            check = "[red]" + "; ".join(s.problems) + "[/red]"
        table.add_row(
            s.bet,
            f"{s.decisions:,}",
            _pct(s.mean, 3),
            f"{_pct(s.ci_low, 2)}…{_pct(s.ci_high, 2)}",
            _pct(s.exact_ev, 3),
            "" if s.z is None else f"{s.z:+.2f}",
            check,
        )
    console.print(table)
    if par is not None:
        flagged = [s.bet for s in stats if s.flagged]
        verdict = (
            "[red]flagged: " + ", ".join(flagged) + "[/red]"
            if flagged
            else "every line within 4 standard errors"
        )
        console.print(f"[dim]exact: {par.title}[/dim] — {verdict}")
    if report is not None:
        _print_sessions(report)
    if c.csv is not None:
        console.print(f"CSV written to {c.csv}", markup=False)
    if c.plot is not None:
        console.print(f"plot written to {c.plot}", markup=False)


def _print_sessions(report: Any) -> None:
    p = report.player
    limits = []
    if p.stop_loss is not None:
        limits.append(f"stop-loss {p.stop_loss}")
    if p.stop_win is not None:
        limits.append(f"stop-win {p.stop_win}")
    table = Table(
        title=(
            f"{report.sessions:,} sessions: {report.description}, {p.system.name} from "
            f"{p.bet}, bankroll {p.bankroll}, {p.session_rounds} {report.unit_name}s"
            + (", " + ", ".join(limits) if limits else "")
            + f", table max {p.max_bet}"
        ),
        title_justify="left",
    )
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [
        ("risk of ruin (ruined or stop-loss)", _share(report.risk_of_ruin)),
        ("  could not cover the next bet", _share(report.p("ruin"))),
        ("  hit the stop-loss", _share(report.p("stop_loss"))),
        ("hit the stop-win", _share(report.p("stop_win"))),
        ("played every round", _share(report.p("completed"))),
        (f"mean {report.unit_name}s played", f"{float(report.mean_rounds):,.1f}"),
        ("mean final bankroll", f"{float(report.mean_final):,.2f}"),
    ]
    rows += [
        (f"final bankroll, {q}th percentile", f"{float(report.percentile(q)):,.2f}")
        for q in (5, 25, 50, 75, 95)
    ]
    for a, b in rows:
        table.add_row(a, b)
    console.print(table)


def _share(x: Fraction) -> str:
    return f"{float(x) * 100:.2f}%"


def _json(result: Any, par: Any, stats: list[Any], report: Any, c: Common) -> dict[str, Any]:
    return {
        "game": result.job.game,
        "job": result.job.to_json(),
        "where": result.where,
        "seconds": result.seconds,
        "rounds_per_second": result.rounds_per_second,
        "par": None if par is None else par.title,
        "bets": [s.to_json() for s in stats],
        "flagged": [s.bet for s in stats if s.flagged],
        "sessions": None if report is None else report.to_json(),
        "csv": None if c.csv is None else str(c.csv),
        "plot": None if c.plot is None else str(c.plot),
    }


CSV_FIELDS = (
    "section", "name", "decisions", "mean", "ci_low", "ci_high", "exact_ev", "z", "flagged",
    "value",
)  # fmt: skip


def _write_csv(path: Path, stats: list[Any], report: Any) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for s in stats:
            w.writerow(
                {
                    "section": "bet",
                    "name": s.bet,
                    "decisions": s.decisions,
                    "mean": float(s.mean),
                    "ci_low": s.ci_low,
                    "ci_high": s.ci_high,
                    "exact_ev": "" if s.exact_ev is None else float(s.exact_ev),
                    "z": "" if s.z is None else s.z,
                    "flagged": s.flagged,
                }
            )
        if report is not None:
            j = report.to_json()
            figures: list[tuple[str, object]] = [
                ("sessions", j["sessions"]),
                ("risk_of_ruin", j["risk_of_ruin"]),
                ("p_ruin", j["p_ruin"]),
                ("p_stop_loss", j["p_stop_loss"]),
                ("p_stop_win", j["p_stop_win"]),
                ("mean_final", j["mean_final"]),
                ("mean_rounds", j["mean_rounds"]),
            ]
            figures += [(f"p{q}", v) for q, v in j["percentiles"].items()]
            for name, value in figures:
                w.writerow({"section": "sessions", "name": name, "value": value})


def _plot(path: Path, result: Any, stats: list[Any], report: Any) -> None:
    import matplotlib.pyplot as plt

    fig = _figure(result, stats, report)
    fig.savefig(path, format="png", dpi=100)
    plt.close(fig)


def _figure(result: Any, stats: list[Any], report: Any) -> Any:
    """The --plot figure: each bet's running estimate (a line; with one chunk, its final
    value drawn across), the exact figure dashed, and session bankrolls."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - the report extra is part of dev
        raise InvalidInput("--plot needs matplotlib: pip install 'macau-tables[report]'") from exc
    panels = 2 if report is not None else 1
    fig, axes = plt.subplots(panels, 1, figsize=(9, 4.2 * panels), squeeze=False)
    ax = axes[0][0]
    shown = sorted(stats, key=lambda s: -s.decisions)[:6]
    for i, s in enumerate(shown):
        rounds, means = result.convergence(s.bet)
        color = f"C{i}"
        if len(rounds) == 1:  # one chunk: no running estimate, its final value as a line
            ax.hlines(means[0] * 100, 1, rounds[0], color=color, label=f"{s.bet} (one chunk)")
        else:
            ax.plot(rounds, [m * 100 for m in means], marker=".", color=color, label=s.bet)
        if s.exact_ev is not None:
            ax.axhline(float(s.exact_ev) * 100, color=color, linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("rounds simulated")
    ax.set_ylabel("return per unit staked (%)")
    ax.set_title(f"{result.job.game}: running estimate (dashed: exact)")
    ax.legend(fontsize="small")
    if report is not None:
        ax2 = axes[1][0]
        for path_ in report.paths:
            ax2.plot(range(len(path_)), [float(v) for v in path_], linewidth=0.8)
        ax2.axhline(report.player.bankroll, color="black", linewidth=0.6)
        ax2.set_xlabel(f"{report.unit_name}s")
        ax2.set_ylabel("bankroll")
        ax2.set_title(
            f"{len(report.paths)} sessions: {report.description}, {report.player.system.name}"
        )
    fig.tight_layout()
    return fig


# --- commands -----------------------------------------------------------------------------------


def _common(**kw: Any) -> Common:
    return Common(**kw)


@simulate_app.command(
    "baccarat",
    epilog="Example: macau-tables simulate baccarat --rounds 2000000 --seed 7  ·  "
    "macau-tables simulate baccarat --sessions 10000 --session-rounds 200 --bankroll 1000 "
    "--bet 10 --system martingale --stop-win 100 --seed 1",
)
@handle_errors
def simulate_baccarat(
    rounds: RoundsOpt = None,
    seed: SeedOpt = None,
    chunk_rounds: ChunkOpt = None,
    workers: WorkersOpt = None,
    cluster: ClusterOpt = None,
    decks: Annotated[int, typer.Option("--decks", help="Decks in the shoe, 6 to 12 (BA-1).")] = 8,
    continuous_shuffler: Annotated[
        bool, typer.Option("--continuous-shuffler", help="Deal from a continuous shuffler (BA-R4).")
    ] = False,
    no_commission: Annotated[
        bool, typer.Option("--no-commission", help="Banker 1:1, 1:2 on a six (BA-R7).")
    ] = False,
    bet_on: Annotated[
        str,
        typer.Option("--bet-on", help="Sessions: banker, player, tie, banker_pair, player_pair."),
    ] = "banker",
    after_streak: Annotated[
        str | None,
        typer.Option(
            "--after-streak",
            help="Sessions: bet only after a streak, e.g. player:2 (Banker after two Players).",
        ),
    ] = None,
    sessions: SessionsOpt = 0,
    session_rounds: SessionRoundsOpt = 100,
    bankroll: BankrollOpt = 1000,
    bet: BetOpt = 10,
    system: SystemOpt = "flat",
    stop_loss: StopLossOpt = None,
    stop_win: StopWinOpt = None,
    table_max: TableMaxOpt = None,
    json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    no_par: NoParOpt = False,
) -> None:
    """Simulate baccarat shoes (BA-1 … BA-18): the five bets against the exact PAR."""
    from macau_tables.analysis.kernels.baccarat_sim import rules_from_options

    options: dict[str, object] = {"decks": decks}
    if continuous_shuffler:
        options["continuous_shuffler"] = True
    if no_commission:
        options["no_commission"] = True
    rules, _ = rules_from_options(options)  # the engine's checks (BA-1) before anything runs

    def program() -> ss.BaccaratBets:
        from macau_tables.analysis import sessions as ss

        sel: ss.Always | ss.AfterStreak = ss.Always(bet_on)
        if after_streak is not None:
            side, _, length = after_streak.partition(":")
            if not length.isdigit():
                raise InvalidInput(
                    f"--after-streak is SIDE:LENGTH, e.g. player:2, not {after_streak!r}"
                )
            sel = ss.AfterStreak(bet_on, side.strip().lower(), int(length))
        return ss.BaccaratBets(sel, rules.commission, rules.no_commission)

    common = _common(
        rounds=rounds, seed=seed, chunk_rounds=chunk_rounds, workers=workers, cluster=cluster,
        sessions=sessions, session_rounds=session_rounds, bankroll=bankroll, bet=bet,
        system=system, stop_loss=stop_loss, stop_win=stop_win, table_max=table_max, json=json,
        csv=csv_file, plot=plot, no_par=no_par,
    )  # fmt: skip
    _simulate("baccarat", options, program, common)


@simulate_app.command(
    "craps",
    epilog="Example: macau-tables simulate craps --rounds 5000000 --odds max --seed 7  ·  "
    "macau-tables simulate craps --bet 12 --odds max --big 6,8 --sessions 2000 "
    "--session-rounds 50 --bankroll 1000 --seed 1",
)
@handle_errors
def simulate_craps(
    rounds: RoundsOpt = None,
    seed: SeedOpt = None,
    chunk_rounds: ChunkOpt = None,
    workers: WorkersOpt = None,
    cluster: ClusterOpt = None,
    line: Annotated[
        str, typer.Option("--line", help="pass (CR-2.1) or dont_pass (CR-3.1).")
    ] = "pass",
    odds: Annotated[
        str, typer.Option("--odds", help="max (the CR-2.2 / CR-3.2 cap) or none.")
    ] = "max",
    big: Annotated[
        str | None, typer.Option("--big", help="Big bets beside the line bet, e.g. 6,8 (CR-9).")
    ] = None,
    odds_cap: Annotated[
        str, typer.Option("--odds-cap", help="winnings (CR-2.2, default) or stake (CR-R2).")
    ] = "winnings",
    sessions: SessionsOpt = 0,
    session_rounds: SessionRoundsOpt = 100,
    bankroll: BankrollOpt = 1000,
    bet: BetOpt = 10,
    system: SystemOpt = "flat",
    stop_loss: StopLossOpt = None,
    stop_win: StopWinOpt = None,
    table_max: TableMaxOpt = None,
    json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    no_par: NoParOpt = False,
) -> None:
    """Simulate craps rolls with a line bet, its odds and Big bets, against the exact PAR."""
    from macau_tables.analysis import sessions as ss
    from macau_tables.analysis.kernels.craps_sim import CrapsProgram

    if line not in ("pass", "dont_pass"):
        raise InvalidInput(f"--line is pass or dont_pass, not {line!r}")
    if odds not in ("max", "none"):
        raise InvalidInput(f"--odds is max or none, not {odds!r}")
    if odds_cap not in ("winnings", "stake"):
        raise InvalidInput(f"--odds-cap is winnings or stake, not {odds_cap!r}", rule="CR-R2")
    bigs: tuple[int, ...] = ()
    if big:
        try:
            bigs = tuple(int(x) for x in big.replace(" ", "").split(",") if x)
        except ValueError:
            raise InvalidInput(f"--big is numbers like 6,8, not {big!r}") from None
    bets = ss.CrapsBets(line, odds, bigs, odds_cap=odds_cap)  # type: ignore[arg-type]
    spec: Literal["max"] | None = "max" if odds == "max" else None
    prog = CrapsProgram(
        ((line, bet), *((f"big{n}", bet) for n in bigs)),
        odds=spec if line == "pass" else None,
        lay=spec if line == "dont_pass" else None,
    )
    options: dict[str, object] = {"program": prog, "odds_cap": odds_cap}
    common = _common(
        rounds=rounds, seed=seed, chunk_rounds=chunk_rounds, workers=workers, cluster=cluster,
        sessions=sessions, session_rounds=session_rounds, bankroll=bankroll, bet=bet,
        system=system, stop_loss=stop_loss, stop_win=stop_win, table_max=table_max, json=json,
        csv=csv_file, plot=plot, no_par=no_par,
    )  # fmt: skip
    _simulate("craps", options, lambda: bets, common)


def _tiles(
    game: str,
    places: int,
    player_strategy: str | None,
    banker_strategy: str,
    role: str,
    seat: int,
    common: Common,
) -> None:
    from macau_tables.analysis import sessions as ss
    from macau_tables.analysis.kernels.tiles_sim import parse_options

    options: dict[str, object] = {
        "places": places, "banker_strategy": banker_strategy, "bank_line": True,
    }  # fmt: skip
    if player_strategy is not None:
        options["player_strategy"] = player_strategy
    t = parse_options({**options, "game": game})  # the kernel's checks (TW-2d, TW-R1 …)
    if role not in ("player", "banker"):
        raise InvalidInput(f"--role is player or banker, not {role!r}")
    if not 2 <= seat <= places:
        raise InvalidInput(f"--seat is a player seat, 2 to {places} (the banker is seat 1)")
    bets = ss.TileBets(
        game,  # type: ignore[arg-type]
        role,  # type: ignore[arg-type]
        seat - 2,
        t.commission,
        t.bank_commission,  # type: ignore[arg-type]
    )
    _simulate(game, options, lambda: bets, common)


TILE_EPILOG = (
    "Example: macau-tables simulate {game} --rounds 200000 --seed 7  ·  "
    "macau-tables simulate {game} --role banker --sessions 2000 --session-rounds 50 "
    "--bankroll 2000 --bet 10 --seed 1"
)


@simulate_app.command("paigow", epilog=TILE_EPILOG.format(game="paigow"))
@handle_errors
def simulate_paigow(
    rounds: RoundsOpt = None,
    seed: SeedOpt = None,
    chunk_rounds: ChunkOpt = None,
    workers: WorkersOpt = None,
    cluster: ClusterOpt = None,
    player_strategy: Annotated[
        str, typer.Option("--player-strategy", help="house-way, max-back or optimal.")
    ] = "house-way",
    banker_strategy: Annotated[
        str, typer.Option("--banker-strategy", help="house-way or max-back.")
    ] = "house-way",
    role: Annotated[
        str, typer.Option("--role", help="Sessions: player (one seat) or banker (the bank).")
    ] = "player",
    seat: Annotated[int, typer.Option("--seat", help="Sessions: the player seat, 2 to 8.")] = 2,
    sessions: SessionsOpt = 0,
    session_rounds: SessionRoundsOpt = 100,
    bankroll: BankrollOpt = 1000,
    bet: BetOpt = 10,
    system: SystemOpt = "flat",
    stop_loss: StopLossOpt = None,
    stop_win: StopWinOpt = None,
    table_max: TableMaxOpt = None,
    json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    no_par: NoParOpt = False,
) -> None:
    """Simulate Pai Gow rounds (PG-1 … PG-6): seats against the bank, against the exact PAR."""
    common = _common(
        rounds=rounds, seed=seed, chunk_rounds=chunk_rounds, workers=workers, cluster=cluster,
        sessions=sessions, session_rounds=session_rounds, bankroll=bankroll, bet=bet,
        system=system, stop_loss=stop_loss, stop_win=stop_win, table_max=table_max, json=json,
        csv=csv_file, plot=plot, no_par=no_par,
    )  # fmt: skip
    _tiles("paigow", 8, player_strategy, banker_strategy, role, seat, common)


@simulate_app.command("taiwan", epilog=TILE_EPILOG.format(game="taiwan"))
@handle_errors
def simulate_taiwan(
    rounds: RoundsOpt = None,
    seed: SeedOpt = None,
    chunk_rounds: ChunkOpt = None,
    workers: WorkersOpt = None,
    cluster: ClusterOpt = None,
    places: Annotated[int, typer.Option("--places", help="8 or 4 places (TW-2d).")] = 8,
    player_strategy: Annotated[
        str | None,
        typer.Option("--player-strategy", help="forced (TW-6b / TW-R1; the only one)."),
    ] = None,
    banker_strategy: Annotated[
        str, typer.Option("--banker-strategy", help="house-way, max-back or forced.")
    ] = "house-way",
    role: Annotated[
        str, typer.Option("--role", help="Sessions: player (one seat) or banker (the bank).")
    ] = "player",
    seat: Annotated[int, typer.Option("--seat", help="Sessions: the player seat, 2 to 8.")] = 2,
    sessions: SessionsOpt = 0,
    session_rounds: SessionRoundsOpt = 100,
    bankroll: BankrollOpt = 1000,
    bet: BetOpt = 10,
    system: SystemOpt = "flat",
    stop_loss: StopLossOpt = None,
    stop_win: StopWinOpt = None,
    table_max: TableMaxOpt = None,
    json: JsonOpt = False,
    csv_file: CsvOpt = None,
    plot: PlotOpt = None,
    no_par: NoParOpt = False,
) -> None:
    """Simulate Taiwan Pai Kao rounds (TW-2 … TW-9): forced players against the exact PAR."""
    common = _common(
        rounds=rounds, seed=seed, chunk_rounds=chunk_rounds, workers=workers, cluster=cluster,
        sessions=sessions, session_rounds=session_rounds, bankroll=bankroll, bet=bet,
        system=system, stop_loss=stop_loss, stop_win=stop_win, table_max=table_max, json=json,
        csv=csv_file, plot=plot, no_par=no_par,
    )  # fmt: skip
    _tiles("taiwan", places, player_strategy, banker_strategy, role, seat, common)


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `simulate baccarat|craps|paigow|taiwan`."""
    del play_app
    app.add_typer(simulate_app, name="simulate")
