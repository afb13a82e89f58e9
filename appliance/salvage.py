"""What still reads of a damaged store, kept: ``salvage`` copies it into a new store beside the
damaged file before that file is moved aside, ``finish_salvage`` puts the copy in its place. Each
step survives a pulled plug: cut off during the copy, the damaged file is still in place and is
salvaged again; cut off between the two moves, the complete copy is put in place at the next start.
``appliance.store.Store.open`` runs both; the file's own functions are ``appliance.store_file``'s.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from appliance.store_file import (FILENAME, SCHEMA_VERSION, StoreError, connect, connect_read_only, create_or_upgrade,
                                  fsync_dir, move_file_aside, sidecars, transaction)

log = logging.getLogger(__name__)

# What a damaged store's rows are copied in: each table after the ones its rows refer to, with the
# key its rows can be looked up by one by one past a damaged page (None: the scan alone). Its
# actions are copied game by game (``_salvage_actions``).
_SALVAGED = (("evenings", "id"), ("settings", None), ("images", None), ("games", "id"), ("examples", "id"))
SALVAGE_PREFIX = ".salvage-"  # the working folder in the state directory; "done" in it: complete
# Ids looked up one by one past a damaged page, at most: the newest ones (the unfinished game, the
# examples kept). A store's ids stay well below (examples are a few thousand, oldest out; evenings and
# games grow by a few a night); one look-up is ~4 us here, ~15 us on a Pi 4, so a damaged MAX(id)
# costs a start a second or two per table, not a minute.
_PROBES = 100_000


@dataclass(frozen=True)
class Salvaged:
    """What ``salvage`` copied of a damaged store: rows per table (``_SALVAGED``, and "actions"),
    and the games whose log was cut short (read up to a damaged or missing action)."""

    rows: dict[str, int]
    cut_games: int = 0

    def __bool__(self) -> bool:
        """Whether anything of the table's was kept (an evening alone is not: a fresh store has one)."""
        return any(n for table, n in self.rows.items() if table != "evenings")


def salvage(path: Path, now: float) -> Salvaged | None:
    """Copy what still reads of the damaged store at ``path`` into a new store in a working folder
    beside it, marked complete ("done") for ``finish_salvage`` to put in its place once the damaged
    file is moved aside: every row SQLite can still read and ``check_existing`` accepts, each
    game's actions up to its first damaged or missing one (a log's beginning replays; a log with a
    hole could replay to another game). A game that then no longer replays is set aside by the
    session, as any other. None when nothing of the table's reads (not one of ours, a newer schema,
    nothing left); the working folder is then gone. Raises StoreError, changing nothing, when the
    disk has no room for the copy: the damaged file stays where it is, to be salvaged once there is."""
    if not path.is_file():  # a folder, a -wal without its database: nothing of ours to read
        return None
    work = Path(tempfile.mkdtemp(prefix=SALVAGE_PREFIX, dir=path.parent))
    found = None
    try:
        damaged = _readable_copy(path, work / "damaged.sqlite3")
        old, _path = connect_read_only(damaged)
        try:
            new = connect(work / FILENAME)
            try:
                create_or_upgrade(new, now)
                found = _salvage_from(old, new, path)
            finally:
                new.close()  # the last connection: the WAL is written back into the file and removed
        finally:
            old.close()
        if found:
            for part in (damaged, *sidecars(damaged)):
                part.unlink(missing_ok=True)
            with open(work / FILENAME, "rb+") as f:
                os.fsync(f.fileno())
            with open(work / "done", "wb") as f:
                os.fsync(f.fileno())
            fsync_dir(work)
            return found
    except (OSError, sqlite3.Error) as exc:
        if _no_room(exc):
            shutil.rmtree(work, ignore_errors=True)
            raise StoreError(errno.ENOSPC, f"the saved games {path} are damaged, and there is no room to keep "
                                           f"what still reads of them ({exc}): free some space; nothing was "
                                           "changed") from None
        log.info("%s: nothing of it can be kept (%s)", path, exc)  # not one of ours, nothing reads
    finally:
        if not found:
            shutil.rmtree(work, ignore_errors=True)
    return None


def _no_room(exc: Exception) -> bool:
    """Whether ``exc`` says the disk (or the user's quota) is full."""
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorname", "") == "SQLITE_FULL" or "full" in str(exc)
    return isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)


def finish_salvage(path: Path, now: float) -> None:
    """Put a complete salvage (``salvage``) where the store goes, once the damaged file is gone from
    there (also one a pulled plug cut off between the two moves); remove every other working folder
    (a salvage cut off earlier: its damaged file is still in place, and salvaged again)."""
    for work in sorted(path.parent.glob(SALVAGE_PREFIX + "*")):
        if (work / "done").exists() and not path.exists():
            if any(side.exists() for side in sidecars(path)):  # the damaged file's, half moved aside
                move_file_aside(path, now)
            os.replace(work / FILENAME, path)
            fsync_dir(path.parent)
            log.warning("%s: what still read of the damaged saved games is now the store", path)
        shutil.rmtree(work, ignore_errors=True)


def _readable_copy(broken: Path, copy: Path) -> Path:
    """``copy``: a copy of ``broken`` (and its -wal) that SQLite will open. A file cut short (a
    truncated copy, a card that lost its last blocks) is lengthened with zeros to the size its
    header gives, when the header vouches for it (SQLite's own test: its change counter matches its
    version-valid-for number), so that SQLite reads the pages that are there and finds the lost
    ones damaged, instead of refusing the whole file. The zeros are a hole: no memory, no disk."""
    shutil.copyfile(broken, copy)
    with open(copy, "rb+") as f:
        head = f.read(100)
        if len(head) == 100 and head[24:28] == head[92:96]:
            page = int.from_bytes(head[16:18], "big")
            page = 65536 if page == 1 else page
            size = page * int.from_bytes(head[28:32], "big")
            if 512 <= page <= 65536 and copy.stat().st_size < size <= 1 << 31:
                f.truncate(size)
    wal = broken.with_name(broken.name + "-wal")
    if wal.is_file():
        shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
    return copy


