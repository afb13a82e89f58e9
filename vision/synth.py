"""The synthetic dice table: seeded, realistic top-down frames of dice on a tray, and scripted throws.

Two ways in:

- ``render_still(values, seed=...)`` draws one frame of dice lying still and returns it with the
  ground truth (a ``Die`` per die: value, centre, top-face box). The reader's tests use it.
- ``SyntheticTable`` is a frame source (``read() -> Frame``, ``close()``) with a scripted API: the
  caller says "throw these values now" (``throw``), "a hand passes over" (``pass_hand``), "nudge die
  1" (``nudge``), "put the cup over the dice" / "lift the cup" (``cover`` / ``lift``, Mäxle), "clear
  the tray" (``clear``). Frames run on virtual time: frame ``i`` is at ``i / fps`` seconds. ``truth``
  says what the last frame showed. The demo, the kiosk tests and the settle tests use it.

How a frame is made (all seeded, nothing read from disk): a pinhole camera at ``TableLook.distance``
above the tray, tilted by ``tilt_deg``, looks at a tray (felt colour, wall rim, table around it,
vignette, fixed felt grain) baked once per table. Each die is a cube with pips on all six faces
(opposite faces sum to 7), posed by a 3-D rotation, shaded by one light direction; its side faces show
near the image edges as they do under a real lens. Soft shadows are drawn on a quarter-size mask and
blurred. Then glare spots, a Gaussian blur and sensor noise (a bank of seeded noise tiles picked at a
random offset per frame, so that no two frames are ever bit-identical, as with a real sensor).

A throw: each die comes in from outside the tray, rolling (a cube rolling 90 degrees per die length
travelled, so the face up changes as it goes) and spinning, slowing down (ease-out) until it lies flat
with the thrown value up; then it is still. World units are pixels at the image centre (for a flat
camera the tray plane maps 1:1 at the centre); the world is right-handed with z up, so y runs up the
image.

Speed: a 640x480 frame with 5 dice renders in a few ms on one core (``benchmarks/watch_speed.py``).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.reading import Die
from vision.frames import EndOfFrames, Frame, SourceClosed

BGR = tuple[int, int, int]

# --------------------------------------------------------------------------------------------------
# Looks


@dataclass(frozen=True)
class DieStyle:
    """The colours of one kind of die: ``body`` and ``pip`` as BGR 0-255 tuples."""

    name: str
    body: BGR
    pip: BGR


# Common real dice: the appliance's recommended white-with-black first (hardware.md), then the
# casino red, and the coloured sets of bar dice cups.
STYLES: tuple[DieStyle, ...] = (
    DieStyle("white", (236, 238, 240), (25, 25, 28)),
    DieStyle("ivory", (200, 228, 240), (30, 28, 26)),
    DieStyle("red", (40, 30, 200), (245, 245, 245)),
    DieStyle("black", (35, 33, 32), (240, 240, 240)),
    DieStyle("blue", (170, 90, 30), (245, 245, 245)),
    DieStyle("green", (60, 140, 30), (245, 245, 245)),
    DieStyle("yellow", (40, 200, 235), (30, 30, 30)),
    DieStyle("white-red-pips", (232, 236, 238), (40, 30, 190)),
)
STYLE_BY_NAME = {s.name: s for s in STYLES}

# Tray felts and boards (BGR): green felt, blue felt, red felt, light grey board, dark wood.
TRAYS: tuple[BGR, ...] = ((60, 110, 40), (120, 70, 30), (40, 40, 120), (190, 190, 185), (40, 60, 90))
TABLES: tuple[BGR, ...] = ((30, 45, 70), (20, 25, 30), (70, 80, 95))
SKINS: tuple[BGR, ...] = ((120, 150, 205), (95, 125, 180), (60, 85, 130), (140, 170, 220))


@dataclass(frozen=True)
class TableLook:
    """Everything about how a table looks and how the camera sees it.

    size: (W, H) of the frames in px.
    die_px: the edge of a die's top face in px at the image centre (default 7.5% of W, or of the
        4:3 frame's width for a wider one: the same camera over the same tray at 16:9 sees its dice
        as large, and they and a cup still fit on the tray).
    distance: camera height above the tray in world units (px at the centre); smaller means a wider
        lens and more of the dice's side faces near the image edges. Default 1.3 x W (about 42 degrees
        horizontal field of view).
    tilt_deg: camera tilt from straight down, degrees (a perspective tilt of the tray).
    roll_deg: camera rotation about its optical axis, degrees.
    tray: felt colour (BGR); table: the surface around the tray (BGR).
    tray_frac: the tray's floor as a fraction of the view (W, H); its wall rim lies just outside.
    light: direction towards the light in world axes (x right, y up the image, z up towards the
        camera), need not be unit length.
    ambient: the share of light that reaches faces turned away from the light, 0-1.
    styles: die style names; each die takes them in turn (one name: a matched set).
    noise: sensor noise sigma in grey levels; blur: Gaussian blur sigma in px (0: none).
    glare: strength 0-1 of the soft specular spots of the lamp; 0 for none.
    side_pips: draw pips on the visible side faces (real dice have them; the reader must ignore them).
    """

    size: tuple[int, int] = (640, 480)
    die_px: float | None = None
    distance: float | None = None
    tilt_deg: float = 0.0
    roll_deg: float = 0.0
    tray: BGR = TRAYS[0]
    table: BGR = TABLES[0]
    tray_frac: tuple[float, float] = (0.9, 0.88)
    light: tuple[float, float, float] = (-0.35, 0.45, 1.0)
    ambient: float = 0.55
    styles: tuple[str, ...] = ("white",)
    noise: float = 2.5
    blur: float = 0.6
    glare: float = 0.0
    side_pips: bool = True

    @property
    def edge(self) -> float:
        """The die edge in px (world units)."""
        return float(self.die_px) if self.die_px else 0.075 * min(self.size[0], self.size[1] * 4 / 3)

    @classmethod
    def random(cls, seed: int | np.random.Generator, size: tuple[int, int] = (640, 480), **overrides) -> TableLook:
        """A seeded varied look: tray and dice colours, die size, tilt, light, noise, blur, glare.

        Within what a fixed overhead camera over a tray gives: dice 5-10% of the width, tilt up to
        12 degrees, noise sigma 1-6, blur 0-1.2 px, glare on half of the tables. ``overrides`` are
        applied last (e.g. ``styles=("red",)``).
        """
        rng = np.random.default_rng(seed)
        w = size[0]
        n_styles = int(rng.choice([1, 1, 1, 2, 3]))
        styles = tuple(str(s) for s in rng.choice([s.name for s in STYLES], n_styles, replace=False))
        look = cls(
            size=size,
            die_px=float(rng.uniform(0.05, 0.1) * w),
            distance=float(rng.uniform(1.0, 2.0) * w),
            tilt_deg=float(rng.uniform(0, 12)),
            roll_deg=float(rng.uniform(-8, 8)),
            tray=TRAYS[int(rng.integers(len(TRAYS)))],
            table=TABLES[int(rng.integers(len(TABLES)))],
            tray_frac=(float(rng.uniform(0.8, 0.94)), float(rng.uniform(0.78, 0.92))),
            light=(float(rng.uniform(-0.6, 0.6)), float(rng.uniform(-0.6, 0.6)), 1.0),
            ambient=float(rng.uniform(0.45, 0.7)),
            styles=styles,
            noise=float(rng.uniform(1.0, 6.0)),
            blur=float(rng.uniform(0.0, 1.2)),
            glare=float(rng.choice([0.0, 0.0, rng.uniform(0.3, 1.0)])),
        )
        return replace(look, **overrides)


# --------------------------------------------------------------------------------------------------
# The die as a solid: faces, pips, orientations (module constants, computed once)

# Face normals in die coordinates and the value on each: opposite faces sum to 7.
_FACE_NORMALS = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}
# Pip positions on a face, in face coordinates (-1..1 across the face).
_A = 0.56
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_A, -_A), (_A, _A)),
    3: ((-_A, -_A), (0, 0), (_A, _A)),
    4: ((-_A, -_A), (_A, -_A), (-_A, _A), (_A, _A)),
    5: ((-_A, -_A), (_A, -_A), (0, 0), (-_A, _A), (_A, _A)),
    6: ((-_A, -_A), (-_A, 0), (-_A, _A), (_A, -_A), (_A, 0), (_A, _A)),
}
_PIP_R = 0.19  # pip radius in face coordinates (a pip is about a fifth of the face across)
_CORNER_R = 0.28  # rounded corners of the face outline, face coordinates
_N_OUTLINE = 6  # points per rounded corner
_N_PIP = 10  # points per pip circle


def _face_axes(normal: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two in-plane unit axes (u, v) and the normal of a die face, right-handed."""
    n = np.array(normal, float)
    helper = np.array([0.0, 0.0, 1.0]) if abs(n[2]) < 0.5 else np.array([0.0, 1.0, 0.0])
    u = np.cross(helper, n)
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    return u, v, n


