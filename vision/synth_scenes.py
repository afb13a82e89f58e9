"""Widely randomised synthetic dice scenes: training data for a learned die finder and face reader.

``render_scene(seed)`` draws one seeded scene and returns it with exact ground truth: a ``SceneDie`` per
die (the face up, the projected top face, the box of the whole visible die, whether it lies flat or is
cocked, and how much of it shows). Where ``vision.synth`` draws the appliance's own tray as its fixed
camera sees it, this module draws cameras, trays, tables, dice and light the appliance has never seen,
because a learned reader is judged on those. Variety matters more than beauty, but every variation is
one a real photo can have:

- Camera: a pinhole (the ``vision.synth`` camera) from straight down to 45 degrees tilt, any roll,
  28-95 degrees horizontal field of view (so side faces show near the edges of wide lenses).
- Surfaces: felt, wood (grain, planks, knots), cloth (weave, folds, checks), carpet and stone speckle,
  plain tables, blurred colour gradients, paper and boards printed with clutter (hexes like a board
  game, polygons, text-like strokes). Dice trays (rectangular, hexagonal, octagonal, round) with
  slanted walls, a rim and their shadow, and deep round cups the dice lie close together in; a table edge; things that are not dice: coins and chips,
  cables, a phone or laptop corner, paper sheets, flat tiles, specks, plain cubes without pips, a dice
  cup partly in view, a hand.
- Dice: edge 15-300 px on screen (log-uniform, one physical size per scene, with perspective), any
  body and pip colours, translucent and marbled bodies, inset rings, Asian dice (large red 1, red 4,
  left-handed), large or ringed 1 pips, rounded or sharp corners, concave pips. All six faces carry
  pips (opposite faces sum to 7, right-handed like Western dice unless Asian). Dice touch, a share are
  cocked (leaning 15-42 degrees on another die or on the tray wall), some are hidden in part by another
  die, the cup, a hand, a tray wall or the frame border.
- Light: one or two lights (direction, colour temperature, hard or soft shadows), ambient share,
  white balance and exposure errors, specular glare on die faces and glossy tables, vignetting, gamma.
- Sensor and codec: defocus and motion blur, downscale-then-upscale softness, Gaussian noise,
  salt-and-pepper specks, an analogue video camera's smeared colour and interlaced lines, JPEG at
  quality 25-95, greyscale output (about 15% of scenes).

How it is drawn (all seeded): the floor (z = 0) is one procedural texture in world coordinates, warped
once into the frame by the floor's homography, then lit by a small light map holding the soft shadows
(cast along each light), contact shadows, glare and vignetting. Tray walls are shaded polygons. Each
die's six face textures are drawn once per die look into small squares (mip-mapped by halves) and each
visible face is warped with ``cv2.warpPerspective`` into that face's bounding box only. Solids (dice,
plain cubes, the cup) are drawn far to near; a die's ``visible`` share is counted on a small mask of
its silhouette with everything drawn after it, and the frame border, cut away.

World units are px at the image centre (for a camera looking straight down the floor maps 1:1 at the
centre); the world is right-handed with z up. Speed: about 30 ms for a 640x480 scene on one core
(``benchmarks/synth_scenes.py``), 20 ms at 320x240, 90 ms at 1280x960.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth import _CUBE_CORNERS, _FACE_NORMALS, PIP_LAYOUT, TableLook, _Camera, _face_axes, _rot, _rounded_square

BGR = np.ndarray  # (3,) float32, 0-255

# Common camera frame sizes (W, H): 4:3, 16:9 and 1:1.
SIZES: tuple[tuple[int, int], ...] = (
    (320, 240), (640, 480), (800, 600), (1024, 768), (1280, 960),
    (640, 360), (854, 480), (960, 540), (1280, 720),
    (480, 480), (640, 640), (960, 960),
)
# How many dice a scene has by default, 0-12: small counts (a throw of 1-5 dice) are the most common;
# 0 is an empty scene, a negative for the finder.
_COUNT_WEIGHTS = np.array([5, 13, 14, 13, 12, 11, 7, 5, 5, 4, 4, 3, 3], float)
_COUNT_WEIGHTS /= _COUNT_WEIGHTS.sum()
_MAX_DICE = 40


@dataclass(frozen=True)
class SceneDie:
    """One die in a rendered scene, with exact truth from the scene's geometry.

    value: the face turned up, 1-6 (for a cocked die: the face most nearly up).
    center: projected centre of that top face, px (x right, y down); may lie outside the frame for a die
        cut by the frame border.
    top: (K, 2) float32 projected outline of that top face (its rounded corners included), px.
    box: x, y, w, h px, ints: the axis-aligned box of the whole visible die (all its faces turned to the
        camera). Not clipped to the frame: a die cut by the border has a box reaching past it.
    flat: True when the die lies flat on a face (the top face is readable); False when it is cocked
        (leaning on another die or the tray wall, tilted 15-42 degrees).
    visible: 0-1, the share of the die's projected area that shows (not hidden by another die, a plain
        cube, a hand, the cup, a tray wall or cut off by the frame border).
    pips: (value, 2) float32 projected centres of the top face's pips, px (whether they show or not).

    ``top`` and ``pips`` are read-only arrays, so compare two SceneDie field by field, not with ``==``.
    """

    value: int
    center: tuple[float, float]
    top: np.ndarray
    box: tuple[int, int, int, int]
    flat: bool
    visible: float
    pips: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), np.float32))


def render_scene(seed: int, *, size: tuple[int, int] | None = None,
                 dice: int | None = None) -> tuple[np.ndarray, tuple[SceneDie, ...]]:
    """One randomised scene: (H, W, 3) uint8 BGR image and every die in it (also dice mostly hidden, with their `visible`).

    seed: everything random; the same seed (and arguments) draws the same image and truth.
    size: (W, H) px, each 32-4096; default one of ``SIZES`` at random.
    dice: how many dice, 0-40; default 0-12 at random, weighted towards 1-5 (0: an empty scene).
    Distractors (plain cubes, coins, the cup) are not in the truth. Raises ValueError for a bad size or
    count.
    """
    scene = _Scene(seed, size, dice)
    return _paint(scene), scene.truth()


# --------------------------------------------------------------------------------------------------
# Small helpers: colours, noise, polygons


def _hsv(h: float, s: float, v: float) -> BGR:
    """BGR 0-255 of hue h (degrees), saturation and value 0-1."""
    px = np.array([[[int(h % 360) // 2, int(s * 255), int(v * 255)]]], np.uint8)
    return cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _luma(c) -> float:
    return float(0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2])


def _jitter(rng: np.random.Generator, c, amount: float) -> BGR:
    return np.clip(np.asarray(c, np.float32) + rng.normal(0, amount, 3), 0, 255).astype(np.float32)


# Black-body light colours (K -> RGB, then stored as BGR), as camera makers' tables give them.
_KELVIN = np.array([2500, 3000, 4000, 5000, 6000, 6500, 7500, 9000], float)
_KELVIN_RGB = np.array([(255, 159, 70), (255, 180, 107), (255, 209, 163), (255, 228, 206),
                        (255, 243, 239), (255, 249, 253), (235, 238, 255), (214, 225, 255)], float)


def _kelvin(k: float) -> BGR:
    """Colour (BGR multipliers, luma 1) of light at colour temperature ``k`` kelvin."""
    rgb = [np.interp(k, _KELVIN, _KELVIN_RGB[:, i]) for i in range(3)]
    bgr = np.array(rgb[::-1], np.float32)
    return bgr / _luma(bgr)


_TILE = 1400


@functools.lru_cache(maxsize=1)
def _noise_tiles() -> tuple[np.ndarray, np.ndarray]:
    # One fixed tile of unit Gaussian noise (and its transpose), read through random windows: drawing
    # fresh noise for every texture would cost more than all the rest of a scene.
    t = np.random.default_rng(20240611).standard_normal((_TILE, _TILE), dtype=np.float32)
    return t, np.ascontiguousarray(t.T)


def _noise(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """(h, w) float32 unit Gaussian noise: a random window of the fixed tile or its transpose."""
    t = _noise_tiles()[int(rng.integers(2))]
    if h > _TILE or w > _TILE:
        return rng.standard_normal((h, w), dtype=np.float32)
    y = int(rng.integers(0, _TILE - h + 1))
    x = int(rng.integers(0, _TILE - w + 1))
    return t[y:y + h, x:x + w]


@functools.lru_cache(maxsize=1)
def _sensor_tile() -> np.ndarray:
    """(1024, 1344, 3) int8 sensor noise, 16 levels per sigma, for frames up to 1280x960."""
    n = np.random.default_rng(20240612).standard_normal((1024, 1344, 3), dtype=np.float32) * 16
    return np.clip(np.round(n), -127, 127).astype(np.int8)


def _smooth(rng: np.random.Generator, h: int, w: int, cells: tuple[int, int]) -> np.ndarray:
    """(h, w) float32 smooth noise, about unit size, with ``cells`` (rows, cols) bumps across."""
    small = rng.standard_normal((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _tint(shade: np.ndarray, colour) -> np.ndarray:
    """(h, w) float32 shade (about 1) times a BGR colour -> (h, w, 3) uint8."""
    return cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in colour])


def _fix(pts) -> np.ndarray:
    """Points (N, 2) px -> int32 with 4 fractional bits, for OpenCV's sub-pixel drawing (shift=4)."""
    return np.round(np.asarray(pts, np.float64).reshape(-1, 2) * 16).astype(np.int32)


def _fill(img: np.ndarray, pts, colour, convex: bool = True) -> None:
    colour = [float(c) for c in np.broadcast_to(np.asarray(colour, float), (img.shape[2] if img.ndim == 3 else 1,))]
    if convex:
        cv2.fillConvexPoly(img, _fix(pts), colour, cv2.LINE_AA, 4)
    else:
        cv2.fillPoly(img, [_fix(pts)], colour, cv2.LINE_AA, 4)


def _hull(pts: np.ndarray) -> np.ndarray:
    """(N, 2) float -> (M, 2) float64 convex hull, counter-clockwise in the world (x right, y up)."""
    h = cv2.convexHull(np.asarray(pts, np.float32).reshape(-1, 1, 2), clockwise=False).reshape(-1, 2)
    return h.astype(np.float64)


def _overlap(a: np.ndarray, b: np.ndarray, tol: float = 0.0) -> bool:
    """True when two convex polygons overlap by more than ``tol`` (separating axis test)."""
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        axes = np.column_stack([-edges[:, 1], edges[:, 0]])
        axes /= np.linalg.norm(axes, axis=1, keepdims=True) + 1e-12
        pa, pb = a @ axes.T, b @ axes.T
        if np.any(pa.max(0) - tol <= pb.min(0)) or np.any(pb.max(0) - tol <= pa.min(0)):
            return False
    return True


