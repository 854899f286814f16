"""Core mechanics shared by every game: money, randomness, journal, ledger, errors."""