def _rounded_square(n_corner: int, r: float) -> np.ndarray:
    pts = []
    for cx, cy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for k in range(n_corner):
            a = math.radians(a0 + 90 * k / (n_corner - 1))
            pts.append((cx * (1 - r) + r * math.cos(a), cy * (1 - r) + r * math.sin(a)))
    return np.array(pts)


def _build_solid():
    """Per face: outline points and pip polygons in die coordinates (the die spans -1..1)."""
    outline2d = _rounded_square(_N_OUTLINE, _CORNER_R)
    circle = np.array([(math.cos(2 * math.pi * k / _N_PIP), math.sin(2 * math.pi * k / _N_PIP)) for k in range(_N_PIP)])
    faces = {}
    for value, normal in _FACE_NORMALS.items():
        u, v, n = _face_axes(normal)
        outline = n + outline2d[:, :1] * u + outline2d[:, 1:] * v
        pips = [n + (px + _PIP_R * circle[:, :1]) * u + (py + _PIP_R * circle[:, 1:]) * v for px, py in PIP_LAYOUT[value]]
        faces[value] = (np.array(n), outline, np.array(pips).reshape(-1, 3))
    return faces


_FACES = _build_solid()
_CUBE_CORNERS = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)


def _rot(axis, angle: float) -> np.ndarray:
    """Rotation matrix about ``axis`` by ``angle`` radians (Rodrigues)."""
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


def _base_rotation(value: int) -> np.ndarray:
    """The rotation that brings face ``value`` to the top (+z)."""
    n = np.array(_FACE_NORMALS[value], float)
    up = np.array([0.0, 0.0, 1.0])
    if value == 1:
        return np.eye(3)
    if value == 6:
        return _rot((1, 0, 0), math.pi)
    axis = np.cross(n, up)
    return _rot(axis, math.pi / 2)


_BASE = {v: _base_rotation(v) for v in range(1, 7)}


# --------------------------------------------------------------------------------------------------
# The camera


class _Camera:
    """A pinhole camera over the tray plane z=0; world units are px at the image centre."""

    def __init__(self, look: TableLook):
        w, h = look.size
        self.size = (w, h)
        self.f = float(look.distance or 1.3 * w)
        t = math.radians(look.tilt_deg)
        # The camera looks at the world origin from distance f, tilted about the x axis.
        self.c = np.array([0.0, -self.f * math.sin(t), self.f * math.cos(t)])
        d = np.array([0.0, math.sin(t), -math.cos(t)])
        x = np.array([1.0, 0.0, 0.0])
        y = np.cross(d, x)
        r = math.radians(look.roll_deg)
        xr = math.cos(r) * x + math.sin(r) * y
        yr = -math.sin(r) * x + math.cos(r) * y
        self.r = np.stack([xr, yr, d])  # rows: camera x, y, z (optical axis) in world coordinates
        self.centre = np.array([w / 2.0, h / 2.0])

    def project(self, pts: np.ndarray) -> np.ndarray:
        """(N, 3) world points -> (N, 2) image points in px."""
        pc = (pts - self.c) @ self.r.T
        return self.f * pc[:, :2] / pc[:, 2:3] + self.centre

    def unproject_floor(self, uv: np.ndarray) -> np.ndarray:
        """(N, 2) image points -> (N, 3) points on the tray plane z=0 they show."""
        rays = np.column_stack([(uv - self.centre) / self.f, np.ones(len(uv))]) @ self.r
        s = -self.c[2] / rays[:, 2]
        return self.c + rays * s[:, None]


# --------------------------------------------------------------------------------------------------
# Static layers baked once per table