def _inside(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(N,) bool: which points lie inside a convex counter-clockwise polygon."""
    a = poly
    e = np.roll(poly, -1, axis=0) - a
    d = pts[:, None, :] - a[None, :, :]
    cross = e[None, :, 0] * d[:, :, 1] - e[None, :, 1] * d[:, :, 0]
    return np.all(cross >= 0, axis=1)


def _offset(poly: np.ndarray, d: float) -> np.ndarray:
    """A convex counter-clockwise polygon grown outwards by ``d`` (shrunk for d < 0), mitred corners."""
    def normals(e):
        n = np.column_stack([e[:, 1], -e[:, 0]])
        return n / (np.linalg.norm(n, axis=1, keepdims=True) + 1e-12)

    n_in = normals(poly - np.roll(poly, 1, axis=0))   # the edge arriving at each vertex
    n_out = normals(np.roll(poly, -1, axis=0) - poly)  # the edge leaving it
    bis = n_in + n_out
    bis /= np.linalg.norm(bis, axis=1, keepdims=True) + 1e-12
    cos = np.maximum(np.sum(bis * n_out, axis=1), 0.2)
    return poly + bis * (d / cos)[:, None]


def _circle(cx: float, cy: float, r: float, n: int = 32, phase: float = 0.0) -> np.ndarray:
    """(n, 2) points of a circle (or a regular n-gon, first vertex at ``phase`` radians)."""
    a = np.linspace(0, 2 * math.pi, n, endpoint=False) + phase
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])


# --------------------------------------------------------------------------------------------------
# Camera and lights


def _pick_camera(rng: np.random.Generator, size: tuple[int, int]) -> _Camera:
    """A pinhole camera (the ``vision.synth`` one): 28-95 degrees horizontal field of view, tilt 0-45
    degrees (a third of the cameras near straight down, as overhead rigs are), any roll. Every frame
    corner must still see the floor well below the horizon, so a wide lens gets less tilt."""
    w, h = size
    for _ in range(40):
        hfov = math.radians(rng.uniform(28, 95))
        f = w / 2 / math.tan(hfov / 2)
        tilt = rng.uniform(0, 8) if rng.uniform() < 0.35 else rng.uniform(0, 45)
        cam = _Camera(TableLook(size=size, distance=f, tilt_deg=tilt, roll_deg=rng.uniform(-180, 180)))
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
        rays = np.column_stack([(corners - cam.centre) / cam.f, np.ones(4)]) @ cam.r
        rays /= np.linalg.norm(rays, axis=1, keepdims=True)
        if np.all(rays[:, 2] < -0.38):
            return cam
    return _Camera(TableLook(size=size, distance=1.3 * w))


@dataclass(frozen=True)
class _Light:
    """A distant light: ``to`` the unit direction towards it (world), ``colour`` its BGR strength (the
    camera's exposure and white balance folded in), ``soft`` 0 (a bare bulb) to 1 (a window)."""

    to: np.ndarray
    colour: np.ndarray
    soft: float


def _pick_lights(rng: np.random.Generator) -> tuple[tuple[_Light, ...], np.ndarray]:
    """One or two lights and the ambient light (BGR), scaled so that the floor is lit at about
    ``exposure`` (0.45-1.8), white-balanced by a camera that corrects the main light's colour in part."""
    n = 1 if rng.uniform() < 0.7 else 2
    amb_share = rng.uniform(0.25, 0.7)
    weights = np.array([1.0] if n == 1 else [1.0, rng.uniform(0.2, 1.0)])
    weights /= weights.sum()
    dirs, colours = [], []
    for _ in range(n):
        el, az = math.radians(rng.uniform(35, 88)), rng.uniform(0, 2 * math.pi)
        dirs.append(np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)]))
        colours.append(_kelvin(rng.uniform(2600, 7500)))
    lz = sum(w * d[2] for w, d in zip(weights, dirs))
    strength = (1 - amb_share) / lz
    exposure = float(np.clip(math.exp(rng.normal(0, 0.3)), 0.45, 1.8))
    wb = (1 / colours[0]) ** rng.uniform(0.3, 1.0) * rng.uniform(0.94, 1.06, 3)
    wb = wb / _luma(wb) * exposure
    ambient = (amb_share * _kelvin(rng.uniform(4500, 9000)) * wb).astype(np.float32)
    lights = tuple(_Light(d, (strength * w * c * wb).astype(np.float32), float(rng.uniform(0, 1)))
                   for d, w, c in zip(dirs, weights, colours))
    return lights, ambient


def _shade(normal: np.ndarray, lights, ambient: np.ndarray) -> np.ndarray:
    """(3,) BGR light on a surface with this world normal (Lambert, no shadows)."""
    k = ambient.copy()
    for lt in lights:
        k += lt.colour * max(0.0, float(normal @ lt.to))
    return k


# --------------------------------------------------------------------------------------------------
# Surfaces: procedural textures, float32 (th, tw, 3) BGR. ``d`` is the die edge in texels, so that
# grain, weave and speckle have a physical size next to the dice.

_WOODS = ((175, 205, 222), (120, 165, 205), (70, 120, 175), (40, 70, 110), (30, 95, 185), (150, 160, 168),
          (60, 90, 140))


def _surface_colour(rng: np.random.Generator, kind: str) -> BGR:
    if kind == "wood":
        return _jitter(rng, _WOODS[int(rng.integers(len(_WOODS)))], 10)
    if kind in ("plain", "stone"):
        grey = rng.uniform(0.12, 0.95)
        return _hsv(rng.uniform(0, 360), rng.uniform(0, 0.25) * (rng.uniform() < 0.6), grey)
    if kind == "paper":
        return _hsv(rng.uniform(0, 360), rng.uniform(0, 0.2), rng.uniform(0.72, 0.97))
    return _hsv(rng.uniform(0, 360), rng.uniform(0.1, 0.9), rng.uniform(0.12, 0.85))


def _wood(rng, th, tw, d, colour) -> np.ndarray:
    """Wood: fine streaks along the grain, growth rings, planks of varied tint with dark gaps, knots.
    The shading is made at half size (it is smooth across the grain's few texels) and scaled up."""
    hh, hw, hd = th // 2 + 1, tw // 2 + 1, d / 2
    rows = int(min(hh / 1.5, max(4, hh / max(1.0, 0.05 * hd))))
    streak = cv2.resize(rng.standard_normal((rows, 6)).astype(np.float32), (hw, hh), interpolation=cv2.INTER_CUBIC)
    plank = hd * rng.uniform(1.5, 7)
    y = np.arange(hh, dtype=np.float32)[:, None]
    warp = _smooth(rng, hh, hw, (3, int(rng.integers(2, 5)))) * (plank * 0.6)
    rings = np.abs(np.sin((y + warp) * (2 * math.pi / (plank * rng.uniform(0.15, 0.6)))))
    offset = rng.uniform(0, plank)
    idx = np.floor((y[:, 0] + offset) / plank).astype(int)
    tint = rng.normal(1.0, 0.07, idx.max() + 2)[idx][:, None].astype(np.float32)
    shade = tint * (1 + 0.07 * streak - rng.uniform(0.05, 0.16) * rings ** 6)
    img = _tint(cv2.resize(shade, (tw, th), interpolation=cv2.INTER_LINEAR), colour)
    gap = (colour * 0.45).tolist()
    for k in range(int(idx.min()), int(idx.max()) + 2):
        yy = int(2 * (k * plank - offset))
        cv2.line(img, (0, yy), (tw, yy), gap, max(1, int(0.02 * d)), cv2.LINE_AA)
    for _ in range(int(rng.choice([0, 0, 1, 2]))):
        c = (int(rng.uniform(0, tw)), int(rng.uniform(0, th)))
        ax = max(2.0, d * rng.uniform(0.15, 0.5))
        for j in range(4):
            cv2.ellipse(img, c, (int(ax * (1 - j * 0.2) * 1.8), int(ax * (1 - j * 0.2))), 0, 0, 360,
                        (colour * (0.55 + 0.1 * j)).tolist(), max(1, int(ax * 0.12)), cv2.LINE_AA)
    return img


def _felt(rng, th, tw, d, colour) -> np.ndarray:
    """Felt: fine fibrous noise (brushed a little in one direction) and a faint mottle."""
    fine = cv2.GaussianBlur(_noise(rng, th, tw), (0, 0), sigmaX=rng.uniform(0.6, 1.6), sigmaY=rng.uniform(0.4, 0.8))
    return _tint(cv2.addWeighted(fine, rng.uniform(0.08, 0.25), _smooth(rng, th, tw, (4, 4)), 0.04, 1.0), colour)


