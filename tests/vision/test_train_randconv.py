"""The face reader's crops seen through random filters in training (``vision.train.face_fit.rand_conv``);
needs the ``[train]`` extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.faces import standardise  # noqa: E402
from vision.train.face_fit import RANDCONV_SIZES, rand_conv, random_filter  # noqa: E402


def _crops(seed: int = 0, flat: bool = False) -> torch.Tensor:
    rng = np.random.default_rng(seed)
    crops = np.full((3, 32, 32, 3), 120, np.uint8) if flat else rng.integers(0, 255, (3, 32, 32, 3), np.uint8)
    if flat:
        crops[:, 10:12, 10:12] += 3  # a speck, under the product's least spread
    return torch.from_numpy(standardise(crops))


def test_a_crop_kept_whole_is_unchanged():
    x = _crops()
    kernel, _ = random_filter(np.random.default_rng(1))
    assert torch.allclose(rand_conv(x, kernel, 1.0), x, atol=1e-5)


@pytest.mark.parametrize("seed", range(6))
def test_a_filtered_crop_is_standardised_as_the_product_does_and_keeps_its_spread(seed):
    x = _crops(seed)
    kernel, alpha = random_filter(np.random.default_rng(seed))
    assert kernel.shape[:2] == (3, 3) and kernel.shape[2] in RANDCONV_SIZES and 0 <= alpha < 1
    out = rand_conv(x, kernel, alpha)
    assert out.shape == x.shape and not torch.allclose(out, x, atol=1e-3)
    assert torch.allclose(out.mean((2, 3)), torch.zeros(3, 3), atol=1e-4)
    assert torch.allclose(out.square().mean((1, 2, 3)), x.square().mean((1, 2, 3)), rtol=1e-4)


def test_a_plain_crop_stays_faint():
    x = _crops(flat=True)
    out = rand_conv(x, *random_filter(np.random.default_rng(2)))
    assert float(out.abs().max()) < 1.0


def test_a_face_reader_trained_with_random_filters_differs_and_refuses_teachers(train_tiny_face):
    from vision.faces import CLASSES, CROP

    plain, filtered = train_tiny_face(), train_tiny_face(randconv=1.0)
    assert filtered(torch.zeros(2, 3, CROP, CROP)).shape == (2, CLASSES)
    assert any(not torch.equal(a, b) for a, b in zip(plain.state_dict().values(), filtered.state_dict().values()))
    with pytest.raises(ValueError, match="randconv and teachers"):
        train_tiny_face(randconv=0.5, teachers=[object()])
    with pytest.raises(ValueError, match="randconv is a share"):
        train_tiny_face(randconv=2.0)
