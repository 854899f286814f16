"""`macau-tables play paigow|taiwan` and `macau-tables paigow|taiwan settle ROUND.json`.

Thin: the rules live in :mod:`macau_tables.games.tilegame`, ``paigow`` and ``taiwan``; this
module reads input, drives a :class:`Round`, and renders. Bots bet, set and bank with the
house way; their choices draw from ``core.rng`` (seeded with ``--seed``) like the tiles.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from macau_tables.cli.common import console, handle_errors, print_json, print_json_line
from macau_tables.cli.settle_schema import load_facts, settle_facts
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.ledger import Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.paigow import PAIGOW
from macau_tables.games.taiwan import TAIWAN
from macau_tables.games.tilegame import (
    Phase,
    Regulation,
    Rotation,
    Round,
)
from macau_tables.tiles import Setting, Tile, parse_tiles, settings
from macau_tables.tiles.strategies import strategy

REGULATIONS = {"paigow": PAIGOW, "taiwan": TAIWAN}
BOTS = ["ahchan", "bo", "carmen", "dio", "eng", "fai", "gigi", "hou"]


def _tiles_label(ts: tuple[Tile, ...] | list[Tile]) -> str:
    return "  ".join(t.label() for t in ts)


def _setting_label(s: Setting) -> str:
    return f"{s.front} ({s.front.value.name}) / {s.back} ({s.back.value.name})"


def _num(money: Money) -> str:
    return money.format(symbol=False)


# --- settle ROUND.json ---------------------------------------------------------------------


def round_report(rnd: Round) -> dict[str, Any]:
    """Everything a supervisor needs: tiles, settings, every bet's result, the bank."""
    settled = rnd.settled
    return {
        "game": rnd.regulation.game,
        "dice": list(rnd.dice or ()),
        "dealing_order": rnd.dealing_order() if rnd.dice else [],
        "settlement_order": rnd.settlement_order() if rnd.dice else [],
        "seats": {
            str(seat): {
                "tiles": [str(t) for t in rnd.hands[seat]],
                "front": [str(t) for t in s.front.tiles],
                "back": [str(t) for t in s.back.tiles],
                "front_name": s.front.value.name,
                "back_name": s.back.value.name,
                "set_by": rnd.setters.get(seat),
            }
            for seat, s in sorted(rnd.settings_.items())
        },
        "bets": list(settled.results) if settled else [],
        "bank_capital": rnd.bank_capital.minor,
        "bank_result": rnd.bank_result().minor if settled else 0,
        "bank_shares": dict(settled.bank_shares) if settled else {},
        "commissions": dict(settled.commissions) if settled else {},
        "dealer_resets": list(settled.resets) if settled else [],
        "compensation": list(settled.compensation) if settled else [],
        "postings": dict(settled.postings) if settled else {},
        "void": rnd.phase is not Phase.SETTLED,
    }


def print_report(rnd: Round) -> None:
    rep = round_report(rnd)
    if rep["void"]:
        console.print("The deal is void (PG-2.3 / PG-R3): reshuffle and shake again.")
        return
    m = rnd.money
    table = Table(title=f"{rnd.regulation.title} — dice {rep['dice']}")
    for col in ("seat", "tiles", "front", "back", "set by"):
        table.add_column(col)
    for seat, s in rep["seats"].items():
        label = f"{seat}{' (bank)' if int(seat) == rnd.banker_seat else ''}"
        table.add_row(
            label,
            " ".join(s["tiles"]),
            f"{' '.join(s['front'])} {s['front_name']}",
            f"{' '.join(s['back'])} {s['back_name']}",
            str(s["set_by"]),
        )
    console.print(table)
    bets = Table(title=f"Bets in settlement order ({rnd.currency.code})")
    for col in ("seat", "player", "bet", "seat result", "outcome", "action", "net", "comm."):
        bets.add_column(
            col, justify="right" if col in ("bet", "action", "net", "comm.") else "left"
        )
    for r in rep["bets"]:
        bets.add_row(
            str(r["seat"]), r["person"], _num(m(r["amount"])), r["seat_result"], r["outcome"],
            _num(m(r["action"])), _num(m(r["net"])), _num(m(r["commission"])),
        )  # fmt: skip
    console.print(bets)
    shares = ", ".join(f"{p} {m(v).format()}" for p, v in rep["bank_shares"].items())
    fees = ", ".join(f"{p} {m(v).format()}" for p, v in rep["commissions"].items()) or "none"
    console.print(
        f"Bank capital {m(rep['bank_capital']).format()}, result "
        f"{m(rep['bank_result']).format()} — shares: {shares}; bank commission: {fees}",
        markup=False,
    )
    if rep["dealer_resets"]:
        console.print(f"Dealer re-set seats {rep['dealer_resets']} (TW-6b).", markup=False)
    for c in rep["compensation"]:
        console.print(
            f"Compensation (PG-7.2): {c['holder']} owes {c['bettor']} "
            f"{m(c['owed']).format()} on seat {c['seat']} (a {c['better']} was possible).",
            markup=False,
        )


