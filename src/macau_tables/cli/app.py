"""The `macau-tables` command: a thin layer that parses, calls the library and renders.

Start-up is kept short (``macau-tables --help`` well under a quarter of a second): the
command modules are imported lazily, only when their command runs or shows its own
``--help``, and help pages are plain text (Rich's help panels cost 0.1 s of imports).
The command lists below name each command with the one-line help that the group pages
show; a test checks that line against the command's own help. A new command module adds
its command names to TOP_COMMANDS (or PLAY_COMMANDS): nothing else imports it.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any, ClassVar

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup, TyperOption

EXAMPLES = """Examples:

\b
  macau-tables play                          a game, chosen from a menu
  macau-tables par baccarat --decks 8        the exact house edge of every bet
  macau-tables paigow hint 6-6 4-5 2-4 1-2   the three settings with their exact EV
  macau-tables simulate craps --seed 7       a million rolls against the exact PAR
  macau-tables verify round.json --head HEAD_HASH   check a table's journal
  macau-tables COMMAND --help                each command's options and examples"""

# name -> (module under macau_tables.cli, one-line help shown in the command list).
# A module's ``register(app, play_app)`` adds its commands to both; the lists say which
# module to import for which name, so that nothing is imported before it is needed.
TOP_COMMANDS: dict[str, tuple[str, str]] = {
    "verify": (
        "verify",
        "Check a journal's hash chain and server seeds, then replay it through the rules.",
    ),
    "tiles": (
        "tiles",
        "The 32 Pai Gow tiles: ranking of two-tile hands, a hand's value, the settings.",
    ),
    "baccarat": ("baccarat", "Baccarat (百家樂) tools: the road maps of a shoe."),
    "paigow": ("paigow", "Pai Gow, Portaria 96/85/M: supervisor tools."),
    "taiwan": ("paigow", "Taiwan Pai Kao, Portaria 15/90/M: supervisor tools."),
    "par": (
        "par",
        "Exact PAR sheets: every bet's probabilities, house edge and standard deviation.",
    ),
    "simulate": (
        "simulate",
        "Monte Carlo simulation checked against the exact PAR sheets; player sessions with "
        "betting systems (flat, Martingale, Paroli, D'Alembert, Fibonacci).",
    ),
    "serve": (
        "server",
        "Run the live tables: FastAPI on uvicorn, on SQLite (default) or PostgreSQL.",
    ),
    "db": ("server", "The server's database (SQLite file or PostgreSQL)."),
    "bots": (
        "server",
        "Bot players at every table of the server, playing with the engines' strategies.",
    ),
    "rng": (
        "rng",
        "The production random generator's raw bytes, for statistical test batteries.",
    ),
    "warm": (
        "warm",
        "Build every lookup table and compile every numba kernel once.",
    ),
}
PLAY_COMMANDS: dict[str, tuple[str, str]] = {
    "baccarat": (
        "baccarat",
        "Sit at a baccarat table (Macau statutory rules) and play in the terminal.",
    ),
    "craps": (
        "craps",
        "Play craps (Portaria 97/85/M) at a prompt: place bets, roll, see every payout.",
    ),
    "paigow": (
        "paigow",
        "Play a table in the terminal: bet on your seat, set your tiles, bank in turn.",
    ),
    "taiwan": (
        "paigow",
        "Play a table in the terminal: bet on your seat, set your tiles, bank in turn.",
    ),
}


def _examples(epilog: str) -> str:
    """``Example: a  ·  b`` as one example a line, never re-wrapped (click's ``\\b``), so
    that each can be copied as it is."""
    if not epilog.startswith("Example: "):
        return epilog
    lines = epilog.removeprefix("Example: ").split("  ·  ")
    return "\b\n" + "\n".join(f"Example: {line}" for line in lines)


def _tidy(command: Any, ctx: Any) -> None:
    """Help pages as a user reads them: flags without Typer's ``<bool>`` type column, and
    examples one a line. Applied to a command and everything under it."""
    params = list(command.params)
    help_option = command.get_help_option(ctx)
    if help_option is not None:
        params.append(help_option)
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    if command.epilog:
        command.epilog = _examples(command.epilog)
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            _tidy(sub, ctx)


