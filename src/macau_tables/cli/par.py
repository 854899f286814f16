"""`macau-tables par …`: exact PAR sheets of the four games (thin: parse, call, render)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from macau_tables.analysis.par import ParSheet, percent
from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import rate

par_app = typer.Typer(
    help="Exact PAR sheets: every bet's probabilities, house edge and standard deviation.",
    epilog="Example: macau-tables par baccarat --decks 8  ·  macau-tables par craps --json"
    "  ·  macau-tables par paigow --commission 5% --html paigow.html",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON (exact fractions).")]
MdOpt = Annotated[
    bool, typer.Option("--markdown", help="A Markdown table (docs/analysis.md is made of these).")
]
HtmlOpt = Annotated[
    Path | None,
    typer.Option("--html", help="Write a self-contained HTML report with plots to this file."),
]


@contextmanager
def _working(label: str, quiet: bool) -> Iterator[None]:
    """A Rich progress line while a long enumeration runs (off for --json or no terminal)."""
    if quiet or not sys.stdout.isatty():
        yield
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        progress.add_task(label, total=None)
        yield


def _render(
    sheet: ParSheet, as_json: bool, html_file: Path | None, command: str, markdown: bool = False
) -> None:
    if html_file is not None:
        from macau_tables.analysis.report import html_report

        html_file.write_text(html_report(sheet, command=command), encoding="utf-8")
    if as_json:
        print_json(sheet.to_json())
        return
    if markdown:
        from macau_tables.analysis.report import markdown_table

        sys.stdout.write(markdown_table(sheet) + "\n")
        return
    from macau_tables.analysis.report import extras_text, win_lose_push

    table = Table(title=sheet.title, title_justify="left")
    table.add_column("bet")
    table.add_column("rule")
    table.add_column("pays")
    for col in ("P(win)", "P(lose)", "P(push)", "house edge", "std dev"):
        table.add_column(col, justify="right")
    table.add_column("more")
    for b in sheet.lines:
        w, lo, pu = win_lose_push(b)
        table.add_row(
            b.name,
            b.rule or "",
            b.pays or "",
            percent(w, 4),
            percent(lo, 4),
            percent(pu, 4),
            percent(b.house_edge, 4),
            f"{b.std_dev:.4f}",
            extras_text(b),
        )
    console.print(table)
    opts = ", ".join(f"{k}={v}" for k, v in sheet.options.items())
    console.print(f"[dim]rule set: {opts}[/dim]")
    if sheet.total:
        console.print(f"[dim]exact: counted over {sheet.total:,} equally likely deals[/dim]")
    for n in sheet.notes:
        console.print(f"[dim]· {n}[/dim]")
    if html_file is not None:
        console.print(f"HTML report written to {html_file}")


def _commission(text: str | None, default: Fraction) -> Fraction:
    if text is None:
        return default
    c = rate(text)
    if not 0 <= c < 1:
        raise InvalidInput(f"a commission is a rate from 0% to under 100%, not {text!r}")
    return c


def _check_outputs(as_json: bool, markdown: bool, path: Path | None) -> None:
    """One output format; the --html file's folder exists and is writable. Checked before
    any computation, so a long enumeration never ends in a refused write."""
    if as_json and markdown:
        raise InvalidInput("--json and --markdown: give one output format")
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise InvalidInput(f"{path} is a folder; give a file name")
    if not folder.is_dir():
        raise InvalidInput(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise InvalidInput(f"{path}: the folder {folder} is not writable")


def _command() -> str:
    return "macau-tables " + " ".join(sys.argv[1:])


# --- baccarat -------------------------------------------------------------------------------


@par_app.command(
    "baccarat",
    epilog="Example: macau-tables par baccarat --decks 8  ·  "
    "macau-tables par baccarat --composition '8 decks minus 5,5,5,5,5' --json",
)
@handle_errors
def par_baccarat(
    decks: Annotated[
        int | None, typer.Option(help="Decks in the shoe, 6 to 12 (BA-1); default 8.")
    ] = None,
    composition: Annotated[
        str | None,
        typer.Option(
            help="The remaining shoe, to study card removal: '8 decks minus A,A,K,5', "
            "'A=32,2=32,…,K=31' or 13 counts ace to king."
        ),
    ] = None,
    commission: Annotated[
        str | None, typer.Option(help="Commission on Banker wins, e.g. 5% (BA-18).")
    ] = None,
    no_commission: Annotated[
        bool, typer.Option("--no-commission", help="No-commission table: Banker 6 pays 1:2.")
    ] = False,
    continuous_shuffler: Annotated[
        bool, typer.Option("--continuous-shuffler", help="Cards return to a shuffler (BA-2.3).")
    ] = False,
    as_json: JsonOpt = False,
    markdown: MdOpt = False,
    html: HtmlOpt = None,
) -> None:
    """Baccarat: Banker, Player, Tie and the pairs, exact over every ordered deal."""
    _check_outputs(as_json, markdown, html)
    from macau_tables.analysis import baccarat as ab
    from macau_tables.games.baccarat import BaccaratRules

    if no_commission and commission is not None:
        raise InvalidInput(
            f"--commission {commission} and --no-commission: a no-commission table takes no "
            "commission on Banker (BA-R7); give one or the other"
        )
    comp = None if composition is None else ab.parse_composition(composition, decks=decks)
    if decks is None:  # the shoe the composition came from (whole decks, at least the cards)
        decks = 8 if comp is None else min(12, max(6, -(-sum(comp) // 52)))
    rules = BaccaratRules(
        decks=decks,
        commission=_commission(commission, Fraction(1, 20)),
        no_commission=no_commission,
        continuous_shuffler=continuous_shuffler,
    )
    try:
        sheet = ab.baccarat_par(rules, comp)
    except ZeroDivisionError:
        # the per-decision figures divide by the deals that settle Banker or Player
        raise InvalidInput(
            f"the composition {composition!r} never settles Banker or Player (every deal "
            "ties): there is no edge to give; give a shoe with more kinds of cards"
        ) from None
    _render(sheet, as_json, html, _command(), markdown)


# --- craps ----------------------------------------------------------------------------------


@par_app.command(
    "craps",
    epilog="Example: macau-tables par craps  ·  macau-tables par craps --odds-cap stake --json",
)
@handle_errors
def par_craps(
    odds_cap: Annotated[
        str, typer.Option(help="What the odds are capped by: winnings (CR-2.2) or stake.")
    ] = "winnings",
    pay: Annotated[
        list[str] | None,
        typer.Option(help="A casino variant's pay (repeatable), e.g. --pay 'big7=4:1'."),
    ] = None,
    as_json: JsonOpt = False,
    markdown: MdOpt = False,
    html: HtmlOpt = None,
) -> None:
    """Craps: every bet of the Macau pay table, per bet resolved and per roll."""
    _check_outputs(as_json, markdown, html)
    from macau_tables.analysis.craps import craps_par
    from macau_tables.games.craps import CrapsRules, payout_from_text

    pays: dict[str, Any] = {}
    for item in pay or []:
        name, sep, text = item.partition("=")
        if not sep:
            raise InvalidInput(f"--pay takes NAME=PAYOUT, not {item!r}")
        pays[name.strip()] = payout_from_text(text.strip())
    if odds_cap not in ("winnings", "stake"):
        raise InvalidInput(f"--odds-cap is winnings or stake, not {odds_cap!r}", rule="CR-2.2")
    rules = CrapsRules(odds_cap=odds_cap, pays=pays)  # type: ignore[arg-type]
    _render(craps_par(rules), as_json, html, _command(), markdown)


# --- Pai Gow and Taiwan Pai Kao ---------------------------------------------------------------

_STRATEGY_HELP = "max-back, house-way or optimal (the exact best response to the other side)."


@par_app.command(
    "paigow",
    epilog="Example: macau-tables par paigow --player-strategy optimal --commission 5%",
)
@handle_errors
def par_paigow(
    player_strategy: Annotated[str, typer.Option(help="The player's " + _STRATEGY_HELP)] = (
        "house-way"
    ),
    banker_strategy: Annotated[str, typer.Option(help="The banker's " + _STRATEGY_HELP)] = (
        "house-way"
    ),
    commission: Annotated[str | None, typer.Option(help="Commission on wins (PG-4.2: 4%).")] = None,
    as_json: JsonOpt = False,
    markdown: MdOpt = False,
    html: HtmlOpt = None,
) -> None:
    """Pai Gow (1985): one player against the banker over all 736,281,000 deals."""
    _check_outputs(as_json, markdown, html)
    from macau_tables.analysis.tiles import paigow_par

    c = _commission(commission, Fraction(4, 100))
    with _working("enumerating 736,281,000 deals", as_json or markdown):
        sheet = paigow_par(player_strategy, banker_strategy, commission=c)
    _render(sheet, as_json, html, _command(), markdown)


@par_app.command(
    "taiwan",
    epilog="Example: macau-tables par taiwan --banker-strategy optimal  ·  "
    "macau-tables par taiwan --exposed '6-6 6-6 1-1 1-1 4-4 4-4 1-3 1-3 5-5 5-5 3-3 3-3 2-2 2-2 "
    "5-6 5-6'",
)
@handle_errors
def par_taiwan(
    banker_strategy: Annotated[str, typer.Option(help="The banker's " + _STRATEGY_HELP)] = (
        "house-way"
    ),
    commission: Annotated[str | None, typer.Option(help="Commission on wins (TW-8: 5%).")] = None,
    exposed: Annotated[
        str | None,
        typer.Option(help="The 16 tiles shown in a 4-place shoe's first round (TW-R2)."),
    ] = None,
    as_json: JsonOpt = False,
    markdown: MdOpt = False,
    html: HtmlOpt = None,
) -> None:
    """Taiwan Pai Kao (1990): forced players (TW-R1) against the banker, every deal."""
    _check_outputs(as_json, markdown, html)
    from macau_tables.analysis.tiles import taiwan_par
    from macau_tables.tiles import parse_tiles

    c = _commission(commission, Fraction(5, 100))
    shown = None if exposed is None else parse_tiles([exposed])
    with _working("enumerating every deal", as_json or markdown):
        sheet = taiwan_par(banker_strategy, commission=c, exposed=shown)
    _render(sheet, as_json, html, _command(), markdown)


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    del play_app
    app.add_typer(par_app, name="par")
