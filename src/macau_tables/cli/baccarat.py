"""`macau-tables play baccarat` and `macau-tables baccarat roads`: thin, no rules here."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.cli.journalfile import JournalFile, journal_target
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import (
    PAYS,
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
    BetResult,
    CardsBurned,
    HandSettled,
    ShoeEnded,
    Side,
)
from macau_tables.games.baccarat.roads import Roads, grid, parse_shoe, roads
from macau_tables.games.contract import Actor, Command, accounts, check_name

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


# --- `play baccarat`: a thin client of BaccaratTable --------------------------------------------

HELP_TEXT = (
    "Bets: 'b 200' Banker, 'p 100' Player, 't 100' Tie, 'bp 100' Banker Pair, 'pp 100' "
    "Player Pair (added to what is there); 'clear' takes your new bets down; after a tie 'move' "
    "moves your Player/Banker bet across, 'take' takes it down (if the table allows).\n"
    "'deal' (or an empty line) deals the hand; 'table' shows the bets, payouts and limits; "
    "'roads' draws the five roads; 'quit' leaves the table with your chips."
)
OUTCOME_WORDS = {
    "P": "[blue]PLAYER wins[/blue]",
    "B": "[red]BANKER wins[/red]",
    "T": "[green]TIE[/green]",
}
BET_NAMES = {
    "player": "Player",
    "banker": "Banker",
    "tie": "Tie",
    "banker_pair": "Banker Pair",
    "player_pair": "Player Pair",
}


def plural(n: int, word: str) -> str:
    """``1 hand``, ``2 hands``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _ask(prompt: str) -> str | None:
    console.print(prompt, end="")
    line = sys.stdin.readline()
    if not line:
        console.print()
        return None
    return line.strip()


class Session:
    """The terminal player at a table: commands through ``execute``, money by projection."""

    def __init__(self, table: BaccaratTable, me: str, out: JournalFile | None) -> None:
        self.t = table
        self.me = me
        self.actor = Actor.player(me)
        self.ledger = Ledger()
        self.out = out
        self.hands = 0

    def run(
        self,
        actor: Actor,
        op: str,
        args: dict[str, JsonValue] | None = None,
        rng: Rng | None = None,
    ) -> tuple[Event, ...]:
        events = self.t.execute(Command(actor, op, args or {}), rng)
        Ledger.project(events, self.ledger)
        if self.out is not None:
            self.out.sync(self.t.journal)
        return events

    def money(self, minor: int) -> Money:
        return Money(minor, self.t.rules.currency)

    @property
    def chips(self) -> Money:
        return self.ledger.balance(accounts.stack(self.t.table_id, self.me), self.t.rules.currency)

    def my_bets(self) -> list[dict[str, Any]]:
        bets = self.t.view(Viewer.player(self.me))["bets"]
        assert isinstance(bets, list)
        return [b for b in bets if isinstance(b, dict) and b["player"] == self.me]

    def layout_text(self) -> str:
        mine = self.my_bets()
        if not mine:
            return "no bets"
        return ", ".join(
            f"{BET_NAMES[b['bet']]} {self.money(b['stake']).format()}"
            + (" (left on after the tie)" if b["carried"] else "")
            for b in mine
        )

    def status(self) -> str:
        v = self.t.view(Viewer.player(self.me))
        shoe = v["shoe"]
        assert isinstance(shoe, dict)
        if self.t.rules.continuous_shuffler:
            where = "continuous shuffler"
        elif shoe["cut_card_out"]:
            where = f"shoe {shoe['number']}: the cut card is out, last hand (BA-3.1)"
        else:
            to_cut = shoe["to_cut"]
            assert isinstance(to_cut, int)
            where = f"shoe {shoe['number']}: {plural(to_cut, 'card')} to the cut card"
        return f"{where} · your chips {self.chips.format()} · on the layout: {self.layout_text()}"


