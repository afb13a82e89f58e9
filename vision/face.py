"""Reading one die: which pip layout is its top face, or why none can be trusted.

Given a region that may be a die, its pips are found (``vision.pips``), every layout they can form is
listed (``vision.layout``), and each layout is checked against the image as the top face:

- its pips look like pips of this die (size against the grid step, alike in contrast);
- nothing is left unexplained on the face: no other pip inside it, no pip like its own just beside
  it (a 3 that is one column of a 6), and each empty grid position really is empty (a 6 whose
  middle pips were missed must not pass as a 4);
- the face sits on the die: centred, and its corners inside the region.

Of the layouts that pass, those on one face give way to the one explaining most pips; of layouts on
different faces (a tilted camera sees side faces too), the top face is the least foreshortened. A
rival on another face about as little foreshortened makes the die ambiguous: no value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import layout
from vision.pips import Pip, contrast_map, find_pips

if TYPE_CHECKING:
    from vision.reader import ReaderParams


@dataclass
class FaceRead:
    """What one region says: ``value`` 1-6 with its face ``center`` (x, y) frame px and
    ``confidence`` 0-1, or value None and ``reason``. pips (frame px) and layout for display."""

    value: int | None
    center: tuple[float, float] = (0.0, 0.0)
    confidence: float = 0.0
    reason: str = ""
    pips: list[Pip] = field(default_factory=list)
    layout: layout.Layout | None = None
    tried: list[tuple[int, str]] = field(default_factory=list)  # (value, why not) of layouts of 3+


class _Die:
    """The image around one region: its box in YCrCb, masks and contrast map (box px)."""

    def __init__(self, bgr: np.ndarray, contour: np.ndarray, side: float):
        H, W = bgr.shape[:2]
        x, y, w, h = cv2.boundingRect(contour)
        pad = int(0.25 * side) + 2
        self.x0, self.y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(W, x + w + pad), min(H, y + h + pad)
        self.side = side
        self.mask = np.zeros((y1 - self.y0, x1 - self.x0), np.uint8)
        cv2.drawContours(self.mask, [contour - np.array([[self.x0, self.y0]], np.int32)], -1, 255, -1)
        box = bgr[self.y0:y1, self.x0:x1]
        # A 3x3 median first: salt-and-pepper noise would otherwise make pips of its own.
        self.ycc = cv2.cvtColor(cv2.medianBlur(box, 3), cv2.COLOR_BGR2YCrCb).astype(np.float32)
        k = max(3, int(side * 0.1) | 1)
        self.inside = cv2.erode(self.mask, _disk(k), borderValue=0)
        # The face colour from the die's middle: its rim, shadow and the background corners of a
        # loose region are not the face.
        core = cv2.erode(self.mask, _disk(max(3, int(side * 0.3) | 1)), borderValue=0)
        sel = core > 0 if core.any() else self.mask > 0
        self.face = np.median(self.ycc[sel], axis=0)
        self.contrast = contrast_map(self.ycc, self.face)
        kn = max(3, int(side * 0.2) | 1)
        self.near = cv2.dilate(self.mask, _disk(kn))
        m = cv2.moments(self.mask, binaryImage=True)
        self.center = ((m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] > 0
                       else (self.mask.shape[1] / 2.0, self.mask.shape[0] / 2.0))

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


def _disk(k: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def read_face(bgr: np.ndarray, contour: np.ndarray, side: float, p: ReaderParams) -> FaceRead:
    """Read the die in one region of a frame.

    bgr: (H, W, 3) uint8 BGR, the whole frame. contour: (n, 1, 2) int32, the region's outline in
    frame px. side: the die's side in px (the region's square root of area).
    Returns a FaceRead: a value with its confidence, or None with the reason.
    """
    d = _Die(bgr, contour, side)
    pips = find_pips(d.contrast, d.inside, side, min_response=p.min_pip_response,
                     relative=p.min_pip_share)[: p.max_pips]
    shown = [Pip(q.x + d.x0, q.y + d.y0, q.r, q.contrast, q.shape) for q in pips]
    if not pips:
        return FaceRead(None, reason="no pips", pips=shown)
    shapes = np.array([q.shape for q in pips])
    valid: list[layout.Layout] = []
    misplaced: list[set[int]] = []
    tried: list[tuple[int, str]] = []
    why = "no layout"
    check = _Checks(d, pips, shapes, p)
    for lay in layout.candidates([(q.x, q.y) for q in pips], [q.r for q in pips], shapes,
                                 shape_tol=p.shape_tol):
        reason, region_only = check(lay)
        if lay.value >= 3:
            tried.append((lay.value, reason))
        if not reason:
            valid.append(lay)
            continue
        if region_only and lay.value >= 2:
            misplaced.append(set(lay.members))
        if not valid:
            why = reason
    # A layout whose own pips fit but whose face does not sit on this region means the region is
    # not the whole die (cut at a high level, merged with a neighbour): none of its subsets is the
    # answer either.
    valid = [lay for lay in valid if not any(set(lay.members) < m for m in misplaced)]
    if not valid:
        return FaceRead(None, reason="face not inside the region" if misplaced else why, pips=shown,
                        tried=tried)
    best, rival = _top_face(valid, shapes, side)
    if rival is not None:
        return FaceRead(None, reason=f"ambiguous: {best.value} or {rival.value}", pips=shown, tried=tried)
    cx, cy = best.center
    return FaceRead(best.value, (cx + d.x0, cy + d.y0), check.confidence(best), pips=shown,
                    layout=best, tried=tried)


class _Checks:
    """The top-face checks of the module docstring, for one die's pips."""

    def __init__(self, d: _Die, pips: list[Pip], shapes: np.ndarray, p: ReaderParams):
        self.d, self.pips, self.shapes, self.p = d, pips, shapes, p
        r_typ = float(np.median([q.r for q in pips]))
        self.sample = d.sampler(0.6 * r_typ)

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
            for i in others:
                if math.hypot(pips[i].x - cx, pips[i].y - cy) < 0.4 * side and pips[i].contrast > 0.5 * pip_c:
                    return "1: other pip on the face", False
            # Wherever a 2-6 would put pips, at any rotation, the face must be empty.
            if max(self.sample(*pt) for pt in _ring(lay, side)) > p.empty_share * pip_c:
                return "1: a pip beside it", False
            if math.hypot(cx - d.center[0], cy - d.center[1]) > p.one_center_tol * side:
                return "1: off centre", True
            return "", False
        step = lay.step
        if not p.step_range[0] * side <= step <= p.step_range[1] * side:
            return f"{lay.value}: grid step {step / side:.2f} of the die", False
        r_mean = sum(pips[i].r for i in mem) / len(mem)
        if not p.pip_to_step[0] * step <= r_mean <= p.pip_to_step[1] * step:
            return f"{lay.value}: pip size", False
        if max(pips[i].contrast for i in mem) > p.contrast_ratio * pip_c:
            return f"{lay.value}: pip contrast", False
        r_med = float(np.median([pips[i].r for i in mem]))
        shape = self.shapes[list(mem)].mean(axis=0)
        for i in others:
            q = pips[i]
            a, b = lay.to_grid(q.x, q.y)
            g = max(abs(a), abs(b))
            if g <= p.face_extent and q.contrast > 0.5 * pip_c:
                return f"{lay.value}: unexplained pip on the face", False
            # Just beyond the face: a pip like these would be on this face too (a 3 that is one
            # column of a 6); a side face's pip is squashed another way, a touching die's further out.
            if (g <= 2.3 and 0.66 < q.r / r_med < 1.5 and 0.6 < q.contrast / pip_c < 1.7
                    and layout.shape_distance(q.shape, shape) < 0.3):
                return f"{lay.value}: a pip like these beside the face", False
        occupied = layout.PATTERNS[lay.value]
        for a, b in layout.GRID:
            if (a, b) not in occupied and self.sample(*lay.to_image(a, b)) > p.empty_share * pip_c:
                return f"{lay.value}: a pip at empty position {a},{b}", False
        if math.hypot(cx - d.center[0], cy - d.center[1]) > p.center_tol * side:
            return f"{lay.value}: off centre", True
        for a, b in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
            if not d.on_die(*lay.to_image(1.5 * a, 1.5 * b)):
                return f"{lay.value}: face leaves the die", True
        return "", False

    def confidence(self, lay: layout.Layout) -> float:
        """0-1: how clearly the pips stand above the empty positions, times the layout's fit."""
        pip_c = min(self.pips[i].contrast for i in lay.members)
        if lay.value == 1:
            empty = max(self.sample(*pt) for pt in _ring(lay, self.d.side))
        else:
            occupied = layout.PATTERNS[lay.value]
            empty = max((self.sample(*lay.to_image(a, b)) for a, b in layout.GRID if (a, b) not in occupied),
                        default=0.0)
        margin = max(0.0, 1.0 - empty / max(pip_c, 1e-6))
        return float(np.clip(margin * (1.0 - lay.residual), 0.0, 1.0))


