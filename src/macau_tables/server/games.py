"""The games a server can run: game name → how to open its table engine.

A :class:`GameBinding` is all the server knows about a game: how to create a new table
(``create(table_id, options)``), how to open one from its journal for
:func:`macau_tables.games.contract.replay` (``open(journal, seeds)``), and which operations
take a server seed (``seed_ops``: the server draws ``new_server_seed()`` for them, keeps it
secret until the engine reveals it). Everything else goes through the contract
(``pending``, ``execute``, ``view``, ``apply``, ``command_of``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import Journal
from macau_tables.games.contract import TableEngine

__all__ = ["GameBinding", "binding", "games", "load_builtin_games", "register_game"]


@dataclass(frozen=True)
class GameBinding:
    """How the server opens one game's tables (see the module docstring)."""

    name: str
    create: Callable[[str, Mapping[str, Any]], TableEngine]
    open: Callable[[Journal, Mapping[str, bytes]], TableEngine]
    seed_ops: frozenset[str] = frozenset()
    demo_options: Mapping[str, Any] = field(default_factory=dict)
    title: str = ""
    #: the dealer's defaults the clock applies through ``contract.time_out`` (they need
    #: arguments only the rules' default supplies, e.g. the house way for the house's tiles)
    timeout_ops: frozenset[str] = frozenset()
    #: nobody at the table and nothing in play: the clock waits instead of dealing
    idle: Callable[[TableEngine], bool] = lambda engine: False
    #: for engines that draw a server seed themselves from the ``Rng`` the server passes
    #: (craps: a new shooter's), the seed behind a commitment it just published
    secret_seed: Callable[[TableEngine, str], bytes | None] | None = None
    #: operations and arguments that key in a chance outcome (dice, a shoe): refused at
    #: auto-dealt tables, whose outcomes come from the server's RNG (key-in belongs to
    #: dealer-operated tables)
    keyin_ops: frozenset[str] = frozenset()
    keyin_args: frozenset[str] = frozenset()
    #: the rule-set option in which the engine keeps whether its table is auto-dealt or
    #: dealer-operated, for a game whose rules depend on it (craps: ``dealer``, CR-R1's one
    #: source of results per table); the server writes the table's ``dealer`` into it
    dealer_option: str | None = None
    #: an engine from a snapshot (``contract.Checkpoint``): ``restore(state, journal,
    #: seeds, window)`` — the state encoded, an empty journal resumed after it, the seeds,
    #: and the entries it will replay; None for a game without snapshots
    restore: Callable[[Any, Journal, Mapping[str, bytes], Journal], TableEngine] | None = None


_GAMES: dict[str, GameBinding] = {}


def register_game(game: GameBinding) -> GameBinding:
    """Make ``game`` available to the server (a later registration replaces it)."""
    _GAMES[game.name] = game
    return game


def games() -> dict[str, GameBinding]:
    """The games registered, by name."""
    load_builtin_games()
    return dict(_GAMES)


def binding(name: str) -> GameBinding:
    """The game called ``name``; :class:`InvalidInput` if the server does not run it."""
    found = games().get(name)
    if found is None:
        raise InvalidInput(f"unknown game {name!r}: this server runs {sorted(_GAMES)}")
    return found


#: Modules that bind a game engine to the server, once the engine implements the table
#: contract (each defines ``BINDING``); a module that is missing or not ready is skipped.
BUILTIN = (
    "macau_tables.server.bindings.craps",
    "macau_tables.server.bindings.baccarat",
    "macau_tables.server.bindings.paigow",
    "macau_tables.server.bindings.taiwan",
)
_loaded = False


def load_builtin_games() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in BUILTIN:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        found = getattr(mod, "BINDING", None)
        if isinstance(found, GameBinding):
            register_game(found)
