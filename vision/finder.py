"""The die finder: where the dice lie in a frame and how large they are, from a small learned network.

The network (``vision/models/finder.onnx``, run by ``vision.runtime``; its card is
``vision/models/README.md``) is fully convolutional, CenterNet-style: for an image of any size (a
multiple of ``STRIDE * 8`` px) it gives, on a grid of one cell per ``STRIDE`` px, four maps:

0. the logit of "a die's centre lies in this cell";
1. the natural log of the die's size, px: its axis-aligned extent (the box around all of it that shows);
2. 3. the centre's offset inside the cell, x and y, in cells (0-1).

It reads dice of about ``MIN_INPUT``-``MAX_INPUT`` px in its input (its training says so,
``vision.train.finder_data``). A frame is first read at two levels of a pyramid (``levels``): shrunk
to ``BASE`` px on its long side (level 0), and at half that (the coarse level, for dice up to half
the frame). Dice too small for level 0 (a crowded photo, a high camera, a large frame) are read at
the finer levels (``finer_levels``), each twice the one before, up to the frame itself: the reader
asks for them one by one only while it has found fewer dice than it expects, so the appliance's
frames pay for them only when they need them. Peaks of the centre map above a floor, at every
level read, become ``Candidate`` dice: one die is often proposed at two levels, and a large die's
pips may be proposed too. Which candidate is a die, and which face it shows, is the face reader's
and the reader's business (``vision.faces``, ``vision.reader``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.runtime import Network

MODEL = Path(__file__).resolve().parent / "models" / "finder.onnx"
STRIDE = 4  # px of the network's input per output cell
MULTIPLE = 32  # the network's input sides are multiples of this (five halvings)
BASE = 320  # px, the long side of level 0
PAD_VALUE = 114  # grey level of the padding to a multiple of MULTIPLE (also used in training)
# The smallest die the finer levels look for, px of the frame: they go no finer than makes it
# MIN_INPUT px (nor finer than the frame itself) ...
SMALLEST_DIE = 10.0
# ... nor past this long side, px, which bounds a huge frame's time and memory (a 4056x3040 frame's
# finest level reads its 15 px dice at 7.6 px).
FINEST = 2048
MIN_INPUT, MAX_INPUT = 6, 130  # px: the die sizes the network learned to find in its input


@dataclass(frozen=True)
class Candidate:
    """A place the finder thinks holds a die.

    center: (x, y) px in the frame; size: px, the die's extent in the frame (as the network sees
    it, whole die with its visible sides); score: 0-1, the centre map's peak.
    """

    center: tuple[float, float]
    size: float
    score: float


def shrink(bgr: np.ndarray, scale: float) -> np.ndarray:
    """The image resized by ``scale`` (<= 1), anti-aliased: halved by 2x2 averages while at least
    twice too large (OpenCV's fast path for exact halves: about 3 ms for a 4056x3040 frame), then
    area-resampled. (H, W, C) uint8 in and out."""
    img = bgr
    h, w = bgr.shape[:2]
    tw, th = max(1, round(w * scale)), max(1, round(h * scale))
    while img.shape[1] >= 2 * tw and img.shape[0] >= 2 * th:
        img = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if (img.shape[1], img.shape[0]) != (tw, th):
        img = cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA)
    return img


def pad(img: np.ndarray) -> np.ndarray:
    """The image padded right and bottom with ``PAD_VALUE`` to sides that are multiples of ``MULTIPLE``."""
    h, w = img.shape[:2]
    ph, pw = -h % MULTIPLE, -w % MULTIPLE
    if not (ph or pw):
        return img
    return cv2.copyMakeBorder(img, 0, ph, 0, pw, cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3)


def to_blob(img: np.ndarray) -> np.ndarray:
    """The network's input for an (H, W, 3) uint8 BGR image whose sides are multiples of
    ``MULTIPLE``: (1, 3, H, W) float32, (value - 128) / 64.

    Each plane copied into place, then shifted and scaled in place: the same values as
    ``cv2.dnn.blobFromImage(img, 1 / 64, mean=(128, 128, 128))``, which OpenCV 5.1 makes about ten
    times slower for a 320x256 input (``benchmarks/reader_speed.py``)."""
    h, w = img.shape[:2]
    x = np.empty((1, 3, h, w), np.float32)
    for c, plane in enumerate(cv2.split(img)):
        x[0, c] = plane
    x -= 128.0
    x *= 1 / 64.0
    return x


def levels(width: int, height: int) -> list[float]:
    """The scales (frame px to input px, <= 1) at which a frame of this size is first read: the
    coarse level and level 0."""
    base = min(1.0, BASE / max(width, height))
    return [base / 2, base]


def finer_levels(width: int, height: int) -> list[float]:
    """The finer scales, coarse to fine, for dice too small for ``levels``: each twice the one
    before (at most the frame itself, scale 1, and ``FINEST`` px on the long side) until one makes
    a ``SMALLEST_DIE`` die ``MIN_INPUT`` px. Empty for a frame no larger than ``BASE``."""
    scale, out = levels(width, height)[-1], []
    finest = min(1.0, FINEST / max(width, height))
    while scale < min(finest, MIN_INPUT / SMALLEST_DIE):
        scale = min(2 * scale, finest)
        out.append(scale)
    return out


def decode(maps: np.ndarray, floor: float) -> list[Candidate]:
    """Candidates from the network's (4, h, w) output: the centre map's local maxima (3x3) of at
    least ``floor`` (0-1), with their centres and sizes in the network's input px."""
    heat = 1.0 / (1.0 + np.exp(-maps[0]))
    ys, xs = np.nonzero((heat >= floor) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))))
    # All peaks at once (a frame has dozens): the same values as one by one, without numpy's
    # per-call cost on each.
    cxs = (xs + np.clip(maps[2, ys, xs], 0, 1)) * STRIDE
    cys = (ys + np.clip(maps[3, ys, xs], 0, 1)) * STRIDE
    sizes = np.exp(np.clip(maps[1, ys, xs], 0.0, 7.0))
    return [Candidate((float(cx), float(cy)), float(size), float(score))
            for cx, cy, size, score in zip(cxs, cys, sizes, heat[ys, xs])]