def _salvage_from(old: sqlite3.Connection, db: sqlite3.Connection, broken: Path) -> Salvaged | None:
    """``salvage`` from ``old``, the damaged store opened for reading, into ``db``, in one commit.
    Raises sqlite3.OperationalError when ``db`` cannot take them (a full disk)."""
    (version,) = old.execute("PRAGMA user_version").fetchone()
    if not 1 <= version <= SCHEMA_VERSION:
        return None
    rows: dict[str, int] = {}
    with transaction(db):
        for table, key in _SALVAGED:
            rows[table] = _salvage_table(old, db, table, key)
        rows["actions"], cut = _salvage_actions(old, db)
    found = Salvaged(rows, cut)
    log.warning("%s: kept of it %s; %d game logs cut short at a damaged action", broken,
                ", ".join(f"{n} {t}" for t, n in found.rows.items()), cut)
    return found


def _salvage_table(old: sqlite3.Connection, db: sqlite3.Connection, table: str, key: str | None) -> int:
    """Copy the rows of ``table`` that read, in its columns both files have; returns how many were
    kept. A damaged page ends the scan; with a ``key``, the rows after it are then looked up one by
    one."""
    try:
        cols = [r[1] for r in old.execute(f"PRAGMA table_info({table})")]
    except sqlite3.Error:
        return 0
    cols = [c for c in cols if c in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}]
    if not cols:
        return 0  # a table of a newer schema than the damaged file
    names = ", ".join(cols)
    # A fresh store has an evening of its own: the damaged file's evening of the same id replaces it.
    insert = f"INSERT OR {'REPLACE' if table == 'evenings' else 'IGNORE'} INTO {table} ({names}) " \
             f"VALUES ({', '.join('?' * len(cols))})"
    kept = 0
    for row in _readable_rows(old, table, names, key):
        values = dict(zip(cols, row))
        if table == "games" and not (_whole_setup(values.get("setup")) and _salvage_evening(db, values)):
            continue  # as ``check_existing`` would refuse it: the file would be moved aside at every start
        try:
            kept += db.execute(insert, row).rowcount > 0
        except sqlite3.IntegrityError:  # damaged JSON, a value the schema refuses
            continue
    return kept


def _readable_rows(old: sqlite3.Connection, table: str, names: str, key: str | None):
    """The rows of ``table`` (``names``' columns) that still read: scanned in ``key`` order, and past
    a damaged page looked up by ``key`` one by one, up to the largest, the newest ``_PROBES`` ids."""
    last = 0
    try:
        order = f" ORDER BY {key}" if key else ""
        for row in old.execute(f"SELECT {key or 0}, {names} FROM {table}{order}"):
            last = row[0]
            yield row[1:]
        return
    except sqlite3.DatabaseError as exc:  # "database disk image is malformed"
        log.info("salvage of %s: a damaged page after %s %s: %s", table, key or "row", last, exc)
    if key is None:
        return
    try:
        (top,) = old.execute(f"SELECT MAX({key}) FROM {table}").fetchone()
    except sqlite3.DatabaseError:
        top = last + _PROBES
    for k in range(max(int(last), int(top or 0) - _PROBES) + 1, int(top or 0) + 1):
        try:
            row = old.execute(f"SELECT {names} FROM {table} WHERE {key} = ?", (k,)).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None:
            yield row


def _whole_setup(setup) -> bool:
    """Whether a game row's setup is a JSON object, as ``check_existing`` asks."""
    try:
        return isinstance(json.loads(setup), dict)
    except (TypeError, ValueError):
        return False


def _salvage_evening(db: sqlite3.Connection, game: dict) -> bool:
    """A salvaged game's evening, made anew (from the game's start) where its row was lost; False
    for a game row too damaged to place."""
    evening, started = game.get("evening_id"), game.get("started")
    if not isinstance(evening, int) or not isinstance(started, (int, float)):
        return False
    db.execute("INSERT OR IGNORE INTO evenings (id, started) VALUES (?, ?)", (evening, started))
    return True


def _salvage_actions(old: sqlite3.Connection, db: sqlite3.Connection) -> tuple[int, int]:
    """Each kept game's actions, 1, 2, ... up to the first that is missing, damaged or unreadable;
    its ``announced`` no later than its last action kept. Returns (actions kept, games cut short)."""
    kept = cut = 0
    for (game,) in db.execute("SELECT id FROM games ORDER BY id").fetchall():
        n, whole = 0, True
        try:
            for seq, action, events in old.execute(
                    "SELECT seq, action, events FROM actions WHERE game_id = ? ORDER BY seq", (game,)):
                if seq != n + 1:
                    whole = False
                    break
                try:
                    db.execute("INSERT INTO actions (game_id, seq, action, events) VALUES (?, ?, ?, ?)",
                               (game, seq, action, events))
                except sqlite3.IntegrityError:
                    whole = False
                    break
                n += 1
        except sqlite3.DatabaseError:
            whole = False
        db.execute("UPDATE games SET announced = MIN(announced, ?) WHERE id = ?", (n, game))
        kept, cut = kept + n, cut + (not whole)
    return kept, cut
