"""Where the dice are: foreground against a background model, cut into die-sized regions.

Background: with an empty-tray reference frame (taken at calibration) the background is that frame;
without one it is estimated from the frame itself by a large median filter on a small copy (dice are
small against the tray, so the median is the tray), refined once with the first foreground masked out.
Foreground: the Lab distance of each pixel from the background, with darkening weighted down (shadows
are darker, not differently coloured) and chroma weighted up.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Region:
    """A foreground blob that may be a die.

    box: (x, y, w, h) px in frame coordinates. mask: (h, w) uint8, 255 on the blob, over ``box``.
    area: blob pixels (px^2, holes filled). side: the side of the blob's minimum-area square, px.
    """

    box: tuple[int, int, int, int]
    mask: np.ndarray
    area: float
    side: float
    center: tuple[float, float]


def background_lab(bgr: np.ndarray, reference: np.ndarray | None, max_die: float) -> np.ndarray:
    """(H, W, 3) float32 Lab of the background (see the module docstring)."""
    h, w = bgr.shape[:2]
    if reference is not None:
        blurred = cv2.GaussianBlur(reference, (5, 5), 0)
        return cv2.cvtColor(blurred, cv2.COLOR_BGR2LAB).astype(np.float32)
    # A small copy where the largest die spans ~4 px, median-filtered over ~3 dice.
    f = max(1, int(max_die // 6))
    sw, sh = max(8, w // f), max(8, h // f)
    small = cv2.resize(bgr, (sw, sh), interpolation=cv2.INTER_AREA)
    k = _odd(min(sw, sh, 15))
    bg = cv2.medianBlur(small, k) if k >= 3 else small
    # Refine: replace strong foreground by the first estimate and filter again, so large dice and
    # clusters do not leak into the background.
    lab_s = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab_b = cv2.cvtColor(bg, cv2.COLOR_BGR2LAB).astype(np.float32)
    fg = np.linalg.norm(lab_s - lab_b, axis=2) > 20
    if fg.any() and k >= 3:
        mixed = small.copy()
        mixed[fg] = bg[fg]
        bg = cv2.medianBlur(cv2.medianBlur(mixed, k), k)
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.cvtColor(bg, cv2.COLOR_BGR2LAB).astype(np.float32)


def _odd(k: int) -> int:
    return k if k % 2 else k - 1


def foreground_distance(lab: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """(H, W) float32: how far each pixel is from the background (Lab units, darkening at 0.35)."""
    d = lab - bg
    dl = d[..., 0]
    dl = np.where(dl < 0, 0.35 * dl, dl)
    return np.sqrt(dl * dl + 2.0 * (d[..., 1] ** 2 + d[..., 2] ** 2))


def find_regions(dist: np.ndarray, min_side: float, max_side: float, threshold: float) -> tuple[list[Region], np.ndarray]:
    """Foreground blobs of ``dist`` above ``threshold``, cleaned, holes filled.

    Returns (regions whose side lies in [min_side, max_side] px, the cleaned foreground mask).
    """
    mask = (dist > threshold).astype(np.uint8) * 255
    k = max(3, _odd(int(min_side * 0.25)) if int(min_side * 0.25) % 2 else int(min_side * 0.25) + 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    regions = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_side * min_side * 0.5:
            continue
        cv2.drawContours(filled, [c], -1, 255, -1)
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(c)
        side = float(np.sqrt(area))
        if side > max_side * 3:
            continue
        x, y, w, h = cv2.boundingRect(c)
        sub = np.zeros((h, w), np.uint8)
        cv2.drawContours(sub, [c - np.array([[x, y]])], -1, 255, -1)
        m = cv2.moments(c)
        center = (m["m10"] / m["m00"], m["m01"] / m["m00"]) if m["m00"] > 0 else (cx, cy)
        regions.append(Region((x, y, w, h), sub, float(area), side, center))
    return regions, filled
