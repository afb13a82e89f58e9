"""Reading one region: which pip layout is a die's top face, or why none can be trusted.

Given a region that may be a die (or a few touching dice), it is resampled so a die spans ``SIDE``
px, its face colour taken, its pips found (``vision.pips``) and every layout they can form listed
(``vision.layout``). Pips just beside the region, in the foreground around it, are found too: they
are never read, but a tighter cut may have left part of a die out, so every face must explain them.
A layout inside a larger one of alike pips (beside ones included) is never the answer. Each other
layout is checked against the image as a top face:

- its pips look like pips of this die: size against the grid step, alike in contrast; a 2, having
  only its pips' likeness for it, needs them closely alike and each ringed by its face;
- nothing is left unexplained on the face: no other pip inside it (for a 2 or 3 also inside the
  face seen square), no pip beside the region just beyond it alike its own, each empty grid
  position really empty (a 6 whose middle pips were missed must not pass as a 4), and the face
  even between its pips (a layout across an edge takes in shading or another die);
- the face sits on the die: its corners on the region, and, when seen at a slant, not with the die
  or another of its pips going on above it (that is a side face turned to the camera);
- a 1 is judged on its own face: the face-coloured patch around the pip, with the pip in its
  middle, alone, and its ring empty. A pip that passes as a 1 vetoes any 2 with it at a corner.

Of the layouts that pass, those on one face give way to the one explaining most pips. Two faces
seen nearly squarely are touching dice (perpendicular faces of one die cannot both be). Otherwise
the top face is the least foreshortened if it is also the upper one, or if the others are far more
squashed; else the die is ambiguous: no value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from functools import cache, cached_property
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import layout
from vision.pips import Pip, contrast_map, find_pips, median

if TYPE_CHECKING:
    from vision.reader import ReaderParams


@dataclass(frozen=True)
class FaceDie:
    """One die read in a region: ``value`` 1-6, its top face's ``center`` (x, y) and axis-aligned
    ``box`` (x, y, w, h) in frame px, ``confidence`` 0-1, the ``layout`` read (box px) and the face's
    ``area`` in frame px^2 (0 when unknown)."""

    value: int
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    confidence: float
    area: float
    layout: layout.Layout


@dataclass
class FaceRead:
    """What one region says: the ``dice`` read in it (usually one; several when it holds touching
    dice), or none and the ``reason``. pips (frame px) and tried (value, why not, for layouts of 3
    or more pips) are for display."""

    dice: list[FaceDie] = field(default_factory=list)
    reason: str = ""
    pips: list[Pip] = field(default_factory=list)
    tried: list[tuple[int, str]] = field(default_factory=list)

    @property
    def value(self) -> int | None:
        return self.dice[0].value if self.dice else None


SIDE = 48.0  # px: each die is read at this scale (its box resampled so the die spans it)


class _Die:
    """The image around one region, resampled so the die spans ``SIDE`` px: its box in YCrCb,
    masks and contrast map. ``to_frame`` maps box points back to frame px."""

    def __init__(self, bgr: np.ndarray, contour: np.ndarray, side: float, context: np.ndarray | None = None,
                 reach: float = 0.3):
        H, W = bgr.shape[:2]
        x, y, w, h = cv2.boundingRect(contour)
        pad = int(0.25 * side) + 2
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(W, x + w + pad), min(H, y + h + pad)
        # A 3x3 median first (salt-and-pepper noise would make pips of its own), then the die is
        # brought to one scale: a small die's pips gain pixels, a large die costs no more to read.
        box = cv2.medianBlur(bgr[y0:y1, x0:x1], 3)
        self.scale = s = float(min(max(SIDE / side, 0.2), 3.0))
        size = (max(4, int(round((x1 - x0) * s))), max(4, int(round((y1 - y0) * s))))
        box = cv2.resize(box, size, interpolation=cv2.INTER_AREA if s < 0.6 else cv2.INTER_LINEAR)
        self.x0, self.y0 = x0, y0
        self.side = side = side * s
        self.mask = np.zeros((size[1], size[0]), np.uint8)
        pts = np.round((contour.reshape(-1, 2) - [x0, y0]) * s).astype(np.int32)
        cv2.drawContours(self.mask, [pts.reshape(-1, 1, 2)], -1, 255, -1)
        ycc = cv2.cvtColor(box, cv2.COLOR_BGR2YCrCb)
        self.ycc = ycc.astype(np.float32)
        k = max(3, int(side * 0.1) | 1)
        self.inside = cv2.erode(self.mask, _disk(k), borderValue=0)
        self.face = _face_colour(ycc, self.inside if self.inside.any() else self.mask)
        self.contrast = contrast_map(self.ycc, self.face)
        # Beside the region: the foreground around it (``context``, the region's lowest cut)
        # within ``reach`` of a die's side. A tighter cut may leave some of a die's pips out:
        # pips there are never read, but a face must explain them. ``around``: region and context.
        self.beside = None
        self.around = self.mask
        self._patches: dict[int, tuple[tuple[float, float], float]] = {}
        if context is contour:
            # The region is its own lowest cut: beside it lies only its own rim.
            self.beside = cv2.bitwise_and(self.mask, cv2.bitwise_not(self.inside))
        elif context is not None:
            ctx = np.zeros_like(self.mask)
            pts = np.round((context.reshape(-1, 2) - [x0, y0]) * s).astype(np.int32)
            cv2.drawContours(ctx, [pts.reshape(-1, 1, 2)], -1, 255, -1)
            self.around = cv2.bitwise_or(ctx, self.mask)
            grown = _grow(self.mask, max(3, int(2 * reach * side) | 1) // 2)
            self.beside = cv2.bitwise_and(cv2.bitwise_and(grown, ctx), cv2.bitwise_not(self.inside))

    # Needed only once pips are found: computed on first use.

    @cached_property
    def near(self) -> np.ndarray:
        """The region grown by a tenth of the die: where a face's corners may still lie."""
        return _grow(self.mask, max(3, int(self.side * 0.2) | 1) // 2)

    @cached_property
    def _flat(self) -> np.ndarray:
        """(H, W) int32 labels of the face-coloured patches of the region (pips closed over), 0
        elsewhere: the top face is one, each side face (shaded otherwise) or shadow another."""
        core = _shrink(self.mask, max(3, int(self.side * 0.3) | 1) // 2)
        level = median(self.contrast[core > 0]) if core.any() else 0.0
        flat = ((self.contrast < max(20.0, 3.0 * level)) & (self.mask > 0)).astype(np.uint8)
        k = max(3, int(self.side * 0.22) | 1)
        flat = cv2.morphologyEx(flat, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        # Labels only: a patch's size and centre are measured when asked for (``_patch``), which
        # costs far less than OpenCV's statistics of every patch.
        return cv2.connectedComponents(flat, connectivity=4)[1]

    def _patch(self, k: int) -> tuple[tuple[float, float], float]:
        """The centre (x, y) px and side (square root of its area) px of patch ``k``, measured once."""
        if k not in self._patches:
            ys, xs = np.nonzero(self._flat == k)
            n = len(xs)
            self._patches[k] = (float(xs.sum() / n), float(ys.sum() / n)), float(np.sqrt(n))
        return self._patches[k]

    def patch_at(self, x: float, y: float, r: float = 0.0) -> tuple[int, tuple[float, float], float] | None:
        """(label, centre (x, y), side px) of the face-coloured patch at a point, or around a pip
        of radius ``r`` there (the patch most of a ring at 2.2 r lies on); None if none."""
        labels = self._flat
        h, w = labels.shape
        pts = [(x, y)] if r <= 0 else [(x + 2.2 * r * cx, y + 2.2 * r * cy) for cx, cy in _CIRCLE12]
        votes: dict[int, int] = {}
        for px, py in pts:
            ix, iy = int(round(px)), int(round(py))
            if 0 <= ix < w and 0 <= iy < h and labels[iy, ix]:
                votes[int(labels[iy, ix])] = votes.get(int(labels[iy, ix]), 0) + 1
        if not votes:
            return None
        k = max(votes, key=votes.get)
        if votes[k] * 2 < len(pts):
            return None
        return (k, *self._patch(k))

    def in_patch(self, k: int, x: float, y: float) -> bool:
        labels = self._flat
        ix, iy = int(round(x)), int(round(y))
        h, w = labels.shape
        return 0 <= ix < w and 0 <= iy < h and int(labels[iy, ix]) == k

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        """A box point in frame px."""
        return (x / self.scale + self.x0, y / self.scale + self.y0)

    def sampler(self, radius: float):
        """A function (x, y) -> the mean contrast in a disk-sized box of ``radius`` px there."""
        k = max(1, int(round(radius * 1.6)))
        blurred = cv2.blur(self.contrast, (k, k))
        h, w = blurred.shape

        def at(x: float, y: float) -> float:
            ix, iy = int(round(x)), int(round(y))
            return float(blurred[iy, ix]) if 0 <= ix < w and 0 <= iy < h else 0.0

        return at

    def on_die(self, x: float, y: float) -> bool:
        ix, iy = int(round(x)), int(round(y))
        h, w = self.near.shape
        return 0 <= ix < w and 0 <= iy < h and bool(self.near[iy, ix])


_CIRCLE12 = [(math.cos(k * math.pi / 6), math.sin(k * math.pi / 6)) for k in range(12)]
_CIRCLE12_ARRAY = np.array(_CIRCLE12)
FACE_SAMPLES = (-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5)  # grid coordinates sampled across a face
# Per value, the sample points of a face away from its pips (0.6 grid steps or more).
_FACE_POINTS = {v: [(a, b) for a in FACE_SAMPLES for b in FACE_SAMPLES
                    if min((a - pa) ** 2 + (b - pb) ** 2 for pa, pb in pat) >= 0.36]
                for v, pat in layout.PATTERNS.items()}


def _median(values) -> float:
    s = sorted(values)
    n = len(s)
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


_BIN_LEFT = np.maximum(np.arange(32) - 1, 0)
_BIN_RIGHT = np.minimum(np.arange(32) + 1, 31)


def _face_colour(ycc: np.ndarray, where: np.ndarray) -> np.ndarray:
    """(3,) float32: the die's face colour, as the mean of the pixels of one luma mode: the
    brightest mode holding a fifth of the die or more (the top face is lit best, and is an even
    patch much larger than any pip or glare), else the most common luma.

    ycc: (H, W, 3) uint8 YCrCb; where: (H, W) uint8, nonzero on the die. Every other pixel each
    way is plenty for a mode. OpenCV's masked histogram (32 luma bins of 8 levels) and masked
    mean (integer sums; a float32 rounding of their quotient, as numpy's float32 mean of the
    pixels gives) cost a fraction of numpy's masked copies."""
    sub, on = np.ascontiguousarray(ycc[::2, ::2]), np.ascontiguousarray(where[::2, ::2])
    n = cv2.countNonZero(on)
    if n == 0:
        sub, on, n = ycc, where, cv2.countNonZero(where)
    hist = np.convolve(cv2.calcHist([sub], [0], on, [32], [0, 256]).ravel().astype(np.int64), (1, 1, 1), mode="same")
    # Local peaks of the histogram holding a fifth of the die or more (the ends compare with
    # themselves).
    big = np.flatnonzero((hist > 0) & (hist >= hist[_BIN_LEFT]) & (hist >= hist[_BIN_RIGHT]) & (hist >= 0.2 * n))
    k = int(big[-1]) if len(big) else int(np.argmax(hist))
    # The pixels of the mode's bin and its two neighbours (lumas 8 (k - 1) to 8 (k + 2) - 1).
    mode = cv2.inRange(sub, (max(0, 8 * k - 8), 0, 0), (min(255, 8 * k + 15), 255, 255))
    mode = cv2.bitwise_and(mode, on)
    mean = cv2.mean(sub, mode if cv2.countNonZero(mode) else on)
    return np.array(mean[:3], np.float32)


def _ring_shares(d: _Die, pips: list[Pip], which: list[int]) -> list[float]:
    """For each pip ``pips[i]``, i in ``which``: the share of a ring around it (twice its radius,
    squashed as the pip is; points on the other pips left out) whose contrast is face-like, below
    0.4 of the pip's."""
    if not which:
        return []
    idx = np.array(which)
    # shape^1/2: for a 2x2 S of determinant 1, (S + I) / sqrt(trace S + 2) (``layout.other_diagonal``).
    shape = np.array([pips[i].shape for i in which])
    half = (shape + np.eye(2)) / np.sqrt(np.maximum(shape[:, 0, 0] + shape[:, 1, 1] + 2.0, 1e-9))[:, None, None]
    spots = np.array([(o.x, o.y, 1.3 * o.r) for o in pips], np.float64)
    reach = np.array([2.0 * pips[i].r for i in which])
    # (k, 12, 2): each ring's points, then which of them lie on another pip.
    pts = (_CIRCLE12_ARRAY[None] @ half.transpose(0, 2, 1)) * reach[:, None, None] + spots[idx, None, :2]
    d2 = (pts[:, :, None, 0] - spots[None, None, :, 0]) ** 2 + (pts[:, :, None, 1] - spots[None, None, :, 1]) ** 2
    on_other = (d2 < spots[None, None, :, 2] ** 2) & (np.arange(len(pips))[None, None, :] != idx[:, None, None])
    kept = ~on_other.any(axis=2)
    h, wd = d.contrast.shape
    ix, iy = np.rint(pts[..., 0]).astype(np.int64), np.rint(pts[..., 1]).astype(np.int64)
    inb = (ix >= 0) & (ix < wd) & (iy >= 0) & (iy < h)
    values = d.contrast[np.where(inb, iy, 0), np.where(inb, ix, 0)]
    # The contrast map's own precision for the bound, as comparing it with a number would.
    bound = np.array([0.4 * pips[i].contrast for i in which]).astype(np.float32)
    good = np.count_nonzero(kept & inb & (values < bound[:, None]), axis=1)
    n = np.count_nonzero(kept, axis=1)
    return [int(g) / int(m) if m else 0.0 for g, m in zip(good, n)]


@cache
def _disk(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


# Growing or shrinking a mask by a disk of radius r px is a threshold of its distance map: OpenCV's
# dilate and erode cost ~r^2 per pixel with a disk (a die's reach, r ~14 px at SIDE, ~0.35 ms a
# region), the distance map (5x5 chamfer, within ~2% of Euclidean) a fixed ~0.05 ms. The half pixel
# matches the digital disk of ``_disk(2 r + 1)``, which reaches ~r + 0.5 px along the diagonals.

def _grow(mask: np.ndarray, r: int) -> np.ndarray:
    """(H, W) uint8 0/255: ``mask`` ((H, W) uint8, nonzero inside) grown by a disk of radius ``r`` px."""
    dist = cv2.distanceTransform(cv2.compare(mask, 0, cv2.CMP_EQ), cv2.DIST_L2, 5)
    return cv2.compare(dist, r + 0.5, cv2.CMP_LE)


def _shrink(mask: np.ndarray, r: int) -> np.ndarray:
    """(H, W) uint8 0/255: ``mask`` shrunk by a disk of radius ``r`` px, outside the image counting
    as outside the mask."""
    framed = cv2.copyMakeBorder(cv2.compare(mask, 0, cv2.CMP_NE), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    dist = cv2.distanceTransform(framed, cv2.DIST_L2, 5)[1:-1, 1:-1]
    return cv2.compare(dist, r + 0.5, cv2.CMP_GT)


def read_face(bgr: np.ndarray, contour: np.ndarray, side: float, p: ReaderParams,
              context: np.ndarray | None = None) -> FaceRead:
    """Read the dice in one region of a frame.

    bgr: (H, W, 3) uint8 BGR, the whole frame. contour: (n, 1, 2) int32, the region's outline in
    frame px. side: one die's side in px. context: (m, 1, 2) int32, the outline of the foreground
    around the region (its lowest cut), or None: pips found there beside the region are never
    read, but any face must explain them (a tighter cut may leave part of a die out).
    Returns a FaceRead: the dice read with their confidence, or none and the reason.
    """
    d = _Die(bgr, contour, side, context, p.beside_reach)
    # Up to max_pips for each die's area the region holds (a cluster of touching dice has more).
    limit = int(p.max_pips * max(1.0, cv2.countNonZero(d.mask) / (d.side * d.side)))
    found = find_pips(d.contrast, d.inside, d.side, min_response=p.min_pip_response,
                      relative=p.min_pip_share, limit=limit + 1, beside=d.beside)
    pips = [q for q in found if not q.beside]
    shown = [Pip(*d.to_frame(q.x, q.y), q.r / d.scale, q.contrast, q.shape) for q in pips]
    if not pips:
        return FaceRead(reason="no pips", pips=shown)
    if len(pips) > limit:
        return FaceRead(reason="more pip-like spots than its dice can hold", pips=shown)
    own = len(pips)
    # A spot beside the region counts only if it is a spot on a face, face-coloured all around (the
    # tray or a shadow just beside a die is no pip).
    beside = [i for i, q in enumerate(found) if q.beside]
    pips += [found[i] for i, share in zip(beside, _ring_shares(d, found, beside)) if share >= p.beside_ring]
    shapes = np.array([q.shape for q in pips])
    # Radii in the frame's own px: a pip's measured shape is as noisy as its real pixels are few.
    # Layouts are read from the region's own pips only (the first ``own``).
    every = layout.candidates([(q.x, q.y) for q in pips], [q.r / d.scale for q in pips], shapes,
                              shape_tol=p.shape_tol, two_ratio=p.two_alike)
    cands = [lay for lay in every if max(lay.members) < own]
    # Part of a larger layout of alike pips is never the answer, whatever sinks the larger one (a 3
    # whose far corner sits on the rim must not pass as a 2 of two of its pips; a 2 of a 6 whose
    # other pips a tighter region left out): such parts are not even checked, and if nothing else
    # fits the die is unreadable.
    parts = set()
    for lay in every:
        if lay.value >= 3:
            for k in range(2, len(lay.members)):
                parts.update(frozenset(c) for c in combinations(lay.members, k))
    check = _Checks(d, pips, shapes, own, p)
    valid: list[layout.Layout] = []
    tried: list[tuple[int, str]] = []
    why = "no layout"
    owned: set[int] = set()  # pips of valid layouts of 3 or more: no longer worth checking as 1s
    for lay in sorted(cands, key=lambda l: -l.value):
        if lay.value >= 2 and frozenset(lay.members) in parts or lay.value == 1 and lay.members[0] in owned:
            continue
        reason, _ = check(lay)
        if lay.value >= 3:
            tried.append((lay.value, reason))
        if not reason:
            valid.append(lay)
            if lay.value >= 3:
                owned.update(lay.members)
        elif not valid:
            why = reason
    if not valid:
        return FaceRead(reason=why, pips=shown, tried=tried)
    # A pip that passes as a 1 sits alone in the middle of its own face: no 2 has it at a corner
    # (such a 2 takes a pip of another face, a side face's or a neighbour's). Three pips or more
    # in a layout outweigh that evidence.
    ones = {lay.members[0] for lay in valid if lay.value == 1}
    valid = [lay for lay in valid if lay.value != 2 or not ones.intersection(lay.members)]
    faces, problem = _dice_faces(valid, d, shapes, d.side)
    if problem:
        return FaceRead(reason=problem, pips=shown, tried=tried)
    return FaceRead([_face_die(lay, d, check) for lay in faces], pips=shown, tried=tried)


def _face_die(lay: layout.Layout, d: _Die, check: _Checks) -> FaceDie:
    """A read face as a FaceDie in frame px."""
    if lay.value > 1:
        corners = [d.to_frame(*lay.to_image(1.85 * a, 1.85 * b)) for a in (-1, 1) for b in (-1, 1)]
        area = lay.area
    elif check.patch(lay.members[0]) is not None:
        _, (fx, fy), fs = check.patch(lay.members[0])
        corners = [d.to_frame(fx + 0.5 * fs * a, fy + 0.5 * fs * b) for a in (-1, 1) for b in (-1, 1)]
        area = fs * fs
    else:
        h, w = d.mask.shape
        corners = [d.to_frame(0, 0), d.to_frame(w, h)]
        area = 0.0
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    box = (int(min(xs)), int(min(ys)), int(round(max(xs) - min(xs))), int(round(max(ys) - min(ys))))
    return FaceDie(lay.value, d.to_frame(*lay.center), box, check.confidence(lay), area / d.scale ** 2, lay)


class _Checks:
    """The top-face checks of the module docstring, for one die's pips."""

    def __init__(self, d: _Die, pips: list[Pip], shapes: np.ndarray, own: int, p: ReaderParams):
        """pips: the region's own pips (the first ``own``), then those beside it."""
        self.d, self.pips, self.shapes, self.own, self.p = d, pips, shapes, own, p
        r_typ = _median([q.r for q in pips])
        self.sample = d.sampler(0.6 * r_typ)
        self.squash = [layout.squash(q.shape) for q in pips]
        self._patches: dict[int, tuple | None] = {}
        self._rings: list[float] | None = None

    def patch(self, i: int):
        """The face-coloured patch around pip i (``_Die.patch_at``), looked up once."""
        if i not in self._patches:
            q = self.pips[i]
            self._patches[i] = self.d.patch_at(q.x, q.y, q.r)
        return self._patches[i]

    def ring(self, i: int) -> float:
        """The face-coloured share of the ring around pip i (``_ring_shares``), computed once."""
        if self._rings is None:  # every pip's at once: one pass costs about what one pip's does
            self._rings = _ring_shares(self.d, self.pips, list(range(len(self.pips))))
        return self._rings[i]

    def __call__(self, lay: layout.Layout) -> tuple[str, bool]:
        """("", False) when ``lay`` may be the top face, else (reason, whether only its placement
        on this region failed)."""
        d, pips, p = self.d, self.pips, self.p
        side = d.side
        mem = lay.members
        pip_c = min(pips[i].contrast for i in mem)
        others = [i for i in range(len(pips)) if i not in mem]
        cx, cy = lay.center
        if lay.value == 1:
            q = pips[mem[0]]
            if not p.one_radius[0] * side <= q.r <= p.one_radius[1] * side:
                return "1: pip size", False
            # A 1's face: the face-coloured patch around its pip (side faces, shaded otherwise, are
            # other patches). The pip sits in its middle, alone, and the patch is a die's face.
            found = self.patch(mem[0])
            if found is None:
                return "1: no face around the pip", False
            k, (fx, fy), fs = found
            if fs < p.one_face * side:
                return "1: no face around the pip", True
            if math.hypot(cx - fx, cy - fy) > p.one_offset * fs:
                return "1: not in the middle of its face", True
            for i in others:
                o = pips[i]
                dist = math.hypot(o.x - fx, o.y - fy)
                if o.contrast > 0.5 * pip_c and (dist < 0.55 * fs or dist < fs and (self.patch(i) or (0,))[0] == k):
                    return "1: other pip on the face", False
            # Wherever a 2-6 would put pips, at any rotation, the face must be empty.
            if max((self.sample(*pt) for pt in _ring(lay, 0.5 * fs) if d.in_patch(k, *pt)),
                   default=0.0) > p.empty_share * pip_c:
                return "1: a pip beside it", False
            return "", False
        if lay.value == 2:
            # Any two pips are symmetric about their midpoint: a 2 has only their likeness for it.
            a, b = (pips[i] for i in mem)
            if (max(a.r, b.r) > p.two_alike * min(a.r, b.r) or max(a.contrast, b.contrast) > p.two_alike * min(
                    a.contrast, b.contrast) or layout.shape_distance(a.shape, b.shape) > 0.7 * float(
                    layout.shape_allowance(p.shape_tol, min(a.r, b.r) / d.scale))):
                return "2: its pips unlike", False
            # Nor is a spot at an edge (a shadow between dice, a rim): each pip of a 2 has its face
            # all around it.
            if min(self.ring(i) for i in mem) < p.two_ring:
                return "2: a pip not ringed by its face", False
        step = lay.step
        if not p.step_range[0] * side <= step <= p.step_range[1] * side:
            return f"{lay.value}: grid step {step / side:.2f} of the die", False
        r_mean = sum(pips[i].r for i in mem) / len(mem)
        if not p.pip_to_step[0] * step <= r_mean <= p.pip_to_step[1] * step:
            return f"{lay.value}: pip size", False
        if max(pips[i].contrast for i in mem) > p.contrast_ratio * pip_c:
            return f"{lay.value}: pip contrast", False
        for i in others:
            a, b = lay.to_grid(pips[i].x, pips[i].y)
            if max(abs(a), abs(b)) <= p.face_extent and pips[i].contrast > 0.5 * pip_c:
                return f"{lay.value}: unexplained pip on the face", False
        if lay.value in (2, 3):
            # A 2 or 3 has its face's other diagonal only from its pips' shape, which blur or
            # noise can squash (a column of a 6 passes as a narrow 3): the face seen square must
            # hold no other pip of the region either.
            dx, dy = lay.u[0] + lay.v[0], lay.u[1] + lay.v[1]
            seen_square = layout.Layout(lay.value, mem, lay.center, ((dx - dy) / 2.0, (dy + dx) / 2.0),
                                        ((dx + dy) / 2.0, (dy - dx) / 2.0), lay.residual)
            for i in others:
                a, b = seen_square.to_grid(pips[i].x, pips[i].y)
                if i < self.own and max(abs(a), abs(b)) <= p.face_extent and pips[i].contrast > 0.5 * pip_c:
                    return f"{lay.value}: a pip on its face seen square", False
        # A pip beside the region just beyond the face, alike the face's own (contrast, size,
        # squash), belongs to a larger face a tighter cut left part of (a 2 of two neighbours of a
        # 5): not explained. Of the region's own pips beyond the face most are its side faces',
        # but one alike a 2's or 3's own just past its edge (1.85 grid steps from its centre; a
        # touching die's nearest pip lies ~2.7 steps away) makes it part of a larger face whose
        # other pips were missed or fit no layout (a 3 of a 6 whose other column fit no 6).
        r_min = min(pips[i].r for i in mem)
        r_max = max(pips[i].r for i in mem)
        for i in others:
            o = pips[i]
            if o.contrast < p.alike_contrast * pip_c or not r_min / p.alike_size <= o.r <= r_max * p.alike_size:
                continue
            if min(layout.shape_distance(o.shape, pips[k].shape) for k in mem) > p.shape_tol:
                continue
            a, b = lay.to_grid(o.x, o.y)
            if i >= self.own and max(abs(a), abs(b)) <= p.beside_extent:
                return f"{lay.value}: a pip like its own beside the face", False
            if i < self.own and lay.value <= 3 and max(abs(a), abs(b)) <= p.own_extent:
                return f"{lay.value}: a pip like its own just beyond the face", False
        occupied = layout.PATTERNS[lay.value]
        for a, b in layout.GRID:
            if (a, b) not in occupied and self.sample(*lay.to_image(a, b)) > p.empty_share * pip_c:
                return f"{lay.value}: a pip at empty position {a},{b}", False
        # Between its pips a face is even: a layout across an edge (a top pip and a side face's, or
        # pips of two touching dice) takes in the edge's shading or the other die.
        if self._uneven(lay, occupied, pip_c) > p.max_uneven:
            return f"{lay.value}: the face is not even between its pips", False
        # A face seen at a slant with much of the die above it in the frame is a side face: the
        # side faces a camera sees turn towards it, below the top face. (Seen squarely, what lies
        # above may be a touching die.)
        slanted = _squash(lay, self.shapes) > p.side_squash
        if slanted and self._die_above(lay):
            return f"{lay.value}: a side face (more die above it)", False
        if slanted and self._pip_above(lay, others, pip_c):
            return f"{lay.value}: a side face (a pip above it)", False
        for a, b in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if not d.on_die(*lay.to_image(1.5 * a, 1.5 * b)):
                return f"{lay.value}: face leaves the die", True
        return "", False

    def _die_above(self, lay: layout.Layout) -> bool:
        """Whether the region, or the foreground around it, goes on well above the face (past its top
        edge by 0.4 of its height)."""
        corners = [lay.to_image(1.85 * a, 1.85 * b) for a in (-1, 1) for b in (-1, 1)]
        top = min(c[1] for c in corners)
        height = max(c[1] for c in corners) - top
        xs = [c[0] for c in corners]
        mid = (min(xs) + max(xs)) / 2.0
        h, w = self.d.mask.shape
        probes = [(mid + dx * (max(xs) - min(xs)) / 4.0, top - 0.4 * height) for dx in (-1, 0, 1)]
        above = self.d.around
        return sum(0 <= int(y) < h and 0 <= int(x) < w and bool(above[int(y), int(x)]) for x, y in probes) >= 2

    def _pip_above(self, lay: layout.Layout, others, pip_c: float) -> bool:
        """Whether a pip of this region not on the face lies above it (within a face's height
        over its top edge): the top face a side face turned to the camera is seen below."""
        corners = [lay.to_image(1.85 * a, 1.85 * b) for a in (-1, 1) for b in (-1, 1)]
        top = min(c[1] for c in corners)
        height = max(c[1] for c in corners) - top
        xs = [c[0] for c in corners]
        for i in others:
            o = self.pips[i]
            if i < self.own and o.contrast > 0.5 * pip_c and top - height <= o.y < top and min(xs) <= o.x <= max(xs):
                return True
        return False

    def _uneven(self, lay: layout.Layout, occupied, pip_c: float) -> float:
        """The share of points on the face, away from its pips, whose contrast is pip-like."""
        points = _FACE_POINTS[lay.value]
        bad = sum(self.sample(*lay.to_image(a, b)) > 0.4 * pip_c for a, b in points)
        return bad / max(len(points), 1)

    def confidence(self, lay: layout.Layout) -> float:
        """0-1: how clearly the pips stand above the empty positions, times the layout's fit."""
        pip_c = min(self.pips[i].contrast for i in lay.members)
        if lay.value == 1:
            found = self.patch(lay.members[0])
            half = 0.5 * found[2] if found else 0.5 * self.d.side
            empty = max(self.sample(*pt) for pt in _ring(lay, half))
        else:
            occupied = layout.PATTERNS[lay.value]
            empty = max((self.sample(*lay.to_image(a, b)) for a, b in layout.GRID if (a, b) not in occupied),
                        default=0.0)
        margin = max(0.0, 1.0 - empty / max(pip_c, 1e-6))
        return float(min(max(margin * (1.0 - lay.residual), 0.0), 1.0))


def _ring(lay: layout.Layout, half: float) -> list[tuple[float, float]]:
    """Points where a 2-6 on a face of half-width ``half`` px around a 1's pip would hold pips, for
    any rotation: 16 directions at the distance of the middle pips (0.54 half) and the corners."""
    cx, cy = lay.center
    return [(cx + rad * half * math.cos(k * math.pi / 8), cy + rad * half * math.sin(k * math.pi / 8))
            for rad in (0.54, 0.76) for k in range(16)]


def _dice_faces(valid: list[layout.Layout], d: _Die, shapes: np.ndarray, side: float):
    """(faces, problem): the top faces of the dice in a region among its valid layouts, or a
    problem that makes the region unreadable.

    Layouts on one face give way to the one explaining most pips (a 6 over the 4 of its corners).
    Two faces both seen nearly squarely cannot be faces of one die (they would be perpendicular):
    they are touching dice, each read. Otherwise one die, and its top face is the least
    foreshortened one if that is also the upper one in the frame (the side faces a camera sees turn
    towards it, below the top face), or if the others are far more squashed (a camera looking
    down sees side faces at a grazing slant, wherever they lie). Foreshortening alone cannot tell a
    view 30 degrees from vertical from one 60 degrees from it, so otherwise no face is trusted.
    """
    groups: list[list[layout.Layout]] = []
    for lay in sorted(valid, key=lambda l: (-len(l.members), l.residual)):
        for g in groups:
            if _same_face(g[0], lay, side):
                g.append(lay)
                break
        else:
            groups.append([lay])
    heads = sorted((g[0] for g in groups), key=lambda l: _squash(l, shapes))
    square = [h for h in heads if _squash(h, shapes) < SQUARE]
    if len(square) >= 2:
        for i, a in enumerate(square):
            for b in square[i + 1:]:
                if _faces_overlap(a, b, side):
                    return [], f"faces overlap: {a.value} and {b.value}"
        return square, ""
    best = heads[0]
    for other in heads[1:]:
        if other.value == best.value:
            continue
        # best is the rounder. A camera looking down sees the side faces at a slant (far more
        # squashed); a steep camera may see the side face turned to it more squarely than the top,
        # but then below it. Agreeing, or a side face far more squashed: decided; else ambiguous.
        if best.center[1] <= other.center[1] or _squash(other, shapes) >= 2.0 * _squash(best, shapes):
            continue
        return [], f"ambiguous: {best.value} or {other.value}"
    return [best], ""


SQUARE = 1.3  # a face squashed less than this is seen nearly straight on


def _squash(lay: layout.Layout, shapes: np.ndarray) -> float:
    """How foreshortened a layout's face looks: from its corners for 4-6, its pips for 1-3."""
    if lay.value >= 4:
        return layout.squash(layout.face_shape(lay.u, lay.v))
    return layout.squash(shapes[list(lay.members)].mean(axis=0))


def _faces_overlap(a: layout.Layout, b: layout.Layout, side: float) -> bool:
    """Whether two faces read as two dice would overlap (a layout taking pips of both dice)."""
    for x, y in ((a, b), (b, a)):
        pts = [y.center] + ([y.to_image(1.4 * i, 1.4 * j) for i in (-1, 1) for j in (-1, 1)] if y.value > 1 else [])
        for pt in pts:
            if x.value == 1:
                if math.hypot(pt[0] - x.center[0], pt[1] - x.center[1]) < 0.4 * side:
                    return True
            elif max(abs(c) for c in x.to_grid(*pt)) < 1.6:
                return True
    return False


def _same_face(a: layout.Layout, b: layout.Layout, side: float) -> bool:
    """Whether two layouts lie on one face (either centre within the other's face)."""
    for x, y in ((a, b), (b, a)):
        if x.value == 1:
            if math.hypot(x.center[0] - y.center[0], x.center[1] - y.center[1]) < 0.35 * side:
                return True
        else:
            ga, gb = x.to_grid(*y.center)
            if max(abs(ga), abs(gb)) <= 1.85:
                return True
    return False
