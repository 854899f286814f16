"""`macau-tables tiles …`: the 32 tiles, two-tile hands and settings (T-1 … T-4)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from macau_tables.cli.common import console, handle_errors, print_json
from macau_tables.core.errors import InvalidInput
from macau_tables.tiles import Hand, Setting, parse_tiles, ranking, settings, tile_rules
from macau_tables.tiles.hands import HandValue, rank_of

tiles_app = typer.Typer(
    help="The 32 Pai Gow tiles: ranking of two-tile hands, a hand's value, the settings.",
    epilog="Example: macau-tables tiles hand 6-6 4-5"
    "  ·  macau-tables tiles settings 6-6 4-5 2-4 1-2"
    "  ·  macau-tables tiles ranking --rules tw1990 --json",
    no_args_is_help=True,
)

RulesOpt = Annotated[
    str, typer.Option("--rules", "-r", help="Rule set: pg1985 (Pai Gow) or tw1990 (Taiwan).")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
TilesArg = Annotated[
    list[str], typer.Argument(help="Tiles in pips (6-6) or by name (天, Teen, Gee Joon 6).")
]


def _pips_sorted(hand: Hand) -> list[str]:
    return sorted(str(t) for t in hand.tiles)


def hand_json(hand: Hand) -> dict[str, Any]:
    """A hand as JSON: tiles (pips, ascending), rank, category, points, names, best tile."""
    value: HandValue = hand.value
    return {
        "tiles": _pips_sorted(hand),
        "rank": hand.rank,
        "category": value.category.value,
        "points": value.points,
        "name": value.name,
        "english": value.english,
        "best": str(value.best),
    }


def _tile_cell(hand: Hand) -> str:
    return "  ".join(t.label() for t in hand.tiles)


@tiles_app.command("ranking", epilog="Example: macau-tables tiles ranking --rules tw1990 --json")
@handle_errors
def ranking_cmd(rules: RulesOpt = "pg1985", json: JsonOpt = False) -> None:
    """All 496 two-tile hands, best first; equal hands share a rank (T-2)."""
    r = tile_rules(rules)
    hands = [Hand(h.tiles[0], h.tiles[1], r) for h in ranking(r)]
    if json:
        print_json([hand_json(h) for h in hands])
        return
    table = Table(title=f"Two-tile hands, {r.title} ({r.name})")
    for col in ("rank", "tiles", "name", "category", "points"):
        table.add_column(col, justify="right" if col in ("rank", "points") else "left")
    for h in hands:
        v = h.value
        table.add_row(
            str(h.rank),
            _tile_cell(h),
            f"{v.name} ({v.english})",
            v.category.value,
            "" if v.points is None else str(v.points),
        )
    console.print(table)


@tiles_app.command("hand", epilog="Example: macau-tables tiles hand 6-6 4-5 --rules pg1985")
@handle_errors
def hand_cmd(tiles: TilesArg, rules: RulesOpt = "pg1985", json: JsonOpt = False) -> None:
    """The value of a two-tile hand: category, points, best tile and rank (T-2)."""
    parsed = parse_tiles(tiles)
    hand = Hand.of(parsed, rules)
    if json:
        print_json(hand_json(hand))
        return
    v = hand.value
    points = "" if v.points is None else f", {v.points} points"
    console.print(
        f"{_tile_cell(hand)}: [bold]{v.name}[/bold] ({v.english}) — {v.category.value}"
        f"{points}, rank {hand.rank} under {hand.rules.name}"
    )


def setting_json(setting: Setting) -> dict[str, Any]:
    return {"front": hand_json(setting.front), "back": hand_json(setting.back)}


@tiles_app.command(
    "settings", epilog="Example: macau-tables tiles settings 6-6 4-5 2-4 1-2 --rules pg1985"
)
@handle_errors
def settings_cmd(tiles: TilesArg, rules: RulesOpt = "pg1985", json: JsonOpt = False) -> None:
    """The three ways to set four tiles, each as front (lower) and back (higher) (T-4)."""
    parsed = parse_tiles(tiles)
    if len(parsed) != 4:
        raise InvalidInput(f"give four tiles, not {len(parsed)}", rule="T-4")
    result = settings(parsed, rules)
    if json:
        print_json([setting_json(s) for s in result])
        return
    r = tile_rules(rules)
    table = Table(title=f"Settings of {' '.join(str(t) for t in parsed)} ({r.name})")
    for col in ("#", "front", "front rank", "back", "back rank"):
        table.add_column(col)
    for i, s in enumerate(result, start=1):
        table.add_row(
            str(i),
            f"{_tile_cell(s.front)}  {s.front.value.name}",
            str(rank_of(s.front.value, r)),
            f"{_tile_cell(s.back)}  {s.back.value.name}",
            str(rank_of(s.back.value, r)),
        )
    console.print(table)


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `tiles` to the main app."""
    del play_app
    app.add_typer(tiles_app, name="tiles")