def _bake_background(look: TableLook, cam: _Camera, rng: np.random.Generator):
    """The empty tray (H, W, 3) uint8 BGR and the tray floor polygon in world units."""
    w, h = look.size
    fx, fy = look.tray_frac
    # The tray floor in world units: the fraction of the view at the centre, unprojected.
    corners_img = np.array([[w * (1 - fx) / 2, h * (1 - fy) / 2], [w * (1 + fx) / 2, h * (1 - fy) / 2],
                            [w * (1 + fx) / 2, h * (1 + fy) / 2], [w * (1 - fx) / 2, h * (1 + fy) / 2]])
    floor = cam.unproject_floor(corners_img)  # top-left, top-right, bottom-right, bottom-left
    # The largest axis-aligned world rectangle inside that (perspective, rolled) quadrilateral, so
    # that every die placed on the floor is in view.
    # (The world is right-handed with z up, so image-down is world -y.)
    x0, x1 = max(floor[0, 0], floor[3, 0]), min(floor[1, 0], floor[2, 0])
    y0, y1 = max(floor[2, 1], floor[3, 1]), min(floor[0, 1], floor[1, 1])
    tray_rect = (x0, y0, x1, y1)
    wall = 0.35 * look.edge
    img = np.empty((h, w, 3), np.float32)
    img[:] = look.table
    # Table grain: low-frequency streaks.
    streak = cv2.resize(rng.normal(0, 1, (4, 64)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img += (streak * 6)[:, :, None]

    def poly(x0, y0, x1, y1, z=0.0):
        p = np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]])
        return cam.project(p)

    outer = poly(x0 - wall, y0 - wall, x1 + wall, y1 + wall, 0.5 * wall)
    rim = np.array(look.tray, float) * 0.6 + 20
    cv2.fillPoly(img, [np.round(outer * 16).astype(np.int32)], rim.tolist(), cv2.LINE_AA, 4)
    inner = poly(x0, y0, x1, y1)
    cv2.fillPoly(img, [np.round(inner * 16).astype(np.int32)], list(map(float, look.tray)), cv2.LINE_AA, 4)
    # The wall's inner edge casts a thin shade onto the floor.
    cv2.polylines(img, [np.round(inner * 16).astype(np.int32)], True, (np.array(look.tray) * 0.75).tolist(),
                  max(1, int(wall * 0.25)), cv2.LINE_AA, 4)
    # Felt grain: fine fixed texture, plus a soft light falloff (vignette) towards the corners.
    grain = cv2.GaussianBlur(rng.standard_normal((h, w), dtype=np.float32), (0, 0), 1.2)
    lx, ly = look.light[0], look.light[1]
    cx, cy = w / 2 + lx * w * 0.3, h / 2 - ly * h * 0.3
    yy, xx = np.ogrid[0:h, 0:w]
    falloff = 1.08 - 0.55 * (((xx - cx) / w) ** 2 + ((yy - cy) / h) ** 2).astype(np.float32)
    img += (grain * 5)[:, :, None]
    img *= falloff[:, :, None]
    bg = np.clip(img, 0, 255).astype(np.uint8)
    return bg, tray_rect


