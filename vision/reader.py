"""The pip reader: one frame in, every die's top-face value out, or an honest ``unreadable``."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import layout
from vision.dice import Region, background_lab, find_regions, foreground_distance
from vision.frames import to_bgr
from vision.pips import contrast_map, find_pips
from vision.reading import DiceReading, Die, unreadable


@dataclass(frozen=True)
class ReaderParams:
    """The reader's tunables (px at the frame's own scale)."""

    min_die: float = 15.0
    max_die: float = 200.0
    fg_min: float = 14.0
    fg_noise_k: float = 5.0


DEFAULT = ReaderParams()


def read_dice(frame, expected: int | None = None, reference: np.ndarray | None = None,
              params: ReaderParams = DEFAULT) -> DiceReading:
    """Read the dice in one frame."""
    bgr = to_bgr(frame)
    ref = None
    if reference is not None:
        try:
            ref = to_bgr(reference)
        except ValueError:
            ref = None
        if ref is not None and ref.shape != bgr.shape:
            ref = None
    try:
        return _read(bgr, expected, ref, params)
    except (cv2.error, ValueError, ArithmeticError, IndexError, MemoryError) as exc:
        # A safety net for the kiosk, not a code path: the tests feed garbage frames and require
        # that this reason never appears.
        return unreadable(f"reader failure ({type(exc).__name__})")


def _read(bgr, expected, ref, p: ReaderParams) -> DiceReading:
    smooth = cv2.medianBlur(bgr, 3)
    lab = cv2.cvtColor(smooth, cv2.COLOR_BGR2LAB).astype(np.float32)
    bg = background_lab(smooth, ref, p.max_die)
    dist = foreground_distance(lab, bg)
    med = float(np.median(dist))
    mad = float(np.median(np.abs(dist - med)))
    thr = max(p.fg_min, med + p.fg_noise_k * 1.4826 * mad)
    regions, _ = find_regions(dist, p.min_die, p.max_die, thr)
    dice = []
    for reg in regions:
        die = _read_region(lab, reg)
        if die is not None:
            dice.append(die)
    dice.sort(key=lambda d: (d.center[1] // 40, d.center[0]))
    if not dice:
        return unreadable("no dice", ())
    if expected is not None and len(dice) != expected:
        return unreadable(f"expected {expected} dice, found {len(dice)}", tuple(dice))
    return DiceReading("ok", tuple(dice))


def _read_region(lab, reg: Region) -> Die | None:
    x, y, w, h = reg.box
    roi = lab[y:y + h, x:x + w]
    inner = reg.mask > 0
    face = np.median(roi[inner], axis=0)
    con = contrast_map(roi, face)
    k = max(3, int(reg.side * 0.12) | 1)
    inside = cv2.erode(reg.mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    pips = find_pips(con, inside, reg.side, (x, y))
    if not pips or len(pips) > 6:
        return None
    pts = np.array([(q.x, q.y) for q in pips])
    rad = np.array([q.r for q in pips])
    lay = layout.fit(pts, rad)
    if lay is None:
        return None
    return Die(lay.value, (float(reg.center[0]), float(reg.center[1])), (x, y, w, h), 1.0)
