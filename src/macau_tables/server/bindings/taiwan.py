"""Taiwan Pai Kao (台灣牌九) at the server."""

from macau_tables.server.bindings._tiles import binding

BINDING = binding("taiwan", "Taiwan Pai Kao (台灣牌九)")
