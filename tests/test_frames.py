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


@pytest.mark.parametrize("shape", [(480, 640), (481, 643), (240, 320), (3040, 4056), (9, 700)])
def test_noise_is_told_from_a_picture_on_the_same_pixels_as_a_colour_subsample(shape):
    import cv2

    from vision.frames import is_noise

    rng = np.random.default_rng(shape[0])
    noise = rng.integers(0, 256, shape + (3,), dtype=np.uint8)
    picture = cv2.GaussianBlur(noise, (0, 0), 6)  # smooth: every pixel near its 3x3 median
    picture[::7, ::7] = 255  # salt specks alone are not noise
    assert is_noise(noise) and not is_noise(picture)
    for frame in (noise, picture, noise[:, ::-1], picture[1::2]):  # views as a caller may pass them
        step = max(1, min(frame.shape[:2]) // 240)
        grey = cv2.cvtColor(np.ascontiguousarray(frame[::step, ::step]), cv2.COLOR_BGR2GRAY)
        far = cv2.absdiff(grey, cv2.medianBlur(grey, 3)) > 10
        assert is_noise(frame) == (far.sum() > grey.size // 2)
