"""Rendered training scenes (``vision.synth_scenes``) as training images, drawn on both cores.

A scene's die becomes a row as the photos' dice do, centred on the box of the whole visible die (as
most photo labels are) with that box's larger side as its size. Its class: the value of a die lying
flat and at least ``SHOWS`` visible; ``COCKED`` for a cocked die that shows; 0 ("not a die's top
face") for a die mostly hidden; -1 (left out of the face reader's training) in between. Dice showing less than ``FOUND``
are dropped: neither to be found nor a part of the background.
"""

from __future__ import annotations

from multiprocessing import Pool

import cv2
import numpy as np

from vision.faces import COCKED, NOT_A_FACE
from vision.train.samples import Labelled

SHOWS = 0.85  # share of a die visible for its value to be taught
HIDDEN = 0.6  # below this share visible a die is "not a readable top face"
FOUND = 0.4  # below this share visible a die is neither found nor background
LONG_SIDE = 800  # px: larger scenes are kept shrunk to this (memory; training rescales anyway)


def scene(seed: int) -> Labelled:
    """The scene of ``seed`` as a training image."""
    from vision.synth_scenes import render_scene

    image, truth = render_scene(seed)
    scale = min(1.0, LONG_SIDE / max(image.shape[:2]))
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    rows = []
    for d in truth:
        if d.visible < FOUND:
            continue
        x, y, w, h = d.box
        if d.visible < HIDDEN:
            cls = NOT_A_FACE
        elif d.visible < SHOWS:
            cls = -1
        elif not d.flat:
            cls = COCKED
        else:
            cls = d.value
        rows.append(((x + w / 2) * scale, (y + h / 2) * scale, max(w, h) * scale, cls))
    dice = np.array(rows, np.float32).reshape(-1, 4)
    typical = float(np.median(dice[:, 2])) if len(dice) else 0.0
    return Labelled(image, dice, typical, "synthetic")


def scenes(count: int, seed: int, processes: int = 2) -> list[Labelled]:
    """``count`` scenes, seeds ``seed * 1_000_003 + i``, rendered by ``processes`` worker processes."""
    seeds = [seed * 1_000_003 + i for i in range(count)]
    if count == 0:
        return []
    with Pool(processes) as pool:
        return pool.map(scene, seeds, chunksize=16)
