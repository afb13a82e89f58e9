"""The face reader's second look at each crop, standardised by its top face
(``vision.train.nets.centre_view``); needs the ``[train]`` extra."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.faces import CLASSES, CROP, FaceReader, standardise  # noqa: E402
from vision.train.nets import centre_view  # noqa: E402


def _dark_die_on_white(pips: int = 200) -> np.ndarray:
    """(1, 32, 32, 3) uint8 BGR: a near-black die on a white board with three red pips."""
    crop = np.full((1, CROP, CROP, 3), 230, np.uint8)
    crop[0, 3:29, 3:29] = 35
    for c in (10, 16, 22):
        crop[0, c - 1:c + 2, c - 1:c + 2] = (40, 40, pips)
    return crop


def _pip_contrast(planes: torch.Tensor) -> float:
    """The red plane's step from the die to its middle pip."""
    return float(planes[0, 2, 16, 16] - planes[0, 2, 13, 19])


def test_red_pips_on_a_dark_die_stand_out_more_in_the_centre_view():
    x = torch.from_numpy(standardise(_dark_die_on_white()))
    out = centre_view(x)
    assert out.shape == (1, 6, CROP, CROP) and torch.equal(out[:, :3], x)
    assert _pip_contrast(out[:, 3:]) > 2 * _pip_contrast(x)


def test_a_blank_face_is_not_blown_up_into_pips():
    crop = _dark_die_on_white(pips=35)
    crop[0, 16, 16] += 2  # a speck of noise on a blank face
    out = centre_view(torch.from_numpy(standardise(crop)))
    centre = out[0, 3:, 8:24, 8:24]
    assert float(centre.abs().max()) < 0.3


def test_the_tray_around_a_die_is_clipped():
    out = centre_view(torch.from_numpy(standardise(_dark_die_on_white())))
    assert float(out[:, 3:].abs().max()) <= 4.0


def test_a_face_reader_with_the_centre_view_exports_to_what_the_product_runs(train_tiny_face, tmp_path):
    from vision.runtime import available
    from vision.train.face_fit import export

    net = train_tiny_face(centre=True)
    assert net.features[0][0].in_channels == 6
    export(net, tmp_path / "face.onnx")
    crops = np.concatenate([_dark_die_on_white(), np.random.default_rng(0).integers(0, 255, (3, CROP, CROP, 3), np.uint8)])
    with torch.no_grad():
        want = net(torch.from_numpy(standardise(crops))).numpy()
    for runtime in available():  # cv2.dnn, the product's own, and onnxruntime where installed
        logits, embedding = FaceReader(tmp_path / "face.onnx", runtime).outputs(crops)
        assert logits.shape == (4, CLASSES) and embedding.shape == (4, 4)
        np.testing.assert_allclose(logits, want, atol=1e-4, err_msg=runtime)
