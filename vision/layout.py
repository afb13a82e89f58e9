"""Which face a set of pips shows: the geometry of the six pip layouts (pure numpy, no OpenCV).

A d6 face puts its pips on a 3x3 grid (grid units: corners at (+-1, +-1), the centre at (0, 0)):

    1: centre            2: one diagonal          3: one diagonal + centre
    4: four corners      5: four corners + centre 6: four corners + the middles of two opposite sides

Every layout is point-symmetric about the face centre, and stays so under any affine view (a tilted
camera, a stretched photo), so the checks below use only affine-invariant relations: midpoints,
collinearity and equal spacing along a line, pip sizes alike. A set that fits none of them is an
impossible layout: never a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np


@dataclass(frozen=True)
class Layout:
    """A face layout fitted to pips.

    value: 1-6. center: (x, y) px, the face centre the layout implies (the pips' centre of symmetry).
    axes: (2, 2) float, rows u and v: image offsets in px of one grid step along the face's two pip
        axes (corner pip = center +- u +- v). For 1 they are zero; for 2 and 3 only the diagonal
        u + v is known (axes hold it as u = v = diagonal / 2).
    residual: the worst misfit of a pip to the layout, in grid steps (0 = perfect).
    """

    value: int
    center: tuple[float, float]
    axes: np.ndarray
    residual: float

    @property
    def pitch(self) -> float:
        """The corner-to-centre distance in px (half the layout's diagonal), 0 for a 1."""
        return float(max(np.linalg.norm(self.axes[0] + self.axes[1]), np.linalg.norm(self.axes[0] - self.axes[1])))


def _sizes_alike(radii: np.ndarray, ratio: float) -> bool:
    return bool(radii.max() <= ratio * radii.min())


def _midpoint_misfit(a: np.ndarray, b: np.ndarray, m: np.ndarray) -> float:
    """How far m is from the midpoint of a and b, in units of half the distance a-b."""
    half = np.linalg.norm(b - a) / 2.0
    return float(np.linalg.norm((a + b) / 2.0 - m) / max(half, 1e-6))


def fit(points: np.ndarray, radii: np.ndarray, tol: float = 0.22, size_ratio: float = 2.2) -> Layout | None:
    """The layout of exactly these pips, or None when they form no d6 face.

    points: (n, 2) float px centres; radii: (n,) float px. tol: the largest misfit of a pip, as a share
    of the grid step. size_ratio: the largest ratio of pip radii on one face (1s excepted).
    n = 1 always fits (its centre is checked by the caller against the die); n = 0 or n > 6 never.
    """
    p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    r = np.asarray(radii, dtype=np.float64).reshape(-1)
    n = len(p)
    if n == 1:
        return Layout(1, (float(p[0, 0]), float(p[0, 1])), np.zeros((2, 2)), 0.0)
    if n < 1 or n > 6 or not _sizes_alike(r, size_ratio):
        return None
    if n == 2:
        c = p.mean(axis=0)
        d = (p[1] - p[0]) / 2.0
        return Layout(2, (float(c[0]), float(c[1])), np.array([d / 2, d / 2]), 0.0)
    if n == 3:
        best = None
        for mid in range(3):
            a, b = (p[i] for i in range(3) if i != mid)
            mis = _midpoint_misfit(a, b, p[mid])
            if best is None or mis < best[0]:
                best = (mis, a, b, p[mid])
        mis, a, b, m = best
        # The diagonal half is 1 step along u+v, i.e. sqrt(2) steps: the misfit is in diagonal halves.
        if mis > tol:
            return None
        d = (b - a) / 2.0
        return Layout(3, (float(m[0]), float(m[1])), np.array([d / 2, d / 2]), mis)
    if n in (4, 5):
        best = None
        for centre_idx in ([None] if n == 4 else range(5)):
            corners = p if centre_idx is None else np.delete(p, centre_idx, axis=0)
            lay = _fit_corners(corners, tol)
            if lay is None:
                continue
            axes, c, mis = lay
            if centre_idx is not None:
                step = min(np.linalg.norm(axes[0]), np.linalg.norm(axes[1]))
                mis = max(mis, float(np.linalg.norm(p[centre_idx] - c) / max(step, 1e-6)))
            if mis <= tol and (best is None or mis < best[2]):
                best = (axes, c, mis)
        if best is None:
            return None
        axes, c, mis = best
        return Layout(n, (float(c[0]), float(c[1])), axes, mis)
    return _fit_six(p, tol)


def _fit_corners(q: np.ndarray, tol: float):
    """Four pips as the corners of a parallelogram: (axes, centre, misfit) or None."""
    best = None
    # The three ways to pair four points into two diagonals.
    for (i, j), (k, l) in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))):
        m1, m2 = (q[i] + q[j]) / 2.0, (q[k] + q[l]) / 2.0
        d1, d2 = (q[j] - q[i]) / 2.0, (q[l] - q[k]) / 2.0  # centre -> corner, each a diagonal half
        u, v = (d1 + d2) / 2.0, (d1 - d2) / 2.0  # grid steps along the two face axes
        step = min(np.linalg.norm(u), np.linalg.norm(v))
        if step < 1e-6:
            continue
        mis = float(np.linalg.norm(m1 - m2) / step)
        if best is None or mis < best[2]:
            best = (np.array([u, v]), (m1 + m2) / 2.0, mis)
    if best is None or best[2] > tol:
        return None
    # A face seen at up to ~50 degrees of tilt (and a stretched photo): the two axes stay within a
    # factor of ~2.2 of each other and far from parallel.
    u, v = best[0]
    nu, nv = np.linalg.norm(u), np.linalg.norm(v)
    cross = abs(u[0] * v[1] - u[1] * v[0]) / (nu * nv)
    if max(nu, nv) > 2.2 * min(nu, nv) or cross < 0.45:
        return None
    return best


def _fit_six(p: np.ndarray, tol: float) -> Layout | None:
    """Six pips as two parallel rows of three (a 6 at any rotation)."""
    best = None
    for row in combinations(range(6), 3):
        other = tuple(i for i in range(6) if i not in row)
        if 0 not in row:  # each split once
            continue
        fits = []
        for idx in (row, other):
            pts = p[list(idx)]
            m = min(range(3), key=lambda k: _midpoint_misfit(*(pts[i] for i in range(3) if i != k), pts[k]))
            a, b = (pts[i] for i in range(3) if i != m)
            fits.append((a, b, pts[m]))
        (a1, b1, m1), (a2, b2, m2) = fits
        # Orient the second row like the first, then the two rows' corners form a parallelogram.
        if np.dot(b1 - a1, b2 - a2) < 0:
            a2, b2 = b2, a2
        corners = np.array([a1, b1, a2, b2])
        lay = _fit_corners(corners, tol)
        if lay is None:
            continue
        axes, c, mis = lay
        # u runs along the rows (a -> b is 2 steps), v across; each middle pip sits between its ends.
        u = ((b1 - a1) + (b2 - a2)) / 4.0
        v = ((a2 - a1) + (b2 - b1)) / 4.0
        step = min(np.linalg.norm(u), np.linalg.norm(v))
        for a, b, m in ((a1, b1, m1), (a2, b2, m2)):
            mis = max(mis, float(np.linalg.norm((a + b) / 2.0 - m) / max(step, 1e-6)))
        if mis <= tol and (best is None or mis < best.residual):
            best = Layout(6, (float(c[0]), float(c[1])), np.array([u, v]), mis)
    return best