def _cloth(rng, th, tw, d, colour) -> np.ndarray:
    """Cloth: a weave of threads, soft folds with creases, sometimes a gingham check."""
    p = max(3.0, d * rng.uniform(0.04, 0.12))
    x = np.arange(tw, dtype=np.float32)
    y = np.arange(th, dtype=np.float32)
    weave = np.outer(np.sin(y * (2 * math.pi / p)), np.sin(x * (2 * math.pi / p))).astype(np.float32)
    f = _smooth(rng, th // 4 + 1, tw // 4 + 1, (int(rng.integers(2, 6)), int(rng.integers(2, 6))))
    folds = 1 + 0.1 * f - 0.2 * np.exp(-(3 * f) ** 2) * rng.uniform(0.2, 1)
    shade = cv2.addWeighted(cv2.resize(folds, (tw, th)), 1.0, weave, rng.uniform(0.02, 0.06), 0.0)
    img = _tint(shade, colour)
    if rng.uniform() < 0.3:
        period = d * rng.uniform(0.8, 3)
        check = np.not_equal.outer(np.sin(y * (2 * math.pi / period)) > 0, np.sin(x * (2 * math.pi / period)) > 0)
        other = _tint(shade, _hsv(rng.uniform(0, 360), rng.uniform(0, 0.3), rng.uniform(0.7, 1.0)))
        np.copyto(img, other, where=check[:, :, None])
    return img


def _speckle(rng, th, tw, d, colour, stone: bool = False) -> np.ndarray:
    """Carpet (coarse speckle of a few colours) or stone (finer, greys and browns)."""
    cell = max(2.0, d * (rng.uniform(0.02, 0.08) if stone else rng.uniform(0.05, 0.2)))
    gh, gw = max(2, int(th / cell)), max(2, int(tw / cell))
    k = int(rng.integers(2, 5))
    palette = [colour] + [(_hsv(0, 0, rng.uniform(0.05, 0.95)) if stone else
                           _hsv(rng.uniform(0, 360), rng.uniform(0.2, 0.9), rng.uniform(0.15, 0.8))) for _ in range(k - 1)]
    p = np.array([rng.uniform(2, 4)] + [rng.uniform(0.3, 1.5) for _ in range(k - 1)])
    idx = np.searchsorted(np.cumsum(p) / p.sum(), rng.random((gh, gw), dtype=np.float32)).clip(0, k - 1)
    small = np.clip(np.array(palette, np.float32)[idx] * rng.uniform(0.85, 1.15, (gh, gw, 1)), 0, 255).astype(np.uint8)
    img = cv2.resize(small, (tw, th), interpolation=cv2.INTER_NEAREST)
    return cv2.GaussianBlur(img, (0, 0), 0.4 * cell + 0.3)


def _plain(rng, th, tw, d, colour) -> np.ndarray:
    """A plain table or board: a faint, broad unevenness."""
    return _tint(cv2.addWeighted(_smooth(rng, th, tw, (2, 2)), 0.05, _noise(rng, th, tw), 0.012, 1.0), colour)


def _gradient(rng, th, tw, d, colour) -> np.ndarray:
    """A blurred real-ish background: a few broad blobs of colour around the base colour."""
    gh, gw = int(rng.integers(2, 6)), int(rng.integers(2, 6))
    small = np.clip(colour + rng.normal(0, 45, (gh, gw, 3)), 0, 255).astype(np.uint8)
    return cv2.resize(small, (tw, th), interpolation=cv2.INTER_CUBIC)


def _paper(rng, th, tw, d, colour) -> np.ndarray:
    """Paper or a game board printed with clutter: a board game's hexes, polygons, text-like strokes."""
    img = _plain(rng, th, tw, d, colour)
    if rng.uniform() < 0.5:
        _print_hexes(rng, img, d)
    for _ in range(int(rng.integers(2, 10))):
        c = np.array([rng.uniform(0, tw), rng.uniform(0, th)])
        ink = _hsv(rng.uniform(0, 360), rng.uniform(0.3, 1), rng.uniform(0.2, 0.9)) if rng.uniform() < 0.7 else colour * 0.3
        if rng.uniform() < 0.45:
            _print_text(rng, img, c, d, colour * rng.uniform(0.1, 0.4))
        else:
            k = int(rng.integers(3, 8))
            pts = _circle(c[0], c[1], d * rng.uniform(0.5, 4), k) + rng.normal(0, d * 0.3, (k, 2))
            _fill(img, _hull(pts), ink)
    return img


def _print_hexes(rng, img, d) -> None:
    """A patch of board-game hexes (a sea-coloured frame, land hexes of several colours, number tokens)."""
    th, tw = img.shape[:2]
    r = d * rng.uniform(0.8, 2.5)
    cx, cy = rng.uniform(0.2, 0.8) * tw, rng.uniform(0.2, 0.8) * th
    rings = int(rng.integers(2, 4))
    # Pointy-top hexes in rows (sqrt(3) r apart across, 1.5 r down), inside a pointy-top sea frame.
    pointy = math.pi / 6
    _fill(img, _circle(cx, cy, r * (rings * 1.8 + 1.4), 6, pointy), _hsv(rng.uniform(190, 230), 0.7, rng.uniform(0.5, 0.8)))
    lands = [_hsv(h, rng.uniform(0.4, 0.8), rng.uniform(0.4, 0.8)) for h in rng.uniform(20, 130, 5)]
    for q in range(-rings, rings + 1):
        for s in range(-rings, rings + 1):
            if abs(q + s) > rings:
                continue
            x = cx + r * math.sqrt(3) * (q + s / 2)
            y = cy + r * 1.5 * s
            _fill(img, _circle(x, y, r * 0.94, 6, pointy), lands[int(rng.integers(len(lands)))])
            if rng.uniform() < 0.7:
                cv2.circle(img, _i16((x, y)), int(r * 0.3 * 16), (200, 225, 235), -1, cv2.LINE_AA, 4)


def _print_text(rng, img, c, d, ink) -> None:
    """Lines of text-like strokes: short dashes in rows, as printed words look from afar."""
    h = max(1.5, d * rng.uniform(0.05, 0.2))
    x0, y = c
    for _ in range(int(rng.integers(1, 7))):
        x = x0
        for _ in range(int(rng.integers(3, 12))):
            ln = h * rng.uniform(0.8, 3.5)
            cv2.line(img, _i16((x, y)), _i16((x + ln, y)), ink.tolist(), max(1, int(h * 0.3)), cv2.LINE_AA, 4)
            x += ln + h * rng.uniform(0.5, 1.2)
        y += h * rng.uniform(1.5, 2.2)


_SURFACES = {"wood": _wood, "felt": _felt, "cloth": _cloth, "carpet": _speckle, "plain": _plain,
             "gradient": _gradient, "paper": _paper, "stone": functools.partial(_speckle, stone=True)}
_TABLE_KINDS = ("wood", "felt", "cloth", "carpet", "stone", "plain", "paper", "gradient")
_TABLE_P = (0.25, 0.08, 0.12, 0.1, 0.07, 0.15, 0.12, 0.11)
_TRAY_KINDS = ("felt", "plain", "cloth", "wood", "paper", "gradient", "carpet")
_TRAY_P = (0.45, 0.2, 0.1, 0.07, 0.08, 0.05, 0.05)


def _surface(rng, kind: str, th: int, tw: int, d: float, colour: BGR) -> np.ndarray:
    """(th, tw, 3) uint8 BGR texture of one kind of surface; ``d`` is the die edge in texels."""
    return _SURFACES[kind](rng, th, tw, d, np.asarray(colour, np.float32))


# --------------------------------------------------------------------------------------------------
# Things on the floor that are not dice, drawn into the floor texture (texel coordinates).


def _coin(rng, img, c, d) -> None:
    """A coin (metal, a rim and a relief) or a gaming chip / token (colour with edge stripes)."""
    if rng.uniform() < 0.5:
        r = d * rng.uniform(0.3, 0.7)
        metal = _jitter(rng, ((40, 160, 200), (185, 185, 190), (50, 100, 170))[int(rng.integers(3))], 12)
        cv2.circle(img, c, int(r), (metal * 0.7).tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, c, int(r * 0.85), metal.tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, (c[0] - int(r * 0.3), c[1] - int(r * 0.3)), max(1, int(r * 0.25)), (metal * 1.25).tolist(), -1, cv2.LINE_AA)
        return
    r = d * rng.uniform(0.5, 1.2)
    col = _hsv(rng.uniform(0, 360), rng.uniform(0.3, 1), rng.uniform(0.2, 0.9))
    cv2.circle(img, c, int(r), col.tolist(), -1, cv2.LINE_AA)
    for a in np.linspace(0, 2 * math.pi, int(rng.integers(4, 9)), endpoint=False):
        p = (int(c[0] + 0.85 * r * math.cos(a)), int(c[1] + 0.85 * r * math.sin(a)))
        cv2.circle(img, p, max(1, int(0.12 * r)), (235, 235, 235), -1, cv2.LINE_AA)
    cv2.circle(img, c, int(r * 0.6), (col * 0.8).tolist(), max(1, int(r * 0.06)), cv2.LINE_AA)


def _cable(rng, img, c, d) -> None:
    """A cable: a thick smooth curve with a thin highlight along it."""
    k = int(rng.integers(3, 6))
    pts = np.cumsum(rng.normal(0, d * 3, (k, 2)), axis=0) + c
    t = np.linspace(0, 1, 40)
    curve = np.array([np.interp(t, np.linspace(0, 1, k), pts[:, i]) for i in range(2)]).T
    curve = cv2.GaussianBlur(curve.reshape(-1, 1, 2).astype(np.float32), (1, 9), 3).reshape(-1, 2)
    col = _hsv(0, 0, rng.uniform(0.05, 0.9)) if rng.uniform() < 0.8 else _hsv(rng.uniform(0, 360), 0.8, 0.7)
    w = max(2, int(d * rng.uniform(0.1, 0.3)))
    cv2.polylines(img, [_fix(curve)], False, col.tolist(), w, cv2.LINE_AA, 4)
    cv2.polylines(img, [_fix(curve - w * 0.2)], False, np.minimum(col * 1.5 + 30, 255).tolist(), max(1, w // 4), cv2.LINE_AA, 4)


def _device(rng, img, c, d) -> None:
    """A phone or a laptop corner: a large dark or silver rounded rectangle (keys on the laptop)."""
    laptop = rng.uniform() < 0.5
    w, h = (d * rng.uniform(10, 18), d * rng.uniform(7, 12)) if laptop else (d * rng.uniform(2.5, 4), d * rng.uniform(5, 8))
    a = rng.uniform(0, 180)
    box = cv2.boxPoints(((float(c[0]), float(c[1])), (float(w), float(h)), float(a)))
    col = _hsv(0, 0, rng.uniform(0.6, 0.85)) if laptop and rng.uniform() < 0.6 else _hsv(0, 0, rng.uniform(0.05, 0.25))
    _fill(img, box, col)
    if laptop:
        keys = cv2.boxPoints(((float(c[0]), float(c[1])), (float(w * 0.8), float(h * 0.5)), float(a)))
        _fill(img, keys, col * 0.35)
    else:
        _fill(img, cv2.boxPoints(((float(c[0]), float(c[1])), (float(w * 0.88), float(h * 0.9)), float(a))), (12, 10, 10))


def _tile(rng, img, c, d) -> None:
    """A flat coloured square or game tile without pips."""
    s = d * rng.uniform(0.5, 1.3)
    box = cv2.boxPoints(((float(c[0]), float(c[1])), (float(s), float(s)), float(rng.uniform(0, 90))))
    col = _hsv(rng.uniform(0, 360), rng.uniform(0.2, 1), rng.uniform(0.3, 0.95))
    _fill(img, box, col * 0.7)
    _fill(img, (box - box.mean(0)) * 0.85 + box.mean(0), col)


def _sheet(rng, img, c, d) -> None:
    """A sheet of paper, ruled or printed with text."""
    w, h = d * rng.uniform(4, 10), d * rng.uniform(5, 12)
    a = float(rng.uniform(0, 180))
    _fill(img, cv2.boxPoints(((float(c[0]), float(c[1])), (float(w), float(h)), a)), _hsv(0, 0, rng.uniform(0.85, 1.0)))
    _print_text(rng, img, np.array(c, float) - (w * 0.3, h * 0.3), d, np.array((60, 60, 60), np.float32))


def _specks(rng, img, c, d) -> None:
    """Crumbs, dust and small specks scattered over a region."""
    for _ in range(int(rng.integers(10, 60))):
        p = (int(c[0] + rng.normal(0, d * 3)), int(c[1] + rng.normal(0, d * 3)))
        col = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.6), rng.uniform(0, 1))
        cv2.circle(img, p, max(1, int(d * rng.uniform(0.01, 0.06))), col.tolist(), -1, cv2.LINE_AA)


_ITEMS = (_coin, _coin, _cable, _device, _tile, _tile, _sheet, _specks, _specks)


# --------------------------------------------------------------------------------------------------
# Dice: looks and face textures

# Body colours of common dice (BGR); the rest are drawn from any hue.
_BODIES = ((236, 238, 240), (200, 228, 240), (40, 30, 200), (35, 33, 32), (170, 90, 30), (60, 140, 30),
           (40, 200, 235), (140, 40, 110), (30, 120, 240), (180, 130, 240), (150, 150, 20), (130, 130, 130))
_RED = np.array((40, 30, 200), np.float32)


@dataclass
class _DieLook:
    """How one kind of die looks: colours (BGR 0-255), sizes in face units (a face spans -1..1)."""

    body: np.ndarray
    pip: np.ndarray
    pip1: np.ndarray  # the colour of the 1 pip (red on Asian dice)
    pip4: np.ndarray  # the colour of the 4 pips (red on Asian dice)
    body2: np.ndarray | None  # the second colour of a marbled body
    alpha: float  # body opacity: 1 opaque, less for translucent dice
    corner: float  # corner radius of a face outline
    pip_r: float
    spread: float  # pip offset from the face centre
    one_r: float  # the 1 pip's radius (larger on many dice)
    one_ring: bool  # a logo-like ring around the 1 pip
    ring: bool  # an inset circle ring around the pips of every face
    concave: float  # 0 flat paint, up to 1: drilled pips with a shaded rim and a highlight
    gloss: float  # specular strength 0-1
    left: bool  # left-handed (Asian dice): 1-2-3 run clockwise around their corner
    turn: tuple[bool, bool, bool]  # the layouts of 2, 3 and 6 turned a quarter on this die
    blank: bool  # a plain cube without pips (a distractor)
    seed: int
    textures: dict = field(default_factory=dict, repr=False)

    @property
    def normals(self) -> dict[int, tuple[int, int, int]]:
        """Face value -> outward normal in die coordinates. A left-handed die swaps 2 and 5 (which keeps
        opposite faces summing to 7 and mirrors the 1-2-3 corner)."""
        if not self.left:
            return _FACE_NORMALS
        n = dict(_FACE_NORMALS)
        n[2], n[5] = n[5], n[2]
        return n


def _pick_pip(rng, body: BGR) -> BGR:
    """A pip colour that reads against the body: black or white mostly, sometimes coloured; now and
    then a saturated colour that differs from the body in hue more than in brightness (red pips on a
    black or smoky die, gold on red), which only a reader that uses colour can read."""
    light = _luma(body) > 130
    if rng.uniform() < 0.15:
        for _ in range(20):
            c = _hsv((rng.choice([0, 0, 30, 50, 120, 220, 300]) + rng.uniform(-12, 12)) % 360, rng.uniform(0.7, 1), rng.uniform(0.55, 0.95))
            if _colour_distance(c, body) > 60:
                return c
    for _ in range(20):
        if rng.uniform() < 0.7:
            c = _hsv(0, 0, rng.uniform(0.02, 0.15)) if light else _hsv(0, 0, rng.uniform(0.85, 1.0))
        else:
            c = _hsv(rng.uniform(0, 360), rng.uniform(0.3, 1), rng.uniform(0.1, 0.4) if light else rng.uniform(0.75, 1))
        if abs(_luma(c) - _luma(body)) > 70:
            return c
    return np.array((20, 20, 20) if light else (245, 245, 245), np.float32)


def _colour_distance(a: BGR, b: BGR) -> float:
    """The distance of two BGR colours in CIELAB (about 2.3 is a just noticeable difference)."""
    lab = cv2.cvtColor(np.array([[a, b]], np.float32) / 255.0, cv2.COLOR_BGR2Lab)[0]
    return float(np.linalg.norm(lab[0] - lab[1]))


def _pick_look(rng: np.random.Generator, blank: bool = False) -> _DieLook:
    if rng.uniform() < 0.45:
        body = _jitter(rng, _BODIES[int(rng.integers(len(_BODIES)))], 12)
    else:
        body = _hsv(rng.uniform(0, 360), rng.uniform(0, 1), rng.uniform(0.08, 1))
    pip = _pick_pip(rng, body)
    asian = rng.uniform() < 0.06 and _luma(body) > 150
    marble = rng.uniform() < 0.12
    translucent = rng.uniform() < 0.14
    sharp = rng.uniform() < 0.35
    pip_r = float(rng.uniform(0.13, 0.21))
    return _DieLook(
        body=body, pip=pip,
        pip1=_RED.copy() if asian else pip, pip4=_RED.copy() if asian else pip,
        body2=_jitter(rng, body * rng.uniform(0.4, 1.6), 40) if marble else None,
        alpha=float(rng.uniform(0.45, 0.8)) if translucent else 1.0,
        corner=round(float(rng.uniform(0.03, 0.1) if sharp else rng.uniform(0.15, 0.42)), 2),
        # The pips of a 6 keep a gap of at least 0.6 pip radius between them, as on real dice.
        pip_r=pip_r, spread=float(rng.uniform(max(0.44, 2.6 * pip_r), 0.6)),
        one_r=float(rng.uniform(0.3, 0.42) if asian else rng.uniform(0.24, 0.36) if rng.uniform() < 0.2 else 0.0),
        one_ring=bool(rng.uniform() < 0.07), ring=bool(rng.uniform() < 0.08),
        concave=float(rng.uniform(0.3, 1.0) if rng.uniform() < 0.5 else 0.0),
        gloss=float(rng.uniform(0, 1) ** 1.5), left=bool(asian),
        turn=tuple(bool(t) for t in rng.integers(0, 2, 3)), blank=blank, seed=int(rng.integers(2**31)),
    )


@functools.lru_cache(maxsize=64)
def _face_grid(size: int) -> tuple[np.ndarray, np.ndarray]:
    """(size, size) float32 face coordinates u (across) and v (down) of each texel centre."""
    t = (np.arange(size, dtype=np.float32) + 0.5) / size * 2 - 1
    return np.meshgrid(t, t)


def _texel(u: float, v: float, size: int) -> tuple[float, float]:
    return (u + 1) / 2 * size - 0.5, (v + 1) / 2 * size - 0.5


def _body_texture(look: _DieLook, value: int, size: int) -> np.ndarray:
    """(size, size, 3) uint8 BGR: the face's body, marbled or plain, darker towards its rounded edges."""
    u, v = _face_grid(size)
    rng = np.random.default_rng([look.seed, value, size])
    if look.body2 is not None:
        a = rng.uniform(0, math.pi)
        swirl = _smooth(rng, size, size, (3, 3)) * 2.5
        m = 0.5 + 0.5 * np.sin(rng.uniform(3, 8) * (u * math.cos(a) + v * math.sin(a)) + swirl)
        img = look.body * (1 - m[:, :, None] ** 3) + look.body2 * (m[:, :, None] ** 3)
    else:
        img = np.broadcast_to(look.body, (size, size, 3))
    return np.clip(img * _bevel(size), 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=16)
def _bevel(size: int) -> np.ndarray:
    """(size, size, 1) float32: a face darkens a little towards its edges, where it rounds over."""
    u, v = _face_grid(size)
    edge = 1 - np.maximum(np.abs(u), np.abs(v))
    return (1 - 0.22 * np.clip(1 - edge / 0.14, 0, 1) ** 2)[:, :, None]


def _pip_spots(look: _DieLook, value: int) -> list[tuple[float, float, float, np.ndarray]]:
    """(u, v, radius, colour) of each pip on face ``value`` in face coordinates."""
    a = look.spread / PIP_LAYOUT[6][0][0]  # PIP_LAYOUT is drawn with its own spread; rescale it
    layout = [(x * a, y * a) for x, y in PIP_LAYOUT[value]]
    if value in (2, 3, 6) and look.turn[(2, 3, 6).index(value)]:
        layout = [(y, -x) for x, y in layout]
    if value == 1:
        return [(0.0, 0.0, look.one_r or look.pip_r, look.pip1)]
    colour = look.pip4 if value == 4 else look.pip
    return [(x, y, look.pip_r, colour) for x, y in layout]


def _draw_pips(look: _DieLook, value: int, img: np.ndarray, mask: np.ndarray) -> None:
    """Pips (and rings) onto a face's body ``img`` and into its opacity ``mask`` (pips are opaque)."""
    size = img.shape[0]
    k = size / 2
    if look.ring:
        cv2.circle(img, _i16(_texel(0, 0, size)), int(0.86 * k * 16), (look.body * 0.72).tolist(), max(1, int(0.05 * k)), cv2.LINE_AA, 4)
    for u, v, r, colour in _pip_spots(look, value):
        c = _texel(u, v, size)
        rr = r * k
        cv2.circle(img, _i16(c), int(rr * 16), (colour * (1 - 0.45 * look.concave)).tolist(), -1, cv2.LINE_AA, 4)
        cv2.circle(mask, _i16(c), int(rr * 16), 255, -1, cv2.LINE_AA, 4)
        if look.concave:
            # A drilled pip: a shaded rim on one side and a small highlight on the other (fixed on the
            # face rather than turned to the light: the eye and a reader take it as depth either way).
            inner = (c[0] + 0.14 * rr, c[1] + 0.14 * rr)
            cv2.circle(img, _i16(inner), int(rr * 0.84 * 16), colour.tolist(), -1, cv2.LINE_AA, 4)
            spot = (c[0] + 0.45 * rr, c[1] + 0.45 * rr)
            hi = colour + (255 - colour) * 0.4 * look.concave
            cv2.circle(img, _i16(spot), max(1, int(rr * 0.22 * 16)), hi.tolist(), -1, cv2.LINE_AA, 4)
        if value == 1 and look.one_ring:
            cv2.circle(img, _i16(c), int(rr * 1.5 * 16), colour.tolist(), max(1, int(0.04 * k)), cv2.LINE_AA, 4)


def _i16(p) -> tuple[int, int]:
    return int(round(p[0] * 16)), int(round(p[1] * 16))


def _face_texture(look: _DieLook, value: int, size: int) -> np.ndarray:
    """(size, size, 4) float32 premultiplied BGRA of one face: colour 0-255 times opacity, opacity 0-1.
    Texel x runs along the face's u axis and y along v (``vision.synth._face_axes``)."""
    img = np.ascontiguousarray(_body_texture(look, value, size))
    pips = np.zeros((size, size), np.uint8)
    if not look.blank:
        _draw_pips(look, value, img, pips)
    alpha = np.maximum(pips.astype(np.float32), 255 * look.alpha) * _face_mask(size, look.corner)
    out = np.empty((size, size, 4), np.float32)
    out[:, :, :3] = img * alpha[:, :, None]
    out[:, :, 3] = alpha
    return out


@functools.lru_cache(maxsize=256)
def _face_mask(size: int, corner: float) -> np.ndarray:
    """(size, size) float32 0-1/255: the face's rounded outline, anti-aliased (scaled for 0-255 pips)."""
    outline = np.zeros((size, size), np.uint8)
    square = _rounded_square(6, max(corner, 0.02))
    cv2.fillPoly(outline, [_fix([_texel(u, v, size) for u, v in square])], 255, cv2.LINE_AA, 4)
    return outline.astype(np.float32) / 255 ** 2


def _textures(look: _DieLook, size: int) -> dict[int, np.ndarray]:
    """The six face textures at ``size`` texels (drawn once per look and size, then kept)."""
    if size not in look.textures:
        look.textures[size] = {v: _face_texture(look, v, size) for v in range(1, 7)}
    return look.textures[size]


# Each face normal's texture axes u, v (and the normal), as ``vision.synth`` lays its pips.
_AXES = {tuple(n): _face_axes(n) for n in _FACE_NORMALS.values()}


def _outline(value_normal, corner: float, n_corner: int = 6) -> np.ndarray:
    """(K, 3) points of a face's rounded outline in die coordinates (the die spans -1..1)."""
    u, v, n = _AXES[tuple(value_normal)]
    sq = _rounded_square(n_corner, max(corner, 0.02))
    return n + sq[:, :1] * u + sq[:, 1:] * v


# --------------------------------------------------------------------------------------------------
# Poses and placement


@dataclass
class _Pose:
    """A die or cube in the world: centre (3,) and rotation (die -> world), flat or cocked."""

    centre: np.ndarray
    rot: np.ndarray
    flat: bool = True


def _up_rotation(normal) -> np.ndarray:
    """The rotation that turns a die-coordinate ``normal`` to world +z."""
    n = np.asarray(normal, float)
    if n[2] > 0.5:
        return np.eye(3)
    if n[2] < -0.5:
        return _rot((1, 0, 0), math.pi)
    return _rot(np.cross(n, (0.0, 0.0, 1.0)), math.pi / 2)


def _flat_pose(x: float, y: float, yaw: float, normal, s: float) -> _Pose:
    return _Pose(np.array([x, y, s]), _rot((0, 0, 1), yaw) @ _up_rotation(normal))


def _corners(pose: _Pose, s: float) -> np.ndarray:
    return pose.centre + (_CUBE_CORNERS @ pose.rot.T) * s


def _footprint(pose: _Pose, s: float) -> np.ndarray:
    """The convex outline of a die seen from straight above, world (x, y)."""
    return _hull(_corners(pose, s)[:, :2])


def _lean(rot: np.ndarray, s: float, base_xy, d: np.ndarray, plane_p: np.ndarray, plane_n: np.ndarray) -> _Pose:
    """A tilted die resting on its lowest edge, slid along the horizontal ``d`` from ``base_xy`` until it
    touches the plane through ``plane_p`` with normal ``plane_n`` (pointing into the support)."""
    offs = (_CUBE_CORNERS @ rot.T) * s
    c0 = np.array([base_xy[0], base_xy[1], -offs[:, 2].min()])
    t = -float(np.max((c0 + offs - plane_p) @ plane_n)) / float(d @ plane_n)
    return _Pose(c0 + t * d, rot, flat=False)


def _cocked_rotation(rng, normal, toward: np.ndarray) -> np.ndarray:
    """A die with face ``normal`` up, its sides square to ``toward`` (horizontal unit), tilted 15-42
    degrees towards it (the top leans onto the support; under 45 degrees the same face stays most up)."""
    yaw = math.atan2(toward[1], toward[0]) + int(rng.integers(4)) * math.pi / 2 + rng.uniform(-0.06, 0.06)
    axis = np.cross((0.0, 0.0, 1.0), (toward[0], toward[1], 0.0))
    return _rot(axis, math.radians(rng.uniform(15, 42))) @ _rot((0, 0, 1), yaw) @ _up_rotation(normal)


# --------------------------------------------------------------------------------------------------
# The tray, the cup and the hand


@dataclass
class _Tray:
    """A dice tray: floor polygon (K, 2) world, counter-clockwise; walls ``height`` high, slanted out by
    ``slant`` radians, a rim ``thick`` wide on top. Colours BGR; ``kind`` names the floor's surface."""

    poly: np.ndarray
    height: float
    slant: float
    thick: float
    kind: str
    floor: BGR
    wall: BGR
    rim: BGR

    def wall_quads(self) -> list[tuple[str, int, np.ndarray]]:
        """("inner" | "rim" | "outer", edge index, (4, 3) world quad) for every wall piece."""
        top_in = _offset(self.poly, self.height * math.tan(self.slant))
        top_out = _offset(self.poly, self.height * math.tan(self.slant) + self.thick)
        base_out = _offset(self.poly, self.thick + self.height * math.tan(self.slant) * 0.4)
        h = self.height
        out = []
        k = len(self.poly)
        for i in range(k):
            j = (i + 1) % k
            z0, zh = lambda p: [p[0], p[1], 0.0], lambda p: [p[0], p[1], h]
            out.append(("inner", i, np.array([z0(self.poly[i]), z0(self.poly[j]), zh(top_in[j]), zh(top_in[i])])))
            out.append(("rim", i, np.array([zh(top_in[i]), zh(top_in[j]), zh(top_out[j]), zh(top_out[i])])))
            out.append(("outer", i, np.array([zh(top_out[i]), zh(top_out[j]), z0(base_out[j]), z0(base_out[i])])))
        return out


@dataclass
class _Cup:
    """A dice cup standing on the floor: centre (x, y), radius, height; open (rim and dark inside seen)
    or upturned (its closed base on top)."""

    x: float
    y: float
    r: float
    height: float
    open: bool
    colour: BGR

    def ring(self, z: float, scale: float = 1.0, n: int = 36) -> np.ndarray:
        c = _circle(self.x, self.y, self.r * scale, n)
        return np.column_stack([c, np.full(n, z)])

    def top_scale(self) -> float:
        return 1.0 if self.open else 0.88  # an upturned leather cup narrows towards its base

    def points(self) -> np.ndarray:
        return np.vstack([self.ring(0.0), self.ring(self.height, self.top_scale())])


def _hand_pieces(x: float, y: float, angle: float, z: float, e: float) -> list[np.ndarray]:
    """Convex pieces (palm, four fingers, thumb) of a flat hand at height ``z``, world points."""
    ca, sa = math.cos(angle), math.sin(angle)

    def place(pts):
        pts = np.asarray(pts, float) * e
        return np.column_stack([x + pts[:, 0] * ca - pts[:, 1] * sa, y + pts[:, 0] * sa + pts[:, 1] * ca,
                                np.full(len(pts), z)])

    a = np.linspace(0, 2 * math.pi, 20, endpoint=False)
    pieces = [place(np.column_stack([1.6 * np.cos(a), 1.9 * np.sin(a)]))]
    for dx, length in ((-1.05, 1.9), (-0.35, 2.3), (0.35, 2.2), (1.05, 1.7)):
        w = 0.34
        pieces.append(place([(dx - w, -1.2), (dx + w, -1.2), (dx + w * 0.9, -1.2 - length), (dx, -1.35 - length),
                             (dx - w * 0.9, -1.2 - length)]))
    pieces.append(place([(1.2, 0.4), (1.6, -0.2), (3.0, -0.9), (3.2, -0.5), (1.7, 0.9)]))
    return pieces


# --------------------------------------------------------------------------------------------------
# The scene: every random choice that the truth depends on, made up front


@dataclass
class _Solid:
    """A die (``look.blank`` False) or a plain cube: its pose, look and half edge ``s`` (world units)."""

    pose: _Pose
    look: _DieLook
    s: float


class _Scene:
    """One scene's plan: camera, lights, floor, tray, dice, cube, cup and hand; ``truth()`` from it.
    Painting (textures, light map, sensor) is ``_paint``, on a random stream of its own."""

    def __init__(self, seed: int, size: tuple[int, int] | None, dice: int | None):
        if size is not None and (len(size) != 2 or not all(32 <= int(v) <= 4096 for v in size)):
            raise ValueError(f"size must be (W, H) with each 32-4096 px, got {size}")
        if dice is not None and not 0 <= int(dice) <= _MAX_DICE:
            raise ValueError(f"dice must be 0-{_MAX_DICE}, got {dice}")
        self.seed = int(seed)
        rng = np.random.default_rng([self.seed, 1])
        self.size = tuple(int(v) for v in size) if size is not None else SIZES[int(rng.integers(len(SIZES)))]
        n = int(dice) if dice is not None else int(rng.choice(len(_COUNT_WEIGHTS), p=_COUNT_WEIGHTS))
        self.cam = _pick_camera(rng, self.size)
        self.lights, self.ambient = _pick_lights(rng)
        self.edge = self._pick_edge(rng, n)
        self.table_kind = str(rng.choice(_TABLE_KINDS, p=_TABLE_P))
        self.tray = self._pick_tray(rng, n) if rng.uniform() < 0.45 else None
        self.table_edge = self._pick_table_edge(rng) if self.tray is None and rng.uniform() < 0.15 else None
        self.cup = self._pick_cup(rng) if rng.uniform() < 0.1 else None
        self.looks = self._pick_looks(rng, n)
        self.solids: list[_Solid] = []
        self._silhouettes: dict[int, np.ndarray] = {}  # by id() of a solid or the cup, once laid
        self._place(rng, n)
        self.hand = self._pick_hand(rng) if rng.uniform() < 0.07 else None

    # -- sizes and regions ----------------------------------------------------------------------

    @property
    def s(self) -> float:
        """Half the die edge, world units."""
        return self.edge / 2

    def _pick_edge(self, rng, n: int) -> float:
        """The die edge (world units = px at the image centre): log-uniform 15-300 px, less when the frame
        is small or the dice are many, so that they still fit, and at most a third of the camera's height
        (a die filling a wide lens's view means a camera a few dice away, as a phone held close is)."""
        w, h = self.size
        cap = min(300.0, 0.42 * min(w, h), math.sqrt(0.3 * w * h / (2.2 * max(n, 1))), self.cam.c[2] / 3.2)
        lo = min(15.0, cap)
        return float(math.exp(rng.uniform(math.log(lo), math.log(cap))))

    def in_view(self, pts_world: np.ndarray, margin: float) -> np.ndarray:
        """(N,) bool: which world points project inside the frame grown by ``margin`` px."""
        p = self.cam.project(pts_world)
        w, h = self.size
        return (p[:, 0] >= -margin) & (p[:, 0] <= w + margin) & (p[:, 1] >= -margin) & (p[:, 1] <= h + margin)

    def floor_at(self, uv: np.ndarray) -> np.ndarray:
        """(N, 2) image px -> (N, 2) world floor points they show."""
        return self.cam.unproject_floor(np.asarray(uv, float).reshape(-1, 2))[:, :2]

    def _pick_tray(self, rng, n: int) -> _Tray:
        w, h = self.size
        k = int(rng.choice([4, 6, 6, 8, 36]))
        centre = self.floor_at([w * rng.uniform(0.35, 0.65), h * rng.uniform(0.35, 0.65)])[0]
        radius = max(min(w, h) * rng.uniform(0.4, 0.9), self.edge * (1.5 * math.sqrt(max(n, 1)) + 1.5))
        yaw = rng.uniform(0, 2 * math.pi)
        a = yaw + np.arange(k) * 2 * math.pi / k
        stretch = rng.uniform(1.0, 1.5) if k == 4 else 1.0
        poly = np.column_stack([centre[0] + radius * stretch * np.cos(a), centre[1] + radius * np.sin(a)])
        height, slant = self.edge * rng.uniform(0.5, 1.6), math.radians(rng.uniform(0, 40))
        if rng.uniform() < 0.25:
            # A dice cup or a deep round bowl seen from above: the dice lie close together at the
            # bottom of tall, nearly upright walls.
            k, stretch = 36, 1.0
            radius = self.edge * (1.5 * math.sqrt(max(n, 1)) + 1.5) * rng.uniform(1.0, 1.4)
            a = yaw + np.arange(k) * 2 * math.pi / k
            poly = np.column_stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a)])
            height, slant = self.edge * rng.uniform(2.0, 4.0), math.radians(rng.uniform(0, 12))
        kind = str(rng.choice(_TRAY_KINDS, p=_TRAY_P))
        floor = _surface_colour(rng, kind)
        wall = floor * rng.uniform(0.75, 1.0) if rng.uniform() < 0.6 else _surface_colour(rng, "plain")
        rim = wall * rng.uniform(0.6, 1.1) if rng.uniform() < 0.6 else _hsv(rng.uniform(0, 360), rng.uniform(0, 0.5), rng.uniform(0.05, 0.5))
        return _Tray(_hull(poly), height, slant, self.edge * rng.uniform(0.08, 0.4), kind, floor,
                     np.asarray(wall, np.float32), np.asarray(rim, np.float32))

    def _pick_table_edge(self, rng) -> tuple[np.ndarray, np.ndarray]:
        """A straight table edge across the view: (a point on it, the unit normal pointing off the table)."""
        w, h = self.size
        a = rng.uniform(0, 2 * math.pi)
        p_img = np.array([w / 2, h / 2]) + np.array([math.cos(a), math.sin(a)]) * rng.uniform(0.3, 0.48) * np.array([w, h])
        p, q = self.floor_at([p_img, np.array([w / 2, h / 2])])
        n = (p - q) / (np.linalg.norm(p - q) + 1e-9)
        return p, n

    def _pick_cup(self, rng) -> _Cup:
        """A dice cup standing at the frame border, partly in view."""
        w, h = self.size
        side = int(rng.integers(4))
        t = rng.uniform(0.15, 0.85)
        uv = [(t * w, 0), (w, t * h), (t * w, h), (0, t * h)][side]
        at, mid = self.floor_at([uv, (w / 2, h / 2)])
        out = (at - mid) / (np.linalg.norm(at - mid) + 1e-9)
        r = self.edge * rng.uniform(1.6, 3.2)
        c = at + out * r * rng.uniform(-0.2, 0.7)
        colour = _hsv(rng.uniform(0, 360), rng.uniform(0, 0.8), rng.uniform(0.08, 0.7))
        height = min(self.edge * rng.uniform(2.0, 4.0), 0.4 * self.cam.c[2])  # well below the camera
        return _Cup(float(c[0]), float(c[1]), r, height, bool(rng.uniform() < 0.5), colour)

    def _pick_hand(self, rng):
        """A hand over the scene (x, y, angle, height, skin colour): reaching in from the frame border,
        its fingers towards the middle, at 2.5-6 dice above the floor and well below the camera."""
        w, h = self.size
        side, t = int(rng.integers(4)), rng.uniform(0.1, 0.9)
        uv = [(t * w, 0), (w, t * h), (t * w, h), (0, t * h)][side]
        at, mid = self.floor_at([uv, (w / 2, h / 2)])
        inward = (mid - at) / (np.linalg.norm(mid - at) + 1e-9)
        z = min(self.edge * rng.uniform(2.5, 6), 0.45 * self.cam.c[2])
        at = at - inward * self.edge * rng.uniform(-1.0, 2.5)
        angle = math.atan2(inward[1], inward[0]) + math.pi / 2 + rng.uniform(-0.5, 0.5)
        skin = _jitter(rng, ((120, 150, 205), (95, 125, 180), (60, 85, 130), (140, 170, 220), (45, 60, 95))[int(rng.integers(5))], 10)
        return float(at[0]), float(at[1]), angle, z, skin

    def _pick_looks(self, rng, n: int) -> list[_DieLook]:
        """One look per die: a matched set, a few sets mixed, or every die its own."""
        mode = rng.uniform()
        kinds = 1 if mode < 0.45 else int(rng.integers(2, 5)) if mode < 0.8 else max(n, 1)
        sets = [_pick_look(rng) for _ in range(kinds)]
        return [sets[int(rng.integers(kinds))] for _ in range(n)]

    # -- placement -----------------------------------------------------------------------------

    def _place(self, rng, n: int) -> None:
        """Lays the dice (some touching, some cocked), then the plain cubes; shrinks the dice a little and
        starts again in the rare scene where they do not fit, and where they still do not, starts over
        without the cup (a large cup beside a deep bowl can leave no room at all)."""
        touch = rng.uniform(0.2, 0.8) if rng.uniform() < 0.5 else 0.0
        cock = rng.uniform(0.1, 0.4) if rng.uniform() < 0.4 else 0.0
        cubes = int(rng.integers(1, 4)) if rng.uniform() < 0.12 else 0
        edge = self.edge
        for attempt in range(24 if self.cup is not None else 12):
            if attempt == 12:  # the cup is only a distractor; the truth does not change without it
                self.cup, self.edge = None, edge
            solids = self._try_place(rng, n, touch, cock)
            if solids is not None:
                extra = self._try_cubes(rng, solids, cubes)
                self.solids = solids + extra
                return
            self.edge *= 0.85
        raise RuntimeError(f"could not lay {n} dice in scene {self.seed}")  # pragma: no cover

    def _try_place(self, rng, n: int, touch: float, cock: float) -> list[_Solid] | None:
        n_cock = int(sum(rng.uniform() < cock for _ in range(n)))
        values = rng.integers(1, 7, n)
        placed: list[_Solid] = []
        for i in range(n):
            look = self.looks[i]
            normal = look.normals[int(values[i])]
            pose = None
            if i >= n - n_cock:
                pose = self._first_fit(rng, placed, lambda: self._cocked(rng, placed, normal, self.s), 60, self.s)
            if pose is None:
                pose = self._first_fit(rng, placed, lambda: self._flat(rng, placed, normal, touch, self.s), 300, self.s)
            if pose is None:
                return None
            placed.append(_Solid(pose, look, self.s))
        return placed

    def _try_cubes(self, rng, placed: list[_Solid], count: int) -> list[_Solid]:
        """Plain cubes without pips (a distractor), smaller than the dice or as large; skipped if no room."""
        extra: list[_Solid] = []
        s = self.s * rng.uniform(0.5, 1.0)
        for _ in range(count):
            normal = (0, 0, 1)
            pose = self._first_fit(rng, placed + extra, lambda: self._flat(rng, [], normal, 0.0, s), 100, s)
            if pose is not None:
                extra.append(_Solid(pose, _pick_look(rng, blank=True), s))
        return extra

    def _first_fit(self, rng, placed: list[_Solid], propose, tries: int, s: float) -> _Pose | None:
        for _ in range(tries):
            pose = propose()
            if pose is not None and self._fits(pose, s, placed):
                return pose
        return None

    def _candidate_xy(self, rng, s: float) -> np.ndarray:
        """A floor point for a die: uniform over the frame (a few dice cut by its border), or over the
        tray's box."""
        if self.tray is not None and rng.uniform() < 0.3:
            return rng.uniform(self.tray.poly.min(0), self.tray.poly.max(0))
        w, h = self.size
        m = -0.4 * s if rng.uniform() < 0.12 else 1.3 * s
        return self.floor_at(rng.uniform([m, m], [w - m, h - m]))[0]

    def _flat(self, rng, placed: list[_Solid], normal, touch: float, s: float) -> _Pose:
        """A die lying flat: anywhere, or against an earlier flat die, sharing most of an edge (as thrown
        dice often come to rest)."""
        flat = [p for p in placed if p.pose.flat]
        if flat and rng.uniform() < touch:
            b = flat[int(rng.integers(len(flat)))]
            m = _sides(b.pose)[int(rng.integers(4))]
            t = np.array([-m[1], m[0]])
            xy = b.pose.centre[:2] + m * (b.s + s) * rng.uniform(1.01, 1.06) + t * 2 * s * rng.uniform(-0.45, 0.45)
            yaw = math.atan2(m[1], m[0]) + rng.uniform(-0.08, 0.08)
        else:
            xy, yaw = self._candidate_xy(rng, s), rng.uniform(0, 2 * math.pi)
        return _flat_pose(xy[0], xy[1], yaw, normal, s)

    def _cocked(self, rng, placed: list[_Solid], normal, s: float) -> _Pose | None:
        """A cocked die: tilted 15-42 degrees, its lowest edge on the floor and its raised edge propped
        against the side of a flat die or the tray wall (the stable way a die comes to rest cocked)."""
        flat = [p for p in placed if p.pose.flat and p.s == s]
        walls = self.tray is not None and self.tray.height > 2.8 * s
        if walls and (not flat or rng.uniform() < 0.4):
            return self._against_wall(rng, normal, s)
        if not flat:
            return None
        b = flat[int(rng.integers(len(flat)))]
        m = _sides(b.pose)[int(rng.integers(4))]  # from the support towards the cocked die
        t = np.array([-m[1], m[0]])
        d = np.array([-m[0], -m[1], 0.0])
        base = b.pose.centre[:2] + m * 3.2 * s + t * s * rng.uniform(-0.6, 0.6)
        face = np.array([*(b.pose.centre[:2] + m * b.s), 0.0])
        pose = _lean(_cocked_rotation(rng, normal, d[:2]), s, base, d, face, d)
        return pose if _contact_height(pose, s, face, d) < 1.9 * b.s else None

    def _against_wall(self, rng, normal, s: float) -> _Pose | None:
        tray = self.tray
        k = len(tray.poly)
        i = int(rng.integers(k))
        a, b = tray.poly[i], tray.poly[(i + 1) % k]
        e = (b - a) / np.linalg.norm(b - a)
        out = np.array([e[1], -e[0]])  # outward: the polygon is counter-clockwise
        at = a + (b - a) * rng.uniform(0.2, 0.8)
        d = np.array([out[0], out[1], 0.0])
        plane_n = np.array([out[0] * math.cos(tray.slant), out[1] * math.cos(tray.slant), -math.sin(tray.slant)])
        pose = _lean(_cocked_rotation(rng, normal, out), s, at - out * 3.2 * s, d, np.array([a[0], a[1], 0.0]), plane_n)
        return pose if _contact_height(pose, s, np.array([a[0], a[1], 0.0]), plane_n) < 0.9 * tray.height else None

    def _fits(self, pose: _Pose, s: float, placed: list[_Solid]) -> bool:
        """On the allowed floor, its centre in view (or nearly), clear of every other solid."""
        corners = _corners(pose, s)
        if not self.in_view(pose.centre[None], 0.6 * s)[0]:
            return False
        if self.tray is not None:
            low = corners[corners[:, 2] < 0.3 * s, :2]
            top_in = _offset(self.tray.poly, self.tray.height * math.tan(self.tray.slant) + 0.02 * s)
            if not (np.all(_inside(_offset(self.tray.poly, 0.02 * s), low)) and np.all(_inside(top_in, corners[:, :2]))):
                return False
        if self.table_edge is not None:
            p, nrm = self.table_edge
            if np.any((corners[:, :2] - p) @ nrm > -0.2 * s):
                return False
        if self.cup is not None and math.hypot(pose.centre[0] - self.cup.x, pose.centre[1] - self.cup.y) < self.cup.r + 1.8 * s:
            return False
        fp = _footprint(pose, s)
        return not any(_overlap(fp, _footprint(o.pose, o.s), tol=0.02 * s) for o in placed)

    # -- truth ---------------------------------------------------------------------------------

    def depth_order(self) -> list:
        """Solids and the cup, far to near from the camera (the order they are drawn in)."""
        items = list(self.solids) + ([self.cup] if self.cup is not None else [])
        def far(it):
            c = it.pose.centre if isinstance(it, _Solid) else np.array([it.x, it.y, it.height / 2])
            return -float(np.linalg.norm(c - self.cam.c))
        return sorted(items, key=far)

    def faces(self, solid: _Solid) -> list[tuple[int, np.ndarray, bool]]:
        """(value, world normal, turned to the camera) of each face of a solid."""
        out = []
        for v, n in solid.look.normals.items():
            nw = solid.pose.rot @ np.asarray(n, float)
            fc = solid.pose.centre + nw * solid.s
            out.append((v, nw, float(nw @ (self.cam.c - fc)) > 1e-6))
        return out

    def face_outline(self, solid: _Solid, value: int) -> np.ndarray:
        """(K, 2) px: the projected rounded outline of one face of a solid."""
        pts = solid.pose.centre + (_outline_cached(tuple(solid.look.normals[value]), solid.look.corner) @ solid.pose.rot.T) * solid.s
        return self.cam.project(pts)

    def silhouette(self, item) -> np.ndarray:
        """(M, 2) px convex outline of a solid (its faces turned to the camera) or of the cup."""
        key = id(item)
        if key not in self._silhouettes:
            if isinstance(item, _Cup):
                self._silhouettes[key] = _hull(self.cam.project(item.points()))
            else:
                pts = [self.face_outline(item, v) for v, _, seen in self.faces(item) if seen]
                self._silhouettes[key] = _hull(np.vstack(pts))
        return self._silhouettes[key]

    def front_walls(self) -> list[tuple[np.ndarray, np.ndarray, BGR]]:
        """(world quad, normal, colour) of the tray's wall pieces nearer the camera than the dice."""
        return _wall_pieces(self, front=True)

    def hand_pieces(self) -> list[np.ndarray]:
        if self.hand is None:
            return []
        x, y, a, z, _ = self.hand
        return _hand_pieces(x, y, a, z, self.edge)

    def truth(self) -> tuple[SceneDie, ...]:
        """A ``SceneDie`` per die (not the plain cubes), in the order they were laid."""
        order = self.depth_order()
        after = [self.silhouette(it) for it in order]
        last = [self.cam.project(q) for q, _, _ in self.front_walls()] + [self.cam.project(p) for p in self.hand_pieces()]
        out = []
        for solid in self.solids:
            if solid.look.blank:
                continue
            k = next(i for i, it in enumerate(order) if it is solid)
            out.append(self._die_truth(solid, _visible_share(after[k], after[k + 1:] + last, self.size)))
        return tuple(out)

    def _die_truth(self, solid: _Solid, visible: float) -> SceneDie:
        ups = {v: float(nw[2]) for v, nw, _ in self.faces(solid)}
        value = max(ups, key=ups.get)
        n = np.asarray(solid.look.normals[value], float)
        c = self.cam.project((solid.pose.centre + solid.pose.rot @ n * solid.s)[None])[0]
        top = self.face_outline(solid, value).astype(np.float32)
        top.setflags(write=False)
        u, v, _ = _AXES[tuple(n)]
        spots = np.array([n + a * u + b * v for a, b, _, _ in _pip_spots(solid.look, value)])
        pips = self.cam.project(solid.pose.centre + (spots @ solid.pose.rot.T) * solid.s).astype(np.float32)
        pips.setflags(write=False)
        hull = self.silhouette(solid)
        x0, y0 = np.floor(hull.min(axis=0)).astype(int)
        x1, y1 = np.ceil(hull.max(axis=0)).astype(int)
        return SceneDie(value=int(value), center=(float(c[0]), float(c[1])), top=top,
                        box=(int(x0), int(y0), int(x1 - x0), int(y1 - y0)), flat=solid.pose.flat,
                        visible=round(visible, 4), pips=pips)


