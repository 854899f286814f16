"""The facts of a Pai Gow / Taiwan round, as `paigow settle` and `taiwan settle` read them.

A supervisor recomputes a disputed round from its facts, so the settlement uses nothing the
file does not state. The file is checked against :class:`RoundFacts` (pydantic, strict
JSON: a number is not a string, a list is not an object) before anything is computed:

- every key is known: a typo such as ``"setings"`` is an error that names it;
- stated, always: ``banker_seat``, ``banker_capital``, ``bets``, ``dice``, ``settings``, and
  the tiles — ``tiles`` (the four tiles of every seat in play: the banker's and each seat
  with a bet) or ``woodpile`` (all 32 in stack order);
- ``settings`` gives the front (two of its tiles) of every seat in play, or ``"house-way"``
  where the dealer set that seat by the house way; a setting for a seat that is not in play
  is an error;
- derived, and only these: the tiles of seats not in play when ``tiles`` is given (the rest
  of the set: they enter no settlement); and the defaults ``game`` (the command's),
  ``banker`` (``"banker"``), ``house_capital`` (0), ``places`` (8), ``options`` (the
  Readings, ``RoundOptions``), ``cobankers`` (none) and ``exposed`` (none).

Any error is one line naming the key, e.g. ``round.json: bets[0][2]: an amount is …``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Literal

import pydantic

from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import JsonValue
from macau_tables.core.money import Money
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import TileTable
from macau_tables.games.tiles.facts import actor_of, dealt_table
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import RoundOptions
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import Tile, parse_tiles
from macau_tables.tiles.strategies import strategy

REGULATIONS = {"paigow": PAIGOW, "taiwan": TAIWAN}
HOUSE_WAY: Literal["house-way"] = "house-way"


def _amount(value: object) -> Money:
    """Patacas: a whole number (100) or a string ("100", "12.50", "MOP 12.50")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return Money.of(value)
    if isinstance(value, str):
        return Money.parse(value)
    raise ValueError("an amount is a whole number of patacas or a string such as '12.50'")


def _tiles(value: object, count: int) -> tuple[Tile, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f'a list of {count} tiles written as text, e.g. "6-6"')
    tiles = parse_tiles(value)
    if len(tiles) != count:
        raise ValueError(f"{count} tiles, not {len(tiles)}")
    return tiles


def _setting(value: object) -> tuple[Tile, ...] | Literal["house-way"]:
    if value == HOUSE_WAY:
        return HOUSE_WAY
    if not isinstance(value, list):
        raise ValueError(f'the front as two tiles, e.g. ["1-3", "3-3"], or "{HOUSE_WAY}"')
    return _tiles(value, 2)


Amount = Annotated[Money, pydantic.PlainValidator(_amount)]
Seat = Annotated[int, pydantic.Field(ge=1, le=8)]
SeatKey = Annotated[str, pydantic.Field(pattern=r"^[1-8]$")]
Die = Annotated[int, pydantic.Field(ge=1, le=6)]
Hand = Annotated[tuple[Tile, ...], pydantic.PlainValidator(lambda v: _tiles(v, 4))]
Pile = Annotated[tuple[Tile, ...], pydantic.PlainValidator(lambda v: _tiles(v, 32))]
Front = Annotated[tuple[Tile, ...] | Literal["house-way"], pydantic.PlainValidator(_setting)]


class RoundFacts(pydantic.BaseModel):
    """One round's facts (docs/paigow.md, "Settling a round from its facts")."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True, frozen=True)

    game: Literal["paigow", "taiwan"] | None = None
    banker: str = "banker"
    banker_seat: Seat
    banker_capital: Amount
    house_capital: Amount = Money.zero()
    places: int = 8
    options: RoundOptions = RoundOptions()
    cobankers: list[tuple[str, Amount]] = []
    bets: list[tuple[str, Seat, Amount]]
    dice: tuple[Die, Die, Die, Die]
    tiles: dict[SeatKey, Hand] | None = None
    woodpile: Pile | None = None
    settings: dict[SeatKey, Front]
    exposed: list[tuple[Seat, int]] = []

    @pydantic.model_validator(mode="after")
    def _one_source_of_tiles(self) -> RoundFacts:
        if (self.tiles is None) == (self.woodpile is None):
            raise ValueError('give the tiles: either "tiles" (seat: four tiles) or "woodpile"')
        return self


def _where(loc: tuple[int | str, ...]) -> str:
    """``("bets", 0, 2)`` as ``bets[0][2]``; a key that is not a plain word is quoted."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part in ("function-plain", "function-after", "[key]"):
            continue
        elif re.fullmatch(r"[\w-]+", part):
            text += f".{part}" if text else part
        else:
            text += f"[{json.dumps(part, ensure_ascii=False)}]"
    return text


