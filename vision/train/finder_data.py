"""Training examples for the die finder: an augmented view of a labelled image and its target maps.

A view is the image scaled, turned, flipped and shifted onto a fixed canvas (the network's input),
with a share of the views also seen at a slant (``tilt``: another camera's perspective, or a frame
stretched to another aspect), then changed photometrically (``vision.train.augment``). Half of the
views use a scale the product uses (the frame's long side to ``vision.finder.BASE`` px or half
that, a little more or less), half a random die size within ``MIN_INPUT``-``MAX_INPUT`` px, so the
finder meets dice of every size it must read.

Targets on the output grid (one cell per ``vision.finder.STRIDE`` px), as CenterNet's:
a Gaussian bump per die centre (its peak cell exactly 1), and at each peak cell the log size (px)
and the centre's offset inside the cell, with masks where they are known. A die too small or too
large for the network at this scale (another pyramid level reads it) is neither a die nor
background here: the loss ignores the cells it covers.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.finder import BASE, MAX_INPUT, MIN_INPUT, PAD_VALUE, STRIDE
from vision.train.augment import photometric
from vision.train.samples import Labelled

CANVAS = (320, 256)  # (W, H) px of a training view
TILT = 0.12  # the most a slanted view's corner moves, as a share of the canvas side


def _scale(item: Labelled, rng: np.random.Generator) -> float:
    h, w = item.image.shape[:2]
    product = BASE / max(w, h)
    r = rng.random()
    if item.typical <= 0 or r < 0.3:
        s = product * math.exp(rng.uniform(-0.35, 0.35))
    elif r < 0.5:
        s = product / 2 * math.exp(rng.uniform(-0.35, 0.35))
    else:
        s = math.exp(rng.uniform(math.log(MIN_INPUT), math.log(MAX_INPUT))) / item.typical
    # Keep the scaled image between a small thumbnail and a few canvases across.
    return float(np.clip(s, 80 / max(w, h), 1600 / max(w, h)))


def _angle(rng: np.random.Generator) -> float:
    r = rng.random()
    if r < 0.5:
        return 90.0 * int(rng.integers(4))
    if r < 0.75:
        return float(rng.uniform(-15, 15)) + 90.0 * int(rng.integers(4))
    return float(rng.uniform(0, 360))


def tilt(rng: np.random.Generator, canvas=CANVAS, amount: float = TILT) -> np.ndarray:
    """A (3, 3) float64 homography of a (W, H) canvas onto itself: each corner moved at random by up
    to ``amount`` of the canvas's width and height, as a camera tilted another way (or a frame
    stretched to another aspect) sees the same table."""
    w, h = canvas
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    moved = corners + rng.uniform(-amount, amount, (4, 2)).astype(np.float32) * np.float32([w, h])
    return cv2.getPerspectiveTransform(corners, moved).astype(np.float64)


def _through(hom: np.ndarray, pts: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, 2) points and (N,) sizes (px) mapped by a (3, 3) homography: each size scaled by the
    square root of the map's local change of area there (NaN sizes stay NaN)."""
    def through(q):
        return cv2.perspectiveTransform(np.asarray(q, np.float64).reshape(-1, 1, 2), hom).reshape(-1, 2)

    d = np.where(np.isnan(sizes), 1.0, np.maximum(sizes, 1.0))[:, None] / 2
    c, u, v = through(pts), through(pts + d * [1, 0]), through(pts + d * [0, 1])
    area = np.abs((u - c)[:, 0] * (v - c)[:, 1] - (u - c)[:, 1] * (v - c)[:, 0]) / (d[:, 0] ** 2)
    return c, sizes * np.sqrt(area)


