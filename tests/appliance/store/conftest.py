"""What the store tests share."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

import pytest

from appliance.store import FILENAME, Store
from appliance.store_file import SCHEMA_VERSION


@pytest.fixture
def upgraded():
    """``upgraded(state_dir, version, tables)``, the context manager below."""
    return _upgraded


@contextmanager
def _upgraded(state_dir, version: int, tables: tuple[str, ...]):
    """The store in ``state_dir`` made as version ``version`` wrote it (``tables`` dropped, which it
    did not have; a "table.column" there drops that column), then opened: it must be upgraded in
    place to ``SCHEMA_VERSION``, nothing moved aside. Yields the open ``Store``."""
    db = sqlite3.connect(state_dir / FILENAME)
    drops = [f"ALTER TABLE {t.split('.')[0]} DROP COLUMN {t.split('.')[1]}" if "." in t else f"DROP TABLE {t}"
             for t in tables]
    db.executescript("".join(f"{d}; " for d in drops) + f"PRAGMA user_version = {version};")
    db.close()
    with Store.open(state_dir) as s:
        assert s.notice is None and s.moved_to is None
        assert s.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        yield s
