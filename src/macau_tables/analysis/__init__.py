"""Exact game mathematics and simulation (later issues)."""