def _sides(pose: _Pose) -> list[np.ndarray]:
    """The four horizontal outward normals (world x, y) of a flat die's side faces."""
    out = []
    for k in range(3):
        axis = pose.rot[:, k]
        if abs(axis[2]) < 0.5:
            a = axis[:2] / np.linalg.norm(axis[:2])
            out += [a, -a]
    return out


def _contact_height(pose: _Pose, s: float, plane_p: np.ndarray, plane_n: np.ndarray) -> float:
    """The height of the die's corner that touches the support plane (the highest if an edge does)."""
    corners = _corners(pose, s)
    dist = (corners - plane_p) @ plane_n
    return float(corners[dist > dist.max() - 1e-6 * s - 1e-9, 2].max())


@functools.lru_cache(maxsize=256)
def _outline_cached(normal: tuple, corner: float) -> np.ndarray:
    return _outline(normal, corner)


def _visible_share(hull: np.ndarray, occluders: list[np.ndarray], size: tuple[int, int]) -> float:
    """The share of a convex silhouette (px) inside the frame and not covered by the occluders, counted
    on a mask of at most 64 px across."""
    lo, hi = hull.min(axis=0), hull.max(axis=0)
    k = min(4.0, 64.0 / max(float((hi - lo).max()), 1e-6))
    off = lo - 1 / k
    shape = (int(math.ceil((hi[1] - lo[1]) * k)) + 3, int(math.ceil((hi[0] - lo[0]) * k)) + 3)
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, _fix((hull - off) * k), 255, cv2.LINE_8, 4)
    total = cv2.countNonZero(mask)
    if total == 0:
        return 0.0
    w, h = size
    frame = np.zeros_like(mask)
    cv2.fillConvexPoly(frame, _fix((np.array([[0, 0], [w, 0], [w, h], [0, h]], float) - off) * k), 255, cv2.LINE_8, 4)
    cv2.bitwise_and(mask, frame, dst=mask)
    for occ in occluders:
        if (occ.max(axis=0) < lo).any() or (occ.min(axis=0) > hi).any():
            continue
        cv2.fillConvexPoly(mask, _fix((_hull(occ) - off) * k), 0, cv2.LINE_8, 4)
    return cv2.countNonZero(mask) / total