# --- play ----------------------------------------------------------------------------------


class TileTable:
    """A session at one table: the user at a seat, bots at the others, the bank rotating."""

    def __init__(
        self, reg: Regulation, seed: str | None, bankroll: Money, name: str, seat: int,
        json: bool, journal_dir: Path | None,
    ) -> None:  # fmt: skip
        self.reg = reg
        self.rng = Rng.seeded(seed, "tiles") if seed is not None else Rng.system()
        self.bots_rng = Rng.seeded(seed, "bots") if seed is not None else Rng.system()
        self.name = name
        self.seat = seat
        self.json = json
        self.journal_dir = journal_dir
        self.people = {s: (name if s == seat else BOTS[s - 1]) for s in range(1, 9)}
        self.ledger = Ledger()
        for person in self.people.values():
            amount = bankroll if person == name else Money.of(5000)
            self.ledger.post(Transaction.transfer("cage", f"player:{person}", amount))
        self.rotation = Rotation(8, 1 if seat != 1 else 2)
        self.round_no = 0
        self.lines = iter(sys.stdin.readline, "")

    def ask(self, prompt: str) -> str:
        if not self.json:
            console.print(prompt, end="", markup=False)
        line = next(self.lines, "")
        if line == "":
            raise EOFError
        return line.strip()

    def say(self, text: str) -> None:
        if not self.json:
            console.print(text, markup=False, highlight=False, soft_wrap=True)

    def balance(self, person: str) -> Money:
        return self.ledger.balance(f"player:{person}")

    def play(self) -> None:
        self.say(
            f"{self.reg.title}. You are {self.name} at seat {self.seat}; "
            f"balance {self.balance(self.name).format()}. Type q to leave."
        )
        try:
            while self.play_round():
                pass
        except EOFError:
            pass
        self.say(f"Goodbye. Final balance {self.balance(self.name).format()}.")

    def play_round(self) -> bool:
        self.round_no += 1
        banker_seat = self.rotation.banker_seat or 1
        banker = self.people[banker_seat]
        if self.rotation.rounds_held:  # PG-4.9 / PG-R11: what is left on the table, or more
            capital = Money(self.rotation.capital)
        else:
            capital = min(self.balance(banker), Money.of(2000))
        wallets = {p: self.balance(p) for p in self.people.values()}
        while True:
            if banker == self.name:
                text = self.ask(
                    f"Round {self.round_no}: you bank at seat {banker_seat}. Capital "
                    f"(MOP, max {self.balance(banker).format()}) [{capital.format()}]: "
                )
                if text.lower() in ("q", "quit"):
                    return False
            try:
                if banker == self.name and text:
                    capital = Money.parse(text)
                rnd = Round.open(
                    self.reg, banker=banker, banker_seat=banker_seat, banker_capital=capital,
                    wallets=wallets, round_no=self.round_no,
                )  # fmt: skip
                break
            except MacauTablesError as exc:
                if banker != self.name:
                    raise
                self.say(f"{type(exc).__name__}: {exc}")
        rnd.shuffle(self.rng)
        self.say(
            f"Round {self.round_no}: {banker} banks at seat {banker_seat} with "
            f"{capital.format()} (PG-4.4)."
        )
        if banker != self.name:
            while True:
                text = self.ask(f"Your bet on seat {self.seat} (MOP, 0 to sit out, q to quit): ")
                if text.lower() in ("q", "quit"):
                    return False
                try:
                    amount = Money.parse(text or "0")
                    if amount.is_positive():
                        rnd.place_bet(self.name, self.seat, amount)
                    break
                except MacauTablesError as exc:
                    self.say(f"{type(exc).__name__}: {exc}")
        for seat, person in self.people.items():
            if person in (self.name, banker):
                continue
            amount = Money.of(10 * (1 + self.bots_rng.below(10)))
            if rnd.can_place_bet(person, seat, amount):
                rnd.place_bet(person, seat, amount)
        rnd.shake(self.rng)
        self.say(f"Dice {'-'.join(map(str, rnd.dice or ()))}: seat {rnd.dealing_order()[0]} first.")
        way = strategy("house-way")
        for seat in rnd.active_seats():
            holder = rnd.holder(seat)
            assert holder is not None
            tiles = rnd.hands[seat]
            if holder == self.name:
                front = self.choose(tiles)
                if front is None:
                    return False
            else:
                front = way.choose(tiles, self.reg.tiles).front.tiles
            rnd.set_seat(holder, seat, front)
        authority = rnd.banker_authority()
        btiles = rnd.hands[rnd.banker_seat]
        if authority == self.name:
            front = self.choose(btiles)
            if front is None:
                return False
        else:
            front = way.choose(btiles, self.reg.tiles).front.tiles
        rnd.set_banker(authority, front)
        rnd.settle()
        assert rnd.transaction is not None
        self.ledger.post(rnd.transaction)
        if self.journal_dir is not None:
            self.journal_dir.mkdir(parents=True, exist_ok=True)
            rnd.journal.dump(self.journal_dir / f"{self.reg.game}-round-{self.round_no:04d}.json")
        if self.json:
            print_json_line({**round_report(rnd), "balance": self.balance(self.name).minor})
        else:
            print_report(rnd)
        self.advance_bank(rnd)
        self.say(f"Your balance: {self.balance(self.name).format()}.")
        return True

    def choose(self, tiles: tuple[Tile, ...]) -> tuple[Tile, ...] | None:
        options = settings(tiles, self.reg.tiles)
        self.say(f"Your tiles: {_tiles_label(tiles)}")
        for i, s in enumerate(options, start=1):
            self.say(f"  {i}. {_setting_label(s)}")
        if self.reg.forced_setting is not None:
            self.say("  (TW-6b: the dealer re-sets a player whose back is not the highest)")
        while True:
            text = self.ask("Setting 1-3 (h = house way, q = quit): ").lower()
            if text in ("q", "quit"):
                return None
            if text in ("h", ""):
                return strategy("house-way").choose(tiles, self.reg.tiles).front.tiles
            if text in ("1", "2", "3"):
                return options[int(text) - 1].front.tiles
            self.say("Type 1, 2, 3 or h.")

    def advance_bank(self, rnd: Round) -> None:
        left = rnd.opened.banker_capital + sum(
            v for p, v in (rnd.settled.bank_shares if rnd.settled else ()) if p == rnd.banker
        )
        rot = self.rotation.after_round(left)
        if rot.must_pass() or left <= 0:
            bettors = {b.seat for b in rnd.bets}
            rot = rot.pass_bank(bettors)
            nxt = rot.banker_seat or 1
            self.say(f"The bank passes to seat {nxt} ({self.people[nxt]}) (PG-R6 / TW-5a).")
        else:
            self.say(f"{rnd.banker} keeps the bank for another round (PG-4.1, PG-4.9).")
        self.rotation = rot


