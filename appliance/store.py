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
with what still reads of a damaged one of ours copied in (``appliance.salvage``: each game's log up
to its first damaged action), and ``notice`` saying so. The file itself (schema, opening, checks)
is ``appliance.store_file``'s.

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
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from appliance.i18n import _
from appliance.salvage import SALVAGE_PREFIX, finish_salvage, salvage
from appliance.store_file import (FILENAME, ROOM, StoreError, check_existing, check_version, connect,
                                  connect_read_only, create_or_upgrade, disk_full, move_file_aside, opening,
                                  sidecars, transaction)

log = logging.getLogger(__name__)

LOCKNAME = "kiosk.lock"  # held by the kiosk that plays on the state directory (``claim``); holds its pid
MAX_EXAMPLES = 3000  # taught die crops kept; past it the oldest throws go first (about 9 MB)
CROP_SHAPE = (32, 32, 3)  # a taught crop: what the face reader reads, uint8 BGR

# A saved game set aside (``Store.set_aside``): ended, all of it announced, and (unless it had ended)
# the empty tally, which no game ended by ``end_game`` has (the engine seats one player at least):
# that tells it from the evening's games (``_PLAYED``), which it is not one of.
_SET_ASIDE = ("UPDATE games SET ended = COALESCE(ended, ?), tally = COALESCE(tally, '{}'), "
              "announced = (SELECT COUNT(*) FROM actions WHERE game_id = games.id) WHERE id = ?")
_PLAYED = "ended IS NOT NULL AND tally != '{}'"
# A taught crop as ``add_throws`` keeps it: a whole crop, a throw id, a score or none (the value's
# CHECK holds it to 0-6). A row damaged otherwise (a hand edit, a bad sector) is left out, never
# read as garbage.
_WHOLE_CROP = (f"typeof(crop) = 'blob' AND length(crop) = {int(np.prod(CROP_SHAPE))} "
               "AND typeof(throw) = 'integer' AND (score IS NULL OR typeof(score) IN ('real', 'integer'))")


