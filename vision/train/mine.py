"""The finder's own finds on the training images, as the face reader's training crops.

The face reader must read dice where the finder puts them, at the size it gives, and refuse what the
finder takes for a die by mistake; so after the finder is trained it is run on every training image
(through the product's ``vision.finder.DieFinder``) and each find becomes a crop: a find on a
labelled die (its centre within half the find's size of the label's, and, where the label gives a
size, a size within a factor ``SIZE_TOLERANCE`` of it) is taught as that die's class; any other find
in an image whose every die is labelled is taught as "not a readable top face".
"""

from __future__ import annotations

import math

import numpy as np

from vision.faces import NOT_A_FACE
from vision.finder import DieFinder
from vision.train.face_data import Spec
from vision.train.samples import Labelled

SIZE_TOLERANCE = 1.6
FLOOR = 0.05  # the weakest find used, as the reader's ``ReaderParams.floor``


def match(find, dice: np.ndarray, typical: float) -> int | None:
    """The row index of the labelled die ``find`` (a ``vision.finder.Candidate``) lies on, or None."""
    best, best_d = None, math.inf
    for i, (cx, cy, s, _) in enumerate(dice):
        d = math.hypot(find.center[0] - cx, find.center[1] - cy)
        size = typical if math.isnan(s) else s
        if size <= 0:
            continue
        if d < 0.5 * max(find.size, 0.6 * size) and 1 / SIZE_TOLERANCE <= find.size / size <= SIZE_TOLERANCE and d < best_d:
            best, best_d = i, d
    return best


def found_specs(finder: DieFinder, items: list[Labelled]) -> tuple[list[Spec], list[float], dict]:
    """The finds on ``items`` as crop specs, each find's score (the finder's peak, 0-1), and
    counts: dice labelled, found, false finds."""
    specs: list[Spec] = []
    scores: list[float] = []
    counts = {"dice": 0, "found": 0, "false": 0}
    for k, it in enumerate(items):
        finds = finder.find(it.image, FLOOR)
        counts["dice"] += len(it.dice)
        hit = set()
        for f in finds:
            i = match(f, it.dice, it.typical)
            if i is not None:
                cls = int(it.dice[i, 3])
                hit.add(i)
                if cls >= 0:
                    specs.append((k, f.center[0], f.center[1], f.size, cls, 0.5))
                    scores.append(f.score)
            elif it.complete and not _near(f, it.dice, it.typical):
                specs.append((k, f.center[0], f.center[1], f.size, NOT_A_FACE, 0.5))
                scores.append(f.score)
                counts["false"] += 1
        counts["found"] += len(hit)
    return specs, scores, counts


def _near(find, dice: np.ndarray, typical: float) -> bool:
    """Whether a find lies on a labelled die at a wrong size: a pip of it, or it with its neighbour
    (kept out of the negatives only when it is centred on the die: then it is the finder's size
    that errs, which the reader's gate meets)."""
    for cx, cy, s, _ in dice:
        size = typical if math.isnan(s) else s
        if math.hypot(find.center[0] - cx, find.center[1] - cy) < 0.2 * size and find.size > size:
            return True
    return False