# --- registration ----------------------------------------------------------------------------


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `play paigow`, `play taiwan`, `paigow settle`, `taiwan settle`."""
    for game, reg in REGULATIONS.items():
        _register_game(app, play_app, game, reg)


def _register_game(app: typer.Typer, play_app: typer.Typer, game: str, reg: Regulation) -> None:
    sub = typer.Typer(
        help=f"{reg.title}: supervisor tools.",
        epilog=f"Example: macau-tables {game} hint 6-6 4-5 2-4 1-2"
        f"  ·  macau-tables {game} settle docs/examples/{game}-round.json",
        no_args_is_help=True,
    )
    app.add_typer(sub, name=game)

    @sub.command(
        "settle",
        epilog=f"Example: macau-tables {game} settle docs/examples/{game}-round.json --json",
    )
    @handle_errors
    def settle_cmd(
        round_file: Annotated[
            Path,
            typer.Argument(help="The round's facts (JSON; every fact stated: docs/paigow.md)."),
        ],
        json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    ) -> None:
        """Recompute a round from its facts: every bet's result, payout, commission and
        compensation record (a supervisor's tool for disputes)."""
        rnd = settle_facts(load_facts(round_file, game))
        if json:
            print_json(round_report(rnd))
        else:
            print_report(rnd)

    @sub.command(
        "hint",
        epilog=f"Example: macau-tables {game} hint 6-6 4-5 2-4 1-2 --vs house-way --as player",
    )
    @handle_errors
    def hint_cmd(
        tiles: Annotated[list[str], typer.Argument(help="The four tiles, e.g. 6-6 4-5 2-4 1-2.")],
        vs: Annotated[
            str | None,
            typer.Option(
                "--vs",
                help="The other side's strategy: house-way or max-back (default: house way; "
                "forced players against a Taiwan banker).",
            ),
        ] = None,
        as_: Annotated[str, typer.Option("--as", help="Whose tiles: player or banker.")] = "player",
        commission: Annotated[
            str | None, typer.Option(help="Commission on wins (default PG-4.2's 4%, TW-8's 5%).")
        ] = None,
        json: Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")] = False,
    ) -> None:
        """The three settings of a hand with their exact expected values, best first
        (against every hand the other side can hold from the other 28 tiles)."""
        from macau_tables.analysis.par import decimal, frac_json, percent
        from macau_tables.analysis.tiles import hint
        from macau_tables.core.money import rate

        four = parse_tiles(tiles)
        if as_ not in ("player", "banker"):
            raise InvalidInput(f"--as is player or banker, not {as_!r}")
        c = None if commission is None else rate(commission)
        options = hint(four, vs=vs, as_=as_, game=game, commission=c)  # type: ignore[arg-type]
        if json:
            print_json(
                [
                    {
                        "front": [str(t) for t in o.setting.front.tiles],
                        "back": [str(t) for t in o.setting.back.tiles],
                        "ev": frac_json(o.ev),
                        "ev_decimal": decimal(o.ev),
                        "win": o.win,
                        "loss": o.loss,
                        "push": o.push,
                        "total": o.total,
                    }
                    for o in options
                ]
            )
            return
        table = Table(title=f"{reg.title}: settings of {_tiles_label(list(four))} as {as_}")
        for col in ("", "front", "back", "EV per unit", "P(win)", "P(loss)", "P(push)"):
            table.add_column(col, justify="right" if col.startswith(("EV", "P(")) else "left")
        for i, o in enumerate(options, start=1):
            table.add_row(
                "best" if i == 1 else str(i),
                _tiles_label(list(o.setting.front.tiles)),
                _tiles_label(list(o.setting.back.tiles)),
                f"{percent(o.ev, 3)}",
                percent(o.p_win, 2),
                percent(o.p_loss, 2),
                percent(o.p_push, 2),
            )
        console.print(table)
        total = options[0].total
        console.print(f"[dim]exact, over the other side's {total:,} possible hands[/dim]")

    @play_app.command(
        game,
        epilog=(
            f"Example: macau-tables play {game} --seed 7  then type a bet (50), "
            "a setting (1, 2, 3 or h for the house way), and q to leave."
        ),
    )
    @handle_errors
    def play_cmd(
        seed: Annotated[
            str | None, typer.Option("--seed", help="Replayable tiles and dice.")
        ] = None,
        bankroll: Annotated[str, typer.Option("--bankroll", help="Your chips (MOP).")] = "1000",
        name: Annotated[str, typer.Option("--name", help="Your name.")] = "you",
        seat: Annotated[int, typer.Option("--seat", help="Your seat, 1-8.")] = 2,
        journal: Annotated[
            Path | None, typer.Option("--journal", help="Write each round's journal here.")
        ] = None,
        json: Annotated[
            bool, typer.Option("--json", help="One JSON report per round, one a line (JSON Lines).")
        ] = False,
    ) -> None:
        """Play a table in the terminal: bet on your seat, set your tiles, watch the bank."""
        if not 1 <= seat <= 8:
            raise InvalidInput("your seat is 1 to 8")
        TileTable(reg, seed, Money.parse(bankroll), name, seat, json, journal).play()
