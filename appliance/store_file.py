"""The saved games' SQLite file, below ``appliance.store``: its schema and upgrades, how it is opened
(WAL, ``synchronous=FULL``: a commit is on disk when it returns), one durable transaction, whether a
file found in the state directory can be used (``check_existing``), read-only connections that
create nothing beside it, and moving an unusable one aside. ``appliance.store`` plays and reads the
games on it; ``appliance.salvage`` copies what still reads of a damaged one.
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import re
import shutil
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path

from appliance.i18n import _

log = logging.getLogger(__name__)

FILENAME = "dicetable.sqlite3"
# PRAGMA application_id marks the file as ours ("DiTa"), so a foreign SQLite file is not taken.
APPLICATION_ID = 0x44695461
SCHEMA_VERSION = 5  # PRAGMA user_version; 2 added the settings table, 3 the taught dice, 4 the images,
# 5 the die finder's score of each taught crop

_SCHEMA = """
CREATE TABLE evenings (
    id       INTEGER PRIMARY KEY,
    started  REAL NOT NULL                      -- unix time, s
);
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    evening_id INTEGER NOT NULL REFERENCES evenings(id),
    setup      TEXT NOT NULL CHECK (json_valid(setup)),   -- the game log's first line
    started    REAL NOT NULL,
    ended      REAL,                            -- NULL while the game is being played
    winner     TEXT CHECK (winner IS NULL OR json_valid(winner)),
    tally      TEXT CHECK (tally IS NULL OR json_valid(tally)),
    announced  INTEGER NOT NULL DEFAULT 0       -- every action with seq <= this was announced
);
CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,                  -- 1, 2, ... in the order the table took them
    action   TEXT NOT NULL CHECK (json_valid(action)),
    events   TEXT NOT NULL CHECK (json_valid(events)),
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
"""
_SETTINGS = """
CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
) WITHOUT ROWID;
"""
_EXAMPLES = """
CREATE TABLE examples (
    id       INTEGER PRIMARY KEY,               -- in the order taught: the oldest go first
    throw    INTEGER NOT NULL,                  -- the taught throw the crop came from
    value    INTEGER NOT NULL CHECK (value BETWEEN 0 AND 6),   -- 1-6, or 0: not a die
    crop     BLOB NOT NULL,                     -- 32x32x3 uint8 BGR, raw bytes
    source   TEXT NOT NULL,                     -- "teach", "correction", a manifest's name
    added    REAL NOT NULL                      -- unix time, s
);
CREATE INDEX examples_by_throw ON examples (throw);
"""
_IMAGES = """
CREATE TABLE images (
    key     TEXT PRIMARY KEY,                   -- "reference": the empty tray
    height  INTEGER NOT NULL,
    width   INTEGER NOT NULL,
    pixels  BLOB NOT NULL,                      -- height x width x 3 uint8 BGR, raw bytes
    added   REAL NOT NULL                       -- unix time, s
) WITHOUT ROWID;
"""
# Crops taught before version 5 have no score (NULL): the table's own die threshold is chosen
# without their throws.
_SCORES = """
ALTER TABLE examples ADD COLUMN score REAL;    -- the die finder's peak at the crop, 0-1
"""
# What brings a file of version v to v + 1 (run in one transaction with the new user_version); a new
# file gets the schema and every one of them, so there is one definition of each table.
_UPGRADES = {1: _SETTINGS, 2: _EXAMPLES, 3: _IMAGES, 4: _SCORES}
# Every table a file of this version holds: one missing is a damaged file (a hand edit, a tool's
# DROP TABLE), whose other tables are kept as a damaged file's are, not a kiosk reading it in vain.
_TABLES = frozenset(re.findall(r"CREATE TABLE (\w+)", _SCHEMA + "".join(_UPGRADES.values())))


class StoreError(OSError):
    """The store cannot be written at all (the state directory missing and not creatable or read-only,
    the file not writable by this user); or, from the read-only openings, the saved games cannot be
    read. ``strerror`` is the message, in English, naming the place (``str()`` adds the errno)."""


def check_version(db: sqlite3.Connection, path: Path, *, older: bool) -> None:
    """Raises StoreError naming ``path`` when its schema is newer than this one reads (its tables may
    mean something else now), or older unless ``older`` is allowed."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > SCHEMA_VERSION or (version < SCHEMA_VERSION and not older):
        newer = version > SCHEMA_VERSION
        raise StoreError(errno.EPROTO, f"{path}: saved by {'a newer' if newer else 'an older'} version (schema "
                                       f"{version}, this one reads {SCHEMA_VERSION}"
                                       f"{'' if newer else '; the kiosk or dicetable teach upgrades it'})")


