"""The face reader's weights averaged over its steps (``vision.train.face_fit.train``'s ``ema``);
needs the ``[train]`` extra."""

import pytest

torch = pytest.importorskip("torch")

from vision.train.face_fit import train  # noqa: E402


def test_an_averaged_face_reader_differs_from_its_last_step_and_reads_crops_of_the_right_shape(train_tiny_face):
    from vision.faces import CLASSES, CROP

    last, averaged = train_tiny_face(), train_tiny_face(ema=0.5)
    assert type(averaged) is type(last) and not averaged.training
    assert averaged(torch.zeros(2, 3, CROP, CROP)).shape == (2, CLASSES)
    assert any(not torch.equal(a, b) for a, b in zip(last.state_dict().values(), averaged.state_dict().values()))


@pytest.mark.parametrize("ema", [-0.1, 1.0])
def test_a_decay_outside_zero_to_one_is_refused_before_any_training(ema):
    with pytest.raises(ValueError, match="ema is a decay"):
        train([], [], [], epochs=1, per_epoch=1, seed=0, ema=ema)
