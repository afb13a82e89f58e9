"""The saved games: the game log of ../shared/RULES.md §4 in one SQLite file that survives a pulled plug.

One file, ``<state_dir>/dicetable.sqlite3``, in WAL mode with ``synchronous=FULL``: when ``record``
returns, the action is on disk. The session's order for every accepted action is::

    seq = store.record(game_id, action, events)   # durable first ...
    ... show / speak the announcement of `events` ...
    store.mark_announced(game_id, seq)             # ... then "this one was seen"

so after a power cut nothing announced is lost (the action is in the log) and nothing finished is
announced twice (the mark). An announcement cut off mid-way is shown again: ``pending`` lists it.
For example, an action recorded but not yet shown when the power goes:

>>> import tempfile
>>> from appliance.games import new_game, replay
>>> state_dir = tempfile.mkdtemp()
>>> store = Store.open(state_dir)
>>> game = new_game({"game": "maexle", "players": ["Ann", "Bo"]})
>>> game_id = store.start_game(game.setup)
>>> seq = store.record(game_id, {"announce": 54}, game.apply({"announce": 54}))
>>> store.close()  # the plug is pulled before the announcement showed

On start: a notice (the old file was damaged, empty or foreign and moved aside: one translated
sentence; ``moved_to`` names where it went, for the journal) is shown, the unfinished game (a
``SavedGame`` or None) replays, and its pending announcements are shown and marked:

>>> store = Store.open(state_dir)
>>> store.notice is None
True
>>> saved = store.unfinished()
>>> game, _ = replay(saved.setup, saved.actions)
>>> [(seq, action) for seq, action, events in saved.pending]
[(1, {'announce': 54})]
>>> store.mark_announced(saved.id, 1)
>>> store.unfinished().pending
[]
>>> store.close()
>>> import shutil; shutil.rmtree(state_dir)

A game ends with ``end_game(id, tally, winner)``; ``evening()`` sums the tallies of the evening's
ended games (drinks and penalty points per player); ``new_evening()`` starts the count again. A saved
game that no longer replays is ended with ``set_aside(id)`` (its log kept), so that it is not brought
up at every start.

The table's own dice (``dicetable teach``, hand corrections): labelled die crops by throw,
``add_throws``, ``examples``, ``forget_examples``; at most ``MAX_EXAMPLES`` crops, oldest throws out.

The kiosk's own settings (the language chosen on the screen) are text under a key, as durable as the
games: ``save_settings({"language": "lv"})``, ``setting("language")``. Pictures the table keeps (the
guided setup's empty-tray reference) are images under a key, saved with settings in one commit:
``save_image("reference", frame, {...})``, ``image("reference")``.

Versions: ``PRAGMA user_version`` is the schema's version. A file of an older version is upgraded in
place when opened, in one commit (its games kept); a file of a newer version (a downgrade) is moved
aside like a damaged one.

Errors: ``StoreError`` (an OSError) when the store cannot be written at all: the state directory
is read-only or cannot be made, or the file itself (or its -wal or -shm) cannot be written by this
user (a backup copied back by root, a read-only mount), or the disk it is on is full; the kiosk then
plays without saving. A damaged, empty or foreign file never raises: it is renamed
``dicetable.sqlite3.broken-YYYYmmdd-HHMMSS`` (with its -wal and -shm) and the store starts fresh,
with what still reads of a damaged one of ours copied in (``_salvage``: each game's log up to its
first damaged action), and ``notice`` saying so.

One kiosk to a state directory: ``claim(state_dir)`` holds it for this process (a lock the kernel
drops when the process ends, a pulled plug or kill -9 included) or raises ``StateBusy``; two tables
writing one game log would mix their throws, and the game would not replay. A directory it could
write in but whose lock it cannot open raises ``StoreError``: unguarded, it is not written.

Reading only: ``Store.open_read_only`` (``dicetable read/watch --state``, the kiosk's settings when it
cannot write), ``read_log`` (``dicetable replay``) and ``read_evening`` (``dicetable summary``) never
create, move, upgrade or write anything, and read a store on a read-only mount too.
"""

from __future__ import annotations

import errno
import fcntl
import json
import logging
import os
import shutil
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from appliance.i18n import _

log = logging.getLogger(__name__)

FILENAME = "dicetable.sqlite3"
LOCKNAME = "kiosk.lock"  # held by the kiosk that plays on the state directory (``claim``); holds its pid
# PRAGMA application_id marks the file as ours ("DiTa"), so a foreign SQLite file is not taken.
APPLICATION_ID = 0x44695461
SCHEMA_VERSION = 5  # PRAGMA user_version; 2 added the settings table, 3 the taught dice, 4 the images,
# 5 the die finder's score of each taught crop
MAX_EXAMPLES = 3000  # taught die crops kept; past it the oldest throws go first (about 9 MB)
CROP_SHAPE = (32, 32, 3)  # a taught crop: what the face reader reads, uint8 BGR

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
# A row of ``examples`` that ``examples()`` can use: its crop is whole (the schema's CHECK keeps the values).
_WHOLE_CROP = f"typeof(crop) = 'blob' AND length(crop) = {int(np.prod(CROP_SHAPE))}"
# What brings a file of version v to v + 1 (run in one transaction with the new user_version); a new
# file gets the schema and every one of them, so there is one definition of each table.
_UPGRADES = {1: _SETTINGS, 2: _EXAMPLES, 3: _IMAGES, 4: _SCORES}


