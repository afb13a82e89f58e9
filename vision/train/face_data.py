"""Training examples for the face reader: crops of dice and of what is not a die's top face.

A crop is cut as the product cuts it (``vision.faces.crop``) around a centre and a size, jittered the
way the finder's centres and sizes err, turned a little and mirrored (a face's pips count the same),
and changed photometrically. Kinds of crop, each with its class:

- ``die``: a labelled die at its centre and size, class = its value (0 for a cocked or hidden die,
  none for a die between, class -1 in ``vision.train.scenes``);
- ``found``: a die as the finder found it (its centre and size), class = the value of the labelled
  die it matched; the finder's other finds are ``not a face`` (its false alarms, the hardest negatives);
- ``aside``: centred off a die, by 0.6-1 of its size (a die cut in half is no top face);
- ``small``: a die's part at a third of its size (a pip alone looks like a 1);
- ``tray``: anywhere away from the dice, at a die's size.
Negatives are cut only from images whose every die is labelled. Where the pips are known (rendered
scenes), a crop also has its pip map (``pip_target``), which the face reader learns beside its class.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.faces import CROP, CROP_SCALE, NOT_A_FACE, crop
from vision.train.augment import colour, exposure, sensor
from vision.train.samples import Labelled

# Degrees a crop is turned at most. Dice lie at every angle in the photos already; turning crops
# further would hide which way is up in an oblique photo, and there the top face is the one above.
MAX_TURN = 25.0

# A crop: (image index, cx, cy, size, class, jitter); jitter 1 for the die and aside kinds, smaller
# for the finder's own finds (their centres are already where the product cuts).
Spec = tuple[int, float, float, float, int, float]


def cut_transform(cx: float, cy: float, size: float, out: int = CROP, scale: float = CROP_SCALE) -> np.ndarray:
    """(2, 3) float64: frame px to the px of the (out, out) crop ``vision.faces.crop`` cuts around
    (cx, cy) for a die of ``size`` px (its square, then cv2.resize's pixel-centre mapping)."""
    side = max(2.0, scale * size)
    x0, y0 = math.floor(cx - side / 2), math.floor(cy - side / 2)
    k = out / max(2, int(round(side)))
    return np.array([[k, 0.0, (0.5 - x0) * k - 0.5], [0.0, k, (0.5 - y0) * k - 0.5]])


# The smallest die the product reads (``vision.reader.ReaderParams.min_die``, px) and the largest
# that ``small_die`` makes of a larger one.
SMALL_DIE = (10.0, 24.0)


def small_die(crop_: np.ndarray, size: float, rng: np.random.Generator) -> np.ndarray:
    """An (S, S, 3) uint8 BGR crop of a die of ``size`` px as the product cuts it from a die of 10-24
    px (``SMALL_DIE``) in the frame: shrunk to that die's square (area-resampled) and brought back
    up to S px (linearly, as ``vision.faces.crop`` enlarges a small die's square). The pips keep
    their places: a large die is taught how it looks from a high camera. A die already that small
    is left as it is."""
    s = crop_.shape[0]
    die = rng.uniform(*SMALL_DIE)
    side = int(round(CROP_SCALE * die * s / CROP))
    if die >= size or side >= s:
        return crop_
    low = cv2.resize(crop_, (side, side), interpolation=cv2.INTER_AREA)
    return cv2.resize(low, (s, s), interpolation=cv2.INTER_LINEAR)


def jittered_view(image: np.ndarray, cx: float, cy: float, size: float, rng: np.random.Generator,
                  jitter: float = 1.0, out: int = CROP, small: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """An augmented (out, out, 3) uint8 BGR crop around (cx, cy) of a die of ``size`` px, and the
    (2, 3) float64 affine map from frame px to its px (where the frame's pips landed). ``small``: the
    share of crops that are also seen as from a die of 10-24 px (``small_die``; 0: none, and the
    random draws are those of before)."""
    size *= math.exp(rng.uniform(-0.15, 0.18) * jitter)
    cx += rng.normal(0, 0.07 * jitter) * size
    cy += rng.normal(0, 0.07 * jitter) * size
    wide = 1.5  # room to turn the crop without its corners leaving the cut
    big = colour(crop(image, (cx, cy), size, out=2 * out, scale=CROP_SCALE * wide), rng)
    # big is 2 * out px across for wide times the crop's field: out px for the field is a scale of
    # wide / 2, about big's centre, which then moves to the output's centre.
    m = cv2.getRotationMatrix2D((out - 0.5, out - 0.5), float(rng.uniform(-MAX_TURN, MAX_TURN)), wide / 2)
    m[:, 2] -= (out / 2, out / 2)
    view = cv2.warpAffine(big, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    to_crop = m @ np.vstack([cut_transform(cx, cy, size, 2 * out, CROP_SCALE * wide), (0.0, 0.0, 1.0)])
    if rng.random() < 0.5:
        view = view[:, ::-1]
        to_crop = np.array([[-1.0, 0.0, out - 1.0], [0.0, 1.0, 0.0]]) @ np.vstack([to_crop, (0.0, 0.0, 1.0)])
    if small and rng.random() < small:
        view = small_die(view, size, rng)
    return np.ascontiguousarray(sensor(exposure(view, rng), rng, 0.7)), to_crop


def jittered(image: np.ndarray, cx: float, cy: float, size: float, rng: np.random.Generator,
             jitter: float = 1.0, out: int = CROP) -> np.ndarray:
    """An augmented (out, out, 3) uint8 BGR crop around (cx, cy) of a die of ``size`` px
    (``jittered_view`` without its map)."""
    return jittered_view(image, cx, cy, size, rng, jitter, out)[0]


# The face reader's pip map (``vision.train.nets.FaceNet.pip_logits``): PIP_GRID x PIP_GRID cells over
# the crop, each pip a Gaussian peak of PIP_SIGMA cells whose nearest cell is 1 (CenterNet's targets).
PIP_GRID = 16
PIP_SIGMA = 0.7


def pip_target(item: Labelled, to_crop: np.ndarray, out: int = CROP) -> tuple[np.ndarray, np.float32]:
    """The pip map a crop of ``item`` should give, and whether it is known: ((PIP_GRID, PIP_GRID)
    float32 0-1, 1.0 or 0.0). ``to_crop``: the crop's (2, 3) map from frame px (``jittered_view``).
    Unknown for a photo (its pips are not labelled) and for a crop that reaches a die whose pips
    are not taught (``Labelled.unknown_pips``)."""
    heat = np.zeros((PIP_GRID, PIP_GRID), np.float32)
    if item.pips is None:
        return heat, np.float32(0.0)
    k = math.sqrt(abs(np.linalg.det(to_crop[:, :2])))
    if len(item.unknown_pips):
        q = item.unknown_pips[:, :2] @ to_crop[:, :2].T + to_crop[:, 2]
        gap = np.hypot(*(np.clip(q, 0, out) - q).T)  # px from the crop's square
        if np.any(gap < 0.5 * k * item.unknown_pips[:, 2]):
            return heat, np.float32(0.0)
    cell = out / PIP_GRID
    grid = np.arange(PIP_GRID, dtype=np.float32)
    for x, y in (item.pips @ to_crop[:, :2].T + to_crop[:, 2]) / cell - 0.5:
        if not (-0.5 <= x < PIP_GRID - 0.5 and -0.5 <= y < PIP_GRID - 0.5):
            continue
        peak = np.exp(-((grid[None, :] - x) ** 2 + (grid[:, None] - y) ** 2) / (2 * PIP_SIGMA ** 2))
        np.maximum(heat, peak, out=heat)
        heat[int(round(y)), int(round(x))] = 1.0
    return heat, np.float32(1.0)


def _clear_of(dice: np.ndarray, x: float, y: float, size: float, typical: float) -> bool:
    """Whether a crop of ``size`` at (x, y) holds no die's centre region."""
    if not len(dice):
        return True
    sizes = np.where(np.isnan(dice[:, 2]), typical, dice[:, 2])
    d = np.hypot(dice[:, 0] - x, dice[:, 1] - y)
    return bool(np.all(d > 0.55 * (sizes + size * CROP_SCALE) * 0.9))


def _around_dice(k: int, it: Labelled, rng: np.random.Generator, negatives: float) -> list[Spec]:
    """The ``die`` crops of one image's labelled dice, and for a complete image with probability
    ``negatives`` per die an ``aside`` and a ``small`` crop of it."""
    specs: list[Spec] = []
    for i, (cx, cy, s, v) in enumerate(it.dice):
        size = it.typical if math.isnan(s) else float(s)
        if v >= 0:  # -1: a die half hidden, neither taught as a face nor as none
            specs.append((k, float(cx), float(cy), size, int(v), 1.0))
        if not it.complete or rng.random() > negatives:
            continue
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(0.6, 1.0) * size
        ax, ay = cx + d * math.cos(a), cy + d * math.sin(a)
        if _clear_of(np.delete(it.dice, i, axis=0), ax, ay, size, it.typical):
            specs.append((k, ax, ay, size, NOT_A_FACE, 0.5))
        small = size * rng.uniform(0.25, 0.45)
        specs.append((k, cx + rng.uniform(-0.3, 0.3) * size, cy + rng.uniform(-0.3, 0.3) * size, small, NOT_A_FACE, 0.3))
    return specs


def _tray(k: int, it: Labelled, rng: np.random.Generator, negatives: float) -> list[Spec]:
    """``tray`` crops of a complete image: about ``negatives`` per die (two at least), at a die's size."""
    h, w = it.image.shape[:2]
    typical = it.typical or 0.08 * max(w, h)
    specs: list[Spec] = []
    for _ in range(max(2, int(round(negatives * max(1, len(it.dice)))))):
        size = typical * math.exp(rng.uniform(-0.6, 0.6))
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if _clear_of(it.dice, x, y, size, typical):
            specs.append((k, x, y, size, NOT_A_FACE, 1.0))
    return specs


def label_specs(items: list[Labelled], rng: np.random.Generator, negatives: float = 1.0) -> list[Spec]:
    """The ``die`` crops of every labelled die and, for complete images, about ``negatives`` times
    as many ``aside``, ``small`` and ``tray`` crops."""
    specs: list[Spec] = []
    for k, it in enumerate(items):
        specs += _around_dice(k, it, rng, negatives)
        if it.complete:
            specs += _tray(k, it, rng, negatives)
    return specs


def make(items: list[Labelled], specs: list[Spec], rng: np.random.Generator,
         jitter: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The crops of ``specs``: ((N, CROP, CROP, 3) uint8 BGR, (N,) int64 classes); without
    ``jitter`` cut exactly as the product cuts them."""
    if not jitter:
        x = np.stack([crop(items[k].image, (cx, cy), s) for k, cx, cy, s, _, _ in specs])
    else:
        x = np.stack([jittered(items[k].image, cx, cy, s, rng, j) for k, cx, cy, s, _, j in specs])
    y = np.array([c for *_, c, _ in specs], np.int64)
    return x, y
