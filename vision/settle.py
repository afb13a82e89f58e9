"""The settle detector: decides when thrown dice have a value. Pure: frames and their timestamps in,
a per-frame state and at most one settled reading per throw out; no clock, no camera, no threads.

Per frame, the state is
- "moving": the frame differs from the one before (or from the first frame of the current still
  spell) inside the tray area by more than sensor noise over more than a few cells of a coarse grid;
- "still": nothing moves;
- "empty": nothing moves and the tray holds no dice (the last readings found none, or the frame
  matches the empty-tray reference).

Once the scene has been still for ``still_s`` (default 0.4 s) and ``agree`` consecutive readings
(default 3) of that still scene say the same, the detector reports one settled reading, then locks: it reads nothing
more until the scene moves again. After a movement (a hand passing over, a die nudged) the new still
scene is compared with the last reported one (and the last roll): if every die is where it was, within ``moved_frac`` of
a die's edge (default half a die), and shows the same value, it is the same throw and nothing is
reported; a die that really moved, or another value, is a new throw.

The number of dice the game expects is an input (``expected``): a reading with another count is
reported as ``unreadable`` with the reason ("expected 5 dice, found 4"), never as a roll. As the
scene did not move, readings of it that differ differ by sensor noise alone; so a roll that ``agree``
readings agreed on wins over unsure ("unreadable") readings of the same scene, which settle only
after ``unsure_s`` more seconds without such a roll. Two different agreed rolls, or readings that
keep disagreeing for ``give_up_s``, are reported once as ``unreadable``.

Time is the frames' own timestamps (s). A frame whose timestamp does not advance is ignored; a jump
longer than ``max_gap_s`` (or ``interrupt()``, when the camera failed) means the detector did not see
what happened, so the still spell starts afresh (the lock and the last report stay, so a camera that
comes back on the same dice does not report them twice). Frozen and stale frames are the sources'
business (``vision.sources.LiveCamera``): they never reach here.

A restart (a pulled plug) would lose the last report: ``resumed`` gives it back (the kiosk keeps it
in its store), so the dice still lying there as they were are not taken for a new throw.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Callable, Literal

import cv2
import numpy as np

from vision.reading import DiceReading, no_dice, unreadable, wrong_count
from vision.tray import off_tray

State = Literal["empty", "moving", "still"]
Reader = Callable[..., DiceReading]


class TrayOutsideFrame(ValueError):
    """The tray area (x, y, w, h px) leaves less than 8x8 px of the frame: an area of another
    camera or frame size, or a config's typo. Nothing can be read inside it; the frame itself is
    fine (the guided setup finds the tray in it again)."""


@dataclass(frozen=True)
class SettleParams:
    """The settle detector's tunables.

    still_s: how long the scene must be still before a reading counts, s.
    agree: how many consecutive readings must say the same (values, status).
    unsure_s: after ``still_s``, how long unsure (``unreadable`` or empty) agreeing readings wait for
        an agreed roll before they settle, s.
    read_from: the share of ``still_s`` after which reading starts (earlier frames are not read).
    give_up_s: after ``still_s``, how long to wait for agreeing readings before reporting the last
        one as unreadable, s.
    grid_width: motion is judged on the tray area shrunk to this width (px); each cell averages
        several pixels, which averages sensor noise away.
    diff_level: a cell changed when a channel differs by more than this (0-255) between frames.
    motion_cells: the scene moves when more than this share of the cells changed (at least 2 cells).
    moved_frac: a die that moved more than this many die edges makes a new throw.
    max_gap_s: frames further apart than this break the still spell (we did not see in between).
    """

    still_s: float = 0.4
    agree: int = 3
    read_from: float = 0.5
    unsure_s: float = 0.3
    give_up_s: float = 2.0
    grid_width: int = 160
    diff_level: int = 14
    motion_cells: float = 0.0005
    moved_frac: float = 0.5
    max_gap_s: float = 0.5


@dataclass(frozen=True)
class Settled:
    """One settled throw.

    reading: an ``ok`` reading with the expected number of dice (the roll is ``reading.values``), or
        an ``unreadable`` one with its reason. t: the timestamp (s) and index of the frame that
        settled it.
    """

    reading: DiceReading
    t: float
    index: int

    @property
    def ok(self) -> bool:
        """True when the reading is a roll the game may act on."""
        return self.reading.ok


@dataclass(frozen=True)
class Update:
    """What one frame did: its state, the reading made of it (None when it was not read) and the
    settled throw it completed (None mostly)."""

    state: State
    reading: DiceReading | None = None
    settled: Settled | None = None


def same_dice(a: DiceReading, b: DiceReading | None, moved_frac: float = 0.5) -> bool:
    """True when ``b`` shows the same dice as ``a``: the same status and values, and each die of one
    within ``moved_frac`` of its edge (px, from its box) of a die of the same value in the other."""
    if b is None or a.status != b.status or a.values != b.values or len(a.dice) != len(b.dice):
        return False
    free = list(b.dice)
    for d in a.dice:
        edge = max(1.0, (d.box[2] + d.box[3]) / 2)
        best = min((e for e in free if e.value == d.value),
                   key=lambda e: math.dist(e.center, d.center), default=None)
        if best is None or math.dist(best.center, d.center) > moved_frac * edge:
            return False
        free.remove(best)
    return True


def _empty(r: DiceReading) -> bool:
    """Whether a reading says nothing die-like lies on the tray. A reading that found no die but
    doubts (the reader's ``count`` or ``unsure`` with no dice) is not empty: a throw whose dice
    cannot be found is reported as unreadable, never as silence."""
    return r.kind == "no_dice"


class SettleDetector:
    """Frames in, one settled reading per throw out (see the module docstring).

    reader: ``vision.reader.read_dice`` or any callable ``(image, expected=, reference=) -> DiceReading``.
    expected: the number of dice the game expects (2 or 5), or None; may be changed between frames
        (a still scene is then read again under the new count).
    tray: (x, y, w, h) px, the tray area (``vision.tray``): motion is judged inside it only; the
        whole frame is read, and a reading with a die whose centre lies outside the area is
        ``unreadable``, kind "off_tray" (a re-throw). None: the whole frame.
    reference: an empty-tray frame of the same size from calibration (given to the reader, and used
        to call a still, empty tray "empty" without reading it).
    """

    def __init__(self, reader: Reader, expected: int | None = None, *, tray: tuple[int, int, int, int] | None = None,
                 reference: np.ndarray | None = None, params: SettleParams = SettleParams()):
        if params.agree < 1 or params.still_s < 0:
            raise ValueError(f"agree must be at least 1 and still_s not negative: {params}")
        self.reader = reader
        self._expected = expected
        self.params = params
        self.tray = tray
        self.reference = reference
        self._ref_small: np.ndarray | None = None
        self.last_settled: Settled | None = None  # the last report: new throws are compared with it
        self.last_roll: Settled | None = None  # the last ``ok`` report
        self.locked: DiceReading | None = None  # what the current still scene was settled as
        self._prev: np.ndarray | None = None  # the previous frame, shrunk
        self._anchor: np.ndarray | None = None  # the first frame of the still spell, shrunk
        self._still_since: float | None = None
        self._last_t: float | None = None
        self._readings: deque[DiceReading] = deque(maxlen=200)  # the readings of this still spell
        self._empty_seen = False
        self.state: State = "moving"

    @property
    def expected(self) -> int | None:
        """The number of dice the game expects now (None: any)."""
        return self._expected

    @expected.setter
    def expected(self, n: int | None) -> None:
        if n != self._expected:
            # The still scene was settled under the old count: read it again under the new one (it
            # is reported only if that makes it differ from the last report).
            self.locked = None
            self._readings.clear()
            # ... as a still spell that starts now: its times (to agree, to give up) count from its
            # first reading, or a long-still empty tray gave up at once ("readings disagree").
            if self._still_since is not None and self._last_t is not None:
                self._still_since = self._last_t
        self._expected = n

    # -- motion --------------------------------------------------------------------------------

    def _crop(self, image: np.ndarray) -> np.ndarray:
        if self.tray is None:
            return image
        x, y, w, h = self.tray
        return image[max(0, y):y + h, max(0, x):x + w]

    def _shrink(self, image: np.ndarray) -> np.ndarray:
        crop = self._crop(image)
        h, w = crop.shape[:2]
        if h < 8 or w < 8:
            size = f"{image.shape[1]}x{image.shape[0]}"
            if self.tray is None or min(image.shape[:2]) < 8:  # the frame itself: garbage, not the area
                raise ValueError(f"a {size} frame is too small to judge motion in")
            raise TrayOutsideFrame(f"the tray area {self.tray} (x, y, w, h px) lies outside the {size} frame")
        gw = min(self.params.grid_width, w)
        gh = max(1, round(h * gw / w))
        return cv2.resize(crop, (gw, gh), interpolation=cv2.INTER_AREA)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> bool:
        if a.shape != b.shape:
            return True
        diff = cv2.absdiff(a, b).max(axis=2)
        cells = int(np.count_nonzero(diff > self.params.diff_level))
        return cells > max(2, self.params.motion_cells * diff.size)

    # -- the detector --------------------------------------------------------------------------

    def calibrate(self, tray: tuple[int, int, int, int] | None, reference: np.ndarray | None) -> None:
        """A new tray area and empty-tray reference (as the constructor takes them; the guided
        setup's): the still scene is judged afresh under them (the last reports stay, so dice
        already reported are not reported again)."""
        self.tray, self.reference, self._ref_small = tray, reference, None
        self.interrupt()

    def interrupt(self) -> None:
        """The camera failed or paused: forget the still scene, which must be read again (the last
        reports stay, so the same dice are not reported twice)."""
        self.locked = None
        self._prev = self._anchor = None
        self._still_since = None
        self._readings.clear()

    def forget(self) -> None:
        """Forget the still scene and the last reports: the dice lying now are read again and
        reported even if they were reported before (the table took back a roll the camera misread)."""
        self.interrupt()
        self.last_settled = self.last_roll = None

    def resumed(self, roll: DiceReading) -> None:
        """After a restart: ``roll`` (an ``ok`` reading, its dice in frame px) is the last roll this
        detector reported before it. The dice lying where and as they were then are not reported
        again, as the detector before the restart would not have (``same_dice``); dice moved or
        thrown since are. Raises ValueError for a reading that is not ``ok``."""
        if not roll.ok:
            raise ValueError(f"not a roll: {roll.reason or roll.status}")
        self.last_settled = self.last_roll = Settled(roll, float("-inf"), -1)

    def update(self, image: np.ndarray, t: float, index: int = -1) -> Update:
        """Takes one frame ((H, W, 3) uint8 BGR) with its timestamp ``t`` (s); returns its Update.
        A frame whose ``t`` does not advance past the last one changes nothing. Raises
        ``TrayOutsideFrame`` (a ValueError) when the tray area lies outside the frame."""
        if self._last_t is not None and not t > self._last_t:
            return Update(self.state)
        if self._last_t is not None and t - self._last_t > self.params.max_gap_s:
            self.interrupt()
        self._last_t = t
        small = self._shrink(image)
        moved = (self._prev is not None and self._changed(small, self._prev)) or (
            self._anchor is not None and self._changed(small, self._anchor))
        self._prev = small
        if moved or self._still_since is None:
            # A new still spell starts with this frame (the first after motion, or after a gap).
            self._anchor = small
            self._still_since = t
            self._readings.clear()
            self._empty_seen = False
            if moved:
                self.locked = None
                self.state = "moving"
                return Update("moving")
        if self.locked is not None:
            self.state = "empty" if _empty(self.locked) else "still"
            return Update(self.state)
        if self._matches_reference(image):
            self.locked = no_dice()
            self.state = "empty"
            return Update("empty")
        self.state = "empty" if self._empty_seen else "still"
        still_for = t - self._still_since
        if still_for + 1e-9 < self.params.read_from * self.params.still_s:
            return Update(self.state)
        reading = self._read(image)
        self._readings.append(reading)
        self._empty_seen = _empty(reading)
        self.state = "empty" if self._empty_seen else "still"
        if still_for + 1e-9 < self.params.still_s:
            return Update(self.state, reading)
        agreed = self._agreed(still_for)
        if agreed is None:
            return Update(self.state, reading)
        self.locked = agreed
        self.state = "empty" if _empty(agreed) else "still"
        # The same dice as last reported (a hand passed, a die nudged less than moved_frac, the
        # camera came back) are no new throw; a roll is also checked against the last roll, so a
        # hand resting on the tray in between does not make the same roll count twice.
        if _empty(agreed) or any(same_dice(agreed, s.reading, self.params.moved_frac)
                                 for s in (self.last_settled, self.last_roll) if s is not None):
            return Update(self.state, reading)
        self.last_settled = Settled(agreed, t, index)
        if agreed.ok:
            self.last_roll = self.last_settled
        return Update(self.state, reading, self.last_settled)

    def _agreed(self, still_for: float) -> DiceReading | None:
        """What the readings of this still spell settle on now, or None to keep reading."""
        k, p = self.params.agree, self.params
        key = lambda r: (r.status, r.values, _empty(r))  # noqa: E731
        runs: dict[tuple, DiceReading] = {}  # agreed rolls: key -> the latest reading of the run
        readings = list(self._readings)
        for i in range(len(readings) - k + 1):
            window = readings[i:i + k]
            if window[0].ok and all(key(r) == key(window[0]) for r in window):
                runs[key(window[0])] = window[-1]
        if len(runs) == 1:
            return next(iter(runs.values()))
        last = readings[-1]
        if len(runs) > 1:
            return unreadable("readings disagree (" + " or ".join(
                " ".join(map(str, r.values)) for r in runs.values()) + ")", last.dice, "disagree")
        tail_agrees = len(readings) >= k and all(key(r) == key(last) for r in readings[-k:])
        if tail_agrees and still_for + 1e-9 >= p.still_s + p.unsure_s:
            return last
        if still_for + 1e-9 >= p.still_s + p.give_up_s:
            return unreadable(f"readings disagree ({last.reason or 'values change'})", last.dice, "disagree")
        return None

    def _matches_reference(self, image: np.ndarray) -> bool:
        if self.reference is None:
            return False
        if self._ref_small is None:
            self._ref_small = self._shrink(self.reference) if self.reference.shape == image.shape else np.zeros(0)
        return self._ref_small.size > 0 and not self._changed(self._anchor, self._ref_small)

    def _read(self, image: np.ndarray) -> DiceReading:
        ref = self.reference if self.reference is not None and self.reference.shape == image.shape else None
        # The whole frame is read, not the tray area alone: a die that jumped the tray's wall must be
        # seen to be refused (``vision.tray``), or the dice left inside would count as the throw.
        reading = off_tray(self.reader(image, expected=self.expected, reference=ref), self.tray)
        n = len(reading.dice)
        if reading.ok and self.expected is not None and n != self.expected:
            # A reader that was not told (or did not check): the count is the game's, not a roll.
            return wrong_count(self.expected, reading.dice)
        return reading
