"""The HTTP and WebSocket API, one router a concern, each included once by
``server.app.create_app``: ``auth`` (logins, sessions), ``floor`` (health, the server's own
figures, the schemas), ``tables`` (the tables and their commands), ``cashier`` (wallets and
the cage's deposits and withdrawals), ``people`` (accounts), ``audit``, ``socket`` (a
table's live feed), ``supervisor``, ``controls``, ``meters``, ``dealer``, ``recall``. What
the routes share — the caller, the permission, the Idempotency-Key — is ``deps``."""