def _ring(lay: layout.Layout, side: float) -> list[tuple[float, float]]:
    """Points where a 2-6 on this die would hold pips, for any rotation: 16 directions at the
    distance of the middle pips (0.27 of the side) and of the corners (0.38)."""
    cx, cy = lay.center
    return [(cx + rad * side * math.cos(k * math.pi / 8), cy + rad * side * math.sin(k * math.pi / 8))
            for rad in (0.27, 0.38) for k in range(16)]


def _top_face(valid: list[layout.Layout], shapes: np.ndarray, side: float):
    """(best, rival): the top face among valid layouts, and a rival on another face that is about
    as likely the top (the die is then ambiguous), else None."""
    groups: list[list[layout.Layout]] = []
    for lay in sorted(valid, key=lambda l: (-len(l.members), l.residual)):
        for g in groups:
            if _same_face(g[0], lay, side):
                g.append(lay)
                break
        else:
            groups.append([lay])
    heads = sorted((g[0] for g in groups), key=lambda l: _squash(l, shapes))
    best = heads[0]
    for other in heads[1:]:
        if other.value != best.value and _squash(other, shapes) < 1.12 * _squash(best, shapes):
            return best, other
    return best, None


def _squash(lay: layout.Layout, shapes: np.ndarray) -> float:
    """How foreshortened a layout's face looks: from its corners for 4-6, its pips for 1-3."""
    if lay.value >= 4:
        return layout.squash(layout.face_shape(lay.u, lay.v))
    return layout.squash(shapes[list(lay.members)].mean(axis=0))


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
