"""The face reader's weights averaged over its steps (``vision.train.face_fit.train``'s ``ema``);
needs the ``[train]`` extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.train.face_fit import train  # noqa: E402


def _tiny(**kw):
    from vision.train.samples import Labelled

    image = np.random.default_rng(0).integers(0, 255, (96, 96, 3), np.uint8)
    items = [Labelled(image, np.array([[48.0, 48.0, 30.0, 3.0]], np.float32), 30.0, "drawn")]
    specs = [(0, 48.0, 48.0, 30.0, 3, 1.0), (0, 20.0, 20.0, 30.0, 0, 1.0)]
    return train(items, specs, [0.5, 0.5], epochs=2, per_epoch=8, seed=0, batch=4, widths=(4, 4, 4, 4),
                 log=lambda _msg: None, **kw)


def test_an_averaged_face_reader_differs_from_its_last_step_and_reads_crops_of_the_right_shape():
    from vision.faces import CLASSES, CROP

    last, averaged = _tiny(), _tiny(ema=0.5)
    assert type(averaged) is type(last) and not averaged.training
    assert averaged(torch.zeros(2, 3, CROP, CROP)).shape == (2, CLASSES)
    assert any(not torch.equal(a, b) for a, b in zip(last.state_dict().values(), averaged.state_dict().values()))


@pytest.mark.parametrize("ema", [-0.1, 1.0])
def test_a_decay_outside_zero_to_one_is_refused_before_any_training(ema):
    with pytest.raises(ValueError, match="ema is a decay"):
        train([], [], [], epochs=1, per_epoch=1, seed=0, ema=ema)