# --------------------------------------------------------------------------------------------------
# Painting


def _wall_pieces(scene: _Scene, front: bool) -> list[tuple[np.ndarray, np.ndarray, BGR]]:
    """The tray's visible wall pieces (world quad, normal, colour) in one group, far to near: the back
    group (inner faces and their rims, drawn before the dice) or the front (outer faces the camera sees
    over the floor, drawn after the dice)."""
    tray = scene.tray
    if tray is None:
        return []
    pieces = tray.wall_quads()
    k = len(tray.poly)
    out_normals = []
    for i in range(k):
        e = tray.poly[(i + 1) % k] - tray.poly[i]
        out_normals.append(np.array([e[1], -e[0], 0.0]) / np.linalg.norm(e))
    def normal(kind, i):
        m = out_normals[i]
        if kind == "inner":
            return -m * math.cos(tray.slant) + np.array([0, 0, math.sin(tray.slant)])
        return np.array([0.0, 0.0, 1.0]) if kind == "rim" else m
    def seen(quad, n):
        return float(n @ (scene.cam.c - quad.mean(axis=0))) > 0
    is_front = [seen(q, normal(kind, i)) for kind, i, q in pieces if kind == "outer"]
    chosen = []
    for kind, i, q in pieces:
        n = normal(kind, i)
        if is_front[i] != front or (kind != "rim" and not seen(q, n)):
            continue
        colour = tray.rim if kind == "rim" else tray.wall
        chosen.append((q, n, colour))
    chosen.sort(key=lambda p: -float(np.linalg.norm(p[0].mean(axis=0) - scene.cam.c)))
    return chosen


