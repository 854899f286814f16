"""Bad commands never corrupt a table.

For each of the four tables, any operation with missing, mistyped or junk arguments, from
any actor, is either accepted or refused with a typed error of this package
(``MacauTablesError``: one line, the rule where there is one) — never a ``TypeError``,
``KeyError`` or other crash that would be a 500 in the server — and a refused command
leaves the table's journal exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import BaccaratTable
from macau_tables.games.contract import Actor, Command, TableEngine
from macau_tables.games.craps import CrapsTable
from macau_tables.games.tiles import TileTableRules, open_table

OPS = {
    "baccarat": (
        "sit", "buy_in", "leave", "shuffle", "load_shoe", "end_shoe", "cut", "burn",
        "place_bet", "change_bet", "withdraw_bet", "deal", "reveal", "expose_card",
        "correct_error", "void_hand", "time_out",
    ),
    "craps": (
        "sit", "buy_in", "leave", "place_bet", "increase_bet", "take_down", "throw",
        "throw_dice", "void_throw", "pass_dice", "time_out",
    ),
    "paigow": (
        "sit", "buy_in", "cash_out", "leave", "open_bank", "decline_bank", "house_banks",
        "shuffle", "join_bank", "place_bet", "rearrange", "shake", "report_exposed",
        "set_tiles", "settle", "time_out",
    ),
}  # fmt: skip
OPS["taiwan"] = OPS["paigow"]

KEYS = ("amount", "seat", "bet", "on", "bet_id", "dice", "cocked", "reason", "actor", "op",
        "seed", "new_set", "cards", "kind", "buy_in", "capital", "order", "tiles", "front",
        "side", "count", "x")  # fmt: skip

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4),
    max_leaves=6,
)
actors = st.sampled_from(
    [Actor.player("ann"), Actor.player("bob"), Actor.DEALER, Actor.SYSTEM,
     Actor.supervisor("sam")]
)  # fmt: skip

TABLES: dict[str, Callable[[], TableEngine]] = {
    "baccarat": lambda: BaccaratTable(table_id="t1"),
    "craps": lambda: CrapsTable(table_id="t1"),
    "paigow": lambda: open_table(TileTableRules(game="paigow"), "t1"),
    "taiwan": lambda: open_table(TileTableRules(game="taiwan"), "t1"),
}


def _warm_up(game: str, table: TableEngine) -> None:
    """Seat a player with chips, so later commands reach deeper checks."""
    first = {
        "baccarat": Command(Actor.player("ann"), "sit", {"amount": 100_000}),
        "craps": Command(Actor.player("ann"), "sit", {"amount": 100_000}),
    }.get(game, Command(Actor.player("ann"), "sit", {"seat": 2}))
    table.execute(first, Rng.seeded("warm"))


@settings(max_examples=300)
@given(
    game=st.sampled_from(sorted(TABLES)),
    warm=st.booleans(),
    commands=st.lists(
        st.tuples(actors, st.text(max_size=3) | st.sampled_from(sorted(set().union(*OPS.values()))),
                  st.dictionaries(st.sampled_from(KEYS), json_values, max_size=3)),
        min_size=1, max_size=6,
    ),
)  # fmt: skip
def test_bad_commands_are_typed_refusals_and_change_nothing(
    game: str, warm: bool, commands: list[tuple[Actor, str, dict[str, object]]]
) -> None:
    table = TABLES[game]()
    if warm:
        _warm_up(game, table)
    for actor, op, args in commands:
        before = table.journal.head
        try:
            table.execute(Command(actor, op, args), Rng.seeded("bad"))  # type: ignore[arg-type]
        except MacauTablesError:
            assert table.journal.head == before, f"{op} {args} was refused but changed the table"
