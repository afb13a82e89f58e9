"""Labelled still photos as a table: a frame source that shows one photo per throw, and the photos
of a folder grouped by their number of dice.

The headless demo's ``--source DIR`` throws these instead of the synthetic table. ``photo_pools``
reads the folder's ``manifest.csv`` (the format of ``../shared/dice-photos/README.txt``) when there
is one; without it, the dice reader counts the dice of every image once (no labels then).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.frames import Frame
from vision.sources.folder import IMAGE_SUFFIXES


@dataclass
class Photo:
    """One labelled photo: its path and, when a manifest gives them, the dice it shows."""

    path: Path
    n: int
    values: tuple[int, ...] | None


class PhotoSource:
    """A frame source of still photos with motion between them: after each ``show`` a few frames of
    the previous picture shifting away (a hand, the dice tumbling), then the photo itself, still.
    Virtual time at ``fps``."""

    def __init__(self, fps: float = 15.0) -> None:
        self.fps = fps
        self.index = 0
        self.image: np.ndarray | None = None
        self.moving = 0
        self._blank = np.full((480, 640, 3), 40, np.uint8)

    def show(self, image: np.ndarray | None, motion_frames: int = 6) -> None:
        """Show ``image`` (None: an empty, dark scene, e.g. a cup) after ``motion_frames`` of motion."""
        self.image = image
        self.moving = motion_frames

    def read(self) -> Frame:
        """The next frame (never raises: a photo table does not run out)."""
        base = self.image if self.image is not None else self._blank
        if self.moving > 0:
            # Motion: the scene shifted and darkened a little differently each frame.
            self.moving -= 1
            img = np.roll(base, 7 * (self.moving + 1), axis=1) // 2 + 20
        else:
            img = base
        frame = Frame(img, self.index / self.fps, self.index)
        self.index += 1
        return frame

    def close(self) -> None:
        """Nothing to release."""


def photo_pools(folder: Path, seed: int, counts=(2, 5)) -> dict[int, list[Photo]]:
    """The photos of ``folder`` by number of dice (each of ``counts``), shuffled with ``seed``.

    With a ``manifest.csv`` in the folder (as ../shared/dice-photos has), its rows give each photo's
    number of dice and labels; rows marked excluded are left out, and when the manifest marks
    ``table_like`` photos (the appliance's own situation: a tray, at most 5 dice, none touching),
    only those are used. Without a manifest, every image in the folder (recursively) is read once
    by the dice reader to count its dice, and only those it reads are kept; no labels then. A pool may be empty: the caller says which
    counts it needs. Raises NotADirectoryError when ``folder`` is not a folder.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise NotADirectoryError(folder)
    pools: dict[int, list[Photo]] = {n: [] for n in counts}
    manifest = folder / "manifest.csv"
    if manifest.is_file():
        _from_manifest(folder, manifest, pools)
    else:
        _by_counting(folder, pools)
    rng = np.random.default_rng(seed)
    for n in pools:
        pools[n].sort(key=lambda p: str(p.path))
        rng.shuffle(pools[n])
    return pools


def _from_manifest(folder: Path, manifest: Path, pools: dict[int, list[Photo]]) -> None:
    with manifest.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("excluded", "0") != "1"]
    if any(r.get("table_like") == "1" for r in rows):
        rows = [r for r in rows if r.get("table_like") == "1"]
    for row in rows:
        n = int(row["n_dice"])
        if n in pools and (folder / row["file"]).is_file():
            values = tuple(int(v) for v in row["values"].split())
            pools[n].append(Photo(folder / row["file"], n, values))


def _by_counting(folder: Path, pools: dict[int, list[Photo]]) -> None:
    from vision.images import ImageError, load_image
    from vision.reader import read_dice

    for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES):
        try:
            img = load_image(path)
        except ImageError:
            continue
        reading = read_dice(img)
        n = len(reading.dice)
        if reading.ok and n in pools:  # a photo the reader cannot read would have no labels to fix it
            pools[n].append(Photo(path, n, None))
