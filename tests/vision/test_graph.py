"""The exact graph rewrites of exported networks (``vision.train.graph``): the finder's decoder
computed in another order gives the same maps; needs the ``[train]`` extra."""

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

import cv2  # noqa: E402

from vision.finder import MODEL  # noqa: E402
from vision.train.graph import commute_upsampling  # noqa: E402


def test_an_exported_finder_gives_the_torch_networks_maps_with_its_decoder_rewritten(tmp_path):
    torch = pytest.importorskip("torch")
    from vision.train.finder_fit import export
    from vision.train.nets import Finder

    torch.manual_seed(0)
    net = Finder().eval()
    for m in net.modules():  # batch norms that do something, as a trained one's do
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
    path = tmp_path / "finder.onnx"
    export(net, path)
    ops = [n.op_type for n in onnx.load(str(path)).graph.node]
    assert "Concat" not in ops and ops.count("Resize") == 3
    x = np.random.default_rng(0).normal(size=(1, 3, 96, 128)).astype(np.float32)
    reader = cv2.dnn.readNetFromONNX(str(path))
    reader.setInput(x)
    with torch.no_grad():
        np.testing.assert_allclose(reader.forward(), net(torch.from_numpy(x)).numpy(), atol=1e-4)


def test_the_shipped_finder_is_already_rewritten():
    model = onnx.load(str(MODEL))
    assert commute_upsampling(model) == 0
    assert "Concat" not in [n.op_type for n in model.graph.node]
