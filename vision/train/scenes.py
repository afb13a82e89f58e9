"""Rendered training scenes (``vision.synth_scenes``) and throws on the appliance's own synthetic
table (``vision.synth``) as training images, drawn on both cores.

A scene's die becomes a row as the photos' dice do, centred on the box of the whole visible die (as
most photo labels are) with that box's larger side as its size. Its class: the value of a die lying
flat and at least ``SHOWS`` visible; ``COCKED`` for a cocked die that shows; 0 ("not a die's top
face") for a die mostly hidden; -1 (left out of the face reader's training) in between. Dice showing less than ``FOUND``
are dropped: neither to be found nor a part of the background. The pips of the dice whose value is
taught are kept too (``Labelled.pips``), for the face reader's pip map.
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
    rows, pips, unknown = [], [], []
    for d in truth:
        x, y, w, h = d.box
        centre = ((x + w / 2) * scale, (y + h / 2) * scale, max(w, h) * scale)
        if d.visible < SHOWS or not d.flat:
            unknown.append(centre)
        else:
            pips.append(d.pips * scale)
        if d.visible < FOUND:
            continue
        if d.visible < HIDDEN:
            cls = NOT_A_FACE
        elif d.visible < SHOWS:
            cls = -1
        elif not d.flat:
            cls = COCKED
        else:
            cls = d.value
        rows.append((*centre, cls))
    dice = np.array(rows, np.float32).reshape(-1, 4)
    typical = float(np.median(dice[:, 2])) if len(dice) else 0.0
    return Labelled(image, dice, typical, "synthetic",
                    pips=np.concatenate(pips).astype(np.float32) if pips else np.zeros((0, 2), np.float32),
                    unknown_pips=np.array(unknown, np.float32).reshape(-1, 3))


# Box sides: the synthetic table's truth gives the top face's box; the whole die (what the finder
# learns) reaches a little past it under its tilted camera.
TOP_TO_DIE = 1.08


def table_throw(seed: int) -> Labelled:
    """One still throw on the appliance's synthetic table (``vision.synth.SyntheticTable``) with a
    look of its own (``TableLook.random``): 1-6 dice, one in three throws with a die cocked against
    the tray wall (class ``COCKED``), one in ten with a die beside the tray (flat: its value)."""
    from vision.synth import SyntheticTable, TableLook

    rng = np.random.default_rng([seed, 11])
    n = int(rng.integers(1, 7))
    table = SyntheticTable(n, seed=seed, look=TableLook.random(seed))
    cocked = int(rng.integers(n)) if rng.uniform() < 0.33 else None
    off = int(rng.integers(n)) if cocked is None and rng.uniform() < 0.15 else None
    try:
        table.throw(off_tray=off, cocked=cocked)
    except ValueError:  # no room beside this tray for a die thrown off it
        table.throw(cocked=cocked)
    for _ in range(table.frames_until_still() + 1):
        frame = table.read()
    truth = table.truth
    rows = [(x + w / 2, y + h / 2, max(w, h) * TOP_TO_DIE, v) for v, (x, y, w, h) in
            [(d.value, d.box) for d in truth.dice] + [(COCKED, d.box) for d in truth.cocked]]
    dice = np.array(rows, np.float32).reshape(-1, 4)
    return Labelled(frame.image, dice, float(np.median(dice[:, 2])) if len(dice) else 0.0, "synthetic")


def table_throws(count: int, seed: int, processes: int = 2) -> list[Labelled]:
    """``count`` throws on the synthetic table (``table_throw``), seeds ``seed * 1_000_003 + 500_000 + i``
    (apart from the scenes' and from the small seeds the tests use)."""
    if count == 0:
        return []
    with Pool(processes) as pool:
        return pool.map(table_throw, [seed * 1_000_003 + 500_000 + i for i in range(count)], chunksize=16)


def scenes(count: int, seed: int, processes: int = 2) -> list[Labelled]:
    """``count`` scenes, seeds ``seed * 1_000_003 + i``, rendered by ``processes`` worker processes."""
    seeds = [seed * 1_000_003 + i for i in range(count)]
    if count == 0:
        return []
    with Pool(processes) as pool:
        return pool.map(scene, seeds, chunksize=16)
