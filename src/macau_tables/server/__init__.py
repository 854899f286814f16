"""The table server: live tables of the four games on a double-entry ledger.

``macau-tables serve`` runs :func:`macau_tables.server.app.create_app` on uvicorn. The
server is a thin layer over the engines (STYLE §9): each table has one asyncio actor, the
only writer of its engine; a command is one database transaction holding its journal
entries, postings, holds and idempotency record. See docs/server.md.

Importing this package needs the ``server`` extra (FastAPI, SQLAlchemy, Alembic, …); the
engines and the CLI import without it.
"""
