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

from functools import cached_property

import cv2
import numpy as np

from vision.pips import colour_distance

SHADOW = 0.35  # weight of darkening against the background


class Blob:
    """A foreground blob at one level of the ladder, in frame px (shape measures on first use).

    contour: (n, 1, 2) int32 (map_contour: the same in the cut map's px). area: px^2, holes filled. rect: cv2.minAreaRect. fill: area / rect
    area (1 for a square seen straight). solidity: area / convex hull area. level: index in the
    ladder. children: the blobs at the next level inside this one.
    """

    def __init__(self, contour_map: np.ndarray, scale: float, area: float, level: int):
        self.map_contour = contour_map  # (n, 1, 2) int32 in the cut map's px
        self._scale = scale
        self.area = area
        self.level = level
        self.children: list[Blob] = []

    @cached_property
    def contour(self) -> np.ndarray:
        return np.round((self.map_contour.astype(np.float32) + 0.5) * self._scale).astype(np.int32)

    @cached_property
    def rect(self) -> tuple:
        return cv2.minAreaRect(self.contour)

    @cached_property
    def fill(self) -> float:
        return min(1.0, self.area / max(self.rect[1][0] * self.rect[1][1], 1e-6))

    @cached_property
    def solidity(self) -> float:
        return min(1.0, self.area / max(cv2.contourArea(cv2.convexHull(self.contour)), 1e-6))

    @cached_property
    def center(self) -> tuple[float, float]:
        m = cv2.moments(self.contour)
        return (m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] > 0 else self.rect[0]

    @cached_property
    def box(self) -> tuple[int, int, int, int]:
        x, y, w, h = cv2.boundingRect(self.contour)
        return (int(x), int(y), int(w), int(h))

    @property
    def side(self) -> float:
        """The side of a square of the same area, px."""
        return float(np.sqrt(self.area))

    def spread(self, image: np.ndarray) -> tuple[int, np.ndarray]:
        """(n, (C,) float64 variances): how many pixels of ``image`` ((h, w, C) float32, the cut
        map's size) lie on the blob, and each channel's variance over them."""
        x, y, w, h = cv2.boundingRect(self.map_contour)
        mask = np.zeros((h, w), np.uint8)
        cv2.drawContours(mask, [self.map_contour - np.array([[x, y]], np.int32)], -1, 1, -1)
        _, std = cv2.meanStdDev(image[y:y + h, x:x + w], mask=mask)
        return cv2.countNonZero(mask), std.ravel() ** 2

    @cached_property
    def inscribed(self) -> float:
        """The diameter of the largest disk inside the blob, px: one die's side in a cluster of dice."""
        x, y, w, h = cv2.boundingRect(self.map_contour)
        mask = np.zeros((h + 2, w + 2), np.uint8)
        cv2.drawContours(mask, [self.map_contour - np.array([[x - 1, y - 1]], np.int32)], -1, 255, -1)
        return float(cv2.distanceTransform(mask, cv2.DIST_L2, 3).max()) * 2.0 * self._scale

    @property
    def aspect(self) -> float:
        w, h = self.rect[1]
        return float(max(w, h) / max(min(w, h), 1e-6))


def background(small: np.ndarray) -> np.ndarray:
    """(h, w, 3) float32 YCrCb: the background of ``small`` (a (h, w, 3) uint8 BGR frame) without dice.

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
    bg = cv2.cvtColor(cv2.medianBlur(bg, 5), cv2.COLOR_BGR2YCrCb).astype(np.float32)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _odd(k: int) -> int:
    return k if k % 2 else k - 1


def foreground_distance(ycc: np.ndarray, bg_ycc: np.ndarray) -> np.ndarray:
    """(h, w) float32: each pixel's colour distance from the background (both (h, w, 3) float32
    YCrCb) as ``vision.pips.colour_distance``, with darkening counted at ``SHADOW`` only."""
    darker = cv2.min(ycc[..., 0], bg_ycc[..., 0])
    # Luma lifted towards the background where darker: the shadow's darkening counts at SHADOW.
    lifted = ycc.copy()
    lifted[..., 0] = ycc[..., 0] + (1.0 - SHADOW) * (bg_ycc[..., 0] - darker)
    return colour_distance(lifted, bg_ycc)


def blob_tree(dist: np.ndarray, levels: tuple[float, ...], scale: float, min_area: float,
              max_area: float) -> list[Blob]:
    """The roots of the blob tree of ``dist`` (see the module docstring).

    dist: (h, w) float32 map; levels: ascending thresholds; scale: frame px per map px.
    Blobs outside [min_area, max_area] (frame px^2) are dropped; their children become roots.
    """
    opener = np.ones((3, 3), np.uint8)
    closer = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    roots: list[Blob] = []
    prev: list[Blob] = []
    prev_labels = None
    s2 = scale * scale
    for li, t in enumerate(levels):
        binary = cv2.morphologyEx(cv2.compare(dist, t, cv2.CMP_GT), cv2.MORPH_CLOSE, closer)
        binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, opener)
        if not cv2.countNonZero(binary):
            break
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        blobs: list[Blob] = []
        for c in contours:
            area = cv2.contourArea(c) * s2
            if area < min_area or area > max_area:
                continue
            blob = Blob(c, scale, area, li)
            blobs.append(blob)
            x, y = c[0, 0]
            k = int(prev_labels[y, x]) if prev_labels is not None else 0
            (prev[k - 1].children if k else roots).append(blob)
        # Which blob of this level covers each point, for the next level's blobs to find a parent
        # (a blob at a higher cut lies inside one at this cut).
        prev = blobs
        prev_labels = np.zeros(binary.shape, np.uint16)
        for k, blob in enumerate(blobs, start=1):
            cv2.drawContours(prev_labels, [blob.map_contour], -1, k, -1)
    return roots


def walk(blob: Blob):
    """The blob and all its descendants, depth first."""
    yield blob
    for child in blob.children:
        yield from walk(child)
