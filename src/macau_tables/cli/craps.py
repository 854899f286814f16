"""`macau-tables play craps`: a craps table in the terminal (Portaria 97/85/M).

Thin: it parses a typed command, calls :mod:`macau_tables.games.craps`, and renders. Every
rule lives in the engine; a refused command prints the engine's one-line error (naming the
rule) and leaves the table as it was.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from macau_tables.cli.common import console, handle_errors, print_json_line
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.craps import (
    BET_KINDS,
    ByNumber,
    CrapsRules,
    CrapsTable,
    Dice,
    Odds,
    OpenBet,
    Payout,
    PerUnits,
    RollSettled,
    bet_kind,
    iter_kinds,
)

HELP = """\
Commands (amounts in patacas: 10, 12.50):
  bet NAME AMOUNT   place a bet, or add to your same bet:
                    bet pass 10 · bet dp 10 · bet come 10 · bet field 5
                    bet hard8 5 · bet big6 12 · bet big7 2 · bet 11 2 · bet craps 2
  odds BET AMOUNT   odds on a bet with a point: odds pass 20 · odds come6 10
  down BET          take a bet down: down field · down odds pass · down #3
  roll              throw the dice (you are the shooter)
  dice 3-4          live table: the dice as thrown · void: a die left the table
  bets              your bets         table   point, shooter, balance
  pays              the pay table     help    this text         quit   leave
