"""The tray area: the part of the camera frame the dice tray's floor fills, and the check that every
die lies in it.

A die that jumped the tray's wall and lies on the bar table beside it is not a throw that counts: the
table throws again (the same as a cocked die). The area is an axis-aligned rectangle ``(x, y, w, h)``
in px of the camera frame (config ``[tray] area``, ``dicetable watch --tray``); None is the whole
frame, where no die can lie off the tray.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.frames import is_noise
from vision.reading import DiceReading, unreadable

Area = tuple[int, int, int, int]

# Kinds whose dice say where dice lie: a die among them off the tray makes the reading off_tray. The
# others (noise, a reader failure, readings that disagree) have no dice worth placing.
_PLACED = ("", "count", "unsure", "cocked")


def inside(point: tuple[float, float], area: Area | None) -> bool:
    """Whether ``point`` (x, y) px lies in ``area`` (x, y, w, h) px, edges included; always for None."""
    if area is None:
        return True
    x, y, w, h = area
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def off_tray(reading: DiceReading, area: Area | None) -> DiceReading:
    """``reading`` as the table takes it: unchanged when ``area`` is None or every die's centre lies
    in it; otherwise ``unreadable`` of kind "off_tray", naming the first such die in reading order
    ("the die at (612, 40) is off the tray (40, 30, 560, 420)"), with the dice kept for display.
    The positions are frame px, as the dice's centres."""
    if area is None or reading.kind not in _PLACED:
        return reading
    out = [d for d in reading.dice if not inside(d.center, area)]
    if not out:
        return reading
    (cx, cy), (x, y, w, h) = out[0].center, area
    return replace(unreadable(f"the die at ({cx:.0f}, {cy:.0f}) is off the tray ({x}, {y}, {w}, {h})",
                              reading.dice, "off_tray"), extra=dict(reading.extra))


# --- finding the tray in a frame of the empty table -------------------------------------------

@dataclass(frozen=True)
class Found:
    """What ``find_tray`` made of a frame: the tray ``area`` (x, y, w, h) px of the frame, or None
    with the ``reason`` in one English sentence (for the journal; the kiosk words it by ``kind``).

    kind: "" (found), "dark" (the picture is almost black), "busy" (the middle of the picture is
    not plain, or noise: no tray floor there), "small" (the plain area in the middle is too small
    for a tray), "whole" (it fills the picture: no tray edge in view, the whole frame is read),
    "edge" (it runs off two or three sides of the picture), "shape" (it is not tray-shaped)."""

    area: Area | None
    reason: str = ""
    kind: str = ""


WORK_W = 160  # px: the frame is judged at this width (a tray is large; felt grain and noise average away)
DARK_L = 25.0  # Lab lightness 0-255: a picture darker than this shows nothing (a covered lens, no light)
# Lab distances weigh lightness half: a lamp's falloff darkens a floor's corners, glare lightens it.
WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)
# How far a pixel's colour may be from the middle's to be floor: at least NEAR, and SPREADS times
# the middle's own spread; BUSY: the middle's spread above which it is no plain floor at all.
NEAR, SPREADS, BUSY = 24.0, 4.0, 9.0
EDGE, EDGES = 12.0, 4.0  # Sobel magnitude over which a pixel is an edge: at least EDGE, EDGES times the middle's
BAND = 4  # work px: how far the edge band (blur, Sobel, its widening) keeps the floor off its rim
# The middle's spreads are read at this percentile: dice left lying there (up to a third of it) do
# not make the floor look busier than it is.
CALM = 25
MIN_SHARE = 0.2  # the least share of the picture a tray's floor fills
MIN_FILL = 0.6  # the least share of its bounding box a tray's floor's hull fills (a round tray: 0.79)


def _middle(a: np.ndarray) -> np.ndarray:
    """The middle of an image or mask (its central 30% each way), where the floor is looked for."""
    h, w = a.shape[:2]
    return a[int(h * 0.35):int(h * 0.65), int(w * 0.35):int(w * 0.65)]


