"""The face reader's crops: cut around a die at its size from the full frame, the frame's border
repeated where the die lies at its edge, standardised so light does not matter."""

from __future__ import annotations

import numpy as np

from vision.faces import CROP, CROP_SCALE, MIN_SPREAD, crop, standardise


def test_a_crop_is_the_square_of_the_dies_size_times_the_scale_around_its_centre():
    img = np.zeros((200, 300, 3), np.uint8)
    img[80:120, 130:170] = 255  # a 40 px white square centred at (150, 100)
    c = crop(img, (150.0, 100.0), 40.0)
    assert c.shape == (CROP, CROP, 3) and c.dtype == np.uint8
    inner = int(round(CROP / CROP_SCALE))
    lo = (CROP - inner) // 2
    assert c[lo + 2:lo + inner - 2, lo + 2:lo + inner - 2].min() > 200  # the square fills the middle
    assert c[:lo - 1].max() < 50 and c[:, :lo - 1].max() < 50  # and the margin around it is black


def test_a_crop_at_the_frames_edge_repeats_the_border_and_one_outside_is_blank():
    img = np.zeros((100, 100, 3), np.uint8)
    img[:, :10] = 200
    c = crop(img, (0.0, 50.0), 40.0)
    assert c.shape == (CROP, CROP, 3) and c[:, 0].min() == 200  # the left border repeated outwards
    assert crop(img, (-500.0, -500.0), 40.0).max() == 0


def test_a_large_die_is_area_resampled_and_a_grey_frame_gives_a_grey_crop():
    rng = np.random.default_rng(1)
    img = rng.integers(0, 256, (3000, 3000, 3), dtype=np.uint8)
    c = crop(img, (1500.0, 1500.0), 800.0)
    assert c.shape == (CROP, CROP, 3) and c.std() < 20  # averaged, not point-sampled noise
    assert crop(img[:, :, 0], (1500.0, 1500.0), 800.0).shape == (CROP, CROP)


def test_standardising_removes_light_and_colour_cast_and_leaves_a_flat_patch_flat():
    rng = np.random.default_rng(2)
    base = rng.integers(40, 100, (2, CROP, CROP, 3)).astype(np.uint8)
    brighter = np.clip(base.astype(int) * 2 + (10, 20, 30), 0, 255).astype(np.uint8)
    a, b = standardise(base), standardise(brighter)
    assert a.shape == (2, 3, CROP, CROP) and a.dtype == np.float32
    assert np.allclose(a, b, atol=0.05)
    flat = np.full((1, CROP, CROP, 3), 90, np.uint8)
    flat[0, 0, 0] = 92  # a speck of sensor noise is not blown up into a pip
    assert np.abs(standardise(flat)).max() <= 2 / MIN_SPREAD + 1e-6
