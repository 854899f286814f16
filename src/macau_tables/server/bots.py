"""Bot players (``macau-tables bots``): filled in below."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class BotReport:
    commands: int = 0

    def summary(self) -> str:
        return f"{self.commands} commands"


def run_bots(
    url: str, players: int, seconds: float, supervisor: str, cashier: str, seed: str
) -> BotReport:
    raise NotImplementedError
