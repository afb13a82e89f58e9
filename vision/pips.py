"""Pips on one die: round spots that stand out from the face, in any colour or polarity.

The contrast map is each pixel's colour distance from the die's face colour, so dark pips on light
dice, light pips on dark dice and coloured pips all become bright disks. A difference of Gaussians
at the pip scale the die's size implies (about 7.5% of its side) turns every such disk into a peak
at its centre, also where pips nearly touch (a 6 with big pips) or hold a glare dot. Each peak's
outline is then the spot around it above half its contrast, which gives the pip's size and shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Pip:
    """A pip: centre (x, y) and radius r in px, contrast against the face colour (``contrast_map`` units).

    shape: (2, 2) float, the pip's second-moment matrix scaled to determinant 1: the identity for a
        round pip seen straight on, an ellipse's for a face seen at a slant.
    """

    x: float
    y: float
    r: float
    contrast: float
    shape: np.ndarray


def contrast_map(ycc: np.ndarray, face: np.ndarray) -> np.ndarray:
    """(H, W) float32: the colour distance of each pixel of ``ycc`` ((H, W, 3) float32 YCrCb, 8-bit
    scale) from the face colour ``face`` (3,). Chroma counts three times: a blue pip on a white die
    differs mostly in chroma, chroma is steadier under shading than luma, and YCrCb's chroma axes
    span less than its luma."""
    d = ycc - face.reshape(1, 1, 3).astype(np.float32)
    return np.sqrt(d[..., 0] ** 2 + CHROMA * (d[..., 1] ** 2 + d[..., 2] ** 2))


CHROMA = 3.0


def pip_response(contrast: np.ndarray, sigma: float) -> np.ndarray:
    """(H, W) float32: a difference of Gaussians (sigma, 2 sigma) of a contrast map: peaks at the
    centres of disks of radius ~1.4 sigma, also of disks that nearly touch."""
    return cv2.GaussianBlur(contrast, (0, 0), sigma) - cv2.GaussianBlur(contrast, (0, 0), sigma * 2.0)


SCALES = (0.7, 1.0, 1.4, 1.9)  # pip radii tried, as multiples of the expected one


def find_pips(
    contrast: np.ndarray,
    inside: np.ndarray,
    size: float,
    min_response: float = 6.0,
    relative: float = 0.25,
    relative_contrast: float = 0.4,
    radius: float = 0.075,
    limit: int = 12,
) -> list[Pip]:
    """Pips inside one die.

    contrast: the ``contrast_map`` of the die's box against its face colour; inside: (H, W)
    uint8, nonzero where a pip centre may lie (the face, away from the rim); size: the die's side
    in px, which sets the pip scale (``radius`` * size). Peaks weaker than ``min_response`` or than ``relative`` times the strongest peak on the die are not pips; at most ``limit``
    peaks, the strongest, are measured.
    Returns pips in box px, strongest first.
    """
    if contrast.size == 0 or not inside.any():
        return []
    # The response at a few pip sizes around the expected one (dice differ; a 1's pip is larger);
    # each pixel keeps its best, a difference of Gaussians being about scale-invariant.
    radii = [radius * size * f for f in SCALES]
    stack = np.stack([pip_response(contrast, max(0.7, r / 1.414)) for r in radii])
    best = stack.argmax(axis=0)
    resp = stack.max(axis=0)
    r_small = radii[0]
    k = max(3, int(round(r_small * 1.6)) | 1)
    local_max = resp >= cv2.dilate(resp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cand = local_max & (inside > 0)
    if not cand.any():
        return []
    floor = max(min_response, relative * float(resp[cand].max()))
    # A pip's centre is pip-coloured itself: a peak between pips (the largest scale sums several)
    # sits on face colour and is dropped.
    base = float(np.median(contrast[inside > 0]))
    strong = cand & (resp >= floor)
    top_c = float(contrast[strong].max()) if strong.any() else 0.0
    strong &= contrast >= base + relative_contrast * (top_c - base)
    ys, xs = np.nonzero(strong)
    order = np.argsort(-resp[ys, xs])
    # One peak per pip: a flat-topped response can hold several maxima, and a large pip shows
    # maxima at the smaller scales too.
    peaks: list[tuple[int, int, float]] = []
    for x, y in zip(xs[order].tolist(), ys[order].tolist()):
        rp = radii[int(best[y, x])]
        if all((x - px) ** 2 + (y - py) ** 2 > (1.3 * max(rp, pr)) ** 2 for px, py, pr in peaks):
            peaks.append((x, y, rp))
            if len(peaks) == limit:
                break
    if not peaks:
        return []
    r0 = max(pr for _, _, pr in peaks)
    h, w = contrast.shape
    win = int(np.ceil(r0 * 2.2)) + 1
    # A pip's outline is taken half-way between the face's own level of contrast (its texture, the
    # rim of shading) and the pip's peak, and shared with a neighbouring pip by nearness.
    out = []
    for x, y, _ in peaks:
        x0, x1, y0, y1 = max(0, x - win), min(w, x + win + 1), max(0, y - win), min(h, y + win + 1)
        patch = contrast[y0:y1, x0:x1]
        peak_c = float(patch[y - y0, x - x0])
        if peak_c <= base:
            continue
        spot = patch > (peak_c + base) / 2.0
        yy, xx = np.mgrid[y0:y1, x0:x1]
        mine = (xx - x) ** 2 + (yy - y) ** 2
        for px, py, _ in peaks:
            if (px, py) != (x, y) and abs(px - x) <= 2 * win and abs(py - y) <= 2 * win:
                spot &= mine <= (xx - px) ** 2 + (yy - py) ** 2
        _, labels = cv2.connectedComponents(spot.astype(np.uint8), connectivity=8)
        lab_id = labels[y - y0, x - x0]
        if lab_id == 0:
            continue
        sel = labels == lab_id
        xs_, ys_ = xx[sel], yy[sel]
        cx, cy = float(xs_.mean()), float(ys_.mean())
        a = float(((xs_ - cx) ** 2).mean()) + 1 / 12
        b = float(((ys_ - cy) ** 2).mean()) + 1 / 12
        c = float(((xs_ - cx) * (ys_ - cy)).mean())
        det = np.sqrt(max(a * b - c * c, 1e-9))
        out.append(Pip(cx, cy, float(np.sqrt(len(xs_) / np.pi)), peak_c, np.array([[a, c], [c, b]]) / det))
    out.sort(key=lambda q: -q.contrast)
    return out
