"""Where the dice may be: foreground against a background model, cut at several levels.

Background: with an empty-tray reference frame (taken at calibration) the background is that frame;
without one it is estimated from the frame itself by a large median filter on a small copy (dice are
small against the tray, so the median is the tray), refined once with the first foreground put back
to the first estimate.

Foreground: each pixel's colour distance from the background, darkening weighted down (a shadow is
darker, not differently coloured). No single threshold suits every die: a white die on a light table
barely differs, a laptop beside it differs a lot. So the map is cut at a ladder of levels, as MSER
does, and each blob at each level becomes a candidate with its shape measured. Blobs nest across
levels (a blob at a higher level lies inside one at the level below), which gives a tree: two touching
dice merged at a low level part at a higher one, and a tilted die's bright top face stands alone at
the highest levels, without its side faces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.pips import CHROMA

SHADOW = 0.35  # weight of darkening against the background


@dataclass(eq=False)
class Blob:
    """A foreground blob at one level of the ladder, in frame px.

    contour: (n, 1, 2) int32. area: px^2, holes filled. rect: cv2.minAreaRect. fill: area / rect
    area (1 for a square seen straight). solidity: area / convex hull area. level: index in the
    ladder. children: the blobs at the next level inside this one.
    """

    contour: np.ndarray
    area: float
    rect: tuple
    fill: float
    solidity: float
    level: int
    center: tuple[float, float]
    box: tuple[int, int, int, int]
    children: list[Blob] = field(default_factory=list)

    @property
    def side(self) -> float:
        """The side of a square of the same area, px."""
        return float(np.sqrt(self.area))

    @property
    def aspect(self) -> float:
        w, h = self.rect[1]
        return float(max(w, h) / max(min(w, h), 1e-6))


def background(small: np.ndarray) -> np.ndarray:
    """(h, w, 3) uint8 BGR: the background of ``small`` (a (h, w, 3) uint8 BGR frame) without dice.

    A median over a thumbnail ~80 px across (its window ~a fifth of the view) removes dice up to
    about a tenth of the view. Then die-sized spots still standing out from that first estimate
    (holes filled, so a large die whose middle leaked into the median is masked whole; larger
    shapes such as a tray wall are background) are filled from it and the median taken again, and
    the result is smoothed and brought back to full size.
    """
    h, w = small.shape[:2]
    f = max(1.0, max(h, w) / 80.0)
    sw, sh = max(8, int(round(w / f))), max(8, int(round(h / f)))
    tiny = cv2.resize(small, (sw, sh), interpolation=cv2.INTER_AREA)
    k = _odd(max(3, min(sw, sh) // 4))
    bg = cv2.medianBlur(tiny, k)
    fg = (cv2.absdiff(tiny, bg).max(axis=2) > 25).astype(np.uint8)
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    # Only die-sized spots are filled in: a tray wall or the table's edge is background. A spot is
    # given the first estimate and the median taken again, which pulls its surroundings in.
    spots = [c for c in contours if cv2.contourArea(c) <= 0.04 * sw * sh]
    if spots:
        mask = np.zeros_like(fg)
        cv2.drawContours(mask, spots, -1, 1, -1)
        mask = cv2.dilate(mask, np.ones((3, 3), np.uint8)) > 0
        mixed = tiny.copy()
        mixed[mask] = bg[mask]
        bg = cv2.medianBlur(mixed, k)
    bg = cv2.medianBlur(bg, 5)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _odd(k: int) -> int:
    return k if k % 2 else k - 1


def foreground_distance(ycc: np.ndarray, bg_ycc: np.ndarray) -> np.ndarray:
    """(h, w) float32: each pixel's colour distance from the background (both (h, w, 3) float32
    YCrCb), darkening counted at ``SHADOW``, chroma as in ``vision.pips.contrast_map``."""
    d = ycc - bg_ycc
    dy = d[..., 0]
    dy = np.maximum(dy, -SHADOW * dy)
    return np.sqrt(dy * dy + CHROMA * (d[..., 1] ** 2 + d[..., 2] ** 2))


def blob_tree(dist: np.ndarray, levels: tuple[float, ...], scale: float, min_area: float,
              max_area: float) -> list[Blob]:
    """The roots of the blob tree of ``dist`` (see the module docstring).

    dist: (h, w) float32 map; levels: ascending thresholds; scale: frame px per map px.
    Blobs outside [min_area, max_area] (frame px^2) are dropped; their children become roots.
    """
    opener = np.ones((3, 3), np.uint8)
    closer = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    roots: list[Blob] = []
    prev_labels, prev_blobs = None, {}
    s2 = scale * scale
    for li, t in enumerate(levels):
        binary = cv2.morphologyEx((dist > t).astype(np.uint8), cv2.MORPH_CLOSE, closer)
        binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, opener)
        if not binary.any():
            break
        _, labels = cv2.connectedComponents(binary, connectivity=8)
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        blobs: dict[int, Blob] = {}
        for c in contours:
            area = cv2.contourArea(c) * s2
            if area < min_area or area > max_area:
                continue
            x, y = c[0, 0]
            blob = _blob(c, area, li, scale)
            blobs[int(labels[y, x])] = blob
            parent = prev_blobs.get(int(prev_labels[y, x])) if prev_labels is not None else None
            (parent.children if parent is not None else roots).append(blob)
        prev_labels, prev_blobs = labels, blobs
    return roots


def _blob(c: np.ndarray, area: float, level: int, scale: float) -> Blob:
    cf = (c.astype(np.float32) + 0.5) * scale
    rect = cv2.minAreaRect(cf)
    rect_area = max(rect[1][0] * rect[1][1], 1e-6)
    hull_area = max(cv2.contourArea(cv2.convexHull(cf)), 1e-6)
    m = cv2.moments(cf)
    center = (m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] > 0 else rect[0]
    x, y, w, h = cv2.boundingRect(cf)
    return Blob(np.round(cf).astype(np.int32), area, rect, min(1.0, area / rect_area),
                min(1.0, area / hull_area), level, center, (x, y, w, h))


def walk(blob: Blob):
    """The blob and all its descendants, depth first."""
    yield blob
    for child in blob.children:
        yield from walk(child)