def _one_line(exc: pydantic.ValidationError) -> str:
    first = exc.errors()[0]
    where = _where(first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden" or kind == "unexpected_keyword_argument":
        return f"unknown key {where!r}"
    if kind == "missing":
        return f"missing {where!r}"
    if kind == "model_type":
        return "a round's facts are a JSON object {...} (docs/paigow.md)"
    message = str(first["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    message = message[:1].lower() + message[1:]
    return f"{where}: {message}" if where else message


def load_facts(path: Path, game: str) -> RoundFacts:
    """Read and check a round file for ``game``; any problem is one InvalidInput line."""
    text = path.read_text(encoding="utf-8")
    try:
        facts = RoundFacts.model_validate_json(text)
    except pydantic.ValidationError as exc:
        raise InvalidInput(f"{path}: {_one_line(exc)}") from None
    if facts.game is not None and facts.game != game:
        raise InvalidInput(f"{path} is a {facts.game} round, not {game}")
    return facts.model_copy(update={"game": game})


def settle_facts(facts: RoundFacts) -> TileTable:
    """Recompute a round from its facts (see docs/paigow.md, "Settling a round"): the round
    played at a tile table (:func:`~macau_tables.games.tiles.facts.dealt_table`), each seat in
    play set as stated, the banker last, the dealer settling — the table settled, or its
    deal void (PG-2.3 / PG-R3)."""
    game = facts.game or "paigow"
    reg = REGULATIONS[game]
    in_play = {facts.banker_seat} | {seat for _, seat, _ in facts.bets}
    hands: dict[int, tuple[Tile, ...]] | None = None
    if facts.tiles is not None:
        hands = {int(seat): tiles for seat, tiles in facts.tiles.items()}
        missing = sorted(in_play - set(hands))
        if missing:
            raise InvalidInput(
                f"tiles: seat {missing[0]} is in play but its four tiles are not stated "
                '(list them under "tiles", or give the whole "woodpile")'
            )
    table = dealt_table(
        game,
        banker=facts.banker,
        banker_seat=facts.banker_seat,
        capital=facts.banker_capital,
        house_capital=facts.house_capital,
        places=facts.places,
        options=facts.options,
        cobankers=facts.cobankers,
        bets=facts.bets,
        dice=facts.dice,
        hands=hands,
        woodpile=facts.woodpile,
        exposed=facts.exposed,
    )
    rnd = table.round
    assert rnd is not None
    if rnd.deal_void:
        return table  # PG-R3: the deal was void
    given = {int(seat): front for seat, front in facts.settings.items()}
    setting_seats = [*rnd.active_seats(), rnd.banker_seat]
    for seat in setting_seats:
        if seat not in given:
            raise InvalidInput(
                f"settings: seat {seat} is in play but its setting is not stated "
                f'(its front, two tiles, or "{HOUSE_WAY}")'
            )
    for seat in sorted(set(given) - set(setting_seats)):
        raise InvalidInput(f"settings: seat {seat} is not in play (no bet, not the bank)")
    way = strategy(HOUSE_WAY)

    def front(seat: int) -> list[JsonValue]:
        stated = given[seat]
        if isinstance(stated, str):  # "house-way"
            stated = way.choose(rnd.hands[seat], reg.tiles).front.tiles
        return [str(t) for t in stated]

    holders = rnd.holders()
    for seat in rnd.active_seats():
        who = actor_of(holders[seat])
        table.execute(Command(who, "set_tiles", {"seat": seat, "front": front(seat)}))
    banker: dict[str, JsonValue] = {"seat": rnd.banker_seat, "front": front(rnd.banker_seat)}
    table.execute(Command(actor_of(rnd.banker_authority()), "set_tiles", banker))
    table.execute(Command(Actor.DEALER, "settle", {}))
    return table