def _bake_glare(look: TableLook, rng: np.random.Generator) -> np.ndarray | None:
    """Soft specular spots of the lamp, (H, W, 3) uint8 to add, or None without glare."""
    if look.glare <= 0:
        return None
    w, h = look.size
    g = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        c = (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.2, 0.8) * h))
        ax = (int(rng.uniform(0.2, 0.6) * look.edge), int(rng.uniform(0.1, 0.4) * look.edge))
        cv2.ellipse(g, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1, cv2.LINE_AA)
    g = cv2.GaussianBlur(g, (0, 0), 0.15 * look.edge + 1)
    g = g / max(float(g.max()), 1e-6) * 200 * look.glare
    return np.repeat(np.clip(g, 0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


class _NoiseBank:
    """Seeded sensor noise: a few noise tiles read at a random offset per frame (fast, never repeats)."""

    PAD = 16

    def __init__(self, size: tuple[int, int], sigma: float, rng: np.random.Generator, tiles: int = 3):
        w, h = size
        self.size = size
        self.sigma = sigma
        self.last = None
        if sigma <= 0:
            self.pos = self.neg = []
            return
        shape = (tiles, h + self.PAD, w + self.PAD)
        n = rng.standard_normal((*shape, 3), dtype=np.float32)
        # A little of the noise is shared by the three channels (luminance noise), as on real sensors.
        n += 0.5 * rng.standard_normal((*shape, 1), dtype=np.float32)
        n *= sigma
        np.rint(n, out=n)
        np.clip(n, -255, 255, out=n)
        self.pos = [np.maximum(t, 0).astype(np.uint8) for t in n]
        self.neg = [np.maximum(-t, 0).astype(np.uint8) for t in n]

    def apply(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Adds noise to ``img`` (H, W, 3) uint8 in place; a different pattern than the last call."""
        if not self.pos:
            return img
        w, h = self.size
        while True:
            key = (int(rng.integers(len(self.pos))), int(rng.integers(self.PAD)), int(rng.integers(self.PAD)))
            if key != self.last:
                break
        self.last = key
        t, oy, ox = key
        cv2.add(img, self.pos[t][oy:oy + h, ox:ox + w], dst=img)
        cv2.subtract(img, self.neg[t][oy:oy + h, ox:ox + w], dst=img)
        return img


# --------------------------------------------------------------------------------------------------
# Poses and drawing


@dataclass
class DiePose:
    """Where one die is and how it lies: world centre of its base (x, y) px, 3x3 rotation, style."""

    x: float
    y: float
    rot: np.ndarray
    style: DieStyle
    lift: float = 0.0  # extra height above the floor, world px (a bounce)

    @property
    def value(self) -> int:
        """The face most nearly up."""
        ups = {v: float((self.rot @ np.array(n, float))[2]) for v, n in _FACE_NORMALS.items()}
        return max(ups, key=ups.get)


def _flat(value: int, yaw: float) -> np.ndarray:
    return _rot((0, 0, 1), yaw) @ _BASE[value]


class _Renderer:
    """Draws frames of one table look; holds the baked layers. Not thread-safe."""

    def __init__(self, look: TableLook, seed: int, noise_tiles: int = 3):
        self.look = look
        self.rng = np.random.default_rng(seed)
        self.cam = _Camera(look)
        self.bg, self.tray_rect = _bake_background(look, self.cam, self.rng)
        self.glare = _bake_glare(look, self.rng)
        self.noise = _NoiseBank(look.size, look.noise, self.rng, noise_tiles)
        lv = np.array(look.light, float)
        self.light = lv / np.linalg.norm(lv)
        self.half = look.edge / 2.0
        w, h = look.size
        self.shadow_scale = 4
        self.shadow_size = (max(1, w // self.shadow_scale), max(1, h // self.shadow_scale))

    # -- geometry ------------------------------------------------------------------------------

    def _die_world(self, pose: DiePose) -> tuple[np.ndarray, float]:
        """World transform pieces: the centre (3,) of the die and its half edge."""
        s = self.half
        low = float(np.max(-(_CUBE_CORNERS @ pose.rot.T)[:, 2]))  # lowest corner touches the floor
        return np.array([pose.x, pose.y, s * low + pose.lift]), s

    def die_truth(self, pose: DiePose) -> Die:
        """The ground truth of a die lying flat: value, projected top-face centre and box."""
        centre, s = self._die_world(pose)
        normal, outline, _ = _FACES[pose.value]
        pts = self.cam.project(centre + (outline @ pose.rot.T) * s)
        c = self.cam.project((centre + (np.asarray(normal, float) @ pose.rot.T) * s)[None])[0]
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        return Die(value=pose.value, center=(float(c[0]), float(c[1])), box=(int(x0), int(y0), int(x1 - x0), int(y1 - y0)))

    # -- drawing -------------------------------------------------------------------------------

    def _shade(self, colour: BGR, normal_world: np.ndarray) -> list[float]:
        k = self.look.ambient + (1 - self.look.ambient) * max(0.0, float(normal_world @ self.light))
        return [min(255.0, c * k) for c in colour]

    def _draw_die(self, img: np.ndarray, pose: DiePose) -> None:
        centre, s = self._die_world(pose)
        view = self.cam.c
        for value, (normal, outline, pips) in _FACES.items():
            n = pose.rot @ normal
            fc = centre + n * s
            if float(n @ (view - fc)) <= 1e-6:
                continue  # a face turned away from the camera (the die is convex: no other sorting)
            if n[2] < 0.2 and not self.look.side_pips:
                pips = None
            body = self._shade(pose.style.body, n)
            poly = self.cam.project(centre + (outline @ pose.rot.T) * s)
            cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], body, cv2.LINE_AA, 4)
            if pips is not None and len(pips):
                p = self.cam.project(centre + (pips @ pose.rot.T) * s).reshape(-1, _N_PIP, 2)
                pip = self._shade(pose.style.pip, n)
                cv2.fillPoly(img, list(np.round(p * 16).astype(np.int32)), pip, cv2.LINE_AA, 4)

    def _shadow_points(self, pts_world: np.ndarray) -> np.ndarray:
        """World points cast onto the floor along the light, projected, in shadow-mask px."""
        lz = max(self.light[2], 0.2)
        floor = pts_world.copy()
        floor[:, 0] -= self.light[0] / lz * pts_world[:, 2]
        floor[:, 1] -= self.light[1] / lz * pts_world[:, 2]
        floor[:, 2] = 0
        return self.cam.project(floor) / self.shadow_scale

    def render(self, poses: list[DiePose], *, cup: tuple[float, float, float, float] | None = None,
               hand: tuple[float, float, float, float] | None = None, skin: BGR = SKINS[0],
               cup_colour: BGR = (30, 40, 70)) -> np.ndarray:
        """One frame (H, W, 3) uint8 BGR.

        cup: (x, y, radius, height) in world px: an upturned dice cup standing on (height 0) or raised
            above the tray. hand: (x, y, angle_rad, height) of a flat hand seen from above, world px.
        """
        img = self.bg.copy()
        sw, sh = self.shadow_size
        mask = np.zeros((sh, sw), np.uint8)
        for pose in poses:
            centre, s = self._die_world(pose)
            corners = centre + (_CUBE_CORNERS @ pose.rot.T) * s
            hull = cv2.convexHull(np.round(self._shadow_points(corners) * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 150, cv2.LINE_AA, 4)
        if cup is not None:
            cx, cy, r, hgt = cup
            ring = self._circle_world(cx, cy, r, 0.0)
            top = self._circle_world(cx, cy, r * 0.85, 1.4 * r + hgt)
            pts = np.vstack([ring + [0, 0, hgt], top])
            hull = cv2.convexHull(np.round(self._shadow_points(pts) * 16).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 170, cv2.LINE_AA, 4)
        if hand is not None:
            for poly in self._hand_world(*hand):
                cv2.fillConvexPoly(mask, np.round(self._shadow_points(poly) * 16).astype(np.int32), 120, cv2.LINE_AA, 4)
        if mask.any():
            mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, self.half / self.shadow_scale * 0.5))
            # Darken only the box the shadows fill (most of the tray has none).
            k = self.shadow_scale
            x, y, w, h = cv2.boundingRect(mask)
            x0, y0 = max(0, (x - 1) * k), max(0, (y - 1) * k)
            x1, y1 = min(img.shape[1], (x + w + 1) * k), min(img.shape[0], (y + h + 1) * k)
            full = cv2.resize(mask, self.look.size, interpolation=cv2.INTER_LINEAR)
            shade = 255 - full[y0:y1, x0:x1]
            roi = img[y0:y1, x0:x1]
            img[y0:y1, x0:x1] = cv2.multiply(roi, cv2.merge([shade, shade, shade]), scale=1 / 255.0)
        # Lower dice first, so that a die tumbling over another is drawn on top of it.
        for pose in sorted(poses, key=lambda p: self._die_world(p)[0][2]):
            self._draw_die(img, pose)
        if cup is not None:
            self._draw_cup(img, cup, cup_colour)
        if hand is not None:
            self._draw_hand(img, hand, skin)
        if self.glare is not None:
            cv2.add(img, self.glare, dst=img)
        if self.look.blur > 0:
            img = cv2.GaussianBlur(img, (0, 0), self.look.blur)
        return self.noise.apply(img, self.rng)

    def _circle_world(self, cx: float, cy: float, r: float, z: float, n: int = 32) -> np.ndarray:
        a = np.linspace(0, 2 * math.pi, n, endpoint=False)
        return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a), np.full(n, z)])

    def _draw_cup(self, img: np.ndarray, cup, colour: BGR) -> None:
        cx, cy, r, hgt = cup
        height = 1.4 * r  # an upturned leather cup: its base (now the top) is a little narrower
        base = self.cam.project(self._circle_world(cx, cy, r, hgt))
        top = self.cam.project(self._circle_world(cx, cy, r * 0.85, hgt + height))
        side = cv2.convexHull(np.round(np.vstack([base, top]) * 16).astype(np.int32))
        cv2.fillConvexPoly(img, side, [c * 0.7 for c in colour], cv2.LINE_AA, 4)
        cv2.fillPoly(img, [np.round(top * 16).astype(np.int32)], list(map(float, colour)), cv2.LINE_AA, 4)
        inner = self.cam.project(self._circle_world(cx, cy, r * 0.7, hgt + height))
        cv2.polylines(img, [np.round(inner * 16).astype(np.int32)], True, [c * 1.3 for c in colour], 2, cv2.LINE_AA, 4)

    def _hand_world(self, x: float, y: float, angle: float, height: float) -> list[np.ndarray]:
        """Convex pieces of a flat hand (palm, four fingers, thumb) in world points at ``height``."""
        e = self.look.edge
        ca, sa = math.cos(angle), math.sin(angle)

        def place(pts):
            pts = np.asarray(pts, float) * e
            wx = x + pts[:, 0] * ca - pts[:, 1] * sa
            wy = y + pts[:, 0] * sa + pts[:, 1] * ca
            return np.column_stack([wx, wy, np.full(len(pts), height)])

        a = np.linspace(0, 2 * math.pi, 20, endpoint=False)
        palm = place(np.column_stack([1.6 * np.cos(a), 1.9 * np.sin(a)]))
        pieces = [palm]
        for i, (dx, length) in enumerate(((-1.05, 1.9), (-0.35, 2.3), (0.35, 2.2), (1.05, 1.7))):
            w = 0.34
            pieces.append(place([(dx - w, -1.2), (dx + w, -1.2), (dx + w * 0.9, -1.2 - length), (dx, -1.35 - length),
                                 (dx - w * 0.9, -1.2 - length)]))
        pieces.append(place([(1.2, 0.4), (1.6, -0.2), (3.0, -0.9), (3.2, -0.5), (1.7, 0.9)]))
        return pieces

    def _draw_hand(self, img: np.ndarray, hand, skin: BGR) -> None:
        for i, poly in enumerate(self._hand_world(*hand)):
            p = np.round(self.cam.project(poly) * 16).astype(np.int32)
            cv2.fillConvexPoly(img, p, [c * (0.92 if i else 1.0) for c in skin], cv2.LINE_AA, 4)


# --------------------------------------------------------------------------------------------------
# Still frames


def _footprint(x: float, y: float, yaw: float, edge: float) -> np.ndarray:
    """The (4, 2) corners of a flat die's square footprint on the tray, world px."""
    c, s = math.cos(yaw) * edge / 2, math.sin(yaw) * edge / 2
    return np.array([(x + c - s, y + s + c), (x - c - s, y - s + c), (x - c + s, y - s - c), (x + c + s, y + s - c)])


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """True when two convex quadrilaterals overlap (separating axis test on their edge normals)."""
    for poly in (a, b):
        for i in range(4):
            ex, ey = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-ey, ex])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return False
    return True


def _place(rng: np.random.Generator, n: int, rect, edge: float, *, touching: bool = False,
           around: tuple[float, float, float] | None = None) -> list[tuple[float, float, float]]:
    """n flat dice (x, y, yaw): centres in world px inside ``rect`` (x0, y0, x1, y1) or inside the
    circle ``around`` (x, y, r), yaw in radians. Apart by at least 1.6 edges; with ``touching``,
    most dice are laid against another (a shared edge, slightly askew), as thrown dice often lie,
    never overlapping. Raises ValueError when they do not fit."""
    margin = 0.9 * edge
    for _ in range(200):
        placed: list[tuple[float, float, float]] = []
        shapes: list[np.ndarray] = []
        for _ in range(n * 60):
            if touching and placed and rng.uniform() < 0.7:
                bx, by, byaw = placed[int(rng.integers(len(placed)))]
                side = byaw + int(rng.integers(4)) * math.pi / 2
                d, slide = edge * rng.uniform(1.01, 1.06), edge * rng.uniform(-0.45, 0.45)
                x = bx + d * math.cos(side) - slide * math.sin(side)
                y = by + d * math.sin(side) + slide * math.cos(side)
                yaw = byaw + rng.uniform(-0.08, 0.08)
            elif around is not None:
                r = around[2] * math.sqrt(rng.uniform())
                a = rng.uniform(0, 2 * math.pi)
                x, y, yaw = around[0] + r * math.cos(a), around[1] + r * math.sin(a), rng.uniform(0, 2 * math.pi)
            else:
                x0, y0, x1, y1 = rect
                x, y = rng.uniform(x0 + margin, x1 - margin), rng.uniform(y0 + margin, y1 - margin)
                yaw = rng.uniform(0, 2 * math.pi)
            if rect is not None and around is None:
                x0, y0, x1, y1 = rect
                if not (x0 + margin <= x <= x1 - margin and y0 + margin <= y <= y1 - margin):
                    continue
            shape = _footprint(x, y, yaw, edge)
            if any(_overlap(shape, o) for o in shapes):
                continue
            if not touching and any(math.hypot(x - px, y - py) < 1.6 * edge for px, py, _ in placed):
                continue
            placed.append((x, y, yaw))
            shapes.append(shape)
            if len(placed) == n:
                return placed
    raise ValueError(f"{n} dice of {edge:.0f} px do not fit on this tray")


def _check_values(values) -> tuple[int, ...]:
    vals = tuple(values)
    if not vals or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 1 <= v <= 6 for v in vals):
        raise ValueError(f"dice values must be 1-6, at least one die; got {list(vals)}")
    return tuple(int(v) for v in vals)


