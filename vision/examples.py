"""Labelled die crops from a taught throw: what the face reader saw of each die, and the value the
table was told it shows.

The crops are cut exactly as the reader cuts them at play (around the die finder's candidates, at
their size: ``vision.faces.crop``), so the adaptation learns from what it will later read.

Two ways a throw is labelled:

- ``from_values``: the throw's values (a confirmed or corrected roll, ``dicetable teach IMAGE
  --values``), in any order. The reader finds the dice; their number must be the number of values.
  The values are given to the dice in the assignment the shipped face reader finds likeliest (for
  up to ``EXACT_UP_TO`` dice every assignment is tried, beyond that the surest die chooses first):
  with one die misread, the others keep their values and the misread one gets the value left over.
  Candidates the reader is sure are no die are kept as "not a die" (label 0).
- ``from_boxes``: labelled boxes of a photo (the dice-photos manifests): each candidate matched to a
  box (``vision.evaluate.match``) takes its value, the candidates matched to none are "not a die",
  and a labelled die the finder missed gives nothing (the face reader never sees it).
"""

from __future__ import annotations

import itertools

import numpy as np

from vision.faces import COCKED, crops
from vision.reader import Models, Weighed, read_dice
from vision.reading import DiceReading

EXACT_UP_TO = 7  # dice: 7! = 5,040 assignments are tried at once; more are given greedily


class LabelError(ValueError):
    """The labels do not fit the throw (their count is not the number of dice found, a value is not
    1-6); the message says which, in the user's words."""


def _weighed(bgr: np.ndarray, expected: int | None, models: Models) -> list[Weighed]:
    return read_dice(bgr, expected=expected, models=models, debug=True).extra.get("candidates", [])


def check_values(values) -> tuple[int, ...]:
    """The values as ints 1-6. Raises LabelError for anything else."""
    out = []
    for v in values:
        text = str(v).strip()
        if len(text) != 1 or text not in "123456":
            raise LabelError(f"a die's value is 1-6, not {v!r}")
        out.append(int(text))
    if not out:
        raise LabelError("no values given")
    return tuple(out)


def assign(probabilities: np.ndarray, values: tuple[int, ...]) -> list[int]:
    """The value of each of N dice: the assignment of ``values`` (N of them, any order) that the
    (N, CLASSES) probabilities find likeliest (see the module docstring)."""
    logp = np.log(np.clip(probabilities[:, 1:COCKED], 1e-12, None))
    n = len(values)
    vals = np.asarray(values) - 1
    if n <= EXACT_UP_TO:
        perms = np.array(list(itertools.permutations(range(n))))
        total = logp[np.arange(n)[None, :], vals[perms]].sum(axis=1)
        return [int(v) + 1 for v in vals[perms[int(np.argmax(total))]]]
    out, left = [0] * n, list(vals)
    for i in np.argsort(-logp.max(axis=1)):
        j = max(range(len(left)), key=lambda k: logp[i, left[k]])
        out[int(i)] = int(left.pop(j)) + 1
    return out


def from_values(bgr: np.ndarray, values, models: Models) -> tuple[np.ndarray, np.ndarray]:
    """(crops (M, CROP, CROP, 3) uint8 BGR, labels (M,) int64) of one throw in an (H, W, 3) uint8
    BGR frame whose dice show ``values`` (any order). Raises LabelError when a value is not 1-6 or
    the reader finds another number of dice (nothing is taught then)."""
    values = check_values(values)
    reads = _weighed(bgr, len(values), models)
    gate = models.gate
    dice = [r for r in reads if r.die >= gate.die_at]
    if len(dice) != len(values):
        found, given = len(dice), len(values)
        raise LabelError(f"the reader finds {found} {'die' if found == 1 else 'dice'} there, but {given} "
                         f"{'value was' if given == 1 else 'values were'} given")
    not_dice = [r for r in reads if r.die < gate.doubt_at]
    dice_crops = crops(bgr, dice)
    labels = assign(models.faces.probabilities(bgr, [r.cand for r in dice]), values)
    return np.concatenate([dice_crops, crops(bgr, not_dice)]), np.array(labels + [0] * len(not_dice), np.int64)


def from_boxes(bgr: np.ndarray, photo, models: Models) -> tuple[np.ndarray, np.ndarray]:
    """(crops, labels) as ``from_values`` gives them, of a labelled photo (``vision.photos.Photo``:
    its ``boxes`` and ``box_values``) in an (H, W, 3) uint8 BGR frame."""
    from vision.evaluate import match

    reads = _weighed(bgr, len(photo.values), models)
    pairs = match(photo, DiceReading("ok", tuple(r.as_die() for r in reads)))
    value_of = {di: photo.box_values[li] for li, di in pairs}
    labels = np.array([value_of.get(i, 0) for i in range(len(reads))], np.int64)
    return crops(bgr, reads), labels