def _bets_table(t: BaccaratTable, s: Session) -> Table:
    table = Table(title="Bets, payouts and limits", show_edge=True)
    for col in ("bet", "your stake", "chips", "pays", "limits"):
        table.add_column(col)
    mine = {b["bet"]: b for b in s.my_bets()}
    for kind in BaccaratBetKind:
        lim = t.rules.limit(kind)
        row = mine.get(str(kind))
        stake = s.money(row["stake"]) if row else Money.zero(t.rules.currency)
        pays = f"{PAYS[kind]}:1"
        if kind is BaccaratBetKind.BANKER:
            pays += " (6 pays 1:2)" if t.rules.no_commission else " less 5%"
        table.add_row(
            BET_NAMES[str(kind)] + (" (tie, left on)" if row and row["carried"] else ""),
            stake.format() if stake.is_positive() else "",
            chips(stake) if stake.is_positive() else "",
            pays,
            f"{lim.minimum.format()}–{lim.maximum.format()}",
        )
    diff = t.rules.differential_limit
    if diff:
        table.caption = f"Banker/Player difference limit {diff.format()} (BA-14)"
    return table


def _compact_roads(t: BaccaratTable, width: int = 40) -> str:
    """The shoe's results on one line (the Bead Plate's letters, the latest last)."""
    letters = "".join(str(r.outcome) for r in t.shoe_results())
    if not letters:
        return ""
    r = t.roads().stats
    shown = letters[-width:]
    more = "…" if len(letters) > width else ""
    counts = f"B {r.banker} · P {r.player} · T {r.tie}"
    return f"Shoe so far: {more}{shown}   ({counts}; 'roads' draws them)"


def _show_result(s: Session, ev: HandSettled) -> None:
    t = s.t
    res = t.results[-1]
    line = _compact_roads(t)
    if line:
        console.print(line, highlight=False)
    console.print(
        f"[bold]Hand {ev.hand}[/bold]: Player {' '.join(map(str, res.player_cards))} = "
        f"{ev.player_total} · Banker {' '.join(map(str, res.banker_cards))} = "
        f"{ev.banker_total} → {OUTCOME_WORDS[ev.outcome]}",
        highlight=False,
    )
    parts = []
    for r in ev.settlements():
        if r.player != s.me:
            continue
        stake = s.money(r.stake).format()
        name = BET_NAMES[str(r.kind)]
        if r.result is BetResult.WIN:
            net = s.money(r.won - r.commission).format()
            extra = f" (commission {s.money(r.commission).format()})" if r.commission else ""
            parts.append(f"your {name} {stake} wins {net}{extra}")
        elif r.result is BetResult.LOSE:
            parts.append(f"your {name} {stake} loses")
        elif r.result is BetResult.PUSH:
            parts.append(f"your {name} {stake} stays on (tie, BA-12)")
        else:
            parts.append(f"your {name} {stake} is returned (tie, BA-R2)")
    if parts:
        console.print("  " + "; ".join(parts) + ".", highlight=False)


def _play_hand(s: Session, rng: Rng) -> bool:
    """Deal one hand, the user squeezing what they hold. False if input ended mid-hand."""
    events = list(s.run(Actor.DEALER, "deal", rng=rng))
    while (due := s.t.holder_due()) is not None:
        _, side = due
        h = s.t.hand
        assert h is not None
        for sd, label in ((Side.PLAYER, "Player 閒"), (Side.BANKER, "Banker 莊")):
            shown = " ".join(c or "▒▒" for c in h.shown(sd))
            console.print(f"  {label}: {shown}", highlight=False)
        what = "the third card" if len(h.cards(side)) == 3 else "the two cards"
        answer = _ask(f"You hold the {side} cards: Enter to squeeze {what} (BA-16) > ")
        if answer is None:  # the dealer opens them (BA-16 on a time-out)
            events += s.run(Actor.SYSTEM, "time_out", {"actor": str(s.actor), "op": "reveal"})
            continue
        events += s.run(s.actor, "reveal", {"side": str(side)})
    s.hands += 1
    for ev in events:
        if isinstance(ev, HandSettled) and not s.t.results[-1].demonstration:
            _show_result(s, ev)
        if isinstance(ev, CardsBurned) and ev.rule == "BA-8" and ev.shown:
            console.print(f"The exposed {ev.shown} is burned before the next hand (BA-4, BA-8).")
        if isinstance(ev, ShoeEnded):
            console.print("[bold]The shoe is over (BA-3.1): the cards are reshuffled.[/bold]")
    return True


