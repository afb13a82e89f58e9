"""The two runtimes of the reader's networks (``vision.runtime``): OpenCV's dnn module, the
product's own, and onnxruntime, the optional speed-up, which must give the same answers."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import runtime
from vision.faces import CROP, FaceReader
from vision.finder import DieFinder
from vision.reader import MODELS, Models, read_dice
from vision.runtime import Network

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_opencv_is_always_available_and_first():
    assert runtime.available()[0] == "opencv"


def test_the_environment_can_keep_opencv_where_onnxruntime_is_installed(monkeypatch):
    monkeypatch.setenv(runtime.ENVIRONMENT, "opencv")
    assert runtime.chosen() == "opencv"
    monkeypatch.delenv(runtime.ENVIRONMENT)
    assert runtime.chosen() == runtime.available()[-1]


def test_opencv_runs_the_networks_on_one_thread():
    threads = cv2.getNumThreads()
    try:
        cv2.setNumThreads(4)
        Network(MODELS / "face.onnx", "opencv")
        assert cv2.getNumThreads() == 1
    finally:
        cv2.setNumThreads(threads)


def test_a_missing_network_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError, match="no such network file"):
        Network(tmp_path / "none.onnx", "opencv")


@pytest.mark.parametrize("name", runtime.available())
def test_a_file_that_holds_no_network_is_a_value_error(tmp_path, name):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a network"):
        Network(bad, name)


def test_a_runtime_that_is_not_installed_is_a_value_error(tmp_path):
    with pytest.raises(ValueError, match="not installed"):
        Network(MODELS / "finder.onnx", "tensorflow")


def _fixture_crops() -> np.ndarray:
    crops = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in sorted((FIXTURES / "faces").glob("*.png"))]
    return np.stack([c for c in crops if c is not None and c.shape == (CROP, CROP, 3)])


@pytest.fixture(scope="module")
def both():
    pytest.importorskip("onnxruntime")
    return {name: Models.load(MODELS, name) for name in runtime.RUNTIMES}


def test_both_runtimes_give_the_face_reader_the_same_answers(both):
    crops = _fixture_crops()
    (a, ea), (b, eb) = (both[n].faces.outputs(crops) for n in runtime.RUNTIMES)
    np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(ea, eb, rtol=1e-3, atol=1e-3)


def test_both_runtimes_give_the_finder_the_same_maps(both):
    frame = cv2.imread(str(sorted((FIXTURES / "frames").glob("*.png"))[0]), cv2.IMREAD_COLOR)
    img = cv2.copyMakeBorder(frame, 0, -frame.shape[0] % 32, 0, -frame.shape[1] % 32, cv2.BORDER_REPLICATE)
    a, b = (both[n].finder.maps(img) for n in runtime.RUNTIMES)
    np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-3)


def test_both_runtimes_read_the_fixture_frames_alike(both):
    for path in sorted((FIXTURES / "frames").glob("*.png")):
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        a, b = (read_dice(frame, expected=None, models=both[n]) for n in runtime.RUNTIMES)
        assert (a.kind, a.values) == (b.kind, b.values), path.name


def test_the_shipped_networks_load_with_the_chosen_runtime():
    assert DieFinder().net.runtime == FaceReader().net.runtime == runtime.chosen()


def test_one_network_run_from_two_threads_gives_each_the_outputs_of_its_own_input():
    # The kiosk's camera thread reads while the UI thread keeps a taught throw's crops or fits the
    # table's dice with the same loaded face reader: an input set by one must not be run for the other.
    import threading

    net = Network(MODELS / "face.onnx", "opencv")
    rng = np.random.default_rng(0)
    inputs = [rng.normal(size=(n, 3, CROP, CROP)).astype(np.float32) for n in (16, 8)]
    expected = [net.run(x)[0] for x in inputs]
    wrong = []

    def hammer(k: int) -> None:
        for _ in range(300):
            try:
                if not np.allclose(net.run(inputs[k])[0], expected[k], atol=1e-4):
                    wrong.append(k)
            except cv2.error as exc:  # the other thread's input of another shape, mid-run
                wrong.append(str(exc))

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong
