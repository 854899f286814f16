"""`macau-tables play paigow|taiwan` and `macau-tables paigow|taiwan settle ROUND.json`.

Thin: the rules live in :mod:`macau_tables.games.tiles.rounds`, ``settlement``, ``paigow`` and
``taiwan``, the table in :mod:`macau_tables.games.tiles.table`; ``play`` drives a table through
``pending()`` / ``execute()`` and renders, ``settle`` plays one round at a table from its
facts (:mod:`macau_tables.games.tiles.facts`). Computer
players bet, set and bank by the rules' defaults; their bets draw from ``core.rng`` (seeded
with ``--seed``) like the tiles.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from macau_tables.cli.common import console, handle_errors, print_json, print_json_line
from macau_tables.cli.journalfile import JournalFile, journal_target
from macau_tables.cli.settle_schema import load_facts, settle_facts
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.ledger import Ledger, Transaction, movement_of
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, check_name, time_out
from macau_tables.games.tiles import (
    DiceShaken,
    RoundSettled,
    TilePhase,
    TileTable,
    TileTableRules,
    open_table,
)
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import Regulation, TileRound
from macau_tables.games.tiles.settlement import Settlement
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import Setting, Tile, parse_tiles, settings

REGULATIONS = {"paigow": PAIGOW, "taiwan": TAIWAN}
BOTS = ["ahchan", "bo", "carmen", "dio", "eng", "fai", "gigi", "hou"]


def _tiles_label(ts: tuple[Tile, ...] | list[Tile]) -> str:
    return "  ".join(t.label() for t in ts)


def _setting_label(s: Setting) -> str:
    return f"{s.front} ({s.front.value.name}) / {s.back} ({s.back.value.name})"


def _num(money: Money) -> str:
    return money.format(symbol=False)


# --- settle ROUND.json ---------------------------------------------------------------------


def round_report(rnd: TileRound, result: Settlement | None) -> dict[str, Any]:
    """Everything a supervisor needs: tiles, settings, every bet's result, the bank. ``result``
    is the round's settlement (None: the deal was void, PG-2.3 / PG-R3)."""
    settings_ = result.settings if result is not None else rnd.settings
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
            for seat, s in sorted(settings_.items())
        },
        "bets": list(result.records(rnd.seats_out)) if result else [],
        "bank_capital": rnd.bank_capital.minor,
        "bank_result": result.bank_result.minor if result else 0,
        "bank_shares": {p: m.minor for p, m in result.shares} if result else {},
        "commissions": {p: m.minor for p, m in result.commissions} if result else {},
        "bank_layers": _bank_layers(rnd, result),
        "dealer_resets": list(result.resets) if result else [],
        "compensation": list(result.compensation) if result else [],
        "postings": {p.account: p.amount.minor for p in result.postings} if result else {},
        "void": result is None,
    }


def settled_round(table: TileTable) -> tuple[TileRound, Settlement | None]:
    """A table's last settled round and its settlement, or its round whose deal was void
    (PG-2.3 / PG-R3) and None."""
    if table.round is not None and table.round.deal_void:
        return table.round, None
    rnd = table.last_round
    assert rnd is not None
    return rnd, table.last_result()


def _bank_layers(rnd: TileRound, result: Settlement | None) -> list[dict[str, Any]]:
    """Each participant of the bank, in layer order (PG-R4a, TW-5e): capital, share of the
    result, commission (PG-R5 / TW-R3; 0 for a layer that took nothing and for the house's
    own share) and what his wallet gains or loses."""
    shares = {p: m.minor for p, m in result.shares} if result else {}
    fees = {p: m.minor for p, m in result.commissions} if result else {}
    return [
        {
            "person": person,
            "capital": capital.minor,
            "share": shares.get(person, 0),
            "commission": fees.get(person, 0),
            "net": shares.get(person, 0) - fees.get(person, 0),
        }
        for person, capital in rnd.bank_participants()
    ]


def print_report(rnd: TileRound, result: Settlement | None) -> None:
    rep = round_report(rnd, result)
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
    bets = Table(title=f"Bets in settlement order ({rnd.currency})")
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
    layers = Table(title=f"The bank's layers, banker first ({rnd.currency})")
    for col in ("layer", "capital", "share", "commission", "net"):
        layers.add_column(col, justify="left" if col == "layer" else "right")
    for row in rep["bank_layers"]:
        layers.add_row(
            row["person"], _num(m(row["capital"])), _num(m(row["share"])),
            _num(m(row["commission"])), _num(m(row["net"])),
        )  # fmt: skip
    console.print(layers)
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


# --- play: a thin client of games.tiles ------------------------------------------------