def _command(s: Session, line: str) -> None:
    words = line.split()
    head = words[0].lower()
    mine = s.my_bets()
    if head == "clear":
        for b in [b for b in mine if not b["carried"]]:
            s.run(s.actor, "withdraw_bet", {"bet": b["bet"], "spot": b["spot"]})
        console.print(f"Taken down. On the layout: {s.layout_text()}.", highlight=False)
        return
    if head in ("take", "move"):
        carried = [b for b in mine if b["carried"]]
        if not carried:
            raise InvalidInput("you have no bet left on from a tie")
        for b in carried:
            if head == "take":
                s.run(s.actor, "withdraw_bet", {"bet": b["bet"], "spot": b["spot"]})
            else:
                other = "player" if b["bet"] == "banker" else "banker"
                args: dict[str, JsonValue] = {
                    "bet": b["bet"],
                    "amount": b["stake"],
                    "to_bet": other,
                    "spot": b["spot"],
                }
                s.run(s.actor, "change_bet", args)
        console.print(f"On the layout: {s.layout_text()}.", highlight=False)
        return
    if len(words) != 2:
        raise InvalidInput(f"not understood: {line!r} (type 'help')")
    kind = BaccaratBetKind.parse(words[0])
    amount = Money.parse(words[1], s.t.rules.currency)
    if not amount.is_positive():
        raise InvalidInput(f"a bet must be more than zero, not {words[1]}")
    s.run(s.actor, "place_bet", {"bet": str(kind), "amount": amount.minor})
    console.print(
        f"{BET_NAMES[str(kind)]} {amount.format()} placed. On the layout: {s.layout_text()}; "
        f"your chips {s.chips.format()}.",
        highlight=False,
    )


def _leave(s: Session) -> bool:
    """Leave the table: bets not yet dealt on come back (and say so), or the refusal."""
    mine = s.my_bets()
    try:
        s.run(s.actor, "leave")
    except MacauTablesError as exc:
        console.print(f"[red]You cannot leave yet: {exc}[/red]", highlight=False)
        return False
    if mine:
        total_back = sum((s.money(b["stake"]) for b in mine), Money.zero(s.t.rules.currency))
        console.print(
            f"Your bets on the layout ({', '.join(BET_NAMES[b['bet']] for b in mine)}, "
            f"{total_back.format()}) were not dealt on: they are returned to you.",
            highlight=False,
        )
    if s.t.can_end_shoe():  # BA-3.2: the shoe is retired and its seed revealed
        s.run(Actor.DEALER, "end_shoe")
    return True


