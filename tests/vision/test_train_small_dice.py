"""The face reader's small-dice crops: a large die seen as the product cuts a die of 10-24 px."""

import numpy as np
import pytest

pytest.importorskip("cv2")

from vision.faces import CROP, crop  # noqa: E402
from vision.train.face_data import SMALL_DIE, jittered_view, small_die  # noqa: E402


def _five(side: int) -> np.ndarray:
    """A white die showing 5 of ``side`` px on a grey tray, (4 side, 4 side, 3) uint8 BGR."""
    img = np.full((4 * side, 4 * side, 3), 90, np.uint8)
    a, b = int(1.5 * side), int(2.5 * side)
    img[a:b, a:b] = 240
    r = max(1, side // 10)
    for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
        x, y = int(a + fx * side), int(a + fy * side)
        img[y - r:y + r + 1, x - r:x + r + 1] = 20
    return img


def test_a_large_die_seen_small_looks_like_a_small_die_cut_by_the_product():
    large = crop(_five(120), (240, 240), 120)
    seen = [small_die(large, 120.0, np.random.default_rng(seed)) for seed in range(20)]
    sharp = np.abs(np.diff(large.astype(float), axis=1)).mean()
    for view in seen:
        assert view.shape == (CROP, CROP, 3) and view.dtype == np.uint8
        assert np.abs(np.diff(view.astype(float), axis=1)).mean() < sharp  # fewer px to hold its edges
        # the pips stay where they were: each darker than the face between them
        grey = view.mean(axis=2)
        k = CROP / (1.25 * 120)  # crop px per die px
        pips = [grey[int(round(CROP / 2 + (fy - 0.5) * 120 * k)), int(round(CROP / 2 + (fx - 0.5) * 120 * k))]
                for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75))]
        between = grey[int(round(CROP / 2 - 0.25 * 120 * k)), CROP // 2]
        assert max(pips) < between


def test_a_die_already_small_is_left_as_it_is():
    side = int(SMALL_DIE[0]) - 1
    cut = crop(_five(side), (2 * side, 2 * side), side)
    for seed in range(10):
        assert np.array_equal(small_die(cut, side, np.random.default_rng(seed)), cut)


def test_without_small_dice_the_crops_are_drawn_as_before():
    image = _five(60)
    for seed in range(5):
        a, ma = jittered_view(image, 120.0, 120.0, 60.0, np.random.default_rng(seed))
        b, mb = jittered_view(image, 120.0, 120.0, 60.0, np.random.default_rng(seed), small=0.0)
        assert np.array_equal(a, b) and np.array_equal(ma, mb)
    changed = [not np.array_equal(jittered_view(image, 120.0, 120.0, 60.0, np.random.default_rng(s))[0],
                                  jittered_view(image, 120.0, 120.0, 60.0, np.random.default_rng(s), small=1.0)[0])
               for s in range(5)]
    assert all(changed)