def _draw_walls(scene: _Scene, frame: np.ndarray, pieces, falloff) -> None:
    for quad, n, colour in pieces:
        light = _shade(n, scene.lights, scene.ambient) * falloff(quad.mean(axis=0))
        _fill(frame, scene.cam.project(quad), np.asarray(colour) * light)


_CODES = {v: (40 * v, 255 - 40 * v, 100 + 20 * v) for v in range(1, 7)}  # flat face colours of the truth check
_LEVELS = (16, 24, 32, 48, 64, 96, 128, 192, 256)


def _texture_size(quads: list[np.ndarray]) -> int:
    """The texture level for a die whose faces span these image quads: at least 1.25 texels per px
    along the longest face edge (mip-mapping by halves keeps small dice from sparkling)."""
    longest = max(float(np.max(np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1))) for q in quads)
    want = 1.25 * longest
    return next((t for t in _LEVELS if t >= want), _LEVELS[-1])


def _warp_face(frame: np.ndarray, tex: np.ndarray, quad: np.ndarray) -> None:
    """Blends a premultiplied (T, T, 4) face texture onto ``frame`` (uint8 BGR) inside the image quad
    (4, 2) px of the face's corners (u, v) = (-1, -1), (1, -1), (1, 1), (-1, 1): warping only the quad's
    bounding box."""
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    t = tex.shape[0]
    src = np.float32([[-0.5, -0.5], [t - 0.5, -0.5], [t - 0.5, t - 0.5], [-0.5, t - 0.5]])
    m = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    out = roi * (1 - warped[:, :, 3:4]) + warped[:, :, :3]
    frame[y0:y1, x0:x1] = cv2.convertScaleAbs(out)