Bets: {bets}"""


def describe(payout: Payout) -> str:
    """A pay table in words: ``"2:1 on 4/10, 3:2 on 5/9, 6:5 on 6/8"``."""
    if isinstance(payout, PerUnits):
        return f"{payout.wins} per full {payout.units} units; even money on the rest"
    if isinstance(payout, ByNumber):
        groups: dict[str, list[int]] = {}
        for n, odds in payout.table:
            groups.setdefault(_odds_text(odds), []).append(n)
        parts = [f"{o} on {'/'.join(map(str, ns))}" for o, ns in groups.items()]
        if payout.default is not None:
            parts.append(f"{_odds_text(payout.default)} otherwise")
        return ", ".join(parts)
    return _odds_text(payout)


def _odds_text(odds: Odds) -> str:
    """``9:2`` → ``4.5:1`` (Big 7, CR-6); other odds as the regulation writes them."""
    if odds.per == 2 and odds.win % 2 and odds.win > 2 * odds.per:
        return f"{odds.win // 2}.5:1"
    return str(odds)


#: the flat bet that each odds bet rides on, and back
_ODDS_FOR = {k.on: k.name for k in iter_kinds() if k.on is not None}


class CrapsSession:
    """One player at a table, driven by typed commands."""

    def __init__(self, table: CrapsTable, player: str, rng: Rng, *, json: bool = False) -> None:
        self.table = table
        self.player = player
        self.rng = rng
        self.json = json
        self.start = table.balance(player)

    # --- output ---------------------------------------------------------------------------

    def say(self, text: str, obj: dict[str, Any] | None = None) -> None:
        if self.json:
            print_json_line(obj if obj is not None else {"message": text})
        else:
            console.print(text, markup=False, highlight=False, soft_wrap=True)

    def money(self, minor: int) -> str:
        return Money(minor, self.table.rules.currency).format()

    # --- parsing ------------------------------------------------------------------------------

    def amount(self, text: str) -> Money:
        return Money.parse(text, self.table.rules.currency)

    def find(self, words: list[str]) -> OpenBet:
        """The player's bet named by ``words``: ``#3``, ``field``, ``come6``, ``odds pass``."""
        if not words:
            raise InvalidInput("name the bet: e.g. 'down field' or 'down odds pass'")
        mine = self.table.bets_of(self.player)
        if len(words) == 1 and words[0].lstrip("#").isdigit():
            bet_id = int(words[0].lstrip("#"))
            for bet in mine:
                if bet.id == bet_id:
                    return bet
            raise InvalidInput(f"you have no bet #{bet_id}; type 'bets'")
        odds = words[0] in ("odds", "lay")
        name = "".join(words[1:] if odds else words).lower()
        number: int | None = None
        digits = name[len(name.rstrip("0123456789")) :]
        if digits and name.rstrip("0123456789") in ("come", "dc", "dontcome", "dont_come"):
            name, number = name.rstrip("0123456789"), int(digits)
        kind = bet_kind(name)
        flats = [b for b in mine if b.kind == kind.name and (number is None or b.point == number)]
        found = [o for b in flats if (o := self.table.odds_on(b.id)) is not None] if odds else flats
        if not found:
            what = ("odds on " if odds else "") + kind.label + (f" {number}" if number else "")
            raise InvalidInput(f"you have no {what} bet; type 'bets'")
        if len(found) > 1:
            names = ", ".join(f"#{b.id} {self.table.label(b)}" for b in found)
            raise InvalidInput(f"which one? {names} (e.g. 'down #{found[0].id}')")
        return found[0]

    # --- commands -------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Run one command; return False to leave. Errors print one line, state intact."""
        words = line.split()
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        try:
            if cmd in ("quit", "exit", "q"):
                return False
            handler = getattr(self, f"cmd_{cmd}", None)
            if handler is None:
                raise InvalidInput(f"unknown command {cmd!r}; type 'help'")
            handler(args)
        except MacauTablesError as exc:
            text = f"{type(exc).__name__}: {exc}"
            self.say(text, {"error": type(exc).__name__, "rule": exc.rule, "message": str(exc)})
        return True

    def cmd_help(self, args: list[str]) -> None:
        self.say(HELP.format(bets=", ".join(BET_KINDS)))

    def cmd_bet(self, args: list[str]) -> None:
        if len(args) < 2:
            raise InvalidInput("usage: bet NAME AMOUNT, e.g. 'bet pass 10'")
        kind, amount = bet_kind(" ".join(args[:-1])), self.amount(args[-1])
        if kind.on is not None:
            raise InvalidInput(f"odds go on a bet: e.g. 'odds {kind.on} {args[-1]}'")
        same = [b for b in self.table.bets_of(self.player) if b.kind == kind.name]
        growing = [b for b in same if b.point is None]
        if growing:
            self.table.increase_bet(growing[0].id, amount)
            bet = self.table.bet(growing[0].id)
            self.say(f"{self.table.label(bet)} now {bet.amount.format()}", self.bet_json(bet))
        else:
            ev = self.table.place_bet(self.player, kind, amount)
            bet = self.table.bet(ev.bet_id)
            self.say(f"{self.table.label(bet)} {amount.format()} placed", self.bet_json(bet))
        self.say_balance()

    def cmd_odds(self, args: list[str]) -> None:
        if len(args) < 2:
            raise InvalidInput("usage: odds BET AMOUNT, e.g. 'odds pass 20' or 'odds come6 10'")
        amount = self.amount(args[-1])
        flat = self.find(args[:-1])
        if flat.parent is not None:
            flat = self.table.bet(flat.parent)
        existing = self.table.odds_on(flat.id)
        if existing is not None:
            self.table.increase_bet(existing.id, amount)
            bet = self.table.bet(existing.id)
        else:
            ev = self.table.place_bet(self.player, _ODDS_FOR[flat.kind], amount, on=flat.id)
            bet = self.table.bet(ev.bet_id)
        self.say(f"{self.table.label(bet)}: {bet.amount.format()}", self.bet_json(bet))
        self.say_balance()

    cmd_lay = cmd_odds

    def cmd_down(self, args: list[str]) -> None:
        bet = self.find(args)
        ev = self.table.take_down(bet.id)
        self.say(
            f"{self.table.label(bet)} taken down"
            + (" with its odds" if len(ev.bet_ids) > 1 else ""),
            {"taken_down": list(ev.bet_ids)},
        )
        self.say_balance()

    def cmd_roll(self, args: list[str]) -> None:
        if args:
            raise InvalidInput("'roll' throws the dice; at a live table type 'dice 3-4'")
        self.table.throw(self.rng)
        self.show_roll()

    def cmd_dice(self, args: list[str]) -> None:
        dice = Dice.parse(" ".join(args))
        self.table.throw_dice(dice.d1, dice.d2)
        self.show_roll()

    def cmd_void(self, args: list[str]) -> None:
        ev = self.table.void_throw()
        self.say(f"No roll: {ev.reason}; nothing is settled, {ev.shooter} throws again (CR-R1)",
                 {"void": ev.reason})  # fmt: skip

    def cmd_bets(self, args: list[str]) -> None:
        bets = self.table.bets_of(self.player)
        if self.json:
            print_json_line({"bets": [self.bet_json(b) for b in bets]})
            return
        if not bets:
            console.print("No bets on the layout.")
            return
        grid = Table(title="Your bets")
        for col in ("#", "bet", "stake", "rule"):
            grid.add_column(col, justify="right" if col in ("#", "stake") else "left")
        for b in bets:
            grid.add_row(str(b.id), self.table.label(b), b.amount.format(), BET_KINDS[b.kind].rule)
        console.print(grid)

    def cmd_table(self, args: list[str]) -> None:
        t = self.table
        point = f"the point is {t.point}" if t.point else "come-out roll (no point)"
        self.say(f"{point}; {t.shooter} has the dice; roll {t.rolls}", self.state_json())
        self.say_balance()

    cmd_status = cmd_table

    def cmd_pays(self, args: list[str]) -> None:
        rules = self.table.rules
        rows = [(k.label, k.rule, describe(rules.payout(k)), k.when.value) for k in iter_kinds()]
        if self.json:
            print_json_line({"pays": [dict(zip(("bet", "rule", "pays", "when"), r, strict=True))
                                 for r in rows]})  # fmt: skip
            return
        grid = Table(title=f"Pay table: winnings per stake (unit {rules.big_unit.format()})")
        for col in ("bet", "rule", "pays", "placed"):
            grid.add_column(col)
        for row in rows:
            grid.add_row(*row)
        console.print(grid)

    # --- rendering ------------------------------------------------------------------------------

    def bet_json(self, bet: OpenBet) -> dict[str, Any]:
        return {"id": bet.id, "bet": bet.kind, "label": self.table.label(bet),
                "amount": bet.amount.minor, "point": bet.point, "on": bet.parent}  # fmt: skip

    def state_json(self) -> dict[str, Any]:
        t = self.table
        return {"point": t.point, "shooter": t.shooter, "rolls": t.rolls,
                "balance": t.balance(self.player).minor,
                "on_layout": t.on_layout(self.player).minor}  # fmt: skip

    def say_balance(self) -> None:
        if self.json:
            return
        t = self.table
        console.print(
            f"Balance {t.balance(self.player).format()} · on the layout "
            f"{t.on_layout(self.player).format()}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )

    def show_roll(self) -> None:
        roll = self.table.last_roll
        assert isinstance(roll, RollSettled)
        dice = self.table.events[-2]
        if self.json:
            obj = roll.to_json()["data"]
            assert isinstance(obj, dict)
            print_json_line({**obj, "dice": list(getattr(dice, "dice", ())), **self.state_json()})
            return
        d1, d2 = getattr(dice, "dice", (0, 0))
        if roll.point_before is None:
            news = (
                f"point is {roll.point_after}"
                if roll.point_after
                else ("natural" if roll.total in (7, 11) else "craps") + ": come-out again"
            )
        elif roll.point_after is None:
            news = "seven-out" if roll.total == 7 else f"point {roll.point_before} made"
        else:
            news = f"point is {roll.point_after}"
        console.print(f"Roll {roll.roll}: {roll.shooter} throws {d1}-{d2} = {roll.total} — {news}",
                      markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        mine = [r for r in roll.results if r["player"] == self.player]
        for p in roll.points:
            bet = self.table.bet(p["bet"])
            if bet.player == self.player:
                console.print(f"  {BET_KINDS[bet.kind].label} moves to {p['point']}", markup=False)
        if mine:
            grid = Table(show_header=True, box=None, padding=(0, 2))
            for col in ("bet", "stake", "result", "paid"):
                grid.add_column(col, justify="right" if col in ("stake", "paid") else "left")
            for r in mine:
                paid = r["stake"] + r["won"] if r["result"] == "win" else (
                    r["stake"] if r["result"] == "push" else 0)  # fmt: skip
                won = f" (wins {self.money(r['won'])})" if r["result"] == "win" else ""
                grid.add_row(r["name"], self.money(r["stake"]), r["result"] + won, self.money(paid))
            console.print(grid)
        self.say_balance()


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `play craps`."""
    del app

    @play_app.command(
        "craps",
        epilog=(
            "Example: macau-tables play craps --seed 42 --bankroll 500  then type: "
            "bet pass 10 · roll · odds pass 5 · bet hard8 5 · bet big6 12 · down hard8 · "
            "roll · bets · quit"
        ),
    )
    @handle_errors
    def craps_cmd(
        seed: Annotated[
            str | None, typer.Option("--seed", help="Replayable dice from this seed.")
        ] = None,
        bankroll: Annotated[
            str, typer.Option("--bankroll", help="Chips to start with (MOP).")
        ] = "1000",
        name: Annotated[str, typer.Option("--name", help="Your name at the table.")] = "player",
        odds_cap: Annotated[
            str,
            typer.Option("--odds-cap", help="winnings (CR-2.2, default) or stake (CR-R2)."),
        ] = "winnings",
        journal: Annotated[
            Path | None, typer.Option("--journal", help="Write the session's journal here.")
        ] = None,
        json: Annotated[
            bool, typer.Option("--json", help="Answer each command as a JSON line (JSON Lines).")
        ] = False,
    ) -> None:
        """Play craps (Portaria 97/85/M) at a prompt: place bets, roll, see every payout."""
        if odds_cap not in ("winnings", "stake"):
            raise InvalidInput(f"--odds-cap is 'winnings' or 'stake', not {odds_cap!r}")
        rules = CrapsRules(odds_cap="stake" if odds_cap == "stake" else "winnings")
        table = CrapsTable([name], rules, header={"seed": seed} if seed is not None else None)
        table.buy_in(name, Money.parse(bankroll, rules.currency))
        rng = Rng.seeded(seed) if seed is not None else Rng.system()
        session = CrapsSession(table, name, rng, json=json)
        if not json:
            console.print(
                "Craps — Portaria 97/85/M. You are the shooter. Type 'help' for commands.",
                markup=False,
            )
            session.say_balance()
        while True:
            if not json:
                console.print("craps> ", end="", markup=False)
            line = sys.stdin.readline()
            if not line:
                break
            if not json and not sys.stdin.isatty():  # scripted input: echo it in the transcript
                console.print(line.rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
            if not session.handle(line):
                break
        end = table.balance(name)
        summary: dict[str, Any] = {
            "rolls": table.rolls,
            "balance": end.minor,
            "on_layout": table.on_layout(name).minor,
            "net": (end + table.on_layout(name) - session.start).minor,
            "head": table.journal.head,
        }
        if journal is not None:
            table.journal.dump(journal)
            summary["journal"] = str(journal)
        if json:
            print_json_line({"summary": summary})
        else:
            console.print(
                f"Goodbye. {table.rolls} rolls; balance {end.format()}, on the layout "
                f"{table.on_layout(name).format()}; journal head {table.journal.head[:16]}…",
                markup=False,
                soft_wrap=True,
            )