def foreign_files(state_dir: Path) -> bool:
    """Whether ``state_dir`` (an existing directory) holds no store and files the kiosk does not keep
    there (its store's journal files, a store set aside, its lock, a salvage under way): a folder of
    photos, or ``/`` from an unset variable, is no table's, and no store is made in it."""
    def the_tables(name: str) -> bool:
        return (name in (FILENAME, LOCKNAME, f"{FILENAME}-wal", f"{FILENAME}-shm", f"{FILENAME}-journal")
                or name.startswith((f"{FILENAME}.broken-", SALVAGE_PREFIX)))

    state_dir = Path(state_dir)
    return not (state_dir / FILENAME).exists() and any(not the_tables(entry.name) for entry in state_dir.iterdir())


class StoreError(OSError):
    """The store cannot be written at all (the state directory missing and not creatable or read-only,
    the file not writable by this user); or, from the read-only openings, the saved games cannot be
    read. ``strerror`` is the message, in English, naming the place (``str()`` adds the errno)."""


class StateBusy(Exception):
    """Another process holds the state directory (``claim``): ``pid`` is its process id as it wrote
    it (text, "" when unknown)."""

    def __init__(self, state_dir, pid: str) -> None:
        super().__init__(f"{state_dir}: held by another kiosk or dicetable teach (pid {pid or 'unknown'})")
        self.pid = pid


def claim(state_dir: str | Path):
    """Hold ``state_dir`` for this process alone, until the returned file is closed or the process
    ends; the lock file there holds this process's id. Returns None when the directory cannot be
    written (the kiosk then plays without saving: there is nothing to guard). Raises StateBusy when
    another process holds it, StoreError when the directory could be written but its lock cannot be
    opened (a folder of that name, a lock another user owns): nothing would keep a second kiosk or a
    teach from writing beside this one, so this one does not write either."""
    directory = Path(state_dir)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        held = open(directory / LOCKNAME, "a+", encoding="ascii")
    except OSError as exc:
        if directory.is_dir() and os.access(directory, os.W_OK | os.X_OK):
            raise StoreError(exc.errno, f"the lock {directory / LOCKNAME} cannot be opened ({exc.strerror}): "
                                        "nothing would keep another kiosk or a teach from writing beside "
                                        "this one (remove it, or give it to this user)") from None
        return None
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # BlockingIOError: another holds it
        held.seek(0)
        pid = held.read(32).strip()
        held.close()
        raise StateBusy(directory, pid) from None
    # Unbuffered, so that a failed write leaves nothing for close() to fail on again. A full disk
    # still leaves the directory held (the lock is the file's, not its text): its holder is unknown.
    try:
        os.ftruncate(held.fileno(), 0)
        os.pwrite(held.fileno(), f"{os.getpid()}\n".encode("ascii"), 0)
    except OSError as exc:
        log.warning("%s: the lock holds, but its process id cannot be written: %s", directory / LOCKNAME, exc)
    _owned_as_directory(directory / LOCKNAME, directory)
    return held


def _owned_as_directory(path: Path, directory: Path) -> None:
    """A file root made in the service's directory (``sudo dicetable teach``) given to the
    directory's owner, so that the kiosk, which runs as that user, can open it after."""
    try:
        if os.geteuid() == 0:
            st = directory.stat()
            if path.stat().st_uid != st.st_uid:
                os.chown(path, st.st_uid, st.st_gid)
    except OSError as exc:  # a file system without owners: nothing to give
        log.info("could not give %s to the owner of %s: %s", path, directory, exc)


