"""Labelled die crops from a taught throw: what the face reader saw of each die, and the value the
table was told it shows.

The crops are cut exactly as the reader cuts them at play (around the die finder's candidates, at
their size: ``vision.faces.crop``), so the adaptation learns from what it will later read.

Two ways a throw is labelled:

- ``from_values``: the throw's values (a confirmed or corrected roll, ``dicetable teach IMAGE
  --values``), in any order. The reader finds the dice; they must not be more than the values.
  When they are fewer, the table was told how many dice lie there: the candidates likeliest to be
  dice make up the count if the reader had them as doubts (at least the gate's ``doubt_at``: "may
  be a die"), for a die the table misses is what it must learn to count; the count never makes a
  die of what the reader takes for none (a value given too many would teach a die that is not there).
  The values are given to the dice in the assignment the shipped face reader finds likeliest (for
  up to ``EXACT_UP_TO`` dice every assignment is tried, beyond that the surest die chooses first):
  with one die misread, the others keep their values and the misread one gets the value left over.
  The other candidates are kept as "not a die" (label 0).
- ``from_boxes``: labelled boxes of a photo (the dice-photos manifests): each candidate matched to a
  box (``vision.evaluate.match``) takes its value, the candidates matched to none are "not a die",
  and a labelled die the finder missed gives nothing (the face reader never sees it); while a
  labelled die is unmatched (missed, or its box is off), the unmatched candidates are left out, as
  one of them may be that die.

Each crop keeps its candidate's die finder score, from which the table chooses its own die threshold
(``vision.adapt``).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

from vision.faces import COCKED, crops
from vision.reader import Models, Weighed, read_dice
from vision.reading import DiceReading

EXACT_UP_TO = 7  # dice: 7! = 5,040 assignments are tried at once; more are given greedily


class Taught(NamedTuple):
    """One taught throw as the store keeps it: crops (M, CROP, CROP, 3) uint8 BGR, labels (M,)
    int64 (1-6 a value, 0 not a die), scores (M,) float64 (the die finder's peak at each, 0-1)."""

    crops: np.ndarray
    labels: np.ndarray
    scores: np.ndarray


def _taught(bgr: np.ndarray, reads: list[Weighed], labels: list[int]) -> Taught:
    return Taught(crops(bgr, reads), np.array(labels, np.int64), np.array([r.cand.score for r in reads], np.float64))


class LabelError(ValueError):
    """The labels do not fit the throw (more dice found than values, too few doubts to make up their
    number, no labelled box on a die found, a value not 1-6); the message says which, in the user's
    words."""


class NoneFound(LabelError):
    """No labelled die is found where its box is (``from_boxes``): dice the reader cannot find in
    that photo, or boxes of another image."""


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


def from_values(bgr: np.ndarray, values, models: Models) -> Taught:
    """The ``Taught`` throw in an (H, W, 3) uint8 BGR frame whose dice show ``values`` (any order).
    Raises LabelError when a value is not 1-6, or the reader finds more dice than values or too
    few doubts to make up their number (nothing is taught then)."""
    values = check_values(values)
    n = len(values)
    reads = sorted(_weighed(bgr, n, models), key=lambda r: -r.die)
    found = sum(r.die >= models.gate.die_at for r in reads)
    if found > n or len(reads) < n or reads[n - 1].die < models.gate.doubt_at:
        raise LabelError(f"the reader finds {found} {'die' if found == 1 else 'dice'} there, but {n} "
                         f"{'value was' if n == 1 else 'values were'} given")
    labels = assign(models.faces.probabilities(bgr, [r.cand for r in reads[:n]]), values)
    return _taught(bgr, reads, labels + [0] * (len(reads) - n))


def from_boxes(bgr: np.ndarray, photo, models: Models) -> Taught:
    """The ``Taught`` throw, as ``from_values`` gives it, of a labelled photo (``vision.photos.Photo``:
    its ``boxes`` and ``box_values``) in an (H, W, 3) uint8 BGR frame; while a labelled die is not
    found where its box is, only the found ones are taught (nothing as "not a die"). Raises
    LabelError when a value is not 1-6, NoneFound when no labelled die is found where its box is (nothing is
    taught then)."""
    from vision.evaluate import match

    check_values(photo.box_values)
    reads = _weighed(bgr, len(photo.values), models)
    pairs = match(photo, DiceReading("ok", tuple(r.as_die() for r in reads)))
    if photo.box_values and not pairs:
        raise NoneFound(f"the reader finds none of the {len(photo.box_values)} labelled dice where their boxes are "
                         "(dice too small or unlike any it knows, or boxes of another image size?)")
    value_of = {di: photo.box_values[li] for li, di in pairs}
    # While a labelled die is unmatched (its box off, or the reader did not find it), any unmatched
    # candidate may be that die: only the matched ones are taught, none as "not a die".
    kept = range(len(reads)) if len(pairs) == len(photo.box_values) else sorted(value_of)
    return _taught(bgr, [reads[i] for i in kept], [value_of.get(i, 0) for i in kept])