def _glare(scene: _Scene, solid: _Solid, nw: np.ndarray, u: np.ndarray, v: np.ndarray, size: int):
    """(size, size) float32 specular glare of the lights on one face (0-1 or more), or None: around where
    the mirror reflection of each light reaches the camera, spread by the light's size."""
    if solid.look.gloss < 0.05:
        return None
    fc = solid.pose.centre + nw * solid.s
    spot = None
    for lt in scene.lights:
        nl = float(nw @ lt.to)
        if nl <= 0:
            continue
        r = 2 * nl * nw - lt.to
        p = scene.cam.c - r * float((scene.cam.c - fc) @ nw) / float(r @ nw)
        pu, pv = float((p - fc) @ u) / solid.s, float((p - fc) @ v) / solid.s
        # A lamp or window is no point: its mirror image on the face spans its angular size (0.03-0.38
        # rad, the softer the wider and dimmer) times the camera's distance, in face units.
        angle = 0.03 + 0.35 * lt.soft
        sigma = angle * float(np.linalg.norm(scene.cam.c - fc)) / solid.s
        if max(abs(pu), abs(pv)) > 1 + 2.5 * sigma:
            continue
        gu, gv = _face_grid(size)
        strength = solid.look.gloss * float(lt.colour.mean()) * (1.8 - 1.2 * lt.soft)
        g = np.exp(-((gu - pu) ** 2 + (gv - pv) ** 2) / (2 * sigma * sigma)) * strength
        spot = g if spot is None else spot + g
    return spot


def _draw_solid(scene: _Scene, frame: np.ndarray, solid: _Solid, falloff, codes: bool) -> None:
    """A die or plain cube: its silhouette in the darkest lit body colour (the rounded edges between the
    faces), then each face turned to the camera, textured, shaded and glared. A translucent die shows
    its far faces faintly through its body first."""
    faces = scene.faces(solid)
    axes = {v: _world_axes(solid, v) for v, _, _ in faces}
    quads = {v: scene.cam.project(solid.pose.centre + solid.s * (nw + np.outer(_UV[0], axes[v][0]) + np.outer(_UV[1], axes[v][1])))
             for v, nw, _ in faces}
    if codes:
        for v, _, seen in faces:
            if seen:
                cv2.fillConvexPoly(frame, _fix(scene.face_outline(solid, v)), _CODES[v], cv2.LINE_8, 4)
        return
    look = solid.look
    light = falloff(solid.pose.centre)
    shades = {v: _shade(nw, scene.lights, scene.ambient) * light for v, nw, _ in faces}
    size = _texture_size([quads[v] for v, _, seen in faces if seen])
    tex = _textures(look, size)
    seen_faces = [(v, nw) for v, nw, seen in faces if seen]
    if look.alpha < 1:
        for v, nw, seen in faces:
            if not seen:
                _warp_face(frame, tex[v] * np.append(shades[v], 1.0).astype(np.float32) * 0.35, quads[v])
    else:
        darkest = min((shades[v] for v, _ in seen_faces), key=lambda c: float(c.sum()))
        _fill(frame, scene.silhouette(solid), look.body * darkest * 0.8)
    for v, nw in seen_faces:
        shaded = tex[v] * np.append(shades[v], 1.0).astype(np.float32)
        spot = _glare(scene, solid, nw, *axes[v], size)
        if spot is not None:
            shaded[:, :, :3] += (spot * 255 * tex[v][:, :, 3])[:, :, None]
        _warp_face(frame, shaded, quads[v])


# Face corners (u, v) in the order _warp_face maps the texture's corners.
_UV = (np.array([-1.0, 1.0, 1.0, -1.0]), np.array([-1.0, -1.0, 1.0, 1.0]))


def _world_axes(solid: _Solid, value: int) -> tuple[np.ndarray, np.ndarray]:
    """The world directions of a face's texture axes u and v."""
    fu, fv, _ = _AXES[tuple(solid.look.normals[value])]
    return solid.pose.rot @ fu, solid.pose.rot @ fv


def _draw_cup(scene: _Scene, frame: np.ndarray, cup: _Cup, falloff) -> None:
    """The cup: its side as shaded vertical strips (far to near), then its top: the rim and the dark
    inside of an open cup, or the closed base of an upturned one."""
    n = 36
    base, top = cup.ring(0.0, 1.0, n), cup.ring(cup.height, cup.top_scale(), n)
    light = falloff(np.array([cup.x, cup.y, cup.height / 2]))
    strips = []
    for i in range(n):
        j = (i + 1) % n
        quad = np.array([base[i], base[j], top[j], top[i]])
        a = 2 * math.pi * (i + 0.5) / n
        nw = np.array([math.cos(a), math.sin(a), 0.0])
        if float(nw @ (scene.cam.c - quad.mean(axis=0))) > 0:
            strips.append((quad, nw))
    strips.sort(key=lambda q: -float(np.linalg.norm(q[0].mean(axis=0) - scene.cam.c)))
    for quad, nw in strips:
        _fill(frame, scene.cam.project(quad), cup.colour * _shade(nw, scene.lights, scene.ambient) * light)
    up = _shade(np.array([0.0, 0.0, 1.0]), scene.lights, scene.ambient) * light
    _fill(frame, scene.cam.project(top), cup.colour * up * (1.1 if cup.open else 1.0))
    if cup.open:
        inner = cup.ring(cup.height, 0.86, n)
        _fill(frame, scene.cam.project(inner), cup.colour * up * 0.25)


def _draw_hand(scene: _Scene, frame: np.ndarray, falloff) -> None:
    skin = scene.hand[4]
    for i, piece in enumerate(scene.hand_pieces()):
        light = _shade(np.array([0.0, 0.0, 1.0]), scene.lights, scene.ambient) * falloff(piece.mean(axis=0))
        _fill(frame, _hull(scene.cam.project(piece)), skin * light * (1.0 if i == 0 else 0.93))


def _floor_texture(scene: _Scene, rng) -> tuple[np.ndarray, np.ndarray]:
    """The floor as the camera sees it before light: (H, W, 3) uint8 BGR, and the 3x3 texel -> image
    homography. The texture covers the floor in view in world coordinates, at about one texel per
    frame px, so that grain, weave, hexes and things on the table all take the perspective."""
    w, h = scene.size
    corners_img = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    corners = scene.floor_at(corners_img)
    lo, hi = corners.min(axis=0) - scene.edge, corners.max(axis=0) + scene.edge
    side = float(np.clip(1.1 * max(w, h), 256, _TILE))
    dt = side / float((hi - lo).max())
    tw, th = int(math.ceil((hi[0] - lo[0]) * dt)), int(math.ceil((hi[1] - lo[1]) * dt))
    d = scene.edge * dt
    to_tex = lambda p: (np.asarray(p, float) - lo) * dt
    tex = _surface(rng, scene.table_kind, th, tw, d, _surface_colour(rng, scene.table_kind))
    if scene.tray is None and scene.table_kind in ("plain", "wood", "cloth") and rng.uniform() < 0.15:
        _print_hexes(rng, tex, d)  # a board game laid on the table
    if scene.tray is not None:
        mask = np.zeros((th, tw), np.uint8)
        cv2.fillPoly(mask, [_fix(to_tex(_offset(scene.tray.poly, 0.5 * scene.tray.thick)))], 1, cv2.LINE_8, 4)
        inner = _surface(rng, scene.tray.kind, th, tw, d, scene.tray.floor)
        np.copyto(tex, inner, where=mask[:, :, None].astype(bool))
    for _ in range(int(rng.choice([0, 0, 1, 2, 3, 4, 6, 9]))):
        item = _ITEMS[int(rng.integers(len(_ITEMS)))]
        uv = rng.uniform((0, 0), (w, h))
        if item is _device:  # a phone or laptop lies at the side: only its corner comes into view
            axis = int(rng.integers(2))
            uv[axis] = (w, h)[axis] * rng.choice([-0.05, 1.05])
        at = scene.floor_at(uv)[0]
        if scene.tray is not None and item not in (_coin, _specks) and _inside(scene.tray.poly, at[None])[0]:
            continue  # coins and crumbs end up in a tray; phones, cables and sheets lie beside it
        c = to_tex(at)
        item(rng, tex, (int(c[0]), int(c[1])), d)
    if scene.table_edge is not None:
        _draw_table_edge(rng, tex, to_tex, scene.table_edge, d)
    world_to_img = cv2.getPerspectiveTransform(corners.astype(np.float32), corners_img.astype(np.float32))
    tex_to_world = np.array([[1 / dt, 0, lo[0]], [0, 1 / dt, lo[1]], [0, 0, 1]])
    m = world_to_img @ tex_to_world
    img = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return img, m


