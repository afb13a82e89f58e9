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
    beside: found beside the area searched (``find_pips(beside=...)``), not in it.
    """

    x: float
    y: float
    r: float
    contrast: float
    shape: np.ndarray
    beside: bool = False


CHROMA = 3.0
_WEIGHTS = np.array([[1.0, CHROMA, CHROMA]], np.float32)


def colour_distance(ycc: np.ndarray, ref) -> np.ndarray:
    """(H, W) float32: the distance of each pixel of ``ycc`` ((H, W, 3) float32 YCrCb, 8-bit scale)
    from ``ref``, a colour (3,) or an image like ``ycc``: sqrt(dY^2 + CHROMA (dCr^2 + dCb^2)).
    Chroma counts three times: a blue pip on a white die differs mostly in chroma, chroma is steadier
    under shading than luma, and YCrCb's chroma axes span less than its luma."""
    if isinstance(ref, np.ndarray) and ref.ndim == 3:
        d = cv2.subtract(ycc, ref)
    else:
        c = [float(v) for v in np.ravel(ref)]
        d = cv2.subtract(ycc, (c[0], c[1], c[2], 0.0))
    return cv2.sqrt(cv2.transform(cv2.multiply(d, d), _WEIGHTS))


def median(values: np.ndarray) -> float:
    """The median of a 1-D array (n >= 1), as ``np.median`` gives it (the two middle values'
    mean, in their dtype, for an even n), by one partition: ``np.median`` also checks for NaN and
    takes a mean, ~40 us a call on a die's few thousand pixels."""
    n = len(values)
    k = n // 2
    if n % 2:
        return float(np.partition(values, k)[k])
    part = np.partition(values, (k - 1, k))
    return float((part[k - 1] + part[k]) / 2)


def contrast_map(ycc: np.ndarray, face: np.ndarray) -> np.ndarray:
    """(H, W) float32: each pixel's ``colour_distance`` from the face colour ``face`` (3,)."""
    return colour_distance(ycc, face)


