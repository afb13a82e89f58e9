"""Frames are normalised to (H, W, 3) uint8 BGR at the boundary."""

import numpy as np
import pytest

from vision.frames import FrameError, to_bgr


def test_grey_one_channel_and_four_channel_frames_become_three_channel_bgr():
    grey = np.arange(64 * 48, dtype=np.uint8).reshape(48, 64)
    bgr = np.dstack([grey, grey, grey])
    assert np.array_equal(to_bgr(grey), bgr)
    assert np.array_equal(to_bgr(grey[:, :, None]), bgr)
    assert np.array_equal(to_bgr(np.dstack([bgr, np.full_like(grey, 255)])), bgr)


def test_sixteen_bit_and_float_frames_are_scaled_to_uint8():
    assert to_bgr(np.full((10, 10), 65535, np.uint16)).max() == 255
    assert to_bgr(np.full((10, 10, 3), 1.0)).min() == 255


@pytest.mark.parametrize(
    "bad",
    [None, np.zeros(10, np.uint8), np.zeros((2, 2, 3), np.uint8), np.zeros((10, 10, 5), np.uint8),
     np.zeros((10, 10), np.int64), np.full((10, 10), np.nan)],
)
def test_unusable_frames_raise_a_clear_frame_error(bad):
    with pytest.raises(FrameError):
        to_bgr(bad)
