"""Run a real server process with a demo table of each of the four games (the crash
harness with snapshots).

``python -m tests.server.serve_games DB_URL PORT CHECKPOINT_EVERY``: prints the demo
credentials and the URL as ``macau-tables serve`` does; the clocks run short windows.
"""

from __future__ import annotations

import sys

from macau_tables.server.run import serve
from macau_tables.server.settings import Settings


def main() -> None:
    url, port, every = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    settings = Settings(
        database_url=url,
        betting_seconds=0.3,
        action_seconds=0.3,
        dealer_seconds=0.0,
        fast_passwords=True,
        checkpoint_every=every,
    )
    serve("127.0.0.1", port, url, settings=settings, log_level="warning")


if __name__ == "__main__":
    main()