def _smooth(img: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of ``sigma`` px, as two box blurs of the same variance (cost independent of
    sigma; a triangle kernel finds blobs as well)."""
    k = max(1, int(round(np.sqrt(6.0 * sigma * sigma + 1.0))))
    return cv2.blur(cv2.blur(img, (k, k)), (k, k))


def pip_response(contrast: np.ndarray, sigma: float) -> np.ndarray:
    """(H, W) float32: a difference of Gaussians (sigma, 2 sigma) of a contrast map: peaks at the
    centres of disks of radius ~1.4 sigma, also of disks that nearly touch."""
    return _smooth(contrast, sigma) - _smooth(contrast, sigma * 2.0)


SCALES = (0.8, 1.5)  # pip radii tried, as multiples of the expected one


def find_pips(
    contrast: np.ndarray,
    inside: np.ndarray,
    size: float,
    min_response: float = 6.0,
    relative: float = 0.25,
    relative_contrast: float = 0.4,
    radius: float = 0.075,
    limit: int = 12,
    beside: np.ndarray | None = None,
) -> list[Pip]:
    """Pips inside one die.

    contrast: the ``contrast_map`` of the die's box against its face colour; inside: (H, W)
    uint8, nonzero where a pip centre may lie (the face, away from the rim); size: the die's side
    in px, which sets the pip scale (``radius`` * size). Peaks weaker than ``min_response``, or than
    ``relative`` times the die's strongest, or whose own contrast is below ``relative_contrast`` of
    the way from the face's level to the strongest peak's, are not pips; at most ``limit`` peaks,
    the strongest, are measured.
    Returns pips in box px, strongest first.
    """
    if contrast.size == 0 or not inside.any():
        return []
    # Work in the box around where pips may lie, with room for the filter's reach.
    bx, by, bw, bh = cv2.boundingRect(inside if beside is None else inside | beside)
    m = int(np.ceil(radius * size * max(SCALES) * 3))
    y0, x0 = max(0, by - m), max(0, bx - m)
    y1, x1 = by + bh + m, bx + bw + m
    if (y0, x0) != (0, 0) or y1 < contrast.shape[0] or x1 < contrast.shape[1]:
        return [Pip(q.x + x0, q.y + y0, q.r, q.contrast, q.shape, q.beside) for q in find_pips(
            np.ascontiguousarray(contrast[y0:y1, x0:x1]), np.ascontiguousarray(inside[y0:y1, x0:x1]), size,
            min_response, relative, relative_contrast, radius, limit,
            None if beside is None else np.ascontiguousarray(beside[y0:y1, x0:x1]))]
    # The response at a few pip sizes around the expected one (dice differ; a 1's pip is larger);
    # each pixel keeps its best, a difference of Gaussians being about scale-invariant.
    radii = [radius * size * f for f in SCALES]
    resp = pip_response(contrast, max(0.7, radii[0] / 1.414))
    best = np.zeros(resp.shape, np.uint8)
    for i, r in enumerate(radii[1:], start=1):
        other = pip_response(contrast, max(0.7, r / 1.414))
        better = other > resp
        best[better] = i
        resp = np.maximum(resp, other)
    r_small = radii[0]
    k = max(3, int(round(r_small * 1.6)) | 1)
    local_max = resp >= cv2.dilate(resp, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cand = local_max & (inside > 0)
    if not cand.any():
        return []
    floor = max(min_response, relative * float(resp[cand].max()))
    # A pip's centre is pip-coloured itself: a peak between pips (the largest scale sums several)
    # sits on face colour and is dropped.
    base = median(contrast[inside > 0])
    strong = cand & (resp >= floor)
    top_c = float(contrast[strong].max()) if strong.any() else 0.0
    level = base + relative_contrast * (top_c - base)
    strong &= contrast >= level
    if beside is not None:
        # Spots beside the area, judged by its own levels.
        strong |= local_max & (beside > 0) & (inside == 0) & (resp >= floor) & (contrast >= level)
    ys, xs = np.nonzero(strong)
    order = np.argsort(-resp[ys, xs])
    # One peak per pip: a flat-topped response can hold several maxima, and a large pip shows
    # maxima at the smaller scales too.
    peaks: list[tuple[int, int, float]] = []
    n_in = n_out = 0
    for x, y in zip(xs[order].tolist(), ys[order].tolist()):
        rp = radii[int(best[y, x])]
        if all((x - px) ** 2 + (y - py) ** 2 > (1.3 * max(rp, pr)) ** 2 for px, py, pr in peaks):
            if inside[y, x]:
                if n_in == limit:
                    continue
                n_in += 1
            elif n_out == limit:
                continue
            else:
                n_out += 1
            peaks.append((x, y, rp))
            if n_in == limit and (beside is None or n_out == limit):
                break
    if not peaks:
        return []
    # Each peak's outline: the pixels above half-way between the face's own level of contrast (its
    # texture, the rim's shading) and the peak, nearer to this peak than to any other, within two
    # of its radii. Measured for all peaks at once.
    px = np.array([q[0] for q in peaks], np.float32)
    py = np.array([q[1] for q in peaks], np.float32)
    pr = np.array([q[2] for q in peaks], np.float32)
    peak_c = contrast[py.astype(int), px.astype(int)]
    thr = (peak_c + base) / 2.0
    reach = 2.0 * float(pr.max())
    bx0, by0 = max(0, int(px.min() - reach)), max(0, int(py.min() - reach))
    bx1, by1 = int(px.max() + reach) + 1, int(py.max() + reach) + 1
    ys, xs = np.nonzero(contrast[by0:by1, bx0:bx1] > thr.min())
    ys += by0
    xs += bx0
    # Squared distances of whole px: exact in float32, at half float64's cost.
    d2 = (xs.astype(np.float32)[:, None] - px[None, :]) ** 2 + (ys.astype(np.float32)[:, None] - py[None, :]) ** 2
    k = d2.argmin(axis=1)
    keep = (contrast[ys, xs] > thr[k]) & (d2[np.arange(len(k)), k] <= (2.0 * pr[k]) ** 2)
    xs, ys, k = xs[keep].astype(np.float64), ys[keep].astype(np.float64), k[keep]
    n = len(peaks)
    cnt = np.bincount(k, minlength=n).astype(np.float64)
    sx, sy = np.bincount(k, xs, n), np.bincount(k, ys, n)
    sxx, syy, sxy = np.bincount(k, xs * xs, n), np.bincount(k, ys * ys, n), np.bincount(k, xs * ys, n)
    # Each outline's centre, size and second moments, for all peaks at once (a peak whose outline
    # is empty, or no brighter than the face, is dropped below).
    with np.errstate(divide="ignore", invalid="ignore"):
        cx, cy = sx / cnt, sy / cnt
        a = sxx / cnt - cx * cx + 1 / 12
        b = syy / cnt - cy * cy + 1 / 12
        c = sxy / cnt - cx * cy
        det = np.sqrt(np.maximum(a * b - c * c, 1e-9))
        shapes = np.stack([a, c, c, b], axis=1).reshape(n, 2, 2) / det[:, None, None]
        radius = np.sqrt(cnt / np.pi)
    off = np.zeros(n, bool) if beside is None else inside[py.astype(int), px.astype(int)] == 0
    out = [Pip(float(cx[i]), float(cy[i]), float(radius[i]), float(peak_c[i]), shapes[i], bool(off[i]))
           for i in range(n) if cnt[i] >= 1 and peak_c[i] > base]
    out.sort(key=lambda q: -q.contrast)
    return out
