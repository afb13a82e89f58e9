"""Pips on one die: round spots that stand out from the face colour, in any colour or polarity.

The contrast map is the Lab distance of each pixel from the die's face colour (the median of the
die's pixels: pips cover at most a quarter of a face), so dark pips on light dice, light pips on dark
dice and coloured pips alike become bright spots. Spots are taken at several thresholds and kept when
they are round, pip-sized for this die and seen at two thresholds or more (the multi-threshold idea of
OpenCV's SimpleBlobDetector): marbling and specks rarely are.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Pip:
    """A pip candidate: centre (x, y) and radius r in px (frame coordinates), contrast in Lab units."""

    x: float
    y: float
    r: float
    contrast: float


def contrast_map(lab: np.ndarray, face: np.ndarray) -> np.ndarray:
    """(H, W) float32: the Lab distance of each pixel of ``lab`` ((H, W, 3) float32 Lab, L 0-100
    scaled as OpenCV's 8-bit Lab) from the face colour ``face`` (3,). Chroma counts double: a blue
    pip on a white die differs mostly in chroma, and chroma is steadier under shading than L."""
    d = lab - face.reshape(1, 1, 3)
    return np.sqrt(d[..., 0] ** 2 + 2.0 * (d[..., 1] ** 2 + d[..., 2] ** 2))


def find_pips(
    contrast: np.ndarray,
    inside: np.ndarray,
    size: float,
    offset: tuple[int, int] = (0, 0),
    min_contrast: float = 25.0,
    levels: tuple[float, ...] = (0.3, 0.42, 0.56, 0.72),
    min_radius: float = 0.045,
    max_radius: float = 0.2,
    min_round: float = 0.45,
) -> list[Pip]:
    """Pips inside one die.

    contrast: (H, W) float32 contrast map of the die's box (see ``contrast_map``).
    inside: (H, W) uint8, nonzero where a pip centre may lie (the die's face, away from its rim).
    size: the die's side in px; pip radii must lie in [min_radius, max_radius] * size.
    offset: (x, y) of the box in the frame, added to the returned centres.
    levels: thresholds as shares of the strongest contrast on the die (its 99th percentile).
    Returns pips sorted by contrast, strongest first; [] when nothing stands out by min_contrast.
    """
    if contrast.size == 0 or not inside.any():
        return []
    top = float(np.percentile(contrast[inside > 0], 99))
    if top < min_contrast:
        return []
    rmin, rmax = max(1.0, min_radius * size), max_radius * size
    found: list[list[tuple[float, float, float, float]]] = []  # per level: (x, y, r, roundness)
    for share in levels:
        t = max(min_contrast * 0.6, share * top)
        binary = (contrast > t).astype(np.uint8)
        contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        level = []
        for c in contours:
            m = cv2.moments(c)
            area = m["m00"]
            if area < np.pi * rmin * rmin * 0.6 or area > np.pi * rmax * rmax:
                continue
            cx, cy = m["m10"] / area, m["m01"] / area
            if not inside[min(int(cy), inside.shape[0] - 1), min(int(cx), inside.shape[1] - 1)]:
                continue
            # Roundness: the ratio of the principal axes (1 = circle), from the central moments.
            a, b, cc = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
            root = np.sqrt(max(((a - b) / 2) ** 2 + cc * cc, 0.0))
            l1, l2 = (a + b) / 2 + root, (a + b) / 2 - root
            roundness = float(np.sqrt(max(l2, 0.0) / l1)) if l1 > 0 else 0.0
            perimeter = cv2.arcLength(c, True)
            circular = 4 * np.pi * area / (perimeter * perimeter) if perimeter > 0 else 0.0
            if roundness < min_round or circular < 0.4:
                continue
            level.append((cx, cy, float(np.sqrt(area / np.pi)), roundness))
        found.append(level)
    # Keep spots seen at two or more consecutive levels; report each at its highest level seen
    # (the tightest outline: least merged with a neighbour or the rim).
    pips: list[Pip] = []
    taken: list[tuple[float, float, float]] = []
    for li in range(len(found) - 1, 0, -1):
        for x, y, r, _ in found[li]:
            if any((x - tx) ** 2 + (y - ty) ** 2 < (max(r, tr)) ** 2 for tx, ty, tr in taken):
                continue
            prev = [q for q in found[li - 1] if (q[0] - x) ** 2 + (q[1] - y) ** 2 < max(r, q[2]) ** 2]
            if not prev:
                continue
            r_use = prev[0][2] if li == len(found) - 1 else r
            taken.append((x, y, r_use))
            iy, ix = min(int(round(y)), contrast.shape[0] - 1), min(int(round(x)), contrast.shape[1] - 1)
            pips.append(Pip(x + offset[0], y + offset[1], r_use, float(contrast[iy, ix])))
    pips.sort(key=lambda p: -p.contrast)
    return pips