def _draw_table_edge(rng, tex, to_tex, edge, d) -> None:
    """Beyond the table's edge: the floor far below (dark, plain) and a band of the edge's own face."""
    p, n = edge
    t = np.array([-n[1], n[0]])
    big = 1e5
    beyond = to_tex([p - t * big, p + t * big, p + t * big + n * big, p - t * big + n * big])
    _fill(tex, beyond, _surface_colour(rng, "plain") * rng.uniform(0.2, 0.6))
    band = to_tex([p - t * big, p + t * big]).astype(np.float64)
    colour = tex[int(np.clip(band[0, 1], 0, tex.shape[0] - 1)), int(np.clip(band[0, 0], 0, tex.shape[1] - 1))]
    cv2.line(tex, _i16(band[0]), _i16(band[1]), (np.asarray(colour) * rng.uniform(0.5, 1.3)).tolist(),
             max(1, int(d * rng.uniform(0.1, 0.4))), cv2.LINE_AA, 4)


def _light_map(scene: _Scene, rng) -> tuple[np.ndarray, np.ndarray, int]:
    """The light falling on the floor, on a small map (1/q of the frame): ambient plus each light with
    its soft shadows, darker where solids touch the floor (contact shadows), glare on glossy floors, all
    times the lens falloff (vignetting, a nearby lamp). Returns (light (h, w, 3) float32, falloff
    (h, w) float32, q)."""
    w, h = scene.size
    q = max(2, int(round(max(w, h) / 240)))
    sw, sh = int(math.ceil(w / q)), int(math.ceil(h / q))
    falloff = _falloff(rng, sw, sh)
    ao = np.zeros((sh, sw), np.uint8)
    for solid in scene.solids:
        fp = _footprint(solid.pose, solid.s * 1.08)
        cv2.fillConvexPoly(ao, _fix(scene.cam.project(np.column_stack([fp, np.zeros(len(fp))])) / q), 255, cv2.LINE_AA, 4)
    ao = cv2.GaussianBlur(ao, (0, 0), max(0.6, 0.15 * scene.edge / q)).astype(np.float32) / 255
    light = scene.ambient[None, None, :] * (1 - 0.45 * ao)[:, :, None]
    for lt in scene.lights:
        shadow = _shadow_mask(scene, lt, q, (sw, sh))
        lit = (1 - shadow) * (1 - 0.25 * ao)
        light = light + lit[:, :, None] * (lt.colour * lt.to[2])[None, None, :]
    if scene.table_kind in ("wood", "plain", "paper", "stone") and rng.uniform() < 0.35:
        light = light + _floor_glare(scene, rng, q, (sw, sh))
    return light * falloff[:, :, None], falloff, q


def _falloff(rng, sw: int, sh: int) -> np.ndarray:
    """(sh, sw) float32: vignetting (darker corners, the stronger the wider... any lens) and now and then
    the bright pool of a lamp close to the table."""
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    cx, cy = sw * rng.uniform(0.4, 0.6), sh * rng.uniform(0.4, 0.6)
    r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (0.25 * (sw * sw + sh * sh))
    out = 1 - (rng.uniform(0.1, 0.6) if rng.uniform() < 0.65 else 0.0) * r2
    if rng.uniform() < 0.3:
        lx, ly = rng.uniform(0, sw), rng.uniform(0, sh)
        sigma2 = (rng.uniform(0.2, 0.6) * max(sw, sh)) ** 2
        out = out * (0.8 + rng.uniform(0.3, 0.6) * np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / (2 * sigma2)))
    return np.clip(out, 0.15, 2.0).astype(np.float32)


def _shadow_mask(scene: _Scene, lt: _Light, q: int, size: tuple[int, int]) -> np.ndarray:
    """(h, w) float32 0-1: where this light is blocked (dice, cubes, the cup, tray walls, the hand),
    blurred by the light's softness."""
    mask = np.zeros(size[::-1], np.uint8)
    lz = max(float(lt.to[2]), 0.3)

    def cast(pts, value=255):
        floor = pts - np.outer(pts[:, 2] / lz, lt.to)
        cv2.fillConvexPoly(mask, _fix(_hull(scene.cam.project(floor) / q)), value, cv2.LINE_AA, 4)

    for solid in scene.solids:
        cast(_corners(solid.pose, solid.s), 255 if solid.look.alpha >= 1 else 150)
    if scene.cup is not None:
        cast(scene.cup.points())
    if scene.tray is not None:
        top = _offset(scene.tray.poly, scene.tray.height * math.tan(scene.tray.slant))
        k = len(top)
        for i in range(k):
            j = (i + 1) % k
            cast(np.array([[*scene.tray.poly[i], 0], [*scene.tray.poly[j], 0], [*top[j], scene.tray.height], [*top[i], scene.tray.height]]))
    for piece in scene.hand_pieces():
        cast(piece, 200)
    sigma = (0.4 + lt.soft * 0.4 * scene.edge) / q
    return cv2.GaussianBlur(mask, (0, 0), max(0.5, sigma)).astype(np.float32) / 255


def _floor_glare(scene: _Scene, rng, q: int, size: tuple[int, int]) -> np.ndarray:
    """The lamps mirrored in a glossy table: a soft bright spot where each light's reflection meets the
    camera, (h, w, 3) float32 to add to the light."""
    sw, sh = size
    out = np.zeros((sh, sw, 3), np.float32)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    gloss = rng.uniform(0.2, 0.9)
    for lt in scene.lights:
        r = np.array([-lt.to[0], -lt.to[1], lt.to[2]])
        p = scene.cam.c - r * scene.cam.c[2] / r[2]
        u, v = scene.cam.project(p[None])[0] / q
        sigma = (0.04 + 0.2 * lt.soft) * max(sw, sh)
        g = np.exp(-((xx - u) ** 2 + (yy - v) ** 2) / (2 * sigma * sigma)) * gloss
        out += g[:, :, None] * lt.colour[None, None, :]
    return out


def _sensor(rng, img: np.ndarray) -> np.ndarray:
    """What the lens, sensor, ISP and codec do: defocus or motion blur, noise, gamma and contrast,
    down-then-up scaling, salt-and-pepper specks, greyscale, JPEG."""
    h, w = img.shape[:2]
    k = max(w, h) / 640
    if rng.uniform() < 0.55:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.6) * k)
    if rng.uniform() < 0.1:
        n = max(3, int(rng.uniform(3, 12) * k)) | 1
        kernel = np.zeros((n, n), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(kernel, (int(n / 2 - n / 2 * math.cos(a)), int(n / 2 - n / 2 * math.sin(a))),
                 (int(n / 2 + n / 2 * math.cos(a)), int(n / 2 + n / 2 * math.sin(a))), 1.0, 1)
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1))
    if rng.uniform() < 0.85:
        img = _add_noise(rng, img, float(math.exp(rng.uniform(math.log(0.8), math.log(10)))))
    img = cv2.LUT(img, _tone_curve(rng))
    if rng.uniform() < 0.25:
        f = rng.uniform(0.35, 0.8)
        small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=(cv2.INTER_LINEAR, cv2.INTER_CUBIC)[int(rng.integers(2))])
    if rng.uniform() < 0.08:
        count = int(w * h * rng.uniform(0.001, 0.01))
        ys, xs = rng.integers(0, h, count), rng.integers(0, w, count)
        img[ys, xs] = np.where(rng.uniform(size=count) < 0.5, 0, 255)[:, None].astype(np.uint8)
    if rng.uniform() < 0.06:
        img = _analogue(rng, img)
    if rng.uniform() < 0.15:
        img = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.uniform() < 0.65:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 96))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def _analogue(rng, img: np.ndarray) -> np.ndarray:
    """An analogue video camera through a capture card (a PAL or NTSC camera over a table): colour
    smeared along the lines (the chroma's narrow bandwidth), the picture a little soft across, and
    either the two fields of an interlaced frame a pixel or two apart (combing) or one field's lines
    doubled."""
    ycc = cv2.cvtColor(img, cv2.COLOR_BGR2YCrCb)
    smear = int(rng.integers(2, 5)) * 2 + 1
    ycc[:, :, 1:] = cv2.blur(ycc[:, :, 1:], (smear, 1))
    ycc[:, :, 0] = cv2.GaussianBlur(ycc[:, :, 0], (0, 0), sigmaX=rng.uniform(0.5, 1.2), sigmaY=0.1)
    img = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
    if rng.uniform() < 0.5:
        img[1::2] = np.roll(img[1::2], int(rng.choice([-2, -1, 1, 2])), axis=1)
    else:
        img[1::2] = img[0:img.shape[0] - 1:2][: len(img[1::2])]
    return img


def _add_noise(rng, img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian sensor noise of ``sigma`` grey levels: a random window of the fixed noise tile (fresh
    noise per frame would cost as much as the rest of the sensor step)."""
    h, w = img.shape[:2]
    tile = _sensor_tile()
    if h > tile.shape[0] or w > tile.shape[1]:
        noise = np.empty((h, w, 3), np.int16)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, 0, sigma)
        return cv2.add(img, noise, dtype=cv2.CV_8U)
    y, x = int(rng.integers(0, tile.shape[0] - h + 1)), int(rng.integers(0, tile.shape[1] - w + 1))
    return cv2.addWeighted(img, 1.0, tile[y:y + h, x:x + w], sigma / 16, 0.0, dtype=cv2.CV_8U)


def _tone_curve(rng) -> np.ndarray:
    """(256,) uint8 lookup table: a gamma of 0.7-1.4 and a mild S-curve or flat contrast."""
    x = np.arange(256, dtype=np.float32) / 255
    y = x ** rng.uniform(0.7, 1.4)
    c = rng.uniform(-0.25, 0.35)
    y = y + c * (y - 0.5) * (1 - np.abs(2 * y - 1))  # S-curve up or down around the middle
    return np.clip(np.round(y * 255), 0, 255).astype(np.uint8)


def _paint(scene: _Scene, codes: bool = False) -> np.ndarray:
    """The scene's image, (H, W, 3) uint8 BGR. With ``codes`` (the truth check): only the dice's faces
    and every occluder, each face a flat colour of its value (``_CODES``), no texture, light or sensor."""
    rng = np.random.default_rng([scene.seed, 2])
    w, h = scene.size
    if codes:
        frame = np.zeros((h, w, 3), np.uint8)
        falloff = lambda p: 1.0
    else:
        floor, _ = _floor_texture(scene, rng)
        light, fall, q = _light_map(scene, rng)
        frame = cv2.convertScaleAbs(floor.astype(np.float32) * cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR))

        def falloff(p):
            u, v = scene.cam.project(np.asarray(p, float)[None])[0] / q
            return float(fall[int(np.clip(v, 0, fall.shape[0] - 1)), int(np.clip(u, 0, fall.shape[1] - 1))])

        _draw_walls(scene, frame, _wall_pieces(scene, front=False), falloff)
    for item in scene.depth_order():
        if isinstance(item, _Cup):
            _draw_cup(scene, frame, item, falloff)
        else:
            _draw_solid(scene, frame, item, falloff, codes)
    _draw_walls(scene, frame, scene.front_walls(), falloff)
    if scene.hand is not None:
        _draw_hand(scene, frame, falloff)
    return frame if codes else _sensor(rng, frame)
