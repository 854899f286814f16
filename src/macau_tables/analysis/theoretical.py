"""The house's theoretical win at a live table: the bets its journal decided, each priced by
the exact PAR sheet of the table's rule set.

*Theoretical win* = Σ over the bets decided of (stake in action × that bet's house edge under
the table's rules), the edge being the house's expected win per unit staked
(:attr:`macau_tables.analysis.par.BetLine.house_edge`, an exact fraction):

* **Baccarat** (:func:`~macau_tables.analysis.baccarat.baccarat_par` of the table's
  :class:`~macau_tables.games.baccarat.BaccaratRules`: decks, commission or BA-R7
  no-commission): every bet row of a settled hand, a Banker or Player bet pushed by a tie
  included (the PAR's edge is per hand, ties counted as pushes, BA-12).
* **Craps** (:func:`~macau_tables.analysis.craps.craps_par` of the table's pay table): each
  bet when it is resolved (win, lose or push — the PAR's "per bet resolved" convention),
  priced from placement: a Come bet moved to 6 is the "Come" line, the odds on it
  "Come odds on 6".
* **Pai Gow / Taiwan Pai Kao** (:func:`~macau_tables.analysis.tiles.paigow_par` /
  :func:`~macau_tables.analysis.tiles.taiwan_par`, both sides by the house way; Taiwan's
  players forced by TW-R1): the players bank, or the house does (PG-R6 gap fill). When the
  **house banks**, its theoretical is the player's edge (commission included) on every bet's
  amount *in action*. When **a player banks**, the house takes no side: its theoretical is the
  **commission** it expects — ``c·P(win)`` from the player's wins (PG-4.2, TW-8) and
  ``c·P(loss)`` from the bank's, per unit in action — plus, when it co-banks (PG-3.1 / TW-5e)
  a share ``f`` of the bank, ``f`` of the bank's result before commission instead of
  ``f`` of the bank's commission. Exact for a round with one bet; the bank's commission on a
  round's net win over several seats (PG-R5) is at most that, so the figure is then an upper
  bound.

The PAR sheets take from milliseconds (craps) to seconds (a fresh baccarat shoe, the tile
tables' counts; ``analysis.tablecache`` keeps them on disk): :func:`edges` caches each rule
set's prices in the process. The tile sheets need numpy (the ``fast`` extra); without it
:func:`edges` raises :class:`Unavailable` with the reason — the meters then say so.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.journal import Event
from macau_tables.core.ledger import movement_of
from macau_tables.games import baccarat as ba
from macau_tables.games import craps as cr
from macau_tables.games import tiles as tt
from macau_tables.games.tiles.rounds import HOUSE

__all__ = [
    "CONTEXT_START",
    "KINDS",
    "Edges",
    "Unavailable",
    "Wager",
    "decided_bets",
    "edges",
    "house_float",
]

#: tile lines: a bet against the house's bank, a bet against a player's bank
HOUSE_BANK = "bet against the house's bank"
PLAYER_BANK = "bet against a player's bank"
#: events before a gaming day that the day needs: the tile round open when it began — its
#: bank (and co-bankers) — read from the last :data:`CONTEXT_START` before the day on
CONTEXT_START = tt.BankOpened.kind
#: every kind :func:`decided_bets` and :func:`house_float` read
KINDS = frozenset(
    {
        ba.HandSettled.kind,
        cr.RollSettled.kind,
        tt.BankOpened.kind,
        tt.CoBankJoined.kind,
        tt.RoundSettled.kind,
    }
)


class Unavailable(MacauTablesError):
    """No theoretical for this table: why (a game without a PAR sheet, numpy missing)."""


@dataclass(frozen=True)
class Wager:
    """One bet decided: the PAR line that prices it, the amount in action, and (tile games,
    a player's bank) the house's co-bank share of that bank."""

    line: str
    stake: int
    house_share: Fraction = Fraction(0)


@dataclass(frozen=True)
class Edges:
    """The house's expected win per unit staked, per PAR line, for one rule set."""

    game: str
    source: str  # the PAR sheet, as the CLI names it
    lines: Mapping[str, Fraction]
    # tile games: the commission rate and the player's P(win), P(loss) (house way)
    commission: Fraction = Fraction(0)
    p_win: Fraction = Fraction(0)
    p_loss: Fraction = Fraction(0)
    notes: tuple[str, ...] = field(default=())

    def edge(self, wager: Wager) -> Fraction | None:
        """The house's edge on ``wager`` (None: no PAR line prices it)."""
        if wager.line == PLAYER_BANK:
            f, c = wager.house_share, self.commission
            return c * self.p_win + (1 - f) * c * self.p_loss + f * (self.p_loss - self.p_win)
        return self.lines.get(wager.line)


# --- the bets a journal decided ------------------------------------------------------------

_CRAPS_LABELS = frozenset(k.label for k in cr.BET_KINDS.values())
_POINT = re.compile(r"^(?P<base>.+) (?P<point>4|5|6|8|9|10)$")


def craps_line(label: str) -> str:
    """The PAR line of a craps bet as the engine labels it at settlement (``"Come 6"`` →
    ``"Come"``; ``"Pass Line odds 4"`` → ``"Pass Line odds on 4"``)."""
    m = _POINT.match(label)
    if m is None or label in _CRAPS_LABELS:  # "Big 6", "Hard 8" are bets of their own
        return label
    base = m["base"]
    return f"{base} on {m['point']}" if base.endswith("odds") else base


@dataclass
class _Context:
    house_banks: bool = False
    house_capital: int = 0
    capital: int = 0  # the bank's whole capital: banker, house, co-bankers

    @property
    def house_share(self) -> Fraction:
        """The house's share of a player's bank (PG-R4a proportional layer)."""
        if self.house_banks or not self.capital:
            return Fraction(0)
        return Fraction(self.house_capital, self.capital)


def decided_bets(events: Iterable[Event], context: Iterable[Event] = ()) -> list[Wager]:
    """The bets ``events`` decided, in order. ``context``: earlier events they need
    (from :data:`CONTEXT_START`: the bank of a tile round opened before the first event)."""
    ctx = _Context()
    out: list[Wager] = []
    for ev in (*context, *events):
        if isinstance(ev, tt.BankOpened):
            ctx.house_banks = ev.banker == HOUSE
            ctx.house_capital = ev.house_capital
            ctx.capital = ev.capital + ev.house_capital
        elif isinstance(ev, tt.CoBankJoined):
            ctx.capital += ev.capital
        elif isinstance(ev, tt.RoundSettled):
            for row in ev.results:
                action = int(row["action"])
                if action:
                    line = HOUSE_BANK if ctx.house_banks else PLAYER_BANK
                    out.append(Wager(line, action, ctx.house_share))
        elif isinstance(ev, ba.HandSettled):
            out.extend(Wager(str(s.kind), s.stake) for s in ev.settlements())
        elif isinstance(ev, cr.RollSettled):
            out.extend(Wager(craps_line(str(r["name"])), int(r["stake"])) for r in ev.results)
    return out


def house_float(events: Iterable[Event]) -> int:
    """The house's own capital in a tile table's bank after ``events`` (minor units): the
    whole bank when the house banks (PG-R6), its co-bank otherwise (PG-3.1 / TW-5e), while
    the round is open — from its ``bank_opened`` until a later event closes the bank's
    holds (the settlement, or a void). Chips on the table that are still the house's: the
    meters count them as the house's, not as a loss when a round straddles two days."""
    capital, hold = 0, ""
    for ev in events:
        if isinstance(ev, tt.BankOpened):
            capital = ev.capital if ev.banker == HOUSE else ev.house_capital
            hold = ev.holds[0] if ev.holds else ""
            continue
        if capital:
            mv = movement_of(ev)
            if mv is not None and hold in mv.closes:
                capital, hold = 0, ""
    return capital


# --- the prices of a rule set ---------------------------------------------------------------


def edges(game: str, rules: Mapping[str, Any]) -> Edges:
    """The edges of the table's rule set (``TableOpened.rules``), cached per rule set.

    Raises :class:`Unavailable` when there is no PAR sheet for the game or it cannot be
    computed here (the tile sheets need numpy: ``pip install 'macau-tables[fast]'``).
    """
    return _edges(game, json.dumps(dict(rules), sort_keys=True))


@functools.cache
def _edges(game: str, rules_json: str) -> Edges:
    rules = json.loads(rules_json)
    if game == "baccarat":
        return _baccarat(rules)
    if game == "craps":
        return _craps(rules)
    if game in ("paigow", "taiwan"):
        return _tiles(game)
    raise Unavailable(f"no PAR sheet for the game {game!r}")


def _baccarat(rules_json: Mapping[str, Any]) -> Edges:
    from macau_tables.analysis.baccarat import baccarat_par

    rules = ba.BaccaratRules.from_json(rules_json)
    try:
        sheet = baccarat_par(rules)
    except ImportError:  # no numba: the engine's own dealing, seconds per shoe
        sheet = baccarat_par(rules, method="readable")
    return Edges(
        "baccarat",
        f"macau-tables par baccarat --decks {rules.decks}"
        + (" --no-commission" if rules.no_commission else ""),
        {line.name: line.house_edge for line in sheet.lines},
    )


def _craps(rules_json: Mapping[str, Any]) -> Edges:
    from macau_tables.analysis.craps import craps_par

    sheet = craps_par(cr.CrapsRules.from_json(rules_json))
    return Edges("craps", "macau-tables par craps", {x.name: x.house_edge for x in sheet.lines})


def _tiles(game: str) -> Edges:
    try:
        from macau_tables.analysis import tiles
    except ImportError as exc:
        raise Unavailable(
            f"theoretical: unavailable (install macau-tables[fast]: {exc.name} is missing)"
        ) from exc
    sheet = tiles.paigow_par() if game == "paigow" else tiles.taiwan_par()
    (line,) = sheet.lines
    return Edges(
        game,
        f"macau-tables par {game}",
        {HOUSE_BANK: line.house_edge},
        commission=tiles.COMMISSION[game],
        p_win=line.extras["p_win"],
        p_loss=line.extras["p_loss"],
    )
