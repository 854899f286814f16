"""`macau-tables play baccarat` and `macau-tables baccarat roads`: thin, no rules here."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import (
    PAYS,
    BaccaratRules,
    BaccaratTable,
    BetKind,
    CardsBurned,
    HandSettled,
    Phase,
    Side,
    total,
)
from macau_tables.games.baccarat_roads import Roads, grid, parse_shoe, roads

NOTATION = (
    "One letter per hand: B (Banker wins, 莊), P (Player wins, 閒), T (tie, 和), each "
    "optionally followed by marks: b Banker pair, p Player pair, n natural. Spaces, commas "
    "and | are ignored."
)

baccarat_app = typer.Typer(
    help="Baccarat (百家樂) tools: the road maps of a shoe.",
    epilog="Example: macau-tables baccarat roads 'TBBPbPTBBBBBBBPPn'"
    "  ·  macau-tables baccarat roads 'BBPPT' --json",
    no_args_is_help=True,
)

STYLE = {"B": "bold red", "P": "bold blue", "T": "bold green", "R": "red"}
CHIPS = (10_000, 5_000, 1_000, 500, 100, 50, 20, 10)  # major units


def chips(amount: Money) -> str:
    """A stake as chips: ``MOP 1,250.00`` → ``1×1000 2×100 1×50``."""
    left = amount.minor // amount.currency.scale
    parts = []
    for chip in CHIPS:
        n, left = divmod(left, chip)
        if n:
            parts.append(f"{n}×{chip}")
    return " ".join(parts) or "-"


# --- drawing the roads ----------------------------------------------------------------------


def _road_text(rows: list[list[str]], paint: dict[str, tuple[str, str]]) -> Text:
    text = Text()
    for row in rows:
        for cell in row:
            if not cell:
                text.append(" ·", style="dim")
                continue
            glyph, style = paint.get(cell[0], (cell[0], ""))
            text.append(" " + glyph, style=style)
        text.append("\n")
    return text


def _big_road_text(rows: list[list[str]]) -> Text:
    """Big Road cells: the result letter, then a green ``/`` when ties are marked on it,
    else ``•`` when a pair is."""
    text = Text()
    for row in rows:
        for cell in row:
            if not cell:
                text.append("  ·", style="dim")
                continue
            text.append(" " + cell[0], style=STYLE[cell[0]])
            if cell.endswith("T"):
                text.append("/", style="bold green")
            elif "b" in cell or "p" in cell:
                text.append("•", style="yellow")
            else:
                text.append(" ")
        text.append("\n")
    return text


def draw_roads(r: Roads, width: int = 24) -> Group:
    """The five roads side by side in two rows of panels."""
    letters = {k: (k, STYLE[k]) for k in "BPT"}
    bead = grid(((c.col, c.row, c.mark) for c in r.bead_plate), width)
    big = grid(((e.col, e.row, e.mark()) for e in r.big_road.entries), width)
    big_rows = _big_road_text(big)
    beb = grid(((c.col, c.row, c.mark) for c in r.big_eye_boy), width)
    small = grid(((c.col, c.row, c.mark) for c in r.small_road), width)
    pig = grid(((c.col, c.row, c.mark) for c in r.cockroach_pig), width)
    derived = {"R": ("o", "red"), "B": ("o", "blue")}
    table = Table(title="Roads (路紙)", show_lines=True, expand=False)
    table.add_column("Bead Plate 珠盤路")
    table.add_column("Big Road 大路")
    table.add_row(_road_text(bead, letters), big_rows)
    table.add_row(
        Text("Big Eye Boy 大眼仔\n") + _road_text(beb, derived),
        Text("Small Road 小路\n")
        + _road_text(small, {"R": ("●", "red"), "B": ("●", "blue")})
        + Text("Cockroach Pig 曱甴路\n")
        + _road_text(pig, {"R": ("/", "red"), "B": ("/", "blue")}),
    )
    s = r.stats
    ties = r.big_road.leading_ties
    pred = " ".join(
        f"{name.replace('_', ' ')}: B→{v['B'] or '-'} P→{v['P'] or '-'}"
        for name, v in r.predictions.items()
    )
    legend = "Big Road: / ties marked on the cell, • a pair"
    if ties:
        legend += f"; ties before the first result: {ties}"
    lines = [
        f"Banker {s.banker}  Player {s.player}  Tie {s.tie}  B pairs {s.banker_pairs}  "
        f"P pairs {s.player_pairs}  naturals {s.naturals}",
        legend,
        f"next hand (問路) {pred}",
    ]
    return Group(table, Text("\n".join(lines)))


# --- `baccarat roads` -------------------------------------------------------------------------


@baccarat_app.command(
    "roads",
    help=f"Draw the five road maps for a shoe's results. {NOTATION}",
    epilog="Example: macau-tables baccarat roads 'TBBPbPTBBBBBBBPPn' --json",
)
@handle_errors
def roads_cmd(
    shoe_results: Annotated[str, typer.Argument(help="The results, e.g. BPPTBbBn.")],
    json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    width: Annotated[int, typer.Option("--width", help="Columns drawn per road, 1 to 500.")] = 30,
) -> None:
    if not 1 <= width <= 500:
        raise InvalidInput(f"--width is 1 to 500 columns, not {width}")
    r = roads(parse_shoe(shoe_results))
    if json:
        print_json(r.to_json())
        return
    console.print(draw_roads(r, width))


# --- `play baccarat` --------------------------------------------------------------------------

HELP_TEXT = (
    "Bets: 'b 200' Banker, 'p 100' Player, 't 100' Tie, 'bp 100' Banker Pair, 'pp 100' "
    "Player Pair (added to what is there); 'clear' takes your new bets down; after a tie 'move' "
    "moves your Player/Banker bet across, 'take' takes it down (if the table allows).\n"
    "'deal' (or an empty line) deals the hand; 'roads' draws the roads; 'quit' leaves."
)


def _ask(prompt: str) -> str | None:
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        console.print()
        return None
    return line.strip()


def _bets_table(t: BaccaratTable, me: str) -> Table:
    table = Table(title="Your bets", show_edge=True)
    for col in ("bet", "stake", "chips", "pays", "limits"):
        table.add_column(col)
    for kind in BetKind:
        lim = t.rules.limit(kind)
        stake = sum((b.amount for b in t.bets if b.player == me and b.kind is kind), Money(0))
        pays = f"{PAYS[kind]}:1"
        if kind is BetKind.BANKER:
            pays += " (6 pays 1:2)" if t.rules.no_commission else " less 5%"
        carried = any(b.carried for b in t.bets if b.player == me and b.kind is kind)
        table.add_row(
            str(kind) + (" (tie, left on)" if carried else ""),
            stake.format() if stake.is_positive() else "",
            chips(stake) if stake.is_positive() else "",
            pays,
            f"{lim.minimum.format()}–{lim.maximum.format()}",
        )
    diff = t.rules.differential_limit
    table.caption = f"Balance {t.balance(me).format()}" + (
        f"   Banker/Player difference limit {diff.format()}" if diff else ""
    )
    return table


def _progress(t: BaccaratTable) -> str:
    if t.rules.continuous_shuffler:
        return "continuous shuffler: every hand from the full set"
    n = len(t.shoe)
    to_cut = t.cards_to_cut()
    width = 30
    done = round(width * t.position / n) if n else 0
    cut_at = round(width * (t.cut_index or 0) / n) if n else 0
    bar = "".join("█" if i < done else ("|" if i == cut_at else "░") for i in range(width))
    tail = "cut card out — last hand(s)" if t.cut_card_out else f"{to_cut} cards to the cut card"
    return f"shoe {t.shoe_number}  [{bar}]  {t.position}/{n} dealt, {tail}"


def _cards(cards: list[str], hidden: int = 0) -> str:
    shown = cards[: len(cards) - hidden] if hidden else cards
    return " ".join(shown + ["▒▒"] * hidden)


def _show_hand(t: BaccaratTable) -> None:
    h = t.hand
    if h is None:
        return
    for side, cards in ((Side.PLAYER, h.player), (Side.BANKER, h.banker)):
        hidden = h.hidden.get(side, 0)
        label = "Player 閒" if side is Side.PLAYER else "Banker 莊"
        value = "" if hidden else f"  = {total(cards)}"
        holder = f"  (held by {h.holders[side]})" if h.holders.get(side) else ""
        console.print(f"  {label}: {_cards([str(c) for c in cards], hidden)}{value}{holder}")


def _show_settlement(t: BaccaratTable, ev: HandSettled, me: str) -> None:
    word = {
        "P": "[blue]PLAYER wins[/blue]",
        "B": "[red]BANKER wins[/red]",
        "T": "[green]TIE[/green]",
    }
    res = t.results[-1]
    console.print(
        f"Hand {ev.hand}: Player {' '.join(map(str, res.player_cards))} = {ev.player_total}, "
        f"Banker {' '.join(map(str, res.banker_cards))} = {ev.banker_total} → {word[ev.outcome]}"
    )
    rows = [r for r in ev.results if r["player"] == me]
    if rows:
        table = Table(title="Payouts")
        for col in ("bet", "stake", "result", "won", "commission"):
            table.add_column(col)
        for r in rows:
            table.add_row(
                r["bet"],
                Money(r["stake"]).format(),
                r["result"],
                Money(r["won"]).format() if r["won"] else "",
                Money(r["commission"]).format() if r["commission"] else "",
            )
        console.print(table)
    console.print(f"Balance {t.balance(me).format()}")


def _play_hand(t: BaccaratTable, me: str, rng: Rng) -> bool:
    """Deal one hand with the user squeezing what they hold. False if they quit mid-hand."""
    t.deal(rng)
    while (step := t.next_step()) is not None:
        if step.startswith("reveal:"):
            side = Side(step.split(":")[1])
            assert t.hand is not None
            third = len(t.hand.cards(side)) == 3
            _show_hand(t)
            what = "the third card" if third else "the two cards"
            answer = _ask(f"You hold the {side} cards: Enter to squeeze {what} (BA-16) > ")
            if answer is None:
                return False
            t.reveal(side, by=me)
        elif step.startswith("draw:"):
            t.draw(rng)
        else:
            ev = t.settle()
            assert isinstance(ev, HandSettled)
            _show_settlement(t, ev, me)
    return True


def _command(t: BaccaratTable, me: str, line: str) -> None:
    words = line.split()
    head = words[0].lower()
    if head == "clear":
        for b in [b for b in t.bets if b.player == me and not b.carried]:
            t.withdraw_bet(me, b.kind, b.spot)
        return
    if head in ("take", "move"):
        carried = [b for b in t.bets if b.player == me and b.carried]
        if not carried:
            raise InvalidInput("no bet left on from a tie")
        for b in carried:
            if head == "take":
                t.withdraw_bet(me, b.kind, b.spot)
            else:
                other = BetKind.PLAYER if b.kind is BetKind.BANKER else BetKind.BANKER
                t.change_bet(me, b.kind, b.amount, to_kind=other, spot=b.spot)
        return
    if len(words) != 2:
        raise InvalidInput(f"not understood: {line!r} (type 'help')")
    t.place_bet(me, BetKind.parse(words[0]), Money.parse(words[1], t.rules.currency))


@handle_errors
def play_cmd(
    seed: Annotated[
        str | None, typer.Option("--seed", help="Replayable shuffle (default: the OS CSPRNG).")
    ] = None,
    decks: Annotated[int, typer.Option("--decks", help="Decks in the shoe, 6–12 (BA-1).")] = 8,
    name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "you",
    buy_in: Annotated[str, typer.Option("--buy-in", help="Chips to start with.")] = "10000",
    squeeze: Annotated[
        bool, typer.Option("--squeeze/--no-squeeze", help="Let you handle the cards (BA-16).")
    ] = True,
    no_commission: Annotated[
        bool, typer.Option("--no-commission", help="No-commission table (BA-R7).")
    ] = False,
    journal: Annotated[
        Path | None, typer.Option("--journal", help="Write the table's journal here at the end.")
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="At the end print a JSON summary.")] = False,
) -> None:
    """Sit at a baccarat table (Macau statutory rules) and play a shoe in the terminal."""
    rules = BaccaratRules(decks=decks, squeeze=squeeze, no_commission=no_commission)
    rng = Rng.seeded(seed, "baccarat") if seed is not None else Rng.system()
    t = BaccaratTable(rules)
    t.join(name, Money.parse(buy_in, rules.currency), seat=1)
    console.print(f"[bold]Baccarat 百家樂[/bold] — {decks} decks. {HELP_TEXT}")
    quit_ = False
    while not quit_:
        if t.phase is Phase.SHUFFLE:
            if t.shoe_number:
                console.print("[bold]The shoe is over (BA-3.1): reshuffling.[/bold]")
            events = t.start_shoe(rng)
            burned = sum(len(e.cards) for e in events if isinstance(e, CardsBurned))
            console.print(f"New shoe {t.shoe_number}: shuffled, cut, {burned} cards burned.")
        console.print(_progress(t))
        console.print(_bets_table(t, name))
        line = _ask("bet> ")
        if line is None or line.lower() in ("q", "quit", "exit"):
            break
        try:
            if line.lower() in ("", "d", "deal"):
                quit_ = not _play_hand(t, name, rng)
                if t.results and t.cut_card_out and t.phase is not Phase.SHUFFLE:
                    console.print("The cut card is out: one more hand (BA-3.1).")
            elif line.lower() == "roads":
                console.print(draw_roads(t.roads()))
            elif line.lower() in ("h", "help", "?"):
                console.print(HELP_TEXT)
            else:
                _command(t, name, line)
        except MacauTablesError as exc:
            console.print(f"[red]{type(exc).__name__}: {exc}[/red]", highlight=False)
            continue
        if line.lower() in ("", "d", "deal") and t.results:
            console.print(draw_roads(t.roads()))
    hands = len(t.shoe_results())
    if journal is not None:
        t.journal.dump(journal)
    summary = {
        "player": name,
        "balance": t.balance(name).minor,
        "hands_this_shoe": hands,
        "hands": len([r for r in t.results if not r.demonstration]),
        "journal_head": t.journal.head,
    }
    if json:
        print_json(summary)
    else:
        console.print(
            f"Goodbye {name}: balance {t.balance(name).format()} after "
            f"{summary['hands']} hands. Journal head {t.journal.head[:16]}…"
        )


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `play baccarat` and the `baccarat` group."""
    play_app.command(
        "baccarat",
        epilog="Example: macau-tables play baccarat --seed 42 --decks 8   (then: b 200, deal)",
    )(play_cmd)
    app.add_typer(baccarat_app, name="baccarat")


__all__ = ["register"]
