"""Which faces a set of pips can show: the geometry of the six pip layouts (pure Python and numpy).

A d6 face puts its pips on a 3x3 grid. In grid units, corners at (+-1, +-1), the centre at (0, 0):

    1: centre            2: one diagonal          3: one diagonal + centre
    4: four corners      5: four corners + centre 6: four corners + the middles of two opposite sides

Every layout is point-symmetric about the face centre, and stays so under any affine view (a tilted
camera, a stretched photo). ``candidates`` therefore finds layouts by affine-invariant relations
only: pairs of pips sharing a midpoint, a pip at that midpoint, a parallelogram of corners, middles
half-way along two opposite sides. Pips of one face look alike: similar size, and squashed the same
way by the view (their ``shape``). Whether a candidate is the top face of a die (nothing else on that
face, the face on the die) is checked against the image by ``vision.face``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# The occupied grid positions of each value, (a, b) = a steps along u, b steps along v.
PATTERNS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)),
    6: ((-1, -1), (-1, 1), (1, -1), (1, 1), (-1, 0), (1, 0)),
}
GRID = tuple((a, b) for a in (-1, 0, 1) for b in (-1, 0, 1))


@dataclass(frozen=True)
class Layout:
    """A face layout fitted to some of the pips.

    value: 1-6. members: indices of its pips in the lists given to ``candidates``.
    center: (x, y) px, the face centre (the pips' centre of symmetry).
    u, v: (x, y) px image offsets of one grid step along the face's two axes: the corner pips lie at
        center +- u +- v, the middles of a 6 at center +- u. For 2 and 3 only the diagonal u + v is
        seen, the other is inferred from the pips' shape (``other_diagonal``). Zero for a 1.
    residual: the worst misfit of a pip to the layout, in grid steps (0 = perfect).
    """

    value: int
    members: tuple[int, ...]
    center: tuple[float, float]
    u: tuple[float, float]
    v: tuple[float, float]
    residual: float

    @property
    def step(self) -> float:
        """The mean grid step in px; 0 for a 1."""
        return (math.hypot(*self.u) + math.hypot(*self.v)) / 2.0

    @property
    def area(self) -> float:
        """The face's area in px^2 (a face is ~3.7 grid steps across), 0 for a 1."""
        return abs(self.u[0] * self.v[1] - self.u[1] * self.v[0]) * 3.7 * 3.7

    def to_image(self, a: float, b: float) -> tuple[float, float]:
        """The image point (x, y) of grid position (a, b)."""
        return (self.center[0] + a * self.u[0] + b * self.v[0], self.center[1] + a * self.u[1] + b * self.v[1])

    def to_grid(self, x: float, y: float) -> tuple[float, float]:
        """The grid position (a, b) of an image point; (inf, inf) for a layout without axes."""
        det = self.u[0] * self.v[1] - self.u[1] * self.v[0]
        if abs(det) < 1e-9:
            return (math.inf, math.inf)
        dx, dy = x - self.center[0], y - self.center[1]
        return ((dx * self.v[1] - dy * self.v[0]) / det, (self.u[0] * dy - self.u[1] * dx) / det)


def other_diagonal(d: tuple[float, float], shape) -> tuple[float, float]:
    """The face's other diagonal, given one (centre -> corner, px) and the pips' shape.

    A round pip seen through the view's affine map A has a second-moment matrix proportional to
    A A^T (``shape``, determinant 1); the diagonal at right angles on the face is then
    A R90 A^-1 d = S^1/2 R90 S^-1/2 d with S = shape. Seen straight on, S = I: d turned 90 degrees.
    (For a 2x2 S of determinant 1, S^1/2 = (S + I) / sqrt(trace S + 2).)
    """
    a, c, b = float(shape[0][0]), float(shape[0][1]), float(shape[1][1])
    norm = math.sqrt(max(a + b + 2.0, 1e-9))
    h11, h12, h22 = (a + 1.0) / norm, c / norm, (b + 1.0) / norm
    det = h11 * h22 - h12 * h12
    if abs(det) < 1e-9:
        return (-d[1], d[0])
    # w = H^-1 d, turned by 90 degrees, then mapped by H.
    wx, wy = (h22 * d[0] - h12 * d[1]) / det, (h11 * d[1] - h12 * d[0]) / det
    wx, wy = -wy, wx
    return (h11 * wx + h12 * wy, h12 * wx + h22 * wy)


def face_shape(u, v) -> np.ndarray:
    """The second-moment shape (determinant 1) a square face with grid axes u, v has in the image."""
    m = np.array([u, v], float).T
    g = m @ m.T
    return g / math.sqrt(max(float(np.linalg.det(g)), 1e-12))


def shape_distance(a: np.ndarray, b: np.ndarray) -> float:
    """How differently two shapes (determinant 1) are squashed: 0 alike, ~0.3 for a 0.8 squash."""
    return float(np.linalg.norm(a - b))


def squash(shape) -> float:
    """The major/minor axis ratio of a shape (1 = seen straight on)."""
    a, c, b = float(shape[0][0]), float(shape[0][1]), float(shape[1][1])
    root = math.sqrt(((a - b) / 2.0) ** 2 + c * c)
    hi, lo = (a + b) / 2.0 + root, (a + b) / 2.0 - root
    return math.sqrt(max(hi, 1e-9) / max(lo, 1e-9))


def shape_allowance(shape_tol, radius):
    """How far apart two measured shapes may be for pips of ``radius`` px: ``shape_tol``, widened
    for small pips, whose few pixels make their measured shape noisy (as ~2.4 / radius)."""
    return np.maximum(shape_tol, 2.4 / np.maximum(radius, 1e-6))


def _axes_ok(u, v, max_ratio: float, min_sine: float) -> bool:
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu < 1e-6 or nv < 1e-6 or max(nu, nv) > max_ratio * min(nu, nv):
        return False
    return abs(u[0] * v[1] - u[1] * v[0]) / (nu * nv) >= min_sine


def candidates(
    points,
    radii,
    shapes=None,
    tol: float = 0.25,
    size_ratio: float = 1.9,
    shape_tol: float = 0.6,
    two_ratio: float | None = None,
    max_ratio: float = 2.2,
    min_sine: float = 0.5,
) -> list[Layout]:
    """Every layout (1-6) that some subset of the pips forms.

    points: n (x, y) px; radii: n px; shapes: (n, 2, 2) pip shapes (``vision.pips.Pip.shape``), the
    identity when None. tol: the largest misfit of a pip, in grid steps. size_ratio: the largest
    ratio of two pips' radii on one face (1s stand alone). shape_tol: how differently squashed
    (``shape_distance``) two pips of one face, or a face and its pips, may look: the pips of a side
    face are squashed another way than those of the top. two_ratio: a tighter size ratio for the
    two pips of a 2, which has nothing but their likeness for it (None: size_ratio). max_ratio,
    min_sine: how unequal and how far from square the two axes may be (a face seen at up to ~55
    degrees, a stretched photo).
    Returns the layouts, 1s included (every pip is a candidate 1).
    """
    p = [(float(x), float(y)) for x, y in points]
    r = [float(v) for v in radii]
    n = len(p)
    s = np.tile(np.eye(2), (n, 1, 1)) if shapes is None else np.asarray(shapes, float).reshape(n, 2, 2)
    out = [Layout(1, (i,), p[i], (0.0, 0.0), (0.0, 0.0), 0.0) for i in range(n)]
    if n < 2:
        return out
    # Which pips could share a face: alike in size and squash (computed once, looked up below).
    rr = np.array(r)
    sd = np.linalg.norm((s[:, None] - s[None, :]).reshape(n, n, 4), axis=2)
    rmin = np.minimum(rr[:, None], rr[None, :])
    ok = (np.maximum(rr[:, None], rr[None, :]) <= size_ratio * rmin) & (sd <= shape_allowance(shape_tol, rmin))
    okl = ok.tolist()
    alike_to = [[c for c in range(n) if c != i and okl[i][c]] for i in range(n)]

    def alike(idx) -> bool:
        return all(okl[i][j] for k, i in enumerate(idx) for j in idx[k + 1:])

    pairs = []  # (i, j, mid x, mid y, half x, half y, half length)
    for i in range(n):
        for j in range(i + 1, n):
            if okl[i][j]:
                hx, hy = (p[j][0] - p[i][0]) / 2.0, (p[j][1] - p[i][1]) / 2.0
                hl = math.hypot(hx, hy)
                if hl > 1e-6:
                    pairs.append((i, j, (p[i][0] + p[j][0]) / 2.0, (p[i][1] + p[j][1]) / 2.0, hx, hy, hl))

    # 2 and 3: one diagonal, with or without the centre.
    two = size_ratio if two_ratio is None else two_ratio
    if pairs:
        both = [(q[0], q[1]) for q in pairs]
        pair_shapes = ((s[[i for i, _ in both]] + s[[j for _, j in both]]) / 2.0).tolist()
    for k, (i, j, mx, my, hx, hy, hl) in enumerate(pairs):
        ox, oy = other_diagonal((hx, hy), pair_shapes[k])
        u, v = ((hx + ox) / 2.0, (hy + oy) / 2.0), ((hx - ox) / 2.0, (hy - oy) / 2.0)
        if max(r[i], r[j]) <= two * min(r[i], r[j]):
            out.append(Layout(2, (i, j), (mx, my), u, v, 0.0))
        step = (math.hypot(*u) + math.hypot(*v)) / 2.0
        for c in alike_to[i]:
            if c != j and okl[j][c]:
                mis = math.hypot(p[c][0] - mx, p[c][1] - my) / step
                if mis <= tol:
                    out.append(Layout(3, (i, c, j), (mx, my), u, v, mis))

    # 4 and 5: two diagonals sharing a midpoint; 6: and a third pair along one axis.
    quads = []
    if len(pairs) < 2:
        return out
    # Pairs of pairs whose midpoints nearly meet, found at once.
    pa = np.array([(q[2], q[3], q[6]) for q in pairs])
    dmid = np.hypot(pa[:, None, 0] - pa[None, :, 0], pa[:, None, 1] - pa[None, :, 1])
    near = np.triu(dmid <= tol * 0.75 * np.minimum(pa[:, None, 2], pa[None, :, 2]), 1)
    for a, b in zip(*np.nonzero(near)):
        i, j, mx1, my1, hx1, hy1, _ = pairs[a]
        k, l, mx2, my2, hx2, hy2, _ = pairs[b]
        dm = float(dmid[a, b])
        if len({i, j, k, l}) < 4 or not alike((i, j, k, l)):
            continue
        u, v = ((hx1 + hx2) / 2.0, (hy1 + hy2) / 2.0), ((hx1 - hx2) / 2.0, (hy1 - hy2) / 2.0)
        if not _axes_ok(u, v, max_ratio, min_sine):
            continue
        step = min(math.hypot(*u), math.hypot(*v))
        mis = dm / step
        members = (i, k, j, l)
        if mis > tol or shape_distance(face_shape(u, v), s[list(members)].mean(axis=0)) > shape_allowance(
                shape_tol, min(r[q] for q in members)):
            continue
        c = ((mx1 + mx2) / 2.0, (my1 + my2) / 2.0)
        quads.append((members, c, u, v, mis, step))
        out.append(Layout(4, members, c, u, v, mis))
        for m in range(n):
            if m not in members and all(okl[m][q] for q in members):
                mm = max(mis, math.hypot(p[m][0] - c[0], p[m][1] - c[1]) / step)
                if mm <= tol:
                    out.append(Layout(5, members + (m,), c, u, v, mm))
    for members, c, u, v, mis, step in quads:
        for g, h, mx, my, hx, hy, hl in pairs:
            if g in members or h in members or not all(okl[g][q] and okl[h][q] for q in members):
                continue
            mis_c = math.hypot(mx - c[0], my - c[1]) / step
            # The middle pair's half-vector is one axis (either sign); make that axis u.
            du = min(math.hypot(hx - u[0], hy - u[1]), math.hypot(hx + u[0], hy + u[1])) / step
            dv = min(math.hypot(hx - v[0], hy - v[1]), math.hypot(hx + v[0], hy + v[1])) / step
            m6 = max(mis, mis_c, min(du, dv))
            if m6 <= tol:
                uu, vv = (u, v) if du <= dv else (v, u)
                out.append(Layout(6, members + (g, h), c, uu, vv, m6))
    return out