class _Quit(Exception):
    """The player typed q (or the input ended)."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class TileSession:
    """`play paigow|taiwan`: you at a seat, computer players at the others, all driven
    through the table's ``pending()`` / ``execute()``; money is ``Ledger.project`` of the
    table's events (a cage → wallet deposit, then a buy-in)."""

    def __init__(
        self, rules: TileTableRules, seed: str | None, bankroll: Money, name: str, seat: int,
        json: bool, journal_path: Path | None,
    ) -> None:  # fmt: skip
        self.rules = rules
        self.reg = rules.regulation
        self.rng = Rng.seeded(seed, "tiles") if seed is not None else Rng.system()
        self.bots_rng = Rng.seeded(seed, "bots") if seed is not None else Rng.system()
        self.name, self.seat, self.json = name, seat, json
        self.you = Actor.player(name)
        self.table = open_table(rules, "t1")
        self.people = {s: (name if s == seat else BOTS[s - 1]) for s in range(1, rules.places + 1)}
        self.ledger = Ledger()
        for person in self.people.values():
            amount = bankroll if person == name else Money.of(5000)
            self.ledger.post(Transaction.transfer("cage", f"player:{person}", amount))
        self.file = JournalFile(journal_path, self.table.journal) if journal_path else None
        for s, person in self.people.items():
            self.run(Command(Actor.player(person), "sit", {"seat": s}))
            money = self.ledger.balance(f"player:{person}").minor
            self.run(Command(Actor.player(person), "buy_in", {"amount": money}))
        self.lines = iter(sys.stdin.readline, "")
        self.rounds = 0

    # ---- plumbing ------------------------------------------------------------------------

    def run(self, cmd: Command) -> tuple[Event, ...]:
        """Execute one command; post its money; append its events to the journal file."""
        events = self.table.execute(cmd, self.rng)
        for ev in events:
            mv = movement_of(ev)
            if mv is not None:
                self.ledger.move(mv)
        if self.file is not None:
            self.file.sync(self.table.journal)
        return events

    def ask(self, prompt: str) -> str:
        if not self.json:
            console.print(prompt, end="", markup=False, highlight=False, soft_wrap=True)
        line = next(self.lines, "")
        if line == "":
            raise _Quit
        text = line.strip()
        if text.lower() in ("q", "quit"):
            raise _Quit
        return text

    def say(self, text: str) -> None:
        if not self.json:
            console.print(text, markup=False, highlight=False, soft_wrap=True)

    def chips(self) -> Money:
        return self.ledger.balance(f"stack:t1:{self.name}")

    def money_entry(self, text: str) -> Money:
        """An amount typed by the player: positive, whole avos (refused with a clear line)."""
        try:
            amount = Money.parse(text)
        except MacauTablesError as exc:
            raise InvalidInput(f"{text!r} is not an amount (try 50 or 12.50)") from exc
        if amount.is_negative():
            raise InvalidInput("an amount cannot be negative")
        return amount

    # ---- the session ----------------------------------------------------------------------

    def play(self) -> None:
        self.say(
            f"{self.reg.title}. You sit at seat {self.seat} as {self.name} with "
            f"{self.chips().format()} in chips. Type q to leave."
        )
        try:
            try:
                while True:
                    self.step()
            except _Quit:
                self.finish_round()
            self.run(Command(self.you, "leave", {}))
        finally:
            if self.file is not None:
                self.file.close()
        balance = self.ledger.balance(f"player:{self.name}")
        self.say(f"Goodbye. Final balance {balance.format()}.")

    def finish_round(self) -> None:
        """Leaving with money in play: the round is played out first (PG-4.7 / TW-2g),
        your tiles set by the rules' default."""
        owed = self.table.in_play(self.name)
        if not owed:
            return
        self.say(
            f"You have {Money(owed).format()} in play: it stays on the table until the round "
            f"is settled ({self.reg.rule('PG-4.7')}); the dealer plays your part by the rules."
        )
        while self.table.phase is not TilePhase.BANK:
            required = [p for p in self.table.pending() if p.default is not None]
            events = self.run(time_out(required[0]))
            if any(isinstance(ev, RoundSettled) for ev in events):
                self.report()

    def step(self) -> None:
        t = self.table
        if t.phase is TilePhase.BANK:
            self.bank()
        elif t.phase is TilePhase.SHUFFLE:
            self.run(Command(Actor.DEALER, "shuffle", {}))
        elif t.phase is TilePhase.BETTING:
            self.bets()
            events = self.run(Command(self.banker_actor(), "shake", {}))
            dice = next(ev for ev in events if isinstance(ev, DiceShaken))
            rnd = t.round
            assert rnd is not None
            self.say(f"Dice {'-'.join(map(str, dice.dice))}: seat {rnd.dealing_order()[0]} first.")
        elif t.phase is TilePhase.SETTING:
            self.setting()
        else:
            self.run(Command(Actor.DEALER, "settle", {}))
            self.report()

    def banker_actor(self) -> Actor:
        return Actor.DEALER if self.table.banker == "house" else Actor.player(self.table.banker)

    def bank(self) -> None:
        """PG-4.3 / PG-4.4 / PG-4.9: the seat whose turn it is opens the bank or declines."""
        t = self.table
        seat = t.bank_candidate()
        if seat is None:
            if not t.pending():
                raise _Quit
            self.run(Command(Actor.DEALER, "house_banks", {}))
            self.announce()
            return
        who = self.people[seat]
        _seat, keep, floor = t.bank_offer()
        stack = t.stack(who)
        default = Money(floor) if keep else min(stack, Money.of(2000))
        if who != self.name:
            self.run(Command(Actor.player(who), "open_bank", {"capital": default.minor}))
            self.announce()
            return
        rule = self.reg.rule("PG-4.9")
        least = f"at least {Money(floor).format()} ({rule}), " if keep else ""
        while True:
            text = self.ask(
                f"Round {t.round_no + 1}: the bank is yours at seat {seat}. Capital "
                f"(MOP, {least}max {stack.format()}) [{default.format()}], "
                f"d to decline ({self.reg.rule('PG-4.3')}): "
            )
            try:
                if text.lower() in ("d", "decline"):
                    self.run(Command(self.you, "decline_bank", {}))
                    self.say("You decline the bank; it passes to the right.")
                    return
                capital = self.money_entry(text) if text else default
                self.run(Command(self.you, "open_bank", {"capital": capital.minor}))
                self.announce()
                return
            except MacauTablesError as exc:  # a refused entry never becomes the default
                self.say(str(exc))

    def announce(self) -> None:
        t = self.table
        rnd = t.round
        assert rnd is not None
        who = "You bank" if t.banker == self.name else f"{t.banker} banks"
        self.say(
            f"Round {t.round_no}: {who} at seat {t.banker_seat} with "
            f"{rnd.bank_capital.format()} ({self.reg.rule('PG-4.4')})."
        )

    def bets(self) -> None:
        t = self.table
        if t.banker != self.name:
            while True:
                text = self.ask(f"Your bet on seat {self.seat} (MOP, 0 to sit out, q to quit): ")
                try:
                    amount = self.money_entry(text or "0")
                    if amount.is_positive():
                        args = {"seat": self.seat, "amount": amount.minor}
                        self.run(Command(self.you, "place_bet", args))
                    break
                except MacauTablesError as exc:
                    self.say(str(exc))
        for seat, person in self.people.items():
            if person in (self.name, t.banker):
                continue
            stake = Money.of(10 * (1 + self.bots_rng.below(10))).minor
            if t.can_place_bet(Actor.player(person), seat, Money(stake, t.currency)):
                self.run(
                    Command(Actor.player(person), "place_bet", {"seat": seat, "amount": stake})
                )

    def setting(self) -> None:
        t = self.table
        for p in t.pending():
            if p.default != "set_tiles":
                continue
            rnd = t.round
            assert rnd is not None
            seats = [s for a, s in t._setters() if a == p.actor]
            seat = seats[0]
            if p.actor == self.you:
                front = self.choose(seat)
            else:
                front = t.default_setting(seat).front.tiles
            names: list[JsonValue] = [str(x) for x in front]
            self.run(Command(p.actor, "set_tiles", {"seat": seat, "front": names}))
            return

    def choose(self, seat: int) -> tuple[Tile, ...]:
        """Your setting: the settings you may keep (TW-6b / TW-R1), h = the rules' default,
        ? = the exact EV of each (when the analysis extras are installed)."""
        t = self.table
        rnd = t.round
        assert rnd is not None
        tiles = rnd.hands[seat]
        banker = seat == rnd.banker_seat
        allowed = t.allowed_settings(seat)
        barred = [x for x in settings(tiles, self.reg.tiles) if x not in allowed]
        options = allowed + barred  # TW-6b / TW-R1: those the dealer would re-set last
        self.say(f"Your tiles: {_tiles_label(tiles)}")
        for i, s in enumerate(options, start=1):
            mark = "  (not allowed: re-set)" if s in barred else ""
            self.say(f"  {i}. {_setting_label(s)}{mark}")
        if barred:
            self.say(f"  ({self.reg.rule('TW-6b')}: your back must be the highest)")
        n = len(allowed)
        choices = "1" if n == 1 else f"1-{n}"
        while True:
            text = self.ask(f"Setting {choices} (h = house way, ? = hints, q = quit): ").lower()
            if text in ("h", ""):
                return t.default_setting(seat).front.tiles
            if text in ("?", "help"):
                self.hints(tiles, banker, options)
                continue
            if text.isdigit() and 1 <= int(text) <= n:
                return options[int(text) - 1].front.tiles
            if text.isdigit() and n < int(text) <= len(options):
                self.say(f"The dealer would re-set that one ({self.reg.rule('TW-6b')}).")
                continue
            self.say(f"Type a number from {choices}, h, ? or q.")

    def hints(self, tiles: tuple[Tile, ...], banker: bool, options: list[Setting]) -> None:
        try:
            from macau_tables.analysis.tiles import hint
        except ImportError:
            self.say("Exact EVs need the analysis extras (numpy, numba); your settings:")
            for i, s in enumerate(options, start=1):
                self.say(f"  {i}. {_setting_label(s)}")
            return
        evs = hint(tiles, as_="banker" if banker else "player", game=self.reg.game)
        keys = [(s.front.tiles, s.back.tiles) for s in options]
        self.say("Exact EV per unit bet against every hand the other side can hold:")
        for o in evs:
            key = (o.setting.front.tiles, o.setting.back.tiles)
            mark = f"{keys.index(key) + 1}." if key in keys else "  (re-set)"
            self.say(f"  {mark} {_setting_label(o.setting)}: EV {float(o.ev):+.4f}")

    def report(self) -> None:
        t = self.table
        rnd = t.last_round
        settled = t.last_settlement
        assert rnd is not None
        assert settled is not None
        result = t.last_result()
        self.rounds += 1
        if self.json:
            print_json_line({**round_report(rnd, result), "balance": self.chips().minor})
        else:
            print_report(rnd, result)
        for r in settled.resets:
            before, after = r["before"], r["after"]
            self.say(
                f"The dealer re-set seat {r['seat']} ({self.reg.rule('TW-6b')}): "
                f"{' '.join(before[0])} / {' '.join(before[1])} → "
                f"{' '.join(after[0])} / {' '.join(after[1])}."
            )
        offer = t.bank_candidate()
        if t.banker != "house" and offer == t.banker_seat:
            self.say(f"{'You keep' if t.banker == self.name else t.banker + ' may keep'} the bank.")
        elif offer is not None:
            nxt = self.people.get(offer, "?")
            whose = "yours" if nxt == self.name else f"{nxt}'s"
            self.say(f"The bank passes to seat {offer} ({whose}) ({self.reg.rule('PG-4.1')}).")
        self.say(f"Your chips: {self.chips().format()}.")


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
        rnd, result = settled_round(settle_facts(load_facts(round_file, game)))
        if json:
            print_json(round_report(rnd, result))
        else:
            print_report(rnd, result)

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
                        "allowed": o.allowed,  # TW-6b: a setting the player may keep
                        "dealer_resets_to": None
                        if o.reset_to is None
                        else {
                            "front": [str(t) for t in o.reset_to.front.tiles],
                            "back": [str(t) for t in o.reset_to.back.tiles],
                        },
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
                "best" if i == 1 else str(i) if o.allowed else "re-set",
                _tiles_label(list(o.setting.front.tiles)),
                _tiles_label(list(o.setting.back.tiles)),
                f"{percent(o.ev, 3)}",
                percent(o.p_win, 2),
                percent(o.p_loss, 2),
                percent(o.p_push, 2),
            )
        console.print(table)
        total = options[0].total
        for o in options:
            if o.reset_to is not None:
                console.print(
                    f"TW-6b: {_setting_label(o.setting)} is not allowed (the back is not the "
                    f"highest): the dealer re-sets it to {_setting_label(o.reset_to)}; "
                    "its line shows the re-set.",
                    markup=False,
                )
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
        places: Annotated[
            int, typer.Option("--places", help="Places dealt: 8 (Taiwan: 8 or 4, TW-2d).")
        ] = 8,
        journal: Annotated[
            Path | None,
            typer.Option(
                "--journal",
                help="Write the table's journal event by event: an existing folder (a new "
                "file inside it) or a new file whose folder exists.",
            ),
        ] = None,
        json: Annotated[
            bool, typer.Option("--json", help="One JSON report per round, one a line (JSON Lines).")
        ] = False,
    ) -> None:
        """Play a table in the terminal: bet on your seat, set your tiles, bank in turn."""
        rules = TileTableRules(game=game, places=places)  # type: ignore[arg-type]
        if not 1 <= seat <= places:
            raise InvalidInput(f"your seat is 1 to {places}")
        check_name(name, "--name")
        if name in BOTS or name in ("house", "dealer"):
            raise InvalidInput(
                f"{name!r} is a computer player's or the table's name: choose another"
            )
        money = Money.parse(bankroll)
        if not money.is_positive():
            raise InvalidInput("--bankroll must be positive")
        target = journal_target(journal, game)
        TileSession(rules, seed, money, name, seat, json, target).play()
