"""The early feature styles mixed between training images, of the face reader and of the finder
(``vision.train.styles.MixStyle``); needs the ``[train]`` extra."""

import pytest

torch = pytest.importorskip("torch")

from vision.train.styles import mix_style  # noqa: E402


def _maps(seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 3, 8, 8, generator=g) * torch.tensor([1.0, 3.0, 0.5]).view(1, 3, 1, 1) + 2.0


def test_a_crop_mixed_wholly_with_itself_is_unchanged():
    x = _maps(0)
    assert torch.allclose(mix_style(x, torch.arange(4), torch.ones(4, 1, 1, 1)), x, atol=1e-4)


def test_a_crop_mixed_wholly_with_another_takes_its_style_and_keeps_its_content():
    x, order = _maps(1), torch.tensor([1, 2, 3, 0])
    out = mix_style(x, order, torch.zeros(4, 1, 1, 1))
    assert torch.allclose(out.mean((2, 3)), x[order].mean((2, 3)), atol=1e-4)
    assert torch.allclose(out.std((2, 3)), x[order].std((2, 3)), atol=1e-3)
    own = (x - x.mean((2, 3), keepdim=True)) / x.std((2, 3), keepdim=True)
    theirs = (out - out.mean((2, 3), keepdim=True)) / out.std((2, 3), keepdim=True)
    assert torch.allclose(own, theirs, atol=1e-3)


def test_a_face_reader_trained_with_mixed_styles_differs_and_is_returned_without_hooks(train_tiny_face):
    from vision.faces import CLASSES, CROP

    plain, mixed = train_tiny_face(), train_tiny_face(mixstyle=1.0)
    assert not mixed.training and not any(m._forward_hooks for m in mixed.modules())
    assert mixed(torch.zeros(2, 3, CROP, CROP)).shape == (2, CLASSES)
    assert any(not torch.equal(a, b) for a, b in zip(plain.state_dict().values(), mixed.state_dict().values()))


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_a_share_outside_zero_to_one_is_refused_before_any_training(share):
    from vision.train.face_fit import train

    with pytest.raises(ValueError, match="mixstyle is a share"):
        train([], [], [], epochs=1, per_epoch=1, seed=0, mixstyle=share)


def test_a_finder_trained_with_mixed_styles_differs_and_is_returned_without_hooks():
    import numpy as np

    from vision.train.finder_fit import train
    from vision.train.samples import Labelled

    image = np.random.default_rng(0).integers(0, 255, (128, 128, 3), np.uint8)
    items = [Labelled(image, np.array([[64.0, 64.0, 30.0, 3.0]], np.float32), 30.0, "drawn")]
    tiny = dict(epochs=1, per_epoch=4, seed=0, batch=2, widths=(4, 4, 4, 4, 4), log=lambda _msg: None)
    plain, mixed = train(items, **tiny), train(items, mixstyle=1.0, **tiny)
    assert not mixed.training and not any(m._forward_hooks for m in mixed.modules())
    assert any(not torch.equal(a, b) for a, b in zip(plain.state_dict().values(), mixed.state_dict().values()))
    with pytest.raises(ValueError, match="mixstyle is a share"):
        train(items, mixstyle=2.0, **tiny)
