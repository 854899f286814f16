"""`macau-tables play craps`: a craps table in the terminal (Portaria 97/85/M).

A thin client of :class:`~macau_tables.games.craps.CrapsTable`: it turns a typed command
into a contract :class:`Command`, runs it with ``table.execute``, keeps the money by
projecting the events onto a ledger (cage → wallet deposit, then the buy-in), renders
``table.view(Viewer.player(you))``, and writes the journal after every command. Every rule
lives in the engine; a refused command prints the engine's one-line reason (naming the rule)
and leaves the table as it was.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from macau_tables.cli.common import console, handle_errors, print_json_line
from macau_tables.cli.journalfile import JournalFile, journal_target
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor, Command, accounts, check_name
from macau_tables.games.craps import (
    BET_KINDS,
    BetTakenDown,
    ByNumber,
    CrapsRules,
    CrapsTable,
    Dice,
    DicePassed,
    DiceThrown,
    Odds,
    OpenBet,
    Payout,
    PerUnits,
    PlayerLeft,
    RollSettled,
    ThrowVoided,
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
  pass              pass the dice (a new shooter's turn: they come back to you)
  dice 3-4          live table: the dice as thrown · void: a die left the table
  bets              your bets         table   point, shooter, balance
  pays              the pay table     help    this text
  quit              leave the table: your bets come back and your chips are cashed out
                    (a Pass or Come bet with a point stays until decided, CR-R6)
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


TABLE_ID = "terminal"


def plural(n: int, word: str) -> str:
    """``1 roll``, ``2 rolls``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class CrapsSession:
    """You at a craps table, driven by typed commands through the table's contract."""

    def __init__(
        self,
        table: CrapsTable,
        player: str,
        rng: Rng,
        ledger: Ledger,
        *,
        json: bool = False,
        journal: JournalFile | None = None,
    ) -> None:
        self.table = table
        self.player = player
        self.you = Actor.player(player)
        self.rng = rng
        self.ledger = ledger
        self.json = json
        self.file = journal
        self.start = self.wallet() + self.stack()
        self.quit_asked = False
        self.left = False

    # --- the table and the money ------------------------------------------------------------

    def run(self, op: str, args: Mapping[str, JsonValue] | None = None, *,
            actor: Actor | None = None) -> tuple[Event, ...]:  # fmt: skip
        """Execute one operation; project its money; write the journal."""
        events = self.table.execute(Command(actor or self.you, op, dict(args or {})), self.rng)
        Ledger.project(events, self.ledger)
        if self.file is not None:
            self.file.sync(self.table.journal)
        return events

    def stack(self) -> Money:
        return self.ledger.balance(accounts.stack(self.table.table_id, self.player))

    def wallet(self) -> Money:
        return self.ledger.balance(accounts.wallet(self.player))

    def on_layout(self) -> Money:
        return self.table.on_layout(self.player)

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
        """A bet in patacas: positive, at most two decimals (one avo)."""
        try:
            amount = Money.parse(text, self.table.rules.currency)
        except InvalidInput as exc:
            raise InvalidInput(
                f"not an amount: {text!r}; a bet is in patacas with at most two decimals "
                "(10, 12.50)"
            ) from exc
        if not amount.is_positive():
            raise InvalidInput(f"a bet must be more than zero, not {amount.format()}; try again")
        return amount

    def find(self, words: list[str]) -> OpenBet:
        """Your bet named by ``words``: ``#3``, ``field``, ``come6``, ``odds pass``."""
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
            if cmd in ("quit", "exit", "q", "leave"):
                return not self.leave()
            if cmd != "quit":
                self.quit_asked = False
            handler = getattr(self, f"cmd_{cmd}", None)
            if handler is None:
                raise InvalidInput(f"unknown command {cmd!r}; type 'help'")
            handler(args)
        except MacauTablesError as exc:
            self.say(str(exc), {"error": type(exc).__name__, "rule": exc.rule, "message": str(exc)})
        return True

    def leave(self) -> bool:
        """Leave the table (issue: no stake vanishes): your bets come back and your chips go
        to your wallet. A contract bet (CR-R6) stays until decided: say so, and leave it on
        the layout only if you ask twice."""
        if self.table.can_leave(self.you):
            events = self.run("leave")
            back = sum(len(e.bet_ids) for e in events if isinstance(e, BetTakenDown))
            left = next(e for e in events if isinstance(e, PlayerLeft))
            if back:
                self.say(f"{plural(back, 'bet')} returned to you.",
                         {"returned": back})  # fmt: skip
            self.say(f"You cash out {self.money(left.amount)}.", {"cashed_out": left.amount})
            self.left = True
            return True
        working = [b for b in self.table.bets_of(self.player) if b.point is not None
                   and BET_KINDS[b.kind].contract]  # fmt: skip
        names = ", ".join(f"{self.table.label(b)} ({b.amount.format()})" for b in working)
        if self.quit_asked:
            back = 0
            for bet in self.table.bets_of(self.player):
                if self.table.can_take_down(self.you, bet.id):  # its odds may be down already
                    down = self.run("take_down", {"bet_id": bet.id})
                    back += sum(len(e.bet_ids) for e in down if isinstance(e, BetTakenDown))
            if back:
                self.say(f"{plural(back, 'bet')} returned to you.", {"returned": back})
            self.say(f"You leave {names} on the layout, undecided (CR-R6); your chips stay "
                     "with it at the table.",
                     {"left_on_layout": [b.id for b in working]})  # fmt: skip
            return True
        self.quit_asked = True
        self.say(
            f"Your {names} is a contract bet: it stays on the layout until decided (CR-R6). "
            "Type 'roll' to play it out, or 'quit' again to walk away and leave it there.",
            {"error": "BetNotAllowed", "rule": "CR-R6", "contract_bets": [b.id for b in working]},
        )
        return False

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
            self.run("increase_bet", {"bet_id": growing[0].id, "amount": amount.minor})
            bet = self.table.bet(growing[0].id)
            self.say(f"{self.table.label(bet)} now {bet.amount.format()}", self.bet_json(bet))
        else:
            events = self.run("place_bet", {"bet": kind.name, "amount": amount.minor})
            bet = self.table.bet(events[0].bet_id)  # type: ignore[attr-defined]
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
            self.run("increase_bet", {"bet_id": existing.id, "amount": amount.minor})
            bet = self.table.bet(existing.id)
        else:
            args_: dict[str, JsonValue] = {
                "bet": _ODDS_FOR[flat.kind],
                "amount": amount.minor,
                "on": flat.id,
            }
            events = self.run("place_bet", args_)
            bet = self.table.bet(events[0].bet_id)  # type: ignore[attr-defined]
        self.say(f"{self.table.label(bet)}: {bet.amount.format()}", self.bet_json(bet))
        self.say_balance()

    cmd_lay = cmd_odds

    def cmd_down(self, args: list[str]) -> None:
        bet = self.find(args)
        events = self.run("take_down", {"bet_id": bet.id})
        ids = events[0].bet_ids  # type: ignore[attr-defined]
        self.say(
            f"{self.table.label(bet)} taken down" + (" with its odds" if len(ids) > 1 else ""),
            {"taken_down": list(ids)},
        )
        self.say_balance()

    def cmd_roll(self, args: list[str]) -> None:
        if args:
            raise InvalidInput("'roll' throws the dice; at a live table type 'dice 3-4'")
        self.show(self.run("throw"))

    def cmd_dice(self, args: list[str]) -> None:
        dice = Dice.parse(" ".join(args))
        self.show(self.run("throw_dice", {"dice": [dice.d1, dice.d2]}, actor=Actor.DEALER))

    def cmd_void(self, args: list[str]) -> None:
        self.show(self.run("void_throw", {"reason": "a die left the table"}, actor=Actor.DEALER))

    def cmd_pass(self, args: list[str]) -> None:
        self.show(self.run("pass_dice"))

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
        view = self.table.view(Viewer.player(self.player))
        point = f"the point is {view['point']}" if view["point"] else "come-out roll (no point)"
        shooter = "you have" if view["shooter"] == self.player else f"{view['shooter']} has"
        self.say(f"{point}; {shooter} the dice; {plural(self.table.rolls, 'roll')} so far",
                 {"view": view})  # fmt: skip
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
                "balance": self.stack().minor, "on_layout": self.on_layout().minor}  # fmt: skip

    def say_balance(self) -> None:
        if self.json:
            return
        console.print(
            f"Balance {self.stack().format()} · on the layout {self.on_layout().format()}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )

    def show(self, events: tuple[Event, ...]) -> None:
        """What a throw (or a pass of the dice) did, from its events."""
        thrown = next((e for e in events if isinstance(e, DiceThrown)), None)
        roll = next((e for e in events if isinstance(e, RollSettled)), None)
        passed = [e for e in events if isinstance(e, DicePassed)]
        void = next((e for e in events if isinstance(e, ThrowVoided)), None)
        if void is not None:
            who = "you throw" if void.shooter == self.player else f"{void.shooter} throws"
            self.say(f"No roll: {void.reason}; nothing is settled, {who} again (CR-R1)",
                     {"void": void.reason})  # fmt: skip
        if thrown is not None and roll is not None:
            self.show_roll(thrown, roll)
        for p in passed:
            to = "you" if p.to == self.player else p.to
            self.say(f"The dice pass to {to} ({p.reason}); a new shooter's seed is committed.",
                     {"dice_passed": p.reason, "to": p.to})  # fmt: skip

    def show_roll(self, thrown: DiceThrown, roll: RollSettled) -> None:
        if self.json:
            obj = roll.to_json()["data"]
            assert isinstance(obj, dict)
            keep = {k: obj[k] for k in ("roll", "total", "point_before", "point_after",
                                        "points", "results")}  # fmt: skip
            print_json_line({**keep, "dice": list(thrown.dice), **self.state_json()})
            return
        d1, d2 = thrown.dice
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
        who = "you throw" if thrown.shooter == self.player else f"{thrown.shooter} throws"
        console.print(f"Roll {roll.roll}: {who} {d1}-{d2} = {roll.total} — {news}",
                      markup=False, highlight=False, soft_wrap=True)  # fmt: skip
        for p in roll.points:
            bet = self.table.bet(p["bet"])
            if bet.player == self.player:
                console.print(f"  {BET_KINDS[bet.kind].label} moves to {p['point']}", markup=False)
        mine = [s for s in roll.settlements if s.player == self.player]
        if mine:
            grid = Table(show_header=True, box=None, padding=(0, 2))
            for col in ("bet", "stake", "result", "paid"):
                grid.add_column(col, justify="right" if col in ("stake", "paid") else "left")
            for s in mine:
                won = f" (wins {s.won.format()})" if s.result.value == "win" else ""
                grid.add_row(s.name, s.stake.format(), s.result.value + won, s.paid.format())
            console.print(grid)
        self.say_balance()


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `play craps`."""
    del app

    @play_app.command(
        "craps",
        epilog=(
            "Example: macau-tables play craps --seed 42 --bankroll 500 --journal sessions/  "
            "then type: bet pass 10 · roll · odds pass 5 · bet hard8 5 · bet big6 12 · "
            "down hard8 · roll · bets · quit"
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
            Path | None,
            typer.Option(
                "--journal",
                help="Write the journal as you play: a folder (a new file inside) or a "
                ".json file whose folder exists.",
            ),
        ] = None,
        json: Annotated[
            bool, typer.Option("--json", help="Answer each command as a JSON line (JSON Lines).")
        ] = False,
    ) -> None:
        """Play craps (Portaria 97/85/M) at a prompt: place bets, roll, see every payout."""
        if odds_cap not in ("winnings", "stake"):
            raise InvalidInput(f"--odds-cap is 'winnings' or 'stake', not {odds_cap!r}")
        check_name(name, "--name")
        rules = CrapsRules(odds_cap="stake" if odds_cap == "stake" else "winnings")
        chips = Money.parse(bankroll, rules.currency)
        if not chips.is_positive():
            raise InvalidInput(f"--bankroll must be more than zero, not {chips.format()}")
        target = journal_target(journal, "craps")
        rng = Rng.seeded(seed) if seed is not None else Rng.system()
        table = CrapsTable(rules=rules, table_id=TABLE_ID)
        ledger = Ledger()  # the cashier: your money enters at the cage, then buys chips
        ledger.post(Transaction.transfer(CAGE, accounts.wallet(name), chips, "deposit"))
        out = JournalFile(target, table.journal) if target is not None else None
        session = CrapsSession(table, name, rng, ledger, json=json, journal=out)
        session.run("sit", {"amount": chips.minor})
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
                session.quit_asked = True  # end of input: leave what can be left
                session.leave()
                break
            if not json and not sys.stdin.isatty():  # scripted input: echo it in the transcript
                console.print(line.rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
            if not session.handle(line):
                break
        wallet, stack, layout = session.wallet(), session.stack(), session.on_layout()
        summary: dict[str, Any] = {
            "rolls": table.rolls,
            "balance": (wallet + stack).minor,
            "on_layout": layout.minor,
            "net": (wallet + stack + layout - session.start).minor,
            "head": table.journal.head,
        }
        if target is not None:
            summary["journal"] = str(target)
        if json:
            print_json_line({"summary": summary})
        else:
            where = f"; journal {target}" if target is not None else ""
            console.print(
                f"Goodbye. {plural(table.rolls, 'roll')}; balance {(wallet + stack).format()}, "
                f"on the layout {layout.format()}; journal head {table.journal.head}{where}",
                markup=False,
                soft_wrap=True,
            )