def suppress(candidates, strength, overlap: float = 0.5) -> list:
    """The candidates (anything with ``center`` and ``size`` px), strongest first by ``strength``
    (a function of one), each one whose centre lies closer than ``overlap`` of the larger size to a
    stronger one's dropped: the same die seen at two levels, or a die and its own pips."""
    kept: list = []
    for c in sorted(candidates, key=lambda c: -strength(c)):
        if all(np.hypot(c.center[0] - k.center[0], c.center[1] - k.center[1]) >= overlap * max(c.size, k.size)
               for k in kept):
            kept.append(c)
    return kept


class DieFinder:
    """The finder network, loaded once (``vision.runtime``: cv2.dnn, or onnxruntime if installed;
    one thread is enough: a few ms for a 320x256 input on one core of a PC).

    path: the ONNX file; runtime: as ``vision.runtime.Network``'s. Raises OSError or ValueError
    when it cannot be loaded.
    """

    def __init__(self, path: Path = MODEL, runtime: str | None = None):
        self.net = Network(path, runtime)

    def maps(self, img: np.ndarray) -> np.ndarray:
        """The network's (4, h, w) float32 output for an (H, W, 3) uint8 BGR input whose sides are
        multiples of ``MULTIPLE`` (h = H / STRIDE, w = W / STRIDE)."""
        return self.net.run(to_blob(img))[0][0]

    def find(self, bgr: np.ndarray, floor: float = 0.05, scales=None) -> list[Candidate]:
        """Every candidate die in an (H, W, 3) uint8 BGR frame with a centre peak of at least
        ``floor`` (0-1), at each of ``scales`` (default: ``levels``), strongest first (see the
        module docstring). Each level shrinks the frame from the one before (a large frame is
        halved first)."""
        h, w = bgr.shape[:2]
        found = []
        small = bgr
        for scale in sorted(levels(w, h) if scales is None else scales, reverse=True):
            if scale < 1:
                small = shrink(small, scale * w / small.shape[1])
            sx, sy = small.shape[1] / w, small.shape[0] / h  # the exact scales after rounding
            level = decode(self.maps(pad(small)), floor)
            found += [Candidate((c.center[0] / sx, c.center[1] / sy), c.size / ((sx + sy) / 2), c.score)
                      for c in level if c.center[0] < small.shape[1] and c.center[1] < small.shape[0]]
        return sorted(found, key=lambda c: -c.score)
