"""The `macau-tables` command: a thin layer that parses, calls the library and renders."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="macau-tables",
    help="Macau's statutory table games: Pai Gow, Taiwan Pai Kao, Craps and Baccarat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(help="Play a table in the terminal.", no_args_is_help=True)
app.add_typer(play_app, name="play")


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


_register()


def main() -> None:
    """Console-script entry point."""
    app()