def render_still(values, *, seed: int = 0, look: TableLook | None = None, touching: bool = False,
                 hand: bool = False, size: tuple[int, int] = (640, 480)) -> tuple[np.ndarray, tuple[Die, ...]]:
    """One frame of dice lying still on the tray, and the truth.

    values: the top faces, 1-6 each (one per die, at least one); seed: everything random (positions,
    yaw, noise; the look too when ``look`` is None: ``TableLook.random(seed, size)``).
    touching: most dice lie against another (sharing an edge), never overlapping.
    hand: a hand held over the tray, hiding what lies under it (the truth still lists every die).
    Returns ((H, W, 3) uint8 BGR, a ``Die`` per die in the order of ``values`` with the top face's
    projected centre and axis-aligned box in px). Raises ValueError for values outside 1-6 or dice
    that do not fit on the tray.
    """
    vals = _check_values(values)
    look = look or TableLook.random(seed, size)
    r = _Renderer(look, seed, noise_tiles=1)
    rng = np.random.default_rng([seed, 1])
    styles = [STYLE_BY_NAME[s] for s in look.styles]
    spots = _place(rng, len(vals), r.tray_rect, look.edge, touching=touching)
    poses = [DiePose(x, y, _flat(v, yaw), styles[i % len(styles)]) for i, (v, (x, y, yaw)) in enumerate(zip(vals, spots))]
    held = None
    if hand:
        x0, y0, x1, y1 = r.tray_rect
        held = (rng.uniform(x0, x1), rng.uniform(y0, y1), rng.uniform(0, 2 * math.pi), 6 * look.edge)
    image = r.render(poses, hand=held, skin=SKINS[int(rng.integers(len(SKINS)))])
    return image, tuple(r.die_truth(p) for p in poses)


