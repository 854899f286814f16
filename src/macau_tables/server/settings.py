"""How a floor runs: ``serve``'s options as one value (server/floor.py's ``Floor`` takes
it; the table actors read their clocks' and checkpoints' settings from it)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Settings"]


@dataclass
class Settings:
    """How a floor runs (``serve``'s options; tests shorten the clocks)."""

    database_url: str | None = None
    token_seconds: int = 12 * 3600
    betting_seconds: float = 15.0
    action_seconds: float = 20.0
    dealer_seconds: float = 2.0
    demo: bool = True
    fast_passwords: bool = False
    clocks: bool = True
    demo_games: tuple[str, ...] | None = None  # None: one demo table of every game
    # gaming days (meters): they begin at this local time, at this UTC offset (Macau +8)
    gaming_day_start: str = "06:00"
    gaming_day_utc_offset_minutes: int = 480
    # several processes on one PostgreSQL (server/cluster.py): None = on for PostgreSQL
    cluster: bool | None = None
    internal_url: str | None = None  # where the other processes forward to this one
    lease_poll: float = 1.0  # seconds between two looks at the leases
    forward_wait: float = 15.0  # how long a forwarded request waits for a table's owner
    # a table's state is checkpointed (its snapshot stored) every so many journal entries;
    # it then starts from there, and its engine keeps about twice that many in memory
    # (docs/server.md, "Snapshots"); 0: never
    checkpoint_every: int = 1000
    # the chain of a table's entries before its snapshot, at its first load: "background"
    # (the table opens at once; a worker process checks it, and locks the table if it does
    # not verify) or "startup" (checked before the table opens); docs/server.md
    chain_check: str = "background"
    # an idempotency record is kept this many hours, then deleted (docs/server.md,
    # "Idempotency"); 0: kept for ever
    idempotency_hours: float = 24.0
