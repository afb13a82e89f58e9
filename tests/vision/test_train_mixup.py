"""Mixup for the face reader (``vision.train.face_fit.mixed``); needs the ``[train]`` extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.face_fit import mixed, mixed_loss, train  # noqa: E402


def test_a_blended_batch_is_each_crop_with_another_in_the_weights_drawn():
    x = torch.arange(4 * 3 * 2 * 2, dtype=torch.float32).reshape(4, 3, 2, 2)
    y = torch.tensor([0, 1, 2, 3])
    blended, yb, lam = mixed(x, y, 0.2, np.random.default_rng(0))
    assert 0.0 <= lam <= 1.0 and sorted(yb.tolist()) == [0, 1, 2, 3]
    order = [int(v) for v in yb]  # the classes are the crops' indices here
    assert torch.allclose(blended, lam * x + (1 - lam) * x[order])


def test_the_blended_loss_weighs_both_labels_by_their_share():
    out = torch.tensor([[2.0, 0.5, -1.0]])
    ce = torch.nn.CrossEntropyLoss()
    a, b = torch.tensor([0]), torch.tensor([2])
    assert float(mixed_loss(ce, out, a, b, 1.0)) == pytest.approx(float(ce(out, a)))
    assert float(mixed_loss(ce, out, a, b, 0.25)) == pytest.approx(0.25 * float(ce(out, a)) + 0.75 * float(ce(out, b)))


def test_mixup_with_teachers_is_refused_before_any_training():
    with pytest.raises(ValueError, match="mixup and teachers"):
        train([], [], [], epochs=1, per_epoch=1, seed=0, teachers=[object()], mixup=0.2)


def test_a_face_reader_trains_with_mixup_and_reads_crops_of_the_right_shape():
    from vision.faces import CLASSES, CROP
    from vision.train.samples import Labelled

    image = np.random.default_rng(0).integers(0, 255, (96, 96, 3), np.uint8)
    items = [Labelled(image, np.array([[48.0, 48.0, 30.0, 3.0]], np.float32), 30.0, "drawn")]
    specs = [(0, 48.0, 48.0, 30.0, 3, 1.0), (0, 20.0, 20.0, 30.0, 0, 1.0)]
    net = train(items, specs, [0.5, 0.5], epochs=1, per_epoch=8, seed=0, batch=4, widths=(4, 4, 4, 4),
                mixup=0.2, log=lambda _msg: None)
    assert net(torch.zeros(2, 3, CROP, CROP)).shape == (2, CLASSES)
