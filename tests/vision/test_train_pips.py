"""The face reader's pip map (``vision.train.face_data.pip_target``, ``face_fit.pip_loss``): where a
rendered die's pips land in a jittered crop, and a training that learns them beside the class."""

import numpy as np
import pytest

from vision.faces import CROP, crop
from vision.train.face_data import PIP_GRID, cut_transform, jittered_view, pip_target
from vision.train.samples import Labelled


def _dot_image(x: int, y: int, shape=(200, 240)) -> np.ndarray:
    image = np.full((*shape, 3), 40, np.uint8)
    image[y - 1:y + 2, x - 1:x + 2] = 255
    return image


def _dot(img: np.ndarray) -> np.ndarray:
    """(x, y) px: the centroid of the pixels that stand out from the crop's typical colour (the dot,
    bright or, after a colour change, dark)."""
    px = img.astype(np.float32)
    away = np.linalg.norm(px - np.median(px.reshape(-1, 3), axis=0), axis=2)
    ys, xs = np.nonzero(away >= away.max() * 0.5)
    w = away[ys, xs]
    return np.array([(xs * w).sum() / w.sum(), (ys * w).sum() / w.sum()])


@pytest.mark.parametrize("size", [12.0, 30.0, 90.0])
def test_the_cut_maps_a_frame_point_to_where_the_products_crop_puts_it(size):
    image = _dot_image(104, 94)
    cx, cy = 101.3, 96.8
    got = _dot(crop(image, (cx, cy), size))
    want = cut_transform(cx, cy, size) @ (104, 94, 1)
    assert np.linalg.norm(got - want) < 0.6


def test_a_jittered_crop_carries_the_map_of_where_the_frame_went():
    # Shifted, scaled, turned and mirrored at random; the sensor's blur, noise and specks move the
    # dot's centroid in a few crops only.
    image = _dot_image(130, 110)
    errors = []
    for seed in range(30):
        img, to_crop = jittered_view(image, 126.0, 104.0, 40.0, np.random.default_rng(seed), 1.0)
        errors.append(np.linalg.norm(_dot(img) - to_crop @ (130, 110, 1)))
    assert np.median(errors) < 0.3 and sum(e < 0.6 for e in errors) >= 27


def _rendered(pips, unknown=()) -> Labelled:
    return Labelled(np.zeros((100, 100, 3), np.uint8), np.zeros((0, 4), np.float32), 20.0, "synthetic",
                    pips=np.array(pips, np.float32).reshape(-1, 2),
                    unknown_pips=np.array(unknown, np.float32).reshape(-1, 3))


def test_each_pip_in_view_is_a_peak_of_one_at_its_nearest_cell():
    to_crop = cut_transform(50.0, 50.0, 25.6)  # 32 px across for 32 frame px: 1:1, offset 34
    item = _rendered([(45.0, 45.0), (55.0, 55.0), (95.0, 50.0)])  # the third lies outside the crop
    heat, known = pip_target(item, to_crop)
    assert known == 1.0 and heat.shape == (PIP_GRID, PIP_GRID) and heat.dtype == np.float32
    assert np.sum(heat == 1.0) == 2
    for x, y in [(45.0, 45.0), (55.0, 55.0)]:
        cx, cy = to_crop @ (x, y, 1)
        assert heat[int(round((cy - 0.5) / 2)), int(round((cx - 0.5) / 2))] == 1.0
    assert 0.0 <= heat.min() and heat.max() == 1.0


def test_a_photo_and_a_crop_reaching_a_die_of_unknown_pips_teach_no_pip_map():
    to_crop = cut_transform(50.0, 50.0, 25.6)
    photo = Labelled(np.zeros((100, 100, 3), np.uint8), np.zeros((0, 4), np.float32), 20.0, "nell-byler")
    for item in (photo, _rendered([(50.0, 50.0)], [(70.0, 50.0, 20.0)])):
        heat, known = pip_target(item, to_crop)
        assert known == 0.0 and not heat.any()
    heat, known = pip_target(_rendered([(50.0, 50.0)], [(95.0, 50.0, 20.0)]), to_crop)  # far off: known
    assert known == 1.0 and heat.max() == 1.0


def test_a_face_reader_learns_a_pip_map_beside_its_class_and_refuses_it_with_mixup():
    torch = pytest.importorskip("torch")
    from vision.faces import CLASSES
    from vision.train.face_fit import pip_loss, train

    image = np.full((96, 96, 3), 200, np.uint8)
    for x, y in [(40, 40), (48, 48), (56, 56)]:
        image[y - 2:y + 3, x - 2:x + 3] = 20
    item = _rendered([(40, 40), (48, 48), (56, 56)])
    item.image, item.dice = image, np.array([[48.0, 48.0, 30.0, 3.0]], np.float32)
    specs = [(0, 48.0, 48.0, 30.0, 3, 1.0), (0, 15.0, 15.0, 20.0, 0, 1.0)]
    net = train([item], specs, [0.5, 0.5], epochs=1, per_epoch=8, seed=0, batch=4, widths=(4, 4, 4, 4),
                pips=1.0, log=lambda _msg: None)
    logits, pips = net.with_pips(torch.zeros(2, 3, CROP, CROP))
    assert logits.shape == (2, CLASSES) and pips.shape == (2, PIP_GRID, PIP_GRID)
    heat = torch.zeros(2, PIP_GRID, PIP_GRID)
    heat[0, 3, 4] = 1.0
    unknown = pip_loss(pips, heat, torch.tensor([0.0, 0.0])).detach()
    assert float(unknown) == 0.0  # crops whose pips are not known teach nothing
    assert float(pip_loss(pips, heat, torch.tensor([1.0, 0.0])).detach()) > 0.0
    with pytest.raises(ValueError, match="mixup and the pip map"):
        train([item], specs, [0.5, 0.5], epochs=1, per_epoch=8, seed=0, mixup=0.2, pips=1.0)