@handle_errors
def play_cmd(
    seed: Annotated[
        str | None, typer.Option("--seed", help="Replayable shuffles (default: the OS CSPRNG).")
    ] = None,
    decks: Annotated[int, typer.Option("--decks", help="Decks in the shoe, 6–12 (BA-1).")] = 8,
    name: Annotated[
        str, typer.Option("--name", help="Your name at the table (letters, digits, _ . -).")
    ] = "guest",
    buy_in: Annotated[str, typer.Option("--buy-in", help="Chips to start with.")] = "10000",
    squeeze: Annotated[
        bool, typer.Option("--squeeze/--no-squeeze", help="Let you handle the cards (BA-16).")
    ] = True,
    no_commission: Annotated[
        bool, typer.Option("--no-commission", help="No-commission table (BA-R7).")
    ] = False,
    journal: Annotated[
        Path | None,
        typer.Option(
            "--journal",
            help="Write the table's journal as it is played: a new file, or a folder (a new "
            "file baccarat-NNNN.json inside it).",
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="At the end print a JSON summary.")
    ] = False,
) -> None:
    """Sit at a baccarat table (Macau statutory rules) and play in the terminal."""
    rules = BaccaratRules(decks=decks, squeeze=squeeze, no_commission=no_commission)
    me = check_name(name, "name")
    stake = Money.parse(buy_in, rules.currency)
    if not stake.is_positive():
        raise InvalidInput(f"--buy-in {buy_in}: bring a positive amount")
    target = journal_target(journal, "baccarat")
    rng = Rng.seeded(seed, "baccarat") if seed is not None else Rng.system()
    t = BaccaratTable(rules)
    out = JournalFile(target, t.journal) if target is not None else None
    s = Session(t, me, out)
    s.ledger.post(Transaction.transfer(CAGE, accounts.wallet(me), stake, "cage → wallet"))
    s.run(s.actor, "sit", {"seat": 1, "amount": stake.minor})
    console.print(f"[bold]Baccarat 百家樂[/bold] — {decks} decks, you sit at seat 1. {HELP_TEXT}")
    try:
        _loop(s, rng)
    except KeyboardInterrupt:
        console.print("\nInterrupted: you leave the table.")
        if me in t.seats:
            _leave(s)
    finally:
        if out is not None:
            out.close()
    wallet = s.ledger.balance(accounts.wallet(me), rules.currency)
    summary = {
        "player": me,
        "balance": wallet.minor if me not in t.seats else s.chips.minor,
        "left_the_table": me not in t.seats,
        "hands": s.hands,
        "journal_head": t.journal.head,
        "journal": None if target is None else str(target),
    }
    if json_out:
        print_json(summary)
        return
    where = f"; journal {target}" if target is not None else ""
    console.print(
        f"Goodbye: you leave with {wallet.format()} after {plural(s.hands, 'hand')}. "
        f"Journal head {t.journal.head}{where}",
        highlight=False,
    )


def _loop(s: Session, rng: Rng) -> None:
    t = s.t
    while True:
        if t.phase is BaccaratPhase.SHUFFLE:
            events = s.run(Actor.DEALER, "shuffle", rng=rng)
            events += s.run(Actor.DEALER, "cut")
            burned = sum(e.count for e in events if isinstance(e, CardsBurned))
            console.print(
                f"New shoe {t.shoe_number}: shuffled (seed commitment "
                f"{t.shoe_commitment and t.shoe_commitment[:16]}…), cut, "
                f"{plural(burned, 'card')} burned face down (BA-2.1).",
                highlight=False,
            )
            continue
        if t.phase is BaccaratPhase.DEMONSTRATION:
            s.run(Actor.DEALER, "deal")
            r = t.results[-1]
            console.print(f"Demonstration hand (BA-2.2, no bets): {r.outcome}.", highlight=False)
            continue
        console.print(s.status(), highlight=False)
        line = _ask("bet> ")
        if line is None or line.lower() in ("q", "quit", "exit"):
            if _leave(s) or line is None:
                return
            continue
        try:
            if line.lower() in ("", "d", "deal"):
                _play_hand(s, rng)
            elif line.lower() == "roads":
                console.print(draw_roads(t.roads()))
            elif line.lower() == "table":
                console.print(_bets_table(t, s))
            elif line.lower() in ("h", "help", "?"):
                console.print(HELP_TEXT)
            else:
                _command(s, line)
        except MacauTablesError as exc:
            console.print(f"[red]{exc}[/red]", highlight=False)


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `play baccarat` and the `baccarat` group."""
    play_app.command(
        "baccarat",
        epilog="Example: macau-tables play baccarat --seed 42 --decks 8 --journal games/   "
        "(then: b 200, deal, roads, quit)",
    )(play_cmd)
    app.add_typer(baccarat_app, name="baccarat")


__all__ = ["register"]
