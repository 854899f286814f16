"""One schema source: the migrations build exactly the tables, columns, types, keys and
indexes that server/schema.py declares (the Core tables every statement is built from),
on SQLite and on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

pytest.importorskip("alembic")

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from macau_tables.server import schema, store
from macau_tables.server.db import Database, upgrade


def differences(url: str, metadata: sa.MetaData) -> list[Any]:
    db = Database(url)
    dialect = "postgresql" if db.dialect == "postgresql" else "sqlite"

    def here(obj: Any, name: Any, kind: str, reflected: bool, compare_to: Any) -> bool:
        # an index the schema makes on one database only (its info["dialects"])
        dialects = getattr(obj, "info", {}).get("dialects")
        return dialects is None or dialect in dialects

    try:
        upgrade(db)
        with db.writer.connect() as conn:
            opts = {"compare_type": True, "include_object": here}
            context = MigrationContext.configure(conn, opts=opts)
            return list(compare_metadata(context, metadata))
    finally:
        db.close()


def test_the_migrations_build_the_declared_schema(database_url: str) -> None:
    assert differences(database_url, schema.md) == []


def test_a_column_declared_but_not_migrated_is_found(tmp_path: Any) -> None:
    """The comparison sees a difference (the test above can fail): a column the
    migrations never add, and a column whose nullability differs."""
    md = sa.MetaData()
    for t in schema.md.tables.values():
        copy = t.to_metadata(md)
        for ix in t.indexes:  # (to_metadata leaves an index's info behind)
            next(c for c in copy.indexes if c.name == ix.name).info.update(ix.info)
    sa.Table("tables", md, sa.Column("extra", sa.Text), extend_existing=True)
    md.tables["users"].c.created_by.nullable = False
    found = differences(str(tmp_path / "f.db"), md)
    kinds = {d[0] if isinstance(d, tuple) else d[0][0] for d in found}
    assert kinds == {"add_column", "modify_nullable"}, found


def test_the_statements_are_built_from_the_schema() -> None:
    """server/store.py's tables are the schema's (no second list of columns)."""
    for table in schema.md.tables.values():
        assert store.md.tables[table.name] is table