def render_empty(*, seed: int = 0, look: TableLook | None = None, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """The empty tray of the same table ``render_still`` draws for this seed and look, (H, W, 3) uint8 BGR:
    an empty-tray reference frame as calibration would take it."""
    look = look or TableLook.random(seed, size)
    return _Renderer(look, seed, noise_tiles=1).render([])


# --------------------------------------------------------------------------------------------------
# The scripted table


@dataclass(frozen=True)
class Truth:
    """What a synthetic frame shows.

    dice: the dice lying visible and flat (value, centre, top-face box), empty while any die moves,
        the cup covers them or a hand is over the tray; a die thrown off the tray is among them (its
        centre outside ``SyntheticTable.tray_area``). values: their sorted values. moving: a die, the cup or a hand moves.
    covered: the cup stands over the dice. hand: a hand is in view. index, t: the frame's number and
    virtual time (s). cocked: the visible dice that lean on the tray wall (not in ``dice``: no face
    is squarely up; the value is the face most nearly up).
    """

    index: int
    t: float
    dice: tuple[Die, ...]
    moving: bool
    covered: bool = False
    hand: bool = False
    cocked: tuple[Die, ...] = ()

    @property
    def values(self) -> tuple[int, ...]:
        """The sorted values of the visible, still dice."""
        return tuple(sorted(d.value for d in self.dice))


@dataclass
class _Track:
    """One die's motion: from (x0, y0) to (x1, y1) over [t0, t1], rolling ``roll`` radians about the
    horizontal axis across the path and spinning ``spin`` radians, to the final rotation ``rot``."""

    x0: float
    y0: float
    x1: float
    y1: float
    t0: float
    t1: float
    rot: np.ndarray
    style: DieStyle
    roll: float = 0.0
    spin: float = 0.0
    hop: float = 0.0
    cocked: bool = False  # it comes to rest leaning on the tray wall

    def pose(self, t: float) -> DiePose:
        if t >= self.t1:
            return DiePose(self.x1, self.y1, self.rot, self.style)
        u = max(0.0, (t - self.t0) / (self.t1 - self.t0))
        rem = (1 - u) ** 2  # ease-out: fast in, slowing to a stop
        x = self.x1 + (self.x0 - self.x1) * rem
        y = self.y1 + (self.y0 - self.y1) * rem
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        rot = self.rot
        if self.spin:
            rot = _rot((0, 0, 1), self.spin * rem) @ rot
        if self.roll and (dx or dy):
            rot = _rot((-dy, dx, 0.0), -self.roll * rem) @ rot
        lift = self.hop * abs(math.sin(3 * math.pi * u)) * (1 - u)
        return DiePose(x, y, rot, self.style, lift)

    def moving(self, t: float) -> bool:
        return self.t0 <= t < self.t1 or t < self.t0


class SyntheticTable:
    """A frame source showing a scripted dice table, on virtual time.

    ``read()`` gives the next ``Frame`` (image (H, W, 3) uint8 BGR, t = index / fps s, index);
    ``truth`` tells what that frame showed. Script it between reads; each call starts at the time of
    the next frame and returns the virtual time (s) when the scene will be still again:

    - ``throw(values=None, n=None)``: the dice on the tray are taken away and ``values`` (or ``n``
      seeded random values; by default as many dice as the table has) are thrown in: they roll and
      spin in from the tray's edge and lie still after ``throw_s``.
    - ``nudge(die, distance)``: push one die (index in the thrown order) by ``distance`` px (default
      a quarter of a die), turning it slightly; its value stays.
    - ``pass_hand(duration=0.8, rest_s=0)``: a hand sweeps across the tray above the dice (resting
      over it for ``rest_s`` on the way).
    - ``cover(values=None)``: Mäxle: the cup, shaken, is put down on the tray with fresh dice under
      it (hidden). ``lift()``: the cup is lifted away and the dice show.
    - ``clear()``: the dice are taken off the tray.
    - ``autoplay(throws)``: the table scripts itself (seeded throws, nudges, a hand), then ends.

    dice: how many dice a throw has by default; seed: everything random; look: ``TableLook()`` (the
    appliance's recommended white dice on green felt) by default, or ``TableLook.random(seed)``.
    Raises ValueError for values outside 1-6 and SourceClosed after ``close()``.
    """

    def __init__(self, dice: int = 2, *, seed: int = 0, fps: float = 30.0, look: TableLook | None = None,
                 throw_s: float = 1.0):
        if not 1 <= dice <= 12:
            raise ValueError(f"a synthetic table holds 1-12 dice, not {dice}")
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.look = look or TableLook()
        self.dice = dice
        self.fps = float(fps)
        self.throw_s = throw_s
        self.rng = np.random.default_rng([seed, 2])
        self._r = _Renderer(self.look, seed)
        self._styles = [STYLE_BY_NAME[s] for s in self.look.styles]
        self._skin = SKINS[int(self.rng.integers(len(SKINS)))]
        self.index = 0
        self._tracks: list[_Track] = []
        self._hand: tuple[float, ...] | None = None  # t0, duration, rest, x0, y0, x1, y1
        self._cup: list[tuple[float, float, tuple[float, float, float], float, float]] = []  # t0,t1,(x,y,r),h0,h1
        self._closed = False
        self._plan: deque[str] | None = None  # autoplay's actions still to come
        self._pause_s = 0.0
        self.truth: Truth | None = None

    # -- time ----------------------------------------------------------------------------------

    @property
    def t(self) -> float:
        """The virtual time (s) of the next frame."""
        return self.index / self.fps

    @property
    def size(self) -> tuple[int, int]:
        """(W, H) of the frames, px."""
        return self.look.size

    @property
    def still_at(self) -> float:
        """The virtual time (s) from which nothing scripted moves."""
        ends = [tr.t1 for tr in self._tracks]
        if self._hand:
            ends.append(self._hand[0] + self._hand[1] + self._hand[2])
        ends += [c[1] for c in self._cup]
        return max(ends, default=0.0)

    @property
    def cup_down(self) -> bool:
        """True while the Mäxle cup stands on the tray (put down and not lifted)."""
        return bool(self._cup) and self._cup[-1][4] <= self._cup[-1][3]

    def frames_until_still(self) -> int:
        """How many frames until the scene is still (0 if it is)."""
        return max(0, math.ceil(self.still_at * self.fps - 1e-9) - self.index)

    # -- script --------------------------------------------------------------------------------

    def _values(self, values, n) -> tuple[int, ...]:
        if values is None:
            return tuple(int(v) for v in self.rng.integers(1, 7, n or self.dice))
        return _check_values(values)

    @property
    def tray_area(self) -> tuple[int, int, int, int]:
        """The tray's floor in the frame, (x, y, w, h) px: the box around its projected corners (the
        config's ``[tray] area`` for this table)."""
        x0, y0, x1, y1 = self._r.tray_rect
        pts = self._r.cam.project(np.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float))
        (ax, ay), (bx, by) = np.floor(pts.min(axis=0)).astype(int), np.ceil(pts.max(axis=0)).astype(int)
        return int(ax), int(ay), int(bx - ax), int(by - ay)

    def throw(self, values=None, n: int | None = None, *, off_tray: int | None = None,
              cocked: int | None = None) -> float:
        """Throw dice in now (see the class docstring); returns the virtual time (s) they lie still.

        off_tray: the die (index in the thrown values) that jumps the wall and lands flat on the table
        beside the tray; cocked: the die that comes to rest leaning on the tray's wall, 30 degrees off
        flat. Raises ValueError for values outside 1-6, an index not thrown, or a table with no room
        in view beside its tray (a ``TableLook.tray_frac`` near 1)."""
        vals = self._values(values, n)
        t0 = self.t
        self._cup = []
        spots = self._spots(len(vals), off_tray, cocked)
        x0, y0, x1, y1 = self._r.tray_rect
        side = int(self.rng.integers(4))
        tracks = []
        for i, (v, (x, y, yaw)) in enumerate(zip(vals, spots)):
            lean = i == cocked
            # Enter from one side of the tray, a little spread, starting just outside it.
            if side == 0:
                sx, sy = x0 - self.look.edge, self.rng.uniform(y0, y1)
            elif side == 1:
                sx, sy = x1 + self.look.edge, self.rng.uniform(y0, y1)
            elif side == 2:
                sx, sy = self.rng.uniform(x0, x1), y0 - self.look.edge
            else:
                sx, sy = self.rng.uniform(x0, x1), y1 + self.look.edge
            dist = math.hypot(x - sx, y - sy)
            dur = self.throw_s * self.rng.uniform(0.75, 1.0)
            # Leaning on the left wall: the die tips about its edge along the wall, top towards it.
            rot = _rot((0, 1, 0), -math.radians(30)) @ _flat(v, 0.0) if lean else _flat(v, yaw)
            # A rolling cube turns 90 degrees per edge length travelled; whole quarter turns end flat.
            quarter = max(1, round(dist / self.look.edge))
            tracks.append(_Track(sx, sy, x, y, t0, t0 + dur, rot, self._styles[i % len(self._styles)],
                                 roll=quarter * math.pi / 2, spin=float(self.rng.uniform(-6, 6)),
                                 hop=0.6 * self.look.edge, cocked=lean))
        self._tracks = tracks
        return self.still_at

    def _spots(self, n: int, off_tray: int | None, cocked: int | None) -> list[tuple[float, float, float]]:
        """Where ``n`` thrown dice come to rest, (x, y, yaw) world px and radians: on the tray, but die
        ``off_tray`` on the table right of the tray and die ``cocked`` against the left wall."""
        for which in (off_tray, cocked):
            if which is not None and not 0 <= which < n:
                raise ValueError(f"no die {which} among the {n} thrown")
        x0, y0, x1, y1 = self._r.tray_rect
        e = self.look.edge
        # The others keep clear of the left wall, where the cocked die leans.
        rect = (x0 + 2.2 * e, y0, x1, y1) if cocked is not None else self._r.tray_rect
        spots = _place(self.rng, n, rect, e)
        if cocked is not None:
            spots[cocked] = (x0 + 0.75 * e, spots[cocked][1], 0.0)
        if off_tray is not None:
            x, y = x1 + 1.0 * e, spots[off_tray][1]  # beyond the wall (0.35 die), clear of it
            u, v = self._r.cam.project(np.array([[x + 0.5 * e, y, 0.0]]))[0]
            if not (0 <= u < self.size[0] and 0 <= v < self.size[1]):
                raise ValueError("this table shows no room beside its tray for a die thrown off it")
            spots[off_tray] = (x, y, spots[off_tray][2])
        return spots

    def nudge(self, die: int = 0, distance: float | None = None, duration: float = 0.25) -> float:
        """Push die ``die`` by ``distance`` px (default a quarter die) over ``duration`` s; returns the
        time (s) it lies still. Raises IndexError when there is no such die on the tray."""
        if not 0 <= die < len(self._tracks):
            raise IndexError(f"no die {die} on the tray ({len(self._tracks)} dice)")
        tr = self._tracks[die]
        p = tr.pose(self.t)
        d = self.look.edge * 0.25 if distance is None else float(distance)
        a = self.rng.uniform(0, 2 * math.pi)
        turn = _rot((0, 0, 1), self.rng.uniform(-0.3, 0.3))
        self._tracks[die] = _Track(p.x, p.y, p.x + d * math.cos(a), p.y + d * math.sin(a), self.t,
                                   self.t + duration, turn @ tr.rot, tr.style)
        return self.still_at

    def pass_hand(self, duration: float = 0.8, rest_s: float = 0.0) -> float:
        """A hand sweeps over the tray (above the dice) in ``duration`` s, resting ``rest_s`` s over
        its middle on the way; returns when it is gone."""
        x0, y0, x1, y1 = self._r.tray_rect
        e = self.look.edge
        ym = self.rng.uniform(y0 + (y1 - y0) * 0.3, y1 - (y1 - y0) * 0.3)
        xs, xe = x0 - 4 * e, x1 + 4 * e
        if self.rng.integers(2):
            xs, xe = xe, xs
        self._hand = (self.t, duration, rest_s, xs, ym + 2 * e, xe, ym - 2 * e)
        return self.still_at

    def cover(self, values=None, duration: float = 0.6) -> float:
        """Mäxle: the cup comes down on the tray with fresh dice (``values`` or seeded random, as many
        as the table has) under it; returns when the cup stands still. With the cup already down,
        the dice under it are shaken afresh where it stands (unseen: nothing moves in view)."""
        vals = self._values(values, None)
        x0, y0, x1, y1 = self._r.tray_rect
        e = self.look.edge
        # The cup fits the tray with a die's edge to spare (five dice under it on a small tray: a tighter cup).
        radius = min(2.2 * e if len(vals) <= 2 else 3.4 * e, min(x1 - x0, y1 - y0) / 2 - e)
        if self.cup_down:
            (cx, cy, radius), duration = self._cup[-1][2], 0.0
        else:
            cx = self.rng.uniform(x0 + radius + e, max(x0 + radius + e, x1 - radius - e))
            cy = self.rng.uniform(y0 + radius + e, max(y0 + radius + e, y1 - radius - e))
        spots = _place(self.rng, len(vals), None, e, around=(cx, cy, radius - 1.1 * e))
        self._tracks = [_Track(x, y, x, y, self.t, self.t, _flat(v, yaw), self._styles[i % len(self._styles)])
                        for i, (v, (x, y, yaw)) in enumerate(zip(vals, spots))]
        self._cup = [(self.t, self.t + duration, (cx, cy, radius), 4 * radius, 0.0)]
        return self.still_at

    def lift(self, duration: float = 0.5) -> float:
        """The cup is lifted off the tray; returns when it is gone and the dice show still.
        Raises ValueError when no cup stands on the tray."""
        if not self._cup:
            raise ValueError("there is no cup on the tray to lift")
        cx, cy, r = self._cup[-1][2]
        self._cup = [(self.t, self.t + duration, (cx, cy, r), 0.0, 12 * r)]
        return self.still_at

    def clear(self) -> float:
        """The dice (and cup) are taken off the tray at once; returns the current time."""
        self._tracks = []
        self._cup = []
        return self.still_at

    def autoplay(self, throws: int = 10, pause_s: float = 1.5) -> SyntheticTable:
        """Let the table script itself: ``throws`` seeded throws, each followed by ``pause_s`` s of
        stillness; a small nudge (a quarter die) after every third throw and a hand passing over
        after every fourth. After the last pause ``read()`` raises EndOfFrames. Returns the table."""
        plan: deque[str] = deque()
        for i in range(throws):
            plan.append("throw")
            if i % 3 == 2:
                plan.append("nudge")
            if i % 4 == 3:
                plan.append("hand")
        self._plan, self._pause_s = plan, pause_s
        return self

    def _next_scripted(self) -> None:
        if self._plan is None or self.t < self.still_at + self._pause_s:
            return
        if not self._plan:
            raise EndOfFrames("the synthetic table's script has ended")
        action = self._plan.popleft()
        if action == "throw":
            self.throw()
        elif action == "nudge" and self._tracks:
            self.nudge(int(self.rng.integers(len(self._tracks))))
        elif action == "hand":
            self.pass_hand()

    # -- frames --------------------------------------------------------------------------------

    def _cup_at(self, t: float):
        if not self._cup:
            return None, False
        t0, t1, (cx, cy, r), h0, h1 = self._cup[-1]
        u = 1.0 if t >= t1 else max(0.0, (t - t0) / (t1 - t0))
        h = h0 + (h1 - h0) * (u * u if h1 > h0 else 1 - (1 - u) ** 2)
        if h1 > h0 and u >= 1.0:
            return None, False  # lifted away
        # A cup put down is shaken a little as it lands.
        jiggle = 0.0 if u >= 1 else 0.15 * r * math.sin(20 * u)
        return (cx + jiggle, cy, r, h), t < t1

    def _hand_at(self, t: float):
        """(x, y, angle, height) of the hand at ``t`` and whether it moves, or (None, False)."""
        if not self._hand:
            return None, False
        t0, duration, rest, xs, ys, xe, ye = self._hand
        s = t - t0
        if s < 0 or s >= duration + rest:
            return None, False
        half = duration / 2
        u = s / duration if s < half else 0.5 if s < half + rest else (s - rest) / duration
        moving = not (half <= s < half + rest)
        pose = (xs + (xe - xs) * u, ys + (ye - ys) * u, math.atan2(ye - ys, xe - xs) + math.pi / 2, 6 * self.look.edge)
        return pose, moving

    def read(self) -> Frame:
        """The next frame; sets ``truth``. Raises SourceClosed after ``close()``."""
        if self._closed:
            raise SourceClosed("the synthetic table is closed")
        self._next_scripted()
        t = self.t
        poses = [tr.pose(t) for tr in self._tracks]
        cup, cup_moving = self._cup_at(t)
        hand, hand_moving = self._hand_at(t)
        img = self._r.render(poses, cup=cup, hand=hand, skin=self._skin)
        dice_moving = any(tr.moving(t) for tr in self._tracks)
        covered = cup is not None and cup[3] < 2 * self.look.edge
        hidden = dice_moving or covered or hand is not None
        lying = [] if hidden else [(self._r.die_truth(p), tr.cocked) for p, tr in zip(poses, self._tracks)]
        self.truth = Truth(self.index, t, tuple(d for d, lean in lying if not lean),
                           dice_moving or cup_moving or hand_moving, covered, hand is not None,
                           tuple(d for d, lean in lying if lean))
        frame = Frame(img, t, self.index)
        self.index += 1
        return frame

    def frames(self, seconds: float):
        """Yields the frames of the next ``seconds`` of virtual time."""
        for _ in range(max(0, round(seconds * self.fps))):
            yield self.read()

    def close(self) -> None:
        """Stops the source; later reads raise SourceClosed."""
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
