"""The solved Yacht tables on disk: computed when first needed, then loaded (a few ms).

One ``.npz`` file per set of rules switches and solver version, written atomically (a temporary
file, fsync, rename), so a pulled plug leaves either the old file or the new one. A file that cannot
be read, is corrupt (zip CRC), or does not match the rules and version is solved again and
replaced. A directory that cannot be written only costs the next start another solve.
"""

from __future__ import annotations

import logging
import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np

from appliance.coach.yacht_solver import (
    ALL_USED,
    N_CATEGORIES,
    ROLLS_PER_TURN,
    SOLVER_VERSION,
    YachtRules,
    YachtTables,
    dice_space,
    solve,
)

log = logging.getLogger(__name__)


def default_cache_dir() -> Path:
    """Where the tables live.

    On the appliance the service's systemd ``CacheDirectory=`` or ``StateDirectory=`` (their
    ``CACHE_DIRECTORY`` / ``STATE_DIRECTORY`` variables); elsewhere ``$XDG_CACHE_HOME/dicetable``,
    else ``~/.cache/dicetable``.
    """
    for variable in ("CACHE_DIRECTORY", "STATE_DIRECTORY"):
        value = os.environ.get(variable)
        if value:
            return Path(value.split(":")[0])  # systemd lists several directories with ":"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "dicetable"


def cache_path(rules: YachtRules, directory: Path | None = None) -> Path:
    """The cache file of ``rules``, e.g. ``~/.cache/dicetable/yacht-coach-v1-seed-fh0.npz``."""
    directory = default_cache_dir() if directory is None else Path(directory)
    return directory / f"yacht-coach-v{SOLVER_VERSION}-{rules.key}.npz"


def _stamp(rules: YachtRules) -> str:
    return f"dicetable yacht solver v{SOLVER_VERSION} {rules.key}"


def read_tables(path: Path, rules: YachtRules) -> YachtTables | None:
    """The tables stored at ``path``, or None when missing, unreadable, corrupt or not for ``rules``."""
    n_states = len(dice_space().states)
    shape = (ROLLS_PER_TURN, n_states, N_CATEGORIES)
    try:
        stored = np.load(path, allow_pickle=False)
        if not isinstance(stored, np.lib.npyio.NpzFile):  # a plain .npy array: not our archive
            raise ValueError(f"not an .npz archive but a {type(stored).__name__}")
        with stored:
            stamp = str(stored["stamp"])
            turn, keep, game = stored["turn"], stored["keep"], stored["game"]
    except FileNotFoundError:
        return None
    # np.load of a damaged file raises any of these (truncated zip, bad CRC, bad header, ...).
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        log.warning("yacht coach cache %s is unreadable (%s); solving again", path, exc)
        return None
    sound = (
        stamp == _stamp(rules)
        and turn.shape == shape and turn.dtype == np.float64 and np.isfinite(turn).all()
        and keep.shape == shape and keep.dtype == np.int64 and ((keep >= 0) & (keep < 32)).all()
        and game.shape == (ALL_USED + 1,) and game.dtype == np.float64 and np.isfinite(game).all()
    )
    if not sound:
        log.warning("yacht coach cache %s does not match rules %s; solving again", path, rules.key)
        return None
    return YachtTables(rules=rules, turn=turn, keep=keep, game=game)


def write_tables(tables: YachtTables, path: Path) -> None:
    """Store ``tables`` at ``path`` atomically. Raises OSError if the directory cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez(f, stamp=np.array(_stamp(tables.rules)), turn=tables.turn, keep=tables.keep, game=tables.game)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_or_solve(rules: YachtRules = YachtRules(), directory: Path | None = None) -> YachtTables:
    """The tables for ``rules`` from the cache in ``directory`` (default :func:`default_cache_dir`),
    solving and storing them when the cache is missing or bad. Never raises for the cache's sake.
    """
    path = cache_path(rules, directory)
    tables = read_tables(path, rules)
    if tables is None:
        tables = solve(rules)
        try:
            write_tables(tables, path)
        except OSError as exc:
            log.warning("cannot store the yacht coach cache at %s (%s); it is solved again next start", path, exc)
    return tables
