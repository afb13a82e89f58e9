"""The die finder's frame handling and decoding: any frame size becomes inputs the network takes,
its maps become candidates in frame px, and one die seen twice is one candidate."""

from __future__ import annotations

import numpy as np
import pytest

from vision.finder import (BASE, FINEST, MIN_INPUT, MULTIPLE, PAD_VALUE, SMALLEST_DIE, STRIDE, Candidate, DieFinder, decode,
                           finer_levels, levels, pad, shrink, suppress, to_blob)


@pytest.mark.parametrize("size", [(320, 240), (640, 480), (1280, 960), (4056, 3040), (12000, 9000)])
def test_every_frame_is_first_read_at_the_base_size_and_half_it(size):
    w, h = size
    coarse, base = levels(w, h)
    assert round(max(w, h) * base) == min(BASE, max(w, h)) and coarse == base / 2


@pytest.mark.parametrize("size, sides", [((320, 240), []), ((512, 384), []), ((640, 480), [640]),
                                         ((1280, 960), [640, 1280]), ((4056, 3040), [640, 1280, FINEST]),
                                         ((12000, 9000), [640, 1280, FINEST])])
def test_finer_levels_double_until_the_smallest_die_is_large_enough_or_the_frame_or_the_cap_is_reached(size, sides):
    scales = finer_levels(*size)
    assert [round(max(size) * s) for s in scales] == sides
    assert all(s <= 1.0 for s in scales)
    if scales and max(size) * scales[-1] < FINEST and scales[-1] < 1.0:
        assert SMALLEST_DIE * scales[-1] >= MIN_INPUT


def test_shrinking_keeps_the_mean_and_the_exact_size_even_for_a_huge_frame():
    rng = np.random.default_rng(0)
    big = rng.integers(0, 256, (3040, 4056, 3), dtype=np.uint8)
    small = shrink(big, BASE / 4056)
    assert small.shape == (240, 320, 3) and small.dtype == np.uint8
    assert abs(float(small.mean()) - float(big.mean())) < 1.0
    assert float(small.std()) < 20  # averaged, not point-sampled (which keeps the full spread, ~74)


def test_padding_makes_sides_multiples_of_32_with_the_pad_grey():
    img = np.zeros((240, 330, 3), np.uint8)
    out = pad(img)
    assert out.shape == (256, 352, 3) and out.shape[0] % MULTIPLE == 0 and out.shape[1] % MULTIPLE == 0
    assert (out[240:] == PAD_VALUE).all() and (out[:, 330:] == PAD_VALUE).all() and (out[:240, :330] == 0).all()
    assert pad(np.zeros((64, 96, 3), np.uint8)).shape == (64, 96, 3)


def test_the_input_blob_is_opencvs_blob_from_image_exactly():
    import cv2
    rng = np.random.default_rng(0)
    for h, w in ((32, 32), (256, 320), (128, 160), (96, 64)):
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        blob = to_blob(img)
        assert blob.dtype == np.float32 and blob.shape == (1, 3, h, w)
        assert np.array_equal(blob, cv2.dnn.blobFromImage(img, 1 / 64.0, mean=(128, 128, 128)))


def test_a_centre_peak_decodes_to_its_place_and_size_in_input_px():
    maps = np.full((4, 16, 20), -8.0, np.float32)
    maps[0, 5, 7] = 2.0  # sigmoid 0.88
    maps[1, 5, 7] = np.log(30.0)
    maps[2:, 5, 7] = (0.25, 0.75)
    maps[0, 5, 8] = 1.0  # a weaker neighbour: not a peak of its own
    (c,) = decode(maps, floor=0.3)
    assert c.center == pytest.approx(((7 + 0.25) * STRIDE, (5 + 0.75) * STRIDE))
    assert c.size == pytest.approx(30.0, rel=1e-5) and c.score == pytest.approx(1 / (1 + np.exp(-2.0)))
    assert decode(maps, floor=0.95) == []


def test_one_die_seen_twice_is_kept_once_the_stronger_and_neighbours_stay():
    a = Candidate((100.0, 100.0), 40.0, 0.9)
    twin = Candidate((110.0, 104.0), 44.0, 0.6)  # the same die from the other level
    neighbour = Candidate((142.0, 100.0), 40.0, 0.7)  # a die touching it
    assert suppress([twin, a, neighbour], lambda c: c.score) == [a, neighbour]


def test_the_shipped_finder_loads_and_reads_any_frame_size_without_error():
    finder = DieFinder()
    for h, w in ((32, 32), (240, 320), (481, 641), (3040, 4056)):
        found = finder.find(np.full((h, w, 3), 120, np.uint8))
        assert all(0 <= c.score <= 1 for c in found)