def find_tray(image: np.ndarray) -> Found:
    """The tray in a frame of the empty tray ((H, W, 3) uint8 BGR): the largest plain area around
    the middle of the picture, as the box around it, (x, y, w, h) px of ``image``; or None with the
    reason (``Found``). Pure and quick (a few ms at any frame size: it works on a WORK_W px copy).

    The floor is the area connected to the middle, not crossed by an edge (the rim; a floor whose
    colour is near the table's, brown felt on dark wood, still ends at its rim), whose colour is
    near the middle's. Dice or glare left on it are holes in it and change nothing; a floor that runs
    off the picture, or is too small or not tray-shaped, is no tray found. Raises ValueError for an
    image that is not (H, W, 3) uint8 of at least 16x16 px."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8 or min(image.shape[:2]) < 16:
        raise ValueError(f"find_tray takes an (H, W, 3) uint8 BGR frame of at least 16x16, not {image.shape} "
                         f"{image.dtype}")
    if is_noise(image):
        return Found(None, "the picture is noise (a camera fault), not a table", "busy")
    h, w = image.shape[:2]
    scale = WORK_W / w
    small = cv2.GaussianBlur(cv2.resize(image, (WORK_W, max(8, round(h * scale))), interpolation=cv2.INTER_AREA),
                             (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    middle = _middle(lab).reshape(-1, 3)
    seed = np.median(middle, axis=0)
    if seed[0] < DARK_L:
        return Found(None, "the picture is almost black (a covered lens, or no light)", "dark")
    spread = float(np.percentile(np.linalg.norm((middle - seed) * WEIGHTS, axis=1), CALM))
    if spread > BUSY:
        return Found(None, f"the middle of the picture is not plain (colour spread {spread:.1f}): no tray floor there",
                     "busy")
    near = (np.linalg.norm((lab - seed) * WEIGHTS, axis=2) < max(NEAR, SPREADS * spread)).astype(np.uint8)
    region = _floor(lab, near)
    if region is None:
        return Found(None, "the middle of the picture is not plain: no tray floor there", "busy")
    found = _judge(region)
    if found.area is None:
        return found
    # Back to frame px, the box grown by half a work px each side (the edge pixels are whole there).
    x, y, bw, bh = found.area
    x0, y0 = max(0, int((x - 0.5) / scale)), max(0, int((y - 0.5) / scale))
    x1, y1 = min(w, int(np.ceil((x + bw + 0.5) / scale))), min(h, int(np.ceil((y + bh + 0.5) / scale)))
    return Found((x0, y0, x1 - x0, y1 - y0))


def _floor(lab: np.ndarray, near: np.ndarray) -> np.ndarray | None:
    """The floor: of the (h, w) uint8 mask ``near`` (pixels of the floor's colour), the part not
    crossed by an edge of the Lab image ``lab`` that covers most of the middle, grown back over
    the edge band; None when no such part is in the middle."""
    grad = np.zeros(lab.shape[:2], np.float32)
    for c, wgt in zip(cv2.split(lab), WEIGHTS):
        gx, gy = cv2.Sobel(c, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(c, cv2.CV_32F, 0, 1, ksize=3)
        grad += wgt * wgt * (gx * gx + gy * gy)
    grad = np.sqrt(grad)
    edge = cv2.dilate((grad > max(EDGE, EDGES * np.percentile(_middle(grad), CALM))).astype(np.uint8),
                      np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(near & (1 - edge), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels = cv2.connectedComponents(mask, connectivity=4)
    counts = np.bincount(_middle(labels).ravel(), minlength=n)
    counts[0] = 0
    if counts.max() == 0:
        return None
    region = (labels == int(np.argmax(counts))).astype(np.uint8)
    # The edge band kept the floor off its own rim: it grows back over it, as far as the floor's
    # colour goes and no further than the band.
    for _step in range(BAND):
        region = cv2.dilate(region, np.ones((3, 3), np.uint8)) & near
    return region


def _judge(region: np.ndarray) -> Found:
    """Whether the (h, w) uint8 floor mask ``region`` is a tray: its box (x, y, w, h) in mask px, or
    None with the reason."""
    sh, sw = region.shape
    x, y, bw, bh = cv2.boundingRect(region)
    # Its hull: dice, their shadows and glare left lying at the floor's edge bite into the area.
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = cv2.contourArea(cv2.convexHull(np.concatenate(contours))) if contours else 0.0
    share = filled / (sw * sh)
    # The sides of the picture the floor's box reaches: there the tray's edge is out of view.
    cut = (x <= 1) + (y <= 1) + (x + bw >= sw - 1) + (y + bh >= sh - 1)
    if share < MIN_SHARE:
        return Found(None, f"the plain area in the middle fills {share:.0%} of the picture: too small for a tray",
                     "small")
    if cut == 4:
        return Found(None, "the plain area fills the whole picture: no tray edge in view (the whole frame is read)",
                     "whole")
    if cut >= 2:
        return Found(None, f"the plain area runs off {cut} sides of the picture: the tray's edge is not in view",
                     "edge")
    if filled < MIN_FILL * bw * bh:
        return Found(None, f"the plain area in the middle fills {filled / (bw * bh):.0%} of its box: not the shape "
                     "of a tray", "shape")
    return Found((x, y, bw, bh))
