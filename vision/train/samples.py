"""Labelled images for training, real and rendered, in one form: an image and its dice.

A die here is a row (cx, cy, size, value): its centre and size (extent) in px, and its top face 1-6,
or 0 for "not a readable top face" (a cocked die, a die mostly hidden). ``size`` is NaN where the
labels do not give it: matteop65's boxes hold only the pip pattern (``vision.photos.BOX_KINDS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.photos import Photo


@dataclass
class Labelled:
    """One training image.

    image: (H, W, 3) uint8 BGR. dice: (N, 4) float32 rows (cx, cy, size, value), px.
    typical: px, a typical die size in the image (the median known size, or an estimate), for
        choosing training scales; 0 for an image without dice.
    source: where it came from. complete: every die in it is labelled (else no negatives are cut
        from it).
    pips: (M, 2) float32 px, the centre of every pip on the top faces of the dice whose value is
        taught (rendered images); None where pips are not known (photos).
    unknown_pips: (K, 3) float32 (cx, cy, size) px of the dice whose pips are not in ``pips`` (cocked,
        partly hidden): crops that reach them teach no pip map.
    """

    image: np.ndarray
    dice: np.ndarray
    typical: float
    source: str
    complete: bool = True
    pips: np.ndarray | None = None
    unknown_pips: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))


# A pip pattern's extent relative to the die's extent, for the scale of an image whose boxes hold
# only pips: the pattern of a 4, 5 or 6 is about 0.68 of the top face, and a die seen obliquely
# extends about 1.25 times its top face.
PATTERN_SHARE = 0.55


def pattern_size(boxes, values) -> float:
    """px: a die size estimated from pip-pattern boxes (x, y, w, h) of one image (its dice are one
    set at one distance): the median larger side of its 4s, 5s and 6s / ``PATTERN_SHARE``, else
    of its 2s and 3s (a little shorter pattern); 0 when it has only 1s."""
    sides = [max(b[2], b[3]) for b, v in zip(boxes, values) if v >= 4]
    sides = sides or [max(b[2], b[3]) * 1.15 for b, v in zip(boxes, values) if v in (2, 3)]
    return float(np.median(sides)) / PATTERN_SHARE if sides else 0.0


def from_photo(photo: Photo) -> Labelled | None:
    """The photo as a training image (None when it cannot be loaded). Boxes become centres and
    sizes as ``photo.box_kind`` says: a top face or a whole die gives its box's larger side; a pip
    pattern gives no size (``typical`` is then estimated by ``pattern_size``)."""
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        return None
    pips = photo.box_kind == "pips"
    rows = [(x + w / 2, y + h / 2, np.nan if pips else float(max(w, h)), v)
            for (x, y, w, h), v in zip(photo.boxes, photo.box_values)]
    dice = np.array(rows, np.float32).reshape(-1, 4)
    typical = pattern_size(photo.boxes, photo.box_values) if pips else (float(np.median(dice[:, 2])) if len(dice) else 0.0)
    return Labelled(image, dice, typical, photo.source, complete=not photo.excluded)


def load_photos(photos) -> list[Labelled]:
    """The loadable ones of ``photos`` (``vision.photos.Photo``) as training images; an image whose
    dice sizes cannot be estimated (matteop65 photos of only 1s) takes its source's median."""
    items = [it for it in (from_photo(p) for p in photos) if it is not None]
    for source in {it.source for it in items}:
        sizes = [it.typical for it in items if it.source == source and it.typical > 0]
        for it in items:
            if it.source == source and it.typical <= 0 and len(it.dice) and sizes:
                it.typical = float(np.median(sizes))
    return items
