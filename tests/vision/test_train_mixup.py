"""Mixup for the face reader (``vision.train.face_fit.mixed``); needs the ``[train]`` extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.face_fit import mixed, mixed_loss, train  # noqa: E402


def test_a_blended_batch_is_each_crop_with_another_in_the_weights_drawn():
    x = torch.arange(4 * 3 * 2 * 2, dtype=torch.float32).reshape(4, 3, 2, 2)
    y = torch.tensor([0, 1, 2, 3])
    blended, ya, yb, lam = mixed(x, y, 0.2, np.random.default_rng(0))
    assert 0.0 <= lam <= 1.0 and torch.equal(ya, y) and sorted(yb.tolist()) == [0, 1, 2, 3]
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