def view(item: Labelled, rng: np.random.Generator, canvas=CANVAS, strength: float = 1.0,
         slant: float = 0.0):
    """One augmented view: ((H, W, 3) uint8 BGR canvas, (N, 4) float32 dice in canvas px with
    sizes scaled (NaN sizes stay NaN), the typical die size in canvas px). ``slant``: the share of
    views also seen through a random ``tilt`` (0: none, as the shipped finder was trained)."""
    w_out, h_out = canvas
    s = _scale(item, rng)
    img = item.image
    pre = 1.0
    if s < 0.5:  # area-resample first: warpAffine would alias a large reduction
        pre = s * 1.6
        img = cv2.resize(img, (max(1, round(img.shape[1] * pre)), max(1, round(img.shape[0] * pre))),
                         interpolation=cv2.INTER_AREA)
    s_rest = s / pre
    h, w = img.shape[:2]
    angle = _angle(rng)
    # The canvas centre looks at a random point of the image (dice near its edges included).
    px, py = rng.uniform(0, w), rng.uniform(0, h)
    if len(item.dice) and rng.random() < 0.7:
        k = int(rng.integers(len(item.dice)))
        px, py = item.dice[k, 0] * pre + rng.normal(0, w_out / 4 / s_rest), item.dice[k, 1] * pre + rng.normal(0, h_out / 4 / s_rest)
    m = cv2.getRotationMatrix2D((float(px), float(py)), angle, s_rest)
    m[:, 2] += (w_out / 2 - px, h_out / 2 - py)
    if rng.random() < 0.5:  # a mirror view
        m = np.array([[-1, 0, w_out], [0, 1, 0]], np.float64) @ np.vstack([m, [0, 0, 1]])
    fill = (PAD_VALUE,) * 3 if rng.random() < 0.5 else tuple(int(v) for v in rng.integers(0, 256, 3))
    # Drawn only for slanted runs, so that a run without them draws exactly the views it always did.
    hom = tilt(rng, canvas) if slant > 0 and rng.random() < slant else None
    if hom is None:
        out = cv2.warpAffine(img, m, (w_out, h_out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=fill)
    else:
        out = cv2.warpPerspective(img, hom @ np.vstack([m, [0, 0, 1]]), (w_out, h_out), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    dice = item.dice.copy()
    typical = item.typical * s
    if len(dice):
        pts = np.column_stack([dice[:, :2] * pre, np.ones(len(dice))]) @ m.T
        dice[:, :2] = pts
        dice[:, 2] *= s
        if hom is not None:
            dice[:, :2], dice[:, 2] = _through(hom, dice[:, :2].astype(np.float64), dice[:, 2].astype(np.float64))
    if hom is not None:  # the typical size, as it is at the canvas centre
        typical = float(_through(hom, np.array([[w_out / 2, h_out / 2]]), np.array([typical]))[1][0])
    return photometric(out, rng, strength), dice, typical


def mosaic(items: list[Labelled], rng: np.random.Generator, canvas=CANVAS, slant: float = 0.0):
    """One view of four images, as ``view`` gives it: each image's own view (at its own scale,
    turn, light and camera) fills a quarter of the canvas, so one view shows the finder four
    tables, their dice and their clutter side by side (YOLOv4's mosaic). Returns ((H, W, 3) uint8
    BGR canvas, (N, 4) float32 dice in canvas px, (N,) float64 typical die size of each die's
    image in canvas px)."""
    w, h = canvas
    qw, qh = w // 2, h // 2
    out = np.empty((h, w, 3), np.uint8)
    dice, typical = [], []
    for k, item in enumerate(items[:4]):
        part, found, typ = view(item, rng, (qw, qh), slant=slant)
        ox, oy = (k % 2) * qw, (k // 2) * qh
        out[oy:oy + qh, ox:ox + qw] = part
        # A die whose centre lies outside its quarter would land in another one's.
        inside = (found[:, 0] >= 0) & (found[:, 0] < qw) & (found[:, 1] >= 0) & (found[:, 1] < qh)
        found = found[inside].copy()
        found[:, 0] += ox
        found[:, 1] += oy
        dice.append(found)
        typical += [typ] * len(found)
    return out, np.concatenate(dice).astype(np.float32).reshape(-1, 4), np.array(typical, np.float64)


def targets(dice: np.ndarray, typical, canvas=CANVAS):
    """The target maps of a view's dice: heat (h, w), log size (h, w), offset (2, h, w), the
    masks of the cells where size and offset count (h, w), and the weight of each cell in the
    centre loss (h, w; 0 over dice of a size this level does not read), all float32;
    h, w = canvas / STRIDE. ``typical`` (canvas px; one for all dice, or one per die) stands in for
    unknown sizes."""
    w, h = canvas[0] // STRIDE, canvas[1] // STRIDE
    heat = np.zeros((h, w), np.float32)
    size = np.zeros((h, w), np.float32)
    offset = np.zeros((2, h, w), np.float32)
    size_mask = np.zeros((h, w), np.float32)
    offset_mask = np.zeros((h, w), np.float32)
    weight = np.ones((h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    typicals = np.broadcast_to(np.asarray(typical, np.float64), (len(dice),))
    for (cx, cy, s, _), typ in zip(dice, typicals):
        gx, gy = cx / STRIDE, cy / STRIDE
        ix, iy = int(math.floor(gx)), int(math.floor(gy))
        known = not math.isnan(s)
        px = s if known else float(typ)
        if not MIN_INPUT - 1 <= px <= 1.25 * MAX_INPUT:
            r = max(1.0, 0.6 * px / STRIDE)
            weight[(xx + 0.5 - gx) ** 2 + (yy + 0.5 - gy) ** 2 <= r * r] = 0.0
            continue
        if not (0 <= ix < w and 0 <= iy < h):
            continue
        side = px / STRIDE
        sigma = max(0.6, side / 6.0)
        bump = np.exp(-((xx - gx + 0.5) ** 2 + (yy - gy + 0.5) ** 2) / (2 * sigma * sigma))
        np.maximum(heat, bump, out=heat)
        heat[iy, ix] = 1.0
        offset[:, iy, ix] = (gx - ix, gy - iy)
        offset_mask[iy, ix] = 1.0
        if known and s > 1:
            size[iy, ix] = math.log(s)
            size_mask[iy, ix] = 1.0
    heat[weight == 0] = 0.0
    return heat, size, offset, size_mask, offset_mask, weight
