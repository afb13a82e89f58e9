"""Frames are normalised at the boundary: grey, four-channel and RGB-ordered input become the same
BGR frame (``vision.frames.normalise``)."""

import cv2
import numpy as np
import pytest

from vision.frames import FrameError
from vision.sources import normalise
from vision.synth import TableLook, render_still


def test_grey_four_channel_and_rgb_ordered_frames_normalise_to_the_same_bgr_frame():
    bgr, _ = render_still([3, 4], seed=1)
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    assert np.array_equal(normalise(bgr[:, :, ::-1], "rgb"), bgr)
    assert np.array_equal(normalise(np.dstack([bgr, np.full(grey.shape, 255, np.uint8)])), bgr)
    assert np.array_equal(normalise(np.dstack([bgr[:, :, ::-1], grey]), "rgb"), bgr)  # XBGR8888
    assert np.array_equal(normalise(grey), np.dstack([grey] * 3))
    assert np.array_equal(normalise(grey, "rgb"), np.dstack([grey] * 3))


def test_grey_four_channel_and_swapped_colour_input_give_the_same_reading():
    from vision.reader import read_dice

    bgr, _ = render_still([2, 5, 6], seed=3, look=TableLook())
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    inputs = [(bgr, "bgr"), (grey, "bgr"), (np.dstack([bgr, grey]), "bgr"), (np.ascontiguousarray(bgr[:, :, ::-1]), "rgb")]
    readings = [read_dice(normalise(img, order), expected=3) for img, order in inputs]
    assert {(r.status, r.values) for r in readings} == {("ok", (2, 5, 6))}


def test_normalising_refuses_what_is_not_an_image_or_an_unknown_order():
    with pytest.raises(FrameError):
        normalise(np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ValueError, match="order"):
        normalise(np.zeros((20, 20, 3), np.uint8), "yuv")
