"""A tile table's rules: the regulation it plays (Pai Gow or Taiwan Pai Kao), its places, the
round's options and the table's limits (:class:`TileTableRules`); the table's phases and a
settled bet's outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Literal

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    InvalidInput,
    RuleViolation,
)
from macau_tables.core.money import currency_by_code
from macau_tables.core.rng import Rng
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import (
    DEALER,
    HOUSE,
    Regulation,
    RoundOptions,
)
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import FULL_SET

__all__ = [
    "REGULATIONS",
    "RESERVED",
    "SUPERSEDED_CITATIONS",
    "BetOutcome",
    "SettledBet",
    "TilePhase",
    "TileTableRules",
    "WoodpileOrder",
    "woodpile_order",
]


#: this module was part of ``macau_tables.games.tiletable``: its classes keep the names its
#: snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")


REGULATIONS: dict[str, Regulation] = {"paigow": PAIGOW, "taiwan": TAIWAN}
RESERVED = (HOUSE, DEALER)  # names that are parties of the round, not players

#: the rule a time-out names now → the ones a journal written before named for the same
#: time-out: a replay keeps the recorded citation (the decision — who, which default — is
#: the same; the article named was corrected: a Pai Gow player's setting is PG-5.1, where
#: PG-R10 was cited, a banker's rule)
SUPERSEDED_CITATIONS: dict[str, frozenset[str]] = {"PG-5.1": frozenset({"PG-R10"})}


# --- the rules of a table ------------------------------------------------------------------


@dataclass(frozen=True)
class TileTableRules:
    """A tile table's rule set: the game, its places and the round options.

    - ``places``: PG-1.4 8; TW-2d / TW-3a 8 or 4 (the casino's choice, fixed per table here);
    - ``round``: the round's options (:class:`~macau_tables.games.tiles.rounds.RoundOptions`:
      settlement, house layer, bank commission, bind_banker, one_seat_per_holder, table
      limits);
    - ``house_capital``: PG-3.1 / TW-5e the casino's co-bank each round a player banks
      (minor units, 0 = none);
    - ``house_bank_capital``: the capital the house puts up when no seat takes the bank
      (PG-R6 gap fill; 0 = the house never banks and the table waits for a banker);
    - ``first_bank``: the seat offered the bank first when the table opens (PG-4.1 / TW-5a
      每門均得輪流做莊: the seats bank in turn; where the turn starts is the house's choice,
      seat 1 unless it says otherwise); the turn then goes round as PG-4.3 / PG-R6 say.
    """

    game: Literal["paigow", "taiwan"] = "paigow"
    places: int = 8
    round: RoundOptions = field(default_factory=RoundOptions)
    house_capital: int = 0
    house_bank_capital: int = 1_000_000
    currency: str = "MOP"
    first_bank: int = field(default=1, metadata=snapshot.OMIT_DEFAULT)

    KEYS: ClassVar[tuple[str, ...]] = (
        "game",
        "places",
        "round",
        "house_capital",
        "house_bank_capital",
        "currency",
    )

    def __post_init__(self) -> None:
        if self.game not in REGULATIONS:
            raise InvalidInput(f"a tile table plays paigow or taiwan, not {self.game!r}")
        reg = REGULATIONS[self.game]
        if self.places not in reg.places:
            raise RuleViolation(
                f"{reg.title} deals to {' or '.join(map(str, reg.places))} places, "
                f"not {self.places}",
                rule=reg.places_rule,
            )
        for name in ("house_capital", "house_bank_capital"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidInput(f"{name} is a whole number of avos >= 0, not {value!r}")
        currency_by_code(self.currency)
        first = self.first_bank
        if not isinstance(first, int) or isinstance(first, bool) or not 1 <= first <= self.places:
            raise InvalidInput(f"first_bank is a seat 1 to {self.places}, not {first!r}")

    @property
    def regulation(self) -> Regulation:
        return REGULATIONS[self.game]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "places": self.places,
            "round": self.round.to_json(),
            "house_capital": self.house_capital,
            "house_bank_capital": self.house_bank_capital,
            "currency": self.currency,
            # written only when set: the rules of the tables opened before stay as they were
            **({"first_bank": self.first_bank} if self.first_bank != 1 else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TileTableRules:
        """The rules :meth:`to_json` wrote; a missing or unknown key is an ``InvalidInput``."""
        if not isinstance(data, Mapping):
            raise InvalidInput("a tile table's rules are a JSON object")
        missing = [k for k in cls.KEYS if k not in data]
        extra = sorted(set(data) - {*cls.KEYS, "first_bank"})
        if missing or extra:
            raise InvalidInput(
                f"tile table rules: missing {missing or 'nothing'}, unknown {extra or 'nothing'}"
            )
        opts = data["round"]
        if not isinstance(opts, Mapping):
            raise InvalidInput("tile table rules: 'round' is an object of round options")
        try:
            options = RoundOptions.from_json(dict(opts))
        except TypeError as exc:
            raise InvalidInput(f"tile table rules: bad round options ({exc})") from exc
        places = data["places"]
        if not isinstance(places, int) or isinstance(places, bool):
            raise InvalidInput(f"places is 8 or 4, not {places!r}")
        return cls(
            game=data["game"],
            places=places,
            round=options,
            house_capital=data["house_capital"],
            house_bank_capital=data["house_bank_capital"],
            currency=str(data["currency"]),
            first_bank=data.get("first_bank", 1),
        )


class TilePhase(StrEnum):
    """Where a tile table is (see :meth:`TileTable.pending`)."""

    BANK = "bank"  # the seat whose turn it is opens the bank or declines (PG-4.3, PG-4.4)
    SHUFFLE = "shuffle"  # the dealer builds a woodpile (PG-1.1, TW-2a)
    BETTING = "betting"  # bets, co-bank, rearranging, then the banker's dice (PG-4.6, PG-2.1)
    SETTING = "setting"  # seats set, then the banker (PG-5.1, PG-8.1, TW-6a)
    SETTLE = "settle"  # the dealer turns the hands and settles (PG-8.3, TW-6b)


class BetOutcome(StrEnum):
    """A bet's result in a settlement (PG-6.3 / PG-6.4 / PG-4.5, TW-6c / TW-5c)."""

    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    NO_ACTION = "no_action"  # the bank's capital ran out, or the seat took no part (PG-2.3)


@dataclass(frozen=True)
class SettledBet:
    """One bet settled (a typed record of :class:`RoundSettled`'s ``results``)."""

    bet_id: str
    player: str
    seat: int
    amount: int
    outcome: BetOutcome
    action: int
    net: int
    commission: int
    seat_result: str  # "player", "banker", "push" or "seat_out"


@dataclass
class _Offer:
    """Whose turn it is to bank (PG-4.3, PG-R6): ``turn`` is the seat offered first;
    ``keep`` when that is the banker offered another round (PG-4.1, PG-4.9)."""

    turn: int = 1
    keep: bool = False
    floor: int = 0  # PG-4.9 / TW-5d / PG-R11: the capital left on the table
    rounds_held: int = 0
    declined: list[int] = field(default_factory=list)


WoodpileOrder = Callable[[bytes, str, str], Sequence[int]]


def woodpile_order(seed: bytes, table_id: str, label: str) -> tuple[int, ...]:
    """The woodpile's order (indices into ``FULL_SET``) from its seed: stack ``i`` is
    positions ``4i … 4i+3`` (PG-1.1, TW-2a)."""
    return Rng.for_event(seed, table_id, label).permutation(len(FULL_SET))