def foreign_files(state_dir: Path) -> bool:
    """Whether ``state_dir`` (an existing directory) holds no store and files the kiosk does not keep
    there (its store's journal files, a store set aside, its lock, a salvage under way): a folder of
    photos, or ``/`` from an unset variable, is no table's, and no store is made in it."""
    def the_tables(name: str) -> bool:
        return (name in (FILENAME, LOCKNAME, f"{FILENAME}-wal", f"{FILENAME}-shm", f"{FILENAME}-journal")
                or name.startswith((f"{FILENAME}.broken-", SALVAGE_PREFIX)))

    state_dir = Path(state_dir)
    return not (state_dir / FILENAME).exists() and any(not the_tables(entry.name) for entry in state_dir.iterdir())


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
    salvaged: bool = False  # what still read of the file moved aside was copied in (``appliance.salvage``)
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
        if disk_full(state_dir):
            # Checked first: SQLite without room for its -shm says "disk I/O error", and a sound file
            # would be taken for a damaged one and set aside (with no room to keep what reads of it).
            raise StoreError(errno.ENOSPC, f"the disk holding {state_dir} is full (under {ROOM // 1024} KB "
                                           "free): nothing there was changed; make room to save again")
        path = state_dir / FILENAME
        if path.is_symlink() and not path.exists():  # SQLite would make a new store where it points
            raise StoreError(errno.ENOENT, f"the store {path} cannot be opened: it is a link to {os.readlink(path)}, "
                                           "which does not exist (a drive not mounted?)")
        for part in (path, *sidecars(path)):  # the file itself: e.g. root's copy of a backup, chattr +i
            if part.exists() and not os.access(part, os.W_OK):
                raise StoreError(errno.EACCES, f"the saved games {part} cannot be written by this user")
        with opening(state_dir):
            if move_aside:
                finish_salvage(path, clock())
            problem = check_existing(path)
            if problem and not move_aside:
                raise StoreError(errno.EPROTO, f"the saved games {path} cannot be used ({problem}): the kiosk "
                                               "puts them aside for the staff at its next start")
            moved_to = kept = None
            if problem:
                # What still reads is copied into a new file first, the damaged one moved aside only
                # then: a plug pulled during the copy leaves the damaged file in place, to try again.
                kept = salvage(path, clock())
                moved_to = move_file_aside(path, clock())
                if kept is not None:
                    finish_salvage(path, clock())
            try:
                db = connect(path)
            except sqlite3.Error as exc:
                raise StoreError(errno.EIO, f"the store {path} cannot be opened: {exc}") from None
            try:
                create_or_upgrade(db, clock())
            except sqlite3.Error as exc:  # e.g. the disk is full
                db.close()
                raise StoreError(5, f"the store {path} cannot be written: {exc}") from None
            for part in (path, *sidecars(path)):  # made by root (``sudo dicetable teach``): the kiosk's
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
            check_version(db, path, older=False)
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
        with transaction(self.db):
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
        with transaction(self.db):
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
        with transaction(self.db):
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
        with transaction(self.db):
            cur = self.db.execute("UPDATE games SET ended = ?, winner = ?, tally = ? WHERE id = ? AND ended IS NULL",
                                  (clock(), None if winner is None else _dumps(winner), _dumps(tally), game_id))
            if cur.rowcount != 1 and self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise KeyError(f"no game {game_id}")

    def set_aside(self, game_id: int, clock=time.time) -> None:
        """A saved game that no longer replays (a hand-edited file, a log another engine version
        refuses): ended with no winner and no counts, every action marked announced, so it is never
        resumed again. Its log stays in the file for a look by hand. Raises KeyError for an unknown game."""
        with transaction(self.db):
            if self.db.execute(_SET_ASIDE, (clock(), game_id)).rowcount != 1:
                raise KeyError(f"no game {game_id}")

    def continue_as_new(self, game_id: int, kept: list[tuple[dict, list[dict]]], clock=time.time) -> int:
        """A saved game whose log the engine refuses from some action on, continued: set aside (as
        ``set_aside``, its whole log kept for a look by hand, not counted in the evening), and a new
        game of the same setup, with ``kept`` (the (action, events) before the refused one), in its
        place, announced as far as the old one was; in one commit. Returns the new game's id. Raises KeyError for an unknown game,
        TypeError/ValueError for an action or events that are not JSON (nothing changed)."""
        rows = [(seq, _dumps(action), _dumps(events)) for seq, (action, events) in enumerate(kept, 1)]
        with transaction(self.db):
            row = self.db.execute("SELECT setup, announced FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise KeyError(f"no game {game_id}")
            self.db.execute(_SET_ASIDE, (clock(), game_id))
            new = self.db.execute("INSERT INTO games (evening_id, setup, started, announced) VALUES (?, ?, ?, ?)",
                                  (self._current_evening(clock()), row[0], clock(), min(row[1], len(rows)))).lastrowid
            self.db.executemany("INSERT INTO actions (game_id, seq, action, events) VALUES (?, ?, ?, ?)",
                                [(new, *r) for r in rows])
        return int(new)

    # --- settings ----------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        """The text last saved under ``key`` with ``save_settings``, or None."""
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def save_settings(self, values: dict[str, str]) -> None:
        """Keep each text of ``values`` under its key, all in one commit; durable when this returns.
        Raises TypeError (nothing saved) for a key or value that is not a str."""
        _check_settings(values)
        with transaction(self.db):
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
        with transaction(self.db):
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
        with transaction(self.db):
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
        with transaction(self.db):
            cur = self.db.execute("DELETE FROM examples")
            self.db.executemany("DELETE FROM settings WHERE key = ?", [(k,) for k in keys])
        return cur.rowcount

    # --- the evening -------------------------------------------------------------------------

    def new_evening(self, clock=time.time, settings: dict[str, str] | None = None) -> int:
        """Start counting a new evening (the games already ended keep their own evening); returns its
        id. settings: texts kept under their keys in the same commit (as ``save_settings``); raises
        TypeError for one that is not text (nothing saved)."""
        if settings:
            _check_settings(settings)
        with transaction(self.db):
            cur = self.db.execute("INSERT INTO evenings (started) VALUES (?)", (clock(),))
            if settings:
                self._put_settings(settings)
        return int(cur.lastrowid)

    def ended_games(self) -> list[EndedGame]:
        """The ended games of the current evening, oldest first."""
        evening = self._latest_evening()
        rows = self.db.execute("SELECT id, setup, winner, tally, started, ended FROM games "
                               f"WHERE evening_id = ? AND {_PLAYED} ORDER BY id", (evening,)).fetchall()
        return [EndedGame(id=i, setup=json.loads(s), winner=None if w is None else json.loads(w),
                          tally=json.loads(t), started=st, ended=en) for i, s, w, t, st, en in rows]

    def evening_played(self) -> bool:
        """Whether a game of the current evening has ended (one small query: the kiosk asks it for
        every frame of its setup screen)."""
        (played,) = self.db.execute(f"SELECT EXISTS (SELECT 1 FROM games WHERE {_PLAYED} AND "
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
        rows = db.execute(f"SELECT id, setup, tally, winner FROM games WHERE evening_id = ? AND {_PLAYED} "
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
        check_version(db, path, older=True)  # an older one's games read alike
        yield db, path
    except sqlite3.Error as exc:  # damaged pages, a row that does not parse
        raise StoreError(errno.EIO, f"{path}: cannot be read: {exc}") from None
    finally:
        db.close()


def _check_settings(values: dict) -> None:
    """Raises TypeError for a setting whose key or value is not text."""
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in values.items()):
        raise TypeError(f"settings are text: {values!r}")


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
