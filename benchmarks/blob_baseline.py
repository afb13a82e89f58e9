"""The baseline for ``reader_speed.py``: the widely copied public OpenCV dice reader, written here.

The recipe (blob detector + clustering, as in the golsteyn.com post and its many copies): grey frame,
a light blur, ``cv2.SimpleBlobDetector`` for round dark or light spots (pips), then pips closer than
a fixed distance are joined into one die (single linkage, what DBSCAN with ``min_samples=1`` does)
and each die's value is its number of pips. It never says "unsure": 7+ pips in a cluster are capped
at 6. Only for measuring speed against: it is not part of the product.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.frames import to_bgr
from vision.reading import DiceReading, Die, no_dice, wrong_count


def _detector(dark: bool) -> cv2.SimpleBlobDetector:
    p = cv2.SimpleBlobDetector_Params()
    p.filterByColor = True
    p.blobColor = 0 if dark else 255
    p.filterByArea = True
    p.minArea = 12
    p.maxArea = 1200
    p.filterByCircularity = False
    p.filterByInertia = True
    p.minInertiaRatio = 0.6
    p.filterByConvexity = False
    return cv2.SimpleBlobDetector_create(p)


_DARK, _LIGHT = _detector(True), _detector(False)


def read_blobs(frame, expected: int | None = None, reference=None, eps: float = 40.0) -> DiceReading:
    """Dice as clusters of blob-detector spots; (frame as ``vision.frames.to_bgr`` takes it)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(to_bgr(frame), cv2.COLOR_BGR2GRAY), (5, 5), 0)
    keypoints = list(_DARK.detect(grey)) + list(_LIGHT.detect(grey))
    if not keypoints:
        return no_dice()
    pts = np.array([k.pt for k in keypoints], dtype=np.float32)
    # Single-linkage clusters: join every pair closer than eps (union-find).
    parent = list(range(len(pts)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d2 = ((pts[:, None, :] - pts[None, :, :]) ** 2).sum(axis=2)
    for i, j in zip(*np.nonzero(np.triu(d2 < eps * eps, 1))):
        parent[find(int(i))] = find(int(j))
    clusters: dict[int, list[int]] = {}
    for i in range(len(pts)):
        clusters.setdefault(find(i), []).append(i)
    dice = []
    for members in clusters.values():
        c = pts[members]
        x0, y0 = c.min(axis=0) - 5
        x1, y1 = c.max(axis=0) + 5
        dice.append(Die(min(6, len(members)), (float(c[:, 0].mean()), float(c[:, 1].mean())),
                        (int(x0), int(y0), int(x1 - x0), int(y1 - y0))))
    dice.sort(key=lambda d: (d.center[1], d.center[0]))
    if expected is not None and len(dice) != expected:
        return wrong_count(expected, tuple(dice))
    return DiceReading("ok", tuple(dice))
