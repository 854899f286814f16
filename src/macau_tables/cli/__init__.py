"""The `macau-tables` command line."""