def connect_read_only(path: str | Path) -> tuple[sqlite3.Connection, Path]:
    """(a read-only connection, the file) to the store at ``path`` (a file or its directory), checked
    as ours; nothing is created beside it. Without a -wal beside it (no kiosk writing, or one closed
    cleanly) the file is read as it lies (``immutable``), so no -wal or -shm is made (a root's would
    lock the service's user out). With one, it is read with the WAL (a running kiosk's latest
    actions); where SQLite may not use the -shm (a read-only mount, a full disk), as it lies after
    all: a kiosk that lost its power there may then miss its last actions. Raises StoreError naming
    the file: not there, not a Dice Table store, or unreadable."""
    path = Path(path)
    if not path.exists():  # said as teach says it: the path itself is wrong, not the store in it
        raise StoreError(errno.ENOENT, f"{path} does not exist (a mistyped path? the kiosk's is the config's state_dir)")
    if path.is_dir():
        path = path / FILENAME
    if path.is_dir():
        raise StoreError(errno.EISDIR, f"{path}: a folder, not the store's file")
    if not path.is_file():
        raise StoreError(errno.ENOENT, f"{path}: no saved games there")
    uri = path.absolute().as_uri()
    as_it_lies = f"{uri}?mode=ro&immutable=1"
    db = None
    try:
        try:
            wal = path.with_name(path.name + "-wal").exists()
            db = sqlite3.connect(f"{uri}?mode=ro" if wal else as_it_lies, uri=True, isolation_level=None)
            (app,) = db.execute("PRAGMA application_id").fetchone()  # opening is lazy: this finds out
        except sqlite3.OperationalError as exc:
            if db is not None:
                db.close()
            if not (_cannot_share(exc) or disk_full(path.parent)):
                raise
            db = sqlite3.connect(as_it_lies, uri=True, isolation_level=None)
            (app,) = db.execute("PRAGMA application_id").fetchone()
    except sqlite3.Error as exc:  # not SQLite at all, damaged pages, a WAL it may not read
        if db is not None:
            db.close()
        if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB":  # a text file, an image, a game log
            raise StoreError(errno.EINVAL, f"{path}: not a Dice Table store (no database at all)") from None
        raise StoreError(errno.EIO, f"{path}: cannot be read: {exc}") from None
    if app != APPLICATION_ID:
        db.close()
        raise StoreError(errno.EINVAL, f"{path}: not a Dice Table store")
    return db, path


# bytes: less free space than this on the store's disk is a full one. SQLite needs room for its -shm
# (32 KB) and for the WAL to grow by a commit's pages (a few KB each, 4 MB before a checkpoint).
ROOM = 1024 * 1024


def disk_full(directory: Path) -> bool:
    """Whether the disk holding ``directory`` has less than ``ROOM`` bytes free for this user (False
    when the file system cannot say)."""
    try:
        usage = shutil.disk_usage(directory)
    except OSError:
        return False
    return usage.total > 0 and usage.free < ROOM


