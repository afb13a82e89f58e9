"""Fixtures of the reader's tests."""

import numpy as np
import pytest


@pytest.fixture
def train_tiny_face():
    """A function training a face reader of widths 4 for two epochs of 8 crops of one drawn die and
    one bare patch (``vision.train.face_fit.train``'s keywords passed on): a training's options
    checked in seconds. Skips without the ``[train]`` extra."""
    pytest.importorskip("torch")
    from vision.train.face_fit import train
    from vision.train.samples import Labelled

    def tiny(**kw):
        image = np.random.default_rng(0).integers(0, 255, (96, 96, 3), np.uint8)
        items = [Labelled(image, np.array([[48.0, 48.0, 30.0, 3.0]], np.float32), 30.0, "drawn")]
        specs = [(0, 48.0, 48.0, 30.0, 3, 1.0), (0, 20.0, 20.0, 30.0, 0, 1.0)]
        return train(items, specs, [0.5, 0.5], epochs=2, per_epoch=8, seed=0, batch=4, widths=(4, 4, 4, 4),
                     log=lambda _msg: None, **kw)
    return tiny