# What a store's write may raise when the disk is full, gone or damaged (a StoreError is an OSError).
STORE_ERRORS = (sqlite3.Error, OSError)


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game as saved.

    id: the game's id in the store. setup: the game log's first line (dict). actions: the accepted
    actions in order (list of dicts), ready for ``replay(setup, actions)``. events: the events each
    action gave when it was taken (list per action). announced: how many of the actions were
    announced. pending: ``(seq, action, events)`` for each action not yet announced, in order.
    ended: the game was already ended (only its last announcements are left to show).
    """

    id: int
    setup: dict
    actions: list[dict]
    events: list[list[dict]]
    announced: int
    ended: bool = False

    @property
    def pending(self) -> list[tuple[int, dict, list[dict]]]:
        return [(i + 1, self.actions[i], self.events[i]) for i in range(self.announced, len(self.actions))]


@dataclass(frozen=True)
class EndedGame:
    """A game of the evening that is over: id, setup, winner (list of names or None), tally
    ``{player: {"drinks": n, "penalties": n}}``, started and ended (unix time, s)."""

    id: int
    setup: dict
    winner: list[str] | None
    tally: dict[str, dict[str, int]]
    started: float
    ended: float


@dataclass
class Store:
    """The open store. Create it with ``Store.open(state_dir)``; one process uses it at a time."""

    path: Path
    db: sqlite3.Connection
    notice: str | None = None
    moved_to: Path | None = field(default=None)
    salvaged: bool = False  # what still read of the file moved aside was copied in (``_salvage``)
    read_only: bool = False  # opened with ``open_read_only``: every write raises sqlite3.Error

    # --- opening -----------------------------------------------------------------------------

    @classmethod
    def open(cls, state_dir: str | Path, clock=time.time, move_aside: bool = True) -> "Store":
        """The store in ``state_dir`` (created if missing), checked and ready.

        A file that is not a readable Dice Table store (not SQLite, damaged pages, empty, another
        program's database, a newer schema, a game row that no longer parses) is moved aside to a
        timestamped name; ``notice`` then holds the message for the screen (in the active language:
        call ``i18n.set_language`` first) and ``moved_to`` the new name. With ``move_aside`` False
        (a command beside the kiosk, which must not set its games aside) such a file raises
        StoreError instead. A file of an older schema is upgraded in place. Raises StoreError when
        the store cannot be written: the directory is unusable, the file (or its -wal or -shm) is
        not writable by this user or cannot be opened (a dangling link, a system folder), its disk
        is full (``ROOM``), or the upgrade cannot be written; nothing is changed then.
        """
        state_dir = Path(state_dir)
        try:
            state_dir.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # mkdir(exist_ok) raises it only when a file has the name
            raise StoreError(errno.ENOTDIR, f"state directory {state_dir} is a file, not a folder") from None
        except OSError as exc:
            raise StoreError(exc.errno, f"state directory {state_dir} cannot be created: {exc.strerror}") from None
        if not os.access(state_dir, os.W_OK | os.X_OK):
            raise StoreError(errno.EACCES, f"state directory {state_dir} is not writable")
        if _disk_full(state_dir):
            # Checked first: SQLite without room for its -shm says "disk I/O error", and a sound file
            # would be taken for a damaged one and set aside (with no room to keep what reads of it).
            raise StoreError(errno.ENOSPC, f"the disk holding {state_dir} is full (under {ROOM // 1024} KB "
                                           "free): nothing there was changed; make room to save again")
        path = state_dir / FILENAME
        if path.is_symlink() and not path.exists():  # SQLite would make a new store where it points
            raise StoreError(errno.ENOENT, f"the store {path} cannot be opened: it is a link to {os.readlink(path)}, "
                                           "which does not exist (a drive not mounted?)")
        for part in (path, *_sidecars(path)):  # the file itself: e.g. root's copy of a backup, chattr +i
            if part.exists() and not os.access(part, os.W_OK):
                raise StoreError(errno.EACCES, f"the saved games {part} cannot be written by this user")
        with _opening(state_dir):
            if move_aside:
                _finish_salvage(path, clock())
            problem = _check_existing(path)
            if problem and not move_aside:
                raise StoreError(errno.EPROTO, f"the saved games {path} cannot be used ({problem}): the kiosk "
                                               "puts them aside for the staff at its next start")
            moved_to = kept = None
            if problem:
                # What still reads is copied into a new file first, the damaged one moved aside only
                # then: a plug pulled during the copy leaves the damaged file in place, to try again.
                kept = _salvage(path, clock())
                moved_to = _move_aside(path, clock())
                if kept is not None:
                    _finish_salvage(path, clock())
            try:
                db = _connect(path)
            except sqlite3.Error as exc:
                raise StoreError(errno.EIO, f"the store {path} cannot be opened: {exc}") from None
            try:
                _create_or_upgrade(db, clock())
            except sqlite3.Error as exc:  # e.g. the disk is full
                db.close()
                raise StoreError(5, f"the store {path} cannot be written: {exc}") from None
            for part in (path, *_sidecars(path)):  # made by root (``sudo dicetable teach``): the kiosk's
                if part.exists():
                    _owned_as_directory(part, state_dir)
        notice = None
        if problem and kept:
            # TRANSLATORS: at start: the file of saved games was damaged, but some of it could be read
            # and was copied into a new one.
            notice = _("The file of saved games was damaged. What could still be read was kept; the file was "
                       "put aside for the staff.")
        elif problem:
            # The file's new name is for the staff: the journal has it (``moved_to``).
            # TRANSLATORS: at start: the file of saved games is unusable; {problem} says why.
            notice = _("The saved games could not be read ({problem}). They were put aside for the staff; "
                       "play starts fresh.").format(problem=problem)
        return cls(path=path, db=db, notice=notice, moved_to=moved_to, salvaged=bool(kept))

    @classmethod
    def open_read_only(cls, path: str | Path) -> "Store":
        """The store at ``path`` (the state directory or its file) opened for reading only: nothing is
        created, moved, upgraded or written, also on a read-only mount (``dicetable read/watch
        --state``; the kiosk's settings when it cannot write). Its reading methods work as usual;
        a write raises sqlite3.Error.

        Raises StoreError naming the file: not there, not a Dice Table store, unreadable, or saved
        by another version of the schema (the kiosk upgrades an older one at its next start).
        """
        db, path = connect_read_only(path)
        try:
            _check_version(db, path, older=False)
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(errno.EIO, f"{path}: cannot be read: {exc}") from None
        except StoreError:
            db.close()
            raise
        return cls(path=path, db=db, read_only=True)

    def close(self) -> None:
        """Close the file (everything is already on disk)."""
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- playing -----------------------------------------------------------------------------

    def start_game(self, setup: dict, clock=time.time) -> int:
        """Save a new game's setup (the game log's first line, a JSON-able dict); returns its id.

        The previous unfinished game, if any, stays unfinished until ``end_game``; ``unfinished``
        returns the newest one.
        """
        with _transaction(self.db):
            evening = self._current_evening(clock())
            cur = self.db.execute("INSERT INTO games (evening_id, setup, started) VALUES (?, ?, ?)",
                                  (evening, _dumps(setup), clock()))
        return int(cur.lastrowid)

    def record(self, game_id: int, action: dict, events: list[dict], *, reopen: bool = False,
               settings: dict[str, str] | None = None) -> int:
        """Append one accepted action and the events it gave; durable when this returns.

        reopen: the game may have ended; it is unfinished again, its winner and counts out of the
        evening, in the same commit (the ``undo`` of the action that decided it: a misread last roll).
        settings: texts kept under their keys in the same commit (as ``save_settings``): what must
        never be saved without the action, nor the action without it.
        Returns the action's seq (1 for the first action of the game). Raises KeyError for an
        unknown game or (without reopen) an ended one, TypeError/ValueError for an action or events
        that are not JSON, TypeError for a setting that is not text (nothing saved).
        """
        action_text, events_text = _dumps(action), _dumps(events)
        if settings:
            _check_settings(settings)
        with _transaction(self.db):
            if settings:
                self._put_settings(settings)
            row = self.db.execute("SELECT ended FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None or (row[0] is not None and not reopen):
                raise KeyError(f"no unfinished game {game_id}")
            if row[0] is not None:
                self.db.execute("UPDATE games SET ended = NULL, winner = NULL, tally = NULL WHERE id = ?", (game_id,))
            (seq,) = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?",
                                     (game_id,)).fetchone()
            self.db.execute("INSERT INTO actions (game_id, seq, action, events) VALUES (?, ?, ?, ?)",
                            (game_id, seq, action_text, events_text))
        return int(seq)

    def mark_announced(self, game_id: int, seq: int) -> None:
        """Every action of the game up to ``seq`` has been announced; durable when this returns.
        Marks never go backwards."""
        with _transaction(self.db):
            self.db.execute("UPDATE games SET announced = MAX(announced, ?) WHERE id = ?", (seq, game_id))

    def unfinished(self) -> SavedGame | None:
        """The game to resume, with its log, or None: the newest game that has not ended, or the
        newest game when it ended with announcements still pending (the power went between the
        winning action and its announcement; ``ended`` is then True)."""
        row = self.db.execute(
            "SELECT id, setup, announced, ended IS NOT NULL FROM games "
            "WHERE ended IS NULL OR announced < (SELECT COUNT(*) FROM actions WHERE game_id = games.id) "
            "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else self._saved(*row)

    def game(self, game_id: int) -> SavedGame | None:
        """Game ``game_id`` with its log, ended or not (e.g. the one on the winner screen), or None."""
        row = self.db.execute("SELECT id, setup, announced, ended IS NOT NULL FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        return None if row is None else self._saved(*row)

    def _saved(self, game_id: int, setup: str, announced: int, ended) -> SavedGame:
        rows = self.db.execute("SELECT action, events FROM actions WHERE game_id = ? ORDER BY seq",
                               (game_id,)).fetchall()
        return SavedGame(id=game_id, setup=json.loads(setup), actions=[json.loads(a) for a, _e in rows],
                         events=[json.loads(e) for _a, e in rows], announced=min(announced, len(rows)),
                         ended=bool(ended))

    def end_game(self, game_id: int, tally: dict[str, dict[str, int]], winner: list[str] | None = None,
                 clock=time.time) -> None:
        """The game is over (won, or left for another game): keep its drink and penalty counts.

        tally: ``{player: {"drinks": n, "penalties": n}}`` as the engine counted them. winner: the
        names, or None when the game has no winner (Biscuit, or stopped early). Ending a game that
        has already ended changes nothing (a resumed game may be ended again). Raises KeyError for
        an unknown game.
        """
        with _transaction(self.db):
            cur = self.db.execute("UPDATE games SET ended = ?, winner = ?, tally = ? WHERE id = ? AND ended IS NULL",
                                  (clock(), None if winner is None else _dumps(winner), _dumps(tally), game_id))
            if cur.rowcount != 1 and self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise KeyError(f"no game {game_id}")

    def set_aside(self, game_id: int, clock=time.time) -> None:
        """A saved game that no longer replays (a hand-edited file, a log another engine version
        refuses): ended with no winner and no counts, every action marked announced, so it is never
        resumed again. Its log stays in the file for a look by hand. Raises KeyError for an unknown game."""
        with _transaction(self.db):
            cur = self.db.execute(
                "UPDATE games SET ended = COALESCE(ended, ?), tally = COALESCE(tally, '{}'), "
                "announced = (SELECT COUNT(*) FROM actions WHERE game_id = games.id) WHERE id = ?",
                (clock(), game_id))
            if cur.rowcount != 1:
                raise KeyError(f"no game {game_id}")

    # --- settings ----------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        """The text last saved under ``key`` with ``save_settings``, or None."""
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def save_settings(self, values: dict[str, str]) -> None:
        """Keep each text of ``values`` under its key, all in one commit; durable when this returns.
        Raises TypeError (nothing saved) for a key or value that is not a str."""
        _check_settings(values)
        with _transaction(self.db):
            self._put_settings(values)

    def _put_settings(self, values: dict[str, str]) -> None:
        """The settings written, inside the caller's transaction."""
        self.db.executemany("INSERT INTO settings (key, value) VALUES (?, ?) "
                            "ON CONFLICT (key) DO UPDATE SET value = excluded.value", values.items())

    # --- pictures ----------------------------------------------------------------------------------

    def save_image(self, key: str, image: np.ndarray | None, settings: dict[str, str] | None = None,
                   clock=time.time) -> None:
        """Keep ``image`` ((H, W, 3) uint8 BGR; None removes it) under ``key`` and the ``settings``
        (as ``save_settings``), all in one commit: durable when this returns. Raises ValueError (or
        TypeError for settings that are not text; nothing saved) for anything else."""
        settings = settings or {}
        if image is not None and (not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3
                                  or image.shape[2] != 3 or not image.size):
            raise ValueError(f"an image is (H, W, 3) uint8 BGR, not {getattr(image, 'shape', type(image))}")
        _check_settings(settings)
        with _transaction(self.db):
            if image is None:
                self.db.execute("DELETE FROM images WHERE key = ?", (key,))
            else:
                self.db.execute("INSERT OR REPLACE INTO images (key, height, width, pixels, added) "
                                "VALUES (?, ?, ?, ?, ?)",
                                (key, image.shape[0], image.shape[1], np.ascontiguousarray(image).tobytes(), clock()))
            self._put_settings(settings)

    def image(self, key: str) -> np.ndarray | None:
        """The (H, W, 3) uint8 BGR image last saved under ``key``, or None."""
        row = self.db.execute("SELECT height, width, pixels FROM images WHERE key = ?", (key,)).fetchone()
        if row is None or len(row[2]) != row[0] * row[1] * 3:
            return None
        return np.frombuffer(row[2], np.uint8).reshape(row[0], row[1], 3).copy()

    # --- the table's own dice ------------------------------------------------------------------

    def add_throws(self, throws, source: str, clock=time.time, replacing=()) -> list[int]:
        """Keep the labelled crops of taught throws, all in one commit (durable when this returns):
        each throw (crops (N, 32, 32, 3) uint8 BGR, values (N,) ints 1-6 or 0 for "not a die"[,
        scores (N,) the die finder's peak at each crop, 0-1; without them: unknown]). The kept
        throws ``replacing`` (ids) go in the same commit, and past ``MAX_EXAMPLES`` crops the
        oldest throws. Returns the new throws' ids. Raises ValueError (nothing kept) for crops,
        values or scores of another shape or range."""
        rows = []
        for crops, values, *scores in throws:
            crops = np.asarray(crops)
            if crops.dtype != np.uint8 or crops.shape[1:] != CROP_SHAPE or len(crops) != len(values):
                raise ValueError(f"a throw's crops are (N, 32, 32, 3) uint8 with N values, not {crops.shape} {crops.dtype}")
            if any(not 0 <= int(v) <= 6 for v in values):
                raise ValueError(f"taught values are 0-6, not {list(values)}")
            score = [float(v) for v in scores[0]] if scores else [None] * len(values)
            if len(score) != len(values) or not all(v is None or 0.0 <= v <= 1.0 for v in score):
                raise ValueError(f"a throw's scores are N numbers 0-1, not {score}")
            rows.append((crops, [int(v) for v in values], score))
        ids = []
        with _transaction(self.db):
            # Before the replaced throws go: a new throw never takes a kept one's id, so a fit stamped
            # with the newest id (``appliance.teaching``) is stale once its values are replaced.
            (last,) = self.db.execute("SELECT COALESCE(MAX(throw), 0) FROM examples").fetchone()
            self.db.executemany("DELETE FROM examples WHERE throw = ?", [(int(t),) for t in replacing])
            for n, (crops, values, score) in enumerate(rows, start=last + 1):
                self.db.executemany("INSERT INTO examples (throw, value, crop, source, added, score) "
                                    "VALUES (?, ?, ?, ?, ?, ?)",
                                    [(n, v, c.tobytes(), source, clock(), sc) for c, v, sc in zip(crops, values, score)])
                ids.append(n)
            self._bound_examples()
        return ids

    def _bound_examples(self) -> None:
        """Drop the oldest whole throws until at most ``MAX_EXAMPLES`` crops are left."""
        row = self.db.execute("SELECT throw FROM examples ORDER BY id DESC LIMIT 1 OFFSET ?",
                              (MAX_EXAMPLES,)).fetchone()
        if row is not None:
            self.db.execute("DELETE FROM examples WHERE throw <= ?", (row[0],))

    def examples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The taught crops, oldest first: ((N, 32, 32, 3) uint8 BGR, (N,) int64 values 0-6,
        (N,) int64 throw ids, (N,) float64 die finder scores 0-1, NaN where unknown). A crop whose
        bytes are not a whole crop (a damaged row) is left out, and the journal says so: a few
        taught dice fewer, never a table that cannot teach or read."""
        (damaged,) = self.db.execute(f"SELECT COUNT(*) FROM examples WHERE NOT ({_WHOLE_CROP})").fetchone()
        if damaged:
            log.warning("%s: taught die crops damaged and left out: %d", self.path, damaged)
        rows = self.db.execute(f"SELECT crop, value, throw, score FROM examples WHERE {_WHOLE_CROP} "
                               "ORDER BY id").fetchall()
        crops = np.frombuffer(b"".join(r[0] for r in rows), np.uint8).reshape((len(rows),) + CROP_SHAPE)
        return (crops.copy(), np.array([r[1] for r in rows], np.int64).reshape(-1),
                np.array([r[2] for r in rows], np.int64).reshape(-1),
                np.array([np.nan if r[3] is None else r[3] for r in rows], np.float64).reshape(-1))

    def count_examples(self) -> tuple[int, int, int]:
        """(taught throws, taught crops, the newest throw's id or 0) kept."""
        throws, crops, last = self.db.execute(
            "SELECT COUNT(DISTINCT throw), COUNT(*), COALESCE(MAX(throw), 0) FROM examples "
            f"WHERE {_WHOLE_CROP}").fetchone()
        return int(throws), int(crops), int(last)

    def throw_ids(self) -> set[int]:
        """The ids of the taught throws kept (those ``count_examples`` counts)."""
        return {int(t) for (t,) in self.db.execute(f"SELECT DISTINCT throw FROM examples WHERE {_WHOLE_CROP}")}

    def forget_examples(self, keys=("adaptation",)) -> int:
        """Forget these dice: every taught crop, and the settings under ``keys`` (the adaptation
        fitted on them), in one commit. Returns how many crops were removed."""
        with _transaction(self.db):
            cur = self.db.execute("DELETE FROM examples")
            self.db.executemany("DELETE FROM settings WHERE key = ?", [(k,) for k in keys])
        return cur.rowcount

    # --- the evening -------------------------------------------------------------------------

    def new_evening(self, clock=time.time) -> int:
        """Start counting a new evening (the games already ended keep their own evening)."""
        with _transaction(self.db):
            cur = self.db.execute("INSERT INTO evenings (started) VALUES (?)", (clock(),))
        return int(cur.lastrowid)

    def ended_games(self) -> list[EndedGame]:
        """The ended games of the current evening, oldest first."""
        evening = self._latest_evening()
        rows = self.db.execute("SELECT id, setup, winner, tally, started, ended FROM games "
                               "WHERE evening_id = ? AND ended IS NOT NULL ORDER BY id", (evening,)).fetchall()
        return [EndedGame(id=i, setup=json.loads(s), winner=None if w is None else json.loads(w),
                          tally=json.loads(t), started=st, ended=en) for i, s, w, t, st, en in rows]

    def evening_played(self) -> bool:
        """Whether a game of the current evening has ended (one small query: the kiosk asks it for
        every frame of its setup screen)."""
        (played,) = self.db.execute("SELECT EXISTS (SELECT 1 FROM games WHERE ended IS NOT NULL AND "
                                    "evening_id = (SELECT MAX(id) FROM evenings))").fetchone()
        return bool(played)

    def evening(self) -> dict[str, dict[str, int]]:
        """The current evening's totals over its ended games: ``{player: {"drinks": n, "penalties": n}}``
        (players in the order first seen). Add the running game's own counts to show a live total."""
        from appliance.session import counts_total

        return counts_total(*(game.tally for game in self.ended_games()))

    def _latest_evening(self) -> int | None:
        row = self.db.execute("SELECT MAX(id) FROM evenings").fetchone()
        return row[0]

    def _current_evening(self, now: float) -> int:
        evening = self._latest_evening()
        if evening is None:
            evening = self.db.execute("INSERT INTO evenings (started) VALUES (?)", (now,)).lastrowid
        return evening


def read_log(path: str | Path, game_id: int | None = None) -> tuple[int, list[str]]:
    """One saved game as its game log (RULES.md §4), read without changing anything: for
    ``dicetable replay`` on the appliance's store, e.g. to see why the kiosk announced what it did.

    path: the store file, or the state directory holding it; a file moved aside as ``.broken-*`` is
    read too if SQLite still can. game_id: the game's id; None takes the latest game.
    Returns (id, lines): the setup line, then one line per accepted action, as JSON text.
    Raises StoreError with a message naming the file: not there, not a Dice Table store, unreadable,
    or no such game (the message then lists the ids there are).
    """
    with _read_only(path) as (db, path):
        ids = [i for (i,) in db.execute("SELECT id FROM games ORDER BY id")]
        if not ids:
            raise StoreError(2, f"{path}: no games saved yet")
        if game_id is None:
            game_id = ids[-1]
        elif game_id not in ids:
            raise StoreError(2, f"{path}: no game {game_id} (games {ids[0]}-{ids[-1]})")
        (setup,) = db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
        actions = [a for (a,) in db.execute("SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
    return game_id, [setup, *actions]


def read_evening(path: str | Path) -> list[tuple[dict, list[dict], list[list[dict]], dict, list[str] | None]]:
    """The latest evening's ended games, read without changing anything (``dicetable summary``).

    path: the store file or the state directory holding it. Returns per game, oldest first, (setup,
    actions, events per action, tally, winner) as ``Store`` keeps them; [] when none has ended. Raises
    StoreError naming the file: not there, not a Dice Table store, or unreadable (damaged pages,
    a row that is not the JSON it must be).
    """
    with _read_only(path) as (db, path):
        (evening,) = db.execute("SELECT MAX(id) FROM evenings").fetchone()
        rows = db.execute("SELECT id, setup, tally, winner FROM games WHERE evening_id = ? AND ended IS NOT NULL "
                          "ORDER BY id", (evening,)).fetchall()
        out = []
        for game_id, setup, tally, winner in rows:
            logged = db.execute("SELECT action, events FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
            try:
                out.append((json.loads(setup), [json.loads(a) for a, _e in logged],
                            [json.loads(e) for _a, e in logged], json.loads(tally or "{}"),
                            None if winner is None else json.loads(winner)))
            except (TypeError, ValueError) as exc:
                raise StoreError(5, f"{path}: game {game_id} cannot be read: {exc}") from None
    return out


@contextmanager
def _read_only(path: str | Path):
    """The store at ``path`` (a file or its directory) opened read-only and checked as ours: yields
    (connection, file path) and closes it; SQLite errors inside become StoreError naming the file,
    as does a store of a newer schema."""
    db, path = connect_read_only(path)
    try:
        _check_version(db, path, older=True)  # an older one's games read alike
        yield db, path
    except sqlite3.Error as exc:  # damaged pages, a row that does not parse
        raise StoreError(errno.EIO, f"{path}: cannot be read: {exc}") from None
    finally:
        db.close()


def _check_version(db: sqlite3.Connection, path: Path, *, older: bool) -> None:
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
            if not (_cannot_share(exc) or _disk_full(path.parent)):
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


def _disk_full(directory: Path) -> bool:
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


# --- the file ----------------------------------------------------------------------------------

def _check_settings(values: dict) -> None:
    """Raises TypeError for a setting whose key or value is not text."""
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in values.items()):
        raise TypeError(f"settings are text: {values!r}")


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@contextmanager
def _opening(state_dir: Path):
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


def _connect(path: Path) -> sqlite3.Connection:
    # isolation_level=None: no implicit transactions; each write is one explicit _transaction.
    db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    db.execute("PRAGMA journal_mode=WAL")
    # FULL: a WAL commit is fsynced before returning, so a pulled plug keeps every recorded action.
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


@contextmanager
def _transaction(db: sqlite3.Connection):
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


def _create_or_upgrade(db: sqlite3.Connection, now: float) -> None:
    """A new file gets the schema; a file of an older version (checked by ``_check_existing``) its
    upgrades. Each in one commit: a pulled plug leaves the file as it was or as it should be."""
    (app,) = db.execute("PRAGMA application_id").fetchone()
    if app == APPLICATION_ID:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version < SCHEMA_VERSION:
            with _transaction(db):  # user_version is in the file's header: it commits with the tables
                for v in range(version, SCHEMA_VERSION):
                    _execute_all(db, _UPGRADES[v])
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return
    with _transaction(db):  # schema and marks in one commit: a half-made file is never "ours"
        _execute_all(db, _SCHEMA + "".join(_UPGRADES[v] for v in range(1, SCHEMA_VERSION)))
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("INSERT INTO evenings (started) VALUES (?)", (now,))


def _execute_all(db: sqlite3.Connection, script: str) -> None:
    """The statements of ``script`` one by one (``executescript`` would commit the transaction)."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _check_existing(path: Path) -> str | None:
    """Why the file at ``path`` cannot be used as our store (short, for the notice), or None."""
    if not path.exists():
        for side in _sidecars(path):  # a -wal without its database would be replayed into a new one
            if side.exists():
                return _("a journal without its database")
        return None
    if not path.is_file():  # a folder (or a device) by its name: sqlite's "unable to open" says less
        return _("it is a folder, not a file") if path.is_dir() else _("it is not a file")
    if path.stat().st_size == 0:
        return _("the file was empty")
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


def _sidecars(path: Path) -> list[Path]:
    return [path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


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
    """What ``_salvage`` copied of a damaged store: rows per table (``_SALVAGED``, and "actions"),
    and the games whose log was cut short (read up to a damaged or missing action)."""

    rows: dict[str, int]
    cut_games: int = 0

    def __bool__(self) -> bool:
        """Whether anything of the table's was kept (an evening alone is not: a fresh store has one)."""
        return any(n for table, n in self.rows.items() if table != "evenings")


def _salvage(path: Path, now: float) -> Salvaged | None:
    """Copy what still reads of the damaged store at ``path`` into a new store in a working folder
    beside it, marked complete ("done") for ``_finish_salvage`` to put in its place once the damaged
    file is moved aside: every row SQLite can still read and ``_check_existing`` accepts, each
    game's actions up to its first damaged or missing one (a log's beginning replays; a log with a
    hole could replay to another game). A game that then no longer replays is set aside by the
    session, as any other. None when nothing of the table's reads (not one of ours, a newer schema,
    nothing left); the working folder is then gone. Raises StoreError, changing nothing, when the
    disk has no room for the copy: the damaged file stays where it is, to be salvaged once there is."""
    import shutil
    import tempfile

    if not path.is_file():  # a folder, a -wal without its database: nothing of ours to read
        return None
    work = Path(tempfile.mkdtemp(prefix=SALVAGE_PREFIX, dir=path.parent))
    found = None
    try:
        damaged = _readable_copy(path, work / "damaged.sqlite3")
        old, _path = connect_read_only(damaged)
        try:
            new = _connect(work / FILENAME)
            try:
                _create_or_upgrade(new, now)
                found = _salvage_from(old, new, path)
            finally:
                new.close()  # the last connection: the WAL is written back into the file and removed
        finally:
            old.close()
        if found:
            for part in (damaged, *_sidecars(damaged)):
                part.unlink(missing_ok=True)
            with open(work / FILENAME, "rb+") as f:
                os.fsync(f.fileno())
            with open(work / "done", "wb") as f:
                os.fsync(f.fileno())
            _fsync_dir(work)
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


def _finish_salvage(path: Path, now: float) -> None:
    """Put a complete salvage (``_salvage``) where the store goes, once the damaged file is gone from
    there (also one a pulled plug cut off between the two moves); remove every other working folder
    (a salvage cut off earlier: its damaged file is still in place, and salvaged again)."""
    import shutil

    for work in sorted(path.parent.glob(SALVAGE_PREFIX + "*")):
        if (work / "done").exists() and not path.exists():
            if any(side.exists() for side in _sidecars(path)):  # the damaged file's, half moved aside
                _move_aside(path, now)
            os.replace(work / FILENAME, path)
            _fsync_dir(path.parent)
            log.warning("%s: what still read of the damaged saved games is now the store", path)
        shutil.rmtree(work, ignore_errors=True)


def _readable_copy(broken: Path, copy: Path) -> Path:
    """``copy``: a copy of ``broken`` (and its -wal) that SQLite will open. A file cut short (a
    truncated copy, a card that lost its last blocks) is lengthened with zeros to the size its
    header gives, when the header vouches for it (SQLite's own test: its change counter matches its
    version-valid-for number), so that SQLite reads the pages that are there and finds the lost
    ones damaged, instead of refusing the whole file. The zeros are a hole: no memory, no disk."""
    import shutil

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
    """``_salvage`` from ``old``, the damaged store opened for reading, into ``db``, in one commit.
    Raises sqlite3.OperationalError when ``db`` cannot take them (a full disk)."""
    (version,) = old.execute("PRAGMA user_version").fetchone()
    if not 1 <= version <= SCHEMA_VERSION:
        return None
    rows: dict[str, int] = {}
    with _transaction(db):
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
            continue  # as ``_check_existing`` would refuse it: the file would be moved aside at every start
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
    """Whether a game row's setup is a JSON object, as ``_check_existing`` asks."""
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


def _move_aside(path: Path, now: float) -> Path:
    """Rename the file (and its -wal/-shm) to a free ``<name>.broken-<time>`` name; returns it."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.broken-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{n}")
    if path.exists():
        os.replace(path, target)
    for side, suffix in zip(_sidecars(path), ("-wal", "-shm")):
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    _fsync_dir(path.parent)
    return target


def _fsync_dir(directory: Path) -> None:
    """Make the renames themselves survive a power cut."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
