"""The `macau-tables` command: a thin layer that parses, calls the library and renders."""

from __future__ import annotations

import typer
from typer.core import TyperGroup

app = typer.Typer(
    name="macau-tables",
    help="Macau's statutory table games: Pai Gow, Taiwan Pai Kao, Craps and Baccarat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a table in the terminal.")
app.add_typer(play_app, name="play")


@play_app.callback(
    invoke_without_command=True,
    epilog="Example: macau-tables play  (a menu)  ·  macau-tables play craps --seed 42",
)
def play_menu(ctx: typer.Context) -> None:
    """Play a table in the terminal; without a game name, choose one from a menu."""
    if ctx.invoked_subcommand is not None:
        return
    group = ctx.command
    assert isinstance(group, TyperGroup)
    names = sorted(group.list_commands(ctx))
    for i, name in enumerate(names, start=1):
        cmd = group.get_command(ctx, name)
        typer.echo(f"  {i}. {name:<9} {cmd.get_short_help_str(60) if cmd else ''}")
    choice = typer.prompt("Which game? (number or name, q to quit)", default="q").strip()
    if choice.lower() in ("q", "quit"):
        return
    if choice.isdigit() and 1 <= int(choice) <= len(names):
        choice = names[int(choice) - 1]
    command = group.get_command(ctx, choice)
    if command is None:
        typer.echo(f"error: no game {choice!r}; choose one of {', '.join(names)}", err=True)
        raise typer.Exit(2)
    with command.make_context(choice, [], parent=ctx) as sub:
        command.invoke(sub)


def _register() -> None:
    # Each command module adds its commands; keep one line per module here.
    # --- command modules (add yours below this line) ---
    from macau_tables.cli import tiles as _tiles

    _tiles.register(app, play_app)
    from macau_tables.cli import verify as _verify

    _verify.register(app, play_app)
    from macau_tables.cli import craps as _craps

    _craps.register(app, play_app)
    from macau_tables.cli import baccarat as _baccarat

    _baccarat.register(app, play_app)
    from macau_tables.cli import paigow as _paigow

    _paigow.register(app, play_app)
    from macau_tables.cli import par as _par

    _par.register(app, play_app)
    from macau_tables.cli import simulate as _simulate

    _simulate.register(app, play_app)
    from macau_tables.cli import server as _server

    _server.register(app, play_app)


_register()


def main() -> None:
    """Console-script entry point."""
    app()