class _LazyGroup(TyperGroup):
    """A group whose commands live in modules imported on first use."""

    lazy: ClassVar[dict[str, tuple[str, str]]] = {}
    play: ClassVar[bool] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        eager = [name for name in self.commands if name not in self.lazy]
        return [*eager, *self.lazy]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        if cmd_name not in self.lazy:
            return None
        module_name, short_help = self.lazy[cmd_name]
        if self._listing:  # the command list of a help page: no import needed
            return TyperCommand(name=cmd_name, help=short_help)
        self._load(module_name, ctx)
        return self.commands.get(cmd_name)

    def _load(self, module_name: str, ctx: Any) -> None:
        module = importlib.import_module(f"macau_tables.cli.{module_name}")
        top, play = typer.Typer(rich_markup_mode=None), typer.Typer(rich_markup_mode=None)
        module.register(top, play)
        mine = play if self.play else top
        if not (mine.registered_commands or mine.registered_groups):
            return
        group = typer.main.get_group(mine)
        assert isinstance(group, TyperGroup)
        for name, command in group.commands.items():
            _tidy(command, ctx)
            self.commands.setdefault(name, command)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _tidy(self, ctx)
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


class _TopGroup(_LazyGroup):
    lazy = TOP_COMMANDS


class _PlayGroup(_LazyGroup):
    lazy = PLAY_COMMANDS
    play = True


app = typer.Typer(
    name="macau-tables",
    cls=_TopGroup,
    help="Macau's statutory table games: Pai Gow, Taiwan Pai Kao, Craps and Baccarat.",
    epilog=EXAMPLES,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help: no Rich import at start-up, never cut when piped
    pretty_exceptions_enable=False,
)
play_app = typer.Typer(cls=_PlayGroup, help="Play a table in the terminal.", rich_markup_mode=None)
app.add_typer(play_app, name="play")


def _print_version(value: bool) -> None:
    if value:
        from macau_tables import __version__

        typer.echo(f"macau-tables {__version__}")
        raise typer.Exit


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Macau's statutory table games: Pai Gow, Taiwan Pai Kao, Craps and Baccarat."""


@play_app.callback(
    invoke_without_command=True,
    epilog="Example: macau-tables play  (a menu)  ·  macau-tables play craps --seed 42",
)
def play_menu(ctx: typer.Context) -> None:
    """Play a table in the terminal; without a game name, choose one from a menu.

    A name that is not a game asks again; leaving a game (q) comes back to the menu.
    """
    if ctx.invoked_subcommand is not None:
        return
    group = ctx.command
    assert isinstance(group, TyperGroup)
    names = sorted(PLAY_COMMANDS)
    while True:
        for i, name in enumerate(names, start=1):
            typer.echo(f"  {i}. {name:<9} {PLAY_COMMANDS[name][1]}")
        choice = _ask_game(names)
        if choice is None:
            return
        command = group.get_command(ctx, choice)
        assert command is not None
        try:
            with command.make_context(choice, [], parent=ctx) as sub:
                command.invoke(sub)
        except typer.Exit as stop:
            if stop.exit_code not in (0, None):
                raise
        typer.echo("")


def _ask_game(names: list[str]) -> str | None:
    """The game chosen by number or name; None to quit. Anything else asks again."""
    while True:
        try:
            answer: str = typer.prompt("Which game? (number or name, q to quit)", default="q")
        except typer.Abort:
            return None
        choice = answer.strip().lower()
        if choice in ("q", "quit", "exit"):
            return None
        if choice.isdigit() and 1 <= int(choice) <= len(names):
            return names[int(choice) - 1]
        if choice in names:
            return choice
        typer.echo(
            f"no game {choice!r}; type a number 1-{len(names)} or a name: " + ", ".join(names)
        )


def main() -> None:
    """Console-script entry point."""
    app()
