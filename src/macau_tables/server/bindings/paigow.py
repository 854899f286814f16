"""Pai Gow (牌九) at the server."""

from macau_tables.server.bindings._tiles import binding

BINDING = binding("paigow", "Pai Gow (牌九)")
