"""macau-tables: the reference implementation of Macau's statutory table games."""

__version__ = "0.6.0"