def _cannot_share(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite failed for want of the -shm (or -wal) it reads a WAL file with: a read-only place."""
    name = getattr(exc, "sqlite_errorname", "")
    return name == "SQLITE_CANTOPEN" or name.startswith("SQLITE_READONLY") or "unable to open" in str(exc)


@contextmanager
def opening(state_dir: Path):
    """Hold ``state_dir`` against other processes opening its store at the same moment (an flock on
    the directory itself, released on leaving): a file another process has just made is empty or
    without its tables until that process's first commit, and would be taken for a damaged one, or
    both would make its tables."""
    fd = os.open(state_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: no implicit transactions; each write is one explicit transaction.
    db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    db.execute("PRAGMA journal_mode=WAL")
    # FULL: a WAL commit is fsynced before returning, so a pulled plug keeps every recorded action.
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


@contextmanager
def transaction(db: sqlite3.Connection):
    """One atomic, durable write: BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error. The error
    raised is the first one: SQLite has already rolled back on some (a full disk, SQLITE_FULL),
    and a ROLLBACK then would fail with "no transaction is active" in its place."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:  # the error that stopped the write is the one to tell
                pass
        raise


def create_or_upgrade(db: sqlite3.Connection, now: float) -> None:
    """A new file gets the schema; a file of an older version (checked by ``check_existing``) its
    upgrades. Each in one commit: a pulled plug leaves the file as it was or as it should be."""
    (app,) = db.execute("PRAGMA application_id").fetchone()
    if app == APPLICATION_ID:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version < SCHEMA_VERSION:
            with transaction(db):  # user_version is in the file's header: it commits with the tables
                for v in range(version, SCHEMA_VERSION):
                    _execute_all(db, _UPGRADES[v])
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return
    with transaction(db):  # schema and marks in one commit: a half-made file is never "ours"
        _execute_all(db, _SCHEMA + "".join(_UPGRADES[v] for v in range(1, SCHEMA_VERSION)))
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("INSERT INTO evenings (started) VALUES (?)", (now,))


def _execute_all(db: sqlite3.Connection, script: str) -> None:
    """The statements of ``script`` one by one (``executescript`` would commit the transaction)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def check_existing(path: Path) -> str | None:
    """Why the file at ``path`` cannot be used as our store (short, for the notice), or None."""
    if not path.exists():
        for side in sidecars(path):  # a -wal without its database would be replayed into a new one
            if side.exists():
                return _("a journal without its database")
        return None
    if not path.is_file():  # a folder (or a device) by its name: sqlite's "unable to open" says less
        return _("it is a folder, not a file") if path.is_dir() else _("it is not a file")
    size = path.stat().st_size
    if size == 0:
        return _("the file was empty")
    if size < 512:  # SQLite takes a file shorter than its header for an empty database;
        return _("the file is damaged")  # no store of ours is shorter than a page (512 bytes at the least)
    try:
        db = sqlite3.connect(f"file:{path}?mode=rw", uri=True, isolation_level=None)
    except sqlite3.Error as exc:
        log.info("%s cannot be opened: %s", path, exc)  # for the journal, as below
        return _("the file is damaged")
    try:
        (app,) = db.execute("PRAGMA application_id").fetchone()
        if app != APPLICATION_ID:
            if app == 0 and db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
                return None  # SQLite with nothing in it: our own creation, cut off before its tables
            return _("not a Dice Table file")
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if not 1 <= version <= SCHEMA_VERSION:  # an older one is upgraded on open
            return _("saved by another version (schema {version})").format(version=version)
        (result,) = db.execute("PRAGMA quick_check(1)").fetchone()
        if result != "ok":
            return _("the file is damaged")
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == SCHEMA_VERSION and not _TABLES <= tables:
            log.info("%s lacks its tables %s", path, ", ".join(sorted(_TABLES - tables)))
            return _("the file is damaged")
        bad = db.execute(
            "SELECT (SELECT COUNT(*) FROM games WHERE NOT json_valid(setup) OR json_type(setup) != 'object') "
            "+ (SELECT COUNT(*) FROM actions WHERE NOT json_valid(action) OR NOT json_valid(events))"
        ).fetchone()[0]
        if bad:
            return _("the file is damaged")
    except sqlite3.Error as exc:  # "file is not a database", "database disk image is malformed", ...
        # SQLite's English to the kiosk's journal (it logs INFO), not to a command's stderr, which
        # says the reason in its own words once.
        log.info("%s cannot be read: %s", path, exc)
        return _("the file is damaged")
    finally:
        db.close()
    return None


def sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def move_file_aside(path: Path, now: float) -> Path:
    """Rename the file (and its -wal/-shm) to a free ``<name>.broken-<time>`` name; returns it."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    if path.exists():
        os.replace(path, target)
    for side, suffix in zip(sidecars(path), ("-wal", "-shm")):
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    fsync_dir(path.parent)
    return target


def fsync_dir(directory: Path) -> None:
    """Make the renames themselves survive a power cut."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
